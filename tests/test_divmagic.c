/* verify/divmagic.h against the interpreter: every constant pair it
 * accepts at W = 8 divides exactly (all dividends), the pairs the
 * Granlund-Montgomery construction gives are accepted at 8, 16, 32 and 64
 * bits and divide exactly (all dividends at 8 and 16 bits, samples above),
 * and constants one off are refused or still exact. */
#include "check.h"
#include "ir/sem.h"
#include "verify/divmagic.h"

static uint64_t mul_high_shift(int w, uint64_t n, uint64_t m, int s)
{
	uint64_t a[2] = {n, m};
	bool ovf = false;
	return sem_eval(IR_UINT_MUL_HIGH, w, a, &ovf) >> s;
}

/* Whether uint_mul_high(n, M) >> S == n / D for every n < 2^NBITS. */
static bool divides(int w, uint64_t m, int s, int nbits, uint64_t d,
		    uint64_t step)
{
	uint64_t end = nbits == 64 ? UINT64_MAX : (UINT64_C(1) << nbits) - 1;
	for (uint64_t n = 0;; n += step) {
		if (mul_high_shift(w, n, m, s) != n / d)
			return false;
		if (end - n < step)
			break;
	}
	return mul_high_shift(w, end, m, s) == end / d;
}

/* Soundness: every accepted (M, S, N) at W = 8 is exact on all n < 2^N. */
static void test_exhaustive_w8(void)
{
	int accepted = 0, wrong = 0;
	for (uint64_t m = 0; m < 256; m++)
		for (int s = 0; s < 8; s++)
			for (int nbits = 1; nbits <= 8; nbits++) {
				uint64_t d = 0;
				if (!dm_divisor(8, m, s, nbits, &d))
					continue;
				accepted++;
				if (!divides(8, m, s, nbits, d, 1) &&
				    ++wrong < 4)
					fprintf(stderr,
						"  M=%u S=%d N=%d d=%u wrong\n",
						(unsigned)m, s, nbits,
						(unsigned)d);
			}
	CHECK(wrong == 0);
	CHECK(accepted > 500); /* not vacuous */
}

static int bit_length(uint64_t k)
{
	int l = 0;
	while (k >> l)
		l++;
	return l;
}

/* Completeness where it matters: the constants an optimizer computes for
 * a signed division (N = W - 1) are accepted, with the right divisor; the
 * magic constant minus one is never accepted with a wrong divisor. */
static void test_construction(int w, uint64_t kstep)
{
	int missed = 0;
	for (uint64_t k = 3; k <= sem_maxint(w); k += kstep) {
		if (!(k & (k - 1)))
			continue;
		int l = bit_length(k), e = w - 1 + l;
		uint64_t m = ((UINT64_C(1) << e) + k - 1) / k, d = 0;
		if (!dm_divisor(w, m, l - 1, w - 1, &d) || d != k) {
			if (++missed < 4)
				fprintf(stderr, "  W=%d k=%u refused\n", w,
					(unsigned)k);
			continue;
		}
		/* All dividends at W <= 16, about 20,000 above. */
		uint64_t step = w <= 16 ? 1 : sem_maxint(w) / 20000;
		CHECK(divides(w, m, l - 1, w - 1, k, step));
		if (dm_divisor(w, m - 1, l - 1, w - 1, &d))
			CHECK(divides(w, m - 1, l - 1, w - 1, d, step));
	}
	CHECK(missed == 0);
}

/* PyPy's 64-bit constants for 3, 5, 7 and 10, and a near miss. */
static void test_w64(void)
{
	static const struct {
		uint64_t k, m;
		int s;
	} known[] = {{3, UINT64_C(0xAAAAAAAAAAAAAAAB), 1},
		     {5, UINT64_C(0xCCCCCCCCCCCCCCCD), 2},
		     {7, UINT64_C(0x924924924924924A), 2},
		     {10, UINT64_C(0xCCCCCCCCCCCCCCCD), 3}};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		uint64_t d = 0;
		CHECK(dm_divisor(64, known[i].m, known[i].s, 63, &d));
		CHECK_EQ_U64(d, known[i].k);
		/* Sampled dividends, the top of the range included. */
		CHECK(divides(64, known[i].m, known[i].s, 63, known[i].k,
			      UINT64_C(0x0000100000000007)));
	}
	uint64_t d;
	/* 7's constant is accepted for 63-bit dividends only. */
	CHECK(!dm_divisor(64, UINT64_C(0x924924924924924A), 2, 64, &d));
	/* One less than 3's constant is not exact. */
	CHECK(!dm_divisor(64, UINT64_C(0xAAAAAAAAAAAAAAAA), 1, 63, &d));
	/* Out-of-range arguments are refused, not misread. */
	CHECK(!dm_divisor(8, 256, 1, 7, &d));
	CHECK(!dm_divisor(8, 0, 1, 7, &d));
	CHECK(!dm_divisor(8, 3, 8, 7, &d));
	CHECK(!dm_divisor(8, 3, 1, 9, &d));
}

int main(void)
{
	test_exhaustive_w8();
	test_construction(8, 1);
	test_construction(16, 37);
	test_construction(32, 10737421);
	test_w64();
	return check_summary("test_divmagic");
}
