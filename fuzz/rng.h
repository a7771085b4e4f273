/*
 * rng.h - the fuzzer's own pseudo-random number generator.
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
#ifndef JP_FUZZ_RNG_H
#define JP_FUZZ_RNG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rng {
	uint64_t s[4];
} rng;

/* The splitmix64 finaliser: a bijective 64-bit mix. */
uint64_t rng_mix64(uint64_t x);

/* Seeds R from SEED; any seed (including 0) gives a good state. */
void rng_seed(rng *r, uint64_t seed);

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
