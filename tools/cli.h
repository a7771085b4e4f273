/*
 * cli.h - shared pieces of the jitprove command line.
 *
 * Exit codes are fixed for every subcommand:
 *   0  proved / nothing found       1  counterexample / findings
 *   2  usage or input error         3  unknown (the solver could not decide)
 *
 * Each subcommand lives in tools/cmd_<name>.c as
 *   int cmd_<name>(int argc, char **argv);
 * and is listed once in tools/commands.def.  argv[0] is the subcommand name.
 */
#ifndef JP_TOOLS_CLI_H
#define JP_TOOLS_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/err.h"

enum {
	EXIT_PROVED = 0,
	EXIT_FOUND = 1,
	EXIT_USAGE = 2,
	EXIT_UNKNOWN = 3,
};

/* Option kinds for cli_parse. */
typedef enum cli_kind {
	CLI_FLAG,   /* bool *: set to true */
	CLI_STRING, /* const char **: the value */
	CLI_INT,    /* long *: a decimal or 0x integer */
	CLI_UINT64, /* uint64_t *: a decimal or 0x integer */
	CLI_WIDTH,  /* int *: 8, 16, 32 or 64 */
} cli_kind;

typedef struct cli_opt {
	const char *name; /* without the leading "--" */
	cli_kind kind;
	void *dest;
	const char *help; /* one line; for valued options, start with the
			     value's placeholder, e.g. "N  number of ..." */
} cli_opt;

typedef struct cli_spec {
	const char *usage;   /* "jitprove run TRACE [options]" */
	const char *summary; /* one paragraph shown by --help */
	const cli_opt *opts;
	int nopts;
	int minpos,
	    maxpos; /* positional argument count bounds; maxpos -1 = any */
} cli_spec;

/* Parses ARGV[1..] (both "--name value" and "--name=value").  Positional
 * arguments are stored in POS (room for maxpos, or argc when maxpos < 0).
 * Returns -1 when parsing succeeded, else the exit code to return now
 * (0 after --help, 2 after a usage error, which it has printed). */
int cli_parse(const cli_spec *spec, int argc, char **argv, const char **pos,
	      int *npos);

/* Prints E to stderr as "file:line:col: error: msg"; returns the exit code
 * for it (2 for input errors, and for everything else too). */
int cli_error(const jp_err *e);

/* Prints a usage error for the subcommand and returns 2. */
int cli_usage_error(const cli_spec *spec, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Parses a comma-separated list of integers ("1,-2,0x10") into VALS
 * (canonical at WIDTH).  Returns false on a malformed list. */
bool cli_parse_int_list(const char *s, int width, uint64_t *vals, int max,
			int *n);

/* Parses one integer literal (decimal, 0x hex, optional sign). */
bool cli_parse_i64(const char *s, int64_t *out);

#endif
