/*
 * test_opt_fold.c - constant folding (passes/fold.c), including the
 * examples of the toy optimizer tutorial and guards on constants.
 */
#include "test_opt_util.h"

/* "Implementing a Toy Optimizer": constant folding, with and without the
 * union-find (the second add only folds because var1 is forwarded to 9). */
static void test_toy_constfold(void)
{
	EXPECT_OPT_P("fold",
		     "var0 = getarg(0)\n"
		     "var1 = add(5, 4)\n"
		     "var2 = add(var1, var0)\n"
		     "print(var2)\n",
		     "var0 = getarg(0)\n"
		     "var2 = int_add(9, var0)\n"
		     "print(var2)\n");
	EXPECT_OPT_P("fold",
		     "var0 = getarg(0)\n"
		     "var1 = add(5, 4)\n"
		     "var2 = add(var1, 10)\n"
		     "var3 = add(var2, var0)\n"
		     "print(var3)\n",
		     "var0 = getarg(0)\n"
		     "var3 = int_add(19, var0)\n"
		     "print(var3)\n");
}

static void test_fold_every_op(void)
{
	/* Folding uses sem_eval, so wraparound, shifts out of range and the
	 * division rules come out exactly as the interpreter has them. */
	EXPECT_OPT_P("fold",
		     "[]\n"
		     "i0 = int_add(9223372036854775807, 1)\n"
		     "i1 = int_mul(i0, -1)\n"
		     "i2 = int_py_div(-7, 2)\n"
		     "i3 = int_py_mod(-7, 2)\n"
		     "i4 = int_py_div(5, 0)\n"
		     "i5 = int_py_mod(5, 0)\n"
		     "i6 = int_lshift(1, 64)\n"
		     "i7 = int_rshift(-8, 100)\n"
		     "i8 = uint_rshift(-1, 60)\n"
		     "i9 = int_py_div(i0, -1)\n"
		     "i10 = uint_mul_high(-1, -1)\n"
		     "i11 = int_signext(255, 1)\n"
		     "i12 = int_force_ge_zero(-5)\n"
		     "i13 = uint_lt(-1, 0)\n"
		     "i14 = int_lt(-1, 0)\n"
		     "i15 = int_is_zero(0)\n"
		     "finish(i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, "
		     "i10, i11, i12, i13, i14, i15)\n",
		     "[]\n"
		     "finish(-9223372036854775808, -9223372036854775808, -4, "
		     "1, 0, 5, 0, -1, 15, -9223372036854775808, -2, -1, 0, "
		     "0, 1, 1)\n");
	/* The same at width 8. */
	EXPECT_OPT_W(8,
		     "[]\n"
		     "i0 = int_add(127, 1)\n"
		     "i1 = int_mul(16, 16)\n"
		     "i2 = int_sub(-128, 1)\n"
		     "i3 = int_neg(-128)\n"
		     "finish(i0, i1, i2, i3)\n",
		     "[]\nfinish(-128, 0, 127, -128)\n");
}

static void test_fold_ovf(void)
{
	/* No overflow: the op and its guard go. */
	EXPECT_OPT_P("fold",
		     "[]\n"
		     "i0 = int_add_ovf(2, 3)\n"
		     "guard_no_overflow()\n"
		     "i1 = int_mul_ovf(i0, 4)\n"
		     "guard_no_overflow()\n"
		     "finish(i1)\n",
		     "[]\nfinish(20)\n");
	/* guard_overflow after an op that overflows passes. */
	EXPECT_OPT_P("fold",
		     "[]\n"
		     "i0 = int_add_ovf(9223372036854775807, 1)\n"
		     "guard_overflow()\n"
		     "finish(i0)\n",
		     "[]\nfinish(-9223372036854775808)\n");
	/* guard_no_overflow after one that overflows always fails: the guard
	 * stays as guard_true(0) with its label and fail-args, and the trace
	 * ends there. */
	EXPECT_OPT_P("fold",
		     "[i0]\n"
		     "i1 = int_add(i0, 1)\n"
		     "i2 = int_sub_ovf(-9223372036854775808, 1)\n"
		     "guard_no_overflow() [i0, i1]\n"
		     "i3 = int_mul(i2, i0)\n"
		     "escape_n(i3)\n"
		     "finish(i1, i3)\n",
		     "[i0]\n"
		     "i1 = int_add(i0, 1)\n"
		     "guard_true(0, descr=g0) [i0, i1]\n"
		     "finish(i1, 0)\n");
}

static void test_fold_guards(void)
{
	/* PyPy's test_constant_propagate: everything is constant. */
	EXPECT_OPT("[]\n"
		   "i0 = int_add(2, 3)\n"
		   "i1 = int_is_true(i0)\n"
		   "guard_true(i1) []\n"
		   "i2 = int_is_zero(i1)\n"
		   "guard_false(i2) []\n"
		   "guard_value(i0, 5) []\n"
		   "jump()\n",
		   "[]\njump()\n");
	/* A guard on constants that fails is kept, labelled, and ends the
	 * trace; outputs computed after it become 0. */
	EXPECT_OPT_P("fold",
		     "[i0]\n"
		     "guard_true(i0, descr=first)\n"
		     "i1 = int_lt(5, 3)\n"
		     "guard_true(i1) [i0]\n"
		     "i2 = int_add(i0, 1)\n"
		     "guard_true(i2)\n"
		     "jump(i0, i2)\n",
		     "[i0]\n"
		     "guard_true(i0, descr=first)\n"
		     "guard_true(0, descr=g1) [i0]\n"
		     "jump(i0, 0)\n");
	EXPECT_OPT_P("fold",
		     "[i0]\n"
		     "i1 = int_add(3, 4)\n"
		     "guard_value(i1, 8, descr=g) [i1]\n"
		     "finish(i0)\n",
		     "[i0]\n"
		     "guard_value(7, 8, descr=g) [7]\n"
		     "finish(i0)\n");
}

/* After a guard passes, what it tested is a constant. */
static void test_guard_learning(void)
{
	/* PyPy's test_remove_consecutive_guard_value_constfold. */
	EXPECT_OPT_P("fold",
		     "[i0]\n"
		     "guard_value(i0, 0) []\n"
		     "i1 = int_add(i0, 1)\n"
		     "guard_value(i1, 1) []\n"
		     "i2 = int_add(i1, 2)\n"
		     "jump(i2)\n",
		     "[i0]\n"
		     "guard_value(i0, 0, descr=g0) []\n"
		     "jump(3)\n");
	/* guard_false(x) makes x 0; guard_true(c) makes a comparison 1; the
	 * fail-args of the guard itself still read the value before. */
	EXPECT_OPT_P("fold",
		     "[i0, i1]\n"
		     "guard_false(i0) [i0]\n"
		     "i2 = int_lt(i1, 10)\n"
		     "guard_true(i2) [i2]\n"
		     "i3 = int_add(i2, i0)\n"
		     "finish(i3)\n",
		     "[i0, i1]\n"
		     "guard_false(i0, descr=g0) [i0]\n"
		     "i2 = int_lt(i1, 10)\n"
		     "guard_true(i2, descr=g1) [i2]\n"
		     "finish(1)\n");
	/* guard_true on a value that is not a comparison does not make it 1. */
	EXPECT_OPT_P("fold",
		     "[i0]\n"
		     "guard_true(i0)\n"
		     "i1 = int_add(i0, 1)\n"
		     "finish(i1)\n",
		     "[i0]\n"
		     "guard_true(i0, descr=g0)\n"
		     "i1 = int_add(i0, 1)\n"
		     "finish(i1)\n");
}

static void test_no_fold_of_refs(void)
{
	/* Addresses of constants are not known to the optimizer. */
	EXPECT_OPT("[p0]\n"
		   "i1 = ptr_eq(ConstPtr(a), ConstPtr(b))\n"
		   "i2 = ptr_ne(p0, NULL)\n"
		   "i3 = ptr_eq(p0, p0)\n"
		   "finish(i1, i2, i3)\n",
		   "[p0]\n"
		   "i1 = ptr_eq(ConstPtr(a), ConstPtr(b))\n"
		   "i2 = ptr_ne(p0, NULL)\n"
		   "finish(i1, i2, 1)\n");
}

/* Every pure or overflow-checked op is claimed by folding
 * (opt_fold_unhandled is NULL) and folds on constant arguments to the
 * constant sem_eval gives; every op folding does not claim has a reason. */
static void test_claims(void)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		const ir_opinfo *info = ir_opinfo_of(opc);
		const char *why = opt_fold_unhandled(opc);
		/* the switch has a case for every op: the fall-through answer
		 * means an op was added without one */
		CHECK(!why || strcmp(why, "not an op of the table") != 0);
		bool value = sem_evaluable(opc);
		CHECK(!why || *why);
		CHECK(!value || !why);
		if (why || !value || info->args[0] != 'i')
			continue;
		uint64_t a[2] = {5, 3};
		bool ovf;
		int64_t want = sem_signed(64, sem_eval(opc, 64, a, &ovf));
		char src[160], expected[64];
		snprintf(src, sizeof src, "[]\ni0 = %s(%s)\n%sfinish(i0)\n",
			 info->name, info->nargs == 1 ? "5" : "5, 3",
			 ir_op_has(opc, IRF_OVF) ? "guard_no_overflow()\n"
						 : "");
		snprintf(expected, sizeof expected, "[]\nfinish(%lld)\n",
			 (long long)want);
		tu_expect(__FILE__, __LINE__, 64, "fold", src, expected);
	}
	/* the guards folding decides */
	CHECK(!opt_fold_unhandled(IR_GUARD_TRUE));
	CHECK(!opt_fold_unhandled(IR_GUARD_FALSE));
	CHECK(!opt_fold_unhandled(IR_GUARD_VALUE));
	EXPECT_OPT_P("fold",
		     "[]\nguard_true(1)\nguard_false(0)\n"
		     "guard_value(3, 3)\nfinish()\n",
		     "[]\nfinish()\n");
}

int main(void)
{
	test_claims();
	test_toy_constfold();
	test_fold_every_op();
	test_fold_ovf();
	test_fold_guards();
	test_guard_learning();
	test_no_fold_of_refs();
	return check_summary("test_opt_fold");
}
