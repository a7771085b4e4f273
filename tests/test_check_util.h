/*
 * test_check_util.h - what the verifier's tests (tests/test_check_*.c)
 * share: the context C, parsing, and the independent ground truth.
 *
 * The verifier is verify/check.c and its check_*.c files; its tests are
 * split by theme, one program each:
 *   test_check_verdicts.c  the classic miscompilations; verdicts, modes,
 *                          guards, fail-args, errors, JSON
 *   test_check_memory.c    memory stays flat over many checks
 *   test_check_random.c    random pairs against enumeration at width 8,
 *                          guard order
 *   test_check_audit.c     --audit: identity shortcuts, the corpus, a
 *                          wrong settlement caught
 *
 * Ground truth here is computed independently of verify/: both traces run
 * on the interpreter and their observable behaviour is compared (exit
 * label or end, outputs).
 *
 * Header-only (static functions): each test is its own executable.
 */
#ifndef JP_TESTS_TEST_CHECK_UTIL_H
#define JP_TESTS_TEST_CHECK_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/sem.h"
#include "test_parse_util.h"
#include "verify/check.h"
#include "verify/z3ctx.h"

static ver_ctx *C;

static inline ir_trace *parse(const char *text, int width)
{
	ir_parse_opts o = {.width = width};
	return parse_with(text, &o);
}

static inline ver_opts test_opts(void)
{
	ver_opts o = ver_default_opts();
	o.self_check = true;
	return o;
}

/* ---- independent ground truth ------------------------------------------ */

static inline bool run(const ir_trace *t, const uint64_t *x, interp_result *r)
{
	interp_env env = {.args = x, .nargs = t->ninputs};
	jp_err e;
	return interp_run(t, &env, r, &e) == JP_OK;
}

/* Whether the traces behave differently on X.  ALIGNED: the exit label
 * counts; otherwise (trace mode) two guard failures are alike. */
static inline bool behave_differently_fa(const ir_trace *a, const ir_trace *b,
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

static inline bool behave_differently(const ir_trace *a, const ir_trace *b,
				      const uint64_t *x, bool aligned)
{
	return behave_differently_fa(a, b, x, aligned, false);
}

/* Enumerates every input at width 8: whether any makes them differ. */
static inline bool differ_somewhere(const ir_trace *a, const ir_trace *b,
				    bool aligned)
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
static inline ver_verdict check_pair(const char *orig, const char *opt,
				     int width, ver_opts o, ver_verdict want)
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

/* Opens the shared context C; false (with a message) when Z3 cannot. */
static inline bool open_ctx(void)
{
	jp_err err;
	C = ver_ctx_new(&err);
	if (!C)
		fprintf(stderr, "ver_ctx_new: %s\n", err.msg);
	return C != NULL;
}

#endif
