#include "sem.h"

bool sem_evaluable(ir_opcode opc)
{
	return ir_op_has(opc, IRF_PURE) || ir_op_has(opc, IRF_OVF);
}

/* Shift counts are read as unsigned W-bit numbers; a count of W or more
 * shifts every bit out (the SMT-LIB bvshl/bvlshr/bvashr rule). */
static uint64_t shl(int w, uint64_t x, uint64_t n)
{
	return n >= (uint64_t)w ? 0 : sem_mask(w, x << n);
}

static uint64_t lshr(int w, uint64_t x, uint64_t n)
{
	return n >= (uint64_t)w ? 0 : x >> n;
}

static uint64_t ashr(int w, uint64_t x, uint64_t n)
{
	bool neg = sem_is_negative(w, x);
	if (n >= (uint64_t)w)
		return neg ? sem_allones(w) : 0;
	uint64_t r = x >> n;
	if (neg && n > 0)
		r |= sem_allones(w) & ~(sem_allones(w) >> n);
	return r;
}

/* int_signext(x, n): sign-extend from the low n bytes.  n is read as an
 * unsigned number: n = 0 gives 0, n >= W/8 leaves x unchanged. */
static uint64_t signext(int w, uint64_t x, uint64_t n)
{
	if (n == 0)
		return 0;
	if (n >= (uint64_t)(w / 8))
		return x;
	int bits = (int)n * 8;
	return sem_from_signed(w, sem_signed(bits, sem_mask(bits, x)));
}

uint64_t sem_umulh(int w, uint64_t x, uint64_t y)
{
	if (w < 64)
		return (x * y) >> w; /* both < 2^32, so the product fits */
	uint64_t xl = x & 0xffffffffu, xh = x >> 32;
	uint64_t yl = y & 0xffffffffu, yh = y >> 32;
	uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t sem_py_div(int w, uint64_t x, uint64_t y)
{
	if (y == 0)
		return 0;
	if (x == sem_minint(w) && y == sem_allones(w))
		return x; /* MININT / -1 wraps */
	int64_t a = sem_signed(w, x), b = sem_signed(w, y);
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q -= 1;
	return sem_from_signed(w, q);
}

uint64_t sem_py_mod(int w, uint64_t x, uint64_t y)
{
	if (y == 0)
		return x;
	if (x == sem_minint(w) && y == sem_allones(w))
		return 0;
	int64_t a = sem_signed(w, x), b = sem_signed(w, y);
	int64_t r = a % b;
	if (r != 0 && ((r < 0) != (b < 0)))
		r += b;
	return sem_from_signed(w, r);
}

/* Overflow of the exact signed result, computed without undefined
 * behaviour: sign-extend to 64 bits and use unsigned arithmetic. */
static bool add_ovf(int w, uint64_t x, uint64_t y)
{
	uint64_t r = sem_mask(w, x + y);
	bool sx = sem_is_negative(w, x), sy = sem_is_negative(w, y);
	return sx == sy && sem_is_negative(w, r) != sx;
}

static bool sub_ovf(int w, uint64_t x, uint64_t y)
{
	uint64_t r = sem_mask(w, x - y);
	bool sx = sem_is_negative(w, x), sy = sem_is_negative(w, y);
	return sx != sy && sem_is_negative(w, r) != sx;
}

static bool mul_ovf(int w, uint64_t x, uint64_t y)
{
	int64_t a = sem_signed(w, x), b = sem_signed(w, y);
	if (w < 64) {
		/* |a|, |b| <= 2^31, so the exact product fits in int64. */
		int64_t p = a * b;
		return p != sem_signed(w, sem_from_signed(w, p));
	}
	if (a == 0 || b == 0)
		return false;
	/* The unsigned magnitude of the product must fit below 2^63 (or be
	 * exactly 2^63 when the result is negative). */
	uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
	uint64_t ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
	bool neg = (a < 0) != (b < 0);
	if (sem_umulh(64, ua, ub) != 0)
		return true;
	uint64_t mag = ua * ub;
	return neg ? mag > (UINT64_C(1) << 63) : mag >= (UINT64_C(1) << 63);
}

static uint64_t b2v(bool b)
{
	return b ? 1 : 0;
}

uint64_t sem_eval(ir_opcode opc, int w, const uint64_t *a, bool *ovf)
{
	if (ovf)
		*ovf = false;
	switch (opc) {
	case IR_INT_ADD: return sem_mask(w, a[0] + a[1]);
	case IR_INT_SUB: return sem_mask(w, a[0] - a[1]);
	case IR_INT_MUL: return sem_mask(w, a[0] * a[1]);
	case IR_INT_AND: return a[0] & a[1];
	case IR_INT_OR: return a[0] | a[1];
	case IR_INT_XOR: return a[0] ^ a[1];
	case IR_INT_LSHIFT: return shl(w, a[0], a[1]);
	case IR_INT_RSHIFT: return ashr(w, a[0], a[1]);
	case IR_UINT_RSHIFT: return lshr(w, a[0], a[1]);
	case IR_INT_NEG: return sem_mask(w, 0 - a[0]);
	case IR_INT_INVERT: return sem_mask(w, ~a[0]);
	case IR_INT_SIGNEXT: return signext(w, a[0], a[1]);
	case IR_UINT_MUL_HIGH: return sem_umulh(w, a[0], a[1]);
	case IR_INT_FORCE_GE_ZERO: return sem_is_negative(w, a[0]) ? 0 : a[0];
	case IR_SAME_AS_I: return a[0];
	case IR_INT_PY_DIV: return sem_py_div(w, a[0], a[1]);
	case IR_INT_PY_MOD: return sem_py_mod(w, a[0], a[1]);
	case IR_INT_EQ: return b2v(a[0] == a[1]);
	case IR_INT_NE: return b2v(a[0] != a[1]);
	case IR_INT_LT: return b2v(sem_signed(w, a[0]) < sem_signed(w, a[1]));
	case IR_INT_LE: return b2v(sem_signed(w, a[0]) <= sem_signed(w, a[1]));
	case IR_INT_GT: return b2v(sem_signed(w, a[0]) > sem_signed(w, a[1]));
	case IR_INT_GE: return b2v(sem_signed(w, a[0]) >= sem_signed(w, a[1]));
	case IR_UINT_LT: return b2v(a[0] < a[1]);
	case IR_UINT_LE: return b2v(a[0] <= a[1]);
	case IR_UINT_GT: return b2v(a[0] > a[1]);
	case IR_UINT_GE: return b2v(a[0] >= a[1]);
	case IR_INT_IS_TRUE: return b2v(a[0] != 0);
	case IR_INT_IS_ZERO: return b2v(a[0] == 0);
	case IR_PTR_EQ: return b2v(a[0] == a[1]);
	case IR_PTR_NE: return b2v(a[0] != a[1]);
	case IR_INT_ADD_OVF:
		if (ovf)
			*ovf = add_ovf(w, a[0], a[1]);
		return sem_mask(w, a[0] + a[1]);
	case IR_INT_SUB_OVF:
		if (ovf)
			*ovf = sub_ovf(w, a[0], a[1]);
		return sem_mask(w, a[0] - a[1]);
	case IR_INT_MUL_OVF:
		if (ovf)
			*ovf = mul_ovf(w, a[0], a[1]);
		return sem_mask(w, a[0] * a[1]);
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
		return 0; /* not evaluable: see sem_evaluable */
	}
	return 0; /* not an op of the table */
}

bool sem_guard_passes(ir_opcode opc, const uint64_t *a, bool prev_ovf)
{
	switch (opc) {
	case IR_GUARD_TRUE: return a[0] != 0;
	case IR_GUARD_FALSE: return a[0] == 0;
	case IR_GUARD_VALUE: return a[0] == a[1];
	case IR_GUARD_NO_OVERFLOW: return !prev_ovf;
	case IR_GUARD_OVERFLOW: return prev_ovf;
	case IR_GUARD_NONNULL: return a[0] != 0;
	case IR_GUARD_ISNULL: return a[0] == 0;
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
	case IR_INT_MUL_OVF: case IR_GUARD_CLASS: case IR_NEW:
	case IR_NEW_WITH_VTABLE: case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: case IR_SETFIELD_GC: case IR_ESCAPE_N:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT: case IR_LABEL:
	case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return false;
	}
	return false; /* not an op of the table */
}
