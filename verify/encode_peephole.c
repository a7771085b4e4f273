/* encode_peephole.c - cheaper and canonical terms for ops with a constant
 * argument (enc_peephole, encode.h): products by constants as shifts and
 * adds, floor division and modulo by powers of two, by 1 << y and by other
 * constants, and the multiply-high sequences that divide by a constant
 * (divmagic.h) recognized as that division.  Sections: helpers and
 * division by shifted ones; division by a constant; the peephole. */
#include "ir/sem.h"
#include "verify/divmagic.h"
#include "verify/encode_int.h"

/* ---- helpers and division by shifted ones ---------------------------- */

/* K when V is 2^K (K < 64), else -1. */
static int log2_exact(uint64_t v)
{
	if (v == 0 || (v & (v - 1)))
		return -1;
	int k = 0;
	while (v >>= 1)
		k++;
	return k;
}

/* S when T is the term 1 << S (bvshl of the numeral 1), else NULL. */
static Z3_ast shifted_one(Z3_context z, Z3_ast t)
{
	uint64_t one;
	Z3_app app;
	if (!zc_app_of(z, t, Z3_OP_BSHL, 2, &app) ||
	    !zc_numeral(z, zc_arg_of(z, app, 0), &one) || one != 1)
		return NULL;
	return zc_arg_of(z, app, 1);
}

/* x // MININT and x % MININT without a divider: the quotient is 1 for x =
 * MININT, -1 for x > 0 and 0 otherwise, and x % MININT = x - MININT * (x //
 * MININT), which is x + MININT for x > 0 and x otherwise (0 for x =
 * MININT). */
static Z3_ast by_minint(zc_scope *s, int w, ir_opcode opc, Z3_ast x)
{
	Z3_context z = s->z;
	unsigned uw = (unsigned)w;
	Z3_ast zero = zc_bv(s, uw, 0), min = zc_bv(s, uw, sem_minint(w));
	Z3_ast pos = K(s, Z3_mk_bvsgt(z, x, zero));
	Z3_ast is_min = K(s, Z3_mk_eq(z, x, min));
	if (opc == IR_INT_PY_DIV)
		return K(s,
			 Z3_mk_ite(z, is_min, zc_bv(s, uw, 1),
				   K(s, Z3_mk_ite(z, pos,
						  zc_bv(s, uw, sem_allones(w)),
						  zero))));
	return K(s, Z3_mk_ite(z, pos, K(s, Z3_mk_bvadd(z, x, min)),
			      K(s, Z3_mk_ite(z, is_min, zero, x))));
}

/* Floor division and modulo of X by 1 << S without a divider, by cases on
 * the shift count S (read as unsigned, as int_lshift does):
 *  - S >= W: the divisor is 0, so x // 0 = 0 and x % 0 = x;
 *  - S = W - 1: the divisor is MININT (by_minint);
 *  - otherwise the divisor is a positive 2^S: an arithmetic shift and a
 *    mask, as for a constant power of two.
 * Traces compute "x // (1 << y)" where the optimizer turns it into
 * "x >> y"; with a general divider such pairs time out at 64 bits. */
static Z3_ast by_shifted_one(zc_scope *s, int w, ir_opcode opc, Z3_ast x,
			     Z3_ast sh)
{
	Z3_context z = s->z;
	unsigned uw = (unsigned)w;
	Z3_ast zero = zc_bv(s, uw, 0);
	Z3_ast d = K(s, Z3_mk_bvshl(z, zc_bv(s, uw, 1), sh));
	Z3_ast big = K(s, Z3_mk_bvuge(z, sh, zc_bv(s, uw, uw)));
	Z3_ast top = K(s, Z3_mk_eq(z, sh, zc_bv(s, uw, uw - 1)));
	Z3_ast by0, bypow, bymin = by_minint(s, w, opc, x);
	if (opc == IR_INT_PY_DIV) {
		by0 = zero;
		bypow = K(s, Z3_mk_bvashr(z, x, sh));
	} else {
		by0 = x;
		bypow =
		    K(s, Z3_mk_bvand(z, x,
				     K(s, Z3_mk_bvsub(z, d, zc_bv(s, uw, 1)))));
	}
	return K(s,
		 Z3_mk_ite(z, big, by0, K(s, Z3_mk_ite(z, top, bymin, bypow))));
}

/* ---- division by a constant ------------------------------------------ */

/* A commutative term in canonical_order, so that the terms built here are
 * the very terms the ops build. */
static Z3_ast mk_comm(zc_scope *s, Z3_ast (*mk)(Z3_context, Z3_ast, Z3_ast),
		      Z3_ast a, Z3_ast b)
{
	Z3_ast ab[2] = {a, b};
	enc_canonical_order(s->z, ab);
	return K(s, mk(s->z, ab[0], ab[1]));
}

/* How many of T's top bits are 0 by its shape alone, whatever the inputs
 * (DEPTH levels down): a numeral's; an AND's, the most of either side's;
 * a shift right by a constant C adds C (an arithmetic one only to a term
 * whose sign bit is 0, which it shifts in).  json_pretty's random numbers,
 * "(x & 0x7fffffff) >> 10", have 43. */
static int known_lz(Z3_context z, int w, Z3_ast t, int depth)
{
	Z3_app app;
	uint64_t c;
	if (zc_numeral(z, t, &c)) {
		int n = 0;
		while (n < w && !((c >> (w - 1 - n)) & 1))
			n++;
		return n;
	}
	if (depth == 0)
		return 0;
	if (zc_app_of(z, t, Z3_OP_BAND, 2, &app)) {
		int a = known_lz(z, w, zc_arg_of(z, app, 0), depth - 1);
		int b = known_lz(z, w, zc_arg_of(z, app, 1), depth - 1);
		return a > b ? a : b;
	}
	bool lshr = zc_app_of(z, t, Z3_OP_BLSHR, 2, &app);
	if (!lshr && !zc_app_of(z, t, Z3_OP_BASHR, 2, &app))
		return 0;
	if (!zc_numeral(z, zc_arg_of(z, app, 1), &c))
		return 0;
	int a = known_lz(z, w, zc_arg_of(z, app, 0), depth - 1);
	if (!lshr && a == 0)
		return 0;
	return c >= (uint64_t)(w - a) ? w : a + (int)c;
}

/* Whether the sign bit of T is 0 by its shape alone, whatever the inputs:
 * x ^ (x >> (W-1)), or a shape with a known leading 0 (known_lz: a mask
 * without the sign bit, a shift right, and since session 37 an arithmetic
 * shift right of such a shape and an AND with one: json_pretty's "(x &
 * 0x7fffffff) >> 10 // 6", whose multiply-high stayed a 128-bit product). */
static bool sign_bit_clear(Z3_context z, int w, Z3_ast t)
{
	Z3_app app, sh;
	uint64_t c;
	if (known_lz(z, w, t, 4) > 0)
		return true;
	if (!zc_app_of(z, t, Z3_OP_BXOR, 2, &app))
		return false;
	for (unsigned i = 0; i < 2; i++)
		if (zc_app_of(z, zc_arg_of(z, app, i), Z3_OP_BASHR, 2, &sh) &&
		    zc_arg_of(z, sh, 0) == zc_arg_of(z, app, 1 - i) &&
		    zc_numeral(z, zc_arg_of(z, sh, 1), &c) &&
		    c == (uint64_t)w - 1)
			return true;
	return false;
}

/* n /u k for a constant k > 0, on as few bits as N's known leading zeros
 * leave (known_lz): n < 2^m makes n /u k the m-bit quotient of its low m
 * bits, zero-extended, and 0 when k >= 2^m.  A divider's circuit grows
 * with the square of its width: json_pretty's "% 6" of a 21-bit value
 * took Z3 9 s at 64 bits. */
static Z3_ast udiv_const(zc_scope *s, int w, Z3_ast n, uint64_t k)
{
	unsigned uw = (unsigned)w;
	int lz = known_lz(s->z, w, n, 4);
	if (lz < 8)
		return K(s, Z3_mk_bvudiv(s->z, n, zc_bv(s, uw, k)));
	unsigned m = uw - (unsigned)lz;
	if (m == 0 || (m < 64 && k >= (UINT64_C(1) << m)))
		return zc_bv(s, uw, 0);
	Z3_ast lo = K(s, Z3_mk_extract(s->z, m - 1, 0, n));
	Z3_ast q = K(s, Z3_mk_bvudiv(s->z, lo, zc_bv(s, m, k)));
	return K(s, Z3_mk_zero_ext(s->z, (unsigned)lz, q));
}

/* floor(x / k) for a constant k > 0, in the form every division by a
 * constant is given: with t = x >> (W-1) (0 or -1), x ^ t is x for x >= 0
 * and -x-1 >= 0 for x < 0, and floor(x / k) == ((x ^ t) /u k) ^ t (for x <
 * 0: floor(x / k) = -ceil(-x / k) = -(floor((-x-1) / k) + 1) = ~floor((-x-1)
 * / k)).  This is the shape PyPy's intdiv.py and our optimizer emit, with
 * the unsigned division written as a multiply-high (divmagic.h), so the two
 * sides of such a pair become one term. */
static Z3_ast floordiv_const(zc_scope *s, int w, Z3_ast x, uint64_t k)
{
	unsigned uw = (unsigned)w;
	if (sign_bit_clear(s->z, w, x))
		return udiv_const(s, w, x, k); /* t is 0: x /u k */
	Z3_ast t = K(s, Z3_mk_bvashr(s->z, x, zc_bv(s, uw, uw - 1)));
	Z3_ast n = mk_comm(s, Z3_mk_bvxor, x, t);
	Z3_ast q = udiv_const(s, w, n, k);
	return mk_comm(s, Z3_mk_bvxor, q, t);
}

/* X << K at width W. */
static Z3_ast shl_by(zc_scope *s, int w, Z3_ast x, int k)
{
	if (k == 0)
		return x;
	return K(s, Z3_mk_bvshl(s->z, x, zc_bv(s, (unsigned)w, (uint64_t)k)));
}

/* X * C as shifts when C or -C has at most two bits set: (x << a) + (x << b)
 * or -(x << k).  A product by such a constant is an adder or a negation;
 * as a product the abstraction hides it behind a function and the exact
 * solver bit-blasts a multiplier.  NULL for other constants. */
static Z3_ast mul_few_bits(zc_scope *s, int w, Z3_ast x, uint64_t c)
{
	uint64_t neg = (0 - c) & sem_allones(w);
	int k = log2_exact(neg);
	if (k >= 0)
		return K(s, Z3_mk_bvneg(s->z, shl_by(s, w, x, k)));
	uint64_t low = c & (0 - c), high = c & ~low;
	int a = log2_exact(high), b = log2_exact(low);
	if (a < 0 || b < 0)
		return NULL;
	Z3_ast u = shl_by(s, w, x, a), v = shl_by(s, w, x, b);
	return u && v ? K(s, Z3_mk_bvadd(s->z, u, v)) : NULL;
}

/* The factor 2^K of a shift by the numeral K at width W (0 when K >= W). */
static bool shift_factor(Z3_context z, Z3_ast t, int w, Z3_ast *y, uint64_t *c)
{
	Z3_app a;
	uint64_t k;
	if (!zc_app_of(z, t, Z3_OP_BSHL, 2, &a) ||
	    !zc_numeral(z, zc_arg_of(z, a, 1), &k))
		return false;
	*y = zc_arg_of(z, a, 0);
	*c = k >= (uint64_t)w ? 0 : (uint64_t)1 << k;
	return true;
}

/* Y times the shift factor of T, or T itself (factor 1). */
static Z3_ast shifted(Z3_context z, Z3_ast t, int w, uint64_t *c)
{
	Z3_ast y;
	if (shift_factor(z, t, w, &y, c))
		return y;
	*c = 1;
	return t;
}

/* X as Y * C1 when it is a product by a constant in one of the forms
 * mul_const gives (a bvmul with a numeral, a shift by a numeral, shifts
 * and an add or a negation), one level deep. */
static bool const_factor(Z3_context z, Z3_ast x, int w, Z3_ast *y, uint64_t *c1)
{
	Z3_app a;
	uint64_t k, ku, kv;
	if (zc_app_of(z, x, Z3_OP_BMUL, 2, &a)) {
		for (unsigned i = 0; i < 2; i++)
			if (zc_numeral(z, zc_arg_of(z, a, i), &k)) {
				*y = zc_arg_of(z, a, 1 - i);
				*c1 = k;
				return true;
			}
		return false;
	}
	if (shift_factor(z, x, w, y, c1))
		return true;
	/* -(y << k), but not -y: that is int_neg's term too, which a lemma
	 * may need to find whole. */
	if (zc_app_of(z, x, Z3_OP_BNEG, 1, &a) &&
	    shift_factor(z, zc_arg_of(z, a, 0), w, y, &k)) {
		*c1 = (0 - k) & sem_allones(w);
		return true;
	}
	if (zc_app_of(z, x, Z3_OP_BADD, 2, &a)) {
		Z3_ast u = shifted(z, zc_arg_of(z, a, 0), w, &ku);
		Z3_ast v = shifted(z, zc_arg_of(z, a, 1), w, &kv);
		if (u != v || (ku == 1 && kv == 1))
			return false;
		*y = u;
		*c1 = (ku + kv) & sem_allones(w);
		return true;
	}
	return false;
}

/* -X: -(a - b) is b - a and -(-y) is y, as the optimizer writes them. */
static Z3_ast negate(zc_scope *s, Z3_ast x)
{
	Z3_app a;
	if (zc_app_of(s->z, x, Z3_OP_BSUB, 2, &a))
		return K(s, Z3_mk_bvsub(s->z, zc_arg_of(s->z, a, 1),
					zc_arg_of(s->z, a, 0)));
	if (zc_app_of(s->z, x, Z3_OP_BNEG, 1, &a))
		return zc_arg_of(s->z, a, 0);
	return K(s, Z3_mk_bvneg(s->z, x));
}

/* x + -b is x - b, and x - -b is x + b, as the optimizer writes them
 * (then -(x + -b) is b - x, negate); NULL for other shapes. */
static Z3_ast add_of_neg(zc_scope *s, ir_opcode opc, const Z3_ast *a)
{
	Z3_app n;
	if (opc == IR_INT_SUB && zc_app_of(s->z, a[1], Z3_OP_BNEG, 1, &n))
		return mk_comm(s, Z3_mk_bvadd, a[0], zc_arg_of(s->z, n, 0));
	if (opc != IR_INT_ADD)
		return NULL;
	for (int i = 0; i < 2; i++)
		if (zc_app_of(s->z, a[i], Z3_OP_BNEG, 1, &n))
			return K(s, Z3_mk_bvsub(s->z, a[1 - i],
						zc_arg_of(s->z, n, 0)));
	return NULL;
}

/* X * C in the one form every product by a constant is given, whatever
 * the nesting: a product by a product by a constant is one product by
 * their product (the optimizer folds (x * a) * b into x * (a * b)), then
 * 0, X, a shift, mul_few_bits' shifts, or a bvmul in canonical order. */
static Z3_ast mul_const(zc_scope *s, int w, Z3_ast x, uint64_t c)
{
	Z3_ast y;
	uint64_t c1;
	/* x * -1 is int_neg(x), x kept whole as the optimizer does: a
	 * lemma may replace x, and the original's "x * -1" must still
	 * meet the optimizer's "int_neg(x)" when x is a product. */
	if ((c & sem_allones(w)) == sem_allones(w))
		return negate(s, x);
	if (const_factor(s->z, x, w, &y, &c1)) {
		x = y;
		c = (c * c1) & sem_allones(w);
	}
	if (c == 0)
		return zc_bv(s, (unsigned)w, 0);
	if (c == 1)
		return x;
	int k = log2_exact(c);
	if (k >= 0)
		return shl_by(s, w, x, k);
	Z3_ast r = mul_few_bits(s, w, x, c);
	return r ? r : mk_comm(s, Z3_mk_bvmul, x, zc_bv(s, (unsigned)w, c));
}

/* x % k == x - floor(x / k) * k for k > 0: the true result is in [0, k),
 * so computing it modulo 2^W loses nothing. */
static Z3_ast floormod_const(zc_scope *s, int w, Z3_ast x, uint64_t k)
{
	Z3_ast q = floordiv_const(s, w, x, k);
	Z3_ast p = mul_const(s, w, q, k);
	return K(s, Z3_mk_bvsub(s->z, x, p));
}

/* x // d and x % d for a constant 0 < d < 2^(W-1): an arithmetic shift and
 * a mask for a power of two, floordiv_const's form otherwise. */
static Z3_ast div_positive(zc_scope *s, int w, Z3_ast x, uint64_t d)
{
	int k = log2_exact(d);
	if (k < 0)
		return floordiv_const(s, w, x, d);
	return K(s, Z3_mk_bvashr(s->z, x, zc_bv(s, (unsigned)w, (uint64_t)k)));
}

static Z3_ast mod_positive(zc_scope *s, int w, Z3_ast x, uint64_t d)
{
	if (log2_exact(d) < 0)
		return floormod_const(s, w, x, d);
	return K(s, Z3_mk_bvand(s->z, x, zc_bv(s, (unsigned)w, d - 1)));
}

/* x // c and x % c for a constant c other than 0 and -1 (enc_peephole
 * takes those).  A negative c = -d other than MININT comes from d: with q =
 * x // d and m = x % d in [0, d), x % c is 0 when m is 0 and m - d
 * otherwise, and x // c = (x - x % c) / c is -q when m is 0 and -q - 1 = ~q
 * otherwise.  Without this, "x % -16" bit-blasts a whole 64-bit divider in
 * Z3's incremental solver, which overran a 50 ms budget by 1.5 s and 280
 * MB of memory. */
static Z3_ast by_constant(zc_scope *s, int w, ir_opcode opc, Z3_ast x,
			  uint64_t c)
{
	Z3_context z = s->z;
	unsigned uw = (unsigned)w;
	if (!sem_is_negative(w, c))
		return opc == IR_INT_PY_DIV ? div_positive(s, w, x, c)
					    : mod_positive(s, w, x, c);
	if (c == sem_minint(w))
		return by_minint(s, w, opc, x);
	uint64_t d = sem_mask(w, 0 - c);
	Z3_ast m = mod_positive(s, w, x, d);
	Z3_ast m0 = K(s, Z3_mk_eq(z, m, zc_bv(s, uw, 0)));
	if (opc == IR_INT_PY_MOD)
		return K(s,
			 Z3_mk_ite(z, m0, zc_bv(s, uw, 0),
				   K(s, Z3_mk_bvadd(z, m, zc_bv(s, uw, c)))));
	Z3_ast q = div_positive(s, w, x, d);
	return K(s, Z3_mk_ite(z, m0, K(s, Z3_mk_bvneg(z, q)),
			      K(s, Z3_mk_bvnot(z, q))));
}

/* The constant M when T is zero_ext(M) or a numeral. */
static bool zext_numeral(Z3_context z, Z3_ast t, uint64_t *m)
{
	Z3_app app;
	if (zc_app_of(z, t, Z3_OP_ZERO_EXT, 1, &app))
		t = zc_arg_of(z, app, 0);
	return zc_numeral(z, t, m);
}

/* Whether T is enc_umulh's term for uint_mul_high(N, M) with a constant M:
 * extract[2W-1:W](zero_ext(N) * zero_ext(M)), in either order. */
static bool umulh_const(Z3_context z, Z3_ast t, Z3_ast *n, uint64_t *m)
{
	Z3_app ex, mul, ext;
	if (!zc_app_of(z, t, Z3_OP_EXTRACT, 1, &ex) ||
	    !zc_app_of(z, zc_arg_of(z, ex, 0), Z3_OP_BMUL, 2, &mul))
		return false;
	for (unsigned i = 0; i < 2; i++)
		if (zext_numeral(z, zc_arg_of(z, mul, i), m) &&
		    zc_app_of(z, zc_arg_of(z, mul, 1 - i), Z3_OP_ZERO_EXT, 1,
			      &ext)) {
			*n = zc_arg_of(z, ext, 0);
			return true;
		}
	return false;
}

/* uint_mul_high(n, M) >> S, when divmagic.h proves it equal to n /u d:
 *  - when the sign bit of n is clear by its shape, it is n /u d itself;
 *  - otherwise, when the identity holds for n < 2^(W-1), it is
 *    "n >= 0 ? floordiv_const(n, d) : original": the first branch is the
 *    term the original trace's "n // d" has (for n >= 0 it equals n /u d),
 *    so under a guard that n >= 0 the two sides agree without a multiplier
 *    (verify/abstract.h hides what is left).
 * NULL when the identity does not hold or A is not that shape. */
static Z3_ast umulh_shift(zc_scope *s, int w, const Z3_ast *a)
{
	Z3_context z = s->z;
	uint64_t m, sh, d;
	Z3_ast n;
	if (!zc_numeral(z, a[1], &sh) || sh >= (uint64_t)w ||
	    !umulh_const(z, a[0], &n, &m) ||
	    !dm_divisor(w, m, (int)sh, w - 1, &d))
		return NULL;
	if (sign_bit_clear(z, w, n))
		return udiv_const(s, w, n, d);
	if (sem_is_negative(w, d))
		return NULL;
	Z3_ast orig = K(s, Z3_mk_bvlshr(z, a[0], a[1]));
	return K(s, Z3_mk_ite(z, K(s, Z3_mk_not(z, enc_is_neg(s, w, n))),
			      floordiv_const(s, w, n, d), orig));
}

/* X op C when C leaves X as it is or decides the result alone: x + 0,
 * x - 0, x ^ 0, x | 0, x & -1 and shifts by 0 are x; x & 0 is 0 and
 * x | -1 is -1.  The generator writes such ops and the optimizer drops
 * them, and "x + (x >> 0)" must still be the term of "x + x".  NULL
 * otherwise. */
static Z3_ast neutral(zc_scope *s, int w, ir_opcode opc, Z3_ast x, uint64_t c)
{
	uint64_t m = sem_allones(w);
	switch (opc) {
	case IR_INT_ADD:
	case IR_INT_SUB:
	case IR_INT_XOR: return c == 0 ? x : NULL;
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: {
		/* shifting out every bit a known-zero top leaves is 0: the
		 * sign of a value known not negative (PyPy's signed division
		 * sequence on a masked value) */
		int lz = c == 0 ? 0 : known_lz(s->z, w, x, 4);
		if (lz > 0 && c >= (uint64_t)(w - lz))
			return zc_bv(s, (unsigned)w, 0);
		return c == 0 ? x : NULL;
	}
	case IR_INT_OR:
		return c == 0 ? x : c == m ? zc_bv(s, (unsigned)w, m) : NULL;
	case IR_INT_AND:
		return c == m ? x : c == 0 ? zc_bv(s, (unsigned)w, 0) : NULL;
	/* clang-format off */
	case IR_INT_MUL: case IR_INT_LSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT:
	case IR_INT_LE: case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT:
	case IR_UINT_LE: case IR_UINT_GT: case IR_UINT_GE:
	case IR_INT_IS_TRUE: case IR_INT_IS_ZERO: case IR_PTR_EQ:
	case IR_PTR_NE: case IR_INT_ADD_OVF: case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: case IR_GUARD_TRUE: case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: case IR_GUARD_CLASS: case IR_GUARD_NONNULL:
	case IR_GUARD_ISNULL: case IR_NEW: case IR_NEW_WITH_VTABLE:
	case IR_GETFIELD_GC_I: case IR_GETFIELD_GC_R: case IR_SETFIELD_GC:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT:
	case IR_LABEL: case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return NULL;
	}
	return NULL; /* not an op of the table */
}

/* ---- the peephole -------------------------------------------------- */

/* Cheaper or canonical terms for ops with a constant argument, each equal
 * to the general encoding for every input (the tests check them against
 * the interpreter): multiplying by 2^k is shifting left; floor division
 * and modulo by a positive 2^k are an arithmetic shift and a mask, and by
 * a negative constant they come from those by its opposite; the
 * high half of x * 2^k is x >> (W - k); floor division and modulo by any
 * other positive constant, and a multiply-high and shift that divides by
 * one (divmagic.h), take the one form of floordiv_const.  Bit-blasted
 * multipliers and dividers are what makes 64-bit queries slow, and these
 * forms also make "x // 4" and "x >> 2", or "x // 7" and its
 * multiply-high sequence, the same term.  NULL when no rule applies. */
Z3_ast enc_peephole(zc_scope *s, int w, ir_opcode opc, const Z3_ast *a)
{
	uint64_t c;
	int k, x = 0;
	if (opc == IR_INT_NEG)
		return negate(s, a[0]);
	if (!ir_op_has(opc, IRF_PURE) || ir_opinfo_of(opc)->nargs != 2)
		return NULL;
	/* 0 - x is int_neg(x)'s term, as x * -1 is (mul_const). */
	if (opc == IR_INT_SUB && zc_numeral(s->z, a[0], &c) && c == 0)
		return negate(s, a[1]);
	/* x + x is x << 1, as the optimizer writes it: the two forms are
	 * equal adder circuits that a SAT solver takes a second to match. */
	if (opc == IR_INT_ADD && a[0] == a[1])
		return mul_const(s, w, a[0], 2);
	/* A shift by a constant is a product by a power of two, in
	 * mul_const's form: x * 3 << 2 and x * 12 are one term. */
	if (opc == IR_INT_LSHIFT && zc_numeral(s->z, a[1], &c))
		return mul_const(s, w, a[0],
				 c >= (uint64_t)w ? 0 : (uint64_t)1 << c);
	/* x & x and x | x are x, x ^ x and x - x are 0: the generator
	 * writes them, and the optimizer folds them. */
	if (a[0] == a[1] && (opc == IR_INT_AND || opc == IR_INT_OR))
		return a[0];
	if (a[0] == a[1] && (opc == IR_INT_XOR || opc == IR_INT_SUB))
		return zc_bv(s, (unsigned)w, 0);
	/* After the rules for one value twice: -b + -b is (-b) << 1. */
	Z3_ast r = add_of_neg(s, opc, a);
	if (r)
		return r;
	/* 0 // y, 0 % y and shifts of 0 are 0, for y = 0 too. */
	if (zc_numeral(s->z, a[0], &c) && c == 0 &&
	    (opc == IR_INT_PY_DIV || opc == IR_INT_PY_MOD ||
	     opc == IR_INT_LSHIFT || opc == IR_INT_RSHIFT ||
	     opc == IR_UINT_RSHIFT))
		return a[0];
	bool konst = true;
	if (zc_numeral(s->z, a[1], &c))
		x = 0;
	else if (ir_op_has(opc, IRF_COMM) && zc_numeral(s->z, a[0], &c))
		x = 1;
	else
		konst = false;
	Z3_ast n = konst ? neutral(s, w, opc, a[x], c) : NULL;
	if (n)
		return n;
	if (opc == IR_UINT_RSHIFT)
		return umulh_shift(s, w, a);
	Z3_ast sh = shifted_one(s->z, a[1]);
	if (sh && (opc == IR_INT_PY_DIV || opc == IR_INT_PY_MOD))
		return by_shifted_one(s, w, opc, a[0], sh);
	if (!konst)
		return NULL;
	unsigned uw = (unsigned)w;
	/* Products by a constant take mul_const's one form (by 0 and 1, which
	 * the generator writes and a fact can make, no multiplier at all). */
	if (opc == IR_INT_MUL)
		return mul_const(s, w, a[x], c);
	if (c == 0 && opc == IR_UINT_MUL_HIGH)
		return zc_bv(s, uw, 0);
	/* Floor division by -1 is negation (MININT // -1 wraps to MININT,
	 * which is -MININT), and the remainder is 0. */
	if (c == sem_allones(w) && x == 0 && opc == IR_INT_PY_DIV)
		return K(s, Z3_mk_bvneg(s->z, a[0]));
	if (c == sem_allones(w) && x == 0 && opc == IR_INT_PY_MOD)
		return zc_bv(s, uw, 0);
	if (c != 0 && (opc == IR_INT_PY_DIV || opc == IR_INT_PY_MOD))
		return by_constant(s, w, opc, a[0], c);
	if ((k = log2_exact(c)) < 0)
		return NULL;
	switch (opc) {
	case IR_UINT_MUL_HIGH:
		if (k == 0)
			return zc_bv(s, uw, 0);
		return K(s, Z3_mk_bvlshr(s->z, a[x],
					 zc_bv(s, uw, (uint64_t)(w - k))));
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_INT_FORCE_GE_ZERO:
	case IR_SAME_AS_I: case IR_INT_PY_DIV: case IR_INT_PY_MOD:
	case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT: case IR_INT_LE:
	case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT: case IR_UINT_LE:
	case IR_UINT_GT: case IR_UINT_GE: case IR_INT_IS_TRUE:
	case IR_INT_IS_ZERO: case IR_PTR_EQ: case IR_PTR_NE:
	case IR_INT_ADD_OVF: case IR_INT_SUB_OVF: case IR_INT_MUL_OVF:
	case IR_GUARD_TRUE: case IR_GUARD_FALSE: case IR_GUARD_VALUE:
	case IR_GUARD_NO_OVERFLOW: case IR_GUARD_OVERFLOW:
	case IR_GUARD_CLASS: case IR_GUARD_NONNULL: case IR_GUARD_ISNULL:
	case IR_NEW: case IR_NEW_WITH_VTABLE: case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: case IR_SETFIELD_GC: case IR_ESCAPE_N:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT: case IR_LABEL:
	case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return NULL;
	}
	return NULL; /* not an op of the table */
}
