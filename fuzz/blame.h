/*
 * blame.h - rule blame: the optimizer rule a failure is due to, which is
 * a campaign finding's signature (docs/fuzzing.md, "Rule blame").
 *
 * The built-in optimizer names its rules (passes/rules.def), reports which
 * fired (opt_stats.rules_fired, red_outcome.rules_fired) and can run with
 * rules switched off (opt_config.rules_off).  blm_blame re-optimizes and
 * re-verifies the failing trace with single rules off and returns the
 * first critical one (analysis rules first).  Each step is one
 * red_evaluate with ENV (its verifier options, examples and timeout).
 */
#ifndef JP_FUZZ_BLAME_H
#define JP_FUZZ_BLAME_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "fuzz/reduce.h"

typedef struct blm_limits {
	double deadline_ms; /* CLOCK_MONOTONIC milliseconds; 0 = none */
	const volatile sig_atomic_t *stop; /* set = stop now; may be NULL */
} blm_limits;

/* Blames OUT, the failure of T under ENV, on one rule (*RULES, the bit
 * 1 << opt_rule).  False when no rule is critical: none fired (the
 * failure is not the rules' doing), two rules lead to the same failure,
 * or LIMITS stopped the search first.  The rules in PREFER (those of
 * known findings) are tried first, so that a hit of a known finding costs
 * one evaluation. */
bool blm_blame(const red_env *env, const ir_trace *t, const red_outcome *out,
	       const blm_limits *limits, uint64_t prefer, uint64_t *rules);

#endif
