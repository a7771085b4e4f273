/*
 * gen_edge.c - edge values and the edge-directed shapes of the generator.
 *
 * The bounds domain (passes/bounds*.c) treats a few constants specially:
 * a shift count of W, the byte widths of int_signext, the overflow line
 * of a product (factors within +-2^(W/2)), MININT and MAXINT, the lower
 * bound of a divisor.  Its bugs are off-by-one at exactly those edges, and
 * random traces reach an edge only by chance (once in tens of thousands of
 * traces, issue 29).  The shapes here build values whose range ends
 * exactly at such a constant, so that the analysis must decide the edge
 * case, and then an op and a guard or output that show a wrong decision.
 *
 * Ranges are built two ways, both consistent with the example values:
 *   - by arithmetic, (v & m) + (c - m) lies in [c - m, c] for every v;
 *   - by a guard, x <= c when the example of x is, else x > c (the guard
 *     helpers pick the side the example satisfies).
 *
 * Map:
 *   values                  gen_pow2 ... gen_input_value (where bugs live)
 *   range builders          upto, edge_guard, special
 *   the shapes              edge_range, edge_ovf_line, edge_shift_w,
 *                           edge_mul_ovf, edge_signext, edge_mod, edge_alias
 *   gen_edge_shape          the dispatcher
 */
#include "fuzz/gen_int.h"

#include "ir/sem.h"

uint64_t gen_pow2(gen_ctx *g, int k)
{
	return sem_mask(g->w, UINT64_C(1) << k);
}

uint64_t gen_sgn(gen_ctx *g, int64_t v)
{
	return sem_from_signed(g->w, v);
}

/* A byte pattern repeated over the width: 0x5555..., 0x0f0f..., ... */
uint64_t gen_repeated(gen_ctx *g)
{
	static const uint8_t bytes[] = {0x55, 0xaa, 0x0f, 0xf0, 0x33,
					0xcc, 0xff, 0x80, 0x01, 0x7f};
	uint64_t b = bytes[rng_below(&g->r, sizeof bytes)];
	if (rng_chance(&g->r, 1, 4)) /* 16-bit patterns 0xff00..., 0x00ff... */
		return sem_mask(g->w, rng_chance(&g->r, 1, 2)
					  ? UINT64_C(0xff00ff00ff00ff00)
					  : UINT64_C(0x00ff00ff00ff00ff));
	return sem_mask(g->w, b * UINT64_C(0x0101010101010101));
}

/* A value where bugs live: 0, +-1, MININT, MAXINT and neighbours, +-2^k,
 * 2^k +- 1, low and high masks, repeated bit patterns, small numbers. */
uint64_t gen_edge_value(gen_ctx *g)
{
	rng *r = &g->r;
	int w = g->w;
	int k = (int)rng_below(r, (uint64_t)w);
	switch (rng_below(r, 12)) {
	case 0: return gen_sgn(g, rng_range(r, -2, 2));
	case 1: return rng_chance(r, 1, 2) ? sem_minint(w) : sem_maxint(w);
	case 2:
		return sem_mask(w,
				sem_minint(w) + (uint64_t)rng_range(r, -2, 2));
	case 3: return gen_pow2(g, k);
	case 4: return sem_mask(w, 0 - gen_pow2(g, k));
	case 5:
		return sem_mask(w,
				gen_pow2(g, k) + (uint64_t)rng_range(r, -1, 1));
	case 6:
		return rng_chance(r, 1, 2) ? sem_mask(w, gen_pow2(g, k) - 1)
					   : sem_mask(w, ~(gen_pow2(g, k) - 1));
	case 7: return gen_repeated(g);
	case 8:
	case 9: return gen_sgn(g, rng_range(r, -16, 16));
	case 10: return gen_sgn(g, rng_range(r, -1000, 1000));
	default: {
		/* Random bits of a random magnitude, either sign. */
		uint64_t x = rng_next(r) & (gen_pow2(g, k) * 2 - 1);
		return sem_mask(w, rng_chance(r, 1, 2) ? x : 0 - x);
	}
	}
}

/* An example input: edge values, small numbers and random magnitudes. */
uint64_t gen_input_value(gen_ctx *g)
{
	switch (rng_below(&g->r, 10)) {
	case 0:
	case 1:
	case 2:
	case 3: return gen_edge_value(g);
	case 4:
	case 5:
	case 6: return gen_sgn(g, rng_range(&g->r, -100, 100));
	default: {
		int k = (int)rng_below(&g->r, (uint64_t)g->w);
		uint64_t x = rng_next(&g->r) & (gen_pow2(g, k) * 2 - 1);
		return sem_mask(g->w, rng_chance(&g->r, 1, 2) ? x : 0 - x);
	}
	}
}

/* ---- range builders ---- */

/* (v & m) + (c - m) with m = 2^j - 1: exactly the range [c - m, c] (C - M
 * must not wrap; callers keep C - M >= MININT). */
static ir_vid upto(gen_ctx *g, ir_vid v, uint64_t c, uint64_t m)
{
	ir_vid x = gen_emit(g, IR_INT_AND, v, gen_cst(g, m));
	return gen_emit(g, IR_INT_ADD, x, gen_cst(g, sem_mask(g->w, c - m)));
}

/* A low mask 2^j - 1 with 1 <= j <= MAXJ. */
static uint64_t low_mask(gen_ctx *g, int maxj)
{
	return gen_pow2(g, 1 + (int)rng_below(&g->r, (uint64_t)maxj)) - 1;
}

/* A guard that makes X's range end at C: x <= c (or c >= x) when the
 * example of X is at most C, else x > c (or c < x), so that X lies on the
 * side of the edge its example is on.  Signed, or unsigned when UNS. */
static void edge_guard(gen_ctx *g, ir_vid x, uint64_t c, bool uns)
{
	int w = g->w;
	uint64_t e = g->ex[x];
	bool below = uns ? e <= c : sem_signed(w, e) <= sem_signed(w, c);
	ir_opcode opc;
	if (below)
		opc = uns ? IR_UINT_LE : IR_INT_LE;
	else
		opc = uns ? IR_UINT_GT : IR_INT_GT;
	ir_vid k = gen_cst(g, c);
	/* Either operand order: the swapped comparisons are other ops. */
	if (rng_chance(&g->r, 1, 3)) {
		ir_opcode sw = below ? (uns ? IR_UINT_GE : IR_INT_GE)
				     : (uns ? IR_UINT_LT : IR_INT_LT);
		gen_guard_bool(g, gen_emit(g, sw, k, x));
	} else {
		gen_guard_bool(g, gen_emit(g, opc, x, k));
	}
}

/* A constant the domain treats specially, at width W. */
static uint64_t special(gen_ctx *g)
{
	int w = g->w;
	rng *r = &g->r;
	switch (rng_below(r, 9)) {
	case 0: return (uint64_t)w - rng_below(r, 2); /* W, W-1 */
	case 1: return (uint64_t)w + 1;
	case 2: return gen_pow2(g, w / 2) - rng_below(r, 2);
	case 3: return sem_mask(w, 0 - gen_pow2(g, w / 2));
	case 4: return sem_mask(w, sem_maxint(w) - rng_below(r, 3));
	case 5: return sem_mask(w, sem_minint(w) + rng_below(r, 3));
	case 6: {
		/* 2^7, 2^15, 2^31 (the int_signext edges) and their -1. */
		int k = 8 * (1 << rng_below(r, 3)) - 1;
		if (k >= w)
			k = w - 2;
		return gen_pow2(g, k) - rng_below(r, 2);
	}
	case 7: return gen_pow2(g, (int)rng_below(r, (uint64_t)w - 1));
	default: return gen_pow2(g, 1 + (int)rng_below(r, (uint64_t)w - 2)) - 1;
	}
}

/* ---- the shapes ---- */

/* A value guarded to end at a special constant, then an op on it and a
 * range guard on the result near its example: the transfer function must
 * get the edge right. */
static void edge_range(gen_ctx *g)
{
	static const ir_opcode ops[] = {
	    IR_INT_ADD,	   IR_INT_SUB,	  IR_INT_NEG,		IR_INT_LSHIFT,
	    IR_INT_RSHIFT, IR_INT_MUL,	  IR_UINT_RSHIFT,	IR_INT_AND,
	    IR_INT_OR,	   IR_INT_INVERT, IR_INT_FORCE_GE_ZERO,
	};
	ir_vid x = gen_pick_input_or_val(g);
	uint64_t c = special(g);
	edge_guard(g, x, c, rng_chance(&g->r, 1, 4));
	if (rng_chance(&g->r, 1, 3)) /* both ends at an edge */
		edge_guard(g, x, special(g), false);
	ir_opcode opc = PICK(ops);
	ir_vid y;
	switch (opc) {
	case IR_INT_NEG:
	case IR_INT_INVERT:
	case IR_INT_FORCE_GE_ZERO: y = gen_emit(g, opc, x, 0); break;
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT:
		y = gen_emit(g, opc, x, gen_cst(g, 1 + rng_below(&g->r, 3)));
		break;
	case IR_INT_MUL:
		y = gen_emit(g, opc, x,
			     gen_cst(g, gen_sgn(g, rng_range(&g->r, -3, 3))));
		break;
	default:
		y = gen_emit(
		    g, opc, x,
		    gen_cst(g, rng_chance(&g->r, 1, 2)
				   ? gen_sgn(g, rng_range(&g->r, -2, 2))
				   : special(g)));
		break;
	}
	if (rng_chance(&g->r, 1, 2))
		gen_range_guard(g, y, g->ex[y]);
	else
		gen_guard_bool(g, gen_emit(g, IR_INT_IS_ZERO, y, 0));
	g->must_out[y] = 1;
}

/* x at the overflow line: guarded up to MAXINT - k (or down to MININT + k),
 * or built in [MAXINT - m, MAXINT] (or [MININT, MININT + m]); then x +- k'
 * with overflow check, k' near k, so that whether it may or must
 * overflow is decided at the edge, and the example overflows about
 * k' / m of the time.  Half of the time the wrapped (or exact) result is
 * used again in checked arithmetic: the same op again (its twin), or the
 * inverse op (r - k' after x + k'), which is exact only when the first
 * did not overflow. */
static void edge_ovf_line(gen_ctx *g)
{
	int w = g->w;
	ir_vid x = gen_pick_input_or_val(g);
	int64_t k = rng_range(&g->r, 0, 3);
	bool top = rng_chance(&g->r, 1, 2);
	uint64_t c = top ? sem_mask(w, sem_maxint(w) - (uint64_t)k)
			 : sem_mask(w, sem_minint(w) + (uint64_t)k);
	if (rng_chance(&g->r, 1, 2)) {
		edge_guard(g, x, c, false);
	} else {
		uint64_t m = low_mask(g, 3);
		x = upto(g, x,
			 top ? sem_maxint(w) : sem_mask(w, sem_minint(w) + m),
			 m);
		k = (int64_t)rng_below(&g->r, m + 1);
	}
	int64_t k2 = k + rng_range(&g->r, -1, 1);
	if (k2 < 0)
		k2 = 0;
	bool add = top == rng_chance(&g->r, 3, 4);
	ir_opcode opc = add ? IR_INT_ADD_OVF : IR_INT_SUB_OVF;
	ir_vid kv = gen_cst(g, (uint64_t)k2 + rng_below(&g->r, 2));
	ir_vid r = gen_emit(g, opc, x, kv);
	gen_guard_ovf(g);
	g->must_out[r] = 1;
	if (rng_chance(&g->r, 1, 2)) {
		ir_vid r2 =
		    rng_chance(&g->r, 1, 2)
			? gen_emit(g, opc, x, kv)
			: gen_emit(g, add ? IR_INT_SUB_OVF : IR_INT_ADD_OVF, r,
				   kv);
		gen_guard_ovf(g);
		g->must_out[r2] = 1;
	}
}

/* A variable shift count whose range ends exactly at W (the count W shifts
 * everything out), and a shifted value whose result at the counts below W
 * is never 0: x odd for <<, x negative for >>>. */
static void edge_shift_w(gen_ctx *g)
{
	int w = g->w;
	ir_vid v = gen_pick_input_or_val(g), n;
	if (rng_chance(&g->r, 2, 3)) {
		n = upto(g, v, (uint64_t)w, low_mask(g, 3));
	} else {
		n = gen_emit(g, IR_INT_AND, v, gen_cst(g, 2 * (uint64_t)w - 1));
		edge_guard(g, n, (uint64_t)w, rng_chance(&g->r, 1, 2));
	}
	ir_vid u = gen_pick_val(g), x;
	ir_opcode opc;
	switch (rng_below(&g->r, 4)) {
	case 0:
		x = gen_emit(g, IR_INT_OR, u, gen_cst(g, 1));
		opc = IR_INT_LSHIFT;
		break;
	case 1:
		x = gen_emit(g, IR_INT_OR, u, gen_cst(g, sem_minint(w)));
		opc = IR_UINT_RSHIFT;
		break;
	case 2: {
		static const ir_opcode sh[] = {IR_INT_LSHIFT, IR_INT_RSHIFT,
					       IR_UINT_RSHIFT};
		x = gen_cst(g, rng_chance(&g->r, 1, 2) ? 1 : sem_allones(w));
		opc = PICK(sh);
		break;
	}
	default: {
		static const ir_opcode sh[] = {IR_INT_LSHIFT, IR_INT_RSHIFT,
					       IR_UINT_RSHIFT};
		x = u;
		opc = PICK(sh);
		break;
	}
	}
	ir_vid y = gen_emit(g, opc, x, n);
	if (rng_chance(&g->r, 1, 2))
		gen_guard_bool(g, gen_emit(g, IR_INT_IS_ZERO, y, 0));
	g->must_out[y] = 1;
	g->must_out[n] = 1;
}

/* A factor of an edge product: within +-2^(W/2), often big enough that
 * the product overflows. */
static ir_vid factor(gen_ctx *g)
{
	int h = g->w / 2;
	uint64_t m = gen_pow2(g, h) - 1;
	ir_vid v = gen_pick_input_or_val(g);
	switch (rng_below(&g->r, 5)) {
	case 0:
	case 1: /* [3/4 * 2^h, 2^h - 1]: the product always overflows */
		return gen_emit(
		    g, IR_INT_OR, gen_emit(g, IR_INT_AND, v, gen_cst(g, m)),
		    gen_cst(g, gen_pow2(g, h - 1) | gen_pow2(g, h - 2)));
	case 2: return gen_emit(g, IR_INT_AND, v, gen_cst(g, m));
	case 3: /* [-(2^h - 1), -2^(h-1)] */
		return gen_emit(
		    g, IR_INT_SUB, gen_cst(g, 0),
		    gen_emit(g, IR_INT_OR,
			     gen_emit(g, IR_INT_AND, v, gen_cst(g, m)),
			     gen_cst(g, gen_pow2(g, h - 1))));
	default: /* a constant at the line */
		return gen_cst(g, sem_mask(g->w, m - rng_below(&g->r, 3)));
	}
}

/* int_mul_ovf of two factors bounded within +-2^(W/2) that may still
 * overflow (|x|, |y| < 2^(W/2) allows products up to 2^W).  The second
 * factor is mostly a constant at the line: a product of two variables
 * costs the solver about ten times more (its overflow flag bit-blasts a
 * double-width multiplier), and the example often shows the overflow
 * anyway. */
static void edge_mul_ovf(gen_ctx *g)
{
	ir_vid a = factor(g), b;
	if (ir_is_const(g->t, a) || rng_chance(&g->r, 1, 4)) {
		b = gen_emit(g, IR_INT_AND, gen_pick_input_or_val(g),
			     gen_cst(g, gen_pow2(g, g->w / 2) - 1));
	} else {
		uint64_t m = gen_pow2(g, g->w / 2) - 1;
		b = gen_cst(g,
			    sem_mask(g->w, rng_chance(&g->r, 1, 4)
					       ? 0 - (m - rng_below(&g->r, 3))
					       : m - rng_below(&g->r, 3)));
	}
	ir_vid r = gen_emit(g, IR_INT_MUL_OVF, a, b);
	gen_guard_ovf(g);
	g->must_out[r] = 1;
}

/* A range that ends exactly at 2^(8n-1) (or starts at -2^(8n-1) - 1),
 * sign-extended from n bytes, then guarded on its sign: 2^(8n-1) itself
 * does not fit in n bytes. */
static void edge_signext(gen_ctx *g)
{
	int w = g->w;
	uint32_t nmax = (uint32_t)w / 8 - 1; /* n = 1, 2, 4 below W/8 */
	if (nmax == 0) {
		edge_range(g);
		return;
	}
	uint64_t n = 1;
	for (uint64_t k = rng_below(&g->r, 3); k > 0 && n * 2 <= nmax; k--)
		n *= 2;
	uint64_t K = gen_pow2(g, 8 * (int)n - 1);
	ir_vid v = gen_pick_input_or_val(g), x;
	switch (rng_below(&g->r, 4)) {
	case 0: x = upto(g, v, K, K - 1); break;	  /* [1, K] */
	case 1: x = upto(g, v, K, low_mask(g, 3)); break; /* [K-m, K] */
	case 2:						  /* [-K-1, -2] */
		x = gen_emit(g, IR_INT_SUB, gen_cst(g, sem_mask(w, 0 - 2)),
			     gen_emit(g, IR_INT_AND, v, gen_cst(g, K - 1)));
		break;
	default: /* [0, 2K-1], guarded to one side of K */
		x = gen_emit(g, IR_INT_AND, v, gen_cst(g, 2 * K - 1));
		edge_guard(g, x, K, false);
		break;
	}
	ir_vid s = gen_emit(g, IR_INT_SIGNEXT, x, gen_cst(g, n));
	switch (rng_below(&g->r, 3)) {
	case 0:
		gen_guard_bool(g, gen_emit(g, IR_INT_GE, s, gen_cst(g, 0)));
		break;
	case 1:
		gen_guard_bool(g, gen_emit(g, IR_INT_LT, s, gen_cst(g, K)));
		break;
	default: break; /* the output alone shows it */
	}
	g->must_out[s] = 1;
}

/* x % y (or x // y) with a variable divisor: x in [K - m, K], y in
 * [K, K + m2], so that x's upper bound is y's lower bound (x == y gives
 * 0).  Constant divisors are rewritten before the bounds see them. */
static void edge_mod(gen_ctx *g)
{
	int w = g->w;
	uint64_t K;
	if (rng_chance(&g->r, 1, 2))
		K = low_mask(g, 6);
	else
		K = 2 + rng_below(&g->r, w > 8 ? 100 : 60);
	uint64_t m = K > 1 ? low_mask(g, 3) : 0;
	while (m >= K)
		m >>= 1;
	ir_vid x = upto(g, gen_pick_input_or_val(g), K, m);
	uint64_t m2 = low_mask(g, 2);
	ir_vid y = gen_emit(
	    g, IR_INT_ADD,
	    gen_emit(g, IR_INT_AND, gen_pick_input_or_val(g), gen_cst(g, m2)),
	    gen_cst(g, K));
	ir_vid r = gen_emit(
	    g, rng_chance(&g->r, 4, 5) ? IR_INT_PY_MOD : IR_INT_PY_DIV, x, y);
	/* r is a sink (a variable divisor); a guard on it still shows a
	 * wrong range, at the price of its circuit in later queries. */
	if (rng_chance(&g->r, 1, 4))
		gen_guard_bool(g, gen_emit(g, IR_INT_IS_ZERO, r, 0));
	g->must_out[r] = 1;
}

/* An input or loaded reference (not fresh), else NULLREF. */
static ir_vid some_input_ref(gen_ctx *g, ir_vid otherwise)
{
	for (uint32_t i = 0; i < g->nrpool; i++)
		if (!gen_is_fresh(g, g->rpool[i]) && rng_chance(&g->r, 2, 3))
			return g->rpool[i];
	return otherwise;
}

/* Aliasing between a fresh object that escaped and a reference loaded
 * after the escape (which may be it): a store through the loaded
 * reference must invalidate what is known about the fresh object.  The
 * object escapes through a call or by being stored into an input object;
 * the example heap leaves the loaded reference NULL (calls write
 * nothing), so the example still runs to the end. */
static void edge_alias(gen_ctx *g)
{
	if (!g->heap) {
		edge_range(g);
		return;
	}
	ir_vid p = gen_new_obj(g);
	uint32_t f = gen_int_field(g);
	if (rng_chance(&g->r, 2, 3))
		gen_setfield(g, p, f, gen_pick_operand(g, 30));
	ir_vid src = some_input_ref(g, p);
	if (src != p && rng_chance(&g->r, 1, 3))
		gen_setfield(g, src, gen_ref_field(g), p);
	else
		gen_escape(g, 1, &p);
	uint32_t rf = gen_ref_field(g);
	ir_vid q = gen_getfield(g, src, rf, true);
	switch (rng_below(&g->r, 4)) {
	case 0: { /* compare the two */
		ir_vid c = gen_emit(
		    g, rng_chance(&g->r, 1, 2) ? IR_PTR_EQ : IR_PTR_NE, p, q);
		gen_guard_bool(g, c);
		break;
	}
	case 1: { /* store through p, then through q, load through p */
		gen_setfield(g, p, f, gen_pick_operand(g, 30));
		gen_setfield(g, q, f, gen_pick_operand(g, 50));
		ir_vid v = gen_getfield(g, p, f, false);
		g->must_out[v] = 1;
		break;
	}
	default: { /* store through q, load through p */
		gen_setfield(g, q, f, gen_pick_operand(g, 50));
		ir_vid v = gen_getfield(g, p, f, false);
		g->must_out[v] = 1;
		break;
	}
	}
}

typedef void (*edge_fn)(gen_ctx *);

void gen_edge_shape(gen_ctx *g)
{
	/* Weighted by cost: a variable divisor and a product of variables
	 * cost the solver far more than the rest (measured: profile edge
	 * with only the mod shape runs 54 traces/s, only the range shape
	 * 390).  In a heap trace the alias shape takes half of the draws:
	 * heap traces are short and rarer. */
	static const edge_fn fns[] = {edge_range,   edge_ovf_line, edge_shift_w,
				      edge_mul_ovf, edge_signext,  edge_mod};
	static const uint32_t wts[] = {3, 2, 2, 1, 2, 1};
	if (g->heap && rng_chance(&g->r, 1, 2)) {
		edge_alias(g);
		return;
	}
	fns[rng_pick_weighted(&g->r, wts, 6)](g);
}
