/*
 * rng.h - the project's own pseudo-random number generator (the fuzzer's
 * traces, the verifier's screening inputs, tests).  It sits in util/, below
 * every other layer, so that any module can draw reproducible numbers.
 *
 * Traces must be reproducible from a seed on every machine and with every C
 * library, so the generator never calls rand() or random(): it uses
 * xoshiro256** seeded through splitmix64, whose outputs are fully specified
 * by the 64-bit seed.  rng_derive turns (campaign seed, stream, index) into
 * the seed of one trace, so any trace of a campaign can be regenerated on
 * its own.
 *
 * An rng is a plain value: no allocation, copy it freely.
 */
#ifndef JP_UTIL_RNG_H
#define JP_UTIL_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An rng is either seeded (rng_seed: every draw comes from xoshiro256**) or
 * byte-driven (rng_from_bytes: draws come from a caller's byte buffer first,
 * then from xoshiro256** seeded with a fixed constant once the bytes run
 * out).  The byte-driven mode exists for coverage-guided fuzzers (libFuzzer,
 * AFL++): a draw among N values (rng_below, rng_range, rng_chance,
 * rng_pick_weighted) consumes as many bytes as N needs -- one byte when
 * N <= 256, the common case -- and rng_next consumes eight, so a mutation of
 * one byte changes one choice, and inserting or erasing a byte inserts or
 * erases one small choice.  Draws are then value % N: slightly biased, which
 * does not matter to a fuzzer and keeps every byte meaningful.  A
 * seeded rng never looks at BYTES, so seeds keep producing exactly the
 * sequences they always did. */
typedef struct rng {
	uint64_t s[4];
	const uint8_t *bytes; /* byte-driven mode: borrowed; NULL when seeded */
	size_t nbytes, pos;   /* buffer length, bytes consumed so far */
} rng;

/* The splitmix64 finaliser: a bijective 64-bit mix. */
uint64_t rng_mix64(uint64_t x);

/* One step of the splitmix64 generator whose state is *STATE: returns
 * rng_mix64(*STATE) and advances *STATE by the golden-ratio increment.  A
 * one-word generator for callers that need no more (screening inputs). */
uint64_t rng_splitmix(uint64_t *state);

/* Seeds R from SEED; any seed (including 0) gives a good state. */
void rng_seed(rng *r, uint64_t seed);

/* Makes R byte-driven: draws read DATA[0..SIZE) in order (see above), then
 * continue deterministically.  DATA is borrowed and must outlive every draw
 * from R (and from copies of R).  DATA may be NULL when SIZE is 0. */
void rng_from_bytes(rng *r, const uint8_t *data, size_t size);

/* Bytes of a byte-driven R not consumed yet (0 for a seeded rng). */
size_t rng_bytes_left(const rng *r);

/* The seed of trace INDEX of stream STREAM in a campaign seeded with SEED. */
uint64_t rng_derive(uint64_t seed, uint64_t stream, uint64_t index);

uint64_t rng_next(rng *r);

/* Uniform in [0, n); n = 0 gives 0.  Unbiased (rejection sampling). */
uint64_t rng_below(rng *r, uint64_t n);

/* Uniform in [lo, hi] (inclusive; hi >= lo). */
int64_t rng_range(rng *r, int64_t lo, int64_t hi);

/* True with probability NUM / DEN. */
bool rng_chance(rng *r, uint32_t num, uint32_t den);

/* Index I in [0, n) chosen with probability weights[i] / sum(weights);
 * -1 when every weight is 0. */
int rng_pick_weighted(rng *r, const uint32_t *weights, int n);

#endif
