/*
 * check_solve.c - the solver queries of a pair.  A query goes first to the
 * abstraction (multipliers and dividers hidden, verify/abstract.h), then
 * to the incremental fast solver with a short budget, then to the slow
 * bit-blasting solver with the rest of the time, on a slice of the
 * assumptions (verify/slice.h), in a child process (verify/isolate.h)
 * when ver_opts.isolate is set.  Only an unsat answer proves; a sat answer
 * comes with the inputs of a model, which the caller replays.
 *
 * Sections: budgets and the solvers; reading answers; the slow rounds and
 * their slices; the slow rounds in a child process; the abstraction; the
 * query.
 */
#define _POSIX_C_SOURCE 200809L

#include "check_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/isolate.h"

/* ---- budgets and the solvers -------------------------------------------- */

/* Whether the pair multiplies or divides unknowns (enc_trace.hard): Z3's
 * incremental solver bit-blasts such circuits far more slowly than the
 * qfbv tactic (half a second for one 128-bit square), so every query of
 * such a pair goes straight to the bit-blasting solver. */
bool chk_hard_pair(const chk_pair *ps)
{
	return ps->encoded && (ps->eo.hard || ps->ep.hard);
}

/* Queries go first to Z3's incremental solver, which is fastest on the
 * easy queries that make up nearly all of them, with a short time budget;
 * a query it cannot settle in that budget goes to a fresh bit-blasting
 * (qfbv tactic) solver with the rest of the time, which is several times
 * faster on hard queries (64-bit multiplications and divisions). */
enum { FAST_MS = 50 };

chk_limit chk_short_limit(const chk_pair *ps, unsigned ms)
{
	unsigned user = ps->opts->timeout_ms, r = ps->opts->rlimit;
	if (!r)
		return (chk_limit){user && user < ms ? user : ms, 0};
	unsigned short_r = ms > UINT_MAX / CHK_RLIMIT_PER_MS
			       ? UINT_MAX
			       : ms * CHK_RLIMIT_PER_MS;
	return (chk_limit){user, r < short_r ? r : short_r};
}

/* The limits of a full query with TIMEOUT_MS of wall clock left. */
static chk_limit full_limit(const chk_pair *ps, unsigned timeout_ms)
{
	return (chk_limit){timeout_ms, ps->opts->rlimit};
}

static void set_limits(chk_pair *ps, Z3_solver s, chk_limit lim)
{
	Z3_context z = ps->z;
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	if (lim.timeout_ms)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"),
				   lim.timeout_ms);
	if (lim.rlimit)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "rlimit"),
				   lim.rlimit);
	bool tactic = s == ps->solvers.slow || s == ps->solvers.abstract_slow;
	zc_limit_params(z, p, tactic ? ZC_TACTIC_SOLVER : ZC_SMT_SOLVER,
			ps->cap_mb);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);
}

/* The budget of the incremental solver, and whether a fallback follows:
 * with an rlimit always (the bit-blasting solver is another engine, and
 * the safety net is far above the short budget), else when the user's
 * timeout leaves time for it. */
static chk_limit fast_budget(const chk_pair *ps, bool *fallback)
{
	unsigned user = ps->opts->timeout_ms;
	*fallback = ps->opts->rlimit || user == 0 || user > FAST_MS;
	return chk_short_limit(ps, FAST_MS);
}

jp_status chk_make_solver(chk_pair *ps, jp_err *err)
{
	if (ps->solvers.fast)
		return JP_OK;
	Z3_context z = ps->z;
	ps->solvers.fast = Z3_mk_simple_solver(z);
	if (!ps->solvers.fast)
		return zc_check_error(err, "creating a solver");
	Z3_solver_inc_ref(z, ps->solvers.fast);
	bool fallback;
	set_limits(ps, ps->solvers.fast, fast_budget(ps, &fallback));
	return zc_check_error(err, "configuring the solver");
}

/* Makes *S, when not made yet, a solver of the tactic NAME. */
static jp_status make_tactic_solver(chk_pair *ps, Z3_solver *s,
				    const char *name, jp_err *err)
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

/* Keeps tactic T alive in H (released with the pair's solvers); NULL
 * when T is NULL or H is full. */
static Z3_tactic keep_tactic(Z3_context z, chk_heap_tactic *h, Z3_tactic t)
{
	if (!t || h->npre == CHK_HEAP_PRE)
		return NULL;
	Z3_tactic_inc_ref(z, t);
	h->pre[h->npre++] = t;
	return t;
}

/* The heap queries' tactic when they have arrays: Z3's qfaufbv after a
 * preamble of simplify, propagate-values, solve-eqs and elim-uncnstr.
 * qfaufbv starts with much the same steps, yet running them once before
 * it took the slow queries of a knapsack_dp loop from 0.3-1.6 s to
 * 0.1-0.7 s each (docs/performance.md, session 43, has what it does to
 * whole logs).  The result is inc_ref'd; H owns the parts, which live as
 * long as the conditional tactic. */
static Z3_tactic array_tactic(Z3_context z, chk_heap_tactic *h)
{
	static const char *const steps[] = {"simplify", "propagate-values",
					    "solve-eqs", "elim-uncnstr",
					    "qfaufbv"};
	Z3_tactic t = NULL;
	for (unsigned i = 0; i < sizeof steps / sizeof *steps; i++) {
		Z3_tactic s = keep_tactic(z, h, Z3_mk_tactic(z, steps[i]));
		if (!s)
			return NULL;
		t = t ? keep_tactic(z, h, Z3_tactic_and_then(z, t, s)) : s;
		if (!t)
			return NULL;
	}
	Z3_tactic_inc_ref(z, t);
	return t;
}

/* Makes *S, when not made yet, a solver for the heap model's queries:
 * they have arrays and a type function, which the bit-vector tactic does
 * not take, but most slices the slow rounds ask (slice_for) are plain
 * bit-vectors, which it solves far faster than Z3's general solver (a
 * 64-bit multiply-high: 3 s against 10 s).  So: the bit-vector tactic
 * on a plain bit-vector query, else the SMT core. */
static jp_status make_heap_solver(chk_pair *ps, Z3_solver *s, jp_err *err)
{
	if (*s)
		return JP_OK;
	Z3_context z = ps->z;
	chk_heap_tactic *h = &ps->solvers.heap_tactic;
	if (!h->cond) {
		/* Z3 4.8.12 crashes when the parts of a conditional tactic
		 * are released before it: all four live as long as the
		 * pair's solvers (released in pair_free). */
		h->bvonly = Z3_mk_probe(z, "is-qfbv");
		if (h->bvonly)
			Z3_probe_inc_ref(z, h->bvonly);
		h->bv = Z3_mk_tactic(z, "qfbv");
		if (h->bv)
			Z3_tactic_inc_ref(z, h->bv);
		h->smt = array_tactic(z, h);
		if (h->bvonly && h->bv && h->smt)
			h->cond = Z3_tactic_cond(z, h->bvonly, h->bv, h->smt);
		if (!h->cond)
			return zc_check_error(err, "creating a tactic");
		Z3_tactic_inc_ref(z, h->cond);
	}
	*s = Z3_mk_solver_from_tactic(z, h->cond);
	if (!*s)
		return zc_check_error(err, "creating a solver");
	Z3_solver_inc_ref(z, *s);
	return zc_check_error(err, "creating a solver");
}

static jp_status make_slow_solver(chk_pair *ps, jp_err *err)
{
	if (ps->heap)
		return make_heap_solver(ps, &ps->solvers.slow, err);
	return make_tactic_solver(ps, &ps->solvers.slow, "qfbv", err);
}

/* ---- reading answers ---------------------------------------------------- */

jp_status chk_model_inputs(chk_pair *ps, Z3_solver s, uint64_t *x, jp_err *err)
{
	Z3_model m = Z3_solver_get_model(ps->z, s);
	if (!m)
		return zc_check_error(err, "reading a model");
	Z3_model_inc_ref(ps->z, m);
	if (ps->heap) {
		/* The heap model's replay reads the heap, the types and the
		 * calls from the model too (hp_replay). */
		Z3_model_inc_ref(ps->z, m);
		if (ps->model)
			Z3_model_dec_ref(ps->z, ps->model);
		ps->model = m;
	}
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

/* Reads the outcome of the check S just made into *ANS: the inputs of a
 * model into X (when not NULL) on sat, Z3's reason on unknown. */
static jp_status read_answer(chk_pair *ps, Z3_solver s, Z3_lbool *ans,
			     uint64_t *x, jp_err *err)
{
	jp_status st = zc_check_error(err, "solver check");
	if (!st && *ans == Z3_L_TRUE && x)
		st = chk_model_inputs(ps, s, x, err);
	if (!st && *ans == Z3_L_UNDEF) {
		const char *why = Z3_solver_get_reason_unknown(ps->z, s);
		chk_set_reason(ps, why ? why : "unknown");
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

/* ---- the slow rounds and their slices ----------------------------------- */

/* Sets ps->slice.keep to the slice of the assumptions for NEG (verify/slice.h);
 * *KEPT receives its size. */
static jp_status slice_for(chk_pair *ps, Z3_ast neg, uint32_t *kept,
			   jp_err *err)
{
	if (ps->slice.cap < ps->hyps.n + 1) {
		bool *k = realloc(ps->slice.keep,
				  ((size_t)ps->hyps.n + 1) * sizeof *k);
		if (!k)
			return jp_fail(err, JP_ENOMEM, "out of memory");
		ps->slice.keep = k;
		ps->slice.cap = ps->hyps.n + 1;
	}
	while (ps->slice.set.n < ps->hyps.n)
		if (!sl_add(&ps->slice.set, ps->hyps.v[ps->slice.set.n]))
			return jp_fail(err, JP_ENOMEM, "out of memory");
	*kept = sl_select(&ps->slice.set, neg, ps->slice.keep);
	if (*kept == UINT32_MAX)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	return zc_check_error(err, "slicing the assumptions");
}

/* A sliced query whose model breaks a dropped assumption is asked again
 * with the broken ones added; after this many such rounds, with all. */
enum { SLICE_ROUNDS = 2 };

/* The rounds of slow_check (below), starting from the slice in ps->slice.keep
 * (KEPT assumptions). */
static jp_status slow_rounds(chk_pair *ps, Z3_ast neg, chk_limit lim,
			     uint32_t kept, Z3_lbool *ans, uint64_t *x,
			     jp_err *err)
{
	unsigned timeout_ms = lim.timeout_ms;
	Z3_context z = ps->z;
	double t0 = clk_now_ms();
	jp_status st = JP_OK;
	for (int round = 0; !st; round++) {
		if (round == SLICE_ROUNDS && kept < ps->hyps.n) {
			for (uint32_t i = 0; i < ps->hyps.n; i++)
				ps->slice.keep[i] = true;
			kept = ps->hyps.n;
		}
		Z3_solver_reset(z, ps->solvers.slow);
		set_limits(
		    ps, ps->solvers.slow,
		    (chk_limit){budget_left(timeout_ms, clk_now_ms() - t0),
				lim.rlimit});
		for (uint32_t i = 0; i < ps->hyps.n; i++)
			if (ps->slice.keep[i])
				Z3_solver_assert(z, ps->solvers.slow,
						 ps->hyps.v[i]);
		Z3_solver_assert(z, ps->solvers.slow, neg);
		*ans = Z3_solver_check(z, ps->solvers.slow);
		if (*ans != Z3_L_TRUE || kept == ps->hyps.n)
			break;
		st = zc_check_error(err, "solver check");
		Z3_model m =
		    st ? NULL : Z3_solver_get_model(z, ps->solvers.slow);
		if (!m) {
			st = st ? st : zc_check_error(err, "reading a model");
			break;
		}
		Z3_model_inc_ref(z, m);
		uint32_t bad =
		    sl_violated(z, m, ps->hyps.v, ps->hyps.n, ps->slice.keep);
		Z3_model_dec_ref(z, m);
		st = zc_check_error(err, "checking a model");
		if (st || bad == 0)
			break; /* a model of the full query */
		kept = bad == UINT32_MAX ? ps->hyps.n : kept + bad;
		if (timeout_ms && clk_now_ms() - t0 + 1 >= (double)timeout_ms) {
			/* The budget went on slices: the full query's answer
			 * is not known. */
			*ans = Z3_L_UNDEF;
			chk_set_reason(ps, "timeout");
			return JP_OK;
		}
	}
	return st ? st : read_answer(ps, ps->solvers.slow, ans, x, err);
}

/* ---- the slow rounds in a child process --------------------------------- */

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
static void cap_tactic(chk_pair *ps, Z3_solver s)
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
static void enter_child(chk_pair *ps)
{
	if (!ps->opts->memory_mb)
		return;
	ps->cap_mb = CHILD_CAP_FACTOR * ps->opts->memory_mb;
	zc_set_ceiling(ps->cap_mb + CEILING_ABOVE_CAP_MB);
	if (ps->solvers.abstract_slow)
		cap_tactic(ps, ps->solvers.abstract_slow);
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
	chk_pair *ps;
	Z3_ast neg;
	chk_limit lim;
	uint32_t kept;
	bool want_x;
} slow_job;

static size_t slow_child(void *arg, void *out, size_t cap)
{
	slow_job *j = arg;
	chk_pair *ps = j->ps;
	slow_out *o = out;
	(void)cap;
	enter_child(ps);
	jp_err err;
	jp_err_clear(&err);
	uint64_t *x = j->want_x ? o->x : NULL;
	o->st = slow_rounds(ps, j->neg, j->lim, j->kept, &o->ans, x, &err);
	o->reason[0] = 0;
	if (o->st && zc_failed()) {
		/* The ceiling stopped the query (unknown, like the cap), or
		 * Z3 reported another error: unknown with its message, as
		 * in the caller (ver_check). */
		o->st = JP_OK;
		o->ans = Z3_L_UNDEF;
		snprintf(o->reason, sizeof o->reason, "%s",
			 zc_failed_memout() ? "memout (ceiling)"
					    : zc_error_text());
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
	chk_pair *ps = j->ps;
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
			chk_set_reason(ps,
				       o->reason[0] ? o->reason : "unknown");
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
		chk_set_reason(ps, why);
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
static jp_status slow_check(chk_pair *ps, Z3_ast neg, chk_limit lim,
			    Z3_lbool *ans, uint64_t *x, jp_err *err)
{
	uint32_t kept = 0;
	jp_status st = make_slow_solver(ps, err);
	if (!st)
		st = slice_for(ps, neg, &kept, err);
	if (st)
		return st;
	if (kept < ps->hyps.n)
		ps->res->sliced++;
	bool ran = false;
	if (ps->opts->isolate) {
		slow_job j = {ps, neg, lim, kept, false};
		st = run_in_child(&j, child_deadline(lim.timeout_ms), ans, x,
				  &ran, err);
		/* A heap counterexample needs the whole model, which stays in
		 * the child: a satisfiable query is asked again here. */
		bool again = ps->heap && x && *ans == Z3_L_TRUE;
		if (st || (ran && !again))
			return st;
	}
	return slow_rounds(ps, neg, lim, kept, ans, x, err);
}

typedef struct unsat_job {
	chk_pair *ps;
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
static bool unsat_in_child(chk_pair *ps, Z3_solver s, unsigned budget_ms)
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

/* ---- the abstraction ---------------------------------------------------- */

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
static jp_status abstract_tactic(chk_pair *ps, Z3_lbool *ans, jp_err *err)
{
	Z3_context z = ps->z;
	jp_status st =
	    ps->heap ? make_heap_solver(ps, &ps->solvers.abstract_slow, err)
		     : make_tactic_solver(ps, &ps->solvers.abstract_slow,
					  "qfufbv", err);
	if (st)
		return st;
	Z3_solver_reset(z, ps->solvers.abstract_slow);
	chk_limit lim = chk_short_limit(ps, 4 * ABS_MS);
	set_limits(ps, ps->solvers.abstract_slow, lim);
	Z3_ast_vector v = Z3_solver_get_assertions(z, ps->solvers.abstract);
	if (!v)
		return zc_check_error(err, "reading the abstract query");
	Z3_ast_vector_inc_ref(z, v);
	unsigned n = Z3_ast_vector_size(z, v);
	for (unsigned i = 0; i < n; i++)
		Z3_solver_assert(z, ps->solvers.abstract_slow,
				 Z3_ast_vector_get(z, v, i));
	Z3_ast_vector_dec_ref(z, v);
	if (unsat_in_child(ps, ps->solvers.abstract_slow, lim.timeout_ms))
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
static jp_status abstract_query(chk_pair *ps, Z3_ast neg, bool ask_exact,
				Z3_lbool *ans, uint64_t *x, bool *exact,
				jp_err *err)
{
	Z3_context z = ps->z;
	*ans = Z3_L_UNDEF;
	if (!ps->solvers.abstract) {
		ps->solvers.abstract = Z3_mk_simple_solver(z);
		if (!ps->solvers.abstract)
			return zc_check_error(err, "creating a solver");
		Z3_solver_inc_ref(z, ps->solvers.abstract);
		set_limits(ps, ps->solvers.abstract,
			   chk_short_limit(ps, ABS_MS));
		abs_init(&ps->abs.map, &ps->S);
	}
	for (; ps->abs.done < ps->hyps.n; ps->abs.done++) {
		Z3_ast h = abs_term(&ps->abs.map, ps->hyps.v[ps->abs.done],
				    &ps->abs.any);
		if (!h)
			return jp_fail(err, JP_EINTERNAL,
				       "abstracting an assumption: %s",
				       zc_error_text());
		Z3_solver_assert(z, ps->solvers.abstract, h);
	}
	bool hid = ps->abs.any;
	Z3_ast g = abs_term(&ps->abs.map, neg, &hid);
	if (!g)
		return jp_fail(err, JP_EINTERNAL, "abstracting a goal: %s",
			       zc_error_text());
	Z3_ast ax;
	if (!abs_axioms(&ps->abs.map, &ax))
		return jp_fail(err, JP_EINTERNAL, "commutation axioms: %s",
			       zc_error_text());
	if (ax)
		Z3_solver_assert(z, ps->solvers.abstract, ax);
	*exact = !hid;
	if (!hid && !ask_exact)
		return zc_check_error(err, "asserting an abstraction");
	if (hid)
		ps->res->abstract_calls++;
	Z3_solver_push(z, ps->solvers.abstract);
	Z3_solver_assert(z, ps->solvers.abstract, g);
	Z3_lbool a = Z3_solver_check(z, ps->solvers.abstract);
	jp_status st;
	if (!hid) {
		*ans = a;
		st = read_answer(ps, ps->solvers.abstract, ans, x, err);
	} else {
		st = zc_check_error(err, "abstract solver check");
		if (!st && a == Z3_L_UNDEF)
			st = abstract_tactic(ps, &a, err);
		if (!st && a == Z3_L_FALSE) {
			ps->res->abstract_proved++;
			*ans = Z3_L_FALSE;
		}
	}
	Z3_solver_pop(z, ps->solvers.abstract, 1);
	return st ? st : zc_check_error(err, "solver pop");
}

/* ---- the query ---------------------------------------------------------- */

/* The time limit of a query starting at NOW: the per-query limit
 * (ver_opts.timeout_ms), but no more than what is left of the pair's
 * budget (ver_opts.budget_ms), at least 1 ms; 0 when neither is set.
 * Without the cap, a query started just before the budget ran out ran
 * to its own limit: pairs of PyPy logs took 4 s past their 8 s budget
 * (docs/performance.md, session 43). */
static unsigned query_limit(const chk_pair *ps, double now)
{
	unsigned user = ps->opts->timeout_ms, b = ps->opts->budget_ms;
	if (!b)
		return user;
	unsigned left = budget_left(b, now - ps->t_start);
	return user && user < left ? user : left;
}

/* One solver query: is NEG satisfiable under the current assumptions?  On
 * sat, X (when not NULL) receives the inputs.  QUICK queries (simplifying
 * a counterexample, which is optional) get only the incremental solver's
 * short budget. */
jp_status chk_query(chk_pair *ps, Z3_ast neg, bool quick, Z3_lbool *ans,
		    uint64_t *x, jp_err *err)
{
	Z3_context z = ps->z;
	ps->qno++;
	ps->res->solver_calls++;
	double t0 = clk_now_ms();
	unsigned user = query_limit(ps, t0);
	jp_status st;
	/* Once an obligation is unknown the pair cannot be proved; the rest
	 * only looks for a counterexample, with the short budget, so that a
	 * hard pair costs one timeout and not one per obligation. */
	if (ps->gave_up)
		quick = true;
	bool exact = false;
	st = abstract_query(ps, neg, chk_hard_pair(ps), ans, x, &exact, err);
	if (st || *ans == Z3_L_FALSE || (exact && *ans == Z3_L_TRUE))
		goto done;
	if (chk_hard_pair(ps)) {
		if (exact && quick)
			goto done; /* the short budget is spent */
		ps->res->slow_queries++;
		st = slow_check(
		    ps, neg,
		    quick
			? chk_short_limit(ps, FAST_MS)
			: full_limit(ps, budget_left(user, clk_now_ms() - t0)),
		    ans, x, err);
		goto done;
	}
	/* The push makes Z3 internalize the new assumptions: part of the
	 * cost of the query. */
	Z3_solver_push(z, ps->solvers.fast);
	Z3_solver_assert(z, ps->solvers.fast, neg);
	*ans = Z3_solver_check(z, ps->solvers.fast);
	st = read_answer(ps, ps->solvers.fast, ans, x, err);
	Z3_solver_pop(z, ps->solvers.fast, 1);
	if (!st)
		st = zc_check_error(err, "solver pop");
	bool fallback;
	fast_budget(ps, &fallback);
	double spent = clk_now_ms() - t0;
	if (!st && *ans == Z3_L_UNDEF && fallback && !quick &&
	    (user == 0 || spent + 1 < (double)user)) {
		ps->res->slow_queries++;
		st = slow_check(ps, neg,
				full_limit(ps, budget_left(user, spent)), ans,
				x, err);
	}
done:
	ps->res->ms_solve += clk_now_ms() - t0;
	if (!st && chk_rechecking(ps))
		st = chk_recheck(ps, neg, *ans, err);
	return st;
}
