/*
 * test_heap_util.h - what the heap model's tests (tests/test_heap.c,
 * test_heap_callret.c, test_heap_keys.c, test_heap_paths.c,
 * test_heap_escape.c) share: the context C, parsing with PyPy's whole
 * vocabulary at width 64, reading a pair's file, and a pair's verdict.
 *
 * Header-only (static functions): each test is its own executable and
 * runs in the repository root (tests/CMakeLists.txt).
 */
#ifndef JP_TESTS_TEST_HEAP_UTIL_H
#define JP_TESTS_TEST_HEAP_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/parse.h"
#include "test_parse_util.h"
#include "verify/check.h"

static ver_ctx *C;

/* TEXT parsed at width 64, unknown ops opaque; NULL (said on stderr) on a
 * parse error. */
static inline ir_trace *parse(const char *text)
{
	ir_parse_opts o = {.width = 64, .opaque = true};
	return parse_with(text, &o);
}

/* The first 64 KiB of the file at PATH (caller frees), or NULL. */
static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 16);
	size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	(void)n;
	fclose(f);
	return buf;
}

/* The verdict on the pair (A, B) under options O, -1 for an error, -100
 * when either does not parse; a refutation must come with a replayed
 * counterexample (found by the solver when O screens no inputs), and the
 * reason of an unknown goes to stderr. */
static inline int verdict_with(const char *a, const char *b, const ver_opts *o)
{
	ir_trace *x = parse(a), *y = parse(b);
	int v = -100;
	if (x && y) {
		ver_result r;
		jp_err err;
		v = ver_check(C, x, y, o, &r, &err) ? -1 : (int)r.verdict;
		if (v == VER_REFUTED)
			CHECK(r.cex_text && strstr(r.cex_text, "divergence:") &&
			      (o->screen_inputs || r.by_concrete == 0));
		if (v == VER_UNKNOWN)
			fprintf(stderr, "unknown: %s\n",
				r.reason ? r.reason : "?");
		if (v >= 0)
			ver_result_free(&r);
	}
	ir_trace_free(x);
	ir_trace_free(y);
	return v;
}

/* verdict_with at a 20 s query timeout. */
static inline int verdict_texts(const char *a, const char *b)
{
	ver_opts o = ver_default_opts();
	o.timeout_ms = 20000;
	return verdict_with(a, b, &o);
}

#endif
