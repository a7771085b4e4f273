/*
 * range.c - the verifier's range analysis over one trace: the state, the
 * refinement by guards assumed to pass, and the queries (range.h has the
 * contract and the domain).
 *
 * Map:
 *   the state      vr_state, facts of inputs and constants, re-evaluating
 *                  an op's fact from its operands (eval_now), vr_init/free
 *   refinement     what a passing guard says: comparisons (assume_cmp),
 *                  backward through the ops that computed the tested value
 *                  (backward), no-overflow guards, vr_advance
 *   queries        vr_narrow, vr_get, vr_const, vr_same_arg, vr_known,
 *                  whether an overflow or a guard is decided
 * Files: range_int.h (the fact domain's helpers, shared), range_transfer.c
 * (what an op's result is given its operands' facts).
 */
#include "range_int.h"

#include <stdlib.h>
#include <string.h>

/* How many levels a guard's assumption is pushed back through the ops that
 * computed the tested value, and how many levels of operands are
 * re-evaluated when a fact is asked for (facts of op results are computed
 * when the op is reached and may have been narrowed since through their
 * operands).  Both only bound the work: any depth is sound. */
enum { REFINE_DEPTH = 6, QUERY_DEPTH = 3, ADVANCE_DEPTH = 2 };

struct vr_state {
	const ir_trace *t;
	int w;
	uint32_t point;
	bool infeasible;
	vr_fact *f; /* one per vid */
};

/* ---- the state ------------------------------------------------------ */

static bool is_int(const ir_trace *t, ir_vid v)
{
	return v != IR_NOVAL && t->vals[v].kind == 'i';
}

/* Whether op I is an integer op whose result vrt_transfer() describes from
 * its arguments' facts (so re-evaluating it can narrow its fact). */
static bool has_transfer(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	return op->result != IR_NOVAL && op->kind == 'i' &&
	       op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE &&
	       sem_evaluable((ir_opcode)op->opc) && op->nargs <= 2;
}

/* The op defining V if it is A or B (an op and its _ovf twin), else
 * NULL. */
static const ir_op *def_as(const ir_trace *t, ir_vid v, ir_opcode a,
			   ir_opcode b)
{
	uint32_t i = ir_defop(t, v);
	if (i == UINT32_MAX || (t->ops[i].opc != a && t->ops[i].opc != b))
		return NULL;
	return &t->ops[i];
}

/* The value that op OP's result equals by cancellation, or IR_NOVAL:
 * (a - y) + y and (a + y) - y are a, and x - (x - b) is b, in wrapping
 * arithmetic (the value of an _ovf op is the wrapped one too).  The
 * intervals lose that link, as a - y and y are both wide, so a bound on
 * a (a & 0xff, say) would not reach the sum. */
static ir_vid cancelled(const ir_trace *t, const ir_op *op)
{
	if (op->nargs != 2)
		return IR_NOVAL;
	const ir_vid *x = op->args;
	const ir_op *d;
	if (op->opc == IR_INT_ADD || op->opc == IR_INT_ADD_OVF) {
		for (int k = 0; k < 2; k++)
			if ((d = def_as(t, x[k], IR_INT_SUB, IR_INT_SUB_OVF)) &&
			    d->args[1] == x[1 - k])
				return d->args[0];
		return IR_NOVAL;
	}
	if (op->opc != IR_INT_SUB && op->opc != IR_INT_SUB_OVF)
		return IR_NOVAL;
	if ((d = def_as(t, x[0], IR_INT_ADD, IR_INT_ADD_OVF)))
		for (int k = 0; k < 2; k++)
			if (d->args[k] == x[1])
				return d->args[1 - k];
	if ((d = def_as(t, x[1], IR_INT_SUB, IR_INT_SUB_OVF)) &&
	    d->args[0] == x[0])
		return d->args[1];
	return IR_NOVAL;
}

/* V's stored fact, narrowed by re-evaluating its op from its operands'
 * current facts, DEPTH levels deep. */
static vr_fact eval_now(const vr_state *r, ir_vid v, int depth)
{
	const ir_trace *t = r->t;
	vr_fact f = r->f[v];
	uint32_t i = ir_defop(t, v);
	if (depth <= 0 || i == UINT32_MAX || !has_transfer(t, i))
		return f;
	const ir_op *op = &t->ops[i];
	vr_fact a[2] = {top(r->w), top(r->w)};
	for (uint32_t k = 0; k < op->nargs; k++)
		a[k] = eval_now(r, op->args[k], depth - 1);
	vr_fact g = vrt_transfer_op(r->w, op, a), both;
	ir_vid c = cancelled(t, op);
	if (c != IR_NOVAL) {
		vr_fact h = eval_now(r, c, depth - 1);
		if (meet(r->w, &g, &h, &both))
			g = both;
	}
	return meet(r->w, &f, &g, &both) ? both : f;
}

static void init_facts(vr_state *r)
{
	const ir_trace *t = r->t;
	r->point = 0;
	r->infeasible = false;
	for (uint32_t v = 0; v < t->nvals; v++)
		r->f[v] = t->vals[v].tag == IR_VAL_CONST_INT
			      ? fconst(r->w, t->vals[v].cval)
			      : top(r->w);
}

jp_status vr_init(vr_state **out, const ir_trace *t, jp_err *err)
{
	*out = NULL;
	vr_state *r = calloc(1, sizeof *r);
	if (!r)
		return jp_fail(err, JP_ENOMEM, "out of memory (range state)");
	r->t = t;
	r->w = t->width;
	r->f = malloc((t->nvals ? t->nvals : 1) * sizeof *r->f);
	if (!r->f) {
		free(r);
		return jp_fail(err, JP_ENOMEM, "out of memory (range facts)");
	}
	init_facts(r);
	*out = r;
	return JP_OK;
}

void vr_free(vr_state *r)
{
	if (!r)
		return;
	free(r->f);
	free(r);
}

void vr_reset(vr_state *r)
{
	init_facts(r);
}

uint32_t vr_point(const vr_state *r)
{
	return r->point;
}

bool vr_infeasible(const vr_state *r)
{
	return r->infeasible;
}

/* ---- refinement (guards assumed to pass) ----------------------------- */

static void refine(vr_state *r, ir_vid v, vr_fact f, int depth);

/* Narrows V's stored fact by re-evaluating the ops that computed it from
 * their operands' current facts (always sound: both facts hold). */
static void refresh(vr_state *r, ir_vid v)
{
	r->f[v] = eval_now(r, v, QUERY_DEPTH);
}

/* F minus the single value C at either end of its intervals. */
static vr_fact exclude(int w, vr_fact f, uint64_t c)
{
	int64_t s = sem_signed(w, c);
	if (f.smin == s && f.smin < f.smax)
		f.smin++;
	else if (f.smax == s && f.smin < f.smax)
		f.smax--;
	else if (f.smin == s)
		return empty_fact(w);
	if (f.umin == c && f.umin < f.umax)
		f.umin++;
	else if (f.umax == c && f.umin < f.umax)
		f.umax--;
	else if (f.umin == c)
		return empty_fact(w);
	return f;
}

/* X < Y (signed, or unsigned when U) holds: narrows both. */
static void assume_lt(vr_state *r, ir_vid x, ir_vid y, bool u, int depth)
{
	int w = r->w;
	vr_fact fx = r->f[x], fy = r->f[y];
	if (u) {
		refine(r, x,
		       fy.umax == 0 ? empty_fact(w) : urange(w, 0, fy.umax - 1),
		       depth);
		refine(r, y,
		       fx.umin == sem_allones(w)
			   ? empty_fact(w)
			   : urange(w, fx.umin + 1, sem_allones(w)),
		       depth);
		return;
	}
	refine(r, x,
	       fy.smax == smin_w(w) ? empty_fact(w)
				    : srange(w, smin_w(w), fy.smax - 1),
	       depth);
	refine(r, y,
	       fx.smin == smax_w(w) ? empty_fact(w)
				    : srange(w, fx.smin + 1, smax_w(w)),
	       depth);
}

static void assume_le(vr_state *r, ir_vid x, ir_vid y, bool u, int depth)
{
	int w = r->w;
	vr_fact fx = r->f[x], fy = r->f[y];
	if (u) {
		refine(r, x, urange(w, 0, fy.umax), depth);
		refine(r, y, urange(w, fx.umin, sem_allones(w)), depth);
		return;
	}
	refine(r, x, srange(w, smin_w(w), fy.smax), depth);
	refine(r, y, srange(w, fx.smin, smax_w(w)), depth);
}

static void assume_eq(vr_state *r, ir_vid x, ir_vid y, int depth)
{
	refine(r, x, r->f[y], depth);
	refine(r, y, r->f[x], depth);
}

static void assume_ne(vr_state *r, ir_vid x, ir_vid y, int depth)
{
	if (is_const(&r->f[y]))
		refine(r, x, exclude(r->w, r->f[x], r->f[y].umin), depth);
	if (is_const(&r->f[x]))
		refine(r, y, exclude(r->w, r->f[y], r->f[x].umin), depth);
}

/* The comparison OPC(X, Y) is known to give TRUTH: by its shape
 * (ir/ops.def), REL(X, Y) or its negation holds. */
static void assume_cmp(vr_state *r, ir_opcode opc, ir_vid x, ir_vid y,
		       bool truth, int depth)
{
	ir_cmp c = ir_op_cmp(opc);
	if (c.zero)
		return; /* int_is_true/int_is_zero: backward() handles them */
	if (c.swap) {
		ir_vid s = x;
		x = y;
		y = s;
	}
	if (c.neg)
		truth = !truth;
	switch (c.rel) {
	case IR_REL_LT:
		truth ? assume_lt(r, x, y, c.uns, depth)
		      : assume_le(r, y, x, c.uns, depth);
		break;
	case IR_REL_LE:
		truth ? assume_le(r, x, y, c.uns, depth)
		      : assume_lt(r, y, x, c.uns, depth);
		break;
	case IR_REL_EQ:
		truth ? assume_eq(r, x, y, depth) : assume_ne(r, x, y, depth);
		break;
	case IR_REL_NONE: break;
	}
}

/* The inverse of odd A modulo 2^64 (Newton's iteration doubles the
 * number of correct low bits each step: 3, 6, 12, 24, 48, 96). */
static uint64_t inverse_odd(uint64_t a)
{
	uint64_t x = a;
	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/* What x * C == R (mod 2^W) says about x: with C = odd * 2^t and the low k
 * bits of R known, R's low t bits are 0 and x's low k - t bits are
 * (R >> t) * odd^-1. */
static vr_fact mul_solve(int w, const vr_fact *res, uint64_t c)
{
	vr_fact f = top(w);
	if (c == 0)
		return f;
	unsigned t = ctz_w(w, c), k = ctz_w(w, unknown(w, res));
	unsigned z = k < t ? k : t;
	if (res->ones & lowbits(z))
		return empty_fact(w);
	if (k <= t)
		return f;
	uint64_t known = lowbits(k - t) & sem_allones(w);
	uint64_t v = (res->ones >> t) * inverse_odd(c >> t);
	f.ones = v & known;
	f.zeros = ~v & known;
	return f;
}

/* Floor and ceiling of A / B for B other than 0 and -1 (C division
 * truncates toward zero). */
static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a % b < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a % b < 0) == (b < 0)) ? q + 1 : q;
}

/* What x * C in RES says about x in the signed intervals, when no x of
 * X's fact makes the product wrap (a wrapped product is no multiple of
 * C in the integers): x lies between RES's bounds divided by C.  The
 * optimizer's bounds analysis narrows a factor this way after an
 * overflow guard, and so must the checker to follow it. */
static vr_fact mul_divide(int w, const vr_fact *x, const vr_fact *res,
			  int64_t c)
{
	int dlo, dhi;
	if (c == 0 || c == -1)
		return top(w);
	exact(w, IR_INT_MUL_OVF, x->smin, c, &dlo);
	exact(w, IR_INT_MUL_OVF, x->smax, c, &dhi);
	if (dlo || dhi)
		return top(w);
	int64_t lo = c > 0 ? ceil_div(res->smin, c) : ceil_div(res->smax, c);
	int64_t hi = c > 0 ? floor_div(res->smax, c) : floor_div(res->smin, c);
	return lo > hi ? empty_fact(w) : srange(w, lo, hi);
}

/* What a shift of x by the constant K (0 <= K < W) lying in RES says
 * about x.  A left shift is a product by 2^K.  A right shift drops K low
 * bits: x lies between RES's bounds times 2^K and the same plus the K
 * dropped bits, and the result's bits are x's bits K places up (of an
 * arithmetic shift's copies of the sign, the lowest is x's sign bit). */
static vr_fact shift_solve(int w, ir_opcode opc, const vr_fact *x,
			   const vr_fact *res, unsigned k)
{
	uint64_t m = sem_allones(w), c = sem_mask(w, UINT64_C(1) << k);
	vr_fact f;
	if (opc == IR_INT_LSHIFT) {
		vr_fact a = mul_solve(w, res, c);
		vr_fact b = mul_divide(w, x, res, sem_signed(w, c));
		return meet(w, &a, &b, &f) ? f : empty_fact(w);
	}
	if (opc == IR_UINT_RSHIFT) {
		uint64_t hi = umin64(res->umax, m >> k);
		if (res->umin > hi)
			return empty_fact(w);
		f = urange(w, res->umin << k, (hi << k) | lowbits(k));
	} else {
		int64_t lo = smax64(res->smin, asr(smin_w(w), k));
		int64_t hi = smin64(res->smax, asr(smax_w(w), k));
		if (lo > hi)
			return empty_fact(w);
		/* Both products fit: |lo|, |hi| <= 2^(W-1-K). */
		f = srange(w, sem_signed(w, (uint64_t)lo << k),
			   sem_signed(w, (uint64_t)hi << k) +
			       (int64_t)lowbits(k));
	}
	f.zeros = (res->zeros << k) & m;
	f.ones = (res->ones << k) & m;
	return f;
}

/* The result of op I is known to lie in R: narrows its operands, DEPTH
 * more levels.  Each rule solves the op for one operand, so it holds in
 * every execution where the op's relation and R hold. */
static void backward(vr_state *r, uint32_t i, const vr_fact *res, int depth)
{
	const ir_trace *t = r->t;
	const ir_op *op = &t->ops[i];
	int w = r->w;
	ir_vid x = op->nargs > 0 ? op->args[0] : IR_NOVAL;
	ir_vid y = op->nargs > 1 ? op->args[1] : IR_NOVAL;
	uint64_t m = sem_allones(w);
	switch (op->opc) {
	case IR_INT_ADD:
	case IR_INT_ADD_OVF:
		refine(r, x, vrt_sub(w, res, &r->f[y]), depth);
		refine(r, y, vrt_sub(w, res, &r->f[x]), depth);
		break;
	case IR_INT_SUB:
	case IR_INT_SUB_OVF:
		refine(r, x, vrt_add(w, res, &r->f[y]), depth);
		refine(r, y, vrt_sub(w, &r->f[x], res), depth);
		break;
	case IR_INT_XOR:
		refine(r, x, vrt_xor(w, res, &r->f[y]), depth);
		refine(r, y, vrt_xor(w, res, &r->f[x]), depth);
		break;
	case IR_INT_MUL:
	case IR_INT_MUL_OVF:
		if (is_const(&r->f[y])) {
			refine(r, x, mul_solve(w, res, r->f[y].umin), depth);
			refine(r, x, mul_divide(w, &r->f[x], res, r->f[y].smin),
			       depth);
		}
		if (is_const(&r->f[x])) {
			refine(r, y, mul_solve(w, res, r->f[x].umin), depth);
			refine(r, y, mul_divide(w, &r->f[y], res, r->f[x].smin),
			       depth);
		}
		break;
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT:
		if (is_const(&r->f[y]) && r->f[y].umin < (uint64_t)w)
			refine(r, x,
			       shift_solve(w, (ir_opcode)op->opc, &r->f[x], res,
					   (unsigned)r->f[y].umin),
			       depth);
		break;
	case IR_INT_NEG: refine(r, x, vrt_neg(w, res), depth); break;
	case IR_INT_INVERT: refine(r, x, vrt_invert(w, res), depth); break;
	case IR_SAME_AS_I: refine(r, x, *res, depth); break;
	case IR_INT_AND: {
		/* A 1 in the result is a 1 in both; a 0 where one side has
		 * a 1 is a 0 in the other; and x >= x & y. */
		vr_fact fx = urange(w, res->umin, m), fy = fx;
		fx.ones = fy.ones = res->ones;
		fx.zeros = res->zeros & r->f[y].ones;
		fy.zeros = res->zeros & r->f[x].ones;
		refine(r, x, fx, depth);
		refine(r, y, fy, depth);
		break;
	}
	case IR_INT_OR: {
		vr_fact fx = urange(w, 0, res->umax), fy = fx;
		fx.zeros = fy.zeros = res->zeros;
		fx.ones = res->ones & r->f[y].zeros;
		fy.ones = res->ones & r->f[x].zeros;
		refine(r, x, fx, depth);
		refine(r, y, fy, depth);
		break;
	}
	case IR_INT_FORCE_GE_ZERO:
		/* x <= max(0, x); a positive result is x itself. */
		if (res->smin >= 1)
			refine(r, x, *res, depth);
		else
			refine(r, x, srange(w, smin_w(w), res->smax), depth);
		break;
	case IR_INT_IS_ZERO:
	case IR_INT_IS_TRUE:
		if (is_const(res)) {
			bool zero =
			    (res->umin != 0) == (op->opc == IR_INT_IS_ZERO);
			refine(r, x,
			       zero ? fconst(w, 0) : exclude(w, r->f[x], 0),
			       depth);
		}
		break;
	default:
		if (ir_op_has((ir_opcode)op->opc, IRF_CMP) && is_const(res) &&
		    is_int(t, x) && is_int(t, y)) {
			refresh(r, x);
			refresh(r, y);
			assume_cmp(r, (ir_opcode)op->opc, x, y, res->umin != 0,
				   depth);
		}
		break;
	}
}

/* V is known to lie in F. */
static void refine(vr_state *r, ir_vid v, vr_fact f, int depth)
{
	if (r->infeasible || !is_int(r->t, v))
		return;
	vr_fact nf;
	if (!meet(r->w, &r->f[v], &f, &nf)) {
		r->infeasible = true;
		return;
	}
	if (memcmp(&nf, &r->f[v], sizeof nf) == 0)
		return;
	r->f[v] = nf;
	uint32_t i = ir_defop(r->t, v);
	if (depth > 0 && i != UINT32_MAX)
		backward(r, i, &nf, depth - 1);
}

/* guard_no_overflow passed after op I: its result is the exact one. */
static void assume_no_overflow(vr_state *r, uint32_t i)
{
	const ir_op *op = &r->t->ops[i];
	int w = r->w, d;
	ir_vid x = op->args[0], y = op->args[1];
	int64_t lo = smin_w(w), hi = smax_w(w);
	switch (op->opc) {
	case IR_INT_ADD_OVF:
		/* lo <= x + y <= hi for some y in [ymin, ymax]. */
		refine(r, x,
		       srange(w, exact(w, IR_INT_SUB_OVF, lo, r->f[y].smax, &d),
			      exact(w, IR_INT_SUB_OVF, hi, r->f[y].smin, &d)),
		       REFINE_DEPTH);
		refine(r, y,
		       srange(w, exact(w, IR_INT_SUB_OVF, lo, r->f[x].smax, &d),
			      exact(w, IR_INT_SUB_OVF, hi, r->f[x].smin, &d)),
		       REFINE_DEPTH);
		refine(r, op->result,
		       srange(w,
			      exact(w, IR_INT_ADD_OVF, r->f[x].smin,
				    r->f[y].smin, &d),
			      exact(w, IR_INT_ADD_OVF, r->f[x].smax,
				    r->f[y].smax, &d)),
		       REFINE_DEPTH);
		break;
	case IR_INT_SUB_OVF:
		/* lo <= x - y <= hi. */
		refine(r, x,
		       srange(w, exact(w, IR_INT_ADD_OVF, lo, r->f[y].smin, &d),
			      exact(w, IR_INT_ADD_OVF, hi, r->f[y].smax, &d)),
		       REFINE_DEPTH);
		refine(r, y,
		       srange(w, exact(w, IR_INT_SUB_OVF, r->f[x].smin, hi, &d),
			      exact(w, IR_INT_SUB_OVF, r->f[x].smax, lo, &d)),
		       REFINE_DEPTH);
		refine(r, op->result,
		       srange(w,
			      exact(w, IR_INT_SUB_OVF, r->f[x].smin,
				    r->f[y].smax, &d),
			      exact(w, IR_INT_SUB_OVF, r->f[x].smax,
				    r->f[y].smin, &d)),
		       REFINE_DEPTH);
		break;
	case IR_INT_MUL_OVF: {
		/* With the other factor >= a >= 1: lo/a <= x <= hi/a. */
		for (int s = 0; s < 2; s++) {
			ir_vid a = s ? x : y, b = s ? y : x;
			int64_t amin = r->f[a].smin;
			int64_t amax = r->f[a].smax;
			if (amin >= 1) {
				int64_t blo = lo / amin, bhi = hi / amin;
				refine(r, b, srange(w, blo, bhi), REFINE_DEPTH);
			} else if (amax <= -2) {
				/* The other factor <= a <= -2: hi/a <= x <=
				 * lo/a (truncation rounds toward 0, inward). */
				int64_t blo = hi / amax, bhi = lo / amax;
				refine(r, b, srange(w, blo, bhi), REFINE_DEPTH);
			}
		}
		int64_t xs[2] = {r->f[x].smin, r->f[x].smax};
		int64_t ys[2] = {r->f[y].smin, r->f[y].smax};
		int64_t plo = 0, phi = 0;
		for (int k = 0; k < 4; k++) {
			int64_t p =
			    exact(w, IR_INT_MUL_OVF, xs[k / 2], ys[k % 2], &d);
			plo = k == 0 ? p : smin64(plo, p);
			phi = k == 0 ? p : smax64(phi, p);
		}
		refine(r, op->result, srange(w, plo, phi), REFINE_DEPTH);
		/* A square that does not overflow is its exact value, and
		 * an exact square is >= 0 (issue 26: PyPy's tests remove
		 * int_ge(x * x, 0) after int_mul_ovf(x, x)). */
		if (x == y)
			refine(r, op->result, srange(w, 0, hi), REFINE_DEPTH);
		break;
	}
	default: break;
	}
}

/* Guard op I is assumed to pass. */
static void assume_guard(vr_state *r, uint32_t i)
{
	const ir_trace *t = r->t;
	const ir_op *op = &t->ops[i];
	int w = r->w;
	switch (op->opc) {
	case IR_GUARD_TRUE:
		refine(r, op->args[0], exclude(w, r->f[op->args[0]], 0),
		       REFINE_DEPTH);
		break;
	case IR_GUARD_FALSE:
		refine(r, op->args[0], fconst(w, 0), REFINE_DEPTH);
		break;
	case IR_GUARD_VALUE:
		if (is_int(t, op->args[0]) && is_int(t, op->args[1]))
			assume_eq(r, op->args[0], op->args[1], REFINE_DEPTH);
		break;
	case IR_GUARD_NO_OVERFLOW:
		if (i > 0 && ir_op_has((ir_opcode)t->ops[i - 1].opc, IRF_OVF))
			assume_no_overflow(r, i - 1);
		break;
	default: break;
	}
}

void vr_advance(vr_state *r, uint32_t upto)
{
	const ir_trace *t = r->t;
	if (upto > t->nops)
		upto = t->nops;
	if (upto < r->point)
		vr_reset(r);
	for (uint32_t i = r->point; i < upto; i++) {
		const ir_op *op = &t->ops[i];
		if (has_transfer(t, i)) {
			vr_fact f = eval_now(r, op->result, ADVANCE_DEPTH);
			r->f[op->result] = f;
		} else if (op->result != IR_NOVAL) {
			r->f[op->result] = top(r->w);
		}
		if (ir_op_has((ir_opcode)op->opc, IRF_GUARD))
			assume_guard(r, i);
	}
	r->point = upto;
}

/* ---- queries -------------------------------------------------------- */

void vr_narrow(vr_state *r)
{
	const ir_trace *t = r->t;
	if (r->infeasible)
		return;
	for (uint32_t i = 0; i < r->point; i++) {
		if (!has_transfer(t, i))
			continue;
		const ir_op *op = &t->ops[i];
		vr_fact a[2] = {top(r->w), top(r->w)}, both;
		for (uint32_t k = 0; k < op->nargs; k++)
			a[k] = r->f[op->args[k]];
		vr_fact g = vrt_transfer_op(r->w, op, a);
		ir_vid c = cancelled(t, op);
		if (c != IR_NOVAL && meet(r->w, &g, &r->f[c], &both))
			g = both;
		if (meet(r->w, &r->f[op->result], &g, &both))
			r->f[op->result] = both;
	}
}

vr_fact vr_get(const vr_state *r, ir_vid v)
{
	if (!is_int(r->t, v))
		return top(r->w);
	return eval_now(r, v, QUERY_DEPTH);
}

bool vr_const(const vr_state *r, ir_vid v, uint64_t *c)
{
	if (!is_int(r->t, v))
		return false;
	vr_fact f = vr_get(r, v);
	if (!is_const(&f))
		return false;
	*c = f.umin;
	return true;
}

/* Whether every bit that may be 1 in A is known 1 in B. */
static bool bits_within(int w, const vr_fact *a, const vr_fact *b)
{
	return (sem_allones(w) & ~a->zeros & ~b->ones) == 0;
}

int vr_same_arg(const vr_state *r, uint32_t i)
{
	const ir_trace *t = r->t;
	if (r->infeasible || i >= r->point || !has_transfer(t, i))
		return -1;
	const ir_op *op = &t->ops[i];
	int w = r->w;
	const vr_fact *x = &r->f[op->args[0]];
	const vr_fact *y = op->nargs > 1 ? &r->f[op->args[1]] : NULL;
	switch (op->opc) {
	case IR_INT_AND:
		return bits_within(w, x, y) ? 0 : bits_within(w, y, x) ? 1 : -1;
	case IR_INT_OR:
		return bits_within(w, y, x) ? 0 : bits_within(w, x, y) ? 1 : -1;
	case IR_INT_MUL: {
		vr_fact cx = vrt_mul_factor(w, y, x),
			cy = vrt_mul_factor(w, x, y);
		return is_const(&cy) && cy.umin == 1   ? 0
		       : is_const(&cx) && cx.umin == 1 ? 1
						       : -1;
	}
	case IR_INT_FORCE_GE_ZERO: return x->smin >= 0 ? 0 : -1;
	case IR_INT_IS_TRUE: return x->umax <= 1 ? 0 : -1;
	case IR_INT_PY_MOD:
		return x->smin >= 0 && y->smin >= 1 && x->smax < y->smin ? 0
									 : -1;
	case IR_INT_SIGNEXT: {
		if (!is_const(y) || y->umin == 0)
			return -1;
		if (y->umin >= (uint64_t)w / 8)
			return 0;
		int64_t lim = INT64_C(1) << (y->umin * 8 - 1);
		return x->smin >= -lim && x->smax < lim ? 0 : -1;
	}
	default: return -1;
	}
}

bool vr_known(const vr_state *r, ir_vid v, uint64_t *c)
{
	if (!is_int(r->t, v) || !is_const(&r->f[v]))
		return false;
	*c = r->f[v].umin;
	return true;
}

/* Whether x * y overflows for every x, y of the facts: when neither
 * interval contains 0 the product keeps one sign and its size only grows
 * away from the corner nearest 0, so that corner decides. */
static bool mul_must_overflow(int w, const vr_fact *x, const vr_fact *y)
{
	if ((x->smin <= 0 && x->smax >= 0) || (y->smin <= 0 && y->smax >= 0))
		return false;
	int64_t xa = x->smin > 0 ? x->smin : x->smax;
	int64_t ya = y->smin > 0 ? y->smin : y->smax;
	int d;
	exact(w, IR_INT_MUL_OVF, xa, ya, &d);
	return d != 0;
}

/* Whether the overflow-checked op I overflows never (WANT false) or
 * always (WANT true), judged from its operands' facts. */
static bool ovf_decided(const vr_state *r, uint32_t i, bool want)
{
	const ir_op *op = &r->t->ops[i];
	int w = r->w, dlo, dhi;
	vr_fact x = vr_get(r, op->args[0]), y = vr_get(r, op->args[1]);
	if (op->opc == IR_INT_SUB_OVF && op->args[0] == op->args[1])
		return !want; /* x - x = 0 never overflows */
	switch (op->opc) {
	case IR_INT_ADD_OVF:
		exact(w, IR_INT_ADD_OVF, x.smin, y.smin, &dlo);
		exact(w, IR_INT_ADD_OVF, x.smax, y.smax, &dhi);
		return want ? dlo > 0 || dhi < 0 : dlo == 0 && dhi == 0;
	case IR_INT_SUB_OVF:
		exact(w, IR_INT_SUB_OVF, x.smin, y.smax, &dlo);
		exact(w, IR_INT_SUB_OVF, x.smax, y.smin, &dhi);
		return want ? dlo > 0 || dhi < 0 : dlo == 0 && dhi == 0;
	case IR_INT_MUL_OVF: {
		if (want)
			return mul_must_overflow(w, &x, &y);
		int64_t xs[2] = {x.smin, x.smax}, ys[2] = {y.smin, y.smax};
		for (int k = 0; k < 4; k++) {
			int d;
			exact(w, IR_INT_MUL_OVF, xs[k / 2], ys[k % 2], &d);
			if (d)
				return false;
		}
		return true;
	}
	default: return false;
	}
}

bool vr_guard_passes(const vr_state *r, uint32_t k)
{
	const ir_trace *t = r->t;
	if (k >= t->nops || !ir_op_has((ir_opcode)t->ops[k].opc, IRF_GUARD))
		return false;
	if (r->infeasible)
		return true;
	const ir_op *op = &t->ops[k];
	switch (op->opc) {
	case IR_GUARD_TRUE: {
		vr_fact c = vr_get(r, op->args[0]);
		return c.umin >= 1;
	}
	case IR_GUARD_FALSE: {
		vr_fact c = vr_get(r, op->args[0]);
		return c.umax == 0;
	}
	case IR_GUARD_VALUE: {
		uint64_t a, b;
		if (op->args[0] == op->args[1])
			return true;
		return vr_const(r, op->args[0], &a) &&
		       vr_const(r, op->args[1], &b) && a == b;
	}
	case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW:
		return k > 0 &&
		       ir_op_has((ir_opcode)t->ops[k - 1].opc, IRF_OVF) &&
		       ovf_decided(r, k - 1, op->opc == IR_GUARD_OVERFLOW);
	default: return false;
	}
}
