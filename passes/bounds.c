/*
 * bounds.c - the optimizer's integer bounds domain (bounds.h has the
 * contract): constructors, reduction of the range against the known bits,
 * predicates, meet and join, and the forward transfer functions.
 *
 * Map:
 *   constructors, reduction, predicates   bnd_empty ... bnd_join
 *   forward transfer                      one bnf_/f_ function per op,
 *                                         bnd_decide_cmp, bnd_forward
 *   bnd_format
 * Files: bounds_int.h (helpers and the tnum domain, shared), bounds_back.c
 * (overflow, backward refinement, refinement by comparisons).
 */
#include "bounds_int.h"

#include <stdio.h>

_Thread_local uint32_t *bnd_hits;

void bnd_count_into(uint32_t *hits)
{
	bnd_hits = hits;
}

_Static_assert(OPT_BR_ADD_WRAP_SPLIT == OPT_BR_ADD_NO_WRAP + 2 &&
		   OPT_BR_SUB_WRAP_SPLIT == OPT_BR_SUB_NO_WRAP + 2 &&
		   OPT_BR_CMP_LT_FALSE == OPT_BR_CMP_LT_TRUE + 1 &&
		   OPT_BR_CMP_LE_FALSE == OPT_BR_CMP_LE_TRUE + 1 &&
		   OPT_BR_CMP_ULT_FALSE == OPT_BR_CMP_ULT_TRUE + 1 &&
		   OPT_BR_CMP_ULE_FALSE == OPT_BR_CMP_ULE_TRUE + 1,
	       "branches.def keeps these branches together");

/* The branch of a sum or difference: which ends wrapped. */
static opt_branch wrap_branch(int cl, int ch, opt_branch no_wrap)
{
	/* no-wrap, wrap-same and wrap-split follow each other in
	 * branches.def. */
	return (opt_branch)(no_wrap + (cl != ch ? 2 : cl != 0));
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

bnd bnf_add(const bnd *a, const bnd *b)
{
	int w = a->w;
	int64_t l, h, lo, hi;
	int cl = exact_class(IR_INT_ADD_OVF, w, a->lo, b->lo, &l);
	int ch = exact_class(IR_INT_ADD_OVF, w, a->hi, b->hi, &h);
	hit(wrap_branch(cl, ch, OPT_BR_ADD_NO_WRAP));
	range_from_ends(w, cl, l, ch, h, &lo, &hi);
	return with_tnum(w, lo, hi, tn_add(w, tn_of(a), tn_of(b)));
}

bnd bnf_sub(const bnd *a, const bnd *b)
{
	int w = a->w;
	int64_t l, h, lo, hi;
	int cl = exact_class(IR_INT_SUB_OVF, w, a->lo, b->hi, &l);
	int ch = exact_class(IR_INT_SUB_OVF, w, a->hi, b->lo, &h);
	hit(wrap_branch(cl, ch, OPT_BR_SUB_NO_WRAP));
	range_from_ends(w, cl, l, ch, h, &lo, &hi);
	return with_tnum(w, lo, hi, tn_sub(w, tn_of(a), tn_of(b)));
}

/* The products of the four corners; false when one overflows. */
bool bnf_mul_corners(const bnd *a, const bnd *b, int64_t *lo, int64_t *hi)
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
		hit(OPT_BR_MUL_CORNER_OVF);
		lo = smin(w);
		hi = smax(w);
	} else {
		hit(OPT_BR_MUL_CORNERS_FIT);
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
	hit(a->lo >= 0 || b->lo >= 0 ? OPT_BR_AND_NONNEG
	    : a->hi < 0 && b->hi < 0 ? OPT_BR_AND_BOTH_NEG
				     : OPT_BR_AND_MIXED);
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
	hit(a->hi < 0 || b->hi < 0     ? OPT_BR_OR_NEG
	    : a->lo >= 0 && b->lo >= 0 ? OPT_BR_OR_BOTH_NONNEG
				       : OPT_BR_OR_MIXED);
	return with_tnum(w, lo, hi, tn_or(w, tn_of(a), tn_of(b)));
}

bnd bnf_xor(const bnd *a, const bnd *b)
{
	return top_with_tnum(a->w, tn_xor(a->w, tn_of(a), tn_of(b)));
}

bnd bnf_neg(const bnd *a, uint64_t bugs)
{
	int w = a->w;
	tnum t = tn_sub(w, tn_const(0), tn_of(a));
	if (a->lo > smin(w)) {
		hit(OPT_BR_NEG_NO_MININT);
		return with_tnum(w, -a->hi, -a->lo, t);
	}
	hit(a->hi == smin(w) ? OPT_BR_NEG_MININT_ONLY
			     : OPT_BR_NEG_MININT_MIXED);
	if (bug(bugs, OPT_BUG_NEG_MININT)) /* BUG: as if -MININT == MAXINT */
		return with_tnum(w, a->hi == smin(w) ? smax(w) : -a->hi,
				 smax(w), t);
	/* -MININT == MININT: the result set contains MININT and -hi..MAXINT,
	 * whose hull is everything unless a is exactly {MININT}. */
	if (a->hi == smin(w))
		return bnd_const(w, sem_minint(w));
	return top_with_tnum(w, t);
}

bnd bnf_invert(const bnd *a)
{
	int w = a->w;
	uint64_t M = sem_allones(w);
	tnum t = tn_norm(w, ~a->val & ~a->mask & M, a->mask);
	return with_tnum(w, ~a->hi, ~a->lo, t); /* ~x == -x - 1, no overflow */
}

/* x << k, x >> k or x >>> k for one count K (canonical, maybe >= W). */
bnd bnf_shift_by(ir_opcode opc, const bnd *a, uint64_t k)
{
	int w = a->w;
	if (k == 0) {
		hit(OPT_BR_SHIFT_BY_ZERO);
		return *a;
	}
	if (k >= (uint64_t)w) {
		hit(OPT_BR_SHIFT_BY_GE_W);
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
		hit(lo == smin(w) && hi == smax(w) ? OPT_BR_LSHIFT_LOSES
						   : OPT_BR_LSHIFT_FITS);
		t = tn_lshift(w, tn_of(a), kk);
	} else if (opc == IR_INT_RSHIFT) {
		hit(OPT_BR_RSHIFT);
		lo =
		    sem_signed(w, sem_eval(opc, w, (uint64_t[]){ulo, k}, NULL));
		hi =
		    sem_signed(w, sem_eval(opc, w, (uint64_t[]){uhi, k}, NULL));
		t = tn_arshift(w, tn_of(a), kk);
	} else {
		if (a->lo >= 0 || a->hi < 0) {
			hit(OPT_BR_URSHIFT_ONE_SIGN);
			lo = (int64_t)(ulo >> k);
			hi = (int64_t)(uhi >> k);
		} else {
			hit(OPT_BR_URSHIFT_MIXED);
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
	if (bnd_is_const(b)) {
		hit(OPT_BR_SHIFT_CONST);
		return bnf_shift_by(opc, a, bnd_const_val(b));
	}
	bnd r = bnd_empty(w);
	for (int k = 0; k < w; k++)
		if (bnd_contains(b, (uint64_t)k))
			r = bnd_join(r, bnf_shift_by(opc, a, (uint64_t)k));
	uint64_t umin, umax;
	bnd_ubounds(b, &umin, &umax);
	hit(umax >= (uint64_t)w ? OPT_BR_SHIFT_VAR_W : OPT_BR_SHIFT_VAR);
	if (umax >= (uint64_t)w)
		r = bnd_join(r, bnf_shift_by(opc, a, (uint64_t)w));
	return r;
}

static bnd signext_by(const bnd *a, uint64_t n)
{
	int w = a->w;
	if (n == 0) {
		hit(OPT_BR_SIGNEXT_ZERO);
		return bnd_const(w, 0);
	}
	if (n >= (uint64_t)(w / 8)) {
		hit(OPT_BR_SIGNEXT_WIDE);
		return *a;
	}
	int bits = (int)n * 8;
	int64_t lo = -(INT64_C(1) << (bits - 1)), hi = -lo - 1;
	if (a->lo >= lo && a->hi <= hi) {
		hit(OPT_BR_SIGNEXT_FITS);
		return *a;
	}
	hit(OPT_BR_SIGNEXT_CUTS);
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
	hit(OPT_BR_SIGNEXT_VAR);
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
	bnd r = from_urange(w, sem_umulh(w, alo, blo), sem_umulh(w, ahi, bhi));
	hit(bnd_is_top(&r) ? OPT_BR_UMULH_STRADDLES : OPT_BR_UMULH_ONE_HALF);
	return r;
}

static bnd f_force_ge_zero(const bnd *a, uint64_t bugs)
{
	int w = a->w;
	if (bug(bugs, OPT_BUG_FORCE_GE_ZERO) && (a->val & 1))
		return bnd_meet(*a, bnd_range(w, 1, smax(w))); /* BUG */
	if (a->lo >= 0) {
		hit(OPT_BR_FGEZ_NONNEG);
		return *a;
	}
	if (a->hi < 0) {
		hit(OPT_BR_FGEZ_NEG);
		return bnd_const(w, 0);
	}
	hit(OPT_BR_FGEZ_MIXED);
	return bnd_join(bnd_meet(*a, bnd_range(w, 0, smax(w))),
			bnd_const(w, 0));
}

int64_t bnf_sdiv(int w, int64_t x, int64_t y)
{
	return sem_signed(w, sem_py_div(w, canon(w, x), canon(w, y)));
}

static bnd f_py_div(const bnd *a, const bnd *b, uint64_t bugs)
{
	int w = a->w;
	if (bnd_is_const(b)) {
		int64_t c = b->lo;
		hit(c == 0    ? OPT_BR_DIV_BY_ZERO
		    : c == -1 ? OPT_BR_DIV_BY_MINUS_ONE
			      : OPT_BR_DIV_BY_CONST);
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
	hit(b->lo >= 1 ? OPT_BR_DIV_BY_POSITIVE : OPT_BR_DIV_OTHER);
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
	if (bnd_is_const(b) && b->lo == 0) {
		hit(OPT_BR_MOD_BY_ZERO);
		return *a;
	}
	if (b->lo >= 1) {
		bnd r = bnd_range(w, 0, b->hi - 1);
		if (a->lo >= 0) {
			if (a->hi < b->lo) {
				hit(OPT_BR_MOD_IDENTITY);
				return *a; /* x % y == x */
			}
			hit(OPT_BR_MOD_NONNEG);
			r = bnd_meet(r, bnd_range(w, 0, a->hi));
		} else {
			hit(OPT_BR_MOD_POSITIVE);
		}
		if (bnd_is_const(b) && (b->val & (b->val - 1)) == 0) {
			hit(OPT_BR_MOD_POW2);
			/* x % 2^k == x & (2^k - 1) */
			tnum t = tn_and(w, tn_of(a), tn_const(b->val - 1));
			r = bnd_meet(r, top_with_tnum(w, t));
		}
		return r;
	}
	if (b->hi <= -1) {
		hit(OPT_BR_MOD_NEGATIVE);
		return bnd_range(w, b->lo + 1, 0);
	}
	hit(OPT_BR_MOD_OTHER);
	return bnd_top(w);
}

/* Counts outcome D (1 true, 0 false) of a relation whose "true" branch
 * is TRUE_BRANCH (its "false" branch follows it in branches.def). */
static int counted(int d, opt_branch true_branch)
{
	if (d >= 0)
		hit((opt_branch)(true_branch + (d == 0)));
	return d;
}

/* Decides REL(A, B), unsigned when UNS: 1 true, 0 false, -1 unknown. */
static int decide_rel(ir_rel rel, bool uns, const bnd *a, const bnd *b)
{
	uint64_t amin, amax, bmin, bmax;
	switch (rel) {
	case IR_REL_EQ:
		if (bnd_is_const(a) && bnd_is_const(b)) {
			hit(OPT_BR_CMP_EQ_CONSTS);
			return bnd_const_val(a) == bnd_const_val(b);
		}
		if (a->hi < b->lo || b->hi < a->lo) {
			hit(OPT_BR_CMP_EQ_RANGES);
			return 0;
		}
		if ((a->val ^ b->val) & ~a->mask & ~b->mask) {
			hit(OPT_BR_CMP_EQ_BITS);
			return 0;
		}
		return -1;
	case IR_REL_LT:
		if (!uns)
			return counted(a->hi < b->lo	? 1
				       : a->lo >= b->hi ? 0
							: -1,
				       OPT_BR_CMP_LT_TRUE);
		bnd_ubounds(a, &amin, &amax);
		bnd_ubounds(b, &bmin, &bmax);
		return counted(amax < bmin    ? 1
			       : amin >= bmax ? 0
					      : -1,
			       OPT_BR_CMP_ULT_TRUE);
	case IR_REL_LE:
		if (!uns)
			return counted(a->hi <= b->lo  ? 1
				       : a->lo > b->hi ? 0
						       : -1,
				       OPT_BR_CMP_LE_TRUE);
		bnd_ubounds(a, &amin, &amax);
		bnd_ubounds(b, &bmin, &bmax);
		return counted(amax <= bmin  ? 1
			       : amin > bmax ? 0
					     : -1,
			       OPT_BR_CMP_ULE_TRUE);
	case IR_REL_NONE: return -1;
	}
	return -1;
}

/* The comparison's shape (ir/ops.def) turns it into one of three
 * relations. */
int bnd_decide_cmp(ir_opcode opc, const bnd *args, uint64_t bugs)
{
	const bnd *a = &args[0], *b = &args[1];
	ir_cmp c = ir_op_cmp(opc);
	int d;
	if (c.zero) {
		/* a == 0 */
		d = bnd_is_nonzero(a) ? 0 : bnd_is_const(a) ? 1 : -1;
		if (d >= 0)
			hit(OPT_BR_CMP_ZERO);
	} else {
		if (c.swap) {
			const bnd *s = a;
			a = b;
			b = s;
		}
		/* BUG: compares the signed ranges as if they were unsigned. */
		bool uns = c.uns && !bug(bugs, OPT_BUG_UINT_SIGNED_CMP);
		d = decide_rel(c.rel, uns, a, b);
	}
	if (d < 0)
		hit(OPT_BR_CMP_UNDECIDED);
	return d < 0 || !c.neg ? d : !d;
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
	/* clang-format off */
	case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT: case IR_INT_LE:
	case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT: case IR_UINT_LE:
	case IR_UINT_GT: case IR_UINT_GE: case IR_INT_IS_TRUE:
	case IR_INT_IS_ZERO: case IR_PTR_EQ: case IR_PTR_NE:
	case IR_GUARD_TRUE: case IR_GUARD_FALSE: case IR_GUARD_VALUE:
	case IR_GUARD_NO_OVERFLOW: case IR_GUARD_OVERFLOW:
	case IR_GUARD_CLASS: case IR_GUARD_NONNULL: case IR_GUARD_ISNULL:
	case IR_NEW: case IR_NEW_WITH_VTABLE: case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: case IR_SETFIELD_GC: case IR_ESCAPE_N:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT: case IR_LABEL:
	case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return bnd_top(w);
	}
	return bnd_top(w); /* not an op of the table */
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
