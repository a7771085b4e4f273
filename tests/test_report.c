/*
 * test_report.c - the pieces of the CI reports that scripts cannot easily
 * check from outside: UTF-8 repair, file URIs, and the JUnit/SARIF
 * structure for each kind of result (refuted, expected refutation,
 * unknown within and over the budget, error).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fuzz/report.h"

static char *utf8(const char *s)
{
	strbuf sb;
	sb_init(&sb);
	rep_utf8(s, &sb);
	return sb_detach(&sb);
}

static void check_utf8(const char *in, const char *want)
{
	char *got = utf8(in);
	CHECK_STREQ(got, want);
	free(got);
}

static void test_utf8(void)
{
	check_utf8("plain ascii", "plain ascii");
	check_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80",
		   "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
	check_utf8("a\xFF"
		   "b",
		   "a\xEF\xBF\xBD"
		   "b");
	check_utf8("\xC0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD"); /* overlong */
	check_utf8("\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	check_utf8("\xF4\x90\x80\x80", /* above U+10FFFF */
		   "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	check_utf8("cut \xE2\x82", "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

static char *uri(const char *path, const char *base, bool *rel)
{
	strbuf sb;
	sb_init(&sb);
	rep_uri(path, base, &sb, rel);
	return sb_detach(&sb);
}

static void test_uri(void)
{
	bool rel;
	char *u = uri("corpus/a b/opt.trace", NULL, &rel);
	CHECK_STREQ(u, "corpus/a%20b/opt.trace");
	CHECK(rel);
	free(u);
	u = uri("./x/../corpus//y.trace", NULL, &rel);
	CHECK_STREQ(u, "corpus/y.trace");
	free(u);
	u = uri("/srv/repo/corpus/y.trace", "/srv/repo/", &rel);
	CHECK_STREQ(u, "corpus/y.trace");
	CHECK(rel);
	free(u);
	u = uri("/srv/repository/y.trace", "/srv/repo", &rel);
	CHECK_STREQ(u, "file:///srv/repository/y.trace");
	CHECK(!rel);
	free(u);
	u = uri("/srv/caf\xC3\xA9#1.trace", "/other", &rel);
	CHECK_STREQ(u, "file:///srv/caf%C3%A9%231.trace");
	free(u);
	/* A relative base is taken from the current directory. */
	char cwd[1024];
	CHECK(getcwd(cwd, sizeof cwd) != NULL);
	u = uri("tests/x.trace", "tests", &rel);
	CHECK_STREQ(u, "x.trace");
	free(u);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Five made-up results, one of each kind. */
static void test_documents(void)
{
	ci_case cases[5] = {
	    {.kind = CI_PAIR,
	     .name = "c/bad",
	     .orig = "c/bad/orig.trace",
	     .opt = "c/bad/opt.trace"},
	    {.kind = CI_PAIR,
	     .name = "c/known",
	     .orig = "c/known/orig.trace",
	     .opt = "c/known/opt.trace",
	     .expect = "c/known/expect"},
	    {.kind = CI_SINGLE, .name = "c/slow.trace", .orig = "c/slow.trace"},
	    {.kind = CI_SINGLE,
	     .name = "d/broken.trace",
	     .orig = "d/broken.trace",
	     .root = 1},
	    {.kind = CI_PAIR,
	     .name = "d/fine",
	     .orig = "d/fine/orig.trace",
	     .opt = "d/fine/opt.trace",
	     .root = 1},
	};
	ci_caselist l = {cases, 5, 5, 5};
	ci_result r[5];
	memset(r, 0, sizeof r);
	r[0] = (ci_result){.got = CI_COUNTEREXAMPLE,
			   .expected = CI_PROVED,
			   .status = CI_ST_FAIL,
			   .what = "guard g1 (x < y)",
			   .cex = "inputs:\n  i0 = <&>\n",
			   .loc_file = "c/bad/opt.trace",
			   .loc_line = 4};
	r[1] = (ci_result){.got = CI_COUNTEREXAMPLE,
			   .expected = CI_COUNTEREXAMPLE,
			   .status = CI_ST_PASS,
			   .what = "output 0",
			   .loc_file = "c/known/opt.trace",
			   .loc_line = 7};
	r[2] = (ci_result){.got = CI_UNKNOWN,
			   .expected = CI_PROVED,
			   .status = CI_ST_UNKNOWN,
			   .what = "timeout"};
	r[3] = (ci_result){.got = CI_ERROR,
			   .expected = CI_PROVED,
			   .status = CI_ST_ERROR,
			   .message = "d/broken.trace:2:6: error: bad \xFF",
			   .loc_file = "d/broken.trace",
			   .loc_line = 2};
	r[4] = (ci_result){
	    .got = CI_PROVED, .expected = CI_PROVED, .status = CI_ST_PASS};
	const char *roots[2] = {"c", "d"};
	ci_budget budget = {false, 0};
	ci_summary sum;
	ci_summarize(r, 5, NULL, &budget, &sum);
	rep_run run = {&l, r,	 &sum,		&budget, NULL, roots,
		       2,  NULL, "jitprove ci", 1,	 12.5};
	strbuf sb;
	sb_init(&sb);
	rep_junit(&run, &sb);
	CHECK(count(sb.buf, "<testsuite ") == 2);
	CHECK(count(sb.buf, "<testcase ") == 5);
	/* Over the budget, the unknown is a failure too. */
	CHECK(count(sb.buf, "<failure ") == 2);
	CHECK(count(sb.buf, "type=\"miscompilation\"") == 1);
	CHECK(count(sb.buf, "type=\"unknown\"") == 1);
	CHECK(count(sb.buf, "<error ") == 1);
	CHECK(count(sb.buf, "<skipped") == 0);
	CHECK(strstr(sb.buf, "tests=\"5\" failures=\"2\" errors=\"1\"") !=
	      NULL);
	CHECK(strstr(sb.buf, "i0 = &lt;&amp;&gt;") != NULL);
	CHECK(strstr(sb.buf, "bad \xEF\xBF\xBD") != NULL);
	CHECK(strstr(sb.buf, "name=\"slow.trace\" classname=\"c\"") != NULL);
	sb_reset(&sb);
	/* Within the budget, the unknown passes with a note. */
	ci_budget one = {false, 1};
	ci_summarize(r, 5, NULL, &one, &sum);
	run.budget = &one;
	rep_junit(&run, &sb);
	CHECK(count(sb.buf, "<failure ") == 1);
	CHECK(count(sb.buf, "<system-out>") == 1);
	sb_reset(&sb);
	rep_sarif(&run, &sb);
	/* One result per refutation; the expected one is suppressed. */
	CHECK(count(sb.buf, "\"ruleId\":\"jitprove/miscompilation\"") == 2);
	CHECK(count(sb.buf, "\"level\":\"error\"") >= 2);
	CHECK(count(sb.buf, "\"suppressions\"") == 1);
	CHECK(strstr(sb.buf, "\"uri\":\"c/bad/opt.trace\"") != NULL);
	CHECK(strstr(sb.buf, "\"startLine\":4") != NULL);
	CHECK(strstr(sb.buf, "\"toolExecutionNotifications\"") != NULL);
	CHECK(strstr(sb.buf, "\"executionSuccessful\":false") != NULL);
	sb_reset(&sb);
	rep_text(&run, false, &sb);
	/* Failures come first, the counts last. */
	const char *fail = strstr(sb.buf, "FAIL");
	const char *err = strstr(sb.buf, "ERROR");
	const char *tail = strstr(sb.buf, "jitprove ci: 5 cases");
	CHECK(fail && err && tail && fail < err && err < tail);
	sb_release(&sb);
}

int main(void)
{
	test_utf8();
	test_uri();
	test_documents();
	return check_summary("test_report");
}
