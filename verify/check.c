/*
 * check.c - the obligations of a trace pair, settled by term identity,
 * concrete screening and Z3.
 *
 * The order of work for one pair:
 *   1. input checks (widths, inputs, supported ops);
 *   2. the obligations of the mode (oblig.c);
 *   3. screening: both traces run on the example inputs and a few dozen edge
 *      and random inputs; a divergence is a confirmed counterexample;
 *   4. encoding both traces as terms over shared input variables;
 *   5. per obligation: identity of terms, else one incremental solver query
 *      (push; assert the negated goal; check; pop) on top of the
 *      assumptions asserted so far;
 *   6. a model is replayed on the interpreter before it is believed, then
 *      simplified and reported (cex.c).
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ir/sem.h"
#include "ir/validate.h"
#include "verify/abstract.h"
#include "verify/cex.h"
#include "verify/encode.h"
#include "verify/heap.h"
#include "verify/isolate.h"
#include "verify/oblig.h"
#include "verify/range.h"
#include "verify/slice.h"
#include "verify/z3ctx.h"

struct ver_ctx {
	zc_ctx zc;
	uint64_t pairs; /* checks made, names the --smt2 files */
};

ver_ctx *ver_ctx_new(jp_err *err)
{
	ver_ctx *c = calloc(1, sizeof *c);
	if (!c) {
		jp_fail(err, JP_ENOMEM, "out of memory");
		return NULL;
	}
	if (zc_init(&c->zc, err)) {
		free(c);
		return NULL;
	}
	return c;
}

void ver_ctx_free(ver_ctx *c)
{
	if (!c)
		return;
	zc_fini(&c->zc);
	free(c);
}

void ver_ctx_set_recycle(ver_ctx *c, unsigned every)
{
	c->zc.recycle_every = every ? every : 1;
}

unsigned ver_ctx_rebuilds(const ver_ctx *c)
{
	return c->zc.rebuilds;
}

ver_opts ver_default_opts(void)
{
	ver_opts o;
	memset(&o, 0, sizeof o);
	o.mode = VER_MODE_AUTO;
	o.timeout_ms = 10000;
	o.memory_mb = VER_DEFAULT_MEMORY_MB;
	o.screen_inputs = 32;
	o.seed = 1;
	o.simplify = true;
	o.isolate = true;
	return o;
}

const char *ver_verdict_name(ver_verdict v)
{
	switch (v) {
	case VER_PROVED: return "proved";
	case VER_REFUTED: return "counterexample";
	case VER_UNKNOWN: return "unknown";
	}
	return "?";
}

const char *ver_mode_name(ver_mode m)
{
	switch (m) {
	case VER_MODE_AUTO: return "auto";
	case VER_MODE_ALIGNED: return "aligned";
	case VER_MODE_TRACE: return "trace";
	case VER_MODE_INFERRED: return "inferred";
	}
	return "?";
}

const char *ver_how_name(ver_how h)
{
	switch (h) {
	case VER_BY_IDENTITY: return "identity";
	case VER_BY_CONCRETE: return "concrete";
	case VER_BY_SOLVER: return "solver";
	case VER_BY_NONE: return "none";
	case VER_BY_REWRITE: return "rewrite";
	case VER_BY_RANGE: return "range";
	}
	return "?";
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- per-pair state ---------------------------------------------------- */

typedef struct pst {
	ver_ctx *c;
	Z3_context z;
	const ir_trace *o, *p;
	const ver_opts *opts;
	ver_result *res;
	unsigned cap_mb; /* Z3's memory cap for this process's queries */
	zc_scope S;
	Z3_ast *vars;
	enc_trace eo, ep;
	bool encoded;
	/* The incremental solver and what it has been told. */
	Z3_solver s;  /* incremental, short budget */
	Z3_solver s2; /* bit-blasting fallback, made on first use */
	/* The fallback first asks a slice of the assumptions
	 * (verify/slice.h); keep[i] says whether hyp[i] is in it. */
	sl_set sl;
	bool *keep;
	uint32_t capkeep;
	/* The abstraction (verify/abstract.h): a third solver holding the
	 * assumptions with multipliers and dividers hidden. */
	Z3_solver s3;
	Z3_solver s4; /* the abstraction's bit-blasting fallback */
	/* The range analyses of both traces (verify/range.h). */
	vr_state *vo, *vp;
	abs_map A;
	uint32_t abs_done;	 /* assumptions asserted in s3 */
	bool abs_any;		 /* some asserted assumption hides something */
	uint32_t o_done, p_done; /* guards before these op indices asserted */
	Z3_ast *hyp;		 /* the asserted guard conditions */
	uint32_t nhyp, caphyp;
	zc_idset hypids; /* ids of the asserted terms */
	bool hyp_false;	 /* some assumption is the constant false */
	/* The mode being checked. */
	ver_mode mode;
	obl_list L;
	unsigned qno;
	/* Lemmas: OPT values proved equal to the ORIG value of the same name
	 * under the current assumptions; later terms use the ORIG term. */
	Z3_ast *lem_from, *lem_to;
	uint32_t nlem, caplem;
	uint32_t lem_gen; /* changes whenever the lemmas do */
	/* Facts: terms that the assumptions, or the ranges under them, pin
	 * to constants or to simpler terms (learn_facts, facts_of_ranges,
	 * refold). */
	Z3_ast *fact_from, *fact_to;
	uint32_t nfact, capfact;
	zc_idset factids; /* ids of the fact_from terms, with their index */
	/* The facts other than the range analysis's constants (FACT_KEPT):
	 * substituted alone, they keep the terms' shape (false_by_kept). */
	Z3_ast *kept_from, *kept_to;
	uint32_t nkept, capkept;
	/* Refolding: the candidate ops, made on first use, and their terms
	 * with the lemmas applied, made again when lem_gen moves on. */
	uint32_t *rcand;
	struct rterm *rterm;
	uint32_t nrcand;
	uint32_t rterm_gen;	   /* lem_gen of rterm; 0 = not made */
	uint32_t refold_nfact;	   /* nfact at the last refolding */
	uint32_t *cand_o, *cand_p; /* candidate pairs (vids), by OPT op */
	uint32_t ncand, next_cand;
	bool lemmas_on;		 /* aligned walks only: assumptions only grow */
	uint32_t lemma_unknowns; /* lemma queries the budget did not settle */
	bool gave_up; /* an obligation was unknown: later queries quick */
	/* Screening inputs kept for the self-check. */
	uint64_t *screen;
	uint32_t nscreen;
} pst;

static void free_obligations(ver_result *r)
{
	for (uint32_t i = 0; i < r->nobl; i++)
		free(r->obl[i].what);
	free(r->obl);
	r->obl = NULL;
	r->nobl = 0;
}

void ver_result_free(ver_result *r)
{
	free_obligations(r);
	free(r->inputs);
	free(r->cex_text);
	if (r->input_names)
		for (uint32_t i = 0; i < r->ninputs; i++)
			free(r->input_names[i]);
	free(r->input_names);
	free(r->input_kinds);
	free(r->reason);
	memset(r, 0, sizeof *r);
	r->failed = -1;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* ---- input checks ------------------------------------------------------ */

static jp_status check_pair(const ir_trace *o, const ir_trace *p,
			    const ver_opts *opts, jp_err *err)
{
	if (o->width != p->width)
		return jp_fail(err, JP_EINPUT,
			       "the traces have different widths (%d and %d)",
			       o->width, p->width);
	if (opts->width && opts->width != o->width)
		return jp_fail(err, JP_EINPUT,
			       "asked to prove at width %d, but the traces "
			       "were read at width %d (parse them at that "
			       "width)",
			       opts->width, o->width);
	if (o->ninputs != p->ninputs)
		return jp_fail(err, JP_EINPUT,
			       "the traces have different inputs: %u and %u "
			       "input variables",
			       o->ninputs, p->ninputs);
	for (uint32_t i = 0; i < o->ninputs; i++)
		if (ir_val(o, o->inputs[i])->kind !=
		    ir_val(p, p->inputs[i])->kind)
			return jp_fail(
			    err, JP_EINPUT,
			    "input %u is %s in the original but %s "
			    "in the optimized trace",
			    i,
			    ir_val(o, o->inputs[i])->kind == 'r' ? "a ref"
								 : "an int",
			    ir_val(p, p->inputs[i])->kind == 'r' ? "a ref"
								 : "an int");
	const char *on = opts->orig_name ? opts->orig_name : "original trace";
	const char *pn = opts->opt_name ? opts->opt_name : "optimized trace";
	jp_status st = ir_validate(o, on, err);
	if (!st)
		st = ir_validate(p, pn, err);
	if (!st && (hp_uses_heap(o) || hp_uses_heap(p))) {
		st = hp_supported(o, on, err);
		return st ? st : hp_supported(p, pn, err);
	}
	if (!st)
		st = enc_supported(o, on, err);
	if (!st)
		st = enc_supported(p, pn, err);
	return st;
}

/* ---- result bookkeeping ------------------------------------------------ */

static jp_status init_obligations(pst *ps, jp_err *err)
{
	ver_result *r = ps->res;
	free_obligations(r);
	r->by_identity = r->by_rewrite = r->by_concrete = r->by_solver = 0;
	r->by_range = 0;
	r->failed = -1;
	r->obl = calloc(ps->L.n + 1, sizeof *r->obl);
	if (!r->obl)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	r->nobl = ps->L.n;
	for (uint32_t i = 0; i < ps->L.n; i++) {
		strbuf sb;
		sb_init(&sb);
		obl_describe(&ps->L.v[i], ps->o, ps->p, &sb);
		r->obl[i].what = sb_detach(&sb);
		r->obl[i].status = VER_UNKNOWN;
		r->obl[i].how = VER_BY_NONE;
		if (!r->obl[i].what)
			return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	return JP_OK;
}

static uint32_t *how_counter(ver_result *r, ver_how how)
{
	switch (how) {
	case VER_BY_IDENTITY: return &r->by_identity;
	case VER_BY_REWRITE: return &r->by_rewrite;
	case VER_BY_CONCRETE: return &r->by_concrete;
	case VER_BY_SOLVER: return &r->by_solver;
	case VER_BY_RANGE: return &r->by_range;
	default: return NULL;
	}
}

/* Records how obligation I was settled.  An obligation may be settled
 * again (a batch query first, then on its own): the counters then move
 * with it, so they always add up to the obligations settled. */
static void settle(pst *ps, uint32_t i, ver_verdict v, ver_how how, double ms)
{
	ver_obligation *b = &ps->res->obl[i];
	if (b->checked && b->status != VER_UNKNOWN) {
		uint32_t *old = how_counter(ps->res, b->how);
		if (old && *old)
			(*old)--;
	}
	b->status = v;
	b->how = how;
	b->ms = ms;
	b->checked = true;
	if (v == VER_UNKNOWN)
		return;
	uint32_t *c = how_counter(ps->res, how);
	if (c)
		(*c)++;
}

/* ---- encoding ---------------------------------------------------------- */

static jp_status encode(pst *ps, jp_err *err)
{
	if (ps->encoded)
		return JP_OK;
	double t0 = now_ms();
	ps->vars = calloc(ps->o->ninputs + 1, sizeof *ps->vars);
	if (!ps->vars)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	jp_status st = enc_inputs(&ps->S, ps->o, ps->vars, err);
	if (!st)
		st = enc_trace_build(&ps->S, ps->o, ps->vars, &ps->eo, err);
	if (!st) {
		st = enc_trace_build(&ps->S, ps->p, ps->vars, &ps->ep, err);
		if (st)
			enc_trace_free(&ps->eo);
	}
	if (!st) {
		st = vr_init(&ps->vo, ps->o, err);
		if (!st)
			st = vr_init(&ps->vp, ps->p, err);
		if (st) {
			enc_trace_free(&ps->eo);
			enc_trace_free(&ps->ep);
		}
	}
	ps->encoded = st == JP_OK;
	ps->res->ms_encode += now_ms() - t0;
	return st;
}

/* ---- the solver -------------------------------------------------------- */

/* Whether the pair multiplies or divides unknowns (enc_trace.hard): Z3's
 * incremental solver bit-blasts such circuits far more slowly than the
 * qfbv tactic (half a second for one 128-bit square), so every query of
 * such a pair goes straight to the bit-blasting solver. */
static bool hard_pair(const pst *ps)
{
	return ps->encoded && (ps->eo.hard || ps->ep.hard);
}

/* Whether the proofs are being audited (--smt2 writes every query out,
 * --solver-cmd re-checks it with another solver): then every obligation
 * that needs reasoning must go to a query, and the range analyses settle
 * nothing themselves. */
static bool auditing(const pst *ps)
{
	return ps->opts->smt2_dir || ps->opts->solver_cmd;
}

/* Queries go first to Z3's incremental solver, which is fastest on the
 * easy queries that make up nearly all of them, with a short time budget;
 * a query it cannot settle in that budget goes to a fresh bit-blasting
 * (qfbv tactic) solver with the rest of the time, which is several times
 * faster on hard queries (64-bit multiplications and divisions). */
enum { FAST_MS = 50 };

static void set_limits(pst *ps, Z3_solver s, unsigned timeout_ms)
{
	Z3_context z = ps->z;
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	if (timeout_ms)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"),
				   timeout_ms);
	if (ps->opts->rlimit)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "rlimit"),
				   ps->opts->rlimit);
	bool tactic = s == ps->s2 || s == ps->s4;
	zc_limit_params(z, p, tactic ? ZC_TACTIC_SOLVER : ZC_SMT_SOLVER,
			ps->cap_mb);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);
}

/* The budget of the incremental solver, and whether a fallback follows. */
static unsigned fast_budget(const pst *ps, bool *fallback)
{
	unsigned user = ps->opts->timeout_ms;
	*fallback = user == 0 || user > FAST_MS;
	return *fallback ? FAST_MS : user;
}

static jp_status make_solver(pst *ps, jp_err *err)
{
	if (ps->s)
		return JP_OK;
	Z3_context z = ps->z;
	ps->s = Z3_mk_simple_solver(z);
	if (!ps->s)
		return zc_check_error(err, "creating a solver");
	Z3_solver_inc_ref(z, ps->s);
	bool fallback;
	set_limits(ps, ps->s, fast_budget(ps, &fallback));
	return zc_check_error(err, "configuring the solver");
}

/* Makes *S, when not made yet, a solver of the tactic NAME. */
static jp_status make_tactic_solver(pst *ps, Z3_solver *s, const char *name,
				    jp_err *err)
{
	if (*s)
		return JP_OK;
	Z3_context z = ps->z;
	Z3_tactic t = Z3_mk_tactic(z, name);
	if (!t)
		return zc_check_error(err, "creating a tactic");
	Z3_tactic_inc_ref(z, t);
	*s = Z3_mk_solver_from_tactic(z, t);
	Z3_tactic_dec_ref(z, t);
	if (!*s)
		return zc_check_error(err, "creating a solver");
	Z3_solver_inc_ref(z, *s);
	return zc_check_error(err, "creating a solver");
}

static jp_status make_slow_solver(pst *ps, jp_err *err)
{
	return make_tactic_solver(ps, &ps->s2, "qfbv", err);
}

/* Where a fact comes from: an assumption or a rewrite that keeps the
 * term's shape, or a constant the range analysis pins a term to. */
typedef enum fact_kind { FACT_KEPT, FACT_PINNED } fact_kind;

static jp_status learn_facts(pst *ps, Z3_ast h, int depth, fact_kind kind,
			     jp_err *err);

static jp_status add_hyp(pst *ps, Z3_ast t, jp_err *err)
{
	if (zc_is_true(ps->z, t))
		return JP_OK;
	if (zc_is_false(ps->z, t))
		ps->hyp_false = true;
	unsigned id = Z3_get_ast_id(ps->z, t);
	if (zc_idset_has(&ps->hypids, id))
		return JP_OK;
	if (ps->nhyp == ps->caphyp) {
		uint32_t ncap = ps->caphyp ? ps->caphyp * 2 : 64;
		Z3_ast *h = realloc(ps->hyp, (size_t)ncap * sizeof *h);
		if (!h)
			return jp_fail(err, JP_ENOMEM, "out of memory");
		ps->hyp = h;
		ps->caphyp = ncap;
	}
	bool added;
	if (!zc_idset_add(&ps->hypids, id, &added))
		return jp_fail(err, JP_ENOMEM, "out of memory");
	ps->hyp[ps->nhyp++] = t;
	if (!hard_pair(ps))
		Z3_solver_assert(ps->z, ps->s, t);
	jp_status st = zc_check_error(err, "asserting a guard condition");
	return st ? st : learn_facts(ps, t, 0, FACT_KEPT, err);
}

/* Marks the lemmas changed; generation 0 means "never made". */
static void lemmas_changed(pst *ps)
{
	if (++ps->lem_gen == 0)
		ps->lem_gen = 1;
}

static void drop_lemmas(pst *ps)
{
	ps->nlem = 0;
	lemmas_changed(ps);
}

static void reset_hyps(pst *ps)
{
	Z3_solver_reset(ps->z, ps->s);
	if (ps->s3) {
		Z3_solver_reset(ps->z, ps->s3);
		abs_reset(&ps->A); /* its axioms went with the reset */
	}
	ps->abs_done = 0;
	ps->abs_any = false;
	sl_clear(&ps->sl);
	ps->nhyp = 0;
	zc_idset_clear(&ps->hypids);
	ps->hyp_false = false;
	ps->o_done = ps->p_done = 0;
	/* Lemmas were proved, and facts learned, under the dropped
	 * assumptions. */
	drop_lemmas(ps);
	ps->nfact = ps->nkept = 0;
	ps->refold_nfact = 0;
	zc_idset_clear(&ps->factids);
	ps->next_cand = 0;
}

static Z3_ast subst(pst *ps, Z3_ast t);

/* Makes the solver's assumptions "every ORIG guard before O_UPTO and every
 * OPT guard before P_UPTO passed".  Aligned mode only ever extends them;
 * trace mode needs one reset. */
static jp_status assume(pst *ps, uint32_t o_upto, uint32_t p_upto, jp_err *err)
{
	jp_status st = make_solver(ps, err);
	if (st)
		return st;
	if (o_upto < ps->o_done || p_upto < ps->p_done)
		reset_hyps(ps);
	for (; ps->o_done < o_upto; ps->o_done++)
		if (ps->eo.pass[ps->o_done] &&
		    (st = add_hyp(ps, subst(ps, ps->eo.pass[ps->o_done]), err)))
			return st;
	for (; ps->p_done < p_upto; ps->p_done++)
		if (ps->ep.pass[ps->p_done] &&
		    (st = add_hyp(ps, subst(ps, ps->ep.pass[ps->p_done]), err)))
			return st;
	return JP_OK;
}

/* Whether T certainly holds under the current assumptions without asking
 * the solver: it is true, or it is one of the assumptions. */
static bool known_true(const pst *ps, Z3_ast t)
{
	return ps->hyp_false || zc_is_true(ps->z, t) ||
	       zc_idset_has(&ps->hypids, Z3_get_ast_id(ps->z, t));
}

static Z3_ast mk_not(pst *ps, Z3_ast a)
{
	return zc_keep(&ps->S, Z3_mk_not(ps->z, a));
}

static Z3_ast mk_and(pst *ps, uint32_t n, const Z3_ast *a)
{
	return zc_keep(&ps->S, Z3_mk_and(ps->z, n, a));
}

static bool failargs_shape_equal(const pst *ps, const ir_op *a, const ir_op *b)
{
	if (a->nfail != b->nfail)
		return false;
	for (uint32_t j = 0; j < a->nfail; j++) {
		ir_vid va = a->failargs[j], vb = b->failargs[j];
		if ((va == IR_NOVAL) != (vb == IR_NOVAL))
			return false;
		if (va != IR_NOVAL && (ir_val(ps->o, va)->kind == 'r') !=
					  (ir_val(ps->p, vb)->kind == 'r'))
			return false;
	}
	return true;
}

/* "Some fail-arg differs" for guards A (ORIG) and B (OPT) of equal shape;
 * NULL when every pair is the same term. */
static Z3_ast failargs_differ(pst *ps, const ir_op *a, const ir_op *b)
{
	Z3_ast *d = malloc(((size_t)a->nfail + 1) * sizeof *d);
	if (!d) {
		ps->S.failed = true;
		return NULL;
	}
	uint32_t n = 0;
	for (uint32_t j = 0; j < a->nfail; j++) {
		if (a->failargs[j] == IR_NOVAL)
			continue;
		Z3_ast x = subst(ps, ps->eo.val[a->failargs[j]]);
		Z3_ast y = subst(ps, ps->ep.val[b->failargs[j]]);
		if (x != y)
			d[n++] =
			    mk_not(ps, zc_keep(&ps->S, Z3_mk_eq(ps->z, x, y)));
	}
	Z3_ast r = n ? zc_keep(&ps->S, Z3_mk_or(ps->z, n, d)) : NULL;
	free(d);
	return r;
}

/* T with every proved lemma applied (OPT terms replaced by the equal ORIG
 * terms), so that computations the optimizer changed but kept equal
 * become identical terms downstream. */
static Z3_ast subst(pst *ps, Z3_ast t)
{
	if (!t || ps->nlem == 0)
		return t;
	return zc_keep(&ps->S, Z3_substitute(ps->z, t, ps->nlem, ps->lem_from,
					     ps->lem_to));
}

/* Rounds of substitution in subst_facts: Z3_substitute replaces the terms
 * it meets, but not a term it has just rebuilt, so a fact about a term
 * that contains another pinned term needs a second round.  Bounded,
 * because every round is sound on its own. */
enum { SUBST_ROUNDS = 3 };

/* T with the terms the assumptions pin replaced by their constants.  Each
 * round walks all of T, so this is kept for the goals that the cheaper
 * steps did not settle (on 1000-op pairs, substituting every goal and
 * assumption took 40% of the check time). */
static Z3_ast subst_map(pst *ps, Z3_ast t, uint32_t n, Z3_ast *from, Z3_ast *to)
{
	for (int r = 0; t && n && r < SUBST_ROUNDS; r++) {
		Z3_ast u =
		    zc_keep(&ps->S, Z3_substitute(ps->z, t, n, from, to));
		if (u == t)
			break;
		t = u;
	}
	return t;
}

static Z3_ast subst_facts(pst *ps, Z3_ast t)
{
	return subst_map(ps, t, ps->nfact, ps->fact_from, ps->fact_to);
}

/* Whether goal G is false by rewriting with the facts other than the
 * range analysis's constants.  Z3_substitute replaces the outermost term
 * it knows, so when the ranges pin a whole condition of one trace (its
 * value is certain there), the condition is gone before the assumed
 * constants inside it can make it the other trace's very term; and the
 * other trace's condition, which its own ranges could not pin, is then
 * left for the solver to prove constant. */
static bool false_by_kept(pst *ps, Z3_ast g)
{
	if (ps->nkept == ps->nfact)
		return false; /* the same substitution as subst_facts */
	Z3_ast k = subst_map(ps, g, ps->nkept, ps->kept_from, ps->kept_to);
	if (!k || k == g)
		return false;
	Z3_ast simp = zc_keep(&ps->S, Z3_simplify(ps->z, k));
	return simp && zc_is_false(ps->z, simp);
}

/* The negated goal of B (satisfiable iff B fails somewhere under its
 * assumptions), or NULL with *IDENT set when the goal holds by identity. */
static Z3_ast goal_neg(pst *ps, const obl *b, bool *ident)
{
	*ident = false;
	Z3_context z = ps->z;
	Z3_ast a = b->og != OBL_NONE ? subst(ps, ps->eo.pass[b->og]) : NULL;
	Z3_ast c = b->pg != OBL_NONE ? subst(ps, ps->ep.pass[b->pg]) : NULL;
	if (ps->hyp_false) {
		*ident = true;
		return NULL;
	}
	switch (b->kind) {
	case OBL_SAME:
		if (a == c || (known_true(ps, a) && known_true(ps, c))) {
			*ident = true;
			return NULL;
		}
		return zc_keep(&ps->S, Z3_mk_xor(z, a, c));
	case OBL_REMOVED:
	case OBL_T_ORIG:
		if (known_true(ps, a)) {
			*ident = true;
			return NULL;
		}
		return mk_not(ps, a);
	case OBL_NEW:
	case OBL_T_OPT:
		if (known_true(ps, c)) {
			*ident = true;
			return NULL;
		}
		return mk_not(ps, c);
	case OBL_FAILARGS: {
		if (known_true(ps, a) || known_true(ps, c)) {
			*ident = true; /* the guard never fails here */
			return NULL;
		}
		const ir_op *ga = &ps->o->ops[b->og], *gb = &ps->p->ops[b->pg];
		Z3_ast parts[3] = {mk_not(ps, a), mk_not(ps, c), NULL};
		if (!failargs_shape_equal(ps, ga, gb))
			return mk_and(ps, 2, parts);
		parts[2] = failargs_differ(ps, ga, gb);
		if (!parts[2]) {
			*ident = !ps->S.failed;
			return NULL;
		}
		return mk_and(ps, 3, parts);
	}
	case OBL_OUTPUT: {
		const ir_op *eo = &ps->o->ops[ps->o->nops - 1];
		const ir_op *ep = &ps->p->ops[ps->p->nops - 1];
		Z3_ast x = subst(ps, ps->eo.val[eo->args[b->j]]);
		Z3_ast y = subst(ps, ps->ep.val[ep->args[b->j]]);
		if (x == y) {
			*ident = true;
			return NULL;
		}
		return mk_not(ps, zc_keep(&ps->S, Z3_mk_eq(z, x, y)));
	}
	case OBL_END: return zc_true(&ps->S);
	}
	return NULL;
}

/* Writes QUERY (the assumptions plus NEG) as a standalone SMT-LIB 2 file.
 * PATH receives the file name. */
static jp_status write_smt2(pst *ps, Z3_ast neg, char *path, size_t size,
			    jp_err *err)
{
	const char *dir = ps->opts->smt2_dir;
	if (dir) {
		snprintf(path, size, "%s/pair%llu-q%u.smt2", dir,
			 (unsigned long long)ps->c->pairs, ps->qno);
	} else {
		snprintf(path, size, "/tmp/jitprove-XXXXXX");
		int fd = mkstemp(path);
		if (fd < 0)
			return jp_fail(err, JP_EIO,
				       "cannot create a temporary file");
		close(fd);
	}
	const char *text = Z3_benchmark_to_smtlib_string(
	    ps->z, "jitprove verifier query", "QF_BV", "unknown", "", ps->nhyp,
	    ps->hyp, neg);
	if (!text)
		return zc_check_error(err, "printing a query");
	FILE *f = fopen(path, "w");
	if (!f)
		return jp_fail(err, JP_EIO, "cannot write %s", path);
	fputs(";; inputs are x0, x1, ... in the order of the trace's inputs\n",
	      f);
	fputs(text, f);
	fputs("\n", f);
	if (fclose(f))
		return jp_fail(err, JP_EIO, "cannot write %s", path);
	return JP_OK;
}

/* Runs the second solver on PATH: 1 sat, 0 unsat, -1 anything else. */
static int second_solver(const char *cmd, const char *path)
{
	size_t n = strlen(cmd) + strlen(path) + 16;
	char *line = malloc(n);
	if (!line)
		return -1;
	snprintf(line, n, "%s '%s' 2>&1", cmd, path);
	FILE *f = popen(line, "r");
	free(line);
	if (!f)
		return -1;
	char buf[256] = "";
	int ans = -1;
	while (fgets(buf, sizeof buf, f)) {
		if (!strncmp(buf, "unsat", 5)) {
			ans = 0;
			break;
		}
		if (!strncmp(buf, "sat", 3)) {
			ans = 1;
			break;
		}
	}
	pclose(f);
	return ans;
}

static jp_status recheck(pst *ps, Z3_ast neg, Z3_lbool ans, jp_err *err)
{
	char path[4096];
	jp_status st = write_smt2(ps, neg, path, sizeof path, err);
	if (st || !ps->opts->solver_cmd || ans == Z3_L_UNDEF) {
		if (!st && !ps->opts->smt2_dir)
			remove(path);
		return st;
	}
	int other = second_solver(ps->opts->solver_cmd, path);
	ps->res->second_checked++;
	if (other < 0)
		ps->res->second_inconclusive++;
	else if (other != (ans == Z3_L_TRUE))
		st = jp_fail(err, JP_EINTERNAL,
			     "solver disagreement on %s: Z3 says %s, '%s' says "
			     "%s",
			     ps->opts->smt2_dir ? path : "a query",
			     ans == Z3_L_TRUE ? "sat" : "unsat",
			     ps->opts->solver_cmd, other ? "sat" : "unsat");
	if (!ps->opts->smt2_dir)
		remove(path);
	return st;
}

static jp_status model_inputs(pst *ps, Z3_solver s, uint64_t *x, jp_err *err)
{
	Z3_model m = Z3_solver_get_model(ps->z, s);
	if (!m)
		return zc_check_error(err, "reading a model");
	Z3_model_inc_ref(ps->z, m);
	jp_status st = JP_OK;
	for (uint32_t i = 0; i < ps->o->ninputs && !st; i++) {
		Z3_ast v = NULL;
		if (!Z3_model_eval(ps->z, m, ps->vars[i], true, &v) || !v) {
			st = zc_check_error(err, "evaluating a model");
			if (!st)
				st = jp_fail(err, JP_EINTERNAL,
					     "the model has no value for input "
					     "%u",
					     i);
			break;
		}
		Z3_inc_ref(ps->z, v);
		if (!zc_numeral(ps->z, v, &x[i]))
			st = jp_fail(err, JP_EINTERNAL,
				     "the model's value for input %u is not a "
				     "number",
				     i);
		Z3_dec_ref(ps->z, v);
	}
	Z3_model_dec_ref(ps->z, m);
	return st;
}

/* Records why the last query's answer is unknown. */
static void set_reason(pst *ps, const char *why)
{
	free(ps->res->reason);
	ps->res->reason = dup_str(why);
}

/* Reads the outcome of the check S just made into *ANS: the inputs of a
 * model into X (when not NULL) on sat, Z3's reason on unknown. */
static jp_status read_answer(pst *ps, Z3_solver s, Z3_lbool *ans, uint64_t *x,
			     jp_err *err)
{
	jp_status st = zc_check_error(err, "solver check");
	if (!st && *ans == Z3_L_TRUE && x)
		st = model_inputs(ps, s, x, err);
	if (!st && *ans == Z3_L_UNDEF) {
		const char *why = Z3_solver_get_reason_unknown(ps->z, s);
		set_reason(ps, why ? why : "unknown");
	}
	return st;
}

/* What is left of a USER ms budget (0: none) after SPENT ms; at least 1
 * when limited, so a spent budget stays limited. */
static unsigned budget_left(unsigned user, double spent)
{
	if (user == 0)
		return 0;
	return spent + 1 < (double)user ? user - (unsigned)spent : 1;
}

/* Sets ps->keep to the slice of the assumptions for NEG (verify/slice.h);
 * *KEPT receives its size. */
static jp_status slice_for(pst *ps, Z3_ast neg, uint32_t *kept, jp_err *err)
{
	if (ps->capkeep < ps->nhyp + 1) {
		bool *k = realloc(ps->keep, ((size_t)ps->nhyp + 1) * sizeof *k);
		if (!k)
			return jp_fail(err, JP_ENOMEM, "out of memory");
		ps->keep = k;
		ps->capkeep = ps->nhyp + 1;
	}
	while (ps->sl.n < ps->nhyp)
		if (!sl_add(&ps->sl, ps->hyp[ps->sl.n]))
			return jp_fail(err, JP_ENOMEM, "out of memory");
	*kept = sl_select(&ps->sl, neg, ps->keep);
	if (*kept == UINT32_MAX)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	return zc_check_error(err, "slicing the assumptions");
}

/* A sliced query whose model breaks a dropped assumption is asked again
 * with the broken ones added; after this many such rounds, with all. */
enum { SLICE_ROUNDS = 2 };

/* The rounds of slow_check (below), starting from the slice in ps->keep
 * (KEPT assumptions). */
static jp_status slow_rounds(pst *ps, Z3_ast neg, unsigned timeout_ms,
			     uint32_t kept, Z3_lbool *ans, uint64_t *x,
			     jp_err *err)
{
	Z3_context z = ps->z;
	double t0 = now_ms();
	jp_status st = JP_OK;
	for (int round = 0; !st; round++) {
		if (round == SLICE_ROUNDS && kept < ps->nhyp) {
			for (uint32_t i = 0; i < ps->nhyp; i++)
				ps->keep[i] = true;
			kept = ps->nhyp;
		}
		Z3_solver_reset(z, ps->s2);
		set_limits(ps, ps->s2, budget_left(timeout_ms, now_ms() - t0));
		for (uint32_t i = 0; i < ps->nhyp; i++)
			if (ps->keep[i])
				Z3_solver_assert(z, ps->s2, ps->hyp[i]);
		Z3_solver_assert(z, ps->s2, neg);
		*ans = Z3_solver_check(z, ps->s2);
		if (*ans != Z3_L_TRUE || kept == ps->nhyp)
			break;
		st = zc_check_error(err, "solver check");
		Z3_model m = st ? NULL : Z3_solver_get_model(z, ps->s2);
		if (!m) {
			st = st ? st : zc_check_error(err, "reading a model");
			break;
		}
		Z3_model_inc_ref(z, m);
		uint32_t bad = sl_violated(z, m, ps->hyp, ps->nhyp, ps->keep);
		Z3_model_dec_ref(z, m);
		st = zc_check_error(err, "checking a model");
		if (st || bad == 0)
			break; /* a model of the full query */
		kept = bad == UINT32_MAX ? ps->nhyp : kept + bad;
		if (timeout_ms && now_ms() - t0 + 1 >= (double)timeout_ms) {
			/* The budget went on slices: the full query's answer
			 * is not known. */
			*ans = Z3_L_UNDEF;
			set_reason(ps, "timeout");
			return JP_OK;
		}
	}
	return st ? st : read_answer(ps, ps->s2, ans, x, err);
}

/* ---- the slow rounds in a child process (verify/isolate.h) ---- */

/* Memory in a child.  The cap (ver_opts.memory_mb) is on Z3's
 * process-wide total, and a child inherits its parent's: the pair's
 * incremental solvers, often most of the cap, in pages the child shares
 * and its query cannot free.  With the parent's cap, a query that needs
 * 50 MB of its own failed at once (about a third of the unknown traces
 * of a campaign).  So a child's queries get CHILD_CAP_FACTOR times the
 * cap: what they allocate is returned when the child ends and never
 * fragments the long-lived parent's heap, which is what the cap is for.
 * The hard ceiling, a little above, stops the one step that would
 * overshoot it by far.  Measured (docs/performance.md, session 10):
 * unknown traces 41 -> 34 of 40,000, the largest child 87 -> 123 MB. */
enum { CHILD_CAP_FACTOR = 2, CEILING_ABOVE_CAP_MB = 16 };

/* Applies the cap PS->cap_mb to the tactic solver S, keeping its other
 * parameters (Z3 merges them). */
static void cap_tactic(pst *ps, Z3_solver s)
{
	Z3_params p = Z3_mk_params(ps->z);
	Z3_params_inc_ref(ps->z, p);
	zc_limit_params(ps->z, p, ZC_TACTIC_SOLVER, ps->cap_mb);
	Z3_solver_set_params(ps->z, s, p);
	Z3_params_dec_ref(ps->z, p);
}

/* In a child, before its query: the child's cap and the ceiling, when
 * there is a cap.  The abstraction's fallback solver was set up by the
 * parent, with the parent's cap. */
static void enter_child(pst *ps)
{
	if (!ps->opts->memory_mb)
		return;
	ps->cap_mb = CHILD_CAP_FACTOR * ps->opts->memory_mb;
	zc_set_ceiling(ps->cap_mb + CEILING_ABOVE_CAP_MB);
	if (ps->s4)
		cap_tactic(ps, ps->s4);
}

/* The deadline of a child with a budget of MS: Z3 stops at its timeout
 * by itself, so the deadline only catches a child that is stuck.  It is
 * generous (twice the budget, plus a second), because a loaded machine or
 * valgrind can make a fork and its copied pages slow, and a query killed
 * here is an unknown that would not have been one in-process. */
static unsigned child_deadline(unsigned ms)
{
	if (ms == 0 || ms > (UINT_MAX - 1000) / 2)
		return 0; /* no budget, or one too large to double */
	return 2 * ms + 1000;
}

/* What the child hands back. */
typedef struct slow_out {
	jp_status st;
	Z3_lbool ans;
	char reason[128];
	char msg[sizeof(((jp_err *)0)->msg)];
	uint64_t x[]; /* ninputs values on sat */
} slow_out;

/* The slow rounds for a child, with the slice already taken (KEPT
 * assumptions). */
typedef struct slow_job {
	pst *ps;
	Z3_ast neg;
	unsigned timeout_ms;
	uint32_t kept;
	bool want_x;
} slow_job;

static size_t slow_child(void *arg, void *out, size_t cap)
{
	slow_job *j = arg;
	pst *ps = j->ps;
	slow_out *o = out;
	(void)cap;
	enter_child(ps);
	jp_err err;
	jp_err_clear(&err);
	uint64_t *x = j->want_x ? o->x : NULL;
	o->st =
	    slow_rounds(ps, j->neg, j->timeout_ms, j->kept, &o->ans, x, &err);
	o->reason[0] = 0;
	if (o->st && zc_failed_memout()) {
		/* The ceiling stopped the query: unknown, like the cap. */
		o->st = JP_OK;
		o->ans = Z3_L_UNDEF;
		snprintf(o->reason, sizeof o->reason, "memout (ceiling)");
	} else if (o->ans == Z3_L_UNDEF && ps->res->reason) {
		snprintf(o->reason, sizeof o->reason, "%s", ps->res->reason);
	}
	snprintf(o->msg, sizeof o->msg, "%s", err.msg);
	return sizeof *o + (size_t)ps->o->ninputs * sizeof o->x[0];
}

/* Runs the slow rounds of J in a child; DEADLINE_MS (0: none) is when it is
 * killed. *RAN is false when no child could be made: the caller then does the
 * work itself. */
static jp_status run_in_child(slow_job *j, unsigned deadline_ms, Z3_lbool *ans,
			      uint64_t *x, bool *ran, jp_err *err)
{
	pst *ps = j->ps;
	size_t cap = sizeof(slow_out) + (size_t)ps->o->ninputs * sizeof *x;
	slow_out *o = calloc(1, cap);
	if (!o)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	j->want_x = x != NULL;
	size_t len;
	int sig;
	iso_outcome how =
	    iso_run(slow_child, j, o, cap, &len, deadline_ms, &sig);
	*ran = how != ISO_UNAVAILABLE;
	if (*ran)
		ps->res->isolated++;
	jp_status st = JP_OK;
	if (how == ISO_DONE && len == cap) {
		*ans = o->ans;
		if (o->st)
			st = jp_fail(err, o->st, "%s", o->msg);
		else if (o->ans == Z3_L_TRUE && x)
			memcpy(x, o->x, (size_t)ps->o->ninputs * sizeof *x);
		else if (o->ans == Z3_L_UNDEF)
			set_reason(ps, o->reason[0] ? o->reason : "unknown");
	} else if (*ran) {
		/* Killed at the deadline, or ended without an answer (Z3
		 * aborting past its ceiling): nothing is known. */
		ps->res->isolated_lost++;
		*ans = Z3_L_UNDEF;
		char why[64];
		if (how == ISO_TIMEOUT)
			snprintf(why, sizeof why,
				 "timeout (solver process killed)");
		else if (sig)
			snprintf(why, sizeof why,
				 "solver process ended by signal %d", sig);
		else
			snprintf(why, sizeof why, "solver process failed");
		set_reason(ps, why);
	}
	free(o);
	return st;
}

/* The fallback: NEG under the assumptions in a fresh bit-blasting solver.
 * Fresh, because the qfbv tactic simplifies the whole query before it
 * bit-blasts and is several times faster than an incremental solver on
 * hard queries; but then every assumption is bit-blasted again for every
 * query, so it is first asked with the slice the goal needs.  Unsat of a
 * slice proves NEG unsatisfiable under all the assumptions; its model is
 * used only when every dropped assumption holds in it (then it is a model
 * of the full query), otherwise the dropped assumptions it breaks join the
 * slice and it is asked again: the answer is always the full query's.
 * These are the queries that can blow up, so with ver_opts.isolate the
 * rounds run in a child process; the slice is taken here, in the caller,
 * because the slicer keeps what it learns for the next query. */
static jp_status slow_check(pst *ps, Z3_ast neg, unsigned timeout_ms,
			    Z3_lbool *ans, uint64_t *x, jp_err *err)
{
	uint32_t kept = 0;
	jp_status st = make_slow_solver(ps, err);
	if (!st)
		st = slice_for(ps, neg, &kept, err);
	if (st)
		return st;
	bool ran = false;
	if (ps->opts->isolate) {
		slow_job j = {ps, neg, timeout_ms, kept, false};
		st = run_in_child(&j, child_deadline(timeout_ms), ans, x, &ran,
				  err);
		if (st || ran)
			return st;
	}
	return slow_rounds(ps, neg, timeout_ms, kept, ans, x, err);
}

typedef struct unsat_job {
	pst *ps;
	Z3_solver s;
} unsat_job;

static size_t unsat_child(void *arg, void *out, size_t cap)
{
	unsat_job *j = arg;
	enter_child(j->ps);
	unsigned char *unsat = out;
	*unsat = Z3_solver_check(j->ps->z, j->s) == Z3_L_FALSE;
	return cap;
}

/* Asks solver S, set up with a budget of BUDGET_MS, whether its assertions
 * are unsatisfiable; with ver_opts.isolate the check runs in a child
 * process (verify/isolate.h), which is how the abstract fallback's
 * bit-blasting stays out of the caller's memory.  False when it is not
 * known to be unsat, including a child that was killed or died. */
static bool unsat_in_child(pst *ps, Z3_solver s, unsigned budget_ms)
{
	unsigned char unsat = 0;
	if (ps->opts->isolate) {
		unsat_job j = {ps, s};
		size_t len;
		int sig;
		iso_outcome how = iso_run(unsat_child, &j, &unsat, 1, &len,
					  child_deadline(budget_ms), &sig);
		if (how != ISO_UNAVAILABLE) {
			ps->res->isolated++;
			ps->res->isolated_lost += how != ISO_DONE;
			return how == ISO_DONE && len == 1 && unsat;
		}
	}
	return Z3_solver_check(ps->z, s) == Z3_L_FALSE;
}

/* The abstract query (verify/abstract.h) gets this budget: without
 * multipliers, the queries it can prove are easy. */
enum { ABS_MS = 50 };

/* Asks the abstract query that the incremental solver S3 holds, the goal
 * included, of a fresh bit-blasting solver (the qfufbv tactic) with four
 * times ABS_MS (it runs rarely, and a loaded machine should not turn its
 * proofs into unknowns): Z3's incremental core is poor at some queries that mix
 * the stand-ins with bit-vector reasoning (measured: one timed out after 10 s
 * that the tactic proves in 20 ms).  *ANS becomes Z3_L_FALSE only when
 * that proves the query unsatisfiable. */
static jp_status abstract_tactic(pst *ps, Z3_lbool *ans, jp_err *err)
{
	Z3_context z = ps->z;
	jp_status st = make_tactic_solver(ps, &ps->s4, "qfufbv", err);
	if (st)
		return st;
	Z3_solver_reset(z, ps->s4);
	unsigned user = ps->opts->timeout_ms;
	unsigned ms = 4 * ABS_MS;
	set_limits(ps, ps->s4, user && user < ms ? user : ms);
	Z3_ast_vector v = Z3_solver_get_assertions(z, ps->s3);
	if (!v)
		return zc_check_error(err, "reading the abstract query");
	Z3_ast_vector_inc_ref(z, v);
	unsigned n = Z3_ast_vector_size(z, v);
	for (unsigned i = 0; i < n; i++)
		Z3_solver_assert(z, ps->s4, Z3_ast_vector_get(z, v, i));
	Z3_ast_vector_dec_ref(z, v);
	if (unsat_in_child(ps, ps->s4, user && user < ms ? user : ms))
		*ans = Z3_L_FALSE;
	return zc_check_error(err, "abstract fallback check");
}

/* Asks the abstraction of "assumptions and NEG": *ANS is Z3_L_FALSE only
 * when that is unsatisfiable, which proves NEG unsatisfiable too;
 * Z3_L_UNDEF otherwise.  When nothing is hidden the abstract query is the
 * exact one: *EXACT is set, and with ASK_EXACT it is asked and its answer
 * (sat with the inputs in X, unsat or unknown) is final for this solver;
 * without, it is not asked.  Pairs with multipliers somewhere (hard
 * pairs) keep no incremental exact solver, so this is how their queries
 * that do not involve the multipliers stay cheap. */
static jp_status abstract_query(pst *ps, Z3_ast neg, bool ask_exact,
				Z3_lbool *ans, uint64_t *x, bool *exact,
				jp_err *err)
{
	Z3_context z = ps->z;
	*ans = Z3_L_UNDEF;
	if (!ps->s3) {
		ps->s3 = Z3_mk_simple_solver(z);
		if (!ps->s3)
			return zc_check_error(err, "creating a solver");
		Z3_solver_inc_ref(z, ps->s3);
		unsigned user = ps->opts->timeout_ms;
		set_limits(ps, ps->s3, user && user < ABS_MS ? user : ABS_MS);
		abs_init(&ps->A, &ps->S);
	}
	for (; ps->abs_done < ps->nhyp; ps->abs_done++) {
		Z3_ast h =
		    abs_term(&ps->A, ps->hyp[ps->abs_done], &ps->abs_any);
		if (!h)
			return jp_fail(err, JP_EINTERNAL,
				       "abstracting an assumption: %s",
				       zc_error_text());
		Z3_solver_assert(z, ps->s3, h);
	}
	bool hid = ps->abs_any;
	Z3_ast g = abs_term(&ps->A, neg, &hid);
	if (!g)
		return jp_fail(err, JP_EINTERNAL, "abstracting a goal: %s",
			       zc_error_text());
	Z3_ast ax;
	if (!abs_axioms(&ps->A, &ax))
		return jp_fail(err, JP_EINTERNAL, "commutation axioms: %s",
			       zc_error_text());
	if (ax)
		Z3_solver_assert(z, ps->s3, ax);
	*exact = !hid;
	if (!hid && !ask_exact)
		return zc_check_error(err, "asserting an abstraction");
	if (hid)
		ps->res->abstract_calls++;
	Z3_solver_push(z, ps->s3);
	Z3_solver_assert(z, ps->s3, g);
	Z3_lbool a = Z3_solver_check(z, ps->s3);
	jp_status st;
	if (!hid) {
		*ans = a;
		st = read_answer(ps, ps->s3, ans, x, err);
	} else {
		st = zc_check_error(err, "abstract solver check");
		if (!st && a == Z3_L_UNDEF)
			st = abstract_tactic(ps, &a, err);
		if (!st && a == Z3_L_FALSE) {
			ps->res->abstract_proved++;
			*ans = Z3_L_FALSE;
		}
	}
	Z3_solver_pop(z, ps->s3, 1);
	return st ? st : zc_check_error(err, "solver pop");
}

/* One solver query: is NEG satisfiable under the current assumptions?  On
 * sat, X (when not NULL) receives the inputs.  QUICK queries (simplifying
 * a counterexample, which is optional) get only the incremental solver's
 * short budget. */
static jp_status query(pst *ps, Z3_ast neg, bool quick, Z3_lbool *ans,
		       uint64_t *x, jp_err *err)
{
	Z3_context z = ps->z;
	ps->qno++;
	ps->res->solver_calls++;
	double t0 = now_ms();
	unsigned user = ps->opts->timeout_ms;
	jp_status st;
	/* Once an obligation is unknown the pair cannot be proved; the rest
	 * only looks for a counterexample, with the short budget, so that a
	 * hard pair costs one timeout and not one per obligation. */
	if (ps->gave_up)
		quick = true;
	bool exact = false;
	st = abstract_query(ps, neg, hard_pair(ps), ans, x, &exact, err);
	if (st || *ans == Z3_L_FALSE || (exact && *ans == Z3_L_TRUE))
		goto done;
	if (hard_pair(ps)) {
		if (exact && quick)
			goto done; /* the short budget is spent */
		ps->res->slow_queries++;
		st = slow_check(
		    ps, neg, quick ? FAST_MS : budget_left(user, now_ms() - t0),
		    ans, x, err);
		goto done;
	}
	/* The push makes Z3 internalize the new assumptions: part of the
	 * cost of the query. */
	Z3_solver_push(z, ps->s);
	Z3_solver_assert(z, ps->s, neg);
	*ans = Z3_solver_check(z, ps->s);
	st = read_answer(ps, ps->s, ans, x, err);
	Z3_solver_pop(z, ps->s, 1);
	if (!st)
		st = zc_check_error(err, "solver pop");
	bool fallback;
	fast_budget(ps, &fallback);
	double spent = now_ms() - t0;
	if (!st && *ans == Z3_L_UNDEF && fallback && !quick &&
	    (user == 0 || spent + 1 < (double)user)) {
		ps->res->slow_queries++;
		st = slow_check(ps, neg, budget_left(user, spent), ans, x, err);
	}
done:
	ps->res->ms_solve += now_ms() - t0;
	if (!st && auditing(ps))
		st = recheck(ps, neg, *ans, err);
	return st;
}

/* ---- concrete screening ------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

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
	uint64_t r = rng_next(rng);
	switch (r & 3) {
	case 0:
	case 1: return p->v[(r >> 8) % p->n];
	case 2: /* small magnitude, either sign */
		return sem_mask(w, (r & 4) ? 0 - ((r >> 8) & 0xff)
					   : ((r >> 8) & 0xff));
	default: return sem_mask(w, rng_next(rng));
	}
}

/* The screening inputs: the examples, five uniform vectors (all 0, 1, -1,
 * MININT, MAXINT), then random mixes of pool and random values. */
static jp_status make_screen(pst *ps, jp_err *err)
{
	const ir_trace *o = ps->o;
	uint32_t n = o->ninputs, w = (uint32_t)o->width;
	uint32_t extra = ps->opts->screen_inputs;
	uint32_t total = ps->opts->nexamples + extra;
	ps->screen = calloc((size_t)total * n + 1, sizeof *ps->screen);
	if (!ps->screen)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	uint64_t *x = ps->screen;
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
				x[i] = (rng_next(&rng) % 4) * 0x10;
			else if (e < 5)
				x[i] = uni[e];
			else
				x[i] = random_int(&rng, (int)w, &p);
		}
	ps->nscreen = total;
	return JP_OK;
}

static cex_env make_cex_env(pst *ps);

/* Runs every screening input; *K >= 0 and X filled when one diverges. */
static jp_status screen(pst *ps, int32_t *k, uint64_t *x, jp_err *err)
{
	double t0 = now_ms();
	*k = -1;
	cex_env ce = make_cex_env(ps);
	uint32_t n = ps->o->ninputs;
	jp_status st = JP_OK;
	for (uint32_t e = 0; e < ps->nscreen && !st; e++) {
		const uint64_t *v = ps->screen + (size_t)e * n;
		st = cex_classify(&ce, v, k, err);
		if (!st && *k >= 0) {
			memcpy(x, v, n * sizeof *x);
			break;
		}
	}
	ps->res->ms_screen += now_ms() - t0;
	return st;
}

/* ---- self-check: the encoding agrees with the interpreter -------------- */

static jp_status eval_at(pst *ps, Z3_model m, Z3_ast t, uint64_t *v,
			 jp_err *err)
{
	Z3_ast r = NULL;
	if (!Z3_model_eval(ps->z, m, t, true, &r) || !r)
		return zc_check_error(err, "self-check evaluation")
			   ? JP_EINTERNAL
			   : jp_fail(err, JP_EINTERNAL,
				     "self-check: cannot evaluate a term");
	Z3_inc_ref(ps->z, r);
	bool ok;
	if (Z3_get_sort_kind(ps->z, Z3_get_sort(ps->z, r)) == Z3_BOOL_SORT) {
		Z3_lbool b = Z3_get_bool_value(ps->z, r);
		ok = b != Z3_L_UNDEF;
		*v = b == Z3_L_TRUE;
	} else {
		ok = zc_numeral(ps->z, r, v);
	}
	Z3_dec_ref(ps->z, r);
	if (!ok)
		return jp_fail(err, JP_EINTERNAL,
			       "self-check: a term does not evaluate to a "
			       "constant");
	return JP_OK;
}

static jp_status self_check_trace(pst *ps, Z3_model m, const enc_trace *e,
				  const interp_result *r, const char *which,
				  jp_err *err)
{
	const ir_trace *t = e->t;
	for (ir_vid v = 0; v < t->nvals; v++) {
		if (!r->known[v] || !e->val[v])
			continue;
		uint64_t got;
		jp_status st = eval_at(ps, m, e->val[v], &got, err);
		if (st)
			return st;
		if (got != r->vals[v])
			return jp_fail(
			    err, JP_EINTERNAL,
			    "self-check: the encoding of %s value '%s' gives "
			    "0x%llx, the interpreter 0x%llx",
			    which, ir_valname(t, v), (unsigned long long)got,
			    (unsigned long long)r->vals[v]);
	}
	for (uint32_t i = 0; i < t->nops && i <= r->stop_op; i++) {
		Z3_ast term = e->pass[i] ? e->pass[i] : e->ovf[i];
		if (!term)
			continue;
		bool want = e->pass[i] ? !(r->outcome == INTERP_GUARD_FAIL &&
					   r->stop_op == i)
				       : r->ovf[i];
		uint64_t got;
		jp_status st = eval_at(ps, m, term, &got, err);
		if (st)
			return st;
		if ((got != 0) != want)
			return jp_fail(err, JP_EINTERNAL,
				       "self-check: the encoding of %s op %u "
				       "(%s) disagrees with the interpreter",
				       which, i, ir_op_name(t, &t->ops[i]));
	}
	return JP_OK;
}

static jp_status self_check_at(pst *ps, const uint64_t *x, jp_err *err)
{
	Z3_context z = ps->z;
	Z3_model m = Z3_mk_model(z);
	if (!m)
		return zc_check_error(err, "self-check model");
	Z3_model_inc_ref(z, m);
	for (uint32_t i = 0; i < ps->o->ninputs; i++) {
		Z3_ast var = ps->vars[i];
		Z3_func_decl d = Z3_get_app_decl(z, Z3_to_app(z, var));
		unsigned w = Z3_get_bv_sort_size(z, Z3_get_sort(z, var));
		Z3_add_const_interp(z, m, d, zc_bv(&ps->S, w, x[i]));
	}
	interp_result ro, rp;
	jp_status st = cex_run(ps->o, x, &ro, err);
	if (!st) {
		st = cex_run(ps->p, x, &rp, err);
		if (!st) {
			st = self_check_trace(ps, m, &ps->eo, &ro, "original",
					      err);
			if (!st)
				st = self_check_trace(ps, m, &ps->ep, &rp,
						      "optimized", err);
			interp_result_free(&rp);
		}
		interp_result_free(&ro);
	}
	Z3_model_dec_ref(z, m);
	return st;
}

/* ---- counterexamples --------------------------------------------------- */

/* The solver side of cex_simplify: obligation K fails with inputs before I
 * pinned and input I within [-BOUND, BOUND]. */
static int requery(void *ud, int32_t k, const uint64_t *vals, uint32_t i,
		   uint64_t bound, uint64_t *out, jp_err *err)
{
	pst *ps = ud;
	if (encode(ps, err))
		return -1;
	/* With multipliers or dividers of unknowns a query can take far
	 * longer than its time limit (Z3 cannot interrupt bit-blasting), and
	 * simplifying is optional: keep the concrete simplification only. */
	if (ps->eo.hard || ps->ep.hard)
		return 2;
	const obl *b = &ps->L.v[k];
	if (assume(ps, b->o_upto, b->p_upto, err))
		return -1;
	bool ident;
	Z3_ast neg = goal_neg(ps, b, &ident);
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
		c[n++] = mk_and(ps, 2, r);
	}
	Z3_ast q = mk_and(ps, n, c);
	free(c);
	if (ps->S.failed) {
		jp_fail(err, JP_EINTERNAL, "building a re-query: %s",
			zc_error_text());
		return -1;
	}
	Z3_lbool ans;
	if (query(ps, q, true, &ans, out, err))
		return -1;
	return ans == Z3_L_TRUE ? 1 : ans == Z3_L_UNDEF ? 2 : 0;
}

static cex_env make_cex_env(pst *ps)
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
static jp_status finish_cex(pst *ps, uint64_t *x, int32_t k, ver_how how,
			    double t0, jp_err *err)
{
	cex_env ce = make_cex_env(ps);
	jp_status st = JP_OK;
	if (ps->opts->simplify)
		st = cex_simplify(&ce, x, &k, err);
	if (!st && ps->opts->self_check && ps->encoded)
		st = self_check_at(ps, x, err);
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
	settle(ps, (uint32_t)k, VER_REFUTED, how, now_ms() - t0);
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

/* ---- lemmas: values the optimizer changed but kept equal --------------- */

/* The optimizer keeps the names of the values it keeps, so an OPT value
 * and the ORIG value of the same name are usually equal, even when the
 * optimizer computes it differently (x * 8 as x << 3, a bound made
 * redundant, ...).  Once that is proved under the current assumptions,
 * every later term can use the ORIG term, and what depends on the value
 * becomes identical in both traces instead of being a new, often harder,
 * solver query each time.  Only aligned walks use lemmas: there the
 * assumptions only grow, so a lemma stays true for every later
 * obligation. */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static jp_status find_candidates(pst *ps, jp_err *err)
{
	const ir_trace *o = ps->o, *p = ps->p;
	uint32_t cap = 16;
	while (cap < 2 * o->nvals + 2)
		cap *= 2;
	uint32_t *tab = malloc((size_t)cap * sizeof *tab);
	ps->cand_o = malloc(((size_t)p->nops + 1) * sizeof *ps->cand_o);
	ps->cand_p = malloc(((size_t)p->nops + 1) * sizeof *ps->cand_p);
	if (!tab || !ps->cand_o || !ps->cand_p) {
		free(tab);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	memset(tab, 0xff, (size_t)cap * sizeof *tab);
	for (ir_vid v = 0; v < o->nvals; v++) {
		if (ir_val(o, v)->tag > IR_VAL_OP)
			continue;
		uint32_t k = name_hash(ir_valname(o, v)) & (cap - 1);
		while (tab[k] != UINT32_MAX)
			k = (k + 1) & (cap - 1);
		tab[k] = v;
	}
	for (uint32_t j = 0; j < p->nops; j++) {
		ir_vid pv = p->ops[j].result;
		if (pv == IR_NOVAL || !ps->ep.val[pv])
			continue;
		const char *name = ir_valname(p, pv);
		uint32_t k = name_hash(name) & (cap - 1);
		for (; tab[k] != UINT32_MAX; k = (k + 1) & (cap - 1)) {
			ir_vid ov = tab[k];
			if (strcmp(ir_valname(o, ov), name))
				continue;
			if (ir_val(o, ov)->kind == ir_val(p, pv)->kind &&
			    ps->eo.val[ov] &&
			    ps->eo.val[ov] != ps->ep.val[pv]) {
				ps->cand_o[ps->ncand] = ov;
				ps->cand_p[ps->ncand++] = pv;
			}
			break;
		}
	}
	free(tab);
	return JP_OK;
}

/* Appends FROM -> TO to a substitution map (the lemmas' or the facts'):
 * two arrays of length *N, grown together. */
static jp_status map_push(Z3_ast **from, Z3_ast **to, uint32_t *n,
			  uint32_t *cap, Z3_ast f, Z3_ast t, jp_err *err)
{
	if (*n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 16;
		Z3_ast *nf = realloc(*from, ncap * sizeof *nf);
		if (!nf)
			return jp_fail(err, JP_ENOMEM, "out of memory");
		*from = nf;
		Z3_ast *nt = realloc(*to, ncap * sizeof *nt);
		if (!nt)
			return jp_fail(err, JP_ENOMEM, "out of memory");
		*to = nt;
		*cap = ncap;
	}
	(*from)[*n] = f;
	(*to)[(*n)++] = t;
	return JP_OK;
}

static jp_status add_lemma(pst *ps, Z3_ast from, Z3_ast to, jp_err *err)
{
	lemmas_changed(ps);
	return map_push(&ps->lem_from, &ps->lem_to, &ps->nlem, &ps->caplem,
			from, to, err);
}

/* ---- facts: terms an assumption pins to a constant ----
 *
 * An assumption "T = C" with C a numeral makes T, and every term that T is
 * an invertible function of by constants (x + k, x - k, k - x, x ^ k, -x,
 * ~x), a known constant under every later assumption.  guard_value is the
 * common source: the optimizer folds the guarded constant into the code
 * after the guard, and substituting it into the original's terms as well
 * often makes the two sides identical terms, with no solver call (the
 * incremental solver does not eliminate such equalities itself, and a
 * product over a pinned value then costs a bit-blasted multiplier).  A
 * Boolean assumption B likewise makes B true, "not B" makes B false, and
 * ite(B, k1, k2) = k1 makes B true.  Each replacement is an equality
 * implied by the assumptions, which stay asserted, so it keeps every
 * proof and every model.  Facts live with the lemmas and are dropped with
 * them when the assumptions are reset. */

static jp_status add_fact(pst *ps, Z3_ast from, Z3_ast to, fact_kind kind,
			  jp_err *err)
{
	if (!from || !to || from == to ||
	    Z3_get_ast_kind(ps->z, from) == Z3_NUMERAL_AST)
		return JP_OK;
	bool added;
	if (!zc_idset_put(&ps->factids, Z3_get_ast_id(ps->z, from), ps->nfact,
			  &added))
		return jp_fail(err, JP_ENOMEM, "out of memory");
	if (!added)
		return JP_OK; /* the first fact of a term stays */
	jp_status st = map_push(&ps->fact_from, &ps->fact_to, &ps->nfact,
				&ps->capfact, from, to, err);
	if (!st && kind == FACT_KEPT)
		st = map_push(&ps->kept_from, &ps->kept_to, &ps->nkept,
			      &ps->capkept, from, to, err);
	return st;
}

/* The width of bit-vector term T, or 0 when it is no bit-vector of at most
 * 64 bits. */
static unsigned bv_width(Z3_context z, Z3_ast t)
{
	Z3_sort so = Z3_get_sort(z, t);
	if (Z3_get_sort_kind(z, so) != Z3_BV_SORT)
		return 0;
	unsigned w = Z3_get_bv_sort_size(z, so);
	return w <= 64 ? w : 0;
}

/* One step back from "T = C" to the argument of T: *X and *C become the
 * argument and its value, or false when T is no invertible step. */
static bool invert_step(Z3_context z, Z3_ast t, Z3_ast *x, uint64_t *c)
{
	Z3_app a;
	uint64_t k;
	if (zc_app_of(z, t, Z3_OP_BNEG, 1, &a)) {
		*x = zc_arg_of(z, a, 0);
		*c = 0 - *c;
		return true;
	}
	if (zc_app_of(z, t, Z3_OP_BNOT, 1, &a)) {
		*x = zc_arg_of(z, a, 0);
		*c = ~*c;
		return true;
	}
	Z3_decl_kind kinds[3] = {Z3_OP_BADD, Z3_OP_BSUB, Z3_OP_BXOR};
	for (int i = 0; i < 3; i++) {
		if (!zc_app_of(z, t, kinds[i], 2, &a))
			continue;
		Z3_ast l = zc_arg_of(z, a, 0), r = zc_arg_of(z, a, 1);
		bool kl = zc_numeral(z, l, &k);
		if (!kl && !zc_numeral(z, r, &k))
			return false;
		*x = kl ? r : l;
		if (kinds[i] == Z3_OP_BXOR)
			*c ^= k;
		else if (kinds[i] == Z3_OP_BADD)
			*c -= k;
		else
			*c = kl ? k - *c : *c + k; /* k - x = c, x - k = c */
		return true;
	}
	return false;
}

enum { FACT_DEPTH = 8 };

static jp_status learn_value(pst *ps, Z3_ast t, uint64_t c, fact_kind kind,
			     jp_err *err)
{
	Z3_context z = ps->z;
	for (int d = 0; d < FACT_DEPTH; d++) {
		unsigned w = bv_width(z, t);
		if (!w)
			return JP_OK;
		c &= w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
		jp_status st = add_fact(ps, t, zc_bv(&ps->S, w, c), kind, err);
		if (st)
			return st;
		Z3_app a;
		uint64_t k1, k2;
		if (zc_app_of(z, t, Z3_OP_ITE, 3, &a) &&
		    zc_numeral(z, zc_arg_of(z, a, 1), &k1) &&
		    zc_numeral(z, zc_arg_of(z, a, 2), &k2) && k1 != k2 &&
		    (c == k1 || c == k2))
			return learn_facts(ps,
					   c == k1
					       ? zc_arg_of(z, a, 0)
					       : mk_not(ps, zc_arg_of(z, a, 0)),
					   d + 1, kind, err);
		if (!invert_step(z, t, &t, &c))
			return JP_OK;
	}
	return JP_OK;
}

/* Learns what assumption H pins (above). */
static jp_status learn_facts(pst *ps, Z3_ast h, int depth, fact_kind kind,
			     jp_err *err)
{
	Z3_context z = ps->z;
	if (depth > FACT_DEPTH || zc_is_true(z, h) || zc_is_false(z, h))
		return JP_OK;
	Z3_app a;
	uint64_t c;
	if (zc_app_of(z, h, Z3_OP_EQ, 2, &a)) {
		Z3_ast l = zc_arg_of(z, a, 0), r = zc_arg_of(z, a, 1);
		if (zc_numeral(z, r, &c))
			return learn_value(ps, l, c, kind, err);
		if (zc_numeral(z, l, &c))
			return learn_value(ps, r, c, kind, err);
	}
	if (zc_app_of(z, h, Z3_OP_NOT, 1, &a))
		return add_fact(ps, zc_arg_of(z, a, 0), zc_false(&ps->S), kind,
				err);
	if (Z3_get_ast_kind(z, h) == Z3_APP_AST &&
	    Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, h))) ==
		Z3_OP_AND) {
		a = Z3_to_app(z, h);
		unsigned n = Z3_get_app_num_args(z, a);
		for (unsigned i = 0; i < n; i++) {
			jp_status st = learn_facts(ps, zc_arg_of(z, a, i),
						   depth + 1, kind, err);
			if (st)
				return st;
		}
		return JP_OK;
	}
	return add_fact(ps, h, zc_true(&ps->S), kind, err);
}

static jp_status query(pst *ps, Z3_ast neg, bool quick, Z3_lbool *ans,
		       uint64_t *x, jp_err *err);

/* Lemmas are optional, and a candidate the short budget cannot settle is
 * usually a product or quotient the optimizer rewrote, like the pair's
 * next candidates: each such query costs the abstract and the
 * bit-blasting budget (about 100 ms).  On the bench's 1000-op pairs one
 * pair spent 1.3 s of its 1.8 s on thirteen of them.  After this many,
 * a pair tries no more lemmas (those proved stay in use). */
enum { LEMMA_UNKNOWNS = 2 };

/* Tries the candidates defined before OPT op P_UPTO, each with the short
 * budget.  *ADDED says whether a lemma was proved. */
static jp_status try_lemmas(pst *ps, uint32_t p_upto, bool *added, jp_err *err)
{
	*added = false;
	for (; ps->next_cand < ps->ncand && ps->lemma_unknowns < LEMMA_UNKNOWNS;
	     ps->next_cand++) {
		ir_vid pv = ps->cand_p[ps->next_cand];
		ir_vid ov = ps->cand_o[ps->next_cand];
		if (ps->p->vals[pv].def >= p_upto)
			break;
		Z3_ast raw = ps->ep.val[pv];
		Z3_ast x = subst(ps, raw), y = subst(ps, ps->eo.val[ov]);
		if (x == y)
			continue;
		/* With the facts substituted (a refolded product against
		 * the optimizer's shifts, say) the two often become one
		 * term, and the query is then not needed; otherwise the
		 * query gets the smaller terms.  The facts hold under the
		 * assumptions, so the lemma does. */
		Z3_ast fx = subst_facts(ps, x), fy = subst_facts(ps, y);
		Z3_lbool ans = Z3_L_FALSE;
		jp_status st = JP_OK;
		Z3_ast neg = NULL, simp = NULL;
		if (fx != fy) {
			neg = mk_not(ps,
				     zc_keep(&ps->S, Z3_mk_eq(ps->z, fx, fy)));
			simp = zc_keep(&ps->S, Z3_simplify(ps->z, neg));
		}
		if (fx != fy && (!simp || !zc_is_false(ps->z, simp))) {
			ps->res->lemma_queries++;
			st = query(ps, neg, true, &ans, NULL, err);
			if (!st && ans == Z3_L_UNDEF)
				ps->lemma_unknowns++;
		}
		if (!st && ans == Z3_L_FALSE) {
			st = add_lemma(ps, raw, y, err);
			if (!st && x != raw)
				st = add_lemma(ps, x, y, err);
			ps->res->lemmas++;
			*added = true;
		}
		if (st)
			return st;
	}
	return JP_OK;
}

/* ---- refolding: ops the facts make cheap -------------------------------
 *
 * The encoder gives a product or quotient with a constant argument a
 * cheap term (enc_peephole: a shift, a mask, the one multiply-high form
 * of a division by a constant), but it sees only the constants written
 * in the trace.  A fact can pin a divisor later: the original divides by
 * a value that a guard_value or the ranges make 7, while the optimizer
 * folded the 7 in and the encoder recognized its multiply-high sequence.
 * Substituting the fact leaves the original's general divider, with a
 * constant divisor, against the optimized trace's cheap term, and a
 * solver that bit-blasts a 64-bit divider to relate them.  So each such
 * op whose argument a fact pins becomes a fact itself: its term is
 * replaced by enc_peephole's on the pinned arguments.  That term equals
 * the op on the pinned arguments for every input, and those equal the
 * op's arguments under the assumptions: an equality the assumptions
 * imply, like every fact, and dropped with them.  An add, sub, xor, and
 * or whose two arguments the facts make one value is refolded the same
 * way (x + x is x << 1, as the optimizer writes it). */

/* Whether T has a fact (is replaced by subst_facts). */
static bool is_fact(pst *ps, Z3_ast t)
{
	return zc_idset_has(&ps->factids, Z3_get_ast_id(ps->z, t));
}

/* An argument of an op as the constant a fact pins it to (the term
 * itself, not a subterm: the ranges pin a value and the values computed
 * from it, so this is where a pinned divisor shows), else as LEM, the
 * argument RAW with the lemmas.  A lookup: it is asked for every
 * candidate op whenever the facts grow.  A fact whose term is a numeral
 * is read off directly, as subst_facts would find it; each call of that
 * makes Z3 a map of all the facts, which on a 1000-op pair took a
 * quarter of the check time here. */
static Z3_ast pinned(pst *ps, Z3_ast raw, Z3_ast lem)
{
	Z3_ast t = is_fact(ps, raw)	     ? raw
		   : lem && is_fact(ps, lem) ? lem
					     : NULL;
	if (!t)
		return lem;
	uint32_t i;
	if (zc_idset_get(&ps->factids, Z3_get_ast_id(ps->z, t), &i) &&
	    Z3_get_ast_kind(ps->z, ps->fact_to[i]) == Z3_NUMERAL_AST)
		return ps->fact_to[i];
	return subst_facts(ps, t);
}

/* Whether OPC has a cheaper term for one value twice (enc_peephole):
 * x + x is x << 1, which a fact can make of x + y. */
static bool same_value_op(ir_opcode opc)
{
	return opc == IR_INT_ADD || opc == IR_INT_SUB || opc == IR_INT_XOR ||
	       opc == IR_INT_AND || opc == IR_INT_OR;
}

/* Whether op OPI of E multiplies or divides two values that are not
 * constants in the trace (the ops enc_peephole has not seen a constant
 * of), or is a same_value_op on two values that are not. */
static bool refold_candidate(pst *ps, const enc_trace *e, uint32_t opi)
{
	const ir_op *op = &e->t->ops[opi];
	ir_opcode opc = (ir_opcode)op->opc;
	uint64_t c;
	return (opc == IR_INT_MUL || opc == IR_INT_MUL_OVF ||
		opc == IR_UINT_MUL_HIGH || opc == IR_INT_PY_DIV ||
		opc == IR_INT_PY_MOD || same_value_op(opc)) &&
	       op->result != IR_NOVAL && e->val[op->result] &&
	       e->val[op->args[0]] && e->val[op->args[1]] &&
	       !zc_numeral(ps->z, e->val[op->args[0]], &c) &&
	       !zc_numeral(ps->z, e->val[op->args[1]], &c);
}

/* The terms refold_op reads, with the lemmas applied: the op's value (and
 * overflow check) and its two arguments.  Applying the lemmas walks the
 * whole term, so on a 1000-op pair doing it for every candidate whenever
 * the facts grew took a quarter of the check time; the lemmas change far
 * less often than the facts. */
typedef struct rterm {
	Z3_ast from, ofrom, a[2];
} rterm;

/* The trace and op index of op number I of the pair: ORIG ops are
 * numbered first, then OPT ops after ORIG's op count. */
static const enc_trace *pair_op(const pst *ps, uint32_t i, uint32_t *opi)
{
	bool orig = i < ps->o->nops;
	*opi = orig ? i : i - ps->o->nops;
	return orig ? &ps->eo : &ps->ep;
}

static const enc_trace *cand_op(const pst *ps, uint32_t k, uint32_t *opi)
{
	return pair_op(ps, ps->rcand[k], opi);
}

/* The candidates of both traces, once per pair.  There are at most as
 * many as ops, so the lists are allocated once at that size. */
static jp_status refold_candidates(pst *ps, jp_err *err)
{
	if (ps->rcand)
		return JP_OK;
	uint32_t n = ps->o->nops + ps->p->nops;
	ps->rcand = malloc(((size_t)n + 1) * sizeof *ps->rcand);
	ps->rterm = malloc(((size_t)n + 1) * sizeof *ps->rterm);
	if (!ps->rcand || !ps->rterm) {
		free(ps->rcand); /* both made again on the next call */
		free(ps->rterm);
		ps->rcand = NULL;
		ps->rterm = NULL;
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t opi;
		const enc_trace *e = pair_op(ps, i, &opi);
		if (refold_candidate(ps, e, opi))
			ps->rcand[ps->nrcand++] = i;
	}
	return JP_OK;
}

/* Makes the candidates' rterms for the current lemmas. */
static void refold_terms(pst *ps)
{
	if (ps->rterm_gen == ps->lem_gen)
		return;
	for (uint32_t k = 0; k < ps->nrcand; k++) {
		uint32_t opi;
		const enc_trace *e = cand_op(ps, k, &opi);
		const ir_op *op = &e->t->ops[opi];
		rterm *rt = &ps->rterm[k];
		rt->from = subst(ps, e->val[op->result]);
		rt->ofrom =
		    op->opc == IR_INT_MUL_OVF ? subst(ps, e->ovf[opi]) : NULL;
		for (int j = 0; j < 2; j++)
			rt->a[j] = subst(ps, e->val[op->args[j]]);
	}
	ps->rterm_gen = ps->lem_gen;
}

/* Makes candidate K a fact when a fact pins an argument (or makes the two
 * arguments of a same_value_op one) and enc_peephole has a term for the
 * op on the pinned arguments.  The overflow check of int_mul_ovf becomes
 * one too: by a constant it is a range test (enc_op), where the trace's
 * term has a 2W multiplier. */
static jp_status refold_op(pst *ps, uint32_t k, jp_err *err)
{
	uint32_t opi;
	const enc_trace *e = cand_op(ps, k, &opi);
	const ir_op *op = &e->t->ops[opi];
	ir_opcode opc = (ir_opcode)op->opc;
	const rterm *rt = &ps->rterm[k];
	if (!rt->from ||
	    (is_fact(ps, rt->from) && (!rt->ofrom || is_fact(ps, rt->ofrom))))
		return JP_OK;
	Z3_ast a[2] = {pinned(ps, e->val[op->args[0]], rt->a[0]),
		       pinned(ps, e->val[op->args[1]], rt->a[1])};
	uint64_t c;
	if (!a[0] || !a[1])
		return JP_OK;
	if (same_value_op(opc)
		? a[0] != a[1]
		: !zc_numeral(ps->z, a[0], &c) && !zc_numeral(ps->z, a[1], &c))
		return JP_OK;
	if (opc != IR_INT_MUL_OVF)
		return add_fact(ps, rt->from,
				enc_peephole(&ps->S, e->w, opc, a), FACT_KEPT,
				err);
	/* enc_op gives both: the value is enc_peephole's product. */
	Z3_ast ovf = NULL;
	jp_status st = add_fact(
	    ps, rt->from, enc_op(&ps->S, e->w, opc, a, &ovf), FACT_KEPT, err);
	return st ? st : add_fact(ps, rt->ofrom, ovf, FACT_KEPT, err);
}

/* Refolds the candidates when facts were learned since the last time.
 * Every pair, not only those that multiply or divide: a same-argument
 * fact turns x + y into x + x, an adder the solver takes a second to
 * match with the optimizer's x << 1. */
static jp_status refold(pst *ps, jp_err *err)
{
	if (ps->nfact == ps->refold_nfact)
		return JP_OK;
	jp_status st = refold_candidates(ps, err);
	if (!st)
		refold_terms(ps);
	for (uint32_t k = 0; !st && k < ps->nrcand; k++)
		st = refold_op(ps, k, err);
	ps->refold_nfact = ps->nfact;
	if (!st && ps->S.failed)
		st = jp_fail(err, JP_EINTERNAL, "refolding: %s",
			     zc_error_text());
	return st;
}

/* ---- one mode ---------------------------------------------------------- */

typedef struct run_flags {
	bool screen;	 /* run the concrete screening first */
	bool proof_only; /* stop at the first obligation not proved */
} run_flags;

/* Settles obligation I without a solver search if it can: identical
 * terms, Z3's rewriter, or either after new lemmas.  Otherwise *NEG is its
 * negated goal (NULL when it was settled).  The assumptions must be made
 * already. */
/* Whether guard K of the trace analysed by R, already advanced to the
 * assumption bound UPTO, certainly passes. */
static bool passes(const vr_state *r, uint32_t upto, uint32_t k)
{
	return k != OBL_NONE && k >= upto && vr_guard_passes(r, k);
}

/* Whether the range analyses of the two traces settle B: its assumptions
 * contradict each other, or the guards it is about certainly pass, or the
 * two outputs it compares are certainly the same constant.  Each analysis
 * uses only the guards of its own trace before the bound, a subset of
 * B's assumptions, so what it concludes holds under all of them. */
static bool range_settles(pst *ps, const obl *b)
{
	if (auditing(ps))
		return false;
	vr_advance(ps->vo, b->o_upto);
	vr_advance(ps->vp, b->p_upto);
	if (vr_infeasible(ps->vo) || vr_infeasible(ps->vp))
		return true;
	switch (b->kind) {
	case OBL_SAME:
		return passes(ps->vo, b->o_upto, b->og) &&
		       passes(ps->vp, b->p_upto, b->pg);
	case OBL_FAILARGS:
		return passes(ps->vo, b->o_upto, b->og) ||
		       passes(ps->vp, b->p_upto, b->pg);
	case OBL_REMOVED:
	case OBL_T_ORIG: return passes(ps->vo, b->o_upto, b->og);
	case OBL_NEW:
	case OBL_T_OPT: return passes(ps->vp, b->p_upto, b->pg);
	case OBL_OUTPUT: {
		const ir_op *eo = &ps->o->ops[ps->o->nops - 1];
		const ir_op *ep = &ps->p->ops[ps->p->nops - 1];
		ir_vid x = eo->args[b->j], y = ep->args[b->j];
		uint64_t cx, cy;
		if (ir_val(ps->o, x)->kind == 'r' ||
		    ir_val(ps->p, y)->kind == 'r')
			return false;
		return vr_const(ps->vo, x, &cx) && vr_const(ps->vp, y, &cy) &&
		       cx == cy;
	}
	case OBL_END: return false;
	}
	return false;
}

/* Learns, as facts, the values that the range analysis of trace T (state
 * R, encoding E) pins to one constant before op UPTO: the guards before it
 * are among the query's assumptions, so the facts hold under them.  The
 * optimizer folds such values (x | c is -1 once x is known negative), and
 * the solver would otherwise find them again by bit-blasting, sometimes
 * through a 128-bit overflow multiplier.  One vr_narrow pass, then a look
 * at each stored fact: asking vr_const of every value re-evaluated a few
 * levels back each time, for every obligation that got this far, and was
 * the largest cost of a 1000-op check.  Terms that are facts already are
 * skipped before a numeral is made for them.  An op that the ranges show
 * returns an argument unchanged (x & 63 with x <= 31, vr_same_arg) gets
 * the fact that its term is the argument's: the optimizer drops such ops,
 * and the two sides then meet as one term. */
static jp_status facts_of_ranges(pst *ps, vr_state *r, const ir_trace *t,
				 const enc_trace *e, uint32_t upto, jp_err *err)
{
	if (auditing(ps))
		return JP_OK;
	vr_advance(r, upto);
	if (vr_infeasible(r))
		return JP_OK;
	vr_narrow(r);
	for (ir_vid v = 0; v < t->nvals; v++) {
		uint64_t c;
		const ir_value *x = ir_val(t, v);
		if (x->kind != 'i' || x->tag == IR_VAL_CONST_INT ||
		    !e->val[v] || !vr_known(r, v, &c) || is_fact(ps, e->val[v]))
			continue;
		jp_status st = learn_value(ps, e->val[v], c, FACT_PINNED, err);
		if (st)
			return st;
	}
	for (uint32_t i = 0; i < upto && i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		int k = vr_same_arg(r, i);
		if (k < 0 || !e->val[op->result] ||
		    is_fact(ps, e->val[op->result]))
			continue;
		jp_status st = add_fact(ps, e->val[op->result],
					e->val[op->args[k]], FACT_KEPT, err);
		if (st)
			return st;
	}
	return JP_OK;
}

static jp_status settle_cheaply(pst *ps, uint32_t i, double t1, Z3_ast *neg,
				jp_err *err)
{
	const obl *b = &ps->L.v[i];
	*neg = NULL;
	for (int round = 0; round < 2; round++) {
		bool ident;
		Z3_ast g = goal_neg(ps, b, &ident);
		if (ps->S.failed)
			return jp_fail(err, JP_EINTERNAL, "building a goal: %s",
				       zc_error_text());
		if (ident) {
			settle(ps, i, VER_PROVED, VER_BY_IDENTITY,
			       now_ms() - t1);
			return JP_OK;
		}
		if (round == 0 && range_settles(ps, b)) {
			settle(ps, i, VER_PROVED, VER_BY_RANGE, now_ms() - t1);
			return JP_OK;
		}
		/* Z3's rewriter settles many more without a search (x + x
		 * and x << 1, double negations, ...); it costs a few
		 * microseconds on these small terms. */
		Z3_ast simp = zc_keep(&ps->S, Z3_simplify(ps->z, g));
		if (simp && zc_is_false(ps->z, simp)) {
			settle(ps, i, VER_PROVED, VER_BY_REWRITE,
			       now_ms() - t1);
			return JP_OK;
		}
		/* The same with the pinned terms replaced by their
		 * constants; the solver gets the smaller goal too. */
		if (round == 0) {
			jp_status st = facts_of_ranges(ps, ps->vo, ps->o,
						       &ps->eo, b->o_upto, err);
			if (!st)
				st = facts_of_ranges(ps, ps->vp, ps->p, &ps->ep,
						     b->p_upto, err);
			if (!st)
				st = refold(ps, err);
			if (st)
				return st;
		}
		Z3_ast f = subst_facts(ps, g);
		if (f != g) {
			simp = zc_keep(&ps->S, Z3_simplify(ps->z, f));
			if ((simp && zc_is_false(ps->z, simp)) ||
			    false_by_kept(ps, g)) {
				settle(ps, i, VER_PROVED, VER_BY_REWRITE,
				       now_ms() - t1);
				return JP_OK;
			}
			g = f;
		}
		*neg = g;
		bool added = false;
		if (round == 0 && ps->lemmas_on) {
			jp_status st = try_lemmas(ps, b->p_upto, &added, err);
			if (st)
				return st;
		}
		if (!added)
			return JP_OK;
	}
	return JP_OK;
}

/* Checks every obligation of the current mode.  With proof_only, *PROVED
 * says whether all were proved and nothing else is concluded. */
static jp_status run_mode(pst *ps, const uint32_t *match, run_flags fl,
			  bool *proved, jp_err *err)
{
	obl_list_free(&ps->L);
	jp_status st = obl_build(ps->o, ps->p, ps->mode, match,
				 ps->opts->failargs, &ps->L, err);
	if (!st)
		st = init_obligations(ps, err);
	if (st)
		return st;
	ps->res->mode_used = ps->mode;
	*proved = false;
	uint32_t n = ps->o->ninputs;
	uint64_t *x = calloc(n + 1, sizeof *x);
	if (!x)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	double t0 = now_ms();
	int32_t k = -1;
	if (fl.screen)
		st = screen(ps, &k, x, err);
	if (!st && k >= 0) {
		st = finish_cex(ps, x, k, VER_BY_CONCRETE, t0, err);
		free(x);
		return st;
	}
	if (!st)
		st = encode(ps, err);
	ps->lemmas_on = ps->mode != VER_MODE_TRACE;
	drop_lemmas(ps);
	ps->next_cand = 0;
	if (!st && ps->lemmas_on && !ps->cand_o)
		st = find_candidates(ps, err);
	if (!st && ps->opts->self_check)
		for (uint32_t e = 0; e < ps->nscreen && e < 8 && !st; e++)
			st = self_check_at(ps, ps->screen + (size_t)e * n, err);
	bool all = true;
	for (uint32_t i = 0; i < ps->L.n && !st; i++) {
		const obl *b = &ps->L.v[i];
		double t1 = now_ms();
		st = assume(ps, b->o_upto, b->p_upto, err);
		if (st)
			break;
		Z3_ast neg = NULL;
		st = settle_cheaply(ps, i, t1, &neg, err);
		if (st || !neg)
			continue;
		Z3_lbool ans;
		st = query(ps, neg, false, &ans, x, err);
		if (st)
			break;
		if (ans == Z3_L_FALSE) {
			settle(ps, i, VER_PROVED, VER_BY_SOLVER, now_ms() - t1);
			continue;
		}
		all = false;
		if (ans == Z3_L_UNDEF) {
			ps->gave_up = true;
			settle(ps, i, VER_UNKNOWN, VER_BY_NONE, now_ms() - t1);
			if (ps->res->failed < 0)
				ps->res->failed = (int32_t)i;
			if (fl.proof_only)
				break;
			continue;
		}
		if (fl.proof_only)
			break;
		/* A model: believe it only if the interpreter agrees. */
		cex_env ce = make_cex_env(ps);
		st = cex_classify(&ce, x, &k, err);
		if (st)
			break;
		/* The first obligation failing on X can be earlier than I
		 * only if that one was not proved (finish_cex checks), and
		 * must not be later: then the solver and the interpreter
		 * disagree about obligation I. */
		if (k < 0 || (uint32_t)k > i) {
			st =
			    jp_fail(err, JP_EINTERNAL,
				    "the solver's counterexample for '%s' does "
				    "not replay on the interpreter (an "
				    "encoder bug)",
				    ps->res->obl[i].what);
			break;
		}
		st = finish_cex(ps, x, k, VER_BY_SOLVER, t1, err);
		free(x);
		return st;
	}
	free(x);
	if (st)
		return st;
	if (all) {
		ps->res->verdict = VER_PROVED;
		ps->res->failed = -1;
		*proved = true;
	} else {
		ps->res->verdict = VER_UNKNOWN;
	}
	return JP_OK;
}

/* ---- inferred pairing -------------------------------------------------- */

static bool same_kind(ir_opcode a, ir_opcode b)
{
	return a == b;
}

/* Pairs each guard of OPT with a later-than-the-last-paired guard of ORIG:
 * the first with the very same condition term, else the first of the same
 * kind; unpaired guards count as new. */
static void infer_match(pst *ps, uint32_t *match)
{
	uint32_t cur = 0;
	for (uint32_t h = 0; h < ps->p->nops; h++) {
		match[h] = OBL_NONE;
		if (!ir_op_has(ps->p->ops[h].opc, IRF_GUARD))
			continue;
		uint32_t by_term = OBL_NONE, by_kind = OBL_NONE;
		for (uint32_t g = cur; g < ps->o->nops; g++) {
			if (!ir_op_has(ps->o->ops[g].opc, IRF_GUARD))
				continue;
			if (ps->eo.pass[g] == ps->ep.pass[h]) {
				by_term = g;
				break;
			}
			if (by_kind == OBL_NONE &&
			    same_kind((ir_opcode)ps->o->ops[g].opc,
				      (ir_opcode)ps->p->ops[h].opc))
				by_kind = g;
		}
		uint32_t g = by_term != OBL_NONE ? by_term : by_kind;
		if (g != OBL_NONE) {
			match[h] = g;
			cur = g + 1;
		}
	}
}

/* ---- the entry point --------------------------------------------------- */

static jp_status init_result(pst *ps, jp_err *err)
{
	ver_result *r = ps->res;
	const ir_trace *o = ps->o;
	r->failed = -1;
	r->verdict = VER_UNKNOWN;
	r->width = o->width;
	r->ninputs = o->ninputs;
	r->inputs = calloc(o->ninputs + 1, sizeof *r->inputs);
	r->input_names = calloc(o->ninputs + 1, sizeof *r->input_names);
	r->input_kinds = calloc(o->ninputs + 1, 1);
	if (!r->inputs || !r->input_names || !r->input_kinds)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < o->ninputs; i++) {
		r->input_kinds[i] = ir_val(o, o->inputs[i])->kind;
		r->input_names[i] = dup_str(ir_valname(o, o->inputs[i]));
		if (!r->input_names[i])
			return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	return JP_OK;
}

static jp_status check_modes(pst *ps, jp_err *err)
{
	const ver_opts *opts = ps->opts;
	uint32_t *match = calloc(ps->p->nops + 1, sizeof *match);
	if (!match)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	bool proved;
	jp_status st = JP_OK;
	bool infer = opts->mode == VER_MODE_AUTO &&
		     ir_count_guards(ps->p) > 0 && obl_all_implicit(ps->p);
	if (opts->mode == VER_MODE_TRACE) {
		ps->mode = VER_MODE_TRACE;
		st = run_mode(ps, NULL, (run_flags){true, false}, &proved, err);
	} else if (!infer) {
		ps->mode = VER_MODE_ALIGNED;
		st = obl_match_labels(ps->o, ps->p, match, err);
		if (st && err && !err->file[0])
			snprintf(err->file, sizeof err->file, "%s",
				 opts->opt_name ? opts->opt_name
						: "optimized trace");
		if (!st)
			st = run_mode(ps, match, (run_flags){true, false},
				      &proved, err);
	} else {
		/* Without labels, a divergence in whole-trace behaviour is
		 * real whatever the pairing; look for one first. */
		ps->mode = VER_MODE_TRACE;
		{
			int32_t k = -1;
			uint64_t *x = calloc(ps->o->ninputs + 1, sizeof *x);
			obl_list_free(&ps->L);
			st = x ? obl_build(ps->o, ps->p, VER_MODE_TRACE, NULL,
					   false, &ps->L, err)
			       : jp_fail(err, JP_ENOMEM, "out of memory");
			if (!st)
				st = init_obligations(ps, err);
			if (!st)
				st = screen(ps, &k, x, err);
			if (!st && k >= 0) {
				ps->res->mode_used = VER_MODE_TRACE;
				st = finish_cex(ps, x, k, VER_BY_CONCRETE,
						now_ms(), err);
				free(x);
				free(match);
				return st;
			}
			free(x);
		}
		if (!st)
			st = encode(ps, err);
		if (!st) {
			infer_match(ps, match);
			ps->mode = VER_MODE_INFERRED;
			st = run_mode(ps, match, (run_flags){false, true},
				      &proved, err);
		}
		if (!st && !proved) {
			ps->mode = VER_MODE_TRACE;
			ps->res->failed = -1;
			free(ps->res->reason);
			ps->res->reason = NULL;
			st = run_mode(ps, NULL, (run_flags){false, false},
				      &proved, err);
		}
	}
	free(match);
	return st;
}

/* A trace checked against itself must be proved, and without the solver:
 * every obligation's two sides are the same term. */
static jp_status self_check_identity(ver_ctx *c, const ir_trace *t,
				     const ver_opts *opts, jp_err *err)
{
	ver_opts o = *opts;
	o.self_check = false;
	o.screen_inputs = 4;
	o.mode = VER_MODE_ALIGNED;
	o.smt2_dir = NULL;
	o.solver_cmd = NULL;
	ver_result r;
	memset(&r, 0, sizeof r);
	jp_status st = ver_check(c, t, t, &o, &r, err);
	if (!st && (r.verdict != VER_PROVED || r.solver_calls != 0))
		st = jp_fail(err, JP_EINTERNAL,
			     "self-check: a trace checked against itself is "
			     "%s with %u solver calls",
			     ver_verdict_name(r.verdict), r.solver_calls);
	ver_result_free(&r);
	return st;
}

static void pst_free(pst *ps)
{
	if (ps->s)
		Z3_solver_dec_ref(ps->z, ps->s);
	if (ps->s2)
		Z3_solver_dec_ref(ps->z, ps->s2);
	if (ps->s3)
		Z3_solver_dec_ref(ps->z, ps->s3);
	if (ps->s4)
		Z3_solver_dec_ref(ps->z, ps->s4);
	if (ps->s3)
		abs_free(&ps->A);
	vr_free(ps->vo);
	vr_free(ps->vp);
	if (ps->encoded) {
		enc_trace_free(&ps->eo);
		enc_trace_free(&ps->ep);
	}
	zc_scope_release(&ps->S);
	free(ps->vars);
	free(ps->hyp);
	zc_idset_free(&ps->hypids);
	zc_idset_free(&ps->factids);
	sl_free(&ps->sl);
	free(ps->keep);
	free(ps->screen);
	free(ps->lem_from);
	free(ps->fact_from);
	free(ps->fact_to);
	free(ps->kept_from);
	free(ps->kept_to);
	free(ps->rcand);
	free(ps->rterm);
	free(ps->lem_to);
	free(ps->cand_o);
	free(ps->cand_p);
	obl_list_free(&ps->L);
}

jp_status ver_check(ver_ctx *c, const ir_trace *orig, const ir_trace *opt,
		    const ver_opts *opts, ver_result *res, jp_err *err)
{
	double t0 = now_ms();
	memset(res, 0, sizeof *res);
	res->failed = -1;
	jp_status st = check_pair(orig, opt, opts, err);
	if (!st && opts->nexamples && !opts->examples)
		st = jp_fail(err, JP_EINPUT, "nexamples without examples");
	bool heap = !st && (hp_uses_heap(orig) || hp_uses_heap(opt));
	if (!st && opts->self_check && !heap) {
		st = self_check_identity(c, orig, opts, err);
		if (!st)
			st = self_check_identity(c, opt, opts, err);
	}
	if (st)
		return st;
	st = zc_begin_check(&c->zc, err);
	if (st)
		return st;
	c->pairs++;
	if (heap) {
		/* The heap model has its own driver (verify/heap.h). */
		st = hp_check(c->zc.z, orig, opt, opts, res, err);
		res->ms_total = now_ms() - t0;
		if (!st && zc_failed())
			st = zc_check_error(err, "Z3");
		if (st)
			ver_result_free(res);
		return st;
	}
	pst ps;
	memset(&ps, 0, sizeof ps);
	ps.c = c;
	ps.z = c->zc.z;
	ps.o = orig;
	ps.p = opt;
	ps.opts = opts;
	ps.cap_mb = opts->memory_mb;
	ps.res = res;
	zc_scope_init(&ps.S, ps.z);
	sl_init(&ps.sl, ps.z);
	st = init_result(&ps, err);
	if (!st)
		st = make_screen(&ps, err);
	if (!st)
		st = check_modes(&ps, err);
	pst_free(&ps);
	res->ms_total = now_ms() - t0;
	if (!st && zc_failed())
		st = zc_check_error(err, "Z3");
	if (st) {
		ver_result_free(res);
		return st;
	}
	return JP_OK;
}

/* ---- JSON -------------------------------------------------------------- */

static const char *status_name(const ver_obligation *b)
{
	if (!b->checked)
		return "skipped";
	switch (b->status) {
	case VER_PROVED: return "proved";
	case VER_REFUTED: return "refuted";
	case VER_UNKNOWN: return "unknown";
	}
	return "?";
}

void ver_result_json(const ver_result *r, strbuf *sb)
{
	sb_puts(sb, "{\"verdict\":");
	sb_json_str(sb, ver_verdict_name(r->verdict));
	sb_puts(sb, ",\"mode\":");
	sb_json_str(sb, ver_mode_name(r->mode_used));
	sb_printf(sb, ",\"width\":%d,\"obligations\":[", r->width);
	for (uint32_t i = 0; i < r->nobl; i++) {
		const ver_obligation *b = &r->obl[i];
		sb_puts(sb, i ? ",{\"what\":" : "{\"what\":");
		sb_json_str(sb, b->what);
		sb_puts(sb, ",\"status\":");
		sb_json_str(sb, status_name(b));
		sb_puts(sb, ",\"how\":");
		sb_json_str(sb, ver_how_name(b->how));
		sb_printf(sb, ",\"ms\":%.3f}", b->ms);
	}
	sb_puts(sb, "],\"failed\":");
	if (r->failed >= 0 && r->verdict == VER_REFUTED) /* else none failed */
		sb_printf(sb, "%d", (int)r->failed);
	else
		sb_puts(sb, "null");
	sb_puts(sb, ",\"reason\":");
	if (r->verdict == VER_UNKNOWN && r->reason)
		sb_json_str(sb, r->reason);
	else
		sb_puts(sb, "null");
	sb_puts(sb, ",\"counterexample\":");
	if (r->verdict == VER_REFUTED && r->failed >= 0) {
		sb_puts(sb, "{\"obligation\":");
		sb_json_str(sb, r->obl[r->failed].what);
		sb_puts(sb, ",\"inputs\":[");
		for (uint32_t i = 0; i < r->ninputs; i++) {
			char hex[32];
			snprintf(hex, sizeof hex, "0x%llx",
				 (unsigned long long)r->inputs[i]);
			sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
			sb_json_str(sb,
				    r->input_names ? r->input_names[i] : "");
			sb_puts(sb, ",\"hex\":");
			sb_json_str(sb, hex);
			/* References are 64-bit addresses at every width. */
			bool ref = r->input_kinds && r->input_kinds[i] == 'r';
			sb_printf(sb, ",\"kind\":\"%s\",\"signed\":\"%lld\"}",
				  ref ? "ref" : "int",
				  (long long)sem_signed(ref ? 64 : r->width,
							r->inputs[i]));
		}
		sb_puts(sb, "],\"report\":");
		sb_json_str(sb, r->cex_text ? r->cex_text : "");
		sb_putc(sb, '}');
	} else {
		sb_puts(sb, "null");
	}
	sb_printf(sb,
		  ",\"stats\":{\"obligations\":%u,\"by_identity\":%u,"
		  "\"by_rewrite\":%u,\"by_range\":%u,"
		  "\"by_concrete\":%u,\"by_solver\":%u,\"solver_calls\":%u,"
		  "\"second_solver_checks\":%u,"
		  "\"second_solver_inconclusive\":%u,\"slow_queries\":%u,"
		  "\"abstract_calls\":%u,\"abstract_proved\":%u,"
		  "\"isolated\":%u,\"isolated_lost\":%u,"
		  "\"lemmas\":%u,\"lemma_queries\":%u,"
		  "\"ms_total\":%.3f,\"ms_encode\":%.3f,\"ms_solve\":%.3f,"
		  "\"ms_screen\":%.3f}}",
		  r->nobl, r->by_identity, r->by_rewrite, r->by_range,
		  r->by_concrete, r->by_solver, r->solver_calls,
		  r->second_checked, r->second_inconclusive, r->slow_queries,
		  r->abstract_calls, r->abstract_proved, r->isolated,
		  r->isolated_lost, r->lemmas, r->lemma_queries, r->ms_total,
		  r->ms_encode, r->ms_solve, r->ms_screen);
}
