/*
 * test_pypylog_util.h - what the PyPy log tests (tests/test_pypylog*.c)
 * share: reading a log's text into its pairs, counting a trace's ops.
 *
 * Header-only (static functions): each test is its own executable.
 */
#ifndef JP_TESTS_TEST_PYPYLOG_UTIL_H
#define JP_TESTS_TEST_PYPYLOG_UTIL_H

#include <string.h>

#include "check.h"
#include "ir/pypylog.h"

/* Reads TEXT with the options O (NULL: the defaults), which must give N
 * pairs, into LOG; pair K when it was shaped (orig and opt made), else
 * NULL (a failed check says so). */
static const pl_pair *read_pair_opts(const char *text, const pl_opts *o,
				     uint32_t n, uint32_t k, pl_log *log)
{
	jp_err e;
	CHECK(pl_read_text(text, strlen(text), "t.log", o, log, &e) == JP_OK);
	CHECK(log->n == n && log->pairs[k].orig && log->pairs[k].opt);
	if (log->n != n || !log->pairs[k].orig || !log->pairs[k].opt)
		return NULL;
	return &log->pairs[k];
}

/* read_pair_opts with the default options. */
static const pl_pair *read_pair(const char *text, uint32_t n, uint32_t k,
				pl_log *log)
{
	return read_pair_opts(text, NULL, n, k, log);
}

/* How many ops of T have opcode OPC. */
static inline uint32_t count_op(const ir_trace *t, ir_opcode opc)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		n += t->ops[i].opc == opc;
	return n;
}

#endif
