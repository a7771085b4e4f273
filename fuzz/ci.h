/*
 * ci.h - checking a corpus of trace pairs against stated expectations.
 *
 * This is the library side of `jitprove ci`: it finds the cases under the
 * given paths, checks each one (optimizing single traces with the built-in
 * optimizer first), compares the verdict with the case's expectation, and
 * sums up.  Reports are written by fuzz/report.h; the exit code is chosen
 * by the tool from ci_overall_of.
 *
 * Cases.  Walking a directory (recursively, entries in byte order, names
 * starting with '.' skipped):
 *   - a directory holding both orig.trace and opt.trace is a pair case,
 *     named by the directory; its expect file is DIR/expect, and it may
 *     also have an options file DIR/options (ci_parse_options).  Other .trace
 *     files in that directory are not cases (they are usually notes such
 *     as a reduced version);
 *   - any other file X.trace is a single case: it is optimized with
 *     opt_run(opt_default_config()) and the result is checked against it;
 *     its expect file is X.expect beside it.
 * A path naming a file X.trace is a single case.
 *
 * Expect files (docs/ci.md has the reference).  One directive per line,
 * '#' starts a comment:
 *   proved | counterexample | unknown | error   the required verdict
 *                                               (default: proved)
 *   width W          parse and check at width 8, 16, 32 or 64
 *   mode M           auto, aligned or trace
 *   rlimit N         Z3 resource limit per query
 *   timeout-ms N     solver timeout per query
 *   failargs         also compare fail-args at aligned guards
 *   opaque           read unknown operations as opaque calls
 *   inject BUGS      single traces: inject these optimizer bugs
 *   passes LIST      single traces: run only these passes
 * A malformed expect file makes the case an error, located at the line.
 *
 * Statuses.  A case passes when its verdict equals the expectation.
 * Otherwise: a verdict of error is CI_ST_ERROR, a verdict of unknown is
 * CI_ST_UNKNOWN (subject to the unknown budget), anything else (a
 * refutation where a proof was expected, a proof where a counterexample
 * was expected, ...) is CI_ST_FAIL.
 *
 * Parallelism.  With jobs > 1, ci_run forks worker processes and hands
 * out case indices one at a time; results come back over pipes and are
 * stored by case index.  Every case is checked in a fresh verifier
 * context, so its result never depends on which cases the same process
 * checked before; the results (and every report built from them) are
 * therefore the same as with one job, except for the times.  ci_run must
 * be called before anything in the process has created a Z3 context.
 *
 * Ownership: a ci_caselist owns its cases and their strings; a ci_result
 * owns its strings (ci_result_free).  The cache is borrowed.
 */
#ifndef JP_FUZZ_CI_H
#define JP_FUZZ_CI_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/cache.h"
#include "ir/err.h"
#include "verify/check.h"

typedef enum ci_kind {
	CI_PAIR,   /* NAME/orig.trace + NAME/opt.trace */
	CI_SINGLE, /* one trace, optimized by the built-in optimizer */
} ci_kind;

/* A verdict, as expected or as obtained. */
typedef enum ci_verdict {
	CI_PROVED,
	CI_COUNTEREXAMPLE,
	CI_UNKNOWN,
	CI_ERROR,
} ci_verdict;

typedef enum ci_status {
	CI_ST_PASS,    /* the verdict is the expected one */
	CI_ST_FAIL,    /* a definite verdict other than the expected one */
	CI_ST_UNKNOWN, /* unknown where something else was expected */
	CI_ST_ERROR,   /* error where something else was expected */
} ci_status;

typedef struct ci_case {
	ci_kind kind;
	char *name;    /* pair: the directory; single: the trace file */
	char *orig;    /* the original trace file */
	char *opt;     /* pair: the optimized trace file; single: NULL */
	char *expect;  /* the expect file, or NULL when there is none */
	char *options; /* pair: DIR/options when it exists, else NULL */
	uint32_t root; /* index of the path argument it was found under */
} ci_case;

typedef struct ci_caselist {
	ci_case *v;
	uint32_t n, cap;
	uint32_t found; /* cases found, including those named twice */
} ci_caselist;

/* Appends the cases under PATH (a directory or a .trace file) to L, with
 * root index ROOT.  Errors: JP_EIO (PATH cannot be read), JP_EINPUT (PATH
 * is neither a directory nor a .trace file), JP_ENOMEM. */
jp_status ci_discover(const char *path, uint32_t root, ci_caselist *l,
		      jp_err *err);
void ci_caselist_free(ci_caselist *l);

/* The contents of an expect file. */
typedef struct ci_expect {
	ci_verdict verdict;
	bool has_verdict;
	int width; /* 0: not given (64) */
	ver_mode mode;
	bool has_mode;
	unsigned rlimit, timeout_ms;
	bool has_rlimit, has_timeout;
	bool failargs, opaque;
	uint64_t bugs; /* opt_bug mask, single traces only */
	uint64_t passes;
	bool has_passes;
} ci_expect;

/* Parses an expect file's TEXT; FILE is used in messages.  KIND decides
 * whether inject/passes are allowed.  Errors: JP_EINPUT located at the
 * offending line and column. */
jp_status ci_parse_expect(const char *text, size_t len, const char *file,
			  ci_kind kind, ci_expect *out, jp_err *err);

/* Parses an options file, the form `jitprove check --corpus` reads beside
 * a pair: the same settings written as options ("--width 8 --failargs
 * --mode trace"), no verdicts.  When a pair has both, the options file is
 * read first and the expect file's settings win. */
jp_status ci_parse_options(const char *text, size_t len, const char *file,
			   ci_kind kind, ci_expect *out, jp_err *err);

/* The wall-clock timeout when a resource limit is set: with an rlimit, a
 * query's answer depends only on the query, not on how loaded the machine
 * is, so the rlimit decides and the timeout only catches a runaway query
 * (docs/ci.md, "Limits").  ci_prefer_rlimit raises VO's timeout_ms to at
 * least CI_SAFETY_MS when VO has an rlimit (a timeout of 0, none, stays
 * 0); without an rlimit it changes nothing.  `jitprove ci` applies it to
 * every case, `jitprove check` to its pair and to every --corpus pair. */
enum { CI_SAFETY_MS = 120000 };
void ci_prefer_rlimit(ver_opts *vo);

typedef struct ci_config {
	ver_opts vopts;	 /* per-case settings start from these */
	pc_cache *cache; /* NULL: no cache */
	unsigned jobs;	 /* worker processes; 0 or 1 = check in-process */
} ci_config;

typedef enum ci_cache_use {
	CI_CACHE_OFF,  /* no cache, or the case never reached the verifier */
	CI_CACHE_HIT,  /* the verdict came from the cache */
	CI_CACHE_MISS, /* the verifier ran */
} ci_cache_use;

typedef struct ci_result {
	ci_verdict got, expected;
	ci_status status;
	char *message;	/* error: the located error message */
	char *what;	/* counterexample: the failing obligation;
			   unknown: the reason, when the verifier gave one */
	char *cex;	/* counterexample: the report */
	char *json;	/* the verifier's JSON result, or NULL */
	char *loc_file; /* counterexample: where the failing op is;
			   error: the file the error is about; else NULL */
	int loc_line;	/* 1-based, 0 when unknown */
	char *warning;	/* something worth showing that did not decide the
			   case (e.g. the cache could not be written) */
	ci_cache_use cache;
	uint32_t solver_calls;
	double ms; /* wall-clock time of the case */
} ci_result;

void ci_result_free(ci_result *r);

/* Checks every case of L; OUT has room for l->n results, filled in case
 * order.  Case problems never make this fail: they become results with
 * verdict CI_ERROR.  Errors: JP_ENOMEM, JP_EINTERNAL (fork or pipe
 * failed). */
jp_status ci_run(const ci_caselist *l, const ci_config *cfg, ci_result *out,
		 jp_err *err);

/* The budget of unknowns: at most LIMIT cases, or at most LIMIT percent of
 * the cases. */
typedef struct ci_budget {
	bool percent;
	double limit;
} ci_budget;

/* Parses "N" or "P%".  Errors: JP_EINPUT. */
jp_status ci_parse_budget(const char *s, ci_budget *b, jp_err *err);
bool ci_budget_exceeded(const ci_budget *b, uint32_t unknown, uint32_t total);

/* The outcome of the fuzz smoke campaign (ci_fuzz_smoke). */
typedef struct ci_fuzz {
	bool ran;
	double seconds;
	uint64_t seed;
	uint64_t traces, proved, refuted, unknown, errors;
	uint32_t nfindings;
	char *findings; /* one line per distinct failure, or NULL */
	char *outdir;	/* where the campaign saved its bundles */
	char *error;	/* the campaign could not run: why; else NULL */
	double ms;
} ci_fuzz;

typedef struct ci_fuzz_opts {
	double seconds;	     /* the time box */
	uint64_t seed;	     /* fixed, so a finding can be regenerated */
	int jobs;	     /* campaign worker processes */
	unsigned timeout_ms; /* per solver query; 0 = the campaign's default */
	uint64_t bugs;	     /* opt_bug mask injected into the optimizer */
	const char *outdir;  /* where findings are saved */
	const char *cmdline; /* recorded in the findings' bundles */
} ci_fuzz_opts;

/* Runs the campaign (fuzz/campaign.h) with the built-in optimizer.
 * Never fails: a campaign that cannot run is recorded in F->error. */
void ci_fuzz_smoke(const ci_fuzz_opts *o, ci_fuzz *f);
void ci_fuzz_free(ci_fuzz *f);

typedef struct ci_summary {
	uint32_t cases, passed, failed, errors, unknown;
	bool unknown_over; /* the unknowns exceed the budget */
	uint32_t cache_hits, cache_misses, solver_calls;
	bool fuzz_failed, fuzz_error;
} ci_summary;

/* Sums up N results (and F, which may be NULL) under budget B. */
void ci_summarize(const ci_result *r, uint32_t n, const ci_fuzz *f,
		  const ci_budget *b, ci_summary *s);

/* What the run amounts to; the tool maps it to an exit code.  Failures
 * outrank errors, which outrank unknowns over the budget. */
typedef enum ci_overall {
	CI_ALL_MET,	 /* every case met its expectation */
	CI_ANY_FAILED,	 /* a refutation or a missed expectation */
	CI_ANY_ERROR,	 /* no failure, but an error */
	CI_UNKNOWN_OVER, /* only unknowns, more than the budget allows */
} ci_overall;

ci_overall ci_overall_of(const ci_summary *s);

const char *ci_verdict_name(ci_verdict v);
const char *ci_status_name(ci_status s);
const char *ci_cache_name(ci_cache_use c);

#endif
