/*
 * test_opt_cse.c - common subexpression elimination (passes/cse.c).
 */
#include "test_opt_util.h"

/* "Implementing a Toy Optimizer": a * (b + 17) + (b + 17). */
static void test_toy_cse(void)
{
	EXPECT_OPT_P("cse",
		     "a = getarg(0)\n"
		     "b = getarg(1)\n"
		     "var1 = add(b, 17)\n"
		     "var2 = mul(a, var1)\n"
		     "var3 = add(b, 17)\n"
		     "var4 = add(var2, var3)\n"
		     "print(var4)\n",
		     "a = getarg(0)\n"
		     "b = getarg(1)\n"
		     "var1 = int_add(b, 17)\n"
		     "var2 = int_mul(a, var1)\n"
		     "var4 = int_add(var2, var1)\n"
		     "print(var4)\n");
}

static void test_commutative(void)
{
	EXPECT_OPT_P("cse",
		     "[i0, i1]\n"
		     "i2 = int_add(i0, i1)\n"
		     "i3 = int_add(i1, i0)\n"
		     "i4 = int_sub(i0, i1)\n"
		     "i5 = int_sub(i1, i0)\n"
		     "i6 = int_mul(i1, i0)\n"
		     "i7 = int_mul(i0, i1)\n"
		     "i8 = int_lt(i0, i1)\n"
		     "i9 = int_lt(i1, i0)\n"
		     "i10 = uint_mul_high(i0, i1)\n"
		     "i11 = uint_mul_high(i1, i0)\n"
		     "jump(i2, i3, i4, i5, i6, i7, i8, i9, i10, i11)\n",
		     "[i0, i1]\n"
		     "i2 = int_add(i0, i1)\n"
		     "i4 = int_sub(i0, i1)\n"
		     "i5 = int_sub(i1, i0)\n"
		     "i6 = int_mul(i1, i0)\n"
		     "i8 = int_lt(i0, i1)\n"
		     "i9 = int_lt(i1, i0)\n"
		     "i10 = uint_mul_high(i0, i1)\n"
		     "jump(i2, i2, i4, i5, i6, i6, i8, i9, i10, i10)\n");
}

/* A wrapping op and its overflow-checked twin compute the same value, but
 * only one direction of merging keeps the overflow check. */
static void test_ovf_twins(void)
{
	/* int_add_ovf after int_add keeps its check. */
	EXPECT_OPT_P("cse",
		     "[i0, i1]\n"
		     "i2 = int_add(i0, i1)\n"
		     "i3 = int_add_ovf(i0, i1)\n"
		     "guard_no_overflow() [i2]\n"
		     "jump(i2, i3)\n",
		     "[i0, i1]\n"
		     "i2 = int_add(i0, i1)\n"
		     "i3 = int_add_ovf(i0, i1)\n"
		     "guard_no_overflow(descr=g0) [i2]\n"
		     "jump(i2, i3)\n");
	/* int_add after an int_add_ovf that passed is the same value. */
	EXPECT_OPT_P("cse",
		     "[i0, i1]\n"
		     "i3 = int_add_ovf(i1, i0)\n"
		     "guard_no_overflow()\n"
		     "i2 = int_add(i0, i1)\n"
		     "jump(i2, i3)\n",
		     "[i0, i1]\n"
		     "i3 = int_add_ovf(i1, i0)\n"
		     "guard_no_overflow(descr=g0)\n"
		     "jump(i3, i3)\n");
	/* After guard_overflow the twin is still the same (wrapped) value,
	 * but a second int_add_ovf may not reuse it. */
	EXPECT_OPT_P("cse",
		     "[i0, i1]\n"
		     "i2 = int_mul_ovf(i0, i1)\n"
		     "guard_overflow()\n"
		     "i3 = int_mul_ovf(i0, i1)\n"
		     "guard_overflow()\n"
		     "jump(i2, i3)\n",
		     "[i0, i1]\n"
		     "i2 = int_mul_ovf(i0, i1)\n"
		     "guard_overflow(descr=g0)\n"
		     "i3 = int_mul_ovf(i0, i1)\n"
		     "guard_overflow(descr=g1)\n"
		     "jump(i2, i3)\n");
	/* PyPy's test_remove_duplicate_pure_op_ovf. */
	EXPECT_OPT("[i1]\n"
		   "i3 = int_add_ovf(i1, 1)\n"
		   "guard_no_overflow() []\n"
		   "i3b = int_is_true(i3)\n"
		   "guard_true(i3b) []\n"
		   "i4 = int_add_ovf(i1, 1)\n"
		   "guard_no_overflow() []\n"
		   "i4b = int_is_true(i4)\n"
		   "guard_true(i4b) []\n"
		   "jump(i3, i4)\n",
		   "[i1]\n"
		   "i3 = int_add_ovf(i1, 1)\n"
		   "guard_no_overflow(descr=g0) []\n"
		   "guard_true(i3, descr=g1) []\n"
		   "jump(i3, i3)\n");
	/* PyPy's test_subsub_ovf. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_sub_ovf(1, i0)\n"
		   "guard_no_overflow() []\n"
		   "i2 = int_gt(i1, 1)\n"
		   "guard_true(i2) []\n"
		   "i3 = int_sub_ovf(1, i0)\n"
		   "guard_no_overflow() []\n"
		   "i4 = int_gt(i3, 1)\n"
		   "guard_true(i4) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "i1 = int_sub_ovf(1, i0)\n"
		   "guard_no_overflow(descr=g0) []\n"
		   "i2 = int_gt(i1, 1)\n"
		   "guard_true(i2, descr=g1) []\n"
		   "jump(i0)\n");
}

static void test_guards(void)
{
	/* A second guard_true(x) on the same x always passes. */
	EXPECT_OPT_P("cse,fold",
		     "[i0]\n"
		     "guard_true(i0, descr=a)\n"
		     "guard_true(i0, descr=b)\n"
		     "i1 = int_is_true(i0)\n"
		     "guard_true(i1, descr=c)\n"
		     "i2 = int_is_true(i0)\n"
		     "guard_true(i2, descr=d)\n"
		     "jump(i0)\n",
		     "[i0]\n"
		     "guard_true(i0, descr=a)\n"
		     "i1 = int_is_true(i0)\n"
		     "guard_true(i1, descr=c)\n"
		     "jump(i0)\n");
	/* PyPy's test_int_is_true_1 and test_int_is_true_is_zero. */
	EXPECT_OPT("[i0]\n"
		   "i1 = int_is_true(i0)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_is_true(i0)\n"
		   "guard_true(i2) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "guard_true(i0, descr=g0) []\n"
		   "jump(i0)\n");
	EXPECT_OPT("[i0]\n"
		   "i1 = int_is_true(i0)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_is_zero(i0)\n"
		   "guard_false(i2) []\n"
		   "jump(i0)\n",
		   "[i0]\n"
		   "guard_true(i0, descr=g0) []\n"
		   "jump(i0)\n");
}

static void test_refs_and_forwarding(void)
{
	/* Pointer comparisons are pure too. */
	EXPECT_OPT_P("cse",
		     "[p0, p1]\n"
		     "i2 = ptr_eq(p0, p1)\n"
		     "i3 = ptr_eq(p1, p0)\n"
		     "i4 = ptr_ne(p0, p1)\n"
		     "finish(i2, i3, i4)\n",
		     "[p0, p1]\n"
		     "i2 = ptr_eq(p0, p1)\n"
		     "i4 = ptr_ne(p0, p1)\n"
		     "finish(i2, i2, i4)\n");
	/* Keys use the forwarded arguments: i3 and i4 become equal once
	 * i1 is known to be i2's value 7... both fold instead. */
	EXPECT_OPT("[i0, i1]\n"
		   "i2 = int_mul(i0, i1)\n"
		   "guard_value(i1, 7) []\n"
		   "i3 = int_mul(i0, 7)\n"
		   "i4 = int_mul(i0, i1)\n"
		   "jump(i2, i3, i4)\n",
		   "[i0, i1]\n"
		   "i2 = int_mul(i0, i1)\n"
		   "guard_value(i1, 7, descr=g0) []\n"
		   "i3 = int_mul(i0, 7)\n"
		   "jump(i2, i3, i3)\n");
}

int main(void)
{
	test_toy_cse();
	test_commutative();
	test_ovf_twins();
	test_guards();
	test_refs_and_forwarding();
	return check_summary("test_opt_cse");
}
