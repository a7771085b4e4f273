/*
 * test_sem.c - ir/sem.c against references computed by other methods.
 *
 * sem_eval is the executable definition of every integer op, so it is only
 * worth as much as the evidence that it computes what docs/semantics.md
 * says.  This test recomputes every op with two references that share no
 * code with ir/sem.c:
 *
 *   - a "mathematical" reference for W <= 32: arguments become exact signed
 *     (or unsigned) integers in long long, the op is done on those exact
 *     values, and the exact result is reduced modulo 2^W.  Floor division
 *     goes through double (exact for |x| < 2^53); bitwise ops and shifts
 *     walk the bits one at a time.
 *   - a "wide" reference for every W, 64 included: arguments are
 *     sign- or zero-extended to a 128-bit two's complement number held in
 *     two words, multiplied by shift-and-add, and overflow is read off as
 *     "the exact result is not the sign extension of its low W bits".
 *
 * Width 8 is checked exhaustively (every pair of arguments), widths 16 and
 * 32 on edge values and pseudo-random pairs, width 64 on edge values,
 * pseudo-random pairs and a table of hand-computed constants.  Floor
 * division and modulo, for which the wide reference has no division, are
 * checked at every width through Python's defining identities instead.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "ir/ops.h"
#include "ir/sem.h"

/* ------------------------------------------------------------------ */
/* Reporting: one CHECK per (op, width, source) group, with the first few
 * mismatching cases printed so that a failure is easy to reproduce. */

typedef struct group {
	const char *what;
	ir_opcode opc;
	int w;
	long cases, bad;
} group;

static group group_begin(const char *what, ir_opcode opc, int w)
{
	group g = {what, opc, w, 0, 0};
	return g;
}

static void group_case(group *g, bool ok, const uint64_t *a, int nargs,
		       uint64_t got, uint64_t want, const char *field)
{
	g->cases++;
	if (ok)
		return;
	if (g->bad++ >= 4)
		return;
	fprintf(stderr, "  %s w=%d %s(", g->what, g->w,
		ir_opinfos[g->opc].name);
	for (int i = 0; i < nargs; i++)
		fprintf(stderr, "%s0x%" PRIx64, i ? ", " : "", a[i]);
	fprintf(stderr, ") %s: got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", field,
		got, want);
}

static void group_end(const group *g)
{
	static char msg[200];
	snprintf(msg, sizeof msg, "%s w=%d %s: %ld of %ld cases wrong", g->what,
		 g->w, ir_opinfos[g->opc].name, g->bad, g->cases);
	check_report(g->bad == 0 && g->cases > 0, __FILE__, __LINE__, msg);
}

/* Evaluates through sem_eval and compares with an expected value and, for
 * overflow-checked ops, an expected overflow flag. */
static void expect(group *g, const uint64_t *a, uint64_t want, bool want_ovf)
{
	bool ovf = !want_ovf; /* make sure sem_eval really writes the flag */
	uint64_t got = sem_eval(g->opc, g->w, a, &ovf);
	int n = ir_opinfos[g->opc].nargs;
	group_case(g, got == want, a, n, got, want, "value");
	group_case(g, ovf == want_ovf, a, n, ovf, want_ovf, "overflow flag");
}

/* ------------------------------------------------------------------ */
/* Helpers shared by both references, written without sem.h. */

static uint64_t low_bits(int w, uint64_t x)
{
	return w == 64 ? x : x % (UINT64_C(1) << w);
}

static bool bit(uint64_t x, int i)
{
	return (x >> i) & 1;
}

/* Bitwise ops one bit at a time. */
static uint64_t ref_bitwise(int w, uint64_t x, uint64_t y, char op)
{
	uint64_t r = 0;
	for (int i = 0; i < w; i++) {
		bool a = bit(x, i), b = bit(y, i), c;
		switch (op) {
		case '&': c = a && b; break;
		case '|': c = a || b; break;
		case '^': c = a != b; break;
		default: c = !a; break; /* '~' */
		}
		if (c)
			r |= UINT64_C(1) << i;
	}
	return r;
}

/* Shifts one position at a time, as many times as the count says but at
 * most W times (after W steps the value no longer changes).  Counts of W or
 * more therefore give 0 or the sign fill without any special case. */
static uint64_t ref_shift(int w, uint64_t x, uint64_t n, char kind)
{
	for (uint64_t i = 0; i < n && i < (uint64_t)w; i++) {
		bool sign = bit(x, w - 1);
		if (kind == '<') {
			x = low_bits(w, x * 2);
		} else {
			x /= 2;
			if (kind == 'a' && sign)
				x |= UINT64_C(1) << (w - 1);
		}
	}
	return x;
}

/* int_signext(x, n) as exact arithmetic: the low 8n bits read as a signed
 * number, then reduced to W bits.  n = 0 gives 0 and n >= W/8 gives x (the
 * totality choices of docs/semantics.md). */
static uint64_t ref_signext(int w, uint64_t x, uint64_t n)
{
	if (n == 0)
		return 0;
	if (n >= (uint64_t)w / 8)
		return x;
	int bits = (int)n * 8; /* at most 56 */
	long long m = 1LL << bits;
	long long v = (long long)(x % (uint64_t)m);
	if (v >= m / 2)
		v -= m;
	return low_bits(w, (uint64_t)v);
}

/* ------------------------------------------------------------------ */
/* The mathematical reference, W <= 32: every exact intermediate result
 * fits in long long. */

static long long m_signed(int w, uint64_t x)
{
	long long m = 1LL << w;
	long long v = (long long)x;
	return v >= m / 2 ? v - m : v;
}

static uint64_t m_reduce(int w, long long v)
{
	long long m = 1LL << w;
	long long r = v % m;
	return (uint64_t)(r < 0 ? r + m : r);
}

static bool m_fits(int w, long long v)
{
	long long half = 1LL << (w - 1);
	return v >= -half && v < half;
}

/* Floor of a / b through double: exact for |a| < 2^53, because a / b is
 * at least 1/|b| away from the next integer unless it is one. */
static long long m_floor_div(long long a, long long b)
{
	double q = (double)a / (double)b;
	long long t = (long long)q; /* truncates toward zero */
	if ((double)t > q)
		t--;
	return t;
}

/* Sets *WANT and *OVF; returns false for ops this reference does not
 * cover. */
static bool ref_math(ir_opcode opc, int w, const uint64_t *a, uint64_t *want,
		     bool *ovf)
{
	uint64_t ux = a[0], uy = a[1];
	long long x = m_signed(w, ux), y = m_signed(w, uy);
	long long exact = 0;
	*ovf = false;
	switch (opc) {
	case IR_INT_ADD: *want = m_reduce(w, x + y); return true;
	case IR_INT_SUB: *want = m_reduce(w, x - y); return true;
	case IR_INT_MUL: *want = m_reduce(w, x * y); return true;
	case IR_INT_ADD_OVF: exact = x + y; break;
	case IR_INT_SUB_OVF: exact = x - y; break;
	case IR_INT_MUL_OVF: exact = x * y; break;
	case IR_INT_AND: *want = ref_bitwise(w, ux, uy, '&'); return true;
	case IR_INT_OR: *want = ref_bitwise(w, ux, uy, '|'); return true;
	case IR_INT_XOR: *want = ref_bitwise(w, ux, uy, '^'); return true;
	case IR_INT_INVERT: *want = m_reduce(w, -x - 1); return true;
	case IR_INT_NEG: *want = m_reduce(w, -x); return true;
	case IR_INT_LSHIFT:
		*want = uy >= (uint64_t)w ? 0 : m_reduce(w, x * (1LL << uy));
		return true;
	case IR_INT_RSHIFT:
		*want =
		    m_reduce(w, uy >= (uint64_t)w ? (x < 0 ? -1 : 0)
						  : m_floor_div(x, 1LL << uy));
		return true;
	case IR_UINT_RSHIFT:
		*want = uy >= (uint64_t)w ? 0 : ux / (UINT64_C(1) << uy);
		return true;
	case IR_INT_SIGNEXT: *want = ref_signext(w, ux, uy); return true;
	case IR_UINT_MUL_HIGH:
		*want = (ux * uy) / (UINT64_C(1) << w);
		return true;
	case IR_INT_FORCE_GE_ZERO: *want = x < 0 ? 0 : ux; return true;
	case IR_SAME_AS_I: *want = ux; return true;
	case IR_INT_PY_DIV:
		*want = y == 0 ? 0 : m_reduce(w, m_floor_div(x, y));
		return true;
	case IR_INT_PY_MOD:
		*want = y == 0 ? ux : m_reduce(w, x - y * m_floor_div(x, y));
		return true;
	case IR_INT_EQ: *want = x == y; return true;
	case IR_INT_NE: *want = x != y; return true;
	case IR_INT_LT: *want = x < y; return true;
	case IR_INT_LE: *want = x <= y; return true;
	case IR_INT_GT: *want = x > y; return true;
	case IR_INT_GE: *want = x >= y; return true;
	case IR_UINT_LT: *want = ux < uy; return true;
	case IR_UINT_LE: *want = ux <= uy; return true;
	case IR_UINT_GT: *want = ux > uy; return true;
	case IR_UINT_GE: *want = ux >= uy; return true;
	case IR_INT_IS_TRUE: *want = x != 0; return true;
	case IR_INT_IS_ZERO: *want = x == 0; return true;
	case IR_PTR_EQ: *want = ux == uy; return true;
	case IR_PTR_NE: *want = ux != uy; return true;
	default: return false;
	}
	*want = m_reduce(w, exact);
	*ovf = !m_fits(w, exact);
	return true;
}

/* ------------------------------------------------------------------ */
/* The wide reference: 128-bit two's complement in two words. */

typedef struct wide {
	uint64_t hi, lo;
} wide;

static wide w_sext(int w, uint64_t x)
{
	bool neg = bit(x, w - 1);
	wide r = {neg ? ~UINT64_C(0) : 0, x};
	if (neg && w < 64)
		r.lo = x | ~((UINT64_C(1) << w) - 1);
	return r;
}

static wide w_zext(uint64_t x)
{
	wide r = {0, x};
	return r;
}

static wide w_add(wide a, wide b)
{
	wide r;
	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (r.lo < a.lo);
	return r;
}

static wide w_neg(wide a)
{
	wide inv = {~a.hi, ~a.lo};
	return w_add(inv, w_zext(1));
}

static wide w_sub(wide a, wide b)
{
	return w_add(a, w_neg(b));
}

/* The product modulo 2^128, by shift-and-add over the 128 bits of B. */
static wide w_mul(wide a, wide b)
{
	wide r = {0, 0};
	for (int i = 0; i < 128; i++) {
		if (i < 64 ? bit(b.lo, i) : bit(b.hi, i - 64))
			r = w_add(r, a);
		a.hi = (a.hi << 1) | (a.lo >> 63);
		a.lo <<= 1;
	}
	return r;
}

static bool w_eq(wide a, wide b)
{
	return a.hi == b.hi && a.lo == b.lo;
}

static bool w_is_neg(wide a)
{
	return bit(a.hi, 63);
}

/* Whether the exact value A is representable in W signed bits. */
static bool w_fits(int w, wide a)
{
	return w_eq(a, w_sext(w, low_bits(w, a.lo)));
}

/* Signed comparison by flipping the sign bits and comparing unsigned. */
static bool w_slt(int w, uint64_t x, uint64_t y)
{
	uint64_t flip = UINT64_C(1) << (w - 1);
	return (x ^ flip) < (y ^ flip);
}

/* Bits [W, 2W) of the exact unsigned product. */
static uint64_t w_umulh(int w, uint64_t x, uint64_t y)
{
	wide p = w_mul(w_zext(x), w_zext(y));
	if (w == 64)
		return p.hi;
	return low_bits(w, (p.lo >> w) | (p.hi << (64 - w)));
}

static bool ref_wide(ir_opcode opc, int w, const uint64_t *a, uint64_t *want,
		     bool *ovf)
{
	uint64_t ux = a[0], uy = a[1];
	wide x = w_sext(w, ux), y = w_sext(w, uy), exact = {0, 0};
	*ovf = false;
	switch (opc) {
	case IR_INT_ADD:
	case IR_INT_ADD_OVF: exact = w_add(x, y); break;
	case IR_INT_SUB:
	case IR_INT_SUB_OVF: exact = w_sub(x, y); break;
	case IR_INT_MUL:
	case IR_INT_MUL_OVF: exact = w_mul(x, y); break;
	case IR_INT_NEG: *want = low_bits(w, w_neg(x).lo); return true;
	case IR_INT_AND: *want = ref_bitwise(w, ux, uy, '&'); return true;
	case IR_INT_OR: *want = ref_bitwise(w, ux, uy, '|'); return true;
	case IR_INT_XOR: *want = ref_bitwise(w, ux, uy, '^'); return true;
	case IR_INT_INVERT: *want = ref_bitwise(w, ux, 0, '~'); return true;
	case IR_INT_LSHIFT: *want = ref_shift(w, ux, uy, '<'); return true;
	case IR_INT_RSHIFT: *want = ref_shift(w, ux, uy, 'a'); return true;
	case IR_UINT_RSHIFT: *want = ref_shift(w, ux, uy, 'l'); return true;
	case IR_INT_SIGNEXT: *want = ref_signext(w, ux, uy); return true;
	case IR_UINT_MUL_HIGH: *want = w_umulh(w, ux, uy); return true;
	case IR_INT_FORCE_GE_ZERO: *want = w_is_neg(x) ? 0 : ux; return true;
	case IR_SAME_AS_I: *want = ux; return true;
	case IR_INT_EQ: *want = ux == uy; return true;
	case IR_INT_NE: *want = ux != uy; return true;
	case IR_INT_LT: *want = w_slt(w, ux, uy); return true;
	case IR_INT_LE: *want = !w_slt(w, uy, ux); return true;
	case IR_INT_GT: *want = w_slt(w, uy, ux); return true;
	case IR_INT_GE: *want = !w_slt(w, ux, uy); return true;
	case IR_UINT_LT: *want = ux < uy; return true;
	case IR_UINT_LE: *want = ux <= uy; return true;
	case IR_UINT_GT: *want = ux > uy; return true;
	case IR_UINT_GE: *want = ux >= uy; return true;
	case IR_INT_IS_TRUE: *want = ux != 0; return true;
	case IR_INT_IS_ZERO: *want = ux == 0; return true;
	case IR_PTR_EQ: *want = ux == uy; return true;
	case IR_PTR_NE: *want = ux != uy; return true;
	default: return false; /* floor division: see check_floor_identities */
	}
	*want = low_bits(w, exact.lo);
	if (ir_op_has(opc, IRF_OVF))
		*ovf = !w_fits(w, exact);
	return true;
}

/* ------------------------------------------------------------------ */
/* Argument sets. */

/* Edge values of width W: 0, 1, -1, MININT, MAXINT, 2, -2 and their
 * neighbours, alternating bit patterns, and the shift counts 0, W-1, W,
 * W+1, all ones (-1), 2W and MININT+1 (a huge count whose low bits are
 * small, to catch a count masked to log2(W) bits). */
static int edge_values(int w, uint64_t *out)
{
	uint64_t min = UINT64_C(1) << (w - 1);
	uint64_t ones = low_bits(w, ~UINT64_C(0));
	uint64_t v[] = {0,
			1,
			ones,
			min,
			min - 1,
			2,
			ones - 1,
			min + 1,
			min - 2,
			3,
			ones - 2,
			0x55,
			0xaa,
			(uint64_t)w - 1,
			(uint64_t)w,
			(uint64_t)w + 1,
			2 * (uint64_t)w,
			7,
			8,
			9,
			UINT64_C(0x5555555555555555),
			UINT64_C(0xaaaaaaaaaaaaaaaa),
			UINT64_C(0x0123456789abcdef)};
	int n = 0;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		uint64_t x = low_bits(w, v[i]);
		bool dup = false;
		for (int j = 0; j < n; j++)
			dup = dup || out[j] == x;
		if (!dup)
			out[n++] = x;
	}
	return n;
}

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A pseudo-random W-bit value biased toward the interesting places: small
 * magnitudes, the neighbourhood of MININT/MAXINT, powers of two. */
static uint64_t rand_value(int w)
{
	uint64_t r = rng();
	uint64_t small = (rng() % 17) - 8; /* -8 .. 8 as a 64-bit pattern */
	switch (r % 5) {
	case 0: return low_bits(w, small);
	case 1: return low_bits(w, (UINT64_C(1) << (w - 1)) + small);
	case 2:
		return low_bits(w,
				(UINT64_C(1) << (rng() % (uint64_t)w)) + small);
	case 3: return low_bits(w, rng() >> (rng() % 64));
	default: return low_bits(w, rng());
	}
}

/* ------------------------------------------------------------------ */
/* Comparisons of sem_eval with the references. */

typedef bool (*ref_fn)(ir_opcode, int, const uint64_t *, uint64_t *, bool *);

static void compare_on(ir_opcode opc, int w, ref_fn ref, const char *what,
		       const uint64_t *xs, int nx, const uint64_t *ys, int ny)
{
	group g = group_begin(what, opc, w);
	for (int i = 0; i < nx; i++) {
		for (int j = 0; j < ny; j++) {
			uint64_t a[2] = {xs[i], ys[j]}, want;
			bool ovf;
			if (!ref(opc, w, a, &want, &ovf))
				return;
			expect(&g, a, want, ovf);
		}
	}
	group_end(&g);
}

static int all_values(int w, uint64_t *out)
{
	for (int i = 0; i < (1 << w); i++)
		out[i] = (uint64_t)i;
	return 1 << w;
}

/* Every evaluable op on every pair of arguments at width 8, against both
 * references. */
static void test_exhaustive_w8(void)
{
	static uint64_t all[256];
	int n = all_values(8, all);
	uint64_t zero[1] = {0};
	for (int opc = 0; opc < IR_OPCODE_COUNT; opc++) {
		if (!sem_evaluable(opc))
			continue;
		int ny = ir_opinfos[opc].nargs == 2 ? n : 1;
		const uint64_t *ys = ny == 1 ? zero : all;
		compare_on(opc, 8, ref_math, "exhaustive/math", all, n, ys, ny);
		if (opc != IR_INT_PY_DIV && opc != IR_INT_PY_MOD)
			compare_on(opc, 8, ref_wide, "exhaustive/wide", all, n,
				   ys, ny);
	}
}

/* Edge values crossed with edge values, and pseudo-random pairs. */
static void test_edges_and_random(int w, int nrandom)
{
	uint64_t edges[64];
	int ne = edge_values(w, edges);
	for (int opc = 0; opc < IR_OPCODE_COUNT; opc++) {
		if (!sem_evaluable(opc))
			continue;
		bool math = w <= 32;
		bool wide = opc != IR_INT_PY_DIV && opc != IR_INT_PY_MOD;
		if (math)
			compare_on(opc, w, ref_math, "edges/math", edges, ne,
				   edges, ne);
		if (wide)
			compare_on(opc, w, ref_wide, "edges/wide", edges, ne,
				   edges, ne);
		group gm = group_begin("random/math", opc, w);
		group gw = group_begin("random/wide", opc, w);
		for (int k = 0; k < nrandom; k++) {
			uint64_t a[2] = {rand_value(w), rand_value(w)}, want;
			bool ovf;
			if (math && ref_math(opc, w, a, &want, &ovf))
				expect(&gm, a, want, ovf);
			if (wide && ref_wide(opc, w, a, &want, &ovf))
				expect(&gw, a, want, ovf);
		}
		if (math && nrandom > 0)
			group_end(&gm);
		if (wide && nrandom > 0)
			group_end(&gw);
	}
}

/* Every op sem_evaluable admits must have a reference in this file, so
 * that an op added to ops.def cannot go untested silently. */
static void test_coverage(void)
{
	for (int opc = 0; opc < IR_OPCODE_COUNT; opc++) {
		uint64_t a[2] = {1, 2}, want;
		bool ovf;
		bool pure_or_ovf =
		    ir_op_has(opc, IRF_PURE) || ir_op_has(opc, IRF_OVF);
		CHECK(sem_evaluable(opc) == pure_or_ovf);
		if (sem_evaluable(opc))
			CHECK(ref_math(opc, 8, a, &want, &ovf));
	}
	CHECK(!sem_evaluable(IR_GUARD_TRUE));
	CHECK(!sem_evaluable(IR_GUARD_NO_OVERFLOW));
	CHECK(!sem_evaluable(IR_NEW));
	CHECK(!sem_evaluable(IR_GETFIELD_GC_I));
	CHECK(!sem_evaluable(IR_SETFIELD_GC));
	CHECK(!sem_evaluable(IR_ESCAPE_I));
	CHECK(!sem_evaluable(IR_OPAQUE));
	CHECK(!sem_evaluable(IR_LABEL));
	CHECK(!sem_evaluable(IR_FINISH));
}

/* ------------------------------------------------------------------ */
/* Floor division and modulo through their defining identities: for y != 0
 * and not (MININT, -1), q and r are the unique pair with x == y*q + r
 * exactly, |r| < |y|, and r == 0 or sign(r) == sign(y). */

static void floor_case(group *g, int w, uint64_t x, uint64_t y)
{
	uint64_t a[2] = {x, y};
	uint64_t q = sem_eval(IR_INT_PY_DIV, w, a, NULL);
	uint64_t r = sem_eval(IR_INT_PY_MOD, w, a, NULL);
	uint64_t min = UINT64_C(1) << (w - 1);
	uint64_t ones = low_bits(w, ~UINT64_C(0));
	if (y == 0) {
		group_case(g, q == 0, a, 2, q, 0, "x // 0");
		group_case(g, r == x, a, 2, r, x, "x % 0");
		return;
	}
	if (x == min && y == ones) {
		group_case(g, q == min, a, 2, q, min, "MININT // -1");
		group_case(g, r == 0, a, 2, r, 0, "MININT % -1");
		return;
	}
	wide wx = w_sext(w, x), wy = w_sext(w, y);
	wide wq = w_sext(w, q), wr = w_sext(w, r);
	bool ident = w_eq(w_add(w_mul(wy, wq), wr), wx);
	bool rneg = w_is_neg(wr), yneg = w_is_neg(wy);
	bool rzero = r == 0;
	bool sign = rzero || rneg == yneg;
	/* |r| < |y| given equal signs: r - y has the sign opposite to y's. */
	bool small = rzero || w_is_neg(w_sub(wr, wy)) != yneg;
	group_case(g, ident, a, 2, q, r, "x == y*q + r");
	group_case(g, sign, a, 2, r, y, "sign(r) == sign(y)");
	group_case(g, small, a, 2, r, y, "|r| < |y|");
	group_case(g, low_bits(w, q) == q && low_bits(w, r) == r, a, 2, q, r,
		   "canonical");
}

static void test_floor_identities(void)
{
	group g = group_begin("floor identities exhaustive", IR_INT_PY_DIV, 8);
	for (uint64_t x = 0; x < 256; x++)
		for (uint64_t y = 0; y < 256; y++)
			floor_case(&g, 8, x, y);
	group_end(&g);

	int widths[] = {16, 32, 64};
	for (int k = 0; k < 3; k++) {
		int w = widths[k];
		uint64_t edges[64];
		int ne = edge_values(w, edges);
		group ge =
		    group_begin("floor identities edges", IR_INT_PY_DIV, w);
		for (int i = 0; i < ne; i++)
			for (int j = 0; j < ne; j++)
				floor_case(&ge, w, edges[i], edges[j]);
		group_end(&ge);
		group gr =
		    group_begin("floor identities random", IR_INT_PY_DIV, w);
		for (int i = 0; i < 20000; i++)
			floor_case(&gr, w, rand_value(w), rand_value(w));
		group_end(&gr);
	}
}

/* ------------------------------------------------------------------ */
/* Hand-computed expectations, mostly at width 64 where the references
 * above are themselves only code. */

#define MIN64 UINT64_C(0x8000000000000000)
#define MAX64 UINT64_C(0x7fffffffffffffff)
#define NEG1  UINT64_C(0xffffffffffffffff)
#define NEG2  UINT64_C(0xfffffffffffffffe)

typedef struct hand {
	ir_opcode opc;
	int w;
	uint64_t x, y, want;
	bool ovf;
} hand;

static const hand hand_cases[] = {
    /* Overflow-checked arithmetic: value wraps, flag = exact result does
     * not fit in 64 signed bits. */
    {IR_INT_ADD_OVF, 64, MAX64, 1, MIN64, true},
    {IR_INT_ADD_OVF, 64, MIN64, NEG1, MAX64, true},
    {IR_INT_ADD_OVF, 64, NEG1, NEG1, NEG2, false},
    {IR_INT_ADD_OVF, 64, MIN64, MIN64, 0, true},
    {IR_INT_ADD_OVF, 64, MAX64, MAX64, NEG2, true},
    {IR_INT_ADD_OVF, 64, MAX64, MIN64, NEG1, false},
    {IR_INT_ADD_OVF, 64, 2, NEG2, 0, false},
    {IR_INT_ADD_OVF, 64, MAX64, 0, MAX64, false},
    {IR_INT_SUB_OVF, 64, MIN64, 1, MAX64, true},
    {IR_INT_SUB_OVF, 64, 0, MIN64, MIN64, true},
    {IR_INT_SUB_OVF, 64, NEG1, MIN64, MAX64, false},
    {IR_INT_SUB_OVF, 64, MAX64, NEG1, MIN64, true},
    {IR_INT_SUB_OVF, 64, 0, 1, NEG1, false},
    {IR_INT_SUB_OVF, 64, MIN64, MIN64, 0, false},
    {IR_INT_SUB_OVF, 64, NEG2, MAX64, MAX64, true},
    {IR_INT_MUL_OVF, 64, MIN64, NEG1, MIN64, true},
    {IR_INT_MUL_OVF, 64, NEG1, MIN64, MIN64, true},
    {IR_INT_MUL_OVF, 64, MAX64, 2, NEG2, true},
    {IR_INT_MUL_OVF, 64, MIN64, 2, 0, true},
    {IR_INT_MUL_OVF, 64, MAX64, MAX64, 1, true},
    {IR_INT_MUL_OVF, 64, MIN64, MIN64, 0, true},
    {IR_INT_MUL_OVF, 64, NEG1, NEG1, 1, false},
    {IR_INT_MUL_OVF, 64, NEG2, NEG2, 4, false},
    {IR_INT_MUL_OVF, 64, MIN64, 1, MIN64, false},
    {IR_INT_MUL_OVF, 64, MAX64, NEG1, MIN64 + 1, false},
    {IR_INT_MUL_OVF, 64, UINT64_C(1) << 32, UINT64_C(1) << 32, 0, true},
    /* 2^31 * 2^32 = 2^63 does not fit; 2^31 * -2^32 = -2^63 does. */
    {IR_INT_MUL_OVF, 64, UINT64_C(1) << 31, UINT64_C(1) << 32, MIN64, true},
    {IR_INT_MUL_OVF, 64, UINT64_C(1) << 31, UINT64_C(0xffffffff00000000), MIN64,
     false},
    {IR_INT_MUL_OVF, 64, UINT64_C(0xc000000000000000), 2, MIN64, false},
    {IR_INT_MUL_OVF, 64, UINT64_C(0x4000000000000000), 2, MIN64, true},
    {IR_INT_MUL_OVF, 64, 3, UINT64_C(0x2aaaaaaaaaaaaaab),
     UINT64_C(0x8000000000000001), true},
    {IR_INT_MUL_OVF, 64, 3, UINT64_C(0x2aaaaaaaaaaaaaaa),
     UINT64_C(0x7ffffffffffffffe), false},
    {IR_INT_MUL_OVF, 64, NEG1, 2, NEG2, false},
    {IR_INT_MUL_OVF, 64, 0, MIN64, 0, false},
    /* The same at width 8 and 32. */
    {IR_INT_ADD_OVF, 8, 0x7f, 1, 0x80, true},
    {IR_INT_SUB_OVF, 8, 0x80, 1, 0x7f, true},
    {IR_INT_MUL_OVF, 8, 0x80, 0xff, 0x80, true},
    {IR_INT_MUL_OVF, 8, 0x10, 0x08, 0x80, true},
    {IR_INT_MUL_OVF, 8, 0x10, 0xf8, 0x80, false},
    {IR_INT_MUL_OVF, 32, 0x10000, 0x8000, 0x80000000, true},
    {IR_INT_MUL_OVF, 32, 0x10000, 0xffff8000, 0x80000000, false},
    {IR_INT_ADD_OVF, 16, 0x7fff, 0x7fff, 0xfffe, true},
    /* Plain arithmetic wraps. */
    {IR_INT_ADD, 64, MAX64, 1, MIN64, false},
    {IR_INT_SUB, 64, 0, 1, NEG1, false},
    {IR_INT_MUL, 64, MAX64, MAX64, 1, false},
    {IR_INT_MUL, 8, 0x10, 0x10, 0, false},
    {IR_INT_NEG, 64, MIN64, 0, MIN64, false},
    {IR_INT_NEG, 64, MAX64, 0, MIN64 + 1, false},
    {IR_INT_NEG, 64, 1, 0, NEG1, false},
    {IR_INT_NEG, 8, 0x80, 0, 0x80, false},
    {IR_INT_INVERT, 64, 0, 0, NEG1, false},
    {IR_INT_INVERT, 64, MIN64, 0, MAX64, false},
    {IR_INT_INVERT, 64, NEG2, 0, 1, false},
    {IR_INT_INVERT, 16, 0, 0, 0xffff, false},
    /* uint_mul_high: the high half of the unsigned 128-bit product. */
    {IR_UINT_MUL_HIGH, 64, NEG1, NEG1, NEG2, false},
    {IR_UINT_MUL_HIGH, 64, MIN64, 2, 1, false},
    {IR_UINT_MUL_HIGH, 64, MAX64, MAX64, UINT64_C(0x3fffffffffffffff), false},
    {IR_UINT_MUL_HIGH, 64, NEG2, NEG2, UINT64_C(0xfffffffffffffffc), false},
    {IR_UINT_MUL_HIGH, 64, MIN64, MIN64, UINT64_C(0x4000000000000000), false},
    {IR_UINT_MUL_HIGH, 64, NEG1, 2, 1, false},
    {IR_UINT_MUL_HIGH, 64, NEG1, MIN64, MAX64, false},
    {IR_UINT_MUL_HIGH, 64, 0, NEG1, 0, false},
    {IR_UINT_MUL_HIGH, 64, 1, NEG1, 0, false},
    {IR_UINT_MUL_HIGH, 64, UINT64_C(1) << 32, UINT64_C(1) << 32, 1, false},
    {IR_UINT_MUL_HIGH, 64, 0xffffffff, 0xffffffff, 0, false},
    {IR_UINT_MUL_HIGH, 8, 0xff, 0xff, 0xfe, false},
    {IR_UINT_MUL_HIGH, 32, 0xffffffff, 0xffffffff, 0xfffffffe, false},
    /* Shifts: the count is unsigned; W or more shifts everything out. */
    {IR_INT_LSHIFT, 64, 1, 63, MIN64, false},
    {IR_INT_LSHIFT, 64, 1, 64, 0, false},
    {IR_INT_LSHIFT, 64, 1, 65, 0, false},
    {IR_INT_LSHIFT, 64, 1, NEG1, 0, false},
    {IR_INT_LSHIFT, 64, 1, MIN64 + 1, 0, false},
    {IR_INT_LSHIFT, 64, NEG1, 0, NEG1, false},
    {IR_INT_LSHIFT, 64, NEG1, 63, MIN64, false},
    {IR_INT_LSHIFT, 64, MAX64, 1, NEG2, false},
    {IR_INT_LSHIFT, 64, 3, 63, MIN64, false},
    {IR_INT_LSHIFT, 8, 1, 7, 0x80, false},
    {IR_INT_LSHIFT, 8, 1, 8, 0, false},
    {IR_INT_LSHIFT, 8, 1, 9, 0, false},
    {IR_INT_LSHIFT, 8, 1, 0xff, 0, false},
    {IR_INT_LSHIFT, 32, 1, 32, 0, false},
    {IR_INT_RSHIFT, 64, MIN64, 63, NEG1, false},
    {IR_INT_RSHIFT, 64, MIN64, 64, NEG1, false},
    {IR_INT_RSHIFT, 64, MIN64, 65, NEG1, false},
    {IR_INT_RSHIFT, 64, MIN64, NEG1, NEG1, false},
    {IR_INT_RSHIFT, 64, MIN64, 0, MIN64, false},
    {IR_INT_RSHIFT, 64, MIN64, 1, UINT64_C(0xc000000000000000), false},
    {IR_INT_RSHIFT, 64, MAX64, 62, 1, false},
    {IR_INT_RSHIFT, 64, MAX64, 63, 0, false},
    {IR_INT_RSHIFT, 64, MAX64, 64, 0, false},
    {IR_INT_RSHIFT, 64, MAX64, NEG1, 0, false},
    {IR_INT_RSHIFT, 64, NEG2, 1, NEG1, false},
    {IR_INT_RSHIFT, 64, 2, 1, 1, false},
    {IR_INT_RSHIFT, 8, 0x80, 7, 0xff, false},
    {IR_INT_RSHIFT, 8, 0x80, 8, 0xff, false},
    {IR_INT_RSHIFT, 8, 0x80, 0xff, 0xff, false},
    {IR_INT_RSHIFT, 8, 0x7f, 8, 0, false},
    {IR_INT_RSHIFT, 16, 0x8000, 4, 0xf800, false},
    {IR_UINT_RSHIFT, 64, MIN64, 63, 1, false},
    {IR_UINT_RSHIFT, 64, MIN64, 64, 0, false},
    {IR_UINT_RSHIFT, 64, NEG1, 1, MAX64, false},
    {IR_UINT_RSHIFT, 64, NEG1, 63, 1, false},
    {IR_UINT_RSHIFT, 64, NEG1, 65, 0, false},
    {IR_UINT_RSHIFT, 64, NEG1, NEG1, 0, false},
    {IR_UINT_RSHIFT, 64, NEG1, 0, NEG1, false},
    {IR_UINT_RSHIFT, 8, 0x80, 7, 1, false},
    {IR_UINT_RSHIFT, 8, 0xff, 8, 0, false},
    {IR_UINT_RSHIFT, 32, 0x80000000, 31, 1, false},
    /* int_signext(x, n): from the low n bytes; n = 0 gives 0, n >= W/8
     * gives x. */
    {IR_INT_SIGNEXT, 64, 0x80, 1, UINT64_C(0xffffffffffffff80), false},
    {IR_INT_SIGNEXT, 64, 0x7f, 1, 0x7f, false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567890abcdef), 2,
     UINT64_C(0xffffffffffffcdef), false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567890ab7def), 2, 0x7def, false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567890abcdef), 4,
     UINT64_C(0xffffffff90abcdef), false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567810abcdef), 4, 0x10abcdef, false},
    {IR_INT_SIGNEXT, 64, 0x800000, 3, UINT64_C(0xffffffffff800000), false},
    {IR_INT_SIGNEXT, 64, 0xff, 3, 0xff, false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x800000000000), 6,
     UINT64_C(0xffff800000000000), false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x80000000000000), 7,
     UINT64_C(0xff80000000000000), false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567890abcdef), 8,
     UINT64_C(0x1234567890abcdef), false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567890abcdef), 9,
     UINT64_C(0x1234567890abcdef), false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567890abcdef), NEG1,
     UINT64_C(0x1234567890abcdef), false},
    {IR_INT_SIGNEXT, 64, UINT64_C(0x1234567890abcdef), 0, 0, false},
    {IR_INT_SIGNEXT, 64, NEG1, 0, 0, false},
    {IR_INT_SIGNEXT, 8, 0x80, 0, 0, false},
    {IR_INT_SIGNEXT, 8, 0x80, 1, 0x80, false},
    {IR_INT_SIGNEXT, 8, 0x80, 0xff, 0x80, false},
    {IR_INT_SIGNEXT, 16, 0x80, 1, 0xff80, false},
    {IR_INT_SIGNEXT, 16, 0x1280, 2, 0x1280, false},
    {IR_INT_SIGNEXT, 32, 0x8000, 2, 0xffff8000, false},
    {IR_INT_SIGNEXT, 32, 0x12800000, 3, 0xff800000, false},
    {IR_INT_SIGNEXT, 32, 0x12345678, 4, 0x12345678, false},
    {IR_INT_FORCE_GE_ZERO, 64, MIN64, 0, 0, false},
    {IR_INT_FORCE_GE_ZERO, 64, NEG1, 0, 0, false},
    {IR_INT_FORCE_GE_ZERO, 64, MAX64, 0, MAX64, false},
    {IR_INT_FORCE_GE_ZERO, 64, 0, 0, 0, false},
    {IR_INT_FORCE_GE_ZERO, 8, 0x80, 0, 0, false},
    {IR_INT_FORCE_GE_ZERO, 8, 0x7f, 0, 0x7f, false},
    {IR_SAME_AS_I, 64, MIN64, 0, MIN64, false},
    /* Python floor division; x // 0 = 0, x % 0 = x, MININT // -1 wraps. */
    {IR_INT_PY_DIV, 64, 7, 2, 3, false},
    {IR_INT_PY_DIV, 64, (uint64_t)-7, 2, (uint64_t)-4, false},
    {IR_INT_PY_DIV, 64, 7, NEG2, (uint64_t)-4, false},
    {IR_INT_PY_DIV, 64, (uint64_t)-7, NEG2, 3, false},
    {IR_INT_PY_DIV, 64, MIN64, NEG1, MIN64, false},
    {IR_INT_PY_DIV, 64, MIN64, 1, MIN64, false},
    {IR_INT_PY_DIV, 64, MIN64, 2, UINT64_C(0xc000000000000000), false},
    {IR_INT_PY_DIV, 64, MIN64, MAX64, NEG2, false},
    {IR_INT_PY_DIV, 64, MAX64, MIN64, NEG1, false},
    {IR_INT_PY_DIV, 64, MIN64, MIN64, 1, false},
    {IR_INT_PY_DIV, 64, MAX64, 0, 0, false},
    {IR_INT_PY_DIV, 64, MIN64, 0, 0, false},
    {IR_INT_PY_DIV, 64, NEG1, 2, NEG1, false},
    {IR_INT_PY_DIV, 64, 1, NEG2, NEG1, false},
    {IR_INT_PY_DIV, 64, 0, NEG1, 0, false},
    {IR_INT_PY_DIV, 64, NEG1, MIN64, 0, false},
    {IR_INT_PY_DIV, 64, NEG1, MAX64, NEG1, false},
    {IR_INT_PY_DIV, 8, 0x80, 0xff, 0x80, false},
    {IR_INT_PY_DIV, 8, 0x05, 0x00, 0x00, false},
    {IR_INT_PY_DIV, 16, 0x8000, 0xffff, 0x8000, false},
    {IR_INT_PY_DIV, 32, 0xfffffff9, 2, 0xfffffffc, false},
    {IR_INT_PY_MOD, 64, 7, 2, 1, false},
    {IR_INT_PY_MOD, 64, (uint64_t)-7, 2, 1, false},
    {IR_INT_PY_MOD, 64, 7, NEG2, NEG1, false},
    {IR_INT_PY_MOD, 64, (uint64_t)-7, NEG2, NEG1, false},
    {IR_INT_PY_MOD, 64, MIN64, NEG1, 0, false},
    {IR_INT_PY_MOD, 64, MIN64, MAX64, UINT64_C(0x7ffffffffffffffe), false},
    {IR_INT_PY_MOD, 64, MAX64, MIN64, NEG1, false},
    {IR_INT_PY_MOD, 64, MIN64, MIN64, 0, false},
    {IR_INT_PY_MOD, 64, MAX64, 0, MAX64, false},
    {IR_INT_PY_MOD, 64, MIN64, 0, MIN64, false},
    {IR_INT_PY_MOD, 64, NEG1, 2, 1, false},
    {IR_INT_PY_MOD, 64, 1, NEG2, NEG1, false},
    {IR_INT_PY_MOD, 64, NEG1, MIN64, NEG1, false},
    {IR_INT_PY_MOD, 64, NEG1, MAX64, UINT64_C(0x7ffffffffffffffe), false},
    {IR_INT_PY_MOD, 8, 0x80, 0xff, 0, false},
    {IR_INT_PY_MOD, 8, 0x85, 0x00, 0x85, false},
    {IR_INT_PY_MOD, 32, 0xfffffff9, 2, 1, false},
    /* Comparisons: signed and unsigned disagree across the sign bit. */
    {IR_INT_LT, 64, MIN64, MAX64, 1, false},
    {IR_INT_LT, 64, MAX64, MIN64, 0, false},
    {IR_UINT_LT, 64, MIN64, MAX64, 0, false},
    {IR_UINT_LT, 64, MAX64, MIN64, 1, false},
    {IR_INT_LT, 64, NEG1, 0, 1, false},
    {IR_UINT_LT, 64, NEG1, 0, 0, false},
    {IR_INT_LE, 64, MIN64, MIN64, 1, false},
    {IR_INT_LE, 64, 0, NEG1, 0, false},
    {IR_UINT_LE, 64, 0, NEG1, 1, false},
    {IR_INT_GT, 64, 0, NEG1, 1, false},
    {IR_UINT_GT, 64, 0, NEG1, 0, false},
    {IR_INT_GE, 64, MIN64, MIN64, 1, false},
    {IR_INT_GE, 64, MIN64, MAX64, 0, false},
    {IR_UINT_GE, 64, NEG1, MAX64, 1, false},
    {IR_INT_LT, 8, 0x80, 0x7f, 1, false},
    {IR_UINT_LT, 8, 0x80, 0x7f, 0, false},
    {IR_INT_EQ, 64, MIN64, MIN64, 1, false},
    {IR_INT_NE, 64, MIN64, MAX64, 1, false},
    {IR_INT_IS_TRUE, 64, MIN64, 0, 1, false},
    {IR_INT_IS_ZERO, 64, MIN64, 0, 0, false},
    {IR_INT_IS_ZERO, 8, 0, 0, 1, false},
    /* Pointer comparisons look at the whole 64-bit address whatever W is:
     * these two addresses agree in their low 8 bits. */
    {IR_PTR_EQ, 8, 0x1000, 0x1100, 0, false},
    {IR_PTR_NE, 8, 0x1000, 0x1100, 1, false},
    {IR_PTR_EQ, 8, 0x1000, 0x1000, 1, false},
    {IR_PTR_EQ, 64, 0, 0, 1, false},
};

static void test_hand_cases(void)
{
	for (size_t i = 0; i < sizeof hand_cases / sizeof hand_cases[0]; i++) {
		const hand *h = &hand_cases[i];
		group g = group_begin("hand", h->opc, h->w);
		uint64_t a[2] = {h->x, h->y};
		expect(&g, a, h->want, h->ovf);
		if (g.bad)
			fprintf(stderr, "  (hand case %zu)\n", i);
		group_end(&g);
	}
}

/* ------------------------------------------------------------------ */
/* Table flags agree with sem_eval. */

/* Commutative ops give the same value and flag both ways round; CMP ops
 * give 0 or 1; the overflow flag is cleared by ops that are not
 * overflow-checked; a NULL flag pointer is accepted. */
static void test_flags(void)
{
	int widths[] = {8, 64};
	for (int k = 0; k < 2; k++) {
		int w = widths[k];
		uint64_t vals[256];
		int n = w == 8 ? all_values(8, vals) : edge_values(64, vals);
		for (int opc = 0; opc < IR_OPCODE_COUNT; opc++) {
			if (!sem_evaluable(opc))
				continue;
			group g = group_begin("flags", opc, w);
			for (int i = 0; i < n; i++) {
				for (int j = 0; j < n; j++) {
					uint64_t a[2] = {vals[i], vals[j]};
					uint64_t b[2] = {vals[j], vals[i]};
					bool fa = true, fb = true;
					uint64_t ra = sem_eval(opc, w, a, &fa);
					uint64_t rb = sem_eval(opc, w, b, &fb);
					uint64_t rn = sem_eval(opc, w, a, NULL);
					if (ir_op_has(opc, IRF_COMM)) {
						group_case(&g, ra == rb, a, 2,
							   ra, rb, "commuted");
						group_case(&g, fa == fb, a, 2,
							   fa, fb,
							   "commuted flag");
					}
					if (ir_op_has(opc, IRF_CMP))
						group_case(&g, ra <= 1, a, 2,
							   ra, 1, "0 or 1");
					if (!ir_op_has(opc, IRF_OVF))
						group_case(&g, !fa, a, 2, fa, 0,
							   "flag cleared");
					group_case(&g, rn == ra, a, 2, rn, ra,
						   "NULL flag pointer");
				}
			}
			group_end(&g);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Guards. */

static void test_guards(void)
{
	uint64_t edges[64];
	int ne = edge_values(64, edges);
	for (int i = 0; i < ne; i++) {
		uint64_t a[2] = {edges[i], 0};
		bool nz = edges[i] != 0;
		CHECK(sem_guard_passes(IR_GUARD_TRUE, a, false) == nz);
		CHECK(sem_guard_passes(IR_GUARD_TRUE, a, true) == nz);
		CHECK(sem_guard_passes(IR_GUARD_FALSE, a, false) == !nz);
		CHECK(sem_guard_passes(IR_GUARD_NONNULL, a, false) == nz);
		CHECK(sem_guard_passes(IR_GUARD_ISNULL, a, false) == !nz);
		for (int j = 0; j < ne; j++) {
			uint64_t b[2] = {edges[i], edges[j]};
			CHECK(sem_guard_passes(IR_GUARD_VALUE, b, false) ==
			      (i == j));
		}
	}
	/* guard_true tests "nonzero", not "equals 1". */
	uint64_t two[1] = {2};
	CHECK(sem_guard_passes(IR_GUARD_TRUE, two, false));
	CHECK(!sem_guard_passes(IR_GUARD_FALSE, two, false));
	/* Addresses are compared in full. */
	uint64_t addrs[2] = {UINT64_C(0x100000000), 0};
	CHECK(sem_guard_passes(IR_GUARD_NONNULL, addrs, false));
	CHECK(!sem_guard_passes(IR_GUARD_ISNULL, addrs, false));
	uint64_t pair[2] = {UINT64_C(0x1000), UINT64_C(0x1100)};
	CHECK(!sem_guard_passes(IR_GUARD_VALUE, pair, false));
	/* Overflow guards look only at the previous op's flag. */
	uint64_t none[1] = {0};
	CHECK(sem_guard_passes(IR_GUARD_NO_OVERFLOW, none, false));
	CHECK(!sem_guard_passes(IR_GUARD_NO_OVERFLOW, none, true));
	CHECK(sem_guard_passes(IR_GUARD_OVERFLOW, none, true));
	CHECK(!sem_guard_passes(IR_GUARD_OVERFLOW, none, false));

	/* int_add_ovf followed by guard_no_overflow, exhaustively at width
	 * 8: the guard passes exactly when the true sum is in [-128, 127]. */
	long bad = 0;
	for (int x = -128; x < 128; x++) {
		for (int y = -128; y < 128; y++) {
			uint64_t a[2] = {(uint64_t)(x & 0xff),
					 (uint64_t)(y & 0xff)};
			bool ovf;
			sem_eval(IR_INT_ADD_OVF, 8, a, &ovf);
			bool passes =
			    sem_guard_passes(IR_GUARD_NO_OVERFLOW, none, ovf);
			bad += passes != (x + y >= -128 && x + y <= 127);
			sem_eval(IR_INT_MUL_OVF, 8, a, &ovf);
			passes = sem_guard_passes(IR_GUARD_OVERFLOW, none, ovf);
			bad += passes != (x * y < -128 || x * y > 127);
		}
	}
	CHECK(bad == 0);
}

/* ------------------------------------------------------------------ */
/* The inline helpers of sem.h. */

static void test_helpers(void)
{
	CHECK(sem_signed(8, 0x80) == -128);
	CHECK(sem_signed(8, 0x7f) == 127);
	CHECK(sem_signed(8, 0xff) == -1);
	CHECK(sem_signed(16, 0x8000) == -32768);
	CHECK(sem_signed(32, 0xffffffff) == -1);
	CHECK(sem_signed(64, MIN64) == INT64_MIN);
	CHECK(sem_signed(64, NEG1) == -1);
	CHECK_EQ_U64(sem_from_signed(8, -1), 0xff);
	CHECK_EQ_U64(sem_from_signed(8, -128), 0x80);
	CHECK_EQ_U64(sem_from_signed(32, INT64_MIN), 0);
	CHECK_EQ_U64(sem_from_signed(64, INT64_MIN), MIN64);
	CHECK_EQ_U64(sem_mask(8, 0x1ff), 0xff);
	CHECK_EQ_U64(sem_mask(64, NEG1), NEG1);
	CHECK_EQ_U64(sem_minint(8), 0x80);
	CHECK_EQ_U64(sem_maxint(16), 0x7fff);
	CHECK_EQ_U64(sem_minint(64), MIN64);
	CHECK_EQ_U64(sem_maxint(64), MAX64);
	CHECK_EQ_U64(sem_allones(32), 0xffffffff);
	CHECK_EQ_U64(sem_allones(64), NEG1);
	CHECK(sem_is_negative(8, 0x80));
	CHECK(!sem_is_negative(8, 0x7f));
	CHECK(sem_is_negative(64, MIN64));
	CHECK(!sem_is_negative(64, MAX64));
	for (int x = -128; x < 128; x++)
		CHECK(sem_signed(8, sem_from_signed(8, x)) == x);
}

int main(void)
{
	test_helpers();
	test_coverage();
	test_hand_cases();
	test_exhaustive_w8();
	test_edges_and_random(16, 20000);
	test_edges_and_random(32, 20000);
	test_edges_and_random(64, 20000);
	test_floor_identities();
	test_flags();
	test_guards();
	return check_summary("test_sem");
}
