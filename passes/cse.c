/*
 * cse.c - common subexpression elimination by hash-based value numbering.
 *
 * Every pure op emitted is entered into a table under its opcode and
 * (forwarded) arguments, with the arguments of a commutative op in a fixed
 * order; a later op with the same key is replaced by the earlier result.
 *
 * Overflow-checked ops are never merged with their wrapping twins in the
 * direction that would lose a check: int_add_ovf(a, b) only reuses an
 * earlier int_add_ovf(a, b) whose guard_no_overflow passed (then it
 * cannot overflow either, and its own guard goes).  The other direction is
 * sound and used: after int_add_ovf(a, b) passed guard_no_overflow, a later
 * wrapping int_add(a, b) is the same value.
 *
 * Guards: after guard_true(x) passed, another guard_true(x) always passes.
 * (guard_false and guard_value make x a constant, see fold.c.)
 */
#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"
#include "passes/opt_internal.h"

typedef struct entry {
	uint32_t opc; /* ir_opcode + 1; 0 = free slot */
	ir_vid a, b;
	ir_vid r; /* the value */
} entry;

typedef struct table {
	entry *e;
	uint32_t cap, n;
} table;

static table *tab(opt_ctx *c)
{
	return c->state[OPT_PASS_CSE];
}

static jp_status cse_init(opt_ctx *c)
{
	table *t = calloc(1, sizeof *t);
	if (!t)
		return JP_ENOMEM;
	t->cap = 256;
	t->e = calloc(t->cap, sizeof *t->e);
	if (!t->e) {
		free(t);
		return JP_ENOMEM;
	}
	c->state[OPT_PASS_CSE] = t;
	return JP_OK;
}

static void cse_fini(opt_ctx *c)
{
	table *t = tab(c);
	if (t) {
		free(t->e);
		free(t);
	}
	c->state[OPT_PASS_CSE] = NULL;
}

static uint32_t hash(uint32_t opc, ir_vid a, ir_vid b)
{
	uint64_t x = ((uint64_t)opc << 48) ^ ((uint64_t)a << 24) ^ b;
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return (uint32_t)x;
}

/* The key of OPC(A, B): commutative arguments in increasing order. */
static void key(ir_opcode opc, ir_vid *a, ir_vid *b)
{
	if (ir_op_has(opc, IRF_COMM) && *a > *b) {
		ir_vid t = *a;
		*a = *b;
		*b = t;
	}
}

static entry *slot(table *t, uint32_t opc, ir_vid a, ir_vid b)
{
	uint32_t i = hash(opc, a, b) & (t->cap - 1);
	while (t->e[i].opc &&
	       !(t->e[i].opc == opc && t->e[i].a == a && t->e[i].b == b))
		i = (i + 1) & (t->cap - 1);
	return &t->e[i];
}

static ir_vid lookup(opt_ctx *c, ir_opcode opc, ir_vid a, ir_vid b)
{
	key(opc, &a, &b);
	entry *e = slot(tab(c), (uint32_t)opc + 1, a, b);
	return e->opc ? opt_find(c, e->r) : IR_NOVAL;
}

static bool grow(opt_ctx *c)
{
	table *t = tab(c);
	table n = {calloc((size_t)t->cap * 2, sizeof(entry)), t->cap * 2, 0};
	if (!n.e) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return false;
	}
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->e[i].opc) {
			*slot(&n, t->e[i].opc, t->e[i].a, t->e[i].b) = t->e[i];
			n.n++;
		}
	free(t->e);
	*t = n;
	return true;
}

static void insert(opt_ctx *c, ir_opcode opc, ir_vid a, ir_vid b, ir_vid r)
{
	table *t = tab(c);
	if ((t->n + 1) * 2 > t->cap && !grow(c))
		return;
	key(opc, &a, &b);
	entry *e = slot(t, (uint32_t)opc + 1, a, b);
	if (e->opc)
		return; /* keep the earliest */
	e->opc = (uint32_t)opc + 1;
	e->a = a;
	e->b = b;
	e->r = r;
	t->n++;
}

static opt_verdict cse_ovf(opt_ctx *c, opt_op *op)
{
	ir_vid r = lookup(c, op->opc, op->args[0], op->args[1]);
	if (r != IR_NOVAL && opt_is_exact(c, opt_def_index(c, r))) {
		opt_set_ovf(c, false);
		return opt_replace(c, op, r);
	}
	if (opt_bug_on(c, OPT_BUG_OVF_TWIN_CSE)) {
		/* BUG: the wrapping twin says nothing about overflow. */
		r = lookup(c, ir_op_wrapping(op->opc), op->args[0],
			   op->args[1]);
		if (r != IR_NOVAL) {
			opt_set_ovf(c, false);
			return opt_replace(c, op, r);
		}
	}
	return OPT_NEXT;
}

static opt_verdict cse_propagate(opt_ctx *c, opt_op *op)
{
	if (op->fails)
		return OPT_NEXT;
	if (ir_op_has(op->opc, IRF_OVF))
		return cse_ovf(c, op);
	if (ir_op_has(op->opc, IRF_PURE)) {
		ir_vid r = lookup(c, op->opc, op->args[0],
				  op->nargs > 1 ? op->args[1] : IR_NOVAL);
		return r == IR_NOVAL ? OPT_NEXT : opt_replace(c, op, r);
	}
	if (op->opc == IR_GUARD_TRUE &&
	    lookup(c, IR_GUARD_TRUE, op->args[0], IR_NOVAL) != IR_NOVAL)
		return OPT_REMOVED;
	return OPT_NEXT;
}

static void cse_emitted(opt_ctx *c, const opt_op *op)
{
	ir_vid a = op->args[0], b = op->nargs > 1 ? op->args[1] : IR_NOVAL;
	uint64_t k;
	if (op->fails)
		return;
	if (ir_op_has(op->opc, IRF_PURE | IRF_OVF)) {
		insert(c, op->opc, a, b, op->result);
		/* x + k, k + x and x - (-k) are the same value. */
		if (op->opc == IR_INT_ADD && opt_const(c, a, &k))
			insert(c, IR_INT_SUB, b, opt_const_int(c, 0 - k),
			       op->result);
		if (op->opc == IR_INT_ADD && opt_const(c, b, &k))
			insert(c, IR_INT_SUB, a, opt_const_int(c, 0 - k),
			       op->result);
		if (op->opc == IR_INT_SUB && opt_const(c, b, &k))
			insert(c, IR_INT_ADD, a, opt_const_int(c, 0 - k),
			       op->result);
		return;
	}
	if (op->opc == IR_GUARD_NO_OVERFLOW) {
		const ir_op *o = &c->out->ops[c->ovf_out];
		insert(c, ir_op_wrapping((ir_opcode)o->opc), o->args[0],
		       o->args[1], o->result);
		return;
	}
	if (op->opc == IR_GUARD_TRUE && !ir_is_const(c->out, a))
		insert(c, IR_GUARD_TRUE, a, IR_NOVAL, a);
}

const opt_pass_hooks opt_cse_hooks = {
    .init = cse_init,
    .fini = cse_fini,
    .propagate = cse_propagate,
    .emitted = cse_emitted,
};
