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
#include <stddef.h>
#include <stdint.h>

#include "ir/err.h"
#include "ir/trace.h"

enum {
	EXIT_PROVED = 0,
	EXIT_FOUND = 1,
	EXIT_USAGE = 2,
	EXIT_UNKNOWN = 3,
};

/* Option kinds for cli_parse.  Every value is checked while parsing, so a
 * bad value is refused before the command does any work. */
typedef enum cli_kind {
	CLI_FLAG,    /* bool *: set to true */
	CLI_STRING,  /* const char **: the value */
	CLI_INT,     /* long *: a decimal or 0x integer, in [lo, hi] */
	CLI_UINT64,  /* uint64_t *: a decimal or 0x integer */
	CLI_WIDTH,   /* int *: 8, 16, 32 or 64 */
	CLI_OUTFILE, /* const char **: a file to write ("-" = stdout); its
			directory must exist and be writable */
	CLI_OUTDIR,  /* const char **: a directory to fill; it must be a
			writable directory, or not exist in a writable one */
	CLI_BUGS,    /* uint64_t *: known optimizer bugs (opt_parse_bugs) */
	CLI_PASSES,  /* uint64_t *: optimizer passes (opt_parse_passes) */
} cli_kind;

typedef struct cli_opt {
	const char *name; /* without the leading "--" */
	cli_kind kind;
	void *dest;
	const char *help;  /* one line; for valued options, start with the
			      value's placeholder, e.g. "N  number of ..." */
	long lo, hi;	   /* CLI_INT: the accepted range (when lo < hi) */
	bool *given;	   /* if not NULL: set when the option is present */
	bool show_default; /* CLI_INT: --help prints *dest as the default */
} cli_opt;

/* ---- shared option groups ----
 * One definition of each option several commands take, so that every
 * command parses, checks and documents it the same way.  Each returns an
 * entry for a command's option table; DEST holds the command's default
 * before cli_parse (--help prints it where it is a number). */

/* --width W: 8, 16, 32 or 64. */
cli_opt cli_opt_width(int *dest);
/* --opaque: unknown operations read as opaque calls. */
cli_opt cli_opt_opaque(bool *dest);
/* --timeout-ms T: wall-clock limit per solver query, 0..86400000, where 0
 * means no limit (in every command). */
cli_opt cli_opt_timeout(long *dest);
/* --pair-budget-ms T: wall-clock budget of one pair (ver_opts.budget_ms),
 * 0..86400000, 0 = none; the default shown is *DEST's (log 8000, check 0). */
cli_opt cli_opt_pair_budget(long *dest);
/* --rlimit N: Z3 resource limit per query, 0..4000000000 (0 = none). */
cli_opt cli_opt_rlimit(long *dest);
/* --jobs J: 1..256 worker processes. */
cli_opt cli_opt_jobs(long *dest);
/* --seed S: a 64-bit seed (decimal or 0x); HELP says what it seeds. */
cli_opt cli_opt_seed(uint64_t *dest, bool *given, const char *help);
/* --json: print the result as one JSON object on stdout. */
cli_opt cli_opt_json(bool *dest);
/* --NAME FILE: a report file, checked up front (CLI_OUTFILE). */
cli_opt cli_opt_report(const char *name, const char **dest, const char *help);
/* --inject BUGS and --passes LIST, checked against the optimizer's
 * tables. */
cli_opt cli_opt_inject(uint64_t *dest);
cli_opt cli_opt_passes(uint64_t *dest);
/* An integer option NAME in [LO, HI]. */
cli_opt cli_opt_int(const char *name, long *dest, long lo, long hi,
		    const char *help);

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

/* The one trace loader of the tools: reads PATH ("-" = standard input),
 * parses and validates it at WIDTH (0 = 64; OPAQUE: unknown operations as
 * opaque calls), with messages located in PATH.  When ARGS is not NULL it
 * receives the trace's "# args:" comment ("" when there is none).  On
 * failure *T is NULL and ERR says why. */
jp_status cli_load_trace(const char *path, int width, bool opaque, ir_trace **t,
			 char *args, size_t argsize, jp_err *err);

/* Flushes and checks standard output after a command: a write error (a
 * full disk, /dev/full, a closed pipe) is an error, exit 2, with a
 * message.  Returns RC when the output is sound, else EXIT_USAGE. */
int cli_finish_stdout(int rc);

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
