#include "range.h"

#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"

/* How many levels a guard's assumption is pushed back through the ops that
 * computed the tested value, and how many levels of operands are
 * re-evaluated when a fact is asked for (facts of op results are computed
 * when the op is reached and may have been narrowed since through their
 * operands).  Both only bound the work: any depth is sound. */
enum { REFINE_DEPTH = 6, QUERY_DEPTH = 3, ADVANCE_DEPTH = 2 };

struct vr_state {
	const ir_trace *t;
	int w;
	uint32_t point;
	bool infeasible;
	vr_fact *f; /* one per vid */
};

/* ---- W-bit helpers -------------------------------------------------- */

static int64_t smin_w(int w)
{
	return sem_signed(w, sem_minint(w));
}

static int64_t smax_w(int w)
{
	return (int64_t)sem_maxint(w);
}

static uint64_t pat(int w, int64_t s)
{
	return sem_from_signed(w, s);
}

/* Arithmetic shift right of a signed value, written without relying on
 * the implementation-defined >> of negative numbers. */
static int64_t asr(int64_t a, unsigned k)
{
	if (k >= 64)
		return a < 0 ? -1 : 0;
	return a >= 0 ? a >> k : ~((~a) >> k);
}

/* The low K bits set (K may be 64). */
static uint64_t lowbits(unsigned k)
{
	return k >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << k) - 1;
}

static unsigned ctz_w(int w, uint64_t x)
{
	unsigned n = 0;
	while (n < (unsigned)w && !((x >> n) & 1))
		n++;
	return n;
}

/* Exact signed A op B clamped to the W-bit range, and the direction of the
 * overflow (+1 above MAXINT, -1 below MININT, 0 none).  The overflow flag
 * comes from sem_eval, the one definition of *_ovf. */
static int64_t exact(int w, ir_opcode ovfop, int64_t a, int64_t b, int *dir)
{
	uint64_t args[2] = {pat(w, a), pat(w, b)};
	bool ovf = false;
	uint64_t r = sem_eval(ovfop, w, args, &ovf);
	*dir = 0;
	if (!ovf)
		return sem_signed(w, r);
	switch (ovfop) {
	case IR_INT_ADD_OVF: *dir = a >= 0 ? 1 : -1; break;
	case IR_INT_SUB_OVF: *dir = a >= 0 ? 1 : -1; break;
	default: *dir = (a < 0) == (b < 0) ? 1 : -1; break;
	}
	return *dir > 0 ? smax_w(w) : smin_w(w);
}

/* The wrapped W-bit result of A op B as a signed value. */
static int64_t wrapped(int w, ir_opcode ovfop, int64_t a, int64_t b)
{
	uint64_t args[2] = {pat(w, a), pat(w, b)};
	return sem_signed(w, sem_eval(ovfop, w, args, NULL));
}

/* ---- facts ---------------------------------------------------------- */

static vr_fact top(int w)
{
	vr_fact f = {smin_w(w), smax_w(w), 0, sem_allones(w), 0, 0};
	return f;
}

static vr_fact fconst(int w, uint64_t c)
{
	c = sem_mask(w, c);
	vr_fact f = {
	    sem_signed(w, c), sem_signed(w, c), c, c, sem_allones(w) & ~c, c};
	return f;
}

static vr_fact empty_fact(int w)
{
	vr_fact f = top(w);
	f.smin = 1;
	f.smax = 0;
	return f;
}

static vr_fact srange(int w, int64_t lo, int64_t hi)
{
	vr_fact f = top(w);
	f.smin = lo;
	f.smax = hi;
	return f;
}

static vr_fact urange(int w, uint64_t lo, uint64_t hi)
{
	vr_fact f = top(w);
	f.umin = lo;
	f.umax = hi;
	return f;
}

static vr_fact bool_fact(int w)
{
	vr_fact f = urange(w, 0, 1);
	f.zeros = sem_allones(w) & ~UINT64_C(1);
	return f;
}

static bool is_empty(const vr_fact *f)
{
	return f->smin > f->smax || f->umin > f->umax ||
	       (f->zeros & f->ones) != 0;
}

static bool is_const(const vr_fact *f)
{
	return !is_empty(f) && f->umin == f->umax;
}

bool vr_contains(int w, const vr_fact *f, uint64_t x)
{
	int64_t s = sem_signed(w, x);
	return s >= f->smin && s <= f->smax && x >= f->umin && x <= f->umax &&
	       (x & f->zeros) == 0 && (x & f->ones) == f->ones;
}

static uint64_t umax64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}
static uint64_t umin64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}
static int64_t smax64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}
static int64_t smin64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The bits on which every pattern of [LO, HI] agrees (their common
 * prefix), added to *ZEROS and *ONES. */
static void prefix_bits(int w, uint64_t lo, uint64_t hi, uint64_t *zeros,
			uint64_t *ones)
{
	uint64_t diff = lo ^ hi, known = sem_allones(w);
	if (diff) {
		uint64_t hb = diff;
		while (hb & (hb - 1))
			hb &= hb - 1;
		known &= ~(hb | (hb - 1));
	}
	*ones |= lo & known;
	*zeros |= ~lo & known;
}

static void tighten_s(vr_fact *f, int64_t lo, int64_t hi)
{
	f->smin = smax64(f->smin, lo);
	f->smax = smin64(f->smax, hi);
}

static void tighten_u(vr_fact *f, uint64_t lo, uint64_t hi)
{
	f->umin = umax64(f->umin, lo);
	f->umax = umin64(f->umax, hi);
}

/* Known bits -> both intervals. */
static void from_bits(int w, vr_fact *f)
{
	uint64_t m = sem_allones(w), sign = sem_minint(w);
	uint64_t hi = m & ~f->zeros;
	tighten_u(f, f->ones, hi);
	if (f->zeros & sign)
		tighten_s(f, sem_signed(w, f->ones), sem_signed(w, hi));
	else if (f->ones & sign)
		tighten_s(f, sem_signed(w, f->ones), sem_signed(w, hi));
	else
		tighten_s(f, sem_signed(w, f->ones | sign),
			  sem_signed(w, hi & ~sign));
}

/* Signed interval -> unsigned interval.  A signed interval that crosses
 * zero is the union of [0, smax] and [pat(smin), 2^W - 1] in unsigned
 * order; an unsigned bound that falls in the gap moves to its edge. */
static void s_to_u(int w, vr_fact *f)
{
	if (f->smin >= 0) {
		tighten_u(f, (uint64_t)f->smin, (uint64_t)f->smax);
	} else if (f->smax < 0) {
		tighten_u(f, pat(w, f->smin), pat(w, f->smax));
	} else {
		if (f->umin > (uint64_t)f->smax)
			f->umin = umax64(f->umin, pat(w, f->smin));
		if (f->umax < pat(w, f->smin))
			f->umax = umin64(f->umax, (uint64_t)f->smax);
	}
}

/* Unsigned interval -> signed interval, the mirror of s_to_u. */
static void u_to_s(int w, vr_fact *f)
{
	uint64_t maxint = sem_maxint(w);
	if (f->umax <= maxint) {
		tighten_s(f, (int64_t)f->umin, (int64_t)f->umax);
	} else if (f->umin > maxint) {
		tighten_s(f, sem_signed(w, f->umin), sem_signed(w, f->umax));
	} else {
		if (f->smin > sem_signed(w, f->umax))
			f->smin = smax64(f->smin, (int64_t)f->umin);
		if (f->smax < (int64_t)f->umin)
			f->smax = smin64(f->smax, sem_signed(w, f->umax));
	}
}

/* The smallest pattern >= LO (unsigned) whose bits agree with ZEROS and
 * ONES; false when there is none.  Above the highest bit where the
 * candidate "ONES plus LO's unknown bits" differs from LO, it equals LO;
 * if that bit is a known 1 the candidate is above LO and the unknown bits
 * below can all be 0; if it is a known 0, the lowest unknown 0 bit above it
 * must become 1 instead. */
static bool next_ge(int w, uint64_t lo, uint64_t zeros, uint64_t ones,
		    uint64_t *out)
{
	uint64_t m = sem_allones(w), u = m & ~(zeros | ones);
	uint64_t x = ones | (lo & u), diff = x ^ lo;
	if (!diff) {
		*out = x;
		return true;
	}
	unsigned p = 63;
	while (!((diff >> p) & 1))
		p--;
	if ((x >> p) & 1) {
		*out = (x & ~lowbits(p)) | (ones & lowbits(p));
		return true;
	}
	for (unsigned q = p + 1; q < (unsigned)w; q++) {
		uint64_t b = UINT64_C(1) << q;
		if ((u & b) && !(lo & b)) {
			*out = (lo & ~lowbits(q + 1)) | b | (ones & lowbits(q));
			return true;
		}
	}
	return false;
}

/* The largest pattern <= HI that agrees with the bits: next_ge on the
 * complements (complementing reverses the order and swaps 0s and 1s). */
static bool prev_le(int w, uint64_t hi, uint64_t zeros, uint64_t ones,
		    uint64_t *out)
{
	uint64_t m = sem_allones(w), r;
	if (!next_ge(w, m & ~hi, ones, zeros, &r))
		return false;
	*out = m & ~r;
	return true;
}

/* Moves both intervals' ends onto patterns the known bits allow.  Signed
 * order is unsigned order with the sign bit flipped. */
static bool bounds_to_bits(int w, vr_fact *f)
{
	uint64_t lo, hi, sign = sem_minint(w);
	if (!next_ge(w, f->umin, f->zeros, f->ones, &lo) ||
	    !prev_le(w, f->umax, f->zeros, f->ones, &hi))
		return false;
	f->umin = lo;
	f->umax = hi;
	uint64_t fz = (f->zeros & ~sign) | (f->ones & sign);
	uint64_t fo = (f->ones & ~sign) | (f->zeros & sign);
	if (!next_ge(w, pat(w, f->smin) ^ sign, fz, fo, &lo) ||
	    !prev_le(w, pat(w, f->smax) ^ sign, fz, fo, &hi))
		return false;
	f->smin = sem_signed(w, lo ^ sign);
	f->smax = sem_signed(w, hi ^ sign);
	return true;
}

/* Makes the three parts of F agree; false when F describes no value. */
static bool reduce(int w, vr_fact *f)
{
	for (int i = 0; i < 4; i++) {
		vr_fact old = *f;
		if (is_empty(f))
			return false;
		from_bits(w, f);
		if (is_empty(f))
			return false;
		s_to_u(w, f);
		if (is_empty(f))
			return false;
		u_to_s(w, f);
		if (is_empty(f))
			return false;
		prefix_bits(w, f->umin, f->umax, &f->zeros, &f->ones);
		if ((f->smin < 0) == (f->smax < 0))
			prefix_bits(w, pat(w, f->smin), pat(w, f->smax),
				    &f->zeros, &f->ones);
		if (is_empty(f) || !bounds_to_bits(w, f) || is_empty(f))
			return false;
		if (memcmp(&old, f, sizeof old) == 0)
			break;
	}
	return true;
}

/* A reduced copy of F; top when F turned out empty (only possible when the
 * operands were already contradictory, where any answer is sound). */
static vr_fact norm(int w, vr_fact f)
{
	if (!reduce(w, &f))
		return top(w);
	return f;
}

static vr_fact join(vr_fact a, vr_fact b)
{
	vr_fact f = {smin64(a.smin, b.smin), smax64(a.smax, b.smax),
		     umin64(a.umin, b.umin), umax64(a.umax, b.umax),
		     a.zeros & b.zeros,	     a.ones & b.ones};
	return f;
}

/* A and B both hold: *OUT is their reduced intersection; false when it is
 * empty. */
static bool meet(int w, const vr_fact *a, const vr_fact *b, vr_fact *out)
{
	vr_fact f = {smax64(a->smin, b->smin), smin64(a->smax, b->smax),
		     umax64(a->umin, b->umin), umin64(a->umax, b->umax),
		     a->zeros | b->zeros,      a->ones | b->ones};
	*out = f;
	return reduce(w, out);
}

/* ---- forward transfer ----------------------------------------------- */

static uint64_t unknown(int w, const vr_fact *f)
{
	return sem_allones(w) & ~(f->zeros | f->ones);
}

static bool uadd_wraps(int w, uint64_t a, uint64_t b)
{
	return w >= 64 ? a + b < a : a + b > sem_allones(w);
}

static vr_fact vrt_add(int w, const vr_fact *x, const vr_fact *y)
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

static vr_fact vrt_sub(int w, const vr_fact *x, const vr_fact *y)
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
static vr_fact vrt_mul_factor(int w, const vr_fact *x, const vr_fact *y)
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

static vr_fact vrt_xor(int w, const vr_fact *x, const vr_fact *y)
{
	vr_fact r = top(w);
	r.ones = (x->ones & y->zeros) | (x->zeros & y->ones);
	r.zeros = (x->zeros & y->zeros) | (x->ones & y->ones);
	return norm(w, r);
}

static vr_fact vrt_invert(int w, const vr_fact *x)
{
	vr_fact r = {-1 - x->smax,
		     -1 - x->smin,
		     sem_allones(w) - x->umax,
		     sem_allones(w) - x->umin,
		     x->ones,
		     x->zeros};
	return norm(w, r);
}

static vr_fact vrt_neg(int w, const vr_fact *x)
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

/* Decides a comparison from the facts: 1 true, 0 false, -1 unknown. */
static int decide_cmp(int w, ir_opcode opc, const vr_fact *x, const vr_fact *y)
{
	vr_fact zero = fconst(w, 0);
	switch (opc) {
	case IR_INT_LT:
		return x->smax < y->smin ? 1 : x->smin >= y->smax ? 0 : -1;
	case IR_INT_LE:
		return x->smax <= y->smin ? 1 : x->smin > y->smax ? 0 : -1;
	case IR_INT_GT: return decide_cmp(w, IR_INT_LT, y, x);
	case IR_INT_GE: return decide_cmp(w, IR_INT_LE, y, x);
	case IR_UINT_LT:
		return x->umax < y->umin ? 1 : x->umin >= y->umax ? 0 : -1;
	case IR_UINT_LE:
		return x->umax <= y->umin ? 1 : x->umin > y->umax ? 0 : -1;
	case IR_UINT_GT: return decide_cmp(w, IR_UINT_LT, y, x);
	case IR_UINT_GE: return decide_cmp(w, IR_UINT_LE, y, x);
	case IR_INT_EQ: {
		vr_fact both;
		if (!meet(w, x, y, &both))
			return 0;
		return is_const(x) && is_const(y) && x->umin == y->umin ? 1
									: -1;
	}
	case IR_INT_NE: {
		int d = decide_cmp(w, IR_INT_EQ, x, y);
		return d < 0 ? -1 : !d;
	}
	case IR_INT_IS_ZERO: return decide_cmp(w, IR_INT_EQ, x, &zero);
	case IR_INT_IS_TRUE: return decide_cmp(w, IR_INT_NE, x, &zero);
	default: return -1;
	}
}

static vr_fact t_cmp(int w, ir_opcode opc, const vr_fact *x, const vr_fact *y)
{
	int d = decide_cmp(w, opc, x, y);
	return d < 0 ? bool_fact(w) : fconst(w, (uint64_t)d);
}

/* The fact of the result of OPC on argument facts A (integer ops only;
 * anything else, heap reads and call results included, is top). */
static vr_fact vrt_transfer(int w, ir_opcode opc, const vr_fact *a)
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
	default: return top(w);
	}
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
	case IR_UINT_GT: *out = fconst(w, 0); return true;
	case IR_INT_EQ:
	case IR_INT_LE:
	case IR_INT_GE:
	case IR_UINT_LE:
	case IR_UINT_GE: *out = fconst(w, 1); return true;
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
	default: return false;
	}
}

/* vrt_transfer() for op OP, whose argument facts are A. */
static vr_fact vrt_transfer_op(int w, const ir_op *op, const vr_fact *a)
{
	vr_fact f;
	if (op->nargs == 2 && op->args[0] == op->args[1] &&
	    same_arg_fact(w, (ir_opcode)op->opc, &a[0], &f))
		return f;
	return vrt_transfer(w, (ir_opcode)op->opc, a);
}

/* ---- the state ------------------------------------------------------ */

static bool is_int(const ir_trace *t, ir_vid v)
{
	return v != IR_NOVAL && t->vals[v].kind == 'i';
}

/* Whether op I is an integer op whose result vrt_transfer() describes from
 * its arguments' facts (so re-evaluating it can narrow its fact). */
static bool has_transfer(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	return op->result != IR_NOVAL && op->kind == 'i' &&
	       op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE &&
	       sem_evaluable((ir_opcode)op->opc) && op->nargs <= 2;
}

/* The op defining V if it is A or B (an op and its _ovf twin), else
 * NULL. */
static const ir_op *def_as(const ir_trace *t, ir_vid v, ir_opcode a,
			   ir_opcode b)
{
	uint32_t i = ir_defop(t, v);
	if (i == UINT32_MAX || (t->ops[i].opc != a && t->ops[i].opc != b))
		return NULL;
	return &t->ops[i];
}

/* The value that op OP's result equals by cancellation, or IR_NOVAL:
 * (a - y) + y and (a + y) - y are a, and x - (x - b) is b, in wrapping
 * arithmetic (the value of an _ovf op is the wrapped one too).  The
 * intervals lose that link, as a - y and y are both wide, so a bound on
 * a (a & 0xff, say) would not reach the sum. */
static ir_vid cancelled(const ir_trace *t, const ir_op *op)
{
	if (op->nargs != 2)
		return IR_NOVAL;
	const ir_vid *x = op->args;
	const ir_op *d;
	if (op->opc == IR_INT_ADD || op->opc == IR_INT_ADD_OVF) {
		for (int k = 0; k < 2; k++)
			if ((d = def_as(t, x[k], IR_INT_SUB, IR_INT_SUB_OVF)) &&
			    d->args[1] == x[1 - k])
				return d->args[0];
		return IR_NOVAL;
	}
	if (op->opc != IR_INT_SUB && op->opc != IR_INT_SUB_OVF)
		return IR_NOVAL;
	if ((d = def_as(t, x[0], IR_INT_ADD, IR_INT_ADD_OVF)))
		for (int k = 0; k < 2; k++)
			if (d->args[k] == x[1])
				return d->args[1 - k];
	if ((d = def_as(t, x[1], IR_INT_SUB, IR_INT_SUB_OVF)) &&
	    d->args[0] == x[0])
		return d->args[1];
	return IR_NOVAL;
}

/* V's stored fact, narrowed by re-evaluating its op from its operands'
 * current facts, DEPTH levels deep. */
static vr_fact eval_now(const vr_state *r, ir_vid v, int depth)
{
	const ir_trace *t = r->t;
	vr_fact f = r->f[v];
	uint32_t i = ir_defop(t, v);
	if (depth <= 0 || i == UINT32_MAX || !has_transfer(t, i))
		return f;
	const ir_op *op = &t->ops[i];
	vr_fact a[2] = {top(r->w), top(r->w)};
	for (uint32_t k = 0; k < op->nargs; k++)
		a[k] = eval_now(r, op->args[k], depth - 1);
	vr_fact g = vrt_transfer_op(r->w, op, a), both;
	ir_vid c = cancelled(t, op);
	if (c != IR_NOVAL) {
		vr_fact h = eval_now(r, c, depth - 1);
		if (meet(r->w, &g, &h, &both))
			g = both;
	}
	return meet(r->w, &f, &g, &both) ? both : f;
}

static void init_facts(vr_state *r)
{
	const ir_trace *t = r->t;
	r->point = 0;
	r->infeasible = false;
	for (uint32_t v = 0; v < t->nvals; v++)
		r->f[v] = t->vals[v].tag == IR_VAL_CONST_INT
			      ? fconst(r->w, t->vals[v].cval)
			      : top(r->w);
}

jp_status vr_init(vr_state **out, const ir_trace *t, jp_err *err)
{
	*out = NULL;
	vr_state *r = calloc(1, sizeof *r);
	if (!r)
		return jp_fail(err, JP_ENOMEM, "out of memory (range state)");
	r->t = t;
	r->w = t->width;
	r->f = malloc((t->nvals ? t->nvals : 1) * sizeof *r->f);
	if (!r->f) {
		free(r);
		return jp_fail(err, JP_ENOMEM, "out of memory (range facts)");
	}
	init_facts(r);
	*out = r;
	return JP_OK;
}

void vr_free(vr_state *r)
{
	if (!r)
		return;
	free(r->f);
	free(r);
}

void vr_reset(vr_state *r)
{
	init_facts(r);
}

uint32_t vr_point(const vr_state *r)
{
	return r->point;
}

bool vr_infeasible(const vr_state *r)
{
	return r->infeasible;
}

/* ---- refinement (guards assumed to pass) ----------------------------- */

static void refine(vr_state *r, ir_vid v, vr_fact f, int depth);

/* Narrows V's stored fact by re-evaluating the ops that computed it from
 * their operands' current facts (always sound: both facts hold). */
static void refresh(vr_state *r, ir_vid v)
{
	r->f[v] = eval_now(r, v, QUERY_DEPTH);
}

/* F minus the single value C at either end of its intervals. */
static vr_fact exclude(int w, vr_fact f, uint64_t c)
{
	int64_t s = sem_signed(w, c);
	if (f.smin == s && f.smin < f.smax)
		f.smin++;
	else if (f.smax == s && f.smin < f.smax)
		f.smax--;
	else if (f.smin == s)
		return empty_fact(w);
	if (f.umin == c && f.umin < f.umax)
		f.umin++;
	else if (f.umax == c && f.umin < f.umax)
		f.umax--;
	else if (f.umin == c)
		return empty_fact(w);
	return f;
}

/* X < Y (signed, or unsigned when U) holds: narrows both. */
static void assume_lt(vr_state *r, ir_vid x, ir_vid y, bool u, int depth)
{
	int w = r->w;
	vr_fact fx = r->f[x], fy = r->f[y];
	if (u) {
		refine(r, x,
		       fy.umax == 0 ? empty_fact(w) : urange(w, 0, fy.umax - 1),
		       depth);
		refine(r, y,
		       fx.umin == sem_allones(w)
			   ? empty_fact(w)
			   : urange(w, fx.umin + 1, sem_allones(w)),
		       depth);
		return;
	}
	refine(r, x,
	       fy.smax == smin_w(w) ? empty_fact(w)
				    : srange(w, smin_w(w), fy.smax - 1),
	       depth);
	refine(r, y,
	       fx.smin == smax_w(w) ? empty_fact(w)
				    : srange(w, fx.smin + 1, smax_w(w)),
	       depth);
}

static void assume_le(vr_state *r, ir_vid x, ir_vid y, bool u, int depth)
{
	int w = r->w;
	vr_fact fx = r->f[x], fy = r->f[y];
	if (u) {
		refine(r, x, urange(w, 0, fy.umax), depth);
		refine(r, y, urange(w, fx.umin, sem_allones(w)), depth);
		return;
	}
	refine(r, x, srange(w, smin_w(w), fy.smax), depth);
	refine(r, y, srange(w, fx.smin, smax_w(w)), depth);
}

static void assume_eq(vr_state *r, ir_vid x, ir_vid y, int depth)
{
	refine(r, x, r->f[y], depth);
	refine(r, y, r->f[x], depth);
}

static void assume_ne(vr_state *r, ir_vid x, ir_vid y, int depth)
{
	if (is_const(&r->f[y]))
		refine(r, x, exclude(r->w, r->f[x], r->f[y].umin), depth);
	if (is_const(&r->f[x]))
		refine(r, y, exclude(r->w, r->f[y], r->f[x].umin), depth);
}

/* The comparison OPC(X, Y) is known to give TRUTH. */
static void assume_cmp(vr_state *r, ir_opcode opc, ir_vid x, ir_vid y,
		       bool truth, int depth)
{
	switch (opc) {
	case IR_INT_LT:
		truth ? assume_lt(r, x, y, false, depth)
		      : assume_le(r, y, x, false, depth);
		break;
	case IR_INT_LE:
		truth ? assume_le(r, x, y, false, depth)
		      : assume_lt(r, y, x, false, depth);
		break;
	case IR_INT_GT:
		truth ? assume_lt(r, y, x, false, depth)
		      : assume_le(r, x, y, false, depth);
		break;
	case IR_INT_GE:
		truth ? assume_le(r, y, x, false, depth)
		      : assume_lt(r, x, y, false, depth);
		break;
	case IR_UINT_LT:
		truth ? assume_lt(r, x, y, true, depth)
		      : assume_le(r, y, x, true, depth);
		break;
	case IR_UINT_LE:
		truth ? assume_le(r, x, y, true, depth)
		      : assume_lt(r, y, x, true, depth);
		break;
	case IR_UINT_GT:
		truth ? assume_lt(r, y, x, true, depth)
		      : assume_le(r, x, y, true, depth);
		break;
	case IR_UINT_GE:
		truth ? assume_le(r, y, x, true, depth)
		      : assume_lt(r, x, y, true, depth);
		break;
	case IR_INT_EQ:
		truth ? assume_eq(r, x, y, depth) : assume_ne(r, x, y, depth);
		break;
	case IR_INT_NE:
		truth ? assume_ne(r, x, y, depth) : assume_eq(r, x, y, depth);
		break;
	default: break;
	}
}

/* The inverse of odd A modulo 2^64 (Newton's iteration doubles the
 * number of correct low bits each step: 3, 6, 12, 24, 48, 96). */
static uint64_t inverse_odd(uint64_t a)
{
	uint64_t x = a;
	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/* What x * C == R (mod 2^W) says about x: with C = odd * 2^t and the low k
 * bits of R known, R's low t bits are 0 and x's low k - t bits are
 * (R >> t) * odd^-1. */
static vr_fact mul_solve(int w, const vr_fact *res, uint64_t c)
{
	vr_fact f = top(w);
	if (c == 0)
		return f;
	unsigned t = ctz_w(w, c), k = ctz_w(w, unknown(w, res));
	unsigned z = k < t ? k : t;
	if (res->ones & lowbits(z))
		return empty_fact(w);
	if (k <= t)
		return f;
	uint64_t known = lowbits(k - t) & sem_allones(w);
	uint64_t v = (res->ones >> t) * inverse_odd(c >> t);
	f.ones = v & known;
	f.zeros = ~v & known;
	return f;
}

/* Floor and ceiling of A / B for B other than 0 and -1 (C division
 * truncates toward zero). */
static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a % b < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a % b < 0) == (b < 0)) ? q + 1 : q;
}

/* What x * C in RES says about x in the signed intervals, when no x of
 * X's fact makes the product wrap (a wrapped product is no multiple of
 * C in the integers): x lies between RES's bounds divided by C.  The
 * optimizer's bounds analysis narrows a factor this way after an
 * overflow guard, and so must the checker to follow it. */
static vr_fact mul_divide(int w, const vr_fact *x, const vr_fact *res,
			  int64_t c)
{
	int dlo, dhi;
	if (c == 0 || c == -1)
		return top(w);
	exact(w, IR_INT_MUL_OVF, x->smin, c, &dlo);
	exact(w, IR_INT_MUL_OVF, x->smax, c, &dhi);
	if (dlo || dhi)
		return top(w);
	int64_t lo = c > 0 ? ceil_div(res->smin, c) : ceil_div(res->smax, c);
	int64_t hi = c > 0 ? floor_div(res->smax, c) : floor_div(res->smin, c);
	return lo > hi ? empty_fact(w) : srange(w, lo, hi);
}

/* What a shift of x by the constant K (0 <= K < W) lying in RES says
 * about x.  A left shift is a product by 2^K.  A right shift drops K low
 * bits: x lies between RES's bounds times 2^K and the same plus the K
 * dropped bits, and the result's bits are x's bits K places up (of an
 * arithmetic shift's copies of the sign, the lowest is x's sign bit). */
static vr_fact shift_solve(int w, ir_opcode opc, const vr_fact *x,
			   const vr_fact *res, unsigned k)
{
	uint64_t m = sem_allones(w), c = sem_mask(w, UINT64_C(1) << k);
	vr_fact f;
	if (opc == IR_INT_LSHIFT) {
		vr_fact a = mul_solve(w, res, c);
		vr_fact b = mul_divide(w, x, res, sem_signed(w, c));
		return meet(w, &a, &b, &f) ? f : empty_fact(w);
	}
	if (opc == IR_UINT_RSHIFT) {
		uint64_t hi = umin64(res->umax, m >> k);
		if (res->umin > hi)
			return empty_fact(w);
		f = urange(w, res->umin << k, (hi << k) | lowbits(k));
	} else {
		int64_t lo = smax64(res->smin, asr(smin_w(w), k));
		int64_t hi = smin64(res->smax, asr(smax_w(w), k));
		if (lo > hi)
			return empty_fact(w);
		/* Both products fit: |lo|, |hi| <= 2^(W-1-K). */
		f = srange(w, sem_signed(w, (uint64_t)lo << k),
			   sem_signed(w, (uint64_t)hi << k) +
			       (int64_t)lowbits(k));
	}
	f.zeros = (res->zeros << k) & m;
	f.ones = (res->ones << k) & m;
	return f;
}

/* The result of op I is known to lie in R: narrows its operands, DEPTH
 * more levels.  Each rule solves the op for one operand, so it holds in
 * every execution where the op's relation and R hold. */
static void backward(vr_state *r, uint32_t i, const vr_fact *res, int depth)
{
	const ir_trace *t = r->t;
	const ir_op *op = &t->ops[i];
	int w = r->w;
	ir_vid x = op->nargs > 0 ? op->args[0] : IR_NOVAL;
	ir_vid y = op->nargs > 1 ? op->args[1] : IR_NOVAL;
	uint64_t m = sem_allones(w);
	switch (op->opc) {
	case IR_INT_ADD:
	case IR_INT_ADD_OVF:
		refine(r, x, vrt_sub(w, res, &r->f[y]), depth);
		refine(r, y, vrt_sub(w, res, &r->f[x]), depth);
		break;
	case IR_INT_SUB:
	case IR_INT_SUB_OVF:
		refine(r, x, vrt_add(w, res, &r->f[y]), depth);
		refine(r, y, vrt_sub(w, &r->f[x], res), depth);
		break;
	case IR_INT_XOR:
		refine(r, x, vrt_xor(w, res, &r->f[y]), depth);
		refine(r, y, vrt_xor(w, res, &r->f[x]), depth);
		break;
	case IR_INT_MUL:
	case IR_INT_MUL_OVF:
		if (is_const(&r->f[y])) {
			refine(r, x, mul_solve(w, res, r->f[y].umin), depth);
			refine(r, x, mul_divide(w, &r->f[x], res, r->f[y].smin),
			       depth);
		}
		if (is_const(&r->f[x])) {
			refine(r, y, mul_solve(w, res, r->f[x].umin), depth);
			refine(r, y, mul_divide(w, &r->f[y], res, r->f[x].smin),
			       depth);
		}
		break;
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT:
		if (is_const(&r->f[y]) && r->f[y].umin < (uint64_t)w)
			refine(r, x,
			       shift_solve(w, (ir_opcode)op->opc, &r->f[x], res,
					   (unsigned)r->f[y].umin),
			       depth);
		break;
	case IR_INT_NEG: refine(r, x, vrt_neg(w, res), depth); break;
	case IR_INT_INVERT: refine(r, x, vrt_invert(w, res), depth); break;
	case IR_SAME_AS_I: refine(r, x, *res, depth); break;
	case IR_INT_AND: {
		/* A 1 in the result is a 1 in both; a 0 where one side has
		 * a 1 is a 0 in the other; and x >= x & y. */
		vr_fact fx = urange(w, res->umin, m), fy = fx;
		fx.ones = fy.ones = res->ones;
		fx.zeros = res->zeros & r->f[y].ones;
		fy.zeros = res->zeros & r->f[x].ones;
		refine(r, x, fx, depth);
		refine(r, y, fy, depth);
		break;
	}
	case IR_INT_OR: {
		vr_fact fx = urange(w, 0, res->umax), fy = fx;
		fx.zeros = fy.zeros = res->zeros;
		fx.ones = res->ones & r->f[y].zeros;
		fy.ones = res->ones & r->f[x].zeros;
		refine(r, x, fx, depth);
		refine(r, y, fy, depth);
		break;
	}
	case IR_INT_FORCE_GE_ZERO:
		/* x <= max(0, x); a positive result is x itself. */
		if (res->smin >= 1)
			refine(r, x, *res, depth);
		else
			refine(r, x, srange(w, smin_w(w), res->smax), depth);
		break;
	case IR_INT_IS_ZERO:
	case IR_INT_IS_TRUE:
		if (is_const(res)) {
			bool zero =
			    (res->umin != 0) == (op->opc == IR_INT_IS_ZERO);
			refine(r, x,
			       zero ? fconst(w, 0) : exclude(w, r->f[x], 0),
			       depth);
		}
		break;
	default:
		if (ir_op_has((ir_opcode)op->opc, IRF_CMP) && is_const(res) &&
		    is_int(t, x) && is_int(t, y)) {
			refresh(r, x);
			refresh(r, y);
			assume_cmp(r, (ir_opcode)op->opc, x, y, res->umin != 0,
				   depth);
		}
		break;
	}
}

/* V is known to lie in F. */
static void refine(vr_state *r, ir_vid v, vr_fact f, int depth)
{
	if (r->infeasible || !is_int(r->t, v))
		return;
	vr_fact nf;
	if (!meet(r->w, &r->f[v], &f, &nf)) {
		r->infeasible = true;
		return;
	}
	if (memcmp(&nf, &r->f[v], sizeof nf) == 0)
		return;
	r->f[v] = nf;
	uint32_t i = ir_defop(r->t, v);
	if (depth > 0 && i != UINT32_MAX)
		backward(r, i, &nf, depth - 1);
}

/* guard_no_overflow passed after op I: its result is the exact one. */
static void assume_no_overflow(vr_state *r, uint32_t i)
{
	const ir_op *op = &r->t->ops[i];
	int w = r->w, d;
	ir_vid x = op->args[0], y = op->args[1];
	int64_t lo = smin_w(w), hi = smax_w(w);
	switch (op->opc) {
	case IR_INT_ADD_OVF:
		/* lo <= x + y <= hi for some y in [ymin, ymax]. */
		refine(r, x,
		       srange(w, exact(w, IR_INT_SUB_OVF, lo, r->f[y].smax, &d),
			      exact(w, IR_INT_SUB_OVF, hi, r->f[y].smin, &d)),
		       REFINE_DEPTH);
		refine(r, y,
		       srange(w, exact(w, IR_INT_SUB_OVF, lo, r->f[x].smax, &d),
			      exact(w, IR_INT_SUB_OVF, hi, r->f[x].smin, &d)),
		       REFINE_DEPTH);
		refine(r, op->result,
		       srange(w,
			      exact(w, IR_INT_ADD_OVF, r->f[x].smin,
				    r->f[y].smin, &d),
			      exact(w, IR_INT_ADD_OVF, r->f[x].smax,
				    r->f[y].smax, &d)),
		       REFINE_DEPTH);
		break;
	case IR_INT_SUB_OVF:
		/* lo <= x - y <= hi. */
		refine(r, x,
		       srange(w, exact(w, IR_INT_ADD_OVF, lo, r->f[y].smin, &d),
			      exact(w, IR_INT_ADD_OVF, hi, r->f[y].smax, &d)),
		       REFINE_DEPTH);
		refine(r, y,
		       srange(w, exact(w, IR_INT_SUB_OVF, r->f[x].smin, hi, &d),
			      exact(w, IR_INT_SUB_OVF, r->f[x].smax, lo, &d)),
		       REFINE_DEPTH);
		refine(r, op->result,
		       srange(w,
			      exact(w, IR_INT_SUB_OVF, r->f[x].smin,
				    r->f[y].smax, &d),
			      exact(w, IR_INT_SUB_OVF, r->f[x].smax,
				    r->f[y].smin, &d)),
		       REFINE_DEPTH);
		break;
	case IR_INT_MUL_OVF: {
		/* With the other factor >= a >= 1: lo/a <= x <= hi/a. */
		for (int s = 0; s < 2; s++) {
			ir_vid a = s ? x : y, b = s ? y : x;
			int64_t amin = r->f[a].smin;
			int64_t amax = r->f[a].smax;
			if (amin >= 1) {
				int64_t blo = lo / amin, bhi = hi / amin;
				refine(r, b, srange(w, blo, bhi), REFINE_DEPTH);
			} else if (amax <= -2) {
				/* The other factor <= a <= -2: hi/a <= x <=
				 * lo/a (truncation rounds toward 0, inward). */
				int64_t blo = hi / amax, bhi = lo / amax;
				refine(r, b, srange(w, blo, bhi), REFINE_DEPTH);
			}
		}
		int64_t xs[2] = {r->f[x].smin, r->f[x].smax};
		int64_t ys[2] = {r->f[y].smin, r->f[y].smax};
		int64_t plo = 0, phi = 0;
		for (int k = 0; k < 4; k++) {
			int64_t p =
			    exact(w, IR_INT_MUL_OVF, xs[k / 2], ys[k % 2], &d);
			plo = k == 0 ? p : smin64(plo, p);
			phi = k == 0 ? p : smax64(phi, p);
		}
		refine(r, op->result, srange(w, plo, phi), REFINE_DEPTH);
		break;
	}
	default: break;
	}
}

/* Guard op I is assumed to pass. */
static void assume_guard(vr_state *r, uint32_t i)
{
	const ir_trace *t = r->t;
	const ir_op *op = &t->ops[i];
	int w = r->w;
	switch (op->opc) {
	case IR_GUARD_TRUE:
		refine(r, op->args[0], exclude(w, r->f[op->args[0]], 0),
		       REFINE_DEPTH);
		break;
	case IR_GUARD_FALSE:
		refine(r, op->args[0], fconst(w, 0), REFINE_DEPTH);
		break;
	case IR_GUARD_VALUE:
		if (is_int(t, op->args[0]) && is_int(t, op->args[1]))
			assume_eq(r, op->args[0], op->args[1], REFINE_DEPTH);
		break;
	case IR_GUARD_NO_OVERFLOW:
		if (i > 0 && ir_op_has((ir_opcode)t->ops[i - 1].opc, IRF_OVF))
			assume_no_overflow(r, i - 1);
		break;
	default: break;
	}
}

void vr_advance(vr_state *r, uint32_t upto)
{
	const ir_trace *t = r->t;
	if (upto > t->nops)
		upto = t->nops;
	if (upto < r->point)
		vr_reset(r);
	for (uint32_t i = r->point; i < upto; i++) {
		const ir_op *op = &t->ops[i];
		if (has_transfer(t, i)) {
			vr_fact f = eval_now(r, op->result, ADVANCE_DEPTH);
			r->f[op->result] = f;
		} else if (op->result != IR_NOVAL) {
			r->f[op->result] = top(r->w);
		}
		if (ir_op_has((ir_opcode)op->opc, IRF_GUARD))
			assume_guard(r, i);
	}
	r->point = upto;
}

/* ---- queries -------------------------------------------------------- */

void vr_narrow(vr_state *r)
{
	const ir_trace *t = r->t;
	if (r->infeasible)
		return;
	for (uint32_t i = 0; i < r->point; i++) {
		if (!has_transfer(t, i))
			continue;
		const ir_op *op = &t->ops[i];
		vr_fact a[2] = {top(r->w), top(r->w)}, both;
		for (uint32_t k = 0; k < op->nargs; k++)
			a[k] = r->f[op->args[k]];
		vr_fact g = vrt_transfer_op(r->w, op, a);
		ir_vid c = cancelled(t, op);
		if (c != IR_NOVAL && meet(r->w, &g, &r->f[c], &both))
			g = both;
		if (meet(r->w, &r->f[op->result], &g, &both))
			r->f[op->result] = both;
	}
}

vr_fact vr_get(const vr_state *r, ir_vid v)
{
	if (!is_int(r->t, v))
		return top(r->w);
	return eval_now(r, v, QUERY_DEPTH);
}

bool vr_const(const vr_state *r, ir_vid v, uint64_t *c)
{
	if (!is_int(r->t, v))
		return false;
	vr_fact f = vr_get(r, v);
	if (!is_const(&f))
		return false;
	*c = f.umin;
	return true;
}

/* Whether every bit that may be 1 in A is known 1 in B. */
static bool bits_within(int w, const vr_fact *a, const vr_fact *b)
{
	return (sem_allones(w) & ~a->zeros & ~b->ones) == 0;
}

int vr_same_arg(const vr_state *r, uint32_t i)
{
	const ir_trace *t = r->t;
	if (r->infeasible || i >= r->point || !has_transfer(t, i))
		return -1;
	const ir_op *op = &t->ops[i];
	int w = r->w;
	const vr_fact *x = &r->f[op->args[0]];
	const vr_fact *y = op->nargs > 1 ? &r->f[op->args[1]] : NULL;
	switch (op->opc) {
	case IR_INT_AND:
		return bits_within(w, x, y) ? 0 : bits_within(w, y, x) ? 1 : -1;
	case IR_INT_OR:
		return bits_within(w, y, x) ? 0 : bits_within(w, x, y) ? 1 : -1;
	case IR_INT_MUL: {
		vr_fact cx = vrt_mul_factor(w, y, x),
			cy = vrt_mul_factor(w, x, y);
		return is_const(&cy) && cy.umin == 1   ? 0
		       : is_const(&cx) && cx.umin == 1 ? 1
						       : -1;
	}
	case IR_INT_FORCE_GE_ZERO: return x->smin >= 0 ? 0 : -1;
	case IR_INT_IS_TRUE: return x->umax <= 1 ? 0 : -1;
	case IR_INT_PY_MOD:
		return x->smin >= 0 && y->smin >= 1 && x->smax < y->smin ? 0
									 : -1;
	case IR_INT_SIGNEXT: {
		if (!is_const(y) || y->umin == 0)
			return -1;
		if (y->umin >= (uint64_t)w / 8)
			return 0;
		int64_t lim = INT64_C(1) << (y->umin * 8 - 1);
		return x->smin >= -lim && x->smax < lim ? 0 : -1;
	}
	default: return -1;
	}
}

bool vr_known(const vr_state *r, ir_vid v, uint64_t *c)
{
	if (!is_int(r->t, v) || !is_const(&r->f[v]))
		return false;
	*c = r->f[v].umin;
	return true;
}

/* Whether x * y overflows for every x, y of the facts: when neither
 * interval contains 0 the product keeps one sign and its size only grows
 * away from the corner nearest 0, so that corner decides. */
static bool mul_must_overflow(int w, const vr_fact *x, const vr_fact *y)
{
	if ((x->smin <= 0 && x->smax >= 0) || (y->smin <= 0 && y->smax >= 0))
		return false;
	int64_t xa = x->smin > 0 ? x->smin : x->smax;
	int64_t ya = y->smin > 0 ? y->smin : y->smax;
	int d;
	exact(w, IR_INT_MUL_OVF, xa, ya, &d);
	return d != 0;
}

/* Whether the overflow-checked op I overflows never (WANT false) or
 * always (WANT true), judged from its operands' facts. */
static bool ovf_decided(const vr_state *r, uint32_t i, bool want)
{
	const ir_op *op = &r->t->ops[i];
	int w = r->w, dlo, dhi;
	vr_fact x = vr_get(r, op->args[0]), y = vr_get(r, op->args[1]);
	if (op->opc == IR_INT_SUB_OVF && op->args[0] == op->args[1])
		return !want; /* x - x = 0 never overflows */
	switch (op->opc) {
	case IR_INT_ADD_OVF:
		exact(w, IR_INT_ADD_OVF, x.smin, y.smin, &dlo);
		exact(w, IR_INT_ADD_OVF, x.smax, y.smax, &dhi);
		return want ? dlo > 0 || dhi < 0 : dlo == 0 && dhi == 0;
	case IR_INT_SUB_OVF:
		exact(w, IR_INT_SUB_OVF, x.smin, y.smax, &dlo);
		exact(w, IR_INT_SUB_OVF, x.smax, y.smin, &dhi);
		return want ? dlo > 0 || dhi < 0 : dlo == 0 && dhi == 0;
	case IR_INT_MUL_OVF: {
		if (want)
			return mul_must_overflow(w, &x, &y);
		int64_t xs[2] = {x.smin, x.smax}, ys[2] = {y.smin, y.smax};
		for (int k = 0; k < 4; k++) {
			int d;
			exact(w, IR_INT_MUL_OVF, xs[k / 2], ys[k % 2], &d);
			if (d)
				return false;
		}
		return true;
	}
	default: return false;
	}
}

bool vr_guard_passes(const vr_state *r, uint32_t k)
{
	const ir_trace *t = r->t;
	if (k >= t->nops || !ir_op_has((ir_opcode)t->ops[k].opc, IRF_GUARD))
		return false;
	if (r->infeasible)
		return true;
	const ir_op *op = &t->ops[k];
	switch (op->opc) {
	case IR_GUARD_TRUE: {
		vr_fact c = vr_get(r, op->args[0]);
		return c.umin >= 1;
	}
	case IR_GUARD_FALSE: {
		vr_fact c = vr_get(r, op->args[0]);
		return c.umax == 0;
	}
	case IR_GUARD_VALUE: {
		uint64_t a, b;
		if (op->args[0] == op->args[1])
			return true;
		return vr_const(r, op->args[0], &a) &&
		       vr_const(r, op->args[1], &b) && a == b;
	}
	case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW:
		return k > 0 &&
		       ir_op_has((ir_opcode)t->ops[k - 1].opc, IRF_OVF) &&
		       ovf_decided(r, k - 1, op->opc == IR_GUARD_OVERFLOW);
	default: return false;
	}
}
