/*
 * check_goal.c - what each query is made of: the encoding of both traces,
 * the assumptions (the guards passed so far, asserted in the fast solver
 * and remembered in chk_hyps), and the negated goal of an obligation
 * (satisfiable exactly when the obligation fails), with the lemmas applied.
 *
 * The identity shortcut lives here: goal_neg says "holds by identity" when
 * the two sides are one term, when the goal is one of the assumptions, or
 * when the assumptions contain the constant false.
 */
#include "check_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void chk_progress(chk_pair *ps, const char *fmt, ...)
{
	if (!ps->opts->on_progress)
		return;
	char note[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(note, sizeof note, fmt, ap);
	va_end(ap);
	ps->opts->on_progress(ps->opts->progress_ud, note);
}

/* The terms of trace T (OPT: the optimized one) as the heap model made
 * them, in E: copies of its arrays, so that E is freed like any other. */
static jp_status heap_trace(chk_pair *ps, const ir_trace *t, bool opt,
			    enc_trace *e, jp_err *err)
{
	Z3_ast *val, *bval, *pass;
	hp_terms(ps->heap, opt, &val, &bval, &pass);
	memset(e, 0, sizeof *e);
	e->t = t;
	e->w = t->width;
	e->val = calloc(t->nvals + 1, sizeof *e->val);
	e->bval = calloc(t->nvals + 1, sizeof *e->bval);
	e->ovf = calloc(t->nops + 1, sizeof *e->ovf);
	e->pass = calloc(t->nops + 1, sizeof *e->pass);
	if (!e->val || !e->bval || !e->ovf || !e->pass) {
		enc_trace_free(e);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	memcpy(e->val, val, t->nvals * sizeof *val);
	memcpy(e->bval, bval, t->nvals * sizeof *bval);
	memcpy(e->pass, pass, t->nops * sizeof *pass);
	e->hard = enc_count_hard(&ps->S, t, e->val);
	return JP_OK;
}

/* A pair with a heap: the heap model (verify/heap.h) makes the terms. */
static jp_status encode_heap(chk_pair *ps, jp_err *err)
{
	chk_progress(ps,
		     "encoding both traces with the heap model "
		     "(%u and %u ops)",
		     ps->o->nops, ps->p->nops);
	jp_status st = hp_open(ps->z, ps->o, ps->p, ps->opts, ps->res, ps->hint,
			       &ps->heap, &ps->heap_limit, err);
	if (st)
		return st;
	memcpy(ps->vars, hp_input_vars(ps->heap),
	       ps->o->ninputs * sizeof *ps->vars);
	st = heap_trace(ps, ps->o, false, &ps->eo, err);
	if (!st) {
		st = heap_trace(ps, ps->p, true, &ps->ep, err);
		if (st)
			enc_trace_free(&ps->eo);
	}
	return st;
}

/* Both traces as terms over the shared input variables. */
static jp_status encode_terms(chk_pair *ps, jp_err *err)
{
	if (ps->heap_pair)
		return encode_heap(ps, err);
	jp_status st = enc_inputs(&ps->S, ps->o, ps->vars, err);
	chk_progress(ps, "encoding the original trace (%u ops)", ps->o->nops);
	if (!st)
		st = enc_trace_build(&ps->S, ps->o, ps->vars, &ps->eo, err);
	if (!st) {
		chk_progress(ps, "encoding the optimized trace (%u ops)",
			     ps->p->nops);
		st = enc_trace_build(&ps->S, ps->p, ps->vars, &ps->ep, err);
		if (st)
			enc_trace_free(&ps->eo);
	}
	return st;
}

jp_status chk_encode(chk_pair *ps, jp_err *err)
{
	if (ps->encoded)
		return JP_OK;
	double t0 = clk_now_ms();
	ps->vars = calloc(ps->o->ninputs + 1, sizeof *ps->vars);
	if (!ps->vars)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	jp_status st = encode_terms(ps, err);
	if (!st) {
		st = vr_init(&ps->vo, ps->o, err);
		if (!st)
			st = vr_init(&ps->vp, ps->p, err);
		if (st) {
			enc_trace_free(&ps->eo);
			enc_trace_free(&ps->ep);
		}
	}
	ps->encoded = st == JP_OK;
	ps->res->ms_encode += clk_now_ms() - t0;
	return st;
}

static jp_status add_hyp(chk_pair *ps, Z3_ast t, jp_err *err)
{
	if (zc_is_true(ps->z, t))
		return JP_OK;
	if (zc_is_false(ps->z, t))
		ps->hyps.contradict = true;
	unsigned id = Z3_get_ast_id(ps->z, t);
	if (zc_idset_has(&ps->hyps.ids, id))
		return JP_OK;
	if (ps->hyps.n == ps->hyps.cap) {
		uint32_t ncap = ps->hyps.cap ? ps->hyps.cap * 2 : 64;
		Z3_ast *h = realloc(ps->hyps.v, (size_t)ncap * sizeof *h);
		if (!h)
			return jp_fail(err, JP_ENOMEM, "out of memory");
		ps->hyps.v = h;
		ps->hyps.cap = ncap;
	}
	bool added;
	if (!zc_idset_add(&ps->hyps.ids, id, &added))
		return jp_fail(err, JP_ENOMEM, "out of memory");
	ps->hyps.v[ps->hyps.n++] = t;
	if (!chk_hard_pair(ps))
		Z3_solver_assert(ps->z, ps->solvers.fast, t);
	jp_status st = zc_check_error(err, "asserting a guard condition");
	return st ? st : chk_learn_facts(ps, t, 0, FACT_KEPT, err);
}

static void reset_hyps(chk_pair *ps)
{
	Z3_solver_reset(ps->z, ps->solvers.fast);
	if (ps->solvers.abstract) {
		Z3_solver_reset(ps->z, ps->solvers.abstract);
		abs_reset(&ps->abs.map); /* its axioms went with the reset */
	}
	ps->abs.done = 0;
	ps->abs.any = false;
	sl_clear(&ps->slice.set);
	ps->hyps.n = 0;
	zc_idset_clear(&ps->hyps.ids);
	ps->hyps.contradict = false;
	ps->hyps.o_done = ps->hyps.p_done = 0;
	ps->hyps.background = false;
	/* Lemmas were proved, and facts learned, under the dropped
	 * assumptions. */
	chk_drop_lemmas(ps);
	ps->facts.n = ps->facts.nkept = 0;
	ps->refold.nfact = 0;
	zc_idset_clear(&ps->facts.ids);
	ps->lemmas.next = 0;
}

/* Makes the solver's assumptions "every ORIG guard before O_UPTO and every
 * OPT guard before P_UPTO passed".  Aligned mode only ever extends them;
 * trace mode needs one reset. */
jp_status chk_assume(chk_pair *ps, uint32_t o_upto, uint32_t p_upto,
		     jp_err *err)
{
	jp_status st = chk_make_solver(ps, err);
	if (st)
		return st;
	if (o_upto < ps->hyps.o_done || p_upto < ps->hyps.p_done)
		reset_hyps(ps);
	if (ps->heap && !ps->hyps.background) {
		/* What every heap query assumes (hp_background). */
		ps->hyps.background = true;
		st = add_hyp(ps, hp_background(ps->heap), err);
		if (st)
			return st;
	}
	for (; ps->hyps.o_done < o_upto; ps->hyps.o_done++)
		if (ps->eo.pass[ps->hyps.o_done] &&
		    (st = add_hyp(
			 ps, chk_subst(ps, ps->eo.pass[ps->hyps.o_done]), err)))
			return st;
	for (; ps->hyps.p_done < p_upto; ps->hyps.p_done++)
		if (ps->ep.pass[ps->hyps.p_done] &&
		    (st = add_hyp(
			 ps, chk_subst(ps, ps->ep.pass[ps->hyps.p_done]), err)))
			return st;
	return JP_OK;
}

/* Whether T certainly holds under the current assumptions without asking
 * the solver: it is true, or it is one of the assumptions. */
static bool known_true(const chk_pair *ps, Z3_ast t)
{
	return ps->hyps.contradict || zc_is_true(ps->z, t) ||
	       zc_idset_has(&ps->hyps.ids, Z3_get_ast_id(ps->z, t));
}

Z3_ast chk_mk_not(chk_pair *ps, Z3_ast a)
{
	return zc_keep(&ps->S, Z3_mk_not(ps->z, a));
}

Z3_ast chk_mk_and(chk_pair *ps, uint32_t n, const Z3_ast *a)
{
	return zc_keep(&ps->S, Z3_mk_and(ps->z, n, a));
}

static bool failargs_shape_equal(const chk_pair *ps, const ir_op *a,
				 const ir_op *b)
{
	if (a->nfail != b->nfail)
		return false;
	for (uint32_t j = 0; j < a->nfail; j++) {
		ir_vid va = a->failargs[j], vb = b->failargs[j];
		if ((va == IR_NOVAL) != (vb == IR_NOVAL))
			return false;
		if (va != IR_NOVAL && (ir_val(ps->o, va)->kind == 'r') !=
					  (ir_val(ps->p, vb)->kind == 'r'))
			return false;
	}
	return true;
}

/* "Some fail-arg differs" for guards A (ORIG) and B (OPT) of equal shape;
 * NULL when every pair is the same term. */
static Z3_ast failargs_differ(chk_pair *ps, const ir_op *a, const ir_op *b)
{
	Z3_ast *d = malloc(((size_t)a->nfail + 1) * sizeof *d);
	if (!d) {
		ps->S.failed = true;
		return NULL;
	}
	uint32_t n = 0;
	for (uint32_t j = 0; j < a->nfail; j++) {
		if (a->failargs[j] == IR_NOVAL)
			continue;
		Z3_ast x = chk_subst(ps, ps->eo.val[a->failargs[j]]);
		Z3_ast y = chk_subst(ps, ps->ep.val[b->failargs[j]]);
		if (x != y)
			d[n++] = chk_mk_not(
			    ps, zc_keep(&ps->S, Z3_mk_eq(ps->z, x, y)));
	}
	Z3_ast r = n ? zc_keep(&ps->S, Z3_mk_or(ps->z, n, d)) : NULL;
	free(d);
	return r;
}

/* T with every proved lemma applied (OPT terms replaced by the equal ORIG
 * terms), so that computations the optimizer changed but kept equal
 * become identical terms downstream. */
Z3_ast chk_subst(chk_pair *ps, Z3_ast t)
{
	if (!t || ps->lemmas.n == 0)
		return t;
	return zc_keep(&ps->S, Z3_substitute(ps->z, t, ps->lemmas.n,
					     ps->lemmas.from, ps->lemmas.to));
}

/* Per guard of the trace encoded as E (NOPS ops), the condition "the
 * trace leaves at this guard": every guard before it passes and it fails.
 * LEAVE[i] is NULL for the other ops.  False when a term failed. */
static bool leave_conditions(chk_pair *ps, const enc_trace *e, uint32_t nops,
			     Z3_ast *leave)
{
	Z3_ast prefix = zc_true(&ps->S);
	for (uint32_t i = 0; i < nops && prefix; i++) {
		leave[i] = NULL;
		if (!e->pass[i])
			continue;
		Z3_ast pass = chk_subst(ps, e->pass[i]);
		Z3_ast v[2] = {prefix, chk_mk_not(ps, pass)};
		leave[i] = chk_mk_and(ps, 2, v);
		v[1] = pass;
		prefix = chk_mk_and(ps, 2, v);
	}
	return !ps->S.failed;
}

/* Appends to D (room for one more term per guard of both traces) the ways
 * OBL_EXIT can fail at the ORIG guard G paired with the OPT guard H: one
 * trace leaves there and the other does not, or (FAILARGS) both do with
 * different fail-args. */
static uint32_t exit_pair_differs(chk_pair *ps, const Z3_ast *lo,
				  const Z3_ast *lp, uint32_t g, uint32_t h,
				  bool failargs, Z3_ast *d, uint32_t n)
{
	d[n++] = zc_keep(&ps->S, Z3_mk_xor(ps->z, lo[g], lp[h]));
	if (!failargs)
		return n;
	const ir_op *ga = &ps->o->ops[g], *gb = &ps->p->ops[h];
	Z3_ast parts[3] = {lo[g], lp[h], NULL};
	if (!failargs_shape_equal(ps, ga, gb))
		d[n++] = chk_mk_and(ps, 2, parts);
	else if ((parts[2] = failargs_differ(ps, ga, gb)))
		d[n++] = chk_mk_and(ps, 3, parts);
	return n;
}

/* OBL_EXIT's negated goal: some guard is where one trace leaves and the
 * other does not leave at the guard with the same label, or (B->j) both
 * leave at the same label with different fail-args.  Each trace leaves at
 * one guard at most on an input, so when no label tells them apart they
 * leave at the same label or both pass every guard.  NULL with *IDENT when
 * no guard can tell them apart; NULL alone when a term failed. */
static Z3_ast exit_goal_neg(chk_pair *ps, const obl *b, bool *ident)
{
	uint32_t no = ps->o->nops, np = ps->p->nops;
	Z3_ast *lo = calloc((size_t)no + np + 1, sizeof *lo);
	Z3_ast *d = calloc(2 * ((size_t)no + np) + 1, sizeof *d);
	uint32_t *match = calloc((size_t)np + 1, sizeof *match);
	bool *paired = calloc((size_t)no + 1, sizeof *paired);
	Z3_ast r = NULL;
	if (!lo || !d || !match || !paired ||
	    obl_match_labels(ps->o, ps->p, match, NULL)) {
		ps->S.failed = true;
		goto out;
	}
	Z3_ast *lp = lo + no;
	if (!leave_conditions(ps, &ps->eo, no, lo) ||
	    !leave_conditions(ps, &ps->ep, np, lp))
		goto out;
	uint32_t n = 0;
	for (uint32_t h = 0; h < np; h++) {
		if (!lp[h])
			continue;
		if (match[h] == OBL_NONE) {
			d[n++] = lp[h];
			continue;
		}
		paired[match[h]] = true;
		n = exit_pair_differs(ps, lo, lp, match[h], h, b->j, d, n);
	}
	for (uint32_t g = 0; g < no; g++)
		if (lo[g] && !paired[g])
			d[n++] = lo[g];
	if (ps->S.failed)
		goto out;
	if (n == 0)
		*ident = true;
	else
		r = zc_keep(&ps->S, Z3_mk_or(ps->z, n, d));
out:
	free(lo);
	free(d);
	free(match);
	free(paired);
	return r;
}

static Z3_ast goal_neg(chk_pair *ps, const obl *b, bool *ident);

/* The negated goal of B (satisfiable iff B fails somewhere under its
 * assumptions), or NULL with *IDENT set when the goal holds by identity.
 * A heap pair's obligation also assumes that the original is defined up
 * to a point (hp_obl_defined): conjoined to the goal, which is the same
 * as assuming it. */
Z3_ast chk_goal_neg(chk_pair *ps, const obl *b, bool *ident)
{
	Z3_ast g = goal_neg(ps, b, ident);
	if (!g || b < ps->L.v || b >= ps->L.v + ps->L.n)
		return g;
	return chk_heap_defined(ps, (uint32_t)(b - ps->L.v), g);
}

Z3_ast chk_heap_defined(chk_pair *ps, uint32_t i, Z3_ast neg)
{
	if (!ps->heap)
		return neg;
	Z3_ast d = hp_obl_defined(ps->heap, i);
	if (zc_is_true(ps->z, d))
		return neg;
	Z3_ast v[2] = {d, neg};
	return chk_mk_and(ps, 2, v);
}

static Z3_ast goal_neg(chk_pair *ps, const obl *b, bool *ident)
{
	*ident = false;
	Z3_context z = ps->z;
	Z3_ast a = b->og != OBL_NONE ? chk_subst(ps, ps->eo.pass[b->og]) : NULL;
	Z3_ast c = b->pg != OBL_NONE ? chk_subst(ps, ps->ep.pass[b->pg]) : NULL;
	if (ps->hyps.contradict) {
		*ident = true;
		return NULL;
	}
	switch (b->kind) {
	case OBL_SAME:
		if (a == c || (known_true(ps, a) && known_true(ps, c))) {
			*ident = true;
			return NULL;
		}
		return zc_keep(&ps->S, Z3_mk_xor(z, a, c));
	case OBL_REMOVED:
	case OBL_T_ORIG:
		if (known_true(ps, a)) {
			*ident = true;
			return NULL;
		}
		return chk_mk_not(ps, a);
	case OBL_NEW:
	case OBL_T_OPT:
		if (known_true(ps, c)) {
			*ident = true;
			return NULL;
		}
		return chk_mk_not(ps, c);
	case OBL_FAILARGS: {
		if (known_true(ps, a) || known_true(ps, c)) {
			*ident = true; /* the guard never fails here */
			return NULL;
		}
		const ir_op *ga = &ps->o->ops[b->og], *gb = &ps->p->ops[b->pg];
		Z3_ast parts[3] = {chk_mk_not(ps, a), chk_mk_not(ps, c), NULL};
		if (!failargs_shape_equal(ps, ga, gb))
			return chk_mk_and(ps, 2, parts);
		parts[2] = failargs_differ(ps, ga, gb);
		if (!parts[2]) {
			*ident = !ps->S.failed;
			return NULL;
		}
		return chk_mk_and(ps, 3, parts);
	}
	case OBL_OUTPUT: {
		const ir_op *eo = &ps->o->ops[ps->o->nops - 1];
		const ir_op *ep = &ps->p->ops[ps->p->nops - 1];
		Z3_ast x = chk_subst(ps, ps->eo.val[eo->args[b->j]]);
		Z3_ast y = chk_subst(ps, ps->ep.val[ep->args[b->j]]);
		if (x == y) {
			*ident = true;
			return NULL;
		}
		if (Z3_get_sort(z, x) != Z3_get_sort(z, y))
			return zc_true(&ps->S); /* an int against a ref */
		return chk_mk_not(ps, zc_keep(&ps->S, Z3_mk_eq(z, x, y)));
	}
	case OBL_END: return zc_true(&ps->S);
	case OBL_EXIT: return exit_goal_neg(ps, b, ident);
	case OBL_MODEL: {
		Z3_ast g = hp_model_goal_neg(ps->heap, b);
		if (zc_is_false(z, g)) {
			*ident = true;
			return NULL;
		}
		return chk_subst(ps, g);
	}
	}
	return NULL;
}
