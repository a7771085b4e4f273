/*
 * pypylog_private.c - fresh objects no one else sees, taken apart
 * (docs/pypy.md, "Private objects").
 *
 * PyPy's unoptimized trace boxes every intermediate integer and float:
 * p = new_with_vtable(W_FloatObject), setfield_gc(p, f, floatval), and
 * the next operation reads the field back.  The optimized trace keeps the
 * value and drops the box.  The heap model gives each allocation an
 * identity, and a long float loop has more than it can hold (64).
 *
 * An allocation P of a trace is *private* when its address goes nowhere:
 * every op that takes P takes it as the object of a field read or store
 * (never as the value stored), as the subject of guard_nonnull or of a
 * guard_class on P's own class, or as one side of a pointer comparison;
 * P is no output, no fail-arg, no argument of a call.  Then nothing but
 * those ops can reach P: no other value is P (a fresh address differs
 * from every input, constant and other allocation, and P was never
 * stored anywhere a read or a call could get it from), and no call
 * changes a fresh object that did not escape (heap.h).  So, exactly as
 * the model and the interpreter run the trace:
 *  - a read of field F of P is the value the last store of F through P
 *    wrote, or 0 (NULL) before any (a fresh object's fields start at 0);
 *  - a pointer comparison of P with anything but P is false (ptr_eq) or
 *    true (ptr_ne); with P itself, the other way round;
 *  - guard_nonnull(P) and guard_class(P, its class) always pass;
 *  - P is never observable: the heap comparisons leave out the fields of
 *    fresh objects that did not escape.
 * The rewrite drops P's allocation, stores and guards and replaces its
 * reads and comparisons by those values, in both traces of a pair: the
 * same runs, with an identity fewer each.
 * Sections: which allocations are private; the copy.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"

/* ---- which allocations are private -------------------------------------- */

static bool is_read(ir_opcode c)
{
	return c == IR_GETFIELD_GC_I || c == IR_GETFIELD_GC_R;
}

static bool is_cmp(ir_opcode c)
{
	return c == IR_PTR_EQ || c == IR_PTR_NE;
}

/* Whether op OP of T may take the allocation P (of class descr CLS) the
 * way a private object allows. */
static bool private_use(const ir_trace *t, const ir_op *op, ir_vid p,
			const char *cls)
{
	ir_opcode c = (ir_opcode)op->opc;
	for (uint32_t j = 0; j < op->nfail; j++)
		if (op->failargs[j] == p)
			return false;
	bool uses = false;
	for (uint32_t j = 0; j < op->nargs; j++)
		uses |= op->args[j] == p;
	if (!uses)
		return true;
	if (is_read(c) || is_cmp(c))
		return op->nargs == (is_read(c) ? 1u : 2u);
	if (c == IR_SETFIELD_GC)
		return op->nargs == 2 && op->args[1] != p;
	if (c == IR_GUARD_NONNULL)
		return op->nargs == 1;
	if (c == IR_GUARD_CLASS)
		return op->nargs == 2 && op->args[1] != p &&
		       ir_val(t, op->args[1])->tag == IR_VAL_CONST_CLASS &&
		       !strcmp(ir_strtext(t, ir_val(t, op->args[1])->name),
			       cls);
	return false;
}

/* Per vid of T: whether it is a private allocation (false everywhere
 * when there is none); NULL when out of memory. */
static bool *private_allocs(const ir_trace *t, bool *any)
{
	bool *priv = calloc(t->nvals + 1, sizeof *priv);
	*any = false;
	if (!priv)
		return NULL;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if ((op->opc != IR_NEW_WITH_VTABLE && op->opc != IR_NEW) ||
		    op->result == IR_NOVAL || !op->descr)
			continue;
		const char *cls = ir_strtext(t, op->descr);
		bool ok = true;
		for (uint32_t j = i + 1; ok && j < t->nops; j++)
			ok = private_use(t, &t->ops[j], op->result, cls);
		priv[op->result] = ok;
		*any |= ok;
	}
	return priv;
}

/* ---- the copy ----------------------------------------------------------- */

/* The last store of a field through a private object: its source value. */
typedef struct pstore {
	ir_vid obj;
	uint32_t descr; /* string index in the source */
	ir_vid val;	/* source vid */
} pstore;

typedef struct pcopy {
	copier c;
	const bool *priv;
	pstore *st;
	uint32_t nst;
} pcopy;

static pstore *store_of(pcopy *x, ir_vid obj, uint32_t descr)
{
	const ir_trace *s = x->c.s;
	for (uint32_t k = 0; k < x->nst; k++)
		if (x->st[k].obj == obj &&
		    !strcmp(ir_strtext(s, x->st[k].descr),
			    ir_strtext(s, descr)))
			return &x->st[k];
	return NULL;
}

/* The value a read of field DESCR of private OBJ gives in the copy: the
 * last store's, or 0 / NULL. */
static ir_vid read_value(pcopy *x, const ir_op *op)
{
	pstore *w = store_of(x, op->args[0], op->descr);
	if (w)
		return pl_map_val(&x->c, w->val);
	return op->opc == IR_GETFIELD_GC_R ? ir_const_null(x->c.d)
					   : ir_const_int(x->c.d, 0);
}

/* Op I of the source when it involves a private object: recorded or
 * mapped instead of copied.  *DONE false when it is copied as it is. */
static bool take_apart(pcopy *x, uint32_t i, bool *done)
{
	const ir_op *op = &x->c.s->ops[i];
	ir_opcode c = (ir_opcode)op->opc;
	const bool *priv = x->priv;
	*done = true;
	if ((c == IR_NEW || c == IR_NEW_WITH_VTABLE) &&
	    op->result != IR_NOVAL && priv[op->result])
		return true;
	if (c == IR_SETFIELD_GC && priv[op->args[0]]) {
		pstore *w = store_of(x, op->args[0], op->descr);
		if (!w) {
			w = &x->st[x->nst++];
			*w = (pstore){op->args[0], op->descr, IR_NOVAL};
		}
		w->val = op->args[1];
		return true;
	}
	if (is_read(c) && priv[op->args[0]]) {
		ir_vid v = read_value(x, op);
		x->c.map[op->result] = v;
		return v != IR_NOVAL;
	}
	if (is_cmp(c) && (priv[op->args[0]] || priv[op->args[1]])) {
		bool same = op->args[0] == op->args[1];
		bool eq = c == IR_PTR_EQ;
		ir_vid v = ir_const_int(x->c.d, same == eq);
		x->c.map[op->result] = v;
		return v != IR_NOVAL;
	}
	if ((c == IR_GUARD_NONNULL || c == IR_GUARD_CLASS) && priv[op->args[0]])
		return true;
	*done = false;
	return true;
}

/* T with its private objects taken apart, or NULL (none, or out of
 * memory). */
static ir_trace *without_private(const ir_trace *t)
{
	bool any;
	bool *priv = private_allocs(t, &any);
	if (!priv || !any) {
		free(priv);
		return NULL;
	}
	pcopy x = {.priv = priv, .st = calloc(t->nops + 1, sizeof(pstore))};
	bool ok = x.st && pl_copier_new(&x.c, t);
	if (!ok) {
		free(priv);
		free(x.st);
		return NULL;
	}
	ok = pl_copy_inputs(&x.c);
	char why[256];
	for (uint32_t i = 0; ok && i < t->nops; i++) {
		bool done;
		ok = take_apart(&x, i, &done);
		if (ok && !done)
			ok = pl_copy_op(&x.c, i, "", why, sizeof why);
	}
	free(x.c.map);
	free(priv);
	free(x.st);
	if (!ok) {
		ir_trace_free(x.c.d);
		return NULL;
	}
	return x.c.d;
}

void pl_private_objects(pl_pair *p)
{
	if (!p->orig || !p->opt)
		return;
	/* each side on its own: the two traces need not have the same
	 * private objects, and a side left as it was is still right */
	ir_trace *o = without_private(p->orig);
	if (o) {
		ir_trace_free(p->orig);
		p->orig = o;
	}
	ir_trace *t = without_private(p->opt);
	if (t) {
		ir_trace_free(p->opt);
		p->opt = t;
	}
}
