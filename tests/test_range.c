/* The verifier's range analysis: soundness against the interpreter
 * (exhaustive at W = 8, sampled at 16/32/64), precision on the shapes it
 * must decide, guards it must not claim, and how many of the guards the
 * optimizer removes from corpus/opt it proves (printed). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz/gen.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/sem.h"
#include "passes/opt.h"
#include "util/rng.h"
#include "verify/cex.h"
#include "verify/range.h"

static ir_trace *parse(const char *text, int width)
{
	ir_parse_opts o = {.width = width};
	ir_trace *t = NULL;
	jp_err e;
	if (ir_parse(text, strlen(text), &o, &t, &e))
		fprintf(stderr, "parse error %d:%d %s\n", e.line, e.col, e.msg);
	return t;
}

/* A range state for the trace TEXT at WIDTH, at op 0, with the trace in
 * *T; NULL (a failed check, *T freed and NULL) when either cannot be
 * made. */
static vr_state *state_of(const char *text, int width, ir_trace **t)
{
	vr_state *r = NULL;
	*t = parse(text, width);
	CHECK(*t && vr_init(&r, *t, NULL) == JP_OK);
	if (!r) {
		ir_trace_free(*t);
		*t = NULL;
	}
	return r;
}

/* state_of, advanced past the trace's last op. */
static vr_state *end_state(const char *text, int width, ir_trace **t)
{
	vr_state *r = state_of(text, width, t);
	if (r)
		vr_advance(r, (*t)->nops);
	return r;
}

/* The op index of the N-th guard (0-based), or UINT32_MAX. */
static uint32_t nth_guard(const ir_trace *t, uint32_t n)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_GUARD) && n-- == 0)
			return i;
	return UINT32_MAX;
}

/* The vid of the result named NAME. */
static ir_vid named(const ir_trace *t, const char *name)
{
	for (ir_vid v = 0; v < t->nvals; v++)
		if (t->vals[v].tag <= IR_VAL_OP &&
		    strcmp(ir_valname(t, v), name) == 0)
			return v;
	return IR_NOVAL;
}

/* ---- the oracle ------------------------------------------------------ */

/* Facts at each guard (and at the end op) of one trace, taken once. */
typedef struct snap {
	uint32_t npts;
	uint32_t *pt;	  /* op indices */
	bool *claim;	  /* vr_guard_passes at that point */
	bool *infeasible; /* vr_infeasible at that point */
	vr_fact *f;	  /* npts x nvals */
	int8_t *same;	  /* npts x nops: vr_same_arg at that point */
} snap;

static long n_value_checks, n_guard_checks, n_claims, n_runs, n_same_checks;
static int n_reported;

static void snap_take(const ir_trace *t, snap *s)
{
	s->npts = 0;
	s->pt = malloc((t->nops + 1) * sizeof *s->pt);
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_GUARD) ||
		    i + 1 == t->nops)
			s->pt[s->npts++] = i;
	s->claim = calloc(s->npts + 1, sizeof *s->claim);
	s->infeasible = calloc(s->npts + 1, sizeof *s->infeasible);
	s->f = malloc(((size_t)s->npts * t->nvals + 1) * sizeof *s->f);
	s->same = malloc((size_t)s->npts * t->nops + 1);
	vr_state *r = NULL;
	CHECK(vr_init(&r, t, NULL) == JP_OK);
	for (uint32_t p = 0; p < s->npts; p++) {
		vr_advance(r, s->pt[p]);
		CHECK(vr_point(r) == s->pt[p]);
		/* Every other point narrows first (as the verifier does
		 * before it learns facts), so the oracle checks the facts
		 * both ways, and the walk going on from narrowed facts. */
		if (p % 2)
			vr_narrow(r);
		s->claim[p] = vr_guard_passes(r, s->pt[p]);
		s->infeasible[p] = vr_infeasible(r);
		for (ir_vid v = 0; v < t->nvals; v++)
			s->f[(size_t)p * t->nvals + v] = vr_get(r, v);
		for (uint32_t i = 0; i < t->nops; i++)
			s->same[(size_t)p * t->nops + i] =
			    (int8_t)vr_same_arg(r, i);
	}
	vr_free(r);
}

static void snap_free(snap *s)
{
	free(s->pt);
	free(s->claim);
	free(s->infeasible);
	free(s->f);
	free(s->same);
}

static bool defined_before(const ir_trace *t, ir_vid v, uint32_t p)
{
	uint32_t d = ir_defop(t, v);
	return d == UINT32_MAX || d < p;
}

static void report(const ir_trace *t, const uint64_t *in, const char *what)
{
	check_report(0, __FILE__, __LINE__, what);
	if (n_reported++ >= 3)
		return;
	strbuf sb;
	sb_init(&sb);
	ir_print(t, &sb);
	fprintf(stderr, "  trace (W=%d):\n%s  inputs:", t->width,
		sb.buf ? sb.buf : "");
	for (uint32_t i = 0; i < t->ninputs; i++)
		fprintf(stderr, " 0x%" PRIx64, in[i]);
	fprintf(stderr, "\n");
	sb_release(&sb);
}

/* Runs T on IN and checks every snapshot point the run reaches with all
 * earlier guards passing: every value known there is inside its fact, a
 * claimed guard passes, and the point is not called infeasible. */
/* Every op that vr_same_arg said returns an argument unchanged at point
 * P did so in this run. */
static void check_same(const ir_trace *t, const snap *s, uint32_t p,
		       const interp_result *res, const uint64_t *in)
{
	for (uint32_t i = 0; i < s->pt[p]; i++) {
		int k = s->same[(size_t)p * t->nops + i];
		if (k < 0)
			continue;
		const ir_op *op = &t->ops[i];
		ir_vid a = op->args[k];
		if (!res->known[op->result] || !res->known[a])
			continue;
		n_same_checks++;
		if (res->vals[op->result] != res->vals[a])
			report(t, in,
			       "an op said to return its argument "
			       "did not");
	}
}

static void check_run(const ir_trace *t, const snap *s, const uint64_t *in)
{
	interp_result res;
	if (cex_run(t, in, &res, NULL) != JP_OK) {
		report(t, in, "interp_run failed");
		return;
	}
	n_runs++;
	bool failed = res.outcome == INTERP_GUARD_FAIL;
	/* Undefined (a NULL access): the run stops there, too. */
	bool stopped = failed || res.outcome == INTERP_UNDEFINED;
	for (uint32_t p = 0; p < s->npts; p++) {
		uint32_t k = s->pt[p];
		if (stopped && k > res.stop_op)
			break;
		if (s->infeasible[p])
			report(t, in, "point called infeasible is reachable");
		if (s->claim[p]) {
			n_claims++;
			if (failed && k == res.stop_op)
				report(t, in, "claimed guard fails");
		}
		n_guard_checks++;
		check_same(t, s, p, &res, in);
		const vr_fact *f = &s->f[(size_t)p * t->nvals];
		for (ir_vid v = 0; v < t->nvals; v++) {
			if (t->vals[v].kind != 'i' || !res.known[v] ||
			    !defined_before(t, v, k))
				continue;
			n_value_checks++;
			if (!vr_contains(t->width, &f[v], res.vals[v])) {
				char msg[200];
				snprintf(
				    msg, sizeof msg,
				    "%s = 0x%" PRIx64
				    " outside its fact at op %u: s[%" PRId64
				    ", %" PRId64 "] u[0x%" PRIx64 ", 0x%" PRIx64
				    "] z=0x%" PRIx64 " o=0x%" PRIx64,
				    ir_valname(t, v), res.vals[v], k, f[v].smin,
				    f[v].smax, f[v].umin, f[v].umax, f[v].zeros,
				    f[v].ones);
				report(t, in, msg);
			}
		}
	}
	interp_result_free(&res);
}

/* ---- precision ------------------------------------------------------- */

static void test_precision(void)
{
	/* (a) the high half of (2^50 - 1) * x is below 2^50 - 1. */
	ir_trace *t;
	vr_state *r = state_of("[i0]\n"
			       "i1 = uint_mul_high(1125899906842623, i0)\n"
			       "i2 = uint_ge(i1, 1125899906842624)\n"
			       "guard_false(i2) []\n"
			       "finish(i1)\n",
			       64, &t);
	if (!r)
		return;
	vr_advance(r, 2);
	CHECK(vr_guard_passes(r, 2));
	vr_free(r);
	ir_trace_free(t);

	/* (b) bits known from a guard_value on a mask make x * -2 small,
	 * so the high half of its square is 0. */
	r = state_of("[i0]\n"
		     "i4 = int_and(i0, -2097152)\n"
		     "guard_value(i4, -2097152) []\n"
		     "i22 = int_mul(i0, -2)\n"
		     "i27 = uint_mul_high(i22, i22)\n"
		     "finish(i27)\n",
		     64, &t);
	if (!r)
		return;
	vr_advance(r, t->nops);
	uint64_t c = 1;
	CHECK(vr_const(r, named(t, "i27"), &c) && c == 0);
	vr_fact f = vr_get(r, named(t, "i0"));
	CHECK(f.smin == -2097152 && f.smax == -1);
	f = vr_get(r, named(t, "i22"));
	CHECK(f.smin == 2 && f.smax == 4194304);
	vr_free(r);
	ir_trace_free(t);

	/* (c) 0 < x < 10. */
	r = state_of("[i0]\n"
		     "i1 = int_lt(i0, 10)\n"
		     "guard_true(i1) []\n"
		     "i2 = int_gt(i0, 0)\n"
		     "guard_true(i2) []\n"
		     "i3 = int_lt(i0, 20)\n"
		     "guard_true(i3) []\n"
		     "i4 = int_and(i0, 15)\n"
		     "finish(i4)\n",
		     64, &t);
	if (!r)
		return;
	vr_advance(r, nth_guard(t, 2));
	CHECK(vr_guard_passes(r, nth_guard(t, 2)));
	vr_advance(r, t->nops);
	f = vr_get(r, named(t, "i4"));
	CHECK(f.smin == 1 && f.smax == 9 && f.umin == 1 && f.umax == 9);
	vr_free(r);
	ir_trace_free(t);

	/* (d) x + 1 did not overflow, so x < MAXINT. */
	r = state_of("[i0]\n"
		     "i1 = int_add_ovf(i0, 1)\n"
		     "guard_no_overflow() []\n"
		     "i2 = int_lt(i0, 9223372036854775807)\n"
		     "guard_true(i2) []\n"
		     "finish(i1)\n",
		     64, &t);
	if (!r)
		return;
	vr_advance(r, 1);
	CHECK(!vr_guard_passes(r, 1));
	vr_advance(r, 3);
	CHECK(vr_guard_passes(r, 3));
	f = vr_get(r, named(t, "i1"));
	CHECK(f.smin == INT64_MIN + 1);
	vr_free(r);
	ir_trace_free(t);

	/* (e) overflow decided both ways, shifts, division, known bits. */
	r = state_of("[i0]\n"
		     "i1 = int_and(i0, 255)\n"
		     "i2 = int_add_ovf(i1, 1000)\n"
		     "guard_no_overflow() []\n"
		     "i3 = int_add_ovf(i1, 9223372036854775600)\n"
		     "guard_no_overflow() []\n"
		     "i4 = int_lshift(i1, 4)\n"
		     "i5 = int_py_div(i4, 16)\n"
		     "i6 = int_py_mod(i0, 8)\n"
		     "i7 = int_or(i6, 8)\n"
		     "i8 = uint_rshift(i0, 70)\n"
		     "i9 = int_signext(i0, 1)\n"
		     "i10 = int_force_ge_zero(i9)\n"
		     "finish(i2, i3, i5, i7, i8, i10)\n",
		     64, &t);
	if (!r)
		return;
	vr_advance(r, 4);
	CHECK(!vr_guard_passes(r, 4));
	vr_advance(r, 2); /* back: resets and walks again */
	CHECK(vr_point(r) == 2);
	CHECK(vr_guard_passes(r, 2));
	vr_advance(r, t->nops);
	f = vr_get(r, named(t, "i5"));
	CHECK(f.smin == 0 && f.smax == 207); /* i1 <= MAXINT - ...600 */
	f = vr_get(r, named(t, "i7"));
	CHECK(f.smin == 8 && f.smax == 15);
	CHECK(vr_const(r, named(t, "i8"), &c) && c == 0);
	f = vr_get(r, named(t, "i10"));
	CHECK(f.smin == 0 && f.smax == 127);
	vr_free(r);
	ir_trace_free(t);
}

/* vr_narrow carries a guard's refinement down a chain deeper than
 * vr_get's look-back: the chain is computed before the guard pins its
 * start, so its stored facts predate the guard. */
static void test_narrow(void)
{
	ir_trace *t;
	vr_state *r = state_of("[i0]\n"
			       "i1 = int_add(i0, 1)\n"
			       "i2 = int_add(i1, 1)\n"
			       "i3 = int_add(i2, 1)\n"
			       "i4 = int_add(i3, 1)\n"
			       "i5 = int_add(i4, 1)\n"
			       "guard_value(i0, 5) []\n"
			       "finish(i5)\n",
			       64, &t);
	if (!r)
		return;
	uint64_t c = 0;
	vr_advance(r, t->nops);
	CHECK(vr_known(r, named(t, "i0"), &c) && c == 5);
	CHECK(!vr_const(r, named(t, "i5"), &c));
	CHECK(!vr_known(r, named(t, "i5"), &c));
	vr_narrow(r);
	CHECK(vr_known(r, named(t, "i5"), &c) && c == 10);
	CHECK(vr_const(r, named(t, "i5"), &c) && c == 10);
	vr_free(r);
	ir_trace_free(t);
}

/* A product by a constant that cannot wrap is divided back: after the
 * overflow guard, -16942912 <= 7 * x <= -16942911 pins x (bench trace
 * seed 17602344612149625081); a negative constant factor narrows the
 * other one from the overflow guard alone. */
static void test_mul_divide(void)
{
	ir_trace *t;
	vr_state *r =
	    state_of("[i0, i1]\ni2 = int_mul_ovf(i0, 7)\n"
		     "guard_no_overflow()\ni3 = int_le(i2, -16942913)\n"
		     "guard_false(i3)\ni4 = int_sub(0, i2)\n"
		     "i5 = int_lt(i4, 16942911)\nguard_false(i5)\n"
		     "i6 = int_mul_ovf(i1, -4)\nguard_no_overflow()\n"
		     "i7 = int_mul(i1, -3)\ni8 = int_gt(i7, 30)\n"
		     "guard_true(i8)\nfinish(i0, i1)\n",
		     64, &t);
	uint64_t c;
	if (!r)
		return;
	vr_advance(r, t->nops);
	CHECK(vr_const(r, named(t, "i0"), &c) &&
	      c == (uint64_t)INT64_C(-2420416));
	vr_fact f = vr_get(r, named(t, "i1"));
	/* -4 * i1 does not overflow: 1 - 2^61 <= i1 <= 2^61; then
	 * -3 * i1 >= 31 cannot wrap, so i1 <= -11. */
	CHECK(f.smin == -(INT64_C(1) << 61) + 1 && f.smax == -11);
	vr_free(r);
	ir_trace_free(t);
}

/* The result of a shift by a constant, bounded by two guards, narrows
 * the shifted value: exhaustively at W = 8, for every count and a spread
 * of bounds.  Every x that passes the guards must stay inside its fact,
 * and the bounds of a right shift's operand must be exact (the interval
 * of the x whose shift lies in [A, B] is closed). */
static void shift_case(const char *op, unsigned k, int a, int b)
{
	bool u = strcmp(op, "uint_rshift") == 0;
	char text[256];
	snprintf(text, sizeof text,
		 "[i0]\ni1 = %s(i0, %u)\ni2 = %s(i1, %d)\nguard_true(i2)\n"
		 "i3 = %s(i1, %d)\nguard_true(i3)\nfinish(i0)\n",
		 op, k, u ? "uint_ge" : "int_ge", a, u ? "uint_le" : "int_le",
		 b);
	ir_trace *t;
	vr_state *r = end_state(text, 8, &t);
	if (!r)
		return;
	vr_fact f = vr_get(r, named(t, "i0"));
	int64_t smin = 1000, smax = -1000, umin = 1000, umax = -1;
	for (uint64_t x = 0; x < 256; x++) {
		int64_t sx = sem_signed(8, x), y;
		if (op[4] == 'l')
			y = u ? (int64_t)((x << k) & 0xff)
			      : sem_signed(8, (x << k) & 0xff);
		else
			y = u ? (int64_t)(x >> k)
			      : (sx < 0 ? ~(~sx >> k) : sx >> k);
		if (y < a || y > b)
			continue;
		CHECK(!vr_infeasible(r) && vr_contains(8, &f, x));
		smin = sx < smin ? sx : smin;
		smax = sx > smax ? sx : smax;
		umin = (int64_t)x < umin ? (int64_t)x : umin;
		umax = (int64_t)x > umax ? (int64_t)x : umax;
	}
	if (umax >= 0 && strcmp(op, "int_rshift") == 0)
		CHECK(f.smin == smin && f.smax == smax);
	if (umax >= 0 && u)
		CHECK(f.umin == (uint64_t)umin && f.umax == (uint64_t)umax);
	vr_free(r);
	ir_trace_free(t);
}

static void test_shift_solve(void)
{
	static const int sb[] = {-128, -100, -9, -1, 0, 1, 3, 17, 127};
	static const int ub[] = {0, 1, 3, 17, 100, 200, 255};
	for (unsigned k = 0; k < 8; k++) {
		for (size_t i = 0; i < 9; i++)
			for (size_t j = i; j < 9; j++) {
				shift_case("int_rshift", k, sb[i], sb[j]);
				shift_case("int_lshift", k, sb[i], sb[j]);
			}
		for (size_t i = 0; i < 7; i++)
			for (size_t j = i; j < 7; j++)
				shift_case("uint_rshift", k, ub[i], ub[j]);
	}
	/* A shifted high product (campaign trace 3630061262629957005):
	 * i1 <= C - 1, so i1 << 2 cannot wrap, and i1 << 2 < 2 pins i1. */
	ir_trace *t;
	vr_state *r = state_of("[i0]\ni1 = uint_mul_high(i0, 140737488355327)\n"
			       "i2 = int_lshift(i1, 2)\ni3 = int_ge(i2, 2)\n"
			       "guard_false(i3)\nfinish(i1)\n",
			       64, &t);
	uint64_t c = 1;
	if (!r)
		return;
	vr_advance(r, t->nops);
	CHECK(vr_const(r, named(t, "i1"), &c) && c == 0);
	vr_free(r);
	ir_trace_free(t);
}

/* vr_same_arg on one op of i0 bounded to [LO, HI], at W = 16, against
 * every input: sound always, and exact for the ops whose condition is a
 * bound of x alone (the interval's ends decide them). */
static void same_case(const char *op, int lo, int hi, bool exact)
{
	char text[256];
	snprintf(text, sizeof text,
		 "[i0]\ni1 = int_ge(i0, %d)\nguard_true(i1)\n"
		 "i2 = int_le(i0, %d)\nguard_true(i2)\ni3 = %s\nfinish(i3)\n",
		 lo, hi, op);
	ir_trace *t;
	vr_state *r = end_state(text, 16, &t);
	if (!r)
		return;
	uint32_t i = t->nops - 2;
	int said = vr_same_arg(r, i);
	bool all = true;
	for (int64_t x = lo; x <= hi; x++) {
		uint64_t in = sem_from_signed(16, x), v;
		interp_result res;
		if (cex_run(t, &in, &res, NULL) != JP_OK)
			continue;
		v = res.vals[t->ops[i].result];
		all = all && v == in;
		CHECK(said != 0 || v == in);
		interp_result_free(&res);
	}
	if (exact)
		CHECK((said == 0) == all);
	vr_free(r);
	ir_trace_free(t);
}

static void test_same_arg(void)
{
	static const int b[] = {-32768, -129, -128, -1, 0, 1, 2, 4, 127, 128};
	static const struct {
		const char *op;
		bool exact;
	} ops[] = {
	    {"int_is_true(i0)", true},	  {"int_force_ge_zero(i0)", true},
	    {"int_py_mod(i0, 5)", true},  {"int_signext(i0, 1)", true},
	    {"int_signext(i0, 2)", true}, {"int_and(i0, 127)", false},
	    {"int_or(i0, 0)", false},	  {"int_and(i0, 3)", false},
	};
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
		for (size_t i = 0; i < 10; i++)
			for (size_t j = i; j < 10; j++)
				same_case(ops[k].op, b[i], b[j], ops[k].exact);
}

/* A product of x = i0 << S (S known low zeros) by the constant C, at
 * W = 8 for every input and every C, in both argument orders: the fact
 * holds every product, and vr_same_arg says the product is x exactly when
 * it is for every input (C = 1 modulo 2^(8 - S)), with x's own bounds. */
static void mul_case(unsigned s, int c, bool c_first)
{
	char text[200];
	snprintf(text, sizeof text,
		 c_first ? "[i0]\ni1 = int_lshift(i0, %u)\n"
			   "i2 = int_mul(%d, i1)\nfinish(i2)\n"
			 : "[i0]\ni1 = int_lshift(i0, %u)\n"
			   "i2 = int_mul(i1, %d)\nfinish(i2)\n",
		 s, c);
	ir_trace *t;
	vr_state *r = end_state(text, 8, &t);
	if (!r)
		return;
	vr_fact fx = vr_get(r, named(t, "i1")), fp = vr_get(r, named(t, "i2"));
	int said = vr_same_arg(r, 1);
	bool all = true;
	for (uint64_t x = 0; x < 256; x++) {
		uint64_t y = (x << s) & 0xff, p = (y * (uint64_t)c) & 0xff;
		CHECK(vr_contains(8, &fp, p));
		all = all && p == y;
	}
	CHECK((said == (c_first ? 1 : 0)) == all);
	CHECK(said < 0 || (fp.smin == fx.smin && fp.smax == fx.smax &&
			   fp.umin == fx.umin && fp.umax == fx.umax));
	vr_free(r);
	ir_trace_free(t);
}

static void test_mul_factor(void)
{
	for (unsigned s = 0; s < 8; s++)
		for (int c = -128; c < 128; c++) {
			mul_case(s, c, false);
			mul_case(s, c, true);
		}
}

/* i4, built from i2 = i0 & 15 and i1 by the two ops OPS, at W = 8 for
 * every input pair whose run passes: its fact holds every value, and is
 * i2's [0, 15] exactly when the ops cancel (CANCELS). */
static void cancel_case(const char *ops, bool cancels)
{
	char text[300];
	snprintf(text, sizeof text,
		 "[i0, i1]\ni2 = int_and(i0, 15)\n%s\nfinish(i4)\n", ops);
	ir_trace *t;
	vr_state *r = end_state(text, 8, &t);
	if (!r)
		return;
	vr_fact f = vr_get(r, named(t, "i4"));
	bool all_small = true;
	for (uint64_t x = 0; x < 65536; x++) {
		uint64_t in[2] = {x & 0xff, x >> 8};
		interp_result res;
		if (cex_run(t, in, &res, NULL) != JP_OK)
			continue;
		if (res.outcome == INTERP_GUARD_FAIL) {
			interp_result_free(&res);
			continue;
		}
		uint64_t v = res.vals[named(t, "i4")];
		CHECK(vr_contains(8, &f, v));
		all_small = all_small && v <= 15;
		interp_result_free(&res);
	}
	CHECK(all_small == cancels);
	CHECK((f.smin == 0 && f.smax == 15) == cancels);
	vr_free(r);
	ir_trace_free(t);
}

static void test_cancel(void)
{
	cancel_case("i3 = int_sub(i2, i1)\ni4 = int_add(i3, i1)", true);
	cancel_case("i3 = int_sub(i2, i1)\ni4 = int_add(i1, i3)", true);
	cancel_case("i3 = int_add(i2, i1)\ni4 = int_sub(i3, i1)", true);
	cancel_case("i3 = int_add(i1, i2)\ni4 = int_sub(i3, i1)", true);
	cancel_case("i3 = int_sub(i1, i2)\ni4 = int_sub(i1, i3)", true);
	cancel_case("i3 = int_sub_ovf(i2, i1)\nguard_no_overflow()\n"
		    "i4 = int_add_ovf(i3, i1)\nguard_no_overflow()",
		    true);
	cancel_case("i3 = int_add_ovf(i1, i2)\nguard_no_overflow()\n"
		    "i4 = int_sub_ovf(i3, i1)\nguard_no_overflow()",
		    true);
	cancel_case("i3 = int_sub(i1, i2)\ni4 = int_add(i3, i1)", false);
	cancel_case("i3 = int_sub(i2, i1)\ni4 = int_sub(i3, i1)", false);
	cancel_case("i3 = int_sub(i2, i1)\ni4 = int_sub(i1, i3)", false);
	cancel_case("i3 = int_add(i1, i2)\ni4 = int_add(i3, i1)", false);
}

/* Guards that can fail after the earlier ones passed: never claimed. */
static void test_negative(void)
{
	static const char *const cases[] = {
	    /* MININT: 0 - x < 0 does not give x > 0. */
	    "[i0]\ni1 = int_sub(0, i0)\ni2 = int_lt(i1, 0)\nguard_true(i2) []\n"
	    "i3 = int_gt(i0, 0)\nguard_true(i3) []\njump(i1)\n",
	    /* x + 10 < 15 wraps for large x. */
	    "[i0]\ni1 = int_add(i0, 10)\ni2 = int_lt(i1, 15)\nguard_true(i2) "
	    "[]\n"
	    "i3 = int_lt(i0, 6)\nguard_true(i3) []\nfinish(i0)\n",
	    /* 0 < x < 10 does not give x < 9. */
	    "[i0]\ni1 = int_lt(i0, 10)\nguard_true(i1) []\ni2 = int_gt(i0, 0)\n"
	    "guard_true(i2) []\ni3 = int_lt(i0, 9)\nguard_true(i3) []\n"
	    "finish(i0)\n",
	    /* Unsigned x < 10 does not give signed x >= 1. */
	    "[i0]\ni1 = uint_lt(i0, 10)\nguard_true(i1) []\n"
	    "i2 = int_ge(i0, 1)\nguard_true(i2) []\nfinish(i0)\n",
	    /* A shift by a count that may be >= W. */
	    "[i0, i1]\ni2 = int_lshift(1, i1)\ni3 = int_is_true(i2)\n"
	    "guard_true(i3) []\nfinish(i2)\n",
	    /* MININT // -1 wraps. */
	    "[i0]\ni1 = int_py_div(i0, -1)\ni2 = int_ge(i1, 0)\n"
	    "i3 = int_lt(i0, 0)\nguard_true(i3) []\nguard_true(i2) []\n"
	    "finish(i1)\n",
	    /* x % 0 is x. */
	    "[i0, i1]\ni2 = int_py_mod(i0, i1)\ni3 = int_lt(i2, 100)\n"
	    "i4 = int_ge(i1, 0)\nguard_true(i4) []\ni5 = int_lt(i1, 100)\n"
	    "guard_true(i5) []\nguard_true(i3) []\nfinish(i2)\n",
	    /* Overflow of x * x is possible. */
	    "[i0]\ni1 = int_and(i0, 4294967296)\ni2 = int_or(i1, 4294967295)\n"
	    "i3 = int_mul_ovf(i2, i2)\nguard_no_overflow() []\nfinish(i3)\n",
	};
	for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {
		ir_trace *t;
		vr_state *r = state_of(cases[n], 64, &t);
		if (!r)
			continue;
		uint32_t last = UINT32_MAX;
		for (uint32_t i = 0; i < t->nops; i++)
			if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_GUARD))
				last = i;
		vr_advance(r, last);
		if (vr_guard_passes(r, last))
			fprintf(stderr, "  wrongly claimed: case %zu\n", n);
		CHECK(!vr_guard_passes(r, last));
		CHECK(!vr_infeasible(r));
		vr_free(r);
		ir_trace_free(t);
	}
}

/* ---- random traces --------------------------------------------------- */

static ir_trace *gen_one(gen_ctx *g, uint64_t seed, int width, int ninputs,
			 gen_example *ex)
{
	gen_opts o = gen_default_opts();
	o.heap = ex && seed % 5 == 0; /* heap ops must not confuse it */
	o.width = width;
	o.min_len = 3;
	o.max_len = 20;
	o.min_inputs = o.max_inputs = (uint32_t)ninputs;
	o.profile = (gen_profile)(seed % 4); /* all, arith, bounds, overflow */
	if (o.heap)
		o.profile = GEN_PROFILE_HEAP;
	ir_trace *t = NULL;
	if (gen_trace(g, seed, &o, &t, ex, NULL) != JP_OK)
		return NULL;
	return t;
}

/* W = 8: every input vector of 1-input traces and of a few 2-input ones. */
static void test_exhaustive_w8(gen_ctx *g)
{
	long traces = 0;
	for (uint64_t seed = 1; seed <= 2400; seed++) {
		int nin = seed % 60 == 0 ? 2 : 1;
		ir_trace *t = gen_one(g, seed * 7919, 8, nin, NULL);
		if (!t) {
			CHECK(0);
			continue;
		}
		traces++;
		snap s;
		snap_take(t, &s);
		uint32_t nvec = nin == 2 ? 65536 : 256;
		for (uint32_t v = 0; v < nvec; v++) {
			uint64_t in[2] = {v & 255, v >> 8};
			check_run(t, &s, in);
		}
		snap_free(&s);
		ir_trace_free(t);
	}
	printf("exhaustive W=8: %ld traces\n", traces);
}

static uint64_t edge_value(rng *R, int w)
{
	static const int64_t small[] = {0, 1, -1, 2, -2, 7, 8, 9, 16, 255, 256};
	switch (rng_below(R, 4)) {
	case 0: return sem_from_signed(w, small[rng_below(R, 11)]);
	case 1: return sem_minint(w) + rng_below(R, 3);
	case 2: return sem_maxint(w) - rng_below(R, 3);
	default:
		return sem_mask(w, UINT64_C(1) << rng_below(R, (uint64_t)w)) -
		       rng_below(R, 2);
	}
}

/* W = 16/32/64: the generator's example inputs (which pass every guard),
 * their neighbours, edge values and random values. */
static void test_sampled(gen_ctx *g)
{
	static const int widths[] = {16, 32, 64};
	rng R;
	rng_seed(&R, 12345);
	long traces = 0, heap = 0;
	for (uint64_t seed = 1; seed <= 1500; seed++) {
		int w = widths[seed % 3];
		int nin = 1 + (int)(seed % 3);
		gen_example ex;
		ir_trace *t = gen_one(g, seed * 104729, w, nin, &ex);
		if (t && t->ninputs != (uint32_t)nin) {
			CHECK(0);
			ir_trace_free(t);
			continue;
		}
		if (!t) {
			CHECK(0);
			continue;
		}
		traces++;
		for (uint32_t i = 0; i < t->nops; i++)
			if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_HEAP)) {
				heap++;
				break;
			}
		snap s;
		snap_take(t, &s);
		uint64_t in[3];
		for (int n = 0; n < 48; n++) {
			for (int i = 0; i < nin; i++) {
				uint64_t e = ex.inputs[i];
				if (t->vals[t->inputs[i]].kind != 'i') {
					in[i] = e; /* an object's address */
					continue;
				}
				switch (rng_below(&R, 5)) {
				case 0: in[i] = e; break;
				case 1:
					in[i] = sem_mask(
					    w, e + rng_below(&R, 5) - 2);
					break;
				case 2: in[i] = edge_value(&R, w); break;
				case 3:
					in[i] = sem_mask(w, rng_next(&R));
					break;
				default:
					in[i] = sem_mask(
					    w, e ^ (UINT64_C(1) << rng_below(
							&R, (uint64_t)w)));
					break;
				}
			}
			if (n == 0)
				memcpy(in, ex.inputs, (size_t)nin * sizeof *in);
			check_run(t, &s, in);
		}
		snap_free(&s);
		ir_trace_free(t);
	}
	printf("sampled W=16/32/64: %ld traces (%ld with heap ops)\n", traces,
	       heap);
}

/* ---- removed guards of the optimizer ---------------------------------- */

static bool has_label(const ir_trace *t, const char *label)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_GUARD) &&
		    strcmp(ir_guard_label(t, i), label) == 0)
			return true;
	return false;
}

/* Counts the guards of T that opt_run removes and those of them the
 * analysis proves (at the guard's own point). */
static void count_removed(const ir_trace *t, long *removed, long *decided)
{
	opt_config cfg = opt_default_config();
	ir_trace *o = NULL;
	if (opt_run(t, &cfg, &o, NULL, NULL) != JP_OK)
		return;
	vr_state *r = NULL;
	if (vr_init(&r, t, NULL) == JP_OK) {
		for (uint32_t i = 0; i < t->nops; i++) {
			if (!ir_op_has((ir_opcode)t->ops[i].opc, IRF_GUARD) ||
			    has_label(o, ir_guard_label(t, i)))
				continue;
			/* A guard after one that always fails is dropped as
			 * unreachable, not as proved: not an obligation the
			 * range analysis is asked about. */
			vr_advance(r, i);
			(*removed)++;
			if (vr_guard_passes(r, i))
				(*decided)++;
		}
	}
	vr_free(r);
	ir_trace_free(o);
}

static void test_corpus(gen_ctx *g)
{
	const char *dir = "corpus/opt";
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	if (!d)
		return;
	long files = 0, removed = 0, decided = 0;
	rng R;
	rng_seed(&R, 777);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 7 || strcmp(e->d_name + n - 6, ".trace") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		ir_parse_opts po = {.width = 64};
		ir_trace *t = NULL;
		if (ir_parse_file(path, &po, &t, NULL) != JP_OK)
			continue;
		files++;
		count_removed(t, &removed, &decided);
		/* Soundness on the corpus too: sampled inputs. */
		snap s;
		snap_take(t, &s);
		uint64_t *in = calloc(t->ninputs + 1, sizeof *in);
		for (int k = 0; k < 200; k++) {
			for (uint32_t i = 0; i < t->ninputs; i++)
				in[i] =
				    t->vals[t->inputs[i]].kind == 'r'
					? 0x1000 * (i + 1)
				    : k % 2
					? edge_value(&R, 64)
					: sem_from_signed(
					      64, (int64_t)rng_below(&R, 200) -
						      100);
			check_run(t, &s, in);
		}
		free(in);
		snap_free(&s);
		ir_trace_free(t);
	}
	closedir(d);
	printf("corpus/opt: %ld traces, %ld removed guards, %ld decided "
	       "(%.1f%%)\n",
	       files, removed, decided,
	       removed ? 100.0 * (double)decided / (double)removed : 0.0);
	CHECK(files >= 40);

	/* The same count on generated traces (bounds and overflow profiles,
	 * W = 64), where the optimizer removes many more guards. */
	long grem = 0, gdec = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		gen_opts o = gen_default_opts();
		o.profile =
		    seed % 2 ? GEN_PROFILE_BOUNDS : GEN_PROFILE_OVERFLOW;
		ir_trace *t = NULL;
		if (gen_trace(g, seed, &o, &t, NULL, NULL) != JP_OK)
			continue;
		count_removed(t, &grem, &gdec);
		ir_trace_free(t);
	}
	printf("generated (bounds/overflow, W=64): %ld removed guards, %ld "
	       "decided (%.1f%%)\n",
	       grem, gdec, grem ? 100.0 * (double)gdec / (double)grem : 0.0);
}

/* Every integer op the range analysis claims (vr_unhandled is NULL) has a
 * transfer: on constant arguments it gives the constant sem_eval gives.
 * Every pure or overflow-checked op must be claimed, and every op it does
 * not claim has a reason. */
static void test_claims(void)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		const ir_opinfo *info = ir_opinfo_of(opc);
		const char *why = vr_unhandled(opc);
		/* the switch has a case for every op: the fall-through answer
		 * means an op was added without one */
		CHECK(!why || strcmp(why, "not an op of the table") != 0);
		bool value = sem_evaluable(opc);
		CHECK(!why || *why);
		CHECK(!value || !why);
		if (why || !value || info->args[0] != 'i')
			continue;
		char text[160];
		snprintf(text, sizeof text, "[]\ni0 = %s(%s)\n%sfinish(i0)\n",
			 info->name, info->nargs == 1 ? "5" : "5, 3",
			 ir_op_has(opc, IRF_OVF) ? "guard_no_overflow()\n"
						 : "");
		ir_trace *t;
		vr_state *r = end_state(text, 8, &t);
		if (!r)
			continue;
		uint64_t a[2] = {5, 3}, c = 0;
		bool ovf;
		uint64_t want = sem_eval(opc, 8, a, &ovf);
		bool known = vr_const(r, t->ops[0].result, &c);
		if (!known || c != want)
			fprintf(stderr,
				"  %s: transfer gives no constant %llu\n",
				info->name, (unsigned long long)want);
		CHECK(known && c == want);
		vr_free(r);
		ir_trace_free(t);
	}
}

int main(void)
{
	test_claims();
	test_precision();
	test_mul_divide();
	test_narrow();
	test_shift_solve();
	test_same_arg();
	test_mul_factor();
	test_cancel();
	test_negative();
	gen_ctx *g = gen_ctx_new();
	CHECK(g != NULL);
	if (!g)
		return check_summary("test_range");
	test_exhaustive_w8(g);
	test_sampled(g);
	test_corpus(g);
	gen_ctx_free(g);
	printf("%ld runs, %ld points checked, %ld values checked, %ld claimed "
	       "guards checked, %ld ops returning an argument checked\n",
	       n_runs, n_guard_checks, n_value_checks, n_claims, n_same_checks);
	return check_summary("test_range");
}
