/*
 * opt_bounds.c - the integer bounds pass.
 *
 * Keeps an abstract value (passes/bounds.h: signed range + known bits) for
 * every integer value of the output.  Forward: when an op is emitted, its
 * result gets the transfer function of its arguments' values.  Backward:
 * when a guard passes, the value it tested is refined (guard_true(x < 10)
 * makes x < 10) and the refinement is pushed back through the ops that
 * computed it (x = a + 1 makes a < 9, unless the addition could wrap).
 * A value whose abstract value becomes a constant is forwarded to that
 * constant.
 *
 * The abstract values are then used to:
 *   - replace an op whose result is known to be one constant (this folds
 *     comparisons and guards whose outcome the bounds decide);
 *   - remove guards that always pass, and end the trace at guards that
 *     always fail;
 *   - turn *_ovf ops that cannot overflow into plain ops (their guard goes);
 *   - drop masks and other ops that leave their argument unchanged
 *     (x & 255 when x is in [0, 255]);
 *   - rewrite x // (1 << y) into x >> y when 0 <= y <= W-2.
 *
 * Every abstract value refined after a guard is only used for ops after
 * that guard: the pass walks forward once and never revisits an op.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"
#include "passes/opt_internal.h"

/* How far a guard's refinement is pushed back through defining ops. */
enum { MAX_DEPTH = 8 };

typedef struct bstate {
	bnd *b;
	uint8_t *have;
	uint32_t cap;
} bstate;

static bstate *st(opt_ctx *c)
{
	return c->state[OPT_PASS_BOUNDS];
}

static jp_status bounds_init(opt_ctx *c)
{
	bstate *s = calloc(1, sizeof *s);
	if (!s)
		return JP_ENOMEM;
	c->state[OPT_PASS_BOUNDS] = s;
	return JP_OK;
}

static void bounds_fini(opt_ctx *c)
{
	bstate *s = st(c);
	if (!s)
		return;
	free(s->b);
	free(s->have);
	free(s);
	c->state[OPT_PASS_BOUNDS] = NULL;
}

static bool reserve(opt_ctx *c, uint32_t n)
{
	bstate *s = st(c);
	if (n <= s->cap)
		return true;
	uint32_t cap = s->cap ? s->cap : 64;
	while (cap < n)
		cap *= 2;
	bnd *b = realloc(s->b, (size_t)cap * sizeof *b);
	if (b)
		s->b = b;
	uint8_t *h = b ? realloc(s->have, cap) : NULL;
	if (!b || !h) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return false;
	}
	memset(h + s->cap, 0, cap - s->cap);
	s->have = h;
	s->cap = cap;
	return true;
}

/* The `bound` hook: what this pass recorded for V (a representative that
 * is not a constant; opt_bound in opt.c handles constants). */
static bool bounds_of(opt_ctx *c, ir_vid v, bnd *out)
{
	bstate *s = st(c);
	if (!s || v >= s->cap || !s->have[v] || !opt_is_int(c, v))
		return false;
	*out = s->b[v];
	return true;
}

/* The value recorded for V itself, even when V has been forwarded to a
 * constant since (fold.c forwards a comparison to 1 after guard_true,
 * before this pass learns what that says about its arguments). */
static bnd raw_bound(opt_ctx *c, ir_vid v)
{
	bstate *s = st(c);
	uint64_t k;
	if (opt_const(c, v, &k))
		return bnd_const(c->w, k);
	if (v < s->cap && s->have[v])
		return s->b[v];
	return bnd_top(c->w);
}

static void set_bound(opt_ctx *c, ir_vid v, bnd b)
{
	if (!reserve(c, v + 1))
		return;
	st(c)->b[v] = b;
	st(c)->have[v] = 1;
}

/* The abstract value of OPC(B): the transfer function, unless its rule
 * is switched off (then anything). */
static bnd forward(opt_ctx *c, ir_opcode opc, const bnd *b)
{
	if (!opt_rule_fire(c, opt_rule_forward(opc)))
		return bnd_top(c->w);
	return bnd_forward(opc, b, c->cfg.bugs);
}

static void args_of(opt_ctx *c, uint32_t nargs, const ir_vid *args, bnd *out)
{
	out[0] = out[1] = bnd_top(c->w);
	for (uint32_t k = 0; k < nargs && k < 2; k++)
		out[k] = opt_bound(c, args[k]);
}

/* ------------------------------------------------------------------ */
/* Refinement after guards.                                            */

static void refine(opt_ctx *c, ir_vid v, bnd nb, int depth);

/* R is now known about V = OP(args): refine the arguments. */
static void backprop(opt_ctx *c, ir_vid v, bnd r, int depth)
{
	uint32_t opi = opt_def_index(c, v);
	if (opi == UINT32_MAX)
		return;
	const ir_op *op = &c->out->ops[opi];
	ir_opcode opc = (ir_opcode)op->opc;
	uint32_t n = op->nargs;
	ir_vid a[2] = {op->args[0], n > 1 ? op->args[1] : IR_NOVAL};
	if (n < 1 || n > 2 || opc == IR_PTR_EQ || opc == IR_PTR_NE ||
	    !sem_evaluable(opc))
		return;
	if (!opt_rule_fire(c, opt_rule_backward(opc)))
		return;
	bool exact = opt_is_exact(c, opi);
	bnd b[2] = {raw_bound(c, a[0]), bnd_top(c->w)};
	if (n > 1)
		b[1] = raw_bound(c, a[1]);
	if (ir_op_has(opc, IRF_CMP)) {
		if (!bnd_is_const(&r))
			return;
		bnd_refine_cmp(opc, bnd_const_val(&r) != 0, &b[0], &b[1]);
		if (b[0].empty || b[1].empty)
			return; /* unreachable: nothing worth learning */
		for (uint32_t k = 0; k < n; k++)
			refine(c, a[k], b[k], depth);
		return;
	}
	for (uint32_t k = 0; k < n; k++) {
		if (!opt_is_int(c, a[k]) || ir_is_const(c->out, a[k]))
			continue;
		bnd d = bnd_backward(opc, (int)k, &r, b, exact, c->cfg.bugs);
		refine(c, a[k], d, depth);
	}
}

/* V is known to lie in NB from now on. */
static void refine(opt_ctx *c, ir_vid v, bnd nb, int depth)
{
	if (c->status || !opt_is_int(c, v) || ir_is_const(c->out, v))
		return;
	bnd old = raw_bound(c, v);
	bnd n = bnd_meet(old, nb);
	/* An empty value means the code after the guard is unreachable;
	 * keeping the old value is sound and simpler. */
	if (n.empty || bnd_equal(&n, &old))
		return;
	set_bound(c, v, n);
	if (bnd_is_const(&n) && opt_rule_fire(c, OPT_RULE_BOUNDS_GUARD))
		opt_union(c, v, opt_const_int(c, bnd_const_val(&n)));
	if (depth < MAX_DEPTH)
		backprop(c, v, n, depth + 1);
}

static void learn_guard(opt_ctx *c, const opt_op *op)
{
	ir_vid x = op->nargs ? op->args[0] : IR_NOVAL;
	bnd bx, dummy;
	if (op->opc == IR_GUARD_NO_OVERFLOW
		? !opt_rule_fire(c, opt_rule_backward(
					(ir_opcode)c->out->ops[c->ovf_out].opc))
		: !opt_rule_fire(c, OPT_RULE_BOUNDS_BACK_CMP))
		return;
	switch (op->opc) {
	case IR_GUARD_TRUE:
		bx = opt_bound(c, x);
		dummy = bx;
		bnd_refine_cmp(IR_INT_IS_TRUE, true, &bx, &dummy);
		refine(c, x, bx, 0);
		break;
	case IR_GUARD_FALSE: refine(c, x, bnd_const(c->w, 0), 0); break;
	case IR_GUARD_VALUE: {
		bnd b = opt_bound(c, op->args[1]);
		bx = opt_bound(c, x);
		refine(c, x, b, 0);
		refine(c, op->args[1], bx, 0);
		break;
	}
	case IR_GUARD_NO_OVERFLOW: {
		/* The op before it computed the exact result. */
		const ir_op *o = &c->out->ops[c->ovf_out];
		ir_vid r = o->result;
		bnd b[2];
		args_of(c, o->nargs, o->args, b);
		bnd ex = bnd_forward_exact((ir_opcode)o->opc, b);
		refine(c, r, ex, 0);
		backprop(c, r, raw_bound(c, r), 1);
		break;
	}
	default: break;
	}
}

/* ------------------------------------------------------------------ */
/* Hooks.                                                              */

/* Replaces OP by argument V, counting branch BR (rule coverage). */
static opt_verdict same_as(opt_ctx *c, opt_op *op, ir_vid v, opt_branch br)
{
	opt_branch_hit(c, br);
	return opt_replace(c, op, v);
}

/* Rewrites that leave an argument unchanged or get cheaper given the
 * abstract values B of the arguments. */
static opt_verdict use_bounds(opt_ctx *c, opt_op *op, const bnd *b)
{
	ir_vid x = op->args[0], y = op->args[1];
	uint64_t M = sem_allones(c->w);
	switch (op->opc) {
	case IR_INT_AND:
		/* Every bit that may be 1 in x is known 1 in y: x & y == x. */
		if (((b[0].val | b[0].mask) & ~b[1].val & M) == 0)
			return same_as(c, op, x, OPT_BR_RW_AND);
		if (((b[1].val | b[1].mask) & ~b[0].val & M) == 0)
			return same_as(c, op, y, OPT_BR_RW_AND);
		break;
	case IR_INT_OR:
		/* Every bit that may be 1 in y is known 1 in x: x | y == x. */
		if (((b[1].val | b[1].mask) & ~b[0].val & M) == 0)
			return same_as(c, op, x, OPT_BR_RW_OR);
		if (((b[0].val | b[0].mask) & ~b[1].val & M) == 0)
			return same_as(c, op, y, OPT_BR_RW_OR);
		break;
	case IR_INT_FORCE_GE_ZERO:
		if (b[0].lo >= 0)
			return same_as(c, op, x, OPT_BR_RW_FGEZ);
		break;
	case IR_INT_IS_TRUE:
		if (b[0].lo >= 0 && b[0].hi <= 1)
			return same_as(c, op, x, OPT_BR_RW_IS_TRUE);
		break;
	case IR_INT_PY_MOD:
		if (b[0].lo >= 0 && b[1].lo >= 1 && b[0].hi < b[1].lo)
			return same_as(c, op, x, OPT_BR_RW_MOD);
		if (b[0].lo >= 0 && b[1].lo >= 1 && b[0].hi == b[1].lo)
			opt_branch_hit(c, OPT_BR_RW_MOD_EDGE);
		break;
	case IR_INT_SIGNEXT: {
		/* Sign-extending from n bytes a value that fits in n bytes. */
		if (!bnd_is_const(&b[1]) || bnd_const_val(&b[1]) == 0 ||
		    bnd_const_val(&b[1]) >= (uint64_t)(c->w / 8))
			break; /* simplify handles these counts */
		int bits = (int)bnd_const_val(&b[1]) * 8;
		int64_t lim = INT64_C(1) << (bits - 1);
		if (b[0].lo >= -lim && b[0].hi < lim)
			return same_as(c, op, x, OPT_BR_RW_SIGNEXT);
		break;
	}
	case IR_INT_PY_DIV: {
		/* x // (1 << y) is x >> y when 1 << y is positive: 0 <= y <=
		 * W-2 (for y = W-1 it is MININT, for y >= W it is 0). */
		const ir_op *d = opt_def(c, y);
		if (!d || d->opc != IR_INT_LSHIFT ||
		    !opt_is_const_val(c, opt_find(c, d->args[0]), 1))
			break;
		ir_vid cnt = opt_find(c, d->args[1]);
		bnd bc = opt_bound(c, cnt);
		int64_t maxc =
		    opt_bug_on(c, OPT_BUG_POW2_DIV) ? c->w - 1 : c->w - 2;
		if (bc.lo >= 0 && bc.hi <= maxc) {
			opt_branch_hit(c, OPT_BR_RW_POW2_DIV);
			return opt_rewrite(c, op, IR_INT_RSHIFT, x, cnt);
		}
		opt_branch_hit(c, OPT_BR_RW_POW2_DIV_KEPT);
		break;
	}
	default: break;
	}
	return OPT_NEXT;
}

static opt_verdict b_pure(opt_ctx *c, opt_op *op)
{
	if (op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE)
		return OPT_NEXT;
	bnd b[2];
	args_of(c, op->nargs, op->args, b);
	bnd r = forward(c, op->opc, b);
	if (bnd_is_const(&r)) {
		opt_branch_hit(c, OPT_BR_RW_CONST);
		return opt_replace_const(c, op, bnd_const_val(&r));
	}
	return use_bounds(c, op, b);
}

static opt_verdict b_ovf(opt_ctx *c, opt_op *op)
{
	bnd b[2];
	args_of(c, op->nargs, op->args, b);
	bool may = bnd_may_overflow(op->opc, b);
	if (op->opc == IR_INT_MUL_OVF)
		opt_branch_hit(c, may ? OPT_BR_OVF_MUL_CORNER
				      : OPT_BR_OVF_MUL_FITS);
	if (!may) {
		opt_branch_hit(c, OPT_BR_OVF_CANNOT);
		opt_set_ovf(c, false);
	} else if (bnd_must_overflow(op->opc, b)) {
		opt_branch_hit(c, OPT_BR_OVF_MUST);
		opt_set_ovf(c, true);
	} else {
		opt_branch_hit(c, OPT_BR_OVF_MAY);
		return OPT_NEXT;
	}
	return opt_rewrite(c, op, ir_op_wrapping(op->opc), op->args[0],
			   op->args[1]);
}

static opt_verdict guard_passes(opt_ctx *c)
{
	opt_branch_hit(c, OPT_BR_GUARD_PASSES);
	return OPT_REMOVED;
}

static opt_verdict guard_fails(opt_ctx *c, opt_op *op)
{
	opt_branch_hit(c, OPT_BR_GUARD_FAILS);
	return opt_guard_fails(c, op);
}

static opt_verdict b_guard(opt_ctx *c, opt_op *op)
{
	if (op->fails || op->nargs == 0)
		return OPT_NEXT;
	bnd b[2];
	args_of(c, op->nargs, op->args, b);
	if (ir_is_const(c->out, op->args[0])) {
		/* Only the outcome is left to decide (fold does the same; this
		 * pass may run without it). */
		if (op->opc == IR_GUARD_VALUE && !bnd_is_const(&b[1]))
			return OPT_NEXT;
		uint64_t a[2] = {bnd_const_val(&b[0]),
				 op->nargs > 1 ? bnd_const_val(&b[1]) : 0};
		return sem_guard_passes(op->opc, a, false) ? guard_passes(c)
							   : guard_fails(c, op);
	}
	bool nz = bnd_is_nonzero(&b[0]);
	switch (op->opc) {
	case IR_GUARD_TRUE: return nz ? guard_passes(c) : OPT_NEXT;
	case IR_GUARD_FALSE: return nz ? guard_fails(c, op) : OPT_NEXT;
	case IR_GUARD_VALUE:
		if (bnd_is_const(&b[1]) &&
		    !bnd_contains(&b[0], bnd_const_val(&b[1])))
			return guard_fails(c, op);
		/* x == 1 is x != 0 for a value that is 0 or 1. */
		if (opt_is_const_val(c, op->args[1], 1) && b[0].lo >= 0 &&
		    b[0].hi <= 1) {
			opt_branch_hit(c, OPT_BR_GUARD_VALUE_BOOL);
			return opt_rewrite(c, op, IR_GUARD_TRUE, op->args[0],
					   IR_NOVAL);
		}
		return OPT_NEXT;
	default: return OPT_NEXT;
	}
}

static opt_verdict bounds_propagate(opt_ctx *c, opt_op *op)
{
	if (ir_op_has(op->opc, IRF_OVF))
		return b_ovf(c, op);
	if (ir_op_has(op->opc, IRF_PURE))
		return b_pure(c, op);
	if (ir_op_has(op->opc, IRF_GUARD))
		return b_guard(c, op);
	return OPT_NEXT;
}

static void bounds_emitted(opt_ctx *c, const opt_op *op)
{
	if (op->fails)
		return;
	if (ir_op_has(op->opc, IRF_PURE | IRF_OVF) &&
	    opt_is_int(c, op->result)) {
		bnd b[2];
		args_of(c, op->nargs, op->args, b);
		set_bound(c, op->result, forward(c, op->opc, b));
		return;
	}
	if (ir_op_has(op->opc, IRF_GUARD))
		learn_guard(c, op);
}

const opt_pass_hooks opt_bounds_hooks = {
    .init = bounds_init,
    .fini = bounds_fini,
    .propagate = bounds_propagate,
    .emitted = bounds_emitted,
    .bound = bounds_of,
};
