/*
 * range_int.h - private to range.c and range_transfer.c: the fact domain's
 * small helpers (static inline: W-bit arithmetic, fact constructors,
 * reduction of the three parts against each other, meet and join) and the
 * transfer functions range.c calls.
 *
 * Map: W-bit helpers; facts; forward transfer (range_transfer.c).
 */
#ifndef JP_VERIFY_RANGE_INT_H
#define JP_VERIFY_RANGE_INT_H

#include "range.h"

#include <string.h>

#include "ir/sem.h"

/* ---- W-bit helpers -------------------------------------------------- */

static inline int64_t smin_w(int w)
{
	return sem_signed(w, sem_minint(w));
}

static inline int64_t smax_w(int w)
{
	return (int64_t)sem_maxint(w);
}

static inline uint64_t pat(int w, int64_t s)
{
	return sem_from_signed(w, s);
}

/* Arithmetic shift right of a signed value, written without relying on
 * the implementation-defined >> of negative numbers. */
static inline int64_t asr(int64_t a, unsigned k)
{
	if (k >= 64)
		return a < 0 ? -1 : 0;
	return a >= 0 ? a >> k : ~((~a) >> k);
}

/* The low K bits set (K may be 64). */
static inline uint64_t lowbits(unsigned k)
{
	return k >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << k) - 1;
}

static inline unsigned ctz_w(int w, uint64_t x)
{
	unsigned n = 0;
	while (n < (unsigned)w && !((x >> n) & 1))
		n++;
	return n;
}

/* Exact signed A op B clamped to the W-bit range, and the direction of the
 * overflow (+1 above MAXINT, -1 below MININT, 0 none).  The overflow flag
 * comes from sem_eval, the one definition of *_ovf. */
static inline int64_t exact(int w, ir_opcode ovfop, int64_t a, int64_t b,
			    int *dir)
{
	uint64_t args[2] = {pat(w, a), pat(w, b)};
	bool ovf = false;
	uint64_t r = sem_eval(ovfop, w, args, &ovf);
	*dir = 0;
	if (!ovf)
		return sem_signed(w, r);
	/* A sum overflows only with operands of the same sign, a difference
	 * only with different signs: the side is A's.  A product: above MAXINT
	 * when the factors have the same sign. */
	if (!ir_op_has(ovfop, IRF_MULTIPLIER))
		*dir = a >= 0 ? 1 : -1;
	else
		*dir = (a < 0) == (b < 0) ? 1 : -1;
	return *dir > 0 ? smax_w(w) : smin_w(w);
}

/* The wrapped W-bit result of A op B as a signed value. */
static inline int64_t wrapped(int w, ir_opcode ovfop, int64_t a, int64_t b)
{
	uint64_t args[2] = {pat(w, a), pat(w, b)};
	return sem_signed(w, sem_eval(ovfop, w, args, NULL));
}

/* ---- facts ---------------------------------------------------------- */

static inline vr_fact top(int w)
{
	vr_fact f = {smin_w(w), smax_w(w), 0, sem_allones(w), 0, 0};
	return f;
}

static inline vr_fact fconst(int w, uint64_t c)
{
	c = sem_mask(w, c);
	vr_fact f = {
	    sem_signed(w, c), sem_signed(w, c), c, c, sem_allones(w) & ~c, c};
	return f;
}

static inline vr_fact empty_fact(int w)
{
	vr_fact f = top(w);
	f.smin = 1;
	f.smax = 0;
	return f;
}

static inline vr_fact srange(int w, int64_t lo, int64_t hi)
{
	vr_fact f = top(w);
	f.smin = lo;
	f.smax = hi;
	return f;
}

static inline vr_fact urange(int w, uint64_t lo, uint64_t hi)
{
	vr_fact f = top(w);
	f.umin = lo;
	f.umax = hi;
	return f;
}

static inline vr_fact bool_fact(int w)
{
	vr_fact f = urange(w, 0, 1);
	f.zeros = sem_allones(w) & ~UINT64_C(1);
	return f;
}

static inline bool is_empty(const vr_fact *f)
{
	return f->smin > f->smax || f->umin > f->umax ||
	       (f->zeros & f->ones) != 0;
}

static inline bool is_const(const vr_fact *f)
{
	return !is_empty(f) && f->umin == f->umax;
}

static inline uint64_t umax64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}
static inline uint64_t umin64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}
static inline int64_t smax64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}
static inline int64_t smin64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The bits on which every pattern of [LO, HI] agrees (their common
 * prefix), added to *ZEROS and *ONES. */
static inline void prefix_bits(int w, uint64_t lo, uint64_t hi, uint64_t *zeros,
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

static inline void tighten_s(vr_fact *f, int64_t lo, int64_t hi)
{
	f->smin = smax64(f->smin, lo);
	f->smax = smin64(f->smax, hi);
}

static inline void tighten_u(vr_fact *f, uint64_t lo, uint64_t hi)
{
	f->umin = umax64(f->umin, lo);
	f->umax = umin64(f->umax, hi);
}

/* Known bits -> both intervals. */
static inline void from_bits(int w, vr_fact *f)
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
static inline void s_to_u(int w, vr_fact *f)
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
static inline void u_to_s(int w, vr_fact *f)
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
static inline bool next_ge(int w, uint64_t lo, uint64_t zeros, uint64_t ones,
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
static inline bool prev_le(int w, uint64_t hi, uint64_t zeros, uint64_t ones,
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
static inline bool bounds_to_bits(int w, vr_fact *f)
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
static inline bool reduce(int w, vr_fact *f)
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
static inline vr_fact norm(int w, vr_fact f)
{
	if (!reduce(w, &f))
		return top(w);
	return f;
}

static inline vr_fact join(vr_fact a, vr_fact b)
{
	vr_fact f = {smin64(a.smin, b.smin), smax64(a.smax, b.smax),
		     umin64(a.umin, b.umin), umax64(a.umax, b.umax),
		     a.zeros & b.zeros,	     a.ones & b.ones};
	return f;
}

/* A and B both hold: *OUT is their reduced intersection; false when it is
 * empty. */
static inline bool meet(int w, const vr_fact *a, const vr_fact *b, vr_fact *out)
{
	vr_fact f = {smax64(a->smin, b->smin), smin64(a->smax, b->smax),
		     umax64(a->umin, b->umin), umin64(a->umax, b->umax),
		     a->zeros | b->zeros,      a->ones | b->ones};
	*out = f;
	return reduce(w, out);
}

static inline uint64_t unknown(int w, const vr_fact *f)
{
	return sem_allones(w) & ~(f->zeros | f->ones);
}

/* ---- forward transfer (range_transfer.c) ---------------------------- */

vr_fact vrt_add(int w, const vr_fact *x, const vr_fact *y);

vr_fact vrt_sub(int w, const vr_fact *x, const vr_fact *y);

vr_fact vrt_mul_factor(int w, const vr_fact *x, const vr_fact *y);

vr_fact vrt_xor(int w, const vr_fact *x, const vr_fact *y);

vr_fact vrt_invert(int w, const vr_fact *x);

vr_fact vrt_neg(int w, const vr_fact *x);

vr_fact vrt_transfer(int w, ir_opcode opc, const vr_fact *a);

vr_fact vrt_transfer_op(int w, const ir_op *op, const vr_fact *a);

#endif
