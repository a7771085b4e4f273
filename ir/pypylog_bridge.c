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
 * Sections: facts of one value; loop invariants; the pair's new traces.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"

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

/* What holds of V at every arrival at op G of T. */
static fact facts_at(const ir_trace *t, uint32_t g, ir_vid v)
{
	uint32_t lab[2] = {0, 0}, nl = 0;
	for (uint32_t i = 0; i < g; i++)
		if (t->ops[i].opc == IR_LABEL) {
			lab[0] = nl ? lab[1] : i;
			lab[1] = i;
			nl++;
		}
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

/* ---- the pair's new traces ---------------------------------------------- */

typedef struct facts_at_in {
	const fact *f;
	uint32_t nf;
	uint32_t nguards; /* emitted */
} facts_at_in;

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
	return true;
}

/* T with, first, a guard for each fact of F (one per input, NF of
 * them); *NGUARDS of them. */
static ir_trace *with_facts(const ir_trace *t, const fact *f, uint32_t nf,
			    uint32_t *nguards)
{
	facts_at_in x = {f, nf, 0};
	ir_trace *r = pl_with_prefix(t, emit_facts, &x);
	*nguards = x.nguards;
	return r;
}

void pl_bridge_facts(pl_pair *p, const ir_trace *parent, uint32_t g)
{
	const ir_op *gop = &parent->ops[g];
	uint32_t n = gop->nfail;
	/* Rewrites may have added inputs after the bridge's own (raw reads,
	 * force_token): the first N are the fail-args, in order. */
	if (!p->orig || !p->opt || n == 0 || n > p->opt->ninputs ||
	    n > p->orig->ninputs)
		return;
	fact *f = calloc(n + 1, sizeof *f);
	if (!f)
		return;
	bool any = false;
	for (uint32_t k = 0; k < n; k++) {
		f[k] = facts_at(parent, g, gop->failargs[k]);
		any |= f[k].nonnull || f[k].isnull || f[k].cls;
	}
	uint32_t a = 0, b = 0;
	ir_trace *o = any ? with_facts(p->orig, f, n, &a) : NULL;
	ir_trace *t = o ? with_facts(p->opt, f, n, &b) : NULL;
	pl_replace_traces(p, o, t);
	if (o && t) {
		p->nfacts = a;
		p->nprefix += a; /* one guard each */
	}
	free(f);
}
