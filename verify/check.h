/*
 * check.h - proving that an optimized trace behaves like the original.
 *
 * ver_check decides, for every input (and, for heap traces, every initial
 * heap and every behaviour of the escaping calls), whether OPT behaves
 * exactly like ORIG.  The obligations of aligned mode, trace mode and the
 * counterexample format are described in docs/verifier.md.
 *
 * Soundness rules this module keeps:
 *  - VER_PROVED only when every obligation was proved (by identical terms,
 *    or by the solver answering unsat).  A timeout or resource limit gives
 *    VER_UNKNOWN, never VER_PROVED.
 *  - VER_REFUTED only with a counterexample that was replayed on the
 *    concrete interpreter (ir/interp.h) and really makes the traces
 *    diverge.  A model that does not replay is JP_EINTERNAL.
 *
 * Ownership: a ver_ctx holds one reference-counted Z3 context and is
 * recycled internally so memory stays flat over millions of checks; make
 * one per process or worker thread, never share one between threads.  A
 * ver_result owns its strings and arrays; ver_result_free releases them.
 */
#ifndef JP_VERIFY_CHECK_H
#define JP_VERIFY_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/strbuf.h"
#include "ir/trace.h"

/* Bumped whenever a change to the encoding or the obligations could change
 * a verdict; the proof cache (fuzz/cache.h) keys on it, so old entries
 * are not reused after such a change. */
#define VER_ENCODER_VERSION 2

typedef enum ver_mode {
	VER_MODE_AUTO,	   /* aligned by labels; inferred or trace mode when
			      OPT has no labels (see docs/verifier.md) */
	VER_MODE_ALIGNED,  /* guard by guard, paired by label */
	VER_MODE_TRACE,	   /* whole-trace equivalence, no alignment */
	VER_MODE_INFERRED, /* only as ver_result.mode_used: aligned with a
			      guard pairing inferred in order (AUTO mode,
			      OPT without labels) */
} ver_mode;

typedef enum ver_verdict {
	VER_PROVED,
	VER_REFUTED,
	VER_UNKNOWN,
} ver_verdict;

typedef struct ver_opts {
	int width; /* 0: the traces' own width */
	ver_mode mode;
	bool failargs;	     /* also compare fail-args at aligned guards */
	unsigned timeout_ms; /* per solver query, wall clock; 0 = none */
	unsigned rlimit;     /* per query, Z3 resource limit; 0 = none */
	unsigned memory_mb;  /* per query, cap on Z3's memory (MB of its
				process-wide total, verify/z3ctx.h); over
				it the query is unknown; 0 = none.  A
				query in a child process (isolate) gets
				twice this: it inherits the parent's
				total */
	/* Wall-clock budget of the whole pair in ms, 0 = none: once spent,
	 * the obligations not yet asked are unknown ("the pair's time
	 * budget ... ran out").  Checked before each obligation, so a pair
	 * may overrun it by one obligation's queries. */
	unsigned budget_ms;
	unsigned screen_inputs; /* random/edge inputs run concretely first */
	uint64_t seed;		/* for the random screening inputs */
	const char *smt2_dir;	/* write each query there, or NULL */
	const char *solver_cmd; /* second solver to re-check queries, or NULL */
	bool self_check;	/* cross-check encoder against interpreter */
	/* Re-prove every proved obligation (except those whose two sides
	 * are one term of the plain encoding) with Z3 on the plain encoding:
	 * every op by enc_op/enc_guard, no folding, peepholes, ranges,
	 * facts, lemmas, refolding or abstraction.  Plain Z3 finding a
	 * model where the verifier said proved is a disagreement: the
	 * verdict is then VER_UNKNOWN with the reason "audit
	 * disagreement: ...", never VER_PROVED (docs/trust.md).  Integer
	 * pairs only: heap pairs (verify/heap.h) are not audited. */
	bool audit;
	/* Example inputs (e.g. from '# args:' comments), screened first:
	 * NEXAMPLES vectors of ninputs canonical values each, flattened. */
	const uint64_t *examples;
	uint32_t nexamples;
	bool simplify; /* simplify counterexamples (default true) */
	/* Keep the first solver model of a heap pair that did not replay
	 * on the interpreter (the obligation is then unknown) as text in
	 * ver_result.unconfirmed_text: its inputs, heap, calls, both runs
	 * and the heap fields the model makes differ (default false). */
	bool explain;
	/* Run the fallback solver's queries, the ones that bit-blast
	 * multipliers and dividers, in a forked child (verify/isolate.h)
	 * with a hard memory ceiling and a deadline, so that a query that
	 * blows up costs the caller no memory (default true; the libFuzzer
	 * targets turn it off). */
	bool isolate;
	/* Only a proof is of use for a heap pair (verify/heap.h): the caller
	 * reports its refutations as unknown (jitprove log, whose heap
	 * counterexamples rest on a guessed pairing).  Such a pair stops at
	 * its first obligation that is not proved, with that obligation's
	 * reason, instead of asking the rest: the verdict of this try is
	 * unknown either way.  Only a later replay's pairing of fresh
	 * objects (the hint of ver_check's second try) could still help, so
	 * an obligation left without a model (a timeout, a solver that
	 * died) stops the first try only once a hint is there; one whose
	 * model was replayed stops it, and the second try stops at once
	 * (default false). */
	bool heap_proof_only;
	/* Names of the traces in error messages (file names); NULL gives
	 * "original trace" / "optimized trace". */
	const char *orig_name, *opt_name;
	/* Called (when not NULL) as a check goes through its stages: before
	 * each trace is encoded and before each obligation, with a short
	 * note ("encoding the original trace (400000 ops)", "obligation 3
	 * of 7: ...").  For a progress display on long traces; the note is
	 * only valid during the call. */
	void (*on_progress)(void *ud, const char *note);
	void *progress_ud;
} ver_opts;

/* The default ver_opts.memory_mb, as a number and as text for help
 * messages (z3ctx.c has the measurements behind it). */
#define VER_DEFAULT_MEMORY_MB	   48u
#define VER_DEFAULT_MEMORY_MB_TEXT "48"

/* Defaults: auto mode, 10 s timeout, no rlimit, memory cap
 * VER_DEFAULT_MEMORY_MB, 32 screening inputs, counterexamples simplified,
 * no self-check. */
ver_opts ver_default_opts(void);

/* How an obligation was settled. */
typedef enum ver_how {
	VER_BY_IDENTITY, /* both sides are the same term */
	VER_BY_CONCRETE, /* refuted by concrete screening */
	VER_BY_SOLVER,	 /* Z3 (unsat = proved, sat = refuted) */
	VER_BY_NONE,	 /* unknown */
	VER_BY_REWRITE,	 /* Z3's rewriter (Z3_simplify) turns the negated
			    goal into false: no search needed */
	VER_BY_RANGE,	 /* the verifier's range analysis (verify/range.h):
			    the guard certainly passes, or both values are
			    the same constant */
} ver_how;

typedef struct ver_obligation {
	char *what; /* "guard g3 (equivalent)", "output 2", ... */
	ver_verdict status;
	ver_how how;
	double ms;
	bool checked; /* false: not examined, the verdict was already
			 known (status is then VER_UNKNOWN) */
} ver_obligation;

typedef struct ver_result {
	ver_verdict verdict;
	ver_mode mode_used;
	uint32_t nobl;
	ver_obligation *obl;
	int32_t failed; /* index of the failing/unknown obligation, or -1 */
	/* Counterexample (VER_REFUTED): input values in canonical form. */
	uint32_t ninputs;
	uint64_t *inputs;
	char *cex_text; /* the human-readable report: inputs, both traces
			   with values, first divergence; NULL if none */
	/* A heap pair's counterexample where ORIG's run left at a guard:
	 * that guard's op index in ORIG (callers that name why a
	 * counterexample is not believed look at it: cmd_log.c). */
	bool cex_orig_guarded;
	uint32_t cex_orig_guard;
	char **input_names; /* ninputs names (of ORIG), for reports */
	char *input_kinds;  /* ninputs letters: 'i' int, 'r' ref */
	int width;
	char *reason; /* VER_UNKNOWN: why the solver gave up */
	/* With ver_opts.explain: the first model that did not replay, as
	 * text (NULL if none). */
	char *unconfirmed_text;
	/* Statistics. */
	uint32_t by_identity, by_concrete, by_solver, solver_calls;
	uint32_t by_rewrite;
	uint32_t by_range;
	uint32_t second_checked;      /* queries re-checked by solver_cmd */
	uint32_t second_inconclusive; /* ... where it gave no sat/unsat */
	uint32_t slow_queries;	  /* queries passed to the fallback solver */
	uint32_t sliced;	  /* ... first asked with part of their
				   * assumptions (verify/slice.h) */
	uint32_t abstract_calls;  /* queries asked with multipliers hidden */
	uint32_t abstract_proved; /* ... and proved that way */
	uint32_t isolated;	  /* slow queries run in a child process */
	uint32_t isolated_lost;	  /* ... that was killed or died: unknown */
	uint32_t lemmas;	  /* OPT values proved equal to ORIG ones */
	uint32_t lemma_queries;	  /* solver queries spent on them */
	/* ver_opts.audit: obligations re-proved on the plain encoding, and
	 * how: unsat (agreed), a model (disagreed: an internal error), or
	 * no answer in the budget (unknown, not a disagreement). */
	uint32_t audited, audit_agreed, audit_disagreed, audit_unknown;
	double ms_total, ms_encode, ms_solve, ms_screen;
} ver_result;

typedef struct ver_ctx ver_ctx;

ver_ctx *ver_ctx_new(jp_err *err);
void ver_ctx_free(ver_ctx *c);

/* The Z3 context is rebuilt every EVERY checks (default 2000) so that Z3's
 * caches cannot grow without bound; ver_ctx_rebuilds says how often that
 * happened.  For tests and long-running workers. */
void ver_ctx_set_recycle(ver_ctx *c, unsigned every);
unsigned ver_ctx_rebuilds(const ver_ctx *c);

/* Checks the pair.  Errors (JP_EINPUT: the traces do not fit together,
 * e.g. different inputs; JP_EUNSUPPORTED; JP_EINTERNAL: encoder bug or
 * solver disagreement) leave RES with no verdict. */
jp_status ver_check(ver_ctx *c, const ir_trace *orig, const ir_trace *opt,
		    const ver_opts *opts, ver_result *res, jp_err *err);

void ver_result_free(ver_result *res);

/* Tries CMD as a second solver (ver_opts.solver_cmd) on two tiny SMT-LIB
 * queries, one sat and one unsat.  JP_EINPUT naming CMD and what it
 * printed unless it answers both correctly (a command that cannot run, or
 * that prints anything else); JP_EIO when no temporary file can be made.
 * Callers run it once, before checking any pair. */
jp_status ver_solver_probe(const char *cmd, jp_err *err);

const char *ver_verdict_name(ver_verdict v);
const char *ver_mode_name(ver_mode m);
const char *ver_how_name(ver_how h);

/* Appends the result as one JSON object. */
void ver_result_json(const ver_result *res, strbuf *sb);

#endif
