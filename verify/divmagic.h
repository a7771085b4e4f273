/*
 * divmagic.h - the verifier's own proof that a multiply-high and a shift
 * divide by a constant.
 *
 * Optimizers replace "x // k" by a high multiplication with a "magic"
 * constant M and a right shift by S (Granlund and Montgomery, 1994).  A
 * SAT solver cannot show that a 128-bit multiplier equals a 64-bit divider
 * in any useful time, so the encoder (verify/encode.c) gives both the same
 * term instead: the unsigned division.  That is only sound when the
 * identity
 *
 *     floor(n * M / 2^(W+S)) == floor(n / d)   for every 0 <= n < 2^N
 *
 * holds, and this module decides it with exact integer arithmetic, once
 * per (M, S): no solver, and no code shared with the optimizer it checks
 * (passes/intdiv.c computes the constants; this module only checks them).
 *
 * The condition used (with L = W + S):
 *
 *     2^L <= M * d <= 2^L + 2^(L-N)
 *
 * is sufficient.  Proof: write M * d = 2^L (1 + e) with 0 <= e <= 2^-N, and
 * n = q d + r with 0 <= r < d.  Then n M / 2^L = (n / d)(1 + e) = q + r/d +
 * n e / d, and 0 <= r/d + n e / d < (d - 1)/d + 1/d = 1 because n e < 1.
 * So the floor is exactly q.  The only candidate is d = ceil(2^L / M): a
 * larger d makes M * d exceed 2^L + M > 2^L + 2^(L-N) whenever M > 2^(L-N),
 * and when M <= 2^(L-N) the check simply fails.  tests/test_divmagic.c
 * checks the verdicts against the interpreter exhaustively at W = 8.
 */
#ifndef JP_VERIFY_DIVMAGIC_H
#define JP_VERIFY_DIVMAGIC_H

#include <stdbool.h>
#include <stdint.h>

/* True when uint_mul_high(n, M) >> S == n / *D (unsigned) for every
 * 0 <= n < 2^NBITS at width W (8, 16, 32 or 64; 1 <= NBITS <= W;
 * 0 <= S < W; M below 2^W).  *D is then the divisor, 1 <= *D < 2^W. */
bool dm_divisor(int w, uint64_t m, int s, int nbits, uint64_t *d);

#endif
