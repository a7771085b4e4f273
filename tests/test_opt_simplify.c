/*
 * test_opt_simplify.c - arithmetic simplification and strength reduction
 * (passes/simplify.c, passes/intdiv.c).
 */
#include "passes/intdiv.h"
#include "test_opt_util.h"

/* "Implementing a Toy Optimizer": strength reduction, the single-pass
 * optimizer's three examples. */
static void test_toy(void)
{
	EXPECT_OPT_P("simplify,dce",
		     "var0 = getarg(0)\n"
		     "var1 = add(var0, var0)\n"
		     "print(var1)\n",
		     "var0 = getarg(0)\n"
		     "var1 = int_lshift(var0, 1)\n"
		     "print(var1)\n");
	/* cse + strength reduction */
	EXPECT_OPT("var0 = getarg(0)\n"
		   "var1 = getarg(1)\n"
		   "var2 = add(var0, var1)\n"
		   "var3 = add(var0, var1)\n"
		   "var4 = add(var2, 2)\n"
		   "var5 = add(var3, 2)\n"
		   "var6 = add(var4, var5)\n"
		   "print(var6)\n",
		   "var0 = getarg(0)\n"
		   "var1 = getarg(1)\n"
		   "var2 = int_add(var0, var1)\n"
		   "var4 = int_add(var2, 2)\n"
		   "var6 = int_lshift(var4, 1)\n"
		   "print(var6)\n");
	/* removing + 0 */
	EXPECT_OPT("var0 = getarg(0)\n"
		   "var1 = add(16, -16)\n"
		   "var2 = add(var0, var1)\n"
		   "var3 = add(0, var2)\n"
		   "var4 = add(var2, var3)\n"
		   "print(var4)\n",
		   "var0 = getarg(0)\n"
		   "var4 = int_lshift(var0, 1)\n"
		   "print(var4)\n");
}

static void test_identities(void)
{
	EXPECT_OPT_P(
	    "simplify,dce",
	    "[i0, i1]\n"
	    "i2 = int_add(i0, 0)\n"
	    "i3 = int_mul(i1, 1)\n"
	    "i4 = int_mul(0, i1)\n"
	    "i5 = int_sub(i0, i0)\n"
	    "i6 = int_xor(i1, i1)\n"
	    "i7 = int_and(i0, 0)\n"
	    "i8 = int_or(i1, 0)\n"
	    "i9 = int_and(-1, i0)\n"
	    "i10 = int_or(i0, -1)\n"
	    "i11 = int_and(i1, i1)\n"
	    "i12 = int_or(i0, i0)\n"
	    "i13 = int_sub(i1, 0)\n"
	    "i14 = int_xor(0, i0)\n"
	    "finish(i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, "
	    "i13, i14)\n",
	    "[i0, i1]\n"
	    "finish(i0, i1, 0, 0, 0, 0, i1, i0, -1, i1, i0, i1, i0)\n");
	/* Double negation and inversion; neg of a difference. */
	EXPECT_OPT_P("simplify,dce",
		     "[i0, i1]\n"
		     "i2 = int_neg(i0)\n"
		     "i3 = int_neg(i2)\n"
		     "i4 = int_invert(i1)\n"
		     "i5 = int_invert(i4)\n"
		     "i6 = int_sub(i0, i1)\n"
		     "i7 = int_neg(i6)\n"
		     "i8 = int_xor(i0, -1)\n"
		     "i9 = int_sub(0, i1)\n"
		     "finish(i3, i5, i7, i8, i9)\n",
		     "[i0, i1]\n"
		     "i7 = int_sub(i1, i0)\n"
		     "i8 = int_invert(i0)\n"
		     "i9 = int_neg(i1)\n"
		     "finish(i0, i1, i7, i8, i9)\n");
	/* Comparisons of a value with itself, int_is_true of a comparison. */
	EXPECT_OPT_P("simplify,dce",
		     "[i0, i1]\n"
		     "i2 = int_lt(i0, i0)\n"
		     "i3 = int_le(i0, i0)\n"
		     "i4 = uint_gt(i1, i1)\n"
		     "i5 = uint_ge(i1, i1)\n"
		     "i6 = int_eq(i0, i0)\n"
		     "i7 = int_ne(i0, i0)\n"
		     "i8 = int_gt(i0, i1)\n"
		     "i9 = int_is_true(i8)\n"
		     "i10 = int_is_zero(i9)\n"
		     "i11 = int_is_zero(i10)\n"
		     "finish(i2, i3, i4, i5, i6, i7, i9, i11)\n",
		     "[i0, i1]\n"
		     "i8 = int_gt(i0, i1)\n"
		     "finish(0, 1, 0, 1, 1, 0, i8, i8)\n");
}

static void test_strength_reduction(void)
{
	EXPECT_OPT_P("simplify,dce",
		     "[i0]\n"
		     "i1 = int_mul(i0, 8)\n"
		     "i2 = int_mul(4, i0)\n"
		     "i3 = int_mul(i0, -9223372036854775808)\n"
		     "i4 = int_mul(i0, -1)\n"
		     "i5 = int_mul(i0, 6)\n"
		     "finish(i1, i2, i3, i4, i5)\n",
		     "[i0]\n"
		     "i1 = int_lshift(i0, 3)\n"
		     "i2 = int_lshift(i0, 2)\n"
		     "i3 = int_lshift(i0, 63)\n"
		     "i4 = int_neg(i0)\n"
		     "i5 = int_mul(i0, 6)\n"
		     "finish(i1, i2, i3, i4, i5)\n");
	/* Shifts by zero, of zero, out of range, and chained. */
	EXPECT_OPT_P("simplify,dce",
		     "[i0, i1]\n"
		     "i2 = int_lshift(0, i1)\n"
		     "i3 = int_rshift(0, i1)\n"
		     "i4 = int_lshift(i0, 0)\n"
		     "i5 = uint_rshift(i0, 0)\n"
		     "i6 = int_lshift(i0, 64)\n"
		     "i7 = int_rshift(-1, i1)\n"
		     "i8 = int_lshift(i0, 3)\n"
		     "i9 = int_lshift(i8, 4)\n"
		     "i10 = int_rshift(i0, 40)\n"
		     "i11 = int_rshift(i10, 40)\n"
		     "i12 = uint_rshift(i0, 40)\n"
		     "i13 = uint_rshift(i12, 40)\n"
		     "finish(i2, i3, i4, i5, i6, i7, i9, i11, i13)\n",
		     "[i0, i1]\n"
		     "i9 = int_lshift(i0, 7)\n"
		     "i11 = int_rshift(i0, 63)\n"
		     "finish(0, 0, i0, i0, 0, -1, i9, i11, 0)\n");
}

/* PyPy's test_addsub_* and test_int_add_sub_constants_inverse. */
static void test_add_sub(void)
{
	EXPECT_OPT("[i0, i10]\n"
		   "i1 = int_add(i0, i10)\n"
		   "i2 = int_sub(i1, i10)\n"
		   "i3 = int_add(i2, i10)\n"
		   "i4 = int_add(i2, i3)\n"
		   "jump(i4, i10)\n",
		   "[i0, i10]\n"
		   "i1 = int_add(i0, i10)\n"
		   "i4 = int_add(i0, i1)\n"
		   "jump(i4, i10)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = int_add(i0, 1)\n"
		   "i2 = int_sub(i1, 1)\n"
		   "i3 = int_add(i2, 1)\n"
		   "jump(i2, i3)\n",
		   "[i0]\n"
		   "i1 = int_add(i0, 1)\n"
		   "jump(i0, i1)\n");
	EXPECT_OPT("[i0, i10, i11, i12, i13]\n"
		   "i2 = int_add(1, i0)\n"
		   "i3 = int_add(-1, i2)\n"
		   "i4 = int_sub(i0, -1)\n"
		   "i5 = int_sub(i0, i2)\n"
		   "jump(i0, i2, i3, i4, i5)\n",
		   "[i0, i10, i11, i12, i13]\n"
		   "i2 = int_add(1, i0)\n"
		   "jump(i0, i2, i0, i2, -1)\n");
	EXPECT_OPT("[i0, i10, i11, i12, i13, i14]\n"
		   "i2 = int_sub(i0, 1)\n"
		   "i3 = int_add(-1, i0)\n"
		   "i4 = int_add(i0, -1)\n"
		   "i5 = int_sub(i2, -1)\n"
		   "i6 = int_sub(i2, i0)\n"
		   "jump(i0, i2, i3, i4, i5, i6)\n",
		   "[i0, i10, i11, i12, i13, i14]\n"
		   "i2 = int_sub(i0, 1)\n"
		   "jump(i0, i2, i2, i2, i0, -1)\n");
	/* MININT is its own negation: x + MININT + MININT == x. */
	EXPECT_OPT("[i0, i10, i11, i12]\n"
		   "i2 = int_add(-9223372036854775808, i0)\n"
		   "i3 = int_add(i2, -9223372036854775808)\n"
		   "i4 = int_sub(i0, -9223372036854775808)\n"
		   "jump(i0, i2, i3, i4)\n",
		   "[i0, i10, i11, i12]\n"
		   "i2 = int_add(-9223372036854775808, i0)\n"
		   "jump(i0, i2, i0, i2)\n");
	/* (a + b) - b == a even though a + b may wrap. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_add(i0, i1)\n"
		   "i3 = int_sub(i2, i1)\n"
		   "i4 = int_sub(i2, i0)\n"
		   "i5 = int_sub(i0, i2)\n"
		   "finish(i3, i4, i5)\n",
		   "[i0, i1]\n"
		   "i5 = int_neg(i1)\n"
		   "finish(i0, i1, i5)\n");
}

/* The overflow-checked ops only get rules that decide the overflow. */
static void test_ovf(void)
{
	EXPECT_OPT_P("simplify,dce",
		     "[i0]\n"
		     "i1 = int_sub_ovf(i0, 0)\n"
		     "guard_no_overflow()\n"
		     "i2 = int_add_ovf(0, i1)\n"
		     "guard_no_overflow()\n"
		     "i3 = int_mul_ovf(i2, 1)\n"
		     "guard_no_overflow()\n"
		     "i4 = int_mul_ovf(0, i3)\n"
		     "guard_no_overflow()\n"
		     "i5 = int_sub_ovf(i3, i3)\n"
		     "guard_no_overflow()\n"
		     "jump(i3, i4, i5)\n",
		     "[i0]\njump(i0, 0, 0)\n");
	/* (a + b) - b after the add passed guard_no_overflow: no overflow
	 * is possible any more ("Finding JIT Optimizer Bugs", the correct
	 * variant). */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_add_ovf(i0, i1)\n"
		   "guard_no_overflow()\n"
		   "i3 = int_sub_ovf(i2, i1)\n"
		   "guard_no_overflow()\n"
		   "finish(i3, i2)\n",
		   "[i0, i1]\n"
		   "i2 = int_add_ovf(i0, i1)\n"
		   "guard_no_overflow(descr=g0)\n"
		   "finish(i0, i2)\n");
	/* ... but not after a wrapping add: the subtraction overflows
	 * exactly when the add wrapped (the bug ovf-cse). */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_add(i0, i1)\n"
		   "i3 = int_sub_ovf(i2, i1)\n"
		   "guard_no_overflow()\n"
		   "finish(i3)\n",
		   "[i0, i1]\n"
		   "i2 = int_add(i0, i1)\n"
		   "i3 = int_sub_ovf(i2, i1)\n"
		   "guard_no_overflow(descr=g0)\n"
		   "finish(i3)\n");
	/* A wrapping int_sub after an add_ovf is always a. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_add_ovf(i0, i1)\n"
		   "guard_no_overflow()\n"
		   "i3 = int_sub(i2, i1)\n"
		   "finish(i3)\n",
		   "[i0, i1]\n"
		   "i2 = int_add_ovf(i0, i1)\n"
		   "guard_no_overflow(descr=g0)\n"
		   "finish(i0)\n");
}

static void test_guards(void)
{
	/* PyPy's test_int_is_true_of_bool and the guard_value rewrites. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_gt(i0, i1)\n"
		   "i3 = int_is_true(i2)\n"
		   "i4 = int_is_true(i3)\n"
		   "guard_value(i4, 0) [i0, i1]\n"
		   "jump(i0, i1)\n",
		   "[i0, i1]\n"
		   "i2 = int_gt(i0, i1)\n"
		   "guard_false(i2, descr=g0) [i0, i1]\n"
		   "jump(i0, i1)\n");
	EXPECT_OPT("[i]\n"
		   "i1 = int_lt(i, 3)\n"
		   "guard_value(i1, 1) [i]\n"
		   "jump(i)\n",
		   "[i]\n"
		   "i1 = int_lt(i, 3)\n"
		   "guard_true(i1, descr=g0) [i]\n"
		   "jump(i)\n");
	/* guard_value(x, 1) on a value that may be 2 stays. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_and(i0, 3)\n"
		   "guard_value(i1, 1) [i0]\n"
		   "jump(i1)\n",
		   "[i0]\n"
		   "i1 = int_and(i0, 3)\n"
		   "guard_value(i1, 1, descr=g0) [i0]\n"
		   "jump(1)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = int_is_zero(i0)\n"
		   "guard_true(i1) [i0]\n"
		   "i2 = int_is_true(i0)\n"
		   "guard_false(i2) [i0]\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "guard_false(i0, descr=g0) [i0]\n"
		   "jump(0)\n");
}

static void test_division(void)
{
	EXPECT_OPT_P("simplify,dce",
		     "[i0, i1]\n"
		     "i2 = int_py_div(i0, 1)\n"
		     "i3 = int_py_div(i0, -1)\n"
		     "i4 = int_py_div(i0, 0)\n"
		     "i5 = int_py_mod(i0, 0)\n"
		     "i6 = int_py_mod(i0, -1)\n"
		     "i7 = int_py_mod(i0, 1)\n"
		     "i8 = int_py_div(i0, 8)\n"
		     "i9 = int_py_mod(i1, 16)\n"
		     "i10 = int_py_div(0, i1)\n"
		     "i11 = int_py_div(i0, -9223372036854775808)\n"
		     "i12 = int_py_div(i0, -4)\n"
		     "finish(i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12)\n",
		     "[i0, i1]\n"
		     "i3 = int_neg(i0)\n"
		     "i8 = int_rshift(i0, 3)\n"
		     "i9 = int_and(i1, 15)\n"
		     "i11 = int_py_div(i0, -9223372036854775808)\n"
		     "i12 = int_py_div(i0, -4)\n"
		     "finish(i0, i3, 0, i0, 0, 0, i8, i9, 0, i11, i12)\n");
	/* Division by a general constant: PyPy's intdiv sequence. */
	EXPECT_OPT_P("simplify,dce",
		     "[i0]\n"
		     "i1 = int_py_div(i0, 3)\n"
		     "finish(i1)\n",
		     "[i0]\n"
		     "i2 = int_rshift(i0, 63)\n"
		     "i3 = int_xor(i0, i2)\n"
		     "i4 = uint_mul_high(i3, -6148914691236517205)\n"
		     "i5 = uint_rshift(i4, 1)\n"
		     "i1 = int_xor(i5, i2)\n"
		     "finish(i1)\n");
	/* For a known non-negative dividend the sign fix-up goes. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_and(i0, 1023)\n"
		   "i2 = int_py_mod(i1, 10)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = int_and(i0, 1023)\n"
		   "i3 = uint_mul_high(i1, -3689348814741910323)\n"
		   "i4 = uint_rshift(i3, 3)\n"
		   "i5 = int_mul(i4, 10)\n"
		   "i2 = int_sub(i1, i5)\n"
		   "finish(i2)\n");
}

/* idiv_magic against floor division: every dividend at width 8 and 16,
 * edges and random values at 32 and 64. */
static void test_magic_numbers(void)
{
	bool ok = true;
	for (int w = 8; w <= 16 && ok; w += 8) {
		uint64_t max = sem_maxint(w);
		for (uint64_t k = 3; k <= max && ok; k += (w == 8 ? 1 : 37)) {
			uint64_t m;
			int s;
			if (!idiv_magic(w, k, &m, &s)) {
				ok = (k & (k - 1)) == 0;
				continue;
			}
			for (uint64_t n = 0; n <= max && ok; n++)
				ok = (sem_umulh(w, n, m) >> s) == n / k;
			if (!ok)
				fprintf(stderr, "magic w=%d k=%llu\n", w,
					(unsigned long long)k);
		}
	}
	for (int w = 32; w <= 64 && ok; w += 32) {
		uint64_t max = sem_maxint(w);
		for (int i = 0; i < 3000 && ok; i++) {
			uint64_t k =
			    i < 100 ? (uint64_t)i + 3 : tu_rand() & max;
			if (i % 7 == 0)
				k = max - (uint64_t)i;
			uint64_t m;
			int s;
			if (!idiv_magic(w, k, &m, &s))
				continue;
			uint64_t ns[] = {0,
					 1,
					 k - 1,
					 k,
					 k + 1,
					 max,
					 max - 1,
					 max / k * k,
					 max / k * k - 1,
					 tu_rand() & max,
					 tu_rand() & max};
			for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
				uint64_t n = ns[j] & max;
				if ((sem_umulh(w, n, m) >> s) != n / k) {
					fprintf(stderr,
						"magic w=%d k=%llu n=%llu\n", w,
						(unsigned long long)k,
						(unsigned long long)n);
					ok = false;
				}
			}
		}
	}
	CHECK(ok);
	uint64_t m;
	int s;
	CHECK(!idiv_magic(64, 8, &m, &s));
	CHECK(!idiv_magic(64, 2, &m, &s));
	CHECK(idiv_magic(64, 3, &m, &s) && m == UINT64_C(0xAAAAAAAAAAAAAAAB) &&
	      s == 1);
}

/* The whole division rewrite at width 8, every dividend and divisor:
 * the optimized trace computes exactly int_py_div / int_py_mod. */
static void test_division_exhaustive(void)
{
	bool ok = true;
	char src[200];
	for (int k = -128; k < 128 && ok; k++) {
		snprintf(src, sizeof src,
			 "[i0]\ni1 = int_py_div(i0, %d)\n"
			 "i2 = int_py_mod(i0, %d)\nfinish(i1, i2)\n",
			 k, k);
		ir_trace *t = tu_parse(src, 8);
		ir_trace *o = t ? tu_opt(t, NULL, NULL, NULL) : NULL;
		uint64_t wit[1];
		ok = t && o && !tu_find_divergence(t, o, wit);
		if (!ok)
			fprintf(stderr, "division by %d differs at width 8\n",
				k);
		ir_trace_free(t);
		ir_trace_free(o);
	}
	CHECK(ok);
	/* And with the dividend known non-negative. */
	SOUND_ALL_WIDTHS("[i0]\ni1 = int_and(i0, 127)\n"
			 "i2 = int_py_div(i1, 7)\ni3 = int_py_mod(i1, 7)\n"
			 "i4 = int_py_div(i0, 5)\ni5 = int_py_mod(i0, 12)\n"
			 "finish(i2, i3, i4, i5)\n");
}

/* Every rewrite here must hold at every width. */
static void test_all_widths(void)
{
	SOUND_ALL_WIDTHS("[i0, i1]\n"
			 "i2 = int_add(i0, 100)\ni3 = int_add(i2, 100)\n"
			 "i4 = int_sub(i3, 7)\ni5 = int_sub(5, i4)\n"
			 "i6 = int_sub(i5, 3)\ni7 = int_mul(i6, 64)\n"
			 "i8 = int_mul(i7, 3)\ni9 = int_lshift(i8, 3)\n"
			 "i10 = int_lshift(i9, 5)\ni11 = int_rshift(i0, 6)\n"
			 "i12 = int_rshift(i11, 7)\ni13 = int_xor(i1, 5)\n"
			 "i14 = int_xor(i13, 9)\ni15 = int_and(i14, 60)\n"
			 "i16 = int_and(i15, 15)\ni17 = int_or(i16, 3)\n"
			 "i18 = int_or(i17, 12)\ni19 = int_sub(i1, i0)\n"
			 "i20 = int_neg(i19)\ni21 = int_add(i0, i20)\n"
			 "i22 = int_signext(i0, 1)\ni23 = int_signext(i22, 1)\n"
			 "i24 = int_force_ge_zero(i1)\n"
			 "i25 = int_force_ge_zero(i24)\n"
			 "i26 = int_py_div(i0, 4)\ni27 = int_py_mod(i1, 8)\n"
			 "finish(i10, i12, i18, i21, i23, i25, i26, i27)\n");
	SOUND_ALL_WIDTHS("[i0, i1]\n"
			 "i2 = int_add_ovf(i0, i1)\nguard_no_overflow()\n"
			 "i3 = int_sub_ovf(i2, i1)\nguard_no_overflow()\n"
			 "i4 = int_sub_ovf(i0, i1)\nguard_overflow()\n"
			 "i5 = int_add_ovf(i4, i1)\nguard_no_overflow()\n"
			 "finish(i3, i5)\n");
}

int main(void)
{
	test_toy();
	test_identities();
	test_strength_reduction();
	test_add_sub();
	test_ovf();
	test_guards();
	test_division();
	test_magic_numbers();
	test_division_exhaustive();
	test_all_widths();
	return check_summary("test_opt_simplify");
}
