/*
 * parse.h - reading traces in PyPy's trace syntax (and the toy spelling).
 *
 * The grammar is in docs/format.md.  ir_parse never crashes, hangs or leaks
 * on any byte string: it either returns JP_OK with a validated trace that
 * the caller owns (ir_trace_free), or an error with file:line:col and a
 * message saying what was expected and what was found (and *OUT = NULL).
 */
#ifndef JP_IR_PARSE_H
#define JP_IR_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "trace.h"

typedef struct ir_parse_opts {
	int width;   /* 8, 16, 32 or 64; 0 means 64 */
	bool opaque; /* unknown ops parse as opaque calls instead of errors */
	const char *file; /* name used in messages; NULL = "<input>" */
} ir_parse_opts;

jp_status ir_parse(const char *text, size_t len, const ir_parse_opts *opts,
		   ir_trace **out, jp_err *err);

/* Reads PATH ("-" = standard input) and parses it; opts->file defaults to
 * PATH. */
jp_status ir_parse_file(const char *path, const ir_parse_opts *opts,
			ir_trace **out, jp_err *err);

/* Finds a comment line "# args: 1, -2, 0x3" (the example inputs a trace
 * file may carry) and copies the list after the colon into BUF.  Returns
 * false when there is none. */
bool ir_args_comment(const char *text, size_t len, char *buf, size_t size);

/* Reads a whole file into a malloc'd, NUL-terminated buffer. */
jp_status ir_read_file(const char *path, char **text, size_t *len, jp_err *err);

#endif
