/*
 * intdiv.h - division by a constant through a multiplication.
 *
 * For a divisor k with 3 <= k <= MAXINT that is not a power of two, there
 * are M < 2^W and s such that for every 0 <= n < 2^(W-1)
 *
 *     floor(n / k) == uint_mul_high(n, M) >> s
 *
 * (Granlund and Montgomery, "Division by Invariant Integers using
 * Multiplication", 1994, theorem 4.2 with N = W-1 bits of dividend: with
 * 2^(l-1) < k < 2^l, M = ceil(2^(W-1+l) / k) and s = l-1).  Floor division
 * of a possibly negative n is reduced to this case by the identity
 * floor(n / k) == ~floor(~n / k) for n < 0 (~n = -n-1 >= 0), which is what
 * PyPy's intdiv.py emits; passes/simplify.c builds the ops.
 */
#ifndef JP_PASSES_INTDIV_H
#define JP_PASSES_INTDIV_H

#include <stdbool.h>
#include <stdint.h>

/* Fills *MUL and *SHIFT for divisor K at width W; false when K is out of
 * the range above or a power of two. */
bool idiv_magic(int w, uint64_t k, uint64_t *mul, int *shift);

#endif
