/*
 * ci_int.h - what the files of the CI gate share; nothing outside
 * fuzz/ci*.c includes it.  The contract is fuzz/ci.h.
 *
 * The gate is one module in five files, split by responsibility:
 *   ci.c           verdict/status names, the unknown budget and summary,
 *                  the fuzz smoke
 *   ci_expect.c    expect files and options files
 *   ci_discover.c  finding the cases under a path
 *   ci_case.c      checking one case: traces, '# args:' examples, the
 *                  cache, where a refutation shows
 *   ci_run.c       ci_run: the cases in turn, or a pool of worker
 *                  processes that send results back over pipes
 */
#ifndef JP_FUZZ_CI_INT_H
#define JP_FUZZ_CI_INT_H

#include "fuzz/ci.h"

/* A malloc'd copy of S; NULL when S is NULL or memory runs out. */
char *ci_dup_str(const char *s);

/* Reads C's options file (when it has one), then its expect file (when it
 * has one), whose settings win, into X; X starts from the defaults
 * (verdict proved).  Errors: those of ir_read_file, and JP_EINPUT located
 * at the offending line and column. */
jp_status ci_load_expect(const ci_case *c, ci_expect *x, jp_err *err);

/* Checks case C under CFG into R, which it overwrites; R then owns its
 * strings (ci_result_free).  Every failure (unreadable or malformed files,
 * the optimizer or the verifier failing) becomes a CI_ERROR result, so
 * there is no status to return. */
void ci_check_case(const ci_case *c, const ci_config *cfg, ci_result *r);

#endif
