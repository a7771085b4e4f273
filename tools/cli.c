#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/parse.h"
#include "ir/sem.h"
#include "passes/opt.h"

static void print_help(const cli_spec *spec)
{
	printf("usage: %s\n\n%s\n", spec->usage, spec->summary);
	if (spec->nopts)
		printf("\noptions:\n");
	for (int i = 0; i < spec->nopts; i++) {
		const cli_opt *o = &spec->opts[i];
		if (o->kind == CLI_INT && o->show_default)
			printf("  --%-18s %s (default %ld)\n", o->name, o->help,
			       *(const long *)o->dest);
		else
			printf("  --%-18s %s\n", o->name, o->help);
	}
	printf("  --%-18s %s\n", "help", "show this help");
}

bool cli_parse_i64(const char *s, int64_t *out)
{
	const char *p = s;
	bool neg = false;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!*p)
		return false;
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!*p)
			return false;
	}
	errno = 0;
	char *end;
	unsigned long long u = strtoull(p, &end, base);
	if (errno || *end || end == p || *p == '-' || *p == '+')
		return false;
	if (base == 10 && !neg && u > (unsigned long long)INT64_MAX)
		*out = (int64_t)u; /* allow full unsigned range, read as bits */
	else
		*out = neg ? (int64_t)(0 - (uint64_t)u) : (int64_t)u;
	return true;
}

/* Checks that PATH can be written before any work is done, so that a
 * typo in a report path does not cost a whole run.  DIR_OK: PATH names a
 * directory to fill (created when missing, one level).  Returns false with
 * WHY set. */
static bool writable_path(const char *path, bool dir_ok, char *why, size_t size)
{
	struct stat sb;
	if (!*path) {
		snprintf(why, size, "expected a path, found an empty string");
		return false;
	}
	if (!dir_ok && !strcmp(path, "-"))
		return true;
	if (stat(path, &sb) == 0) {
		bool isdir = S_ISDIR(sb.st_mode);
		if (isdir != dir_ok && (isdir || S_ISREG(sb.st_mode))) {
			snprintf(why, size, "expected %s, found %s '%s'",
				 dir_ok ? "a directory" : "a file",
				 isdir ? "the directory" : "the file", path);
			return false;
		}
		if (access(path, dir_ok ? W_OK | X_OK : W_OK) != 0) {
			snprintf(why, size, "'%s' is not writable: %s", path,
				 strerror(errno));
			return false;
		}
		return true;
	}
	/* Missing: its directory must exist and take new entries. */
	char parent[2048];
	const char *slash = strrchr(path, '/');
	if (!slash) {
		snprintf(parent, sizeof parent, ".");
	} else {
		size_t n = slash == path ? 1 : (size_t)(slash - path);
		if (n >= sizeof parent) {
			snprintf(why, size, "path too long");
			return false;
		}
		memcpy(parent, path, n);
		parent[n] = 0;
	}
	if (stat(parent, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		snprintf(why, size,
			 "cannot write '%s': expected an existing directory "
			 "'%s', found none",
			 path, parent);
		return false;
	}
	if (access(parent, W_OK | X_OK) != 0) {
		snprintf(why, size,
			 "cannot write '%s': directory '%s' is not writable",
			 path, parent);
		return false;
	}
	return true;
}

/* Stores V into O's destination.  Returns false with WHY set (what was
 * expected, what was found) when V is not a valid value. */
static bool parse_value(const cli_opt *o, const char *v, char *why, size_t size)
{
	int64_t x;
	jp_err err;
	switch (o->kind) {
	case CLI_STRING: *(const char **)o->dest = v; return true;
	case CLI_INT:
		if (!cli_parse_i64(v, &x)) {
			snprintf(why, size, "expects an integer, found '%s'",
				 v);
			return false;
		}
		if (o->lo < o->hi && x < o->lo && o->hi == LONG_MAX) {
			snprintf(why, size,
				 "expects an integer >= %ld, found '%s'", o->lo,
				 v);
			return false;
		}
		if (o->lo < o->hi && (x < o->lo || x > o->hi)) {
			snprintf(why, size,
				 "expects an integer from %ld to %ld, found "
				 "'%s'",
				 o->lo, o->hi, v);
			return false;
		}
		*(long *)o->dest = (long)x;
		return true;
	case CLI_UINT64:
		if (!cli_parse_i64(v, &x)) {
			snprintf(why, size, "expects an integer, found '%s'",
				 v);
			return false;
		}
		*(uint64_t *)o->dest = (uint64_t)x;
		return true;
	case CLI_WIDTH:
		if (strcmp(v, "8") && strcmp(v, "16") && strcmp(v, "32") &&
		    strcmp(v, "64")) {
			snprintf(why, size,
				 "expects 8, 16, 32 or 64, found '%s'", v);
			return false;
		}
		*(int *)o->dest = atoi(v);
		return true;
	case CLI_OUTFILE:
	case CLI_OUTDIR:
		if (!writable_path(v, o->kind == CLI_OUTDIR, why, size))
			return false;
		*(const char **)o->dest = v;
		return true;
	case CLI_BUGS:
	case CLI_PASSES:
		jp_err_clear(&err);
		if ((o->kind == CLI_BUGS ? opt_parse_bugs : opt_parse_passes)(
			v, (uint64_t *)o->dest, &err)) {
			snprintf(why, size, "%s", err.msg);
			return false;
		}
		return true;
	case CLI_FLAG: break;
	}
	snprintf(why, size, "takes no value");
	return false;
}

static const char *kind_expect(cli_kind k)
{
	switch (k) {
	case CLI_INT:
	case CLI_UINT64: return "an integer";
	case CLI_WIDTH: return "8, 16, 32 or 64";
	case CLI_OUTFILE: return "a file name";
	case CLI_OUTDIR: return "a directory";
	case CLI_BUGS: return "a list of bugs";
	case CLI_PASSES: return "a list of passes";
	case CLI_FLAG:
	case CLI_STRING: break;
	}
	return "a value";
}

int cli_parse(const cli_spec *spec, int argc, char **argv, const char **pos,
	      int *npos)
{
	*npos = 0;
	bool only_pos = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (spec->maxpos >= 0 && *npos >= spec->maxpos)
				return cli_usage_error(
				    spec, "unexpected argument '%s'", a);
			pos[(*npos)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			print_help(spec);
			return 0;
		}
		if (a[1] != '-')
			return cli_usage_error(spec, "unknown option '%s'", a);
		const char *name = a + 2;
		const char *eq = strchr(name, '=');
		size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
		const cli_opt *o = NULL;
		for (int k = 0; k < spec->nopts; k++)
			if (strlen(spec->opts[k].name) == nlen &&
			    !strncmp(spec->opts[k].name, name, nlen))
				o = &spec->opts[k];
		if (!o)
			return cli_usage_error(spec, "unknown option '--%.*s'",
					       (int)nlen, name);
		if (o->given)
			*o->given = true;
		if (o->kind == CLI_FLAG) {
			if (eq)
				return cli_usage_error(
				    spec, "option '--%s' takes no value",
				    o->name);
			*(bool *)o->dest = true;
			continue;
		}
		const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!v)
			return cli_usage_error(spec, "option '--%s' needs %s",
					       o->name, kind_expect(o->kind));
		char why[9000];
		if (!parse_value(o, v, why, sizeof why))
			return cli_usage_error(spec, "option '--%s': %s",
					       o->name, why);
	}
	if (*npos < spec->minpos)
		return cli_usage_error(spec, "missing argument");
	return -1;
}

int cli_error(const jp_err *e)
{
	char buf[1200];
	jp_err_format(e, buf, sizeof buf);
	fprintf(stderr, "%s\n", buf);
	return EXIT_USAGE;
}

int cli_usage_error(const cli_spec *spec, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "jitprove: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s\n", spec->usage);
	return EXIT_USAGE;
}

bool cli_parse_int_list(const char *s, int width, uint64_t *vals, int max,
			int *n)
{
	*n = 0;
	if (!*s)
		return true;
	char buf[64];
	while (*s) {
		const char *c = strchr(s, ',');
		size_t len = c ? (size_t)(c - s) : strlen(s);
		if (len == 0 || len >= sizeof buf || *n >= max)
			return false;
		memcpy(buf, s, len);
		buf[len] = '\0';
		int64_t x;
		if (!cli_parse_i64(buf, &x))
			return false;
		vals[(*n)++] = sem_mask(width, (uint64_t)x);
		s += len;
		if (*s == ',')
			s++;
	}
	return true;
}

/* ---- shared option groups ---- */

cli_opt cli_opt_width(int *dest)
{
	return (cli_opt){"width", CLI_WIDTH, dest,
			 "W  integer width: 8, 16, 32 or 64"};
}

cli_opt cli_opt_opaque(bool *dest)
{
	return (cli_opt){"opaque", CLI_FLAG, dest,
			 "read unknown operations as opaque calls"};
}

cli_opt cli_opt_timeout(long *dest)
{
	cli_opt o = {"timeout-ms", CLI_INT, dest,
		     "T  wall-clock limit per solver query in ms, 0 = none"};
	o.lo = 0;
	o.hi = 86400000L;
	o.show_default = true;
	return o;
}

cli_opt cli_opt_pair_budget(long *dest)
{
	cli_opt o = {"pair-budget-ms", CLI_INT, dest,
		     "T  wall-clock budget of one pair in ms, 0 = none; the "
		     "obligations left when it is spent are unknown"};
	o.lo = 0;
	o.hi = 86400000L;
	o.show_default = true;
	return o;
}

cli_opt cli_opt_rlimit(long *dest)
{
	cli_opt o = {"rlimit", CLI_INT, dest,
		     "N  Z3 resource limit per solver query, 0 = none"};
	o.lo = 0;
	o.hi = 4000000000L;
	o.show_default = true;
	return o;
}

cli_opt cli_opt_jobs(long *dest)
{
	cli_opt o = {"jobs", CLI_INT, dest, "J  worker processes, 1 to 256"};
	o.lo = 1;
	o.hi = 256;
	o.show_default = true;
	return o;
}

cli_opt cli_opt_seed(uint64_t *dest, bool *given, const char *help)
{
	cli_opt o = {"seed", CLI_UINT64, dest, help};
	o.given = given;
	return o;
}

cli_opt cli_opt_json(bool *dest)
{
	return (cli_opt){"json", CLI_FLAG, dest,
			 "print the result as one JSON object"};
}

cli_opt cli_opt_report(const char *name, const char **dest, const char *help)
{
	return (cli_opt){name, CLI_OUTFILE, dest, help};
}

cli_opt cli_opt_inject(uint64_t *dest)
{
	return (cli_opt){
	    "inject", CLI_BUGS, dest,
	    "BUGS  inject known optimizer bugs, comma-separated (jitprove "
	    "bugs)"};
}

cli_opt cli_opt_passes(uint64_t *dest)
{
	return (cli_opt){"passes", CLI_PASSES, dest,
			 "LIST  optimizer passes to run, comma-separated "
			 "(default all)"};
}

cli_opt cli_opt_int(const char *name, long *dest, long lo, long hi,
		    const char *help)
{
	cli_opt o = {name, CLI_INT, dest, help};
	o.lo = lo;
	o.hi = hi;
	return o;
}

/* ---- the trace loader and the end of a command ---- */

jp_status cli_load_trace(const char *path, int width, bool opaque, ir_trace **t,
			 char *args, size_t argsize, jp_err *err)
{
	char *text;
	size_t len;
	*t = NULL;
	jp_status st = ir_read_file(path, &text, &len, err);
	if (st)
		return st;
	ir_parse_opts po = {.width = width, .opaque = opaque, .file = path};
	st = ir_parse(text, len, &po, t, err);
	if (args && argsize) {
		args[0] = 0;
		if (!st && !ir_args_comment(text, len, args, argsize))
			args[0] = 0;
	}
	free(text);
	return st;
}

int cli_finish_stdout(int rc)
{
	errno = 0;
	bool bad = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = true;
		e = errno;
	}
	if (!bad)
		return rc;
	fprintf(stderr, "jitprove: error writing standard output: %s\n",
		e ? strerror(e) : "write failed");
	return EXIT_USAGE;
}
