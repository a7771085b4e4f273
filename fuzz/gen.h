/*
 * gen.h - the random trace generator.
 *
 * gen_trace builds one integer trace from a 64-bit seed.  The same seed and
 * options give the same trace on every machine (the generator only uses the
 * fuzzer's own PRNG, util/rng.h, and sem_eval for values).
 *
 * The trick that makes the traces useful (PyPy's random trace generator):
 * every input gets a concrete example value, and every op is executed on
 * the example values as it is emitted, so the generator always knows every
 * value.  Guards are then chosen to pass on the example values, which makes
 * the whole trace reachable: at least one input runs it to its end.  When an
 * op would hit an uninteresting case on the example path (a division by
 * zero, an overflow the profile does not want), the generator repairs the
 * operand instead of discarding the trace.
 *
 * Constants and input values are biased to the edges where optimizer bugs
 * live (0, +-1, MININT, MAXINT, powers of two and their neighbours, repeated
 * bit patterns, shift counts just in and out of range).  Besides single
 * random ops, the generator emits short "snippets": the shapes the integer
 * optimizations reason about (a comparison guard on int_add(x, c) followed
 * by a guard on x, int_lshift(1, y) as a divisor, masks, negation with range
 * guards, ...), with random operands and constants.  Each profile weighs
 * the actions differently; see gen_profile_desc.
 *
 * The trace ends with finish(...) (sometimes jump(...)) of every value that
 * nothing else uses, so no computed value is dead: values that reach neither
 * a guard nor an output would never be checked.
 *
 * Guards get the labels the parser would give them (g0, g1, ... in order,
 * marked implicit) and no fail-args.
 *
 * Ownership: a gen_ctx holds reusable scratch memory; the example arrays it
 * hands out stay valid until the next gen_trace call on it or
 * gen_ctx_free.  The returned trace belongs to the caller.
 */
#ifndef JP_FUZZ_GEN_H
#define JP_FUZZ_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/err.h"
#include "ir/strbuf.h"
#include "ir/trace.h"
#include "util/rng.h"

typedef enum gen_profile {
	GEN_PROFILE_ALL,      /* every action; the default */
	GEN_PROFILE_ARITH,    /* long arithmetic chains, few guards */
	GEN_PROFILE_BOUNDS,   /* range and known-bits guards, bound snippets */
	GEN_PROFILE_OVERFLOW, /* *_ovf ops, their guards, ovf snippets */
	GEN_PROFILE_HEAP,     /* objects, fields, calls, fail-args */
	GEN_PROFILE_TOY,      /* only the Toy Optimizer's ops (add sub mul
				 lshift rshift alloc load store escape),
				 integer inputs and fields named 0 1 2, no
				 guards; the outputs are escaped and the
				 trace ends with an empty finish, so it
				 prints and parses in the toy spelling
				 (ir_print_toy) */
	GEN_PROFILE_EDGE,     /* as "all", and every trace mixes in the
				 edge shapes (fuzz/gen_edge.c) */
	GEN_PROFILE_COUNT
} gen_profile;

typedef struct gen_opts {
	int width;			 /* 8, 16, 32 or 64 */
	uint32_t min_len, max_len;	 /* ops per trace, drawn uniformly
					    (guards count, the end op does not) */
	uint32_t min_inputs, max_inputs; /* drawn uniformly, >= 1 */
	gen_profile profile;
	/* Heap ops: ref inputs, new / new_with_vtable, getfield / setfield,
	 * escape_n / escape_i calls, null and class guards, fail-args.  With
	 * it, profile "all" makes a fifth of its traces heap traces and
	 * "heap" all of them; without it every trace is an integer trace
	 * (and "heap" is like "all").  Heap traces are at most 16 ops long
	 * (or min_len): the verifier's heap model gets slow on long ones. */
	bool heap;
	/* The share (percent, 0..100) of traces that mix in the
	 * edge-directed shapes: ranges ending exactly at the constants the
	 * bounds domain treats specially (W, W-1, 2^k, 2^(W/2), 2^7, 2^15,
	 * 2^31, MININT/MAXINT neighbours), variable shift counts and
	 * divisors guarded up to such an edge, products near the overflow
	 * line, sign-extension boundaries, and (heap traces) aliasing
	 * between fresh objects, inputs and loaded references.  Profile
	 * "edge" uses 100, "toy" 0.  Whether a trace is an edge trace is
	 * decided without drawing from its stream: the other traces are
	 * the same whatever the share. */
	uint32_t edge_pct;
} gen_opts;

/* The default edge share. */
#define GEN_EDGE_PCT 10

/* Width 64, length 10..50, 1..4 inputs, profile "all", edge share
 * GEN_EDGE_PCT, no heap ops
 * (library callers that handle integer traces only keep working; the
 * jitprove commands turn heap ops on). */
gen_opts gen_default_opts(void);

/* Checks O: width, 1 <= min_len <= max_len <= 10000, inputs 1..64. */
jp_status gen_check_opts(const gen_opts *o, jp_err *err);

const char *gen_profile_name(gen_profile p);
const char *gen_profile_desc(gen_profile p);
/* Parses a profile name; the error lists the valid names. */
jp_status gen_parse_profile(const char *name, gen_profile *p, jp_err *err);
/* Parses "N" (exactly N) or "LO-HI" (uniform in [LO, HI]). */
jp_status gen_parse_range(const char *s, uint32_t *lo, uint32_t *hi,
			  jp_err *err);
/* Applies the command-line spellings of the generator options to O: a
 * profile name, and LENGTH / INPUTS ranges (NULL keeps O's value), then
 * gen_check_opts.  Range errors name their option ("--length: ..."), so
 * every command that takes these options reports them alike. */
jp_status gen_apply_args(gen_opts *o, const char *profile, const char *length,
			 const char *inputs, jp_err *err);

/* Example values of the last generated trace: the input values, and the
 * value of every vid (constants included).  References are addresses: ref
 * inputs get distinct non-zero addresses (or 0, NULL), the example heap
 * starts with every field 0 and calls return 0 and write nothing, as the
 * interpreter's default environment does; the example value of a fresh
 * object is a placeholder address (identity is all that matters). */
typedef struct gen_example {
	uint32_t ninputs;
	const uint64_t *inputs;
	uint32_t nvals;
	const uint64_t *vals;
	/* Ops emitted before the end op (and the toy profile's final
	 * escapes): the cuts a mutation of this trace can use are
	 * 0 .. body - 1. */
	uint32_t body;
} gen_example;

typedef struct gen_ctx gen_ctx;

gen_ctx *gen_ctx_new(void);
void gen_ctx_free(gen_ctx *g);

/* Generates the trace of SEED into *OUT (caller frees).  EX (may be NULL)
 * receives the example values.  Errors: JP_EINPUT for bad options,
 * JP_ENOMEM. */
jp_status gen_trace(gen_ctx *g, uint64_t seed, const gen_opts *o,
		    ir_trace **out, gen_example *ex, jp_err *err);

/* As gen_trace, drawing every choice from *R instead of a seed's stream,
 * and leaving *R advanced past them (so a caller can draw more, e.g. a
 * second trace).  With a byte-driven R (rng_from_bytes) this is how the
 * libFuzzer targets turn any byte string into a valid trace. */
jp_status gen_trace_rng(gen_ctx *g, rng *r, const gen_opts *o, ir_trace **out,
			gen_example *ex, jp_err *err);

/* Trace identities.  A fresh trace is named by its seed.  A mutated trace
 * (coverage feedback, fuzz/corpus.h) is named by its root seed and up to
 * GEN_MUT_MAX mutation steps (CUT, SEED), cuts strictly increasing: the
 * generator runs the root seed's stream and, at the first action boundary
 * where at least CUT ops have been emitted, switches to a stream seeded
 * from SEED and draws a new length target (at least one more action).
 * Everything before the switch -- the inputs, their example values, the
 * example heap, the ops -- is the parent's, and the generator's state
 * (every value's example, the pools) carries on, so every guard of the
 * mutated trace still passes on its example inputs.  The same identity
 * gives the same trace, byte for byte. */
#define GEN_MUT_MAX 4

typedef struct gen_mut {
	uint32_t cut;
	uint64_t seed;
} gen_mut;

typedef struct gen_id {
	uint64_t seed; /* the root */
	uint32_t nmut; /* 0 = a fresh trace */
	gen_mut mut[GEN_MUT_MAX];
} gen_id;

/* The identity of the fresh trace of SEED. */
gen_id gen_id_seed(uint64_t seed);

/* Generates the trace named by ID (gen_trace when ID has no steps).
 * Errors as gen_trace, and JP_EINPUT when the cuts do not increase or a
 * cut is not reached (it is not below the ops emitted before it). */
jp_status gen_trace_id(gen_ctx *g, const gen_id *id, const gen_opts *o,
		       ir_trace **out, gen_example *ex, jp_err *err);

/* The text of an identity: "SEED", or "SEED+CUT:SEED+CUT:SEED..." (decimal),
 * at most GEN_ID_TEXT bytes with the terminator. */
#define GEN_ID_TEXT 160
void gen_format_id(const gen_id *id, strbuf *sb);
/* The same into BUF (GEN_ID_TEXT bytes). */
void gen_id_text(const gen_id *id, char *buf);
/* Parses gen_format_id's text (decimal numbers, or 0x hexadecimal).  The
 * error says what was expected and what was found. */
jp_status gen_parse_id(const char *s, gen_id *id, jp_err *err);

/* Appends T with its example values as comments: a "# args: ..." line with
 * the example inputs before the trace, and "  # = value" after every op
 * that has a result. */
void gen_print_annotated(const ir_trace *t, const gen_example *ex, strbuf *sb);

/* NULL when the generator writes OPC into its traces (some profile, with or
 * without the heap); otherwise why it deliberately does not. */
const char *gen_unhandled(ir_opcode opc);

#endif
