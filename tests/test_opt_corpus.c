/*
 * test_opt_corpus.c - the optimizer on every trace of corpus/.
 *
 * Every *.trace below corpus/ (original and optimized traces alike) is
 * optimized with all passes; the output must run in the interpreter with
 * the same outcome and outputs as the input on the trace's example
 * arguments (a comment line "# args: 1, 2, 3"), and on edge and random
 * inputs.  A directory may hold an `options` file; its "--width N" is the
 * width the traces there are read at.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "test_opt_util.h"

static int n_traces, n_with_args;

static int width_of_dir(const char *dir)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/options", dir);
	char *text = NULL;
	size_t len;
	jp_err err;
	int w = 64;
	if (ir_read_file(path, &text, &len, &err))
		return w;
	const char *p = strstr(text, "--width");
	if (p) {
		p += strlen("--width");
		while (*p == ' ' || *p == '=')
			p++;
		w = atoi(p);
	}
	free(text);
	return w == 8 || w == 16 || w == 32 ? w : 64;
}

/* Parses "1, -2, 0x10" into canonical values; false when malformed. */
static bool parse_args(const char *s, int w, uint64_t *vals, uint32_t max,
		       uint32_t *n)
{
	*n = 0;
	while (*s) {
		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 0);
		if (end == s || *n >= max)
			return false;
		if (errno == ERANGE)
			v = (long long)strtoull(s, &end, 0);
		vals[(*n)++] = sem_mask(w, (uint64_t)v);
		s = end;
	}
	return true;
}

static void check_file(const char *path, int w)
{
	char *text = NULL;
	size_t len;
	jp_err err;
	if (ir_read_file(path, &text, &len, &err)) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		CHECK(false);
		return;
	}
	ir_parse_opts po = {.width = w, .opaque = true, .file = path};
	ir_trace *t = NULL;
	if (ir_parse(text, len, &po, &t, &err)) {
		/* Not every file is meant to parse at every width; the corpus
		 * is the other tools' business, so only note it. */
		fprintf(stderr, "note: %s does not parse: %s\n", path, err.msg);
		free(text);
		return;
	}
	n_traces++;
	opt_stats st;
	ir_trace *o = tu_opt(t, NULL, NULL, &st);
	if (!o)
		fprintf(stderr, "%s: the optimizer failed\n", path);
	CHECK(o != NULL);
	char args[1024];
	uint64_t vals[64];
	uint32_t n = 0;
	if (o && ir_args_comment(text, len, args, sizeof args) &&
	    parse_args(args, w, vals, 64, &n) && n == t->ninputs) {
		n_with_args++;
		tu_fix_refs(t, vals);
		int same = tu_same_on(t, o, vals);
		if (same != 1)
			fprintf(stderr, "%s: differs on its example args %s\n",
				path, args);
		CHECK(same == 1);
	}
	uint64_t wit[64];
	if (o && t->ninputs <= 64) {
		bool div = tu_find_divergence(t, o, wit);
		if (div)
			fprintf(stderr, "%s: differs on edge inputs\n", path);
		CHECK(!div);
	}
	ir_trace_free(t);
	ir_trace_free(o);
	free(text);
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	int w = width_of_dir(dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat sb;
		if (stat(path, &sb))
			continue;
		size_t l = strlen(e->d_name);
		if (S_ISDIR(sb.st_mode))
			walk(path);
		else if (l > 6 && !strcmp(e->d_name + l - 6, ".trace"))
			check_file(path, w);
	}
	closedir(d);
}

int main(void)
{
	walk("corpus");
	printf("%d traces, %d with example args\n", n_traces, n_with_args);
	CHECK(n_traces >= 30);
	return check_summary("test_opt_corpus");
}
