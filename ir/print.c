#include "print.h"

#include <inttypes.h>
#include <string.h>

#include "sem.h"

void ir_print_int(int width, uint64_t v, strbuf *sb)
{
	sb_printf(sb, "%" PRId64, sem_signed(width, v));
}

void ir_print_arg(const ir_trace *t, ir_vid v, strbuf *sb)
{
	if (v == IR_NOVAL) {
		sb_puts(sb, "None");
		return;
	}
	const ir_value *x = &t->vals[v];
	switch ((ir_valtag)x->tag) {
	case IR_VAL_INPUT:
	case IR_VAL_OP: sb_puts(sb, t->strs[x->name]); break;
	case IR_VAL_CONST_INT: ir_print_int(t->width, x->cval, sb); break;
	case IR_VAL_CONST_NULL: sb_puts(sb, "NULL"); break;
	case IR_VAL_CONST_PTR:
		sb_printf(sb, "ConstPtr(%s)", t->strs[x->name]);
		break;
	case IR_VAL_CONST_CLASS:
		sb_printf(sb, "ConstClass(%s)", t->strs[x->name]);
		break;
	}
}

static void print_list(const ir_trace *t, const ir_vid *v, uint32_t n,
		       strbuf *sb)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			sb_puts(sb, ", ");
		ir_print_arg(t, v[i], sb);
	}
}

/* The toy spelling of op OP, or NULL when it prints in PyPy's: toy
 * arithmetic does unless ARITH (ir_print_toy; the parser reads it back in
 * a toy trace either way), and so do heap ops whose descr the toy words
 * cannot show. */
static const char *toy_name(const ir_trace *t, const ir_op *op, bool arith)
{
	const char *word = ir_opinfos[op->opc].toy;
	if (!word)
		return NULL;
	if (!ir_op_has(op->opc, IRF_HEAP))
		return arith ? word : NULL;
	if (op->opc == IR_NEW) /* alloc() has no type */
		return op->descr == 0 ? word : NULL;
	if (ir_op_has(op->opc, IRF_DESCR)) /* load/store: a field number */
		return ir_is_decimal(t->strs[op->descr]) ? word : NULL;
	/* Any number of arguments: the parser reads print(a, b) too, and a
	 * toy trace must keep a toy word to parse back as one. */
	return op->flags & IR_OPF_TOY_PRINT ? "print" : word;
}

static void print_toy_op(const ir_trace *t, const ir_op *op, const char *nm,
			 strbuf *sb)
{
	sb_printf(sb, "%s(", nm);
	if (op->opc == IR_GETFIELD_GC_I || op->opc == IR_GETFIELD_GC_R) {
		ir_print_arg(t, op->args[0], sb);
		sb_printf(sb, ", %s", t->strs[op->descr]);
	} else if (op->opc == IR_SETFIELD_GC) {
		ir_print_arg(t, op->args[0], sb);
		sb_printf(sb, ", %s, ", t->strs[op->descr]);
		ir_print_arg(t, op->args[1], sb);
	} else {
		print_list(t, op->args, op->nargs, sb);
	}
	sb_putc(sb, ')');
}

/* The optimizer rule that made the op, as the trace comment the parser
 * reads back. */
static void print_rule(const ir_trace *t, const ir_op *op, strbuf *sb)
{
	if (op->rule)
		sb_printf(sb, "  # rule: %s", t->strs[op->rule]);
}

static void print_op(const ir_trace *t, uint32_t opi, bool arith, strbuf *sb)
{
	const ir_op *op = &t->ops[opi];
	const char *toy = t->toy || arith ? toy_name(t, op, arith) : NULL;
	if (op->result != IR_NOVAL)
		sb_printf(sb, "%s = ", ir_valname(t, op->result));
	else if (toy && op->opname)
		sb_printf(sb, "%s = ", t->strs[op->opname]);
	if (toy) {
		print_toy_op(t, op, toy, sb);
		print_rule(t, op, sb);
		return;
	}
	const char *name = ir_op_name(t, op);
	if (op->flags & IR_OPF_PURE_ITEM)
		name = op->opc == IR_GETARRAYITEM_GC_R
			   ? "getarrayitem_gc_pure_r"
			   : "getarrayitem_gc_pure_i";
	sb_printf(sb, "%s%s(", op->flags & IR_OPF_INSTANCE ? "instance_" : "",
		  name);
	if (op->opc == IR_DEBUG_MERGE_POINT) {
		sb_puts(sb, t->strs[op->opname]);
	} else {
		print_list(t, op->args, op->nargs, sb);
		bool label = ir_op_has(op->opc, IRF_GUARD);
		bool show = op->descr &&
			    !(label && (op->flags & IR_OPF_IMPLICIT_LABEL));
		if (show)
			sb_printf(sb, "%sdescr=%s", op->nargs ? ", " : "",
				  t->strs[op->descr]);
	}
	sb_putc(sb, ')');
	if (op->flags & IR_OPF_HAS_FAILARGS) {
		sb_puts(sb, " [");
		print_list(t, op->failargs, op->nfail, sb);
		sb_putc(sb, ']');
	}
	print_rule(t, op, sb);
}

void ir_print_op(const ir_trace *t, uint32_t opi, strbuf *sb)
{
	print_op(t, opi, false, sb);
}

static void print_trace(const ir_trace *t, bool arith, strbuf *sb)
{
	bool toy = t->toy || arith;
	if (toy) {
		for (uint32_t i = 0; i < t->ninputs; i++)
			sb_printf(sb, "%s = getarg(%u)\n",
				  ir_valname(t, t->inputs[i]), i);
	} else {
		sb_putc(sb, '[');
		print_list(t, t->inputs, t->ninputs, sb);
		sb_puts(sb, "]\n");
	}
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		/* The toy spelling has no end op; the parser adds an empty
		 * finish, which we leave out again. */
		if (toy && op->opc == IR_FINISH && op->nargs == 0 &&
		    i + 1 == t->nops)
			continue;
		print_op(t, i, arith, sb);
		sb_putc(sb, '\n');
	}
}

void ir_print(const ir_trace *t, strbuf *sb)
{
	print_trace(t, false, sb);
}

void ir_print_toy(const ir_trace *t, strbuf *sb)
{
	print_trace(t, true, sb);
}
