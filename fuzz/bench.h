/*
 * bench.h - the benchmark behind `jitprove bench`.
 *
 * bench_run measures, from fixed seeds and in one run, what decides how
 * many bugs an overnight campaign finds:
 *  - check throughput: pairs (original, optimizer output) per second at
 *    fixed trace lengths (10, 30, 100, 300, 1000 ops), and from that how
 *    check time scales with length;
 *  - campaign throughput per generator profile: the worker's loop
 *    (generate, optimize, verify with the example inputs screened first)
 *    run in this process, with the time of every stage and how the
 *    obligations were settled (identical terms, concrete screening, Z3's
 *    rewriter, the solver, unknown); plus one real camp_run to show the
 *    end-to-end rate including process and bookkeeping overhead;
 *  - memory: peak RSS (getrusage ru_maxrss) of a campaign slice, run in a
 *    child process so that nothing this process did before counts, sampled
 *    at several points to show whether it stays flat;
 *  - time to find each injected bug: camp_run with --inject per bug and a
 *    few campaign seeds, the median time to the first finding.
 *
 * The same options give the same traces on every machine (every trace is
 * drawn from fixed seeds); times of course depend on the machine.
 *
 * Library rules: nothing is printed; progress notes reach the caller
 * through ON_NOTE.  Camp_run needs a scratch directory: bench_run creates
 * one under TMPDIR (or /tmp) and removes it.  Errors: JP_ENOMEM, JP_EIO
 * (scratch directory, fork), or the status of a generator, optimizer or
 * verifier failure (which is itself a bug worth reporting).
 */
#ifndef JP_FUZZ_BENCH_H
#define JP_FUZZ_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/gen.h"
#include "ir/err.h"
#include "ir/strbuf.h"
#include "passes/opt.h"

#define BENCH_NLENGTHS	      5	 /* 10, 30, 100, 300, 1000 ops */
#define BENCH_MAX_MEM_SAMPLES 16 /* RSS samples of the memory slice */
#define BENCH_MAX_KINDS	      12 /* obligation kinds tracked per stream */
#define BENCH_NCHAINS	      3	 /* 10,000, 100,000, 400,000 ops */

typedef enum bench_section {
	BENCH_SEC_CHECK = 1u << 0,    /* check throughput and scaling */
	BENCH_SEC_CAMPAIGN = 1u << 1, /* per-profile throughput, stages */
	BENCH_SEC_MEMORY = 1u << 2,   /* RSS of a campaign slice */
	BENCH_SEC_BUGS = 1u << 3,     /* time to find each injected bug */
	BENCH_SEC_CHAIN = 1u << 4,    /* long int_add chains (bench_chain.c) */
	BENCH_SEC_ALL = 31u,
} bench_section;

typedef struct bench_opts {
	uint64_t seed;		 /* the fixed seed set derives from it */
	unsigned sections;	 /* bench_section bits */
	unsigned timeout_ms;	 /* per solver query (default 500) */
	int width;		 /* integer width (default 64) */
	uint32_t check_pairs;	 /* pairs per length (default 20) */
	double check_seconds;	 /* cap per length (default 20 s) */
	uint32_t max_length;	 /* skip lengths above this (default 1000) */
	uint32_t campaign_len;	 /* ops per trace in the campaign runs (30) */
	double campaign_seconds; /* per profile (default 10 s) */
	/* Profile "all" runs at least this many traces, however long that
	 * takes: the unknown-rate target (0.1%) cannot be judged on a few
	 * thousand traces, where one trace moves the rate by 0.03%.
	 * Default 20,000 (about a minute); 0 = the time cap alone. */
	uint64_t unknown_traces;
	uint64_t memory_traces; /* traces of the memory slice (default 500) */
	double memory_seconds;	/* cap of the memory slice; 0 = none */
	uint32_t bug_seeds;	/* campaign seeds per bug (default 3) */
	double bug_seconds;	/* cap per bug and seed (default 30 s) */
	uint64_t bugs;		/* bug mask to time; 0 = every bug */
	uint32_t chain_max;	/* longest chain (default 400,000 ops) */
	void (*on_note)(void *ud, const char *note); /* may be NULL */
	void *ud;
} bench_opts;

/* One long chain: parse, optimize and check times (the check settles
 * its one obligation by identity; see bench_chain.c). */
typedef struct bench_chain {
	uint32_t ops;
	double ms_parse, ms_opt, ms_check;
	int verdict; /* ver_verdict */
} bench_chain;

/* The full configuration (a run of several minutes on a 2-core machine). */
bench_opts bench_default_opts(void);
/* --quick: fewer pairs, shorter caps (the long lengths get one or two
 * pairs), about a minute in all. */
void bench_make_quick(bench_opts *o);

/* Check throughput at one length. */
typedef struct bench_len {
	uint32_t len;	 /* ops asked of the generator */
	uint32_t pairs;	 /* pairs checked (may be < check_pairs: cap) */
	double ops_avg;	 /* average ops of the originals */
	double ms_total; /* ver_check time over all pairs */
	double ms_median, ms_max; /* per pair */
	/* The slowest pair: `jitprove gen --seed MAX_SEED --length LEN
	 * --no-heap` makes its original again, for profiling. */
	uint64_t max_seed;
	uint32_t proved, refuted, unknown;
} bench_len;

/* Stage times and obligation counts of a stream of judged traces. */
typedef struct bench_stream {
	uint64_t traces, proved, refuted, unknown, errors;
	double seconds; /* wall time of the loop */
	double ms_gen, ms_opt, ms_ver;
	double ms_screen, ms_encode, ms_solve; /* parts of ms_ver */
	uint64_t obl, by_identity, by_concrete, by_range, by_rewrite, by_solver;
	uint64_t solver_calls, obl_unknown;
	/* Where the solver's time goes: obligations settled by the solver
	 * or left unknown, by kind (red_normalize of the description). */
	uint32_t nkinds;
	struct bench_kind {
		char kind[64];
		uint64_t n, unknown;
		double ms;
	} kinds[BENCH_MAX_KINDS];
} bench_stream;

typedef struct bench_mem_sample {
	uint64_t traces;
	double seconds;
	long maxrss_kb;	  /* ru_maxrss so far */
	long workers_kb;  /* largest ru_maxrss of a solver child so far
			     (ver_opts.isolate); it counts the memory the
			     child shares with the slice, so the larger of
			     the two is the slice's footprint */
	long cur_rss_kb;  /* resident now (/proc/self/statm), -1 if unknown */
	uint64_t unknown; /* traces judged unknown so far */
} bench_mem_sample;

typedef struct bench_bug {
	char name[48];
	uint32_t runs, found;
	double times[16];    /* seconds to the first finding; < 0: none */
	uint64_t traces[16]; /* traces judged until then (or in all) */
	double median_s;     /* < 0 when most runs found nothing */
	uint64_t median_traces;
} bench_bug;

typedef struct bench_result {
	bench_opts opts;
	char machine_cpu[128];
	long nproc;
	char z3_version[32];
	double seconds; /* the whole run */
	/* check */
	uint32_t nlens;
	bench_len lens[BENCH_NLENGTHS];
	double scale_1000_vs_30; /* ms per pair ratio; 0 when not measured */
	/* campaign */
	bench_stream profiles[GEN_PROFILE_COUNT];
	bool have_profiles;
	double camp_traces_per_s; /* one real camp_run, default profile */
	uint64_t camp_traces;
	double camp_seconds;
	/* memory */
	uint32_t nmem;
	bench_mem_sample mem[BENCH_MAX_MEM_SAMPLES];
	/* bugs */
	uint32_t nbugs;
	bench_bug bugs[OPT_BUG_COUNT];
	/* long chains */
	uint32_t nchains;
	bench_chain chains[BENCH_NCHAINS];
} bench_result;

/* The long-chain section (bench_chain.c), run by bench_run. */
jp_status bench_chains(const bench_opts *o, bench_result *res, jp_err *err);

/* Runs the sections O asks for.  RES is filled (zeroed first). */
jp_status bench_run(const bench_opts *o, bench_result *res, jp_err *err);

/* The results as one JSON object (keys documented in docs/performance.md). */
void bench_json(const bench_result *res, strbuf *sb);
/* The results as terminal tables, with the targets of issue 9. */
void bench_table(const bench_result *res, strbuf *sb);

#endif
