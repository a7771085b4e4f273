#include "rng.h"

uint64_t rng_mix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t rng_splitmix(uint64_t *state)
{
	uint64_t r = rng_mix64(*state);
	*state += UINT64_C(0x9e3779b97f4a7c15);
	return r;
}

void rng_seed(rng *r, uint64_t seed)
{
	/* Consecutive splitmix64 outputs; they are never all zero. */
	uint64_t x = seed;
	for (int i = 0; i < 4; i++) {
		x += UINT64_C(0x9e3779b97f4a7c15);
		r->s[i] = rng_mix64(x);
	}
	r->bytes = NULL;
	r->nbytes = r->pos = 0;
}

/* The seed of the tail of every byte-driven stream.  It is a constant, not
 * a hash of the bytes, so that changing one byte leaves the choices after
 * the buffer unchanged (the point of byte-driven mode). */
#define RNG_BYTES_TAIL_SEED UINT64_C(0x6a697470726f7665) /* "jitprove" */

void rng_from_bytes(rng *r, const uint8_t *data, size_t size)
{
	rng_seed(r, RNG_BYTES_TAIL_SEED);
	r->bytes = size ? data : NULL;
	r->nbytes = size;
}

size_t rng_bytes_left(const rng *r)
{
	return r->bytes ? r->nbytes - r->pos : 0;
}

/* Reads up to K bytes (little-endian) from a byte-driven R; the missing
 * high bytes are zero when the buffer ends in the middle. */
static uint64_t take_bytes(rng *r, int k)
{
	uint64_t x = 0;
	for (int i = 0; i < k && r->pos < r->nbytes; i++)
		x |= (uint64_t)r->bytes[r->pos++] << (8 * i);
	return x;
}

/* Bytes needed to draw among N values (N >= 2). */
static int bytes_for(uint64_t n)
{
	int k = 1;
	for (uint64_t m = (n - 1) >> 8; m; m >>= 8)
		k++;
	return k;
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
	if (r->bytes && r->pos < r->nbytes)
		return take_bytes(r, 8);
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
	if (r->bytes && r->pos < r->nbytes)
		return n == 1 ? 0 : take_bytes(r, bytes_for(n)) % n;
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
