/*
 * campstate.c - the campaign state file, OUTDIR/state: written by the
 * parent about once a second, read by --resume (docs/fuzzing.md, "The
 * state file").  Reading is strict: every line is a known key with values
 * of the right form, and an error says file:line, what was expected and
 * what was found.
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz/campstate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cst_format(const camp_state *s, strbuf *sb)
{
	sb_printf(sb,
		  "# jitprove fuzz campaign state; read by --resume\n"
		  "version 1\nseed %llu\nprofile %s\nlength %u %u\n"
		  "inputs %u %u\nwidth %d\nheap %d\npasses %llu\nbugs %llu\n"
		  "timeout_ms %u\nstreams %u\n",
		  (unsigned long long)s->seed, gen_profile_name(s->gen.profile),
		  s->gen.min_len, s->gen.max_len, s->gen.min_inputs,
		  s->gen.max_inputs, s->gen.width, s->gen.heap ? 1 : 0,
		  (unsigned long long)s->cfg.passes,
		  (unsigned long long)s->cfg.bugs, s->timeout_ms, s->nstreams);
	for (uint32_t i = 0; i < s->nstreams; i++)
		sb_printf(sb, "next %u %llu\n", i,
			  (unsigned long long)s->next[i]);
	const camp_counts *c = &s->all;
	sb_printf(
	    sb,
	    "traces %llu\nproved %llu\nrefuted %llu\nunknown %llu\n"
	    "errors %llu\nfindings_new %llu\nfindings_dup %llu\n"
	    "ops %llu\nelapsed %.3f\nbudget_seconds %.3f\n"
	    "budget_count %llu\n",
	    (unsigned long long)c->traces, (unsigned long long)c->proved,
	    (unsigned long long)c->refuted, (unsigned long long)c->unknown,
	    (unsigned long long)c->errors, (unsigned long long)c->findings_new,
	    (unsigned long long)c->findings_dup, (unsigned long long)c->ops,
	    s->elapsed, s->budget_s, (unsigned long long)s->budget_count);
	sb_printf(sb, "coverage_feedback %u\ncov_bits %d\n", s->cov_pct,
		  COV_NBITS);
	for (uint32_t i = 0; i < s->nstreams; i++)
		if (s->cov[i])
			cov_format(s->cov[i], i, sb);
}

void cst_free(camp_state *s)
{
	for (int i = 0; i < 256; i++) {
		free(s->cov[i]);
		s->cov[i] = NULL;
	}
}

/* Reads exactly N unsigned numbers after the key of LINE into V. */
static bool state_nums(const char *line, int n, unsigned long long *v)
{
	const char *p = line + strcspn(line, " \t");
	for (int i = 0; i < n; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		char *e;
		errno = 0;
		v[i] = strtoull(p, &e, 10);
		if (errno)
			return false;
		p = e;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '\0';
}

/* What each key of the state holds, for the error messages. */
static const struct {
	const char *key, *shape;
	int nums; /* unsigned numbers after the key; -1: other */
} state_keys[] = {
    {"version", "version 1", 1},
    {"seed", "seed N", 1},
    {"profile", "profile NAME", -1},
    {"length", "length MIN MAX", 2},
    {"inputs", "inputs MIN MAX", 2},
    {"width", "width W", 1},
    {"heap", "heap 0|1", 1},
    {"passes", "passes MASK", 1},
    {"bugs", "bugs MASK", 1},
    {"timeout_ms", "timeout_ms N", 1},
    {"streams", "streams N", 1},
    {"next", "next STREAM INDEX (STREAM < 256)", 2},
    {"traces", "traces N", 1},
    {"proved", "proved N", 1},
    {"refuted", "refuted N", 1},
    {"unknown", "unknown N", 1},
    {"errors", "errors N", 1},
    {"findings_new", "findings_new N", 1},
    {"findings_dup", "findings_dup N", 1},
    {"ops", "ops N", 1},
    {"elapsed", "elapsed SECONDS", -1},
    {"budget_seconds", "budget_seconds SECONDS", -1},
    {"budget_count", "budget_count N", 1},
    {"coverage_feedback", "coverage_feedback PERCENT (0..100)", 1},
    {"cov_bits", "cov_bits N", 1},
    {"cov_covered", "cov_covered STREAM HEX...", -1},
    {"cov_entry", "cov_entry STREAM ID BODY HEX...", -1},
};

/* Stores the value(s) V of KEY K (an index into state_keys). */
static bool state_set(camp_state *s, int k, const char *line,
		      const unsigned long long *v)
{
	uint64_t *cv[] = {&s->all.traces,	&s->all.proved,
			  &s->all.refuted,	&s->all.unknown,
			  &s->all.errors,	&s->all.findings_new,
			  &s->all.findings_dup, &s->all.ops};
	const char *key = state_keys[k].key;
	char word[64];
	double d;
	char *e;
	if (!strcmp(key, "version"))
		return v[0] == 1;
	if (!strcmp(key, "seed"))
		return s->seed = v[0], true;
	if (!strcmp(key, "profile"))
		return sscanf(line, "%*s %63s", word) == 1 &&
		       gen_parse_profile(word, &s->gen.profile, NULL) == JP_OK;
	if (!strcmp(key, "length"))
		return s->gen.min_len = (uint32_t)v[0],
		       s->gen.max_len = (uint32_t)v[1], true;
	if (!strcmp(key, "inputs"))
		return s->gen.min_inputs = (uint32_t)v[0],
		       s->gen.max_inputs = (uint32_t)v[1], true;
	if (!strcmp(key, "width"))
		return s->gen.width = (int)v[0], true;
	if (!strcmp(key, "heap"))
		return s->gen.heap = v[0] != 0, v[0] <= 1;
	if (!strcmp(key, "passes"))
		return s->cfg.passes = v[0], true;
	if (!strcmp(key, "bugs"))
		return s->cfg.bugs = v[0], true;
	if (!strcmp(key, "timeout_ms"))
		return s->timeout_ms = (unsigned)v[0], v[0] <= 3600000;
	if (!strcmp(key, "streams"))
		return v[0] <= 256;
	if (!strcmp(key, "next")) {
		if (v[0] >= 256)
			return false;
		s->next[v[0]] = v[1];
		if (v[0] + 1 > s->nstreams)
			s->nstreams = (uint32_t)v[0] + 1;
		return true;
	}
	if (!strcmp(key, "budget_count"))
		return s->budget_count = v[0], true;
	if (!strcmp(key, "cov_bits"))
		return true; /* checked by state_parse */
	if (!strcmp(key, "coverage_feedback"))
		return s->cov_pct = (uint32_t)v[0], v[0] <= 100;
	if (!strcmp(key, "elapsed") || !strcmp(key, "budget_seconds")) {
		const char *p = line + strcspn(line, " \t");
		d = strtod(p, &e);
		if (e == p || d < 0 || d != d)
			return false;
		while (*e == ' ' || *e == '\t')
			e++;
		if (*e)
			return false;
		*(key[0] == 'e' ? &s->elapsed : &s->budget_s) = d;
		return true;
	}
	for (int i = 0; i < 8; i++)
		if (!strcmp(key, state_keys[12 + i].key))
			return *cv[i] = v[0], true;
	return false;
}

/* A "cov_covered" or "cov_entry" line (BUF, line LINE of PATH); skipped
 * unless COV_OK. */
static jp_status cov_line(camp_state *s, const char *path, int line,
			  const char *buf, bool cov_ok, jp_err *err)
{
	bool entry = !strncmp(buf, "cov_entry", 9);
	const char *p = buf + strcspn(buf, " \t");
	p += strspn(p, " \t");
	char *e;
	errno = 0;
	unsigned long stream = strtoul(p, &e, 10);
	if (*p < '0' || *p > '9' || errno || stream >= 256 ||
	    (*e != ' ' && *e != '\t'))
		return jp_fail_at(err, JP_EINPUT, path, line, 1,
				  "expected '%s STREAM ...' (STREAM < 256), "
				  "found '%.60s'",
				  entry ? "cov_entry" : "cov_covered", buf);
	if (!cov_ok)
		return JP_OK;
	if (!s->cov[stream]) {
		s->cov[stream] = malloc(sizeof *s->cov[stream]);
		if (!s->cov[stream])
			return jp_fail(err, JP_ENOMEM, "out of memory");
		cov_init(s->cov[stream]);
	}
	jp_err ce;
	jp_err_clear(&ce);
	if (cov_parse_line(s->cov[stream], entry, e, &ce))
		return jp_fail_at(err, JP_EINPUT, path, line, 1, "%s", ce.msg);
	return JP_OK;
}

/* Parses the state TEXT (LEN bytes) read from PATH. */
static jp_status state_parse(const char *path, const char *text, size_t len,
			     camp_state *s, jp_err *err)
{
	memset(s, 0, sizeof *s);
	s->gen = gen_default_opts();
	s->cfg = opt_default_config();
	if (len == 0)
		return jp_fail_at(err, JP_EINPUT, path, 1, 0,
				  "expected a jitprove campaign state "
				  "(written by jitprove fuzz), found an empty "
				  "file");
	if (memchr(text, '\0', len))
		return jp_fail_at(err, JP_EINPUT, path, 0, 0,
				  "expected a jitprove campaign state (text), "
				  "found binary data (a NUL byte)");
	bool have_seed = false;
	bool cov_ok = false; /* the corpus lines have our feature count */
	const char *p = text;
	int line = 0;
	while (*p) {
		line++;
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char buf[512], key[32];
		if (n >= sizeof buf)
			return jp_fail_at(err, JP_EINPUT, path, line, 0,
					  "expected a line of at most %zu "
					  "bytes, found %zu bytes",
					  sizeof buf - 1, n);
		memcpy(buf, p, n);
		buf[n] = '\0';
		p = nl ? nl + 1 : p + n;
		if (buf[0] == '#' || buf[0] == '\0')
			continue;
		if (sscanf(buf, "%31s", key) != 1)
			continue;
		int k = -1;
		for (size_t i = 0; i < sizeof state_keys / sizeof *state_keys;
		     i++)
			if (!strcmp(key, state_keys[i].key))
				k = (int)i;
		if (k < 0)
			return jp_fail_at(err, JP_EINPUT, path, line, 1,
					  "expected a state key (seed, next, "
					  "traces, ...), found '%.60s' (not a "
					  "campaign state, or damaged)",
					  buf);
		if (!strncmp(key, "cov_", 4) && strcmp(key, "cov_bits") != 0) {
			jp_status st =
			    cov_line(s, path, line, buf, cov_ok, err);
			if (st)
				return st;
			continue;
		}
		unsigned long long v[2] = {0, 0};
		if ((state_keys[k].nums > 0 &&
		     !state_nums(buf, state_keys[k].nums, v)) ||
		    !state_set(s, k, buf, v))
			return jp_fail_at(err, JP_EINPUT, path, line, 1,
					  "expected '%s', found '%.60s'",
					  state_keys[k].shape, buf);
		have_seed |= !strcmp(key, "seed");
		if (!strcmp(key, "cov_bits"))
			cov_ok = v[0] == COV_NBITS;
	}
	if (!have_seed)
		return jp_fail_at(err, JP_EINPUT, path, 0, 0,
				  "expected a 'seed N' line, found none (not "
				  "a campaign state, or truncated)");
	jp_status st = gen_check_opts(&s->gen, err);
	if (st)
		return jp_fail_at(err, st, path, 0, 0,
				  "the saved generator options are invalid: "
				  "%s",
				  err ? err->msg : "");
	return JP_OK;
}

/* Reads OUTDIR/state. */
jp_status cst_read(const char *outdir, camp_state *s, jp_err *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/state", outdir);
	FILE *f = fopen(path, "r");
	if (!f)
		return jp_fail(err, JP_EINPUT,
			       "--resume: cannot read '%s': %s (no campaign "
			       "to resume there)",
			       path, strerror(errno));
	/* A corpus of 256 entries takes up to about 80 kB per stream. */
	enum { MAXSTATE = 32 << 20 };
	char *text = malloc(MAXSTATE + 1);
	size_t n = text ? fread(text, 1, MAXSTATE + 1, f) : 0;
	bool rerr = ferror(f) != 0;
	fclose(f);
	if (!text)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	jp_status st;
	if (rerr)
		st = jp_fail(err, JP_EINPUT, "cannot read '%s': %s", path,
			     strerror(errno));
	else if (n > MAXSTATE)
		st = jp_fail_at(err, JP_EINPUT, path, 0, 0,
				"expected a campaign state of at most %d "
				"bytes, found a larger file",
				MAXSTATE);
	else {
		text[n] = '\0';
		st = state_parse(path, text, n, s, err);
		if (st)
			cst_free(s);
	}
	free(text);
	return st;
}
