/*
 * test_parse_util.h - parsing a trace text in the tests: the one place
 * that says what a parse error looks like on stderr.  Header-only.
 */
#ifndef JP_TESTS_TEST_PARSE_UTIL_H
#define JP_TESTS_TEST_PARSE_UTIL_H

#include <stdio.h>
#include <string.h>

#include "ir/parse.h"

/* TEXT parsed with O; NULL (the error and the text on stderr) when it
 * does not parse. */
static inline ir_trace *parse_with(const char *text, const ir_parse_opts *o)
{
	ir_trace *t = NULL;
	jp_err e;
	if (ir_parse(text, strlen(text), o, &t, &e)) {
		fprintf(stderr, "parse error %d:%d %s\n%s\n", e.line, e.col,
			e.msg, text);
		return NULL;
	}
	return t;
}

#endif
