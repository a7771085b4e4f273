/*
 * report.c - text, JUnit, SARIF and JSON renderings of a ci run; see
 * report.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/cache.h"
#include "ir/fdio.h"

#define RULE_ID		"jitprove/miscompilation"
#define UNKNOWN_RULE_ID "jitprove/unknown"

/* ---- text hygiene ----------------------------------------------------- */

/* Length of the valid UTF-8 sequence at S, or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	int n;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0)
			lo = 0xA0; /* no overlong forms */
		if (c == 0xED)
			hi = 0x9F; /* no surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0)
			lo = 0x90;
		if (c == 0xF4)
			hi = 0x8F; /* nothing above U+10FFFF */
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

void rep_utf8(const char *s, strbuf *sb)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = utf8_len(p);
		if (n == 0) {
			sb_puts(sb, "\xEF\xBF\xBD");
			p++;
		} else {
			sb_add(sb, (const char *)p, (size_t)n);
			p += n;
		}
	}
}

/* S as a JSON string (null for NULL). */
static void json_str(strbuf *sb, const char *s)
{
	if (!s) {
		sb_puts(sb, "null");
		return;
	}
	strbuf t;
	sb_init(&t);
	rep_utf8(s, &t);
	sb_json_str(sb, t.buf);
	sb_release(&t);
}

static void xml_str(strbuf *sb, const char *s)
{
	strbuf t;
	sb_init(&t);
	rep_utf8(s ? s : "", &t);
	sb_xml_str(sb, t.buf);
	sb_release(&t);
}

/* An XML attribute value: one line, newlines kept as character
 * references (a literal newline would be normalized to a space). */
static void xml_attr(strbuf *sb, const char *s)
{
	strbuf t;
	sb_init(&t);
	rep_utf8(s ? s : "", &t);
	for (const char *p = t.buf; *p; p++) {
		if (*p == '\n')
			sb_puts(sb, "&#10;");
		else if (*p == '\r')
			sb_puts(sb, "&#13;");
		else if (*p == '\t')
			sb_puts(sb, "&#9;");
		else {
			char one[2] = {*p, '\0'};
			sb_xml_str(sb, one);
		}
	}
	sb_release(&t);
}

/* ---- paths and URIs --------------------------------------------------- */

/* The absolute, normalized form of PATH ("." and ".." resolved
 * lexically, without following links). */
static void abs_path(const char *path, strbuf *out)
{
	strbuf raw;
	sb_init(&raw);
	if (path[0] != '/') {
		char cwd[4096];
		if (getcwd(cwd, sizeof cwd))
			sb_puts(&raw, cwd);
		sb_putc(&raw, '/');
	}
	sb_puts(&raw, path);
	/* Components are copied to OUT one by one; ".." removes the last. */
	sb_reset(out);
	const char *p = raw.buf;
	while (*p) {
		while (*p == '/')
			p++;
		const char *e = p;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - p);
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (out->len > 0 && out->buf[out->len - 1] != '/')
				out->len--;
			if (out->len > 0)
				out->len--;
			out->buf[out->len] = '\0';
		} else {
			sb_putc(out, '/');
			sb_add(out, p, n);
		}
		p = e;
	}
	if (out->len == 0)
		sb_putc(out, '/');
	sb_release(&raw);
}

static void uri_encode(const char *s, strbuf *sb)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = *p;
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~' || c == '/')
			sb_putc(sb, (char)c);
		else {
			sb_putc(sb, '%');
			sb_putc(sb, hex[c >> 4]);
			sb_putc(sb, hex[c & 15]);
		}
	}
}

void rep_uri(const char *path, const char *base, strbuf *sb, bool *relative)
{
	strbuf p, b;
	sb_init(&p);
	sb_init(&b);
	abs_path(path, &p);
	abs_path(base ? base : ".", &b);
	const char *rel = NULL;
	if (!strcmp(b.buf, "/"))
		rel = p.buf + 1;
	else if (!strncmp(p.buf, b.buf, b.len) && p.buf[b.len] == '/')
		rel = p.buf + b.len + 1;
	if (rel && *rel) {
		uri_encode(rel, sb);
	} else {
		rel = NULL;
		sb_puts(sb, "file://");
		uri_encode(p.buf, sb);
	}
	if (relative)
		*relative = rel != NULL;
	sb_release(&p);
	sb_release(&b);
}

/* The URI of the base directory itself, ending in '/'. */
static void base_uri(const char *base, strbuf *sb)
{
	strbuf b;
	sb_init(&b);
	abs_path(base ? base : ".", &b);
	sb_puts(sb, "file://");
	uri_encode(b.buf, sb);
	if (b.buf[b.len - 1] != '/')
		sb_putc(sb, '/');
	sb_release(&b);
}

/* ---- shared wording --------------------------------------------------- */

static void budget_text(const ci_budget *b, strbuf *sb)
{
	if (b->percent)
		sb_printf(sb, "at most %g%% of the cases unknown", b->limit);
	else
		sb_printf(sb, "at most %g unknown", b->limit);
}

/* One line saying how the case went against its expectation. */
static void outcome_line(const ci_result *res, strbuf *sb)
{
	if (res->got == CI_ERROR) {
		sb_puts(sb, res->message ? res->message : "error");
		return;
	}
	if (res->status == CI_ST_PASS)
		sb_printf(sb, "%s, as expected", ci_verdict_name(res->got));
	else
		sb_printf(sb, "expected %s, got %s",
			  ci_verdict_name(res->expected),
			  ci_verdict_name(res->got));
	if (res->what && res->got == CI_COUNTEREXAMPLE)
		sb_printf(sb, " (%s fails)", res->what);
	else if (res->what)
		sb_printf(sb, " (%s)", res->what);
}

/* The main file of a case: the optimized trace of a pair, the trace of a
 * single case. */
static const char *case_file(const ci_case *c)
{
	return c->opt ? c->opt : c->orig;
}

static void indent_block(const char *text, const char *pad, strbuf *sb)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		sb_puts(sb, pad);
		sb_add(sb, p, n);
		sb_putc(sb, '\n');
		p += n + (nl ? 1 : 0);
	}
}

/* ---- text ------------------------------------------------------------- */

static void text_case(const ci_case *c, const ci_result *res, const char *tag,
		      strbuf *sb)
{
	strbuf line;
	sb_init(&line);
	outcome_line(res, &line);
	sb_printf(sb, "%-8s %s: ", tag, c->name);
	rep_utf8(line.buf, sb);
	sb_putc(sb, '\n');
	sb_release(&line);
	if (res->got == CI_COUNTEREXAMPLE && res->status != CI_ST_PASS) {
		sb_printf(sb, "         at %s:%d\n", res->loc_file,
			  res->loc_line);
		if (res->cex)
			indent_block(res->cex, "         | ", sb);
	}
}

static void text_fuzz(const ci_fuzz *f, strbuf *sb)
{
	if (f->error) {
		sb_printf(sb, "ERROR    fuzz smoke: %s\n", f->error);
		return;
	}
	sb_printf(sb,
		  "%-8s fuzz smoke: %llu traces in %.0f s (seed %llu): %llu "
		  "proved, %llu refuted, %llu unknown, %llu errors; %u "
		  "distinct failures\n",
		  f->nfindings ? "FAIL" : "ok", (unsigned long long)f->traces,
		  f->seconds, (unsigned long long)f->seed,
		  (unsigned long long)f->proved, (unsigned long long)f->refuted,
		  (unsigned long long)f->unknown, (unsigned long long)f->errors,
		  f->nfindings);
	if (f->findings)
		indent_block(f->findings, "         | ", sb);
}

void rep_text(const rep_run *r, bool verbose, strbuf *sb)
{
	const ci_summary *s = r->sum;
	/* Failures first, then errors, then unknowns: the order in which
	 * they decide the exit code. */
	static const ci_status order[] = {CI_ST_FAIL, CI_ST_ERROR,
					  CI_ST_UNKNOWN};
	/* Unknowns within the budget do not fail the run: lower case. */
	const char *tags[] = {"FAIL", "ERROR",
			      s->unknown_over ? "UNKNOWN" : "unknown"};
	if (r->fuzz && r->fuzz->ran && r->fuzz->nfindings)
		text_fuzz(r->fuzz, sb);
	for (int k = 0; k < 3; k++)
		for (uint32_t i = 0; i < r->cases->n; i++)
			if (r->results[i].status == order[k])
				text_case(&r->cases->v[i], &r->results[i],
					  tags[k], sb);
	for (uint32_t i = 0; i < r->cases->n; i++)
		if (r->results[i].warning)
			sb_printf(sb, "WARNING  %s: %s\n", r->cases->v[i].name,
				  r->results[i].warning);
	if (r->fuzz && r->fuzz->ran && !r->fuzz->nfindings)
		text_fuzz(r->fuzz, sb);
	if (verbose)
		for (uint32_t i = 0; i < r->cases->n; i++)
			if (r->results[i].status == CI_ST_PASS)
				text_case(&r->cases->v[i], &r->results[i], "ok",
					  sb);
	sb_printf(sb,
		  "jitprove ci: %u cases: %u passed, %u failed, %u errors, "
		  "%u unknown (",
		  s->cases, s->passed, s->failed, s->errors, s->unknown);
	budget_text(r->budget, sb);
	sb_printf(sb, "%s)", s->unknown_over ? ": exceeded" : "");
	if (s->cache_hits + s->cache_misses)
		sb_printf(sb, "; cache: %u hits, %u misses", s->cache_hits,
			  s->cache_misses);
	sb_printf(sb, "; %u solver calls; %.2f s\n", s->solver_calls,
		  r->ms / 1000.0);
}

/* ---- JUnit ------------------------------------------------------------ */

/* classname: the case's directory with '/' as '.'; name: its last
 * component.  Reporters show "classname.name" or group by classname. */
static void split_name(const char *name, strbuf *cls, strbuf *base)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (*name == '/')
		name++;
	const char *slash = strrchr(name, '/');
	if (!slash) {
		sb_puts(cls, "jitprove");
		sb_puts(base, name);
		return;
	}
	for (const char *p = name; p < slash; p++)
		sb_putc(cls, *p == '/' ? '.' : *p);
	sb_puts(base, slash + 1);
}

/* The JUnit names of every case, made unique: "a/b.c" and "a.b/c" are
 * both classname "a.b", name "c", and reporters keyed on classname.name
 * would merge them.  A name already taken gets " #2", " #3", ... (the
 * first smallest number not taken by any case). */
typedef struct junit_names {
	strbuf *cls, *base; /* per case; NULL when out of memory */
} junit_names;

static bool name_taken(const junit_names *jn, uint32_t n, uint32_t self,
		       const char *cls, const char *base)
{
	for (uint32_t j = 0; j < n; j++)
		if (j != self && !strcmp(jn->cls[j].buf, cls) &&
		    !strcmp(jn->base[j].buf, base))
			return true;
	return false;
}

static void junit_names_make(const rep_run *r, junit_names *jn)
{
	uint32_t n = r->cases->n;
	jn->cls = calloc(n ? n : 1, sizeof *jn->cls);
	jn->base = calloc(n ? n : 1, sizeof *jn->base);
	if (!jn->cls || !jn->base) {
		free(jn->cls);
		free(jn->base);
		jn->cls = jn->base = NULL;
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		sb_init(&jn->cls[i]);
		sb_init(&jn->base[i]);
		split_name(r->cases->v[i].name, &jn->cls[i], &jn->base[i]);
	}
	/* Case I keeps its name unless an earlier case has it. */
	for (uint32_t i = 1; i < n; i++) {
		if (!name_taken(jn, i, i, jn->cls[i].buf, jn->base[i].buf))
			continue;
		strbuf cand;
		sb_init(&cand);
		for (unsigned k = 2;; k++) {
			sb_reset(&cand);
			sb_printf(&cand, "%s #%u", jn->base[i].buf, k);
			if (cand.oom ||
			    !name_taken(jn, n, i, jn->cls[i].buf, cand.buf))
				break;
		}
		sb_reset(&jn->base[i]);
		sb_puts(&jn->base[i], cand.buf);
		sb_release(&cand);
	}
}

static void junit_names_free(const rep_run *r, junit_names *jn)
{
	for (uint32_t i = 0; jn->cls && i < r->cases->n; i++) {
		sb_release(&jn->cls[i]);
		sb_release(&jn->base[i]);
	}
	free(jn->cls);
	free(jn->base);
}

typedef enum junit_kind {
	JK_PASS,
	JK_FAILURE,
	JK_ERROR,
} junit_kind;

static junit_kind junit_kind_of(const rep_run *r, const ci_result *res)
{
	switch (res->status) {
	case CI_ST_PASS: return JK_PASS;
	case CI_ST_FAIL: return JK_FAILURE;
	case CI_ST_ERROR: return JK_ERROR;
	case CI_ST_UNKNOWN: return r->sum->unknown_over ? JK_FAILURE : JK_PASS;
	}
	return JK_ERROR;
}

static const char *failure_type(const ci_result *res)
{
	if (res->status == CI_ST_UNKNOWN)
		return "unknown";
	if (res->got == CI_COUNTEREXAMPLE)
		return "miscompilation";
	return "missed-expectation";
}

static void junit_case(const rep_run *r, const junit_names *jn, uint32_t i,
		       strbuf *sb)
{
	const ci_case *c = &r->cases->v[i];
	const ci_result *res = &r->results[i];
	strbuf cls, base, line;
	sb_init(&cls);
	sb_init(&base);
	sb_init(&line);
	if (jn->cls) {
		sb_puts(&cls, jn->cls[i].buf);
		sb_puts(&base, jn->base[i].buf);
	} else {
		split_name(c->name, &cls, &base);
		sb->oom = true; /* the report is incomplete: say so */
	}
	outcome_line(res, &line);
	sb_puts(sb, "    <testcase name=\"");
	xml_attr(sb, base.buf);
	sb_puts(sb, "\" classname=\"");
	xml_attr(sb, cls.buf);
	sb_printf(sb, "\" time=\"%.3f\" file=\"", res->ms / 1000.0);
	xml_attr(sb, res->loc_file ? res->loc_file : case_file(c));
	sb_putc(sb, '"');
	junit_kind k = junit_kind_of(r, res);
	if (k != JK_PASS && res->loc_line > 0)
		sb_printf(sb, " line=\"%d\"", res->loc_line);
	if (k == JK_PASS && res->status == CI_ST_PASS) {
		sb_puts(sb, "/>\n");
	} else if (k == JK_PASS) {
		sb_puts(sb, ">\n      <system-out>");
		xml_str(sb, line.buf);
		sb_puts(sb, "; within the unknown budget (");
		budget_text(r->budget, sb);
		sb_puts(sb, ")</system-out>\n    </testcase>\n");
	} else {
		const char *el = k == JK_ERROR ? "error" : "failure";
		sb_printf(sb, ">\n      <%s message=\"", el);
		xml_attr(sb, line.buf);
		sb_printf(sb, "\" type=\"%s\">",
			  k == JK_ERROR ? "error" : failure_type(res));
		if (res->loc_file && res->got == CI_COUNTEREXAMPLE)
			sb_printf(sb, "at %s:%d\n", res->loc_file,
				  res->loc_line);
		if (res->cex)
			xml_str(sb, res->cex);
		else
			xml_str(sb, line.buf);
		sb_printf(sb, "</%s>\n    </testcase>\n", el);
	}
	sb_release(&cls);
	sb_release(&base);
	sb_release(&line);
}

static void junit_fuzz(const ci_fuzz *f, strbuf *sb)
{
	bool err = f->error != NULL, fail = !err && f->nfindings > 0;
	sb_printf(sb,
		  "  <testsuite name=\"fuzz smoke\" tests=\"1\" "
		  "failures=\"%d\" errors=\"%d\" skipped=\"0\" "
		  "time=\"%.3f\">\n",
		  fail, err, f->ms / 1000.0);
	sb_printf(sb,
		  "    <testcase name=\"fuzz %.0f s seed %llu\" "
		  "classname=\"jitprove.fuzz\" time=\"%.3f\"",
		  f->seconds, (unsigned long long)f->seed, f->ms / 1000.0);
	if (err) {
		sb_puts(sb, ">\n      <error message=\"");
		xml_attr(sb, f->error);
		sb_puts(sb, "\" type=\"error\">");
		xml_str(sb, f->error);
		sb_puts(sb, "</error>\n    </testcase>\n");
	} else if (fail) {
		sb_printf(sb,
			  ">\n      <failure message=\"%u distinct failures "
			  "in %llu traces\" type=\"miscompilation\">",
			  f->nfindings, (unsigned long long)f->traces);
		xml_str(sb, f->findings);
		sb_puts(sb, "</failure>\n    </testcase>\n");
	} else {
		sb_printf(sb,
			  ">\n      <system-out>%llu traces: %llu proved, "
			  "%llu refuted, %llu unknown</system-out>\n"
			  "    </testcase>\n",
			  (unsigned long long)f->traces,
			  (unsigned long long)f->proved,
			  (unsigned long long)f->refuted,
			  (unsigned long long)f->unknown);
	}
	sb_puts(sb, "  </testsuite>\n");
}

void rep_junit(const rep_run *r, strbuf *sb)
{
	uint32_t fail = 0, errs = 0, n = r->cases->n;
	for (uint32_t i = 0; i < n; i++) {
		junit_kind k = junit_kind_of(r, &r->results[i]);
		fail += k == JK_FAILURE;
		errs += k == JK_ERROR;
	}
	bool fz = r->fuzz && r->fuzz->ran;
	if (fz) {
		errs += r->fuzz->error != NULL;
		fail += !r->fuzz->error && r->fuzz->nfindings > 0;
	}
	junit_names jn;
	junit_names_make(r, &jn);
	sb_puts(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_printf(sb,
		  "<testsuites name=\"jitprove ci\" tests=\"%u\" "
		  "failures=\"%u\" errors=\"%u\" skipped=\"0\" "
		  "time=\"%.3f\">\n",
		  n + (fz ? 1 : 0), fail, errs, r->ms / 1000.0);
	for (uint32_t root = 0; root < r->nroots; root++) {
		uint32_t t = 0, f = 0, e = 0;
		double ms = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (r->cases->v[i].root != root)
				continue;
			junit_kind k = junit_kind_of(r, &r->results[i]);
			t++;
			f += k == JK_FAILURE;
			e += k == JK_ERROR;
			ms += r->results[i].ms;
		}
		sb_puts(sb, "  <testsuite name=\"");
		xml_attr(sb, r->roots[root]);
		sb_printf(sb,
			  "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
			  "skipped=\"0\" time=\"%.3f\">\n",
			  t, f, e, ms / 1000.0);
		for (uint32_t i = 0; i < n; i++)
			if (r->cases->v[i].root == root)
				junit_case(r, &jn, i, sb);
		sb_puts(sb, "  </testsuite>\n");
	}
	if (fz)
		junit_fuzz(r->fuzz, sb);
	sb_puts(sb, "</testsuites>\n");
	junit_names_free(r, &jn);
}

/* ---- SARIF ------------------------------------------------------------ */

static void sarif_location(const rep_run *r, const char *file, int line,
			   strbuf *sb)
{
	bool rel;
	strbuf uri;
	sb_init(&uri);
	rep_uri(file, r->base, &uri, &rel);
	sb_puts(sb, "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
	json_str(sb, uri.buf);
	if (rel)
		sb_puts(sb, ",\"uriBaseId\":\"%SRCROOT%\"");
	sb_putc(sb, '}');
	if (line > 0)
		sb_printf(sb, ",\"region\":{\"startLine\":%d}", line);
	sb_puts(sb, "}}");
	sb_release(&uri);
}

static void sarif_result(const rep_run *r, uint32_t i, strbuf *sb)
{
	const ci_case *c = &r->cases->v[i];
	const ci_result *res = &r->results[i];
	strbuf msg;
	sb_init(&msg);
	sb_printf(&msg, "Miscompilation in %s: %s fails on the optimized trace",
		  c->name, res->what ? res->what : "an obligation");
	if (c->kind == CI_SINGLE)
		sb_puts(&msg, " (optimized by the built-in optimizer)");
	sb_puts(&msg, res->status == CI_ST_PASS
			  ? ". This case is a known-bad reproducer: its "
			    "expect file asks for a counterexample.\n"
			  : ".\n");
	if (res->cex)
		sb_puts(&msg, res->cex);
	sb_puts(sb, "{\"ruleId\":\"" RULE_ID "\",\"ruleIndex\":0,"
		    "\"kind\":\"fail\",\"level\":\"error\",\"message\":{"
		    "\"text\":");
	json_str(sb, msg.buf);
	sb_puts(sb, "},\"locations\":[");
	sarif_location(r, res->loc_file ? res->loc_file : case_file(c),
		       res->loc_line, sb);
	sb_puts(sb, "],\"partialFingerprints\":{\"jitproveCase/v1\":");
	json_str(sb, c->name);
	sb_puts(sb, "}");
	if (res->status == CI_ST_PASS) {
		strbuf why;
		sb_init(&why);
		sb_printf(&why,
			  "a known-bad reproducer: %s asks for a "
			  "counterexample",
			  c->expect ? c->expect : "its expect file");
		sb_puts(sb, ",\"suppressions\":[{\"kind\":\"external\","
			    "\"status\":\"accepted\",\"justification\":");
		json_str(sb, why.buf);
		sb_puts(sb, "}]");
		sb_release(&why);
	}
	sb_puts(sb, ",\"properties\":{\"case\":");
	json_str(sb, c->name);
	sb_printf(sb, ",\"expected\":\"%s\",\"obligation\":",
		  ci_verdict_name(res->expected));
	json_str(sb, res->what);
	sb_puts(sb, "}}");
	sb_release(&msg);
}

/* A case the verifier could not decide where something else was expected:
 * SARIF's kind "open" (the tool could not tell pass from fail), whose level
 * must be "none" (SARIF 2.1.0, 3.27.10: a kind other than "fail" has level
 * none).  Whether it fails the gate (over the unknown budget) is in the
 * message and in properties.overBudget. */
static void sarif_unknown(const rep_run *r, uint32_t i, strbuf *sb)
{
	const ci_case *c = &r->cases->v[i];
	const ci_result *res = &r->results[i];
	bool over = r->sum->unknown_over;
	strbuf msg;
	sb_init(&msg);
	sb_printf(&msg, "Not decided: %s (expected %s) is unknown", c->name,
		  ci_verdict_name(res->expected));
	if (res->what)
		sb_printf(&msg, " (%s)", res->what);
	sb_puts(&msg, over ? "; unknowns are over the budget, so this one "
			     "fails the gate ("
			   : "; within the unknown budget (");
	budget_text(r->budget, &msg);
	sb_puts(&msg, ").");
	sb_puts(sb, "{\"ruleId\":\"" UNKNOWN_RULE_ID "\",\"ruleIndex\":1,"
		    "\"kind\":\"open\",\"level\":\"none\",\"message\":{"
		    "\"text\":");
	json_str(sb, msg.buf);
	sb_puts(sb, "},\"locations\":[");
	sarif_location(r, case_file(c), 0, sb);
	sb_puts(sb, "],\"partialFingerprints\":{\"jitproveCase/v1\":");
	json_str(sb, c->name);
	sb_puts(sb, "},\"properties\":{\"case\":");
	json_str(sb, c->name);
	sb_printf(sb, ",\"expected\":\"%s\",\"overBudget\":%s,\"reason\":",
		  ci_verdict_name(res->expected), over ? "true" : "false");
	json_str(sb, res->what);
	sb_puts(sb, "}}");
	sb_release(&msg);
}

static void sarif_notification(const rep_run *r, const char *msg,
			       const char *file, int line, strbuf *sb)
{
	sb_puts(sb, "{\"level\":\"error\",\"message\":{\"text\":");
	json_str(sb, msg);
	sb_putc(sb, '}');
	if (file) {
		sb_puts(sb, ",\"locations\":[");
		sarif_location(r, file, line, sb);
		sb_putc(sb, ']');
	}
	sb_putc(sb, '}');
}

static void sarif_rule(strbuf *sb)
{
	sb_puts(sb,
		"{\"id\":\"" RULE_ID "\",\"name\":\"Miscompilation\","
		"\"shortDescription\":{\"text\":\"The optimized trace does "
		"not behave like the original trace.\"},"
		"\"fullDescription\":{\"text\":\"jitprove found inputs on "
		"which the optimized trace leaves at a different guard, "
		"reaches a different end, or computes different outputs than "
		"the original trace. The counterexample was replayed on the "
		"concrete interpreter.\"},"
		"\"defaultConfiguration\":{\"level\":\"error\"},"
		"\"help\":{\"text\":\"Run 'jitprove check ORIG OPT' on the "
		"pair to see the counterexample with every value of both "
		"traces.\"}},");
	sb_puts(sb,
		"{\"id\":\"" UNKNOWN_RULE_ID "\",\"name\":\"Undecided\","
		"\"shortDescription\":{\"text\":\"The verifier could not "
		"decide whether the optimized trace behaves like the "
		"original.\"},"
		"\"fullDescription\":{\"text\":\"A solver query hit its "
		"resource limit or timeout (or needs an unsupported "
		"feature), so the case is neither proved nor refuted. Over "
		"the unknown budget (--max-unknown) it fails the gate.\"},"
		"\"defaultConfiguration\":{\"level\":\"none\"},"
		"\"help\":{\"text\":\"Raise the case's rlimit, or run "
		"'jitprove check --verbose ORIG OPT' to see which obligation "
		"is undecided.\"}}");
}

void rep_sarif(const rep_run *r, strbuf *sb)
{
	sb_puts(sb, "{\"$schema\":\"https://json.schemastore.org/"
		    "sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{");
	sb_puts(sb, "\"tool\":{\"driver\":{\"name\":\"jitprove\","
		    "\"version\":\"" JP_VERSION
		    "\",\"semanticVersion\":\"" JP_VERSION "\",\"rules\":[");
	sarif_rule(sb);
	sb_puts(sb, "]}},\"invocations\":[{");
	if (r->command_line) {
		sb_puts(sb, "\"commandLine\":");
		json_str(sb, r->command_line);
		sb_putc(sb, ',');
	}
	bool ok = r->sum->errors == 0 && !(r->fuzz && r->fuzz->error);
	sb_printf(sb, "\"exitCode\":%d,\"executionSuccessful\":%s",
		  r->exit_code, ok ? "true" : "false");
	bool any = false;
	for (uint32_t i = 0; i < r->cases->n; i++) {
		const ci_result *res = &r->results[i];
		if (res->status != CI_ST_ERROR)
			continue;
		sb_puts(sb, any ? "," : ",\"toolExecutionNotifications\":[");
		any = true;
		sarif_notification(r, res->message ? res->message : "error",
				   res->loc_file, res->loc_line, sb);
	}
	if (r->fuzz && r->fuzz->error) {
		sb_puts(sb, any ? "," : ",\"toolExecutionNotifications\":[");
		any = true;
		sarif_notification(r, r->fuzz->error, NULL, 0, sb);
	}
	if (any)
		sb_putc(sb, ']');
	sb_puts(sb, "}],\"originalUriBaseIds\":{\"%SRCROOT%\":{\"uri\":");
	strbuf b;
	sb_init(&b);
	base_uri(r->base, &b);
	json_str(sb, b.buf);
	sb_release(&b);
	sb_puts(sb, "}},\"results\":[");
	any = false;
	for (uint32_t i = 0; i < r->cases->n; i++) {
		bool cex = r->results[i].got == CI_COUNTEREXAMPLE;
		bool unknown = r->results[i].status == CI_ST_UNKNOWN;
		if (!cex && !unknown)
			continue;
		if (any)
			sb_putc(sb, ',');
		any = true;
		if (cex)
			sarif_result(r, i, sb);
		else
			sarif_unknown(r, i, sb);
	}
	sb_puts(sb, "],\"columnKind\":\"unicodeCodePoints\"}]}\n");
}

/* ---- JSON ------------------------------------------------------------- */

static const char *overall_name(ci_overall o)
{
	switch (o) {
	case CI_ALL_MET: return "all-met";
	case CI_ANY_FAILED: return "failed";
	case CI_ANY_ERROR: return "error";
	case CI_UNKNOWN_OVER: return "unknown-over-budget";
	}
	return "?";
}

static void json_case(const rep_run *r, uint32_t i, strbuf *sb)
{
	const ci_case *c = &r->cases->v[i];
	const ci_result *res = &r->results[i];
	sb_puts(sb, "{\"name\":");
	json_str(sb, c->name);
	sb_printf(sb, ",\"kind\":\"%s\",\"root\":",
		  c->kind == CI_PAIR ? "pair" : "single");
	json_str(sb, r->roots[c->root]);
	sb_puts(sb, ",\"orig\":");
	json_str(sb, c->orig);
	sb_puts(sb, ",\"opt\":");
	json_str(sb, c->opt);
	sb_puts(sb, ",\"expect_file\":");
	json_str(sb, c->expect);
	sb_puts(sb, ",\"options_file\":");
	json_str(sb, c->options);
	sb_printf(sb,
		  ",\"expected\":\"%s\",\"verdict\":\"%s\",\"status\":\"%s\"",
		  ci_verdict_name(res->expected), ci_verdict_name(res->got),
		  ci_status_name(res->status));
	sb_puts(sb, ",\"message\":");
	json_str(sb, res->message);
	sb_puts(sb, ",\"obligation\":");
	json_str(sb, res->what);
	sb_puts(sb, ",\"location\":");
	if (res->loc_file) {
		sb_puts(sb, "{\"file\":");
		json_str(sb, res->loc_file);
		sb_printf(sb, ",\"line\":%d}", res->loc_line);
	} else {
		sb_puts(sb, "null");
	}
	sb_puts(sb, ",\"counterexample\":");
	json_str(sb, res->cex);
	sb_printf(sb, ",\"cache\":\"%s\",\"solver_calls\":%u,\"ms\":%.3f",
		  ci_cache_name(res->cache), res->solver_calls, res->ms);
	sb_puts(sb, ",\"warning\":");
	json_str(sb, res->warning);
	sb_puts(sb, ",\"verifier\":");
	sb_puts(sb, res->json ? res->json : "null");
	sb_putc(sb, '}');
}

static void json_fuzz(const ci_fuzz *f, strbuf *sb)
{
	sb_printf(sb,
		  "{\"seconds\":%g,\"seed\":\"%llu\",\"traces\":%llu,"
		  "\"proved\":%llu,\"refuted\":%llu,\"unknown\":%llu,"
		  "\"errors\":%llu,\"distinct_failures\":%u,\"findings\":",
		  f->seconds, (unsigned long long)f->seed,
		  (unsigned long long)f->traces, (unsigned long long)f->proved,
		  (unsigned long long)f->refuted,
		  (unsigned long long)f->unknown, (unsigned long long)f->errors,
		  f->nfindings);
	json_str(sb, f->findings);
	sb_puts(sb, ",\"outdir\":");
	json_str(sb, f->outdir);
	sb_puts(sb, ",\"error\":");
	json_str(sb, f->error);
	sb_printf(sb, ",\"ms\":%.3f}", f->ms);
}

void rep_json(const rep_run *r, strbuf *sb)
{
	const ci_summary *s = r->sum;
	char z3[64];
	pc_solver_version(z3, sizeof z3);
	sb_printf(sb,
		  "{\"tool\":\"jitprove\",\"version\":\"%s\",\"z3\":\"%s\","
		  "\"encoder_version\":%d,\"command\":",
		  JP_VERSION, z3, VER_ENCODER_VERSION);
	json_str(sb, r->command_line);
	sb_printf(sb, ",\"exit_code\":%d,\"overall\":\"%s\",\"paths\":[",
		  r->exit_code, overall_name(ci_overall_of(s)));
	for (uint32_t i = 0; i < r->nroots; i++) {
		if (i)
			sb_putc(sb, ',');
		json_str(sb, r->roots[i]);
	}
	sb_printf(sb,
		  "],\"budget\":{\"limit\":%g,\"percent\":%s,"
		  "\"exceeded\":%s},",
		  r->budget->limit, r->budget->percent ? "true" : "false",
		  s->unknown_over ? "true" : "false");
	sb_printf(sb,
		  "\"summary\":{\"cases\":%u,\"passed\":%u,\"failed\":%u,"
		  "\"errors\":%u,\"unknown\":%u,\"cache_hits\":%u,"
		  "\"cache_misses\":%u,\"solver_calls\":%u,\"ms\":%.3f},"
		  "\"cases\":[",
		  s->cases, s->passed, s->failed, s->errors, s->unknown,
		  s->cache_hits, s->cache_misses, s->solver_calls, r->ms);
	for (uint32_t i = 0; i < r->cases->n; i++) {
		if (i)
			sb_putc(sb, ',');
		json_case(r, i, sb);
	}
	sb_puts(sb, "],\"fuzz\":");
	if (r->fuzz && r->fuzz->ran)
		json_fuzz(r->fuzz, sb);
	else
		sb_puts(sb, "null");
	sb_puts(sb, "}\n");
}

/* ---- files ------------------------------------------------------------ */

jp_status rep_write_file(const char *path, const strbuf *sb, jp_err *err)
{
	if (sb->oom)
		return jp_fail(err, JP_ENOMEM, "out of memory writing '%s'",
			       path);
	return fd_write_path(path, sb->buf, sb->len, err);
}
