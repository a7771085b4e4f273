/*
 * test_gen.c - the random trace generator: determinism, validity, guards
 * passing on the example values, live outputs, edge-value bias, and the
 * snippet shapes the injected bugs need.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz/gen.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/sem.h"
#include "ir/validate.h"
#include "util/rng.h"

static char *gen_text(gen_ctx *g, uint64_t seed, const gen_opts *o)
{
	ir_trace *t;
	gen_example ex;
	if (gen_trace(g, seed, o, &t, &ex, NULL))
		return NULL;
	strbuf sb;
	sb_init(&sb);
	gen_print_annotated(t, &ex, &sb);
	ir_trace_free(t);
	return sb_detach(&sb);
}

static void test_rng(void)
{
	rng a, b;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	bool same = true;
	for (int i = 0; i < 100; i++)
		same &= rng_next(&a) == rng_next(&b);
	CHECK(same);
	/* The first output for seed 0 is pinned: the stream must not change
	 * between machines or releases, or saved seeds stop reproducing. */
	rng_seed(&a, 0);
	uint64_t first = rng_next(&a);
	rng_seed(&b, 0);
	CHECK_EQ_U64(rng_next(&b), first);
	CHECK(rng_derive(1, 0, 0) != rng_derive(1, 0, 1));
	CHECK(rng_derive(1, 0, 5) != rng_derive(1, 1, 5));
	int hist[6] = {0};
	for (int i = 0; i < 6000; i++)
		hist[rng_below(&a, 6)]++;
	for (int i = 0; i < 6; i++)
		CHECK(hist[i] > 800 && hist[i] < 1200);
	uint32_t w[3] = {0, 5, 0};
	CHECK(rng_pick_weighted(&a, w, 3) == 1);
	uint32_t z[2] = {0, 0};
	CHECK(rng_pick_weighted(&a, z, 2) == -1);
	for (int i = 0; i < 100; i++) {
		int64_t x = rng_range(&a, -3, 3);
		CHECK(x >= -3 && x <= 3);
	}
}

static void test_determinism(void)
{
	gen_ctx *g1 = gen_ctx_new(), *g2 = gen_ctx_new();
	gen_opts o = gen_default_opts();
	for (uint64_t s = 0; s < 20; s++) {
		char *a = gen_text(g1, s, &o);
		/* Interleave another seed on g1 so scratch reuse is tested. */
		free(gen_text(g1, s + 1000, &o));
		char *b = gen_text(g1, s, &o);
		char *c = gen_text(g2, s, &o);
		CHECK(a && b && c);
		if (a && b && c) {
			CHECK_STREQ(a, b);
			CHECK_STREQ(a, c);
		}
		free(a);
		free(b);
		free(c);
	}
	char *x = gen_text(g1, 1, &o), *y = gen_text(g1, 2, &o);
	CHECK(x && y && strcmp(x, y) != 0);
	free(x);
	free(y);
	gen_ctx_free(g1);
	gen_ctx_free(g2);
}

/* Runs T on its example inputs: the run must reach the end, every value
 * must equal its example value, and the trace must survive a print/parse
 * round trip. */
static void check_trace(const ir_trace *t, const gen_example *ex, int width)
{
	CHECK(ir_validate(t, NULL, NULL) == JP_OK);
	interp_env env;
	memset(&env, 0, sizeof env);
	env.args = ex->inputs;
	env.nargs = ex->ninputs;
	interp_result res;
	CHECK(interp_run(t, &env, &res, NULL) == JP_OK);
	CHECK(res.outcome == INTERP_FINISH || res.outcome == INTERP_JUMP);
	bool vals_ok = true;
	for (ir_vid v = 0; v < t->nvals; v++)
		if (t->vals[v].kind == 'i' && res.known[v] &&
		    res.vals[v] != ex->vals[v])
			vals_ok = false;
	CHECK(vals_ok);
	interp_result_free(&res);

	/* Live outputs: every op result is used by a later op or is an
	 * output of the end op. */
	uint8_t *used = calloc(t->nvals, 1);
	for (uint32_t i = 0; i < t->nops; i++)
		for (uint32_t a = 0; a < t->ops[i].nargs; a++)
			used[t->ops[i].args[a]] = 1;
	bool live = true;
	for (uint32_t i = 0; i < t->nops; i++)
		if (t->ops[i].result != IR_NOVAL && !used[t->ops[i].result])
			live = false;
	CHECK(live);
	const ir_op *end = &t->ops[t->nops - 1];
	CHECK(ir_op_has(end->opc, IRF_END));
	/* Profile toy: no end op arguments; the outputs are escaped. */
	CHECK(end->nargs >= 1 || (t->toy && t->nops > 1 &&
				  t->ops[t->nops - 2].opc == IR_ESCAPE_N));
	free(used);

	strbuf a, b;
	sb_init(&a);
	sb_init(&b);
	ir_print(t, &a);
	ir_parse_opts po = {width, false, NULL};
	ir_trace *back = NULL;
	CHECK(ir_parse(a.buf, a.len, &po, &back, NULL) == JP_OK);
	if (back) {
		ir_print(back, &b);
		CHECK_STREQ(a.buf, b.buf);
		ir_trace_free(back);
	}
	sb_release(&a);
	sb_release(&b);
}

static void test_valid_and_passing(void)
{
	gen_ctx *g = gen_ctx_new();
	static const int widths[] = {64, 32, 16, 8};
	int n = 0;
	for (int wi = 0; wi < 8; wi++)
		for (int p = 0; p < GEN_PROFILE_COUNT; p++)
			for (uint64_t s = 0; s < 60; s++) {
				gen_opts o = gen_default_opts();
				o.width = widths[wi % 4];
				o.heap = wi >= 4;
				o.profile = (gen_profile)p;
				if (s % 3 == 0) {
					o.min_len = 1;
					o.max_len = 5;
				}
				ir_trace *t;
				gen_example ex;
				jp_err err;
				jp_status st = gen_trace(g, s * 7919 + 3, &o,
							 &t, &ex, &err);
				if (st) {
					fprintf(stderr, "%s\n", err.msg);
					CHECK(st == JP_OK);
					continue;
				}
				check_trace(t, &ex, o.width);
				uint32_t nops = ir_count_ops(t);
				/* Snippets may overshoot the drawn length by a
				 * few ops, never more (the toy profile's output
				 * escapes count toward it). */
				CHECK(nops >= o.min_len &&
				      nops <= o.max_len + 8);
				ir_trace_free(t);
				n++;
			}
	CHECK(n == 8 * GEN_PROFILE_COUNT * 60);
	gen_ctx_free(g);
}

/* Counts, over many traces, the constants and shapes that the injected
 * bugs need; each must show up. */
static void test_bias_and_shapes(void)
{
	gen_ctx *g = gen_ctx_new();
	gen_opts o = gen_default_opts();
	int w = 64;
	int zero = 0, one = 0, mone = 0, minint = 0, maxint = 0, pow2 = 0;
	int shift_w1 = 0, shift_w = 0, pow2div = 0, fgez = 0, ovfcse = 0;
	int neg = 0, mul = 0, and_mask = 0, ovf_guard = 0, no_ovf_guard = 0;
	int edge_inputs = 0, ninputs = 0;
	for (uint64_t s = 0; s < 400; s++) {
		ir_trace *t;
		gen_example ex;
		if (gen_trace(g, s, &o, &t, &ex, NULL))
			continue;
		for (uint32_t i = 0; i < ex.ninputs; i++) {
			uint64_t x = ex.inputs[i];
			ninputs++;
			edge_inputs += x == 0 || x == 1 ||
				       x == sem_allones(w) ||
				       x == sem_minint(w) || x == sem_maxint(w);
		}
		for (ir_vid v = 0; v < t->nvals; v++) {
			if (t->vals[v].tag != IR_VAL_CONST_INT)
				continue;
			uint64_t c = t->vals[v].cval;
			zero += c == 0;
			one += c == 1;
			mone += c == sem_allones(w);
			minint += c == sem_minint(w);
			maxint += c == sem_maxint(w);
			pow2 += c > 2 && (c & (c - 1)) == 0;
		}
		for (uint32_t i = 0; i < t->nops; i++) {
			const ir_op *op = &t->ops[i];
			const ir_value *a1 =
			    op->nargs > 1 ? &t->vals[op->args[1]] : NULL;
			bool shift = op->opc == IR_INT_LSHIFT ||
				     op->opc == IR_INT_RSHIFT ||
				     op->opc == IR_UINT_RSHIFT;
			if (shift && a1 && a1->tag == IR_VAL_CONST_INT) {
				shift_w1 += a1->cval == (uint64_t)w - 1;
				shift_w += a1->cval == (uint64_t)w;
			}
			if (op->opc == IR_INT_PY_DIV && a1 &&
			    a1->tag == IR_VAL_OP &&
			    t->ops[a1->def].opc == IR_INT_LSHIFT)
				pow2div++;
			fgez += op->opc == IR_INT_FORCE_GE_ZERO;
			if (op->opc == IR_INT_SUB_OVF &&
			    t->vals[op->args[0]].tag == IR_VAL_OP) {
				const ir_op *d =
				    &t->ops[t->vals[op->args[0]].def];
				ovfcse += d->opc == IR_INT_ADD &&
					  (d->args[0] == op->args[1] ||
					   d->args[1] == op->args[1]);
			}
			neg += op->opc == IR_INT_NEG;
			mul += op->opc == IR_INT_MUL;
			and_mask += op->opc == IR_INT_AND;
			ovf_guard += op->opc == IR_GUARD_OVERFLOW;
			no_ovf_guard += op->opc == IR_GUARD_NO_OVERFLOW;
		}
		ir_trace_free(t);
	}
	CHECK(zero > 50 && one > 50 && mone > 20);
	CHECK(minint > 20 && maxint > 20 && pow2 > 50);
	CHECK(shift_w1 > 10 && shift_w > 3);
	CHECK(pow2div > 10 && fgez > 10 && ovfcse > 10);
	CHECK(neg > 10 && mul > 10 && and_mask > 50);
	CHECK(no_ovf_guard > ovf_guard && ovf_guard > 5);
	CHECK(edge_inputs * 10 > ninputs); /* at least 10% edge inputs */
	gen_ctx_free(g);
}

/* Heap traces: the shapes the heap bugs need show up, and integer
 * traces stay free of heap ops. */
static void test_heap_shapes(void)
{
	gen_ctx *g = gen_ctx_new();
	gen_opts o = gen_default_opts();
	int heap_traces = 0, mat = 0, twice = 0, cycle = 0, failargs = 0;
	int alias = 0, dse = 0, refin = 0, nullin = 0, nheapops_int = 0;
	for (int heap = 0; heap < 2; heap++)
		for (uint64_t s = 0; s < 300; s++) {
			o.heap = heap;
			o.profile = s % 2 ? GEN_PROFILE_ALL : GEN_PROFILE_HEAP;
			ir_trace *t;
			gen_example ex;
			if (gen_trace(g, s, &o, &t, &ex, NULL))
				continue;
			bool any = false;
			for (uint32_t i = 0; i < t->nops; i++)
				any |= ir_op_has(t->ops[i].opc, IRF_HEAP);
			if (!heap) {
				nheapops_int += any;
				ir_trace_free(t);
				continue;
			}
			heap_traces += any;
			for (uint32_t i = 0; i < t->ninputs; i++) {
				if (t->vals[t->inputs[i]].kind != 'r')
					continue;
				refin++;
				nullin += ex.inputs[i] == 0;
			}
			/* Per fresh object: stored into, escaped, escaped
			 * twice, stored into another fresh object that
			 * points back, in fail-args. */
			for (uint32_t i = 0; i < t->nops; i++) {
				const ir_op *op = &t->ops[i];
				if (op->opc == IR_SETFIELD_GC &&
				    t->vals[op->args[1]].kind == 'i') {
					/* store ... escape of the same object
					 */
					for (uint32_t j = i + 1; j < t->nops;
					     j++)
						if (t->ops[j].opc ==
							IR_ESCAPE_N &&
						    t->ops[j].nargs == 1 &&
						    t->ops[j].args[0] ==
							op->args[0]) {
							mat++;
							break;
						}
				}
				if (op->opc == IR_SETFIELD_GC &&
				    t->vals[op->args[1]].kind == 'r' &&
				    ir_defop(t, op->args[1]) != UINT32_MAX &&
				    ir_defop(t, op->args[1]) < i)
					for (uint32_t j = i + 1; j < t->nops;
					     j++)
						if (t->ops[j].opc ==
							IR_SETFIELD_GC &&
						    t->ops[j].args[0] ==
							op->args[1] &&
						    t->ops[j].args[1] ==
							op->args[0])
							cycle++;
				if (ir_op_has(op->opc, IRF_GUARD) && op->nfail)
					for (uint32_t k = 0; k < op->nfail; k++)
						if (t->vals[op->failargs[k]]
							.kind == 'r')
							failargs++;
				if (op->opc == IR_GETFIELD_GC_I && i >= 2 &&
				    t->ops[i - 1].opc == IR_SETFIELD_GC &&
				    t->ops[i - 2].opc == IR_SETFIELD_GC &&
				    t->ops[i - 2].args[0] == op->args[0] &&
				    t->ops[i - 1].args[0] != op->args[0])
					alias++;
				if (op->opc == IR_SETFIELD_GC &&
				    i + 2 < t->nops &&
				    ir_op_has(t->ops[i + 1].opc, IRF_CALL) &&
				    t->ops[i + 2].opc == IR_SETFIELD_GC &&
				    t->ops[i + 2].args[0] == op->args[0] &&
				    t->ops[i + 2].descr == op->descr)
					dse++;
			}
			int esc = 0;
			for (uint32_t i = 0; i + 1 < t->nops; i++)
				for (uint32_t j = i + 1; j < t->nops; j++)
					if (ir_op_has(t->ops[i].opc,
						      IRF_CALL) &&
					    ir_op_has(t->ops[j].opc,
						      IRF_CALL) &&
					    t->ops[i].nargs == 1 &&
					    t->ops[j].nargs == 1 &&
					    t->ops[i].args[0] ==
						t->ops[j].args[0] &&
					    t->vals[t->ops[i].args[0]].kind ==
						'r')
						esc = 1;
			twice += esc;
			ir_trace_free(t);
		}
	CHECK(nheapops_int == 0);
	CHECK(heap_traces > 150);
	CHECK(refin > 100 && nullin > 5 && nullin < refin / 2);
	CHECK(mat > 20 && twice > 20 && cycle > 10 && failargs > 20);
	CHECK(alias > 10 && dse > 10);
	gen_ctx_free(g);
}

static void test_options(void)
{
	uint32_t lo, hi;
	CHECK(gen_parse_range("30", &lo, &hi, NULL) == JP_OK && lo == 30 &&
	      hi == 30);
	CHECK(gen_parse_range("5-9", &lo, &hi, NULL) == JP_OK && lo == 5 &&
	      hi == 9);
	CHECK(gen_parse_range("9-5", &lo, &hi, NULL) != JP_OK);
	CHECK(gen_parse_range("x", &lo, &hi, NULL) != JP_OK);
	CHECK(gen_parse_range("", &lo, &hi, NULL) != JP_OK);
	gen_profile p;
	CHECK(gen_parse_profile("bounds-heavy", &p, NULL) == JP_OK &&
	      p == GEN_PROFILE_BOUNDS);
	CHECK(gen_parse_profile("arith", &p, NULL) == JP_OK &&
	      p == GEN_PROFILE_ARITH);
	jp_err err;
	CHECK(gen_parse_profile("nope", &p, &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "overflow-heavy") != NULL);
	gen_opts o = gen_default_opts();
	o.width = 12;
	CHECK(gen_check_opts(&o, NULL) == JP_EINPUT);
	o = gen_default_opts();
	o.min_inputs = 0;
	CHECK(gen_check_opts(&o, NULL) == JP_EINPUT);

	/* An exact length and input count are honoured. */
	gen_ctx *g = gen_ctx_new();
	o = gen_default_opts();
	o.min_len = o.max_len = 30;
	o.min_inputs = o.max_inputs = 3;
	int exact = 0;
	for (uint64_t s = 0; s < 50; s++) {
		ir_trace *t;
		if (gen_trace(g, s, &o, &t, NULL, NULL))
			continue;
		CHECK(t->ninputs == 3);
		uint32_t n = ir_count_ops(t);
		CHECK(n >= 30 && n <= 38);
		exact += n == 30;
		ir_trace_free(t);
	}
	CHECK(exact > 25);
	gen_ctx_free(g);
}

/* Every op the generator claims (gen_unhandled is NULL) appears in a few
 * hundred traces of all profiles, and every op that appears is claimed, so
 * a new op gets a reason or a way into the traces. */
static void test_claims(void)
{
	bool seen[IR_OPCODE_COUNT] = {false};
	gen_ctx *g = gen_ctx_new();
	for (int p = 0; p < GEN_PROFILE_COUNT; p++)
		for (uint64_t s = 0; s < 200; s++) {
			gen_opts o = gen_default_opts();
			o.profile = (gen_profile)p;
			o.heap = s % 2 == 1;
			ir_trace *t;
			gen_example ex;
			jp_err err;
			if (gen_trace(g, s * 104729 + 11, &o, &t, &ex, &err)) {
				CHECK(!"gen_trace failed");
				continue;
			}
			for (uint32_t i = 0; i < t->nops; i++)
				seen[t->ops[i].opc] = true;
			ir_trace_free(t);
		}
	gen_ctx_free(g);
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		const char *why = gen_unhandled((ir_opcode)i);
		/* the switch has a case for every op: the fall-through answer
		 * means an op was added without one */
		CHECK(!why || strcmp(why, "not an op of the table") != 0);
		if (getenv("JP_GEN_CLAIMS"))
			printf("%s %d %s\n", ir_opinfos[i].name, seen[i],
			       why ? why : "-");
		if (why)
			CHECK(*why && !seen[i]);
		else
			CHECK(seen[i]);
	}
}

int main(void)
{
	test_claims();
	test_rng();
	test_determinism();
	test_valid_and_passing();
	test_bias_and_shapes();
	test_heap_shapes();
	test_options();
	return check_summary("test_gen");
}
