/*
 * check_audit.c - checking the checker.  --smt2 writes every solver query
 * as a standalone SMT-LIB 2 file, and --solver-cmd has a second solver
 * answer it; a different answer is an internal error, and no answer at
 * all (anything but sat, unsat, unknown or timeout) an error too.
 * ver_solver_probe tries the command on two tiny queries first.
 */
#define _POSIX_C_SOURCE 200809L

#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* What a second solver answered: sat / unsat, an answer that is no
 * verdict (unknown, timeout), or something else entirely. */
typedef enum solver_answer {
	ANS_UNSAT,
	ANS_SAT,
	ANS_INCONCLUSIVE,
	ANS_GARBAGE,
} solver_answer;

/* Runs CMD on PATH.  On ANS_GARBAGE, SAID gets what it printed first (or
 * that it printed nothing) and its exit status. */
static solver_answer second_solver(const char *cmd, const char *path,
				   char *said, size_t size)
{
	size_t n = strlen(cmd) + strlen(path) + 16;
	char *line = malloc(n);
	snprintf(said, size, "nothing could be run (out of memory)");
	if (!line)
		return ANS_GARBAGE;
	snprintf(line, n, "%s '%s' 2>&1", cmd, path);
	FILE *f = popen(line, "r");
	free(line);
	if (!f) {
		snprintf(said, size, "the shell could not be started");
		return ANS_GARBAGE;
	}
	char buf[256] = "", first[96] = "";
	solver_answer ans = ANS_GARBAGE;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\r\n")] = 0;
		if (!first[0])
			snprintf(first, sizeof first, "%s", buf);
		if (!strcmp(buf, "unsat") || !strcmp(buf, "sat")) {
			ans = buf[0] == 's' ? ANS_SAT : ANS_UNSAT;
			break;
		}
		if (!strcmp(buf, "unknown") || !strcmp(buf, "timeout")) {
			ans = ANS_INCONCLUSIVE;
			break;
		}
	}
	while (fgets(buf, sizeof buf, f))
		; /* let it finish rather than die of a broken pipe */
	int status = pclose(f);
	if (ans == ANS_GARBAGE)
		snprintf(said, size, "%s%s%s (exit status %d)",
			 first[0] ? "it printed '" : "it printed nothing",
			 first, first[0] ? "'" : "",
			 status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status)
							  : -1);
	return ans;
}

/* A tiny query for ver_solver_probe whose answer is known. */
static jp_status probe_once(const char *cmd, bool sat, jp_err *err)
{
	char path[] = "/tmp/jitprove-probe-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return jp_fail(err, JP_EIO,
			       "cannot create a temporary file for probing "
			       "--solver-cmd");
	}
	fprintf(f,
		";; jitprove solver probe: the answer must be %s\n"
		"(set-logic QF_BV)\n(declare-fun x () (_ BitVec 8))\n"
		"(assert (= (bvadd x #x01) #x%s))\n%s(check-sat)\n",
		sat ? "sat" : "unsat", sat ? "05" : "00",
		sat ? "" : "(assert (= x #x00))\n");
	bool ok = fclose(f) == 0;
	char said[160];
	solver_answer a =
	    ok ? second_solver(cmd, path, said, sizeof said) : ANS_GARBAGE;
	remove(path);
	if (!ok)
		return jp_fail(err, JP_EIO,
			       "cannot write a temporary file for probing "
			       "--solver-cmd");
	if (a == (sat ? ANS_SAT : ANS_UNSAT))
		return JP_OK;
	if (a == ANS_GARBAGE)
		return jp_fail(err, JP_EINPUT,
			       "--solver-cmd '%s' does not work as a solver: "
			       "run on a query it should answer '%s', %s",
			       cmd, sat ? "sat" : "unsat", said);
	return jp_fail(
	    err, JP_EINPUT,
	    "--solver-cmd '%s' answered '%s' on a query whose answer "
	    "is '%s'",
	    cmd,
	    a == ANS_SAT     ? "sat"
	    : a == ANS_UNSAT ? "unsat"
			     : "unknown",
	    sat ? "sat" : "unsat");
}

jp_status ver_solver_probe(const char *cmd, jp_err *err)
{
	jp_status st = probe_once(cmd, true, err);
	return st ? st : probe_once(cmd, false, err);
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
	char said[160];
	solver_answer other =
	    second_solver(ps->opts->solver_cmd, path, said, sizeof said);
	ps->res->second_checked++;
	if (other == ANS_INCONCLUSIVE)
		ps->res->second_inconclusive++;
	else if (other == ANS_GARBAGE)
		/* Not an answer, so certainly no agreement. */
		st = jp_fail(err, JP_EIO,
			     "the second solver '%s' gave no answer on %s: %s",
			     ps->opts->solver_cmd,
			     ps->opts->smt2_dir ? path : "a query", said);
	else if ((other == ANS_SAT) != (ans == Z3_L_TRUE))
		st = jp_fail(err, JP_EINTERNAL,
			     "solver disagreement on %s: Z3 says %s, '%s' says "
			     "%s",
			     ps->opts->smt2_dir ? path : "a query",
			     ans == Z3_L_TRUE ? "sat" : "unsat",
			     ps->opts->solver_cmd,
			     other == ANS_SAT ? "sat" : "unsat");
	if (!ps->opts->smt2_dir)
		remove(path);
	return st;
}
