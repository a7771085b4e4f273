/*
 * test_pypylog_util.h - what the PyPy log tests (tests/test_pypylog.c,
 * test_pypylog_effects.c) share: reading a log's text into its pairs.
 *
 * Header-only (static functions): each test is its own executable.
 */
#ifndef JP_TESTS_TEST_PYPYLOG_UTIL_H
#define JP_TESTS_TEST_PYPYLOG_UTIL_H

#include <string.h>

#include "check.h"
#include "ir/pypylog.h"

/* Reads TEXT, which must give N pairs, into LOG; pair K when it was
 * shaped (orig and opt made), else NULL (a failed check says so). */
static const pl_pair *read_pair(const char *text, uint32_t n, uint32_t k,
				pl_log *log)
{
	jp_err e;
	CHECK(pl_read_text(text, strlen(text), "t.log", NULL, log, &e) ==
	      JP_OK);
	CHECK(log->n == n && log->pairs[k].orig && log->pairs[k].opt);
	if (log->n != n || !log->pairs[k].orig || !log->pairs[k].opt)
		return NULL;
	return &log->pairs[k];
}

#endif
