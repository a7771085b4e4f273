/*
 * pypylog_bridge.c - what a bridge knows on entry (docs/pypy.md,
 * "Bridges").
 *
 * PyPy optimizes a bridge with what its optimizer knew at the guard the
 * bridge leaves from: a value the loop checked with guard_nonnull is
 * known not to be NULL in the bridge, and its guard_nonnull is removed.
 * Checked alone, the bridge's optimized trace then looks as if it dropped
 * a guard.  This file works out, from the parent trace of the same log,
 * facts about the bridge's inputs (the failing guard's fail-args, in
 * order) that hold at EVERY arrival at that guard, and puts them at the
 * start of both traces of the pair as guards.  The same guards in both
 * traces restrict the runs compared to those that can happen, and change
 * nothing else: a fact that is wrong only makes both traces fail at once.
 *
 * A fact holds at every arrival when (only those are used):
 *  - a guard on the value passed before the failing guard, since the last
 *    label before it (every arrival went through it);
 *  - the value was allocated there (not NULL; its class, when the
 *    allocation names one);
 *  - the value is an argument of the loop's body label (the last label)
 *    and the fact is a loop invariant: true of the value the preamble
 *    passes to the label, and of the value the body's jump passes back
 *    (by the rules above, or by the invariant itself): an induction over
 *    the iterations, computed as a greatest fixpoint;
 *  - the failing guard itself failed: guard_isnull failing means not NULL,
 *    guard_nonnull failing means NULL.
 * Heap facts (PyPy passes its heap cache to the bridge, bridgeopt.py:
 * "getfield(box1, descr) == box2" for fail-args or constants): field D of
 * an input holds another input, NULL or an integer constant (guards may
 * pin it: pl_const_of), when the parent read or wrote that field since
 * the last label (or, for an immutable field of an object the parent did
 * not allocate, in the preamble, as a loop invariant) and nothing between
 * may have changed it (section "heap facts").
 * Sections: facts of one value; loop invariants; heap facts; the pair's
 * new traces.  Which facts the bridge keeps, by what its own traces show,
 * is pypylog_keep.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"

/* ---- facts of one value ------------------------------------------------- */

typedef struct fact {
	bool nonnull, isnull;
	const char *cls; /* ConstClass name, or NULL */
} fact;

static void meet(fact *a, const fact *b)
{
	a->nonnull = a->nonnull && b->nonnull;
	a->isnull = a->isnull && b->isnull;
	if (a->cls && (!b->cls || strcmp(a->cls, b->cls)))
		a->cls = NULL;
}

static void join(fact *a, const fact *b)
{
	a->nonnull = a->nonnull || b->nonnull;
	a->isnull = a->isnull || b->isnull;
	if (!a->cls)
		a->cls = b->cls;
}

/* What ops [FROM, TO) of T say about V: the guards on it, its
 * allocation; a constant's own facts. */
static fact facts_in(const ir_trace *t, uint32_t from, uint32_t to, ir_vid v)
{
	fact f = {false, false, NULL};
	if (v == IR_NOVAL)
		return f;
	const ir_value *x = ir_val(t, v);
	if (x->tag == IR_VAL_CONST_PTR)
		f.nonnull = true;
	if (x->tag == IR_VAL_CONST_NULL)
		f.isnull = true;
	for (uint32_t i = from; i < to; i++) {
		const ir_op *op = &t->ops[i];
		if (op->result == v &&
		    ir_op_has((ir_opcode)op->opc, IRF_ALLOC)) {
			f.nonnull = true;
			const char *d =
			    op->descr ? ir_strtext(t, op->descr) : "";
			if (op->opc == IR_NEW_WITH_VTABLE && d[0] &&
			    d[0] != '<')
				f.cls = d; /* a class read by pl_name_classes */
		}
		if (op->nargs == 0 || op->args[0] != v)
			continue;
		switch ((int)op->opc) {
		/* a field or item access through V passed: a run that gets
		 * further had V not NULL (through NULL a JIT's access faults;
		 * PyPy's optimizer takes it as known not NULL after one,
		 * elevator_sim's execution context, holdout11) */
		case IR_GETFIELD_GC_I:
		case IR_GETFIELD_GC_R:
		case IR_SETFIELD_GC:
		case IR_GETARRAYITEM_GC_I:
		case IR_GETARRAYITEM_GC_R:
		case IR_SETARRAYITEM_GC:
		case IR_GUARD_NONNULL: f.nonnull = true; break;
		case IR_GUARD_ISNULL: f.isnull = true; break;
		case IR_GUARD_CLASS:
			f.nonnull = true;
			f.cls = ir_valname(t, op->args[1]);
			break;
		case IR_GUARD_VALUE:
			if (ir_val(t, op->args[1])->tag == IR_VAL_CONST_PTR)
				f.nonnull = true;
			if (ir_val(t, op->args[1])->tag == IR_VAL_CONST_NULL)
				f.isnull = true;
			break;
		default: break;
		}
	}
	return f;
}

/* ---- loop invariants ----------------------------------------------------- */

/* INV[k] for each argument of T's label at L2 (the body's), preamble from
 * L1: a greatest fixpoint, starting from what the preamble establishes
 * and keeping what every jump back re-establishes.  All false when the
 * end is not a jump to that label. */
static void invariants(const ir_trace *t, uint32_t l1, uint32_t l2, fact *inv)
{
	const ir_op *lab = &t->ops[l2];
	const ir_op *end = &t->ops[pl_end_op(t)];
	uint32_t n = lab->nargs;
	bool back =
	    end->opc == IR_JUMP && end->nargs == n && end->descr &&
	    lab->descr &&
	    !strcmp(ir_strtext(t, end->descr), ir_strtext(t, lab->descr));
	for (uint32_t k = 0; k < n; k++) {
		inv[k] = (fact){false, false, NULL};
		if (back)
			inv[k] = facts_in(t, l1, l2, lab->args[k]);
	}
	for (bool changed = back; changed;) {
		changed = false;
		for (uint32_t k = 0; k < n; k++) {
			ir_vid j = end->args[k];
			fact b = facts_in(t, l2, pl_end_op(t), j);
			for (uint32_t m = 0; m < n; m++)
				if (lab->args[m] == j)
					join(&b, &inv[m]);
			fact before = inv[k];
			meet(&inv[k], &b);
			changed |= before.nonnull != inv[k].nonnull ||
				   before.isnull != inv[k].isnull ||
				   before.cls != inv[k].cls;
		}
	}
}

/* The last two labels of T before op G (LAB[1] the last, LAB[0] the one
 * before it or the same), and how many there are. */
static uint32_t last_labels(const ir_trace *t, uint32_t g, uint32_t lab[2])
{
	uint32_t nl = 0;
	lab[0] = lab[1] = 0;
	for (uint32_t i = 0; i < g; i++)
		if (t->ops[i].opc == IR_LABEL) {
			lab[0] = nl ? lab[1] : i;
			lab[1] = i;
			nl++;
		}
	return nl;
}

/* ---- entry facts of a bridge ----------------------------------------------
 */

/* What holds of each input of a bridge on entry, in input order (the
 * live fail-args of its guard, failarg_of). */
/* "call_loopinvariant(F, K...) returns input K" (below): the call op OP
 * of trace T (the parent, or an ancestor down a chain of bridges), K the
 * bridge's input. */
typedef struct lifact {
	const ir_trace *t;
	uint32_t op, k;
} lifact;

#define PL_MAXLI 8

struct pl_entry {
	fact *f;
	uint32_t n;
	hfacts hs;	     /* what the heap holds on entry, by input index */
	lifact li[PL_MAXLI]; /* the loop-invariant calls it inherits */
	uint32_t nli;
};

void pl_entry_free(pl_entry *e)
{
	if (e) {
		free(e->f);
		free(e->hs.v);
	}
	free(e);
}

/* What holds of V at every arrival at op G of T; PE, when T is itself a
 * bridge, what holds of T's inputs on entry (a value's nullness and class
 * never change, so they hold at G too). */
static fact facts_at(const ir_trace *t, uint32_t g, ir_vid v,
		     const pl_entry *pe)
{
	uint32_t lab[2];
	uint32_t nl = last_labels(t, g, lab);
	uint32_t start = nl ? lab[1] : 0;
	fact f = facts_in(t, start, g, v);
	if (nl >= 2) {
		const ir_op *body = &t->ops[lab[1]];
		fact *inv = calloc(body->nargs + 1, sizeof *inv);
		if (inv) {
			invariants(t, lab[0], lab[1], inv);
			for (uint32_t k = 0; k < body->nargs; k++)
				if (body->args[k] == v)
					join(&f, &inv[k]);
		}
		free(inv);
	}
	for (uint32_t k = 0; pe && k < pe->n && k < t->ninputs; k++)
		if (t->inputs[k] == v)
			join(&f, &pe->f[k]);
	const ir_op *gop = &t->ops[g];
	if (gop->nargs == 1 && gop->args[0] == v) {
		if (gop->opc == IR_GUARD_ISNULL)
			f.nonnull = true;
		if (gop->opc == IR_GUARD_NONNULL)
			f.isnull = true;
	}
	if (f.isnull && f.nonnull) /* the guard cannot fail: claim nothing */
		f = (fact){false, false, NULL};
	return f;
}

/* ---- heap facts ---------------------------------------------------------- */

/* An elidable call (EF 0, 3 or 4: rpython/jit/codewriter/
 * effectinfo.py): the JIT removes a second call on the same arguments and
 * reorders it, which is only right for a call with no effect on the heap
 * the trace sees; PyPy's heap cache keeps a field across a call whose
 * EffectInfo does not write it.  Taking an elidable call to keep a field
 * is counted with the fields kept by calls. */
static bool elidable(const ir_trace *t, const ir_op *op)
{
	return ir_py_elidable(op->descr ? ir_strtext(t, op->descr) : NULL);
}

/* Whether the store at op I of T, into field D of object S, leaves field
 * D of X alone because S is an object allocated at an op in [FROM, I):
 * X names an object that existed at op FROM (every caller's X is read
 * before FROM, a ConstPtr or an input, or a label argument for a range
 * that starts at its label), and a new allocation is distinct from every
 * object that existed before it (tictactoe_minimax's bridge, whose parent
 * boxes a new W_IntObject between reading an input's intval and failing;
 * corpus/pypy/bridge_fresh_store.log). */
static bool store_into_fresh(const ir_trace *t, uint32_t from, uint32_t i,
			     ir_vid s, ir_vid x)
{
	uint32_t a = ir_defop(t, s);
	if (s == x || !ir_allocated(t, s) || a < from || a >= i)
		return false;
	/* across a label, S's name may hold what the jump passed back */
	for (uint32_t k = a + 1; k < i; k++)
		if (t->ops[k].opc == IR_LABEL)
			return false;
	return true;
}

/* Whether the call OP of T is force_virtualizable, which writes no field
 * but the frame's vable_token (ir_py_forces_vable), and D another field. */
static bool vable_kept(const ir_trace *t, const ir_op *op, const char *d)
{
	const char *cd = op->descr ? ir_strtext(t, op->descr) : NULL;
	return cd && ir_py_forces_vable(cd) &&
	       ir_py_call_keeps(ir_op_name(t, op), cd, d);
}

/* Whether field D of X may change in a real run between ops FROM and TO
 * of T: a store to D (through any object but one allocated since FROM,
 * see store_into_fresh), or a call (not a guard on what a call left,
 * ir_py_writes_nothing: PyPy's optimizer puts the stores it delayed
 * between a call and its guard_no_exception), unless D is
 * immutable and X is not allocated by T (docs/pypy.md, "Immutable
 * fields": the model's own rule for calls) -- or, when KEPT is given,
 * the call is elidable (*KEPT is then set).  X == IR_NOVAL: a ConstPtr,
 * which T did not allocate. */
bool pl_may_change_calls(const ir_trace *t, uint32_t from, uint32_t to,
			 const char *d, ir_vid x, bool *kept, bool any_call)
{
	bool pure =
	    ir_py_field_immutable(d) && (x == IR_NOVAL || !ir_allocated(t, x));
	for (uint32_t i = from; i < to; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_SETFIELD_GC && op->descr &&
		    !strcmp(ir_strtext(t, op->descr), d) &&
		    !store_into_fresh(t, from, i, op->args[0], x))
			return true;
		if (!pure && ir_op_has((ir_opcode)op->opc, IRF_CALL) &&
		    ir_pycall_of(t, op) == IR_PYCALL_OPAQUE &&
		    !ir_py_writes_nothing(ir_op_name(t, op)) &&
		    !pl_is_raw_read(t, op) && !vable_kept(t, op, d)) {
			if (!kept || (!any_call && !elidable(t, op)))
				return true;
			*kept = true;
		}
	}
	return false;
}

static bool may_change_kept(const ir_trace *t, uint32_t from, uint32_t to,
			    const char *d, ir_vid x, bool *kept)
{
	return pl_may_change_calls(t, from, to, d, x, kept, false);
}

/* Narrows [*LO, *HI], the signed range of Y, by C, a two-argument op
 * whose result a guard found true (or false, GF), when C is a signed
 * comparison of Y with an integer constant: PyPy's int bounds make Y a
 * constant once the two ends meet (kmp_search's bridge knows that a
 * field read and checked "not > 0" and "not < 0" holds 0). */
static void narrow(const ir_trace *t, const ir_op *c, bool gf, ir_vid y,
		   int64_t *lo, int64_t *hi)
{
	int a = c->args[0] == y ? 0 : c->args[1] == y ? 1 : -1;
	const ir_value *o = a < 0 ? NULL : ir_val(t, c->args[1 - a]);
	if (!o || o->tag != IR_VAL_CONST_INT)
		return;
	int64_t k = (int64_t)o->cval;
	/* y < k, y <= k, y > k or y >= k, as C says it (a comparison with
	 * y on the right turned around); guard_false says the opposite. */
	int rel; /* -2 <, -1 <=, 1 >=, 2 > */
	switch (c->opc) {
	case IR_INT_LT: rel = a == 0 ? -2 : 2; break;
	case IR_INT_LE: rel = a == 0 ? -1 : 1; break;
	case IR_INT_GT: rel = a == 0 ? 2 : -2; break;
	case IR_INT_GE: rel = a == 0 ? 1 : -1; break;
	default: return;
	}
	if (gf) /* not (y < k) is y >= k, and so on */
		rel = rel == -2 ? 1 : rel == -1 ? 2 : rel == 1 ? -2 : -1;
	if (rel == -2 && k > INT64_MIN && k - 1 < *hi)
		*hi = k - 1;
	else if (rel == -1 && k < *hi)
		*hi = k;
	else if (rel == 2 && k < INT64_MAX && k + 1 > *lo)
		*lo = k + 1;
	else if (rel == 1 && k > *lo)
		*lo = k;
}

/* The constant Y is known to equal at op TO of T, by itself or by a guard
 * in [FROM, TO) on it (guard_value, guard_isnull, guard_true(int_eq(Y,
 * K)), guard_false(int_ne(Y, K)), or signed comparisons with constants
 * that leave one value: narrow); false when none.  ConstPtrs other than
 * NULL are names of the parent's section only: not used. */
bool pl_const_of(const ir_trace *t, uint32_t from, uint32_t to, ir_vid y,
		 uint64_t *k)
{
	int64_t lo = INT64_MIN, hi = INT64_MAX;
	const ir_value *yv = ir_val(t, y);
	if (yv->tag == IR_VAL_CONST_INT || yv->tag == IR_VAL_CONST_NULL) {
		*k = yv->tag == IR_VAL_CONST_INT ? yv->cval : 0;
		return true;
	}
	for (uint32_t i = from; i < to; i++) {
		const ir_op *op = &t->ops[i];
		if (op->nargs == 0)
			continue;
		if (op->opc == IR_GUARD_ISNULL && op->args[0] == y) {
			*k = 0;
			return true;
		}
		if (op->opc == IR_GUARD_VALUE && op->args[0] == y &&
		    op->nargs == 2) {
			const ir_value *c = ir_val(t, op->args[1]);
			if (c->tag == IR_VAL_CONST_INT ||
			    c->tag == IR_VAL_CONST_NULL) {
				*k = c->tag == IR_VAL_CONST_INT ? c->cval : 0;
				return true;
			}
		}
		bool gt = op->opc == IR_GUARD_TRUE,
		     gf = op->opc == IR_GUARD_FALSE;
		uint32_t d = (gt || gf) ? ir_defop(t, op->args[0]) : UINT32_MAX;
		if (d == UINT32_MAX || t->ops[d].nargs != 2)
			continue;
		const ir_op *c = &t->ops[d];
		narrow(t, c, gf, y, &lo, &hi);
		if (!((gt && c->opc == IR_INT_EQ) ||
		      (gf && c->opc == IR_INT_NE)))
			continue;
		for (int a = 0; a < 2; a++) {
			const ir_value *o = ir_val(t, c->args[1 - a]);
			if (c->args[a] == y && o->tag == IR_VAL_CONST_INT) {
				*k = o->cval;
				return true;
			}
		}
	}
	if (lo == hi && ir_val(t, y)->kind == 'i') {
		*k = (uint64_t)lo;
		return true;
	}
	return false;
}

/* Whether Y is a ConstPtr at op TO of T, by itself or by a
 * guard_value(Y, ConstPtr) in [FROM, TO). */
static bool ptr_of(const ir_trace *t, uint32_t from, uint32_t to, ir_vid y)
{
	if (ir_val(t, y)->tag == IR_VAL_CONST_PTR)
		return true;
	for (uint32_t i = from; i < to; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_GUARD_VALUE && op->nargs == 2 &&
		    op->args[0] == y &&
		    ir_val(t, op->args[1])->tag == IR_VAL_CONST_PTR)
			return true;
	}
	return false;
}

/* Op I of T reads or writes a field: its object, value and descr. */
static bool field_access(const ir_trace *t, uint32_t i, ir_vid *x, ir_vid *y,
			 ir_opcode *get, const char **d)
{
	const ir_op *op = &t->ops[i];
	if (!op->descr || op->nargs < 1)
		return false;
	*d = ir_strtext(t, op->descr);
	if (strncmp(*d, "<Field", 6) != 0)
		return false;
	*x = op->args[0];
	if (op->opc == IR_GETFIELD_GC_R || op->opc == IR_GETFIELD_GC_I) {
		*y = op->result;
		*get = (ir_opcode)op->opc;
		return true;
	}
	if (op->opc == IR_SETFIELD_GC && op->nargs == 2) {
		*y = op->args[1];
		*get = ir_val(t, *y)->kind == 'r' ? IR_GETFIELD_GC_R
						  : IR_GETFIELD_GC_I;
		return true;
	}
	return false;
}

/* The bridge's input that fail-arg V of guard G becomes: PyPy passes the
 * live fail-args in order and leaves out the None ones (resume.py: a
 * None is a value the resume data does not need), so the index counts
 * the fail-args before V that are not None; -1 when V is none of them. */
static int failarg_of(const ir_op *g, ir_vid v)
{
	int k = 0;
	for (uint32_t j = 0; v != IR_NOVAL && j < g->nfail; j++) {
		if (g->failargs[j] == v)
			return k;
		k += g->failargs[j] != IR_NOVAL;
	}
	return -1;
}

static bool add_hfact(hfacts *hs, hfact f)
{
	for (uint32_t i = 0; i < hs->n; i++) {
		hfact *h = &hs->v[i];
		if (h->obj != f.obj || strcmp(h->descr, f.descr))
			continue;
		/* the latest access is enough; two ConstPtr objects with one
		 * field cannot be told apart by role in the bridge */
		if (f.obj == HF_PTR && strcmp(h->pobj, f.pobj))
			h->ambiguous = true;
		return true;
	}
	if (hs->n == hs->cap) {
		uint32_t cap = hs->cap ? 2 * hs->cap : 8;
		hfact *v = realloc(hs->v, cap * sizeof *v);
		if (!v)
			return false;
		hs->v = v;
		hs->cap = cap;
	}
	hs->v[hs->n++] = f;
	return true;
}

/* The fact that field D of fail-arg OBJ of G holds Y, read or written at
 * op AT in [FROM, TO = g): its value Y a fail-arg or a known constant. */
static bool fact_of(const ir_trace *t, uint32_t at, uint32_t to, ir_vid y,
		    hfact *f)
{
	int yk = failarg_of(&t->ops[to], y);
	if (yk >= 0) {
		f->val = (uint32_t)yk;
		return true;
	}
	f->val = HF_CONST;
	if (pl_const_of(t, at, to, y, &f->k))
		return true;
	f->val = HF_PTR;
	return ptr_of(t, at, to, y);
}

/* *F: a fact about field D of X (read with GET) at guard G of T, its
 * object a fail-arg of G or a ConstPtr (OBJ HF_PTR, POBJ its name), its
 * value still to be set; false when X is neither. */
static bool hfact_of(const ir_trace *t, uint32_t g, ir_vid x, ir_opcode get,
		     const char *d, hfact *f)
{
	bool cx = ir_val(t, x)->tag == IR_VAL_CONST_PTR;
	int xk = failarg_of(&t->ops[g], x);
	*f = (hfact){.obj = cx ? HF_PTR : (uint32_t)xk,
		     .val = HF_CONST,
		     .get = get,
		     .descr = d,
		     .pobj = cx ? ir_valname(t, x) : NULL};
	return cx || xk >= 0;
}

/* Heap facts at guard G of T from accesses in [FROM, G) that nothing
 * after them may have changed before G.  A field of a fail-arg read or
 * written before a call that is not elidable, its value a fail-arg or a
 * constant (a promoted map), is a weak fact: PyPy's heap cache keeps it when
 * the call's EffectInfo does not write the field, which the log does not print.
 * The bridge keeps a weak fact only when its optimized trace shows that it used
 * that knowledge (pl_weak_used). */
static bool direct_hfacts(const ir_trace *t, uint32_t from, uint32_t g,
			  hfacts *hs)
{
	for (uint32_t i = g; i-- > from;) {
		ir_vid x, y;
		ir_opcode get;
		const char *d;
		if (!field_access(t, i, &x, &y, &get, &d))
			continue;
		hfact f;
		if (!hfact_of(t, g, x, get, d, &f) || ir_val(t, x)->kind != 'r')
			continue;
		if (may_change_kept(t, i + 1, g, d, x, &f.kept)) {
			if (f.obj == HF_PTR ||
			    pl_may_change_calls(t, i + 1, g, d, x, &f.kept,
						true))
				continue;
			f.weak = true;
		}
		if (fact_of(t, i, g, y, &f) && !add_hfact(hs, f))
			return false;
	}
	return true;
}

/* Whether V is an argument of the body's label LAB that the jump END
 * passes back unchanged, in the same place. */
static bool passed_back(const ir_op *lab, const ir_op *end, ir_vid v)
{
	for (uint32_t m = 0; m < lab->nargs; m++)
		if (lab->args[m] == v && end->args[m] == v)
			return true;
	return false;
}

/* The body [L2, E) stores field D of X last at op *M, the constant *K,
 * and nothing after *M may store D (through any object). */
static bool body_last_const(const ir_trace *t, uint32_t l2, uint32_t e,
			    const char *d, ir_vid x, uint64_t *k, uint32_t *m)
{
	bool kept;
	for (uint32_t i = e; i-- > l2;) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_SETFIELD_GC || op->nargs != 2 || !op->descr ||
		    strcmp(ir_strtext(t, op->descr), d))
			continue;
		*m = i;
		return op->args[0] == x &&
		       !pl_may_change_calls(t, i + 1, e, d, x, &kept, true) &&
		       pl_const_of(t, i, i + 1, op->args[1], k);
	}
	return false;
}

/* Whether field F->descr of X is left alone by ops [FROM, TO) when every
 * call keeps it (no store of it: pl_may_change_calls); a call there that
 * is not elidable makes F weak, any call makes it kept. */
static bool kept_across(const ir_trace *t, uint32_t from, uint32_t to, ir_vid x,
			hfact *f)
{
	if (pl_may_change_calls(t, from, to, f->descr, x, &f->kept, true))
		return false;
	if (pl_may_change_calls(t, from, to, f->descr, x, &f->kept, false))
		f->weak = f->kept = true;
	return true;
}

/* A loop invariant about field D of X that the body stores over, after
 * guard G: the preamble's access at op I leaves the constant K there
 * (nothing after it in the preamble stores D), the body's last store of D
 * is K into X again (nothing after it stores D), and nothing in the body
 * before G stores D.  At the body's label D holds K on the first
 * iteration and, the jump passing X back in place, on every later one;
 * at G still.  (A frame's valuestackdepth, reset to the loop header's
 * depth at the end of each iteration: topo_sort's generator loop.)
 * Calls between that are not elidable make it weak, as above. */
static bool cyclic_const(const ir_trace *t, uint32_t i, uint32_t l2, uint32_t g,
			 hfact *f, ir_vid x, ir_vid y)
{
	uint32_t e = pl_end_op(t), m;
	uint64_t k2;
	const char *d = f->descr;
	if (g <= l2 || !body_last_const(t, l2, e, d, x, &k2, &m) ||
	    !pl_const_of(t, i, l2, y, &f->k) || f->k != k2)
		return false;
	/* body_last_const checked [M + 1, E) for stores already */
	if (!kept_across(t, i + 1, l2, x, f) || !kept_across(t, l2, g, x, f) ||
	    !kept_across(t, m + 1, e, x, f))
		return false;
	f->val = HF_CONST;
	return true;
}

/* Whether the body [L2, E)'s last access of field D (through any object)
 * is on Z, at op *J with the value *Y, with nothing after it up to the
 * jump that may store D (through any object) or call. */
static bool body_last_access(const ir_trace *t, uint32_t l2, uint32_t e,
			     const char *d, ir_vid z, uint32_t *j, ir_vid *y)
{
	for (*j = e; (*j)-- > l2;) {
		ir_vid x;
		ir_opcode get;
		const char *dj;
		if (!field_access(t, *j, &x, y, &get, &dj) || strcmp(dj, d))
			continue;
		return x == z &&
		       !pl_may_change_calls(t, *j + 1, e, d, z, NULL, true);
	}
	return false;
}

/* The body [L2, E)'s last access of field D of Z (body_last_access)
 * leaves a ConstPtr (*K unused) or an integer constant (*K). */
static bool body_last_pinned(const ir_trace *t, uint32_t l2, uint32_t e,
			     const char *d, ir_vid z, bool *ptr, uint64_t *k)
{
	uint32_t j;
	ir_vid y;
	if (!body_last_access(t, l2, e, d, z, &j, &y))
		return false;
	*ptr = !pl_const_of(t, j, e, y, k);
	return !*ptr || ptr_of(t, j, e, y);
}

/* A loop invariant about field D of X, a label argument the jump does
 * not pass back but replaces by Z (a loop walking nodes: node = next):
 * the preamble's access at op I leaves a constant there (Y, the value)
 * with nothing after it in the preamble that may change D, the body's
 * last access of D of Z leaves the same kind of constant with nothing
 * after it up to the jump (body_last_pinned), and nothing in the body
 * before G may change D.  At the label D holds the preamble's constant on
 * the first iteration and the body's on every later one.  Two integer
 * constants must be equal; two ConstPtrs -- one name each, per box --
 * are one object, since PyPy closes the loop only when the state at the
 * jump matches the label's, constants by address (unroll.py inlines the
 * short preamble, which checks the field against the preamble's box).
 * So the fact is as sure as the ConstPtr identities (counted with them by
 * the bridge that takes the name, pypylog_keep.c).  Calls between that
 * are not elidable make it weak, as in cyclic_const (trie_words' node
 * walk: a dict lookup between the label and the guard). */
static bool rotating_const(const ir_trace *t, uint32_t i, uint32_t l2,
			   uint32_t g, hfact *f, ir_vid x, ir_vid y, ir_vid z)
{
	uint32_t e = pl_end_op(t);
	const char *d = f->descr;
	bool ptr;
	uint64_t k2;
	if (g <= l2 || !body_last_pinned(t, l2, e, d, z, &ptr, &k2) ||
	    !kept_across(t, i + 1, l2, x, f) || !kept_across(t, l2, g, x, f))
		return false;
	if (ptr) {
		f->val = HF_PTR;
		return ir_val(t, y)->kind == 'r' && ptr_of(t, i, l2, y);
	}
	f->val = HF_CONST;
	return pl_const_of(t, i, l2, y, &f->k) && f->k == k2;
}

/* The value the jump END passes in place of label argument X of LAB, or
 * IR_NOVAL when X is no label argument or is passed back itself. */
static ir_vid replaced_by(const ir_op *lab, const ir_op *end, ir_vid x)
{
	for (uint32_t m = 0; m < lab->nargs; m++)
		if (lab->args[m] == x)
			return end->args[m] == x ? IR_NOVAL : end->args[m];
	return IR_NOVAL;
}

/* The slot of V among the arguments of LAB when V is there exactly
 * once; -1 otherwise. */
static int only_slot(const ir_op *lab, ir_vid v)
{
	int m = -1;
	for (uint32_t j = 0; j < lab->nargs; j++)
		if (lab->args[j] == v) {
			if (m >= 0)
				return -1;
			m = (int)j;
		}
	return m;
}

/* A loop invariant relating two arguments of the body's label L2: the
 * object X, which the jump replaces by Z, and Y, the value the
 * preamble's access at op I found in its field D (a float loop carrying
 * a W_FloatObject and its floatval).  The preamble leaves X.D == Y at
 * the label (nothing after I may change D), and the jump passes Z and W
 * in their slots where the body's last access of D was on Z with value
 * W (body_last_access); so at the label X.D == Y on every iteration, by
 * induction, and at G when nothing in the body before G may change D. */
static bool rotating_pair(const ir_trace *t, uint32_t i, uint32_t l2,
			  uint32_t g, hfact *f, ir_vid x, ir_vid y)
{
	const ir_op *lab = &t->ops[l2];
	uint32_t e = pl_end_op(t);
	int mx = only_slot(lab, x), my = only_slot(lab, y);
	int yk = failarg_of(&t->ops[g], y);
	if (g <= l2 || mx < 0 || my < 0 || yk < 0)
		return false;
	ir_vid z = t->ops[e].args[mx], w = t->ops[e].args[my], v;
	uint32_t j;
	if (!body_last_access(t, l2, e, f->descr, z, &j, &v) || v != w ||
	    pl_may_change_calls(t, i + 1, l2, f->descr, x, NULL, true) ||
	    pl_may_change_calls(t, l2, g, f->descr, x, NULL, true))
		return false;
	f->val = (uint32_t)yk;
	return true;
}

/* Loop invariants about fields: an object X -- an argument of the
 * body's label L2 passed back unchanged by the jump, or a ConstPtr --
 * whose field D the preamble [L1, L2) read or wrote as a constant
 * (integer, NULL or ConstPtr) or as a value Y that is itself a label
 * argument passed back unchanged (PyPy's short preamble: the body's
 * p40 = p9.lstorage, read once before the label), with no store to D
 * after that in the preamble or anywhere in the body; at guard G in the
 * body, field D of X holds that constant (or Y, when G keeps it).
 *
 * For such a Y, a call of the loop (elidable or not) is taken to keep D:
 * the body uses Y for X.D without reading it, which is the optimizer's
 * heap cache, and the jump passes Y back in place, which it does only
 * when its cache still holds X.D == Y at the jump (unroll.py inlines the
 * short preamble there: a cache that lost the field would read it again,
 * into a new box).  So PyPy took every call of the loop to keep D; the
 * fact is counted with the fields kept by calls (--calls-write-all drops
 * it).  The preamble establishes it, the body keeps it,
 * and a bridge that jumps to the body runs the short preamble, which
 * checks it again.  Calls keep an immutable field of an object T did not
 * allocate; any other field a call keeps is PyPy's EffectInfo's word
 * (the fact is then counted with the fields kept by calls). */
static bool invariant_hfacts(const ir_trace *t, uint32_t l1, uint32_t l2,
			     uint32_t g, hfacts *hs)
{
	const ir_op *lab = &t->ops[l2];
	uint32_t e = pl_end_op(t);
	const ir_op *end = &t->ops[e];
	if (end->opc != IR_JUMP || end->nargs != lab->nargs)
		return true;
	for (uint32_t i = l1; i < l2; i++) {
		ir_vid x, y;
		ir_opcode get;
		const char *d;
		if (!field_access(t, i, &x, &y, &get, &d) ||
		    ir_allocated(t, x) || ir_val(t, x)->kind != 'r')
			continue;
		hfact f;
		bool passed = ir_val(t, x)->tag == IR_VAL_CONST_PTR ||
			      passed_back(lab, end, x);
		/* A value the jump passes back is the optimizer's word that
		 * no call of the loop changed the field (below). */
		bool word = passed_back(lab, end, y);
		if (!hfact_of(t, g, x, get, d, &f))
			continue;
		if (!passed) {
			ir_vid z = replaced_by(lab, end, x);
			if (z != IR_NOVAL &&
			    (rotating_const(t, i, l2, g, &f, x, y, z) ||
			     rotating_pair(t, i, l2, g, &f, x, y)) &&
			    !add_hfact(hs, f))
				return false;
			continue;
		}
		if (!word &&
		    pl_may_change_calls(t, l2, e, d, x, &f.kept, true)) {
			if (cyclic_const(t, i, l2, g, &f, x, y) &&
			    !add_hfact(hs, f))
				return false;
			continue;
		}
		/* With a call of the loop that is not elidable, a constant
		 * fact is weak (as in direct_hfacts): PyPy kept it if the
		 * call's EffectInfo does not write D, which only the bridge's
		 * use of it shows (pl_weak_used). */
		if (pl_may_change_calls(t, i + 1, l2, d, x, &f.kept, word) ||
		    pl_may_change_calls(t, l2, e, d, x, &f.kept, word)) {
			if (word ||
			    pl_may_change_calls(t, i + 1, l2, d, x, &f.kept,
						true) ||
			    pl_may_change_calls(t, l2, e, d, x, &f.kept, true))
				continue;
			f.weak = true;
		}
		if (word) {
			int yk = failarg_of(&t->ops[g], y);
			if (yk < 0)
				continue;
			f.val = (uint32_t)yk;
		} else if (!pl_const_of(t, i, l2, y, &f.k)) {
			if (!ptr_of(t, i, l2, y))
				continue;
			f.val = HF_PTR;
		}
		if (!add_hfact(hs, f))
			return false;
	}
	return true;
}

/* Heap facts at guard G of T, a bridge, from what held on its entry
 * (PE): a fact of its inputs nothing in [0, G) stores over holds at G,
 * its object and value fail-args of G (or constants).  Across a call it
 * is the optimizer's: PyPy keeps a cached field across a call whose
 * EffectInfo does not write it, and hands the bridge only what it kept
 * (bridgeopt.py); such a fact is counted with the fields kept by calls
 * (docs/pypy.md, "Call effects"). */
static bool entry_hfacts(const ir_trace *t, uint32_t g, const pl_entry *pe,
			 hfacts *hs)
{
	const ir_op *gop = &t->ops[g];
	for (uint32_t i = 0; pe && i < pe->hs.n; i++) {
		hfact f = pe->hs.v[i];
		ir_vid x = f.obj == HF_PTR || f.obj >= t->ninputs
			       ? IR_NOVAL
			       : t->inputs[f.obj];
		if (f.obj != HF_PTR && x == IR_NOVAL)
			continue;
		if (x != IR_NOVAL) {
			int xk = failarg_of(gop, x);
			if (xk < 0)
				continue;
			f.obj = (uint32_t)xk;
		}
		if (f.val < HF_PTR) {
			ir_vid y =
			    f.val < t->ninputs ? t->inputs[f.val] : IR_NOVAL;
			int yk = failarg_of(gop, y);
			/* an input the guard does not pass on, which T
			 * checked is a constant: the field holds that */
			if (yk < 0 && y != IR_NOVAL &&
			    pl_const_of(t, 0, g, y, &f.k))
				f.val = HF_CONST;
			else if (yk < 0)
				continue;
			else
				f.val = (uint32_t)yk;
		}
		if (may_change_kept(t, 0, g, f.descr, x, &f.kept)) {
			/* weak, as in direct_hfacts: the parent bridge's call
			 * kept it when its EffectInfo does not write it */
			if (f.obj == HF_PTR ||
			    pl_may_change_calls(t, 0, g, f.descr, x, &f.kept,
						true))
				continue;
			f.weak = true;
		}
		if (!add_hfact(hs, f))
			return false;
	}
	return true;
}

/* What holds of the heap at every arrival at guard G of T; PE what held
 * on entry when T is a bridge (or NULL). */
static bool hfacts_at(const ir_trace *t, uint32_t g, const pl_entry *pe,
		      hfacts *hs)
{
	uint32_t lab[2];
	uint32_t nl = last_labels(t, g, lab);
	if (!direct_hfacts(t, nl ? lab[1] : 0, g, hs))
		return false;
	if (nl >= 2 && !invariant_hfacts(t, lab[0], lab[1], g, hs))
		return false;
	return nl > 0 || entry_hfacts(t, g, pe, hs);
}

/* ---- loop-invariant calls ----------------------------------------------- */

/* "call_loopinvariant(F, K...) returns input K": a fail-arg of the guard
 * that the parent computed by a loop-invariant call (ir_pycall_of,
 * IR_PYCALL_LOOPINV).  PyPy hands these to the bridge too
 * (bridgeopt.py, "call_loopinvariant knowledge"): the call gives one
 * value in a run of the loop, and a bridge continues its parent's run,
 * so the bridge's own call of F on K returns that input.  So does a
 * fail-arg that is an input of the parent, a bridge that had the fact
 * about that input on entry (PE): down a chain of bridges, the run is
 * still the loop's. */

/* The loop-invariant facts at guard G of PARENT into LI, at most CAP. */
static uint32_t lifacts_at(const ir_trace *parent, uint32_t g,
			   const pl_entry *pe, lifact *li, uint32_t cap)
{
	const ir_op *gop = &parent->ops[g];
	uint32_t n = 0;
	for (uint32_t j = 0, k = 0; j < gop->nfail && n < cap; j++) {
		ir_vid v = gop->failargs[j];
		if (v == IR_NOVAL)
			continue;
		uint32_t d = ir_defop(parent, v);
		const ir_value *x = ir_val(parent, v);
		if (d != UINT32_MAX && d < g &&
		    ir_pycall_of(parent, &parent->ops[d]) == IR_PYCALL_LOOPINV)
			li[n++] = (lifact){parent, d, k};
		else if (pe && x->tag == IR_VAL_INPUT)
			for (uint32_t m = 0; m < pe->nli && n < cap; m++)
				if (pe->li[m].k == x->def) {
					li[n] = pe->li[m];
					li[n++].k = k;
					break;
				}
		k++;
	}
	return n;
}

/* ---- the pair's new traces ---------------------------------------------- */

typedef struct facts_at_in {
	const fact *f;
	uint32_t nf;
	const hfacts *hs;
	const ir_trace *parent;
	const lifact *li;
	uint32_t nli;
	uint32_t nguards; /* emitted */
	uint32_t nops;	  /* emitted */
} facts_at_in;

static bool emit_guard(ir_trace *d, ir_opcode g, uint32_t na,
		       const ir_vid *args, uint32_t *nguards)
{
	char lbl[24];
	snprintf(lbl, sizeof lbl, "gpre%u", (*nguards)++);
	uint32_t o = ir_emit(d, g, na, args, ir_cstr(d, lbl), NULL);
	if (o == UINT32_MAX)
		return false;
	d->ops[o].flags |= IR_OPF_IMPLICIT_LABEL;
	return true;
}

/* Emits heap fact F: its object is not NULL (the parent accessed it),
 * the field read, and a guard that it holds the value. */
static bool emit_hfact(copier *c, const hfact *f, uint32_t k, uint32_t *ng)
{
	ir_trace *d = c->d;
	const ir_trace *t = c->s;
	ir_vid obj = f->obj == HF_PTR ? ir_const_ptr(d, f->objname)
				      : c->map[t->inputs[f->obj]];
	char name[32];
	if (obj == IR_NOVAL || !emit_guard(d, IR_GUARD_NONNULL, 1, &obj, ng))
		return false;
	bool ref = f->get == IR_GETFIELD_GC_R;
	snprintf(name, sizeof name, "%cheap%u", ref ? 'p' : 'i', k);
	uint32_t o = ir_emit(d, f->get, 1, &obj, ir_cstr(d, f->descr), name);
	if (o == UINT32_MAX)
		return false;
	ir_vid h = d->ops[o].result;
	if (f->val == HF_CONST && ref)
		return emit_guard(d, IR_GUARD_ISNULL, 1, &h, ng);
	char anon[32];
	snprintf(anon, sizeof anon, HF_ANON, k);
	ir_vid a[2] = {h, f->val == HF_CONST ? ir_const_int(d, f->k)
			  : f->val == HF_PTR
			      ? ir_const_ptr(d, f->anon ? anon : f->valname)
			      : c->map[t->inputs[f->val]]};
	if (a[1] == IR_NOVAL)
		return false;
	if (ir_val(d, a[1])->kind != ir_val(d, h)->kind)
		return true; /* the read stays; it claims nothing */
	snprintf(name, sizeof name, "iheq%u", k);
	o = ir_emit(d, ref ? IR_PTR_EQ : IR_INT_EQ, 2, a, 0, name);
	if (o == UINT32_MAX)
		return false;
	ir_vid e = d->ops[o].result;
	return emit_guard(d, IR_GUARD_TRUE, 1, &e, ng);
}

/* Emits fact L: a copy of the parent's call, and a guard that it returns
 * the input. */
static bool emit_lifact(copier *c, const lifact *l, uint32_t *ng)
{
	copier pc;
	char why[160];
	ir_trace *d = c->d;
	const ir_trace *parent = l->t;
	if (!pl_copier_init(&pc, d, parent))
		return false;
	bool ok = pl_copy_op(&pc, l->op, "_li", why, sizeof why);
	ir_vid r = ok ? pc.map[parent->ops[l->op].result] : IR_NOVAL;
	free(pc.map);
	if (r == IR_NOVAL)
		return false;
	ir_vid a[2] = {r, c->map[c->s->inputs[l->k]]};
	if (ir_val(d, a[0])->kind != ir_val(d, a[1])->kind)
		return true; /* the call stays; it claims nothing */
	char name[32];
	snprintf(name, sizeof name, "ilieq%u", l->k);
	uint32_t o =
	    ir_emit(d, ir_val(d, r)->kind == 'r' ? IR_PTR_EQ : IR_INT_EQ, 2, a,
		    0, name);
	if (o == UINT32_MAX)
		return false;
	ir_vid e = d->ops[o].result;
	return emit_guard(d, IR_GUARD_TRUE, 1, &e, ng);
}

/* Emits a guard for each fact of X->f (one per input of C's source). */
static bool emit_facts(copier *c, void *ctx)
{
	facts_at_in *x = ctx;
	ir_trace *d = c->d;
	const ir_trace *t = c->s;
	for (uint32_t k = 0; k < x->nf && k < t->ninputs; k++) {
		ir_vid in = c->map[t->inputs[k]];
		ir_vid args[2] = {in, IR_NOVAL};
		ir_opcode opc[3];
		uint32_t n = 0;
		if (ir_val(d, in)->kind != 'r')
			continue;
		if (x->f[k].isnull)
			opc[n++] = IR_GUARD_ISNULL;
		if (x->f[k].nonnull)
			opc[n++] = IR_GUARD_NONNULL;
		if (x->f[k].cls)
			opc[n++] = IR_GUARD_CLASS;
		for (uint32_t j = 0; j < n; j++) {
			uint32_t na = 1;
			if (opc[j] == IR_GUARD_CLASS) {
				args[1] = ir_const_class(d, x->f[k].cls);
				na = 2;
			}
			char lbl[24];
			snprintf(lbl, sizeof lbl, "gpre%u", x->nguards++);
			uint32_t o =
			    ir_emit(d, opc[j], na, args, ir_cstr(d, lbl), NULL);
			if (o == UINT32_MAX)
				return false;
			d->ops[o].flags |= IR_OPF_IMPLICIT_LABEL;
		}
	}
	for (uint32_t k = 0; k < x->hs->n; k++) {
		const hfact *f = &x->hs->v[k];
		if ((f->obj != HF_PTR && f->obj >= t->ninputs) ||
		    (f->val < HF_PTR && f->val >= t->ninputs) ||
		    (f->obj == HF_PTR && !f->objname) ||
		    (f->val == HF_PTR && !f->valname && !f->anon))
			continue;
		if (!emit_hfact(c, f, k, &x->nguards))
			return false;
	}
	for (uint32_t k = 0; k < x->nli; k++)
		if (x->li[k].k < t->ninputs &&
		    !emit_lifact(c, &x->li[k], &x->nguards))
			return false;
	x->nops = d->nops;
	return true;
}

/* T with, first, a guard for each fact of F (one per input, NF of
 * them) and the heap facts HS; *NGUARDS guards, *NOPS ops. */
static ir_trace *with_facts(const ir_trace *t, const fact *f, uint32_t nf,
			    const hfacts *hs, const ir_trace *parent,
			    const lifact *li, uint32_t nli, uint32_t *nguards,
			    uint32_t *nops)
{
	facts_at_in x = {f, nf, hs, parent, li, nli, 0, 0};
	ir_trace *r = pl_with_prefix(t, emit_facts, &x);
	*nguards = x.nguards;
	*nops = x.nops;
	return r;
}

pl_entry *pl_entry_facts(const ir_trace *parent, uint32_t g, const pl_entry *pe)
{
	const ir_op *gop = &parent->ops[g];
	pl_entry *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	for (uint32_t j = 0; j < gop->nfail; j++)
		e->n += gop->failargs[j] != IR_NOVAL;
	e->f = calloc(e->n + 1, sizeof *e->f);
	if (!e->f) {
		free(e);
		return NULL;
	}
	for (uint32_t j = 0, k = 0; j < gop->nfail; j++)
		if (gop->failargs[j] != IR_NOVAL)
			e->f[k++] = facts_at(parent, g, gop->failargs[j], pe);
	if (!hfacts_at(parent, g, pe, &e->hs)) {
		free(e->hs.v); /* out of memory: no heap facts */
		e->hs = (hfacts){NULL, 0, 0};
	}
	e->nli = lifacts_at(parent, g, pe, e->li, PL_MAXLI);
	return e;
}

/* The renaming of R (a prefix of pl_with_prefix that emits no op: the
 * copier renames every ConstPtr it copies after it). */
static bool set_renames(copier *c, void *ctx)
{
	const pren *r = ctx;
	c->ren_from = (const char **)r->from;
	c->ren_to = (const char **)r->to;
	c->nren = r->n;
	return true;
}

/* T with the ConstPtr names of R renamed; NULL when out of memory. */
static ir_trace *rename_copy(const ir_trace *t, const pren *r)
{
	return pl_with_prefix(t, set_renames, (void *)r);
}

/* Both traces of P with the names of R renamed (left as they were when
 * out of memory: the identities are then merely not used). */
static void renamed(pl_pair *p, const pren *r)
{
	if (!r->n)
		return;
	ir_trace *o = rename_copy(p->orig, r);
	ir_trace *t = o ? rename_copy(p->opt, r) : NULL;
	pl_replace_traces(p, o, t);
}

void pl_bridge_facts(pl_pair *p, const ir_trace *parent, const pl_entry *e,
		     const pl_opts *po)
{
	bool apart = po && po->apart;
	uint32_t n = e->n;
	/* Rewrites may have added inputs after the bridge's own (raw reads,
	 * force_token): the first N are the live fail-args, in order
	 * (failarg_of). */
	if (!p->orig || !p->opt || n == 0 || n > p->opt->ninputs ||
	    n > p->orig->ninputs)
		return;
	bool any = false;
	for (uint32_t k = 0; k < n; k++)
		any |= e->f[k].nonnull || e->f[k].isnull || e->f[k].cls;
	hfacts hs = {NULL, 0, 0};
	if (e->hs.n) {
		hs.v = malloc(e->hs.n * sizeof *hs.v);
		if (hs.v) {
			memcpy(hs.v, e->hs.v, e->hs.n * sizeof *hs.v);
			hs.n = hs.cap = e->hs.n;
		}
	}
	pren ren = {.n = 0};
	uint32_t nid = pl_fact_names(p->orig, p->opt, &hs, apart, &ren);
	uint32_t nkept = 0, w = 0;
	for (uint32_t i = 0; i < hs.n; i++) {
		if (hs.v[i].kept && po && po->write_all)
			continue; /* --calls-write-all: no field kept */
		if (hs.v[i].weak && !pl_weak_used(p, &hs.v[i], &hs))
			continue;
		nkept += hs.v[i].kept;
		hs.v[w++] = hs.v[i];
	}
	hs.n = w;
	any |= hs.n > 0;
	const lifact *li = e->li;
	uint32_t nli = e->nli;
	any |= nli > 0;
	uint32_t a = 0, b = 0, na = 0, nb = 0;
	ir_trace *o =
	    any ? with_facts(p->orig, e->f, n, &hs, parent, li, nli, &a, &na)
		: NULL;
	ir_trace *t =
	    o ? with_facts(p->opt, e->f, n, &hs, parent, li, nli, &b, &nb)
	      : NULL;
	pl_replace_traces(p, o, t);
	if (o && t) {
		p->nfacts = a;
		p->nprefix += na;
		p->nsame += nid;
		p->nkept += nkept;
		renamed(p, &ren);
	}
	for (uint32_t i = 0; i < ren.n; i++) {
		free(ren.from[i]);
		free(ren.to[i]);
	}
	free(hs.v);
}
