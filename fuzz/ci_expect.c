/*
 * ci_expect.c - the CI gate's expect files and options files; see ci.h
 * (the syntax) and docs/ci.md (the reference).
 *
 * Sections:
 *   words          splitting a line into words, numbers, values
 *   directives     one directive of an expect file, one option of an
 *                  options file, a whole file of either
 *   a case's files ci_load_expect: the options file, then the expect file
 */
#include "ci_int.h"

#include <stdlib.h>
#include <string.h>

#include "ir/parse.h"
#include "passes/opt.h"

/* ---- words ------------------------------------------------------------ */

typedef struct expect_line {
	const char *file;
	int line;
	const char *text; /* the whole line, for columns */
} expect_line;

/* Splits the next whitespace-separated word off *P (bounded by END). */
static bool next_word(const char **p, const char *end, const char **w,
		      size_t *n)
{
	const char *s = *p;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s == end) {
		*p = s;
		return false;
	}
	const char *e = s;
	while (e < end && *e != ' ' && *e != '\t' && *e != '\r')
		e++;
	*w = s;
	*n = (size_t)(e - s);
	*p = e;
	return true;
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(w, s, n);
}

static int col_of(const expect_line *l, const char *w)
{
	return (int)(w - l->text) + 1;
}

static bool parse_uint(const char *w, size_t n, unsigned *out)
{
	if (n == 0 || n > 9)
		return false;
	unsigned v = 0;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return false;
		v = v * 10 + (unsigned)(w[i] - '0');
	}
	*out = v;
	return true;
}

static const char *const verdict_words[] = {"proved", "counterexample",
					    "unknown", "error"};

/* The value word of a directive: exactly one more word on the line. */
static jp_status value_word(const expect_line *l, const char **p,
			    const char *end, const char *kw, const char *what,
			    const char **v, size_t *n, jp_err *err)
{
	if (!next_word(p, end, v, n))
		return jp_fail_at(err, JP_EINPUT, l->file, l->line,
				  (int)(end - l->text) + 1,
				  "expected %s after '%s', found the end of "
				  "the line",
				  what, kw);
	const char *extra;
	size_t xn;
	if (next_word(p, end, &extra, &xn))
		return jp_fail_at(err, JP_EINPUT, l->file, l->line,
				  col_of(l, extra),
				  "expected the end of the line after '%s "
				  "%.*s', found '%.*s'",
				  kw, (int)*n, *v, (int)xn, extra);
	return JP_OK;
}

/* Copies N bytes of W into a NUL-terminated buffer. */
static void word_copy(const char *w, size_t n, char *buf, size_t size)
{
	if (n >= size)
		n = size - 1;
	memcpy(buf, w, n);
	buf[n] = '\0';
}

/* ---- directives ------------------------------------------------------- */

static jp_status expect_directive(const expect_line *l, const char *kw,
				  size_t kn, const char **p, const char *end,
				  ci_kind kind, ci_expect *x, jp_err *err)
{
	const char *v;
	size_t n;
	char buf[512];
	jp_err sub;
	int col = col_of(l, kw);
	for (int i = 0; i < 4; i++) {
		if (!word_is(kw, kn, verdict_words[i]))
			continue;
		if (x->has_verdict)
			return jp_fail_at(err, JP_EINPUT, l->file, l->line, col,
					  "a second verdict '%.*s': the "
					  "expected verdict is already '%s'",
					  (int)kn, kw,
					  ci_verdict_name(x->verdict));
		if (next_word(p, end, &v, &n))
			return jp_fail_at(err, JP_EINPUT, l->file, l->line,
					  col_of(l, v),
					  "expected the end of the line after "
					  "'%.*s', found '%.*s'",
					  (int)kn, kw, (int)n, v);
		x->verdict = (ci_verdict)i;
		x->has_verdict = true;
		return JP_OK;
	}
	if (word_is(kw, kn, "failargs") || word_is(kw, kn, "opaque")) {
		if (next_word(p, end, &v, &n))
			return jp_fail_at(err, JP_EINPUT, l->file, l->line,
					  col_of(l, v),
					  "expected the end of the line after "
					  "'%.*s', found '%.*s'",
					  (int)kn, kw, (int)n, v);
		if (word_is(kw, kn, "failargs"))
			x->failargs = true;
		else
			x->opaque = true;
		return JP_OK;
	}
	if (word_is(kw, kn, "width")) {
		jp_status st =
		    value_word(l, p, end, "width", "a width", &v, &n, err);
		if (st)
			return st;
		unsigned w;
		if (!parse_uint(v, n, &w) ||
		    (w != 8 && w != 16 && w != 32 && w != 64))
			return jp_fail_at(err, JP_EINPUT, l->file, l->line,
					  col_of(l, v),
					  "expected a width 8, 16, 32 or 64, "
					  "found '%.*s'",
					  (int)n, v);
		x->width = (int)w;
		return JP_OK;
	}
	if (word_is(kw, kn, "mode")) {
		jp_status st =
		    value_word(l, p, end, "mode", "a mode", &v, &n, err);
		if (st)
			return st;
		if (word_is(v, n, "auto"))
			x->mode = VER_MODE_AUTO;
		else if (word_is(v, n, "aligned"))
			x->mode = VER_MODE_ALIGNED;
		else if (word_is(v, n, "trace"))
			x->mode = VER_MODE_TRACE;
		else
			return jp_fail_at(err, JP_EINPUT, l->file, l->line,
					  col_of(l, v),
					  "expected a mode auto, aligned or "
					  "trace, found '%.*s'",
					  (int)n, v);
		x->has_mode = true;
		return JP_OK;
	}
	if (word_is(kw, kn, "rlimit") || word_is(kw, kn, "timeout-ms")) {
		bool rl = word_is(kw, kn, "rlimit");
		jp_status st =
		    value_word(l, p, end, rl ? "rlimit" : "timeout-ms",
			       "a number", &v, &n, err);
		if (st)
			return st;
		unsigned u;
		if (!parse_uint(v, n, &u))
			return jp_fail_at(err, JP_EINPUT, l->file, l->line,
					  col_of(l, v),
					  "expected a non-negative number "
					  "(at most 9 digits), found '%.*s'",
					  (int)n, v);
		if (rl) {
			x->rlimit = u;
			x->has_rlimit = true;
		} else {
			x->timeout_ms = u;
			x->has_timeout = true;
		}
		return JP_OK;
	}
	if (word_is(kw, kn, "inject") || word_is(kw, kn, "passes")) {
		bool inj = word_is(kw, kn, "inject");
		if (kind != CI_SINGLE)
			return jp_fail_at(err, JP_EINPUT, l->file, l->line, col,
					  "'%s' applies to single traces only "
					  "(a pair's optimized trace is given)",
					  inj ? "inject" : "passes");
		jp_status st = value_word(
		    l, p, end, inj ? "inject" : "passes",
		    inj ? "a list of bugs" : "a list of passes", &v, &n, err);
		if (st)
			return st;
		word_copy(v, n, buf, sizeof buf);
		st = inj ? opt_parse_bugs(buf, &x->bugs, &sub)
			 : opt_parse_passes(buf, &x->passes, &sub);
		if (st)
			return jp_fail_at(err, st, l->file, l->line,
					  col_of(l, v), "%s", sub.msg);
		if (!inj)
			x->has_passes = true;
		return JP_OK;
	}
	return jp_fail_at(err, JP_EINPUT, l->file, l->line, col,
			  "expected a verdict (proved, counterexample, "
			  "unknown, error) or an option (width, mode, rlimit, "
			  "timeout-ms, failargs, opaque, inject, passes), "
			  "found '%.*s'",
			  (int)kn, kw);
}

/* The words of an options line ("--width 8 --failargs"): each "--NAME"
 * is the directive NAME, with the next word as its value unless NAME is a
 * flag.  *P is advanced past what was used. */
static jp_status option_directive(const expect_line *l, const char **p,
				  const char *end, ci_kind kind, ci_expect *x,
				  jp_err *err)
{
	const char *tok, *val;
	size_t tn, vn;
	if (!next_word(p, end, &tok, &tn))
		return JP_OK;
	if (tn < 3 || tok[0] != '-' || tok[1] != '-')
		return jp_fail_at(err, JP_EINPUT, l->file, l->line,
				  col_of(l, tok),
				  "expected an option such as --width 8, found "
				  "'%.*s'",
				  (int)tn, tok);
	const char *kw = tok + 2;
	size_t kn = tn - 2;
	for (int i = 0; i < 4; i++)
		if (word_is(kw, kn, verdict_words[i]))
			return jp_fail_at(err, JP_EINPUT, l->file, l->line,
					  col_of(l, tok),
					  "expected an option, found the "
					  "verdict '%.*s' (verdicts go in the "
					  "expect file)",
					  (int)tn, tok);
	const char *stop = tok + tn;
	if (!word_is(kw, kn, "failargs") && !word_is(kw, kn, "opaque")) {
		const char *q = stop;
		if (next_word(&q, end, &val, &vn))
			stop = val + vn;
	}
	const char *q = tok + tn;
	jp_status st = expect_directive(l, kw, kn, &q, stop, kind, x, err);
	*p = stop;
	return st;
}

/* Reads TEXT into X without resetting it: the expect-file syntax, or with
 * OPTIONS the options-file syntax. */
static jp_status parse_directives(const char *text, size_t len,
				  const char *file, ci_kind kind, bool options,
				  ci_expect *x, jp_err *err)
{
	const char *p = text, *end = text + len;
	for (int line = 1; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *hash = memchr(p, '#', (size_t)(le - p));
		const char *ce = hash ? hash : le;
		expect_line l = {file, line, p};
		const char *q = p, *kw;
		size_t kn;
		if (memchr(p, '\0', (size_t)(le - p)))
			return jp_fail_at(err, JP_EINPUT, file, line, 1,
					  "expected text, found a NUL byte");
		jp_status st = JP_OK;
		if (options) {
			/* Options until the line has no more words. */
			const char *before;
			do {
				before = q;
				st = option_directive(&l, &q, ce, kind, x, err);
			} while (!st && q != before);
		} else if (next_word(&q, ce, &kw, &kn)) {
			st = expect_directive(&l, kw, kn, &q, ce, kind, x, err);
		}
		if (st)
			return st;
		p = nl ? nl + 1 : end;
	}
	return JP_OK;
}

static void expect_init(ci_expect *x)
{
	memset(x, 0, sizeof *x);
	x->verdict = CI_PROVED;
}

jp_status ci_parse_expect(const char *text, size_t len, const char *file,
			  ci_kind kind, ci_expect *out, jp_err *err)
{
	expect_init(out);
	return parse_directives(text, len, file, kind, false, out, err);
}

jp_status ci_parse_options(const char *text, size_t len, const char *file,
			   ci_kind kind, ci_expect *out, jp_err *err)
{
	expect_init(out);
	return parse_directives(text, len, file, kind, true, out, err);
}

void ci_prefer_rlimit(ver_opts *vo)
{
	if (vo->rlimit && vo->timeout_ms && vo->timeout_ms < CI_SAFETY_MS)
		vo->timeout_ms = CI_SAFETY_MS;
}

/* ---- a case's files --------------------------------------------------- */

static jp_status load_file_into(const char *path, ci_kind kind, bool options,
				ci_expect *x, jp_err *err)
{
	char *text;
	size_t len;
	jp_status st = ir_read_file(path, &text, &len, err);
	if (st)
		return st;
	st = parse_directives(text, len, path, kind, options, x, err);
	free(text);
	return st;
}

/* The options file first, then the expect file, whose settings win. */
jp_status ci_load_expect(const ci_case *c, ci_expect *x, jp_err *err)
{
	expect_init(x);
	jp_status st = JP_OK;
	if (c->options)
		st = load_file_into(c->options, c->kind, true, x, err);
	if (!st && c->expect)
		st = load_file_into(c->expect, c->kind, false, x, err);
	return st;
}
