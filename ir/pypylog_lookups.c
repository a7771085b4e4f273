/*
 * pypylog_lookups.c - a dict lookup the optimized trace took from an
 * earlier one (docs/pypy.md, "Call effects": an assumption, counted with
 * the fields kept by calls).
 *
 * PyPy's heap optimizer remembers the result of a dict lookup, a call
 * with oopspec OS_DICT_LOOKUP (4) and flag FLAG_LOOKUP (0), by its dict
 * and key (heap.py, _optimize_CALL_DICT_LOOKUP).  A later lookup of the
 * same dict and key with flag FLAG_LOOKUP, or with FLAG_STORE (1) when
 * the remembered index is known to be >= 0, is removed with its
 * guard_no_exception, and its result is the remembered one.  A call
 * whose EffectInfo may write the dict forgets what was remembered.
 *
 * The log prints no EffectInfo, so the original's second lookup is taken
 * to give the first one's result only when no call lies between them,
 * the key is the same value and the dict is the same value: the same
 * name, or two reads of one field of one object with no store of that
 * field between and only calls that keep it (pl_call_effects, which runs
 * first).  Only as many lookups are taken as the optimized trace has
 * fewer than the original.  The original's second lookup and its
 * guard_no_exception are then left out, its result named by the first
 * one's: what the one world does when PyPy's cache is right.
 */
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"

enum { OS_DICT_LOOKUP = 4, FLAG_LOOKUP = 0, FLAG_STORE = 1 };

/* Whether op OP of T is a dict lookup call: lookup(dict, key, hash,
 * flag) with OS_DICT_LOOKUP in its descr. */
static bool is_lookup(const ir_trace *t, const ir_op *op)
{
	return op->opc == IR_OPAQUE && op->descr && op->nargs == 5 &&
	       op->result != IR_NOVAL &&
	       ir_val(t, op->args[0])->tag == IR_VAL_CONST_CLASS &&
	       ir_py_oopspec(ir_strtext(t, op->descr)) == OS_DICT_LOOKUP;
}

/* The flag of lookup OP of T, or -1 when it is no constant. */
static int flag_of(const ir_trace *t, const ir_op *op)
{
	const ir_value *f = ir_val(t, op->args[4]);
	if (f->tag != IR_VAL_CONST_INT || f->cval > FLAG_STORE)
		return -1;
	return (int)f->cval;
}

static uint32_t count_lookups(const ir_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		n += is_lookup(t, &t->ops[i]);
	return n;
}

/* Whether op OP of T is a call the heap model sees (not a guard on
 * what the previous call left). */
static bool real_call(const ir_trace *t, const ir_op *op)
{
	return ir_py_is_call_event(t, op) &&
	       !ir_py_writes_nothing(ir_op_name(t, op));
}

/* Whether A and B, values of T, are the same value: one name, two equal
 * integer constants, or two reads of one field of one object, immutable
 * or with no store of the field between and only calls that keep it. */
static bool same_value(const ir_trace *t, ir_vid a, ir_vid b)
{
	const ir_value *x = ir_val(t, a), *y = ir_val(t, b);
	if (a == b)
		return true;
	if (x->tag == IR_VAL_CONST_INT && y->tag == IR_VAL_CONST_INT)
		return x->cval == y->cval;
	if (x->tag != IR_VAL_OP || y->tag != IR_VAL_OP)
		return false;
	const ir_op *ra = &t->ops[x->def], *rb = &t->ops[y->def];
	if ((ra->opc != IR_GETFIELD_GC_R && ra->opc != IR_GETFIELD_GC_I) ||
	    rb->opc != ra->opc || ra->args[0] != rb->args[0] || !ra->descr ||
	    !rb->descr || x->def > y->def)
		return false;
	const char *d = ir_strtext(t, ra->descr);
	if (strcmp(d, ir_strtext(t, rb->descr)))
		return false;
	if (ir_py_field_immutable(d))
		return true; /* no store or call changes it (docs/pypy.md) */
	for (uint32_t i = x->def + 1; i < y->def; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_SETFIELD_GC && op->descr &&
		    !strcmp(ir_strtext(t, op->descr), d))
			return false;
		if (real_call(t, op) &&
		    !ir_py_call_keeps(
			ir_op_name(t, op),
			op->descr ? ir_strtext(t, op->descr) : NULL, d))
			return false;
	}
	return true;
}

/* Whether T checks R >= 0 in ops (FROM, TO): guard_false(int_lt(R, 0))
 * or guard_true(int_ge(R, 0)). */
static bool known_nonneg(const ir_trace *t, ir_vid r, uint32_t from,
			 uint32_t to)
{
	for (uint32_t i = from + 1; i < to; i++) {
		const ir_op *g = &t->ops[i];
		if ((g->opc != IR_GUARD_FALSE && g->opc != IR_GUARD_TRUE) ||
		    ir_val(t, g->args[0])->tag != IR_VAL_OP)
			continue;
		const ir_op *c = &t->ops[ir_val(t, g->args[0])->def];
		const ir_value *z =
		    c->nargs == 2 ? ir_val(t, c->args[1]) : NULL;
		if (!z || c->args[0] != r || z->tag != IR_VAL_CONST_INT ||
		    z->cval != 0)
			continue;
		if ((g->opc == IR_GUARD_FALSE && c->opc == IR_INT_LT) ||
		    (g->opc == IR_GUARD_TRUE && c->opc == IR_INT_GE))
			return true;
	}
	return false;
}

/* Whether lookup J of T repeats lookup I (I < J), as PyPy's cache takes
 * it (the file's comment). */
static bool repeats(const ir_trace *t, uint32_t i, uint32_t j)
{
	const ir_op *a = &t->ops[i], *b = &t->ops[j];
	int fb = flag_of(t, b);
	if (flag_of(t, a) != FLAG_LOOKUP || fb < 0 ||
	    strcmp(ir_valname(t, a->args[0]), ir_valname(t, b->args[0])) ||
	    !same_value(t, a->args[2], b->args[2]) ||
	    !same_value(t, a->args[1], b->args[1]))
		return false;
	for (uint32_t k = i + 1; k < j; k++)
		if (real_call(t, &t->ops[k]))
			return false;
	return fb == FLAG_LOOKUP || known_nonneg(t, a->result, i, j);
}

void pl_dict_lookups(pl_pair *p)
{
	const ir_trace *o = p->orig;
	uint32_t no = count_lookups(o), nt = count_lookups(p->opt);
	if (no <= nt)
		return;
	uint32_t *from = calloc(no, sizeof *from), *to = calloc(no, sizeof *to);
	uint32_t n = 0;
	for (uint32_t j = 0; from && to && j < o->nops; j++) {
		if (!is_lookup(o, &o->ops[j]))
			continue;
		uint32_t i = j;
		while (i-- > 0 &&
		       (!is_lookup(o, &o->ops[i]) || !repeats(o, i, j)))
			;
		if (i == UINT32_MAX)
			continue;
		/* the first of a chain: a lookup left out gives its
		 * source's result */
		uint32_t src = i;
		for (uint32_t m = 0; m < n; m++)
			if (from[m] == i)
				src = to[m];
		from[n] = j;
		to[n++] = src;
	}
	if (n && n <= no - nt) {
		ir_trace *a = pl_drop_repeats(o, from, to, n);
		ir_trace *b = a ? ir_trace_clone(p->opt) : NULL;
		pl_replace_traces(p, a, b);
		if (a && b)
			p->nkept += n;
	}
	free(from);
	free(to);
}
