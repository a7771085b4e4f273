/*
 * simplify.c - arithmetic simplification and strength reduction.
 *
 * Local rewrites that look at an op, its constant arguments and the ops
 * that define its arguments.  Every rule is an identity of W-bit
 * two's-complement arithmetic that holds for every value at every width
 * (8, 16, 32, 64), wraparound included; rules that need more (a value's
 * range) belong to the bounds pass.  The overflow-checked ops get only the
 * rules that also decide their overflow flag.
 *
 * Each hook handles one op kind; a rule either replaces the op by an
 * existing value (opt_replace) or rewrites it into a cheaper op
 * (opt_rewrite, after which every pass sees the new op).
 */
#include "ir/sem.h"
#include "passes/intdiv.h"
#include "passes/opt_internal.h"

/* ------------------------------------------------------------------ */
/* Matching helpers.                                                   */

static bool is_k(const opt_ctx *c, ir_vid v, uint64_t k)
{
	return opt_is_const_val(c, v, k);
}

static uint64_t ones(const opt_ctx *c)
{
	return sem_allones(c->w);
}

/* Whether V is defined by an OPC op; then *A and *B are its arguments. */
static bool def_is(opt_ctx *c, ir_vid v, ir_opcode opc, ir_vid *a, ir_vid *b)
{
	const ir_op *d = opt_def(c, v);
	if (!d || d->opc != opc)
		return false;
	ir_vid x = d->args[0];
	ir_vid y = d->nargs > 1 ? d->args[1] : IR_NOVAL;
	*a = opt_find(c, x);
	*b = y == IR_NOVAL ? IR_NOVAL : opt_find(c, y);
	return true;
}

/* As def_is for an op whose second argument is a constant (*K). */
static bool def_is_k(opt_ctx *c, ir_vid v, ir_opcode opc, ir_vid *a,
		     uint64_t *k)
{
	ir_vid b;
	return def_is(c, v, opc, a, &b) && opt_const(c, b, k);
}

/* For a commutative op: puts a constant argument second.  Returns false
 * when neither is a constant. */
static bool split_const(const opt_ctx *c, const opt_op *op, ir_vid *v,
			uint64_t *k)
{
	if (opt_const(c, op->args[1], k)) {
		*v = op->args[0];
		return true;
	}
	if (opt_const(c, op->args[0], k)) {
		*v = op->args[1];
		return true;
	}
	return false;
}

static bool is_comparison(const opt_ctx *c, ir_vid v)
{
	const ir_op *d = opt_def(c, v);
	return d && ir_op_has(d->opc, IRF_CMP);
}

/* 2^s == K for 0 < s < W (K as an unsigned W-bit number). */
static bool power_of_two(uint64_t k, int *s)
{
	if (k < 2 || (k & (k - 1)))
		return false;
	int n = 0;
	while (!((k >> n) & 1))
		n++;
	*s = n;
	return true;
}

#define K(x) opt_const_int(c, (x))

/* ------------------------------------------------------------------ */
/* Additive ops.                                                       */

/* x + k where x = a + k2, a - k2 or k2 - a: fold the constants. */
static opt_verdict add_chain(opt_ctx *c, opt_op *op, ir_vid v, uint64_t k)
{
	ir_vid a, b;
	uint64_t k2;
	if (def_is(c, v, IR_INT_ADD, &a, &b)) {
		if (opt_const(c, b, &k2))
			return opt_rewrite(c, op, IR_INT_ADD, a, K(k + k2));
		if (opt_const(c, a, &k2))
			return opt_rewrite(c, op, IR_INT_ADD, b, K(k + k2));
	}
	if (def_is(c, v, IR_INT_SUB, &a, &b)) {
		if (opt_const(c, b, &k2))
			return opt_rewrite(c, op, IR_INT_ADD, a, K(k - k2));
		if (opt_const(c, a, &k2))
			return opt_rewrite(c, op, IR_INT_SUB, K(k + k2), b);
	}
	return OPT_NEXT;
}

static opt_verdict s_add(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0], y = op->args[1], v, a, b;
	uint64_t k;
	if (is_k(c, y, 0))
		return opt_replace(c, op, x);
	if (is_k(c, x, 0))
		return opt_replace(c, op, y);
	if (x == y)
		return opt_rewrite(c, op, IR_INT_LSHIFT, x, K(1));
	if (split_const(c, op, &v, &k))
		return add_chain(c, op, v, k);
	/* (a - b) + b == a, in either order. */
	if (def_is(c, x, IR_INT_SUB, &a, &b) && b == y)
		return opt_replace(c, op, a);
	if (def_is(c, y, IR_INT_SUB, &a, &b) && b == x)
		return opt_replace(c, op, a);
	/* x + -b == x - b */
	if (def_is(c, y, IR_INT_NEG, &a, &b))
		return opt_rewrite(c, op, IR_INT_SUB, x, a);
	if (def_is(c, x, IR_INT_NEG, &a, &b))
		return opt_rewrite(c, op, IR_INT_SUB, y, a);
	return OPT_NEXT;
}

static opt_verdict s_sub(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0], y = op->args[1], a, b;
	uint64_t k, k2;
	if (is_k(c, y, 0))
		return opt_replace(c, op, x);
	if (x == y)
		return opt_replace_const(c, op, 0);
	if (is_k(c, x, 0))
		return opt_rewrite(c, op, IR_INT_NEG, y, IR_NOVAL);
	if (opt_const(c, y, &k)) { /* (x +- k2) - k */
		if (def_is_k(c, x, IR_INT_ADD, &a, &k2))
			return opt_rewrite(c, op, IR_INT_ADD, a, K(k2 - k));
		if (def_is(c, x, IR_INT_ADD, &b, &a) && opt_const(c, b, &k2))
			return opt_rewrite(c, op, IR_INT_ADD, a, K(k2 - k));
		if (def_is_k(c, x, IR_INT_SUB, &a, &k2))
			return opt_rewrite(c, op, IR_INT_SUB, a, K(k2 + k));
		if (def_is(c, x, IR_INT_SUB, &b, &a) && opt_const(c, b, &k2))
			return opt_rewrite(c, op, IR_INT_SUB, K(k2 - k), a);
	}
	if (opt_const(c, x, &k)) { /* k - (y +- k2) */
		if (def_is_k(c, y, IR_INT_ADD, &a, &k2))
			return opt_rewrite(c, op, IR_INT_SUB, K(k - k2), a);
		if (def_is(c, y, IR_INT_ADD, &b, &a) && opt_const(c, b, &k2))
			return opt_rewrite(c, op, IR_INT_SUB, K(k - k2), a);
		if (def_is_k(c, y, IR_INT_SUB, &a, &k2))
			return opt_rewrite(c, op, IR_INT_SUB, K(k + k2), a);
		if (def_is(c, y, IR_INT_SUB, &b, &a) && opt_const(c, b, &k2))
			return opt_rewrite(c, op, IR_INT_ADD, a, K(k - k2));
	}
	/* (a + b) - b == a and (a + b) - a == b; the value of an *_ovf op
	 * wraps like the plain op, so its result qualifies too. */
	if (def_is(c, x, IR_INT_ADD, &a, &b) ||
	    def_is(c, x, IR_INT_ADD_OVF, &a, &b)) {
		if (b == y)
			return opt_replace(c, op, a);
		if (a == y)
			return opt_replace(c, op, b);
	}
	/* (a - b) - a == -b */
	if (def_is(c, x, IR_INT_SUB, &a, &b) && a == y)
		return opt_rewrite(c, op, IR_INT_NEG, b, IR_NOVAL);
	/* x - (x + b) == -b and x - (x - b) == b */
	if (def_is(c, y, IR_INT_ADD, &a, &b)) {
		if (a == x)
			return opt_rewrite(c, op, IR_INT_NEG, b, IR_NOVAL);
		if (b == x)
			return opt_rewrite(c, op, IR_INT_NEG, a, IR_NOVAL);
	}
	if (def_is(c, y, IR_INT_SUB, &a, &b) && a == x)
		return opt_replace(c, op, b);
	/* x - -b == x + b */
	if (def_is(c, y, IR_INT_NEG, &a, &b))
		return opt_rewrite(c, op, IR_INT_ADD, x, a);
	return OPT_NEXT;
}

static opt_verdict s_neg(opt_ctx *c, opt_op *op)
{
	ir_vid a, b;
	if (def_is(c, op->args[0], IR_INT_NEG, &a, &b))
		return opt_replace(c, op, a);
	if (def_is(c, op->args[0], IR_INT_SUB, &a, &b)) /* -(a - b) */
		return opt_rewrite(c, op, IR_INT_SUB, b, a);
	return OPT_NEXT;
}

/* ------------------------------------------------------------------ */
/* Multiplicative ops.                                                 */

static opt_verdict s_mul(opt_ctx *c, opt_op *op)
{
	ir_vid v, a;
	uint64_t k, k2;
	int s;
	if (!split_const(c, op, &v, &k))
		return OPT_NEXT;
	if (k == 0)
		return opt_replace_const(c, op, 0);
	if (k == 1)
		return opt_replace(c, op, v);
	if (k == ones(c))
		return opt_rewrite(c, op, IR_INT_NEG, v, IR_NOVAL);
	if (power_of_two(k, &s)) /* includes 2^(W-1), i.e. MININT */
		return opt_rewrite(c, op, IR_INT_LSHIFT, v, K((uint64_t)s));
	if (def_is_k(c, v, IR_INT_MUL, &a, &k2))
		return opt_rewrite(c, op, IR_INT_MUL, a, K(k * k2));
	return OPT_NEXT;
}

/* floor(x / k) for a constant 3 <= k <= MAXINT that is not a power of
 * two, as PyPy's intdiv.py: with t = x >> (W-1) (0 or -1), x ^ t is
 * non-negative and floor(x / k) == ((x ^ t) / k) ^ t; the unsigned
 * division of a non-negative number is a high multiplication and a shift
 * (intdiv.h).  The last op is written into OP itself (so it keeps OP's
 * name) unless LAST is false, in which case the quotient is returned. */
static ir_vid div_by_magic(opt_ctx *c, opt_op *op, ir_vid x, uint64_t k,
			   bool last)
{
	uint64_t m;
	int s;
	if (!idiv_magic(c->w, k, &m, &s))
		return IR_NOVAL;
	bnd bx = opt_bound(c, x);
	bool nonneg = !bx.empty && bx.lo >= 0;
	ir_vid t = IR_NOVAL, n = x;
	if (!nonneg) {
		t = opt_emit_extra(c, IR_INT_RSHIFT, x, K((uint64_t)c->w - 1));
		n = opt_emit_extra(c, IR_INT_XOR, x, t);
	}
	ir_vid h = opt_emit_extra(c, IR_UINT_MUL_HIGH, n, K(m));
	if (last && nonneg) {
		opt_rewrite(c, op, IR_UINT_RSHIFT, h, K((uint64_t)s));
		return h;
	}
	ir_vid q = opt_emit_extra(c, IR_UINT_RSHIFT, h, K((uint64_t)s));
	if (nonneg)
		return q;
	if (last) {
		opt_rewrite(c, op, IR_INT_XOR, q, t);
		return q;
	}
	return opt_emit_extra(c, IR_INT_XOR, q, t);
}

static opt_verdict s_py_div(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0];
	uint64_t k;
	int s;
	if (is_k(c, x, 0))
		return opt_replace_const(c, op, 0);
	if (!opt_const(c, op->args[1], &k))
		return OPT_NEXT;
	if (k == 0) /* division by zero gives 0 (sem.c) */
		return opt_replace_const(c, op, 0);
	if (k == 1)
		return opt_replace(c, op, x);
	if (k == ones(c)) /* x // -1 == -x, MININT // -1 == MININT */
		return opt_rewrite(c, op, IR_INT_NEG, x, IR_NOVAL);
	/* Floor division by a positive 2^s is an arithmetic shift. */
	if (!sem_is_negative(c->w, k) && power_of_two(k, &s))
		return opt_rewrite(c, op, IR_INT_RSHIFT, x, K((uint64_t)s));
	if (!sem_is_negative(c->w, k) &&
	    div_by_magic(c, op, x, k, true) != IR_NOVAL)
		return OPT_RESTART;
	return OPT_NEXT;
}

static opt_verdict s_py_mod(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0];
	uint64_t k;
	int s;
	if (is_k(c, x, 0))
		return opt_replace_const(c, op, 0);
	if (!opt_const(c, op->args[1], &k))
		return OPT_NEXT;
	if (k == 0) /* x % 0 == x (sem.c) */
		return opt_replace(c, op, x);
	if (k == 1 || k == ones(c))
		return opt_replace_const(c, op, 0);
	/* The floor modulo by a positive 2^s keeps the low s bits. */
	if (!sem_is_negative(c->w, k) && power_of_two(k, &s))
		return opt_rewrite(c, op, IR_INT_AND, x, K(k - 1));
	if (!sem_is_negative(c->w, k)) {
		/* x - floor(x / k) * k; exact, as the result is in [0, k). */
		ir_vid q = div_by_magic(c, op, x, k, false);
		if (q != IR_NOVAL) {
			ir_vid p = opt_emit_extra(c, IR_INT_MUL, q, K(k));
			return opt_rewrite(c, op, IR_INT_SUB, x, p);
		}
	}
	return OPT_NEXT;
}

static opt_verdict s_umulh(opt_ctx *c, opt_op *op)
{
	ir_vid v;
	uint64_t k;
	if (split_const(c, op, &v, &k) && k <= 1) /* x * 1 < 2^W */
		return opt_replace_const(c, op, 0);
	return OPT_NEXT;
}

/* ------------------------------------------------------------------ */
/* Bitwise ops and shifts.                                             */

static opt_verdict s_and(opt_ctx *c, opt_op *op)
{
	ir_vid v, a;
	uint64_t k, k2;
	if (op->args[0] == op->args[1])
		return opt_replace(c, op, op->args[0]);
	if (!split_const(c, op, &v, &k))
		return OPT_NEXT;
	if (k == 0)
		return opt_replace_const(c, op, 0);
	if (k == ones(c))
		return opt_replace(c, op, v);
	if (def_is_k(c, v, IR_INT_AND, &a, &k2))
		return opt_rewrite(c, op, IR_INT_AND, a, K(k & k2));
	return OPT_NEXT;
}

static opt_verdict s_or(opt_ctx *c, opt_op *op)
{
	ir_vid v, a;
	uint64_t k, k2;
	if (op->args[0] == op->args[1])
		return opt_replace(c, op, op->args[0]);
	if (!split_const(c, op, &v, &k))
		return OPT_NEXT;
	if (k == 0)
		return opt_replace(c, op, v);
	if (k == ones(c))
		return opt_replace_const(c, op, ones(c));
	if (def_is_k(c, v, IR_INT_OR, &a, &k2))
		return opt_rewrite(c, op, IR_INT_OR, a, K(k | k2));
	return OPT_NEXT;
}

static opt_verdict s_xor(opt_ctx *c, opt_op *op)
{
	ir_vid v, a;
	uint64_t k, k2;
	if (op->args[0] == op->args[1])
		return opt_replace_const(c, op, 0);
	if (!split_const(c, op, &v, &k))
		return OPT_NEXT;
	if (k == 0)
		return opt_replace(c, op, v);
	if (k == ones(c))
		return opt_rewrite(c, op, IR_INT_INVERT, v, IR_NOVAL);
	if (def_is_k(c, v, IR_INT_XOR, &a, &k2))
		return opt_rewrite(c, op, IR_INT_XOR, a, K(k ^ k2));
	return OPT_NEXT;
}

static opt_verdict s_invert(opt_ctx *c, opt_op *op)
{
	ir_vid a, b;
	if (def_is(c, op->args[0], IR_INT_INVERT, &a, &b))
		return opt_replace(c, op, a);
	return OPT_NEXT;
}

/* Shift counts are unsigned; a count of W or more shifts everything out
 * (sem.c), so shifting by k2 then k is shifting by k + k2 when that is
 * below W, and otherwise gives 0 (or the sign for >>). */
static opt_verdict s_shift(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0], a;
	uint64_t k, k2, w = (uint64_t)c->w;
	if (is_k(c, x, 0))
		return opt_replace_const(c, op, 0);
	if (op->opc == IR_INT_RSHIFT && is_k(c, x, ones(c)))
		return opt_replace_const(c, op, ones(c));
	if (!opt_const(c, op->args[1], &k))
		return OPT_NEXT;
	if (k == 0)
		return opt_replace(c, op, x);
	if (k >= w && op->opc != IR_INT_RSHIFT)
		return opt_replace_const(c, op, 0);
	if (k >= w) /* the sign, like a shift by W-1 */
		return opt_rewrite(c, op, IR_INT_RSHIFT, x, K(w - 1));
	if (def_is_k(c, x, op->opc, &a, &k2) && k2 < w) {
		if (k + k2 < w)
			return opt_rewrite(c, op, op->opc, a, K(k + k2));
		if (op->opc == IR_INT_RSHIFT)
			return opt_rewrite(c, op, op->opc, a, K(w - 1));
		return opt_replace_const(c, op, 0);
	}
	return OPT_NEXT;
}

/* ------------------------------------------------------------------ */
/* Comparisons and other unary ops.                                    */

/* x OP x */
static opt_verdict s_cmp(opt_ctx *c, opt_op *op)
{
	if (op->nargs != 2 || op->args[0] != op->args[1])
		return OPT_NEXT;
	return opt_replace_const(c, op, ir_cmp_reflexive(op->opc) ? 1 : 0);
}

static opt_verdict s_is_true(opt_ctx *c, opt_op *op)
{
	if (is_comparison(c, op->args[0])) /* already 0 or 1 */
		return opt_replace(c, op, op->args[0]);
	return OPT_NEXT;
}

static opt_verdict s_is_zero(opt_ctx *c, opt_op *op)
{
	ir_vid a, b;
	if (def_is(c, op->args[0], IR_INT_IS_ZERO, &a, &b))
		return opt_rewrite(c, op, IR_INT_IS_TRUE, a, IR_NOVAL);
	if (def_is(c, op->args[0], IR_INT_IS_TRUE, &a, &b))
		return opt_rewrite(c, op, IR_INT_IS_ZERO, a, IR_NOVAL);
	return OPT_NEXT;
}

static opt_verdict s_signext(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0], a, b;
	uint64_t n;
	if (!opt_const(c, op->args[1], &n))
		return OPT_NEXT;
	if (n == 0)
		return opt_replace_const(c, op, 0);
	if (n >= (uint64_t)(c->w / 8))
		return opt_replace(c, op, x);
	if (def_is(c, x, IR_INT_SIGNEXT, &a, &b) && b == op->args[1])
		return opt_replace(c, op, x);
	return OPT_NEXT;
}

static opt_verdict s_force_ge_zero(opt_ctx *c, opt_op *op)
{
	ir_vid a, b;
	if (def_is(c, op->args[0], IR_INT_FORCE_GE_ZERO, &a, &b))
		return opt_replace(c, op, op->args[0]);
	return OPT_NEXT;
}

/* ------------------------------------------------------------------ */
/* Overflow-checked ops: only rules that also settle the overflow.     */

/* Whether V is the result of an *_ovf op OPC whose guard_no_overflow
 * passed, so that it equals the exact result; *A, *B its arguments. */
static bool exact_def(opt_ctx *c, ir_vid v, ir_opcode opc, ir_vid *a, ir_vid *b)
{
	return def_is(c, v, opc, a, b) && opt_is_exact(c, opt_def_index(c, v));
}

static opt_verdict no_ovf(opt_ctx *c, opt_op *op, ir_vid v)
{
	opt_set_ovf(c, false);
	return opt_replace(c, op, v);
}

static opt_verdict s_add_ovf(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0], y = op->args[1], a, b;
	if (is_k(c, y, 0))
		return no_ovf(c, op, x);
	if (is_k(c, x, 0))
		return no_ovf(c, op, y);
	/* (a - b) + b == a exactly when a - b did not overflow. */
	if (exact_def(c, x, IR_INT_SUB_OVF, &a, &b) && b == y)
		return no_ovf(c, op, a);
	if (exact_def(c, y, IR_INT_SUB_OVF, &a, &b) && b == x)
		return no_ovf(c, op, a);
	return OPT_NEXT;
}

static opt_verdict s_sub_ovf(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0], y = op->args[1], a, b;
	if (is_k(c, y, 0))
		return no_ovf(c, op, x);
	if (x == y)
		return no_ovf(c, op, opt_const_int(c, 0));
	/* (a + b) - b == a exactly when a + b did not overflow.  After a
	 * wrapping int_add the value is still a, but the subtraction
	 * overflows exactly when the addition wrapped. */
	bool found = exact_def(c, x, IR_INT_ADD_OVF, &a, &b);
	if (!found && opt_bug_on(c, OPT_BUG_OVF_CSE))
		found = def_is(c, x, IR_INT_ADD, &a, &b); /* BUG */
	if (found && b == y)
		return no_ovf(c, op, a);
	if (found && a == y)
		return no_ovf(c, op, b);
	return OPT_NEXT;
}

static opt_verdict s_mul_ovf(opt_ctx *c, opt_op *op)
{
	ir_vid v;
	uint64_t k;
	if (!split_const(c, op, &v, &k))
		return OPT_NEXT;
	if (k == 0)
		return no_ovf(c, op, opt_const_int(c, 0));
	if (k == 1)
		return no_ovf(c, op, v);
	return OPT_NEXT;
}

/* ------------------------------------------------------------------ */
/* Guards.                                                             */

static opt_verdict s_guard_bool(opt_ctx *c, opt_op *op)
{
	ir_vid a, b;
	bool t = op->opc == IR_GUARD_TRUE;
	if (def_is(c, op->args[0], IR_INT_IS_TRUE, &a, &b))
		return opt_rewrite(c, op, t ? IR_GUARD_TRUE : IR_GUARD_FALSE, a,
				   IR_NOVAL);
	if (def_is(c, op->args[0], IR_INT_IS_ZERO, &a, &b))
		return opt_rewrite(c, op, t ? IR_GUARD_FALSE : IR_GUARD_TRUE, a,
				   IR_NOVAL);
	return OPT_NEXT;
}

static opt_verdict s_guard_value(opt_ctx *c, opt_op *op)
{
	ir_vid x = op->args[0];
	if (ir_is_const(c->out, x))
		return OPT_NEXT;
	if (is_k(c, op->args[1], 0)) /* x == 0 exactly when x is false */
		return opt_rewrite(c, op, IR_GUARD_FALSE, x, IR_NOVAL);
	/* x == 1 is x != 0 only for a value that is 0 or 1. */
	if (is_k(c, op->args[1], 1) &&
	    (is_comparison(c, x) || opt_bug_on(c, OPT_BUG_GUARD_VALUE_BOOL)))
		return opt_rewrite(c, op, IR_GUARD_TRUE, x, IR_NOVAL);
	return OPT_NEXT;
}

static opt_verdict simplify_propagate(opt_ctx *c, opt_op *op)
{
	if (op->fails)
		return OPT_NEXT;
	switch (op->opc) {
	case IR_INT_ADD: return s_add(c, op);
	case IR_INT_SUB: return s_sub(c, op);
	case IR_INT_NEG: return s_neg(c, op);
	case IR_INT_MUL: return s_mul(c, op);
	case IR_INT_PY_DIV: return s_py_div(c, op);
	case IR_INT_PY_MOD: return s_py_mod(c, op);
	case IR_UINT_MUL_HIGH: return s_umulh(c, op);
	case IR_INT_AND: return s_and(c, op);
	case IR_INT_OR: return s_or(c, op);
	case IR_INT_XOR: return s_xor(c, op);
	case IR_INT_INVERT: return s_invert(c, op);
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: return s_shift(c, op);
	case IR_INT_IS_TRUE: return s_is_true(c, op);
	case IR_INT_IS_ZERO: return s_is_zero(c, op);
	case IR_INT_SIGNEXT: return s_signext(c, op);
	case IR_INT_FORCE_GE_ZERO: return s_force_ge_zero(c, op);
	case IR_SAME_AS_I: return opt_replace(c, op, op->args[0]);
	case IR_INT_ADD_OVF: return s_add_ovf(c, op);
	case IR_INT_SUB_OVF: return s_sub_ovf(c, op);
	case IR_INT_MUL_OVF: return s_mul_ovf(c, op);
	case IR_GUARD_TRUE:
	case IR_GUARD_FALSE: return s_guard_bool(c, op);
	case IR_GUARD_VALUE: return s_guard_value(c, op);
	default:
		if (ir_op_has(op->opc, IRF_CMP))
			return s_cmp(c, op);
		return OPT_NEXT;
	}
}

const opt_pass_hooks opt_simplify_hooks = {
    .propagate = simplify_propagate,
};
