/* jitprove check: prove that an optimized trace behaves like the original,
 * or print a replayed counterexample.  With --corpus, check every pair
 * directory (orig.trace, opt.trace, expect, options) and measure. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz/ci.h"
#include "ir/parse.h"
#include "ir/strbuf.h"
#include "util/clock.h"
#include "verify/check.h"

/* Appends the vectors of LIST ("1,2;3,4": vectors separated by ';', spaces
 * ignored) to *VALS.  Returns false on a malformed list. */
static bool add_vectors(const char *list, int width, uint32_t ninputs,
			uint64_t **vals, uint32_t *nvec)
{
	char *copy = malloc(strlen(list) + 1);
	if (!copy)
		return false;
	size_t k = 0;
	for (const char *s = list; *s; s++)
		if (*s != ' ' && *s != '\t')
			copy[k++] = *s;
	copy[k] = 0;
	bool ok = true;
	char *save = copy;
	while (ok && save) {
		char *semi = strchr(save, ';');
		if (semi)
			*semi = 0;
		uint64_t *v = realloc(*vals, ((size_t)*nvec + 1) *
						 (ninputs + 1) * sizeof *v);
		if (!v) {
			ok = false;
			break;
		}
		*vals = v;
		int n = 0;
		ok =
		    cli_parse_int_list(save, width, v + (size_t)*nvec * ninputs,
				       (int)ninputs + 1, &n) &&
		    (uint32_t)n == ninputs;
		if (ok)
			(*nvec)++;
		save = semi ? semi + 1 : NULL;
	}
	free(copy);
	return ok;
}

/* A progress line on a terminal for long checks (a 400,000-op trace takes
 * seconds to read and to encode): each stage note over the last, with the
 * time since the start, once the check has taken 0.3 s (the environment
 * variable JP_PROGRESS_DELAY_MS changes that, for the tests). */
typedef struct progress {
	double t0, delay_ms;
	bool shown;
} progress;

static void show_progress(void *ud, const char *note)
{
	progress *pr = ud;
	double s = (clk_now_ms() - pr->t0) / 1e3;
	if (s * 1e3 < pr->delay_ms)
		return;
	fprintf(stderr, "\r\033[K[%6.1f s] %s", s, note);
	fflush(stderr);
	pr->shown = true;
}

static void end_progress(const progress *pr)
{
	if (pr->shown)
		fputs("\r\033[K", stderr);
}

static void print_json_error(const jp_err *e)
{
	char buf[1200];
	jp_err_format(e, buf, sizeof buf);
	strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "{\"verdict\":\"error\",\"error\":");
	sb_json_str(&sb, buf);
	sb_puts(&sb, "}\n");
	fputs(sb.buf, stdout);
	sb_release(&sb);
}

static void print_human(const ver_result *r, bool verbose)
{
	if (r->verdict == VER_REFUTED && r->cex_text)
		fputs(r->cex_text, stdout);
	if (verbose)
		for (uint32_t i = 0; i < r->nobl; i++) {
			const ver_obligation *b = &r->obl[i];
			printf("  [%s%s] %s (%.2f ms)\n",
			       b->checked ? ver_verdict_name(b->status)
					  : "skipped",
			       b->checked ? "" : "", b->what, b->ms);
			if (b->checked)
				printf("      settled by %s\n",
				       ver_how_name(b->how));
		}
	switch (r->verdict) {
	case VER_PROVED:
		printf("proved (%s mode): %u obligations, %u by identity, "
		       "%u by ranges, %u by rewriting, %u by the solver; "
		       "%.2f ms\n",
		       ver_mode_name(r->mode_used), r->nobl, r->by_identity,
		       r->by_range, r->by_rewrite, r->by_solver, r->ms_total);
		break;
	case VER_REFUTED:
		printf("counterexample (%s mode, found by %s), replayed on "
		       "the interpreter; %.2f ms\n",
		       ver_mode_name(r->mode_used),
		       ver_how_name(r->obl[r->failed].how), r->ms_total);
		break;
	case VER_UNKNOWN:
		if (r->failed >= 0)
			printf("unknown (%s mode): could not decide '%s': "
			       "%s\n",
			       ver_mode_name(r->mode_used),
			       r->obl[r->failed].what,
			       r->reason ? r->reason : "solver gave up");
		else
			printf("unknown (%s mode): %s\n",
			       ver_mode_name(r->mode_used),
			       r->reason ? r->reason : "solver gave up");
		if (r->unconfirmed_text)
			fputs(r->unconfirmed_text, stdout);
		break;
	}
}

/* --audit of one pair: the counts on stderr (stdout keeps its format), and
 * a disagreement as an internal error; exit 3 then (the verdict is not
 * "proved"), else RC. */
static int report_audit(const ver_result *r, const char *orig, bool json,
			int rc)
{
	if (!json)
		fprintf(stderr,
			"audit: %u obligations re-proved on the plain "
			"encoding: %u agreed, %u disagreed, %u unknown\n",
			r->audited, r->audit_agreed, r->audit_disagreed,
			r->audit_unknown);
	if (!r->audit_disagreed)
		return rc;
	fprintf(stderr, "jitprove: internal error: --audit on %s: %s\n", orig,
		r->reason ? r->reason : "disagreement");
	return EXIT_UNKNOWN;
}

/* ---- --corpus: every pair directory under the given directories ---- */

typedef struct corpus_stats {
	unsigned pairs, unexpected, skipped;
	unsigned obl, by_identity, by_range, by_rewrite, by_concrete, by_solver;
	unsigned audited, audit_agreed, audit_disagreed, audit_unknown;
	unsigned unknown;
	unsigned solver_calls;
	double ms;
} corpus_stats;

static char *read_small(const char *path)
{
	char *text;
	size_t len;
	jp_err err;
	if (ir_read_file(path, &text, &len, &err))
		return NULL;
	return text;
}

/* Applies a pair's "options" file, read by the parser `jitprove ci`
 * uses (ci_parse_options): width, mode, rlimit, timeout, failargs, and
 * opaque (the PyPy vocabulary, *OPAQUE).  False (ERR set) when the file
 * is not one. */
static bool pair_options(const char *text, const char *file, ver_opts *vo,
			 int *width, bool *opaque, jp_err *err)
{
	ci_expect x;
	memset(&x, 0, sizeof x);
	if (ci_parse_options(text, strlen(text), file, CI_PAIR, &x, err))
		return false;
	if (x.width)
		*width = x.width;
	if (x.has_mode)
		vo->mode = x.mode;
	if (x.has_rlimit)
		vo->rlimit = x.rlimit;
	if (x.has_timeout)
		vo->timeout_ms = x.timeout_ms;
	vo->failargs = vo->failargs || x.failargs;
	*opaque = x.opaque;
	return true;
}

/* DST = A/B; false when it does not fit (the pair is then skipped). */
static bool path_join(char *dst, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la + lb + 2 > size) {
		dst[0] = 0;
		return false;
	}
	memcpy(dst, a, la);
	dst[la] = '/';
	memcpy(dst + la + 1, b, lb + 1);
	return true;
}

/* Checks one pair directory; returns the outcome word ("proved",
 * "counterexample", "unknown" or "error") in OUT. */
static void corpus_pair(ver_ctx *c, const char *dir, const ver_opts *base,
			const char **out, char *detail, size_t dsize,
			corpus_stats *cs)
{
	char path[4096];
	ver_opts vo = *base;
	int width = 64;
	*out = "error";
	bool opaque = false;
	path_join(path, sizeof path, dir, "options");
	char *opt_text = read_small(path);
	jp_err oerr;
	jp_err_clear(&oerr);
	if (opt_text &&
	    !pair_options(opt_text, path, &vo, &width, &opaque, &oerr)) {
		jp_err_format(&oerr, detail, (int)dsize);
		free(opt_text);
		return;
	}
	free(opt_text);
	ci_prefer_rlimit(&vo);
	vo.width = width;
	ir_trace *o = NULL, *p = NULL;
	char oargs[1024], pargs[1024], po[4096], pp[4096];
	path_join(po, sizeof po, dir, "orig.trace");
	path_join(pp, sizeof pp, dir, "opt.trace");
	jp_err err;
	jp_status st =
	    cli_load_trace(po, width, opaque, &o, oargs, sizeof oargs, &err);
	if (!st)
		st = cli_load_trace(pp, width, opaque, &p, pargs, sizeof pargs,
				    &err);
	uint64_t *ex = NULL;
	uint32_t nex = 0;
	if (!st && oargs[0] &&
	    !add_vectors(oargs, width, o->ninputs, &ex, &nex))
		st = jp_fail(&err, JP_EINPUT, "bad '# args:' comment");
	vo.examples = ex;
	vo.nexamples = nex;
	vo.orig_name = po;
	vo.opt_name = pp;
	ver_result r;
	memset(&r, 0, sizeof r);
	if (!st)
		st = ver_check(c, o, p, &vo, &r, &err);
	if (st) {
		jp_err_format(&err, detail, (int)dsize);
	} else {
		*out = r.verdict == VER_PROVED	  ? "proved"
		       : r.verdict == VER_REFUTED ? "counterexample"
						  : "unknown";
		snprintf(detail, dsize, "%s mode, %u obligations, %.2f ms",
			 ver_mode_name(r.mode_used), r.nobl, r.ms_total);
		cs->obl += r.nobl;
		cs->by_identity += r.by_identity;
		cs->by_rewrite += r.by_rewrite;
		cs->by_range += r.by_range;
		cs->by_concrete += r.by_concrete;
		cs->by_solver += r.by_solver;
		cs->solver_calls += r.solver_calls;
		cs->audited += r.audited;
		cs->audit_agreed += r.audit_agreed;
		cs->audit_disagreed += r.audit_disagreed;
		cs->audit_unknown += r.audit_unknown;
		if (r.audit_disagreed)
			fprintf(stderr,
				"jitprove: internal error: --audit: %s: %s\n",
				dir, r.reason ? r.reason : "disagreement");
		for (uint32_t i = 0; i < r.nobl; i++)
			cs->unknown +=
			    r.obl[i].checked && r.obl[i].status == VER_UNKNOWN;
		ver_result_free(&r);
	}
	free(ex);
	ir_trace_free(o);
	ir_trace_free(p);
}

static bool is_pair_dir(const char *dir)
{
	char path[4096];
	path_join(path, sizeof path, dir, "orig.trace");
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	fclose(f);
	path_join(path, sizeof path, dir, "opt.trace");
	f = fopen(path, "r");
	if (!f)
		return false;
	fclose(f);
	return true;
}

/* The verdict the expect file PATH names, read with the parser of
 * `jitprove ci` (fuzz/ci.h), so that comments and settings lines mean the
 * same to both: "counterexample" when there is no file (reproducers) or
 * no verdict in it, NULL (with the located message printed) when it does
 * not parse. */
static const char *expected_verdict(const char *path)
{
	char *text = read_small(path);
	if (!text)
		return "counterexample";
	ci_expect x;
	jp_err err;
	jp_status st =
	    ci_parse_expect(text, strlen(text), path, CI_PAIR, &x, &err);
	free(text);
	if (st) {
		char msg[1300];
		jp_err_format(&err, msg, (int)sizeof msg);
		fprintf(stderr, "jitprove: %s\n", msg);
		return NULL;
	}
	return x.has_verdict ? ci_verdict_name(x.verdict) : "counterexample";
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void corpus_dir(ver_ctx *c, const char *root, const ver_opts *base,
		       bool quiet, corpus_stats *cs)
{
	struct dirent **names;
	int n = scandir(root, &names, NULL, by_name);
	if (n < 0) {
		fprintf(stderr, "jitprove: cannot read directory %s\n", root);
		cs->unexpected++;
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char dir[4096], path[4096];
		path_join(dir, sizeof dir, root, name);
		if (name[0] == '.' || !is_pair_dir(dir)) {
			free(names[i]);
			continue;
		}
		path_join(path, sizeof path, dir, "expect");
		const char *want = expected_verdict(path);
		const char *got;
		char detail[1300];
		double t0 = clk_now_ms();
		corpus_pair(c, dir, base, &got, detail, sizeof detail, cs);
		cs->ms += clk_now_ms() - t0;
		cs->pairs++;
		bool ok = want && !strcmp(want, got);
		if (!ok)
			cs->unexpected++;
		if (!ok || !quiet)
			printf("%-4s %s: %s (%s)%s%s\n", ok ? "ok" : "FAIL",
			       dir, got, detail, ok ? "" : ", expected ",
			       ok ? "" : (want ? want : "?"));
		free(names[i]);
	}
	free(names);
}

static int check_corpus(const char **dirs, int ndirs, const ver_opts *base,
			long repeat, bool json)
{
	jp_err err;
	ver_ctx *c = ver_ctx_new(&err);
	if (!c)
		return cli_error(&err);
	corpus_stats cs;
	memset(&cs, 0, sizeof cs);
	for (long r = 0; r < repeat; r++)
		for (int i = 0; i < ndirs; i++)
			corpus_dir(c, dirs[i], base, r > 0 || json, &cs);
	ver_ctx_free(c);
	unsigned settled = cs.by_identity + cs.by_range + cs.by_rewrite +
			   cs.by_concrete + cs.by_solver;
	double rate = cs.ms > 0 ? cs.pairs / (cs.ms / 1e3) : 0;
	double share = settled ? 100.0 * (settled - cs.by_solver) / settled : 0;
	if (json)
		printf("{\"pairs\":%u,\"unexpected\":%u,\"pairs_per_s\":%.1f,"
		       "\"obligations\":%u,\"by_identity\":%u,"
		       "\"by_range\":%u,\"by_rewrite\":%u,\"by_concrete\":%u,"
		       "\"by_solver\":%u,\"unknown\":%u,"
		       "\"solver_calls\":%u,\"without_solver_pct\":%.1f}\n",
		       cs.pairs, cs.unexpected, rate, cs.obl, cs.by_identity,
		       cs.by_range, cs.by_rewrite, cs.by_concrete, cs.by_solver,
		       cs.unknown, cs.solver_calls, share);
	else
		printf("%u pairs checked (%ld round%s), %u unexpected; %.1f "
		       "pairs/s; %u obligations: %u by identity, %u by "
		       "ranges, %u by rewriting, %u by concrete screening, %u "
		       "by the "
		       "solver, %u unknown; %.1f%% of the settled ones "
		       "without the solver; %u solver calls\n",
		       cs.pairs, repeat, repeat == 1 ? "" : "s", cs.unexpected,
		       rate, cs.obl, cs.by_identity, cs.by_range, cs.by_rewrite,
		       cs.by_concrete, cs.by_solver, cs.unknown, share,
		       cs.solver_calls);
	if (base->audit) {
		printf("audit: %u obligations re-proved on the plain encoding: "
		       "%u agreed, %u disagreed, %u unknown (timeout)\n",
		       cs.audited, cs.audit_agreed, cs.audit_disagreed,
		       cs.audit_unknown);
		if (cs.audit_disagreed)
			return EXIT_UNKNOWN;
	}
	return cs.unexpected ? EXIT_FOUND : EXIT_PROVED;
}

int cmd_check(int argc, char **argv)
{
	int width = 64;
	bool opaque = false, failargs = false, json = false;
	bool self_check = false, no_simplify = false, verbose = false;
	bool audit = false, explain = false;
	bool corpus = false, in_process = false, stop_unproved = false;
	long repeat = 1;
	const char *mode = "auto", *args = NULL, *smt2 = NULL, *solver = NULL;
	long timeout = 10000, rlimit = 0, screen = 32;
	long memory = VER_DEFAULT_MEMORY_MB, budget = 0;
	uint64_t seed = 1;
	const cli_opt opts[] = {
	    {"mode", CLI_STRING, &mode,
	     "M  auto (default), aligned (guards paired by label) or trace"},
	    {"failargs", CLI_FLAG, &failargs,
	     "also prove equal fail-args at every paired guard"},
	    cli_opt_width(&width),
	    cli_opt_timeout(&timeout),
	    cli_opt_rlimit(&rlimit),
	    cli_opt_int("memory-mb", &memory, 0, 4095,
			"N  per solver query, cap on Z3's memory in MB "
			"(default " VER_DEFAULT_MEMORY_MB_TEXT
			"; 0 = none; twice that in a solver process); over "
			"it the query is unknown"),
	    cli_opt_pair_budget(&budget),
	    {"stop-at-unproved", CLI_FLAG, &stop_unproved,
	     "stop a heap pair at its first obligation that is not proved, "
	     "as jitprove log does (with --pair-budget-ms 8000 --timeout-ms "
	     "4000 --memory-mb 256, a pair directory of log --out is checked "
	     "as log checked it)"},
	    {"in-process", CLI_FLAG, &in_process,
	     "run the fallback solver's queries in this process, not in a "
	     "forked child with a hard memory ceiling (for debuggers)"},
	    {"smt2", CLI_STRING, &smt2,
	     "DIR  write every solver query there as an SMT-LIB 2 file"},
	    {"solver-cmd", CLI_STRING, &solver,
	     "CMD  re-check every query with CMD FILE (e.g. \"cvc5 --lang "
	     "smt2\")"},
	    cli_opt_json(&json),
	    {"args", CLI_STRING, &args,
	     "LIST  example inputs screened first, '1,2;3,4' (added to "
	     "'# args:' comments)"},
	    cli_opt_int("screen", &screen, 0, 100000,
			"N  random and edge inputs run concretely (default "
			"32)"),
	    cli_opt_seed(&seed, NULL, "N  seed of the screening inputs"),
	    {"audit", CLI_FLAG, &audit,
	     "re-prove every proved obligation with Z3 on the plain encoding "
	     "(no ranges, rewriting, facts, lemmas, refolding, peepholes or "
	     "abstraction; docs/trust.md); a disagreement is an internal "
	     "error: reported on stderr, verdict unknown, exit 3"},
	    {"self-check", CLI_FLAG, &self_check,
	     "cross-check the encoder against the interpreter"},
	    {"no-simplify", CLI_FLAG, &no_simplify,
	     "report counterexamples as found, unsimplified"},
	    {"verbose", CLI_FLAG, &verbose, "list every obligation"},
	    {"explain", CLI_FLAG, &explain,
	     "when a heap pair is unknown because the solver's model did not "
	     "replay on the interpreter, print that model: inputs, heap, "
	     "calls, the heap fields it makes differ, both runs"},
	    cli_opt_opaque(&opaque),
	    {"corpus", CLI_FLAG, &corpus,
	     "the arguments are directories of pair directories "
	     "(orig.trace, opt.trace, expect, options): check each against "
	     "its expect file and print the throughput"},
	    cli_opt_int("repeat", &repeat, 1, 100000,
			"N  with --corpus: check the corpus N times (for "
			"timing)"),
	};
	const cli_spec spec = {
	    "jitprove check ORIG OPT [options] | jitprove check --corpus "
	    "DIR...",
	    "Proves that the optimized trace OPT behaves exactly like ORIG "
	    "for every\n"
	    "input, or prints a counterexample replayed on the interpreter.  "
	    "Exit 0\n"
	    "proved, 1 counterexample, 2 input error or unsupported op, 3 "
	    "unknown\n"
	    "(timeout or resource limit).  docs/verifier.md describes the "
	    "obligations.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    1,
	    64};
	const char *pos[64];
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc < 0 && !corpus && npos != 2)
		rc =
		    cli_usage_error(&spec, "expected two traces, ORIG and OPT");
	if (rc >= 0)
		return rc;
	ver_opts vo = ver_default_opts();
	if (!strcmp(mode, "auto"))
		vo.mode = VER_MODE_AUTO;
	else if (!strcmp(mode, "aligned"))
		vo.mode = VER_MODE_ALIGNED;
	else if (!strcmp(mode, "trace"))
		vo.mode = VER_MODE_TRACE;
	else
		return cli_usage_error(&spec,
				       "--mode expects auto, aligned or trace, "
				       "found '%s'",
				       mode);
	vo.width = width;
	vo.failargs = failargs;
	vo.timeout_ms = (unsigned)timeout;
	vo.rlimit = (unsigned)rlimit;
	vo.memory_mb = (unsigned)memory;
	vo.budget_ms = (unsigned)budget;
	vo.heap_proof_only = stop_unproved;
	vo.screen_inputs = (unsigned)screen;
	vo.seed = seed;
	vo.smt2_dir = smt2;
	vo.solver_cmd = solver;
	vo.self_check = self_check;
	vo.explain = explain;
	vo.audit = audit;
	vo.simplify = !no_simplify;
	vo.isolate = !in_process;
	ci_prefer_rlimit(&vo);
	if (solver) {
		/* Up front: a second solver that cannot answer would
		 * otherwise audit nothing. */
		jp_err perr;
		if (ver_solver_probe(solver, &perr)) {
			if (json)
				print_json_error(&perr);
			return cli_error(&perr);
		}
	}
	if (corpus) {
		return check_corpus(pos, npos, &vo, repeat, json);
	}

	jp_err err;
	ir_trace *o = NULL, *p = NULL;
	char oargs[1024], pargs[1024];
	const char *delay = getenv("JP_PROGRESS_DELAY_MS");
	progress pr = {clk_now_ms(), delay ? atof(delay) : 300, false};
	if (isatty(STDERR_FILENO)) {
		vo.on_progress = show_progress;
		vo.progress_ud = &pr;
	}
	char note[160];
	snprintf(note, sizeof note, "reading %s", pos[0]);
	if (vo.on_progress)
		show_progress(&pr, note);
	jp_status st = cli_load_trace(pos[0], width, opaque, &o, oargs,
				      sizeof oargs, &err);
	snprintf(note, sizeof note, "reading %s", pos[1]);
	if (vo.on_progress)
		show_progress(&pr, note);
	if (!st)
		st = cli_load_trace(pos[1], width, opaque, &p, pargs,
				    sizeof pargs, &err);
	uint64_t *ex = NULL;
	uint32_t nex = 0;
	if (!st) {
		const char *lists[3] = {
		    oargs, strcmp(oargs, pargs) ? pargs : "", args ? args : ""};
		for (int i = 0; i < 3 && !st; i++)
			if (lists[i][0] && !add_vectors(lists[i], width,
							o->ninputs, &ex, &nex))
				st = jp_fail(&err, JP_EINPUT,
					     "example inputs '%s': expected "
					     "vectors of %u integers",
					     lists[i], o->ninputs);
	}
	vo.examples = ex;
	vo.nexamples = nex;
	vo.orig_name = pos[0];
	vo.opt_name = pos[1];
	ver_ctx *c = NULL;
	ver_result res;
	memset(&res, 0, sizeof res);
	if (!st) {
		c = ver_ctx_new(&err);
		if (!c)
			st = err.status ? err.status : JP_EINTERNAL;
	}
	if (!st)
		st = ver_check(c, o, p, &vo, &res, &err);
	end_progress(&pr);
	if (st) {
		if (json)
			print_json_error(&err);
		rc = cli_error(&err);
	} else {
		if (json) {
			strbuf sb;
			sb_init(&sb);
			ver_result_json(&res, &sb);
			sb_putc(&sb, '\n');
			fputs(sb.buf, stdout);
			sb_release(&sb);
		} else {
			print_human(&res, verbose);
		}
		rc = res.verdict == VER_PROVED	  ? EXIT_PROVED
		     : res.verdict == VER_REFUTED ? EXIT_FOUND
						  : EXIT_UNKNOWN;
		if (audit)
			rc = report_audit(&res, pos[0], json, rc);
	}
	ver_result_free(&res);
	ver_ctx_free(c);
	free(ex);
	ir_trace_free(o);
	ir_trace_free(p);
	return rc;
}
