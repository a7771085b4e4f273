/*
 * reduce.h - judging one trace (optimize, then verify) and shrinking a
 * failing trace to a small reproducer.
 *
 * red_evaluate is the fuzzer's oracle for one original trace: it runs the
 * optimizer, checks the optimized trace is valid, and asks the verifier
 * whether the pair is equivalent.  The outcome is classified (proved,
 * unknown, refuted, optimizer error, invalid optimizer output, verifier
 * error) together with the *kind* of the failing obligation with numbers
 * and labels stripped ("guard (same condition)", "output"), which is what
 * "the same failure" means to the reducer and to the deduplication of
 * findings.
 *
 * red_reduce is delta debugging at the trace level.  It works on the
 * original trace only and re-derives the optimized trace for every
 * candidate, so the pair stays meaningful: the optimized side is always
 * what the optimizer really makes of the candidate.  Candidates: drop
 * outputs, drop dead pure ops, drop guards (an overflow guard turns its
 * *_ovf op into the plain op, so the trace stays valid), drop an op and
 * replace its result by one of its operands, a constant or a new input,
 * replace an input by a constant, shrink constants, drop unused inputs and
 * fail-args.  A candidate is kept only when it is valid (ir_validate) and
 * fails in the same way.  The result has its values renamed and its guards
 * relabelled g0, g1, ... in order.
 *
 * Ownership: a red_outcome owns its optimized trace and verifier result
 * (red_outcome_free).  The environment is borrowed.  Errors: JP_ENOMEM, or
 * the status of a failure outside the pair being judged.
 */
#ifndef JP_FUZZ_REDUCE_H
#define JP_FUZZ_REDUCE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "ir/err.h"
#include "ir/trace.h"
#include "passes/opt.h"
#include "verify/check.h"

typedef enum red_kind {
	RED_PROVED,	 /* the pair is equivalent: nothing to report */
	RED_UNKNOWN,	 /* the verifier could not decide (never a proof) */
	RED_REFUTED,	 /* a counterexample: a miscompilation */
	RED_OPT_ERROR,	 /* opt_run failed on a valid trace */
	RED_OPT_INVALID, /* opt_run produced a trace ir_validate rejects */
	RED_VER_ERROR,	 /* ver_check failed: a bug in the verifier itself */
	/* Failures of an external optimizer (red_optimizer, fuzz/extopt.h): */
	RED_OPT_CRASH,	/* it exited non-zero or died of a signal */
	RED_OPT_HANG,	/* it gave no answer in time */
	RED_OPT_BADOUT, /* its answer does not parse or changes the inputs */
} red_kind;

/* A failure worth reporting: refuted or any of the errors. */
static inline bool red_is_failure(red_kind k)
{
	return k >= RED_REFUTED;
}

const char *red_kind_name(red_kind k);

/* The optimizer under test, when it is not the built-in one (opt_run):
 * OPTIMIZE makes *OUT (caller frees) from IN and returns JP_OK.  When the
 * optimizer itself fails it returns JP_OK with *OUT = NULL, *FAIL the kind
 * (RED_OPT_CRASH, RED_OPT_HANG, RED_OPT_BADOUT, RED_OPT_ERROR), OBL a
 * short class of the failure ("crash exit 1", "bad output parse"; what the
 * reducer keeps the same) and ERR the message.  Any other status is a
 * failure of the tool (JP_ENOMEM ...), not of the optimizer. */
typedef struct red_optimizer {
	jp_status (*optimize)(void *self, const ir_trace *in, ir_trace **out,
			      red_kind *fail, char *obl, size_t oblsize,
			      jp_err *err);
	void *self;
} red_optimizer;

typedef struct red_env {
	ver_ctx *vc;	    /* the worker's verifier context */
	opt_config cfg;	    /* optimizer passes and injected bugs */
	ver_opts vo;	    /* verifier options (timeout, ...) */
	uint32_t max_evals; /* reduction budget in evaluations; 0 = 5000 */
	uint32_t max_ms;    /* reduction budget in wall time; 0 = none */
	/* When not NULL and set, red_reduce stops and returns the best
	 * trace found so far (an interrupted campaign). */
	const volatile sig_atomic_t *stop;
	/* The optimizer under test; NULL = the built-in one with CFG. */
	const red_optimizer *optimizer;
	/* Called after every candidate red_reduce judges (may be NULL):
	 * the ops of the current smallest trace and the candidates so far,
	 * for a progress display. */
	void (*progress)(void *ud, uint32_t ops_now, uint32_t evals);
	void *progress_ud;
} red_env;

/* Optimizer passes as configured, no bugs, a 2 s solver timeout. */
red_env red_default_env(ver_ctx *vc);

typedef struct red_outcome {
	red_kind kind;
	char obl[96];	/* kind of the failing/unknown obligation, normalized;
			   for errors the error status ("internal error") */
	char what[160]; /* the obligation as the verifier named it, or the
			   error message (first 159 bytes) */
	ir_trace *opt;	/* the optimized trace, or NULL (optimizer error) */
	bool have_res;	/* RES holds a verifier result */
	ver_result res;
	double ms_opt, ms_ver;
	uint64_t rules_fired; /* opt_stats.rules_fired of the optimization */
	/* The built-in optimizer's rule coverage of this optimization
	 * (opt_stats.rule_hits, .branch_hits); zero for an external one. */
	uint32_t rule_hits[OPT_RULE_COUNT];
	uint32_t branch_hits[OPT_BR_COUNT];
} red_outcome;

/* Optimizes and verifies ORIG.  Returns JP_OK with OUT filled in for every
 * classification above; an error return (JP_ENOMEM) leaves OUT empty. */
jp_status red_evaluate(const red_env *env, const ir_trace *orig,
		       red_outcome *out, jp_err *err);

void red_outcome_free(red_outcome *o);

/* Whether A and B are the same failure: same kind, same obligation kind. */
bool red_same_failure(const red_outcome *a, const red_outcome *b);

/* Strips the instance-specific words (those containing a digit: labels,
 * indices) from an obligation's description: "guard g3 (same condition)"
 * becomes "guard (same condition)". */
void red_normalize(const char *what, char *buf, size_t size);

typedef struct red_stats {
	uint32_t evals;			/* candidates judged */
	uint32_t accepted;		/* candidates kept */
	uint32_t ops_before, ops_after; /* ir_count_ops of the originals */
	double ms;
	bool complete; /* no candidate helped any more (not stopped by
			  a budget or STOP) */
} red_stats;

/* Shrinks ORIG, whose outcome is TARGET (a failure), to a small trace that
 * fails the same way.  *OUT gets the reduced original (caller frees) and
 * FINAL (may be NULL) its outcome.  ORIG itself is returned (as a copy)
 * when nothing smaller fails the same way. */
jp_status red_reduce(const red_env *env, const ir_trace *orig,
		     const red_outcome *target, ir_trace **out,
		     red_outcome *final, red_stats *st, jp_err *err);
/* MAX_MS bounds the whole reduction: no solver query of a candidate gets
 * a timeout longer than the budget left, so a reduction ends within about
 * its budget (a campaign's deadline holds). */

/* Rule blame (docs/fuzzing.md): the signature of a failure that needs
 * exactly the optimizer rules RULES (bit (1 << opt_rule)), e.g.
 * "neg-minint.refuted.rules.bounds-guard+simplify-additive". */
void red_rule_signature(uint64_t bugs, red_kind kind, uint64_t rules, char *buf,
			size_t size);

/* Whether SIG is a rule signature made by red_rule_signature for BUGS and
 * KIND; then *RULES gets its rules. */
bool red_parse_rule_signature(const char *sig, uint64_t bugs, red_kind kind,
			      uint64_t *rules);

/* The deduplication signature of a failure: the injected-bug set, the
 * failure kind, the class of the failing obligation (guard, output, end,
 * call; for errors the error status) and the distinct ops of the reduced
 * trace other than guards (the guards when there is nothing else), as a
 * readable string usable as a directory name, e.g.
 * "neg-minint.refuted.guard.int_neg-int_lt".  Long signatures are cut and
 * end in "~" and a hash of the whole. */
void red_signature(const ir_trace *reduced, const red_outcome *o, uint64_t bugs,
		   char *buf, size_t size);

#endif
