/*
 * test_opt_util.h - helpers shared by the optimizer tests (test_opt_*.c).
 *
 * The tests are written like the optimizer tutorials' tests: an input
 * trace and the expected output trace, as text.  expect_opt optimizes the
 * input, prints it, and compares with the expected text (itself parsed and
 * printed, so spacing does not matter).  Every such test also runs the
 * input and the output in the interpreter on many inputs (edge values,
 * random values; every value at width 8 for one input) and checks they
 * behave the same: same outcome, same failing guard label, same outputs
 * or fail-args.  A wrong expected text and a wrong rewrite are both caught.
 *
 * Header-only (static functions): each test is its own executable.
 */
#ifndef JP_TESTS_TEST_OPT_UTIL_H
#define JP_TESTS_TEST_OPT_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/sem.h"
#include "passes/opt.h"
#include "verify/heap.h"

static uint64_t tu_rng = 0x2545f4914f6cdd1du;

static inline uint64_t tu_rand(void)
{
	tu_rng ^= tu_rng >> 12;
	tu_rng ^= tu_rng << 25;
	tu_rng ^= tu_rng >> 27;
	return tu_rng * UINT64_C(2685821657736338717);
}

static inline ir_trace *tu_parse(const char *src, int width)
{
	ir_parse_opts po = {.width = width, .opaque = true, .file = "<test>"};
	ir_trace *t = NULL;
	jp_err err;
	if (ir_parse(src, strlen(src), &po, &t, &err)) {
		char buf[1200];
		jp_err_format(&err, buf, sizeof buf);
		fprintf(stderr, "%s\nin:\n%s\n", buf, src);
		return NULL;
	}
	return t;
}

static inline char *tu_print(const ir_trace *t)
{
	strbuf sb;
	sb_init(&sb);
	ir_print(t, &sb);
	return sb_detach(&sb);
}

static inline opt_config tu_config(const char *passes, const char *bugs)
{
	opt_config cfg = opt_default_config();
	jp_err err;
	if (passes && opt_parse_passes(passes, &cfg.passes, &err))
		fprintf(stderr, "bad pass list: %s\n", err.msg);
	if (bugs && opt_parse_bugs(bugs, &cfg.bugs, &err))
		fprintf(stderr, "bad bug list: %s\n", err.msg);
	return cfg;
}

/* Optimizes T; NULL (after printing the error) on failure. */
static inline ir_trace *tu_opt(const ir_trace *t, const char *passes,
			       const char *bugs, opt_stats *st)
{
	opt_config cfg = tu_config(passes, bugs);
	ir_trace *o = NULL;
	jp_err err;
	if (opt_run(t, &cfg, &o, st, &err)) {
		fprintf(stderr, "opt_run: %s\n", err.msg);
		return NULL;
	}
	return o;
}

/* The W-bit values where optimizer bugs live. */
static inline int tu_edges(int w, uint64_t *out)
{
	uint64_t min = sem_minint(w);
	uint64_t e[] = {0,
			1,
			2,
			3,
			5,
			6,
			7,
			10,
			12,
			15,
			16,
			100,
			255,
			256,
			min,
			min + 1,
			min + 9,
			min - 1,
			min - 9,
			min >> 1,
			(min >> 1) + 1,
			0 - (uint64_t)1,
			0 - (uint64_t)2,
			0 - (uint64_t)3,
			0 - (uint64_t)7,
			0 - (uint64_t)16,
			UINT64_C(1) << (w / 2),
			(UINT64_C(1) << (w - 2)) + 1,
			(UINT64_C(1) << (w - 1)) + 1};
	int n = 0;
	for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
		out[n++] = sem_mask(w, e[i]);
	return n;
}

static inline bool tu_same_run(const interp_result *a, const interp_result *b,
			       const ir_trace *ta, const ir_trace *tb)
{
	if (a->outcome != b->outcome || a->nout != b->nout ||
	    a->ncalls != b->ncalls)
		return false;
	if (a->outcome == INTERP_GUARD_FAIL &&
	    strcmp(ir_guard_label(ta, a->stop_op),
		   ir_guard_label(tb, b->stop_op)))
		return false;
	for (uint32_t i = 0; i < a->nout; i++)
		if (a->out[i] != b->out[i])
			return false;
	for (uint32_t i = 0; i < a->ncalls; i++) {
		if (a->calls[i].nargs != b->calls[i].nargs)
			return false;
		for (uint32_t k = 0; k < a->calls[i].nargs; k++)
			if (a->calls[i].args[k] != b->calls[i].args[k])
				return false;
	}
	return true;
}

/* Runs both traces on ARGS; 1 when they behave the same, 0 when not, -1
 * when the interpreter refused.  Heap traces are compared as the heap
 * model replays them (hp_run_diverges: fresh objects by identity, not by
 * the address the interpreter gave them), so an optimizer that allocates
 * in another order is not taken to differ. */
static inline int tu_same_on(const ir_trace *a, const ir_trace *b,
			     const uint64_t *args)
{
	interp_env env;
	memset(&env, 0, sizeof env);
	env.args = args;
	env.nargs = a->ninputs;
	interp_result ra, rb;
	jp_err err;
	if (hp_uses_heap(a) || hp_uses_heap(b)) {
		bool div = false;
		strbuf why;
		sb_init(&why);
		jp_status st = hp_run_diverges(a, b, &env, &div, &why, &err);
		sb_release(&why);
		return st ? -1 : !div;
	}
	if (interp_run(a, &env, &ra, &err))
		return -1;
	if (interp_run(b, &env, &rb, &err)) {
		interp_result_free(&ra);
		return -1;
	}
	int same = tu_same_run(&ra, &rb, a, b);
	interp_result_free(&ra);
	interp_result_free(&rb);
	return same;
}

/* References get distinct non-null addresses, integers the given value. */
static inline void tu_fix_refs(const ir_trace *t, uint64_t *args)
{
	for (uint32_t i = 0; i < t->ninputs; i++)
		if (t->vals[t->inputs[i]].kind == 'r')
			args[i] = 0x1000 + 0x100 * i;
}

/* Searches inputs on which A and B behave differently: every value at
 * width 8 for one input, pairs of edge values for two, and random mixes
 * of edge and random values.  Returns true and fills WITNESS (room for
 * a->ninputs values) when it finds one. */
static inline bool tu_find_divergence(const ir_trace *a, const ir_trace *b,
				      uint64_t *witness)
{
	int w = a->width;
	uint32_t n = a->ninputs;
	uint64_t edges[64];
	int ne = tu_edges(w, edges);
	uint64_t *args = calloc(n + 1, sizeof *args);
	bool found = false;
	if (n == 1 && w == 8) {
		for (uint64_t x = 0; x < 256 && !found; x++) {
			args[0] = x;
			tu_fix_refs(a, args);
			found = tu_same_on(a, b, args) == 0;
		}
	} else if (n >= 1 && n <= 2) {
		for (int i = 0; i < ne && !found; i++)
			for (int j = 0; j < (n == 2 ? ne : 1) && !found; j++) {
				args[0] = edges[i];
				if (n == 2)
					args[1] = edges[j];
				tu_fix_refs(a, args);
				found = tu_same_on(a, b, args) == 0;
			}
	}
	for (int r = 0; r < 600 && !found; r++) {
		for (uint32_t k = 0; k < n; k++)
			args[k] = tu_rand() % 3
				      ? edges[tu_rand() % (uint64_t)ne]
				      : sem_mask(w, tu_rand());
		tu_fix_refs(a, args);
		found = tu_same_on(a, b, args) == 0;
	}
	if (n == 0 && !found)
		found = tu_same_on(a, b, args) == 0;
	if (found)
		memcpy(witness, args, n * sizeof *args);
	free(args);
	return found;
}

/* Optimizes SRC with PASSES (NULL: all) and compares with EXPECTED; then
 * checks that input and output behave the same. */
static inline void tu_expect(const char *file, int line, int width,
			     const char *passes, const char *src,
			     const char *expected)
{
	ir_trace *t = tu_parse(src, width);
	ir_trace *e = tu_parse(expected, width);
	ir_trace *o = t ? tu_opt(t, passes, NULL, NULL) : NULL;
	char *got = o ? tu_print(o) : NULL;
	char *want = e ? tu_print(e) : NULL;
	bool ok = got && want && !strcmp(got, want);
	if (!ok)
		fprintf(stderr,
			"%s:%d: optimizer output differs\n  got:\n%s\n"
			"  expected:\n%s\n",
			file, line, got ? got : "(error)",
			want ? want : "(error)");
	check_report(ok, file, line, "optimized text == expected text");
	if (t && o) {
		uint64_t wit[64];
		bool div = t->ninputs <= 64 && tu_find_divergence(t, o, wit);
		if (div) {
			fprintf(stderr, "%s:%d: output behaves differently on",
				file, line);
			for (uint32_t i = 0; i < t->ninputs; i++)
				fprintf(stderr, " %lld",
					(long long)sem_signed(width, wit[i]));
			fprintf(stderr, "\n");
		}
		check_report(!div, file, line, "output behaves like input");
	}
	free(got);
	free(want);
	ir_trace_free(t);
	ir_trace_free(e);
	ir_trace_free(o);
}

#define EXPECT_OPT(src, expected)                                              \
	tu_expect(__FILE__, __LINE__, 64, NULL, src, expected)
#define EXPECT_OPT_P(passes, src, expected)                                    \
	tu_expect(__FILE__, __LINE__, 64, passes, src, expected)
#define EXPECT_OPT_W(width, src, expected)                                     \
	tu_expect(__FILE__, __LINE__, width, NULL, src, expected)

/* The same input optimized at every width behaves like the input. */
static inline void tu_all_widths(const char *file, int line, const char *src)
{
	static const int ws[] = {8, 16, 32, 64};
	for (int i = 0; i < 4; i++) {
		ir_trace *t = tu_parse(src, ws[i]);
		ir_trace *o = t ? tu_opt(t, NULL, NULL, NULL) : NULL;
		uint64_t wit[64];
		bool ok = t && o && !tu_find_divergence(t, o, wit);
		if (!ok)
			fprintf(stderr, "%s:%d: differs at width %d\n", file,
				line, ws[i]);
		check_report(ok, file, line, "behaves alike at every width");
		ir_trace_free(t);
		ir_trace_free(o);
	}
}

#define SOUND_ALL_WIDTHS(src) tu_all_widths(__FILE__, __LINE__, src)

#endif
