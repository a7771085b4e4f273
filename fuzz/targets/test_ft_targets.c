/*
 * test_ft_targets.c - what the libFuzzer targets rely on: the byte-driven
 * rng (one byte per small choice, a fixed tail, seeded streams untouched),
 * the byte decoder (every byte string gives a valid trace that runs to its
 * end on its example inputs; unread bytes change nothing; a late byte
 * changes only the end), the input vectors, the differential runner, and
 * the dictionary covering every op of ir/ops.def.
 *
 * Usage: test_ft_targets PATH/TO/fuzz_parse.dict
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ft_common.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/validate.h"

static void test_rng_bytes(void)
{
	const uint8_t b[] = {5, 200, 0x34, 0x12, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	rng r, tail;
	rng_from_bytes(&r, b, sizeof b);
	CHECK(rng_bytes_left(&r) == sizeof b);
	CHECK_EQ_U64(rng_below(&r, 10), 5);
	CHECK_EQ_U64(rng_below(&r, 256), 200);
	CHECK_EQ_U64(rng_below(&r, 1), 0); /* no choice: no byte */
	CHECK_EQ_U64(rng_below(&r, 1000), 0x1234 % 1000);
	CHECK_EQ_U64(rng_next(&r), UINT64_C(0x0807060504030201));
	CHECK(rng_bytes_left(&r) == 1);
	CHECK(rng_chance(&r, 1, 2) == false); /* 9 % 2 = 1, not < 1 */
	CHECK(rng_bytes_left(&r) == 0);
	/* Past the bytes: the fixed tail stream, whatever the bytes were. */
	rng_from_bytes(&tail, NULL, 0);
	bool same = true;
	for (int i = 0; i < 50; i++)
		same &= rng_next(&r) == rng_next(&tail);
	CHECK(same);
	/* A partial last draw takes the bytes that are left. */
	rng_from_bytes(&r, b, 3);
	CHECK_EQ_U64(rng_next(&r), UINT64_C(0x34c805));
	CHECK(rng_bytes_left(&r) == 0);
	/* rng_range and rng_pick_weighted go through the same draw. */
	const uint8_t c[] = {7, 3};
	rng_from_bytes(&r, c, sizeof c);
	CHECK(rng_range(&r, -5, 5) == -5 + 7);
	uint32_t w[3] = {1, 1, 1};
	CHECK(rng_pick_weighted(&r, w, 3) == 0);
	/* Seeding after byte mode gives the plain seeded stream. */
	rng a, s;
	rng_from_bytes(&a, b, sizeof b);
	rng_seed(&a, 7);
	rng_seed(&s, 7);
	same = true;
	for (int i = 0; i < 50; i++)
		same &= rng_next(&a) == rng_next(&s);
	CHECK(same);
	CHECK(rng_bytes_left(&a) == 0);
}

static void fill(uint8_t *buf, size_t n, uint64_t seed)
{
	rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)rng_next(&r);
}

/* Whether test_decode asks for heap traces, and how many it got. */
static bool heap;
static int nheap;

/* Decodes BUF and prints the trace into SB; returns the bytes consumed, or
 * SIZE_MAX on an error (recorded as a check failure). */
static size_t decode(gen_ctx *g, const uint8_t *buf, size_t n, strbuf *sb,
		     bool run)
{
	rng r;
	rng_from_bytes(&r, buf, n);
	ir_trace *t;
	gen_example ex;
	jp_err err;
	if (ft_decode_trace(g, &r, 40, 4, heap, &t, &ex, &err)) {
		fprintf(stderr, "decode: %s\n", err.msg);
		CHECK(!"decoding failed");
		return SIZE_MAX;
	}
	CHECK(ir_validate(t, NULL, &err) == JP_OK);
	CHECK(t->ninputs >= 1 && t->ninputs <= 4);
	/* The length is a target: the last action may overshoot it by a
	 * few ops (a snippet, an overflow guard, the end op). */
	CHECK(ir_count_ops(t) <= 40 + 8);
	if (run) {
		interp_env env;
		memset(&env, 0, sizeof env);
		env.args = ex.inputs;
		env.nargs = ex.ninputs;
		interp_result res;
		memset(&res, 0, sizeof res);
		CHECK(interp_run(t, &env, &res, &err) == JP_OK);
		CHECK(res.outcome != INTERP_GUARD_FAIL);
		interp_result_free(&res);
	}
	sb_reset(sb);
	ir_print(t, sb);
	nheap += ft_has_heap_ops(t);
	ir_trace_free(t);
	return n - rng_bytes_left(&r);
}

/* Number of leading lines A and B share. */
static int common_lines(const char *a, const char *b)
{
	int n = 0;
	while (*a && *a == *b) {
		if (*a == '\n')
			n++;
		a++;
		b++;
	}
	return n;
}

static int count_lines(const char *a)
{
	int n = 0;
	for (; *a; a++)
		n += *a == '\n';
	return n;
}

static void test_decode(bool with_heap)
{
	heap = with_heap;
	nheap = 0;
	gen_ctx *g = gen_ctx_new();
	strbuf s1, s2;
	sb_init(&s1);
	sb_init(&s2);
	uint8_t buf[700];
	/* Edge inputs: empty, all zeros, all 0xff. */
	decode(g, NULL, 0, &s1, true);
	memset(buf, 0, sizeof buf);
	decode(g, buf, sizeof buf, &s1, true);
	memset(buf, 0xff, sizeof buf);
	decode(g, buf, sizeof buf, &s1, true);
	int late_ok = 0, late_total = 0;
	for (uint64_t i = 0; i < 300; i++) {
		size_t n = (size_t)(i * 7 % sizeof buf);
		fill(buf, n, i);
		size_t used = decode(g, buf, n, &s1, true);
		if (used == SIZE_MAX)
			continue;
		/* Same bytes, same trace. */
		decode(g, buf, n, &s2, false);
		CHECK_STREQ(s1.buf, s2.buf);
		/* A byte the decoder never read changes nothing. */
		if (used < n) {
			buf[used] ^= 0x5a;
			decode(g, buf, n, &s2, false);
			CHECK_STREQ(s1.buf, s2.buf);
			buf[used] ^= 0x5a;
		}
		/* The last byte read is one of the last choices: the trace
		 * keeps all but its last few lines. */
		if (used > 8) {
			buf[used - 1] ^= 0x01;
			decode(g, buf, n, &s2, false);
			late_total++;
			if (common_lines(s1.buf, s2.buf) >=
			    count_lines(s1.buf) - 3)
				late_ok++;
			buf[used - 1] ^= 0x01;
		}
	}
	printf("%s: late byte kept all but the last 3 lines in %d of %d; "
	       "%d heap traces\n",
	       heap ? "heap on" : "heap off", late_ok, late_total, nheap);
	/* Heap ops appear exactly when asked for (a third of the traces of
	 * most profiles). */
	CHECK(heap ? nheap > 50 : nheap == 0);
	CHECK(late_total > 100);
	CHECK(late_ok * 10 >= late_total * 8);
	sb_release(&s1);
	sb_release(&s2);
	gen_ctx_free(g);
}

static void test_inputs_and_divergence(void)
{
	const char *text = "[i0, i1]\n"
			   "i2 = int_add(i0, i1)\n"
			   "i3 = int_lt(i2, 10)\n"
			   "guard_true(i3)\n"
			   "finish(i2)\n";
	const char *flipped = "[i0, i1]\n"
			      "i2 = int_add(i0, i1)\n"
			      "i3 = int_lt(i2, 10)\n"
			      "guard_false(i3)\n"
			      "finish(i2)\n";
	ir_parse_opts po = {16, false, "t"};
	ir_trace *a, *b;
	jp_err err;
	CHECK(ir_parse(text, strlen(text), &po, &a, &err) == JP_OK);
	CHECK(ir_parse(flipped, strlen(flipped), &po, &b, &err) == JP_OK);
	uint64_t ex[2] = {3, 4};
	rng r;
	rng_seed(&r, 1);
	ft_inputs in;
	CHECK(ft_make_inputs(a, ex, &r, 10, &in, &err) == JP_OK);
	/* example, 2 inputs x 11 variants, 9 uniform edges, 10 random */
	CHECK(in.n == 1 + 2 * 11 + 9 + 10);
	CHECK(in.ninputs == 2);
	CHECK_EQ_U64(ft_inputs_at(&in, 0)[0], 3);
	CHECK_EQ_U64(ft_inputs_at(&in, 0)[1], 4);
	CHECK_EQ_U64(ft_inputs_at(&in, 4)[0], 0x8000); /* MININT at W=16 */
	uint32_t ndiv_self = 0, ndiv_flip = 0;
	for (uint32_t k = 0; k < in.n; k++) {
		bool d = true;
		CHECK(ft_diverges(a, a, ft_inputs_at(&in, k), true, &d, NULL,
				  NULL, &err) == JP_OK);
		ndiv_self += d;
		ft_kind kind = FT_KIND_COUNT;
		CHECK(ft_diverges(a, b, ft_inputs_at(&in, k), true, &d, &kind,
				  NULL, &err) == JP_OK);
		ndiv_flip += d;
		/* The flipped guard fails where the original passes, and the
		 * original fails where it passes. */
		CHECK(kind == FT_DIV_OPT_GUARD || kind == FT_DIV_ORIG_GUARD);
	}
	CHECK(ndiv_self == 0);
	/* The flipped guard fails exactly where the original passes, so
	 * every input diverges. */
	CHECK(ndiv_flip == in.n);
	ft_inputs_free(&in);
	ir_trace_free(a);
	ir_trace_free(b);
}

static void test_dict(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	jp_err err;
	if (!path || ir_read_file(path, &text, &len, &err)) {
		CHECK(!"cannot read the dictionary");
		return;
	}
	for (int o = 0; o < IR_OPCODE_COUNT; o++) {
		const char *name = ir_opinfos[o].name;
		if (name[0] == '<')
			continue;
		char quoted[64];
		snprintf(quoted, sizeof quoted, "\"%s\"", name);
		if (!strstr(text, quoted))
			fprintf(stderr, "dictionary lacks %s\n", name);
		CHECK(strstr(text, quoted) != NULL);
	}
	free(text);
}

int main(int argc, char **argv)
{
	test_rng_bytes();
	test_decode(false);
	test_decode(true);
	test_inputs_and_divergence();
	test_dict(argc > 1 ? argv[1] : NULL);
	return check_summary("test_ft_targets");
}
