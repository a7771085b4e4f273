/* divmagic.c - the verifier's own proof that a multiply-high and a shift
 * divide by a constant (divmagic.h), with 128-bit arithmetic by halves. */
#include "divmagic.h"

/* Unsigned 128-bit numbers as two halves: C11 has no wider integer type,
 * and L = W + S reaches 127. */
typedef struct u128 {
	uint64_t hi, lo;
} u128;

static u128 pow2(int e)
{
	u128 r = {0, 0};
	if (e >= 64)
		r.hi = UINT64_C(1) << (e - 64);
	else
		r.lo = UINT64_C(1) << e;
	return r;
}

static int cmp(u128 a, u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

static u128 add(u128 a, u128 b)
{
	u128 r = {a.hi + b.hi, a.lo + b.lo};
	if (r.lo < a.lo)
		r.hi++;
	return r;
}

static u128 sub(u128 a, u128 b)
{
	u128 r = {a.hi - b.hi, a.lo - b.lo};
	if (a.lo < b.lo)
		r.hi--;
	return r;
}

/* The full product of two 64-bit numbers, from 32-bit halves. */
static u128 mul64(uint64_t a, uint64_t b)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
	u128 r;
	r.lo = (mid << 32) | (p00 & 0xffffffffu);
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

/* ceil(2^E / M) for M >= 1, by binary long division; false when the
 * quotient does not fit in 64 bits.  The remainder stays below 2M, so it
 * fits in 128 bits. */
static bool ceil_pow2_div(int e, uint64_t m, uint64_t *q)
{
	u128 r = {0, 0}, mm = {0, m};
	uint64_t quo = 0;
	for (int i = e; i >= 0; i--) {
		r.hi = (r.hi << 1) | (r.lo >> 63);
		r.lo = (r.lo << 1) | (i == e ? 1u : 0u);
		if (quo >> 63)
			return false;
		quo <<= 1;
		if (cmp(r, mm) >= 0) {
			r = sub(r, mm);
			quo |= 1;
		}
	}
	if (r.hi || r.lo) {
		if (quo == UINT64_MAX)
			return false;
		quo++;
	}
	*q = quo;
	return true;
}

bool dm_divisor(int w, uint64_t m, int s, int nbits, uint64_t *d)
{
	if (w < 1 || w > 64 || s < 0 || s >= w || nbits < 1 || nbits > w ||
	    m == 0)
		return false;
	uint64_t top = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
	if (m > top)
		return false;
	int l = w + s;
	uint64_t q;
	if (!ceil_pow2_div(l, m, &q) || q == 0 || q > top)
		return false;
	u128 p = mul64(m, q);
	u128 lo = pow2(l), hi = add(lo, pow2(l - nbits));
	if (cmp(p, lo) < 0 || cmp(p, hi) > 0)
		return false;
	*d = q;
	return true;
}
