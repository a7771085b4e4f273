#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"

static void print_help(const cli_spec *spec)
{
	printf("usage: %s\n\n%s\n", spec->usage, spec->summary);
	if (spec->nopts)
		printf("\noptions:\n");
	for (int i = 0; i < spec->nopts; i++) {
		const cli_opt *o = &spec->opts[i];
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

static bool parse_value(const cli_opt *o, const char *v)
{
	int64_t x;
	switch (o->kind) {
	case CLI_STRING: *(const char **)o->dest = v; return true;
	case CLI_INT:
		if (!cli_parse_i64(v, &x))
			return false;
		*(long *)o->dest = (long)x;
		return true;
	case CLI_UINT64:
		if (!cli_parse_i64(v, &x))
			return false;
		*(uint64_t *)o->dest = (uint64_t)x;
		return true;
	case CLI_WIDTH:
		if (strcmp(v, "8") && strcmp(v, "16") && strcmp(v, "32") &&
		    strcmp(v, "64"))
			return false;
		*(int *)o->dest = atoi(v);
		return true;
	case CLI_FLAG: return false;
	}
	return false;
}

static const char *kind_expect(cli_kind k)
{
	switch (k) {
	case CLI_INT:
	case CLI_UINT64: return "an integer";
	case CLI_WIDTH: return "8, 16, 32 or 64";
	default: return "a value";
	}
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
		if (!parse_value(o, v))
			return cli_usage_error(
			    spec, "option '--%s' expects %s, found '%s'",
			    o->name, kind_expect(o->kind), v);
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
