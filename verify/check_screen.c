/*
 * check_screen.c - concrete runs: the screening inputs (examples, edge
 * values, the traces' constants and random values) run on the interpreter
 * before any solver, and the counterexamples: every model is replayed
 * (cex.c), simplified with the solver's help (requery) and reported.
 *
 * Sections: screening inputs; screening; counterexamples.
 */
#include "check_int.h"

#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"
#include "util/rng.h"

/* ---- screening inputs --------------------------------------------------- */

/* Interesting values for integer inputs: edges, and every constant of
 * both traces with its neighbours (bounds bugs live right there). */
typedef struct pool {
	uint64_t v[96];
	uint32_t n;
} pool;

static void pool_add(pool *p, int w, uint64_t v)
{
	v = sem_mask(w, v);
	for (uint32_t i = 0; i < p->n; i++)
		if (p->v[i] == v)
			return;
	if (p->n < sizeof p->v / sizeof p->v[0])
		p->v[p->n++] = v;
}

static void pool_consts(pool *p, const ir_trace *t)
{
	int w = t->width;
	for (ir_vid v = 0; v < t->nvals; v++) {
		const ir_value *x = ir_val(t, v);
		if (x->tag != IR_VAL_CONST_INT)
			continue;
		pool_add(p, w, x->cval);
		pool_add(p, w, x->cval + 1);
		pool_add(p, w, x->cval - 1);
		pool_add(p, w, 0 - x->cval);
	}
}

static void make_pool(pool *p, const ir_trace *o, const ir_trace *q)
{
	int w = o->width;
	p->n = 0;
	const uint64_t edges[] = {0,
				  1,
				  sem_allones(w),
				  2,
				  sem_minint(w),
				  sem_maxint(w),
				  sem_minint(w) + 1,
				  sem_maxint(w) - 1,
				  (uint64_t)w - 1,
				  (uint64_t)w};
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		pool_add(p, w, edges[i]);
	pool_consts(p, o);
	pool_consts(p, q);
}

static uint64_t random_int(uint64_t *rng, int w, const pool *p)
{
	uint64_t r = rng_splitmix(rng);
	switch (r & 3) {
	case 0:
	case 1: return p->v[(r >> 8) % p->n];
	case 2: /* small magnitude, either sign */
		return sem_mask(w, (r & 4) ? 0 - ((r >> 8) & 0xff)
					   : ((r >> 8) & 0xff));
	default: return sem_mask(w, rng_splitmix(rng));
	}
}

/* The screening inputs: the examples, five uniform vectors (all 0, 1, -1,
 * MININT, MAXINT), then random mixes of pool and random values. */
jp_status chk_make_screen(chk_pair *ps, jp_err *err)
{
	const ir_trace *o = ps->o;
	uint32_t n = o->ninputs, w = (uint32_t)o->width;
	uint32_t extra = ps->opts->screen_inputs;
	uint32_t total = ps->opts->nexamples + extra;
	ps->screen.x = calloc((size_t)total * n + 1, sizeof *ps->screen.x);
	if (!ps->screen.x)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	uint64_t *x = ps->screen.x;
	for (uint32_t e = 0; e < ps->opts->nexamples; e++, x += n)
		for (uint32_t i = 0; i < n; i++) {
			uint64_t v = ps->opts->examples[(size_t)e * n + i];
			bool ref = ir_val(o, o->inputs[i])->kind == 'r';
			x[i] = ref ? v : sem_mask((int)w, v);
		}
	pool p;
	make_pool(&p, o, ps->p);
	const uint64_t uni[] = {0, 1, sem_allones((int)w), sem_minint((int)w),
				sem_maxint((int)w)};
	uint64_t rng = ps->opts->seed ^ UINT64_C(0x6a09e667f3bcc909);
	for (uint32_t e = 0; e < extra; e++, x += n)
		for (uint32_t i = 0; i < n; i++) {
			bool ref = ir_val(o, o->inputs[i])->kind == 'r';
			if (ref)
				x[i] = (rng_splitmix(&rng) % 4) * 0x10;
			else if (e < 5)
				x[i] = uni[e];
			else
				x[i] = random_int(&rng, (int)w, &p);
		}
	ps->screen.n = total;
	return JP_OK;
}

/* ---- screening ---------------------------------------------------------- */

/* Runs every screening input; *K >= 0 and X filled when one diverges. */
/* Screening a heap pair: each input vector in the plain environment of
 * hp_screen.  A divergence is a counterexample at once (*REFUTED); it is
 * not classified by obligation (the heap model compares whole runs), so
 * the first obligation not yet proved is the one it refutes. */
static jp_status screen_heap(chk_pair *ps, bool *refuted, jp_err *err)
{
	*refuted = false;
	jp_status st = chk_encode(ps, err);
	uint32_t n = ps->o->ninputs;
	ver_result *r = ps->res;
	for (uint32_t e = 0; e < ps->screen.n && !st && !*refuted; e++) {
		const uint64_t *v = ps->screen.x + (size_t)e * n;
		if (hp_screen(ps->heap, v, "the pair (screening)", &st) != 1 ||
		    st)
			continue;
		*refuted = true;
		r->cex_orig_guarded =
		    hp_div_orig_guard(ps->heap, &r->cex_orig_guard);
		/* The obligation the divergence is about, else the first
		 * one not proved. */
		int32_t k = hp_divergence_obl(ps->heap);
		uint32_t i = 0;
		if (k >= 0 && (uint32_t)k < r->nobl)
			i = (uint32_t)k;
		else
			while (i + 1 < r->nobl &&
			       r->obl[i].status == VER_PROVED)
				i++;
		if (r->nobl) {
			chk_settle(ps, i, VER_REFUTED, VER_BY_CONCRETE, 0);
			r->failed = (int32_t)i;
		}
		r->verdict = VER_REFUTED;
	}
	return st;
}

jp_status chk_run_screen(chk_pair *ps, int32_t *k, uint64_t *x, jp_err *err)
{
	double t0 = clk_now_ms();
	*k = -1;
	if (ps->heap_pair) {
		bool refuted; /* then the verdict says so */
		jp_status st = screen_heap(ps, &refuted, err);
		ps->res->ms_screen += clk_now_ms() - t0;
		return st;
	}
	cex_env ce = chk_make_cex_env(ps);
	uint32_t n = ps->o->ninputs;
	jp_status st = JP_OK;
	for (uint32_t e = 0; e < ps->screen.n && !st; e++) {
		const uint64_t *v = ps->screen.x + (size_t)e * n;
		st = cex_classify(&ce, v, k, err);
		if (!st && *k >= 0) {
			memcpy(x, v, n * sizeof *x);
			break;
		}
	}
	ps->res->ms_screen += clk_now_ms() - t0;
	return st;
}

/* ---- counterexamples ---------------------------------------------------- */

/* The solver side of cex_simplify: obligation K fails with inputs before I
 * pinned and input I within [-BOUND, BOUND]. */
static int requery(void *ud, int32_t k, const uint64_t *vals, uint32_t i,
		   uint64_t bound, uint64_t *out, jp_err *err)
{
	chk_pair *ps = ud;
	if (chk_encode(ps, err))
		return -1;
	/* With multipliers or dividers of unknowns a query can take far
	 * longer than its time limit (Z3 cannot interrupt bit-blasting), and
	 * simplifying is optional: keep the concrete simplification only. */
	if (ps->eo.hard || ps->ep.hard)
		return 2;
	const obl *b = &ps->L.v[k];
	if (chk_assume(ps, b->o_upto, b->p_upto, err))
		return -1;
	bool ident;
	Z3_ast neg = chk_goal_neg(ps, b, &ident);
	if (ident)
		return 0;
	Z3_context z = ps->z;
	Z3_ast *c = malloc(((size_t)i + 3) * sizeof *c);
	if (!c) {
		jp_fail(err, JP_ENOMEM, "out of memory");
		return -1;
	}
	uint32_t n = 0;
	c[n++] = neg;
	for (uint32_t j = 0; j <= i; j++) {
		Z3_ast v = ps->vars[j];
		unsigned w = Z3_get_bv_sort_size(z, Z3_get_sort(z, v));
		if (j < i || bound == 0) {
			c[n++] = zc_keep(
			    &ps->S,
			    Z3_mk_eq(z, v,
				     zc_bv(&ps->S, w, j < i ? vals[j] : 0)));
			continue;
		}
		Z3_ast lo = zc_bv(&ps->S, w, sem_mask((int)w, 0 - bound));
		Z3_ast hi = zc_bv(&ps->S, w, bound);
		Z3_ast r[2] = {zc_keep(&ps->S, Z3_mk_bvsge(z, v, lo)),
			       zc_keep(&ps->S, Z3_mk_bvsle(z, v, hi))};
		c[n++] = chk_mk_and(ps, 2, r);
	}
	Z3_ast q = chk_mk_and(ps, n, c);
	free(c);
	if (ps->S.failed) {
		jp_fail(err, JP_EINTERNAL, "building a re-query: %s",
			zc_error_text());
		return -1;
	}
	Z3_lbool ans;
	if (chk_query(ps, q, true, &ans, out, err))
		return -1;
	return ans == Z3_L_TRUE ? 1 : ans == Z3_L_UNDEF ? 2 : 0;
}

cex_env chk_make_cex_env(chk_pair *ps)
{
	cex_env ce;
	memset(&ce, 0, sizeof ce);
	ce.orig = ps->o;
	ce.opt = ps->p;
	ce.obls = &ps->L;
	ce.mode = ps->mode;
	ce.failargs = ps->opts->failargs;
	ce.requery = requery;
	ce.ud = ps;
	ce.max_requeries = 12;
	return ce;
}

/* X is a confirmed counterexample failing obligation K: simplify it,
 * re-check the encoding on it, and fill the result. */
jp_status chk_finish_cex(chk_pair *ps, uint64_t *x, int32_t k, ver_how how,
			 double t0, jp_err *err)
{
	cex_env ce = chk_make_cex_env(ps);
	jp_status st = JP_OK;
	if (ps->opts->simplify)
		st = cex_simplify(&ce, x, &k, err);
	if (!st && ps->opts->self_check && ps->encoded)
		st = chk_self_check_at(ps, x, err);
	if (st)
		return st;
	ver_result *r = ps->res;
	if (r->obl[k].checked && r->obl[k].status == VER_PROVED)
		return jp_fail(err, JP_EINTERNAL,
			       "obligation '%s' was proved but fails on a "
			       "concrete input",
			       r->obl[k].what);
	if (r->obl[k].checked && r->obl[k].status == VER_UNKNOWN)
		how = VER_BY_CONCRETE; /* the solver gave up on it */
	chk_settle(ps, (uint32_t)k, VER_REFUTED, how, clk_now_ms() - t0);
	r->failed = k;
	r->verdict = VER_REFUTED;
	memcpy(r->inputs, x, ps->o->ninputs * sizeof *x);
	strbuf sb;
	sb_init(&sb);
	st = cex_report(&ce, x, k, &sb, err);
	r->cex_text = sb_detach(&sb);
	if (!st && !r->cex_text)
		st = jp_fail(err, JP_ENOMEM, "out of memory");
	return st;
}
