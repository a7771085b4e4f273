/*
 * test_opt_bounds.c - the bounds pass (passes/opt_bounds.c): guards the
 * bounds prove, comparisons they fold, *_ovf ops that cannot overflow,
 * masks, and the wraparound cases that must NOT be optimized.  Most inputs
 * are PyPy's test_optimizeintbound.py tests.
 */
#include "test_opt_util.h"

static void test_lt_chains(void)
{
	EXPECT_OPT("[i0]\n"
		   "i1 = int_lt(i0, 4)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_lt(i0, 5)\n"
		   "guard_true(i2) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "i1 = int_lt(i0, 4)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "jump(i0)\n");
	/* x >= 4 and x < 5: x is 4. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_lt(i0, 4)\n"
		   "guard_false(i1) []\n"
		   "i2 = int_lt(i0, 5)\n"
		   "guard_true(i2) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "i1 = int_lt(i0, 4)\n"
		   "guard_false(i1, descr=g0) []\n"
		   "i2 = int_lt(i0, 5)\n"
		   "guard_true(i2, descr=g1) []\n"
		   "jump(4)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = int_lt(i0, 0)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_lt(i0, 7)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_le(i0, -1)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_ge(0, i0)\n"
		   "guard_true(i4) []\n"
		   "i5 = int_gt(i0, 5)\n"
		   "guard_false(i5) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "i1 = int_lt(i0, 0)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "jump(i0)\n");
	/* Two values: x <= 4, x == y, so y < 5. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_le(i0, 4)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_eq(i0, i1)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_lt(i1, 5)\n"
		   "guard_true(i4) []\n"
		   "jump(i0, i1)\n",
		   "[i0, i1]\n"
		   "i2 = int_le(i0, 4)\n"
		   "guard_true(i2, descr=g0) []\n"
		   "i3 = int_eq(i0, i1)\n"
		   "guard_true(i3, descr=g1) []\n"
		   "jump(i0, i1)\n");
	/* x != 7 from guard_false(int_eq) tells nothing for x + 3... */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_eq(i0, 7)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_add(i0, 3)\n"
		   "jump(i2)\n",
		   "[i0]\n"
		   "i1 = int_eq(i0, 7)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "jump(10)\n");
}

/* Backward through additions: exact after guard_no_overflow only. */
static void test_add(void)
{
	/* PyPy's test_bound_lt_add: the bound flows forward. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_lt(i0, 4)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_add(i0, 10)\n"
		   "i3 = int_lt(i2, 15)\n"
		   "guard_true(i3) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "i1 = int_lt(i0, 4)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "jump(i0)\n");
	/* PyPy's test_bound_lt_add_ovf_before: after guard_no_overflow,
	 * i0 + 10 < 15 gives i0 < 5. */
	EXPECT_OPT("[i0]\n"
		   "i2 = int_add_ovf(i0, 10)\n"
		   "guard_no_overflow() []\n"
		   "i3 = int_lt(i2, 15)\n"
		   "guard_true(i3) []\n"
		   "i1 = int_lt(i0, 6)\n"
		   "guard_true(i1) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "i2 = int_add_ovf(i0, 10)\n"
		   "guard_no_overflow(descr=g0) []\n"
		   "i3 = int_lt(i2, 15)\n"
		   "guard_true(i3, descr=g1) []\n"
		   "jump(i0)\n");
	/* The wraparound example of "Finding JIT Optimizer Bugs": with a
	 * wrapping add nothing follows about x (x = MAXINT passes the first
	 * guard and fails the second), so both guards stay. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_add(i0, 10)\n"
		   "i2 = int_lt(i1, 15)\n"
		   "guard_true(i2) [i0]\n"
		   "i3 = int_lt(i0, 6)\n"
		   "guard_true(i3) [i0]\n"
		   "jump(i1)\n",
		   "[i0]\n"
		   "i1 = int_add(i0, 10)\n"
		   "i2 = int_lt(i1, 15)\n"
		   "guard_true(i2, descr=g0) [i0]\n"
		   "i3 = int_lt(i0, 6)\n"
		   "guard_true(i3, descr=g1) [i0]\n"
		   "jump(i1)\n");
	/* ... and -MININT == MININT: a = 0 - x < 0 does not give x > 0. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_sub(0, i0)\n"
		   "i2 = int_lt(i1, 0)\n"
		   "guard_true(i2) [i0]\n"
		   "i3 = int_gt(i0, 0)\n"
		   "guard_true(i3) [i0]\n"
		   "jump(i1)\n",
		   "[i0]\n"
		   "i1 = int_neg(i0)\n"
		   "i2 = int_lt(i1, 0)\n"
		   "guard_true(i2, descr=g0) [i0]\n"
		   "i3 = int_gt(i0, 0)\n"
		   "guard_true(i3, descr=g1) [i0]\n"
		   "jump(i1)\n");
	/* PyPy's test_int_neg_sequence: once x != MININT, -x >= 0 for x < 0. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_lt(i0, 0)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_eq(i0, -9223372036854775808)\n"
		   "guard_false(i2) []\n"
		   "i3 = int_neg(i0)\n"
		   "i4 = int_ge(i3, 0)\n"
		   "guard_true(i4) []\n"
		   "jump()\n",
		   "[i0]\n"
		   "i1 = int_lt(i0, 0)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "i2 = int_eq(i0, -9223372036854775808)\n"
		   "guard_false(i2, descr=g1) []\n"
		   "jump()\n");
	/* guard_value on x + 3 makes x a constant (PyPy's
	 * test_guard_value_on_nonbool). */
	EXPECT_OPT("[i]\n"
		   "i1 = int_add(i, 3)\n"
		   "guard_value(i1, 0) [i]\n"
		   "jump(i)\n",
		   "[i]\n"
		   "i1 = int_add(i, 3)\n"
		   "guard_false(i1, descr=g0) [i]\n"
		   "jump(-3)\n");
}

static void test_ovf_to_plain(void)
{
	EXPECT_OPT("[i0]\n"
		   "i1 = int_ge(i0, 0)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_lt(i0, 10)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_add_ovf(i0, 1)\n"
		   "guard_no_overflow() []\n"
		   "jump(i3)\n",
		   "[i0]\n"
		   "i1 = int_ge(i0, 0)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "i2 = int_lt(i0, 10)\n"
		   "guard_true(i2, descr=g1) []\n"
		   "i3 = int_add(i0, 1)\n"
		   "jump(i3)\n");
	/* PyPy's test_mul_ovf: the product of [0, 255] and [-9, 4] fits;
	 * its exact bounds remove two more guards. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_and(i0, 255)\n"
		   "i3 = int_lt(i1, 5)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_gt(i1, -10)\n"
		   "guard_true(i4) []\n"
		   "i5 = int_mul_ovf(i2, i1)\n"
		   "guard_no_overflow() []\n"
		   "i6 = int_lt(i5, -2550)\n"
		   "guard_false(i6) []\n"
		   "i7 = int_ge(i5, 1276)\n"
		   "guard_false(i7) []\n"
		   "i8 = int_gt(i5, 126)\n"
		   "guard_true(i8) []\n"
		   "jump(i0, i1)\n",
		   "[i0, i1]\n"
		   "i2 = int_and(i0, 255)\n"
		   "i3 = int_lt(i1, 5)\n"
		   "guard_true(i3, descr=g0) []\n"
		   "i4 = int_gt(i1, -10)\n"
		   "guard_true(i4, descr=g1) []\n"
		   "i5 = int_mul(i2, i1)\n"
		   "i8 = int_gt(i5, 126)\n"
		   "guard_true(i8, descr=g5) []\n"
		   "jump(i0, i1)\n");
	/* PyPy's test_sub_ovf_before: after the exact subtraction,
	 * 2 <= [0, 255] - i1 <= 10 bounds i1 to [-10, 253]. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_and(i0, 255)\n"
		   "i3 = int_sub_ovf(i2, i1)\n"
		   "guard_no_overflow() []\n"
		   "i4 = int_le(i3, 10)\n"
		   "guard_true(i4) []\n"
		   "i5 = int_ge(i3, 2)\n"
		   "guard_true(i5) []\n"
		   "i6 = int_lt(i1, -10)\n"
		   "guard_false(i6) []\n"
		   "i7 = int_gt(i1, 253)\n"
		   "guard_false(i7) []\n"
		   "jump(i0, i1)\n",
		   "[i0, i1]\n"
		   "i2 = int_and(i0, 255)\n"
		   "i3 = int_sub_ovf(i2, i1)\n"
		   "guard_no_overflow(descr=g0) []\n"
		   "i4 = int_le(i3, 10)\n"
		   "guard_true(i4, descr=g1) []\n"
		   "i5 = int_ge(i3, 2)\n"
		   "guard_true(i5, descr=g2) []\n"
		   "jump(i0, i1)\n");
	/* An op that always overflows: guard_no_overflow always fails. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_gt(i0, 100)\n"
		   "guard_true(i1) [i0]\n"
		   "i2 = int_add_ovf(i0, 9223372036854775807)\n"
		   "guard_no_overflow() [i0]\n"
		   "jump(i2)\n",
		   "[i0]\n"
		   "i1 = int_gt(i0, 100)\n"
		   "guard_true(i1, descr=g0) [i0]\n"
		   "i2 = int_add(i0, 9223372036854775807)\n"
		   "guard_true(0, descr=g1) [i0]\n"
		   "jump(i2)\n");
}

static void test_masks(void)
{
	/* PyPy's test_bound_and: every comparison on x & 255 is decided. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_and(i0, 255)\n"
		   "i2 = int_lt(i1, 500)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_le(i1, 255)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_gt(i1, -1)\n"
		   "guard_true(i4) []\n"
		   "i5 = int_ge(i1, 0)\n"
		   "guard_true(i5) []\n"
		   "i6 = int_lt(i1, 0)\n"
		   "guard_false(i6) []\n"
		   "i7 = int_le(i1, -1)\n"
		   "guard_false(i7) []\n"
		   "i8 = int_gt(i1, 255)\n"
		   "guard_false(i8) []\n"
		   "i9 = int_ge(i1, 500)\n"
		   "guard_false(i9) []\n"
		   "i10 = uint_lt(i1, 256)\n"
		   "guard_true(i10) []\n"
		   "jump(i1)\n",
		   "[i0]\n"
		   "i1 = int_and(i0, 255)\n"
		   "jump(i1)\n");
	/* Masks that change nothing go (PyPy's
	 * test_intand_1mask_covering_bitrange). */
	EXPECT_OPT("[i0]\n"
		   "i0pos = int_ge(i0, 0)\n"
		   "guard_true(i0pos) []\n"
		   "i0small = int_lt(i0, 256)\n"
		   "guard_true(i0small) []\n"
		   "i1 = int_and(i0, 255)\n"
		   "i2 = int_and(i1, -1)\n"
		   "i3 = int_and(511, i2)\n"
		   "i4 = int_or(i3, 0)\n"
		   "i5 = int_py_mod(i4, 1000)\n"
		   "jump(i5)\n",
		   "[i0]\n"
		   "i0pos = int_ge(i0, 0)\n"
		   "guard_true(i0pos, descr=g0) []\n"
		   "i0small = int_lt(i0, 256)\n"
		   "guard_true(i0small, descr=g1) []\n"
		   "jump(i0)\n");
	/* After guard_value(x & 255, 7) the low byte of x is known. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_and(i0, 255)\n"
		   "guard_value(i1, 7) [i0]\n"
		   "i2 = int_and(i0, 1)\n"
		   "i3 = int_and(i0, 15)\n"
		   "i4 = int_or(i0, 7)\n"
		   "i5 = int_eq(i3, 7)\n"
		   "guard_true(i5) []\n"
		   "jump(i2, i4)\n",
		   "[i0]\n"
		   "i1 = int_and(i0, 255)\n"
		   "guard_value(i1, 7, descr=g0) [i0]\n"
		   "jump(1, i0)\n");
	/* Known bits survive shifts: (x << 4) & 15 == 0. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_lshift(i0, 4)\n"
		   "i2 = int_and(i1, 15)\n"
		   "i3 = uint_rshift(i0, 60)\n"
		   "i4 = int_lt(i3, 16)\n"
		   "guard_true(i4) []\n"
		   "jump(i2, i3)\n",
		   "[i0]\n"
		   "i3 = uint_rshift(i0, 60)\n"
		   "jump(0, i3)\n");
}

static void test_bool_and_misc(void)
{
	/* int_is_true of a value in [0, 1] is the value. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_and(i0, 1)\n"
		   "i2 = int_is_true(i1)\n"
		   "guard_value(i2, 1) []\n"
		   "jump(i1)\n",
		   "[i0]\n"
		   "i1 = int_and(i0, 1)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "jump(1)\n");
	/* Bounds check: i <u len with 0 <= len gives 0 <= i < len. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_ge(i1, 0)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_lt(i1, 100)\n"
		   "guard_true(i3) []\n"
		   "i4 = uint_lt(i0, i1)\n"
		   "guard_true(i4) []\n"
		   "i5 = int_ge(i0, 0)\n"
		   "guard_true(i5) []\n"
		   "i6 = int_lt(i0, 99)\n"
		   "guard_true(i6) []\n"
		   "i7 = int_force_ge_zero(i0)\n"
		   "jump(i7)\n",
		   "[i0, i1]\n"
		   "i2 = int_ge(i1, 0)\n"
		   "guard_true(i2, descr=g0) []\n"
		   "i3 = int_lt(i1, 100)\n"
		   "guard_true(i3, descr=g1) []\n"
		   "i4 = uint_lt(i0, i1)\n"
		   "guard_true(i4, descr=g2) []\n"
		   "jump(i0)\n");
	/* x // (1 << y) -> x >> y when 0 <= y <= W-2. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_and(i1, 31)\n"
		   "i3 = int_lshift(1, i2)\n"
		   "i4 = int_py_div(i0, i3)\n"
		   "finish(i4)\n",
		   "[i0, i1]\n"
		   "i2 = int_and(i1, 31)\n"
		   "i4 = int_rshift(i0, i2)\n"
		   "finish(i4)\n");
	/* ... but not when y may be W-1 (then 1 << y is MININT). */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_and(i1, 63)\n"
		   "i3 = int_lshift(1, i2)\n"
		   "i4 = int_py_div(i0, i3)\n"
		   "finish(i4)\n",
		   "[i0, i1]\n"
		   "i2 = int_and(i1, 63)\n"
		   "i3 = int_lshift(1, i2)\n"
		   "i4 = int_py_div(i0, i3)\n"
		   "finish(i4)\n");
	/* uint comparisons use unsigned bounds: -1 is not below 10. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_ge(i0, -1)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_le(i0, 5)\n"
		   "guard_true(i2) []\n"
		   "i3 = uint_lt(i0, 10)\n"
		   "finish(i3)\n",
		   "[i0]\n"
		   "i1 = int_ge(i0, -1)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "i2 = int_le(i0, 5)\n"
		   "guard_true(i2, descr=g1) []\n"
		   "i3 = uint_lt(i0, 10)\n"
		   "finish(i3)\n");
	/* x * 3 == 12 has the single solution 4 (3 is odd), but x * 12 == 12
	 * has others than 1. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_mul(i0, 3)\n"
		   "guard_value(i2, 12) []\n"
		   "i3 = int_mul(i1, 12)\n"
		   "guard_value(i3, 12) []\n"
		   "finish(i0, i1)\n",
		   "[i0, i1]\n"
		   "i2 = int_mul(i0, 3)\n"
		   "guard_value(i2, 12, descr=g0) []\n"
		   "i3 = int_mul(i1, 12)\n"
		   "guard_value(i3, 12, descr=g1) []\n"
		   "finish(4, i1)\n");
}

/* The rewrites that use bounds (opt_bounds.c, use_bounds), each at the
 * edge of its condition: one value inside (rewritten), one value beyond
 * (kept).  An off-by-one in a condition fails one of the pair. */
static void test_use_bounds_mod(void)
{
	/* x % y is x when 0 <= x < y, y a guarded variable: x in [0, 9], y
	 * in [10, 99]. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_ge(i0, 0)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_lt(i0, 10)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_ge(i1, 10)\n"
		   "guard_true(i4) []\n"
		   "i5 = int_lt(i1, 100)\n"
		   "guard_true(i5) []\n"
		   "i6 = int_py_mod(i0, i1)\n"
		   "finish(i6)\n",
		   "[i0, i1]\n"
		   "i2 = int_ge(i0, 0)\n"
		   "guard_true(i2, descr=g0) []\n"
		   "i3 = int_lt(i0, 10)\n"
		   "guard_true(i3, descr=g1) []\n"
		   "i4 = int_ge(i1, 10)\n"
		   "guard_true(i4, descr=g2) []\n"
		   "i5 = int_lt(i1, 100)\n"
		   "guard_true(i5, descr=g3) []\n"
		   "finish(i0)\n");
	/* x's upper bound equals y's lower bound: 10 % 10 is 0. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_ge(i0, 0)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_le(i0, 10)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_ge(i1, 10)\n"
		   "guard_true(i4) []\n"
		   "i5 = int_lt(i1, 100)\n"
		   "guard_true(i5) []\n"
		   "i6 = int_py_mod(i0, i1)\n"
		   "finish(i6)\n",
		   "[i0, i1]\n"
		   "i2 = int_ge(i0, 0)\n"
		   "guard_true(i2, descr=g0) []\n"
		   "i3 = int_le(i0, 10)\n"
		   "guard_true(i3, descr=g1) []\n"
		   "i4 = int_ge(i1, 10)\n"
		   "guard_true(i4, descr=g2) []\n"
		   "i5 = int_lt(i1, 100)\n"
		   "guard_true(i5, descr=g3) []\n"
		   "i6 = int_py_mod(i0, i1)\n"
		   "finish(i6)\n");
	/* x may be negative: -1 % 10 is 9. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_ge(i0, -1)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_lt(i0, 10)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_ge(i1, 10)\n"
		   "guard_true(i4) []\n"
		   "i6 = int_py_mod(i0, i1)\n"
		   "finish(i6)\n",
		   "[i0, i1]\n"
		   "i2 = int_ge(i0, -1)\n"
		   "guard_true(i2, descr=g0) []\n"
		   "i3 = int_lt(i0, 10)\n"
		   "guard_true(i3, descr=g1) []\n"
		   "i4 = int_ge(i1, 10)\n"
		   "guard_true(i4, descr=g2) []\n"
		   "i6 = int_py_mod(i0, i1)\n"
		   "finish(i6)\n");
}

/* x & y is x when every bit that may be 1 in x is known 1 in y; x | y is
 * x when every bit that may be 1 in y is known 1 in x. */
static void test_use_bounds_and_or(void)
{
	/* x in [0, 255] & 255: x.  x in [0, 256]: 256 & 255 is 0. */
	EXPECT_OPT("[i0]\n"
		   "i1 = uint_lt(i0, 256)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_and(i0, 255)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = uint_lt(i0, 256)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "finish(i0)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = uint_lt(i0, 257)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_and(i0, 255)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = uint_lt(i0, 257)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "i2 = int_and(i0, 255)\n"
		   "finish(i2)\n");
	/* (x | 3) | y for y in [0, 3] is x | 3; for y in [0, 4] it is not. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_or(i0, 3)\n"
		   "i3 = uint_lt(i1, 4)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_or(i2, i1)\n"
		   "finish(i4)\n",
		   "[i0, i1]\n"
		   "i2 = int_or(i0, 3)\n"
		   "i3 = uint_lt(i1, 4)\n"
		   "guard_true(i3, descr=g0) []\n"
		   "finish(i2)\n");
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_or(i0, 3)\n"
		   "i3 = uint_lt(i1, 5)\n"
		   "guard_true(i3) []\n"
		   "i4 = int_or(i2, i1)\n"
		   "finish(i4)\n",
		   "[i0, i1]\n"
		   "i2 = int_or(i0, 3)\n"
		   "i3 = uint_lt(i1, 5)\n"
		   "guard_true(i3, descr=g0) []\n"
		   "i4 = int_or(i2, i1)\n"
		   "finish(i4)\n");
}

/* int_force_ge_zero of x >= 0, int_is_true of x in [0, 1] and
 * int_signext(x, n) of x that fits in n bytes are x. */
static void test_use_bounds_unary(void)
{
	EXPECT_OPT("[i0]\n"
		   "i1 = int_ge(i0, 0)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_force_ge_zero(i0)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = int_ge(i0, 0)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "finish(i0)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = int_ge(i0, -1)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_force_ge_zero(i0)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = int_ge(i0, -1)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "i2 = int_force_ge_zero(i0)\n"
		   "finish(i2)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = uint_lt(i0, 2)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_is_true(i0)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = uint_lt(i0, 2)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "finish(i0)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = uint_lt(i0, 3)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_is_true(i0)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = uint_lt(i0, 3)\n"
		   "guard_true(i1, descr=g0) []\n"
		   "i2 = int_is_true(i0)\n"
		   "finish(i2)\n");
	/* Sign extension from 1 byte: x in [-128, 127] fits, [-128, 128]
	 * and [-129, 127] do not (2^7 and -2^7-1 change). */
	static const char *const ranges[3][2] = {
	    {"-128", "127"}, {"-128", "128"}, {"-129", "127"}};
	for (int k = 0; k < 3; k++) {
		char src[512], want[512];
		snprintf(src, sizeof src,
			 "[i0]\ni1 = int_ge(i0, %s)\nguard_true(i1) []\n"
			 "i2 = int_le(i0, %s)\nguard_true(i2) []\n"
			 "i3 = int_signext(i0, 1)\nfinish(i3)\n",
			 ranges[k][0], ranges[k][1]);
		snprintf(want, sizeof want,
			 "[i0]\ni1 = int_ge(i0, %s)\n"
			 "guard_true(i1, descr=g0) []\n"
			 "i2 = int_le(i0, %s)\n"
			 "guard_true(i2, descr=g1) []\n%s",
			 ranges[k][0], ranges[k][1],
			 k == 0 ? "finish(i0)\n"
				: "i3 = int_signext(i0, 1)\nfinish(i3)\n");
		EXPECT_OPT(src, want);
	}
}

/* The same traces must stay sound at widths 8, 16 and 32. */
static void test_all_widths(void)
{
	SOUND_ALL_WIDTHS("[i0]\n"
			 "i1 = int_add(i0, 10)\ni2 = int_lt(i1, 15)\n"
			 "guard_true(i2) [i0]\ni3 = int_lt(i0, 6)\n"
			 "guard_true(i3) [i0]\ni4 = int_sub(0, i0)\n"
			 "i5 = int_lt(i4, 0)\nguard_true(i5) [i0]\n"
			 "i6 = int_gt(i0, 0)\nguard_true(i6) [i0]\n"
			 "jump(i1)\n");
	SOUND_ALL_WIDTHS("[i0, i1]\n"
			 "i2 = int_mul(i0, 12)\nguard_value(i2, 12) []\n"
			 "i3 = int_lshift(i1, 4)\nguard_value(i3, 0) []\n"
			 "i4 = int_or(i0, 1)\ni5 = int_force_ge_zero(i4)\n"
			 "i6 = int_is_true(i5)\nguard_true(i6) []\n"
			 "i7 = int_and(i4, 1)\n"
			 "finish(i0, i1, i5, i7)\n");
	SOUND_ALL_WIDTHS("[i0, i1]\n"
			 "i2 = int_and(i1, 7)\ni3 = int_lshift(1, i2)\n"
			 "i4 = int_py_div(i0, i3)\ni5 = int_py_mod(i0, i3)\n"
			 "i6 = int_add_ovf(i4, i5)\nguard_no_overflow()\n"
			 "i7 = int_lt(i6, i0)\nguard_false(i7)\n"
			 "finish(i6)\n");
}

int main(void)
{
	test_lt_chains();
	test_add();
	test_ovf_to_plain();
	test_masks();
	test_bool_and_misc();
	test_use_bounds_mod();
	test_use_bounds_and_or();
	test_use_bounds_unary();
	test_all_widths();
	return check_summary("test_opt_bounds");
}
