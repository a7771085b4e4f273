#include "bounds.h"

#include <stdio.h>

#include "ir/sem.h"
#include "passes/opt.h"

/*
 * Conventions of this file: every W-bit pattern is canonical (bits above W
 * clear); every signed number is the sign-extended int64_t of its pattern.
 * Signed arithmetic that could overflow int64_t is never done directly: the
 * exact-result helpers below ask sem_eval for the wrapped value and the
 * overflow flag of the corresponding *_ovf op, so there is one definition
 * of overflow in the project.
 */

static bool bug(uint64_t bugs, opt_bug b)
{
	return (bugs >> b) & 1;
}

static int64_t smin(int w)
{
	return sem_signed(w, sem_minint(w));
}

static int64_t smax(int w)
{
	return (int64_t)sem_maxint(w);
}

static uint64_t canon(int w, int64_t x)
{
	return sem_from_signed(w, x);
}

/* The low N bits set (N may be 0..64). */
static uint64_t lowmask(int n)
{
	return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

static int hibit(uint64_t x)
{
	int n = 63;
	while (!((x >> n) & 1))
		n--;
	return n;
}

static int lobit(uint64_t x)
{
	int n = 0;
	while (!((x >> n) & 1))
		n++;
	return n;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* ------------------------------------------------------------------ */
/* Exact arithmetic on signed W-bit numbers.                           */

/* Classifies the exact result of OVFOPC (int_add_ovf, int_sub_ovf or
 * int_mul_ovf) on A and B: 0 when it fits in W bits, +1 when it is above
 * MAXINT, -1 when below MININT.  *WRAPPED gets the W-bit result. */
static int exact_class(ir_opcode ovfopc, int w, int64_t a, int64_t b,
		       int64_t *wrapped)
{
	uint64_t args[2] = {canon(w, a), canon(w, b)};
	bool ovf = false;
	uint64_t r = sem_eval(ovfopc, w, args, &ovf);
	if (wrapped)
		*wrapped = sem_signed(w, r);
	if (!ovf)
		return 0;
	switch (ovfopc) {
	case IR_INT_ADD_OVF: return a >= 0 ? 1 : -1; /* same signs */
	case IR_INT_SUB_OVF: return a >= 0 ? 1 : -1; /* different signs */
	default: return (a < 0) == (b < 0) ? 1 : -1;
	}
}

/* The exact result clamped to the W-bit range. */
static int64_t sat(ir_opcode ovfopc, int w, int64_t a, int64_t b)
{
	int64_t r;
	int c = exact_class(ovfopc, w, a, b, &r);
	return c > 0 ? smax(w) : c < 0 ? smin(w) : r;
}

/* ------------------------------------------------------------------ */
/* Known bits (tnums).                                                 */

typedef struct tnum {
	uint64_t v, m;
} tnum;

static tnum tn_of(const bnd *b)
{
	tnum t = {b->val, b->mask};
	return t;
}

static tnum tn_const(uint64_t c)
{
	tnum t = {c, 0};
	return t;
}

static tnum tn_norm(int w, uint64_t v, uint64_t m)
{
	uint64_t M = sem_allones(w);
	tnum t = {v & ~m & M, m & M};
	return t;
}

/* The eBPF verifier's tnum arithmetic (kernel/bpf/tnum.c), computed
 * modulo 2^64 and then truncated, which equals computing modulo 2^W. */
static tnum tn_add(int w, tnum a, tnum b)
{
	uint64_t sm = a.m + b.m, sv = a.v + b.v;
	uint64_t sigma = sm + sv, chi = sigma ^ sv;
	uint64_t mu = chi | a.m | b.m;
	return tn_norm(w, sv, mu);
}

static tnum tn_sub(int w, tnum a, tnum b)
{
	uint64_t dv = a.v - b.v;
	uint64_t alpha = dv + a.m, beta = dv - b.m;
	uint64_t chi = alpha ^ beta, mu = chi | a.m | b.m;
	return tn_norm(w, dv, mu);
}

static tnum tn_and(int w, tnum a, tnum b)
{
	uint64_t alpha = a.v | a.m, beta = b.v | b.m;
	uint64_t v = a.v & b.v;
	return tn_norm(w, v, alpha & beta & ~v);
}

static tnum tn_or(int w, tnum a, tnum b)
{
	uint64_t v = a.v | b.v;
	return tn_norm(w, v, (a.m | b.m) & ~v);
}

static tnum tn_xor(int w, tnum a, tnum b)
{
	uint64_t mu = a.m | b.m;
	return tn_norm(w, a.v ^ b.v, mu);
}

static tnum tn_lshift(int w, tnum a, int k)
{
	return tn_norm(w, a.v << k, a.m << k);
}

static tnum tn_urshift(int w, tnum a, int k)
{
	return tn_norm(w, a.v >> k, a.m >> k);
}

static tnum tn_arshift(int w, tnum a, int k)
{
	uint64_t kk = (uint64_t)k;
	uint64_t v = sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){a.v, kk}, NULL);
	uint64_t m = sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){a.m, kk}, NULL);
	return tn_norm(w, v, m);
}

/* Multiplication as in the eBPF verifier (proved sound by Vishwanathan et
 * al., "Sound, Precise, and Fast Abstract Interpretation with Tristate
 * Numbers", CGO 2022). */
static tnum tn_mul(int w, tnum a, tnum b)
{
	uint64_t accv = a.v * b.v;
	tnum accm = {0, 0};
	for (int i = 0; i < w && (a.v || a.m); i++) {
		if (a.v & 1) {
			tnum t = {0, b.m};
			accm = tn_add(w, accm, t);
		} else if (a.m & 1) {
			tnum t = {0, b.v | b.m};
			accm = tn_add(w, accm, t);
		}
		a = tn_urshift(w, a, 1);
		b = tn_lshift(w, b, 1);
	}
	return tn_add(w, tn_norm(w, accv, 0), accm);
}

static tnum tn_join(int w, tnum a, tnum b)
{
	uint64_t m = a.m | b.m | (a.v ^ b.v);
	return tn_norm(w, a.v, m);
}

/* Intersection; false when the two disagree on a bit both know. */
static bool tn_meet(tnum *a, tnum b)
{
	if ((a->v ^ b.v) & ~a->m & ~b.m)
		return false;
	a->v |= b.v;
	a->m &= b.m;
	return true;
}

/* Smallest member >= L of tnum (val, mask), unsigned.  Walk down to the
 * highest bit where L disagrees with a known bit.  If the tnum has a 1
 * there, L's prefix followed by that 1 and the smallest completion is the
 * answer.  If it has a 0, the prefix must grow: set the lowest unknown bit
 * above it that L has clear, and complete minimally below it. */
static bool tn_umin_ge(int w, uint64_t val, uint64_t mask, uint64_t L,
		       uint64_t *out)
{
	uint64_t M = sem_allones(w);
	uint64_t diff = (L ^ val) & ~mask & M;
	if (!diff) {
		*out = L;
		return true;
	}
	int p = hibit(diff);
	uint64_t above = ~lowmask(p + 1) & M;
	if ((val >> p) & 1) {
		*out = (L & above) | (UINT64_C(1) << p) | (val & lowmask(p));
		return true;
	}
	uint64_t cand = mask & ~L & above;
	if (!cand)
		return false;
	int q = lobit(cand);
	*out =
	    (L & ~lowmask(q + 1) & M) | (UINT64_C(1) << q) | (val & lowmask(q));
	return true;
}

/* Largest member <= H, the mirror image of tn_umin_ge. */
static bool tn_umax_le(int w, uint64_t val, uint64_t mask, uint64_t H,
		       uint64_t *out)
{
	uint64_t M = sem_allones(w);
	uint64_t diff = (H ^ val) & ~mask & M;
	if (!diff) {
		*out = H;
		return true;
	}
	int p = hibit(diff);
	uint64_t above = ~lowmask(p + 1) & M;
	if (!((val >> p) & 1)) {
		*out = (H & above) | ((val | mask) & lowmask(p));
		return true;
	}
	uint64_t cand = mask & H & above;
	if (!cand)
		return false;
	int q = lobit(cand);
	*out = (H & ~lowmask(q + 1) & M) | ((val | mask) & lowmask(q));
	return true;
}

/* Signed versions: flipping the sign bit maps signed order onto unsigned
 * order, and maps the tnum onto the tnum with its sign bit flipped. */
static bool tn_smin_ge(int w, tnum t, int64_t lo, int64_t *out)
{
	uint64_t S = sem_minint(w), r;
	if (!tn_umin_ge(w, t.v ^ (S & ~t.m), t.m, canon(w, lo) ^ S, &r))
		return false;
	*out = sem_signed(w, r ^ S);
	return true;
}

static bool tn_smax_le(int w, tnum t, int64_t hi, int64_t *out)
{
	uint64_t S = sem_minint(w), r;
	if (!tn_umax_le(w, t.v ^ (S & ~t.m), t.m, canon(w, hi) ^ S, &r))
		return false;
	*out = sem_signed(w, r ^ S);
	return true;
}

/* The bits every member of [lo, hi] shares: when lo and hi have the same
 * sign, the signed interval is an unsigned interval too, and all its
 * members agree with lo above the highest bit where lo and hi differ. */
static tnum range_prefix(int w, int64_t lo, int64_t hi)
{
	if ((lo < 0) != (hi < 0))
		return tn_norm(w, 0, ~UINT64_C(0));
	uint64_t ulo = canon(w, lo), uhi = canon(w, hi);
	uint64_t d = ulo ^ uhi;
	uint64_t pm = d ? lowmask(hibit(d) + 1) : 0;
	return tn_norm(w, ulo, pm);
}

/* ------------------------------------------------------------------ */
/* Constructors, reduction, predicates.                                */

bnd bnd_empty(int w)
{
	bnd b = {1, 0, 0, 0, (uint8_t)w, true};
	return b;
}

static bnd raw(int w, int64_t lo, int64_t hi, tnum t)
{
	bnd b;
	b.w = (uint8_t)w;
	b.lo = lo;
	b.hi = hi;
	b.val = t.v;
	b.mask = t.m;
	b.empty = false;
	return b;
}

bnd bnd_reduce(bnd b)
{
	int w = b.w;
	if (b.empty || b.lo > b.hi)
		return bnd_empty(w);
	b.lo = max64(b.lo, smin(w));
	b.hi = min64(b.hi, smax(w));
	tnum t = tn_norm(w, b.val, b.mask);
	/* Each round only shrinks the set, and after one round of
	 * prefix-then-tighten a second changes nothing (lo and hi are members
	 * of the tnum and share the prefix it learned); the bound on rounds is
	 * a safety net. */
	for (int round = 0; round < 8; round++) {
		tnum before = t;
		int64_t lo = b.lo, hi = b.hi;
		if (!tn_meet(&t, range_prefix(w, b.lo, b.hi)))
			return bnd_empty(w);
		if (!tn_smin_ge(w, t, b.lo, &b.lo) ||
		    !tn_smax_le(w, t, b.hi, &b.hi) || b.lo > b.hi)
			return bnd_empty(w);
		if (t.v == before.v && t.m == before.m && lo == b.lo &&
		    hi == b.hi)
			break;
	}
	b.val = t.v;
	b.mask = t.m;
	return b;
}

bnd bnd_make(int w, int64_t lo, int64_t hi, uint64_t val, uint64_t mask)
{
	return bnd_reduce(raw(w, lo, hi, tn_norm(w, val, mask)));
}

bnd bnd_top(int w)
{
	return raw(w, smin(w), smax(w), tn_norm(w, 0, ~UINT64_C(0)));
}

bnd bnd_const(int w, uint64_t c)
{
	c = sem_mask(w, c);
	return raw(w, sem_signed(w, c), sem_signed(w, c), tn_const(c));
}

bnd bnd_range(int w, int64_t lo, int64_t hi)
{
	return bnd_make(w, lo, hi, 0, ~UINT64_C(0));
}

bnd bnd_tnum(int w, uint64_t val, uint64_t mask)
{
	return bnd_make(w, smin(w), smax(w), val, mask);
}

static bnd with_tnum(int w, int64_t lo, int64_t hi, tnum t)
{
	return bnd_reduce(raw(w, lo, hi, t));
}

bool bnd_contains(const bnd *b, uint64_t x)
{
	if (b->empty)
		return false;
	x = sem_mask(b->w, x);
	int64_t s = sem_signed(b->w, x);
	return b->lo <= s && s <= b->hi && (x & ~b->mask) == b->val;
}

bool bnd_is_const(const bnd *b)
{
	return !b->empty && b->mask == 0;
}

uint64_t bnd_const_val(const bnd *b)
{
	/* On a reduced value a known tnum implies lo == hi == val. */
	return canon(b->w, b->lo);
}

bool bnd_is_top(const bnd *b)
{
	return !b->empty && b->lo == smin(b->w) && b->hi == smax(b->w) &&
	       b->mask == sem_allones(b->w);
}

bool bnd_equal(const bnd *a, const bnd *b)
{
	if (a->empty || b->empty)
		return a->empty == b->empty;
	return a->lo == b->lo && a->hi == b->hi && a->val == b->val &&
	       a->mask == b->mask;
}

bool bnd_is_nonzero(const bnd *b)
{
	return !bnd_contains(b, 0);
}

bool bnd_is_reduced(const bnd *b)
{
	if (b->empty)
		return true;
	int w = b->w;
	uint64_t M = sem_allones(w);
	if ((b->val & b->mask) || (b->val & ~M) || (b->mask & ~M))
		return false;
	if (b->lo > b->hi || b->lo < smin(w) || b->hi > smax(w))
		return false;
	if (!bnd_contains(b, canon(w, b->lo)) ||
	    !bnd_contains(b, canon(w, b->hi)))
		return false;
	if ((b->mask == 0) != (b->lo == b->hi))
		return false;
	tnum t = tn_of(b), p = range_prefix(w, b->lo, b->hi);
	tnum m = t;
	return tn_meet(&m, p) && m.v == t.v && m.m == t.m;
}

void bnd_ubounds(const bnd *b, uint64_t *umin, uint64_t *umax)
{
	int w = b->w;
	uint64_t lo = 0, hi = sem_allones(w);
	if (b->lo >= 0 || b->hi < 0) {
		lo = canon(w, b->lo);
		hi = canon(w, b->hi);
	}
	uint64_t tlo = b->val, thi = b->val | b->mask;
	*umin = lo > tlo ? lo : tlo;
	*umax = hi < thi ? hi : thi;
}

bnd bnd_meet(bnd a, bnd b)
{
	if (a.empty || b.empty)
		return bnd_empty(a.w);
	tnum t = tn_of(&a);
	if (!tn_meet(&t, tn_of(&b)))
		return bnd_empty(a.w);
	return with_tnum(a.w, max64(a.lo, b.lo), min64(a.hi, b.hi), t);
}

bnd bnd_join(bnd a, bnd b)
{
	if (a.empty)
		return b;
	if (b.empty)
		return a;
	return with_tnum(a.w, min64(a.lo, b.lo), max64(a.hi, b.hi),
			 tn_join(a.w, tn_of(&a), tn_of(&b)));
}

static bnd top_with_tnum(int w, tnum t)
{
	return with_tnum(w, smin(w), smax(w), t);
}

/* ------------------------------------------------------------------ */
/* Forward transfer functions.                                         */

/* Range of a sum or difference from the exact results at both ends: when
 * both ends fit, or both overflow in the same direction, every result in
 * between does the same and the wrapped results form an interval. */
static void range_from_ends(int w, int cl, int64_t l, int ch, int64_t h,
			    int64_t *lo, int64_t *hi)
{
	if (cl == ch) {
		*lo = l;
		*hi = h;
	} else {
		*lo = smin(w);
		*hi = smax(w);
	}
}

static bnd bnf_add(const bnd *a, const bnd *b)
{
	int w = a->w;
	int64_t l, h, lo, hi;
	int cl = exact_class(IR_INT_ADD_OVF, w, a->lo, b->lo, &l);
	int ch = exact_class(IR_INT_ADD_OVF, w, a->hi, b->hi, &h);
	range_from_ends(w, cl, l, ch, h, &lo, &hi);
	return with_tnum(w, lo, hi, tn_add(w, tn_of(a), tn_of(b)));
}

static bnd bnf_sub(const bnd *a, const bnd *b)
{
	int w = a->w;
	int64_t l, h, lo, hi;
	int cl = exact_class(IR_INT_SUB_OVF, w, a->lo, b->hi, &l);
	int ch = exact_class(IR_INT_SUB_OVF, w, a->hi, b->lo, &h);
	range_from_ends(w, cl, l, ch, h, &lo, &hi);
	return with_tnum(w, lo, hi, tn_sub(w, tn_of(a), tn_of(b)));
}

/* The products of the four corners; false when one overflows. */
static bool bnf_mul_corners(const bnd *a, const bnd *b, int64_t *lo,
			    int64_t *hi)
{
	int w = a->w;
	int64_t xs[2] = {a->lo, a->hi}, ys[2] = {b->lo, b->hi};
	bool first = true;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++) {
			int64_t p;
			if (exact_class(IR_INT_MUL_OVF, w, xs[i], ys[j], &p))
				return false;
			*lo = first ? p : min64(*lo, p);
			*hi = first ? p : max64(*hi, p);
			first = false;
		}
	return true;
}

static bnd f_mul(const bnd *a, const bnd *b)
{
	int w = a->w;
	int64_t lo = smin(w), hi = smax(w);
	if (!bnf_mul_corners(a, b, &lo, &hi)) {
		lo = smin(w);
		hi = smax(w);
	}
	return with_tnum(w, lo, hi, tn_mul(w, tn_of(a), tn_of(b)));
}

static bnd f_and(const bnd *a, const bnd *b, uint64_t bugs)
{
	int w = a->w;
	int64_t lo = smin(w), hi = smax(w);
	/* A non-negative operand bounds the result: x & y is in [0, y]. */
	if (a->lo >= 0) {
		lo = 0;
		hi = min64(hi, a->hi);
	}
	if (b->lo >= 0) {
		lo = 0;
		hi = min64(hi, b->hi);
	}
	/* Two negative operands give a negative result below both. */
	if (a->hi < 0 && b->hi < 0)
		hi = min64(a->hi, b->hi);
	tnum t = tn_and(w, tn_of(a), tn_of(b));
	if (bug(bugs, OPT_BUG_AND_NO_SHRINK))
		return raw(w, lo, hi, t); /* BUG: not reduced */
	return with_tnum(w, lo, hi, t);
}

static bnd f_or(const bnd *a, const bnd *b)
{
	int w = a->w;
	int64_t lo = smin(w), hi = smax(w);
	/* Or only sets bits: the result is at least each non-negative
	 * operand when both are non-negative, and a negative operand stays
	 * negative (and the result is at least it). */
	if (a->lo >= 0 && b->lo >= 0)
		lo = max64(a->lo, b->lo);
	if (a->hi < 0) {
		lo = max64(lo, a->lo);
		hi = -1;
	}
	if (b->hi < 0) {
		lo = max64(lo, b->lo);
		hi = -1;
	}
	return with_tnum(w, lo, hi, tn_or(w, tn_of(a), tn_of(b)));
}

static bnd bnf_xor(const bnd *a, const bnd *b)
{
	return top_with_tnum(a->w, tn_xor(a->w, tn_of(a), tn_of(b)));
}

static bnd bnf_neg(const bnd *a, uint64_t bugs)
{
	int w = a->w;
	tnum t = tn_sub(w, tn_const(0), tn_of(a));
	if (a->lo > smin(w))
		return with_tnum(w, -a->hi, -a->lo, t);
	if (bug(bugs, OPT_BUG_NEG_MININT)) /* BUG: as if -MININT == MAXINT */
		return with_tnum(w, a->hi == smin(w) ? smax(w) : -a->hi,
				 smax(w), t);
	/* -MININT == MININT: the result set contains MININT and -hi..MAXINT,
	 * whose hull is everything unless a is exactly {MININT}. */
	if (a->hi == smin(w))
		return bnd_const(w, sem_minint(w));
	return top_with_tnum(w, t);
}

static bnd bnf_invert(const bnd *a)
{
	int w = a->w;
	uint64_t M = sem_allones(w);
	tnum t = tn_norm(w, ~a->val & ~a->mask & M, a->mask);
	return with_tnum(w, ~a->hi, ~a->lo, t); /* ~x == -x - 1, no overflow */
}

/* x << k, x >> k or x >>> k for one count K (canonical, maybe >= W). */
static bnd bnf_shift_by(ir_opcode opc, const bnd *a, uint64_t k)
{
	int w = a->w;
	if (k == 0)
		return *a;
	if (k >= (uint64_t)w) {
		if (opc != IR_INT_RSHIFT)
			return bnd_const(w, 0);
		bnd r = bnd_empty(w);
		if (a->hi >= 0)
			r = bnd_join(r, bnd_const(w, 0));
		if (a->lo < 0)
			r = bnd_join(r, bnd_const(w, sem_allones(w)));
		return r;
	}
	int kk = (int)k;
	uint64_t ulo = canon(w, a->lo), uhi = canon(w, a->hi);
	int64_t lo = smin(w), hi = smax(w);
	tnum t;
	if (opc == IR_INT_LSHIFT) {
		/* Monotone when neither end loses bits (multiplying by 2^k). */
		uint64_t sl = sem_eval(opc, w, (uint64_t[]){ulo, k}, NULL);
		uint64_t sh = sem_eval(opc, w, (uint64_t[]){uhi, k}, NULL);
		if (sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){sl, k}, NULL) ==
			ulo &&
		    sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){sh, k}, NULL) ==
			uhi) {
			lo = sem_signed(w, sl);
			hi = sem_signed(w, sh);
		}
		t = tn_lshift(w, tn_of(a), kk);
	} else if (opc == IR_INT_RSHIFT) {
		lo =
		    sem_signed(w, sem_eval(opc, w, (uint64_t[]){ulo, k}, NULL));
		hi =
		    sem_signed(w, sem_eval(opc, w, (uint64_t[]){uhi, k}, NULL));
		t = tn_arshift(w, tn_of(a), kk);
	} else {
		if (a->lo >= 0 || a->hi < 0) {
			lo = (int64_t)(ulo >> k);
			hi = (int64_t)(uhi >> k);
		} else {
			lo = 0;
			hi = (int64_t)(sem_allones(w) >> k);
		}
		t = tn_urshift(w, tn_of(a), kk);
	}
	return with_tnum(w, lo, hi, t);
}

/* Shift counts are unsigned W-bit numbers (sem.c); try every count below W
 * that B allows, and one count >= W when B allows any. */
static bnd f_shift(ir_opcode opc, const bnd *a, const bnd *b)
{
	int w = a->w;
	if (bnd_is_const(b))
		return bnf_shift_by(opc, a, bnd_const_val(b));
	bnd r = bnd_empty(w);
	for (int k = 0; k < w; k++)
		if (bnd_contains(b, (uint64_t)k))
			r = bnd_join(r, bnf_shift_by(opc, a, (uint64_t)k));
	uint64_t umin, umax;
	bnd_ubounds(b, &umin, &umax);
	if (umax >= (uint64_t)w)
		r = bnd_join(r, bnf_shift_by(opc, a, (uint64_t)w));
	return r;
}

static bnd signext_by(const bnd *a, uint64_t n)
{
	int w = a->w;
	if (n == 0)
		return bnd_const(w, 0);
	if (n >= (uint64_t)(w / 8))
		return *a;
	int bits = (int)n * 8;
	int64_t lo = -(INT64_C(1) << (bits - 1)), hi = -lo - 1;
	if (a->lo >= lo && a->hi <= hi)
		return *a;
	uint64_t M = sem_allones(w), low = lowmask(bits);
	uint64_t v = a->val & low, m = a->mask & low;
	uint64_t sign = UINT64_C(1) << (bits - 1);
	if (a->mask & sign)
		m |= M & ~low;
	else if (a->val & sign)
		v |= M & ~low;
	return with_tnum(w, lo, hi, tn_norm(w, v, m));
}

static bnd f_signext(const bnd *a, const bnd *b)
{
	int w = a->w;
	if (bnd_is_const(b))
		return signext_by(a, bnd_const_val(b));
	bnd r = bnd_empty(w);
	for (int n = 0; n < w / 8; n++)
		if (bnd_contains(b, (uint64_t)n))
			r = bnd_join(r, signext_by(a, (uint64_t)n));
	uint64_t umin, umax;
	bnd_ubounds(b, &umin, &umax);
	if (umax >= (uint64_t)(w / 8))
		r = bnd_join(r, *a);
	return r;
}

/* A set of W-bit patterns given as an unsigned interval, as a value. */
static bnd from_urange(int w, uint64_t ulo, uint64_t uhi)
{
	uint64_t S = sem_minint(w);
	if (uhi < S || ulo >= S)
		return bnd_range(w, sem_signed(w, ulo), sem_signed(w, uhi));
	return bnd_top(w);
}

static bnd f_umulh(const bnd *a, const bnd *b)
{
	int w = a->w;
	uint64_t alo, ahi, blo, bhi;
	bnd_ubounds(a, &alo, &ahi);
	bnd_ubounds(b, &blo, &bhi);
	return from_urange(w, sem_umulh(w, alo, blo), sem_umulh(w, ahi, bhi));
}

static bnd f_force_ge_zero(const bnd *a, uint64_t bugs)
{
	int w = a->w;
	if (bug(bugs, OPT_BUG_FORCE_GE_ZERO) && (a->val & 1))
		return bnd_meet(*a, bnd_range(w, 1, smax(w))); /* BUG */
	if (a->lo >= 0)
		return *a;
	if (a->hi < 0)
		return bnd_const(w, 0);
	return bnd_join(bnd_meet(*a, bnd_range(w, 0, smax(w))),
			bnd_const(w, 0));
}

static int64_t bnf_sdiv(int w, int64_t x, int64_t y)
{
	return sem_signed(w, sem_py_div(w, canon(w, x), canon(w, y)));
}

static bnd f_py_div(const bnd *a, const bnd *b, uint64_t bugs)
{
	int w = a->w;
	if (bnd_is_const(b)) {
		int64_t c = b->lo;
		if (c == 0)
			return bnd_const(w, 0);
		if (c == -1)
			return bnf_neg(
			    a, bugs & ~(UINT64_C(1) << OPT_BUG_NEG_MININT));
		/* Floor division by a constant is monotone in x: increasing
		 * for c > 0, decreasing for c < 0 (and c != -1 cannot wrap). */
		int64_t l = bnf_sdiv(w, a->lo, c), h = bnf_sdiv(w, a->hi, c);
		return c > 0 ? bnd_range(w, l, h) : bnd_range(w, h, l);
	}
	if (b->lo >= 1) {
		/* For y > 0, floor(x / y) is increasing in x, and monotone in
		 * y for fixed x: the extremes are at the corners. */
		int64_t l =
		    min64(bnf_sdiv(w, a->lo, b->lo), bnf_sdiv(w, a->lo, b->hi));
		int64_t h =
		    max64(bnf_sdiv(w, a->hi, b->lo), bnf_sdiv(w, a->hi, b->hi));
		return bnd_range(w, l, h);
	}
	return bnd_top(w);
}

static bnd f_py_mod(const bnd *a, const bnd *b)
{
	int w = a->w;
	if (bnd_is_const(b) && b->lo == 0)
		return *a;
	if (b->lo >= 1) {
		bnd r = bnd_range(w, 0, b->hi - 1);
		if (a->lo >= 0) {
			if (a->hi < b->lo)
				return *a; /* x % y == x */
			r = bnd_meet(r, bnd_range(w, 0, a->hi));
		}
		if (bnd_is_const(b) && (b->val & (b->val - 1)) == 0) {
			/* x % 2^k == x & (2^k - 1) */
			tnum t = tn_and(w, tn_of(a), tn_const(b->val - 1));
			r = bnd_meet(r, top_with_tnum(w, t));
		}
		return r;
	}
	if (b->hi <= -1)
		return bnd_range(w, b->lo + 1, 0);
	return bnd_top(w);
}

int bnd_decide_cmp(ir_opcode opc, const bnd *args, uint64_t bugs)
{
	const bnd *a = &args[0], *b = &args[1];
	uint64_t amin, amax, bmin, bmax;
	switch (opc) {
	case IR_INT_IS_TRUE:
	case IR_INT_IS_ZERO: {
		int truth = -1;
		if (bnd_is_nonzero(a))
			truth = 1;
		else if (bnd_is_const(a))
			truth = 0;
		if (truth < 0 || opc == IR_INT_IS_TRUE)
			return truth;
		return !truth;
	}
	case IR_INT_EQ:
	case IR_INT_NE: {
		int eq = -1;
		if (bnd_is_const(a) && bnd_is_const(b))
			eq = bnd_const_val(a) == bnd_const_val(b);
		else if (a->hi < b->lo || b->hi < a->lo ||
			 ((a->val ^ b->val) & ~a->mask & ~b->mask))
			eq = 0;
		if (eq < 0 || opc == IR_INT_EQ)
			return eq;
		return !eq;
	}
	case IR_INT_LT: return a->hi < b->lo ? 1 : a->lo >= b->hi ? 0 : -1;
	case IR_INT_LE: return a->hi <= b->lo ? 1 : a->lo > b->hi ? 0 : -1;
	case IR_INT_GT: return a->lo > b->hi ? 1 : a->hi <= b->lo ? 0 : -1;
	case IR_INT_GE: return a->lo >= b->hi ? 1 : a->hi < b->lo ? 0 : -1;
	default: break;
	}
	if (bug(bugs, OPT_BUG_UINT_SIGNED_CMP)) {
		/* BUG: compares the signed ranges as if they were unsigned. */
		int64_t s[4] = {a->lo, a->hi, b->lo, b->hi};
		switch (opc) {
		case IR_UINT_LT: return s[1] < s[2] ? 1 : s[0] >= s[3] ? 0 : -1;
		case IR_UINT_LE: return s[1] <= s[2] ? 1 : s[0] > s[3] ? 0 : -1;
		case IR_UINT_GT: return s[0] > s[3] ? 1 : s[1] <= s[2] ? 0 : -1;
		case IR_UINT_GE: return s[0] >= s[3] ? 1 : s[1] < s[2] ? 0 : -1;
		default: return -1;
		}
	}
	bnd_ubounds(a, &amin, &amax);
	bnd_ubounds(b, &bmin, &bmax);
	switch (opc) {
	case IR_UINT_LT: return amax < bmin ? 1 : amin >= bmax ? 0 : -1;
	case IR_UINT_LE: return amax <= bmin ? 1 : amin > bmax ? 0 : -1;
	case IR_UINT_GT: return amin > bmax ? 1 : amax <= bmin ? 0 : -1;
	case IR_UINT_GE: return amin >= bmax ? 1 : amax < bmin ? 0 : -1;
	default: return -1;
	}
}

bnd bnd_forward(ir_opcode opc, const bnd *args, uint64_t bugs)
{
	const bnd *a = &args[0], *b = &args[1];
	int w = a->w;
	if (opc == IR_PTR_EQ || opc == IR_PTR_NE)
		return bnd_range(w, 0, 1);
	int nargs = ir_opinfo_of(opc)->nargs;
	for (int i = 0; i < nargs; i++)
		if (args[i].empty)
			return bnd_empty(w);
	if (ir_op_has(opc, IRF_CMP)) {
		int d = bnd_decide_cmp(opc, args, bugs);
		return d < 0 ? bnd_range(w, 0, 1) : bnd_const(w, (uint64_t)d);
	}
	switch (opc) {
	case IR_INT_ADD:
	case IR_INT_ADD_OVF: return bnf_add(a, b);
	case IR_INT_SUB:
	case IR_INT_SUB_OVF: return bnf_sub(a, b);
	case IR_INT_MUL:
	case IR_INT_MUL_OVF: return f_mul(a, b);
	case IR_INT_AND: return f_and(a, b, bugs);
	case IR_INT_OR: return f_or(a, b);
	case IR_INT_XOR: return bnf_xor(a, b);
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: return f_shift(opc, a, b);
	case IR_INT_NEG: return bnf_neg(a, bugs);
	case IR_INT_INVERT: return bnf_invert(a);
	case IR_INT_SIGNEXT: return f_signext(a, b);
	case IR_UINT_MUL_HIGH: return f_umulh(a, b);
	case IR_INT_FORCE_GE_ZERO: return f_force_ge_zero(a, bugs);
	case IR_SAME_AS_I: return *a;
	case IR_INT_PY_DIV: return f_py_div(a, b, bugs);
	case IR_INT_PY_MOD: return f_py_mod(a, b);
	default: return bnd_top(w);
	}
}

/* ------------------------------------------------------------------ */
/* Overflow-checked ops.                                               */

/* The exact results at the two ends of the result interval. */
static void ovf_ends(ir_opcode opc, const bnd *a, const bnd *b, int *cl,
		     int *ch, int64_t *l, int64_t *h)
{
	int w = a->w;
	if (opc == IR_INT_ADD_OVF) {
		*cl = exact_class(opc, w, a->lo, b->lo, l);
		*ch = exact_class(opc, w, a->hi, b->hi, h);
	} else {
		*cl = exact_class(opc, w, a->lo, b->hi, l);
		*ch = exact_class(opc, w, a->hi, b->lo, h);
	}
}

bool bnd_may_overflow(ir_opcode opc, const bnd *args)
{
	const bnd *a = &args[0], *b = &args[1];
	if (a->empty || b->empty)
		return false;
	if (opc == IR_INT_MUL_OVF) {
		int64_t lo, hi;
		return !bnf_mul_corners(a, b, &lo, &hi);
	}
	int cl, ch;
	int64_t l, h;
	ovf_ends(opc, a, b, &cl, &ch, &l, &h);
	return cl != 0 || ch != 0;
}

bool bnd_must_overflow(ir_opcode opc, const bnd *args)
{
	const bnd *a = &args[0], *b = &args[1];
	if (a->empty || b->empty || opc == IR_INT_MUL_OVF)
		return false;
	int cl, ch;
	int64_t l, h;
	ovf_ends(opc, a, b, &cl, &ch, &l, &h);
	return cl == ch && cl != 0;
}

bnd bnd_forward_exact(ir_opcode opc, const bnd *args)
{
	const bnd *a = &args[0], *b = &args[1];
	int w = a->w;
	bnd r = bnd_forward(opc, args, 0);
	if (a->empty || b->empty)
		return bnd_empty(w);
	int64_t lo, hi;
	if (opc == IR_INT_ADD_OVF) {
		lo = sat(opc, w, a->lo, b->lo);
		hi = sat(opc, w, a->hi, b->hi);
	} else if (opc == IR_INT_SUB_OVF) {
		lo = sat(opc, w, a->lo, b->hi);
		hi = sat(opc, w, a->hi, b->lo);
	} else {
		int64_t xs[2] = {a->lo, a->hi}, ys[2] = {b->lo, b->hi};
		lo = smax(w);
		hi = smin(w);
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++) {
				int64_t p = sat(opc, w, xs[i], ys[j]);
				lo = min64(lo, p);
				hi = max64(hi, p);
			}
	}
	return bnd_meet(r, bnd_range(w, lo, hi));
}

/* ------------------------------------------------------------------ */
/* Backward refinement.                                                */

/* { r - o } computed exactly (no wraparound): the interval between the
 * extreme differences, clamped to the W-bit range. */
static bnd exact_sub(const bnd *r, const bnd *o)
{
	int w = r->w;
	return bnd_range(w, sat(IR_INT_SUB_OVF, w, r->lo, o->hi),
			 sat(IR_INT_SUB_OVF, w, r->hi, o->lo));
}

static bnd exact_add(const bnd *r, const bnd *o)
{
	int w = r->w;
	return bnd_range(w, sat(IR_INT_ADD_OVF, w, r->lo, o->lo),
			 sat(IR_INT_ADD_OVF, w, r->hi, o->hi));
}

/* The multiplicative inverse of odd X modulo 2^64 (Newton's iteration;
 * each step doubles the number of correct low bits, 3 -> 96). */
static uint64_t inverse_odd(uint64_t x)
{
	uint64_t y = x;
	for (int i = 0; i < 5; i++)
		y *= 2 - x * y;
	return y;
}

/* x with x * c == r (mod 2^W), for constants c != 0 and r: writing
 * c = 2^t * odd, r must have t low zero bits, and then the low W - t bits
 * of x are (r >> t) * odd^-1; the high t bits are free. */
static bnd mul_solve(int w, uint64_t c, uint64_t r)
{
	int t = lobit(c);
	if (r & lowmask(t))
		return bnd_empty(w);
	uint64_t x = ((r >> t) * inverse_odd(c >> t)) & lowmask(w - t);
	return bnd_tnum(w, x, sem_allones(w) & ~lowmask(w - t));
}

static bnd back_mul(const bnd *r, const bnd *x, const bnd *o, bool exact,
		    bool plain, uint64_t bugs)
{
	int w = r->w;
	if (!bnd_is_const(o))
		return *x;
	uint64_t c = bnd_const_val(o);
	bnd d = bnd_top(w);
	if (c != 0 && bnd_is_const(r)) {
		uint64_t rv = bnd_const_val(r);
		if (plain && bug(bugs, OPT_BUG_MUL_BACKWARDS)) {
			/* BUG: divides as if the product had not wrapped. */
			if (sem_py_mod(w, rv, c) == 0)
				d = bnd_const(w, sem_py_div(w, rv, c));
		} else {
			d = mul_solve(w, c, rv);
		}
	}
	int64_t cs = sem_signed(w, c);
	if (exact && cs > 0) {
		/* x = r / c exactly: ceil(r.lo / c) <= x <= floor(r.hi / c). */
		int64_t lo = smin(w), hi = bnf_sdiv(w, r->hi, cs);
		if (r->lo != smin(w))
			lo = -bnf_sdiv(w, -r->lo, cs);
		d = bnd_meet(d, bnd_range(w, lo, hi));
	}
	return bnd_meet(*x, d);
}

bnd bnd_backward(ir_opcode opc, int i, const bnd *r, const bnd *args,
		 bool exact, uint64_t bugs)
{
	const bnd *x = &args[i];
	const bnd *o = &args[1 - i];
	int w = r->w;
	uint64_t M = sem_allones(w);
	if (r->empty || x->empty)
		return bnd_empty(w);
	bnd d;
	switch (opc) {
	case IR_INT_ADD:
	case IR_INT_ADD_OVF:
		/* x = r - o, with wraparound unless the op was exact. */
		d = bnf_sub(r, o);
		if (exact)
			d = bnd_meet(d, exact_sub(r, o));
		else if (bug(bugs, OPT_BUG_ADD_WRAP_BOUNDS))
			d = exact_sub(r, o); /* BUG: ignores wraparound */
		break;
	case IR_INT_SUB:
	case IR_INT_SUB_OVF:
		if (i == 0) { /* x = r + y */
			d = bnf_add(r, o);
			if (exact)
				d = bnd_meet(d, exact_add(r, o));
		} else { /* y = x - r */
			d = bnf_sub(o, r);
			if (exact)
				d = bnd_meet(d, exact_sub(o, r));
		}
		break;
	case IR_INT_MUL:
	case IR_INT_MUL_OVF:
		return back_mul(r, x, o, exact, opc == IR_INT_MUL, bugs);
	case IR_INT_NEG: d = bnf_neg(r, bugs); break;
	case IR_INT_INVERT: d = bnf_invert(r); break;
	case IR_INT_XOR: d = bnf_xor(r, o); break;
	case IR_INT_AND: {
		/* A 1 in r needs a 1 in x; a 0 in r where o has a 1 needs a
		 * 0 in x. */
		uint64_t r0 = ~r->val & ~r->mask & M;
		uint64_t known0 = r0 & o->val, known1 = r->val;
		d = bnd_tnum(w, known1, M & ~(known0 | known1));
		break;
	}
	case IR_INT_OR: {
		uint64_t r0 = ~r->val & ~r->mask & M;
		uint64_t o0 = ~o->val & ~o->mask & M;
		uint64_t known0 = r0, known1 = r->val & o0;
		d = bnd_tnum(w, known1, M & ~(known0 | known1));
		break;
	}
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: {
		if (i != 0 || !bnd_is_const(o) ||
		    bnd_const_val(o) >= (uint64_t)w)
			return *x;
		int k = (int)bnd_const_val(o);
		if (opc == IR_INT_LSHIFT) {
			if (bug(bugs, OPT_BUG_LSHIFT_BACKWARDS)) {
				/* BUG: x = r >> k, as if no bit fell off. */
				d = bnf_shift_by(IR_INT_RSHIFT, r, (uint64_t)k);
				break;
			}
			/* The low W-k bits of x are the high bits of r; the
			 * top k bits of x were shifted out. */
			d = bnd_tnum(w, r->val >> k,
				     (r->mask >> k) | (M & ~(M >> k)));
			break;
		}
		/* x >> k or x >>> k: the high W-k bits of x are the low bits
		 * of r (and for >>>, r's top k bits are 0); the low k bits of
		 * x are free. */
		d = bnd_tnum(w, (r->val << k) & M,
			     ((r->mask << k) | lowmask(k)) & M);
		if (opc == IR_INT_RSHIFT && k <= w - 2) {
			int64_t p = INT64_C(1) << k;
			d = bnd_meet(
			    d, bnd_range(w, sat(IR_INT_MUL_OVF, w, r->lo, p),
					 sat(IR_INT_ADD_OVF, w,
					     sat(IR_INT_MUL_OVF, w, r->hi, p),
					     p - 1)));
		}
		break;
	}
	case IR_SAME_AS_I: d = *r; break;
	case IR_INT_FORCE_GE_ZERO:
		/* A non-zero result is x itself. */
		d = bnd_is_nonzero(r) ? *r : bnd_top(w);
		break;
	default: return *x;
	}
	return bnd_meet(*x, d);
}

/* ------------------------------------------------------------------ */
/* Refinement by comparisons.                                          */

static void refine_lt(bnd *x, bnd *y, bool strict)
{
	int w = x->w;
	if (x->empty || y->empty) {
		*x = *y = bnd_empty(w);
		return;
	}
	int64_t xlo = x->lo, yhi = y->hi;
	if (strict) {
		if (yhi == smin(w) || xlo == smax(w)) {
			*x = *y = bnd_empty(w);
			return;
		}
		*x = bnd_meet(*x, bnd_range(w, smin(w), yhi - 1));
		*y = bnd_meet(*y, bnd_range(w, xlo + 1, smax(w)));
	} else {
		*x = bnd_meet(*x, bnd_range(w, smin(w), yhi));
		*y = bnd_meet(*y, bnd_range(w, xlo, smax(w)));
	}
}

/* x <u y (STRICT) or x <=u y. */
static void refine_ult(bnd *x, bnd *y, bool strict)
{
	int w = x->w;
	if (x->empty || y->empty) {
		*x = *y = bnd_empty(w);
		return;
	}
	uint64_t xmin, xmax, ymin, ymax, S = sem_minint(w);
	bnd_ubounds(x, &xmin, &xmax);
	bnd_ubounds(y, &ymin, &ymax);
	if (strict && (ymax == 0 || xmin == sem_allones(w))) {
		*x = *y = bnd_empty(w);
		return;
	}
	/* x <=u ub: when ub is below 2^(W-1), x is non-negative. */
	uint64_t ub = strict ? ymax - 1 : ymax;
	if (ub < S)
		*x = bnd_meet(*x, bnd_range(w, 0, (int64_t)ub));
	/* y >=u lb: above 2^(W-1), y is negative and >= lb as signed too;
	 * below it, only a y known non-negative is bounded. */
	uint64_t lb = strict ? xmin + 1 : xmin;
	if (lb >= S)
		*y = bnd_meet(*y, bnd_range(w, sem_signed(w, lb), -1));
	else if (y->lo >= 0)
		*y = bnd_meet(*y, bnd_range(w, (int64_t)lb, smax(w)));
}

/* Removes C from B where B's range ends at C. */
static bnd remove_end(bnd b, uint64_t c)
{
	int64_t s = sem_signed(b.w, c);
	if (b.empty)
		return b;
	if (b.lo == s && b.hi == s)
		return bnd_empty(b.w);
	if (b.lo == s)
		return bnd_meet(b, bnd_range(b.w, s + 1, b.hi));
	if (b.hi == s)
		return bnd_meet(b, bnd_range(b.w, b.lo, s - 1));
	return b;
}

void bnd_refine_cmp(ir_opcode opc, bool truth, bnd *a, bnd *b)
{
	int w = a->w;
	switch (opc) {
	case IR_INT_LT:
		truth ? refine_lt(a, b, true) : refine_lt(b, a, false);
		break;
	case IR_INT_LE:
		truth ? refine_lt(a, b, false) : refine_lt(b, a, true);
		break;
	case IR_INT_GT:
		truth ? refine_lt(b, a, true) : refine_lt(a, b, false);
		break;
	case IR_INT_GE:
		truth ? refine_lt(b, a, false) : refine_lt(a, b, true);
		break;
	case IR_UINT_LT:
		truth ? refine_ult(a, b, true) : refine_ult(b, a, false);
		break;
	case IR_UINT_LE:
		truth ? refine_ult(a, b, false) : refine_ult(b, a, true);
		break;
	case IR_UINT_GT:
		truth ? refine_ult(b, a, true) : refine_ult(a, b, false);
		break;
	case IR_UINT_GE:
		truth ? refine_ult(b, a, false) : refine_ult(a, b, true);
		break;
	case IR_INT_EQ:
	case IR_INT_NE:
		if (truth == (opc == IR_INT_EQ)) {
			*a = *b = bnd_meet(*a, *b);
		} else {
			bnd a0 = *a;
			if (bnd_is_const(b))
				*a = remove_end(*a, bnd_const_val(b));
			if (bnd_is_const(&a0))
				*b = remove_end(*b, bnd_const_val(&a0));
		}
		break;
	case IR_INT_IS_TRUE:
	case IR_INT_IS_ZERO:
		if (truth == (opc == IR_INT_IS_ZERO))
			*a = bnd_meet(*a, bnd_const(w, 0));
		else
			*a = remove_end(*a, 0);
		break;
	default: break;
	}
}

void bnd_format(const bnd *b, char *buf, int size)
{
	if (b->empty) {
		snprintf(buf, (size_t)size, "empty");
		return;
	}
	char bits[65];
	int w = b->w;
	for (int i = 0; i < w; i++) {
		int bit = w - 1 - i;
		bits[i] = ((b->mask >> bit) & 1)  ? 'x'
			  : ((b->val >> bit) & 1) ? '1'
						  : '0';
	}
	bits[w] = '\0';
	snprintf(buf, (size_t)size, "[%lld, %lld] %s", (long long)b->lo,
		 (long long)b->hi, bits);
}
