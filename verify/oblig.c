/* oblig.c - the proof obligations of a trace pair (guard pairing by
 * label, the aligned/trace/exit obligations) and their concrete meaning
 * for the replay; the contract is in oblig.h. */
#include "oblig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void obl_list_free(obl_list *l)
{
	free(l->v);
	memset(l, 0, sizeof *l);
}

static bool push(obl_list *l, obl b)
{
	if (l->n == l->cap) {
		uint32_t ncap = l->cap ? l->cap * 2 : 32;
		obl *v = realloc(l->v, (size_t)ncap * sizeof *v);
		if (!v)
			return false;
		l->v = v;
		l->cap = ncap;
	}
	l->v[l->n++] = b;
	return true;
}

static bool is_guard(const ir_trace *t, uint32_t i)
{
	return ir_op_has(t->ops[i].opc, IRF_GUARD);
}

bool obl_all_implicit(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (is_guard(t, i) &&
		    !(t->ops[i].flags & IR_OPF_IMPLICIT_LABEL))
			return false;
	return true;
}

/* ---- pairing by label -------------------------------------------------- */

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* An open-addressing table from ORIG guard labels to op indices. */
typedef struct label_map {
	uint32_t *slot; /* op index or OBL_NONE */
	uint32_t mask;
} label_map;

static bool map_build(label_map *m, const ir_trace *t)
{
	uint32_t cap = 16;
	while (cap < 2 * t->nops + 2)
		cap *= 2;
	m->slot = malloc((size_t)cap * sizeof *m->slot);
	if (!m->slot)
		return false;
	memset(m->slot, 0xff, (size_t)cap * sizeof *m->slot);
	m->mask = cap - 1;
	for (uint32_t i = 0; i < t->nops; i++) {
		if (!is_guard(t, i))
			continue;
		uint32_t k = hash_str(ir_guard_label(t, i)) & m->mask;
		while (m->slot[k] != OBL_NONE)
			k = (k + 1) & m->mask;
		m->slot[k] = i;
	}
	return true;
}

static uint32_t map_find(const label_map *m, const ir_trace *t,
			 const char *label)
{
	uint32_t k = hash_str(label) & m->mask;
	while (m->slot[k] != OBL_NONE) {
		if (!strcmp(ir_guard_label(t, m->slot[k]), label))
			return m->slot[k];
		k = (k + 1) & m->mask;
	}
	return OBL_NONE;
}

jp_status obl_match_labels(const ir_trace *orig, const ir_trace *opt,
			   uint32_t *match, jp_err *err)
{
	label_map m;
	if (!map_build(&m, orig))
		return jp_fail(err, JP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < opt->nops; i++)
		match[i] = is_guard(opt, i)
			       ? map_find(&m, orig, ir_guard_label(opt, i))
			       : OBL_NONE;
	free(m.slot);
	return JP_OK;
}

bool obl_in_order(const ir_trace *opt, const uint32_t *match, uint32_t *og,
		  uint32_t *pg)
{
	uint32_t last = OBL_NONE, last_p = OBL_NONE;
	for (uint32_t i = 0; i < opt->nops; i++) {
		uint32_t g = match[i];
		if (g == OBL_NONE)
			continue;
		if (last != OBL_NONE && g < last) {
			if (og)
				*og = g;
			if (pg)
				*pg = last_p;
			return false;
		}
		last = g;
		last_p = i;
	}
	return true;
}

jp_status obl_require_order(const ir_trace *orig, const ir_trace *opt,
			    const uint32_t *match, jp_err *err)
{
	uint32_t og, pg;
	if (obl_in_order(opt, match, &og, &pg))
		return JP_OK;
	return jp_fail_at(err, JP_EUNSUPPORTED, NULL, opt->ops[pg].line,
			  opt->ops[pg].col,
			  "the optimized trace has guard %s before guard %s, "
			  "the original the other way round: the heap model "
			  "checks guards in order only",
			  ir_guard_label(opt, pg), ir_guard_label(orig, og));
}

/* ---- building ---------------------------------------------------------- */

static uint32_t end_op(const ir_trace *t)
{
	for (uint32_t i = t->nops; i > 0; i--)
		if (ir_op_has(t->ops[i - 1].opc, IRF_END))
			return i - 1;
	return OBL_NONE;
}

bool obl_ends_differ(const ir_trace *orig, const ir_trace *opt)
{
	uint32_t eo = end_op(orig), ep = end_op(opt);
	if (eo == OBL_NONE || ep == OBL_NONE)
		return true;
	const ir_op *a = &orig->ops[eo], *b = &opt->ops[ep];
	if (a->opc != b->opc || a->nargs != b->nargs)
		return true;
	for (uint32_t j = 0; j < a->nargs; j++)
		if ((ir_val(orig, a->args[j])->kind == 'r') !=
		    (ir_val(opt, b->args[j])->kind == 'r'))
			return true;
	return false;
}

static obl mk(obl_kind k, uint32_t og, uint32_t pg, uint32_t o_upto,
	      uint32_t p_upto)
{
	obl b = {k, og, pg, 0, o_upto, p_upto};
	return b;
}

static bool add_end(obl_list *l, const ir_trace *orig, const ir_trace *opt)
{
	if (obl_ends_differ(orig, opt))
		return push(
		    l, mk(OBL_END, OBL_NONE, OBL_NONE, orig->nops, opt->nops));
	uint32_t n = orig->ops[end_op(orig)].nargs;
	for (uint32_t j = 0; j < n; j++) {
		obl b =
		    mk(OBL_OUTPUT, OBL_NONE, OBL_NONE, orig->nops, opt->nops);
		b.j = j;
		if (!push(l, b))
			return false;
	}
	return true;
}

/* The aligned walk: between two paired guards, first the ORIG guards that
 * were removed (assuming only what both traces passed so far), then the
 * guards new in OPT (assuming ORIG passed everything up to the next paired
 * guard), then the pair itself. */
static bool build_aligned(obl_list *l, const ir_trace *orig,
			  const ir_trace *opt, const uint32_t *match,
			  bool failargs)
{
	uint32_t oc = 0, pc = 0; /* next op index not yet walked */
	uint32_t p_done = 0;	 /* OPT guards before this index passed */
	for (;;) {
		/* The next paired guard of OPT, if any. */
		uint32_t h = pc;
		while (h < opt->nops &&
		       (!is_guard(opt, h) || match[h] == OBL_NONE))
			h++;
		uint32_t g = h < opt->nops ? match[h] : orig->nops;
		for (; oc < g; oc++)
			if (is_guard(orig, oc) &&
			    !push(l, mk(OBL_REMOVED, oc, OBL_NONE, oc, p_done)))
				return false;
		for (; pc < h; pc++)
			if (is_guard(opt, pc) &&
			    !push(l, mk(OBL_NEW, OBL_NONE, pc, g, pc)))
				return false;
		if (h >= opt->nops)
			break;
		if (!push(l, mk(OBL_SAME, g, h, g, h)))
			return false;
		if (failargs && !push(l, mk(OBL_FAILARGS, g, h, g, h)))
			return false;
		oc = g + 1;
		pc = h + 1;
		p_done = h + 1;
	}
	return add_end(l, orig, opt);
}

static bool build_trace(obl_list *l, const ir_trace *orig, const ir_trace *opt)
{
	for (uint32_t i = 0; i < orig->nops; i++)
		if (is_guard(orig, i) &&
		    !push(l, mk(OBL_T_ORIG, i, OBL_NONE, i, opt->nops)))
			return false;
	for (uint32_t i = 0; i < opt->nops; i++)
		if (is_guard(opt, i) &&
		    !push(l, mk(OBL_T_OPT, OBL_NONE, i, orig->nops, i)))
			return false;
	return add_end(l, orig, opt);
}

/* Guards out of order (OG, PG as from obl_in_order): no walk in order
 * exists, so the whole exit behaviour is one obligation, without
 * assumptions, followed by the end's. */
static bool build_exit(obl_list *l, const ir_trace *orig, const ir_trace *opt,
		       uint32_t og, uint32_t pg, bool failargs)
{
	obl b = mk(OBL_EXIT, og, pg, 0, 0);
	b.j = failargs;
	return push(l, b) && add_end(l, orig, opt);
}

jp_status obl_build(const ir_trace *orig, const ir_trace *opt, ver_mode mode,
		    const uint32_t *match, bool failargs, obl_list *out,
		    jp_err *err)
{
	memset(out, 0, sizeof *out);
	uint32_t og = OBL_NONE, pg = OBL_NONE;
	bool ok;
	if (mode == VER_MODE_TRACE)
		ok = build_trace(out, orig, opt);
	else if (!obl_in_order(opt, match, &og, &pg))
		ok = build_exit(out, orig, opt, og, pg, failargs);
	else
		ok = build_aligned(out, orig, opt, match, failargs);
	if (!ok) {
		obl_list_free(out);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	return JP_OK;
}

void obl_describe(const obl *b, const ir_trace *orig, const ir_trace *opt,
		  strbuf *sb)
{
	switch (b->kind) {
	case OBL_SAME:
		sb_printf(sb, "guard %s (same condition)",
			  ir_guard_label(orig, b->og));
		break;
	case OBL_FAILARGS:
		sb_printf(sb, "guard %s (same fail-args when it fails)",
			  ir_guard_label(orig, b->og));
		break;
	case OBL_REMOVED:
		sb_printf(sb, "guard %s (removed: must always pass)",
			  ir_guard_label(orig, b->og));
		break;
	case OBL_NEW:
		sb_printf(sb,
			  "guard %s (new in the optimized trace: must pass "
			  "where the original passes)",
			  ir_guard_label(opt, b->pg));
		break;
	case OBL_OUTPUT: sb_printf(sb, "output %u (same value)", b->j); break;
	case OBL_END:
		sb_puts(sb, "end (the traces end differently: the end must be "
			    "unreachable)");
		break;
	case OBL_T_ORIG:
		sb_printf(sb,
			  "original guard %s (must pass where the optimized "
			  "trace reaches its end)",
			  ir_guard_label(orig, b->og));
		break;
	case OBL_T_OPT:
		sb_printf(sb,
			  "optimized guard %s (must pass where the original "
			  "reaches its end)",
			  ir_guard_label(opt, b->pg));
		break;
	case OBL_MODEL: sb_printf(sb, "heap model obligation %u", b->j); break;
	case OBL_EXIT:
		sb_printf(sb,
			  "exit (guards %s and %s in another order: both "
			  "traces must leave at the same guard%s, or pass "
			  "every guard)",
			  ir_guard_label(opt, b->pg),
			  ir_guard_label(orig, b->og),
			  b->j ? " with the same fail-args" : "");
		break;
	}
}

/* ---- concrete meaning -------------------------------------------------- */

static bool passed_before(const interp_result *r, uint32_t upto)
{
	return !(r->outcome == INTERP_GUARD_FAIL && r->stop_op < upto);
}

static bool fails_at(const interp_result *r, uint32_t g)
{
	return r->outcome == INTERP_GUARD_FAIL && r->stop_op == g;
}

static bool at_end(const interp_result *r)
{
	return r->outcome != INTERP_GUARD_FAIL;
}

/* Whether fail-args lists A (of trace TA) and B are equal on the runs:
 * same length, None at the same places, same kinds, same values. */
static bool failargs_equal(const ir_trace *ta, const ir_op *a,
			   const interp_result *ra, const ir_trace *tb,
			   const ir_op *b, const interp_result *rb)
{
	if (a->nfail != b->nfail)
		return false;
	for (uint32_t j = 0; j < a->nfail; j++) {
		ir_vid va = a->failargs[j], vb = b->failargs[j];
		if ((va == IR_NOVAL) != (vb == IR_NOVAL))
			return false;
		if (va == IR_NOVAL)
			continue;
		if ((ir_val(ta, va)->kind == 'r') !=
		    (ir_val(tb, vb)->kind == 'r'))
			return false;
		if (ra->vals[va] != rb->vals[vb])
			return false;
	}
	return true;
}

static bool outputs_equal(const ir_trace *orig, const ir_trace *opt,
			  const interp_result *ro, const interp_result *rp,
			  uint32_t *which)
{
	const ir_op *a = &orig->ops[ro->stop_op], *b = &opt->ops[rp->stop_op];
	for (uint32_t j = 0; j < a->nargs; j++)
		if (ro->vals[a->args[j]] != rp->vals[b->args[j]]) {
			if (which)
				*which = j;
			return false;
		}
	return true;
}

/* OBL_EXIT on the runs: they leave at guards with different labels, or
 * one passes every guard and the other does not, or (B->j) they leave at
 * the same label with different fail-args. */
static bool exits_differ(const obl *b, const ir_trace *orig,
			 const ir_trace *opt, const interp_result *ro,
			 const interp_result *rp)
{
	if (at_end(ro) != at_end(rp))
		return true;
	if (at_end(ro))
		return false; /* the end's obligations compare the ends */
	if (strcmp(ir_guard_label(orig, ro->stop_op),
		   ir_guard_label(opt, rp->stop_op)))
		return true;
	return b->j && !failargs_equal(orig, &orig->ops[ro->stop_op], ro, opt,
				       &opt->ops[rp->stop_op], rp);
}

obl_truth obl_eval(const obl *b, const ir_trace *orig, const ir_trace *opt,
		   const interp_result *ro, const interp_result *rp)
{
	if (!passed_before(ro, b->o_upto) || !passed_before(rp, b->p_upto))
		return OBL_VACUOUS;
	bool fails = false;
	switch (b->kind) {
	case OBL_SAME:
		fails = fails_at(ro, b->og) != fails_at(rp, b->pg);
		break;
	case OBL_FAILARGS:
		if (!fails_at(ro, b->og) || !fails_at(rp, b->pg))
			return OBL_VACUOUS;
		fails = !failargs_equal(orig, &orig->ops[b->og], ro, opt,
					&opt->ops[b->pg], rp);
		break;
	case OBL_REMOVED:
	case OBL_T_ORIG: fails = fails_at(ro, b->og); break;
	case OBL_NEW:
	case OBL_T_OPT: fails = fails_at(rp, b->pg); break;
	case OBL_OUTPUT: {
		if (!at_end(ro) || !at_end(rp))
			return OBL_VACUOUS;
		ir_vid va = orig->ops[ro->stop_op].args[b->j];
		ir_vid vb = opt->ops[rp->stop_op].args[b->j];
		fails = ro->vals[va] != rp->vals[vb];
		break;
	}
	case OBL_END:
		if (!at_end(ro) || !at_end(rp))
			return OBL_VACUOUS;
		fails = true;
		break;
	case OBL_EXIT: fails = exits_differ(b, orig, opt, ro, rp); break;
	case OBL_MODEL: return OBL_VACUOUS; /* hp_replay judges it */
	}
	return fails ? OBL_FAILS : OBL_HOLDS;
}

int32_t obl_first_failing(const obl_list *l, const ir_trace *orig,
			  const ir_trace *opt, const interp_result *ro,
			  const interp_result *rp)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (obl_eval(&l->v[i], orig, opt, ro, rp) == OBL_FAILS)
			return (int32_t)i;
	return -1;
}

/* ---- observable behaviour ---------------------------------------------- */

static void say_exit(const ir_trace *t, const interp_result *r, strbuf *sb)
{
	if (at_end(r))
		sb_printf(sb, "reaches %s", ir_op_name(t, &t->ops[r->stop_op]));
	else
		sb_printf(sb, "fails at guard %s",
			  ir_guard_label(t, r->stop_op));
}

static bool differ(strbuf *why, const ir_trace *orig, const ir_trace *opt,
		   const interp_result *ro, const interp_result *rp,
		   const char *detail)
{
	if (!why)
		return true;
	sb_puts(why, "the original ");
	say_exit(orig, ro, why);
	sb_puts(why, ", the optimized trace ");
	say_exit(opt, rp, why);
	if (detail)
		sb_printf(why, ", %s", detail);
	return true;
}

static bool ends_diverge(const ir_trace *orig, const ir_trace *opt,
			 const interp_result *ro, const interp_result *rp,
			 strbuf *why)
{
	const ir_op *a = &orig->ops[ro->stop_op], *b = &opt->ops[rp->stop_op];
	if (a->opc != b->opc || a->nargs != b->nargs)
		return differ(why, orig, opt, ro, rp,
			      "with different ends (kind or number of "
			      "outputs)");
	uint32_t j;
	if (!outputs_equal(orig, opt, ro, rp, &j)) {
		if (why) {
			char d[48];
			snprintf(d, sizeof d, "with different output %u", j);
			differ(why, orig, opt, ro, rp, d);
		}
		return true;
	}
	for (j = 0; j < a->nargs; j++)
		if ((ir_val(orig, a->args[j])->kind == 'r') !=
		    (ir_val(opt, b->args[j])->kind == 'r'))
			return differ(why, orig, opt, ro, rp,
				      "with outputs of different kinds");
	return false;
}

bool obl_diverges(ver_mode mode, bool failargs, const ir_trace *orig,
		  const ir_trace *opt, const interp_result *ro,
		  const interp_result *rp, strbuf *why)
{
	if (at_end(ro) != at_end(rp))
		return differ(why, orig, opt, ro, rp, NULL);
	if (at_end(ro))
		return ends_diverge(orig, opt, ro, rp, why);
	if (mode == VER_MODE_TRACE || mode == VER_MODE_INFERRED)
		return false; /* both leave the trace: trace mode accepts it */
	if (strcmp(ir_guard_label(orig, ro->stop_op),
		   ir_guard_label(opt, rp->stop_op)))
		return differ(why, orig, opt, ro, rp, NULL);
	if (failargs && !failargs_equal(orig, &orig->ops[ro->stop_op], ro, opt,
					&opt->ops[rp->stop_op], rp))
		return differ(why, orig, opt, ro, rp,
			      "with different fail-args");
	return false;
}
