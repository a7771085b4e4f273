/*
 * gen_id.c - trace identities: the fresh trace of a seed, or a mutation
 * chain (gen.h, "Trace identities"), and their text form
 * "SEED+CUT:SEED...".  Generating from an identity is gen_trace_id
 * (gen.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen.h"

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
