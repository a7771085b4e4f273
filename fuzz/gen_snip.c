/*
 * gen_snip.c - the generator's integer snippets: the multi-op shapes the
 * integer optimizations reason about, with random operands and constants
 * chosen so that the example still passes (docs/fuzzing.md lists them and
 * the bug each is aimed at).
 */
#include "fuzz/gen_int.h"

#include "ir/sem.h"

/* y = x + c (or c + x, x - c); a range guard on y; a range guard on x
 * whose bound is derived from the first (k - c): the shape from which a
 * bounds pass concludes facts about x, right or wrong under wraparound. */
void gen_snip_addcmp(gen_ctx *g)
{
	ir_vid x = gen_pick_val(g);
	uint64_t c = gen_edge_value(g);
	if (c == 0)
		c = 1;
	ir_vid cv = gen_cst(g, c);
	uint32_t form = (uint32_t)rng_below(&g->r, 3);
	ir_vid y = form == 0   ? gen_emit(g, IR_INT_ADD, x, cv)
		   : form == 1 ? gen_emit(g, IR_INT_ADD, cv, x)
			       : gen_emit(g, IR_INT_SUB, x, cv);
	uint64_t k = gen_near(g, g->ex[y]);
	gen_signed_guard(g, y, k);
	uint64_t m = form == 2 ? k + c : k - c;
	gen_signed_guard(g, x,
			 sem_mask(g->w, m + (uint64_t)rng_range(&g->r, -1, 2)));
	g->must_out[x] = 1;
}

/* A range guard on x, then y = -x (int_neg or 0 - x) and a range guard on
 * y near the negated bound: the MININT corner of negation. */
void gen_snip_neg(gen_ctx *g)
{
	ir_vid x = gen_pick_val(g);
	uint64_t k = rng_chance(&g->r, 1, 3) ? 0 : gen_near(g, g->ex[x]);
	gen_signed_guard(g, x, k);
	ir_vid y = rng_chance(&g->r, 1, 2)
		       ? gen_emit(g, IR_INT_NEG, x, 0)
		       : gen_emit(g, IR_INT_SUB, gen_cst(g, 0), x);
	uint64_t k2 = sem_mask(g->w, 0 - k + (uint64_t)rng_range(&g->r, -1, 1));
	gen_signed_guard(g, y,
			 rng_chance(&g->r, 1, 4) ? gen_near(g, g->ex[y]) : k2);
	g->must_out[y] = 1;
}

/* int_mul(x, c) == c guarded true, then x is used: from this a careless
 * optimizer concludes x == 1.  c is chosen so the example satisfies it:
 * any c when x is 1, else a multiple of 2^(W - tz(x - 1)). */
void gen_snip_muleq(gen_ctx *g)
{
	/* Prefer an x whose example admits a nonzero c. */
	ir_vid x = gen_pick_val(g);
	for (int i = 0; i < 4 && !(g->ex[x] & 1); i++)
		x = gen_pick_val(g);
	uint64_t e = g->ex[x], c;
	/* c is never a power of two: int_mul by 2^k becomes a shift before
	 * the bounds pass sees it. */
	uint64_t odd = 3 + 2 * rng_below(&g->r, 32);
	if (e == 1) {
		/* An even c leaves the high bits of x free: x == 1 does not
		 * follow, which is what a wrong backward rule gets wrong. */
		c = rng_chance(&g->r, 1, 5)
			? gen_edge_value(g)
			: sem_mask(g->w,
				   odd << rng_below(&g->r, (uint64_t)g->w - 2));
	} else {
		uint64_t d = sem_mask(g->w, e - 1);
		int tz = 0;
		while (tz < g->w && !((d >> tz) & 1))
			tz++;
		/* x * c == c needs c * (x - 1) == 0 mod 2^W: c a multiple
		 * of 2^(W - tz); tz = 0 (x even) leaves only c = 0. */
		c = tz == 0 ? 0 : sem_mask(g->w, odd << (g->w - tz));
	}
	if (c == 0 || (c & (c - 1)) == 0)
		c = sem_mask(g->w, c * 3 + (c == 0 ? 12 : 0));
	if (sem_mask(g->w, g->ex[x] * c) != c && e != 1)
		x = gen_cst(g,
			    1); /* cannot hold on the example: keep it valid */
	ir_vid cv = gen_cst(g, c);
	ir_vid y = rng_chance(&g->r, 1, 2) ? gen_emit(g, IR_INT_MUL, x, cv)
					   : gen_emit(g, IR_INT_MUL, cv, x);
	if (rng_chance(&g->r, 2, 3))
		gen_guard(g, IR_GUARD_VALUE, y, cv);
	else
		gen_guard_bool(
		    g,
		    gen_emit(g, rng_chance(&g->r, 3, 4) ? IR_INT_EQ : IR_INT_NE,
			     y, cv));
	if (rng_chance(&g->r, 1, 2))
		gen_range_guard(g, x, g->ex[x]);
	g->must_out[x] = 1;
}

/* y = x << n with a small constant n, a range guard on y, then a range
 * guard on x with the bound shifted back (k >> n): the backward reasoning
 * through a shift that loses the bits shifted out.  Sometimes the PyPy
 * shape instead: int_lshift(2^j, n) with n range-guarded. */
void gen_snip_lshift(gen_ctx *g)
{
	int w = g->w;
	if (rng_chance(&g->r, 1, 4)) {
		ir_vid n = gen_pick_val(g);
		gen_guard_bool(g, gen_emit(g, IR_UINT_LT, n,
					   gen_cst(g, g->ex[n] < (uint64_t)w
							  ? (uint64_t)w
							  : g->ex[n] + 1)));
		ir_vid y = gen_emit(
		    g, IR_INT_LSHIFT,
		    gen_cst(g, gen_pow2(g, (int)rng_below(&g->r, (uint64_t)w))),
		    n);
		gen_guard(g, IR_GUARD_VALUE, y, gen_cst(g, g->ex[y]));
		g->must_out[n] = 1;
		return;
	}
	ir_vid x = gen_pick_val(g);
	uint64_t n = rng_chance(&g->r, 1, 5)
			 ? (uint64_t)w - 1 - rng_below(&g->r, 3)
			 : 1 + rng_below(&g->r, 8);
	ir_vid y = gen_emit(g, IR_INT_LSHIFT, x, gen_cst(g, n));
	uint64_t k = gen_near(g, g->ex[y]);
	gen_signed_guard(g, y, k);
	uint64_t m = sem_from_signed(w, sem_signed(w, k) >> n);
	gen_signed_guard(g, x,
			 sem_mask(w, m + (uint64_t)rng_range(&g->r, -1, 1)));
	g->must_out[x] = 1;
}

/* int_sub_ovf(int_add(a, b), b) and its guard: CSE/simplification may turn
 * it into a, forgetting that the add may have wrapped. */
void gen_snip_ovfcse(gen_ctx *g)
{
	ir_vid a = gen_pick_val(g), b = gen_pick_operand(g, 15);
	ir_vid s = rng_chance(&g->r, 1, 2) ? gen_emit(g, IR_INT_ADD, a, b)
					   : gen_emit(g, IR_INT_ADD, b, a);
	ir_vid r = gen_emit(g, IR_INT_SUB_OVF, s, b);
	gen_guard_ovf(g);
	g->must_out[r] = 1;
}

/* x // (1 << y) (or %) with y a constant near W-1 or a value masked into
 * [0, W): strength reduction to a shift must exclude y = W-1. */
void gen_snip_pow2div(gen_ctx *g)
{
	int w = g->w;
	ir_vid y;
	uint32_t c = (uint32_t)rng_below(&g->r, 20);
	if (c < 3)
		y = gen_cst(g, (uint64_t)w - 1);
	else if (c < 5)
		y = gen_cst(g, rng_below(&g->r, (uint64_t)w));
	else
		y = gen_emit(g, IR_INT_AND, gen_pick_input_or_val(g),
			     gen_cst(g, (uint64_t)w - 1));
	ir_vid p = gen_emit(g, IR_INT_LSHIFT, gen_cst(g, 1), y);
	ir_vid x = gen_pick_input_or_val(g);
	ir_vid q = gen_emit(
	    g, rng_chance(&g->r, 4, 5) ? IR_INT_PY_DIV : IR_INT_PY_MOD, x, p);
	g->must_out[q] = 1;
}

/* int_force_ge_zero of a value known to be odd, then a guard on the
 * result's sign or zeroness. */
void gen_snip_fgez(gen_ctx *g)
{
	ir_vid v = gen_pick_val(g), odd;
	if ((g->ex[v] & 1) && rng_chance(&g->r, 1, 2)) {
		gen_guard(g, IR_GUARD_VALUE,
			  gen_emit(g, IR_INT_AND, v, gen_cst(g, 1)),
			  gen_cst(g, 1));
		odd = v;
	} else {
		odd = gen_emit(g, IR_INT_OR, v, gen_cst(g, 1));
	}
	ir_vid r = gen_emit(g, IR_INT_FORCE_GE_ZERO, odd, 0);
	switch (rng_below(&g->r, 4)) {
	case 0: gen_guard_bool(g, gen_emit(g, IR_INT_IS_ZERO, r, 0)); break;
	case 1: gen_guard_bool(g, gen_emit(g, IR_INT_IS_TRUE, r, 0)); break;
	case 2:
		gen_guard_bool(g, gen_emit(g, IR_INT_GT, r, gen_cst(g, 0)));
		break;
	default:
		gen_guard_bool(g, gen_emit(g, IR_INT_GE, r, gen_cst(g, 1)));
		break;
	}
	g->must_out[r] = 1;
}

/* y = x & mask, then a range or known-bits guard on y (or on a second
 * mask of it): range and known bits of an and must agree.  Half of the
 * time the bits under the mask are all known (int_or(v, m) & m,
 * int_lshift(v, k) & (2^k - 1), or a known-bits guard on v and then a
 * narrower mask): the result is then a constant by its known bits while
 * its range is still wide. */
void gen_snip_and(gen_ctx *g)
{
	ir_vid x = gen_pick_val(g);
	uint64_t m = gen_mask_value(g);
	switch (rng_below(&g->r, 6)) {
	case 0:
		x = gen_emit(g, IR_INT_OR, x, gen_cst(g, m));
		if (rng_chance(&g->r, 1, 2))
			m &= gen_mask_value(g) | 1;
		break;
	case 1: {
		uint64_t k = 1 + rng_below(&g->r, (uint64_t)g->w - 1);
		x = gen_emit(g, IR_INT_LSHIFT, x, gen_cst(g, k));
		m = gen_pow2(g, (int)k) - 1;
		break;
	}
	case 2: {
		/* Known bits from a guard, then a narrower mask. */
		ir_vid k = gen_emit(g, IR_INT_AND, x, gen_cst(g, m));
		gen_guard(g, IR_GUARD_VALUE, k, gen_cst(g, g->ex[k]));
		m &= gen_mask_value(g);
		break;
	}
	default: break;
	}
	ir_vid y = rng_chance(&g->r, 1, 2)
		       ? gen_emit(g, IR_INT_AND, x, gen_cst(g, m))
		       : gen_emit(g, IR_INT_AND, gen_cst(g, m), x);
	switch (rng_below(&g->r, 5)) {
	case 0:
		gen_range_guard(g, y, rng_chance(&g->r, 1, 2) ? m : g->ex[y]);
		break;
	case 1: gen_signed_guard(g, y, gen_near(g, m)); break;
	case 2: {
		ir_vid z =
		    gen_emit(g, IR_INT_AND, y, gen_cst(g, gen_mask_value(g)));
		gen_guard(g, IR_GUARD_VALUE, z, gen_cst(g, g->ex[z]));
		break;
	}
	case 3: gen_guard_bool(g, gen_emit(g, IR_INT_IS_ZERO, y, 0)); break;
	default: break; /* the output alone shows a wrong constant */
	}
	g->must_out[y] = 1;
}

/* An op and, later, its overflow-checked twin on the same operands:
 * value numbering may reuse the plain op's result, but must keep the
 * overflow check. */
void gen_snip_ovftwin(gen_ctx *g)
{
	static const ir_opcode plain[] = {IR_INT_ADD, IR_INT_ADD, IR_INT_SUB,
					  IR_INT_MUL};
	static const ir_opcode checked[] = {IR_INT_ADD_OVF, IR_INT_ADD_OVF,
					    IR_INT_SUB_OVF, IR_INT_MUL_OVF};
	int k = (int)rng_below(&g->r, 4);
	ir_vid a = gen_pick_val(g), b = gen_pick_operand(g, k == 3 ? 85 : 20);
	ir_vid p = gen_emit(g, plain[k], a, b);
	if (rng_chance(&g->r, 1, 2))
		gen_act_binop(g);
	bool swap = ir_op_has(checked[k], IRF_COMM) && rng_chance(&g->r, 1, 3);
	ir_vid c = swap ? gen_emit(g, checked[k], b, a)
			: gen_emit(g, checked[k], a, b);
	gen_guard_ovf(g);
	g->must_out[p] = 1;
	g->must_out[c] = 1;
}

/* guard_value(x, 1) on an x that is 1 on the example but not known to be
 * a boolean: x = v - (example(v) - 1), or a mask of v that is 1. */
void gen_snip_gvbool(gen_ctx *g)
{
	ir_vid v = gen_pick_val(g), x;
	if ((g->ex[v] & 1) && rng_chance(&g->r, 1, 3))
		x = gen_emit(g, IR_INT_AND, v,
			     gen_cst(g, 1 + 2 * rng_below(&g->r, 8)));
	else if (rng_chance(&g->r, 1, 2))
		x = gen_emit(g, IR_INT_SUB, v, gen_cst(g, g->ex[v] - 1));
	else
		x = gen_emit(g, IR_INT_ADD, v, gen_cst(g, 1 - g->ex[v]));
	if (g->ex[x] == 1)
		gen_guard(g, IR_GUARD_VALUE, x, gen_cst(g, 1));
	else
		gen_guard(g, IR_GUARD_VALUE, x, gen_cst(g, g->ex[x]));
	g->must_out[x] = 1;
}

/* A signed range guard on x, then an unsigned comparison of x against a
 * constant near the bound: unsigned order must not be read off the
 * signed range when it contains negative numbers. */
void gen_snip_ucmp(gen_ctx *g)
{
	static const ir_opcode ucmp[] = {IR_UINT_LT, IR_UINT_LE, IR_UINT_GT,
					 IR_UINT_GE};
	ir_vid x = gen_pick_val(g);
	uint64_t k = gen_near(g, g->ex[x]);
	gen_signed_guard(g, x, k);
	uint64_t k2 =
	    rng_chance(&g->r, 1, 2) ? gen_near(g, k) : gen_near(g, g->ex[x]);
	ir_vid c = rng_chance(&g->r, 1, 4)
		       ? gen_emit(g, PICK(ucmp), gen_cst(g, k2), x)
		       : gen_emit(g, PICK(ucmp), x, gen_cst(g, k2));
	gen_guard_bool(g, c);
	g->must_out[x] = 1;
}
