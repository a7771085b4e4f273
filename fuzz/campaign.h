/*
 * campaign.h - fuzzing campaigns: generate, optimize, verify, reduce, save.
 *
 * camp_run starts JOBS worker processes (fork).  Worker j draws the traces
 * of seed stream j: trace k has seed rng_derive(seed, j, k).  With
 * coverage feedback (camp_opts.cov_pct) a share of the traces are instead
 * mutations of traces that reached new rules or branches of the built-in
 * optimizer (fuzz/corpus.h); every trace has an identity (gen.h, "Trace
 * identities") that regenerates it alone (jitprove fuzz --replay ID), and
 * the corpus is kept in the state, so a resumed stream makes the same
 * traces as one run in one go.
 * Each worker has its own generator and verifier context, judges every
 * trace with red_evaluate, and reduces every failure with red_reduce.
 *
 * A failure is first blamed on the optimizer rules it needs (the smallest
 * set of the rules that fired which still fails with every other rule
 * off): that set is its signature, known signatures are counted and not
 * reduced.  A failure no rule is to blame for is reduced first and named
 * by red_signature.  Findings are saved as a bundle in
 * OUTDIR/findings/<signature>/ (original and optimized trace, the reduced
 * pair, the counterexamples, info.json with seeds, options and versions,
 * and repro.sh with the exact commands).  A bundle is written completely
 * under a temporary name and then renamed, so a bundle that exists is
 * complete, and renaming is also what makes deduplication safe between
 * workers: the second rename to the same name fails.  A finding is
 * reported (an event) only after its rename.  Unknowns go to
 * OUTDIR/unknown/ (up to a cap) and never count as proved.
 *
 * The parent process only collects: workers send fixed-size messages over
 * a pipe (counts, findings).  Progress -- the next trace index of every
 * stream and the running totals -- is written atomically to OUTDIR/state
 * about once a second; --resume reads it and continues every stream where
 * it stopped, with the stream-defining options (seed, generator options,
 * passes, bugs, timeout) taken from the state.  A worker that crashes is
 * reported as a finding of kind "crash" (its trace is regenerated from the
 * seed by the parent) and restarted after that trace.  Workers leave when
 * the parent dies (their next message fails or getppid changes).
 *
 * Library rules: nothing is printed; progress reaches the tool through the
 * ON_EVENT callback, called in the parent process only.
 */
#ifndef JP_FUZZ_CAMPAIGN_H
#define JP_FUZZ_CAMPAIGN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "fuzz/corpus.h"
#include "fuzz/extopt.h"
#include "fuzz/gen.h"
#include "ir/err.h"
#include "passes/opt.h"
#include "verify/check.h"

/* Counts of one session (or, in camp_summary.all, of every session). */
typedef struct camp_counts {
	uint64_t traces;  /* traces judged */
	uint64_t proved;  /* equivalent */
	uint64_t refuted; /* counterexample found */
	uint64_t unknown; /* undecided (solver timeout, unsupported) */
	uint64_t errors;  /* optimizer/verifier errors, invalid output,
			     crashes */
	uint64_t findings_new, findings_dup; /* failures, by novelty */
	uint64_t ops; /* ops generated (for the average length) */
	double ms_gen, ms_opt, ms_ver, ms_reduce; /* time per stage */
	double ms_blame; /* rule blame of failures (before reduction) */
	/* Reductions in progress (not saved in the state): how many, the
	 * ops they started from and are at now, candidates judged. */
	uint32_t reducing, red_ops_from, red_ops, red_evals;
	/* camp_opts.audit_rate: traces audited, and their obligations
	 * re-proved on the plain encoding (ver_result.audited...).  Not
	 * kept in the state: a resumed campaign counts its session. */
	uint64_t audit_traces, audited, audit_agreed, audit_disagreed,
	    audit_unknown;
	/* Rule coverage of the built-in optimizer (opt_stats.rule_hits and
	 * .branch_hits summed over the traces it optimized, cov_traces of
	 * them; an external optimizer has none).  Not kept in the state: a
	 * resumed campaign reports its session. */
	uint64_t cov_traces;
	uint64_t rule_hits[OPT_RULE_COUNT];
	uint64_t branch_hits[OPT_BR_COUNT];
	/* Coverage feedback (fuzz/corpus.h): the features (rule or branch
	 * and the bucket of its count) covered by the stream that covered
	 * most (added up, these are the most of any worker, not a union),
	 * and the traces judged that were mutations of corpus entries.
	 * Features are counted with feedback on or off. */
	uint32_t cov_features;
	uint64_t cov_mutants;
} camp_counts;

#define CAMP_SIG_MAX 200

typedef struct camp_finding {
	char sig[CAMP_SIG_MAX]; /* the bundle is OUTDIR/findings/<sig> */
	char kind[32];		/* red_kind_name, or "crash" */
	char what[160];		/* the failing obligation or error */
	uint64_t trace_seed;	/* the root seed of TRACE_ID */
	/* What regenerates the trace (gen.h, "Trace identities"): its seed,
	 * or for a mutated trace "SEED+CUT:SEED...";
	 * jitprove fuzz --replay takes it. */
	char trace_id[GEN_ID_TEXT];
	uint32_t stream;
	uint64_t index;
	uint32_t ops_orig, ops_reduced;
	double at_s;   /* seconds into the session when it was saved */
	uint64_t hits; /* how often it was hit this session */
	bool known;    /* the bundle existed before this session */
	bool partial;  /* the reduction was cut short (interrupted or out of
			  budget); jitprove reduce can go on */
} camp_finding;

typedef enum camp_event_kind {
	CAMP_EV_STATUS,	   /* periodic progress */
	CAMP_EV_FINDING,   /* a new finding was saved */
	CAMP_EV_DUPLICATE, /* a failure with a known signature */
	CAMP_EV_NOTE,	   /* a sentence worth showing (worker restarted...) */
} camp_event_kind;

typedef struct camp_event {
	camp_event_kind kind;
	const camp_counts *session; /* totals of this session so far */
	double elapsed;		    /* seconds */
	const camp_finding *finding;
	const char *note;
} camp_event;

typedef struct camp_opts {
	uint64_t seed;
	int jobs;	       /* worker processes, 1..256 */
	double seconds;	       /* 0 = no time limit */
	uint64_t count;	       /* traces this session over all jobs; 0 = none */
	uint32_t max_findings; /* stop after this many distinct failures
				  this session; 0 = no limit */
	gen_opts gen;
	opt_config cfg;
	unsigned timeout_ms; /* per solver query */
	/* The optimizer under test when it is an external command (each
	 * worker runs its own, fuzz/extopt.h); NULL = the built-in one with
	 * CFG. */
	const xo_config *optimizer;
	/* The share of traces (0..1) checked with ver_opts.audit, sampled
	 * from each trace's seed (so a replay audits the same traces).  A
	 * disagreement is saved as a finding of kind "audit" (unreduced) and
	 * counted as an error. */
	double audit_rate;
	/* Coverage feedback: the share (percent, 0..100) of traces that are
	 * mutations of the worker's corpus entries (fuzz/corpus.h); 0 = off.
	 * Stream-defining (kept in the state).  Ignored with an external
	 * optimizer (it reports no coverage). */
	uint32_t cov_pct;
	const char *outdir;
	bool resume;
	/* --seconds or --count given: a resumed campaign runs that long
	 * instead of the budget it has left. */
	bool limits_given;
	/* Start a new campaign in an OUTDIR that has a state file (its
	 * findings stay and count as known); without it camp_run refuses. */
	bool force;
	uint32_t reduce_ms;   /* budget of one reduction; 0 = 60000 */
	uint32_t max_unknown; /* unknowns saved per session; 0 = 200 */
	const char *cmdline;  /* the command line, for the bundles */
	/* Set by a signal handler: 1 = stop after the traces at hand
	 * (reductions stop early and save what they have), >= 2 = kill the
	 * workers now. */
	const volatile sig_atomic_t *stop;
	double status_every; /* seconds between CAMP_EV_STATUS; 0 = 1 */
	void (*on_event)(void *ud, const camp_event *ev);
	void *ud;
} camp_opts;

/* Seed 0, one job, 20 s, default generator/optimizer, 1 s timeout,
 * no coverage feedback (it costs throughput and bought no coverage on
 * the default profile: docs/performance.md), OUTDIR "jp-out". */
camp_opts camp_default_opts(void);

typedef struct camp_summary {
	camp_counts session; /* this session */
	camp_counts all;     /* all sessions of OUTDIR, this one included */
	double elapsed;	     /* seconds, this session */
	bool interrupted;    /* STOP was set before the limits were reached */
	bool resumed;
	/* The options actually used (after --resume loaded the state). */
	uint64_t seed;
	gen_opts gen;
	opt_config cfg;
	unsigned timeout_ms;
	int jobs;
	uint32_t cov_pct;   /* 0: no coverage feedback */
	uint32_t nfindings; /* distinct failures hit this session */
	camp_finding *findings;
	uint32_t known_before; /* bundles present before the session */
} camp_summary;

/* For --resume: reads OUTDIR/state into O (seed, generator options,
 * passes, bugs, timeout and, unless O->limits_given, the budget left:
 * --seconds minus the time run, or --count minus the traces judged).
 * Errors: JP_EINPUT with file:line, what was expected and what was found;
 * a budget used up is an error that says how to go on. */
jp_status camp_resume_opts(camp_opts *o, jp_err *err);

/* Runs a campaign.  Errors: JP_EINPUT (bad options, unreadable state,
 * OUTDIR/state exists and neither resume nor force is set),
 * JP_EIO (the output directory), JP_ENOMEM, JP_EINTERNAL (fork).  SUM is
 * filled on success; free it with camp_summary_free. */
jp_status camp_run(const camp_opts *o, camp_summary *sum, jp_err *err);

void camp_summary_free(camp_summary *s);

/* The seed of trace INDEX of stream STREAM (with coverage feedback, the
 * trace is a fresh trace of this seed or a mutation whose last step has
 * it). */
uint64_t camp_trace_seed(uint64_t seed, uint32_t stream, uint64_t index);

/* Appends the options that regenerate a trace, as jitprove arguments:
 * "--profile all --length 10-50 --inputs 1-4 --width 64 --inject x
 * --timeout-ms 2000" (passes and bugs only when not the default). */
void camp_format_options(const gen_opts *g, const opt_config *cfg,
			 unsigned timeout_ms, strbuf *sb);

/* Whether the verifier can judge heap traces (it answers a tiny heap
 * pair with something else than JP_EUNSUPPORTED).  Campaigns generate heap
 * ops only when it can; otherwise every heap trace would be unknown. */
bool camp_verifier_has_heap(ver_ctx *vc);

/* The Z3 version as "4.8.12". */
void camp_z3_version(char *buf, size_t size);

#endif
