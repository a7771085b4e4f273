/* jitprove ci: check a corpus of trace pairs against their expectations
 * and write the reports CI systems read (see docs/ci.md). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fuzz/cache.h"
#include "fuzz/ci.h"
#include "fuzz/report.h"
#include "passes/opt.h"
#include "util/clock.h"

static int exit_code_of(ci_overall o)
{
	switch (o) {
	case CI_ALL_MET: return EXIT_PROVED;
	case CI_ANY_FAILED: return EXIT_FOUND;
	case CI_ANY_ERROR: return EXIT_USAGE;
	case CI_UNKNOWN_OVER: return EXIT_UNKNOWN;
	}
	return EXIT_USAGE;
}

/* "jitprove ci ARGS..." for the reports. */
static char *command_line(int argc, char **argv)
{
	strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "jitprove");
	for (int i = 0; i < argc; i++) {
		sb_putc(&sb, ' ');
		sb_puts(&sb, argv[i]);
	}
	return sb_detach(&sb);
}

typedef struct ci_args {
	long jobs, timeout_ms, rlimit;
	const char *max_unknown, *junit, *sarif, *json, *sarif_root;
	const char *cache, *cache_mode, *fuzz_seconds, *fuzz_out;
	uint64_t fuzz_seed, fuzz_bugs;
	bool verbose, timeout_given;
} ci_args;

/* Writes one report; returns false (after saying why) when it fails. */
static bool write_report(const char *path, const rep_run *run,
			 void (*render)(const rep_run *, strbuf *))
{
	if (!path)
		return true;
	strbuf sb;
	sb_init(&sb);
	render(run, &sb);
	jp_err err;
	bool ok = rep_write_file(path, &sb, &err) == JP_OK;
	if (!ok)
		cli_error(&err);
	sb_release(&sb);
	return ok;
}

static int check_args(const cli_spec *spec, const ci_args *a, ci_budget *b,
		      double *fuzz_s, pc_mode *mode)
{
	jp_err err;
	if (a->max_unknown && ci_parse_budget(a->max_unknown, b, &err))
		return cli_usage_error(spec, "--max-unknown: %s", err.msg);
	if (a->cache_mode && pc_parse_mode(a->cache_mode, mode, &err))
		return cli_usage_error(spec, "--cache-mode: %s", err.msg);
	if (a->fuzz_seconds) {
		char *end;
		*fuzz_s = strtod(a->fuzz_seconds, &end);
		if (end == a->fuzz_seconds || *end || !(*fuzz_s >= 0) ||
		    *fuzz_s > 86400)
			return cli_usage_error(
			    spec,
			    "--fuzz-seconds expects a number "
			    "of seconds 0..86400, found '%s'",
			    a->fuzz_seconds);
	}
	return -1;
}

int cmd_ci(int argc, char **argv)
{
	ci_args a = {.jobs = 1,
		     .timeout_ms = (long)ver_default_opts().timeout_ms,
		     .fuzz_seed = 1,
		     .fuzz_out = "jitprove-ci-fuzz"};
	cli_opt timeout_opt = cli_opt_timeout(&a.timeout_ms);
	timeout_opt.given = &a.timeout_given;
	cli_opt fuzz_inject = cli_opt_inject(&a.fuzz_bugs);
	fuzz_inject.name = "fuzz-inject";
	fuzz_inject.help =
	    "BUGS  inject optimizer bugs into the campaign (to test CI)";
	const cli_opt opts[] = {
	    cli_opt_jobs(&a.jobs),
	    timeout_opt,
	    cli_opt_rlimit(&a.rlimit),
	    {"max-unknown", CLI_STRING, &a.max_unknown,
	     "N|P%  unknowns allowed before exit 3 (default 0)"},
	    cli_opt_report("junit", &a.junit, "FILE  write a JUnit XML report"),
	    cli_opt_report("sarif", &a.sarif,
			   "FILE  write a SARIF 2.1.0 report"),
	    {"sarif-root", CLI_STRING, &a.sarif_root,
	     "DIR  SARIF file URIs relative to DIR (default .)"},
	    cli_opt_report("json", &a.json, "FILE  write everything as JSON"),
	    {"cache", CLI_STRING, &a.cache,
	     "DIR  proof cache: reuse verdicts of unchanged pairs"},
	    {"cache-mode", CLI_STRING, &a.cache_mode,
	     "MODE  read-write (default) or read-only"},
	    {"fuzz-seconds", CLI_STRING, &a.fuzz_seconds,
	     "S  also run a fuzz campaign of S seconds"},
	    {"fuzz-seed", CLI_UINT64, &a.fuzz_seed,
	     "N  the campaign's seed (default 1)"},
	    {"fuzz-out", CLI_OUTDIR, &a.fuzz_out,
	     "DIR  where the campaign saves findings (jitprove-ci-fuzz)"},
	    fuzz_inject,
	    {"verbose", CLI_FLAG, &a.verbose,
	     "also list the cases that passed"},
	};
	const cli_spec spec = {
	    "jitprove ci [PATH...] [options]",
	    "Checks every case under the PATHs (default: corpus): a directory\n"
	    "with orig.trace and opt.trace is a pair; any other X.trace is\n"
	    "optimized with the built-in optimizer and checked.  An 'expect'\n"
	    "file beside a case states the verdict it must get (default\n"
	    "proved) and options it needs; see docs/ci.md.  Exit 0 when every\n"
	    "case meets its expectation, 1 on a refutation or missed\n"
	    "expectation, 2 on errors, 3 when only unknowns exceed the\n"
	    "budget.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    0,
	    -1};
	const char **pos = calloc((size_t)argc + 1, sizeof *pos);
	if (!pos)
		return EXIT_USAGE;
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	ci_budget budget = {false, 0};
	double fuzz_s = 0;
	pc_mode mode = PC_READ_WRITE;
	if (rc < 0)
		rc = check_args(&spec, &a, &budget, &fuzz_s, &mode);
	if (rc >= 0) {
		free(pos);
		return rc;
	}
	if (npos == 0)
		pos[npos++] = "corpus";

	double t0 = clk_now_ms();
	jp_err err;
	ci_caselist cases = {0};
	for (int i = 0; i < npos; i++) {
		uint32_t before = cases.found;
		jp_status st = ci_discover(pos[i], (uint32_t)i, &cases, &err);
		/* A path without cases is a mistake (a typo, a corpus not
		 * checked out), not a pass. */
		if (!st && cases.found == before)
			st =
			    jp_fail(&err, JP_EINPUT,
				    "no cases under '%s': expected directories "
				    "holding orig.trace and opt.trace, or "
				    ".trace files",
				    pos[i]);
		if (st) {
			ci_caselist_free(&cases);
			free(pos);
			return cli_error(&err);
		}
	}
	pc_cache cache;
	bool cached = a.cache != NULL;
	if (cached && pc_open(&cache, a.cache, mode, &err)) {
		ci_caselist_free(&cases);
		free(pos);
		return cli_error(&err);
	}
	ci_config cfg = {ver_default_opts(), cached ? &cache : NULL,
			 (unsigned)a.jobs};
	cfg.vopts.timeout_ms = (unsigned)a.timeout_ms;
	cfg.vopts.rlimit = (unsigned)a.rlimit;
	ci_result *results = calloc(cases.n + 1, sizeof *results);
	if (!results || ci_run(&cases, &cfg, results, &err)) {
		if (!results)
			jp_fail(&err, JP_ENOMEM, "out of memory");
		rc = cli_error(&err);
	} else {
		char *cmd = command_line(argc, argv);
		ci_fuzz fuzz = {0};
		ci_fuzz_opts fo = {
		    fuzz_s,	 a.fuzz_seed,
		    (int)a.jobs, a.timeout_given ? (unsigned)a.timeout_ms : 0,
		    a.fuzz_bugs, a.fuzz_out,
		    cmd};
		if (fuzz_s > 0)
			ci_fuzz_smoke(&fo, &fuzz);
		ci_summary sum;
		ci_summarize(results, cases.n, &fuzz, &budget, &sum);
		rc = exit_code_of(ci_overall_of(&sum));
		rep_run run = {&cases,
			       results,
			       &sum,
			       &budget,
			       fuzz.ran ? &fuzz : NULL,
			       pos,
			       (uint32_t)npos,
			       a.sarif_root,
			       cmd,
			       rc,
			       clk_now_ms() - t0};
		bool ok = write_report(a.junit, &run, rep_junit);
		ok &= write_report(a.sarif, &run, rep_sarif);
		ok &= write_report(a.json, &run, rep_json);
		strbuf sb;
		sb_init(&sb);
		rep_text(&run, a.verbose, &sb);
		fputs(sb.buf, stdout);
		sb_release(&sb);
		if (!ok && rc != EXIT_FOUND)
			rc = EXIT_USAGE;
		ci_fuzz_free(&fuzz);
		free(cmd);
	}
	for (uint32_t i = 0; results && i < cases.n; i++)
		ci_result_free(&results[i]);
	free(results);
	if (cached)
		pc_close(&cache);
	ci_caselist_free(&cases);
	free(pos);
	return rc;
}
