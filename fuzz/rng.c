#include "rng.h"

uint64_t rng_mix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
	/* Consecutive splitmix64 outputs; they are never all zero. */
	uint64_t x = seed;
	for (int i = 0; i < 4; i++) {
		x += UINT64_C(0x9e3779b97f4a7c15);
		r->s[i] = rng_mix64(x);
	}
}

uint64_t rng_derive(uint64_t seed, uint64_t stream, uint64_t index)
{
	return rng_mix64(rng_mix64(seed ^ rng_mix64(stream)) + index);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(rng *r, uint64_t n)
{
	if (n == 0)
		return 0;
	/* Reject the top partial block so every residue is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	for (;;) {
		uint64_t x = rng_next(r);
		if (x < limit)
			return x % n;
	}
}

int64_t rng_range(rng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)hi - (uint64_t)lo;
	if (span == UINT64_MAX)
		return (int64_t)rng_next(r);
	return (int64_t)((uint64_t)lo + rng_below(r, span + 1));
}

bool rng_chance(rng *r, uint32_t num, uint32_t den)
{
	return rng_below(r, den) < num;
}

int rng_pick_weighted(rng *r, const uint32_t *weights, int n)
{
	uint64_t total = 0;
	for (int i = 0; i < n; i++)
		total += weights[i];
	if (total == 0)
		return -1;
	uint64_t x = rng_below(r, total);
	for (int i = 0; i < n; i++) {
		if (x < weights[i])
			return i;
		x -= weights[i];
	}
	return n - 1;
}
