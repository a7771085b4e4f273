/*
 * pypylog_classes.c - what the optimized trace shows of the classes of
 * its constants (docs/pypy.md, "Constant classes").
 *
 * PyPy's optimizer folds instance_ptr_eq/ne(a, b) when it knows the class
 * of both operands and the two differ (rewrite.py,
 * _optimize_oois_ooisnot); the class of a ConstPtr it reads from the
 * object itself, and the log does not print it.  So when the original
 * compares a ConstPtr K with a value v as instances, after a guard_class
 * of its own gave v the class C, and the optimized trace compares K with
 * nothing at all, PyPy found K's class to differ from C -- or the
 * optimizer dropped a comparison it needed, which the pair then cannot
 * show.  The pair assumes the former: the original's comparison gets the
 * descr "<not-class=C>" (ir/pypyops.h, ir_py_not_class), which the heap
 * model states as type(K) != C for the whole pair (verify/heap_classes.c).
 * An assumption, counted (pl_pair.nclasses) and left out with
 * --classes-unknown.
 *
 * Never for a K whose class the traces themselves say something of: a
 * guard_class or guard_value on K, or a comparison with K that a guard
 * takes as equal.  There the assumption could contradict a guard and
 * leave no run to compare: a vacuous proof.  Otherwise type(K) is free in
 * the model, and any number of "not C" leaves it a value.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "pypylog_int.h"

static const char *cptr_name(const ir_trace *t, ir_vid v)
{
	if (v == IR_NOVAL || ir_val(t, v)->tag != IR_VAL_CONST_PTR)
		return NULL;
	return ir_strtext(t, ir_val(t, v)->name);
}

static bool names(const ir_trace *t, ir_vid v, const char *k)
{
	const char *n = cptr_name(t, v);
	return n && !strcmp(n, k);
}

/* Whether op I of T, a ptr_eq or ptr_ne, is taken as "equal" by a guard
 * on its result. */
static bool guarded_equal(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	for (uint32_t j = i + 1; j < t->nops; j++) {
		const ir_op *g = &t->ops[j];
		if (g->nargs < 1 || g->args[0] != op->result)
			continue;
		if ((g->opc == IR_GUARD_TRUE && op->opc == IR_PTR_EQ) ||
		    (g->opc == IR_GUARD_FALSE && op->opc == IR_PTR_NE))
			return true;
	}
	return false;
}

/* Whether T says nothing of K's class: no guard_class or guard_value on
 * K, no comparison with K a guard takes as equal. */
static bool class_unsaid(const ir_trace *t, const char *k)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		bool uses = false;
		for (uint32_t a = 0; a < op->nargs; a++)
			uses = uses || names(t, op->args[a], k);
		if (!uses)
			continue;
		if (op->opc == IR_GUARD_CLASS || op->opc == IR_GUARD_VALUE)
			return false;
		if ((op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE) &&
		    guarded_equal(t, i))
			return false;
	}
	return true;
}

/* Whether T compares K with anything. */
static bool compares(const ir_trace *t, const char *k)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if ((op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE) &&
		    op->nargs == 2 &&
		    (names(t, op->args[0], k) || names(t, op->args[1], k)))
			return true;
	}
	return false;
}

/* The class a guard_class of T before op I gives V, or NULL. */
static const char *class_before(const ir_trace *t, uint32_t i, ir_vid v)
{
	const char *c = NULL;
	for (uint32_t j = 0; j < i; j++) {
		const ir_op *g = &t->ops[j];
		if (g->opc == IR_GUARD_CLASS && g->nargs == 2 &&
		    g->args[0] == v)
			c = ir_valname(t, g->args[1]);
	}
	return c;
}

/* Whether an op of T before I already has descr D with K (the same
 * assumption, counted once: a loop's second iteration repeats it). */
static bool counted(const ir_trace *t, uint32_t i, const char *k, uint32_t d)
{
	for (uint32_t j = 0; j < i; j++) {
		const ir_op *op = &t->ops[j];
		if (op->descr == d && op->nargs == 2 &&
		    (names(t, op->args[0], k) || names(t, op->args[1], k)))
			return true;
	}
	return false;
}

bool pl_class_foldable(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	if (!(op->flags & IR_OPF_INSTANCE) || op->nargs != 2 ||
	    (op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE))
		return false;
	bool k0 = cptr_name(t, op->args[0]) != NULL;
	bool k1 = cptr_name(t, op->args[1]) != NULL;
	if (k0 == k1)
		return false;
	return class_before(t, i, op->args[k0 ? 1 : 0]) != NULL;
}

void pl_const_classes(pl_pair *p)
{
	ir_trace *o = p->orig;
	if (!o || !p->opt)
		return;
	for (uint32_t i = 0; i < o->nops; i++) {
		ir_op *op = &o->ops[i];
		if (!(op->flags & IR_OPF_INSTANCE) || op->nargs != 2 ||
		    op->descr || (op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE))
			continue;
		const char *k = cptr_name(o, op->args[0]);
		ir_vid v = op->args[1];
		if (!k) {
			k = cptr_name(o, op->args[1]);
			v = op->args[0];
		}
		if (!k || ir_val(o, v)->tag == IR_VAL_CONST_PTR ||
		    !class_unsaid(o, k) || !class_unsaid(p->opt, k) ||
		    compares(p->opt, k))
			continue;
		const char *c = class_before(o, i, v);
		if (!c)
			continue;
		char text[300];
		int n = snprintf(text, sizeof text, "<not-class=%s>", c);
		if (n < 0 || (size_t)n >= sizeof text)
			continue;
		uint32_t d = ir_cstr(o, text);
		if (d == UINT32_MAX)
			return; /* out of memory: no more assumptions */
		if (!counted(o, i, k, d))
			p->nclasses++;
		op->descr = d;
	}
}
