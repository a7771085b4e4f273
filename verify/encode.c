/* encode.c - trace operations as Z3 bit-vector terms: single ops, the
 * canonical forms and peepholes, division by constants, whole traces
 * (encode.h has the contract; docs/trust.md why each form is sound). */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"
#include "verify/divmagic.h"

/* ---- support check ---------------------------------------------------- */

static bool value_supported(const ir_trace *t, ir_vid v)
{
	if (v == IR_NOVAL)
		return true;
	uint8_t tag = ir_val(t, v)->tag;
	return tag != IR_VAL_CONST_PTR && tag != IR_VAL_CONST_CLASS;
}

jp_status enc_supported(const ir_trace *t, const char *file, jp_err *err)
{
	if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64)
		return jp_fail(err, JP_EINPUT, "unsupported width %d",
			       t->width);
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (ir_op_has(op->opc, IRF_MARK))
			continue;
		if (ir_op_has(op->opc, IRF_HEAP))
			return jp_fail_at(
			    err, JP_EUNSUPPORTED, file, op->line, op->col,
			    "'%s' touches the heap; the verifier does not "
			    "model the heap yet (traces with new, getfield, "
			    "setfield, escape, guard_class or opaque calls "
			    "cannot be checked)",
			    ir_op_name(t, op));
		for (uint32_t a = 0; a < op->nargs; a++)
			if (!value_supported(t, op->args[a]))
				return jp_fail_at(
				    err, JP_EUNSUPPORTED, file, op->line,
				    op->col,
				    "'%s' uses a ConstPtr/ConstClass "
				    "constant; the verifier does not model "
				    "heap objects yet",
				    ir_op_name(t, op));
		for (uint32_t a = 0; a < op->nfail; a++)
			if (!value_supported(t, op->failargs[a]))
				return jp_fail_at(
				    err, JP_EUNSUPPORTED, file, op->line,
				    op->col,
				    "a fail-arg of '%s' is a ConstPtr/"
				    "ConstClass constant; the verifier does "
				    "not model heap objects yet",
				    ir_op_name(t, op));
	}
	return JP_OK;
}

/* A failed scope means either a Z3 error (recorded by the handler) or an
 * allocation failure while recording a term. */
static jp_status scope_failure(jp_err *err, const char *what)
{
	if (zc_failed())
		return zc_check_error(err, what);
	return jp_fail(err, JP_ENOMEM, "%s: out of memory", what);
}

/* ---- inputs ----------------------------------------------------------- */

static unsigned kind_width(int w, char kind)
{
	return kind == 'r' ? 64u : (unsigned)w;
}

jp_status enc_inputs(zc_scope *s, const ir_trace *t, Z3_ast *vars, jp_err *err)
{
	for (uint32_t i = 0; i < t->ninputs; i++) {
		char name[32];
		snprintf(name, sizeof name, "x%u", i);
		char kind = ir_val(t, t->inputs[i])->kind;
		Z3_sort srt = zc_bv_sort(s->z, kind_width(t->width, kind));
		Z3_symbol sym = Z3_mk_string_symbol(s->z, name);
		vars[i] = zc_keep(s, Z3_mk_const(s->z, sym, srt));
	}
	if (s->failed)
		return scope_failure(err, "making input variables");
	return JP_OK;
}

/* ---- single ops ------------------------------------------------------- */

static Z3_ast K(zc_scope *s, Z3_ast a)
{
	return zc_keep(s, a);
}

/* Puts the two arguments A of a commutative op in the one canonical order
 * (by term id), so that int_add(x, y) and int_add(y, x) are the same
 * term.  Every commutative term the encoder builds goes through it.
 * The newer term (the larger id) goes first: Z3 4.8's term table takes
 * time linear in the depth of the SECOND argument, so a chain of adds
 * built with the chain second took quadratic time (40,000 ops: 7.8 s
 * with the chain second, 0.3 s with it first, in a plain Z3 loop). */
static void canonical_order(Z3_context z, Z3_ast *a)
{
	if (Z3_get_ast_id(z, a[0]) < Z3_get_ast_id(z, a[1])) {
		Z3_ast t = a[0];
		a[0] = a[1];
		a[1] = t;
	}
}

static Z3_ast bool_to_bv(zc_scope *s, int w, Z3_ast c)
{
	return K(s, Z3_mk_ite(s->z, c, zc_bv(s, (unsigned)w, 1),
			      zc_bv(s, (unsigned)w, 0)));
}

static Z3_ast sign_bit(zc_scope *s, int w, Z3_ast x)
{
	return K(s, Z3_mk_extract(s->z, (unsigned)w - 1, (unsigned)w - 1, x));
}

static Z3_ast is_neg(zc_scope *s, int w, Z3_ast x)
{
	return K(s, Z3_mk_bvslt(s->z, x, zc_bv(s, (unsigned)w, 0)));
}

/* Sign-extends the low BITS bits of X to W bits. */
static Z3_ast sext_low(zc_scope *s, int w, Z3_ast x, int bits)
{
	Z3_ast low = K(s, Z3_mk_extract(s->z, (unsigned)bits - 1, 0, x));
	return K(s, Z3_mk_sign_ext(s->z, (unsigned)(w - bits), low));
}

/* int_signext(x, n): n = 0 gives 0, 1 <= n < W/8 sign-extends the low n
 * bytes, and any larger n (read as unsigned) leaves x unchanged. */
static Z3_ast enc_signext(zc_scope *s, int w, Z3_ast x, Z3_ast n)
{
	uint64_t k;
	if (zc_numeral(s->z, n, &k)) {
		if (k == 0)
			return zc_bv(s, (unsigned)w, 0);
		if (k >= (uint64_t)(w / 8))
			return x;
		return sext_low(s, w, x, (int)k * 8);
	}
	Z3_ast r = x;
	for (int bytes = w / 8 - 1; bytes >= 1; bytes--) {
		Z3_ast is =
		    K(s, Z3_mk_eq(s->z, n,
				  zc_bv(s, (unsigned)w, (uint64_t)bytes)));
		r = K(s, Z3_mk_ite(s->z, is, sext_low(s, w, x, bytes * 8), r));
	}
	Z3_ast zero = K(s, Z3_mk_eq(s->z, n, zc_bv(s, (unsigned)w, 0)));
	return K(s, Z3_mk_ite(s->z, zero, zc_bv(s, (unsigned)w, 0), r));
}

/* The high W bits of the unsigned 2W-bit product. */
static Z3_ast enc_umulh(zc_scope *s, int w, Z3_ast x, Z3_ast y)
{
	Z3_ast xx = K(s, Z3_mk_zero_ext(s->z, (unsigned)w, x));
	Z3_ast yy = K(s, Z3_mk_zero_ext(s->z, (unsigned)w, y));
	Z3_ast p = K(s, Z3_mk_bvmul(s->z, xx, yy));
	return K(s, Z3_mk_extract(s->z, 2 * (unsigned)w - 1, (unsigned)w, p));
}

/* Floor division: truncating bvsdiv, minus one when the remainder is
 * non-zero and its sign differs from the divisor's.  Division by zero gives
 * 0 (bvsdiv would give -1 or 1); MININT / -1 wraps to MININT, which is what
 * bvsdiv does already. */
static Z3_ast enc_py_div(zc_scope *s, int w, Z3_ast x, Z3_ast y)
{
	unsigned uw = (unsigned)w;
	Z3_ast q = K(s, Z3_mk_bvsdiv(s->z, x, y));
	Z3_ast r = K(s, Z3_mk_bvsrem(s->z, x, y));
	Z3_ast r_nz =
	    K(s, Z3_mk_not(s->z, K(s, Z3_mk_eq(s->z, r, zc_bv(s, uw, 0)))));
	Z3_ast differ = K(s, Z3_mk_xor(s->z, is_neg(s, w, r), is_neg(s, w, y)));
	Z3_ast adj_args[2] = {r_nz, differ};
	Z3_ast adj = K(s, Z3_mk_and(s->z, 2, adj_args));
	Z3_ast fq =
	    K(s, Z3_mk_ite(s->z, adj,
			   K(s, Z3_mk_bvsub(s->z, q, zc_bv(s, uw, 1))), q));
	Z3_ast y0 = K(s, Z3_mk_eq(s->z, y, zc_bv(s, uw, 0)));
	return K(s, Z3_mk_ite(s->z, y0, zc_bv(s, uw, 0), fq));
}

/* SMT-LIB's bvsmod is exactly floor modulo: the result takes the sign of
 * the divisor, bvsmod(x, 0) = x, and MININT mod -1 = 0. */
static Z3_ast enc_py_mod(zc_scope *s, Z3_ast x, Z3_ast y)
{
	return K(s, Z3_mk_bvsmod(s->z, x, y));
}

/* Overflow of x + y / x - y from the signs alone: an addition overflows
 * when both operands have the same sign and the wrapped result has the
 * other; a subtraction when the operands' signs differ and the result's
 * sign differs from x's.  enc_ovf_reference proves these in the tests. */
static Z3_ast ovf_add(zc_scope *s, int w, Z3_ast x, Z3_ast y, Z3_ast r)
{
	Z3_ast sx = sign_bit(s, w, x), sy = sign_bit(s, w, y);
	Z3_ast sr = sign_bit(s, w, r);
	Z3_ast c[2] = {K(s, Z3_mk_eq(s->z, sx, sy)),
		       K(s, Z3_mk_not(s->z, K(s, Z3_mk_eq(s->z, sr, sx))))};
	return K(s, Z3_mk_and(s->z, 2, c));
}

static Z3_ast ovf_sub(zc_scope *s, int w, Z3_ast x, Z3_ast y, Z3_ast r)
{
	Z3_ast sx = sign_bit(s, w, x), sy = sign_bit(s, w, y);
	Z3_ast sr = sign_bit(s, w, r);
	Z3_ast c[2] = {K(s, Z3_mk_not(s->z, K(s, Z3_mk_eq(s->z, sx, sy)))),
		       K(s, Z3_mk_not(s->z, K(s, Z3_mk_eq(s->z, sr, sx))))};
	return K(s, Z3_mk_and(s->z, 2, c));
}

/* Whether x * C overflows, for the constant C, as a range test on x: the
 * product fits iff x lies between the bounds of the type divided by C,
 * rounded inwards (C's sign says which bound gives which end; C division
 * truncates toward zero, which is the inward rounding for both signs).
 * No multiplier is left for the solver to bit-blast or the abstraction
 * to hide. */
static Z3_ast ovf_mul_const(zc_scope *s, int w, Z3_ast x, uint64_t c)
{
	Z3_context z = s->z;
	unsigned uw = (unsigned)w;
	int64_t k = sem_signed(w, c);
	int64_t min = sem_signed(w, sem_minint(w));
	int64_t max = sem_signed(w, sem_maxint(w));
	if (k == 0)
		return K(s, Z3_mk_false(z));
	if (k == -1) /* min / -1 itself overflows */
		return K(s, Z3_mk_eq(z, x, zc_bv(s, uw, sem_minint(w))));
	int64_t lo = k > 0 ? min / k : max / k;
	int64_t hi = k > 0 ? max / k : min / k;
	Z3_ast in[2] = {
	    K(s, Z3_mk_bvsle(z, zc_bv(s, uw, sem_from_signed(w, lo)), x)),
	    K(s, Z3_mk_bvsle(z, x, zc_bv(s, uw, sem_from_signed(w, hi))))};
	return K(s, Z3_mk_not(z, K(s, Z3_mk_and(z, 2, in))));
}

/* Multiplication has no cheap sign rule: the exact product is computed in
 * 2W bits, and it fits in W bits iff its top W + 1 bits are all equal.
 * Comparing the 2W product with the separately computed W-bit product
 * instead (the textbook formula) asks the solver to prove two multipliers
 * equal, which takes it minutes at W = 64.  Z3's bvsmul_noovfl would be
 * another choice, but it prints as a Z3-only function that cvc5 cannot
 * read in the SMT-LIB files. */
static Z3_ast ovf_mul(zc_scope *s, int w, Z3_ast x, Z3_ast y, Z3_ast r)
{
	(void)r;
	uint64_t c;
	if (zc_numeral(s->z, y, &c))
		return ovf_mul_const(s, w, x, c);
	if (zc_numeral(s->z, x, &c))
		return ovf_mul_const(s, w, y, c);
	unsigned uw = (unsigned)w;
	Z3_ast xx = K(s, Z3_mk_sign_ext(s->z, uw, x));
	Z3_ast yy = K(s, Z3_mk_sign_ext(s->z, uw, y));
	Z3_ast exact = K(s, Z3_mk_bvmul(s->z, xx, yy));
	Z3_ast top = K(s, Z3_mk_extract(s->z, 2 * uw - 1, uw - 1, exact));
	Z3_ast fits[2] = {
	    K(s, Z3_mk_eq(s->z, top, zc_bv(s, uw + 1, 0))),
	    K(s, Z3_mk_eq(s->z, top,
			  K(s, Z3_mk_bvnot(s->z, zc_bv(s, uw + 1, 0)))))};
	return K(s, Z3_mk_not(s->z, K(s, Z3_mk_or(s->z, 2, fits))));
}

Z3_ast enc_ovf_reference(zc_scope *s, int w, ir_opcode opc, Z3_ast x, Z3_ast y)
{
	unsigned uw = (unsigned)w;
	Z3_context z = s->z;
	Z3_ast xx = K(s, Z3_mk_sign_ext(z, uw, x));
	Z3_ast yy = K(s, Z3_mk_sign_ext(z, uw, y));
	Z3_ast exact = NULL, wrapped = NULL;
	switch (opc) {
	case IR_INT_ADD_OVF:
		exact = K(s, Z3_mk_bvadd(z, xx, yy));
		wrapped = K(s, Z3_mk_bvadd(z, x, y));
		break;
	case IR_INT_SUB_OVF:
		exact = K(s, Z3_mk_bvsub(z, xx, yy));
		wrapped = K(s, Z3_mk_bvsub(z, x, y));
		break;
	case IR_INT_MUL_OVF:
		exact = K(s, Z3_mk_bvmul(z, xx, yy));
		wrapped = K(s, Z3_mk_bvmul(z, x, y));
		break;
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
	case IR_PTR_NE: case IR_GUARD_TRUE: case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: case IR_GUARD_CLASS: case IR_GUARD_NONNULL:
	case IR_GUARD_ISNULL: case IR_NEW: case IR_NEW_WITH_VTABLE:
	case IR_GETFIELD_GC_I: case IR_GETFIELD_GC_R: case IR_SETFIELD_GC:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT:
	case IR_LABEL: case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		s->failed = true;
		return NULL;
	}
	Z3_ast ext = K(s, Z3_mk_sign_ext(z, uw, wrapped));
	return K(s, Z3_mk_not(z, K(s, Z3_mk_eq(z, exact, ext))));
}

static Z3_ast enc_cmp(zc_scope *s, ir_opcode opc, const Z3_ast *a)
{
	Z3_context z = s->z;
	switch (opc) {
	case IR_INT_EQ:
	case IR_PTR_EQ: return K(s, Z3_mk_eq(z, a[0], a[1]));
	case IR_INT_NE:
	case IR_PTR_NE:
		return K(s, Z3_mk_not(z, K(s, Z3_mk_eq(z, a[0], a[1]))));
	case IR_INT_LT: return K(s, Z3_mk_bvslt(z, a[0], a[1]));
	case IR_INT_LE: return K(s, Z3_mk_bvsle(z, a[0], a[1]));
	case IR_INT_GT: return K(s, Z3_mk_bvsgt(z, a[0], a[1]));
	case IR_INT_GE: return K(s, Z3_mk_bvsge(z, a[0], a[1]));
	case IR_UINT_LT: return K(s, Z3_mk_bvult(z, a[0], a[1]));
	case IR_UINT_LE: return K(s, Z3_mk_bvule(z, a[0], a[1]));
	case IR_UINT_GT: return K(s, Z3_mk_bvugt(z, a[0], a[1]));
	case IR_UINT_GE: return K(s, Z3_mk_bvuge(z, a[0], a[1]));
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_IS_TRUE: case IR_INT_IS_ZERO:
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
		break;
	}
	/* int_is_true / int_is_zero compare with 0 of the argument's sort. */
	unsigned aw = Z3_get_bv_sort_size(z, Z3_get_sort(z, a[0]));
	Z3_ast zero = K(s, Z3_mk_eq(z, a[0], zc_bv(s, aw, 0)));
	if (opc == IR_INT_IS_ZERO)
		return zero;
	if (opc == IR_INT_IS_TRUE)
		return K(s, Z3_mk_not(z, zero));
	s->failed = true;
	return NULL;
}

/* The Boolean behind a comparison op, or NULL for other ops. */
static Z3_ast enc_cmp_bool(zc_scope *s, ir_opcode opc, const Z3_ast *a)
{
	if (!ir_op_has(opc, IRF_CMP))
		return NULL;
	return enc_cmp(s, opc, a);
}

Z3_ast enc_op(zc_scope *s, int w, ir_opcode opc, const Z3_ast *a, Z3_ast *ovf)
{
	Z3_context z = s->z;
	unsigned uw = (unsigned)w;
	if (ovf)
		*ovf = NULL;
	if (ir_op_has(opc, IRF_CMP))
		return bool_to_bv(s, w, enc_cmp(s, opc, a));
	Z3_ast r;
	switch (opc) {
	case IR_INT_ADD: return K(s, Z3_mk_bvadd(z, a[0], a[1]));
	case IR_INT_SUB: return K(s, Z3_mk_bvsub(z, a[0], a[1]));
	case IR_INT_MUL: return K(s, Z3_mk_bvmul(z, a[0], a[1]));
	case IR_INT_AND: return K(s, Z3_mk_bvand(z, a[0], a[1]));
	case IR_INT_OR: return K(s, Z3_mk_bvor(z, a[0], a[1]));
	case IR_INT_XOR: return K(s, Z3_mk_bvxor(z, a[0], a[1]));
	/* SMT-LIB shifts read the count as unsigned and shift everything
	 * out for counts >= W, exactly like ir/sem.c. */
	case IR_INT_LSHIFT: return K(s, Z3_mk_bvshl(z, a[0], a[1]));
	case IR_INT_RSHIFT: return K(s, Z3_mk_bvashr(z, a[0], a[1]));
	case IR_UINT_RSHIFT: return K(s, Z3_mk_bvlshr(z, a[0], a[1]));
	case IR_INT_NEG: return K(s, Z3_mk_bvneg(z, a[0]));
	case IR_INT_INVERT: return K(s, Z3_mk_bvnot(z, a[0]));
	case IR_INT_SIGNEXT: return enc_signext(s, w, a[0], a[1]);
	case IR_UINT_MUL_HIGH: return enc_umulh(s, w, a[0], a[1]);
	case IR_INT_FORCE_GE_ZERO:
		return K(
		    s, Z3_mk_ite(z, is_neg(s, w, a[0]), zc_bv(s, uw, 0), a[0]));
	case IR_SAME_AS_I: return a[0];
	case IR_INT_PY_DIV: return enc_py_div(s, w, a[0], a[1]);
	case IR_INT_PY_MOD: return enc_py_mod(s, a[0], a[1]);
	/* The wrapped result of an overflow-checked op is the plain op's,
	 * peepholes included, so that x +ovf x and x + x are one term. */
	case IR_INT_ADD_OVF:
		r = enc_peephole(s, w, IR_INT_ADD, a);
		r = r ? r : K(s, Z3_mk_bvadd(z, a[0], a[1]));
		if (ovf)
			*ovf = ovf_add(s, w, a[0], a[1], r);
		return r;
	case IR_INT_SUB_OVF:
		r = enc_peephole(s, w, IR_INT_SUB, a);
		r = r ? r : K(s, Z3_mk_bvsub(z, a[0], a[1]));
		if (ovf)
			*ovf = ovf_sub(s, w, a[0], a[1], r);
		return r;
	case IR_INT_MUL_OVF:
		r = enc_peephole(s, w, IR_INT_MUL, a);
		r = r ? r : K(s, Z3_mk_bvmul(z, a[0], a[1]));
		if (ovf)
			*ovf = ovf_mul(s, w, a[0], a[1], r);
		return r;
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
		break;
	}
	s->failed = true;
	return NULL;
}

Z3_ast enc_guard(zc_scope *s, ir_opcode opc, const Z3_ast *a, Z3_ast arg0_bool,
		 Z3_ast prev_ovf)
{
	Z3_context z = s->z;
	switch (opc) {
	case IR_GUARD_TRUE:
	case IR_GUARD_NONNULL:
		if (arg0_bool)
			return opc == IR_GUARD_TRUE
				   ? arg0_bool
				   : K(s, Z3_mk_not(z, arg0_bool));
		return K(s, Z3_mk_not(z, enc_cmp(s, IR_INT_IS_ZERO, a)));
	case IR_GUARD_FALSE:
	case IR_GUARD_ISNULL:
		if (arg0_bool)
			return K(s, Z3_mk_not(z, arg0_bool));
		return enc_cmp(s, IR_INT_IS_ZERO, a);
	case IR_GUARD_VALUE: return K(s, Z3_mk_eq(z, a[0], a[1]));
	case IR_GUARD_NO_OVERFLOW:
		return prev_ovf ? K(s, Z3_mk_not(z, prev_ovf)) : NULL;
	case IR_GUARD_OVERFLOW: return prev_ovf;
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
		break;
	}
	s->failed = true;
	return NULL;
}

/* ---- whole traces ----------------------------------------------------- */

static Z3_ast const_term(zc_scope *s, const ir_trace *t, ir_vid v)
{
	const ir_value *val = ir_val(t, v);
	switch (val->tag) {
	case IR_VAL_CONST_INT: return zc_bv(s, (unsigned)t->width, val->cval);
	case IR_VAL_CONST_NULL: return zc_bv(s, 64, 0);
	default: return NULL; /* refused by enc_supported */
	}
}

/* The op before guard OPI that sets the overflow flag, skipping markers. */
static uint32_t ovf_source(const ir_trace *t, uint32_t opi)
{
	while (opi > 0) {
		opi--;
		if (!ir_op_has(t->ops[opi].opc, IRF_MARK))
			return ir_op_has(t->ops[opi].opc, IRF_OVF) ? opi
								   : UINT32_MAX;
	}
	return UINT32_MAX;
}

/* Folds an op whose arguments are all numerals, using sem_eval. */
static bool try_fold(zc_scope *s, const enc_trace *e, const ir_op *op,
		     Z3_ast *res, Z3_ast *ovf)
{
	if (!sem_evaluable((ir_opcode)op->opc) || op->nargs > 2)
		return false;
	uint64_t v[2] = {0, 0};
	for (uint32_t i = 0; i < op->nargs; i++)
		if (!zc_numeral(s->z, e->val[op->args[i]], &v[i]))
			return false;
	bool of = false;
	uint64_t r = sem_eval((ir_opcode)op->opc, e->w, v, &of);
	*res = zc_bv(s, kind_width(e->w, op->kind), r);
	*ovf = ir_op_has(op->opc, IRF_OVF) ? (of ? zc_true(s) : zc_false(s))
					   : NULL;
	return true;
}

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
	canonical_order(s->z, ab);
	return K(s, mk(s->z, ab[0], ab[1]));
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
	Z3_ast t = K(s, Z3_mk_bvashr(s->z, x, zc_bv(s, uw, uw - 1)));
	Z3_ast n = mk_comm(s, Z3_mk_bvxor, x, t);
	Z3_ast q = K(s, Z3_mk_bvudiv(s->z, n, zc_bv(s, uw, k)));
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

/* Whether the sign bit of T is 0 by its shape alone, whatever the inputs:
 * x ^ (x >> (W-1)), a logical shift right by a non-zero constant, or a
 * mask without the sign bit. */
static bool sign_bit_clear(Z3_context z, int w, Z3_ast t)
{
	Z3_app app, sh;
	uint64_t c;
	if (zc_app_of(z, t, Z3_OP_BLSHR, 2, &app))
		return zc_numeral(z, zc_arg_of(z, app, 1), &c) && c != 0;
	if (zc_app_of(z, t, Z3_OP_BAND, 2, &app))
		for (unsigned i = 0; i < 2; i++)
			if (zc_numeral(z, zc_arg_of(z, app, i), &c) &&
			    !((c >> (w - 1)) & 1))
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
		return K(s, Z3_mk_bvudiv(z, n, zc_bv(s, (unsigned)w, d)));
	if (sem_is_negative(w, d))
		return NULL;
	Z3_ast orig = K(s, Z3_mk_bvlshr(z, a[0], a[1]));
	return K(s, Z3_mk_ite(z, K(s, Z3_mk_not(z, is_neg(s, w, n))),
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
	case IR_INT_XOR:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: return c == 0 ? x : NULL;
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

/* Whether the op needs a bit-blasted multiplier or divider over values
 * the solver does not know: what makes queries slow. */
static bool is_hard(zc_scope *s, ir_opcode opc, const Z3_ast *a)
{
	uint64_t c;
	if (!ir_op_has(opc, IRF_MULTIPLIER) && !ir_op_has(opc, IRF_DIVIDER))
		return false;
	bool k0 = zc_numeral(s->z, a[0], &c), k1 = zc_numeral(s->z, a[1], &c);
	return ir_op_needs_circuit(opc, k0, k1);
}

uint32_t enc_count_hard(zc_scope *s, const ir_trace *t, const Z3_ast *val)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->nargs < 2 || !val[op->args[0]] || !val[op->args[1]])
			continue;
		Z3_ast a[2] = {val[op->args[0]], val[op->args[1]]};
		n += is_hard(s, (ir_opcode)op->opc, a);
	}
	return n;
}

Z3_ast enc_binop(zc_scope *s, int w, ir_opcode opc, Z3_ast a0, Z3_ast a1)
{
	Z3_ast a[2] = {a0, a1};
	if (ir_op_has(opc, IRF_COMM))
		canonical_order(s->z, a);
	Z3_ast r = enc_peephole(s, w, opc, a);
	return r ? r : enc_op(s, w, opc, a, NULL);
}

jp_status enc_trace_op(zc_scope *s, enc_trace *e, uint32_t opi, jp_err *err)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[opi];
	ir_opcode opc = (ir_opcode)op->opc;
	if (ir_op_has(opc, IRF_MARK) || ir_op_has(opc, IRF_END))
		return JP_OK;
	Z3_ast a[2] = {NULL, NULL};
	for (uint32_t i = 0; i < op->nargs && i < 2; i++)
		a[i] = e->val[op->args[i]];
	if (ir_op_has(opc, IRF_COMM) && op->nargs == 2)
		canonical_order(s->z, a);
	if (ir_op_has(opc, IRF_GUARD)) {
		Z3_ast prev = NULL;
		if (ir_op_has(opc, IRF_OVFGUARD)) {
			uint32_t src = ovf_source(t, opi);
			if (src == UINT32_MAX)
				return jp_fail_at(
				    err, JP_EINPUT, NULL, op->line, op->col,
				    "'%s' does not follow an overflow-checked "
				    "op",
				    ir_op_name(t, op));
			prev = e->ovf[src];
		}
		if (opc == IR_GUARD_VALUE &&
		    Z3_get_sort(s->z, a[0]) != Z3_get_sort(s->z, a[1]))
			return jp_fail_at(err, JP_EINPUT, NULL, op->line,
					  op->col,
					  "guard_value compares an int with a "
					  "ref");
		Z3_ast b0 = op->nargs ? e->bval[op->args[0]] : NULL;
		e->pass[opi] = enc_guard(s, opc, a, b0, prev);
		return JP_OK;
	}
	Z3_ast r = NULL, of = NULL;
	if (try_fold(s, e, op, &r, &of)) {
		e->folded++;
	} else if ((r = enc_peephole(s, e->w, opc, a)) != NULL) {
		e->peepholes++;
	} else {
		r = enc_op(s, e->w, opc, a, &of);
		e->bval[op->result] = enc_cmp_bool(s, opc, a);
		if (is_hard(s, opc, a))
			e->hard++;
	}
	if (op->result != IR_NOVAL)
		e->val[op->result] = r;
	e->ovf[opi] = of;
	if (!r)
		return jp_fail_at(err, JP_EUNSUPPORTED, NULL, op->line, op->col,
				  "cannot encode '%s'", ir_op_name(t, op));
	return JP_OK;
}

jp_status enc_trace_build(zc_scope *s, const ir_trace *t, const Z3_ast *vars,
			  enc_trace *e, jp_err *err)
{
	memset(e, 0, sizeof *e);
	e->t = t;
	e->w = t->width;
	size_t nv = t->nvals ? t->nvals : 1, no = t->nops ? t->nops : 1;
	e->val = calloc(nv, sizeof *e->val);
	e->bval = calloc(nv, sizeof *e->bval);
	e->ovf = calloc(no, sizeof *e->ovf);
	e->pass = calloc(no, sizeof *e->pass);
	if (!e->val || !e->bval || !e->ovf || !e->pass) {
		enc_trace_free(e);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < t->ninputs; i++)
		e->val[t->inputs[i]] = vars[i];
	for (ir_vid v = 0; v < t->nvals; v++)
		if (ir_is_const(t, v))
			e->val[v] = const_term(s, t, v);
	for (uint32_t i = 0; i < t->nops; i++) {
		jp_status st = enc_trace_op(s, e, i, err);
		if (st != JP_OK) {
			enc_trace_free(e);
			return st;
		}
	}
	if (s->failed || zc_failed()) {
		enc_trace_free(e);
		return scope_failure(err, "encoding a trace");
	}
	return JP_OK;
}

void enc_trace_free(enc_trace *e)
{
	free(e->val);
	free(e->bval);
	free(e->ovf);
	free(e->pass);
	memset(e, 0, sizeof *e);
}

/* Which ops the integer encoder gives a meaning (encode.h).  Every op has a
 * case: an op added to ir/ops.def stops the build here. */
const char *enc_unhandled(ir_opcode opc)
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
	case IR_GUARD_OVERFLOW: case IR_GUARD_NONNULL: case IR_GUARD_ISNULL:
	case IR_DEBUG_MERGE_POINT: case IR_LABEL: case IR_JUMP:
	case IR_FINISH:
		/* clang-format on */
		return NULL;
	/* clang-format off */
	case IR_GUARD_CLASS: case IR_NEW: case IR_NEW_WITH_VTABLE:
	case IR_GETFIELD_GC_I: case IR_GETFIELD_GC_R: case IR_SETFIELD_GC:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_OPAQUE:
		/* clang-format on */
		return "a heap op or call: verify/heap encodes it";
	}
	return "not an op of the table";
}
