/*
 * fold.c - constant folding.
 *
 * An op whose arguments are all integer constants is evaluated with
 * sem_eval (the one definition of every op) and replaced by its result.
 * A guard on constants either always passes (removed) or always fails
 * (kept, and the trace ends after it).  After a guard passes, what it
 * tested is a constant for the rest of the trace: guard_value(x, 5) makes
 * x the constant 5, guard_false(x) makes x 0, and guard_true(c) makes a
 * comparison c (which is 0 or 1) the constant 1.
 */
#include "ir/sem.h"
#include "passes/opt_internal.h"

/* The integer constants OP reads, or false when one is not a constant
 * (a null or ConstPtr reference is not: its address is not known here). */
static bool const_args(const opt_ctx *c, const opt_op *op, uint64_t *vals)
{
	for (uint32_t k = 0; k < op->nargs; k++)
		if (!opt_const(c, op->args[k], &vals[k]))
			return false;
	return true;
}

static opt_verdict fold_pure(opt_ctx *c, opt_op *op)
{
	uint64_t a[2];
	if (!const_args(c, op, a))
		return OPT_NEXT;
	return opt_replace_const(c, op, sem_eval(op->opc, c->w, a, NULL));
}

static opt_verdict fold_ovf(opt_ctx *c, opt_op *op)
{
	uint64_t a[2];
	bool ovf = false;
	if (!const_args(c, op, a))
		return OPT_NEXT;
	uint64_t r = sem_eval(op->opc, c->w, a, &ovf);
	opt_set_ovf(c, ovf);
	return opt_replace_const(c, op, r);
}

static opt_verdict fold_guard(opt_ctx *c, opt_op *op)
{
	uint64_t a[2];
	if (op->fails || op->nargs == 0 || !const_args(c, op, a))
		return OPT_NEXT;
	if (sem_guard_passes(op->opc, a, false))
		return OPT_REMOVED;
	return opt_guard_fails(c, op);
}

static opt_verdict fold_propagate(opt_ctx *c, opt_op *op)
{
	if (ir_op_has(op->opc, IRF_OVF))
		return fold_ovf(c, op);
	if (ir_op_has(op->opc, IRF_PURE))
		return fold_pure(c, op);
	switch (op->opc) {
	case IR_GUARD_TRUE:
	case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: return fold_guard(c, op);
	default: return OPT_NEXT;
	}
}

static bool is_comparison(const opt_ctx *c, ir_vid v)
{
	const ir_op *d = opt_def(c, v);
	return d && ir_op_has(d->opc, IRF_CMP);
}

/* What a guard that passed tells about its argument. */
static void fold_emitted(opt_ctx *c, const opt_op *op)
{
	if (op->fails || !ir_op_has(op->opc, IRF_GUARD) ||
	    !opt_rule_fire(c, OPT_RULE_FOLD_GUARD))
		return;
	ir_vid x = op->nargs ? op->args[0] : IR_NOVAL;
	switch (op->opc) {
	case IR_GUARD_VALUE:
		if (ir_is_const(c->out, op->args[1]))
			opt_union(c, x, op->args[1]);
		else if (ir_is_const(c->out, x))
			opt_union(c, op->args[1], x);
		break;
	case IR_GUARD_FALSE: opt_union(c, x, opt_const_int(c, 0)); break;
	case IR_GUARD_TRUE:
		if (is_comparison(c, x))
			opt_union(c, x, opt_const_int(c, 1));
		break;
	default: break;
	}
}

const opt_pass_hooks opt_fold_hooks = {
    .propagate = fold_propagate,
    .emitted = fold_emitted,
};
