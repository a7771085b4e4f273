/*
 * ci.c - case discovery, checking, the worker pool and the budget; see
 * ci.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "ci.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/campaign.h"
#include "ir/fdio.h"
#include "ir/parse.h"
#include "ir/sem.h"
#include "ir/strbuf.h"
#include "passes/opt.h"
#include "util/clock.h"

/* Directories nested deeper than this are not walked (symlink loops). */
#define CI_MAX_DEPTH 64

static char *dup_str(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s);
	char *d = malloc(n + 1);
	if (d)
		memcpy(d, s, n + 1);
	return d;
}

static char *join_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);
	if (!p)
		return NULL;
	memcpy(p, dir, a);
	size_t k = a;
	if (a && dir[a - 1] != '/')
		p[k++] = '/';
	memcpy(p + k, name, b + 1);
	return p;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

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

/* ---- expect files ----------------------------------------------------- */

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

/* ---- discovery -------------------------------------------------------- */

/* Forgets *PATH (frees it) unless it names a regular file. */
static void drop_if_missing(char **path)
{
	struct stat st;
	if (*path && (stat(*path, &st) != 0 || !S_ISREG(st.st_mode))) {
		free(*path);
		*path = NULL;
	}
}

static jp_status add_case(ci_caselist *l, ci_kind kind, const char *name,
			  uint32_t root, jp_err *err)
{
	/* Overlapping paths ("corpus corpus/pairs") name a case twice; it is
	 * checked and reported once, under the first path. */
	l->found++;
	for (uint32_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return JP_OK;
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 16;
		ci_case *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return jp_fail(err, JP_ENOMEM, "out of memory");
		l->v = v;
		l->cap = cap;
	}
	ci_case *c = &l->v[l->n];
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->root = root;
	c->name = dup_str(name);
	bool ok = c->name != NULL;
	if (kind == CI_PAIR) {
		c->orig = join_path(name, "orig.trace");
		c->opt = join_path(name, "opt.trace");
		c->expect = join_path(name, "expect");
		ok = ok && c->orig && c->opt && c->expect;
	} else {
		size_t n = strlen(name) - strlen(".trace");
		c->orig = dup_str(name);
		c->expect = malloc(n + sizeof ".expect");
		if (c->expect) {
			memcpy(c->expect, name, n);
			memcpy(c->expect + n, ".expect", sizeof ".expect");
		}
		ok = ok && c->orig && c->expect;
	}
	if (kind == CI_PAIR) {
		c->options = join_path(name, "options");
		ok = ok && c->options;
	}
	drop_if_missing(&c->expect);
	drop_if_missing(&c->options);
	l->n++;
	return ok ? JP_OK : jp_fail(err, JP_ENOMEM, "out of memory");
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The entries of DIR (without "." names), sorted. */
static jp_status list_dir(const char *dir, char ***out, size_t *count,
			  jp_err *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return jp_fail(err, JP_EIO, "cannot read directory '%s': %s",
			       dir, strerror(errno));
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	jp_status st = JP_OK;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			char **v = realloc(names, cap * sizeof *v);
			if (!v) {
				st = jp_fail(err, JP_ENOMEM, "out of memory");
				break;
			}
			names = v;
		}
		if (!(names[n] = dup_str(e->d_name))) {
			st = jp_fail(err, JP_ENOMEM, "out of memory");
			break;
		}
		n++;
	}
	closedir(d);
	if (st) {
		free_names(names, n);
		return st;
	}
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	*out = names;
	*count = n;
	return JP_OK;
}

static bool is_regular(const char *dir, const char *name)
{
	char *p = join_path(dir, name);
	struct stat st;
	bool ok = p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

static jp_status walk(const char *dir, uint32_t root, int depth, ci_caselist *l,
		      jp_err *err)
{
	if (depth > CI_MAX_DEPTH)
		return jp_fail(err, JP_EINPUT,
			       "directories nested more than %d deep under "
			       "'%s' (a symbolic link loop?)",
			       CI_MAX_DEPTH, dir);
	char **names = NULL;
	size_t n = 0;
	jp_status st = list_dir(dir, &names, &n, err);
	if (st)
		return st;
	bool pair =
	    is_regular(dir, "orig.trace") && is_regular(dir, "opt.trace");
	if (pair)
		st = add_case(l, CI_PAIR, dir, root, err);
	for (size_t i = 0; i < n && !st; i++) {
		char *p = join_path(dir, names[i]);
		struct stat sb;
		if (!p) {
			st = jp_fail(err, JP_ENOMEM, "out of memory");
		} else if (stat(p, &sb) != 0) {
			/* A dangling link: nothing to check. */
		} else if (S_ISDIR(sb.st_mode)) {
			st = walk(p, root, depth + 1, l, err);
		} else if (S_ISREG(sb.st_mode) && !pair &&
			   ends_with(names[i], ".trace")) {
			st = add_case(l, CI_SINGLE, p, root, err);
		}
		free(p);
	}
	free_names(names, n);
	return st;
}

jp_status ci_discover(const char *path, uint32_t root, ci_caselist *l,
		      jp_err *err)
{
	char *p = dup_str(path);
	if (!p)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	/* "dir/" and "dir" name the same cases. */
	for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
		p[n - 1] = '\0';
	struct stat st;
	jp_status s;
	if (stat(p, &st) != 0)
		s = jp_fail(err, JP_EIO, "cannot read '%s': %s", path,
			    strerror(errno));
	else if (S_ISDIR(st.st_mode))
		s = walk(p, root, 0, l, err);
	else if (S_ISREG(st.st_mode) && ends_with(p, ".trace"))
		s = add_case(l, CI_SINGLE, p, root, err);
	else
		s = jp_fail(err, JP_EINPUT,
			    "expected a directory or a .trace file, found '%s'",
			    path);
	free(p);
	return s;
}

void ci_caselist_free(ci_caselist *l)
{
	for (uint32_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].orig);
		free(l->v[i].opt);
		free(l->v[i].expect);
		free(l->v[i].options);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* ---- checking one case ------------------------------------------------ */

void ci_result_free(ci_result *r)
{
	free(r->message);
	free(r->what);
	free(r->cex);
	free(r->json);
	free(r->loc_file);
	free(r->warning);
	memset(r, 0, sizeof *r);
}

static void set_error(ci_result *r, const jp_err *e)
{
	char buf[1200];
	jp_err_format(e, buf, sizeof buf);
	r->got = CI_ERROR;
	free(r->message);
	r->message = dup_str(buf);
	free(r->loc_file);
	r->loc_file = e->file[0] ? dup_str(e->file) : NULL;
	r->loc_line = e->line;
}

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
static jp_status load_expect(const ci_case *c, ci_expect *x, jp_err *err)
{
	expect_init(x);
	jp_status st = JP_OK;
	if (c->options)
		st = load_file_into(c->options, c->kind, true, x, err);
	if (!st && c->expect)
		st = load_file_into(c->expect, c->kind, false, x, err);
	return st;
}

/* The op of T that is the guard labelled LABEL, or UINT32_MAX. */
static uint32_t find_guard(const ir_trace *t, const char *label, size_t n)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const char *g = ir_guard_label(t, i);
		if (ir_op_has(t->ops[i].opc, IRF_GUARD) && strlen(g) == n &&
		    !memcmp(g, label, n))
			return i;
	}
	return UINT32_MAX;
}

/* The guard label in an obligation description "... guard LABEL (...)". */
static bool label_of(const char *what, const char **label, size_t *n)
{
	const char *g = strstr(what, "guard ");
	if (!g)
		return false;
	g += strlen("guard ");
	const char *e = g;
	while (*e && *e != ' ')
		e++;
	*label = g;
	*n = (size_t)(e - g);
	return *n > 0;
}

/* Where a refutation shows: the op of the optimized trace that the
 * failing obligation is about (the guard, or the end op for outputs and
 * ends).  A guard that only the original has (removed, or an obligation
 * about an original guard in trace or inferred mode) is shown in the
 * original trace.  A single case's optimized trace exists only in memory,
 * so its ops are shown at the original ops they come from (same label;
 * the end op for the end). */
static void locate(const ci_case *c, const ir_trace *orig, const ir_trace *opt,
		   ver_mode used, const char *what, ci_result *r)
{
	bool single = c->kind == CI_SINGLE;
	const char *opt_file = single ? c->orig : c->opt;
	const ir_trace *opt_side_trace = single ? orig : opt;
	const char *file = opt_file, *label;
	const ir_trace *t = opt_side_trace;
	uint32_t op = UINT32_MAX;
	size_t n;
	if (what && label_of(what, &label, &n)) {
		/* Whose label it is: obl_describe names optimized-only guards
		 * "optimized guard L" or "guard L (new in ...)", original-only
		 * ones "original guard L"; plain "guard L" is the original's
		 * label, which aligned mode gives the optimized guard too. */
		bool opt_label = !strncmp(what, "optimized ", 10) ||
				 strstr(what, "(new in") != NULL;
		bool orig_label = !strncmp(what, "original ", 9);
		if (!orig_label && (opt_label || used == VER_MODE_ALIGNED))
			op = find_guard(opt_side_trace, label, n);
		if (op == UINT32_MAX && !opt_label) {
			file = c->orig;
			t = orig;
			op = find_guard(orig, label, n);
		}
	}
	if (op == UINT32_MAX) {
		file = opt_file;
		t = opt_side_trace;
		op = t->nops ? t->nops - 1 : UINT32_MAX;
	}
	int line = op == UINT32_MAX ? 0 : t->ops[op].line;
	free(r->loc_file);
	r->loc_file = dup_str(file);
	r->loc_line = line > 0 ? line : 1;
}

static ci_status classify(ci_verdict got, ci_verdict expected)
{
	if (got == expected)
		return CI_ST_PASS;
	if (got == CI_ERROR)
		return CI_ST_ERROR;
	if (got == CI_UNKNOWN)
		return CI_ST_UNKNOWN;
	return CI_ST_FAIL;
}

static ci_verdict from_ver(ver_verdict v)
{
	switch (v) {
	case VER_PROVED: return CI_PROVED;
	case VER_REFUTED: return CI_COUNTEREXAMPLE;
	case VER_UNKNOWN: return CI_UNKNOWN;
	}
	return CI_ERROR;
}

/* Runs the verifier on the pair and fills R; stores definite verdicts in
 * the cache under KEY (may be NULL).
 *
 * Every case gets a fresh verifier context.  Reusing one across cases
 * would be a little faster, but Z3's term order (and with it what its
 * rewriter settles without a solver call) depends on every term the
 * context has seen; a case's result would then depend on which cases the
 * same process checked before it, and --jobs 2 would report different
 * statistics than --jobs 1.  It also means a run served entirely from the
 * cache never starts Z3. */
static jp_status verify_pair(const ir_trace *orig, const ir_trace *opt,
			     const ver_opts *vo, pc_cache *cache,
			     const char *key, ver_mode *used, ci_result *r,
			     jp_err *err)
{
	ver_ctx *vc = ver_ctx_new(err);
	if (!vc)
		return err ? err->status : JP_EINTERNAL;
	ver_result vr;
	jp_status st = ver_check(vc, orig, opt, vo, &vr, err);
	ver_ctx_free(vc);
	if (st)
		return st;
	r->got = from_ver(vr.verdict);
	r->solver_calls = vr.solver_calls;
	*used = vr.mode_used;
	if (vr.failed >= 0 && (uint32_t)vr.failed < vr.nobl &&
	    vr.verdict == VER_REFUTED)
		r->what = dup_str(vr.obl[vr.failed].what);
	else if (vr.verdict == VER_UNKNOWN && vr.reason)
		r->what = dup_str(vr.reason);
	if (vr.verdict == VER_REFUTED && vr.cex_text)
		r->cex = dup_str(vr.cex_text);
	strbuf sb;
	sb_init(&sb);
	ver_result_json(&vr, &sb);
	r->json = sb_detach(&sb);
	if (cache && key && vr.verdict != VER_UNKNOWN) {
		pc_entry e = {vr.verdict, vr.mode_used, r->what, r->cex,
			      r->json};
		jp_err ce;
		if (pc_store(cache, key, &e, &ce)) {
			char buf[1200];
			jp_err_format(&ce, buf, sizeof buf);
			r->warning = dup_str(buf);
		}
	}
	ver_result_free(&vr);
	return JP_OK;
}

static void from_cache(pc_entry *e, ci_result *r, ver_mode *used)
{
	r->got = from_ver(e->verdict);
	*used = e->mode_used;
	r->what = e->what;
	r->cex = e->cex;
	r->json = e->json;
	e->what = e->cex = e->json = NULL;
}

/* Reads and, for single cases, optimizes the traces of C. */
/* Example inputs from '# args:' comments, screened by the verifier before
 * anything else (as `jitprove check` does), so that a case reports the
 * same counterexample there and here. */
typedef struct examples {
	uint64_t *v; /* nvec vectors of ninputs values */
	uint32_t nvec;
} examples;

/* One integer literal: optional sign, decimal or 0x hex; canonical at
 * WIDTH. */
static bool parse_literal(const char *s, size_t n, int width, uint64_t *out)
{
	bool neg = n > 0 && s[0] == '-';
	size_t i = (n > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
	unsigned base = 10;
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i >= n)
		return false;
	uint64_t v = 0;
	for (; i < n; i++) {
		unsigned d;
		char c = s[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = sem_mask(width, neg ? 0 - v : v);
	return true;
}

/* Appends the vectors of LIST ("1, -2; 3, 0x4"): NINPUTS values each. */
static bool add_examples(const char *list, int width, uint32_t ninputs,
			 examples *ex)
{
	const char *p = list;
	for (;;) {
		const char *semi = strchr(p, ';');
		const char *end = semi ? semi : p + strlen(p);
		uint64_t *v =
		    realloc(ex->v, ((size_t)ex->nvec + 1) *
				       (ninputs ? ninputs : 1) * sizeof *v);
		if (!v)
			return false;
		ex->v = v;
		uint64_t *row = v + (size_t)ex->nvec * ninputs;
		uint32_t k = 0;
		const char *q = p;
		while (q < end) {
			const char *comma = memchr(q, ',', (size_t)(end - q));
			const char *we = comma ? comma : end;
			while (q < we && (*q == ' ' || *q == '\t'))
				q++;
			const char *e = we;
			while (e > q &&
			       (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			if (k >= ninputs ||
			    !parse_literal(q, (size_t)(e - q), width, &row[k]))
				return false;
			k++;
			q = comma ? comma + 1 : end;
		}
		if (k != ninputs)
			return false;
		ex->nvec++;
		if (!semi)
			return true;
		p = semi + 1;
	}
}

/* Parses PATH and adds the example vectors of its '# args:' comment. */
static jp_status parse_trace(const char *path, const ir_parse_opts *base,
			     ir_trace **t, examples *ex, jp_err *err)
{
	char *text;
	size_t len;
	jp_status st = ir_read_file(path, &text, &len, err);
	if (st)
		return st;
	ir_parse_opts po = *base;
	po.file = path;
	st = ir_parse(text, len, &po, t, err);
	char list[1024];
	if (!st && ir_args_comment(text, len, list, sizeof list) &&
	    !add_examples(list, (*t)->width, (*t)->ninputs, ex))
		st = jp_fail_at(err, JP_EINPUT, path, 0, 0,
				"bad '# args:' comment: expected %u "
				"comma-separated integers per vector (';' "
				"between vectors), found '%s'",
				(*t)->ninputs, list);
	free(text);
	return st;
}

/* Reads and, for single cases, optimizes the traces of C. */
static jp_status load_traces(const ci_case *c, const ci_expect *x,
			     ir_trace **orig, ir_trace **opt, examples *ex,
			     jp_err *err)
{
	ir_parse_opts po = {.width = x->width, .opaque = x->opaque};
	*orig = *opt = NULL;
	jp_status st = parse_trace(c->orig, &po, orig, ex, err);
	if (st)
		return st;
	if (c->kind == CI_PAIR) {
		/* The optimized trace's examples only help when it has the
		 * same inputs; the verifier rejects the pair otherwise. */
		examples pex = {NULL, 0};
		st = parse_trace(c->opt, &po, opt, &pex, err);
		if (!st && (*opt)->ninputs == (*orig)->ninputs && pex.nvec) {
			uint32_t w = (*orig)->ninputs;
			uint64_t *v =
			    realloc(ex->v, ((size_t)ex->nvec + pex.nvec) *
					       (w ? w : 1) * sizeof *v);
			if (v) {
				memcpy(v + (size_t)ex->nvec * w, pex.v,
				       (size_t)pex.nvec * w * sizeof *v);
				ex->v = v;
				ex->nvec += pex.nvec;
			}
		}
		free(pex.v);
		return st;
	}
	opt_config oc = opt_default_config();
	oc.bugs = x->bugs;
	if (x->has_passes)
		oc.passes = x->passes;
	jp_err oe;
	st = opt_run(*orig, &oc, opt, NULL, &oe);
	if (st)
		return jp_fail_at(err, st, c->orig, 0, 0,
				  "the optimizer failed: %s", oe.msg);
	return JP_OK;
}

/* The verifier names the traces "original" and "optimized" in its
 * messages; in a corpus the files are more useful.  A single case's
 * optimized trace is not a file: the message is about the trace file it
 * came from, without a line (the built trace has none). */
static void name_sides(const ci_case *c, jp_err *e)
{
	if (!strcmp(e->file, "original")) {
		snprintf(e->file, sizeof e->file, "%s", c->orig);
	} else if (!strcmp(e->file, "optimized") && c->opt) {
		snprintf(e->file, sizeof e->file, "%s", c->opt);
	} else if (!strcmp(e->file, "optimized")) {
		strbuf sb;
		sb_init(&sb);
		sb_printf(&sb, "in the optimized trace: %s", e->msg);
		if (!sb.oom) {
			size_t n =
			    sb.len < sizeof e->msg ? sb.len : sizeof e->msg - 1;
			memcpy(e->msg, sb.buf, n);
			e->msg[n] = '\0';
		}
		sb_release(&sb);
		snprintf(e->file, sizeof e->file, "%s", c->orig);
		e->line = e->col = 0;
	}
}

static void check_case(const ci_case *c, const ci_config *cfg, ci_result *r)
{
	double t0 = clk_now_ms();
	memset(r, 0, sizeof *r);
	ci_expect x;
	jp_err err;
	ir_trace *orig = NULL, *opt = NULL;
	jp_status st = load_expect(c, &x, &err);
	r->expected = x.verdict;
	examples ex = {NULL, 0};
	if (!st)
		st = load_traces(c, &x, &orig, &opt, &ex, &err);
	if (!st) {
		ver_opts vo = cfg->vopts;
		vo.width = 0;
		if (x.has_mode)
			vo.mode = x.mode;
		if (x.failargs)
			vo.failargs = true;
		if (x.has_rlimit)
			vo.rlimit = x.rlimit;
		if (x.has_timeout)
			vo.timeout_ms = x.timeout_ms;
		ci_prefer_rlimit(&vo);
		vo.examples = ex.v;
		vo.nexamples = ex.nvec;
		pc_params pp = {orig->width, vo.mode, vo.failargs};
		char key[HASH_HEX_SIZE];
		bool keyed = cfg->cache && !pc_key(orig, opt, &pp, key, NULL);
		pc_entry e;
		ver_mode used = vo.mode;
		if (keyed && pc_lookup(cfg->cache, key, &e)) {
			r->cache = CI_CACHE_HIT;
			from_cache(&e, r, &used);
		} else {
			r->cache = cfg->cache ? CI_CACHE_MISS : CI_CACHE_OFF;
			st = verify_pair(orig, opt, &vo, cfg->cache,
					 keyed ? key : NULL, &used, r, &err);
			if (st)
				name_sides(c, &err);
		}
		if (!st && r->got == CI_COUNTEREXAMPLE)
			locate(c, orig, opt, used, r->what, r);
	}
	if (st)
		set_error(r, &err);
	r->status = classify(r->got, r->expected);
	ir_trace_free(orig);
	ir_trace_free(opt);
	free(ex.v);
	r->ms = clk_now_ms() - t0;
}

/* ---- results over pipes ----------------------------------------------- */

/* A result travels as: u32 payload length, then u32 fields, the time as
 * raw double bytes (same machine, same process image), and strings as u32
 * length (UINT32_MAX for NULL) plus bytes. */

static void put_u32(strbuf *sb, uint32_t x)
{
	sb_add(sb, (const char *)&x, sizeof x);
}

static void put_str(strbuf *sb, const char *s)
{
	if (!s) {
		put_u32(sb, UINT32_MAX);
		return;
	}
	uint32_t n = (uint32_t)strlen(s);
	put_u32(sb, n);
	sb_add(sb, s, n);
}

static void encode_result(const ci_result *r, strbuf *sb)
{
	put_u32(sb, 0); /* length, patched below */
	put_u32(sb, (uint32_t)r->got);
	put_u32(sb, (uint32_t)r->expected);
	put_u32(sb, (uint32_t)r->status);
	put_u32(sb, (uint32_t)r->cache);
	put_u32(sb, r->solver_calls);
	put_u32(sb, (uint32_t)r->loc_line);
	sb_add(sb, (const char *)&r->ms, sizeof r->ms);
	put_str(sb, r->message);
	put_str(sb, r->what);
	put_str(sb, r->cex);
	put_str(sb, r->json);
	put_str(sb, r->loc_file);
	put_str(sb, r->warning);
	if (!sb->oom) {
		uint32_t n = (uint32_t)(sb->len - sizeof n);
		memcpy(sb->buf, &n, sizeof n);
	}
}

typedef struct decoder {
	const char *p, *end;
	bool bad;
} decoder;

static uint32_t get_u32(decoder *d)
{
	uint32_t x = 0;
	if ((size_t)(d->end - d->p) < sizeof x) {
		d->bad = true;
		return 0;
	}
	memcpy(&x, d->p, sizeof x);
	d->p += sizeof x;
	return x;
}

static char *get_str(decoder *d)
{
	uint32_t n = get_u32(d);
	if (d->bad || n == UINT32_MAX)
		return NULL;
	if ((size_t)(d->end - d->p) < n) {
		d->bad = true;
		return NULL;
	}
	char *s = malloc((size_t)n + 1);
	if (!s) {
		d->bad = true;
		return NULL;
	}
	memcpy(s, d->p, n);
	s[n] = '\0';
	d->p += n;
	return s;
}

static bool decode_result(const char *buf, size_t len, ci_result *r)
{
	decoder d = {buf, buf + len, false};
	memset(r, 0, sizeof *r);
	r->got = (ci_verdict)get_u32(&d);
	r->expected = (ci_verdict)get_u32(&d);
	r->status = (ci_status)get_u32(&d);
	r->cache = (ci_cache_use)get_u32(&d);
	r->solver_calls = get_u32(&d);
	r->loc_line = (int)get_u32(&d);
	if ((size_t)(d.end - d.p) < sizeof r->ms)
		d.bad = true;
	else
		memcpy(&r->ms, d.p, sizeof r->ms);
	d.p += d.bad ? 0 : sizeof r->ms;
	r->message = get_str(&d);
	r->what = get_str(&d);
	r->cex = get_str(&d);
	r->json = get_str(&d);
	r->loc_file = get_str(&d);
	r->warning = get_str(&d);
	if (d.bad || d.p != d.end) {
		ci_result_free(r);
		return false;
	}
	return true;
}

/* ---- the worker pool -------------------------------------------------- */

typedef struct pool_worker {
	pid_t pid;
	int task_fd;	 /* parent writes case indices */
	int result_fd;	 /* parent reads results */
	int32_t busy_on; /* the case being checked, or -1 */
} pool_worker;

/* The worker's loop: read a case index, check it, send the result; leave
 * at end of file.  Runs in the child; never returns. */
static void worker_main(int task_fd, int result_fd, const ci_caselist *l,
			const ci_config *cfg)
{
	uint32_t idx;
	int code = 0;
	while (fd_read_all(task_fd, &idx, sizeof idx)) {
		ci_result r;
		if (idx >= l->n) {
			code = 3;
			break;
		}
		check_case(&l->v[idx], cfg, &r);
		strbuf sb;
		sb_init(&sb);
		encode_result(&r, &sb);
		ci_result_free(&r);
		bool ok = !sb.oom && fd_write_all(result_fd, sb.buf, sb.len);
		sb_release(&sb);
		if (!ok) {
			code = 4;
			break;
		}
	}
	_exit(code);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static jp_status start_workers(pool_worker *ws, unsigned n,
			       const ci_caselist *l, const ci_config *cfg,
			       jp_err *err)
{
	for (unsigned i = 0; i < n; i++) {
		int task[2], res[2];
		if (pipe(task))
			return jp_fail(err, JP_EINTERNAL, "pipe: %s",
				       strerror(errno));
		if (pipe(res)) {
			close(task[0]);
			close(task[1]);
			return jp_fail(err, JP_EINTERNAL, "pipe: %s",
				       strerror(errno));
		}
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0) {
			close(task[0]);
			close(task[1]);
			close(res[0]);
			close(res[1]);
			return jp_fail(err, JP_EINTERNAL, "fork: %s",
				       strerror(errno));
		}
		if (pid == 0) {
			/* The child keeps only its own two ends. */
			for (unsigned j = 0; j < i; j++) {
				close_fd(&ws[j].task_fd);
				close_fd(&ws[j].result_fd);
			}
			close(task[1]);
			close(res[0]);
			worker_main(task[0], res[1], l, cfg);
		}
		close(task[0]);
		close(res[1]);
		ws[i].pid = pid;
		ws[i].task_fd = task[1];
		ws[i].result_fd = res[0];
		ws[i].busy_on = -1;
	}
	return JP_OK;
}

/* Gives worker W the next case, or tells it to leave. */
static void assign(pool_worker *w, uint32_t *next, uint32_t n)
{
	if (*next >= n) {
		close_fd(&w->task_fd);
		return;
	}
	uint32_t idx = (*next)++;
	if (fd_write_all(w->task_fd, &idx, sizeof idx))
		w->busy_on = (int32_t)idx;
	else
		close_fd(&w->task_fd);
}

/* A worker died while checking a case: the case becomes an error. */
static void worker_lost(pool_worker *w, ci_result *out, bool *done)
{
	int status = 0;
	if (w->pid > 0 && waitpid(w->pid, &status, 0) == w->pid)
		w->pid = -1;
	if (w->busy_on >= 0) {
		ci_result *r = &out[w->busy_on];
		memset(r, 0, sizeof *r);
		char buf[200];
		if (WIFSIGNALED(status))
			snprintf(buf, sizeof buf,
				 "error: the worker checking this case was "
				 "killed by signal %d",
				 WTERMSIG(status));
		else
			snprintf(buf, sizeof buf,
				 "error: the worker checking this case exited "
				 "with status %d",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		r->got = CI_ERROR;
		r->expected = CI_PROVED;
		r->status = CI_ST_ERROR;
		r->message = dup_str(buf);
		done[w->busy_on] = true;
		w->busy_on = -1;
	}
	close_fd(&w->result_fd);
	close_fd(&w->task_fd);
}

/* Reads one result from W into OUT and hands W its next case. */
static void collect(pool_worker *w, ci_result *out, bool *done, uint32_t *next,
		    uint32_t n)
{
	uint32_t len;
	if (!fd_read_all(w->result_fd, &len, sizeof len) || w->busy_on < 0) {
		worker_lost(w, out, done);
		return;
	}
	char *buf = malloc(len ? len : 1);
	bool ok = buf && fd_read_all(w->result_fd, buf, len) &&
		  decode_result(buf, len, &out[w->busy_on]);
	free(buf);
	if (!ok) {
		worker_lost(w, out, done);
		return;
	}
	done[w->busy_on] = true;
	w->busy_on = -1;
	assign(w, next, n);
}

static jp_status run_pool(const ci_caselist *l, const ci_config *cfg,
			  ci_result *out, jp_err *err)
{
	unsigned n = cfg->jobs < l->n ? cfg->jobs : l->n;
	pool_worker *ws = calloc(n, sizeof *ws);
	bool *done = calloc(l->n, sizeof *done);
	struct pollfd *pf = calloc(n, sizeof *pf);
	if (!ws || !done || !pf) {
		free(ws);
		free(done);
		free(pf);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < n; i++) {
		ws[i].pid = -1;
		ws[i].task_fd = ws[i].result_fd = -1;
	}
	/* A worker that dies must not kill the parent with SIGPIPE. */
	struct sigaction ign = {0}, old;
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	jp_status st = start_workers(ws, n, l, cfg, err);
	uint32_t next = 0;
	for (unsigned i = 0; i < n && !st; i++)
		assign(&ws[i], &next, l->n);
	for (;;) {
		unsigned np = 0;
		for (unsigned i = 0; i < n; i++)
			if (ws[i].result_fd >= 0 && ws[i].busy_on >= 0) {
				pf[np].fd = ws[i].result_fd;
				pf[np].events = POLLIN;
				pf[np].revents = 0;
				np++;
			}
		if (np == 0)
			break;
		if (poll(pf, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			st = jp_fail(err, JP_EINTERNAL, "poll: %s",
				     strerror(errno));
			break;
		}
		for (unsigned k = 0; k < np; k++) {
			if (!pf[k].revents)
				continue;
			for (unsigned i = 0; i < n; i++)
				if (ws[i].result_fd == pf[k].fd)
					collect(&ws[i], out, done, &next, l->n);
		}
	}
	for (unsigned i = 0; i < n; i++) {
		close_fd(&ws[i].task_fd);
		close_fd(&ws[i].result_fd);
		if (ws[i].pid > 0)
			waitpid(ws[i].pid, NULL, 0);
	}
	sigaction(SIGPIPE, &old, NULL);
	/* Cases no worker got to (the pool could not start) are errors. */
	for (uint32_t i = 0; i < l->n; i++)
		if (!done[i]) {
			memset(&out[i], 0, sizeof out[i]);
			out[i].got = CI_ERROR;
			out[i].status = CI_ST_ERROR;
			out[i].message =
			    dup_str("error: no worker process checked this "
				    "case");
		}
	free(ws);
	free(done);
	free(pf);
	return st;
}

jp_status ci_run(const ci_caselist *l, const ci_config *cfg, ci_result *out,
		 jp_err *err)
{
	if (l->n == 0)
		return JP_OK;
	if (cfg->jobs > 1 && l->n > 1)
		return run_pool(l, cfg, out, err);
	for (uint32_t i = 0; i < l->n; i++)
		check_case(&l->v[i], cfg, &out[i]);
	return JP_OK;
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
	f->outdir = dup_str(fo->outdir);
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
		f->error = dup_str(buf);
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
