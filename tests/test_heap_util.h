/*
 * test_heap_util.h - what the heap model's tests (tests/test_heap.c,
 * test_heap_callret.c, test_heap_keys.c) share: the context C, parsing
 * with PyPy's whole vocabulary at width 64, and reading a pair's file.
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

#endif
