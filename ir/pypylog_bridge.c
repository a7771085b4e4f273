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
 * an input holds another input, NULL or an integer constant, when the
 * parent read or wrote that field since the last label (or, for an
 * immutable field of an object the parent did not allocate, in the
 * preamble, as a loop invariant) and nothing between may have changed it
 * (section "heap facts").
 * Sections: facts of one value; loop invariants; heap facts; the pair's
 * new traces.
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
struct pl_entry {
	fact *f;
	uint32_t n;
};

void pl_entry_free(pl_entry *e)
{
	if (e)
		free(e->f);
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

/* "field DESCR of input OBJ holds input VAL" (VAL < nfail), or holds the
 * constant K (VAL == UINT32_MAX: NULL for a reference field). */
typedef struct hfact {
	uint32_t obj, val;
	uint64_t k;
	ir_opcode get; /* IR_GETFIELD_GC_R or _I */
	const char *descr;
} hfact;

typedef struct hfacts {
	hfact *v;
	uint32_t n, cap;
} hfacts;

static bool allocated(const ir_trace *t, ir_vid v)
{
	uint32_t d = ir_defop(t, v);
	return d != UINT32_MAX &&
	       ir_op_has((ir_opcode)t->ops[d].opc, IRF_ALLOC);
}

/* Whether field D of X may change in a real run between ops FROM and TO
 * of T: a store to D (through any object), or a call, unless D is
 * immutable and X is not allocated by T (docs/pypy.md, "Immutable
 * fields": the model's own rule for calls). */
static bool may_change(const ir_trace *t, uint32_t from, uint32_t to,
		       const char *d, ir_vid x)
{
	bool pure = ir_py_field_immutable(d) && !allocated(t, x);
	for (uint32_t i = from; i < to; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_SETFIELD_GC && op->descr &&
		    !strcmp(ir_strtext(t, op->descr), d))
			return true;
		if (!pure && ir_op_has((ir_opcode)op->opc, IRF_CALL) &&
		    ir_pycall_of(t, op) == IR_PYCALL_OPAQUE)
			return true;
	}
	return false;
}

/* The constant Y is known to equal at op TO of T, by itself or by a guard
 * in [FROM, TO) on it (guard_value, guard_isnull, guard_true(int_eq(Y,
 * K)), guard_false(int_ne(Y, K))); false when none.  ConstPtrs other than
 * NULL are names of the parent's section only: not used. */
static bool const_of(const ir_trace *t, uint32_t from, uint32_t to, ir_vid y,
		     uint64_t *k)
{
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
	for (uint32_t i = 0; i < hs->n; i++)
		if (hs->v[i].obj == f.obj && !strcmp(hs->v[i].descr, f.descr))
			return true; /* the latest access is enough */
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
	f->val = UINT32_MAX;
	return const_of(t, at, to, y, &f->k);
}

/* Heap facts at guard G of T from accesses in [FROM, G) that nothing
 * after them may have changed before G. */
static bool direct_hfacts(const ir_trace *t, uint32_t from, uint32_t g,
			  hfacts *hs)
{
	for (uint32_t i = g; i-- > from;) {
		ir_vid x, y;
		ir_opcode get;
		const char *d;
		if (!field_access(t, i, &x, &y, &get, &d))
			continue;
		int xk = failarg_of(&t->ops[g], x);
		if (xk < 0 || ir_val(t, x)->kind != 'r' ||
		    may_change(t, i + 1, g, d, x))
			continue;
		hfact f = {(uint32_t)xk, 0, 0, get, d};
		if (fact_of(t, i, g, y, &f) && !add_hfact(hs, f))
			return false;
	}
	return true;
}

/* Loop invariants about immutable fields: an argument X of the body's
 * label L2 (passed back unchanged by the jump) whose field D the
 * preamble [L1, L2) read as a constant, with no store to D in the body
 * (calls keep D in X: not allocated by T, immutable); at guard G in the
 * body, field D of X (a fail-arg of G) holds that constant. */
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
		    !ir_py_field_immutable(d) || allocated(t, x) ||
		    ir_val(t, x)->kind != 'r')
			continue;
		int xk = failarg_of(&t->ops[g], x);
		bool passed = false;
		for (uint32_t m = 0; m < lab->nargs; m++)
			passed |= lab->args[m] == x && end->args[m] == x;
		uint64_t k;
		if (xk < 0 || !passed || may_change(t, i + 1, l2, d, x) ||
		    may_change(t, l2, e, d, x) || !const_of(t, i, l2, y, &k))
			continue;
		hfact f = {(uint32_t)xk, UINT32_MAX, k, get, d};
		if (!add_hfact(hs, f))
			return false;
	}
	return true;
}

/* What holds of the heap at every arrival at guard G of T. */
static bool hfacts_at(const ir_trace *t, uint32_t g, hfacts *hs)
{
	uint32_t lab[2];
	uint32_t nl = last_labels(t, g, lab);
	if (!direct_hfacts(t, nl ? lab[1] : 0, g, hs))
		return false;
	return nl < 2 || invariant_hfacts(t, lab[0], lab[1], g, hs);
}

/* ---- the pair's new traces ---------------------------------------------- */

typedef struct facts_at_in {
	const fact *f;
	uint32_t nf;
	const hfacts *hs;
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
	ir_vid obj = c->map[t->inputs[f->obj]];
	char name[32];
	if (!emit_guard(d, IR_GUARD_NONNULL, 1, &obj, ng))
		return false;
	bool ref = f->get == IR_GETFIELD_GC_R;
	snprintf(name, sizeof name, "%cheap%u", ref ? 'p' : 'i', k);
	uint32_t o = ir_emit(d, f->get, 1, &obj, ir_cstr(d, f->descr), name);
	if (o == UINT32_MAX)
		return false;
	ir_vid h = d->ops[o].result;
	if (f->val == UINT32_MAX && ref)
		return emit_guard(d, IR_GUARD_ISNULL, 1, &h, ng);
	ir_vid a[2] = {h, f->val == UINT32_MAX ? ir_const_int(d, f->k)
					       : c->map[t->inputs[f->val]]};
	if (ir_val(d, a[1])->kind != ir_val(d, h)->kind)
		return true; /* the read stays; it claims nothing */
	snprintf(name, sizeof name, "iheq%u", k);
	o = ir_emit(d, ref ? IR_PTR_EQ : IR_INT_EQ, 2, a, 0, name);
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
		if (f->obj >= t->ninputs ||
		    (f->val != UINT32_MAX && f->val >= t->ninputs))
			continue;
		if (!emit_hfact(c, f, k, &x->nguards))
			return false;
	}
	x->nops = d->nops;
	return true;
}

/* T with, first, a guard for each fact of F (one per input, NF of
 * them) and the heap facts HS; *NGUARDS guards, *NOPS ops. */
static ir_trace *with_facts(const ir_trace *t, const fact *f, uint32_t nf,
			    const hfacts *hs, uint32_t *nguards, uint32_t *nops)
{
	facts_at_in x = {f, nf, hs, 0, 0};
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
	return e;
}

void pl_bridge_facts(pl_pair *p, const ir_trace *parent, uint32_t g,
		     const pl_entry *e)
{
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
	if (!hfacts_at(parent, g, &hs))
		hs.n = 0; /* out of memory: no heap facts */
	any |= hs.n > 0;
	uint32_t a = 0, b = 0, na = 0, nb = 0;
	ir_trace *o = any ? with_facts(p->orig, e->f, n, &hs, &a, &na) : NULL;
	ir_trace *t = o ? with_facts(p->opt, e->f, n, &hs, &b, &nb) : NULL;
	pl_replace_traces(p, o, t);
	if (o && t) {
		p->nfacts = a;
		p->nprefix += na;
	}
	free(hs.v);
}
