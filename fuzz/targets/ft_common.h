/*
 * ft_common.h - what the libFuzzer targets (fuzz_parse, fuzz_pipeline,
 * fuzz_check) share: turning bytes into traces, input vectors worth running,
 * concrete differential runs, and reporting a finding.
 *
 * A libFuzzer target reports a finding by crashing, so ft_finding prints the
 * reproducer to stderr and calls abort(); that is the only place these
 * targets stop the process on purpose.  Everything else follows the library
 * convention (jp_status, jp_err).
 *
 * Byte-driven decoding: ft_decode_trace reads the generator's options and
 * then every generator choice from a byte-driven rng (util/rng.h), so any
 * byte string -- including the empty one -- decodes to a valid trace, and a
 * one-byte mutation changes one choice.  The first bytes choose the width
 * (one byte), the profile (one byte), whether heap ops are allowed (one
 * byte, only when heap traces are enabled), then the generator's own
 * choices follow (number of inputs, length, actions, operands, ...).
 *
 * Environment (read once, by ft_env_get):
 *   JITPROVE_INJECT     bugs to inject into the optimizer ("add-wrap-bounds",
 *                       a comma list, or "none"); unknown names abort with
 *                       the list of valid ones
 *   JITPROVE_PASSES     optimizer passes (default "all")
 *   JITPROVE_SLOW_EVERY run the Z3 tier on 1 input in N (default 32; 0 =
 *                       never, 1 = always); the choice is a hash of the input
 *                       bytes, so a reproducer replays the same way
 *   JITPROVE_RLIMIT     Z3 resource limit per query (default 200000, about
 *                       60 ms of solving without sanitizers); the limit, not
 *                       the clock, bounds the solver, so a verdict depends
 *                       only on the input
 *   JITPROVE_TIMEOUT_MS wall-clock safety net per query (default 10000; 0 =
 *                       none), far above what the rlimit allows, so it only
 *                       fires on a badly overloaded machine (an unknown
 *                       verdict, never a finding)
 *   JITPROVE_HEAP       heap traces (ref inputs, objects, fields, calls):
 *                       "auto" (default) when the verifier models the heap,
 *                       "1" always (the Z3 tier then skips what it cannot
 *                       model), "0" never
 *   JITPROVE_REPRO_DIR  where findings write their trace files (default ".")
 *   JITPROVE_FUZZ_QUIET set to 1 to not print the reproducer (tests)
 *   JITPROVE_FUZZ_STATS set to 1 to print the counters below at exit
 *
 * Ownership: traces returned here belong to the caller (ir_trace_free); an
 * ft_inputs owns its vectors (ft_inputs_free).
 */
#ifndef JP_FUZZ_TARGETS_FT_COMMON_H
#define JP_FUZZ_TARGETS_FT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz/gen.h"
#include "util/rng.h"
#include "ir/err.h"
#include "ir/interp.h"
#include "ir/strbuf.h"
#include "ir/trace.h"
#include "passes/opt.h"
#include "verify/check.h"

/* The libFuzzer entry points every target defines.  The replay driver
 * (replay_main.c) calls them when the target is built without libFuzzer. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct ft_env {
	opt_config cfg;	     /* passes and injected bugs */
	const char *inject;  /* JITPROVE_INJECT as given, or "none" */
	const char *passes;  /* JITPROVE_PASSES as given, or "all" */
	uint32_t slow_every; /* 0 = never */
	unsigned rlimit;
	unsigned timeout_ms;
	int heap; /* 0 off, 1 on, 2 auto: see ft_heap_enabled */
	const char *repro_dir;
	bool quiet;
} ft_env;

/* What a run did, printed at exit when JITPROVE_FUZZ_STATS=1 (to calibrate
 * JITPROVE_RLIMIT and see how much the slow tier decides). */
typedef struct ft_counters {
	uint64_t inputs; /* inputs run */
	uint64_t runs;	 /* concrete differential runs */
	uint64_t checks; /* ver_check calls */
	uint64_t proved, refuted, unknown;
	uint64_t ops_in, ops_out; /* non-marker ops before/after opt_run */
} ft_counters;

/* The process's counters; the first call registers the exit report. */
ft_counters *ft_counters_get(void);

/* The environment, parsed on first use.  A malformed variable is a usage
 * error of the fuzzing run: it prints why and exits with status 2 (the
 * only other place a target stops the process). */
const ft_env *ft_env_get(void);

/* FNV-1a of the bytes: decides deterministically which inputs take the slow
 * tier, and names reproducer files. */
uint64_t ft_hash(const uint8_t *data, size_t size);

/* Whether targets generate heap traces: JITPROVE_HEAP, with "auto" asking
 * the verifier VC whether it models the heap (camp_verifier_has_heap). */
bool ft_heap_enabled(ver_ctx *vc);

/* Whether T has an op that touches the heap. */
bool ft_has_heap_ops(const ir_trace *t);

/* Decodes a trace from R (see above): width, profile, then the generator's
 * choices, with at most MAX_LEN ops and at most MAX_INPUTS inputs.  When
 * HEAP, one more byte decides whether the generator may use heap ops (one
 * trace in four; at most 24 ops then).  EX receives the example values, valid
 * until the next call on G.  Errors are the generator's: JP_ENOMEM, or
 * JP_EINTERNAL for a generator bug. */
jp_status ft_decode_trace(gen_ctx *g, rng *r, uint32_t max_len,
			  uint32_t max_inputs, bool heap, ir_trace **out,
			  gen_example *ex, jp_err *err);

/* What a finding is (ft_kinds.def).  Each kind aborts through its own
 * function (ft_crash_<fn>), so the crash stacks of different kinds differ and
 * ClusterFuzz/OSS-Fuzz, which deduplicate crashes by their top stack
 * frames, file different kinds of miscompilation as different bugs instead
 * of folding every finding of a target into one. */
typedef enum ft_kind {
#define KIND(id, fn, desc) FT_##id,
#include "ft_kinds.def"
#undef KIND
	FT_KIND_COUNT
} ft_kind;

const char *ft_kind_desc(ft_kind k);

/* A list of input vectors (each T->ninputs canonical values). */
typedef struct ft_inputs {
	uint32_t ninputs; /* values per vector */
	uint32_t n, cap;  /* vectors */
	uint64_t *v;	  /* n * ninputs values */
} ft_inputs;

void ft_inputs_free(ft_inputs *in);
static inline const uint64_t *ft_inputs_at(const ft_inputs *in, uint32_t i)
{
	return in->v + (size_t)i * in->ninputs;
}

/* The vectors the fast tier runs: EXAMPLE (may be NULL), each input of it
 * replaced in turn by an edge value (0, 1, -1, MININT, MAXINT, MININT+1,
 * MAXINT-1, its neighbours +-1) and every input set to one edge value at
 * once, then NRANDOM vectors of edge-biased values drawn from R.  Only
 * integer inputs vary: references keep their example addresses (so the
 * example's aliasing is kept), or are NULL without an example.  Errors:
 * JP_ENOMEM. */
jp_status ft_make_inputs(const ir_trace *t, const uint64_t *example, rng *r,
			 uint32_t nrandom, ft_inputs *out, jp_err *err);

/* Runs ORIG and OPT on X and sets *DIV to whether they behave differently
 * as seen from outside (guards paired by label when ALIGNED, otherwise
 * whole-trace behaviour; the definition is obl_diverges in verify/oblig.h).
 * When they do, KIND (may be NULL) gets the FT_DIV_* kind and WHY (may be
 * NULL) a sentence.  Errors: interp_run's. */
jp_status ft_diverges(const ir_trace *orig, const ir_trace *opt,
		      const uint64_t *x, bool aligned, bool *div, ft_kind *kind,
		      strbuf *why, jp_err *err);

/* A finding of KIND: prints "==== jitprove <target>: <title>", the details,
 * the
 * injected bugs, both traces (ORIG with a '# args:' line holding INPUTS
 * when not NULL; OPT may be NULL), writes them to
 * <repro_dir>/jitprove-<target>-<hash>.{orig,opt}.trace, prints the
 * jitprove check command line that replays it -- and, when OPT is the
 * optimizer's output for ORIG (REDUCIBLE), the jitprove reduce command line
 * that shrinks it -- and aborts. */
_Noreturn void ft_finding(ft_kind kind, const char *target, const char *title,
			  const char *details, const ir_trace *orig,
			  const ir_trace *opt, const uint64_t *inputs,
			  bool reducible);

/* A finding without traces (e.g. the parser accepted text its printer
 * cannot round-trip): prints TITLE, DETAILS and TEXT, and aborts. */
_Noreturn void ft_finding_text(ft_kind kind, const char *target,
			       const char *title, const char *details,
			       const char *text, size_t len);

#endif
