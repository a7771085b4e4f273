/*
 * test_bounds.c - property tests of the bounds domain (passes/bounds.h).
 *
 * Soundness: for random abstract values and concrete members (biased to
 * edge values), every forward transfer function's result contains the
 * concrete result, every decided comparison is right, every backward
 * refinement keeps every argument consistent with the result.  At width 8
 * every member of each abstract value is enumerated (so for each pair of
 * abstract values the check is exhaustive); at widths 16, 32 and 64
 * members are sampled.
 *
 * Precision where it is promised: reduction gives exactly the members of
 * range and tnum, with tight ends; meet is exact intersection; results are
 * reduced.  And each injected bounds bug really breaks soundness.
 */
#include <stdlib.h>

#include "check.h"
#include "ir/sem.h"
#include "passes/bounds.h"
#include "passes/opt.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * UINT64_C(2685821657736338717);
}

static uint64_t below(uint64_t n)
{
	return rnd() % n;
}

/* A W-bit value biased to the edges where bounds bugs live. */
static uint64_t edge_value(int w)
{
	uint64_t min = sem_minint(w);
	switch (below(12)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return sem_allones(w);
	case 3: return min;
	case 4: return min - 1;
	case 5: return sem_mask(w, min + 1);
	case 6: return sem_mask(w, UINT64_C(1) << below((uint64_t)w));
	case 7: return sem_mask(w, (UINT64_C(1) << below((uint64_t)w)) - 1);
	case 8: return sem_mask(w, 0 - below(20));
	case 9: return below(20);
	default: return sem_mask(w, rnd());
	}
}

static int64_t sg(int w, uint64_t x)
{
	return sem_signed(w, x);
}

/* A random abstract value containing X. */
static bnd around(int w, uint64_t x)
{
	int64_t s = sg(w, x);
	int64_t lo = s, hi = s;
	uint64_t mask = 0;
	switch (below(7)) {
	case 0: break; /* a constant */
	case 1: mask = sem_allones(w); break;
	case 2: mask = sem_mask(w, rnd()); break;
	case 3: mask = sem_mask(w, rnd() | rnd()); break;
	case 4:
		mask = sem_mask(w, (UINT64_C(1) << below((uint64_t)w)) - 1);
		break;
	default: mask = sem_mask(w, rnd() & rnd()); break;
	}
	switch (below(5)) {
	case 0:
	case 1: lo = sem_signed(w, sem_minint(w)); break;
	case 2: lo = sg(w, edge_value(w)); break;
	case 3:
		lo = s < INT64_MIN + 100 ? INT64_MIN : s - (int64_t)below(100);
		break;
	default: break;
	}
	switch (below(5)) {
	case 0:
	case 1: hi = (int64_t)sem_maxint(w); break;
	case 2: hi = sg(w, edge_value(w)); break;
	case 3:
		hi = s > INT64_MAX - 100 ? INT64_MAX : s + (int64_t)below(100);
		break;
	default: break;
	}
	if (lo > s)
		lo = s;
	if (hi < s)
		hi = s;
	bnd b = bnd_make(w, lo, hi, x & ~mask, mask);
	return b;
}

static bnd random_bnd(int w)
{
	return around(w, edge_value(w));
}

/* Members of B: at width 8 all of them, otherwise a sample that always
 * includes the ends. */
static int members(const bnd *b, uint64_t *out, int max)
{
	int n = 0;
	if (b->empty)
		return 0;
	if (b->w == 8) {
		for (uint64_t x = 0; x < 256; x++)
			if (bnd_contains(b, x))
				out[n++] = x;
		return n;
	}
	out[n++] = sem_from_signed(b->w, b->lo);
	out[n++] = sem_from_signed(b->w, b->hi);
	for (int tries = 0; tries < 200 && n < max; tries++) {
		uint64_t x = b->val | (rnd() & b->mask);
		if (below(2))
			x = b->val | (edge_value(b->w) & b->mask);
		if (bnd_contains(b, x))
			out[n++] = x;
	}
	return n;
}

static const ir_opcode binops[] = {
    IR_INT_ADD,	    IR_INT_SUB,	    IR_INT_MUL,	      IR_INT_AND,
    IR_INT_OR,	    IR_INT_XOR,	    IR_INT_LSHIFT,    IR_INT_RSHIFT,
    IR_UINT_RSHIFT, IR_INT_SIGNEXT, IR_UINT_MUL_HIGH, IR_INT_PY_DIV,
    IR_INT_PY_MOD,  IR_INT_EQ,	    IR_INT_NE,	      IR_INT_LT,
    IR_INT_LE,	    IR_INT_GT,	    IR_INT_GE,	      IR_UINT_LT,
    IR_UINT_LE,	    IR_UINT_GT,	    IR_UINT_GE,	      IR_INT_ADD_OVF,
    IR_INT_SUB_OVF, IR_INT_MUL_OVF,
};

static const ir_opcode unops[] = {
    IR_INT_NEG,	  IR_INT_INVERT,  IR_INT_FORCE_GE_ZERO,
    IR_SAME_AS_I, IR_INT_IS_TRUE, IR_INT_IS_ZERO,
};

#define NOPS(a) ((int)(sizeof a / sizeof a[0]))

static int failures_reported;

static void report(const char *what, ir_opcode opc, const bnd *a, const bnd *b,
		   uint64_t x, uint64_t y, const bnd *r)
{
	if (failures_reported++ > 10)
		return;
	char sa[120], sb[120], sr[120];
	bnd_format(a, sa, sizeof sa);
	bnd_format(b, sb, sizeof sb);
	bnd_format(r, sr, sizeof sr);
	fprintf(stderr,
		"%s: %s w=%d\n  a = %s\n  b = %s\n  x = 0x%llx y = 0x%llx\n"
		"  result = %s\n",
		what, ir_opinfo_of(opc)->name, a->w, sa, sb,
		(unsigned long long)x, (unsigned long long)y, sr);
}

/* Members sampled per abstract value above width 8. */
enum { SAMPLE = 40 };

static uint64_t xs[256], ys[256];

/* Forward soundness of OPC on one pair of abstract values. */
static void check_forward(ir_opcode opc, const bnd *a, const bnd *b)
{
	int w = a->w;
	bnd args[2] = {*a, *b};
	bnd r = bnd_forward(opc, args, 0);
	bool is_ovf = ir_op_has(opc, IRF_OVF);
	bnd ex = is_ovf ? bnd_forward_exact(opc, args) : r;
	bool may = is_ovf && bnd_may_overflow(opc, args);
	bool must = is_ovf && bnd_must_overflow(opc, args);
	int decided =
	    ir_op_has(opc, IRF_CMP) ? bnd_decide_cmp(opc, args, 0) : -1;
	int nx = members(a, xs, SAMPLE);
	int ny = ir_opinfo_of(opc)->nargs == 2 ? members(b, ys, SAMPLE) : 1;
	if (ir_opinfo_of(opc)->nargs != 2)
		ys[0] = 0;
	bool ok = bnd_is_reduced(&r) && (!is_ovf || bnd_is_reduced(&ex));
	if (!ok)
		report("not reduced", opc, a, b, 0, 0, &r);
	for (int i = 0; i < nx && ok; i++)
		for (int j = 0; j < ny && ok; j++) {
			uint64_t v[2] = {xs[i], ys[j]};
			bool ovf = false;
			uint64_t res = sem_eval(opc, w, v, &ovf);
			if (!bnd_contains(&r, res)) {
				report("forward unsound", opc, a, b, v[0], v[1],
				       &r);
				ok = false;
			}
			if (decided >= 0 && res != (uint64_t)decided) {
				report("comparison decided wrongly", opc, a, b,
				       v[0], v[1], &r);
				ok = false;
			}
			if (is_ovf && ((ovf && !may) || (!ovf && must))) {
				report("overflow misjudged", opc, a, b, v[0],
				       v[1], &r);
				ok = false;
			}
			if (is_ovf && !ovf && !bnd_contains(&ex, res)) {
				report("exact result unsound", opc, a, b, v[0],
				       v[1], &ex);
				ok = false;
			}
		}
	CHECK(ok);
}

/* Backward soundness: R contains the result of a concrete pair; every
 * pair whose result lies in R keeps its arguments in the refinement. */
static void check_backward(ir_opcode opc, const bnd *a, const bnd *b,
			   const bnd *r, bool exact)
{
	int w = a->w;
	bnd args[2] = {*a, *b};
	int nargs = ir_opinfo_of(opc)->nargs;
	bnd ref[2], cmpa = *a, cmpb = *b;
	bool cmp = ir_op_has(opc, IRF_CMP);
	for (int i = 0; i < nargs; i++)
		ref[i] = bnd_backward(opc, i, r, args, exact, 0);
	bool truth = bnd_is_const(r) && bnd_const_val(r) != 0;
	if (cmp && bnd_is_const(r))
		bnd_refine_cmp(opc, truth, &cmpa, &cmpb);
	int nx = members(a, xs, SAMPLE);
	int ny = nargs == 2 ? members(b, ys, SAMPLE) : 1;
	if (nargs != 2)
		ys[0] = 0;
	bool ok = true;
	for (int i = 0; i < nx && ok; i++)
		for (int j = 0; j < ny && ok; j++) {
			uint64_t v[2] = {xs[i], ys[j]};
			bool ovf = false;
			uint64_t res = sem_eval(opc, w, v, &ovf);
			if (!bnd_contains(r, res) || (exact && ovf))
				continue;
			if (cmp) {
				if (!bnd_is_const(r))
					continue;
				if (!bnd_contains(&cmpa, v[0]) ||
				    (nargs == 2 &&
				     !bnd_contains(&cmpb, v[1]))) {
					report("comparison refinement unsound",
					       opc, a, b, v[0], v[1], r);
					ok = false;
				}
				continue;
			}
			for (int k = 0; k < nargs; k++)
				if (!bnd_contains(&ref[k], v[k])) {
					report("backward unsound", opc, a, b,
					       v[0], v[1], &ref[k]);
					ok = false;
				}
		}
	CHECK(ok);
}

static void one_case(int w, ir_opcode opc)
{
	bnd a = random_bnd(w), b = random_bnd(w);
	if (opc == IR_INT_LSHIFT || opc == IR_INT_RSHIFT ||
	    opc == IR_UINT_RSHIFT || opc == IR_INT_SIGNEXT) {
		if (below(2)) /* counts in and near [0, W) */
			b = around(w, below((uint64_t)w + 2));
	}
	if ((opc == IR_INT_PY_DIV || opc == IR_INT_PY_MOD) && below(2))
		b = around(w, sem_mask(w, below(2) ? below(20) : 0 - below(5)));
	check_forward(opc, &a, &b);
	/* A result abstract value around the result of one member pair. */
	uint64_t x = sem_from_signed(w, a.lo), y = sem_from_signed(w, b.hi);
	uint64_t v[2] = {x, y};
	bool ovf = false;
	uint64_t res = sem_eval(opc, w, v, &ovf);
	bnd r = below(3) == 0 ? bnd_const(w, res) : around(w, res);
	if (ir_op_has(opc, IRF_CMP))
		r = bnd_const(w, res);
	check_backward(opc, &a, &b, &r, false);
	if (ir_op_has(opc, IRF_OVF))
		check_backward(opc, &a, &b, &r, true);
}

static void test_transfer(int w, int rounds)
{
	for (int k = 0; k < NOPS(binops); k++)
		for (int i = 0; i < rounds; i++)
			one_case(w, binops[k]);
	for (int k = 0; k < NOPS(unops); k++)
		for (int i = 0; i < rounds; i++)
			one_case(w, unops[k]);
}

/* Shift and multiply by constants, the shapes the optimizer meets most. */
static void test_const_operands(int w)
{
	static const ir_opcode ops[] = {
	    IR_INT_LSHIFT, IR_INT_RSHIFT, IR_UINT_RSHIFT, IR_INT_MUL,
	    IR_INT_PY_DIV, IR_INT_PY_MOD, IR_INT_AND,	  IR_INT_ADD};
	for (int k = 0; k < NOPS(ops); k++)
		for (int i = 0; i < 60; i++) {
			bnd a = random_bnd(w);
			uint64_t c =
			    below(2) ? below((uint64_t)w + 1) : edge_value(w);
			bnd b = bnd_const(w, c);
			check_forward(ops[k], &a, &b);
			uint64_t x = sem_from_signed(w, a.hi);
			uint64_t v[2] = {x, c};
			bnd r = bnd_const(w, sem_eval(ops[k], w, v, NULL));
			check_backward(ops[k], &a, &b, &r, false);
		}
}

/* Reduction at width 8: the members of the reduced value are exactly the
 * members of range and tnum; its ends are members; constness agrees. */
static void test_reduce(void)
{
	int w = 8;
	bool ok = true;
	for (int i = 0; i < 20000 && ok; i++) {
		int64_t lo = sg(w, edge_value(w)), hi = sg(w, edge_value(w));
		if (lo > hi) {
			int64_t t = lo;
			lo = hi;
			hi = t;
		}
		uint64_t mask =
		    below(2) ? rnd() & 0xff : (rnd() & rnd()) & 0xff;
		uint64_t val = rnd() & 0xff & ~mask;
		bnd b = bnd_make(w, lo, hi, val, mask);
		int n = 0;
		int64_t smin = 1000, smax = -1000;
		for (uint64_t x = 0; x < 256; x++) {
			int64_t s = sg(w, x);
			bool in = s >= lo && s <= hi && (x & ~mask) == val;
			if (in) {
				n++;
				smin = s < smin ? s : smin;
				smax = s > smax ? s : smax;
			}
			if (in != bnd_contains(&b, x))
				ok = false;
		}
		if (n == 0)
			ok = ok && b.empty;
		else
			ok = ok && !b.empty && b.lo == smin && b.hi == smax &&
			     bnd_is_reduced(&b);
		if (!ok) {
			char s[120];
			bnd_format(&b, s, sizeof s);
			fprintf(
			    stderr,
			    "reduce: [%lld, %lld] val %llx mask %llx -> %s\n",
			    (long long)lo, (long long)hi,
			    (unsigned long long)val, (unsigned long long)mask,
			    s);
		}
	}
	CHECK(ok);
}

static void test_meet_join(void)
{
	int w = 8;
	bool ok = true;
	for (int i = 0; i < 3000 && ok; i++) {
		bnd a = random_bnd(w), b = random_bnd(w);
		bnd m = bnd_meet(a, b), j = bnd_join(a, b);
		for (uint64_t x = 0; x < 256; x++) {
			bool ia = bnd_contains(&a, x), ib = bnd_contains(&b, x);
			if (bnd_contains(&m, x) != (ia && ib))
				ok = false;
			if ((ia || ib) && !bnd_contains(&j, x))
				ok = false;
		}
		ok = ok && bnd_is_reduced(&m) && bnd_is_reduced(&j);
	}
	CHECK(ok);
}

/* Reference values the optimizer relies on. */
static void test_examples(void)
{
	int w = 64;
	bnd top = bnd_top(w);
	CHECK(bnd_is_top(&top));
	/* x & 255 is in [0, 255] and its high bits are known zero. */
	bnd args[2] = {top, bnd_const(w, 255)};
	bnd r = bnd_forward(IR_INT_AND, args, 0);
	CHECK(r.lo == 0 && r.hi == 255 && r.mask == 255);
	/* After guard_value(x & 255, 7) the low byte of x is 7. */
	bnd seven = bnd_const(w, 7);
	bnd x = bnd_backward(IR_INT_AND, 0, &seven, args, false, 0);
	CHECK(x.mask == ~UINT64_C(255) && x.val == 7);
	/* int_add(x, 10) < 15 says nothing about x (it may have wrapped)... */
	bnd lt15 = bnd_range(w, INT64_MIN, 14);
	bnd add[2] = {top, bnd_const(w, 10)};
	x = bnd_backward(IR_INT_ADD, 0, &lt15, add, false, 0);
	CHECK(bnd_is_top(&x));
	/* ...but after guard_no_overflow it does: x < 5. */
	x = bnd_backward(IR_INT_ADD_OVF, 0, &lt15, add, true, 0);
	CHECK(x.lo == INT64_MIN && x.hi == 4);
	/* -x for x in [MININT, -1] may be MININT. */
	bnd neg = bnd_range(w, INT64_MIN, -1);
	r = bnd_forward(IR_INT_NEG, &neg, 0);
	CHECK(bnd_contains(&r, sem_minint(w)));
	/* x * 12 == 12 has more solutions than 1 (overflow). */
	bnd mul[2] = {top, bnd_const(w, 12)};
	bnd twelve = bnd_const(w, 12);
	x = bnd_backward(IR_INT_MUL, 0, &twelve, mul, false, 0);
	CHECK(bnd_contains(&x, 1) &&
	      bnd_contains(&x, UINT64_C(0x8000000000000001)));
	/* x * 3 == 12 has exactly one solution: 3 is odd. */
	bnd mul3[2] = {top, bnd_const(w, 3)};
	x = bnd_backward(IR_INT_MUL, 0, &twelve, mul3, false, 0);
	CHECK(bnd_is_const(&x) && bnd_const_val(&x) == 4);
	/* x < y and y <= 10 give x <= 9. */
	bnd a = top, b = bnd_range(w, 0, 10);
	bnd_refine_cmp(IR_INT_LT, true, &a, &b);
	CHECK(a.hi == 9);
	/* i <u len with len >= 0 gives 0 <= i < len. */
	a = top;
	b = bnd_range(w, 0, 100);
	bnd_refine_cmp(IR_UINT_LT, true, &a, &b);
	CHECK(a.lo == 0 && a.hi == 99);
}

/* Each injected domain bug must really be unsound. */
static void test_bugs_are_unsound(void)
{
	int w = 64;
	uint64_t bit;
	bnd top = bnd_top(w);
	/* neg-minint */
	bit = UINT64_C(1) << OPT_BUG_NEG_MININT;
	bnd neg = bnd_range(w, INT64_MIN, -1);
	bnd r = bnd_forward(IR_INT_NEG, &neg, bit);
	CHECK(!bnd_contains(&r, sem_minint(w)));
	/* add-wrap-bounds */
	bit = UINT64_C(1) << OPT_BUG_ADD_WRAP_BOUNDS;
	bnd lt15 = bnd_range(w, INT64_MIN, 14);
	bnd add[2] = {top, bnd_const(w, 10)};
	r = bnd_backward(IR_INT_ADD, 0, &lt15, add, false, bit);
	CHECK(!bnd_contains(&r, sem_maxint(w))); /* MAXINT + 10 < 15 */
	/* mul-backwards */
	bit = UINT64_C(1) << OPT_BUG_MUL_BACKWARDS;
	bnd mul[2] = {top, bnd_const(w, 12)};
	bnd twelve = bnd_const(w, 12);
	r = bnd_backward(IR_INT_MUL, 0, &twelve, mul, false, bit);
	CHECK(!bnd_contains(&r, UINT64_C(0x8000000000000001)));
	/* lshift-backwards: x << 4 == 0 does not make x == 0. */
	bit = UINT64_C(1) << OPT_BUG_LSHIFT_BACKWARDS;
	bnd zero = bnd_const(w, 0);
	bnd shl[2] = {top, bnd_const(w, 4)};
	r = bnd_backward(IR_INT_LSHIFT, 0, &zero, shl, false, bit);
	CHECK(!bnd_contains(&r, UINT64_C(1) << 60));
	r = bnd_backward(IR_INT_LSHIFT, 0, &zero, shl, false, 0);
	CHECK(bnd_contains(&r, UINT64_C(1) << 60) && !bnd_contains(&r, 1));
	/* force-ge-zero: an odd negative value gives 0. */
	bit = UINT64_C(1) << OPT_BUG_FORCE_GE_ZERO;
	bnd odd = bnd_tnum(w, 1, ~UINT64_C(1));
	r = bnd_forward(IR_INT_FORCE_GE_ZERO, &odd, bit);
	CHECK(!bnd_contains(&r, 0));
	/* and-no-shrink: the result is not reduced, so its constant is read
	 * from a range that disagrees with the known bits. */
	bit = UINT64_C(1) << OPT_BUG_AND_NO_SHRINK;
	bnd and[2] = {odd, bnd_const(w, 1)};
	r = bnd_forward(IR_INT_AND, and, bit);
	CHECK(!bnd_is_reduced(&r) && bnd_is_const(&r) &&
	      bnd_const_val(&r) != 1);
	r = bnd_forward(IR_INT_AND, and, 0);
	CHECK(bnd_is_const(&r) && bnd_const_val(&r) == 1);
	/* uint-signed-cmp: -1 <u 10 is false. */
	bit = UINT64_C(1) << OPT_BUG_UINT_SIGNED_CMP;
	bnd cmp[2] = {bnd_range(w, -1, 5), bnd_const(w, 10)};
	CHECK(bnd_decide_cmp(IR_UINT_LT, cmp, bit) == 1);
	CHECK(bnd_decide_cmp(IR_UINT_LT, cmp, 0) == -1);
}

int main(void)
{
	test_examples();
	test_bugs_are_unsound();
	test_reduce();
	test_meet_join();
	test_transfer(8, 400);
	test_const_operands(8);
	test_transfer(16, 400);
	test_transfer(32, 400);
	test_transfer(64, 800);
	test_const_operands(64);
	return check_summary("test_bounds");
}
