/*
 * bounds_int.h - private to bounds.c and bounds_back.c: W-bit helpers, exact
 * arithmetic on signed W-bit numbers and the known-bits (tnum) domain, all
 * static inline, and the forward helpers bounds_back.c calls.
 *
 * Map: helpers; exact arithmetic; known bits (tnums); forward transfer
 * helpers (bounds.c).
 */
#ifndef JP_PASSES_BOUNDS_INT_H
#define JP_PASSES_BOUNDS_INT_H

#include "bounds.h"

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

static inline bool bug(uint64_t bugs, opt_bug b)
{
	return (bugs >> b) & 1;
}

/* The counters of bnd_count_into (bounds.c), or NULL. */
extern _Thread_local uint32_t *bnd_hits;

/* Counts branch B of a transfer function (rule coverage). */
static inline void hit(opt_branch b)
{
	if (bnd_hits)
		bnd_hits[b]++;
}

static inline int64_t smin(int w)
{
	return sem_signed(w, sem_minint(w));
}

static inline int64_t smax(int w)
{
	return (int64_t)sem_maxint(w);
}

static inline uint64_t canon(int w, int64_t x)
{
	return sem_from_signed(w, x);
}

/* The low N bits set (N may be 0..64). */
static inline uint64_t lowmask(int n)
{
	return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

static inline int hibit(uint64_t x)
{
	int n = 63;
	while (!((x >> n) & 1))
		n--;
	return n;
}

static inline int lobit(uint64_t x)
{
	int n = 0;
	while (!((x >> n) & 1))
		n++;
	return n;
}

static inline int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* ------------------------------------------------------------------ */
/* Exact arithmetic on signed W-bit numbers.                           */

/* Classifies the exact result of OVFOPC (int_add_ovf, int_sub_ovf or
 * int_mul_ovf) on A and B: 0 when it fits in W bits, +1 when it is above
 * MAXINT, -1 when below MININT.  *WRAPPED gets the W-bit result. */
static inline int exact_class(ir_opcode ovfopc, int w, int64_t a, int64_t b,
			      int64_t *wrapped)
{
	uint64_t args[2] = {canon(w, a), canon(w, b)};
	bool ovf = false;
	uint64_t r = sem_eval(ovfopc, w, args, &ovf);
	if (wrapped)
		*wrapped = sem_signed(w, r);
	if (!ovf)
		return 0;
	/* A sum overflows only with operands of the same sign, a difference
	 * only with different signs: the side is A's.  A product: above MAXINT
	 * when the factors have the same sign. */
	if (!ir_op_has(ovfopc, IRF_MULTIPLIER))
		return a >= 0 ? 1 : -1;
	return (a < 0) == (b < 0) ? 1 : -1;
}

/* The exact result clamped to the W-bit range. */
static inline int64_t sat(ir_opcode ovfopc, int w, int64_t a, int64_t b)
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

static inline tnum tn_of(const bnd *b)
{
	tnum t = {b->val, b->mask};
	return t;
}

static inline tnum tn_const(uint64_t c)
{
	tnum t = {c, 0};
	return t;
}

static inline tnum tn_norm(int w, uint64_t v, uint64_t m)
{
	uint64_t M = sem_allones(w);
	tnum t = {v & ~m & M, m & M};
	return t;
}

/* The eBPF verifier's tnum arithmetic (kernel/bpf/tnum.c), computed
 * modulo 2^64 and then truncated, which equals computing modulo 2^W. */
static inline tnum tn_add(int w, tnum a, tnum b)
{
	uint64_t sm = a.m + b.m, sv = a.v + b.v;
	uint64_t sigma = sm + sv, chi = sigma ^ sv;
	uint64_t mu = chi | a.m | b.m;
	return tn_norm(w, sv, mu);
}

static inline tnum tn_sub(int w, tnum a, tnum b)
{
	uint64_t dv = a.v - b.v;
	uint64_t alpha = dv + a.m, beta = dv - b.m;
	uint64_t chi = alpha ^ beta, mu = chi | a.m | b.m;
	return tn_norm(w, dv, mu);
}

static inline tnum tn_and(int w, tnum a, tnum b)
{
	uint64_t alpha = a.v | a.m, beta = b.v | b.m;
	uint64_t v = a.v & b.v;
	return tn_norm(w, v, alpha & beta & ~v);
}

static inline tnum tn_or(int w, tnum a, tnum b)
{
	uint64_t v = a.v | b.v;
	return tn_norm(w, v, (a.m | b.m) & ~v);
}

static inline tnum tn_xor(int w, tnum a, tnum b)
{
	uint64_t mu = a.m | b.m;
	return tn_norm(w, a.v ^ b.v, mu);
}

static inline tnum tn_lshift(int w, tnum a, int k)
{
	return tn_norm(w, a.v << k, a.m << k);
}

static inline tnum tn_urshift(int w, tnum a, int k)
{
	return tn_norm(w, a.v >> k, a.m >> k);
}

static inline tnum tn_arshift(int w, tnum a, int k)
{
	uint64_t kk = (uint64_t)k;
	uint64_t v = sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){a.v, kk}, NULL);
	uint64_t m = sem_eval(IR_INT_RSHIFT, w, (uint64_t[]){a.m, kk}, NULL);
	return tn_norm(w, v, m);
}

/* Multiplication as in the eBPF verifier (proved sound by Vishwanathan et
 * al., "Sound, Precise, and Fast Abstract Interpretation with Tristate
 * Numbers", CGO 2022). */
static inline tnum tn_mul(int w, tnum a, tnum b)
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

static inline tnum tn_join(int w, tnum a, tnum b)
{
	uint64_t m = a.m | b.m | (a.v ^ b.v);
	return tn_norm(w, a.v, m);
}

/* Intersection; false when the two disagree on a bit both know. */
static inline bool tn_meet(tnum *a, tnum b)
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
static inline bool tn_umin_ge(int w, uint64_t val, uint64_t mask, uint64_t L,
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
static inline bool tn_umax_le(int w, uint64_t val, uint64_t mask, uint64_t H,
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
static inline bool tn_smin_ge(int w, tnum t, int64_t lo, int64_t *out)
{
	uint64_t S = sem_minint(w), r;
	if (!tn_umin_ge(w, t.v ^ (S & ~t.m), t.m, canon(w, lo) ^ S, &r))
		return false;
	*out = sem_signed(w, r ^ S);
	return true;
}

static inline bool tn_smax_le(int w, tnum t, int64_t hi, int64_t *out)
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
static inline tnum range_prefix(int w, int64_t lo, int64_t hi)
{
	if ((lo < 0) != (hi < 0))
		return tn_norm(w, 0, ~UINT64_C(0));
	uint64_t ulo = canon(w, lo), uhi = canon(w, hi);
	uint64_t d = ulo ^ uhi;
	uint64_t pm = d ? lowmask(hibit(d) + 1) : 0;
	return tn_norm(w, ulo, pm);
}

/* ---- forward transfer helpers (bounds.c) ------------------------------ */

bnd bnf_add(const bnd *a, const bnd *b);

bnd bnf_sub(const bnd *a, const bnd *b);

bool bnf_mul_corners(const bnd *a, const bnd *b, int64_t *lo, int64_t *hi);

bnd bnf_xor(const bnd *a, const bnd *b);

bnd bnf_neg(const bnd *a, uint64_t bugs);

bnd bnf_invert(const bnd *a);

bnd bnf_shift_by(ir_opcode opc, const bnd *a, uint64_t k);

int64_t bnf_sdiv(int w, int64_t x, int64_t y);

#endif
