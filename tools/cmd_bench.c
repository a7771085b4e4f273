/*
 * cmd_bench.c - jitprove bench: measure checker and campaign speed, memory,
 * and the time to find each injected bug, from fixed seeds; section
 * "mutants" runs the mutation-score benchmark (bench/mutation.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz/bench.h"
#include "fuzz/report.h"

static void on_note(void *ud, const char *note)
{
	(void)ud;
	fprintf(stderr, "bench: %s\n", note);
}

/* Section "mutants" is not part of the bench library (fuzz/bench.c): it
 * patches and rebuilds a copy of the sources, which bench/mutation.sh
 * does; "all" does not include it (it takes about half an hour). */
#define SEC_MUTANTS (1u << 30)

#ifndef JP_SOURCE_DIR
#define JP_SOURCE_DIR "."
#endif

/* Parses "check,campaign,memory,bugs" (or "all") into section bits. */
static bool parse_sections(const char *s, unsigned *out)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
	    {"check", BENCH_SEC_CHECK},	  {"campaign", BENCH_SEC_CAMPAIGN},
	    {"memory", BENCH_SEC_MEMORY}, {"bugs", BENCH_SEC_BUGS},
	    {"chain", BENCH_SEC_CHAIN},	  {"all", BENCH_SEC_ALL},
	    {"mutants", SEC_MUTANTS}};
	*out = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		bool ok = false;
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strlen(names[i].name) == n &&
			    !strncmp(names[i].name, s, n)) {
				*out |= names[i].bit;
				ok = true;
			}
		if (!ok)
			return false;
		s += n + (s[n] == ',');
	}
	return *out != 0;
}

static bool parse_seconds(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || v < 0)
		return false;
	*out = v;
	return true;
}

typedef struct bench_args {
	bool quick, timeout_given;
	const char *json, *sections, *bugs;
	const char *check_s, *camp_s, *mem_s, *bug_s, *mut_s, *mut_src;
	long timeout, pairs, max_len, camp_len, bug_seeds;
	uint64_t seed, mem_traces, unk_traces;
	int width;
} bench_args;

/* Applies the explicit options over the defaults (or --quick). */
static int apply_args(const cli_spec *spec, const bench_args *a, bench_opts *o)
{
	o->seed = a->seed;
	o->width = a->width;
	if (a->timeout_given)
		o->timeout_ms = (unsigned)a->timeout;
	if (a->pairs > 0)
		o->check_pairs = (uint32_t)a->pairs;
	if (a->max_len > 0)
		o->max_length = (uint32_t)a->max_len;
	if (a->camp_len > 0)
		o->campaign_len = (uint32_t)a->camp_len;
	if (a->bug_seeds > 0)
		o->bug_seeds =
		    (uint32_t)(a->bug_seeds > 16 ? 16 : a->bug_seeds);
	if (a->mem_traces > 0)
		o->memory_traces = a->mem_traces;
	if (a->unk_traces > 0)
		o->unknown_traces = a->unk_traces;
	if (a->sections && !parse_sections(a->sections, &o->sections))
		return cli_usage_error(spec,
				       "--sections: expected a list of check, "
				       "campaign, memory, bugs, chain, mutants "
				       "or all");
	if ((a->check_s && !parse_seconds(a->check_s, &o->check_seconds)) ||
	    (a->camp_s && !parse_seconds(a->camp_s, &o->campaign_seconds)) ||
	    (a->mem_s && !parse_seconds(a->mem_s, &o->memory_seconds)) ||
	    (a->bug_s && !parse_seconds(a->bug_s, &o->bug_seconds)))
		return cli_usage_error(spec, "seconds must be a number >= 0");
	if (a->bugs) {
		jp_err err;
		jp_err_clear(&err);
		if (opt_parse_bugs(a->bugs, &o->bugs, &err))
			return cli_usage_error(spec, "--bugs: %s", err.msg);
		if (!o->bugs)
			o->sections &= ~(unsigned)BENCH_SEC_BUGS;
	}
	return -1;
}

/* Section mutants: runs SRC/bench/mutation.sh (a copy of SRC is patched
 * and rebuilt there; SRC itself is never touched), which prints its table
 * and writes JSON to JSON when given. */
static int run_mutants(const bench_args *a, const char *json)
{
	const char *src = a->mut_src ? a->mut_src : JP_SOURCE_DIR;
	char script[4096], seed[32];
	snprintf(script, sizeof script, "%s/bench/mutation.sh", src);
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)a->seed);
	if (access(script, R_OK)) {
		fprintf(stderr,
			"jitprove bench: section mutants: expected %s, not "
			"found (--mutant-src DIR names the sources)\n",
			script);
		return EXIT_USAGE;
	}
	const char *argv[12];
	int n = 0;
	argv[n++] = "sh";
	argv[n++] = script;
	argv[n++] = "--src";
	argv[n++] = src;
	argv[n++] = "--seed";
	argv[n++] = seed;
	argv[n++] = "--seconds";
	argv[n++] = a->mut_s ? a->mut_s : "60";
	if (json) {
		argv[n++] = "--json";
		argv[n++] = json;
	}
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("jitprove bench: fork");
		return EXIT_USAGE;
	}
	if (pid == 0) {
		execvp("sh", (char *const *)argv);
		perror("jitprove bench: sh");
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "jitprove bench: section mutants failed\n");
		return EXIT_USAGE;
	}
	return EXIT_PROVED;
}

static int write_json(const char *path, const bench_result *r)
{
	strbuf sb;
	sb_init(&sb);
	bench_json(r, &sb);
	jp_err err;
	jp_status st = rep_write_file(path, &sb, &err);
	sb_release(&sb);
	return st ? cli_error(&err) : EXIT_PROVED;
}

int cmd_bench(int argc, char **argv)
{
	bench_args a;
	memset(&a, 0, sizeof a);
	a.seed = 1;
	a.width = 64;
	a.timeout = (long)bench_default_opts().timeout_ms;
	cli_opt timeout_opt = cli_opt_timeout(&a.timeout);
	timeout_opt.given = &a.timeout_given;
	cli_opt opts[] = {
	    {"quick", CLI_FLAG, &a.quick, "about a one-minute run"},
	    cli_opt_report("json", &a.json,
			   "FILE  also write the results as JSON"),
	    cli_opt_seed(&a.seed, NULL,
			 "S  seed of the fixed trace set (default 1)"),
	    {"sections", CLI_STRING, &a.sections,
	     "LIST  check,campaign,memory,bugs,chain (default all)"},
	    timeout_opt,
	    cli_opt_width(&a.width),
	    cli_opt_int(
		"check-pairs", &a.pairs, 0, 1000000,
		"N  pairs per length in the check section (default 20)"),
	    {"check-seconds", CLI_STRING, &a.check_s,
	     "S  time cap per length (default 20)"},
	    cli_opt_int(
		"max-length", &a.max_len, 0, 1000000,
		"N  skip check lengths above N (of 10,30,100,300,1000)"),
	    cli_opt_int("campaign-length", &a.camp_len, 0, 1000000,
			"N  ops per trace in the campaign runs (default 30)"),
	    {"campaign-seconds", CLI_STRING, &a.camp_s,
	     "S  seconds per generator profile (default 10)"},
	    {"unknown-traces", CLI_UINT64, &a.unk_traces,
	     "N  profile all runs at least N traces, for the unknown rate "
	     "(default 20000)"},
	    {"memory-traces", CLI_UINT64, &a.mem_traces,
	     "N  traces of the memory slice (default 500)"},
	    {"memory-seconds", CLI_STRING, &a.mem_s,
	     "S  time cap of the memory slice (default none)"},
	    {"bugs", CLI_STRING, &a.bugs,
	     "LIST  bugs to time (default every bug; none = skip)"},
	    cli_opt_int("bug-seeds", &a.bug_seeds, 0, 1000000,
			"N  campaign seeds per bug, at most 16 (default 3)"),
	    {"bug-seconds", CLI_STRING, &a.bug_s,
	     "S  time cap per bug and seed (default 30)"},
	    {"mutant-seconds", CLI_STRING, &a.mut_s,
	     "S  campaign seconds per mutant, section mutants (default 60)"},
	    {"mutant-src", CLI_STRING, &a.mut_src,
	     "DIR  the sources to mutate (default: the ones jitprove was "
	     "built from)"},
	};
	cli_spec spec = {
	    "jitprove bench [--quick] [--json FILE] [options]",
	    "Measures, from fixed seeds: check throughput at 10..1000 ops, "
	    "campaign\nthroughput and stage times per generator profile, "
	    "how obligations are\nsettled, peak RSS of a campaign slice, and "
	    "the median time to find each\ninjected bug.  Prints tables with "
	    "the targets of docs/performance.md.\nExit status: 0 done, 2 "
	    "usage or internal error.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    0,
	    0};
	const char *pos[1];
	int npos, rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	bench_opts o = bench_default_opts();
	if (a.quick)
		bench_make_quick(&o);
	rc = apply_args(&spec, &a, &o);
	if (rc >= 0)
		return rc;
	if (a.mut_s) {
		double secs;
		if (!parse_seconds(a.mut_s, &secs) || secs <= 0)
			return cli_usage_error(
			    &spec, "--mutant-seconds: expected a number > 0");
	}
	if (o.sections & SEC_MUTANTS) {
		o.sections &= ~SEC_MUTANTS;
		/* Alone, the JSON is the mutants'; else theirs goes beside
		 * it, FILE.mutants.json. */
		char mj[4096];
		const char *mjson = a.json;
		if (a.json && o.sections) {
			snprintf(mj, sizeof mj, "%s.mutants.json", a.json);
			mjson = mj;
		}
		rc = run_mutants(&a, mjson);
		if (rc != EXIT_PROVED || !o.sections)
			return rc;
	}
	o.on_note = on_note;
	bench_result *res = malloc(sizeof *res);
	if (!res) {
		fprintf(stderr, "jitprove bench: out of memory\n");
		return EXIT_USAGE;
	}
	jp_err err;
	jp_err_clear(&err);
	if (bench_run(&o, res, &err)) {
		free(res);
		return cli_error(&err);
	}
	strbuf sb;
	sb_init(&sb);
	bench_table(res, &sb);
	fputs(sb.buf, stdout);
	sb_release(&sb);
	rc = a.json ? write_json(a.json, res) : EXIT_PROVED;
	free(res);
	return rc;
}
