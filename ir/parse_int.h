/*
 * parse_int.h - the parser's internal state, shared by its three files.
 * Not a public header: ir/parse.h is the parser's contract.
 *
 *   parse_syntax.c  step 1: each line cut into a syntax record (prs_scan);
 *   parse_build.c   step 2: the records turned into IR (prs_build), the
 *                   toy spelling and PyPy's vocabulary (ir/pypyops.h);
 *   parse.c         the entry points (ir_parse, files, '# args:').
 *
 * The syntax records point into the text and live in parser.A; every
 * error goes to parser.err with the line and column of its token.
 */
#ifndef JP_IR_PARSE_INT_H
#define JP_IR_PARSE_INT_H

#include "parse.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"

/* The longest piece of input quoted in a message (a 5,000-digit
 * constant is shown by its start). */
enum { ECHO_MAX = 40 };

/* ---------- syntax records ---------- */

typedef enum arg_tag {
	A_NAME,	 /* a variable */
	A_INT,	 /* integer literal (also ConstInt(n)) */
	A_NULL,	 /* NULL */
	A_NONE,	 /* None (fail-args only) */
	A_PTR,	 /* ConstPtr(name) */
	A_CLASS, /* ConstClass(name) */
	A_RAW,	 /* anything else inside debug_merge_point */
} arg_tag;

typedef struct syn_arg {
	arg_tag tag;
	const char *text; /* name, literal text, or raw text */
	uint32_t len;
	int col;
	uint64_t ival; /* A_INT: value truncated to W bits */
} syn_arg;

typedef struct syn_stmt {
	int line, col;	 /* start of the statement */
	bool inputs;	 /* an inputs line [i0, p1] */
	const char *res; /* result name or NULL */
	uint32_t reslen;
	int rescol;
	const char *op; /* op name */
	uint32_t oplen;
	int opcol;
	syn_arg *args;
	uint32_t nargs;
	const char *descr; /* descr= text or NULL */
	uint32_t descrlen;
	int descrcol;
	bool has_fail;
	syn_arg *fail;
	uint32_t nfail;
	const char *raw; /* debug_merge_point: raw argument text */
	uint32_t rawlen;
	const char *rule; /* "# rule: NAME" comment: NAME, or NULL */
	uint32_t rulelen;
} syn_stmt;

typedef struct parser {
	const char *file;
	const char *src, *end;
	int width;
	bool opaque;
	arena A; /* syntax records, freed at the end */
	syn_stmt *stmts;
	uint32_t nstmts, capstmts;
	jp_err *err;
	/* line being scanned */
	const char *p, *eol;
	const char *linestart;
	int line;
} parser;

typedef struct namemap {
	uint32_t *slots; /* string id -> vid + 1, 0 = undefined */
	uint32_t cap;
} namemap;

typedef struct builder {
	parser *ps;
	ir_trace *t;
	namemap names;
	bool toy;
	uint32_t *refnames; /* toy: string ids used in reference positions */
	uint32_t nrefnames, caprefnames;
	uint32_t nguards;
} builder;

/* Whether the LEN bytes at S are the word W. */
static inline bool word_is(const char *s, uint32_t len, const char *w)
{
	return strlen(w) == len && memcmp(s, w, len) == 0;
}

/* Cuts every line of PS's text into a syntax record (parse_syntax.c). */
jp_status prs_scan(parser *ps);

/* Turns the records of B->ps into the IR of B->t (parse_build.c). */
jp_status prs_build(builder *b);

#endif
