/*
 * slice.h - the assumptions a solver query is first asked with.
 *
 * Every obligation of a pair is asked under every earlier guard of both
 * traces.  On long traces that multiply or divide, most of those guards
 * test products and quotients the obligation has nothing to do with, and
 * the bit-blasting solver pays for every multiplier it is given: measured
 * on the bench's 1000-op pairs, the fallback queries took about three
 * times longer with all assumptions than with those that mention no
 * multiplier or divider besides the goal's own (docs/verifier.md).
 *
 * Slicing by shared variables (the classic cone of influence) does not
 * help there: generated and real traces have one to a few inputs that
 * every guard mentions, and the cone kept 98% of the assumptions.  The
 * slice here is by hard terms instead: an assumption is kept when every
 * multiplication, division and remainder term in it also occurs in the
 * negated goal (assumptions without such terms are always kept).
 *
 * What a slice may be used for (the caller's side, verify/check.c):
 *  - unsat with the slice proves the full query unsat (fewer assumptions
 *    can only allow more models);
 *  - sat with the slice is NOT a counterexample by itself: a dropped
 *    assumption may be false in the model, or the dropped assumptions may
 *    contradict each other (then the obligation holds vacuously).  The
 *    model must be checked against every dropped assumption
 *    (sl_violated); if all hold it is a model of the full query, else the
 *    violated ones join the slice and the query is asked again.
 * Any subset of the assumptions keeps these rules sound, so the choice of
 * what to keep affects only speed, never a verdict.
 *
 * Ownership: an sl_set belongs to one check and indexes its caller's
 * assumption terms by position; it holds term ids, not references, so the
 * terms must be kept alive by the caller (a zc_scope).
 */
#ifndef JP_VERIFY_SLICE_H
#define JP_VERIFY_SLICE_H

#include <stdbool.h>
#include <stdint.h>

#include "verify/z3ctx.h"

typedef struct sl_set {
	Z3_context z;
	/* Assumption i's outermost hard terms are ids[first[i]] ..
	 * ids[first[i + 1] - 1] (what is under a hard term is part of it). */
	uint32_t n, cap; /* assumptions added */
	uint32_t *first; /* cap + 1 entries */
	unsigned *ids;
	uint32_t nids, capids;
	zc_idset seen;	/* the walk's visited terms */
	zc_idset goalh; /* every hard term of the goal being sliced for */
	Z3_ast *stack;	/* the walk's work list */
	uint32_t capstack;
} sl_set;

void sl_init(sl_set *s, Z3_context z);
/* Forgets every assumption (after the caller reset its assumptions). */
void sl_clear(sl_set *s);
void sl_free(sl_set *s);

/* Records A as assumption number s->n.  False when out of memory. */
bool sl_add(sl_set *s, Z3_ast a);

/* Fills KEEP[0 .. s->n) with the slice for negated goal NEG: true for an
 * assumption without hard terms or whose hard terms all occur in NEG.
 * Returns how many are kept, or UINT32_MAX when out of memory (KEEP is
 * then all true). */
uint32_t sl_select(sl_set *s, Z3_ast neg, bool *keep);

/* Checks model M against the assumptions HYP[i] with KEEP[i] false: each
 * one not true in M (evaluated with model completion, as the caller reads
 * the inputs) gets KEEP[i] = true.  Returns how many were violated, or
 * UINT32_MAX when Z3 failed to evaluate one (all dropped ones are then
 * kept). */
uint32_t sl_violated(Z3_context z, Z3_model m, const Z3_ast *hyp, uint32_t n,
		     bool *keep);

#endif
