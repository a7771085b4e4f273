/*
 * test_corpus.c - coverage feedback (fuzz/corpus.h) and mutated traces
 * (gen.h, "Trace identities"): an identity regenerates its trace byte for
 * byte, keeps its parent's prefix, and the mutated trace runs to its end
 * under its example inputs; the same seeds give the same corpus and the
 * same traces; the corpus survives its state-file lines; a full corpus
 * replaces only redundant entries.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz/corpus.h"
#include "fuzz/gen.h"
#include "ir/interp.h"
#include "ir/print.h"
#include "ir/validate.h"
#include "passes/opt.h"
#include "util/rng.h"

static gen_opts heap_opts(void)
{
	gen_opts o = gen_default_opts();
	o.heap = true;
	return o;
}

/* The annotated text of the trace of ID, or NULL; *BODY its body. */
static char *id_text(gen_ctx *g, const gen_id *id, const gen_opts *o,
		     uint32_t *body)
{
	ir_trace *t;
	gen_example ex;
	if (gen_trace_id(g, id, o, &t, &ex, NULL))
		return NULL;
	if (body)
		*body = ex.body;
	strbuf sb;
	sb_init(&sb);
	gen_print_annotated(t, &ex, &sb);
	ir_trace_free(t);
	return sb_detach(&sb);
}

/* The trace of ID runs to its end on its example inputs, and every
 * integer value is its example value. */
static bool runs_to_end(gen_ctx *g, const gen_id *id, const gen_opts *o)
{
	ir_trace *t;
	gen_example ex;
	if (gen_trace_id(g, id, o, &t, &ex, NULL))
		return false;
	bool ok = ir_validate(t, NULL, NULL) == JP_OK;
	interp_env env;
	memset(&env, 0, sizeof env);
	env.args = ex.inputs;
	env.nargs = ex.ninputs;
	interp_result res;
	if (ok && interp_run(t, &env, &res, NULL) == JP_OK) {
		ok = res.outcome == INTERP_FINISH || res.outcome == INTERP_JUMP;
		for (ir_vid v = 0; ok && v < t->nvals; v++)
			if (t->vals[v].kind == 'i' && res.known[v] &&
			    res.vals[v] != ex.vals[v])
				ok = false;
		interp_result_free(&res);
	} else {
		ok = false;
	}
	ir_trace_free(t);
	return ok;
}

static void test_id_text(void)
{
	gen_id id = gen_id_seed(18446744073709551557u);
	id.nmut = 2;
	id.mut[0].cut = 3;
	id.mut[0].seed = 77;
	id.mut[1].cut = 12;
	id.mut[1].seed = 0xffffffffffffffffu;
	char buf[GEN_ID_TEXT];
	gen_id_text(&id, buf);
	CHECK_STREQ(buf, "18446744073709551557+3:77+12:18446744073709551615");
	gen_id back;
	CHECK(gen_parse_id(buf, &back, NULL) == JP_OK);
	CHECK(back.seed == id.seed && back.nmut == 2 && back.mut[1].cut == 12 &&
	      back.mut[1].seed == id.mut[1].seed);
	CHECK(gen_parse_id("42", &back, NULL) == JP_OK && back.nmut == 0 &&
	      back.seed == 42);
	jp_err err;
	CHECK(gen_parse_id("42+", &back, &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "SEED+CUT:SEED") != NULL);
	CHECK(gen_parse_id("42+1", &back, NULL) == JP_EINPUT);
	CHECK(gen_parse_id("x", &back, NULL) == JP_EINPUT);
	CHECK(gen_parse_id("1+1:1+2:2+3:3+4:4+5:5", &back, &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "at most") != NULL);
	/* The longest identity fits its buffer. */
	for (int i = 0; i < GEN_MUT_MAX; i++) {
		id.mut[i].cut = UINT32_MAX - (uint32_t)(GEN_MUT_MAX - i);
		id.mut[i].seed = UINT64_MAX;
	}
	id.seed = UINT64_MAX;
	id.nmut = GEN_MUT_MAX;
	gen_id_text(&id, buf);
	CHECK(gen_parse_id(buf, &back, NULL) == JP_OK &&
	      back.nmut == GEN_MUT_MAX);
}

/* A mutation keeps the parent's ops up to the cut, regenerates byte for
 * byte from its identity, and runs to its end on its example inputs. */
static void test_mutation(void)
{
	gen_ctx *g1 = gen_ctx_new(), *g2 = gen_ctx_new();
	gen_opts o = heap_opts();
	int runs = 0, prefix_ok = 0, differ = 0, n = 0;
	for (uint64_t s = 1; s <= 300; s++) {
		uint32_t body = 0;
		gen_id parent = gen_id_seed(s);
		char *pt = id_text(g1, &parent, &o, &body);
		if (!pt || body == 0) {
			free(pt);
			continue;
		}
		gen_id child = parent;
		child.nmut = 1;
		child.mut[0].cut = (uint32_t)(s % body);
		child.mut[0].seed = s * 1000003u;
		char *a = id_text(g1, &child, &o, NULL);
		char *b = id_text(g2, &child, &o, NULL);
		n++;
		CHECK(a && b && !strcmp(a, b));
		/* The '# args:' line and the first CUT op lines are the
		 * parent's (ops are one per line after the inputs). */
		const char *pa = pt, *ca = a;
		uint32_t lines = 0;
		bool same = a != NULL;
		while (same && lines < child.mut[0].cut + 2) {
			const char *pe = strchr(pa, '\n'),
				   *ce = strchr(ca, '\n');
			if (!pe || !ce || pe - pa != ce - ca ||
			    memcmp(pa, ca, (size_t)(pe - pa)) != 0)
				same = false;
			else {
				pa = pe + 1;
				ca = ce + 1;
				lines++;
			}
		}
		prefix_ok += same;
		differ += a && strcmp(a, pt) != 0;
		runs += runs_to_end(g1, &child, &o);
		free(pt);
		free(a);
		free(b);
	}
	CHECK(n > 250);
	CHECK_EQ_U64(prefix_ok, n);
	CHECK_EQ_U64(runs, n);
	CHECK(differ > n * 9 / 10);
	/* Cuts must increase and be reached. */
	gen_id bad = gen_id_seed(5);
	bad.nmut = 2;
	bad.mut[0].cut = 4;
	bad.mut[1].cut = 4;
	ir_trace *t = NULL;
	jp_err err;
	CHECK(gen_trace_id(g1, &bad, &o, &t, NULL, &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "increasing") != NULL && t == NULL);
	bad.nmut = 1;
	bad.mut[0].cut = 100000;
	CHECK(gen_trace_id(g1, &bad, &o, &t, NULL, &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "cut 100000") != NULL && t == NULL);
	/* No steps: the fresh trace of the seed. */
	gen_id plain = gen_id_seed(9);
	char *x = id_text(g1, &plain, &o, NULL);
	ir_trace *t9;
	gen_example ex9;
	CHECK(gen_trace(g2, 9, &o, &t9, &ex9, NULL) == JP_OK);
	strbuf sb;
	sb_init(&sb);
	gen_print_annotated(t9, &ex9, &sb);
	CHECK(x && !strcmp(x, sb.buf));
	sb_release(&sb);
	ir_trace_free(t9);
	free(x);
	gen_ctx_free(g1);
	gen_ctx_free(g2);
}

/* One stream of a campaign, without the verifier: trace k has seed
 * rng_derive(SEED, 0, k) and is drawn from the corpus as a worker does.
 * Returns a hash of every trace's text; counts the mutations, and the
 * mutated traces that ran to their end. */
static uint64_t stream(uint64_t seed, uint32_t ntraces, cov_corpus *c,
		       uint32_t *mutants, uint32_t *ran, uint32_t *deep)
{
	gen_ctx *g = gen_ctx_new();
	gen_opts o = heap_opts();
	opt_config cfg = opt_default_config();
	uint64_t h = 0;
	*mutants = *ran = *deep = 0;
	for (uint32_t k = 0; k < ntraces; k++) {
		uint64_t s = rng_derive(seed, 0, k);
		gen_id id;
		bool mut = cov_pick(c, s, 50, &id);
		ir_trace *t;
		gen_example ex;
		if (gen_trace_id(g, &id, &o, &t, &ex, NULL))
			continue;
		strbuf sb;
		sb_init(&sb);
		gen_print_annotated(t, &ex, &sb);
		h = rng_mix64(h ^ rng_mix64(sb.len));
		for (size_t i = 0; i < sb.len; i++)
			h = h * 31 + (unsigned char)sb.buf[i];
		sb_release(&sb);
		if (mut) {
			(*mutants)++;
			*deep += id.nmut >= 2;
			*ran += runs_to_end(g, &id, &o);
		}
		ir_trace *opt = NULL;
		opt_stats st;
		memset(&st, 0, sizeof st);
		if (opt_run(t, &cfg, &opt, &st, NULL) == JP_OK) {
			cov_entry e;
			memset(&e, 0, sizeof e);
			cov_features(st.rule_hits, st.branch_hits, &e.bits);
			if (cov_is_new(c, &e.bits)) {
				e.id = id;
				e.body = ex.body;
				cov_add(c, &e);
			}
		}
		ir_trace_free(opt);
		ir_trace_free(t);
	}
	gen_ctx_free(g);
	return h;
}

static void test_determinism(void)
{
	cov_corpus *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	cov_init(a);
	cov_init(b);
	uint32_t ma, ra, da, mb, rb, db;
	uint64_t ha = stream(11, 400, a, &ma, &ra, &da);
	uint64_t hb = stream(11, 400, b, &mb, &rb, &db);
	CHECK_EQ_U64(ha, hb);
	CHECK(ma == mb && ma > 100);
	CHECK_EQ_U64(ra, ma); /* every mutated trace ran to its end */
	CHECK(da > 0);	      /* chains of mutations happened */
	CHECK(a->n > 10 && a->n == b->n);
	CHECK(!memcmp(&a->covered, &b->covered, sizeof a->covered));

	/* The state-file lines give the same corpus back. */
	strbuf sb;
	sb_init(&sb);
	cov_format(a, 3, &sb);
	cov_corpus *c = malloc(sizeof *c);
	cov_init(c);
	bool ok = true;
	for (char *line = sb.buf; ok && *line;) {
		char *nl = strchr(line, '\n');
		*nl = '\0';
		bool entry = !strncmp(line, "cov_entry 3 ", 12);
		CHECK(entry || !strncmp(line, "cov_covered 3 ", 14));
		ok = cov_parse_line(c, entry, line + (entry ? 12 : 14), NULL) ==
		     JP_OK;
		line = nl + 1;
	}
	CHECK(ok);
	CHECK(c->n == a->n && c->total == a->total);
	bool same = true;
	for (uint32_t i = 0; i < a->n; i++) {
		char x[GEN_ID_TEXT], y[GEN_ID_TEXT];
		gen_id_text(&a->e[i].id, x);
		gen_id_text(&c->e[i].id, y);
		same &=
		    !strcmp(x, y) && a->e[i].body == c->e[i].body &&
		    !memcmp(&a->e[i].bits, &c->e[i].bits, sizeof a->e[i].bits);
	}
	CHECK(same);
	CHECK(!memcmp(&c->covered, &a->covered, sizeof a->covered));
	/* Going on from the parsed corpus is going on from the original. */
	uint32_t m1, r1, d1, m2, r2, d2;
	CHECK_EQ_U64(stream(12, 100, a, &m1, &r1, &d1),
		     stream(12, 100, c, &m2, &r2, &d2));
	sb_release(&sb);
	jp_err err;
	CHECK(cov_parse_line(c, true, "12+3:4 7 zz", &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "hexadecimal") != NULL);
	CHECK(cov_parse_line(c, false, "1 2", &err) == JP_EINPUT);
	free(a);
	free(b);
	free(c);
}

/* Without feedback (PCT 0) or an empty corpus, the trace of a seed is the
 * fresh one. */
static void test_off(void)
{
	cov_corpus *c = malloc(sizeof *c);
	cov_init(c);
	gen_id id;
	CHECK(!cov_pick(c, 5, 100, &id) && id.seed == 5 && id.nmut == 0);
	cov_entry e;
	memset(&e, 0, sizeof e);
	e.id = gen_id_seed(1);
	e.body = 10;
	e.bits.w[0] = 1;
	cov_add(c, &e);
	CHECK(!cov_pick(c, 5, 0, &id) && id.nmut == 0);
	CHECK(cov_pick(c, 5, 100, &id) && id.nmut == 1 && id.seed == 1 &&
	      id.mut[0].seed == 5 && id.mut[0].cut < 10);
	free(c);
}

/* A full corpus replaces the oldest entry all of whose features others
 * have; with none such, the newcomer is not kept but its features count. */
static void test_full(void)
{
	cov_corpus *c = malloc(sizeof *c);
	cov_init(c);
	cov_entry e;
	memset(&e, 0, sizeof e);
	e.body = 5;
	for (uint32_t i = 0; i < COV_MAX; i++) {
		memset(&e.bits, 0, sizeof e.bits);
		e.bits.w[(i % COV_NBITS) / 64] |= UINT64_C(1) << (i % 64);
		e.id = gen_id_seed(i);
		cov_add(c, &e);
	}
	CHECK(c->n == COV_MAX);
	/* Every entry alone has its feature: nothing to replace. */
	memset(&e.bits, 0, sizeof e.bits);
	e.bits.w[COV_WORDS - 1] |= UINT64_C(1) << ((COV_NBITS - 1) % 64);
	e.id = gen_id_seed(999);
	cov_add(c, &e);
	CHECK(c->n == COV_MAX && c->e[COV_MAX - 1].id.seed == COV_MAX - 1);
	CHECK(!cov_is_new(c, &e.bits));
	/* Entry 7's feature is now also another's: entry 7 goes. */
	cov_corpus *d = malloc(sizeof *d);
	*d = *c;
	d->n--; /* make room to add a twin of entry 7 ... */
	cov_entry twin = d->e[7];
	twin.id = gen_id_seed(1000);
	cov_add(d, &twin);
	CHECK(d->n == COV_MAX);
	cov_entry nw;
	memset(&nw, 0, sizeof nw);
	nw.id = gen_id_seed(1001);
	nw.body = 3;
	nw.bits.w[COV_WORDS - 1] |= UINT64_C(1) << ((COV_NBITS - 2) % 64);
	cov_add(d, &nw);
	CHECK(d->n == COV_MAX && d->e[COV_MAX - 1].id.seed == 1001);
	bool seven = false;
	for (uint32_t i = 0; i < d->n; i++)
		seven |= d->e[i].id.seed == 7;
	CHECK(!seven);
	free(c);
	free(d);
}

int main(void)
{
	test_id_text();
	test_mutation();
	test_determinism();
	test_off();
	test_full();
	return check_summary("test_corpus");
}
