/*
 * check_settle.c - the cheap settling steps of one obligation, tried
 * before any solver search: identity of terms (check_goal.c), the range
 * analyses (verify/range.h), Z3's rewriter on the goal, and the rewriter
 * again after the facts, refolding and new lemmas (check_facts.c).
 */
#include "check_int.h"

/* Whether guard K of the trace analysed by R, already advanced to the
 * assumption bound UPTO, certainly passes. */
static bool passes(const vr_state *r, uint32_t upto, uint32_t k)
{
	return k != OBL_NONE && k >= upto && vr_guard_passes(r, k);
}

/* Whether the range analyses of the two traces settle B: its assumptions
 * contradict each other, or the guards it is about certainly pass, or the
 * two outputs it compares are certainly the same constant.  Each analysis
 * uses only the guards of its own trace before the bound, a subset of
 * B's assumptions, so what it concludes holds under all of them. */
static bool range_settles(chk_pair *ps, const obl *b)
{
	if (chk_rechecking(ps))
		return false;
	vr_advance(ps->vo, b->o_upto);
	vr_advance(ps->vp, b->p_upto);
	if (vr_infeasible(ps->vo) || vr_infeasible(ps->vp))
		return true;
	switch (b->kind) {
	case OBL_SAME:
		return passes(ps->vo, b->o_upto, b->og) &&
		       passes(ps->vp, b->p_upto, b->pg);
	case OBL_FAILARGS:
		return passes(ps->vo, b->o_upto, b->og) ||
		       passes(ps->vp, b->p_upto, b->pg);
	case OBL_REMOVED:
	case OBL_T_ORIG: return passes(ps->vo, b->o_upto, b->og);
	case OBL_NEW:
	case OBL_T_OPT: return passes(ps->vp, b->p_upto, b->pg);
	case OBL_OUTPUT: {
		const ir_op *eo = &ps->o->ops[ps->o->nops - 1];
		const ir_op *ep = &ps->p->ops[ps->p->nops - 1];
		ir_vid x = eo->args[b->j], y = ep->args[b->j];
		uint64_t cx, cy;
		if (ir_val(ps->o, x)->kind == 'r' ||
		    ir_val(ps->p, y)->kind == 'r')
			return false;
		return vr_const(ps->vo, x, &cx) && vr_const(ps->vp, y, &cy) &&
		       cx == cy;
	}
	case OBL_END:
	case OBL_EXIT:
	case OBL_MODEL: return false;
	}
	return false;
}

/* Settles obligation I without a solver search if it can: identical
 * terms, Z3's rewriter, or either after new lemmas.  Otherwise *NEG is its
 * negated goal (NULL when it was settled).  The assumptions must be made
 * already. */
jp_status chk_settle_cheaply(chk_pair *ps, uint32_t i, double t1, Z3_ast *neg,
			     jp_err *err)
{
	const obl *b = &ps->L.v[i];
	*neg = NULL;
	if (chk_test_wrong_settle) {
		chk_settle(ps, i, VER_PROVED, VER_BY_REWRITE, 0);
		return JP_OK;
	}
	for (int round = 0; round < 2; round++) {
		/* Round 0's goal is stale once a lemma settles round 1. */
		*neg = NULL;
		bool ident;
		Z3_ast g = chk_goal_neg(ps, b, &ident);
		if (ps->S.failed)
			return jp_fail(err, JP_EINTERNAL, "building a goal: %s",
				       zc_error_text());
		if (ident) {
			chk_settle(ps, i, VER_PROVED, VER_BY_IDENTITY,
				   clk_now_ms() - t1);
			return JP_OK;
		}
		if (round == 0 && range_settles(ps, b)) {
			chk_settle(ps, i, VER_PROVED, VER_BY_RANGE,
				   clk_now_ms() - t1);
			return JP_OK;
		}
		/* Z3's rewriter settles many more without a search (x + x
		 * and x << 1, double negations, ...); it costs a few
		 * microseconds on these small terms. */
		Z3_ast simp = zc_keep(&ps->S, Z3_simplify(ps->z, g));
		if (simp && zc_is_false(ps->z, simp)) {
			chk_settle(ps, i, VER_PROVED, VER_BY_REWRITE,
				   clk_now_ms() - t1);
			return JP_OK;
		}
		/* The same with the pinned terms replaced by their
		 * constants; the solver gets the smaller goal too. */
		if (round == 0) {
			jp_status st = chk_facts_of_ranges(
			    ps, ps->vo, ps->o, &ps->eo, b->o_upto, err);
			if (!st)
				st = chk_facts_of_ranges(
				    ps, ps->vp, ps->p, &ps->ep, b->p_upto, err);
			if (!st)
				st = chk_refold_facts(ps, err);
			if (st)
				return st;
		}
		Z3_ast f = chk_subst_facts(ps, g);
		if (f != g) {
			simp = zc_keep(&ps->S, Z3_simplify(ps->z, f));
			if ((simp && zc_is_false(ps->z, simp)) ||
			    chk_false_by_kept(ps, g)) {
				chk_settle(ps, i, VER_PROVED, VER_BY_REWRITE,
					   clk_now_ms() - t1);
				return JP_OK;
			}
			g = f;
		}
		*neg = g;
		bool added = false;
		if (round == 0 && ps->lemmas.on) {
			jp_status st =
			    chk_try_lemmas(ps, b->p_upto, &added, err);
			if (st)
				return st;
		}
		if (!added)
			return JP_OK;
	}
	return JP_OK;
}
