/*
 * check.c - the verifier's driver: ver_check, the modes, and the walk over
 * the obligations of a pair.  The other check_*.c files do the steps; the
 * state they share is chk_pair (check_int.h).
 *
 * The order of work for one pair:
 *   1. input checks (widths, inputs, supported ops);
 *   2. the obligations of the mode (oblig.c);
 *   3. screening: both traces run on the example inputs and a few dozen edge
 *      and random inputs; a divergence is a confirmed counterexample
 *      (check_screen.c);
 *   4. encoding both traces as terms over shared input variables
 *      (check_goal.c);
 *   5. per obligation: the cheap steps -- identity of terms, the ranges,
 *      rewriting with facts and lemmas (check_settle.c, check_facts.c) --
 *      else one solver query on top of the assumptions asserted so far
 *      (check_solve.c);
 *   6. a model is replayed on the interpreter before it is believed, then
 *      simplified and reported (check_screen.c, cex.c);
 *   7. with --audit, every proof is asked again on the plain encoding
 *      (check_audit.c).
 *
 * Sections: the context and options; input checks; one mode (run_mode);
 * inferred pairing; the entry point.
 */
#define _POSIX_C_SOURCE 200809L

#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/validate.h"
#include "verify/heap.h"

/* ---- the context and options -------------------------------------------- */

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

/* ---- input checks ------------------------------------------------------- */

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

/* ---- one mode ----------------------------------------------------------- */

/* The solver's model for obligation I of a heap pair: refuted when it
 * replays on the interpreter (hp_replay), else unknown with the reason. */
static jp_status heap_cex(chk_pair *ps, uint32_t i, double t1, Z3_ast neg,
			  uint64_t *x, bool *refuted, jp_err *err)
{
	*refuted = false;
	if (!ps->model)
		return jp_fail(err, JP_EINTERNAL,
			       "a satisfiable heap query left no model");
	jp_status st = JP_OK;
	int r = hp_replay(ps->heap, ps->model, ps->res->obl[i].what, &st);
	/* A model whose string copies are too long to run: ask once more
	 * with every copy short (hp_short_copies), a narrower query, so
	 * that its models are models of this one too -- a refutation if
	 * one replays, else the same unknown. */
	Z3_ast shorter = !st && r == -1 && hp_copy_too_long(ps->heap)
			     ? hp_short_copies(ps->heap)
			     : NULL;
	if (shorter) {
		Z3_ast both[2] = {neg, shorter};
		Z3_lbool ans = Z3_L_UNDEF;
		st = chk_query(ps, zc_keep(&ps->S, Z3_mk_and(ps->z, 2, both)),
			       false, &ans, x, err);
		if (!st && ans == Z3_L_TRUE)
			r = hp_replay(ps->heap, ps->model, ps->res->obl[i].what,
				      &st);
	}
	bool escape = false;
	if (st == JP_EINTERNAL && hp_obl_compares_heaps(ps->heap, i)) {
		/* A heap comparison whose model does not replay: escape is
		 * decided statically, so an object stored into a reachable
		 * cell and overwritten before the comparison still counts as
		 * escaped (docs/verifier.md).  Unknown, never a verdict. */
		jp_err_clear(err);
		st = JP_OK;
		r = -1;
		escape = true;
	}
	if (st)
		return st;
	ver_result *res = ps->res;
	if (r == 1) {
		*refuted = true;
		res->cex_orig_guarded =
		    hp_div_orig_guard(ps->heap, &res->cex_orig_guard);
		chk_settle(ps, i, VER_REFUTED, VER_BY_SOLVER,
			   clk_now_ms() - t1);
		res->failed = (int32_t)i;
		res->verdict = VER_REFUTED;
		free(res->reason);
		res->reason = NULL;
		return JP_OK;
	}
	const hp *heap = ps->heap;
	const char *why, *guess = hp_guess_why(heap), *tail = "";
	if (escape)
		why = "does not replay: the heaps differ only in an object the "
		      "static escape analysis counts as escaped and the run "
		      "does not reach";
	else if (hp_pairing_only(heap))
		why = "does not replay: the runs differ only under the model's "
		      "pairing of fresh objects, not as the runs pair them";
	else if (hp_copy_too_long(heap))
		why = "was not replayed: a string copy in it copies more items "
		      "than a replay runs";
	else if (guess) {
		why = "does not count: ";
		tail = guess;
	} else if (hp_elided(heap))
		why = "does not replay: one run makes a call of an elidable "
		      "function the other does not, which PyPy may remove or "
		      "fold";
	else if (ps->mode == VER_MODE_ALIGNED)
		why = "needs a call to write or return a fresh object that the "
		      "world cannot reach at run time (the static escape "
		      "analysis over-approximates)";
	else
		why = "does not replay with the guards' pairing guessed (the "
		      "runs leave at guards the model paired)";
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s: the solver's counterexample %s%s", res->obl[i].what,
		  why, tail);
	chk_set_reason(ps, sb.buf ? sb.buf : "a model that does not replay");
	sb_release(&sb);
	ps->gave_up = true;
	chk_settle(ps, i, VER_UNKNOWN, VER_BY_NONE, clk_now_ms() - t1);
	if (res->failed < 0)
		res->failed = (int32_t)i;
	return JP_OK;
}

/* Whether the pair's budget (ver_opts.budget_ms) is spent at time NOW,
 * before obligation I: then I is unknown with that reason. */
static bool out_of_budget(chk_pair *ps, uint32_t i, double now)
{
	unsigned b = ps->opts->budget_ms;
	if (!b || now - ps->t_start < (double)b)
		return false;
	char why[96];
	snprintf(why, sizeof why, "the pair's time budget of %u ms ran out", b);
	chk_set_reason(ps, why);
	ps->gave_up = true;
	chk_settle(ps, i, VER_UNKNOWN, VER_BY_NONE, 0);
	if (ps->res->failed < 0)
		ps->res->failed = (int32_t)i;
	return true;
}

typedef struct run_flags {
	bool screen;	 /* run the concrete screening first */
	bool proof_only; /* stop at the first obligation not proved */
} run_flags;

/* Checks every obligation of the current mode.  With proof_only, *PROVED
 * says whether all were proved and nothing else is concluded. */
static jp_status run_mode(chk_pair *ps, const uint32_t *match, run_flags fl,
			  bool *proved, jp_err *err)
{
	obl_list_free(&ps->L);
	jp_status st =
	    obl_build(ps->o, ps->p, ps->mode, match,
		      ps->opts->failargs || ps->heap_pair, &ps->L, err);
	if (!st && ps->heap_pair) {
		/* The heap model adds its own obligations (calls, heaps). */
		st = chk_encode(ps, err);
		if (!st)
			st = hp_obligations(ps->heap, match, ps->mode, &ps->L,
					    err);
	}
	if (!st)
		st = chk_init_obligations(ps, err);
	if (st)
		return st;
	ps->res->mode_used = ps->mode;
	*proved = false;
	/* An unknown of an earlier mode says nothing about this one. */
	ps->gave_up = false;
	uint32_t n = ps->o->ninputs;
	uint64_t *x = calloc(n + 1, sizeof *x);
	if (!x)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	double t0 = clk_now_ms();
	int32_t k = -1;
	if (fl.screen)
		st = chk_run_screen(ps, &k, x, err);
	if (!st && ps->res->verdict == VER_REFUTED) {
		free(x); /* a heap pair refuted by screening */
		return st;
	}
	if (!st && k >= 0) {
		st = chk_finish_cex(ps, x, k, VER_BY_CONCRETE, t0, err);
		free(x);
		return st;
	}
	if (!st)
		st = chk_encode(ps, err);
	ps->lemmas.on = ps->mode != VER_MODE_TRACE;
	chk_drop_lemmas(ps);
	ps->lemmas.next = 0;
	if (!st && ps->lemmas.on && !ps->lemmas.cand_o)
		st = chk_find_candidates(ps, err);
	if (!st && ps->opts->self_check && !ps->heap_pair)
		for (uint32_t e = 0; e < ps->screen.n && e < 8 && !st; e++)
			st = chk_self_check_at(ps, ps->screen.x + (size_t)e * n,
					       err);
	bool all = true;
	for (uint32_t i = 0; i < ps->L.n && !st; i++) {
		const obl *b = &ps->L.v[i];
		double t1 = clk_now_ms();
		if (out_of_budget(ps, i, t1)) {
			all = false;
			break;
		}
		chk_progress(ps, "obligation %u of %u", i + 1, ps->L.n);
		st = chk_assume(ps, b->o_upto, b->p_upto, err);
		if (st)
			break;
		Z3_ast neg = NULL;
		st = chk_settle_cheaply(ps, i, t1, &neg, err);
		if (st || !neg)
			continue;
		Z3_lbool ans;
		/* A first try (proof_only) gets the short budget only: what
		 * it cannot settle quickly goes to the mode after it. */
		st = chk_query(ps, neg, fl.proof_only, &ans, x, err);
		if (st)
			break;
		if (ans == Z3_L_FALSE) {
			chk_settle(ps, i, VER_PROVED, VER_BY_SOLVER,
				   clk_now_ms() - t1);
			continue;
		}
		all = false;
		bool only = ps->heap_pair && ps->opts->heap_proof_only;
		if (ans == Z3_L_UNDEF) {
			ps->gave_up = true;
			chk_settle(ps, i, VER_UNKNOWN, VER_BY_NONE,
				   clk_now_ms() - t1);
			if (ps->res->failed < 0)
				ps->res->failed = (int32_t)i;
			/* No model, no pairing learnt: a later obligation's
			 * replay may still give the hint of a second try. */
			if (fl.proof_only ||
			    (only && (ps->hint || hp_has_hint(ps->heap))))
				break;
			continue;
		}
		if (fl.proof_only)
			break;
		if (ps->heap_pair) {
			bool refuted;
			st = heap_cex(ps, i, t1, neg, x, &refuted, err);
			if (st || refuted || only)
				break;
			continue;
		}
		/* A model: believe it only if the interpreter agrees. */
		cex_env ce = chk_make_cex_env(ps);
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
		st = chk_finish_cex(ps, x, k, VER_BY_SOLVER, t1, err);
		free(x);
		return st;
	}
	free(x);
	if (st || ps->res->verdict == VER_REFUTED)
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

/* ---- inferred pairing --------------------------------------------------- */

static bool same_kind(ir_opcode a, ir_opcode b)
{
	return a == b;
}

/* Pairs each guard of OPT with a later-than-the-last-paired guard of ORIG:
 * the first with the very same condition term, else the first of the same
 * kind; unpaired guards count as new. */
static void infer_match(chk_pair *ps, uint32_t *match)
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

/* Heap pairs are checked with their paired guards in order (the heap at
 * a failing guard is compared at the guard's place in both traces): a
 * pair whose guards the optimizer reordered is unknown, with the reason. */
static bool heap_out_of_order(chk_pair *ps, const uint32_t *match)
{
	jp_err why;
	jp_err_clear(&why);
	if (!obl_require_order(ps->o, ps->p, match, &why))
		return false;
	ps->res->mode_used = VER_MODE_ALIGNED;
	ps->res->verdict = VER_UNKNOWN;
	chk_set_reason(ps, why.msg);
	return true;
}

/* Whether ORIG's guards are all unlabelled and no label of OPT names one
 * of them: a PyPy log's unoptimized trace (no descr on guards) against
 * its optimized one (descr=<Guard0x...>).  Inference then pairs them, as
 * it does when OPT is the unlabelled side.  MATCH is scratch space. */
static bool orig_unlabelled(chk_pair *ps, uint32_t *match)
{
	if (!obl_all_implicit(ps->o) ||
	    obl_match_labels(ps->o, ps->p, match, NULL) != JP_OK)
		return false;
	for (uint32_t i = 0; i < ps->p->nops; i++)
		if (match[i] != OBL_NONE)
			return false;
	return true;
}

static jp_status check_modes(chk_pair *ps, jp_err *err)
{
	const ver_opts *opts = ps->opts;
	uint32_t *match = calloc(ps->p->nops + 1, sizeof *match);
	if (!match)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	bool proved;
	jp_status st = JP_OK;
	bool infer = opts->mode == VER_MODE_AUTO &&
		     ir_count_guards(ps->p) > 0 &&
		     (obl_all_implicit(ps->p) || orig_unlabelled(ps, match));
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
		if (!st && ps->heap_pair && heap_out_of_order(ps, match)) {
			free(match);
			return JP_OK;
		}
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
			if (!st && ps->heap_pair) {
				st = chk_encode(ps, err);
				if (!st)
					st = hp_obligations(ps->heap, NULL,
							    VER_MODE_TRACE,
							    &ps->L, err);
			}
			if (!st)
				st = chk_init_obligations(ps, err);
			if (!st)
				st = chk_run_screen(ps, &k, x, err);
			if (!st && ps->res->verdict == VER_REFUTED) {
				ps->res->mode_used = VER_MODE_TRACE;
				free(x); /* a heap pair refuted by screening */
				free(match);
				return st;
			}
			if (!st && k >= 0) {
				ps->res->mode_used = VER_MODE_TRACE;
				st = chk_finish_cex(ps, x, k, VER_BY_CONCRETE,
						    clk_now_ms(), err);
				free(x);
				free(match);
				return st;
			}
			free(x);
		}
		if (!st)
			st = chk_encode(ps, err);
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

/* ---- the entry point ---------------------------------------------------- */

static void pair_free(chk_pair *ps)
{
	if (ps->solvers.fast)
		Z3_solver_dec_ref(ps->z, ps->solvers.fast);
	if (ps->solvers.slow)
		Z3_solver_dec_ref(ps->z, ps->solvers.slow);
	if (ps->solvers.abstract)
		Z3_solver_dec_ref(ps->z, ps->solvers.abstract);
	if (ps->solvers.abstract_slow)
		Z3_solver_dec_ref(ps->z, ps->solvers.abstract_slow);
	if (ps->solvers.audit)
		Z3_solver_dec_ref(ps->z, ps->solvers.audit);
	if (ps->solvers.audit_slow)
		Z3_solver_dec_ref(ps->z, ps->solvers.audit_slow);
	if (ps->solvers.abstract)
		abs_free(&ps->abs.map);
	chk_heap_tactic *ht = &ps->solvers.heap_tactic;
	if (ht->cond)
		Z3_tactic_dec_ref(ps->z, ht->cond);
	if (ht->bv)
		Z3_tactic_dec_ref(ps->z, ht->bv);
	if (ht->smt)
		Z3_tactic_dec_ref(ps->z, ht->smt);
	for (unsigned i = 0; i < ht->npre; i++)
		Z3_tactic_dec_ref(ps->z, ht->pre[i]);
	if (ht->bvonly)
		Z3_probe_dec_ref(ps->z, ht->bvonly);
	vr_free(ps->vo);
	vr_free(ps->vp);
	if (ps->encoded) {
		enc_trace_free(&ps->eo);
		enc_trace_free(&ps->ep);
	}
	zc_scope_release(&ps->S);
	if (ps->model)
		Z3_model_dec_ref(ps->z, ps->model);
	hp_close(ps->heap);
	free(ps->vars);
	free(ps->hyps.v);
	zc_idset_free(&ps->hyps.ids);
	zc_idset_free(&ps->facts.ids);
	sl_free(&ps->slice.set);
	free(ps->slice.keep);
	free(ps->screen.x);
	free(ps->lemmas.from);
	free(ps->facts.from);
	free(ps->facts.to);
	free(ps->facts.kept_from);
	free(ps->facts.kept_to);
	free(ps->refold.cand);
	free(ps->refold.term);
	free(ps->lemmas.to);
	free(ps->lemmas.cand_o);
	free(ps->lemmas.cand_p);
	obl_list_free(&ps->L);
}

/* A check that failed (ST) while Z3 had reported an error -- out of
 * memory, or any other exception inside Z3 -- ends as unknown with that
 * message as the reason: nothing was concluded, and neither the traces
 * nor the optimizer are to blame.  Other failures stay errors. */
static jp_status z3_error_is_unknown(ver_result *res, jp_status st,
				     const jp_err *err)
{
	if (!zc_failed())
		return st;
	const char *why = st && err && err->msg[0] ? err->msg : zc_error_text();
	char *r = malloc(strlen(why) + 1);
	if (!r)
		return st ? st : JP_ENOMEM;
	strcpy(r, why);
	free(res->reason);
	res->reason = r;
	res->verdict = VER_UNKNOWN;
	res->failed = -1;
	for (uint32_t i = 0; i < res->nobl && res->failed < 0; i++)
		if (res->obl[i].status != VER_PROVED)
			res->failed = (int32_t)i;
	return JP_OK;
}

/* One try at the pair from T0 on (ver_check), its fresh objects paired
 * first as HINT says (NULL: by the model's rules).  *HINT_OUT (when not
 * NULL) receives the pairing a replay's runs forced where the model's
 * did not hold (hp_take_hint), or NULL. */
static jp_status check_once(ver_ctx *c, const ir_trace *orig,
			    const ir_trace *opt, const ver_opts *opts,
			    bool heap, double t0, const uint32_t *hint,
			    uint32_t **hint_out, ver_result *res, jp_err *err)
{
	jp_status st = zc_begin_check(&c->zc, err);
	if (st)
		return st;
	chk_pair ps;
	memset(&ps, 0, sizeof ps);
	ps.c = c;
	ps.z = c->zc.z;
	ps.o = orig;
	ps.p = opt;
	ps.opts = opts;
	ps.cap_mb = opts->memory_mb;
	ps.t_start = t0;
	ps.res = res;
	ps.heap_pair = heap;
	ps.hint = hint;
	zc_scope_init(&ps.S, ps.z);
	sl_init(&ps.slice.set, ps.z);
	st = chk_init_result(&ps, err);
	if (!st)
		st = chk_make_screen(&ps, err);
	bool limit = false;
	if (!st && heap) {
		st = chk_encode(&ps, err);
		limit = st == JP_EUNSUPPORTED && ps.heap_limit;
		if (limit) {
			/* A limit of the heap model, not of the input. */
			chk_set_reason(&ps, err ? err->msg
						: "a limit of the heap model");
			jp_err_clear(err);
			st = JP_OK;
		}
	}
	if (!st && !limit)
		st = check_modes(&ps, err);
	if (!st)
		st = chk_audit(&ps, err);
	if (hint_out && ps.heap)
		*hint_out = hp_take_hint(ps.heap);
	pair_free(&ps);
	return z3_error_is_unknown(res, st, err);
}

/* Whether a heap pair left unknown is worth a second try with the
 * pairing its replay forced: there is one, and time is left. */
static bool try_again(const ver_opts *opts, const ver_result *res,
		      const uint32_t *hint, double t0)
{
	return hint && res->verdict == VER_UNKNOWN &&
	       (!opts->budget_ms ||
		clk_now_ms() - t0 < (double)opts->budget_ms);
}

jp_status ver_check(ver_ctx *c, const ir_trace *orig, const ir_trace *opt,
		    const ver_opts *opts, ver_result *res, jp_err *err)
{
	double t0 = clk_now_ms();
	memset(res, 0, sizeof *res);
	res->failed = -1;
	jp_status st = check_pair(orig, opt, opts, err);
	if (!st && opts->nexamples && !opts->examples)
		st = jp_fail(err, JP_EINPUT, "nexamples without examples");
	bool heap = !st && (hp_uses_heap(orig) || hp_uses_heap(opt));
	/* The self-check compares the integer encoder with the interpreter;
	 * the heap model's terms are checked by replaying its models. */
	if (!st && opts->self_check && !heap) {
		st = chk_self_check_identity(c, orig, opts, err);
		if (!st)
			st = chk_self_check_identity(c, opt, opts, err);
	}
	if (st)
		return st;
	uint32_t *hint = NULL;
	c->pairs++;
	st = check_once(c, orig, opt, opts, heap, t0, NULL, &hint, res, err);
	/* The model's pairing of fresh objects is a guess; where a replay
	 * showed the runs pair them otherwise, the pair is checked once more
	 * from that pairing.  Any pairing gives a sound proof (heap.h), and
	 * a refutation still replays under the pairing the runs force. */
	if (!st && try_again(opts, res, hint, t0)) {
		ver_result_free(res);
		st = check_once(c, orig, opt, opts, heap, t0, hint, NULL, res,
				err);
	}
	free(hint);
	res->ms_total = clk_now_ms() - t0;
	if (st) {
		ver_result_free(res);
		return st;
	}
	return JP_OK;
}
