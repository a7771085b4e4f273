/*
 * cmd_log.c - jitprove log: check every loop and bridge of PyPy JIT logs.
 *
 * Sections: one pair checked into a record; the worker processes of
 * --jobs; printing (lines, summary, JSON); writing pair directories
 * (--out); the command.
 *
 * The log is read and shaped into pairs by ir/pypylog.h; each pair is
 * checked with ver_check.  A pair the front end cannot shape, or whose
 * ops the checker has no model for (JP_EUNSUPPORTED), is unknown with
 * that reason; a section that does not parse, or any other checker error,
 * is an error.  Exit: 1 if any counterexample, else 2 if any error, else
 * 3 if any unknown, else 0.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz/ci.h"
#include "ir/fdio.h"
#include "ir/print.h"
#include "ir/pypylog.h"
#include "ir/strbuf.h"
#include "util/clock.h"
#include "verify/check.h"

typedef enum verdict { V_PROVED, V_CEX, V_UNKNOWN, V_ERROR } verdict;

static const char *vname(verdict v)
{
	static const char *n[] = {"proved", "counterexample", "unknown",
				  "error"};
	return n[v];
}

typedef struct record {
	verdict v;
	uint32_t assumed; /* proved assuming this many ConstPtr identities */
	uint32_t kept;	  /* ... and this many fields kept by calls */
	uint32_t floats;  /* ... and float constants read as the original's */
	uint32_t classes; /* ... and ConstPtrs taken to be no instance of a
			     class (pl_pair.nclasses) */
	uint32_t strs;	  /* ... and ConstPtrs taken to be a one-char string
			     (pl_pair.nstrs) */
	double ms;
	char reason[400];
} record;

/* ---- one pair ----------------------------------------------------------- */

static bool uses_heap(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_HEAP))
			return true;
	return false;
}

/* A proof resting on facts the front end put at the start of both traces
 * (what the recording proves, what a bridge knows; over identified
 * constants) would be vacuous if those facts contradict each other (two
 * identified constants with different recorded classes): both traces
 * would fail at once on every input.  The facts alone, ending in
 * finish() and in jump(): the checker refutes "that end is unreachable"
 * with a run, or proves it (vacuous); a pair whose facts are shown to
 * leave no run, or not shown to leave one, is unknown. */
static void check_not_vacuous(ver_ctx *c, const ver_opts *vo, const pl_pair *p,
			      record *r)
{
	if (r->v != V_PROVED || p->nprefix == 0)
		return;
	ir_trace *f = pl_facts_probe(p, false), *j = pl_facts_probe(p, true);
	ver_result res;
	memset(&res, 0, sizeof res);
	jp_err err;
	jp_err_clear(&err);
	jp_status st = f && j ? ver_check(c, f, j, vo, &res, &err) : JP_ENOMEM;
	bool run = !st && res.verdict == VER_REFUTED;
	bool none = !st && res.verdict == VER_PROVED;
	ver_result_free(&res);
	ir_trace_free(f);
	ir_trace_free(j);
	if (run)
		return;
	r->v = V_UNKNOWN;
	snprintf(r->reason, sizeof r->reason, "%s",
		 none ? "vacuous: the facts the front end added leave no run"
		      : "proved, but no run the front end's facts allow was "
			"found (the proof could be vacuous)");
}

static void check_pair(ver_ctx *c, const ver_opts *vo, const pl_pair *p,
		       record *r)
{
	double t0 = clk_now_ms();
	memset(r, 0, sizeof *r);
	if (p->error) {
		r->v = V_ERROR;
		snprintf(r->reason, sizeof r->reason, "%s", p->error);
		return;
	}
	if (!p->orig) {
		r->v = V_UNKNOWN;
		snprintf(r->reason, sizeof r->reason, "front end: %s",
			 p->reason);
		return;
	}
	ver_result res;
	memset(&res, 0, sizeof res);
	jp_err err;
	jp_err_clear(&err);
	/* Its refutations are reported unknown (below): only a proof counts,
	 * and the check stops at the first obligation not proved. */
	ver_opts po = *vo;
	po.heap_proof_only = uses_heap(p->orig) || uses_heap(p->opt);
	jp_status st =
	    c ? ver_check(c, p->orig, p->opt, &po, &res, &err) : JP_EINTERNAL;
	r->ms = clk_now_ms() - t0;
	if (st == JP_EUNSUPPORTED) {
		/* an op or shape without a model: unknown, never an error */
		r->v = V_UNKNOWN;
		snprintf(r->reason, sizeof r->reason, "no model: %.380s",
			 err.msg);
	} else if (st) {
		r->v = V_ERROR;
		snprintf(r->reason, sizeof r->reason, "%.390s", err.msg);
	} else {
		r->v = res.verdict == VER_PROVED    ? V_PROVED
		       : res.verdict == VER_REFUTED ? V_CEX
						    : V_UNKNOWN;
		const char *what =
		    res.failed >= 0 && (uint32_t)res.failed < res.nobl
			? res.obl[res.failed].what
			: NULL;
		if (r->v != V_PROVED)
			snprintf(r->reason, sizeof r->reason, "%.150s%s%.200s",
				 what ? what : "",
				 what && res.reason ? ": " : "",
				 res.reason ? res.reason : "");
		/* A heap pair's refutation rests on the front end's guard
		 * pairing and on ConstPtrs it had to keep apart (PyPy names
		 * them per section): replayed in the model, but not a
		 * confirmed miscompilation (docs/pypy.md). */
		if (r->v == V_CEX &&
		    (uses_heap(p->orig) || uses_heap(p->opt))) {
			char keep[400];
			snprintf(keep, sizeof keep, "%s", r->reason);
			r->v = V_UNKNOWN;
			const char *k =
			    res.cex_orig_guarded
				? pl_guard_const(p->orig, res.cex_orig_guard)
				: NULL;
			if (k)
				snprintf(r->reason, sizeof r->reason,
					 "not confirmed: the original leaves "
					 "at a guard on ConstPtr(%.40s), whose "
					 "contents PyPy reads and the log does "
					 "not print: %.220s",
					 k, keep);
			else
				snprintf(r->reason, sizeof r->reason,
					 "not confirmed: counterexample under "
					 "the inferred guard pairing: %.300s",
					 keep);
		}
	}
	ver_result_free(&res);
	check_not_vacuous(c, vo, p, r);
	r->ms = clk_now_ms() - t0;
	if (r->v == V_PROVED) {
		r->assumed = p->nsame;
		r->kept = p->nkept;
		r->floats = p->nfloat;
		r->classes = p->nclasses;
		r->strs = p->nstrs;
	}
}

/* ---- workers ------------------------------------------------------------ */

/* Checks pair P into R with context C, an error when there is none (ERR
 * says why ver_ctx_new failed). */
static void check_one(ver_ctx *c, const jp_err *err, const ver_opts *vo,
		      const pl_pair *p, record *r)
{
	check_pair(c, vo, p, r);
	if (!c) {
		r->v = V_ERROR;
		snprintf(r->reason, sizeof r->reason,
			 "no solver context: %.370s", err->msg);
	}
}

/* Checks pairs I with I % JOBS == K into RECS (all of them when JOBS is
 * 1), with progress on a terminal when SHOW. */
static void check_share(const pl_log *log, const ver_opts *vo, record *recs,
			unsigned k, unsigned jobs, bool show, uint32_t base,
			uint32_t total)
{
	jp_err err;
	ver_ctx *c = ver_ctx_new(&err);
	for (uint32_t i = k; i < log->n; i += jobs) {
		if (show) {
			fprintf(stderr, "\r\033[K[%u/%u] %s", base + i + 1,
				total, log->pairs[i].id);
			fflush(stderr);
		}
		check_one(c, &err, vo, &log->pairs[i], &recs[i]);
	}
	if (show)
		fputs("\r\033[K", stderr);
	ver_ctx_free(c);
}

/* Forks a worker that checks pairs FROM, FROM + JOBS, ... and writes each
 * record to its pipe as soon as it has it (so a worker that dies loses
 * only the pair it was checking); the pipe's read end, or -1. */
static int fork_worker(const pl_log *log, const ver_opts *vo, record *recs,
		       uint32_t from, unsigned jobs, pid_t *pid)
{
	int pfd[2];
	if (pipe(pfd))
		return -1;
	/* Unflushed output would be written again by the child. */
	fflush(stdout);
	fflush(stderr);
	*pid = fork();
	if (*pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (*pid == 0) {
		close(pfd[0]);
		jp_err err;
		ver_ctx *c = ver_ctx_new(&err);
		/* A test hook: the worker dies on the pair of this id, as on a
		 * bug (tests/cli/log_corpus.sh). */
		const char *die = getenv("JP_TEST_WORKER_CRASH");
		for (uint32_t i = from; i < log->n; i += jobs) {
			if (die && !strcmp(die, log->pairs[i].id))
				abort();
			check_one(c, &err, vo, &log->pairs[i], &recs[i]);
			if (!fd_write_all(pfd[1], &recs[i], sizeof recs[i]))
				_exit(1);
		}
		ver_ctx_free(c);
		_exit(0);
	}
	close(pfd[1]);
	return pfd[0];
}

/* Pair I was being checked when its worker ended without its record. */
static void worker_died(record *r, int status)
{
	r->v = V_ERROR;
	if (WIFSIGNALED(status))
		snprintf(r->reason, sizeof r->reason,
			 "the worker process checking it died (signal %d): "
			 "a bug of jitprove, please report it with the log",
			 WTERMSIG(status));
	else
		snprintf(r->reason, sizeof r->reason,
			 "the worker process checking it died");
}

/* Forks JOBS workers, share K taking pairs K, K + JOBS, ...  A worker that
 * dies costs the pair it was checking (an error) and nothing else: a new
 * one goes on with the rest of its share. */
static bool check_parallel(const pl_log *log, const ver_opts *vo, record *recs,
			   unsigned jobs)
{
	int fds[256];
	pid_t pids[256];
	for (unsigned k = 0; k < jobs; k++) {
		fds[k] = fork_worker(log, vo, recs, k, jobs, &pids[k]);
		if (fds[k] < 0) {
			while (k-- > 0) {
				close(fds[k]);
				waitpid(pids[k], NULL, 0);
			}
			return false;
		}
	}
	bool ok = true;
	for (unsigned k = 0; k < jobs; k++) {
		for (uint32_t i = k; i < log->n; i += jobs) {
			if (fds[k] >= 0 &&
			    fd_read_all(fds[k], &recs[i], sizeof recs[i]))
				continue;
			int status = 0;
			if (fds[k] >= 0) {
				close(fds[k]);
				waitpid(pids[k], &status, 0);
			}
			worker_died(&recs[i], status);
			fds[k] = i + jobs < log->n
				     ? fork_worker(log, vo, recs, i + jobs,
						   jobs, &pids[k])
				     : -1;
		}
		if (fds[k] >= 0) {
			close(fds[k]);
			waitpid(pids[k], NULL, 0);
		}
	}
	return ok;
}

/* ---- output ------------------------------------------------------------- */

typedef struct totals {
	uint32_t n[4];
	uint32_t assumed; /* proved pairs that assume ConstPtr identities */
	uint32_t kept;	  /* proved pairs that assume fields kept by calls */
	uint32_t floats;  /* proved pairs that assume float constants */
	uint32_t classes; /* proved pairs that assume constant classes */
	uint32_t strs;	  /* proved pairs that assume constant strings */
	double ms;
} totals;

static void print_line(const char *file, const pl_pair *p, const record *r,
		       bool many)
{
	printf("%s%s%-26s %-12s %-14s %8.1f ms", many ? file : "",
	       many ? ": " : "", p->id, pl_kind_name(p->kind), vname(r->v),
	       r->ms);
	if (r->v != V_PROVED && r->reason[0])
		printf("  %s", r->reason);
	const char *sep = "  (assuming ";
	if (r->assumed) {
		printf("%s%u ConstPtr identit%s", sep, r->assumed,
		       r->assumed == 1 ? "y" : "ies");
		sep = ", ";
	}
	if (r->kept) {
		printf("%s%u field%s kept by calls", sep, r->kept,
		       r->kept == 1 ? "" : "s");
		sep = ", ";
	}
	if (r->floats) {
		printf("%s%u float constant%s as the original's", sep,
		       r->floats, r->floats == 1 ? "" : "s");
		sep = ", ";
	}
	if (r->classes) {
		printf("%s%u constant class%s", sep, r->classes,
		       r->classes == 1 ? "" : "es");
		sep = ", ";
	}
	if (r->strs)
		printf("%s%u constant string%s", sep, r->strs,
		       r->strs == 1 ? "" : "s");
	if (r->assumed || r->kept || r->floats || r->classes || r->strs)
		putchar(')');
	putchar('\n');
}

static void json_pair(strbuf *sb, const char *file, const pl_pair *p,
		      const record *r, bool many, bool *first)
{
	sb_puts(sb, *first ? "" : ",");
	*first = false;
	sb_puts(sb, "{\"id\":");
	if (many) {
		char id[600];
		snprintf(id, sizeof id, "%s: %s", file, p->id);
		sb_json_str(sb, id);
	} else {
		sb_json_str(sb, p->id);
	}
	sb_puts(sb, ",\"kind\":");
	sb_json_str(sb, pl_kind_name(p->kind));
	sb_puts(sb, ",\"verdict\":");
	sb_json_str(sb, vname(r->v));
	sb_printf(sb, ",\"ms\":%.1f,\"reason\":", r->ms);
	sb_json_str(sb, r->reason);
	sb_printf(sb,
		  ",\"ptr_identities\":%u,\"kept_fields\":%u,"
		  "\"float_constants\":%u,\"const_classes\":%u,"
		  "\"const_strings\":%u}",
		  r->assumed, r->kept, r->floats, r->classes, r->strs);
}

/* ---- --out -------------------------------------------------------------- */

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

/* Writes DIR/<log>-<id>/{orig.trace,opt.trace,expect,options}: the pair
 * as checked, its verdict as the expectation (a case for jitprove ci). */
static bool write_pair(const char *dir, uint32_t logi, const pl_pair *p,
		       const record *r, const ver_opts *vo)
{
	if (!p->orig)
		return true;
	char name[128];
	snprintf(name, sizeof name, "log%u-%s", logi, p->id);
	for (char *q = name; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') ||
		      (*q >= 'A' && *q <= 'Z') || *q == '-'))
			*q = '_';
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (mkdir(path, 0777) && errno != EEXIST)
		return false;
	strbuf sb;
	sb_init(&sb);
	ir_print(p->orig, &sb);
	char file[4300];
	snprintf(file, sizeof file, "%s/orig.trace", path);
	bool ok = sb.buf && write_file(file, sb.buf);
	sb_reset(&sb);
	ir_print(p->opt, &sb);
	snprintf(file, sizeof file, "%s/opt.trace", path);
	ok = ok && sb.buf && write_file(file, sb.buf);
	sb_release(&sb);
	char text[64];
	snprintf(text, sizeof text, "%s\n",
		 r->v == V_ERROR ? "error" : vname(r->v));
	snprintf(file, sizeof file, "%s/expect", path);
	ok = ok && write_file(file, text);
	snprintf(text, sizeof text, "--opaque%s%u\n",
		 vo->rlimit ? " --rlimit " : "", vo->rlimit ? vo->rlimit : 0);
	if (!vo->rlimit)
		snprintf(text, sizeof text, "--opaque\n");
	snprintf(file, sizeof file, "%s/options", path);
	return ok && write_file(file, text);
}

/* ---- the command -------------------------------------------------------- */

int cmd_log(int argc, char **argv)
{
	bool json = false, apart = false, writeall = false, unread = false;
	const char *out = NULL;
	/* PyPy's traces are longer than the fuzzer's: the unrolled loop of a
	 * small program holds dozens of objects, and its heap queries need
	 * more than check's default 48 MB (measured: b_nested loop 2 is out
	 * of memory at 48 MB and proved within 256 MB). */
	long jobs = 1, timeout = 4000, rlimit = 0, memory = 256;
	/* A pair's budget: a loop whose queries all run to the per-query
	 * limit took 250 s on its own (session 18, a generator pipeline).
	 * Session 27: 16 of 1,241 proved pairs of thirteen sets took over
	 * 5 s, while unknown pairs spent 2,400 of 3,450 s running into the
	 * limits; 8 s per pair and 4 s per query halved holdout12 (769 s to
	 * 369 s, no proof lost), and over the twelve older sets cost five
	 * loops that needed more than 8 s (docs/performance.md).  A user
	 * gating on one hard log raises them. */
	long budget = 8000;
	cli_opt opts[] = {
	    cli_opt_json(&json),
	    {"out", CLI_OUTDIR, &out,
	     "DIR  write every pair as a pair directory (orig.trace, "
	     "opt.trace, expect, options) for jitprove ci",
	     0, 0, NULL, false},
	    {"ptrs-apart", CLI_FLAG, &apart,
	     "keep every ConstPtr name apart: no identity is assumed (pairs "
	     "that need one stay unknown)",
	     0, 0, NULL, false},
	    {"calls-write-all", CLI_FLAG, &writeall,
	     "take no field as kept by a call: every call may write every "
	     "field (pairs that need one kept stay unknown)",
	     0, 0, NULL, false},
	    {"consts-unknown", CLI_FLAG, &unread,
	     "take nothing of a ConstPtr's memory from the optimized trace: "
	     "not its class from a folded instance comparison, nor a "
	     "one-char string from a string comparison made a char one "
	     "(pairs that need it stay unknown)",
	     0, 0, NULL, false},
	    cli_opt_jobs(&jobs),
	    cli_opt_timeout(&timeout),
	    cli_opt_rlimit(&rlimit),
	    cli_opt_int("memory-mb", &memory, 0, 4095,
			"N  per solver query, cap on Z3's memory in MB "
			"(default 256; 0 = none; twice that in a solver "
			"process); over it the pair is unknown"),
	    cli_opt_pair_budget(&budget),
	};
	cli_spec spec = {
	    "jitprove log PYPYLOG... [options]",
	    "Checks every loop, bridge and entry bridge of PyPy JIT logs "
	    "(written with PYPYLOG=jit-log-noopt,jit-log-opt:FILE) against "
	    "its unoptimized trace: one line per pair (id, kind, verdict, "
	    "time, where it failed or why it is unknown) and a summary.  "
	    "docs/pypy.md says what is checked and what is assumed.  Exit 0 "
	    "all proved, 1 a counterexample, 2 an error, 3 an unknown.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    1,
	    -1};
	const char **pos = calloc((size_t)argc + 1, sizeof *pos);
	if (!pos)
		return EXIT_USAGE;
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0) {
		free(pos);
		return rc;
	}
	if (out && mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "error: cannot make directory %s: %s\n", out,
			strerror(errno));
		free(pos);
		return EXIT_USAGE;
	}
	ver_opts vo = ver_default_opts();
	vo.timeout_ms = (unsigned)timeout;
	vo.rlimit = (unsigned)rlimit;
	vo.memory_mb = (unsigned)memory;
	vo.budget_ms = (unsigned)budget;
	ci_prefer_rlimit(&vo);
	bool show = !json && isatty(STDERR_FILENO) && jobs == 1;
	totals t;
	memset(&t, 0, sizeof t);
	strbuf js;
	sb_init(&js);
	bool first = true;
	bool many = npos > 1;
	double t0 = clk_now_ms();
	rc = EXIT_PROVED;
	bool failed_out = false, read_error = false;
	for (int f = 0; f < npos; f++) {
		pl_log log;
		jp_err err;
		jp_err_clear(&err);
		pl_opts po = {.apart = apart,
			      .write_all = writeall,
			      .consts_unknown = unread};
		if (pl_read(pos[f], &po, &log, &err)) {
			cli_error(&err);
			read_error = true;
			continue;
		}
		record *recs = calloc(log.n + 1, sizeof *recs);
		if (!recs) {
			pl_free(&log);
			read_error = true;
			continue;
		}
		if (jobs > 1 && log.n > 1)
			check_parallel(
			    &log, &vo, recs,
			    (unsigned)(jobs < (long)log.n ? jobs : log.n));
		else
			check_share(&log, &vo, recs, 0, 1, show, 0, log.n);
		for (uint32_t i = 0; i < log.n; i++) {
			t.n[recs[i].v]++;
			t.assumed += recs[i].assumed != 0;
			t.kept += recs[i].kept != 0;
			t.floats += recs[i].floats != 0;
			t.classes += recs[i].classes != 0;
			t.strs += recs[i].strs != 0;
			t.ms += recs[i].ms;
			if (json)
				json_pair(&js, pos[f], &log.pairs[i], &recs[i],
					  many, &first);
			else
				print_line(pos[f], &log.pairs[i], &recs[i],
					   many);
			if (out && !write_pair(out, (unsigned)f, &log.pairs[i],
					       &recs[i], &vo))
				failed_out = true;
		}
		free(recs);
		pl_free(&log);
	}
	uint32_t total = t.n[0] + t.n[1] + t.n[2] + t.n[3];
	if (json) {
		printf("{\"summary\":{\"proved\":%u,\"counterexample\":%u,"
		       "\"unknown\":%u,\"error\":%u,\"proved_assuming_ptr_"
		       "identities\":%u,\"proved_assuming_kept_fields\":%u,"
		       "\"proved_assuming_float_constants\":%u,"
		       "\"proved_assuming_const_classes\":%u,"
		       "\"proved_assuming_const_strings\":%u},"
		       "\"traces\":[%s]}\n",
		       t.n[V_PROVED], t.n[V_CEX], t.n[V_UNKNOWN], t.n[V_ERROR],
		       t.assumed, t.kept, t.floats, t.classes, t.strs,
		       js.buf ? js.buf : "");
	} else {
		printf("%u pairs: %u proved (%.1f%%; %u of them assuming "
		       "ConstPtr identities, %u assuming fields kept by "
		       "calls, %u float constants, %u constant classes, %u "
		       "constant strings), %u counterexample, %u unknown, %u "
		       "error; %.1f s\n",
		       total, t.n[V_PROVED],
		       total ? 100.0 * t.n[V_PROVED] / total : 0.0, t.assumed,
		       t.kept, t.floats, t.classes, t.strs, t.n[V_CEX],
		       t.n[V_UNKNOWN], t.n[V_ERROR], (clk_now_ms() - t0) / 1e3);
	}
	sb_release(&js);
	free(pos);
	if (failed_out)
		fprintf(stderr, "error: could not write every pair under %s\n",
			out);
	if (t.n[V_CEX])
		rc = EXIT_FOUND;
	else if (t.n[V_ERROR] || read_error || failed_out)
		rc = EXIT_USAGE;
	else if (t.n[V_UNKNOWN])
		rc = EXIT_UNKNOWN;
	return rc; /* main checks standard output */
}
