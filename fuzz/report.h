/*
 * report.h - what `jitprove ci` tells people and CI systems.
 *
 * Four renderings of one finished run (ci.h):
 *   rep_text   the terminal summary: failures first (with their
 *              counterexamples), then errors and unknowns, then the counts
 *              and the time;
 *   rep_junit  JUnit XML: <testsuites>, one <testsuite> per path argument
 *              (and one for the fuzz smoke), one <testcase> per case with
 *              name, classname, time and file; <failure message type> with
 *              the counterexample as body for refutations and missed
 *              expectations, <error> for errors; never <skipped>.
 *              Unknowns are failures of type "unknown" when they exceed the
 *              budget, otherwise passing testcases with a <system-out> note;
 *   rep_sarif  SARIF 2.1.0: one result per refutation (rule
 *              "jitprove/miscompilation", level error), located at the
 *              failing guard or end op (ci_result.loc_file/loc_line), the
 *              URI relative to BASE when the file is under it; refutations
 *              the case expects (known-bad reproducers) carry an external
 *              suppression.  Errors are tool execution notifications;
 *   rep_json   everything, for scripts (docs/ci.md lists the fields).
 * Apart from times, every rendering depends only on the cases and their
 * results, in case order -- never on how many jobs ran them.
 *
 * All text put into the documents is made valid UTF-8 first (invalid
 * bytes become U+FFFD), since trace files and messages may hold anything.
 */
#ifndef JP_FUZZ_REPORT_H
#define JP_FUZZ_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/ci.h"
#include "ir/strbuf.h"

typedef struct rep_run {
	const ci_caselist *cases;
	const ci_result *results; /* one per case */
	const ci_summary *sum;
	const ci_budget *budget;
	const ci_fuzz *fuzz;	  /* NULL when no fuzz smoke ran */
	const char *const *roots; /* the path arguments, by ci_case.root */
	uint32_t nroots;
	const char *base;	  /* SARIF URIs are relative to this
				     directory; NULL = the current one */
	const char *command_line; /* may be NULL */
	int exit_code;
	double ms; /* wall-clock time of the whole run */
} rep_run;

/* VERBOSE also lists the cases that passed. */
void rep_text(const rep_run *r, bool verbose, strbuf *sb);
void rep_junit(const rep_run *r, strbuf *sb);
void rep_sarif(const rep_run *r, strbuf *sb);
void rep_json(const rep_run *r, strbuf *sb);

/* Appends the URI of file PATH (relative to the current directory or
 * absolute): relative and percent-encoded when PATH is under BASE (NULL =
 * the current directory), else an absolute file:// URI.  *RELATIVE says
 * which (may be NULL). */
void rep_uri(const char *path, const char *base, strbuf *sb, bool *relative);

/* Appends S with invalid UTF-8 replaced by U+FFFD. */
void rep_utf8(const char *s, strbuf *sb);

/* Writes SB to PATH with fd_write_path (ir/fdio.h): "-" and /dev/fd/N are
 * the open descriptors, devices and FIFOs are written in place, regular
 * files (and links to them) are replaced atomically.  Errors: JP_EIO (with
 * the reason), JP_ENOMEM when SB ran out of memory. */
jp_status rep_write_file(const char *path, const strbuf *sb, jp_err *err);

#endif
