#define _POSIX_C_SOURCE 200809L
#include "reduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/interp.h"
#include "ir/sem.h"
#include "ir/validate.h"
#include "util/clock.h"

const char *red_kind_name(red_kind k)
{
	switch (k) {
	case RED_PROVED: return "proved";
	case RED_UNKNOWN: return "unknown";
	case RED_REFUTED: return "refuted";
	case RED_OPT_ERROR: return "optimizer-error";
	case RED_OPT_INVALID: return "invalid-optimized-trace";
	case RED_VER_ERROR: return "verifier-error";
	case RED_OPT_CRASH: return "optimizer-crash";
	case RED_OPT_HANG: return "optimizer-hang";
	case RED_OPT_BADOUT: return "optimizer-bad-output";
	}
	return "?";
}

red_env red_default_env(ver_ctx *vc)
{
	red_env e;
	memset(&e, 0, sizeof e);
	e.vc = vc;
	e.cfg = opt_default_config();
	e.vo = ver_default_opts();
	e.vo.timeout_ms = 2000;
	return e;
}

/* ---- judging one trace ---- */

/* Copies SRC into DST, cut to fit (messages are only for reading). */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : 0;
	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

void red_normalize(const char *what, char *buf, size_t size)
{
	size_t n = 0;
	const char *p = what;
	if (size == 0)
		return;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *b = p;
		bool digit = false;
		while (*p && *p != ' ') {
			digit |= *p >= '0' && *p <= '9';
			p++;
		}
		if (p == b || digit)
			continue;
		size_t len = (size_t)(p - b);
		if (n + len + 2 > size)
			break;
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, b, len);
		n += len;
	}
	buf[n] = '\0';
}

/* Labels need not contain digits (descr=foo); the word after "guard" is
 * always the label, so drop it too. */
static void normalize_obligation(const char *what, char *buf, size_t size)
{
	char tmp[256];
	const char *w = what;
	const char *g = strstr(w, "guard ");
	if (g && strchr(w, '(')) {
		const char *lbl = g + 6;
		const char *end = strchr(lbl, ' ');
		if (end && end < strchr(w, '(')) {
			snprintf(tmp, sizeof tmp, "%.*s%s", (int)(lbl - w), w,
				 end + 1);
			w = tmp;
		}
	}
	red_normalize(w, buf, size);
}

jp_status red_evaluate(const red_env *env, const ir_trace *orig,
		       red_outcome *out, jp_err *err)
{
	memset(out, 0, sizeof *out);
	jp_err e;
	jp_err_clear(&e);
	double t0 = clk_now_ms();
	jp_status st;
	if (env->optimizer) {
		red_kind fail = RED_OPT_ERROR;
		const red_optimizer *x = env->optimizer;
		st = x->optimize(x->self, orig, &out->opt, &fail, out->obl,
				 sizeof out->obl, &e);
		out->ms_opt = clk_now_ms() - t0;
		if (st)
			return jp_fail(err, st, "%s", e.msg);
		if (!out->opt) {
			out->kind = fail;
			copy_text(out->what, sizeof out->what, e.msg);
			return JP_OK;
		}
	} else {
		opt_stats os;
		memset(&os, 0, sizeof os);
		st = opt_run(orig, &env->cfg, &out->opt, &os, &e);
		out->ms_opt = clk_now_ms() - t0;
		out->rules_fired = os.rules_fired;
		memcpy(out->rule_hits, os.rule_hits, sizeof out->rule_hits);
		memcpy(out->branch_hits, os.branch_hits,
		       sizeof out->branch_hits);
	}
	if (st == JP_ENOMEM)
		return jp_fail(err, st, "%s", e.msg);
	if (st) {
		out->opt = NULL;
		out->kind = RED_OPT_ERROR;
		copy_text(out->obl, sizeof out->obl, jp_status_name(st));
		copy_text(out->what, sizeof out->what, e.msg);
		return JP_OK;
	}
	if ((st = ir_validate(out->opt, "optimized trace", &e))) {
		out->kind = RED_OPT_INVALID;
		copy_text(out->obl, sizeof out->obl, "invalid trace");
		copy_text(out->what, sizeof out->what, e.msg);
		return JP_OK;
	}
	t0 = clk_now_ms();
	st = ver_check(env->vc, orig, out->opt, &env->vo, &out->res, &e);
	out->ms_ver = clk_now_ms() - t0;
	out->have_res = true;
	switch (st) {
	case JP_OK: break;
	case JP_ENOMEM:
		red_outcome_free(out);
		return jp_fail(err, st, "%s", e.msg);
	case JP_EINPUT:
		/* The pair does not fit together (say a guard moved before
		 * another): the optimizer broke its contract. */
		out->kind = RED_OPT_INVALID;
		copy_text(out->obl, sizeof out->obl, "broken contract");
		copy_text(out->what, sizeof out->what, e.msg);
		return JP_OK;
	case JP_EUNSUPPORTED:
	case JP_ELIMIT:
		out->kind = RED_UNKNOWN;
		copy_text(out->obl, sizeof out->obl, jp_status_name(st));
		copy_text(out->what, sizeof out->what, e.msg);
		return JP_OK;
	default:
		out->kind = RED_VER_ERROR;
		copy_text(out->obl, sizeof out->obl, jp_status_name(st));
		copy_text(out->what, sizeof out->what, e.msg);
		return JP_OK;
	}
	const ver_result *r = &out->res;
	if (r->failed >= 0 && (uint32_t)r->failed < r->nobl) {
		copy_text(out->what, sizeof out->what, r->obl[r->failed].what);
		normalize_obligation(out->what, out->obl, sizeof out->obl);
	}
	switch (r->verdict) {
	case VER_PROVED: out->kind = RED_PROVED; break;
	case VER_REFUTED: out->kind = RED_REFUTED; break;
	case VER_UNKNOWN: out->kind = RED_UNKNOWN; break;
	}
	return JP_OK;
}

void red_outcome_free(red_outcome *o)
{
	ir_trace_free(o->opt);
	o->opt = NULL;
	if (o->have_res)
		ver_result_free(&o->res);
	o->have_res = false;
}

bool red_same_failure(const red_outcome *a, const red_outcome *b)
{
	return a->kind == b->kind && !strcmp(a->obl, b->obl);
}

/* ---- candidates ----
 * A candidate is the current trace plus one edit: ops to drop (each result
 * replaced by a substitute), opcodes to change, constants to change,
 * inputs and outputs to drop.  materialize() builds it as a fresh trace,
 * which renames every value, so no editing API is needed on ir_trace. */

enum { SUB_NONE, SUB_VID, SUB_CONST, SUB_NULL, SUB_NEWIN };

typedef struct rsub {
	uint8_t how;
	ir_vid vid;    /* SUB_VID: a value of the current trace */
	uint64_t cval; /* SUB_CONST */
} rsub;

typedef struct red_edit {
	uint32_t capops, capvals, capins, capout;
	uint8_t *dropop;
	uint16_t *newopc; /* UINT16_MAX = unchanged */
	rsub *sub;	  /* per vid: what replaces it (inputs, dropped
			     results, constants) */
	uint8_t *dropin;  /* per input index */
	uint8_t *dropout; /* per argument of the end op */
	bool nofail;	  /* drop every fail-args list */
	bool nomarks;	  /* drop debug_merge_point / label */
	bool relabel;	  /* guards become g0, g1, ... (implicit) */
	uint32_t pin_op;  /* this guard becomes guard_value(PIN_VAL,
			     PIN_CONST); UINT32_MAX = none */
	ir_vid pin_val;
	uint64_t pin_const;
} red_edit;

static bool edit_fit(red_edit *e, const ir_trace *t)
{
	uint32_t nout = t->nops ? t->ops[t->nops - 1].nargs : 0;
	if (t->nops > e->capops) {
		free(e->dropop);
		free(e->newopc);
		e->dropop = malloc(t->nops);
		e->newopc = malloc(t->nops * sizeof *e->newopc);
		e->capops = t->nops;
	}
	if (t->nvals > e->capvals) {
		free(e->sub);
		e->sub = malloc(t->nvals * sizeof *e->sub);
		e->capvals = t->nvals;
	}
	if (t->ninputs + 1 > e->capins) {
		free(e->dropin);
		e->dropin = malloc(t->ninputs + 1);
		e->capins = t->ninputs + 1;
	}
	if (nout + 1 > e->capout) {
		free(e->dropout);
		e->dropout = malloc(nout + 1);
		e->capout = nout + 1;
	}
	return e->dropop && e->newopc && e->sub && e->dropin && e->dropout;
}

static void edit_clear(red_edit *e, const ir_trace *t)
{
	memset(e->dropop, 0, t->nops);
	memset(e->newopc, 0xff, t->nops * sizeof *e->newopc);
	memset(e->sub, 0, t->nvals * sizeof *e->sub);
	memset(e->dropin, 0, t->ninputs + 1);
	memset(e->dropout, 0, e->capout);
	e->nofail = e->nomarks = e->relabel = false;
	e->pin_op = UINT32_MAX;
}

static void edit_free(red_edit *e)
{
	free(e->dropop);
	free(e->newopc);
	free(e->sub);
	free(e->dropin);
	free(e->dropout);
}

typedef struct mat {
	const ir_trace *b; /* the current trace */
	const red_edit *e;
	ir_trace *t; /* the candidate being built */
	ir_vid *map; /* current vid -> candidate vid */
	bool bad;    /* the edit leaves a value undefined, or no memory */
} mat;

static ir_vid get(mat *m, ir_vid v);

static ir_vid resolve_sub(mat *m, ir_vid v)
{
	const rsub *s = &m->e->sub[v];
	char kind = m->b->vals[v].kind;
	switch (s->how) {
	case SUB_VID: return get(m, s->vid); /* an earlier value: no cycle */
	case SUB_CONST: return ir_const_int(m->t, s->cval);
	case SUB_NULL: return ir_const_null(m->t);
	default: return ir_add_input(m->t, kind == 'r' ? 'r' : 'i', NULL);
	}
}

/* The candidate's value for current value V. */
static ir_vid get(mat *m, ir_vid v)
{
	if (v == IR_NOVAL)
		return IR_NOVAL;
	if (m->map[v] != IR_NOVAL)
		return m->map[v];
	const ir_value *x = &m->b->vals[v];
	ir_vid r = IR_NOVAL;
	if (m->e->sub[v].how != SUB_NONE) {
		r = resolve_sub(m, v);
	} else {
		switch ((ir_valtag)x->tag) {
		case IR_VAL_CONST_INT: r = ir_const_int(m->t, x->cval); break;
		case IR_VAL_CONST_NULL: r = ir_const_null(m->t); break;
		case IR_VAL_CONST_PTR:
			r = ir_const_ptr(m->t, ir_strtext(m->b, x->name));
			break;
		case IR_VAL_CONST_CLASS:
			r = ir_const_class(m->t, ir_strtext(m->b, x->name));
			break;
		default: break; /* a dropped input or op with no substitute */
		}
	}
	if (r == IR_NOVAL)
		m->bad = true;
	return m->map[v] = r;
}

static uint32_t copy_str(mat *m, uint32_t id)
{
	if (id == 0)
		return 0;
	uint32_t r = ir_cstr(m->t, ir_strtext(m->b, id));
	if (r == UINT32_MAX)
		m->bad = true;
	return r;
}

static void mat_op(mat *m, uint32_t i, uint32_t *nguards, ir_vid *args)
{
	const ir_op *op = &m->b->ops[i];
	const red_edit *e = m->e;
	bool end = ir_op_has(op->opc, IRF_END);
	uint32_t n = 0;
	ir_opcode opc = e->newopc[i] != UINT16_MAX ? (ir_opcode)e->newopc[i]
						   : (ir_opcode)op->opc;
	if (i == e->pin_op) {
		opc = IR_GUARD_VALUE;
		args[n++] = get(m, e->pin_val);
		args[n++] = ir_const_int(m->t, e->pin_const);
	} else {
		for (uint32_t a = 0; a < op->nargs; a++) {
			if (end && e->dropout[a])
				continue;
			args[n++] = get(m, op->args[a]);
		}
	}
	bool guard = ir_op_has(opc, IRF_GUARD);
	uint32_t descr;
	if (guard && e->relabel) {
		char lbl[24];
		snprintf(lbl, sizeof lbl, "g%u", *nguards);
		descr = ir_cstr(m->t, lbl);
		if (descr == UINT32_MAX)
			m->bad = true;
	} else {
		descr = copy_str(m, op->descr);
	}
	if (m->bad)
		return;
	uint32_t opi = ir_emit_kind(m->t, opc, op->kind, n, args, descr, NULL);
	if (opi == UINT32_MAX) {
		m->bad = true;
		return;
	}
	ir_op *nop = &m->t->ops[opi];
	nop->flags = op->flags & ~(IR_OPF_IMPLICIT_LABEL | IR_OPF_HAS_FAILARGS);
	if (guard && e->relabel)
		nop->flags |= IR_OPF_IMPLICIT_LABEL;
	nop->opname = copy_str(m, op->opname);
	if (guard)
		(*nguards)++;
	if (op->result != IR_NOVAL)
		m->map[op->result] = nop->result;
	if ((op->flags & IR_OPF_HAS_FAILARGS) && !e->nofail) {
		for (uint32_t a = 0; a < op->nfail; a++)
			args[a] = get(m, op->failargs[a]);
		if (ir_set_failargs(m->t, opi, op->nfail, args))
			m->bad = true;
	}
}

/* Builds the candidate of edit E on trace B; NULL when the edit does not
 * give a valid trace (or memory ran out). */
static ir_trace *materialize(const ir_trace *b, const red_edit *e)
{
	mat m = {b, e, ir_trace_new(b->width), NULL, false};
	uint32_t maxargs = 2;
	for (uint32_t i = 0; i < b->nops; i++) {
		if (b->ops[i].nargs > maxargs)
			maxargs = b->ops[i].nargs;
		if (b->ops[i].nfail > maxargs)
			maxargs = b->ops[i].nfail;
	}
	m.map = malloc(b->nvals * sizeof *m.map);
	ir_vid *args = malloc(maxargs * sizeof *args);
	if (!m.t || !m.map || !args)
		goto fail;
	m.t->toy = b->toy;
	memset(m.map, 0xff, b->nvals * sizeof *m.map);
	for (uint32_t i = 0; i < b->ninputs; i++) {
		ir_vid v = b->inputs[i];
		if (e->dropin[i] || e->sub[v].how != SUB_NONE)
			continue;
		m.map[v] = ir_add_input(m.t, b->vals[v].kind, NULL);
		if (m.map[v] == IR_NOVAL)
			goto fail;
	}
	uint32_t nguards = 0;
	for (uint32_t i = 0; i < b->nops && !m.bad; i++) {
		const ir_op *op = &b->ops[i];
		bool mark = ir_op_has(op->opc, IRF_MARK);
		if (e->dropop[i] || (mark && e->nomarks)) {
			if (op->result != IR_NOVAL)
				m.map[op->result] = resolve_sub(&m, op->result);
			continue;
		}
		mat_op(&m, i, &nguards, args);
	}
	if (m.bad || ir_validate(m.t, NULL, NULL) != JP_OK)
		goto fail;
	free(m.map);
	free(args);
	return m.t;
fail:
	free(m.map);
	free(args);
	ir_trace_free(m.t);
	return NULL;
}

/* ---- the reduction loop ---- */

typedef struct red_state {
	const red_env *env;
	const red_outcome *target;
	ir_trace *cur;
	red_outcome cur_out; /* outcome of cur */
	red_edit e;
	uint32_t evals, accepted, max_evals;
	double t0;
	bool stopped; /* a budget ran out or STOP was set */
	bool oom;
} red_state;

static bool out_of_budget(red_state *s)
{
	if (s->stopped)
		return true;
	if (s->evals >= s->max_evals ||
	    (s->env->max_ms && clk_now_ms() - s->t0 > s->env->max_ms) ||
	    (s->env->stop && *s->env->stop))
		s->stopped = true;
	return s->stopped;
}

/* Judges the candidate of the current edit; keeps it when it fails the
 * same way.  The edit is cleared (and refitted) either way. */
static bool try_edit(red_state *s)
{
	bool kept = false;
	if (!out_of_budget(s)) {
		ir_trace *c = materialize(s->cur, &s->e);
		if (c) {
			red_outcome o;
			s->evals++;
			/* No query may outlast the budget left. */
			red_env env = *s->env;
			if (env.max_ms) {
				double left =
				    env.max_ms - (clk_now_ms() - s->t0);
				unsigned cap = left < 20 ? 20 : (unsigned)left;
				if (!env.vo.timeout_ms ||
				    env.vo.timeout_ms > cap)
					env.vo.timeout_ms = cap;
			}
			if (red_evaluate(&env, c, &o, NULL) != JP_OK) {
				s->oom = s->stopped = true;
			} else if (red_same_failure(&o, s->target)) {
				ir_trace_free(s->cur);
				red_outcome_free(&s->cur_out);
				s->cur = c;
				s->cur_out = o;
				c = NULL;
				s->accepted++;
				kept = true;
			} else {
				red_outcome_free(&o);
			}
			ir_trace_free(c);
			if (s->env->progress)
				s->env->progress(s->env->progress_ud,
						 ir_count_ops(s->cur),
						 s->evals);
		}
	}
	if (!edit_fit(&s->e, s->cur)) {
		s->oom = s->stopped = true;
		return false;
	}
	edit_clear(&s->e, s->cur);
	return kept;
}

static uint32_t nout_of(const ir_trace *t)
{
	return t->ops[t->nops - 1].nargs;
}

/* Marks op I dropped, keeping overflow pairs valid: an *_ovf op takes its
 * guard with it; an overflow guard alone turns its op into the plain op. */
static void drop_op(red_state *s, uint32_t i)
{
	const ir_trace *t = s->cur;
	ir_opcode opc = (ir_opcode)t->ops[i].opc;
	s->e.dropop[i] = 1;
	if (ir_op_has(opc, IRF_OVF) && i + 1 < t->nops &&
	    ir_op_has(t->ops[i + 1].opc, IRF_OVFGUARD))
		s->e.dropop[i + 1] = 1;
	if (ir_op_has(opc, IRF_OVFGUARD) && i > 0 && !s->e.dropop[i - 1]) {
		ir_opcode prev = (ir_opcode)t->ops[i - 1].opc;
		if (ir_op_has(prev, IRF_OVF))
			s->e.newopc[i - 1] = ir_op_wrapping(prev);
	}
}

/* Delta debugging over the end op's arguments: drop halves, quarters, ...,
 * single outputs. */
static bool pass_outputs(red_state *s)
{
	bool any = false;
	for (uint32_t chunk = nout_of(s->cur) / 2 + 1; chunk >= 1; chunk /= 2) {
		uint32_t i = 0;
		while (i < nout_of(s->cur) && !s->stopped) {
			uint32_t n = nout_of(s->cur);
			for (uint32_t k = i; k < i + chunk && k < n; k++)
				s->e.dropout[k] = 1;
			if (try_edit(s))
				any = true;
			else
				i += chunk;
		}
		if (chunk == 1)
			break;
	}
	return any;
}

/* Drops every pure op whose result nothing uses, transitively. */
static bool pass_dead(red_state *s)
{
	const ir_trace *t = s->cur;
	uint8_t *live = calloc(t->nvals, 1);
	if (!live) {
		s->oom = s->stopped = true;
		return false;
	}
	bool some = false;
	for (uint32_t i = t->nops; i-- > 0;) {
		const ir_op *op = &t->ops[i];
		bool pure = ir_op_has(op->opc, IRF_PURE);
		if (pure && op->result != IR_NOVAL && !live[op->result]) {
			s->e.dropop[i] = 1;
			s->e.sub[op->result].how =
			    SUB_CONST; /* unused anyway */
			some = true;
			continue;
		}
		for (uint32_t a = 0; a < op->nargs; a++)
			live[op->args[a]] = 1;
		for (uint32_t a = 0; a < op->nfail; a++)
			if (op->failargs[a] != IR_NOVAL)
				live[op->failargs[a]] = 1;
	}
	free(live);
	if (!some)
		return false;
	return try_edit(s);
}

/* Delta debugging over the guards. */
static bool pass_guards(red_state *s)
{
	bool any = false;
	uint32_t *g = malloc((s->cur->nops + 1) * sizeof *g);
	if (!g) {
		s->oom = s->stopped = true;
		return false;
	}
	uint32_t ng = 0;
	for (uint32_t i = 0; i < s->cur->nops; i++)
		ng += ir_op_has(s->cur->ops[i].opc, IRF_GUARD);
	for (uint32_t chunk = ng / 2 + 1; chunk >= 1 && !s->stopped;
	     chunk /= 2) {
		uint32_t start = 0;
		for (;;) {
			ng = 0;
			for (uint32_t i = 0; i < s->cur->nops; i++)
				if (ir_op_has(s->cur->ops[i].opc, IRF_GUARD))
					g[ng++] = i;
			if (start >= ng || s->stopped)
				break;
			for (uint32_t k = start; k < start + chunk && k < ng;
			     k++)
				drop_op(s, g[k]);
			if (try_edit(s))
				any = true;
			else
				start += chunk;
		}
		if (chunk == 1)
			break;
	}
	free(g);
	return any;
}

/* Drops op I, replacing its result by SUB. */
static bool try_drop_with(red_state *s, uint32_t i, rsub sub)
{
	drop_op(s, i);
	ir_vid r = s->cur->ops[i].result;
	if (r != IR_NOVAL)
		s->e.sub[r] = sub;
	return try_edit(s);
}

/* One op at a time, last to first: drop it and put one of its operands, a
 * constant or a new input in place of its result. */
static bool pass_ops(red_state *s)
{
	bool any = false;
	for (uint32_t i = s->cur->nops - 1; i-- > 0 && !s->stopped;) {
		if (i >= s->cur->nops - 1)
			continue;
		const ir_op *op = &s->cur->ops[i];
		if (ir_op_has(op->opc, IRF_GUARD | IRF_END))
			continue;
		ir_vid r = op->result;
		rsub cands[10];
		int nc = 0;
		if (r == IR_NOVAL) {
			cands[nc++] = (rsub){SUB_NONE, 0, 0};
		} else {
			char kind = s->cur->vals[r].kind;
			for (uint32_t a = 0; a < op->nargs && a < 2; a++)
				if (s->cur->vals[op->args[a]].kind == kind)
					cands[nc++] =
					    (rsub){SUB_VID, op->args[a], 0};
			/* An existing input: a chain computing a fact about
			 * an input often collapses to the input itself. */
			for (uint32_t k = 0; k < s->cur->ninputs && nc < 7;
			     k++) {
				ir_vid x = s->cur->inputs[k];
				bool dup = false;
				for (int c = 0; c < nc; c++)
					dup |= cands[c].how == SUB_VID &&
					       cands[c].vid == x;
				if (!dup && s->cur->vals[x].kind == kind)
					cands[nc++] = (rsub){SUB_VID, x, 0};
			}
			if (kind == 'i') {
				cands[nc++] = (rsub){SUB_CONST, 0, 0};
				cands[nc++] = (rsub){SUB_CONST, 0, 1};
			} else {
				cands[nc++] = (rsub){SUB_NULL, 0, 0};
			}
			cands[nc++] = (rsub){SUB_NEWIN, 0, 0};
		}
		for (int c = 0; c < nc && !s->stopped; c++) {
			if (try_drop_with(s, i, cands[c])) {
				any = true;
				break;
			}
		}
	}
	return any;
}

/* Replaces each input by 0, then by 1. */
static bool pass_inputs(red_state *s)
{
	bool any = false;
	for (uint32_t i = 0; i < s->cur->ninputs && !s->stopped;) {
		ir_vid v = s->cur->inputs[i];
		bool kept = false;
		if (s->cur->vals[v].kind == 'i') {
			for (uint64_t c = 0; c < 2 && !kept; c++) {
				s->e.dropin[i] = 1;
				s->e.sub[v] = (rsub){SUB_CONST, 0, c};
				kept = try_edit(s);
			}
		}
		any |= kept;
		if (!kept)
			i++;
	}
	return any;
}

static uint64_t magnitude(int w, uint64_t c)
{
	return sem_is_negative(w, c) ? sem_mask(w, 0 - c) : c;
}

/* Whether constant B is simpler than A: smaller in magnitude, or as
 * large and positive.  Strict, so shrinking terminates. */
static bool simpler(int w, uint64_t b, uint64_t a)
{
	uint64_t mb = magnitude(w, b), ma = magnitude(w, a);
	if (mb != ma)
		return mb < ma;
	return !sem_is_negative(w, b) && sem_is_negative(w, a);
}

/* Shrinks each integer constant towards 0, 1, -1, or half of itself.
 * Constants that resisted every candidate are remembered by value, since
 * the scan restarts after each success (the constants are renumbered). */
static bool pass_consts(red_state *s)
{
	enum { MAXSTUCK = 64 };
	uint64_t stuck[MAXSTUCK];
	uint32_t nstuck = 0;
	bool any = false;
	int w = s->cur->width;
	for (ir_vid v = 0; v < s->cur->nvals && !s->stopped; v++) {
		if (s->cur->vals[v].tag != IR_VAL_CONST_INT)
			continue;
		uint64_t c = s->cur->vals[v].cval;
		bool skip = false;
		for (uint32_t k = 0; k < nstuck; k++)
			skip |= stuck[k] == c;
		if (skip)
			continue;
		uint64_t cands[4] = {0, 1, sem_allones(w),
				     sem_from_signed(w, sem_signed(w, c) / 2)};
		bool kept = false;
		for (int k = 0; k < 4 && !kept && !s->stopped; k++) {
			if (!simpler(w, cands[k], c))
				continue;
			s->e.sub[v] = (rsub){SUB_CONST, 0, cands[k]};
			kept = try_edit(s);
		}
		if (kept) {
			any = true;
			v = (ir_vid)-1; /* rescan; the loop's v++ makes it 0 */
		} else if (nstuck < MAXSTUCK) {
			stuck[nstuck++] = c;
		}
	}
	return any;
}

/* The canonical, simpler op a reducer tries in place of OPC (same
 * arguments and result kind), or OPC itself.  Trying it makes the ops of
 * reduced traces -- and so the signatures -- of one bug agree more often:
 * the same overflow-guard failure on int_mul_ovf and on int_sub_ovf
 * becomes the int_add_ovf one. */
static ir_opcode simpler_op(ir_opcode opc)
{
	ir_cmp c = ir_op_cmp(opc);
	if (c.rel == IR_REL_LT || c.rel == IR_REL_LE) {
		/* an order comparison: the "<" of its signedness */
		ir_cmp lt = {IR_REL_LT, c.uns, false, false, false};
		return (ir_opcode)ir_cmp_opcode(lt);
	}
	switch (opc) {
	case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: return IR_INT_ADD_OVF;
	case IR_NEW_WITH_VTABLE: return IR_NEW;
	case IR_INT_OR:
	case IR_INT_XOR: return IR_INT_AND;
	case IR_INT_SUB: return IR_INT_ADD;
	default: return opc;
	}
}

static bool pass_opcodes(red_state *s)
{
	bool any = false;
	for (uint32_t i = 0; i < s->cur->nops && !s->stopped; i++) {
		ir_opcode opc = (ir_opcode)s->cur->ops[i].opc;
		ir_opcode to = simpler_op(opc);
		if (to == opc)
			continue;
		s->e.newopc[i] = (uint16_t)to;
		any |= try_edit(s);
	}
	return any;
}

/* Pins a value to its counterexample value: a guard on a comparison
 * becomes guard_value(operand, value on the counterexample).  That is
 * stronger than the comparison, so the failure usually stays, and a chain
 * of guards that only served to pin a value then goes away. */
static bool pass_pin(red_state *s)
{
	const red_outcome *o = s->accepted ? &s->cur_out : s->target;
	const ir_trace *t = s->cur;
	if (o->kind != RED_REFUTED || !o->have_res || !o->res.inputs ||
	    o->res.ninputs != t->ninputs)
		return false;
	for (uint32_t k = 0; k < t->ninputs; k++)
		if (t->vals[t->inputs[k]].kind != 'i')
			return false; /* the environment would need a heap */
	interp_env env;
	memset(&env, 0, sizeof env);
	env.args = o->res.inputs;
	env.nargs = t->ninputs;
	interp_result run;
	if (interp_run(t, &env, &run, NULL) != JP_OK)
		return false;
	bool kept = false;
	/* !kept is tested first: once a candidate is kept, T is freed. */
	for (uint32_t i = 0; !kept && !s->stopped && i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_GUARD_TRUE && op->opc != IR_GUARD_FALSE)
			continue;
		uint32_t d = ir_defop(t, op->args[0]);
		if (d == UINT32_MAX || !ir_op_has(t->ops[d].opc, IRF_CMP))
			continue;
		for (uint32_t a = 0; !kept && a < t->ops[d].nargs; a++) {
			ir_vid x = t->ops[d].args[a];
			if (ir_is_const(t, x) || t->vals[x].kind != 'i' ||
			    !run.known[x])
				continue;
			s->e.pin_op = i;
			s->e.pin_val = x;
			s->e.pin_const = run.vals[x];
			kept = try_edit(s); /* T may be gone after this */
		}
	}
	interp_result_free(&run);
	return kept;
}

/* Small clean-ups in one candidate each: drop unused inputs, fail-args,
 * markers. */
static bool pass_cleanup(red_state *s)
{
	bool any = false;
	const ir_trace *t = s->cur;
	uint8_t *used = calloc(t->nvals, 1);
	if (!used) {
		s->oom = s->stopped = true;
		return false;
	}
	bool fail = false, marks = false;
	for (uint32_t i = 0; i < t->nops; i++) {
		for (uint32_t a = 0; a < t->ops[i].nargs; a++)
			used[t->ops[i].args[a]] = 1;
		for (uint32_t a = 0; a < t->ops[i].nfail; a++)
			if (t->ops[i].failargs[a] != IR_NOVAL)
				used[t->ops[i].failargs[a]] = 1;
		fail |= (t->ops[i].flags & IR_OPF_HAS_FAILARGS) != 0;
		marks |= ir_op_has(t->ops[i].opc, IRF_MARK);
	}
	bool unused = false;
	for (uint32_t i = 0; i < t->ninputs; i++)
		if (!used[t->inputs[i]])
			s->e.dropin[i] = 1, unused = true;
	free(used);
	if (unused)
		any |= try_edit(s);
	if (fail && !s->stopped) {
		s->e.nofail = true;
		any |= try_edit(s);
	}
	if (marks && !s->stopped) {
		s->e.nomarks = true;
		any |= try_edit(s);
	}
	return any;
}

jp_status red_reduce(const red_env *env, const ir_trace *orig,
		     const red_outcome *target, ir_trace **out,
		     red_outcome *final, red_stats *st, jp_err *err)
{
	red_state s;
	memset(&s, 0, sizeof s);
	s.env = env;
	s.target = target;
	s.max_evals = env->max_evals ? env->max_evals : 5000;
	s.t0 = clk_now_ms();
	*out = NULL;
	s.cur = ir_trace_clone(orig);
	if (!s.cur || !edit_fit(&s.e, s.cur)) {
		ir_trace_free(s.cur);
		edit_free(&s.e);
		return jp_fail(err, JP_ENOMEM,
			       "out of memory reducing a trace");
	}
	edit_clear(&s.e, s.cur);
	s.cur_out.kind = target->kind;
	bool progress = true;
	while (progress && !s.stopped) {
		progress = false;
		progress |= pass_outputs(&s);
		progress |= pass_dead(&s);
		progress |= pass_guards(&s);
		progress |= pass_ops(&s);
		progress |= pass_dead(&s);
		progress |= pass_inputs(&s);
		progress |= pass_consts(&s);
		progress |= pass_cleanup(&s);
		progress |= pass_pin(&s);
		progress |= pass_opcodes(&s);
	}
	bool complete = !s.stopped;
	uint32_t evals = s.evals, accepted = s.accepted;
	/* Relabel and rename for the reader; keep it only if it still fails
	 * the same way (it should: labels carry no meaning).  The budget no
	 * longer applies to this last step. */
	s.stopped = false;
	s.max_evals = UINT32_MAX;
	red_env env2 = *env;
	env2.max_ms = 0;
	env2.stop = NULL;
	s.env = &env2;
	s.e.relabel = true;
	bool relabelled = try_edit(&s);
	if (!relabelled && accepted == 0) {
		/* Nothing was accepted: the outcome of cur is still unknown
		 * to us; judge it once so FINAL is filled. */
		red_outcome o;
		if (red_evaluate(&env2, s.cur, &o, NULL) == JP_OK) {
			red_outcome_free(&s.cur_out);
			s.cur_out = o;
		}
	}
	edit_free(&s.e);
	if (s.oom) {
		ir_trace_free(s.cur);
		red_outcome_free(&s.cur_out);
		return jp_fail(err, JP_ENOMEM,
			       "out of memory reducing a trace");
	}
	if (st) {
		st->evals = evals; /* the relabelling is not a candidate */
		st->accepted = accepted;
		st->ops_before = ir_count_ops(orig);
		st->ops_after = ir_count_ops(s.cur);
		st->ms = clk_now_ms() - s.t0;
		st->complete = complete;
	}
	*out = s.cur;
	if (final)
		*final = s.cur_out;
	else
		red_outcome_free(&s.cur_out);
	return JP_OK;
}

/* ---- signatures ---- */

/* The class of the failing obligation: which guard failed, or how, is
 * part of how a wrong fact shows, not of what the fact was, so all guard
 * obligations are one class; so are the call obligations (same op,
 * arguments and heap at the k-th call). */
static const char *obligation_slug(const red_outcome *o)
{
	static const struct {
		const char *pat;
		const char *slug;
	} map[] = {
	    {"(same fail-args", "failargs"},
	    {"guard", "guard"},
	    {"output", "output"},
	    {"end", "end"},
	    {"call", "call"},
	};
	if (o->kind != RED_REFUTED && o->kind != RED_UNKNOWN)
		return NULL;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strstr(o->obl, map[i].pat))
			return map[i].slug;
	return NULL;
}

/* Appends S to BUF as a path-safe word: letters, digits, '_', '-', '+'. */
static void put_slug(char *buf, size_t size, size_t *n, const char *s)
{
	bool dash = false;
	for (; *s && *n + 2 < size; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			  c == '_' || c == '+';
		if (c >= 'A' && c <= 'Z') {
			c = (char)(c - 'A' + 'a');
			ok = true;
		}
		if (ok) {
			buf[(*n)++] = c;
			dash = false;
		} else if (!dash && *n > 0 && buf[*n - 1] != '.') {
			buf[(*n)++] = '-';
			dash = true;
		}
	}
	while (*n > 0 && buf[*n - 1] == '-')
		(*n)--;
	buf[*n] = '\0';
}

/* The injected bugs of a signature: "nobug", or their names joined by
 * "+". */
static void put_bugs(char *buf, size_t size, size_t *n, uint64_t bugs)
{
	if (bugs == 0) {
		put_slug(buf, size, n, "nobug");
		return;
	}
	bool first = true;
	for (int b = 0; b < OPT_BUG_COUNT; b++) {
		if (!(bugs >> b & 1))
			continue;
		if (!first)
			put_slug(buf, size, n, "+");
		put_slug(buf, size, n, opt_bug_name((opt_bug)b));
		first = false;
	}
}

void red_signature(const ir_trace *reduced, const red_outcome *o, uint64_t bugs,
		   char *buf, size_t size)
{
	char full[2048];
	size_t n = 0;
	full[0] = '\0';
	put_bugs(full, sizeof full, &n, bugs);
	full[n++] = '.';
	full[n] = '\0';
	put_slug(full, sizeof full, &n, red_kind_name(o->kind));
	full[n++] = '.';
	full[n] = '\0';
	const char *slug = obligation_slug(o);
	put_slug(full, sizeof full, &n, slug ? slug : o->obl);
	/* The distinct ops of the reduced trace, in op-table order, without
	 * the guards (they observe the failure) unless there is nothing
	 * else. */
	bool seen[IR_OPCODE_COUNT] = {false};
	bool any = false;
	for (uint32_t i = 0; i < reduced->nops; i++) {
		ir_opcode opc = (ir_opcode)reduced->ops[i].opc;
		if (!ir_op_has(opc, IRF_END | IRF_MARK | IRF_GUARD))
			seen[opc] = any = true;
	}
	for (uint32_t i = 0; i < reduced->nops && !any; i++)
		if (ir_op_has(reduced->ops[i].opc, IRF_GUARD))
			seen[reduced->ops[i].opc] = true;
	bool first = true;
	full[n++] = '.';
	full[n] = '\0';
	for (int k = 0; k < IR_OPCODE_COUNT; k++) {
		if (!seen[k])
			continue;
		if (!first && n + 2 < sizeof full) {
			full[n++] = '-';
			full[n] = '\0';
		}
		put_slug(full, sizeof full, &n, ir_opinfos[k].name);
		first = false;
	}
	if (first)
		put_slug(full, sizeof full, &n, "none");
	if (n < size) {
		memcpy(buf, full, n + 1);
		return;
	}
	/* Too long for a file name: cut, and add a hash of the whole so
	 * distinct signatures stay distinct. */
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)full[i]) * 16777619u;
	if (size < 12) {
		buf[0] = '\0';
		return;
	}
	size_t keep = size - 11;
	snprintf(buf, size, "%.*s~%08x", (int)keep, full, h);
}

/* ---- rule signatures ---- */

/* The path-safe spelling of a rule name: "bounds.guard" -> "bounds-guard". */
static void rule_slug(opt_rule r, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	put_slug(buf, size, &n, opt_rule_name(r));
}

/* "<bugs>.<kind>.rules." */
static size_t rule_sig_prefix(uint64_t bugs, red_kind kind, char *buf,
			      size_t size)
{
	char tmp[2048];
	size_t n = 0;
	tmp[0] = '\0';
	put_bugs(tmp, sizeof tmp, &n, bugs);
	tmp[n++] = '.';
	tmp[n] = '\0';
	put_slug(tmp, sizeof tmp, &n, red_kind_name(kind));
	snprintf(buf, size, "%s.rules.", tmp);
	return strlen(buf);
}

void red_rule_signature(uint64_t bugs, red_kind kind, uint64_t rules, char *buf,
			size_t size)
{
	char full[2048], slug[64];
	size_t n = rule_sig_prefix(bugs, kind, full, sizeof full);
	bool first = true;
	for (int r = 0; r < OPT_RULE_COUNT; r++) {
		if (!(rules >> r & 1))
			continue;
		rule_slug((opt_rule)r, slug, sizeof slug);
		n += (size_t)snprintf(full + n, sizeof full - n, "%s%s",
				      first ? "" : "+", slug);
		first = false;
	}
	if (first)
		snprintf(full + n, sizeof full - n, "none");
	n = strlen(full);
	if (n < size) {
		memcpy(buf, full, n + 1);
		return;
	}
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)full[i]) * 16777619u;
	if (size < 12) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "%.*s~%08x", (int)(size - 11), full, h);
}

bool red_parse_rule_signature(const char *sig, uint64_t bugs, red_kind kind,
			      uint64_t *rules)
{
	char prefix[2048], slug[64];
	size_t n = rule_sig_prefix(bugs, kind, prefix, sizeof prefix);
	if (strncmp(sig, prefix, n) != 0 || strchr(sig, '~'))
		return false;
	uint64_t m = 0;
	const char *p = sig + n;
	while (*p) {
		const char *e = strchr(p, '+');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int found = -1;
		for (int r = 0; r < OPT_RULE_COUNT && found < 0; r++) {
			rule_slug((opt_rule)r, slug, sizeof slug);
			if (strlen(slug) == len && !strncmp(slug, p, len))
				found = r;
		}
		if (found < 0)
			return false;
		m |= UINT64_C(1) << found;
		p += len + (e != NULL);
	}
	*rules = m;
	return m != 0;
}
