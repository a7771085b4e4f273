/*
 * bounds_back.c - the bounds domain's questions about overflow and its
 * backward direction (bounds.h has the contract).
 *
 * Map:
 *   overflow-checked ops         bnd_may_overflow, bnd_must_overflow,
 *                                bnd_forward_exact
 *   backward refinement          what a result's bounds say about an
 *                                argument (bnd_backward)
 *   refinement by comparisons    bnd_refine_cmp
 */
#include "bounds_int.h"

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
	if (!bnd_is_const(o)) {
		hit(OPT_BR_BACK_MUL_NOCONST);
		return *x;
	}
	uint64_t c = bnd_const_val(o);
	bnd d = bnd_top(w);
	if (c != 0 && bnd_is_const(r)) {
		hit(OPT_BR_BACK_MUL_SOLVE);
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
		hit(OPT_BR_BACK_MUL_EXACT);
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
		hit(exact ? OPT_BR_BACK_ADD_EXACT : OPT_BR_BACK_ADD_WRAP);
		/* x = r - o, with wraparound unless the op was exact. */
		d = bnf_sub(r, o);
		if (exact)
			d = bnd_meet(d, exact_sub(r, o));
		else if (bug(bugs, OPT_BUG_ADD_WRAP_BOUNDS))
			d = exact_sub(r, o); /* BUG: ignores wraparound */
		break;
	case IR_INT_SUB:
	case IR_INT_SUB_OVF:
		hit(exact ? OPT_BR_BACK_ADD_EXACT : OPT_BR_BACK_ADD_WRAP);
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
		    bnd_const_val(o) >= (uint64_t)w) {
			hit(OPT_BR_BACK_SHIFT_NOCONST);
			return *x;
		}
		int k = (int)bnd_const_val(o);
		if (opc == IR_INT_LSHIFT) {
			hit(OPT_BR_BACK_LSHIFT);
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
		hit(opc == IR_INT_RSHIFT && k <= w - 2
			? OPT_BR_BACK_RSHIFT_RANGE
			: OPT_BR_BACK_RSHIFT_BITS);
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
		hit(bnd_is_nonzero(r) ? OPT_BR_BACK_FGEZ_NONZERO
				      : OPT_BR_BACK_FGEZ_MAYBE0);
		d = bnd_is_nonzero(r) ? *r : bnd_top(w);
		break;
	/* clang-format off */
	case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH: case IR_INT_PY_DIV:
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
		return *x;
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
			hit(OPT_BR_REF_LT_EMPTY);
			*x = *y = bnd_empty(w);
			return;
		}
		*x = bnd_meet(*x, bnd_range(w, smin(w), yhi - 1));
		*y = bnd_meet(*y, bnd_range(w, xlo + 1, smax(w)));
		hit(OPT_BR_REF_LT);
	} else {
		hit(OPT_BR_REF_LT);
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
		hit(OPT_BR_REF_LT_EMPTY);
		*x = *y = bnd_empty(w);
		return;
	}
	/* x <=u ub: when ub is below 2^(W-1), x is non-negative. */
	uint64_t ub = strict ? ymax - 1 : ymax;
	if (ub < S) {
		hit(OPT_BR_REF_ULT_X);
		*x = bnd_meet(*x, bnd_range(w, 0, (int64_t)ub));
	}
	/* y >=u lb: above 2^(W-1), y is negative and >= lb as signed too;
	 * below it, only a y known non-negative is bounded. */
	uint64_t lb = strict ? xmin + 1 : xmin;
	if (lb >= S) {
		hit(OPT_BR_REF_ULT_Y_NEG);
		*y = bnd_meet(*y, bnd_range(w, sem_signed(w, lb), -1));
	} else if (y->lo >= 0) {
		hit(OPT_BR_REF_ULT_Y_NONNEG);
		*y = bnd_meet(*y, bnd_range(w, (int64_t)lb, smax(w)));
	}
}

/* Removes C from B where B's range ends at C. */
static bnd remove_end(bnd b, uint64_t c)
{
	int64_t s = sem_signed(b.w, c);
	if (b.empty)
		return b;
	hit(b.lo == s || b.hi == s ? OPT_BR_REF_NE_END : OPT_BR_REF_NE_INSIDE);
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
	ir_cmp c = ir_op_cmp(opc);
	void (*lt)(bnd *, bnd *, bool) = c.uns ? refine_ult : refine_lt;
	/* by the shape (ir/ops.def): REL(a, b) holds exactly when TRUTH */
	if (c.swap) {
		bnd *s = a;
		a = b;
		b = s;
	}
	if (c.neg)
		truth = !truth;
	if (c.zero) {
		if (truth) {
			hit(OPT_BR_REF_ZERO);
			*a = bnd_meet(*a, bnd_const(w, 0));
		} else {
			*a = remove_end(*a, 0);
		}
		return;
	}
	switch (c.rel) {
	case IR_REL_LT: truth ? lt(a, b, true) : lt(b, a, false); break;
	case IR_REL_LE: truth ? lt(a, b, false) : lt(b, a, true); break;
	case IR_REL_EQ:
		if (truth) {
			hit(OPT_BR_REF_EQ);
			*a = *b = bnd_meet(*a, *b);
		} else {
			bnd a0 = *a;
			if (bnd_is_const(b))
				*a = remove_end(*a, bnd_const_val(b));
			if (bnd_is_const(&a0))
				*b = remove_end(*b, bnd_const_val(&a0));
		}
		break;
	case IR_REL_NONE: break;
	}
}
