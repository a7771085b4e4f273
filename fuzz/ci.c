/*
 * ci.c - the CI gate's names, unknown budget, summary and fuzz smoke; see
 * ci.h.  The other files of the gate are listed in ci_int.h.
 *
 * Sections:
 *   names              ci_verdict_name, ci_status_name, ci_cache_name
 *   budget and summary ci_parse_budget, ci_summarize, ci_overall_of
 *   the fuzz smoke     ci_fuzz_smoke: a short campaign after the corpus
 */
#include "ci_int.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz/campaign.h"
#include "ir/strbuf.h"
#include "util/clock.h"

char *ci_dup_str(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s);
	char *d = malloc(n + 1);
	if (d)
		memcpy(d, s, n + 1);
	return d;
}

/* ---- names ------------------------------------------------------------ */

const char *ci_verdict_name(ci_verdict v)
{
	switch (v) {
	case CI_PROVED: return "proved";
	case CI_COUNTEREXAMPLE: return "counterexample";
	case CI_UNKNOWN: return "unknown";
	case CI_ERROR: return "error";
	}
	return "?";
}

const char *ci_status_name(ci_status s)
{
	switch (s) {
	case CI_ST_PASS: return "pass";
	case CI_ST_FAIL: return "fail";
	case CI_ST_UNKNOWN: return "unknown";
	case CI_ST_ERROR: return "error";
	}
	return "?";
}

const char *ci_cache_name(ci_cache_use c)
{
	switch (c) {
	case CI_CACHE_OFF: return "off";
	case CI_CACHE_HIT: return "hit";
	case CI_CACHE_MISS: return "miss";
	}
	return "?";
}

/* ---- budget and summary ----------------------------------------------- */

/* Whether S is DIGITS or DIGITS.DIGITS, then optionally '%'. */
static bool budget_syntax(const char *s, bool *pct)
{
	size_t i = strspn(s, "0123456789");
	if (i == 0)
		return false;
	if (s[i] == '.') {
		size_t f = strspn(s + i + 1, "0123456789");
		if (f == 0)
			return false;
		i += 1 + f;
	}
	*pct = s[i] == '%';
	return s[i + (*pct ? 1 : 0)] == '\0';
}

jp_status ci_parse_budget(const char *s, ci_budget *b, jp_err *err)
{
	bool pct = false;
	double v = budget_syntax(s, &pct) ? strtod(s, NULL) : -1;
	/* A count must be whole; a percentage may have a fraction. */
	if (v < 0 || (pct && v > 100) ||
	    (!pct && (v != (double)(uint32_t)v || strchr(s, '.'))))
		return jp_fail(err, JP_EINPUT,
			       "expected an unknown budget: a count such as "
			       "'3' or a percentage such as '5%%', found '%s'",
			       s);
	b->percent = pct;
	b->limit = v;
	return JP_OK;
}

bool ci_budget_exceeded(const ci_budget *b, uint32_t unknown, uint32_t total)
{
	if (!b->percent)
		return (double)unknown > b->limit;
	if (total == 0)
		return false;
	return (double)unknown * 100.0 > b->limit * (double)total;
}

void ci_summarize(const ci_result *r, uint32_t n, const ci_fuzz *f,
		  const ci_budget *b, ci_summary *s)
{
	memset(s, 0, sizeof *s);
	s->cases = n;
	for (uint32_t i = 0; i < n; i++) {
		switch (r[i].status) {
		case CI_ST_PASS: s->passed++; break;
		case CI_ST_FAIL: s->failed++; break;
		case CI_ST_UNKNOWN: s->unknown++; break;
		case CI_ST_ERROR: s->errors++; break;
		}
		if (r[i].cache == CI_CACHE_HIT)
			s->cache_hits++;
		else if (r[i].cache == CI_CACHE_MISS)
			s->cache_misses++;
		s->solver_calls += r[i].solver_calls;
	}
	s->unknown_over = ci_budget_exceeded(b, s->unknown, n);
	if (f && f->ran) {
		s->fuzz_error = f->error != NULL;
		s->fuzz_failed = f->nfindings > 0;
	}
}

ci_overall ci_overall_of(const ci_summary *s)
{
	if (s->failed || s->fuzz_failed)
		return CI_ANY_FAILED;
	if (s->errors || s->fuzz_error)
		return CI_ANY_ERROR;
	if (s->unknown_over)
		return CI_UNKNOWN_OVER;
	return CI_ALL_MET;
}

/* ---- the fuzz smoke --------------------------------------------------- */

void ci_fuzz_free(ci_fuzz *f)
{
	free(f->findings);
	free(f->outdir);
	free(f->error);
	memset(f, 0, sizeof *f);
}

void ci_fuzz_smoke(const ci_fuzz_opts *fo, ci_fuzz *f)
{
	double t0 = clk_now_ms();
	memset(f, 0, sizeof *f);
	f->ran = true;
	f->seconds = fo->seconds;
	f->seed = fo->seed;
	f->outdir = ci_dup_str(fo->outdir);
	const char *outdir = fo->outdir;
	camp_opts o = camp_default_opts();
	o.seed = fo->seed;
	o.jobs = fo->jobs < 1 ? 1 : fo->jobs;
	o.seconds = fo->seconds;
	o.outdir = fo->outdir;
	o.cmdline = fo->cmdline;
	o.cfg.bugs = fo->bugs;
	/* Every gate run is a new campaign; earlier findings stay known. */
	o.force = true;
	if (fo->timeout_ms)
		o.timeout_ms = fo->timeout_ms;
	camp_summary s;
	jp_err err;
	if (camp_run(&o, &s, &err)) {
		char buf[1200];
		jp_err_format(&err, buf, sizeof buf);
		f->error = ci_dup_str(buf);
		f->ms = clk_now_ms() - t0;
		return;
	}
	f->traces = s.session.traces;
	f->proved = s.session.proved;
	f->refuted = s.session.refuted;
	f->unknown = s.session.unknown;
	f->errors = s.session.errors;
	f->nfindings = s.nfindings;
	strbuf sb;
	sb_init(&sb);
	for (uint32_t i = 0; i < s.nfindings; i++) {
		const camp_finding *x = &s.findings[i];
		sb_printf(&sb,
			  "%s: %s (trace %s, stream %u, index %llu); "
			  "bundle %s/findings/%s\n",
			  x->kind, x->what, x->trace_id, x->stream,
			  (unsigned long long)x->index, outdir, x->sig);
	}
	f->findings = s.nfindings ? sb_detach(&sb) : NULL;
	sb_release(&sb);
	camp_summary_free(&s);
	f->ms = clk_now_ms() - t0;
}
