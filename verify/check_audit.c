/*
 * check_audit.c - checking the checker.  --smt2 writes every solver query
 * as a standalone SMT-LIB 2 file, and --solver-cmd has a second solver
 * answer it; a different answer is an internal error.
 */
#define _POSIX_C_SOURCE 200809L

#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the proofs are being audited (--smt2 writes every query out,
 * --solver-cmd re-checks it with another solver): then every obligation
 * that needs reasoning must go to a query, and the range analyses settle
 * nothing themselves. */
bool chk_auditing(const chk_pair *ps)
{
	return ps->opts->smt2_dir || ps->opts->solver_cmd;
}

/* Writes QUERY (the assumptions plus NEG) as a standalone SMT-LIB 2 file.
 * PATH receives the file name. */
static jp_status write_smt2(chk_pair *ps, Z3_ast neg, char *path, size_t size,
			    jp_err *err)
{
	const char *dir = ps->opts->smt2_dir;
	if (dir) {
		snprintf(path, size, "%s/pair%llu-q%u.smt2", dir,
			 (unsigned long long)ps->c->pairs, ps->qno);
	} else {
		snprintf(path, size, "/tmp/jitprove-XXXXXX");
		int fd = mkstemp(path);
		if (fd < 0)
			return jp_fail(err, JP_EIO,
				       "cannot create a temporary file");
		close(fd);
	}
	const char *text = Z3_benchmark_to_smtlib_string(
	    ps->z, "jitprove verifier query", "QF_BV", "unknown", "",
	    ps->hyps.n, ps->hyps.v, neg);
	if (!text)
		return zc_check_error(err, "printing a query");
	FILE *f = fopen(path, "w");
	if (!f)
		return jp_fail(err, JP_EIO, "cannot write %s", path);
	fputs(";; inputs are x0, x1, ... in the order of the trace's inputs\n",
	      f);
	fputs(text, f);
	fputs("\n", f);
	if (fclose(f))
		return jp_fail(err, JP_EIO, "cannot write %s", path);
	return JP_OK;
}

/* Runs the second solver on PATH: 1 sat, 0 unsat, -1 anything else. */
static int second_solver(const char *cmd, const char *path)
{
	size_t n = strlen(cmd) + strlen(path) + 16;
	char *line = malloc(n);
	if (!line)
		return -1;
	snprintf(line, n, "%s '%s' 2>&1", cmd, path);
	FILE *f = popen(line, "r");
	free(line);
	if (!f)
		return -1;
	char buf[256] = "";
	int ans = -1;
	while (fgets(buf, sizeof buf, f)) {
		if (!strncmp(buf, "unsat", 5)) {
			ans = 0;
			break;
		}
		if (!strncmp(buf, "sat", 3)) {
			ans = 1;
			break;
		}
	}
	pclose(f);
	return ans;
}

jp_status chk_recheck(chk_pair *ps, Z3_ast neg, Z3_lbool ans, jp_err *err)
{
	char path[4096];
	jp_status st = write_smt2(ps, neg, path, sizeof path, err);
	if (st || !ps->opts->solver_cmd || ans == Z3_L_UNDEF) {
		if (!st && !ps->opts->smt2_dir)
			remove(path);
		return st;
	}
	int other = second_solver(ps->opts->solver_cmd, path);
	ps->res->second_checked++;
	if (other < 0)
		ps->res->second_inconclusive++;
	else if (other != (ans == Z3_L_TRUE))
		st = jp_fail(err, JP_EINTERNAL,
			     "solver disagreement on %s: Z3 says %s, '%s' says "
			     "%s",
			     ps->opts->smt2_dir ? path : "a query",
			     ans == Z3_L_TRUE ? "sat" : "unsat",
			     ps->opts->solver_cmd, other ? "sat" : "unsat");
	if (!ps->opts->smt2_dir)
		remove(path);
	return st;
}
