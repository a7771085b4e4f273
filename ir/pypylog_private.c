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
 * An allocation P of a trace is *private* when its address goes nowhere
 * but into other private objects: every op that takes P (or a value read
 * out of a private object that is P) takes it as the object of a field
 * or constant-index item read or store, as the value stored into a
 * private object, as the subject of guard_nonnull or of a guard_class on
 * P's own class, or as one side of a pointer comparison; P is no output,
 * no fail-arg, no argument of a call.  Then nothing but those ops can
 * reach P: no other value is P (a fresh address differs from every
 * input, constant and other allocation, and P was never stored anywhere a
 * read or a call could get it from but private objects), and no call
 * changes a fresh object that did not escape (heap.h).  So, exactly as
 * the model and the interpreter run the trace:
 *  - a read of a cell of P is the value the last store of that cell
 *    through P wrote, or 0 (NULL) before any (a fresh object's fields
 *    start at 0);
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

/* A private object may also be stored into another private object, and
 * read back out of it (a frame's locals array, the frame, the boxes in
 * the array: PyPy's unoptimized trace makes them for every inlined call
 * and the optimized one none).  Which value denotes which allocation is
 * then a matter of the stores before each read, so the analysis runs the
 * trace abstractly: DEN[v] is the allocation value v is (an allocation's
 * own result, or a read out of a private object's field or constant item
 * whose last store was such a value), and every use of a denoted
 * allocation that is not one a private object allows makes it escape,
 * with everything stored into it.  Escaping only grows, so the runs are
 * repeated until none escapes any more (a fixpoint). */

static bool is_read(ir_opcode c)
{
	return c == IR_GETFIELD_GC_I || c == IR_GETFIELD_GC_R ||
	       c == IR_GETARRAYITEM_GC_I || c == IR_GETARRAYITEM_GC_R;
}

static bool is_store(ir_opcode c)
{
	return c == IR_SETFIELD_GC || c == IR_SETARRAYITEM_GC;
}

static bool is_cmp(ir_opcode c)
{
	return c == IR_PTR_EQ || c == IR_PTR_NE;
}

static bool is_alloc(const ir_op *op)
{
	return (op->opc == IR_NEW_WITH_VTABLE || op->opc == IR_NEW) &&
	       op->result != IR_NOVAL && op->descr;
}

/* A cell of a private object: field DESCR, or item IDX of an array
 * (IDX -1 for a field); VAL the source value its last store wrote. */
typedef struct pslot {
	ir_vid obj;
	uint32_t descr;
	int64_t idx;
	ir_vid val;
} pslot;

typedef struct pstate {
	const ir_trace *t;
	bool *cand;  /* per vid: an allocation still taken as private */
	ir_vid *den; /* per vid: the allocation it is, or IR_NOVAL */
	pslot *st;
	uint32_t nst;
	bool changed;
} pstate;

/* The cell op OP accesses (its object and, for an item, its constant
 * index); false when the index is not a constant. */
static bool cell_of(const ir_trace *t, const ir_op *op, int64_t *idx)
{
	bool item = op->opc == IR_GETARRAYITEM_GC_I ||
		    op->opc == IR_GETARRAYITEM_GC_R ||
		    op->opc == IR_SETARRAYITEM_GC;
	*idx = -1;
	if (!item)
		return true;
	const ir_value *i = ir_val(t, op->args[1]);
	if (i->tag != IR_VAL_CONST_INT)
		return false;
	*idx = (int64_t)i->cval;
	return true;
}

static pslot *slot_of(pstate *x, ir_vid obj, uint32_t descr, int64_t idx)
{
	const ir_trace *t = x->t;
	for (uint32_t k = x->nst; k-- > 0;)
		if (x->st[k].obj == obj && x->st[k].idx == idx &&
		    !strcmp(ir_strtext(t, x->st[k].descr),
			    ir_strtext(t, descr)))
			return &x->st[k];
	return NULL;
}

static void escape(pstate *x, ir_vid a)
{
	if (a != IR_NOVAL && x->cand[a]) {
		x->cand[a] = false;
		x->changed = true;
	}
}

static ir_vid den_of(const pstate *x, ir_vid v)
{
	return v == IR_NOVAL ? IR_NOVAL : x->den[v];
}

/* The allocation's class (its descr). */
static const char *class_of(const ir_trace *t, ir_vid a)
{
	return ir_strtext(t, t->ops[ir_val(t, a)->def].descr);
}

/* Op OP of the abstract run: the denotations it makes, the escapes it
 * causes. */
static void run_op(pstate *x, const ir_op *op)
{
	const ir_trace *t = x->t;
	ir_opcode c = (ir_opcode)op->opc;
	for (uint32_t j = 0; j < op->nfail; j++)
		escape(x, den_of(x, op->failargs[j]));
	if (is_alloc(op)) {
		if (x->cand[op->result])
			x->den[op->result] = op->result;
		return;
	}
	ir_vid a0 = op->nargs ? den_of(x, op->args[0]) : IR_NOVAL;
	int64_t idx;
	if (is_read(c) && a0 != IR_NOVAL) {
		if (!cell_of(t, op, &idx)) {
			escape(x, a0);
			return;
		}
		pslot *w = slot_of(x, a0, op->descr, idx);
		if (w && op->result != IR_NOVAL)
			x->den[op->result] = den_of(x, w->val);
		return;
	}
	if (is_store(c)) {
		ir_vid v = op->args[op->nargs - 1];
		if (a0 == IR_NOVAL || !cell_of(t, op, &idx)) {
			escape(x, a0);
			escape(x, den_of(x, v));
			return;
		}
		pslot *w = slot_of(x, a0, op->descr, idx);
		if (!w) {
			w = &x->st[x->nst++];
			*w = (pslot){a0, op->descr, idx, IR_NOVAL};
		}
		w->val = v;
		return;
	}
	if (is_cmp(c) || c == IR_GUARD_NONNULL)
		return;
	if (c == IR_GUARD_CLASS && op->nargs == 2 && a0 != IR_NOVAL) {
		const ir_value *k = ir_val(t, op->args[1]);
		if (k->tag != IR_VAL_CONST_CLASS ||
		    strcmp(ir_strtext(t, k->name), class_of(t, a0)))
			escape(x, a0);
		return;
	}
	for (uint32_t j = 0; j < op->nargs; j++)
		escape(x, den_of(x, op->args[j]));
}

/* One abstract run of T with the candidates X->cand. */
static void run_once(pstate *x)
{
	const ir_trace *t = x->t;
	for (ir_vid v = 0; v < t->nvals; v++)
		x->den[v] = IR_NOVAL;
	x->nst = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		run_op(x, &t->ops[i]);
	/* what was ever stored into an object that escaped escapes too */
	for (uint32_t k = 0; k < x->nst; k++)
		if (!x->cand[x->st[k].obj])
			escape(x, den_of(x, x->st[k].val));
}

/* The private allocations of T, their denotations as of the last run
 * (X's arrays, to be freed by the caller); false when there is none or
 * out of memory. */
static bool private_allocs(const ir_trace *t, pstate *x)
{
	*x = (pstate){t,
		      calloc(t->nvals + 1, sizeof(bool)),
		      calloc(t->nvals + 1, sizeof(ir_vid)),
		      calloc(t->nops + 1, sizeof(pslot)),
		      0,
		      false};
	if (!x->cand || !x->den || !x->st)
		return false;
	bool any = false;
	for (uint32_t i = 0; i < t->nops; i++)
		if (is_alloc(&t->ops[i]))
			any = x->cand[t->ops[i].result] = true;
	while (any) {
		x->changed = false;
		run_once(x);
		if (!x->changed)
			break;
	}
	any = false;
	for (ir_vid v = 0; v < t->nvals; v++)
		any |= x->cand[v];
	return any;
}

/* ---- the copy ----------------------------------------------------------- */

/* The copy runs the trace the same way (the candidates are final now):
 * a private object's allocation, stores and guards go; a read out of it
 * gives the last value stored into that cell (0 or NULL before any), or,
 * when that value is a private object, denotes it and has no value in
 * the copy; a comparison involving a private object is known. */
typedef struct pcopy {
	copier c;
	pstate ps;
} pcopy;

static bool take_apart(pcopy *x, uint32_t i, bool *done)
{
	const ir_op *op = &x->c.s->ops[i];
	ir_opcode c = (ir_opcode)op->opc;
	pstate *ps = &x->ps;
	ir_vid a0 = op->nargs ? den_of(ps, op->args[0]) : IR_NOVAL;
	*done = true;
	if (is_alloc(op) && ps->cand[op->result]) {
		run_op(ps, op);
		return true;
	}
	if ((is_store(c) || c == IR_GUARD_NONNULL || c == IR_GUARD_CLASS) &&
	    a0 != IR_NOVAL) {
		run_op(ps, op);
		return true;
	}
	if (is_read(c) && a0 != IR_NOVAL) {
		int64_t idx;
		cell_of(x->c.s, op, &idx);
		pslot *w = slot_of(ps, a0, op->descr, idx);
		run_op(ps, op);
		if (ps->den[op->result] != IR_NOVAL)
			return true; /* a private object: no value */
		ir_vid v = w ? pl_map_val(&x->c, w->val)
			   : c == IR_GETFIELD_GC_R || c == IR_GETARRAYITEM_GC_R
			       ? ir_const_null(x->c.d)
			       : ir_const_int(x->c.d, 0);
		x->c.map[op->result] = v;
		return v != IR_NOVAL;
	}
	if (is_cmp(c)) {
		ir_vid a1 = den_of(ps, op->args[1]);
		if (a0 != IR_NOVAL || a1 != IR_NOVAL) {
			bool same = a0 == a1;
			ir_vid v =
			    ir_const_int(x->c.d, same == (c == IR_PTR_EQ));
			x->c.map[op->result] = v;
			return v != IR_NOVAL;
		}
	}
	*done = false;
	return true;
}

/* T with its private objects taken apart, or NULL (none, or out of
 * memory). */
static ir_trace *without_private(const ir_trace *t)
{
	pcopy x;
	bool ok = private_allocs(t, &x.ps);
	/* the copy's run starts afresh */
	for (ir_vid v = 0; ok && v < t->nvals; v++)
		x.ps.den[v] = IR_NOVAL;
	x.ps.nst = 0;
	ok = ok && pl_copier_new(&x.c, t);
	bool copier = ok;
	ok = ok && pl_copy_inputs(&x.c);
	char why[256];
	for (uint32_t i = 0; ok && i < t->nops; i++) {
		bool done;
		ok = take_apart(&x, i, &done);
		if (ok && !done)
			ok = pl_copy_op(&x.c, i, "", why, sizeof why);
	}
	if (copier)
		free(x.c.map);
	free(x.ps.cand);
	free(x.ps.den);
	free(x.ps.st);
	if (!ok) {
		if (copier)
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
