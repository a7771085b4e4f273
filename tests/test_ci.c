/*
 * test_ci.c - expect files, unknown budgets, case discovery, and checking
 * the mixed test corpus (tests/ci-cases/mixed) with two worker processes
 * and in-process: same verdicts, statuses, messages and locations.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fuzz/ci.h"
#include "passes/opt.h"

static jp_status expect(const char *text, ci_kind kind, ci_expect *x,
			jp_err *err)
{
	return ci_parse_expect(text, strlen(text), "E", kind, x, err);
}

/* The error of TEXT is at LINE:COL and mentions NEEDLE. */
static void expect_error(const char *text, ci_kind kind, int line, int col,
			 const char *needle)
{
	ci_expect x;
	jp_err err;
	jp_err_clear(&err);
	jp_status st = expect(text, kind, &x, &err);
	CHECK(st == JP_EINPUT);
	CHECK(err.line == line && err.col == col);
	CHECK(strstr(err.msg, needle) != NULL);
	if (err.line != line || err.col != col || !strstr(err.msg, needle))
		fprintf(stderr, "  for %s: %d:%d %s\n", text, err.line, err.col,
			err.msg);
}

static void test_expect(void)
{
	ci_expect x;
	CHECK(expect("", CI_PAIR, &x, NULL) == JP_OK);
	CHECK(x.verdict == CI_PROVED && !x.has_verdict);
	CHECK(expect("# known bad\n  counterexample   # must stay refuted\n"
		     "width 8\nmode trace\nrlimit 1000\ntimeout-ms 50\n"
		     "failargs\nopaque\n\n",
		     CI_PAIR, &x, NULL) == JP_OK);
	CHECK(x.verdict == CI_COUNTEREXAMPLE && x.has_verdict);
	CHECK(x.width == 8 && x.mode == VER_MODE_TRACE && x.has_mode);
	CHECK(x.rlimit == 1000 && x.has_rlimit);
	CHECK(x.timeout_ms == 50 && x.has_timeout);
	CHECK(x.failargs && x.opaque);
	CHECK(expect("unknown\r\n", CI_PAIR, &x, NULL) == JP_OK &&
	      x.verdict == CI_UNKNOWN);
	CHECK(expect("error", CI_PAIR, &x, NULL) == JP_OK &&
	      x.verdict == CI_ERROR);
	CHECK(expect("inject neg-minint,pow2-div\npasses fold,bounds\n",
		     CI_SINGLE, &x, NULL) == JP_OK);
	uint64_t bugs, passes;
	CHECK(opt_parse_bugs("neg-minint,pow2-div", &bugs, NULL) == JP_OK);
	CHECK(opt_parse_passes("fold,bounds", &passes, NULL) == JP_OK);
	CHECK(x.bugs == bugs && x.passes == passes && x.has_passes);

	expect_error("proved\nwidht 8\n", CI_PAIR, 2, 1, "found 'widht'");
	expect_error("width 7\n", CI_PAIR, 1, 7, "8, 16, 32 or 64");
	expect_error("width\n", CI_PAIR, 1, 6, "expected a width");
	expect_error("width 8 16\n", CI_PAIR, 1, 9, "end of the line");
	expect_error("proved\n  counterexample\n", CI_PAIR, 2, 3,
		     "second verdict");
	expect_error("proved now\n", CI_PAIR, 1, 8, "found 'now'");
	expect_error("mode fast\n", CI_PAIR, 1, 6, "auto, aligned or trace");
	expect_error("rlimit -1\n", CI_PAIR, 1, 8, "non-negative number");
	expect_error("failargs yes\n", CI_PAIR, 1, 10, "found 'yes'");
	expect_error("inject neg-minint\n", CI_PAIR, 1, 1,
		     "single traces only");
	expect_error("inject no-such-bug\n", CI_SINGLE, 1, 8, "no-such-bug");
	expect_error("passes nope\n", CI_SINGLE, 1, 8, "nope");

	/* The options-file form of the same settings. */
	const char *opts = "--width 8 --failargs\n# comment\n--mode trace "
			   "--rlimit 5\n";
	CHECK(ci_parse_options(opts, strlen(opts), "O", CI_PAIR, &x, NULL) ==
	      JP_OK);
	CHECK(x.width == 8 && x.failargs && x.mode == VER_MODE_TRACE &&
	      x.rlimit == 5 && !x.has_verdict);
	jp_err err;
	const char *bad[][2] = {
	    {"width 8\n", "1:1"},	{"--width\n", "1:8"},
	    {"--width 7\n", "1:9"},	{"--failargs --proved\n", "1:12"},
	    {"--failargs x\n", "1:12"}, {"--frobnicate 1\n", "1:3"}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char loc[32];
		CHECK(ci_parse_options(bad[i][0], strlen(bad[i][0]), "O",
				       CI_PAIR, &x, &err) == JP_EINPUT);
		snprintf(loc, sizeof loc, "%d:%d", err.line, err.col);
		CHECK_STREQ(loc, bad[i][1]);
	}
}

static void test_budget(void)
{
	ci_budget b;
	CHECK(ci_parse_budget("3", &b, NULL) == JP_OK && !b.percent &&
	      b.limit == 3);
	CHECK(ci_parse_budget("0", &b, NULL) == JP_OK && b.limit == 0);
	CHECK(ci_parse_budget("5%", &b, NULL) == JP_OK && b.percent &&
	      b.limit == 5);
	CHECK(ci_parse_budget("2.5%", &b, NULL) == JP_OK && b.limit == 2.5);
	const char *bad[] = {"",   "-1", "1.5", "101%", "x",
			     "3 ", "%",	 "+2",	"5%%",	" 1"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		jp_err err;
		CHECK(ci_parse_budget(bad[i], &b, &err) == JP_EINPUT);
	}
	ci_budget zero = {false, 0}, two = {false, 2}, pct = {true, 20};
	CHECK(!ci_budget_exceeded(&zero, 0, 10));
	CHECK(ci_budget_exceeded(&zero, 1, 10));
	CHECK(!ci_budget_exceeded(&two, 2, 3));
	CHECK(ci_budget_exceeded(&two, 3, 3));
	CHECK(!ci_budget_exceeded(&pct, 2, 10)); /* exactly 20% */
	CHECK(ci_budget_exceeded(&pct, 3, 10));
	CHECK(!ci_budget_exceeded(&pct, 0, 0));
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_discover(void)
{
	ci_caselist l = {0};
	CHECK(ci_discover("tests/ci-cases/mixed/", 0, &l, NULL) == JP_OK);
	/* Byte order of the directory entries; pair directories are named
	 * by the directory, single traces by the file. */
	static const char *const names[] = {
	    "injected.trace", "malformed",     "narrow.trace", "proved",
	    "refuted",	      "removed-guard", "single.trace", "unknown"};
	CHECK(l.n == 8);
	for (uint32_t i = 0; i < l.n && i < 8; i++)
		CHECK_STREQ(base_name(l.v[i].name), names[i]);
	if (l.n == 8) {
		CHECK(l.v[0].kind == CI_SINGLE && l.v[0].opt == NULL);
		CHECK_STREQ(l.v[0].expect,
			    "tests/ci-cases/mixed/injected.expect");
		CHECK(l.v[1].kind == CI_PAIR);
		CHECK_STREQ(l.v[1].name, "tests/ci-cases/mixed/malformed");
		CHECK_STREQ(l.v[1].orig,
			    "tests/ci-cases/mixed/malformed/orig.trace");
		CHECK_STREQ(l.v[1].opt,
			    "tests/ci-cases/mixed/malformed/opt.trace");
		CHECK(l.v[3].expect == NULL); /* proved: no expect file */
		CHECK(l.v[6].expect == NULL); /* single.trace */
	}
	/* Cases named twice are kept once. */
	CHECK(ci_discover("tests/ci-cases/mixed/proved", 1, &l, NULL) == JP_OK);
	CHECK(l.n == 8);
	uint32_t before = l.n;
	CHECK(ci_discover("tests/ci-cases/broken/bad.trace", 1, &l, NULL) ==
	      JP_OK);
	CHECK(l.n == before + 1 && l.v[before].root == 1);
	jp_err err;
	CHECK(ci_discover("tests/ci-cases/no-such-dir", 2, &l, &err) == JP_EIO);
	CHECK(ci_discover("tests/ci-cases/README.md", 2, &l, &err) ==
	      JP_EINPUT);
	ci_caselist_free(&l);

	/* A pair directory's other .trace files are not cases; its
	 * subdirectories are still walked; hidden entries are skipped. */
	char tmpl[] = "/tmp/jp-test-ci-XXXXXX";
	char *dir = mkdtemp(tmpl);
	CHECK(dir != NULL);
	if (!dir)
		return;
	char p[512];
	const char *files[] = {
	    "a/orig.trace",    "a/opt.trace", "a/reduced.trace", "a/b/x.trace",
	    ".hidden/y.trace", "z.txt",	      "a/options"};
	snprintf(p, sizeof p, "%s/a", dir);
	mkdir(p, 0777);
	snprintf(p, sizeof p, "%s/a/b", dir);
	mkdir(p, 0777);
	snprintf(p, sizeof p, "%s/.hidden", dir);
	mkdir(p, 0777);
	for (int i = 0; i < 7; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, files[i]);
		write_file(p, "[i0]\nfinish(i0)\n");
	}
	CHECK(ci_discover(dir, 0, &l, NULL) == JP_OK);
	CHECK(l.n == 2);
	if (l.n == 2) {
		CHECK(l.v[0].kind == CI_PAIR &&
		      !strcmp(base_name(l.v[0].name), "a"));
		CHECK(l.v[0].options &&
		      !strcmp(base_name(l.v[0].options), "options"));
		CHECK(l.v[0].expect == NULL);
		CHECK(l.v[1].kind == CI_SINGLE &&
		      !strcmp(base_name(l.v[1].name), "x.trace"));
	}
	ci_caselist_free(&l);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_result(const ci_result *a, const ci_result *b)
{
	return a->got == b->got && a->expected == b->expected &&
	       a->status == b->status && a->cache == b->cache &&
	       a->solver_calls == b->solver_calls &&
	       a->loc_line == b->loc_line && same_str(a->message, b->message) &&
	       same_str(a->what, b->what) && same_str(a->cex, b->cex) &&
	       same_str(a->loc_file, b->loc_file) &&
	       same_str(a->warning, b->warning);
}

/* The line of FILE that contains NEEDLE (1-based), or 0. */
static int line_of(const char *file, const char *needle)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return 0;
	char buf[512];
	int n = 0, found = 0;
	while (!found && fgets(buf, sizeof buf, f)) {
		n++;
		if (strstr(buf, needle))
			found = n;
	}
	fclose(f);
	return found;
}

static void test_run(void)
{
	ci_caselist l = {0};
	CHECK(ci_discover("tests/ci-cases/mixed", 0, &l, NULL) == JP_OK);
	if (l.n != 8) {
		ci_caselist_free(&l);
		return;
	}
	ci_config cfg = {ver_default_opts(), NULL, 2};
	ci_result par[8], seq[8];
	/* The pool first: it must fork before this process starts Z3. */
	CHECK(ci_run(&l, &cfg, par, NULL) == JP_OK);
	cfg.jobs = 1;
	CHECK(ci_run(&l, &cfg, seq, NULL) == JP_OK);
	for (int i = 0; i < 8; i++) {
		CHECK(same_result(&par[i], &seq[i]));
		CHECK(par[i].ms >= 0);
	}
	static const ci_verdict got[8] = {
	    CI_COUNTEREXAMPLE, CI_ERROR,	  CI_PROVED, CI_PROVED,
	    CI_COUNTEREXAMPLE, CI_COUNTEREXAMPLE, CI_PROVED, CI_UNKNOWN};
	static const ci_status st[8] = {CI_ST_PASS, CI_ST_PASS,	  CI_ST_PASS,
					CI_ST_PASS, CI_ST_PASS,	  CI_ST_PASS,
					CI_ST_PASS, CI_ST_UNKNOWN};
	for (int i = 0; i < 8; i++) {
		CHECK(seq[i].got == got[i]);
		CHECK(seq[i].status == st[i]);
		if (seq[i].got != got[i] || seq[i].status != st[i])
			fprintf(stderr, "  case %s: %s/%s %s\n", l.v[i].name,
				ci_verdict_name(seq[i].got),
				ci_status_name(seq[i].status),
				seq[i].message ? seq[i].message : "");
	}
	/* The malformed pair is an error located in its orig.trace. */
	CHECK(seq[1].message &&
	      strstr(seq[1].message, "mixed/malformed/orig.trace:2:"));
	CHECK_STREQ(seq[1].loc_file,
		    "tests/ci-cases/mixed/malformed/orig.trace");
	/* Refutations are located at the failing op: the finish of the
	 * optimized trace for a wrong output ... */
	CHECK_STREQ(seq[4].loc_file, "tests/ci-cases/mixed/refuted/opt.trace");
	CHECK(seq[4].loc_line ==
	      line_of("tests/ci-cases/mixed/refuted/opt.trace", "finish("));
	CHECK(seq[4].cex && strstr(seq[4].cex, "uint_rshift"));
	/* ... the original's guard for a removed guard ... */
	CHECK_STREQ(seq[5].loc_file,
		    "tests/ci-cases/mixed/removed-guard/orig.trace");
	CHECK(seq[5].loc_line ==
	      line_of("tests/ci-cases/mixed/removed-guard/orig.trace",
		      "guard_true"));
	/* ... and, for a single trace, the op of the trace file the
	 * failing guard came from. */
	CHECK_STREQ(seq[0].loc_file, "tests/ci-cases/mixed/injected.trace");
	CHECK(seq[0].what && strstr(seq[0].what, "g1"));
	CHECK(seq[0].loc_line ==
	      line_of("tests/ci-cases/mixed/injected.trace", "descr=g1"));

	ci_budget zero = {false, 0}, one = {false, 1};
	ci_summary s;
	ci_summarize(seq, 8, NULL, &zero, &s);
	CHECK(s.cases == 8 && s.passed == 7 && s.unknown == 1);
	CHECK(s.failed == 0 && s.errors == 0 && s.unknown_over);
	CHECK(ci_overall_of(&s) == CI_UNKNOWN_OVER);
	ci_summarize(seq, 8, NULL, &one, &s);
	CHECK(ci_overall_of(&s) == CI_ALL_MET);
	/* A refutation where a proof is required is a failure, and outranks
	 * an error, which outranks unknowns. */
	seq[3].got = CI_COUNTEREXAMPLE;
	seq[3].status = CI_ST_FAIL;
	seq[2].got = CI_ERROR;
	seq[2].status = CI_ST_ERROR;
	ci_summarize(seq, 8, NULL, &zero, &s);
	CHECK(s.failed == 1 && s.errors == 1);
	CHECK(ci_overall_of(&s) == CI_ANY_FAILED);
	ci_summarize(seq, 3, NULL, &zero, &s);
	CHECK(ci_overall_of(&s) == CI_ANY_ERROR);
	ci_fuzz fz = {0};
	fz.ran = true;
	fz.nfindings = 1;
	ci_summarize(seq + 4, 3, &fz, &zero, &s);
	CHECK(ci_overall_of(&s) == CI_ANY_FAILED);
	for (int i = 0; i < 8; i++) {
		ci_result_free(&par[i]);
		ci_result_free(&seq[i]);
	}
	ci_caselist_free(&l);
}

/* '# args:' comments are example inputs for the verifier; a malformed
 * one is an error of the case, and a good one must not change verdicts. */
static void test_examples(void)
{
	char tmpl[] = "/tmp/jp-test-ci-args-XXXXXX";
	char *dir = mkdtemp(tmpl);
	CHECK(dir != NULL);
	if (!dir)
		return;
	char p[512];
	snprintf(p, sizeof p, "%s/bad.trace", dir);
	write_file(p, "# args: 1, x\n[i0]\ni1 = int_add(i0, 1)\nfinish(i1)\n");
	snprintf(p, sizeof p, "%s/good.trace", dir);
	write_file(p, "# args: 1; -2; 0x7fffffffffffffff\n[i0]\n"
		      "i1 = int_add(i0, 1)\nfinish(i1)\n");
	snprintf(p, sizeof p, "%s/wrong-count.trace", dir);
	write_file(p, "# args: 1, 2\n[i0]\nfinish(i0)\n");
	ci_caselist l = {0};
	CHECK(ci_discover(dir, 0, &l, NULL) == JP_OK);
	CHECK(l.n == 3);
	ci_config cfg = {ver_default_opts(), NULL, 1};
	ci_result r[3];
	if (l.n == 3 && ci_run(&l, &cfg, r, NULL) == JP_OK) {
		CHECK(r[0].got == CI_ERROR && r[0].message &&
		      strstr(r[0].message, "bad '# args:' comment"));
		CHECK(r[1].got == CI_PROVED && r[1].status == CI_ST_PASS);
		CHECK(r[2].got == CI_ERROR);
		for (int i = 0; i < 3; i++)
			ci_result_free(&r[i]);
	}
	ci_caselist_free(&l);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	test_expect();
	test_budget();
	test_discover();
	test_run();
	test_examples();
	return check_summary("test_ci");
}
