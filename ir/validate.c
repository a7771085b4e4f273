#include "validate.h"

#include <stdio.h>
#include <string.h>

typedef struct vctx {
	const ir_trace *t;
	const char *file;
	jp_err *err;
} vctx;

/* Reports a problem with op OPI, located at its source position when it
 * was parsed, else by its index. */
static jp_status bad(const vctx *c, uint32_t opi, const char *fmt,
		     const char *a, const char *b)
{
	char msg[600];
	snprintf(msg, sizeof msg, fmt, a, b);
	if (opi < c->t->nops && c->t->ops[opi].line > 0)
		return jp_fail_at(c->err, JP_EINPUT, c->file,
				  c->t->ops[opi].line, c->t->ops[opi].col, "%s",
				  msg);
	if (opi < c->t->nops)
		return jp_fail_at(c->err, JP_EINPUT, c->file, 0, 0, "op %u: %s",
				  opi, msg);
	return jp_fail_at(c->err, JP_EINPUT, c->file, 0, 0, "%s", msg);
}

static const char *kind_word(char k)
{
	switch (k) {
	case 'i': return "an int";
	case 'r': return "a ref";
	case 'c': return "a class constant (ConstClass(...))";
	case 'a': return "an int or a ref";
	default: return "no value";
	}
}

static jp_status check_defined(const vctx *c, uint32_t opi, ir_vid v,
			       const char *what)
{
	const ir_trace *t = c->t;
	if (v == IR_NOVAL || v >= t->nvals)
		return bad(c, opi, "%s: expected a value, found %s", what,
			   "None or a dangling reference");
	uint32_t def = ir_defop(t, v);
	if (def != UINT32_MAX && def >= opi)
		return bad(c, opi, "%s: '%s' is used before it is defined",
			   what, ir_valname(t, v));
	return JP_OK;
}

static jp_status check_arg(const vctx *c, uint32_t opi, uint32_t i)
{
	const ir_trace *t = c->t;
	const ir_op *op = &t->ops[opi];
	char what[96];
	snprintf(what, sizeof what, "argument %u of %s", i + 1,
		 ir_op_name(t, op));
	jp_status e = check_defined(c, opi, op->args[i], what);
	if (e)
		return e;
	char want = op->opc == IR_OPAQUE ? 'a' : ir_op_argkind(op->opc, (int)i);
	if (op->opc == IR_OPAQUE || op->opc == IR_LABEL)
		return JP_OK; /* opaque calls take anything, classes too */
	char have = t->vals[op->args[i]].kind;
	bool ok = want == 'a' ? (have == 'i' || have == 'r') : have == want;
	/* a class is an address: PyPy's finish may return one
	 * (ExitFrameWithExceptionDescrRef, after guard_always_fails) */
	ok |= op->opc == IR_FINISH && have == 'c';
	if (ok)
		return JP_OK;
	char found[160];
	snprintf(found, sizeof found, "'%s' (%s)",
		 ir_is_const(t, op->args[i]) ? "a constant"
					     : ir_valname(t, op->args[i]),
		 kind_word(have));
	char msg[200];
	snprintf(msg, sizeof msg, "%s must be %s", what, kind_word(want));
	return bad(c, opi, "%s, found %s", msg, found);
}

static jp_status check_shape(const vctx *c, uint32_t opi)
{
	const ir_trace *t = c->t;
	const ir_op *op = &t->ops[opi];
	const ir_opinfo *info = ir_opinfo_of(op->opc);
	const char *name = ir_op_name(t, op);
	char buf[32];
	if (info->nargs >= 0 && op->nargs != (uint32_t)info->nargs) {
		snprintf(buf, sizeof buf, "%d", info->nargs);
		char msg[64];
		snprintf(msg, sizeof msg, "%s takes %%s arguments, found %u",
			 name, op->nargs);
		return bad(c, opi, msg, buf, "");
	}
	if (op->opc != IR_OPAQUE && op->kind != info->result)
		return bad(c, opi, "%s: result kind does not match the op %s",
			   name, "table");
	if (op->kind != 'v' && op->result == IR_NOVAL)
		return bad(c, opi, "%s: expected a result %s", name, "value");
	bool needs_descr =
	    op->opc == IR_GETFIELD_GC_I || op->opc == IR_GETFIELD_GC_R ||
	    op->opc == IR_SETFIELD_GC || op->opc == IR_NEW_WITH_VTABLE ||
	    op->opc == IR_GETARRAYITEM_GC_I ||
	    op->opc == IR_GETARRAYITEM_GC_R || op->opc == IR_SETARRAYITEM_GC;
	if (needs_descr && op->descr == 0)
		return bad(c, opi, "%s: expected descr=%s", name,
			   op->opc == IR_NEW_WITH_VTABLE ? "TYPE" : "FIELD");
	if (op->nfail && !ir_op_has(op->opc, IRF_GUARD) && op->opc != IR_OPAQUE)
		return bad(c, opi, "%s: only guards have fail-args %s", name,
			   "[...]");
	if (op->opc == IR_GUARD_VALUE && op->nargs == 2 &&
	    op->args[0] < t->nvals && op->args[1] < t->nvals &&
	    t->vals[op->args[0]].kind != t->vals[op->args[1]].kind)
		return bad(c, opi,
			   "guard_value: expected two values of the same kind, "
			   "found %s and %s",
			   kind_word(t->vals[op->args[0]].kind),
			   kind_word(t->vals[op->args[1]].kind));
	return JP_OK;
}

static jp_status check_overflow_pairing(const vctx *c, uint32_t opi)
{
	const ir_trace *t = c->t;
	const ir_op *op = &t->ops[opi];
	if (ir_op_has(op->opc, IRF_OVFGUARD)) {
		if (opi == 0 || !ir_op_has(t->ops[opi - 1].opc, IRF_OVF))
			return bad(c, opi,
				   "%s must come right after int_add_ovf, "
				   "int_sub_ovf or int_mul_ovf%s",
				   ir_op_name(t, op), "");
	}
	if (ir_op_has(op->opc, IRF_OVF)) {
		if (opi + 1 >= t->nops ||
		    !ir_op_has(t->ops[opi + 1].opc, IRF_OVFGUARD))
			return bad(c, opi,
				   "%s must be followed right away by "
				   "guard_no_overflow or guard_overflow%s",
				   ir_op_name(t, op), "");
	}
	return JP_OK;
}

static jp_status check_labels(const vctx *c)
{
	const ir_trace *t = c->t;
	/* Guards are few; a quadratic scan keeps this module allocation-free.
	 */
	for (uint32_t i = 0; i < t->nops; i++) {
		if (!ir_op_has(t->ops[i].opc, IRF_GUARD))
			continue;
		if (t->ops[i].descr == 0)
			return bad(c, i, "%s has no label (descr=%s)",
				   ir_op_name(t, &t->ops[i]), "...");
		for (uint32_t j = 0; j < i; j++)
			if (ir_op_has(t->ops[j].opc, IRF_GUARD) &&
			    t->ops[j].descr == t->ops[i].descr)
				return bad(c, i,
					   "guard label '%s' is used twice%s",
					   ir_guard_label(t, i), "");
	}
	return JP_OK;
}

jp_status ir_validate(const ir_trace *t, const char *file, jp_err *err)
{
	vctx c = {t, file, err};
	if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64)
		return jp_fail(err, JP_EINPUT,
			       "expected width 8, 16, 32 or 64, found %d",
			       t->width);
	for (uint32_t i = 0; i < t->ninputs; i++) {
		char k = t->vals[t->inputs[i]].kind;
		if (k != 'i' && k != 'r')
			return jp_fail_at(err, JP_EINPUT, file, 0, 0,
					  "input %u must be an int or a ref",
					  i);
	}
	if (t->nops == 0)
		return jp_fail_at(err, JP_EINPUT, file, 0, 0,
				  "expected operations, found an empty trace");
	jp_status e;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc >= IR_OPCODE_COUNT)
			return bad(&c, i, "invalid opcode%s%s", "", "");
		if ((e = check_shape(&c, i)))
			return e;
		for (uint32_t a = 0; a < op->nargs; a++)
			if ((e = check_arg(&c, i, a)))
				return e;
		for (uint32_t a = 0; a < op->nfail; a++) {
			if (op->failargs[a] == IR_NOVAL)
				continue;
			if ((e = check_defined(&c, i, op->failargs[a],
					       "fail-arg")))
				return e;
		}
		if ((e = check_overflow_pairing(&c, i)))
			return e;
		bool end = ir_op_has(op->opc, IRF_END);
		if (end && i + 1 != t->nops)
			return bad(
			    &c, i + 1, "expected nothing after %s, found %s",
			    ir_op_name(t, op), ir_op_name(t, &t->ops[i + 1]));
		if (!end && i + 1 == t->nops)
			return bad(
			    &c, i,
			    "expected the trace to end with jump(...) or "
			    "finish(...), found %s%s",
			    ir_op_name(t, op), " last");
	}
	return check_labels(&c);
}
