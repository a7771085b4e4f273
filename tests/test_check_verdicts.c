/* The verifier (verify/check.c and its check_*.c files): the classic
 * miscompilations; verdicts (unknown, Z3 errors, the isolated fallback,
 * settlements without the solver); facts, refolding, slicing; modes,
 * guards, fail-args; input errors and the JSON result.  The shared
 * helpers and the ground truth are in test_check_util.h.
 *
 * Sections:
 *   the classic examples
 *   verdicts, modes and errors
 */
#define _POSIX_C_SOURCE 200809L
#include "test_check_util.h"

/* ---- the classic examples ---------------------------------------------- */

static void test_wraparound(void)
{
	const char *orig = "[i0]\ni1 = int_add(i0, 10)\ni2 = int_lt(i1, 15)\n"
			   "guard_true(i2, descr=g0)\ni3 = int_lt(i0, 6)\n"
			   "guard_true(i3, descr=g1)\nfinish(i0)\n";
	const char *opt = "[i0]\ni1 = int_add(i0, 10)\ni2 = int_lt(i1, 15)\n"
			  "guard_true(i2, descr=g0)\nfinish(i0)\n";
	ver_opts o = test_opts();
	check_pair(orig, opt, 64, o, VER_REFUTED);
	o.screen_inputs = 0; /* the solver must find it too */
	check_pair(orig, opt, 64, o, VER_REFUTED);
	check_pair(orig, opt, 8, o, VER_REFUTED);
	const char *orig_ovf =
	    "[i0]\ni1 = int_add_ovf(i0, 10)\nguard_no_overflow(descr=g9)\n"
	    "i2 = int_lt(i1, 15)\nguard_true(i2, descr=g0)\n"
	    "i3 = int_lt(i0, 6)\nguard_true(i3, descr=g1)\nfinish(i0)\n";
	const char *opt_ovf =
	    "[i0]\ni1 = int_add_ovf(i0, 10)\nguard_no_overflow(descr=g9)\n"
	    "i2 = int_lt(i1, 15)\nguard_true(i2, descr=g0)\nfinish(i0)\n";
	check_pair(orig_ovf, opt_ovf, 64, test_opts(), VER_PROVED);
	check_pair(orig_ovf, opt_ovf, 8, test_opts(), VER_PROVED);
}

static void test_neg_minint(void)
{
	const char *orig =
	    "[i0]\ni1 = int_lt(i0, 0)\nguard_true(i1, descr=g0)\n"
	    "i2 = int_neg(i0)\ni3 = int_gt(i2, 0)\n"
	    "guard_true(i3, descr=g1)\nfinish(i2)\n";
	const char *opt = "[i0]\ni1 = int_lt(i0, 0)\nguard_true(i1, descr=g0)\n"
			  "i2 = int_neg(i0)\nfinish(i2)\n";
	ver_opts o = test_opts();
	o.screen_inputs = 0;
	check_pair(orig, opt, 64, o, VER_REFUTED);
	/* The counterexample is exactly MININT. */
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	ver_result r;
	jp_err err;
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_REFUTED);
	CHECK_EQ_U64(r.inputs[0], UINT64_C(0x8000000000000000));
	ver_result_free(&r);
	ir_trace_free(a);
	ir_trace_free(b);
	const char *orig_ovf =
	    "[i0]\ni1 = int_lt(i0, 0)\nguard_true(i1, descr=g0)\n"
	    "i2 = int_sub_ovf(0, i0)\nguard_no_overflow(descr=g2)\n"
	    "i3 = int_gt(i2, 0)\nguard_true(i3, descr=g1)\nfinish(i2)\n";
	const char *opt_ovf =
	    "[i0]\ni1 = int_lt(i0, 0)\nguard_true(i1, descr=g0)\n"
	    "i2 = int_sub_ovf(0, i0)\nguard_no_overflow(descr=g2)\n"
	    "finish(i2)\n";
	check_pair(orig_ovf, opt_ovf, 64, test_opts(), VER_PROVED);
}

static void test_mul_12(void)
{
	const char *orig = "[i0]\ni1 = int_mul(i0, 12)\ni2 = int_eq(i1, 12)\n"
			   "guard_true(i2, descr=g0)\nfinish(i0)\n";
	const char *opt = "[i0]\ni1 = int_mul(i0, 12)\ni2 = int_eq(i1, 12)\n"
			  "guard_true(i2, descr=g0)\nfinish(1)\n";
	ver_opts o = test_opts();
	o.screen_inputs = 0;
	check_pair(orig, opt, 64, o, VER_REFUTED);
	check_pair(orig, opt, 32, o, VER_REFUTED);
	const char *orig_ovf =
	    "[i0]\ni1 = int_mul_ovf(i0, 12)\nguard_no_overflow(descr=g1)\n"
	    "i2 = int_eq(i1, 12)\nguard_true(i2, descr=g0)\nfinish(i0)\n";
	const char *opt_ovf =
	    "[i0]\ni1 = int_mul_ovf(i0, 12)\nguard_no_overflow(descr=g1)\n"
	    "i2 = int_eq(i1, 12)\nguard_true(i2, descr=g0)\nfinish(1)\n";
	check_pair(orig_ovf, opt_ovf, 64, test_opts(), VER_PROVED);
	check_pair(orig_ovf, opt_ovf, 16, test_opts(), VER_PROVED);
}

static void test_ovf_sub_of_add(void)
{
	const char *orig = "[i0, i1]\ni2 = int_add(i0, i1)\n"
			   "i3 = int_sub_ovf(i2, i1)\n"
			   "guard_no_overflow(descr=g0)\nfinish(i3)\n";
	const char *opt = "[i0, i1]\nfinish(i0)\n";
	ver_opts o = test_opts();
	o.screen_inputs = 0;
	check_pair(orig, opt, 64, o, VER_REFUTED);
	const char *orig_ovf =
	    "[i0, i1]\ni2 = int_add_ovf(i0, i1)\nguard_no_overflow(descr=g1)\n"
	    "i3 = int_sub_ovf(i2, i1)\nguard_no_overflow(descr=g0)\n"
	    "finish(i3)\n";
	const char *opt_ovf =
	    "[i0, i1]\ni2 = int_add_ovf(i0, i1)\nguard_no_overflow(descr=g1)\n"
	    "finish(i0)\n";
	check_pair(orig_ovf, opt_ovf, 64, test_opts(), VER_PROVED);
}

/* ---- verdicts, modes and errors ---------------------------------------- */

static const char *HARD_ORIG = "[i0, i1]\nfinish(i0)\n";
static const char *HARD_OPT = "[i0, i1]\ni2 = int_py_div(i0, i1)\n"
			      "i3 = int_mul(i2, i1)\ni4 = int_py_mod(i0, i1)\n"
			      "i5 = int_add(i3, i4)\nfinish(i5)\n";

static void test_unknown(void)
{
	ver_opts o = test_opts();
	o.rlimit = 1;
	ir_trace *a = parse(HARD_ORIG, 64), *b = parse(HARD_OPT, 64);
	ver_result r;
	jp_err err;
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_UNKNOWN);
	CHECK(r.failed == 0);
	CHECK(r.nobl == 1 && r.obl[0].status == VER_UNKNOWN);
	CHECK(r.by_solver == 0 && r.by_identity == 0);
	ver_result_free(&r);
	/* A timeout is unknown too, never proved. */
	o.rlimit = 0;
	o.timeout_ms = 1;
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_UNKNOWN);
	ver_result_free(&r);
	ir_trace_free(a);
	ir_trace_free(b);
	/* The same identity is provable at width 8. */
	o = test_opts();
	check_pair(HARD_ORIG, HARD_OPT, 8, o, VER_PROVED);
}

/* A Z3 error (out of memory, or any other exception Z3 reports through
 * its error handler; the test hook makes the handler fire at the N-th
 * solver set-up, in this process or in a fallback's child) ends the pair
 * as unknown with Z3's message as the reason: never an error, never a
 * verdict.  The next check works (the context is rebuilt). */
static void test_z3_error_is_unknown(void)
{
	ir_trace *a = parse(HARD_ORIG, 8), *b = parse(HARD_OPT, 8);
	int fired = 0;
	for (int iso = 0; iso < 2; iso++)
		for (unsigned n = 1; n <= 8; n++) {
			ver_opts o = ver_default_opts();
			o.isolate = iso;
			ver_result r;
			jp_err err;
			zc_test_fail_after(n);
			jp_status st = ver_check(C, a, b, &o, &r, &err);
			zc_test_fail_after(0);
			if (st)
				fprintf(stderr, "Z3 error hook at %u: %s\n", n,
					err.msg);
			CHECK(st == JP_OK);
			if (st)
				continue;
			CHECK(r.verdict != VER_REFUTED);
			if (r.verdict == VER_UNKNOWN) {
				fired++;
				CHECK(r.reason && strstr(r.reason, "Z3 error"));
				CHECK(r.failed >= 0);
			}
			ver_result_free(&r);
			CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
			CHECK(r.verdict == VER_PROVED);
			ver_result_free(&r);
		}
	CHECK(fired >= 2);
	ir_trace_free(a);
	ir_trace_free(b);
}

/* The fallback solver runs in a child process (ver_opts.isolate): its
 * counterexample must come back whole, and agree with the in-process
 * answer.  A product equal to a constant with both factors above 1 is
 * beyond the concrete screen, and the multiplication of two unknowns
 * makes the pair a hard one, which goes to the fallback. */
static void test_isolated_fallback(void)
{
	const char *orig = "[i0, i1]\ni2 = int_gt(i0, 1)\nguard_true(i2, "
			   "descr=a)\ni3 = int_gt(i1, 1)\nguard_true(i3, "
			   "descr=b)\ni4 = int_mul(i0, i1)\n"
			   "i5 = int_eq(i4, 1000036000099)\nfinish(i5)\n";
	const char *opt = "[i0, i1]\ni2 = int_gt(i0, 1)\nguard_true(i2, "
			  "descr=a)\ni3 = int_gt(i1, 1)\nguard_true(i3, "
			  "descr=b)\nfinish(0)\n";
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	for (int iso = 0; iso < 2; iso++) {
		ver_opts o = test_opts();
		o.isolate = iso;
		ver_result r;
		jp_err err;
		CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
		CHECK(r.verdict == VER_REFUTED);
		CHECK(r.slow_queries >= 1);
		CHECK(iso ? r.isolated >= 1 : r.isolated == 0);
		CHECK(r.isolated_lost == 0);
		if (r.verdict == VER_REFUTED && r.ninputs == 2) {
			/* Independent of verify/: the inputs really make
			 * the product the constant. */
			CHECK(r.inputs[0] * r.inputs[1] == 1000036000099u);
			CHECK((int64_t)r.inputs[0] > 1 &&
			      (int64_t)r.inputs[1] > 1);
			CHECK(behave_differently(a, b, r.inputs, true));
		}
		ver_result_free(&r);
	}
	ir_trace_free(a);
	ir_trace_free(b);
}

static void test_identity_no_solver(void)
{
	const char *t = "[i0, i1]\ni2 = int_add_ovf(i0, i1)\n"
			"guard_no_overflow(descr=a)\ni3 = int_py_div(i2, i1)\n"
			"i4 = int_lt(i3, i0)\nguard_false(i4, descr=b) [i3]\n"
			"jump(i3, i4)\n";
	ir_trace *a = parse(t, 64);
	ver_opts o = test_opts();
	o.failargs = true;
	ver_result r;
	jp_err err;
	CHECK(ver_check(C, a, a, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.solver_calls == 0);
	CHECK(r.by_identity == r.nobl);
	ver_result_free(&r);
	ir_trace_free(a);
}

/* Cheap settlements before the solver: the range analysis proves a removed
 * guard (a 128-bit product bound Z3 takes seconds on) and never one that
 * can fail; hiding a shared product proves a guard that follows from
 * another one whatever the product is. */
static ver_result check_stats(const char *orig, const char *opt)
{
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	ver_opts o = test_opts();
	ver_result r;
	jp_err err;
	memset(&r, 0, sizeof r);
	CHECK(a && b && ver_check(C, a, b, &o, &r, &err) == JP_OK);
	ir_trace_free(a);
	ir_trace_free(b);
	return r;
}

static void test_cheap_settlements(void)
{
	ver_result r = check_stats(
	    "[i0]\ni1 = uint_mul_high(1125899906842623, i0)\n"
	    "i2 = uint_ge(i1, 1125899906842624)\nguard_false(i2, descr=a)\n"
	    "finish(i1)\n",
	    "[i0]\ni1 = uint_mul_high(1125899906842623, i0)\nfinish(i1)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.nobl == 2 && r.obl[0].how == VER_BY_RANGE);
	CHECK(r.by_range == 1 && r.solver_calls == 0);
	ver_result_free(&r);
	r = check_stats("[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\n"
			"i2 = int_lt(i0, 9)\nguard_true(i2, descr=b)\n"
			"finish(i0)\n",
			"[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\n"
			"finish(i0)\n");
	CHECK(r.verdict == VER_REFUTED && r.by_range == 0);
	ver_result_free(&r);
	r = check_stats("[i0, i1]\ni2 = int_mul(i0, i1)\ni3 = int_lt(i2, i1)\n"
			"guard_true(i3, descr=a)\ni4 = int_le(i2, i1)\n"
			"guard_true(i4, descr=b)\nfinish(i2)\n",
			"[i0, i1]\ni2 = int_mul(i0, i1)\ni3 = int_lt(i2, i1)\n"
			"guard_true(i3, descr=a)\nfinish(i2)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.abstract_proved == 1 && r.slow_queries == 0);
	ver_result_free(&r);
	/* Hiding the product must not prove what needs it: a square is 0 or
	 * 1 modulo 4. */
	r = check_stats("[i0]\ni1 = int_mul(i0, i0)\ni2 = int_and(i1, 3)\n"
			"i3 = int_ne(i2, 2)\nguard_true(i3, descr=a)\n"
			"finish(i1)\n",
			"[i0]\ni1 = int_mul(i0, i0)\nfinish(i1)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.abstract_proved == 0);
	ver_result_free(&r);
}

/* An obligation a lemma makes identical terms is settled so, with no
 * further query (session 33): the optimizer's logical shift of a value a
 * guard keeps non-negative is the original's arithmetic one, a lemma the
 * solver proves in a few ms; output 0 is then the same term.  Before,
 * the goal from before the lemma was asked as well and its "solver"
 * replaced the "identity" (and a timeout of it made the output unknown:
 * ci --jobs 1 and 2 reported corpus pair str_copy_slice_read
 * differently). */
static void test_lemma_identity(void)
{
	ver_result r =
	    check_stats("[i0]\ni1 = int_lt(i0, 0)\nguard_false(i1, descr=a)\n"
			"i2 = int_rshift(i0, 1)\nfinish(i2)\n",
			"[i0]\ni1 = int_lt(i0, 0)\nguard_false(i1, descr=a)\n"
			"i2 = uint_rshift(i0, 1)\nfinish(i2)\n");
	CHECK(r.verdict == VER_PROVED && r.nobl == 2);
	CHECK(r.lemmas == 1 && r.solver_calls == 1);
	CHECK(r.nobl == 2 && r.obl[1].how == VER_BY_IDENTITY);
	CHECK(r.by_solver == 0);
	ver_result_free(&r);
}

/* What the assumptions pin (check.c, "facts"): a guard_value on x - 7
 * makes x the constant 10 in the terms after it, so the optimizer's
 * folded product is the same term without a solver call; a guard on a
 * comparison makes the comparison 1 later on.  The same pairs with the
 * constant wrong must still be refuted. */
static void test_facts(void)
{
	static const char *orig =
	    "[i0, i1]\ni2 = int_sub(i0, 7)\nguard_value(i2, 3, descr=a)\n"
	    "i3 = int_mul(i0, i1)\ni4 = int_lt(i1, i0)\n"
	    "guard_true(i4, descr=b)\ni5 = int_xor(i0, i1)\n"
	    "i6 = int_lt(i1, i0)\nfinish(i3, i5, i6)\n";
	ver_result r = check_stats(
	    orig, "[i0, i1]\ni2 = int_sub(i0, 7)\nguard_value(i2, 3, descr=a)\n"
		  "i3 = int_mul(i1, 10)\ni4 = int_lt(i1, 10)\n"
		  "guard_true(i4, descr=b)\ni5 = int_xor(i1, 10)\n"
		  "finish(i3, i5, 1)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.solver_calls == 0);
	ver_result_free(&r);
	r = check_stats(orig,
			"[i0, i1]\ni2 = int_sub(i0, 7)\nguard_value(i2, 3, "
			"descr=a)\ni3 = int_mul(i1, 11)\ni4 = int_lt(i1, 10)\n"
			"guard_true(i4, descr=b)\ni5 = int_xor(i1, 10)\n"
			"finish(i3, i5, 1)\n");
	CHECK(r.verdict == VER_REFUTED);
	ver_result_free(&r);
	/* A fact holds only after its guard: before it, i0 is free. */
	r = check_stats("[i0]\ni1 = int_add(i0, 1)\nguard_true(i1, descr=a)\n"
			"guard_value(i0, 5, descr=b)\nfinish(i0)\n",
			"[i0]\ni1 = int_add(5, 1)\nguard_true(i1, descr=a)\n"
			"guard_value(i0, 5, descr=b)\nfinish(5)\n");
	CHECK(r.verdict == VER_REFUTED);
	ver_result_free(&r);
}

/* A divisor a guard pins: the original divides by the guarded value, the
 * optimized trace by the folded constant.  Refolding gives the original's
 * division the optimized trace's term, so no solver is asked; a wrong
 * constant is still refuted. */
static void test_refold(void)
{
	static const char *orig =
	    "[i0, i1]\nguard_value(i1, 7, descr=a)\n"
	    "i2 = int_py_mod(i0, i1)\ni3 = int_py_div(i0, i1)\n"
	    "i4 = int_mul(i0, i1)\nfinish(i2, i3, i4)\n";
	ver_result r =
	    check_stats(orig, "[i0, i1]\nguard_value(i1, 7, descr=a)\n"
			      "i2 = int_py_mod(i0, 7)\ni3 = int_py_div(i0, 7)\n"
			      "i4 = int_mul(i0, 7)\nfinish(i2, i3, i4)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.solver_calls == 0);
	ver_result_free(&r);
	r = check_stats(orig, "[i0, i1]\nguard_value(i1, 7, descr=a)\n"
			      "i2 = int_py_mod(i0, 7)\ni3 = int_py_div(i0, 6)\n"
			      "i4 = int_mul(i0, 7)\nfinish(i2, i3, i4)\n");
	CHECK(r.verdict == VER_REFUTED);
	ver_result_free(&r);
}

/* Fallback queries are first asked with the assumptions their goal's
 * multipliers need (verify/slice.h).  Screening is off so that the solver
 * decides; at width 8 the ground truth is every input.  The dropped
 * assumption is a guard on a product the goal does not contain. */
static ver_verdict check_sliced(const char *orig, const char *opt,
				ver_verdict want)
{
	ver_opts o = test_opts();
	o.screen_inputs = 0;
	ir_trace *a = parse(orig, 8), *b = parse(opt, 8);
	ver_result r;
	jp_err err;
	memset(&r, 0, sizeof r);
	CHECK(a && b && ver_check(C, a, b, &o, &r, &err) == JP_OK);
	if (r.verdict != want)
		fprintf(stderr, "  verdict %s, expected %s for\n%s",
			ver_verdict_name(r.verdict), ver_verdict_name(want),
			orig);
	CHECK(r.verdict == want);
	/* The query reached the bit-blasting fallback, where slicing is,
	 * and its slice left an assumption out. */
	CHECK(r.slow_queries >= 1);
	CHECK(r.sliced >= 1);
	CHECK(r.by_concrete == 0);
	bool differ = a && b && differ_somewhere(a, b, true);
	CHECK(differ == (want == VER_REFUTED));
	if (r.verdict == VER_REFUTED)
		CHECK(behave_differently(a, b, r.inputs, true));
	ver_result_free(&r);
	ir_trace_free(a);
	ir_trace_free(b);
	return want;
}

static void test_slicing(void)
{
	/* Dropped and not needed: a square is 0 or 1 modulo 4 whatever the
	 * guard on y * y says. */
	check_sliced("[i0, i1]\ni2 = int_mul(i1, i1)\ni3 = int_ne(i2, 4)\n"
		     "guard_true(i3, descr=a)\ni4 = int_mul(i0, i0)\n"
		     "i5 = int_and(i4, 2)\ni6 = int_eq(i5, 0)\n"
		     "guard_true(i6, descr=b)\nfinish(i0)\n",
		     "[i0, i1]\ni2 = int_mul(i1, i1)\ni3 = int_ne(i2, 4)\n"
		     "guard_true(i3, descr=a)\ni4 = int_mul(i0, i0)\n"
		     "finish(i0)\n",
		     VER_PROVED);
	/* Dropped, and the slice's model must satisfy it: (x * x) & 4 is 4
	 * for x = 2, and the counterexample must pass guard a. */
	check_sliced("[i0, i1]\ni2 = int_mul(i1, i1)\ni3 = int_ne(i2, 4)\n"
		     "guard_true(i3, descr=a)\ni4 = int_mul(i0, i0)\n"
		     "i5 = int_and(i4, 4)\ni6 = int_eq(i5, 0)\n"
		     "guard_true(i6, descr=b)\nfinish(i0)\n",
		     "[i0, i1]\ni2 = int_mul(i1, i1)\ni3 = int_ne(i2, 4)\n"
		     "guard_true(i3, descr=a)\ni4 = int_mul(i0, i0)\n"
		     "finish(i0)\n",
		     VER_REFUTED);
	/* The slice is sat (x = 1), but only because it dropped x * x = 0,
	 * which makes x even: the model breaks it, it joins the slice, and
	 * the removed guard is proved. */
	check_sliced("[i0]\ni1 = int_mul(i0, i0)\ni2 = int_eq(i1, 0)\n"
		     "guard_true(i2, descr=a)\ni3 = int_and(i0, 1)\n"
		     "i4 = int_eq(i3, 0)\nguard_true(i4, descr=b)\n"
		     "finish(i0)\n",
		     "[i0]\ni1 = int_mul(i0, i0)\ni2 = int_eq(i1, 0)\n"
		     "guard_true(i2, descr=a)\nfinish(i0)\n",
		     VER_PROVED);
	/* The dropped assumption cannot hold (no square is 2 modulo 8): the
	 * removed guard holds vacuously, and the slice's model (x >= 5) is
	 * no counterexample. */
	check_sliced("[i0]\ni1 = int_mul(i0, i0)\ni2 = int_eq(i1, 2)\n"
		     "guard_true(i2, descr=a)\ni3 = int_lt(i0, 5)\n"
		     "guard_true(i3, descr=b)\nfinish(i0)\n",
		     "[i0]\ni1 = int_mul(i0, i0)\ni2 = int_eq(i1, 2)\n"
		     "guard_true(i2, descr=a)\nfinish(i0)\n",
		     VER_PROVED);
}

static void test_modes(void)
{
	/* Guards without labels in OPT: the pairing is inferred. */
	const char *orig =
	    "[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\n"
	    "i2 = int_lt(i0, 20)\nguard_true(i2, descr=b)\n"
	    "finish(i0)\n";
	const char *opt = "[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1)\n"
			  "finish(i0)\n";
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	ver_opts o = test_opts();
	ver_result r;
	jp_err err;
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.mode_used == VER_MODE_INFERRED);
	ver_result_free(&r);
	o.mode = VER_MODE_TRACE;
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_PROVED && r.mode_used == VER_MODE_TRACE);
	ver_result_free(&r);
	ir_trace_free(b);
	/* The guards swapped: inferred pairing fails, trace mode proves. */
	const char *swapped = "[i0]\ni2 = int_lt(i0, 20)\nguard_true(i2)\n"
			      "i1 = int_lt(i0, 10)\nguard_true(i1)\n"
			      "finish(i0)\n";
	b = parse(swapped, 64);
	o.mode = VER_MODE_AUTO;
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.mode_used == VER_MODE_TRACE);
	ver_result_free(&r);
	ir_trace_free(b);
	/* With labels, a guard moved before another is a counterexample
	 * where both can fail (i0 >= 20 leaves ORIG at a, OPT at b)... */
	const char *moved =
	    "[i0]\ni2 = int_lt(i0, 20)\nguard_true(i2, descr=b)\n"
	    "i1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\n"
	    "finish(i0)\n";
	o.screen_inputs = 0; /* the solver must find it */
	CHECK(check_pair(orig, moved, 64, o, VER_REFUTED) == VER_REFUTED);
	/* ... and proved where they never both fail. */
	const char *apart =
	    "[i0]\ni2 = int_le(i0, -5)\nguard_false(i2, descr=b)\n"
	    "i1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\n"
	    "finish(i0)\n";
	const char *apart_orig =
	    "[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\n"
	    "i2 = int_gt(i0, -5)\nguard_true(i2, descr=b)\n"
	    "finish(i0)\n";
	CHECK(check_pair(apart_orig, apart, 64, o, VER_PROVED) == VER_PROVED);
	o.screen_inputs = 32;
	/* jump vs finish. */
	b = parse("[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1, descr=a)\n"
		  "i2 = int_lt(i0, 20)\nguard_true(i2, descr=b)\njump(i0)\n",
		  64);
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_REFUTED);
	ver_result_free(&r);
	/* ... is fine when the end cannot be reached. */
	ir_trace_free(a);
	a = parse("[i0]\nguard_value(i0, 1, descr=a)\nguard_value(i0, 2, "
		  "descr=b)\nfinish(i0)\n",
		  64);
	ir_trace_free(b);
	b = parse("[i0]\nguard_value(i0, 1, descr=a)\nguard_value(i0, 2, "
		  "descr=b)\njump(i0, i0)\n",
		  64);
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_PROVED);
	ver_result_free(&r);
	ir_trace_free(a);
	ir_trace_free(b);
}

static void test_guards(void)
{
	ver_opts o = test_opts();
	const char *orig = "[i0, i1]\ni2 = int_lt(i0, i1)\n"
			   "guard_true(i2, descr=a)\nfinish(i0)\n";
	/* Same condition, other spelling and kind. */
	check_pair(orig,
		   "[i0, i1]\ni2 = int_ge(i0, i1)\nguard_false(i2, descr=a)\n"
		   "finish(i0)\n",
		   64, o, VER_PROVED);
	/* A weaker condition under the same label. */
	check_pair(orig,
		   "[i0, i1]\ni2 = int_le(i0, i1)\nguard_true(i2, descr=a)\n"
		   "finish(i0)\n",
		   64, o, VER_REFUTED);
	/* A new guard that can fail where the original passes. */
	check_pair(orig,
		   "[i0, i1]\ni2 = int_lt(i0, i1)\nguard_true(i2, descr=a)\n"
		   "i3 = int_lt(i0, 100)\nguard_true(i3, descr=new)\n"
		   "finish(i0)\n",
		   64, o, VER_REFUTED);
	/* A new guard implied by the earlier one. */
	check_pair(orig,
		   "[i0, i1]\ni2 = int_lt(i0, i1)\nguard_true(i2, descr=a)\n"
		   "i3 = int_ne(i0, i1)\nguard_true(i3, descr=new)\n"
		   "finish(i0)\n",
		   64, o, VER_PROVED);
	/* guard_value turned into guard_false. */
	check_pair("[i0]\nguard_value(i0, 0, descr=a)\nfinish(i0)\n",
		   "[i0]\nguard_false(i0, descr=a)\nfinish(0)\n", 64, o,
		   VER_PROVED);
	/* References: only compared, so handled exactly. */
	check_pair("[p0, p1]\ni2 = ptr_eq(p0, p1)\nguard_false(i2, descr=a)\n"
		   "guard_nonnull(p0, descr=b)\nfinish(p0)\n",
		   "[p0, p1]\ni2 = ptr_ne(p0, p1)\nguard_true(i2, descr=a)\n"
		   "guard_nonnull(p0, descr=b)\nfinish(p0)\n",
		   64, o, VER_PROVED);
	check_pair("[p0, p1]\nguard_nonnull(p0, descr=b)\nfinish(p0)\n",
		   "[p0, p1]\nfinish(p0)\n", 64, o, VER_REFUTED);
}

static void test_failargs(void)
{
	const char *orig =
	    "[i0, i1]\ni2 = int_add(i0, i1)\n"
	    "i3 = int_lt(i2, 10)\nguard_true(i3, descr=a) [i0, i2]\n"
	    "finish(i2)\n";
	const char *same =
	    "[i0, i1]\ni2 = int_add(i1, i0)\n"
	    "i3 = int_lt(i2, 10)\nguard_true(i3, descr=a) [i0, i2]\n"
	    "finish(i2)\n";
	const char *other =
	    "[i0, i1]\ni2 = int_add(i0, i1)\n"
	    "i3 = int_lt(i2, 10)\nguard_true(i3, descr=a) [i1, i2]\n"
	    "finish(i2)\n";
	ver_opts o = test_opts();
	check_pair(orig, other, 64, o, VER_PROVED); /* not compared */
	o.failargs = true;
	check_pair(orig, same, 64, o, VER_PROVED);
	check_pair(orig, other, 64, o, VER_REFUTED);
	o.screen_inputs = 0;
	check_pair(orig, other, 64, o, VER_REFUTED);
}

static void test_errors(void)
{
	ver_opts o = test_opts();
	ver_result r;
	jp_err err;
	/* A PyPy descr has one kind: a field used with both is an input
	 * error (only the toy spelling's fields hold either). */
	ir_trace *a = parse("[p0, i1]\nsetfield_gc(p0, i1, descr=f)\n"
			    "p2 = getfield_gc_r(p0, descr=f)\nfinish(p2)\n",
			    64);
	CHECK(ver_check(C, a, a, &o, &r, &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "heap") != NULL);
	ir_trace *b = parse("[i0, i1]\nfinish(i0)\n", 64);
	ir_trace *c = parse("[i0]\nfinish(i0)\n", 64);
	CHECK(ver_check(C, b, c, &o, &r, &err) == JP_EINPUT);
	ir_trace *d = parse("[i0]\nfinish(i0)\n", 8);
	CHECK(ver_check(C, c, d, &o, &r, &err) == JP_EINPUT);
	o.width = 32;
	CHECK(ver_check(C, c, c, &o, &r, &err) == JP_EINPUT);
	ir_trace_free(a);
	ir_trace_free(b);
	ir_trace_free(c);
	ir_trace_free(d);
}

static void test_json(void)
{
	ir_trace *a = parse("[i0]\ni1 = int_neg(i0)\ni2 = int_neg(i1)\n"
			    "finish(i2)\n",
			    64);
	ir_trace *b = parse("[i0]\nfinish(i0)\n", 64);
	ir_trace *c = parse("[i0]\ni1 = int_invert(i0)\nfinish(i1)\n", 64);
	ver_opts o = test_opts();
	ver_result r;
	jp_err err;
	CHECK(ver_check(C, a, b, &o, &r, &err) == JP_OK);
	strbuf sb;
	sb_init(&sb);
	ver_result_json(&r, &sb);
	CHECK(strstr(sb.buf, "\"verdict\":\"proved\"") != NULL);
	CHECK(strstr(sb.buf, "\"counterexample\":null") != NULL);
	ver_result_free(&r);
	sb_reset(&sb);
	CHECK(ver_check(C, a, c, &o, &r, &err) == JP_OK);
	ver_result_json(&r, &sb);
	CHECK(strstr(sb.buf, "\"verdict\":\"counterexample\"") != NULL);
	CHECK(strstr(sb.buf, "\"inputs\":[{\"name\":\"i0\"") != NULL);
	/* Simplified: x and ~x differ everywhere, so the input is 0. */
	CHECK(r.verdict == VER_REFUTED && r.inputs[0] == 0);
	ver_result_free(&r);
	sb_release(&sb);
	ir_trace_free(a);
	ir_trace_free(b);
	ir_trace_free(c);
}

int main(void)
{
	if (!open_ctx())
		return 1;
	test_wraparound();
	test_neg_minint();
	test_mul_12();
	test_ovf_sub_of_add();
	test_unknown();
	test_z3_error_is_unknown();
	test_isolated_fallback();
	test_identity_no_solver();
	test_cheap_settlements();
	test_lemma_identity();
	test_facts();
	test_refold();
	test_slicing();
	test_modes();
	test_guards();
	test_failargs();
	test_errors();
	test_json();
	ver_ctx_free(C);
	return check_summary("test_check_verdicts");
}
