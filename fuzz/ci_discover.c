/*
 * ci_discover.c - finding the CI gate's cases under a path; see ci.h
 * ("Cases").
 *
 * Sections:
 *   paths          joining, suffixes
 *   the case list  add_case: one case, with its expect and options files
 *   the walk       sorted directory listings, walk, ci_discover,
 *                  ci_caselist_free
 */
#define _POSIX_C_SOURCE 200809L

#include "ci_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Directories nested deeper than this are not walked (symlink loops). */
#define CI_MAX_DEPTH 64

/* ---- paths ------------------------------------------------------------ */

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

/* ---- the case list ---------------------------------------------------- */

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
	c->name = ci_dup_str(name);
	bool ok = c->name != NULL;
	if (kind == CI_PAIR) {
		c->orig = join_path(name, "orig.trace");
		c->opt = join_path(name, "opt.trace");
		c->expect = join_path(name, "expect");
		ok = ok && c->orig && c->opt && c->expect;
	} else {
		size_t n = strlen(name) - strlen(".trace");
		c->orig = ci_dup_str(name);
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

/* ---- the walk --------------------------------------------------------- */

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
		if (!(names[n] = ci_dup_str(e->d_name))) {
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
	char *p = ci_dup_str(path);
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
