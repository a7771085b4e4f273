/*
 * gen_id.c - the generator's text forms: trace identities (the fresh
 * trace of a seed, or a mutation chain; gen.h, "Trace identities") as
 * "SEED+CUT:SEED...", and traces annotated with their example values.
 * Generating from an identity is gen_trace_id (gen.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen.h"
#include "ir/print.h"

gen_id gen_id_seed(uint64_t seed)
{
	gen_id id;
	memset(&id, 0, sizeof id);
	id.seed = seed;
	return id;
}

void gen_format_id(const gen_id *id, strbuf *sb)
{
	sb_printf(sb, "%llu", (unsigned long long)id->seed);
	for (uint32_t i = 0; i < id->nmut && i < GEN_MUT_MAX; i++)
		sb_printf(sb, "+%u:%llu", id->mut[i].cut,
			  (unsigned long long)id->mut[i].seed);
}

void gen_id_text(const gen_id *id, char *buf)
{
	/* At most 20 digits per seed and 10 per cut: 20 + 4 * 32 bytes. */
	int n =
	    snprintf(buf, GEN_ID_TEXT, "%llu", (unsigned long long)id->seed);
	for (uint32_t i = 0;
	     i < id->nmut && i < GEN_MUT_MAX && n > 0 && n < GEN_ID_TEXT; i++)
		n += snprintf(buf + n, (size_t)(GEN_ID_TEXT - n), "+%u:%llu",
			      id->mut[i].cut,
			      (unsigned long long)id->mut[i].seed);
}

/* Reads one unsigned number (decimal or 0x hexadecimal) at *P. */
static bool id_num(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!(base == 16 ? isxdigit((unsigned char)*s)
			 : isdigit((unsigned char)*s)))
		return false;
	errno = 0;
	char *e;
	unsigned long long u = strtoull(s, &e, base);
	if (errno || u > max)
		return false;
	*v = u;
	*p = e;
	return true;
}

jp_status gen_parse_id(const char *s, gen_id *id, jp_err *err)
{
	*id = gen_id_seed(0);
	const char *p = s;
	uint64_t v, c;
	if (!id_num(&p, UINT64_MAX, &v))
		goto bad;
	id->seed = v;
	while (*p == '+') {
		p++;
		if (id->nmut == GEN_MUT_MAX)
			return jp_fail(err, JP_EINPUT,
				       "trace identity '%s': expected at most "
				       "%d mutation steps",
				       s, GEN_MUT_MAX);
		if (!id_num(&p, UINT32_MAX, &c) || *p++ != ':' ||
		    !id_num(&p, UINT64_MAX, &v))
			goto bad;
		id->mut[id->nmut].cut = (uint32_t)c;
		id->mut[id->nmut++].seed = v;
	}
	if (*p == '\0')
		return JP_OK;
bad:
	return jp_fail(err, JP_EINPUT,
		       "expected a trace identity SEED or SEED+CUT:SEED... "
		       "(unsigned numbers), found '%s'",
		       s);
}

/* ---- annotated printing ---- */

void gen_print_annotated(const ir_trace *t, const gen_example *ex, strbuf *sb)
{
	sb_puts(sb, "# args: ");
	for (uint32_t i = 0; i < ex->ninputs; i++) {
		if (i)
			sb_puts(sb, ", ");
		ir_print_int(t->width, ex->inputs[i], sb);
	}
	sb_putc(sb, '\n');
	/* Print the trace canonically, then append the example value to each
	 * line that is an op with a result.  The printer writes one op per
	 * line, so the k-th op line is found by matching ir_print_op. */
	strbuf all, line;
	sb_init(&all);
	sb_init(&line);
	ir_print(t, &all);
	const char *p = all.buf;
	uint32_t opi = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		sb_add(sb, p, len);
		if (opi < t->nops) {
			sb_reset(&line);
			ir_print_op(t, opi, &line);
			const char *q = p;
			while (q < p + len && (*q == ' ' || *q == '\t'))
				q++;
			if ((size_t)(p + len - q) >= line.len &&
			    !memcmp(q, line.buf, line.len)) {
				ir_vid r = t->ops[opi].result;
				if (r != IR_NOVAL && r < ex->nvals &&
				    t->vals[r].kind == 'i') {
					sb_puts(sb, "  # = ");
					ir_print_int(t->width, ex->vals[r], sb);
				}
				opi++;
			}
		}
		sb_putc(sb, '\n');
		p = nl ? nl + 1 : p + len;
	}
	if (all.oom || line.oom)
		sb->oom = true;
	sb_release(&all);
	sb_release(&line);
}
