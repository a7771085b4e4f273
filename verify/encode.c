/* encode.c - trace operations as Z3 bit-vector terms: single ops and
 * whole traces; the canonical forms and peepholes of ops with a constant
 * argument are in encode_peephole.c (encode.h has the contract;
 * docs/trust.md why each form is sound). */
#include "encode.h"
#include "encode_int.h"

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

/* Puts the two arguments A of a commutative op in the one canonical order
 * (by term id), so that int_add(x, y) and int_add(y, x) are the same
 * term.  Every commutative term the encoder builds goes through it.
 * The newer term (the larger id) goes first: Z3 4.8's term table takes
 * time linear in the depth of the SECOND argument, so a chain of adds
 * built with the chain second took quadratic time (40,000 ops: 7.8 s
 * with the chain second, 0.3 s with it first, in a plain Z3 loop). */
void enc_canonical_order(Z3_context z, Z3_ast *a)
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

Z3_ast enc_is_neg(zc_scope *s, int w, Z3_ast x)
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
	Z3_ast differ =
	    K(s, Z3_mk_xor(s->z, enc_is_neg(s, w, r), enc_is_neg(s, w, y)));
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
		return K(s, Z3_mk_ite(z, enc_is_neg(s, w, a[0]),
				      zc_bv(s, uw, 0), a[0]));
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
		enc_canonical_order(s->z, a);
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
		enc_canonical_order(s->z, a);
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
