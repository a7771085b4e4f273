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
	switch ((ir_opcode)op->opc) {
	case IR_GUARD_TRUE:
	case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: return fold_guard(c, op);
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT:
	case IR_INT_LE: case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT:
	case IR_UINT_LE: case IR_UINT_GT: case IR_UINT_GE:
	case IR_INT_IS_TRUE: case IR_INT_IS_ZERO: case IR_PTR_EQ:
	case IR_PTR_NE: case IR_INT_ADD_OVF: case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: case IR_GUARD_CLASS: case IR_GUARD_NONNULL:
	case IR_GUARD_ISNULL: case IR_NEW: case IR_NEW_WITH_VTABLE:
	case IR_GETFIELD_GC_I: case IR_GETFIELD_GC_R: case IR_SETFIELD_GC:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT:
	case IR_LABEL: case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return OPT_NEXT;
	}
	return OPT_NEXT; /* not an op of the table */
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
	switch ((ir_opcode)op->opc) {
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
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT:
	case IR_INT_LE: case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT:
	case IR_UINT_LE: case IR_UINT_GT: case IR_UINT_GE:
	case IR_INT_IS_TRUE: case IR_INT_IS_ZERO: case IR_PTR_EQ:
	case IR_PTR_NE: case IR_INT_ADD_OVF: case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: case IR_GUARD_CLASS: case IR_GUARD_NONNULL:
	case IR_GUARD_ISNULL: case IR_NEW: case IR_NEW_WITH_VTABLE:
	case IR_GETFIELD_GC_I: case IR_GETFIELD_GC_R: case IR_SETFIELD_GC:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT:
	case IR_LABEL: case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		break;
	}
}

const opt_pass_hooks opt_fold_hooks = {
    .propagate = fold_propagate,
    .emitted = fold_emitted,
};

/* Which ops constant folding handles (opt.h).  Every op has a case: an op
 * added to ir/ops.def stops the build here. */
const char *opt_fold_unhandled(ir_opcode opc)
{
	switch (opc) {
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT:
	case IR_INT_LE: case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT:
	case IR_UINT_LE: case IR_UINT_GT: case IR_UINT_GE:
	case IR_INT_IS_TRUE: case IR_INT_IS_ZERO: case IR_PTR_EQ:
	case IR_PTR_NE: case IR_INT_ADD_OVF: case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: case IR_GUARD_TRUE: case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW:
		/* clang-format on */
		return NULL;
	/* clang-format off */
	case IR_GUARD_CLASS: case IR_GUARD_NONNULL: case IR_GUARD_ISNULL:
		/* clang-format on */
		return "a reference guard: the heap passes decide it";
	/* clang-format off */
	case IR_NEW: case IR_NEW_WITH_VTABLE: case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: case IR_SETFIELD_GC: case IR_ESCAPE_N:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT: case IR_LABEL:
	case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return "no constant to fold: heap, call, marker or end";
	}
	return "not an op of the table";
}
