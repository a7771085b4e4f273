/*
 * cache.c - the proof cache, see cache.h.
 *
 * Entry file format (text, one entry per file):
 *
 *   jitprove-proof-cache 1
 *   key <64 hex digits>
 *   verdict proved|refuted
 *   mode auto|aligned|trace|inferred
 *   field what|cex|json <byte length>
 *   <that many bytes>
 *   ...
 *   end
 *
 * Fields carry their length so that counterexample reports (several lines,
 * any characters) need no escaping.
 */
#define _POSIX_C_SOURCE 200809L

#include "cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <z3.h>

#include "ir/fdio.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/strbuf.h"

#define PC_MAGIC "jitprove-proof-cache"

static char *dup_str(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);
	if (d)
		memcpy(d, s, n + 1);
	return d;
}

/* mkdir -p: creates DIR and its missing parents. */
static jp_status make_dirs(const char *dir, jp_err *err)
{
	char *p = dup_str(dir);
	if (!p)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	for (char *s = p + 1;; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			jp_status st = jp_fail(err, JP_EIO,
					       "cannot create cache directory "
					       "'%s': %s",
					       p, strerror(errno));
			free(p);
			return st;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return JP_OK;
}

jp_status pc_open(pc_cache *c, const char *dir, pc_mode mode, jp_err *err)
{
	memset(c, 0, sizeof *c);
	c->mode = mode;
	if (!*dir)
		return jp_fail(err, JP_EINPUT, "empty cache directory name");
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return jp_fail(err, JP_EIO,
				       "cache '%s' exists and is not a "
				       "directory",
				       dir);
	} else if (mode == PC_READ_WRITE) {
		jp_status s = make_dirs(dir, err);
		if (s)
			return s;
	}
	c->dir = dup_str(dir);
	if (!c->dir)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	return JP_OK;
}

void pc_close(pc_cache *c)
{
	free(c->dir);
	c->dir = NULL;
}

jp_status pc_parse_mode(const char *s, pc_mode *mode, jp_err *err)
{
	if (!strcmp(s, "read-write")) {
		*mode = PC_READ_WRITE;
		return JP_OK;
	}
	if (!strcmp(s, "read-only")) {
		*mode = PC_READ_ONLY;
		return JP_OK;
	}
	return jp_fail(err, JP_EINPUT,
		       "expected a cache mode 'read-write' or 'read-only', "
		       "found '%s'",
		       s);
}

void pc_solver_version(char *buf, size_t size)
{
	unsigned major, minor, build, rev;
	Z3_get_version(&major, &minor, &build, &rev);
	snprintf(buf, size, "%u.%u.%u.%u", major, minor, build, rev);
}

/* Adds a length-prefixed piece, so that no two different sequences of
 * pieces hash the same text. */
static void key_piece(hash_ctx *h, const char *tag, const char *s, size_t n)
{
	char head[64];
	int k = snprintf(head, sizeof head, "%s:%zu:", tag, n);
	hash_update(h, head, (size_t)k);
	hash_update(h, s, n);
	hash_update(h, "\n", 1);
}

jp_status pc_key(const ir_trace *orig, const ir_trace *opt, const pc_params *p,
		 char key[HASH_HEX_SIZE], jp_err *err)
{
	hash_ctx h;
	hash_init(&h);
	char params[256], solver[64];
	pc_solver_version(solver, sizeof solver);
	int n = snprintf(params, sizeof params,
			 "format=%d encoder=%d z3=%s width=%d mode=%d "
			 "failargs=%d",
			 PC_FORMAT_VERSION, VER_ENCODER_VERSION, solver,
			 p->width, (int)p->mode, p->failargs ? 1 : 0);
	key_piece(&h, "params", params, (size_t)n);
	const ir_trace *side[2] = {orig, opt};
	for (int i = 0; i < 2; i++) {
		strbuf sb;
		sb_init(&sb);
		ir_print(side[i], &sb);
		if (sb.oom) {
			sb_release(&sb);
			return jp_fail(err, JP_ENOMEM, "out of memory");
		}
		key_piece(&h, i ? "opt" : "orig", sb.buf, sb.len);
		sb_release(&sb);
	}
	uint8_t d[HASH_SIZE];
	hash_final(&h, d);
	hash_hex(d, key);
	return JP_OK;
}

void pc_entry_path(const pc_cache *c, const char *key, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%.2s/%s", c->dir, key, key + 2);
}

void pc_entry_free(pc_entry *e)
{
	free(e->what);
	free(e->cex);
	free(e->json);
	memset(e, 0, sizeof *e);
}

static const char *mode_word(ver_mode m)
{
	switch (m) {
	case VER_MODE_AUTO: return "auto";
	case VER_MODE_ALIGNED: return "aligned";
	case VER_MODE_TRACE: return "trace";
	case VER_MODE_INFERRED: return "inferred";
	}
	return "auto";
}

static bool parse_mode_word(const char *s, size_t n, ver_mode *m)
{
	static const ver_mode all[] = {VER_MODE_AUTO, VER_MODE_ALIGNED,
				       VER_MODE_TRACE, VER_MODE_INFERRED};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		const char *w = mode_word(all[i]);
		if (strlen(w) == n && !memcmp(w, s, n)) {
			*m = all[i];
			return true;
		}
	}
	return false;
}

/* A cursor over an entry file's text. */
typedef struct reader {
	const char *p, *end;
} reader;

/* Reads one line (without its newline) into *S, *N. */
static bool read_line(reader *r, const char **s, size_t *n)
{
	const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	if (!nl)
		return false;
	*s = r->p;
	*n = (size_t)(nl - r->p);
	r->p = nl + 1;
	return true;
}

/* Reads a line that must be exactly "WORD VALUE"; VALUE is returned. */
static bool read_keyed(reader *r, const char *word, const char **v, size_t *n)
{
	const char *s;
	size_t len, wl = strlen(word);
	if (!read_line(r, &s, &len) || len <= wl || memcmp(s, word, wl) ||
	    s[wl] != ' ')
		return false;
	*v = s + wl + 1;
	*n = len - wl - 1;
	return true;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* Reads "field NAME LEN\n<LEN bytes>\n" into the matching member of E. */
static bool read_field(reader *r, const char *line, size_t n, pc_entry *e)
{
	char name[16];
	size_t len;
	char buf[64];
	if (n >= sizeof buf)
		return false;
	memcpy(buf, line, n);
	buf[n] = '\0';
	char tail;
	if (sscanf(buf, "field %15s %zu%c", name, &len, &tail) != 2)
		return false;
	if ((size_t)(r->end - r->p) < len + 1 || r->p[len] != '\n')
		return false;
	char **dest = !strcmp(name, "what")   ? &e->what
		      : !strcmp(name, "cex")  ? &e->cex
		      : !strcmp(name, "json") ? &e->json
					      : NULL;
	if (!dest || *dest)
		return false;
	*dest = dup_n(r->p, len);
	r->p += len + 1;
	return *dest != NULL;
}

static bool parse_entry(const char *text, size_t len, const char *key,
			pc_entry *e)
{
	reader r = {text, text + len};
	const char *v;
	size_t n;
	memset(e, 0, sizeof *e);
	char magic[64];
	int m = snprintf(magic, sizeof magic, "%d", PC_FORMAT_VERSION);
	if (!read_keyed(&r, PC_MAGIC, &v, &n) || n != (size_t)m ||
	    memcmp(v, magic, n))
		return false;
	if (!read_keyed(&r, "key", &v, &n) || n != strlen(key) ||
	    memcmp(v, key, n))
		return false;
	if (!read_keyed(&r, "verdict", &v, &n))
		return false;
	if (n == 6 && !memcmp(v, "proved", 6))
		e->verdict = VER_PROVED;
	else if (n == 7 && !memcmp(v, "refuted", 7))
		e->verdict = VER_REFUTED;
	else
		return false;
	if (!read_keyed(&r, "mode", &v, &n) ||
	    !parse_mode_word(v, n, &e->mode_used))
		return false;
	for (;;) {
		const char *s;
		if (!read_line(&r, &s, &n)) {
			pc_entry_free(e);
			return false;
		}
		if (n == 3 && !memcmp(s, "end", 3))
			break;
		if (!read_field(&r, s, n, e)) {
			pc_entry_free(e);
			return false;
		}
	}
	/* A refutation without its obligation cannot be reported. */
	if (e->verdict == VER_REFUTED && !e->what) {
		pc_entry_free(e);
		return false;
	}
	if (r.p != r.end) {
		pc_entry_free(e);
		return false;
	}
	return true;
}

bool pc_lookup(pc_cache *c, const char *key, pc_entry *e)
{
	char path[4096];
	pc_entry_path(c, key, path, sizeof path);
	char *text;
	size_t len;
	if (access(path, F_OK) != 0 || ir_read_file(path, &text, &len, NULL)) {
		c->stats.misses++;
		return false;
	}
	bool ok = parse_entry(text, len, key, e);
	free(text);
	if (!ok) {
		c->stats.bad++;
		c->stats.misses++;
		return false;
	}
	c->stats.hits++;
	return true;
}

static void put_field(strbuf *sb, const char *name, const char *s)
{
	if (!s)
		return;
	sb_printf(sb, "field %s %zu\n", name, strlen(s));
	sb_puts(sb, s);
	sb_putc(sb, '\n');
}

jp_status pc_store(pc_cache *c, const char *key, const pc_entry *e, jp_err *err)
{
	if (c->mode == PC_READ_ONLY ||
	    (e->verdict != VER_PROVED && e->verdict != VER_REFUTED))
		return JP_OK;
	char sub[4096], path[4096];
	snprintf(sub, sizeof sub, "%s/%.2s", c->dir, key);
	if (mkdir(sub, 0777) && errno != EEXIST)
		return jp_fail(err, JP_EIO, "cannot create '%s': %s", sub,
			       strerror(errno));
	pc_entry_path(c, key, path, sizeof path);
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s %d\nkey %s\nverdict %s\nmode %s\n", PC_MAGIC,
		  PC_FORMAT_VERSION, key,
		  e->verdict == VER_PROVED ? "proved" : "refuted",
		  mode_word(e->mode_used));
	put_field(&sb, "what", e->what);
	put_field(&sb, "cex", e->cex);
	put_field(&sb, "json", e->json);
	sb_puts(&sb, "end\n");
	jp_status st = sb.oom ? jp_fail(err, JP_ENOMEM, "out of memory")
			      : fd_write_path(path, sb.buf, sb.len, err);
	sb_release(&sb);
	if (!st)
		c->stats.writes++;
	return st;
}
