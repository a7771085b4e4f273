/*
 * blame.c - rule blame: which optimizer rule a failure needs.
 *
 * The built-in optimizer names the rule behind every fact and rewrite
 * (passes/rules.def): analysis rules compute facts (the bounds pass's
 * transfer functions), rewrite rules change ops.  A rule is critical for a
 * failure when, with every other rule that fired still on and that one
 * off, the trace no longer fails the same way (same failure kind).  The
 * failure is blamed on ONE rule: the first critical one in this order
 *   1. the analysis rules in rules.def order (the cmp rules last): a wrong
 *      fact is the bug, and however it is then used (a guard removed, a
 *      comparison folded, an *_ovf op made plain) is only how it shows;
 *   2. the rewrite rules in rules.def order;
 * The rules of known findings (PREFER) are tried before all others: a
 * failure for which one of them is critical is a hit of that finding (one
 * evaluation).  When no rule is critical (no rule fired, or two ways to the
 * same failure), on nothing: the caller reduces the trace and blames the
 * reduced one.  Rules are tried one evaluation each and the search stops
 * at the first critical one, so a hit costs a few evaluations and no
 * reduction.
 */
#include "fuzz/blame.h"

#include "util/clock.h"

static bool blame_stop(const blm_limits *w)
{
	return (w->deadline_ms > 0 && clk_now_ms() >= w->deadline_ms) ||
	       (w->stop && *w->stop);
}

/* 1 when T fails as KIND with only the rules in KEEP on, 0 when not, -1
 * on an error. */
static int blame_try(const red_env *env, const ir_trace *t, red_kind kind,
		     uint64_t keep)
{
	red_env e = *env;
	e.cfg.rules_off = ~keep;
	red_outcome o;
	if (red_evaluate(&e, t, &o, NULL) != JP_OK)
		return -1;
	int same = o.kind == kind;
	red_outcome_free(&o);
	return same;
}

/* The first rule of FIRED & FROM (in rules.def order) without which T no
 * longer fails as KIND, or 0. */
static uint64_t blame_first_critical(const blm_limits *w, const red_env *env,
				     const ir_trace *t, red_kind kind,
				     uint64_t fired, uint64_t from)
{
	for (int r = 0; r < OPT_RULE_COUNT && !blame_stop(w); r++) {
		uint64_t bit = UINT64_C(1) << r;
		if ((fired & from & bit) &&
		    blame_try(env, t, kind, fired & ~bit) == 0)
			return bit;
	}
	return 0;
}

bool blm_blame(const red_env *env, const ir_trace *t, const red_outcome *out,
	       const blm_limits *w, uint64_t prefer, uint64_t *rules)
{
	uint64_t fired = out->rules_fired, an = opt_rules_analysis();
	if (!fired)
		return false;
	uint64_t r = blame_first_critical(w, env, t, out->kind, fired, prefer);
	if (!r)
		r = blame_first_critical(w, env, t, out->kind, fired,
					 an & ~prefer);
	if (!r)
		r = blame_first_critical(w, env, t, out->kind, fired,
					 ~an & ~prefer);
	*rules = r;
	return r != 0;
}
