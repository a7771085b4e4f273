/*
 * test_gen_edge.c - the generator's edge-directed shapes (fuzz/gen_edge.c):
 * the default profile produces each of the five shapes of issue 29 within
 * a few thousand traces, with example values that run the trace to its
 * end; deciding edge traces draws nothing, so the other traces do not
 * change with the edge share.
 *
 * The shapes are recognized by their construction: a range that ends at
 * an edge is (v & m) + (c - m), which lies in [c - m, c] for every v, or
 * a value masked and then guarded against the edge constant.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz/gen.h"
#include "ir/interp.h"
#include "ir/print.h"
#include "ir/sem.h"
#include "ir/validate.h"

static const ir_op *def(const ir_trace *t, ir_vid v)
{
	uint32_t d = ir_defop(t, v);
	return d == UINT32_MAX ? NULL : &t->ops[d];
}

static bool is_k(const ir_trace *t, ir_vid v, uint64_t *k)
{
	if (!ir_is_const(t, v) || t->vals[v].kind != 'i')
		return false;
	*k = t->vals[v].cval;
	return true;
}

/* V = int_and(_, m) for a constant m: *M. */
static bool masked(const ir_trace *t, ir_vid v, uint64_t *m)
{
	const ir_op *d = def(t, v);
	return d && d->opc == IR_INT_AND && is_k(t, d->args[1], m);
}

/* V = (u & m) + c: the range [c, c + m] (no wrap at the sizes used);
 * *HI = c + m, *LO = c. */
static bool built_range(const ir_trace *t, ir_vid v, uint64_t *lo, uint64_t *hi)
{
	const ir_op *d = def(t, v);
	uint64_t m, c;
	if (!d || d->opc != IR_INT_ADD || !masked(t, d->args[0], &m) ||
	    !is_k(t, d->args[1], &c))
		return false;
	*lo = c;
	*hi = sem_mask(t->width, c + m);
	return true;
}

/* Whether some comparison compares V with the constant C. */
static bool compared_with(const ir_trace *t, ir_vid v, uint64_t c)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		uint64_t k;
		if (!ir_op_has(op->opc, IRF_CMP) || op->nargs != 2)
			continue;
		if ((op->args[0] == v && is_k(t, op->args[1], &k) && k == c) ||
		    (op->args[1] == v && is_k(t, op->args[0], &k) && k == c))
			return true;
	}
	return false;
}

/* Whether V's range ends at C, by construction or by a guard. */
static bool ends_at(const ir_trace *t, ir_vid v, uint64_t c)
{
	uint64_t lo, hi, m;
	if (built_range(t, v, &lo, &hi))
		return hi == c;
	return masked(t, v, &m) && compared_with(t, v, c);
}

/* 1: a shift by a variable count whose range ends at W. */
static bool shape_shift_w(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_INT_LSHIFT && op->opc != IR_INT_RSHIFT &&
	    op->opc != IR_UINT_RSHIFT)
		return false;
	return !ir_is_const(t, op->args[1]) &&
	       ends_at(t, op->args[1], (uint64_t)t->width);
}

/* A factor within +-2^(W/2): a constant, or built from v & (2^(W/2) - 1)
 * through int_or / 0 - x. */
static bool small_factor(const ir_trace *t, ir_vid v, bool *var)
{
	int h = t->width / 2;
	uint64_t k, lim = UINT64_C(1) << h;
	if (is_k(t, v, &k)) {
		int64_t s = sem_signed(t->width, k);
		return s > -(int64_t)lim && s < (int64_t)lim;
	}
	*var = true;
	const ir_op *d = def(t, v);
	for (int depth = 0; d && depth < 3; depth++) {
		if (d->opc == IR_INT_AND)
			return is_k(t, d->args[1], &k) && k == lim - 1;
		if (d->opc == IR_INT_OR)
			d = def(t, d->args[0]);
		else if (d->opc == IR_INT_SUB && is_k(t, d->args[0], &k) &&
			 k == 0)
			d = def(t, d->args[1]);
		else
			return false;
	}
	return false;
}

/* 2: int_mul_ovf of factors within +-2^(W/2), one of them variable. */
static bool shape_mul_ovf(const ir_trace *t, const ir_op *op)
{
	bool var = false;
	return op->opc == IR_INT_MUL_OVF &&
	       small_factor(t, op->args[0], &var) &&
	       small_factor(t, op->args[1], &var) && var;
}

/* 3: int_signext(x, n) with x's range ending at 2^(8n-1), then guarded or
 * output. */
static bool shape_signext(const ir_trace *t, const ir_op *op)
{
	uint64_t n;
	if (op->opc != IR_INT_SIGNEXT || !is_k(t, op->args[1], &n) || n == 0 ||
	    n >= (uint64_t)t->width / 8)
		return false;
	return ends_at(t, op->args[0], UINT64_C(1) << (8 * n - 1));
}

/* 4: x % y, y variable, with x's upper bound equal to y's lower bound. */
static bool shape_mod(const ir_trace *t, const ir_op *op)
{
	uint64_t xlo, xhi, ylo, yhi;
	return op->opc == IR_INT_PY_MOD &&
	       built_range(t, op->args[0], &xlo, &xhi) &&
	       built_range(t, op->args[1], &ylo, &yhi) && xhi == ylo &&
	       ylo < yhi;
}

/* 5: a fresh object escapes (a call argument, or stored into a field); a
 * reference is loaded after that; a store goes through the loaded one. */
static bool shape_alias(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		if (t->ops[i].opc != IR_NEW &&
		    t->ops[i].opc != IR_NEW_WITH_VTABLE)
			continue;
		ir_vid p = t->ops[i].result;
		uint32_t esc = UINT32_MAX;
		for (uint32_t j = i + 1; j < t->nops && esc == UINT32_MAX;
		     j++) {
			const ir_op *op = &t->ops[j];
			if ((ir_op_has(op->opc, IRF_CALL) && op->nargs &&
			     op->args[0] == p) ||
			    (op->opc == IR_SETFIELD_GC && op->args[1] == p))
				esc = j;
		}
		for (uint32_t j = esc + 1; esc != UINT32_MAX && j < t->nops;
		     j++) {
			if (t->ops[j].opc != IR_GETFIELD_GC_R)
				continue;
			ir_vid q = t->ops[j].result;
			for (uint32_t k = j + 1; k < t->nops; k++)
				if (t->ops[k].opc == IR_SETFIELD_GC &&
				    t->ops[k].args[0] == q)
					return true;
		}
	}
	return false;
}

/* The example inputs run the trace to its end, through every guard, with
 * the example values the generator claimed. */
static bool example_runs(const ir_trace *t, const gen_example *ex)
{
	interp_env env;
	memset(&env, 0, sizeof env);
	env.args = ex->inputs;
	env.nargs = ex->ninputs;
	interp_result res;
	if (interp_run(t, &env, &res, NULL) != JP_OK)
		return false;
	bool ok = res.outcome == INTERP_FINISH || res.outcome == INTERP_JUMP;
	for (ir_vid v = 0; v < t->nvals; v++)
		if (t->vals[v].kind == 'i' && res.known[v] &&
		    res.vals[v] != ex->vals[v])
			ok = false;
	interp_result_free(&res);
	return ok;
}

enum { NSHAPES = 5, NTRACES = 3000 };

static const char *const shape_names[NSHAPES] = {
    "shift count ending at W", "int_mul_ovf factors within +-2^(W/2)",
    "range ending at 2^(8n-1), sign-extended", "x % y with hi(x) == lo(y)",
    "escaped fresh object, loaded ref, store"};

/* Counts the traces of seeds 0..NTRACES-1 (default options, heap on, as
 * a campaign runs them) that hold each shape; every such trace must run
 * to its end on its example values. */
static void test_shapes_in_default_profile(void)
{
	gen_ctx *g = gen_ctx_new();
	gen_opts o = gen_default_opts();
	o.heap = true;
	int seen[NSHAPES] = {0}, first[NSHAPES];
	int consistent = 0, with_shape = 0;
	for (int k = 0; k < NSHAPES; k++)
		first[k] = -1;
	for (uint64_t s = 0; s < NTRACES; s++) {
		ir_trace *t;
		gen_example ex;
		jp_err err;
		if (gen_trace(g, s, &o, &t, &ex, &err)) {
			fprintf(stderr, "seed %llu: %s\n",
				(unsigned long long)s, err.msg);
			CHECK(false);
			continue;
		}
		bool has[NSHAPES] = {false};
		for (uint32_t i = 0; i < t->nops; i++) {
			has[0] |= shape_shift_w(t, &t->ops[i]);
			has[1] |= shape_mul_ovf(t, &t->ops[i]);
			has[2] |= shape_signext(t, &t->ops[i]);
			has[3] |= shape_mod(t, &t->ops[i]);
		}
		has[4] = shape_alias(t);
		bool any = false;
		for (int k = 0; k < NSHAPES; k++) {
			if (has[k] && first[k] < 0)
				first[k] = (int)s;
			seen[k] += has[k];
			any |= has[k];
		}
		if (any) {
			with_shape++;
			consistent += example_runs(t, &ex);
		}
		ir_trace_free(t);
	}
	for (int k = 0; k < NSHAPES; k++) {
		if (!seen[k])
			fprintf(stderr, "shape never generated: %s\n",
				shape_names[k]);
		CHECK(seen[k] > 0);
	}
	/* Every trace with a shape runs to its end on its example. */
	CHECK(with_shape > 0 && consistent == with_shape);
	fprintf(
	    stderr,
	    "test_gen_edge: in %d default traces: shift-W %d (first %d), "
	    "mul-ovf %d (%d), signext %d (%d), mod %d (%d), alias %d (%d)\n",
	    NTRACES, seen[0], first[0], seen[1], first[1], seen[2], first[2],
	    seen[3], first[3], seen[4], first[4]);
	gen_ctx_free(g);
}

/* Profile edge at every width: every trace valid and consistent. */
static void test_edge_profile_widths(void)
{
	gen_ctx *g = gen_ctx_new();
	static const int widths[] = {8, 16, 32, 64};
	int ok = 0, n = 0;
	for (int wi = 0; wi < 4; wi++)
		for (uint64_t s = 0; s < 150; s++) {
			gen_opts o = gen_default_opts();
			o.width = widths[wi];
			o.profile = GEN_PROFILE_EDGE;
			o.heap = s % 2;
			ir_trace *t;
			gen_example ex;
			n++;
			if (gen_trace(g, s, &o, &t, &ex, NULL))
				continue;
			ok += ir_validate(t, NULL, NULL) == JP_OK &&
			      example_runs(t, &ex);
			ir_trace_free(t);
		}
	CHECK(ok == n);
	gen_ctx_free(g);
}

static char *text_of(gen_ctx *g, uint64_t seed, uint32_t pct)
{
	gen_opts o = gen_default_opts();
	o.heap = true;
	o.edge_pct = pct;
	ir_trace *t;
	if (gen_trace(g, seed, &o, &t, NULL, NULL))
		return NULL;
	strbuf sb;
	sb_init(&sb);
	ir_print(t, &sb);
	ir_trace_free(t);
	return sb_detach(&sb);
}

/* The edge share changes only which traces are edge traces: each trace
 * is the one of share 0 or the one of share 100, and about the share of
 * them is the latter. */
static void test_share_draws_nothing(void)
{
	gen_ctx *g = gen_ctx_new();
	int edge = 0, bad = 0;
	for (uint64_t s = 0; s < 400; s++) {
		char *a = text_of(g, s, 0), *b = text_of(g, s, GEN_EDGE_PCT);
		char *c = text_of(g, s, 100);
		if (!a || !b || !c) {
			bad++;
		} else if (strcmp(a, b)) {
			edge++;
			bad += strcmp(b, c) != 0;
		}
		free(a);
		free(b);
		free(c);
	}
	CHECK(bad == 0);
	CHECK(edge > 400 * GEN_EDGE_PCT / 200 &&
	      edge < 400 * GEN_EDGE_PCT * 2 / 100);
	gen_opts o = gen_default_opts();
	o.edge_pct = 101;
	jp_err err;
	CHECK(gen_check_opts(&o, &err) == JP_EINPUT);
	gen_profile p;
	CHECK(gen_parse_profile("edge", &p, NULL) == JP_OK &&
	      p == GEN_PROFILE_EDGE);
	gen_ctx_free(g);
}

int main(void)
{
	test_shapes_in_default_profile();
	test_edge_profile_widths();
	test_share_draws_nothing();
	return check_summary("test_gen_edge");
}
