/*
 * corpus.c - the coverage-feedback corpus (corpus.h): features, adding
 * and replacing entries, choosing the next trace, the state-file lines.
 */
#include "fuzz/corpus.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"

/* ---- features ---- */

void cov_init(cov_corpus *c)
{
	memset(c, 0, sizeof *c);
}

static uint32_t bucket(uint32_t n)
{
	return n >= 8 ? 3 : n >= 4 ? 2 : n >= 2 ? 1 : 0;
}

static void set_bit(cov_bits *b, uint32_t i)
{
	b->w[i / 64] |= UINT64_C(1) << (i % 64);
}

static bool has_bit(const cov_bits *b, uint32_t i)
{
	return b->w[i / 64] >> (i % 64) & 1;
}

void cov_features(const uint32_t rule_hits[OPT_RULE_COUNT],
		  const uint32_t branch_hits[OPT_BR_COUNT], cov_bits *out)
{
	memset(out, 0, sizeof *out);
	for (uint32_t r = 0; r < OPT_RULE_COUNT; r++)
		if (rule_hits[r])
			set_bit(out, r * COV_BUCKETS + bucket(rule_hits[r]));
	for (uint32_t k = 0; k < OPT_BR_COUNT; k++)
		if (branch_hits[k])
			set_bit(out, (OPT_RULE_COUNT + k) * COV_BUCKETS +
					 bucket(branch_hits[k]));
}

uint32_t cov_count(const cov_bits *b)
{
	uint32_t n = 0;
	for (int i = 0; i < COV_WORDS; i++)
		n += (uint32_t)__builtin_popcountll(b->w[i]);
	return n;
}

bool cov_is_new(const cov_corpus *c, const cov_bits *b)
{
	for (int i = 0; i < COV_WORDS; i++)
		if (b->w[i] & ~c->covered.w[i])
			return true;
	return false;
}

void cov_note(cov_corpus *c, const cov_bits *b)
{
	for (int i = 0; i < COV_WORDS; i++)
		c->covered.w[i] |= b->w[i];
}

/* ---- entries ---- */

/* Recomputes HAVE, the weights and their total (entries change rarely:
 * only when a trace reaches something new). */
static void reweigh(cov_corpus *c)
{
	memset(c->have, 0, sizeof c->have);
	for (uint32_t i = 0; i < c->n; i++)
		for (uint32_t b = 0; b < COV_NBITS; b++)
			c->have[b] += has_bit(&c->e[i].bits, b);
	c->total = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t w = 0;
		if (c->e[i].id.nmut < GEN_MUT_MAX && c->e[i].body > 0) {
			w = 1;
			for (uint32_t b = 0; b < COV_NBITS; b++)
				if (has_bit(&c->e[i].bits, b))
					w += 64 / c->have[b];
		}
		c->weight[i] = w;
		c->total += w;
	}
}

/* The oldest entry whose every feature another entry has too, or -1. */
static int redundant(const cov_corpus *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		bool alone = false;
		for (uint32_t b = 0; b < COV_NBITS && !alone; b++)
			alone = has_bit(&c->e[i].bits, b) && c->have[b] == 1;
		if (!alone)
			return (int)i;
	}
	return -1;
}

void cov_add(cov_corpus *c, const cov_entry *e)
{
	cov_note(c, &e->bits);
	if (c->n == COV_MAX) {
		int k = redundant(c);
		if (k < 0)
			return;
		/* Entries stay in order of arrival: "oldest" keeps its
		 * meaning. */
		memmove(&c->e[k], &c->e[k + 1],
			(c->n - (uint32_t)k - 1) * sizeof c->e[0]);
		c->n--;
	}
	c->e[c->n++] = *e;
	reweigh(c);
}

/* ---- the next trace ---- */

bool cov_pick(const cov_corpus *c, uint64_t seed, uint32_t pct, gen_id *out)
{
	*out = gen_id_seed(seed);
	if (pct == 0 || c->total == 0)
		return false;
	/* A stream of its own, so the draws here change nothing in the
	 * trace's generation from SEED. */
	rng r;
	rng_seed(&r, rng_derive(seed, UINT64_C(0x636f7670), 0));
	if (!rng_chance(&r, pct, 100))
		return false;
	uint64_t x = rng_below(&r, c->total);
	uint32_t i = 0;
	while (i + 1 < c->n && x >= c->weight[i])
		x -= c->weight[i++];
	const cov_entry *p = &c->e[i];
	uint32_t cut = (uint32_t)rng_below(&r, p->body);
	/* Steps at or past the cut are replaced by this one (the prefix up
	 * to CUT is theirs only when they come before it). */
	*out = p->id;
	while (out->nmut > 0 && out->mut[out->nmut - 1].cut >= cut) {
		out->nmut--;
		memset(&out->mut[out->nmut], 0, sizeof out->mut[0]);
	}
	out->mut[out->nmut].cut = cut;
	out->mut[out->nmut].seed = seed;
	out->nmut++;
	return true;
}

/* ---- state-file lines ---- */

static void put_bits(const cov_bits *b, strbuf *sb)
{
	for (int i = 0; i < COV_WORDS; i++)
		sb_printf(sb, " %llx", (unsigned long long)b->w[i]);
}

void cov_format(const cov_corpus *c, uint32_t stream, strbuf *sb)
{
	sb_printf(sb, "cov_covered %u", stream);
	put_bits(&c->covered, sb);
	sb_putc(sb, '\n');
	for (uint32_t i = 0; i < c->n; i++) {
		sb_printf(sb, "cov_entry %u ", stream);
		gen_format_id(&c->e[i].id, sb);
		sb_printf(sb, " %u", c->e[i].body);
		put_bits(&c->e[i].bits, sb);
		sb_putc(sb, '\n');
	}
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool read_bits(const char *p, cov_bits *b)
{
	for (int i = 0; i < COV_WORDS; i++) {
		p = skip_blank(p);
		if (!isxdigit((unsigned char)*p))
			return false;
		char *e;
		errno = 0;
		unsigned long long v = strtoull(p, &e, 16);
		if (errno)
			return false;
		b->w[i] = v;
		p = e;
	}
	return *skip_blank(p) == '\0';
}

jp_status cov_parse_line(cov_corpus *c, bool entry, const char *rest,
			 jp_err *err)
{
	const char *p = skip_blank(rest);
	if (!entry) {
		if (!read_bits(p, &c->covered))
			return jp_fail(err, JP_EINPUT,
				       "expected %d hexadecimal words of "
				       "covered features, found '%s'",
				       COV_WORDS, p);
		return JP_OK;
	}
	if (c->n == COV_MAX)
		return jp_fail(err, JP_EINPUT,
			       "expected at most %d corpus entries per stream",
			       COV_MAX);
	char idtext[GEN_ID_TEXT + 1];
	size_t n = strcspn(p, " \t");
	if (n == 0 || n > GEN_ID_TEXT)
		goto bad;
	memcpy(idtext, p, n);
	idtext[n] = '\0';
	cov_entry e;
	memset(&e, 0, sizeof e);
	if (gen_parse_id(idtext, &e.id, err))
		return JP_EINPUT;
	p = skip_blank(p + n);
	char *end;
	errno = 0;
	unsigned long body = strtoul(p, &end, 10);
	if (!isdigit((unsigned char)*p) || errno || body > UINT32_MAX ||
	    !read_bits(end, &e.bits))
		goto bad;
	e.body = (uint32_t)body;
	c->e[c->n++] = e;
	reweigh(c);
	return JP_OK;
bad:
	return jp_fail(err, JP_EINPUT,
		       "expected 'ID BODY' and %d hexadecimal words of "
		       "features, found '%s'",
		       COV_WORDS, p);
}
