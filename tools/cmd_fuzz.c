/*
 * cmd_fuzz.c - jitprove fuzz: run a fuzzing campaign, or replay one trace.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz/campaign.h"
#include "fuzz/reduce.h"
#include "ir/print.h"
#include "util/rng.h"

static volatile sig_atomic_t stop_flag;

/* The first Ctrl-C stops cleanly, the second at once. */
static void on_stop(int sig)
{
	(void)sig;
	if (stop_flag < 2)
		stop_flag = stop_flag + 1;
}

typedef struct ui {
	bool tty;
	bool line_open; /* a status line without newline is on screen */
	const char *outdir;
} ui;

static void clear_line(ui *u)
{
	if (u->line_open) {
		fputs("\r\033[K", stderr);
		u->line_open = false;
	}
}

static void print_status(ui *u, const camp_event *ev)
{
	const camp_counts *c = ev->session;
	double rate = ev->elapsed > 0 ? (double)c->traces / ev->elapsed : 0;
	uint64_t found = c->findings_new + c->findings_dup;
	char line[300];
	snprintf(line, sizeof line,
		 "[%5.0fs] %llu traces (%.0f/s)  proved %llu  refuted %llu  "
		 "unknown %llu  errors %llu  findings %llu",
		 ev->elapsed, (unsigned long long)c->traces, rate,
		 (unsigned long long)c->proved, (unsigned long long)c->refuted,
		 (unsigned long long)c->unknown, (unsigned long long)c->errors,
		 (unsigned long long)found);
	if (c->reducing) {
		size_t n = strlen(line);
		snprintf(line + n, sizeof line - n,
			 "  reducing: %u -> %u ops (%u candidates)",
			 c->red_ops_from, c->red_ops, c->red_evals);
	}
	if (u->tty) {
		fprintf(stderr, "\r%s\033[K", line);
		u->line_open = true;
	} else {
		fprintf(stderr, "%s\n", line);
	}
	fflush(stderr);
}

/* Prints FILE (a few lines) indented, for the reduced reproducer. */
static void print_file_indented(FILE *out, const char *path, const char *indent,
				int maxlines)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char buf[512];
	int n = 0;
	while (fgets(buf, sizeof buf, f) && n < maxlines) {
		fprintf(out, "%s%s", indent, buf);
		if (!strchr(buf, '\n'))
			fputc('\n', out);
		n++;
	}
	if (n == maxlines)
		fprintf(out, "%s...\n", indent);
	fclose(f);
}

static void on_event(void *ud, const camp_event *ev)
{
	ui *u = ud;
	const camp_finding *f = ev->finding;
	switch (ev->kind) {
	case CAMP_EV_STATUS: print_status(u, ev); break;
	case CAMP_EV_FINDING: {
		clear_line(u);
		if (!strcmp(f->kind, "crash")) {
			fprintf(stderr,
				"FINDING after %.1f s: %s\n  %s (trace %s); "
				"saved in %s/findings/%s/\n",
				ev->elapsed, f->sig, f->what, f->trace_id,
				u->outdir, f->sig);
			break;
		}
		fprintf(stderr,
			"FINDING after %.1f s: %s\n  %s: %s\n  reduced %u -> "
			"%u ops%s; saved in %s/findings/%s/\n",
			ev->elapsed, f->sig, f->kind, f->what, f->ops_orig,
			f->ops_reduced,
			f->partial ? " (reduction cut short: jitprove reduce "
				     "orig.trace goes on)"
				   : "",
			u->outdir, f->sig);
		char path[4400];
		snprintf(path, sizeof path, "%s/findings/%s/reduced.trace",
			 u->outdir, f->sig);
		print_file_indented(stderr, path, "    ", 14);
		fflush(stderr);
		break;
	}
	case CAMP_EV_DUPLICATE:
		if (f->known && f->hits == 1) {
			clear_line(u);
			fprintf(stderr, "known finding hit again: %s\n",
				f->sig);
		}
		break;
	case CAMP_EV_NOTE:
		clear_line(u);
		fprintf(stderr, "note: %s\n", ev->note);
		break;
	}
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* Prints the names of NAMES (N of them) whose HITS are 0, comma
 * separated and wrapped, after LEAD. */
static void print_never(const char *lead, const char *(*name)(int),
			const uint64_t *hits, int n)
{
	int col = printf("%s", lead), k = 0;
	for (int i = 0; i < n; i++) {
		if (hits[i])
			continue;
		int len = (int)strlen(name(i));
		if (k && col + len + 2 > 78) {
			printf(",\n    ");
			col = 4;
		} else if (k) {
			col += printf(", ");
		}
		col += printf("%s", name(i));
		k++;
	}
	printf("%s\n", k ? "" : "none");
}

static const char *rule_name(int r)
{
	return opt_rule_name((opt_rule)r);
}

static const char *branch_name(int b)
{
	return opt_branch_name((opt_branch)b);
}

static int count_fired(const uint64_t *hits, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += hits[i] != 0;
	return k;
}

/* Rule coverage of the built-in optimizer: how many rules and bounds
 * branches fired, and which never did (docs/fuzzing.md). */
static void print_coverage(const camp_counts *c)
{
	if (!c->cov_traces)
		return;
	printf("rule coverage over %llu optimized traces: %d of %d rules, %d "
	       "of %d bounds branches fired\n",
	       (unsigned long long)c->cov_traces,
	       count_fired(c->rule_hits, OPT_RULE_COUNT), OPT_RULE_COUNT,
	       count_fired(c->branch_hits, OPT_BR_COUNT), OPT_BR_COUNT);
	print_never("  rules never fired: ", rule_name, c->rule_hits,
		    OPT_RULE_COUNT);
	print_never("  branches never taken: ", branch_name, c->branch_hits,
		    OPT_BR_COUNT);
}

/* The coverage as JSON: every rule's and branch's count, and the names
 * that never fired. */
static void json_coverage(strbuf *sb, const camp_counts *c)
{
	sb_printf(sb, "\"coverage\": {\"traces\": %llu, \"rules\": {",
		  (unsigned long long)c->cov_traces);
	for (int r = 0; r < OPT_RULE_COUNT; r++) {
		sb_puts(sb, r ? ", " : "");
		sb_json_str(sb, rule_name(r));
		sb_printf(sb, ": %llu", (unsigned long long)c->rule_hits[r]);
	}
	sb_puts(sb, "}, \"branches\": {");
	for (int b = 0; b < OPT_BR_COUNT; b++) {
		sb_puts(sb, b ? ", " : "");
		sb_json_str(sb, branch_name(b));
		sb_printf(sb, ": %llu", (unsigned long long)c->branch_hits[b]);
	}
	sb_puts(sb, "}, \"rules_never_fired\": [");
	for (int r = 0, k = 0; r < OPT_RULE_COUNT; r++)
		if (!c->rule_hits[r]) {
			sb_puts(sb, k++ ? ", " : "");
			sb_json_str(sb, rule_name(r));
		}
	sb_puts(sb, "], \"branches_never_taken\": [");
	for (int b = 0, k = 0; b < OPT_BR_COUNT; b++)
		if (!c->branch_hits[b]) {
			sb_puts(sb, k++ ? ", " : "");
			sb_json_str(sb, branch_name(b));
		}
	sb_puts(sb, "]}, ");
}

/* Coverage feedback (docs/fuzzing.md): features are (rule or branch,
 * bucket of its count) pairs; mutated traces come from the corpus. */
static void print_feedback(const camp_summary *s)
{
	const camp_counts *c = &s->session;
	if (s->cov_pct)
		printf("coverage feedback: %u%% of traces mutate corpus "
		       "entries; %llu mutated traces judged, %u features "
		       "covered%s\n",
		       s->cov_pct, (unsigned long long)c->cov_mutants,
		       c->cov_features,
		       s->jobs > 1 ? " (the most of any job)" : "");
	else
		printf("coverage feedback: off; %u features covered%s\n",
		       c->cov_features,
		       s->jobs > 1 ? " (the most of any job)" : "");
}

static void print_summary(const camp_summary *s, const camp_opts *o)
{
	const camp_counts *c = &s->session;
	strbuf opts;
	sb_init(&opts);
	camp_format_options(&s->gen, &s->cfg, s->timeout_ms, &opts);
	xo_format_options(o->optimizer, &opts);
	printf(
	    "jitprove fuzz: %.1f s, %d job%s, seed %llu%s%s\n  options: %s\n",
	    s->elapsed, s->jobs, s->jobs == 1 ? "" : "s",
	    (unsigned long long)s->seed, s->resumed ? " (resumed)" : "",
	    s->interrupted ? ", interrupted" : "", opts.buf);
	sb_release(&opts);
	double rate = s->elapsed > 0 ? (double)c->traces / s->elapsed : 0;
	printf("checked %llu traces: %.1f/s, %.1f/s per job, %.1f ops per "
	       "trace on average\n",
	       (unsigned long long)c->traces, rate,
	       rate / (s->jobs ? s->jobs : 1),
	       c->traces ? (double)c->ops / (double)c->traces : 0.0);
	printf("  proved   %10llu  (%.2f%%)\n", (unsigned long long)c->proved,
	       pct(c->proved, c->traces));
	printf("  refuted  %10llu  (%.2f%%)\n", (unsigned long long)c->refuted,
	       pct(c->refuted, c->traces));
	printf("  unknown  %10llu  (%.2f%%; kept in %s/unknown/, never "
	       "counted as proved)\n",
	       (unsigned long long)c->unknown, pct(c->unknown, c->traces),
	       o->outdir);
	printf("  errors   %10llu  (optimizer/verifier errors, crashes)\n",
	       (unsigned long long)c->errors);
	if (o->audit_rate > 0)
		printf("audit: %llu traces audited, %llu obligations re-proved "
		       "on the plain encoding: %llu agreed, %llu disagreed, "
		       "%llu unknown (timeout)\n",
		       (unsigned long long)c->audit_traces,
		       (unsigned long long)c->audited,
		       (unsigned long long)c->audit_agreed,
		       (unsigned long long)c->audit_disagreed,
		       (unsigned long long)c->audit_unknown);
	double tot =
	    c->ms_gen + c->ms_opt + c->ms_ver + c->ms_blame + c->ms_reduce;
	double n = c->traces ? (double)c->traces : 1;
	printf("time per stage: generate %.1f%%, optimize %.1f%%, verify "
	       "%.1f%%, rule blame %.1f%%, reduce %.1f%%  (per trace: %.3f / "
	       "%.3f / %.3f ms)\n",
	       pct((uint64_t)c->ms_gen, (uint64_t)tot),
	       pct((uint64_t)c->ms_opt, (uint64_t)tot),
	       pct((uint64_t)c->ms_ver, (uint64_t)tot),
	       pct((uint64_t)c->ms_blame, (uint64_t)tot),
	       pct((uint64_t)c->ms_reduce, (uint64_t)tot), c->ms_gen / n,
	       c->ms_opt / n, c->ms_ver / n);
	print_coverage(c);
	if (c->cov_traces)
		print_feedback(s);
	if (s->resumed)
		printf("all sessions of %s: %llu traces, %llu findings "
		       "reported\n",
		       o->outdir, (unsigned long long)s->all.traces,
		       (unsigned long long)(s->all.findings_new +
					    s->all.findings_dup));
	if (s->nfindings == 0) {
		printf("findings: none\n");
	} else {
		uint64_t hits = 0;
		uint32_t known = 0;
		for (uint32_t i = 0; i < s->nfindings; i++) {
			hits += s->findings[i].hits;
			known += s->findings[i].known;
		}
		printf("findings: %u distinct (%u new, %u known before), %llu "
		       "hits\n",
		       s->nfindings, s->nfindings - known, known,
		       (unsigned long long)hits);
		for (uint32_t i = 0; i < s->nfindings; i++) {
			const camp_finding *f = &s->findings[i];
			printf("  [%s] %s\n        %s: %s\n        first after "
			       "%.1f s, %llu hit%s, reduced to %u ops%s; see "
			       "%s/findings/%s/\n",
			       f->known ? "known" : "new", f->sig, f->kind,
			       f->what, f->at_s, (unsigned long long)f->hits,
			       f->hits == 1 ? "" : "s", f->ops_reduced,
			       f->partial ? " (cut short)" : "", o->outdir,
			       f->sig);
		}
	}
	if (s->interrupted)
		printf("continue with: jitprove fuzz --resume --out %s\n",
		       o->outdir);
}

static void print_json(const camp_summary *s, const camp_opts *o)
{
	const camp_counts *c = &s->session;
	strbuf sb, tmp;
	sb_init(&sb);
	sb_init(&tmp);
	camp_format_options(&s->gen, &s->cfg, s->timeout_ms, &tmp);
	xo_format_options(o->optimizer, &tmp);
	sb_printf(&sb,
		  "{\"seconds\": %.3f, \"jobs\": %d, \"seed\": \"%llu\", "
		  "\"resumed\": %s, \"interrupted\": %s, \"options\": ",
		  s->elapsed, s->jobs, (unsigned long long)s->seed,
		  s->resumed ? "true" : "false",
		  s->interrupted ? "true" : "false");
	sb_json_str(&sb, tmp.buf);
	sb_puts(&sb, ", \"out\": ");
	sb_json_str(&sb, o->outdir);
	sb_printf(
	    &sb,
	    ", \"traces\": %llu, \"proved\": %llu, \"refuted\": %llu, "
	    "\"unknown\": %llu, \"errors\": %llu, \"ops\": %llu, "
	    "\"traces_per_second\": %.2f, \"ms\": {\"generate\": %.1f, "
	    "\"optimize\": %.1f, \"verify\": %.1f, \"reduce\": %.1f, "
	    "\"blame\": %.1f}, "
	    "\"audit\": {\"traces\": %llu, \"obligations\": %llu, "
	    "\"agreed\": %llu, \"disagreed\": %llu, \"unknown\": %llu}, ",
	    (unsigned long long)c->traces, (unsigned long long)c->proved,
	    (unsigned long long)c->refuted, (unsigned long long)c->unknown,
	    (unsigned long long)c->errors, (unsigned long long)c->ops,
	    s->elapsed > 0 ? (double)c->traces / s->elapsed : 0.0, c->ms_gen,
	    c->ms_opt, c->ms_ver, c->ms_reduce, c->ms_blame,
	    (unsigned long long)c->audit_traces, (unsigned long long)c->audited,
	    (unsigned long long)c->audit_agreed,
	    (unsigned long long)c->audit_disagreed,
	    (unsigned long long)c->audit_unknown);
	json_coverage(&sb, c);
	sb_printf(&sb,
		  "\"coverage_feedback\": {\"percent\": %u, \"mutants\": "
		  "%llu, \"features\": %u}, ",
		  s->cov_pct, (unsigned long long)c->cov_mutants,
		  c->cov_features);
	sb_puts(&sb, "\"findings\": [");
	for (uint32_t i = 0; i < s->nfindings; i++) {
		const camp_finding *f = &s->findings[i];
		sb_puts(&sb, i ? ", {\"signature\": " : "{\"signature\": ");
		sb_json_str(&sb, f->sig);
		sb_puts(&sb, ", \"kind\": ");
		sb_json_str(&sb, f->kind);
		sb_puts(&sb, ", \"what\": ");
		sb_json_str(&sb, f->what);
		sb_printf(
		    &sb,
		    ", \"new\": %s, \"first_after_s\": %.3f, \"hits\": "
		    "%llu, \"trace_id\": \"%s\", \"trace_seed\": \"%llu\", "
		    "\"ops_orig\": %u, "
		    "\"ops_reduced\": %u, \"reduction_complete\": %s}",
		    f->known ? "false" : "true", f->at_s,
		    (unsigned long long)f->hits, f->trace_id,
		    (unsigned long long)f->trace_seed, f->ops_orig,
		    f->ops_reduced, f->partial ? "false" : "true");
	}
	sb_puts(&sb, "]}\n");
	fputs(sb.buf, stdout);
	sb_release(&sb);
	sb_release(&tmp);
}

/* jitprove fuzz --replay ID: one trace, judged and printed.  ID is a
 * trace seed or a mutated trace's identity (gen.h). */
static int replay(const gen_id *id, const camp_opts *o)
{
	jp_err err;
	jp_err_clear(&err);
	gen_ctx *g = gen_ctx_new();
	ver_ctx *vc = ver_ctx_new(&err);
	if (!g || !vc) {
		gen_ctx_free(g);
		ver_ctx_free(vc);
		return cli_error(&err);
	}
	ir_trace *t = NULL;
	gen_example ex;
	int code = EXIT_USAGE;
	gen_opts go = o->gen;
	if (go.heap && !camp_verifier_has_heap(vc)) {
		/* As a campaign does: the same traces come out. */
		go.heap = false;
		fprintf(stderr, "note: the verifier does not model the heap: "
				"integer traces only (as with --no-heap)\n");
	}
	if (gen_trace_id(g, id, &go, &t, &ex, &err)) {
		code = cli_error(&err);
		goto out;
	}
	red_env env = red_default_env(vc);
	env.cfg = o->cfg;
	env.vo.timeout_ms = o->timeout_ms;
	env.vo.examples = ex.inputs;
	env.vo.nexamples = 1;
	env.vo.failargs = true;
	xo *x = NULL;
	red_optimizer xopt;
	if (o->optimizer) {
		if (xo_new(o->optimizer, &x, &err)) {
			code = cli_error(&err);
			goto out;
		}
		xopt = xo_optimizer(x);
		env.optimizer = &xopt;
	}
	env.vo.audit = o->audit_rate > 0; /* --replay SEED --audit-rate 1 */
	red_outcome r;
	jp_status est = red_evaluate(&env, t, &r, &err);
	xo_free(x);
	if (est) {
		code = cli_error(&err);
		goto out;
	}
	strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "# trace ");
	gen_format_id(id, &sb);
	sb_putc(&sb, '\n');
	gen_print_annotated(t, &ex, &sb);
	sb_puts(&sb, "\n# optimized:\n");
	if (r.opt)
		ir_print(r.opt, &sb);
	else
		sb_puts(&sb, "# (no output)\n");
	sb_printf(&sb, "\nverdict: %s", red_kind_name(r.kind));
	if (r.what[0])
		sb_printf(&sb, " (%s)", r.what);
	sb_putc(&sb, '\n');
	if (r.have_res && r.res.cex_text)
		sb_printf(&sb, "%s\n", r.res.cex_text);
	if (env.vo.audit && r.have_res)
		sb_printf(&sb,
			  "audit: %u obligations re-proved on the plain "
			  "encoding: %u agreed, %u disagreed, %u unknown\n",
			  r.res.audited, r.res.audit_agreed,
			  r.res.audit_disagreed, r.res.audit_unknown);
	fputs(sb.buf, stdout);
	sb_release(&sb);
	code = red_is_failure(r.kind)  ? EXIT_FOUND
	       : r.kind == RED_UNKNOWN ? EXIT_UNKNOWN
				       : EXIT_PROVED;
	red_outcome_free(&r);
out:
	ir_trace_free(t);
	gen_ctx_free(g);
	ver_ctx_free(vc);
	return code;
}

/* The command line, shell-quoted where needed, for the bundles. */
static void join_cmdline(int argc, char **argv, strbuf *sb)
{
	sb_puts(sb, "jitprove");
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool plain = *a != '\0';
		for (const char *p = a; *p; p++)
			if (!strchr(
				"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
				"RSTUVWXYZ0123456789-_=.,/+:",
				*p))
				plain = false;
		if (plain) {
			sb_printf(sb, " %s", a);
			continue;
		}
		sb_puts(sb, " '");
		for (const char *p = a; *p; p++) {
			if (*p == '\'')
				sb_puts(sb, "'\\''");
			else
				sb_putc(sb, *p);
		}
		sb_putc(sb, '\'');
	}
}

int cmd_fuzz(int argc, char **argv)
{
	long seconds = 20, jobs = 1, timeout = 1000, reduce_ms = 60000;
	long max_findings = 0, count = 0;
	uint64_t seed = 0;
	const char *replay_s = NULL;
	bool seconds_given = false, count_given = false, seed_given = false;
	bool replay_given = false;
	const char *out = "jp-out", *profile = NULL, *length = NULL;
	const char *inputs = NULL;
	const char *optimizer = NULL, *syntax = NULL;
	bool opt_persistent = false;
	long opt_timeout = 0;
	const char *audit_s = NULL;
	int width = 64;
	bool resume = false, json = false, no_heap = false, force = false;
	bool no_feedback = false, feedback_given = false;
	long feedback = 0;
	opt_config cfg = opt_default_config();
	cli_opt sec_opt =
	    cli_opt_int("seconds", &seconds, 1, 31536000L,
			"N  stop after N seconds (default 20 unless --count)");
	sec_opt.given = &seconds_given;
	cli_opt count_opt =
	    cli_opt_int("count", &count, 1, LONG_MAX,
			"N  stop after N traces, N >= 1 (no time limit unless "
			"--seconds)");
	count_opt.given = &count_given;
	cli_opt replay_opt = {
	    "replay", CLI_STRING, &replay_s,
	    "ID  judge the one trace of this trace seed (or identity "
	    "SEED+CUT:SEED...\n      of a mutated trace, as findings give "
	    "it) and print it"};
	replay_opt.given = &replay_given;
	cli_opt feedback_opt = cli_opt_int(
	    "coverage-feedback", &feedback, 0, 100,
	    "P  coverage feedback: P percent of the traces mutate traces "
	    "that reached\n      new rules or branches (default 0: off; "
	    "25 is a good value)");
	feedback_opt.given = &feedback_given;
	cli_opt opts[] = {
	    sec_opt,
	    count_opt,
	    cli_opt_seed(&seed, &seed_given,
			 "S  campaign seed (default: from the clock, printed)"),
	    cli_opt_jobs(&jobs),
	    cli_opt_inject(&cfg.bugs),
	    cli_opt_passes(&cfg.passes),
	    cli_opt_timeout(&timeout),
	    {"out", CLI_OUTDIR, &out, "DIR  output directory (default jp-out)"},
	    {"resume", CLI_FLAG, &resume,
	     "continue the campaign saved in DIR/state"},
	    {"force", CLI_FLAG, &force,
	     "start a new campaign in a DIR that has one (findings stay)"},
	    cli_opt_json(&json),
	    {"profile", CLI_STRING, &profile,
	     "P  all, arithmetic, bounds-heavy, overflow-heavy, heap, toy or "
	     "edge"},
	    {"length", CLI_STRING, &length,
	     "N|LO-HI  ops per trace (default 10-50)"},
	    {"inputs", CLI_STRING, &inputs,
	     "N|LO-HI  inputs per trace (default 1-4)"},
	    cli_opt_width(&width),
	    {"no-heap", CLI_FLAG, &no_heap,
	     "integer traces only (no objects, fields, calls)"},
	    cli_opt_int("reduce-ms", &reduce_ms, 0, LONG_MAX,
			"MS  time budget of one reduction (default 60000)"),
	    cli_opt_int("max-findings", &max_findings, 0, UINT32_MAX,
			"N  stop after N distinct findings"),
	    replay_opt,
	    {"no-coverage-feedback", CLI_FLAG, &no_feedback,
	     "fresh traces only, the default (the same as "
	     "--coverage-feedback 0;\n      docs/fuzzing.md)"},
	    feedback_opt,
	    {"optimizer", CLI_STRING, &optimizer,
	     "CMD  fuzz this optimizer instead (sh -c CMD; trace on stdin, "
	     "optimized\n      trace on stdout: docs/own-optimizer.md)"},
	    {"optimizer-persistent", CLI_FLAG, &opt_persistent,
	     "start CMD once per job and send trace after trace (--end--)"},
	    {"optimizer-timeout-ms", CLI_INT, &opt_timeout,
	     "MS  an answer later than this is a hang finding (default "
	     "5000)"},
	    {"syntax", CLI_STRING, &syntax,
	     "S  pypy (default) or toy: the spelling CMD reads and writes"},
	    {"audit-rate", CLI_STRING, &audit_s,
	     "P  audit this share (0..1) of the traces, sampled from their "
	     "seeds: every proof re-proved on the plain encoding "
	     "(docs/trust.md); a disagreement is a finding of kind audit"},
	};
	cli_spec spec = {
	    "jitprove fuzz [--seconds N | --count N] [--seed S] [--jobs J] "
	    "[--inject BUG]\n       [--timeout-ms T] [--out DIR] [--resume] "
	    "[--json] [--profile P]",
	    "Generates random traces, optimizes them with the built-in "
	    "optimizer and\nverifies each optimized trace against its "
	    "original.  Every failure is\nreduced to a small reproducer, "
	    "deduplicated by signature and saved in\nDIR/findings/<signature>/"
	    " (traces, counterexample, info.json, repro.sh).\nUndecided pairs "
	    "go to DIR/unknown/.  Ctrl-C stops cleanly and prints the\n"
	    "summary; --resume continues where the campaign stopped.\n"
	    "Exit status: 0 nothing found, 1 findings, 2 usage error.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    0,
	    0};
	const char *pos[1];
	int npos, rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	jp_err err;
	jp_err_clear(&err);
	camp_opts o = camp_default_opts();
	o.outdir = out;
	o.gen.width = width;
	o.gen.heap = !no_heap;
	xo_config xc;
	if (xo_config_from_args(&xc, optimizer, opt_persistent, opt_timeout,
				syntax, width, &err))
		return cli_usage_error(&spec, "%s", err.msg);
	if (xc.toy && profile && strcmp(profile, "toy") != 0)
		return cli_usage_error(&spec,
				       "--syntax toy needs --profile toy "
				       "(the toy spelling has no guards "
				       "and few ops)");
	if (gen_apply_args(&o.gen,
			   xc.toy    ? "toy"
			   : profile ? profile
				     : "all",
			   length, inputs, &err))
		return cli_usage_error(&spec, "%s", err.msg);
	opt_config builtin = opt_default_config();
	if (optimizer &&
	    (cfg.bugs != builtin.bugs || cfg.passes != builtin.passes))
		return cli_usage_error(&spec, "--inject and --passes select "
					      "the built-in optimizer; they do "
					      "not go with --optimizer");
	if (optimizer)
		o.optimizer = &xc;
	o.cfg = cfg;
	o.timeout_ms = (unsigned)timeout;
	if (audit_s) {
		char *end;
		o.audit_rate = strtod(audit_s, &end);
		if (end == audit_s || *end || !(o.audit_rate >= 0) ||
		    o.audit_rate > 1)
			return cli_usage_error(&spec,
					       "--audit-rate: expected a "
					       "number from 0 to 1, found "
					       "'%s'",
					       audit_s);
	}
	o.reduce_ms = reduce_ms ? (uint32_t)reduce_ms : 1;
	o.jobs = (int)jobs;
	if (!seed_given)
		seed = rng_mix64((uint64_t)time(NULL) ^
				 ((uint64_t)getpid() << 32)) %
		       1000000000u;
	o.seed = seed;
	if (replay_given) {
		gen_id id;
		int64_t v;
		/* A plain seed as every seed option reads it (negative and
		 * hexadecimal too), else an identity. */
		if (cli_parse_i64(replay_s, &v))
			id = gen_id_seed((uint64_t)v);
		else if (gen_parse_id(replay_s, &id, &err))
			return cli_usage_error(&spec, "--replay: %s", err.msg);
		return replay(&id, &o);
	}
	if (no_feedback && feedback_given && feedback > 0)
		return cli_usage_error(&spec,
				       "--no-coverage-feedback and "
				       "--coverage-feedback %ld "
				       "contradict each other",
				       feedback);
	o.cov_pct = no_feedback ? 0 : (uint32_t)feedback;
	o.max_findings = (uint32_t)max_findings;
	o.count = count_given ? (uint64_t)count : 0;
	o.seconds = seconds_given ? (double)seconds : (count_given ? 0 : 20);
	o.resume = resume;
	o.force = force;
	o.limits_given = seconds_given || count_given;
	/* A resumed campaign keeps its seed and the budget it has left:
	 * read them now, so that what is printed is what runs. */
	if (resume && camp_resume_opts(&o, &err))
		return cli_error(&err);
	seed = o.seed;
	/* A command that cannot work at all is the user's error, not a
	 * finding per trace. */
	if (optimizer && xo_probe(&xc, &err))
		return cli_error(&err);
	strbuf cmd;
	sb_init(&cmd);
	join_cmdline(argc, argv, &cmd);
	o.cmdline = cmd.buf;

	ui u = {isatty(STDERR_FILENO) != 0, false, out};
	o.stop = &stop_flag;
	o.status_every = u.tty ? 0.25 : 5;
	o.on_event = on_event;
	o.ud = &u;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (resume && !json)
		fprintf(stderr,
			"  --resume: the seed, generator options, "
			"passes, bugs, timeout%s come from %s/state\n",
			o.limits_given ? "" : " and the budget left", out);
	if (!json) {
		char lim[64];
		if (o.count)
			snprintf(lim, sizeof lim, "%llu traces",
				 (unsigned long long)o.count);
		else
			snprintf(lim, sizeof lim, "%.0f s", o.seconds);
		fprintf(stderr,
			"jitprove fuzz: %s, %ld job%s, seed %llu%s, output in "
			"%s/ (Ctrl-C stops and prints the summary)\n",
			lim, jobs, jobs == 1 ? "" : "s",
			(unsigned long long)seed, resume ? " (resumed)" : "",
			out);
		if (optimizer)
			fprintf(
			    stderr, "  checking the optimizer command %s%s\n",
			    optimizer, opt_persistent ? " (persistent)" : "");
		else if (!o.cfg.bugs && !resume)
			fprintf(stderr,
				"  checking the built-in optimizer, no bug "
				"injected: any finding is a real bug\n");
	}
	camp_summary s;
	jp_status st = camp_run(&o, &s, &err);
	clear_line(&u);
	sb_release(&cmd);
	if (st)
		return cli_error(&err);
	if (json)
		print_json(&s, &o);
	else
		print_summary(&s, &o);
	int code = s.session.findings_new + s.session.findings_dup
		       ? EXIT_FOUND
		       : EXIT_PROVED;
	camp_summary_free(&s);
	return code;
}
