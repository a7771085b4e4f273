/* The verifier, verify/check.c and its check_*.c files: the classic
 * miscompilations, modes, verdicts, errors, and a
 * cross-validation against exhaustive enumeration at width 8.
 *
 * Ground truth in this file is computed independently of verify/: both
 * traces run on the interpreter and their observable behaviour is compared
 * here (exit label or end, outputs). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/sem.h"
#include "verify/check.h"
#include "verify/check_int.h" /* chk_test_wrong_settle */
#include "verify/z3ctx.h"

static ver_ctx *C;

static ir_trace *parse(const char *text, int width)
{
	ir_parse_opts o = {.width = width};
	ir_trace *t = NULL;
	jp_err e;
	if (ir_parse(text, strlen(text), &o, &t, &e)) {
		fprintf(stderr, "parse error %d:%d %s\n%s\n", e.line, e.col,
			e.msg, text);
		return NULL;
	}
	return t;
}

static ver_opts test_opts(void)
{
	ver_opts o = ver_default_opts();
	o.self_check = true;
	return o;
}

/* ---- independent ground truth ------------------------------------------ */

static bool run(const ir_trace *t, const uint64_t *x, interp_result *r)
{
	interp_env env = {.args = x, .nargs = t->ninputs};
	jp_err e;
	return interp_run(t, &env, r, &e) == JP_OK;
}

/* Whether the traces behave differently on X.  ALIGNED: the exit label
 * counts; otherwise (trace mode) two guard failures are alike. */
static bool behave_differently_fa(const ir_trace *a, const ir_trace *b,
				  const uint64_t *x, bool aligned,
				  bool failargs)
{
	interp_result ra, rb;
	if (!run(a, x, &ra))
		return true;
	if (!run(b, x, &rb)) {
		interp_result_free(&ra);
		return true;
	}
	bool fa = ra.outcome == INTERP_GUARD_FAIL;
	bool fb = rb.outcome == INTERP_GUARD_FAIL;
	bool d;
	if (fa != fb)
		d = true;
	else if (fa)
		d = aligned &&
		    (strcmp(ir_guard_label(a, ra.stop_op),
			    ir_guard_label(b, rb.stop_op)) != 0 ||
		     (failargs &&
		      (ra.nout != rb.nout ||
		       memcmp(ra.out, rb.out, ra.nout * sizeof *ra.out) != 0)));
	else
		d = ra.outcome != rb.outcome || ra.nout != rb.nout ||
		    memcmp(ra.out, rb.out, ra.nout * sizeof *ra.out) != 0;
	interp_result_free(&ra);
	interp_result_free(&rb);
	return d;
}

static bool behave_differently(const ir_trace *a, const ir_trace *b,
			       const uint64_t *x, bool aligned)
{
	return behave_differently_fa(a, b, x, aligned, false);
}

/* Enumerates every input at width 8: whether any makes them differ. */
static bool differ_somewhere(const ir_trace *a, const ir_trace *b, bool aligned)
{
	uint32_t n = a->ninputs;
	uint64_t total = UINT64_C(1) << (8 * n);
	for (uint64_t k = 0; k < total; k++) {
		uint64_t x[2] = {k & 0xff, (k >> 8) & 0xff};
		if (behave_differently(a, b, x, aligned))
			return true;
	}
	return false;
}

/* Checks the pair and asserts the verdict; a counterexample must make the
 * traces behave differently on the interpreter. */
static ver_verdict check_pair(const char *orig, const char *opt, int width,
			      ver_opts o, ver_verdict want)
{
	ir_trace *a = parse(orig, width), *b = parse(opt, width);
	CHECK(a && b);
	if (!a || !b) {
		ir_trace_free(a);
		ir_trace_free(b);
		return VER_UNKNOWN;
	}
	ver_result r;
	jp_err err;
	jp_status st = ver_check(C, a, b, &o, &r, &err);
	if (st)
		fprintf(stderr, "ver_check: %s\n", err.msg);
	CHECK(st == JP_OK);
	ver_verdict v = st ? VER_UNKNOWN : r.verdict;
	if (v != want)
		fprintf(stderr, "  verdict %s, expected %s for\n%s---\n%s",
			ver_verdict_name(v), ver_verdict_name(want), orig, opt);
	CHECK(v == want);
	if (!st && v == VER_REFUTED) {
		CHECK(r.cex_text != NULL);
		CHECK(r.failed >= 0);
		bool aligned = r.mode_used != VER_MODE_TRACE;
		CHECK(
		    behave_differently_fa(a, b, r.inputs, aligned, o.failargs));
	}
	if (!st)
		ver_result_free(&r);
	ir_trace_free(a);
	ir_trace_free(b);
	return v;
}

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
	/* The query reached the bit-blasting fallback, where slicing is. */
	CHECK(r.slow_queries >= 1);
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

/* ---- memory stays flat over many checks -------------------------------- */

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = -1, resident = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * 4;
}

static void test_memory_flat(void)
{
	jp_err err;
	ver_ctx *c = ver_ctx_new(&err);
	ver_ctx_set_recycle(c, 100);
	ir_trace *a = parse("[i0, i1]\ni2 = int_and(i0, 255)\n"
			    "i3 = int_lt(i2, i1)\nguard_true(i3, descr=a)\n"
			    "i4 = int_lt(i1, 0)\nguard_false(i4, descr=b)\n"
			    "i5 = int_mul(i2, 7)\nfinish(i5)\n",
			    64);
	/* 7 has three bits set, so the product keeps its multiplier (a
	 * product by 3 is an adder, the same term as i2 + i2 + i2). */
	ir_trace *b = parse("[i0, i1]\ni2 = int_and(i0, 255)\n"
			    "i3 = int_lt(i2, i1)\nguard_true(i3, descr=a)\n"
			    "i6 = int_lshift(i2, 3)\ni5 = int_sub(i6, i2)\n"
			    "finish(i5)\n",
			    64);
	ver_opts o = ver_default_opts();
	o.screen_inputs = 4;
	long before = 0;
	int proved = 0, solver = 0;
	for (int k = 0; k < 1500; k++) {
		ver_result r;
		if (ver_check(c, a, b, &o, &r, &err) == JP_OK) {
			proved += r.verdict == VER_PROVED;
			solver += r.solver_calls > 0;
			ver_result_free(&r);
		}
		if (k == 300)
			before = rss_kb();
	}
	long after = rss_kb();
	printf("memory: 1500 checks, %u context rebuilds, rss %ld kB -> %ld "
	       "kB\n",
	       ver_ctx_rebuilds(c), before, after);
	CHECK(proved == 1500);
	CHECK(solver == 1500); /* every check reached the solver */
	CHECK(ver_ctx_rebuilds(c) >= 14);
	if (before > 0 && after > 0)
		CHECK(after - before < 16 * 1024);
	ir_trace_free(a);
	ir_trace_free(b);
	ver_ctx_free(c);
}

/* ---- random pairs against enumeration at width 8 ----------------------- */

typedef struct rng_t {
	uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint32_t pick(rng_t *r, uint32_t n)
{
	return (uint32_t)(rnd(r) % n);
}

enum { MAXL = 40 };

typedef struct gline {
	char res[16]; /* result name or "" */
	char op[24];
	int nargs;
	char args[2][16];
	char label[16]; /* guard label or "" */
	int cls;	/* 0 bin, 1 un, 2 cmp, 3 guard, 4 ovf, 5 ovfguard */
} gline;

typedef struct gtrace {
	int ninputs;
	gline l[MAXL];
	int n;
	char out[2][16];
	int nout;
	bool jump;
} gtrace;

static const char *BIN[] = {
    "int_add",	  "int_sub",	   "int_mul",	 "int_and",	"int_or",
    "int_xor",	  "int_lshift",	   "int_rshift", "uint_rshift", "int_py_div",
    "int_py_mod", "uint_mul_high", "int_signext"};
static const char *UN[] = {"int_neg",	  "int_invert",	 "int_force_ge_zero",
			   "int_is_zero", "int_is_true", "same_as_i"};
static const char *CMP[] = {"int_lt",  "int_le", "int_gt",  "int_ge",
			    "int_eq",  "int_ne", "uint_lt", "uint_le",
			    "uint_gt", "uint_ge"};
static const char *OVF[] = {"int_add_ovf", "int_sub_ovf", "int_mul_ovf"};
static const char *CONSTS[] = {"0",   "1",  "-1", "2",	 "3",	"5",
			       "7",   "8",  "10", "15",	 "127", "-128",
			       "100", "-3", "64", "-100"};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void pick_arg(rng_t *r, const gtrace *t, int upto, char *dst)
{
	/* Values defined before line UPTO: inputs and results.  Zeroed, so
	 * that the 16 bytes copied are all defined: mutate compares whole
	 * traces with memcmp. */
	char names[MAXL + 2][16] = {{0}};
	int n = 0;
	for (int i = 0; i < t->ninputs; i++)
		snprintf(names[n++], 16, "i%d", i);
	for (int i = 0; i < upto; i++)
		if (t->l[i].res[0])
			memcpy(names[n++], t->l[i].res, 16);
	if (pick(r, 10) < 7)
		memcpy(dst, names[pick(r, (uint32_t)n)], 16);
	else
		snprintf(dst, 16, "%s", CONSTS[pick(r, NELEM(CONSTS))]);
}

static void gen_trace(rng_t *r, gtrace *t, int ninputs)
{
	memset(t, 0, sizeof *t);
	t->ninputs = ninputs;
	int nops = 2 + (int)pick(r, 7), next = ninputs, label = 0;
	for (int k = 0; k < nops && t->n < MAXL - 2; k++) {
		gline *g = &t->l[t->n];
		uint32_t kind = pick(r, 10);
		if (kind < 4) {
			g->cls = kind < 3 ? 0 : 1;
			snprintf(g->op, sizeof g->op, "%s",
				 g->cls ? UN[pick(r, NELEM(UN))]
					: BIN[pick(r, NELEM(BIN))]);
			g->nargs = g->cls ? 1 : 2;
		} else if (kind < 8) {
			g->cls = 2;
			snprintf(g->op, sizeof g->op, "%s",
				 CMP[pick(r, NELEM(CMP))]);
			g->nargs = 2;
		} else if (kind < 9) {
			g->cls = 4;
			snprintf(g->op, sizeof g->op, "%s",
				 OVF[pick(r, NELEM(OVF))]);
			g->nargs = 2;
		} else {
			g->cls = 3;
			snprintf(g->op, sizeof g->op, "guard_value");
			g->nargs = 2;
			pick_arg(r, t, t->n, g->args[0]);
			snprintf(g->args[1], 16, "%s",
				 CONSTS[pick(r, NELEM(CONSTS))]);
			snprintf(g->label, 16, "g%d", label++);
			t->n++;
			continue;
		}
		for (int a = 0; a < g->nargs; a++)
			pick_arg(r, t, t->n, g->args[a]);
		snprintf(g->res, 16, "i%d", next++);
		t->n++;
		if (g->cls == 2 && pick(r, 4) != 0) {
			gline *h = &t->l[t->n++];
			h->cls = 3;
			snprintf(h->op, sizeof h->op, "%s",
				 pick(r, 2) ? "guard_true" : "guard_false");
			h->nargs = 1;
			memcpy(h->args[0], g->res, 16);
			snprintf(h->label, 16, "g%d", label++);
		} else if (g->cls == 4) {
			gline *h = &t->l[t->n++];
			h->cls = 5;
			snprintf(h->op, sizeof h->op, "%s",
				 pick(r, 5) ? "guard_no_overflow"
					    : "guard_overflow");
			snprintf(h->label, 16, "g%d", label++);
		}
	}
	t->nout = 1 + (int)pick(r, 2);
	for (int j = 0; j < t->nout; j++)
		pick_arg(r, t, t->n, t->out[j]);
}

static void print_gtrace(const gtrace *t, bool labels, strbuf *sb)
{
	sb_putc(sb, '[');
	for (int i = 0; i < t->ninputs; i++)
		sb_printf(sb, i ? ", i%d" : "i%d", i);
	sb_puts(sb, "]\n");
	for (int i = 0; i < t->n; i++) {
		const gline *g = &t->l[i];
		if (g->res[0])
			sb_printf(sb, "%s = ", g->res);
		sb_printf(sb, "%s(", g->op);
		for (int a = 0; a < g->nargs; a++)
			sb_printf(sb, a ? ", %s" : "%s", g->args[a]);
		if (g->label[0] && labels)
			sb_printf(sb, "%sdescr=%s", g->nargs ? ", " : "",
				  g->label);
		sb_puts(sb, ")\n");
	}
	sb_puts(sb, t->jump ? "jump(" : "finish(");
	for (int j = 0; j < t->nout; j++)
		sb_printf(sb, j ? ", %s" : "%s", t->out[j]);
	sb_puts(sb, ")\n");
}

static void delete_line(gtrace *t, int i)
{
	memmove(&t->l[i], &t->l[i + 1],
		(size_t)(t->n - i - 1) * sizeof t->l[0]);
	t->n--;
}

/* One mutation, as an optimizer bug (or a correct rewrite) might do. */
static void mutate_once(rng_t *r, gtrace *t)
{
	if (t->n == 0)
		return;
	int i = (int)pick(r, (uint32_t)t->n);
	gline *g = &t->l[i];
	switch (pick(r, 9)) {
	case 0: /* drop a guard (an ovf check becomes a plain op) */
		if (g->cls == 3) {
			delete_line(t, i);
		} else if (g->cls == 5) {
			gline *o = &t->l[i - 1];
			o->cls = 0;
			o->op[strlen(o->op) - 4] = 0; /* strip "_ovf" */
			delete_line(t, i);
		}
		break;
	case 1: /* another constant */
		for (int a = 0; a < g->nargs; a++)
			if (g->args[a][0] != 'i')
				snprintf(g->args[a], 16, "%s",
					 CONSTS[pick(r, NELEM(CONSTS))]);
		break;
	case 2: /* another op of the same class */
		if (g->cls == 0)
			snprintf(g->op, sizeof g->op, "%s",
				 BIN[pick(r, NELEM(BIN))]);
		else if (g->cls == 1)
			snprintf(g->op, sizeof g->op, "%s",
				 UN[pick(r, NELEM(UN))]);
		else if (g->cls == 2)
			snprintf(g->op, sizeof g->op, "%s",
				 CMP[pick(r, NELEM(CMP))]);
		break;
	case 3: /* flip a guard */
		if (!strcmp(g->op, "guard_true"))
			snprintf(g->op, sizeof g->op, "guard_false");
		else if (!strcmp(g->op, "guard_false"))
			snprintf(g->op, sizeof g->op, "guard_true");
		break;
	case 4: /* another output */
		pick_arg(r, t, t->n, t->out[pick(r, (uint32_t)t->nout)]);
		break;
	case 5: /* another argument */
		if (g->cls != 5 && g->nargs)
			pick_arg(r, t, i, g->args[pick(r, (uint32_t)g->nargs)]);
		break;
	case 6: /* swap the arguments (correct for commutative ops) */
		if (g->nargs == 2) {
			char tmp[16];
			memcpy(tmp, g->args[0], 16);
			memcpy(g->args[0], g->args[1], 16);
			memcpy(g->args[1], tmp, 16);
		}
		break;
	case 7: /* negate a comparison and flip its guard (correct) */
		if (g->cls == 3 && g->nargs == 1 && i > 0 &&
		    t->l[i - 1].cls == 2 &&
		    !strcmp(t->l[i - 1].res, g->args[0])) {
			static const char *neg[][2] = {{"int_lt", "int_ge"},
						       {"int_le", "int_gt"},
						       {"int_eq", "int_ne"},
						       {"uint_lt", "uint_ge"},
						       {"uint_le", "uint_gt"}};
			gline *c = &t->l[i - 1];
			for (size_t k = 0; k < NELEM(neg); k++)
				for (int s = 0; s < 2; s++)
					if (!strcmp(c->op, neg[k][s])) {
						snprintf(c->op, sizeof c->op,
							 "%s", neg[k][1 - s]);
						s = 2;
						k = NELEM(neg);
					}
			snprintf(g->op, sizeof g->op, "%s",
				 strcmp(g->op, "guard_true") ? "guard_true"
							     : "guard_false");
		}
		break;
	case 8: /* a new guard repeating an earlier condition (correct) */
		if (g->cls == 3 && t->n < MAXL - 1) {
			gline copy = *g;
			static unsigned fresh;
			snprintf(copy.label, 16, "n%u", fresh++ % 100000);
			t->l[t->n++] = copy;
		}
		break;
	}
}

/* Mutates until the trace changes (some mutations do not apply). */
static void mutate(rng_t *r, gtrace *t)
{
	gtrace before = *t;
	for (int tries = 0; tries < 20; tries++) {
		mutate_once(r, t);
		if (memcmp(&before, t, sizeof before))
			return;
	}
}

static void test_cross_validation(void)
{
	rng_t r = {UINT64_C(20240601)};
	int counts[3][2] = {{0, 0}, {0, 0}, {0, 0}}; /* mode x verdict */
	int total = 0, mismatches = 0;
	for (int k = 0; k < 1100; k++) {
		int ninputs = k % 10 < 8 ? 1 : 2;
		int mode = k % 11 == 0 ? 1 : (k % 11 == 5 ? 2 : 0);
		gtrace a, b;
		gen_trace(&r, &a, ninputs);
		b = a;
		int nm = (int)pick(&r, 10) < 1 ? 0 : 1 + (int)pick(&r, 2);
		for (int m = 0; m < nm; m++)
			mutate(&r, &b);
		if (pick(&r, 40) == 0)
			b.jump = true;
		strbuf sa, sb;
		sb_init(&sa);
		sb_init(&sb);
		print_gtrace(&a, true, &sa);
		print_gtrace(&b, mode != 2, &sb);
		ir_trace *ta = parse(sa.buf, 8), *tb = parse(sb.buf, 8);
		CHECK(ta && tb);
		if (ta && tb) {
			ver_opts o = test_opts();
			o.mode = mode == 1 ? VER_MODE_TRACE : VER_MODE_AUTO;
			o.screen_inputs = k % 3 == 0 ? 0 : 8;
			o.seed = (uint64_t)k;
			ver_result res;
			jp_err err;
			jp_status st = ver_check(C, ta, tb, &o, &res, &err);
			if (st)
				fprintf(stderr, "error: %s\n%s---\n%s", err.msg,
					sa.buf, sb.buf);
			CHECK(st == JP_OK);
			if (!st) {
				bool aligned = mode == 0;
				bool differ = differ_somewhere(ta, tb, aligned);
				bool ok = res.verdict ==
					  (differ ? VER_REFUTED : VER_PROVED);
				if (ok && differ)
					ok = behave_differently(
					    ta, tb, res.inputs, aligned);
				if (!ok) {
					mismatches++;
					fprintf(stderr,
						"mismatch: %s (mode %s), truth "
						"%s\n%s---\n%s",
						ver_verdict_name(res.verdict),
						ver_mode_name(res.mode_used),
						differ ? "differ" : "equal",
						sa.buf, sb.buf);
				}
				CHECK(ok);
				counts[mode][differ]++;
				total++;
				ver_result_free(&res);
			}
		}
		ir_trace_free(ta);
		ir_trace_free(tb);
		sb_release(&sa);
		sb_release(&sb);
	}
	printf("cross-validation: %d pairs (aligned %d equal / %d differ, "
	       "trace %d / %d, inferred %d / %d), %d mismatches\n",
	       total, counts[0][0], counts[0][1], counts[1][0], counts[1][1],
	       counts[2][0], counts[2][1], mismatches);
	CHECK(total >= 1000);
	/* Both verdicts must be well represented, or the test proves little. */
	CHECK(counts[0][0] >= 100 && counts[0][1] >= 100);
	CHECK(counts[1][0] >= 10 && counts[1][1] >= 10);
	CHECK(counts[2][0] >= 10 && counts[2][1] >= 10);
}

/* Whether NAME (an argument) is an input or a result of a line before
 * UPTO: a line using it can move to UPTO. */
static bool defined_before(const gtrace *t, const char *name, int upto)
{
	if (name[0] != 'i')
		return true; /* a constant */
	for (int i = 0; i < upto; i++)
		if (!strcmp(t->l[i].res, name))
			return true;
	return atoi(name + 1) < t->ninputs;
}

/* Swaps two guards of T (a later one moved before an earlier one, both
 * with their labels); false when T has no pair that can be swapped. */
static bool swap_guards(rng_t *r, gtrace *t)
{
	int cand[MAXL][2], n = 0;
	for (int i = 0; i < t->n; i++)
		for (int j = i + 1; j < t->n; j++) {
			const gline *a = &t->l[i], *b = &t->l[j];
			if (a->cls != 3 || b->cls != 3)
				continue;
			bool ok = true;
			for (int k = 0; k < b->nargs; k++)
				ok &= defined_before(t, b->args[k], i);
			if (ok && n < MAXL) {
				cand[n][0] = i;
				cand[n][1] = j;
				n++;
			}
		}
	if (n == 0)
		return false;
	uint32_t c = pick(r, (uint32_t)n);
	gline tmp = t->l[cand[c][0]];
	t->l[cand[c][0]] = t->l[cand[c][1]];
	t->l[cand[c][1]] = tmp;
	return true;
}

/* Guards swapped by an "optimizer" (sometimes with another mutation): the
 * verdict must match the truth found by running every input at width 8,
 * and a counterexample must replay as a divergence of exit labels. */
static void test_guard_order(void)
{
	rng_t r = {UINT64_C(20261125)};
	int counts[2] = {0, 0}, total = 0;
	for (int k = 0; k < 4000 && total < 200; k++) {
		gtrace a, b;
		gen_trace(&r, &a, 1);
		b = a;
		if (!swap_guards(&r, &b))
			continue;
		if (pick(&r, 4) == 0)
			mutate(&r, &b);
		strbuf sa, sb;
		sb_init(&sa);
		sb_init(&sb);
		print_gtrace(&a, true, &sa);
		print_gtrace(&b, true, &sb);
		ir_trace *ta = parse(sa.buf, 8), *tb = parse(sb.buf, 8);
		CHECK(ta && tb);
		ver_opts o = test_opts();
		o.screen_inputs = k % 2 ? 0 : 8;
		o.seed = (uint64_t)k;
		ver_result res;
		jp_err err;
		jp_status st = ta && tb ? ver_check(C, ta, tb, &o, &res, &err)
					: JP_EINTERNAL;
		if (ta && tb && st)
			fprintf(stderr, "error: %s\n%s---\n%s", err.msg, sa.buf,
				sb.buf);
		CHECK(st == JP_OK);
		if (!st) {
			bool differ = differ_somewhere(ta, tb, true);
			bool ok =
			    res.verdict == (differ ? VER_REFUTED : VER_PROVED);
			if (ok && differ)
				ok = behave_differently(ta, tb, res.inputs,
							true);
			if (!ok)
				fprintf(stderr,
					"guard order: %s, truth %s\n%s---\n%s",
					ver_verdict_name(res.verdict),
					differ ? "differ" : "equal", sa.buf,
					sb.buf);
			CHECK(ok);
			counts[differ]++;
			total++;
			ver_result_free(&res);
		}
		ir_trace_free(ta);
		ir_trace_free(tb);
		sb_release(&sa);
		sb_release(&sb);
	}
	printf("guard order: %d pairs with swapped guards, %d equal, %d "
	       "differ\n",
	       total, counts[0], counts[1]);
	CHECK(counts[0] >= 20 && counts[1] >= 20);
}

/* ---- --audit ------------------------------------------------------------ */

/* The identity shortcut through assumptions (chk_goal_neg: the goal is an
 * asserted assumption, or an assumption is false) proves without a query,
 * and never more: a near miss is refuted.  With --audit each proof is
 * also asked of plain Z3, which must agree. */
static ver_result check_audited(const char *orig, const char *opt)
{
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	ver_opts o = test_opts();
	o.audit = true;
	ver_result r;
	jp_err err;
	memset(&r, 0, sizeof r);
	CHECK(a && b && ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.audit_disagreed == 0);
	ir_trace_free(a);
	ir_trace_free(b);
	return r;
}

static void test_identity_shortcuts(void)
{
	/* g1 repeats g0's very condition: removed, it holds by identity. */
	ver_result r = check_audited(
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "i2 = int_lt(i0, 5)\nguard_true(i2, descr=g1)\nfinish(i0)\n",
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "finish(i0)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.solver_calls == 0);
	CHECK(r.by_identity == r.nobl);
	CHECK(r.audited >= 1 && r.audit_agreed == r.audited);
	ver_result_free(&r);
	/* g1 is stronger than g0 (i0 < 4 after i0 < 5): removing it is a
	 * miscompilation at i0 = 4, not an identity. */
	r = check_audited(
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "i2 = int_lt(i0, 4)\nguard_true(i2, descr=g1)\nfinish(i0)\n",
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "finish(i0)\n");
	CHECK(r.verdict == VER_REFUTED);
	CHECK(r.verdict != VER_REFUTED || r.inputs[0] == 4);
	ver_result_free(&r);
	/* After a guard that always fails, nothing later is reachable:
	 * the removed g1 holds vacuously (an assumption is false). */
	r = check_audited("[i0]\nguard_true(0, descr=g0)\n"
			  "i1 = int_lt(i0, 4)\nguard_true(i1, descr=g1)\n"
			  "finish(i0)\n",
			  "[i0]\nguard_true(0, descr=g0)\nfinish(i0)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.solver_calls == 0);
	CHECK(r.audit_disagreed == 0);
	ver_result_free(&r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	strbuf sb;
	sb_init(&sb);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(&sb, buf, n);
	fclose(f);
	return sb_detach(&sb);
}

/* Checks corpus pair DIR with and without --audit: the verdict must not
 * move, and plain Z3 must never find a model for a proved obligation.
 * Adds the pair's audit counts to *AUDITED and *AGREED. */
static void audit_corpus_pair(const char *dir, uint32_t *audited,
			      uint32_t *agreed)
{
	char po[512], pp[512];
	snprintf(po, sizeof po, "corpus/pairs/%s/orig.trace", dir);
	snprintf(pp, sizeof pp, "corpus/pairs/%s/opt.trace", dir);
	char *a = slurp(po), *b = slurp(pp);
	CHECK(a && b);
	ir_trace *o = a ? parse(a, 64) : NULL, *p = b ? parse(b, 64) : NULL;
	CHECK(o && p);
	if (o && p) {
		ver_opts vo = ver_default_opts();
		ver_result plain, audited_r;
		jp_err err;
		memset(&plain, 0, sizeof plain);
		memset(&audited_r, 0, sizeof audited_r);
		CHECK(ver_check(C, o, p, &vo, &plain, &err) == JP_OK);
		vo.audit = true;
		CHECK(ver_check(C, o, p, &vo, &audited_r, &err) == JP_OK);
		if (audited_r.audit_disagreed)
			fprintf(stderr, "%s: %s\n", dir,
				audited_r.reason ? audited_r.reason : "?");
		CHECK(audited_r.audit_disagreed == 0);
		CHECK(audited_r.verdict == plain.verdict);
		CHECK(plain.audited == 0); /* only with the option */
		CHECK(audited_r.audited == audited_r.audit_agreed +
					       audited_r.audit_disagreed +
					       audited_r.audit_unknown);
		*audited += audited_r.audited;
		*agreed += audited_r.audit_agreed;
		ver_result_free(&plain);
		ver_result_free(&audited_r);
	}
	ir_trace_free(o);
	ir_trace_free(p);
	free(a);
	free(b);
}

/* The corpus pairs settled by the shortcuts (ranges, rewriting, facts,
 * refolding, lemmas, identity through assumptions): the audit agrees. */
static void test_audit_agrees_on_corpus(void)
{
	static const char *dirs[] = {
	    "algebra_identities",
	    "and_mask_bounds",
	    "const_fold",
	    "cse_repeated_guard",
	    "force_ge_zero_nonneg",
	    "guard_value_pins",
	    "kept_facts_pinned_condition",
	    "mul_to_shift",
	    "neg_keeps_lemma",
	    "pow2_div_mod",
	    "range_cancel_sub_add",
	    "range_pins_value",
	    "range_same_arg_mask",
	    "refold_pinned_divisor",
	    "refold_same_arg_sum",
	    "new_guard_implied",
	};
	uint32_t audited = 0, agreed = 0;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		audit_corpus_pair(dirs[i], &audited, &agreed);
	/* Most plain queries are easy; a loaded machine may turn a few
	 * into unknowns, never into disagreements. */
	CHECK(audited >= 20);
	CHECK(agreed * 2 >= audited);
}

/* A deliberately wrong shortcut (chk_test_wrong_settle: every obligation
 * "proved by rewriting" on sight) turns two inequivalent pairs into
 * proofs; --audit must catch it, and the verdict must then not be
 * "proved". */
static void audit_catches(const char *orig, const char *opt)
{
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	CHECK(a && b);
	if (!a || !b) {
		ir_trace_free(a);
		ir_trace_free(b);
		return;
	}
	ver_opts vo = ver_default_opts();
	vo.screen_inputs = 0; /* screening would find these */
	ver_result r;
	jp_err err;
	chk_test_wrong_settle = true;
	memset(&r, 0, sizeof r);
	CHECK(ver_check(C, a, b, &vo, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_PROVED); /* the hook really lies */
	CHECK(r.audited == 0);
	ver_result_free(&r);
	vo.audit = true;
	memset(&r, 0, sizeof r);
	CHECK(ver_check(C, a, b, &vo, &r, &err) == JP_OK);
	chk_test_wrong_settle = false;
	CHECK(r.verdict == VER_UNKNOWN);
	CHECK(r.audit_disagreed == 1);
	CHECK(r.audited >= 1);
	CHECK(r.reason && strstr(r.reason, "audit disagreement"));
	CHECK(r.failed >= 0);
	strbuf sb;
	sb_init(&sb);
	ver_result_json(&r, &sb);
	CHECK(strstr(sb.buf, "\"audit_disagreed\":1") != NULL);
	sb_release(&sb);
	ver_result_free(&r);
	/* Without the hook the same pair is refuted, as it should be. */
	vo.screen_inputs = 32;
	memset(&r, 0, sizeof r);
	CHECK(ver_check(C, a, b, &vo, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_REFUTED);
	CHECK(r.audit_disagreed == 0);
	ver_result_free(&r);
	ir_trace_free(a);
	ir_trace_free(b);
}

static void test_audit_catches_wrong_settle(void)
{
	/* A changed output. */
	audit_catches("[i0]\ni1 = int_add(i0, 1)\nfinish(i1)\n",
		      "[i0]\ni1 = int_add(i0, 2)\nfinish(i1)\n");
	/* A removed guard that can fail (i0 = 5). */
	audit_catches("[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
		      "finish(i0)\n",
		      "[i0]\nfinish(i0)\n");
	/* A heap pair (one driver): a field stored with another value, which
	 * only the heap model's own "end (same heap)" obligation sees. */
	audit_catches("[p0, i1]\nsetfield_gc(p0, i1, descr=f)\nfinish()\n",
		      "[p0, i1]\ni2 = int_add(i1, 1)\n"
		      "setfield_gc(p0, i2, descr=f)\nfinish()\n");
}

int main(void)
{
	jp_err err;
	C = ver_ctx_new(&err);
	if (!C) {
		fprintf(stderr, "ver_ctx_new: %s\n", err.msg);
		return 1;
	}
	test_wraparound();
	test_neg_minint();
	test_mul_12();
	test_ovf_sub_of_add();
	test_unknown();
	test_z3_error_is_unknown();
	test_isolated_fallback();
	test_identity_no_solver();
	test_cheap_settlements();
	test_facts();
	test_refold();
	test_slicing();
	test_modes();
	test_guards();
	test_failargs();
	test_errors();
	test_json();
	test_identity_shortcuts();
	test_audit_agrees_on_corpus();
	test_audit_catches_wrong_settle();
	test_memory_flat();
	test_cross_validation();
	test_guard_order();
	ver_ctx_free(C);
	return check_summary("test_check");
}
