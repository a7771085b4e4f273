/*
 * range_transfer.c - forward transfer of the verifier's range analysis: the
 * fact of an op's result from the facts of its operands (range.h has the
 * domain; every function here returns a fact containing op(x, y) for every
 * x, y inside the argument facts).
 *
 * Map:
 *   vr_contains        membership of one value
 *   arithmetic         add, sub, mul (with constant factors), and/or/xor,
 *                      invert, neg, shifts, signext, umulh, force_ge_zero,
 *                      floor division and modulo
 *   comparisons        decide_cmp (1, 0 or unknown from the facts), t_cmp
 *   dispatch           vrt_transfer (one case per op), same_arg_fact
 *                      (x op x), vrt_transfer_op
 */
#include "range_int.h"

bool vr_contains(int w, const vr_fact *f, uint64_t x)
{
	int64_t s = sem_signed(w, x);
	return s >= f->smin && s <= f->smax && x >= f->umin && x <= f->umax &&
	       (x & f->zeros) == 0 && (x & f->ones) == f->ones;
}

/* ---- forward transfer ----------------------------------------------- */

static bool uadd_wraps(int w, uint64_t a, uint64_t b)
{
	return w >= 64 ? a + b < a : a + b > sem_allones(w);
}

vr_fact vrt_add(int w, const vr_fact *x, const vr_fact *y)
{
	vr_fact r = top(w);
	uint64_t m = sem_allones(w);
	if (uadd_wraps(w, x->umin, y->umin) ==
	    uadd_wraps(w, x->umax, y->umax)) {
		r.umin = sem_mask(w, x->umin + y->umin);
		r.umax = sem_mask(w, x->umax + y->umax);
	}
	int dlo, dhi;
	exact(w, IR_INT_ADD_OVF, x->smin, y->smin, &dlo);
	exact(w, IR_INT_ADD_OVF, x->smax, y->smax, &dhi);
	if (dlo == dhi) {
		r.smin = wrapped(w, IR_INT_ADD_OVF, x->smin, y->smin);
		r.smax = wrapped(w, IR_INT_ADD_OVF, x->smax, y->smax);
	}
	/* Known bits of a sum: the bits no unknown bit or carry can reach. */
	uint64_t xm = unknown(w, x), ym = unknown(w, y);
	uint64_t sv = x->ones + y->ones, sm = xm + ym;
	uint64_t mu = ((sv + sm) ^ sv) | xm | ym;
	r.ones = sv & ~mu & m;
	r.zeros = ~sv & ~mu & m;
	return norm(w, r);
}

vr_fact vrt_sub(int w, const vr_fact *x, const vr_fact *y)
{
	vr_fact r = top(w);
	uint64_t m = sem_allones(w);
	if (x->umin >= y->umax || x->umax < y->umin) {
		/* No difference wraps, or every one does. */
		r.umin = sem_mask(w, x->umin - y->umax);
		r.umax = sem_mask(w, x->umax - y->umin);
	}
	int dlo, dhi;
	exact(w, IR_INT_SUB_OVF, x->smin, y->smax, &dlo);
	exact(w, IR_INT_SUB_OVF, x->smax, y->smin, &dhi);
	if (dlo == dhi) {
		r.smin = wrapped(w, IR_INT_SUB_OVF, x->smin, y->smax);
		r.smax = wrapped(w, IR_INT_SUB_OVF, x->smax, y->smin);
	}
	uint64_t xm = unknown(w, x), ym = unknown(w, y);
	uint64_t dv = x->ones - y->ones;
	uint64_t mu = ((dv + xm) ^ (dv - ym)) | xm | ym;
	r.ones = dv & ~mu & m;
	r.zeros = ~dv & ~mu & m;
	return norm(w, r);
}

/* Constant factor Y of a product by X with the bits that cannot reach
 * the product dropped: when X is a multiple of 2^t, X * C mod 2^W depends
 * only on C mod 2^(W-t), and of the constants with that residue the one
 * nearest 0 gives the tightest interval.  A generated x * (MININT + 1)
 * with x even is x itself, which the corners of C would not show.  Y
 * itself when it is not a constant or X has no known low zero. */
vr_fact vrt_mul_factor(int w, const vr_fact *x, const vr_fact *y)
{
	unsigned t = ctz_w(w, ~x->zeros);
	if (!is_const(y) || t == 0 || t >= (unsigned)w)
		return *y;
	unsigned k = (unsigned)w - t;
	uint64_t c = y->umin & lowbits(k);
	if (c > (UINT64_C(1) << (k - 1)))
		c -= UINT64_C(1) << k; /* the negative residue is nearer */
	return fconst(w, c);
}

static vr_fact t_mul(int w, const vr_fact *x0, const vr_fact *y0)
{
	vr_fact xr = vrt_mul_factor(w, y0, x0), yr = vrt_mul_factor(w, x0, y0);
	const vr_fact *x = &xr, *y = &yr;
	vr_fact r = top(w);
	if (sem_umulh(w, x->umax, y->umax) == 0) {
		r.umin = x->umin * y->umin;
		r.umax = x->umax * y->umax;
	}
	int64_t xs[2] = {x->smin, x->smax}, ys[2] = {y->smin, y->smax};
	bool fits = true;
	int64_t lo = 0, hi = 0;
	for (int i = 0; i < 4; i++) {
		int d;
		int64_t p = exact(w, IR_INT_MUL_OVF, xs[i / 2], ys[i % 2], &d);
		fits = fits && d == 0;
		lo = i == 0 ? p : smin64(lo, p);
		hi = i == 0 ? p : smax64(hi, p);
	}
	if (fits)
		tighten_s(&r, lo, hi);
	/* With x = x' * 2^tx and y = y' * 2^ty, x known in its low kx bits
	 * and y in its low ky bits, x * y is known in its low
	 * min(kx + ty, ky + tx) bits: the unknown parts of x and y are
	 * multiples of 2^kx and 2^ky, and meet a multiple of 2^ty or 2^tx. */
	unsigned kx = ctz_w(w, unknown(w, x)), ky = ctz_w(w, unknown(w, y));
	unsigned tx = ctz_w(w, ~x->zeros), ty = ctz_w(w, ~y->zeros);
	unsigned k = kx + ty < ky + tx ? kx + ty : ky + tx;
	uint64_t low = lowbits(k) & sem_allones(w);
	uint64_t pv = x->ones * y->ones;
	r.ones |= pv & low;
	r.zeros |= ~pv & low;
	return norm(w, r);
}

static vr_fact t_and(int w, const vr_fact *x, const vr_fact *y)
{
	uint64_t m = sem_allones(w);
	/* Every bit X may have is certainly set in Y: the and is X. */
	if ((m & ~x->zeros & ~y->ones) == 0)
		return *x;
	if ((m & ~y->zeros & ~x->ones) == 0)
		return *y;
	vr_fact r = top(w);
	r.ones = x->ones & y->ones;
	r.zeros = x->zeros | y->zeros;
	r.umax = umin64(x->umax, y->umax);
	return norm(w, r);
}

static vr_fact t_or(int w, const vr_fact *x, const vr_fact *y)
{
	uint64_t m = sem_allones(w);
	if ((m & ~y->zeros & ~x->ones) == 0)
		return *x;
	if ((m & ~x->zeros & ~y->ones) == 0)
		return *y;
	vr_fact r = top(w);
	r.ones = x->ones | y->ones;
	r.zeros = x->zeros & y->zeros;
	r.umin = umax64(x->umin, y->umin);
	return norm(w, r);
}

vr_fact vrt_xor(int w, const vr_fact *x, const vr_fact *y)
{
	vr_fact r = top(w);
	r.ones = (x->ones & y->zeros) | (x->zeros & y->ones);
	r.zeros = (x->zeros & y->zeros) | (x->ones & y->ones);
	return norm(w, r);
}

vr_fact vrt_invert(int w, const vr_fact *x)
{
	vr_fact r = {-1 - x->smax,
		     -1 - x->smin,
		     sem_allones(w) - x->umax,
		     sem_allones(w) - x->umin,
		     x->ones,
		     x->zeros};
	return norm(w, r);
}

vr_fact vrt_neg(int w, const vr_fact *x)
{
	vr_fact zero = fconst(w, 0);
	return vrt_sub(w, &zero, x);
}

/* Shifts by one count K < W. */
static vr_fact shl_k(int w, const vr_fact *x, unsigned k)
{
	uint64_t m = sem_allones(w);
	vr_fact r = top(w);
	r.ones = (x->ones << k) & m;
	r.zeros = ((x->zeros << k) | lowbits(k)) & m;
	if (x->umax <= (m >> k)) {
		r.umin = x->umin << k;
		r.umax = x->umax << k;
	}
	if (x->smin >= asr(smin_w(w), k) && x->smax <= asr(smax_w(w), k)) {
		r.smin = sem_signed(w, sem_mask(w, (uint64_t)x->smin << k));
		r.smax = sem_signed(w, sem_mask(w, (uint64_t)x->smax << k));
	}
	return norm(w, r);
}

static vr_fact lshr_k(int w, const vr_fact *x, unsigned k)
{
	uint64_t m = sem_allones(w);
	vr_fact r = top(w);
	r.ones = x->ones >> k;
	r.zeros = (x->zeros >> k) | (m & ~(m >> k));
	r.umin = x->umin >> k;
	r.umax = x->umax >> k;
	if (k == 0) {
		r.smin = x->smin;
		r.smax = x->smax;
	}
	return norm(w, r);
}

static vr_fact ashr_k(int w, const vr_fact *x, unsigned k)
{
	uint64_t m = sem_allones(w), sign = sem_minint(w);
	uint64_t high = m & ~(m >> k);
	vr_fact r = top(w);
	r.ones = (x->ones >> k) | ((x->ones & sign) ? high : 0);
	r.zeros = (x->zeros >> k) | ((x->zeros & sign) ? high : 0);
	r.smin = asr(x->smin, k);
	r.smax = asr(x->smax, k);
	if (k == 0) {
		r.umin = x->umin;
		r.umax = x->umax;
	}
	return norm(w, r);
}

/* Whether the count K is consistent with the count's known bits. */
static bool count_ok(const vr_fact *c, uint64_t k)
{
	return (k & c->zeros) == 0 && (k & c->ones) == c->ones;
}

/* A shift by a count ranging over C: the join of the shifts by each
 * possible count below W, and of the result of counts >= W. */
static vr_fact t_shift(int w, ir_opcode opc, const vr_fact *x, const vr_fact *c)
{
	bool any = false;
	vr_fact r = top(w);
	uint64_t hi = umin64(c->umax, (uint64_t)w - 1);
	for (uint64_t k = c->umin; k <= hi; k++) {
		if (!count_ok(c, k))
			continue;
		vr_fact s;
		if (opc == IR_INT_LSHIFT)
			s = shl_k(w, x, (unsigned)k);
		else if (opc == IR_UINT_RSHIFT)
			s = lshr_k(w, x, (unsigned)k);
		else
			s = ashr_k(w, x, (unsigned)k);
		r = any ? join(r, s) : s;
		any = true;
	}
	if (c->umax >= (uint64_t)w) {
		vr_fact s;
		if (opc != IR_INT_RSHIFT || x->smin >= 0)
			s = fconst(w, 0);
		else if (x->smax < 0)
			s = fconst(w, sem_allones(w));
		else
			s = join(fconst(w, 0), fconst(w, sem_allones(w)));
		r = any ? join(r, s) : s;
		any = true;
	}
	return any ? norm(w, r) : top(w);
}

/* int_signext(x, n) for one byte count B (B == W/8 stands for every count
 * of at least W/8, which all leave x unchanged). */
static vr_fact signext_b(int w, const vr_fact *x, unsigned b)
{
	if (b == 0)
		return fconst(w, 0);
	if (b >= (unsigned)w / 8)
		return *x;
	unsigned bits = b * 8;
	int64_t lo = -((int64_t)1 << (bits - 1)),
		hi = ((int64_t)1 << (bits - 1)) - 1;
	if (x->smin >= lo && x->smax <= hi)
		return *x;
	uint64_t low = lowbits(bits), high = sem_allones(w) & ~low;
	uint64_t sign = UINT64_C(1) << (bits - 1);
	vr_fact r = srange(w, lo, hi);
	r.ones = (x->ones & low) | ((x->ones & sign) ? high : 0);
	r.zeros = (x->zeros & low) | ((x->zeros & sign) ? high : 0);
	return norm(w, r);
}

static vr_fact t_signext(int w, const vr_fact *x, const vr_fact *n)
{
	uint64_t cap = (uint64_t)w / 8;
	uint64_t lo = umin64(n->umin, cap), hi = umin64(n->umax, cap);
	bool any = false;
	vr_fact r = top(w);
	for (uint64_t b = lo; b <= hi; b++) {
		if (b < cap && !count_ok(n, b))
			continue;
		vr_fact s = signext_b(w, x, (unsigned)b);
		r = any ? join(r, s) : s;
		any = true;
	}
	return any ? norm(w, r) : top(w);
}

static vr_fact t_umulh(int w, const vr_fact *x, const vr_fact *y)
{
	return norm(w, urange(w, sem_umulh(w, x->umin, y->umin),
			      sem_umulh(w, x->umax, y->umax)));
}

static vr_fact t_force_ge_zero(int w, const vr_fact *x)
{
	if (x->smin >= 0)
		return *x;
	if (x->smax < 0)
		return fconst(w, 0);
	vr_fact nonneg = srange(w, 0, smax_w(w)), pos;
	if (!meet(w, x, &nonneg, &pos))
		return fconst(w, 0);
	return norm(w, join(pos, fconst(w, 0)));
}

/* floor(x / y) over a box where y keeps one sign and MININT / -1 cannot
 * occur: x / y is monotone in each argument there, so its extremes are at
 * the corners, and floor keeps them there. */
static vr_fact div_corners(int w, const vr_fact *x, int64_t ylo, int64_t yhi)
{
	int64_t xs[2] = {x->smin, x->smax}, ys[2] = {ylo, yhi};
	int64_t lo = 0, hi = 0;
	for (int i = 0; i < 4; i++) {
		int64_t q = sem_signed(
		    w, sem_py_div(w, pat(w, xs[i / 2]), pat(w, ys[i % 2])));
		lo = i == 0 ? q : smin64(lo, q);
		hi = i == 0 ? q : smax64(hi, q);
	}
	return norm(w, srange(w, lo, hi));
}

static vr_fact t_py_div(int w, const vr_fact *x, const vr_fact *y)
{
	if (y->smin >= 1 || y->smax <= -2 ||
	    (y->smax <= -1 && x->smin > smin_w(w)))
		return div_corners(w, x, y->smin, y->smax);
	if (y->smin == 0 && y->smax >= 1)
		return norm(w,
			    join(fconst(w, 0), div_corners(w, x, 1, y->smax)));
	if (is_const(y) && y->umin == 0)
		return fconst(w, 0);
	/* |x // y| <= x for x >= 0, whatever y is: x // 0 is 0, and for
	 * y <= -1 the quotient is at least -x. */
	if (x->smin >= 0)
		return srange(w, -x->smax, x->smax);
	return top(w);
}

/* x mod y for y >= 1 (in [YLO, YHI]). */
static vr_fact mod_pos(int w, const vr_fact *x, int64_t ylo, int64_t yhi)
{
	if (x->smin >= 0 && x->smax < ylo)
		return *x;
	if (ylo == yhi) {
		/* One divisor: when x stays within one multiple's block,
		 * x mod y moves with x. */
		uint64_t c = pat(w, ylo);
		uint64_t q1 = sem_py_div(w, pat(w, x->smin), c);
		uint64_t q2 = sem_py_div(w, pat(w, x->smax), c);
		if (q1 == q2)
			return norm(
			    w,
			    srange(w,
				   sem_signed(
				       w, sem_py_mod(w, pat(w, x->smin), c)),
				   sem_signed(
				       w, sem_py_mod(w, pat(w, x->smax), c))));
	}
	int64_t hi = yhi - 1;
	if (x->smin >= 0)
		hi = smin64(hi, x->smax);
	return norm(w, srange(w, 0, hi));
}

static vr_fact t_py_mod(int w, const vr_fact *x, const vr_fact *y)
{
	if (y->smin >= 1)
		return mod_pos(w, x, y->smin, y->smax);
	if (y->smax <= -1) {
		/* The result has the divisor's sign and a smaller size. */
		if (x->smax <= 0 && x->smin > y->smax)
			return *x;
		int64_t lo = y->smin + 1;
		if (x->smax <= 0)
			lo = smax64(lo, x->smin);
		return norm(w, srange(w, lo, 0));
	}
	if (y->smin == 0 && y->smax >= 1)
		return norm(w, join(*x, mod_pos(w, x, 1, y->smax)));
	if (is_const(y) && y->umin == 0)
		return *x;
	if (is_const(x) && x->umin == 0)
		return *x; /* 0 % y is 0, and 0 % 0 is 0 */
	return top(w);
}

/* Decides REL(X, Y) (unsigned when UNS) from the facts: 1 true, 0 false,
 * -1 unknown. */
static int decide_rel(int w, ir_rel rel, bool uns, const vr_fact *x,
		      const vr_fact *y)
{
	vr_fact both;
	switch (rel) {
	case IR_REL_LT:
		if (uns)
			return x->umax < y->umin    ? 1
			       : x->umin >= y->umax ? 0
						    : -1;
		return x->smax < y->smin ? 1 : x->smin >= y->smax ? 0 : -1;
	case IR_REL_LE:
		if (uns)
			return x->umax <= y->umin  ? 1
			       : x->umin > y->umax ? 0
						   : -1;
		return x->smax <= y->smin ? 1 : x->smin > y->smax ? 0 : -1;
	case IR_REL_EQ:
		if (!meet(w, x, y, &both))
			return 0;
		return is_const(x) && is_const(y) && x->umin == y->umin ? 1
									: -1;
	case IR_REL_NONE: return -1;
	}
	return -1;
}

/* Decides a comparison from the facts: 1 true, 0 false, -1 unknown.  The
 * op's shape (ir/ops.def) turns it into one of three relations. */
static int decide_cmp(int w, ir_opcode opc, const vr_fact *x, const vr_fact *y)
{
	ir_cmp c = ir_op_cmp(opc);
	vr_fact zero = fconst(w, 0);
	if (c.zero)
		y = &zero;
	if (c.swap) {
		const vr_fact *s = x;
		x = y;
		y = s;
	}
	int d = decide_rel(w, c.rel, c.uns, x, y);
	return d < 0 || !c.neg ? d : !d;
}

static vr_fact t_cmp(int w, ir_opcode opc, const vr_fact *x, const vr_fact *y)
{
	int d = decide_cmp(w, opc, x, y);
	return d < 0 ? bool_fact(w) : fconst(w, (uint64_t)d);
}

/* The fact of the result of OPC on argument facts A (integer ops only;
 * anything else, heap reads and call results included, is top). */
vr_fact vrt_transfer(int w, ir_opcode opc, const vr_fact *a)
{
	switch (opc) {
	case IR_INT_ADD:
	case IR_INT_ADD_OVF: return vrt_add(w, &a[0], &a[1]);
	case IR_INT_SUB:
	case IR_INT_SUB_OVF: return vrt_sub(w, &a[0], &a[1]);
	case IR_INT_MUL:
	case IR_INT_MUL_OVF: return t_mul(w, &a[0], &a[1]);
	case IR_INT_AND: return t_and(w, &a[0], &a[1]);
	case IR_INT_OR: return t_or(w, &a[0], &a[1]);
	case IR_INT_XOR: return vrt_xor(w, &a[0], &a[1]);
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: return t_shift(w, opc, &a[0], &a[1]);
	case IR_INT_NEG: return vrt_neg(w, &a[0]);
	case IR_INT_INVERT: return vrt_invert(w, &a[0]);
	case IR_INT_SIGNEXT: return t_signext(w, &a[0], &a[1]);
	case IR_UINT_MUL_HIGH: return t_umulh(w, &a[0], &a[1]);
	case IR_INT_FORCE_GE_ZERO: return t_force_ge_zero(w, &a[0]);
	case IR_SAME_AS_I: return a[0];
	case IR_INT_PY_DIV: return t_py_div(w, &a[0], &a[1]);
	case IR_INT_PY_MOD: return t_py_mod(w, &a[0], &a[1]);
	case IR_INT_EQ:
	case IR_INT_NE:
	case IR_INT_LT:
	case IR_INT_LE:
	case IR_INT_GT:
	case IR_INT_GE:
	case IR_UINT_LT:
	case IR_UINT_LE:
	case IR_UINT_GT:
	case IR_UINT_GE: return t_cmp(w, opc, &a[0], &a[1]);
	case IR_INT_IS_TRUE:
	case IR_INT_IS_ZERO: return t_cmp(w, opc, &a[0], NULL);
	case IR_PTR_EQ:
	case IR_PTR_NE: return bool_fact(w);
	/* clang-format off */
	case IR_GUARD_TRUE: case IR_GUARD_FALSE: case IR_GUARD_VALUE:
	case IR_GUARD_NO_OVERFLOW: case IR_GUARD_OVERFLOW:
	case IR_GUARD_CLASS: case IR_GUARD_NONNULL: case IR_GUARD_ISNULL:
	case IR_NEW: case IR_NEW_WITH_VTABLE: case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: case IR_SETFIELD_GC: case IR_ESCAPE_N:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT: case IR_LABEL:
	case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return top(w);
	}
	return top(w); /* not an op of the table */
}

/* An op whose two arguments are the same value: the identities the
 * interval domain cannot see (x - x is 0 even when x is unknown). */
static bool same_arg_fact(int w, ir_opcode opc, const vr_fact *x, vr_fact *out)
{
	switch (opc) {
	case IR_INT_SUB:
	case IR_INT_SUB_OVF:
	case IR_INT_XOR:
	case IR_INT_PY_MOD: /* x % x: 0, and 0 % 0 = 0 */
	case IR_INT_NE:
	case IR_INT_LT:
	case IR_INT_GT:
	case IR_UINT_LT:
	case IR_UINT_GT:
	case IR_INT_EQ:
	case IR_INT_LE:
	case IR_INT_GE:
	case IR_UINT_LE:
	case IR_UINT_GE:
		*out = fconst(w, ir_cmp_reflexive(opc) ? 1 : 0);
		return true;
	case IR_INT_AND:
	case IR_INT_OR: *out = *x; return true;
	case IR_INT_ADD:
	case IR_INT_ADD_OVF: {
		/* x + x is x << 1: its low bit is 0, which the sum of two
		 * unknown bits does not show. */
		vr_fact sh = shl_k(w, x, 1), sum = vrt_add(w, x, x);
		if (!meet(w, &sh, &sum, out))
			*out = sh;
		return true;
	}
	case IR_INT_PY_DIV: /* x // x: 1, and 0 // 0 = 0 */
		*out = x->umin >= 1 ? fconst(w, 1) : bool_fact(w);
		return true;
	/* clang-format off */
	case IR_INT_MUL: case IR_INT_LSHIFT: case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: case IR_INT_NEG: case IR_INT_INVERT:
	case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_IS_TRUE:
	case IR_INT_IS_ZERO: case IR_PTR_EQ: case IR_PTR_NE:
	case IR_INT_MUL_OVF: case IR_GUARD_TRUE: case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: case IR_GUARD_CLASS: case IR_GUARD_NONNULL:
	case IR_GUARD_ISNULL: case IR_NEW: case IR_NEW_WITH_VTABLE:
	case IR_GETFIELD_GC_I: case IR_GETFIELD_GC_R: case IR_SETFIELD_GC:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT:
	case IR_LABEL: case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return false;
	}
	return false; /* not an op of the table */
}

/* vrt_transfer() for op OP, whose argument facts are A. */
vr_fact vrt_transfer_op(int w, const ir_op *op, const vr_fact *a)
{
	vr_fact f;
	if (op->nargs == 2 && op->args[0] == op->args[1] &&
	    same_arg_fact(w, (ir_opcode)op->opc, &a[0], &f))
		return f;
	return vrt_transfer(w, (ir_opcode)op->opc, a);
}

/* Which ops the range analysis gives a transfer or an assumption (range.h).
 * Every op has a case: an op added to ir/ops.def stops the build here. */
const char *vr_unhandled(ir_opcode opc)
{
	switch (opc) {
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT:
	case IR_INT_LE: case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT:
	case IR_UINT_LE: case IR_UINT_GT: case IR_UINT_GE:
	case IR_INT_IS_TRUE: case IR_INT_IS_ZERO: case IR_PTR_EQ:
	case IR_PTR_NE: case IR_INT_ADD_OVF: case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: case IR_GUARD_TRUE: case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW:
		/* clang-format on */
		return NULL;
	/* clang-format off */
	case IR_GUARD_CLASS: case IR_GUARD_NONNULL: case IR_GUARD_ISNULL:
		/* clang-format on */
		return "a guard that says nothing about an integer value the "
		       "facts keep";
	/* clang-format off */
	case IR_NEW: case IR_NEW_WITH_VTABLE: case IR_GETFIELD_GC_R:
	case IR_SETFIELD_GC: case IR_ESCAPE_N: case IR_GETARRAYITEM_GC_R:
	case IR_SETARRAYITEM_GC:
		/* clang-format on */
		return "defines no integer value";
	/* clang-format off */
	case IR_GETFIELD_GC_I: case IR_ESCAPE_I: case IR_OPAQUE:
	case IR_GETARRAYITEM_GC_I:
		/* clang-format on */
		return "a heap read or call result: top, values are not "
		       "tracked through the heap";
	/* clang-format off */
	case IR_DEBUG_MERGE_POINT: case IR_LABEL: case IR_JUMP:
	case IR_FINISH:
		/* clang-format on */
		return "defines no value";
	}
	return "not an op of the table";
}
