/*
 * opt.c - the optimizer framework: one forward pass over the input trace,
 * forwarding of values, the chain of pass hooks, emission of the output
 * and guard provenance.  The optimizations themselves live in fold.c,
 * simplify.c, opt_bounds.c, cse.c, virtualize.c, heapcache.c and dce.c
 * (see opt_internal.h for the contract between the two sides).  This file
 * reaches a pass only through its opt_pass_hooks table, and a pass reaches
 * nothing but the framework's services: no pass calls another.
 */
#include "opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"
#include "ir/validate.h"
#include "passes/opt_internal.h"

static const char *const pass_names[OPT_PASS_COUNT] = {
#define PASS(id, name, desc) name,
#include "passes.def"
#undef PASS
};

static const char *const pass_descs[OPT_PASS_COUNT] = {
#define PASS(id, name, desc) desc,
#include "passes.def"
#undef PASS
};

static const char *const bug_names[OPT_BUG_COUNT] = {
#define BUG(id, name, desc) name,
#include "bugs.def"
#undef BUG
};

static const char *const bug_descs[OPT_BUG_COUNT] = {
#define BUG(id, name, desc) desc,
#include "bugs.def"
#undef BUG
};

static const opt_pass_hooks *const pass_hooks[OPT_PASS_COUNT] = {
    [OPT_PASS_FOLD] = &opt_fold_hooks,
    [OPT_PASS_SIMPLIFY] = &opt_simplify_hooks,
    [OPT_PASS_BOUNDS] = &opt_bounds_hooks,
    [OPT_PASS_CSE] = &opt_cse_hooks,
    [OPT_PASS_VIRTUALIZE] = &opt_virtualize_hooks,
    [OPT_PASS_HEAP] = &opt_heap_hooks,
    [OPT_PASS_DCE] = &opt_dce_hooks,
};

_Static_assert(OPT_PASS_COUNT <= 64, "pass mask is a uint64_t");
_Static_assert(OPT_BUG_COUNT <= 64, "bug mask is a uint64_t");

/* How many times one op may be rewritten before it is emitted as it is; a
 * safety net against two rules undoing each other. */
enum { MAX_RESTARTS = 16 };

const char *opt_pass_name(opt_pass p)
{
	return p < OPT_PASS_COUNT ? pass_names[p] : "?";
}

const char *opt_pass_desc(opt_pass p)
{
	return p < OPT_PASS_COUNT ? pass_descs[p] : "?";
}

const char *opt_bug_name(opt_bug b)
{
	return b < OPT_BUG_COUNT ? bug_names[b] : "?";
}

const char *opt_bug_desc(opt_bug b)
{
	return b < OPT_BUG_COUNT ? bug_descs[b] : "?";
}

opt_config opt_default_config(void)
{
	opt_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.passes = (UINT64_C(1) << OPT_PASS_COUNT) - 1;
	return cfg;
}

/* Parses a comma-separated list of names out of NAMES[0..N) into a bit
 * mask; ALL selects every name. */
static jp_status parse_list(const char *list, const char *const *names, int n,
			    const char *what, const char *all, uint64_t *mask,
			    jp_err *err)
{
	*mask = 0;
	const char *s = list;
	while (1) {
		while (*s == ' ')
			s++;
		const char *e = s;
		while (*e && *e != ',')
			e++;
		size_t len = (size_t)(e - s);
		while (len && s[len - 1] == ' ')
			len--;
		int found = -1;
		for (int i = 0; i < n; i++)
			if (strlen(names[i]) == len &&
			    !strncmp(names[i], s, len))
				found = i;
		if (found >= 0) {
			*mask |= UINT64_C(1) << found;
		} else if (len == strlen(all) && !strncmp(all, s, len)) {
			*mask |= (UINT64_C(1) << n) - 1;
		} else if (!(len == 4 && !strncmp(s, "none", 4))) {
			char valid[512];
			size_t off = 0;
			valid[0] = '\0';
			for (int i = 0; i < n && off < sizeof valid; i++)
				off += (size_t)snprintf(
				    valid + off, sizeof valid - off, "%s%s",
				    i ? ", " : "", names[i]);
			return jp_fail(
			    err, JP_EINPUT,
			    "unknown %s '%.*s' (valid: %s%s%s, none)", what,
			    (int)len, s, valid, *all ? ", " : "", all);
		}
		if (!*e)
			return JP_OK;
		s = e + 1;
	}
}

jp_status opt_parse_passes(const char *list, uint64_t *mask, jp_err *err)
{
	return parse_list(list, pass_names, OPT_PASS_COUNT, "pass", "all", mask,
			  err);
}

jp_status opt_parse_bugs(const char *list, uint64_t *mask, jp_err *err)
{
	return parse_list(list, bug_names, OPT_BUG_COUNT, "bug", "", mask, err);
}

jp_status opt_parse_rules(const char *list, uint64_t *mask, jp_err *err)
{
	return parse_list(list, opt_rule_names, OPT_RULE_COUNT, "rule", "all",
			  mask, err);
}

/* ------------------------------------------------------------------ */
/* Helpers offered to the passes.                                      */

void opt_fail(opt_ctx *c, jp_status s, const char *what)
{
	if (c->status)
		return;
	c->status = s;
	jp_fail(c->err, s, "optimizer: %s", what);
}

bool opt_grow(opt_ctx *c, void **p, uint32_t *cap, uint32_t need, size_t sz)
{
	if (need <= *cap)
		return true;
	uint32_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, (size_t)n * sz);
	if (!q) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return false;
	}
	*p = q;
	*cap = n;
	return true;
}

static bool reserve_vals(opt_ctx *c, uint32_t n)
{
	if (n <= c->capuf)
		return true;
	uint32_t cap = c->capuf ? c->capuf : 64;
	while (cap < n)
		cap *= 2;
	ir_vid *uf = realloc(c->uf, (size_t)cap * sizeof *uf);
	if (!uf) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return false;
	}
	for (uint32_t v = c->capuf; v < cap; v++)
		uf[v] = v;
	c->uf = uf;
	c->capuf = cap;
	return true;
}

ir_vid opt_find(opt_ctx *c, ir_vid v)
{
	if (v == IR_NOVAL || !reserve_vals(c, c->out->nvals))
		return v;
	ir_vid r = v;
	while (c->uf[r] != r)
		r = c->uf[r];
	while (c->uf[v] != r) { /* path compression */
		ir_vid next = c->uf[v];
		c->uf[v] = r;
		v = next;
	}
	return r;
}

/* Position of V's definition: constants and inputs come before every op. */
static int64_t def_pos(const opt_ctx *c, ir_vid v)
{
	uint32_t d = ir_defop(c->out, v);
	return d == UINT32_MAX ? -1 : (int64_t)d;
}

void opt_union(opt_ctx *c, ir_vid v, ir_vid to)
{
	ir_vid rv = opt_find(c, v), rt = opt_find(c, to);
	if (c->status || rv == rt || ir_is_const(c->out, rv))
		return;
	/* The representative must dominate every use of the class. */
	if (!ir_is_const(c->out, rt) && def_pos(c, rt) >= def_pos(c, rv))
		return;
	c->uf[rv] = rt;
}

bool opt_const(const opt_ctx *c, ir_vid v, uint64_t *val)
{
	if (v == IR_NOVAL || c->out->vals[v].tag != IR_VAL_CONST_INT)
		return false;
	*val = c->out->vals[v].cval;
	return true;
}

bool opt_is_const_val(const opt_ctx *c, ir_vid v, uint64_t val)
{
	uint64_t k;
	return opt_const(c, v, &k) && k == sem_mask(c->w, val);
}

ir_vid opt_const_int(opt_ctx *c, uint64_t val)
{
	ir_vid v = ir_const_int(c->out, val);
	if (v == IR_NOVAL)
		opt_fail(c, JP_ENOMEM, "out of memory");
	return v;
}

bool opt_is_int(const opt_ctx *c, ir_vid v)
{
	return v != IR_NOVAL && c->out->vals[v].kind == 'i';
}

uint32_t opt_def_index(const opt_ctx *c, ir_vid v)
{
	return v == IR_NOVAL ? UINT32_MAX : ir_defop(c->out, v);
}

const ir_op *opt_def(const opt_ctx *c, ir_vid v)
{
	uint32_t d = opt_def_index(c, v);
	return d == UINT32_MAX ? NULL : &c->out->ops[d];
}

opt_verdict opt_replace(opt_ctx *c, opt_op *op, ir_vid v)
{
	op->result = opt_find(c, v);
	return OPT_REMOVED;
}

opt_verdict opt_replace_const(opt_ctx *c, opt_op *op, uint64_t val)
{
	return opt_replace(c, op, opt_const_int(c, val));
}

opt_verdict opt_rewrite(opt_ctx *c, opt_op *op, ir_opcode opc, ir_vid a,
			ir_vid b)
{
	(void)c;
	op->opc = opc;
	op->nargs = (uint32_t)ir_opinfos[opc].nargs;
	op->args[0] = a;
	op->args[1] = op->nargs > 1 ? b : IR_NOVAL;
	return OPT_RESTART;
}

opt_verdict opt_guard_fails(opt_ctx *c, opt_op *op)
{
	bool consts = true;
	for (uint32_t k = 0; k < op->nargs; k++)
		consts = consts && ir_is_const(c->out, op->args[k]);
	if (!consts || op->nargs == 0)
		opt_rewrite(c, op, IR_GUARD_TRUE, opt_const_int(c, 0),
			    IR_NOVAL);
	if (!op->fails) {
		op->fails = true;
		c->dead_pass = c->cur_pass;
	}
	return OPT_NEXT;
}

void opt_set_ovf(opt_ctx *c, bool overflows)
{
	c->ovf = overflows ? OPT_OVF_KNOWN_YES : OPT_OVF_KNOWN_NO;
	c->ovf_pass = c->cur_pass;
}

bool opt_is_exact(const opt_ctx *c, uint32_t opi)
{
	return opi < c->out->nops && opi < c->capops && c->exact[opi];
}

/* ------------------------------------------------------------------ */
/* Emission.                                                           */

static bool reserve_ops(opt_ctx *c, uint32_t n)
{
	if (n <= c->capops)
		return true;
	uint32_t cap = c->capops ? c->capops * 2 : 64;
	while (cap < n)
		cap *= 2;
	uint32_t *o = realloc(c->origin, (size_t)cap * sizeof *o);
	if (o)
		c->origin = o;
	uint8_t *e = o ? realloc(c->exact, cap) : NULL;
	if (!o || !e) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return false;
	}
	memset(e + c->capops, 0, cap - c->capops);
	c->exact = e;
	c->capops = cap;
	return true;
}

bnd opt_bound(opt_ctx *c, ir_vid v)
{
	uint64_t k;
	v = opt_find(c, v);
	if (opt_const(c, v, &k))
		return bnd_const(c->w, k);
	for (int p = 0; p < OPT_PASS_COUNT; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		bnd b;
		if (opt_enabled(c, (opt_pass)p) && h->bound &&
		    h->bound(c, v, &b))
			return b;
	}
	return bnd_top(c->w);
}

/* ---- the heap hooks: the framework's side of heap ops ----
 * Passes never call each other; every hook below reaches the enabled
 * passes in passes.def order. */

/* Offers input heap op I to the passes; true when one consumed it. */
static bool heap_op(opt_ctx *c, uint32_t i)
{
	for (int p = 0; p < OPT_PASS_COUNT && !c->status; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (opt_enabled(c, (opt_pass)p) && h->heap_op &&
		    h->heap_op(c, i))
			return true;
	}
	return false;
}

static void before_guard(opt_ctx *c, uint32_t i)
{
	for (int p = 0; p < OPT_PASS_COUNT; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (opt_enabled(c, (opt_pass)p) && h->before_guard)
			h->before_guard(c, i);
	}
}

static void after_guard(opt_ctx *c)
{
	for (int p = 0; p < OPT_PASS_COUNT; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (opt_enabled(c, (opt_pass)p) && h->after_guard)
			h->after_guard(c);
	}
}

void opt_note_store(opt_ctx *c, uint32_t field, ir_vid obj, ir_vid val)
{
	for (int p = 0; p < OPT_PASS_COUNT && !c->status; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (opt_enabled(c, (opt_pass)p) && h->stored)
			h->stored(c, field, obj, val);
	}
}

/* The output value for input value V.  A virtual object (virtualize.c) has
 * no output value until it escapes: asking for one (the `get` hook)
 * materializes it here, before the op that uses it is emitted. */
ir_vid opt_get(opt_ctx *c, ir_vid v)
{
	if (v == IR_NOVAL)
		return IR_NOVAL;
	for (int p = 0; p < OPT_PASS_COUNT && c->map[v] == IR_NOVAL; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (!opt_enabled(c, (opt_pass)p) || !h->get)
			continue;
		bool saved = c->materializing;
		c->materializing = true;
		ir_vid r = h->get(c, v);
		c->materializing = saved;
		if (r != IR_NOVAL || c->status)
			return r == IR_NOVAL ? r : opt_find(c, r);
	}
	if (c->map[v] == IR_NOVAL) {
		opt_fail(c, JP_EINTERNAL,
			 "use of a value before its definition");
		return IR_NOVAL;
	}
	return opt_find(c, c->map[v]);
}

uint32_t opt_copy_str(opt_ctx *c, uint32_t id)
{
	if (!id)
		return 0;
	uint32_t r = ir_cstr(c->out, ir_strtext(c->in, id));
	if (r == UINT32_MAX) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return 0;
	}
	return r;
}

/* Copies the fail-args of input op I to output op OPI, through
 * forwarding.  They are read at the guard, before anything the guard
 * teaches is applied. */
static void copy_failargs(opt_ctx *c, uint32_t i, uint32_t opi)
{
	const ir_op *iop = &c->in->ops[i];
	if (!(iop->flags & IR_OPF_HAS_FAILARGS))
		return;
	ir_vid *fa = calloc(iop->nfail + 1, sizeof *fa);
	if (!fa) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return;
	}
	c->in_failargs = true;
	for (uint32_t k = 0; k < iop->nfail; k++)
		fa[k] = opt_get(c, iop->failargs[k]);
	c->in_failargs = false;
	if (ir_set_failargs(c->out, opi, iop->nfail, fa))
		opt_fail(c, JP_ENOMEM, "out of memory");
	free(fa);
}

/* Rule blame: output op OPI was made by rule R (opt_config.annotate). */
static void opt_annotate(opt_ctx *c, uint32_t opi, opt_rule r)
{
	if (!c->cfg.annotate || r >= OPT_RULE_COUNT)
		return;
	uint32_t id = ir_cstr(c->out, opt_rule_name(r));
	if (id == UINT32_MAX)
		opt_fail(c, JP_ENOMEM, "out of memory");
	else
		c->out->ops[opi].rule = id;
}

/* Bookkeeping shared by every emitted op. */
void opt_note_emitted(opt_ctx *c, uint32_t opi, uint32_t in_op)
{
	if (opi == UINT32_MAX) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return;
	}
	if (!reserve_ops(c, c->out->nops) || !reserve_vals(c, c->out->nvals))
		return;
	c->origin[opi] = in_op;
	c->exact[opi] = 0;
	if (c->materializing)
		opt_annotate(c, opi, OPT_RULE_VIRTUALIZE);
}

static void emit_chain_op(opt_ctx *c, opt_op *op)
{
	const char *name = NULL;
	uint32_t descr = 0;
	const ir_op *iop =
	    op->in_op != UINT32_MAX ? &c->in->ops[op->in_op] : NULL;
	bool guard = ir_op_has(op->opc, IRF_GUARD);
	if (iop && iop->result != IR_NOVAL && ir_opinfos[op->opc].result != 'v')
		name = ir_valname(c->in, iop->result);
	if (iop && guard) {
		descr = opt_copy_str(c, iop->descr);
		/* Fail-args are read at the guard: virtual objects among them
		 * must exist before it. */
		before_guard(c, op->in_op);
	}
	if (c->status)
		return;
	uint32_t opi =
	    ir_emit(c->out, op->opc, op->nargs, op->args, descr, name);
	opt_note_emitted(c, opi, op->in_op);
	if (c->status)
		return;
	if (iop && guard)
		copy_failargs(c, op->in_op, opi);
	if (op->rule)
		opt_annotate(c, opi, (opt_rule)(op->rule - 1));
	op->out_op = opi;
	op->result = c->out->ops[opi].result;
	if (ir_op_has(op->opc, IRF_OVF)) {
		c->ovf = OPT_OVF_EMITTED;
		c->ovf_out = opi;
	}
	if (op->opc == IR_GUARD_NO_OVERFLOW && c->ovf == OPT_OVF_EMITTED)
		c->exact[c->ovf_out] = 1;
	if (op->fails)
		c->dead = true;
	if (guard)
		after_guard(c);
}

static void note_removed(opt_ctx *c, const opt_op *op, opt_pass p)
{
	if (op->in_op != UINT32_MAX && c->stats &&
	    !ir_op_has(c->in->ops[op->in_op].opc, IRF_MARK))
		c->stats->removed[p]++;
	if (ir_opinfos[op->opc].result != 'v' && op->result == IR_NOVAL)
		opt_fail(c, JP_EINTERNAL,
			 "a pass removed an op without "
			 "replacing its result");
	if (op->fails)
		opt_fail(c, JP_EINTERNAL, "a pass removed a guard that fails");
}

/* Runs OP through the enabled passes and emits it unless one removes it. */
static void run_chain(opt_ctx *c, opt_op *op)
{
	opt_pass saved = c->cur_pass;
	int restarts = 0;
	opt_rule saved_rule = c->cur_rule;
again:
	for (int p = 0; p < OPT_PASS_COUNT; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (!opt_enabled(c, (opt_pass)p) || !h->propagate)
			continue;
		/* Rule blame: the rule is known before the hook runs, so a
		 * rule switched off is a hook skipped for this op. */
		opt_rule r = opt_rule_of((opt_pass)p, op->opc);
		if (r < OPT_RULE_COUNT && (c->cfg.rules_off >> r & 1))
			continue;
		c->cur_pass = (opt_pass)p;
		c->cur_rule = r;
		bool fails = op->fails;
		opt_ovf_state ovf = c->ovf;
		opt_verdict v = h->propagate(c, op);
		c->cur_rule = saved_rule;
		if (c->status)
			goto out;
		if (r < OPT_RULE_COUNT &&
		    (v != OPT_NEXT || op->fails != fails || c->ovf != ovf)) {
			opt_rule_hit(c, r);
			if (v != OPT_REMOVED)
				op->rule = (uint32_t)r + 1;
		}
		if (v == OPT_REMOVED) {
			note_removed(c, op, (opt_pass)p);
			goto out;
		}
		if (v == OPT_RESTART && ++restarts < MAX_RESTARTS)
			goto again;
	}
	emit_chain_op(c, op);
	for (int p = 0; p < OPT_PASS_COUNT && !c->status; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (!opt_enabled(c, (opt_pass)p) || !h->emitted)
			continue;
		c->cur_pass = (opt_pass)p;
		h->emitted(c, op);
	}
out:
	c->cur_pass = saved;
	c->cur_rule = saved_rule;
}

ir_vid opt_emit_extra(opt_ctx *c, ir_opcode opc, ir_vid a, ir_vid b)
{
	opt_op op;
	memset(&op, 0, sizeof op);
	opt_rewrite(c, &op, opc, a, b);
	op.in_op = UINT32_MAX;
	op.result = IR_NOVAL;
	op.out_op = UINT32_MAX;
	op.rule = c->cur_rule < OPT_RULE_COUNT ? (uint32_t)c->cur_rule + 1 : 0;
	run_chain(c, &op);
	return c->status ? IR_NOVAL : opt_find(c, op.result);
}

/* Integer ops and integer guards go through the passes; everything else
 * (heap ops, calls, markers, guards on references) is copied. */
static bool through_chain(const opt_ctx *c, const ir_op *iop)
{
	ir_opcode opc = iop->opc;
	if (ir_op_has(opc, IRF_PURE | IRF_OVF))
		return true;
	switch (opc) {
	case IR_GUARD_TRUE:
	case IR_GUARD_FALSE:
	case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: return true;
	case IR_GUARD_VALUE: return c->in->vals[iop->args[0]].kind == 'i';
	default: return false;
	}
}

/* The guard after an *_ovf op: kept when the op was kept, else decided
 * by what the pass that removed the op knew. */
static bool ovf_guard(opt_ctx *c, opt_op *op)
{
	bool passes;
	switch (c->ovf) {
	case OPT_OVF_EMITTED: return true;
	case OPT_OVF_KNOWN_NO:
	case OPT_OVF_KNOWN_YES:
		passes = (c->ovf == OPT_OVF_KNOWN_NO) ==
			 (op->opc == IR_GUARD_NO_OVERFLOW);
		if (passes) {
			if (c->stats)
				c->stats->removed[c->ovf_pass]++;
			return false;
		}
		/* It always fails: a guard on a false constant says so
		 * without needing an *_ovf op before it. */
		c->cur_pass = c->ovf_pass;
		opt_guard_fails(c, op);
		return true;
	case OPT_OVF_NONE: break;
	}
	opt_fail(c, JP_EINTERNAL, "overflow guard without an *_ovf op");
	return false;
}

static void process_op(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	opt_op op;
	memset(&op, 0, sizeof op);
	op.opc = (ir_opcode)iop->opc;
	op.nargs = iop->nargs;
	for (uint32_t k = 0; k < iop->nargs && k < 2; k++)
		op.args[k] = opt_get(c, iop->args[k]);
	op.in_op = i;
	op.result = IR_NOVAL;
	op.out_op = UINT32_MAX;
	bool ovf = ir_op_has(op.opc, IRF_OVF);
	if (ovf)
		c->ovf = OPT_OVF_NONE;
	/* Nothing may come between an *_ovf op and its guard: virtual
	 * objects in the guard's fail-args are materialized before the op
	 * (early, but the op in between touches no object). */
	if (ovf && i + 1 < c->in->nops &&
	    ir_op_has((ir_opcode)c->in->ops[i + 1].opc, IRF_OVFGUARD))
		before_guard(c, i + 1);
	if (ir_op_has(op.opc, IRF_OVFGUARD) && !ovf_guard(c, &op))
		return;
	if (c->status)
		return;
	run_chain(c, &op);
	if (c->status)
		return;
	if (ovf && c->ovf == OPT_OVF_NONE)
		opt_fail(c, JP_EINTERNAL,
			 "an *_ovf op was removed without "
			 "deciding its overflow");
	if (ir_op_has(op.opc, IRF_OVFGUARD))
		c->ovf = OPT_OVF_NONE;
	if (iop->result != IR_NOVAL)
		c->map[iop->result] = op.result;
}

/* Copies an op no pass looks at, through forwarding.  Returns its index in
 * the output, or UINT32_MAX on error. */
uint32_t opt_copy_op(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	bool guard = ir_op_has((ir_opcode)iop->opc, IRF_GUARD);
	ir_vid *args = calloc(iop->nargs + 1, sizeof *args);
	if (!args) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return UINT32_MAX;
	}
	for (uint32_t k = 0; k < iop->nargs; k++)
		args[k] = opt_get(c, iop->args[k]);
	if (guard)
		before_guard(c, i);
	const char *name =
	    iop->result != IR_NOVAL ? ir_valname(c->in, iop->result) : NULL;
	uint32_t descr = opt_copy_str(c, iop->descr);
	uint32_t opname = opt_copy_str(c, iop->opname);
	uint32_t opi = UINT32_MAX;
	if (!c->status)
		opi = ir_emit_kind(c->out, (ir_opcode)iop->opc, iop->kind,
				   iop->nargs, args, descr, name);
	free(args);
	if (c->status)
		return UINT32_MAX;
	opt_note_emitted(c, opi, i);
	if (c->status)
		return UINT32_MAX;
	c->out->ops[opi].opname = opname;
	/* Printing flags (the toy print spelling) carry over; the label, if
	 * any, is now written out. */
	c->out->ops[opi].flags = iop->flags & ~IR_OPF_IMPLICIT_LABEL;
	copy_failargs(c, i, opi);
	if (iop->result != IR_NOVAL)
		c->map[iop->result] = c->out->ops[opi].result;
	if (guard)
		after_guard(c);
	return c->status ? UINT32_MAX : opi;
}

void opt_guard_fails_at(opt_ctx *c, uint32_t i)
{
	opt_op op;
	memset(&op, 0, sizeof op);
	opt_rewrite(c, &op, IR_GUARD_TRUE, opt_const_int(c, 0), IR_NOVAL);
	op.in_op = i;
	op.result = IR_NOVAL;
	op.out_op = UINT32_MAX;
	op.fails = true;
	c->dead_pass = c->cur_pass;
	emit_chain_op(c, &op);
}

/* The end op.  After a guard that always fails, values defined after it
 * never exist; the end is unreachable, so any value of the right kind
 * keeps the trace valid (docs/optimizer.md). */
static void emit_end(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	ir_vid *args = calloc(iop->nargs + 1, sizeof *args);
	if (!args) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return;
	}
	for (uint32_t k = 0; k < iop->nargs; k++) {
		ir_vid v = iop->args[k];
		if (c->dead && c->map[v] == IR_NOVAL)
			args[k] = c->in->vals[v].kind == 'r'
				      ? ir_const_null(c->out)
				      : opt_const_int(c, 0);
		else
			args[k] = opt_get(c, v);
	}
	uint32_t descr = opt_copy_str(c, iop->descr);
	uint32_t opi = UINT32_MAX;
	if (!c->status)
		opi = ir_emit(c->out, (ir_opcode)iop->opc, iop->nargs, args,
			      descr, NULL);
	free(args);
	if (!c->status)
		opt_note_emitted(c, opi, i);
}

/* ------------------------------------------------------------------ */
/* Setup and the main loop.                                            */

static jp_status setup(opt_ctx *c)
{
	const ir_trace *in = c->in;
	ir_trace *out = ir_trace_new(in->width);
	if (!out)
		return JP_ENOMEM;
	c->out = out;
	out->toy = in->toy;
	out->next_name = in->next_name;
	c->map = malloc((size_t)(in->nvals + 1) * sizeof *c->map);
	if (!c->map)
		return JP_ENOMEM;
	/* Reserve every name of the input, so that names generated for new
	 * ops never collide with a name copied later. */
	for (ir_vid v = 0; v < in->nvals; v++) {
		c->map[v] = IR_NOVAL;
		if (in->vals[v].tag > IR_VAL_OP)
			continue;
		uint32_t id = ir_cstr(out, ir_valname(in, v));
		if (id == UINT32_MAX)
			return JP_ENOMEM;
		out->strused[id] = 1;
	}
	for (uint32_t k = 0; k < in->ninputs; k++) {
		ir_vid v = in->inputs[k];
		ir_vid o =
		    ir_add_input(out, in->vals[v].kind, ir_valname(in, v));
		if (o == IR_NOVAL)
			return JP_ENOMEM;
		c->map[v] = o;
	}
	for (ir_vid v = 0; v < in->nvals; v++) {
		const ir_value *x = &in->vals[v];
		ir_vid o = IR_NOVAL;
		switch ((ir_valtag)x->tag) {
		case IR_VAL_CONST_INT: o = ir_const_int(out, x->cval); break;
		case IR_VAL_CONST_NULL: o = ir_const_null(out); break;
		case IR_VAL_CONST_PTR:
			o = ir_const_ptr(out, ir_strtext(in, x->name));
			break;
		case IR_VAL_CONST_CLASS:
			o = ir_const_class(out, ir_strtext(in, x->name));
			break;
		default: continue;
		}
		if (o == IR_NOVAL)
			return JP_ENOMEM;
		c->map[v] = o;
	}
	return JP_OK;
}

static void count_dead(opt_ctx *c, uint32_t i)
{
	if (c->stats && !ir_op_has(c->in->ops[i].opc, IRF_MARK))
		c->stats->removed[c->dead_pass]++;
}

static void optimize(opt_ctx *c)
{
	const ir_trace *in = c->in;
	for (uint32_t i = 0; i < in->nops && !c->status; i++) {
		const ir_op *iop = &in->ops[i];
		c->cur_in = i;
		if (ir_op_has(iop->opc, IRF_END))
			emit_end(c, i);
		else if (c->dead)
			count_dead(c, i);
		else if (heap_op(c, i)) {
			opt_rule_hit(c, OPT_RULE_VIRTUALIZE);
			opt_rule_hit(c, OPT_RULE_HEAP);
		} else if (through_chain(c, iop))
			process_op(c, i);
		else
			opt_copy_op(c, i);
	}
}

jp_status opt_compact(opt_ctx *c, const bool *keep)
{
	const ir_trace *t = c->out;
	ir_trace *n = ir_trace_new(t->width);
	ir_vid *vm = malloc((size_t)(t->nvals + 1) * sizeof *vm);
	jp_status st = JP_ENOMEM;
	ir_vid *buf = NULL;
	if (!n || !vm)
		goto fail;
	n->toy = t->toy;
	n->next_name = t->next_name;
	for (ir_vid v = 0; v < t->nvals; v++) {
		const ir_value *x = &t->vals[v];
		vm[v] = IR_NOVAL;
		switch ((ir_valtag)x->tag) {
		case IR_VAL_CONST_INT: vm[v] = ir_const_int(n, x->cval); break;
		case IR_VAL_CONST_NULL: vm[v] = ir_const_null(n); break;
		case IR_VAL_CONST_PTR:
			vm[v] = ir_const_ptr(n, ir_strtext(t, x->name));
			break;
		case IR_VAL_CONST_CLASS:
			vm[v] = ir_const_class(n, ir_strtext(t, x->name));
			break;
		default: continue;
		}
		if (vm[v] == IR_NOVAL)
			goto fail;
	}
	for (uint32_t k = 0; k < t->ninputs; k++) {
		ir_vid v = t->inputs[k];
		vm[v] = ir_add_input(n, t->vals[v].kind, ir_valname(t, v));
		if (vm[v] == IR_NOVAL)
			goto fail;
	}
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (!keep[i])
			continue;
		uint32_t len = op->nargs > op->nfail ? op->nargs : op->nfail;
		free(buf);
		buf = calloc(len + 1, sizeof *buf);
		if (!buf)
			goto fail;
		for (uint32_t k = 0; k < op->nargs; k++)
			buf[k] = vm[op->args[k]];
		uint32_t descr =
		    op->descr ? ir_cstr(n, ir_strtext(t, op->descr)) : 0;
		if (descr == UINT32_MAX)
			goto fail;
		const char *name =
		    op->result != IR_NOVAL ? ir_valname(t, op->result) : NULL;
		uint32_t opi = ir_emit_kind(n, (ir_opcode)op->opc, op->kind,
					    op->nargs, buf, descr, name);
		if (opi == UINT32_MAX)
			goto fail;
		if (op->opname) {
			n->ops[opi].opname =
			    ir_cstr(n, ir_strtext(t, op->opname));
			if (n->ops[opi].opname == UINT32_MAX)
				goto fail;
		}
		n->ops[opi].flags = op->flags;
		if (op->flags & IR_OPF_HAS_FAILARGS) {
			for (uint32_t k = 0; k < op->nfail; k++)
				buf[k] = op->failargs[k] == IR_NOVAL
					     ? IR_NOVAL
					     : vm[op->failargs[k]];
			if (ir_set_failargs(n, opi, op->nfail, buf))
				goto fail;
		}
		if (op->result != IR_NOVAL)
			vm[op->result] = n->ops[opi].result;
	}
	free(buf);
	free(vm);
	ir_trace_free(c->out);
	c->out = n;
	/* Indices into the old output are gone; nothing may use them. */
	c->capops = 0;
	return JP_OK;
fail:
	free(buf);
	free(vm);
	ir_trace_free(n);
	opt_fail(c, st, "out of memory");
	return st;
}

jp_status opt_run(const ir_trace *in, const opt_config *cfg, ir_trace **out,
		  opt_stats *stats, jp_err *err)
{
	opt_ctx c;
	opt_stats st;
	memset(&c, 0, sizeof c);
	memset(&st, 0, sizeof st);
	*out = NULL;
	c.in = in;
	c.w = in->width;
	c.cfg = *cfg;
	c.cfg.passes &= ~opt_rules_passes_off(cfg->rules_off);
	c.cur_rule = OPT_RULE_COUNT;
	c.stats = &st;
	c.err = err;
	c.ovf = OPT_OVF_NONE;
	jp_status s = setup(&c);
	if (s)
		opt_fail(&c, s, "out of memory");
	int inited = 0;
	for (; inited < OPT_PASS_COUNT && !c.status; inited++) {
		const opt_pass_hooks *h = pass_hooks[inited];
		if (opt_enabled(&c, (opt_pass)inited) && h->init &&
		    (s = h->init(&c)))
			opt_fail(&c, s, "out of memory");
	}
	/* Rule coverage: the bounds domain counts its branches into ST. */
	bnd_count_into(st.branch_hits);
	if (!c.status)
		optimize(&c);
	for (int p = 0; p < OPT_PASS_COUNT && !c.status; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (opt_enabled(&c, (opt_pass)p) && h->finish) {
			c.cur_pass = (opt_pass)p;
			h->finish(&c);
		}
	}
	bnd_count_into(NULL);
	for (int p = 0; p < inited; p++) {
		const opt_pass_hooks *h = pass_hooks[p];
		if (opt_enabled(&c, (opt_pass)p) && h->fini)
			h->fini(&c);
	}
	if (!c.status) {
		jp_err verr;
		if (ir_validate(c.out, NULL, &verr)) {
			c.status = JP_EINTERNAL;
			jp_fail(err, JP_EINTERNAL,
				"optimizer produced an invalid trace: %s",
				verr.msg);
		}
	}
	free(c.map);
	free(c.uf);
	free(c.origin);
	free(c.exact);
	if (c.status) {
		ir_trace_free(c.out);
		return c.status;
	}
	/* Whole-pass rules: virtualize and heap fired when they took an op
	 * (optimize), dce when it removed one. */
	if (st.removed[OPT_PASS_DCE]) {
		st.rules_fired |= UINT64_C(1) << OPT_RULE_DCE;
		st.rule_hits[OPT_RULE_DCE] += st.removed[OPT_PASS_DCE];
	}
	st.ops_in = ir_count_ops(in);
	st.ops_out = ir_count_ops(c.out);
	st.guards_in = ir_count_guards(in);
	st.guards_out = ir_count_guards(c.out);
	if (stats)
		*stats = st;
	*out = c.out;
	return JP_OK;
}
