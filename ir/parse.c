/*
 * parse.c - reads PyPy's trace syntax and the toy spelling into the IR.
 *
 * The syntax is line based: one statement per line.  The parser works in
 * two steps.  First each line is cut into a small syntax record (the
 * statement's shape, its names and literals, with their columns); then the
 * records are turned into IR, which needs the whole file for the toy
 * spelling (there, whether a value is a reference is only known from its
 * uses).  Finally ir_validate checks the result.  Every error carries the
 * line and column of the offending token.
 */
#include "parse_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pypyops.h"
#include "sem.h"
#include "validate.h"

/* The UTF-8 byte order mark some editors put at the start of a file. */
static size_t bom_len(const char *text, size_t len)
{
	return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

jp_status ir_parse(const char *text, size_t len, const ir_parse_opts *opts,
		   ir_trace **out, jp_err *err)
{
	*out = NULL;
	size_t bom = bom_len(text, len); /* columns count from after it */
	text += bom;
	len -= bom;
	parser ps;
	memset(&ps, 0, sizeof ps);
	ps.file = opts && opts->file ? opts->file : "<input>";
	ps.src = text;
	ps.end = text + len;
	ps.width = opts && opts->width ? opts->width : 64;
	ps.opaque = opts && opts->opaque;
	ps.err = err;
	arena_init(&ps.A);
	if (ps.width != 8 && ps.width != 16 && ps.width != 32 &&
	    ps.width != 64) {
		arena_free(&ps.A);
		return jp_fail(err, JP_EINPUT,
			       "expected width 8, 16, 32 or 64, found %d",
			       ps.width);
	}
	jp_status e = prs_scan(&ps);
	builder b;
	memset(&b, 0, sizeof b);
	b.ps = &ps;
	if (!e) {
		b.t = ir_trace_new(ps.width);
		e = b.t ? prs_build(&b)
			: jp_fail(err, JP_ENOMEM, "out of memory");
	}
	if (!e && b.t->nops == 0)
		e = jp_fail_at(err, JP_EINPUT, ps.file, 1, 1,
			       "expected a trace, found no operations");
	if (!e)
		e = ir_validate(b.t, ps.file, err);
	free(b.names.slots);
	free(b.refnames);
	arena_free(&ps.A);
	if (e) {
		ir_trace_free(b.t);
		return e;
	}
	*out = b.t;
	return JP_OK;
}

jp_status ir_read_file(const char *path, char **text, size_t *len, jp_err *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return jp_fail_at(err, JP_EINPUT, path, 0, 0, "cannot open: %s",
				  strerror(errno));
	struct stat st;
	if (f != stdin && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return jp_fail_at(err, JP_EINPUT, path, 0, 0,
				  "expected a trace file, found a directory");
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	bool bad = ferror(f);
	int e = errno;
	if (f != stdin)
		fclose(f);
	if (!buf)
		return jp_fail(err, JP_ENOMEM, "out of memory reading %s",
			       path);
	if (bad) {
		free(buf);
		return jp_fail_at(err, JP_EIO, path, 0, 0, "read error: %s",
				  strerror(e));
	}
	size_t bom = bom_len(buf, n); /* so '# args:' on line 1 is seen */
	memmove(buf, buf + bom, n - bom);
	n -= bom;
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return JP_OK;
}

jp_status ir_parse_file(const char *path, const ir_parse_opts *opts,
			ir_trace **out, jp_err *err)
{
	char *text;
	size_t len;
	*out = NULL;
	jp_status e = ir_read_file(path, &text, &len, err);
	if (e)
		return e;
	ir_parse_opts o = opts ? *opts : (ir_parse_opts){0};
	if (!o.file)
		o.file = path;
	e = ir_parse(text, len, &o, out, err);
	free(text);
	return e;
}

bool ir_args_comment(const char *text, size_t len, char *buf, size_t size)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q == '#') {
			q++;
			while (q < eol && *q == ' ')
				q++;
			if (eol - q >= 5 && !memcmp(q, "args:", 5)) {
				q += 5;
				size_t k = 0;
				for (; q < eol && k + 1 < size; q++)
					if (*q != ' ' && *q != '\t' &&
					    *q != '\r')
						buf[k++] = *q;
				buf[k] = '\0';
				return true;
			}
		}
		p = eol + 1;
	}
	return false;
}
