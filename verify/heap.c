/*
 * heap.c - the heap model as an encoding backend of the one checker
 * (verify/check.c): it builds the model of a pair (fields, identities,
 * calls, the background constraints), hands the driver the terms of both
 * traces, adds its own obligations to the driver's list, and replays a
 * solver model on the interpreter.  It asks no solver itself: every query
 * goes through the driver, so heap pairs get its solvers, abstraction,
 * isolation, --smt2 and --solver-cmd, and its pairing (labels or
 * inference).
 *
 * Map: building the model (hp_open, hp_close); what the driver reads;
 * the obligations.  Replay is in heap_replay.c.
 * Files: heap_int.h (the model's types), heap_model.c (the shared model),
 * heap_encode.c (one trace's encoding), heap_obl.c (the obligations),
 * heap_replay.c (concrete comparison and replay), heap_classes.c (the
 * classes a pair assumes its constants are not).
 */
#include "heap_int.h"

/* ---- building the model ------------------------------------------------ */

static jp_status setup(hp *h)
{
	const ir_trace *o = h->o, *p = h->p;
	uint32_t cap = 2 * (o->nops + p->nops) + 2;
	h->f = calloc(cap, sizeof *h->f);
	h->cls = calloc(cap, sizeof *h->cls);
	h->cp = calloc(o->nvals + p->nvals + 1, sizeof *h->cp);
	h->vars = calloc(o->ninputs + 1, sizeof *h->vars);
	uint32_t co = hp_count_calls(o), cp = hp_count_calls(p);
	h->maxcalls = co > cp ? co : cp;
	if (!h->f || !h->cls || !h->vars || !h->cp)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	jp_status st = hp_scan_classes(h, o);
	if (!st)
		st = hp_scan_classes(h, p);
	if (!st)
		st = hp_scan_fields(h, o);
	if (!st)
		st = hp_scan_fields(h, p);
	if (st)
		return st;
	h->hk = calloc((size_t)h->maxcalls * (h->nf + 1) + 1, sizeof *h->hk);
	h->rk = calloc(h->maxcalls + 1, sizeof *h->rk);
	h->rkr = calloc(h->maxcalls + 1, sizeof *h->rkr);
	h->li_val = calloc(o->nops + p->nops + 1, sizeof *h->li_val);
	h->li_clean = calloc(o->nops + p->nops + 1, sizeof *h->li_clean);
	if (!h->li_val || !h->li_clean)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	if (!h->hk || !h->rk || !h->rkr || !hp_trace_alloc(h, &h->ho, o) ||
	    !hp_trace_alloc(h, &h->hpp, p))
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	st = hp_scan_idents(h);
	if (!st)
		st = enc_inputs(&h->S, o, h->vars, h->err);
	if (st)
		return st;
	Z3_sort bv64 = zc_bv_sort(h->z, 64), bv16 = zc_bv_sort(h->z, 16);
	h->tyfun = Z3_mk_func_decl(h->z, Z3_mk_string_symbol(h->z, "type"), 1,
				   &bv64, bv16);
	Z3_inc_ref(h->z, Z3_func_decl_to_ast(h->z, h->tyfun));
	hp_make_calls(h);
	hp_scan_cptrs(h, o);
	hp_scan_cptrs(h, p);
	hp_make_background(h);
	st = hp_enc_one(h, &h->ho);
	if (!st)
		st = hp_enc_one(h, &h->hpp);
	if (!st)
		st = hp_call_results(h);
	if (!st)
		st = hp_li_facts(h);
	if (!st)
		st = hp_realism(h);
	if (!st)
		hp_class_facts(h);
	return st;
}

jp_status hp_open(Z3_context z, const ir_trace *orig, const ir_trace *opt,
		  const ver_opts *opts, ver_result *res, const uint32_t *hint,
		  hp **out, bool *over_limit, jp_err *err)
{
	*out = NULL;
	*over_limit = false;
	hp *h = calloc(1, sizeof *h);
	if (!h)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	h->z = z;
	h->o = orig;
	h->p = opt;
	h->opts = opts;
	h->res = res;
	h->hint_in = hint;
	h->w = orig->width;
	h->err = err;
	h->div_call = UINT32_MAX;
	zc_scope_init(&h->S, z);
	arena_init(&h->nodes);
	jp_status st = setup(h);
	if (!st && zc_failed())
		st = zc_check_error(err, "Z3 (heap model)");
	if (st) {
		*over_limit = st == JP_EUNSUPPORTED && h->over_limit;
		hp_close(h);
		return st;
	}
	*out = h;
	return JP_OK;
}

void hp_close(hp *h)
{
	if (!h)
		return;
	Z3_context z = h->z;
	hp_trace_free(&h->ho);
	hp_trace_free(&h->hpp);
	if (h->tyfun)
		Z3_dec_ref(z, Z3_func_decl_to_ast(z, h->tyfun));
	zc_scope_release(&h->S);
	arena_free(&h->nodes);
	free(h->Q.v);
	free(h->cp);
	free(h->f);
	free(h->cls);
	free(h->vars);
	free(h->hk);
	free(h->rk);
	free(h->rkr);
	free(h->retesc);
	free(h->cells);
	free(h->maytab);
	free(h->li_val);
	free(h->li_clean);
	free(h->hint_out);
	free(h);
}

/* ---- what the driver reads --------------------------------------------- */

const Z3_ast *hp_input_vars(const hp *h)
{
	return h->vars;
}

void hp_terms(const hp *h, bool opt, Z3_ast **val, Z3_ast **bval, Z3_ast **pass)
{
	const htrace *e = opt ? &h->hpp : &h->ho;
	*val = e->val;
	*bval = e->bval;
	*pass = e->pass;
}

Z3_ast hp_background(const hp *h)
{
	return h->bg;
}

/* ---- the obligations ---------------------------------------------------- */

/* The op index before which call K of E is made (the trace's length when
 * E makes fewer calls). */
static uint32_t call_point(const htrace *e, uint32_t k)
{
	return k < e->ncalls ? e->callop[k] : e->t->nops;
}

/* The assumption bounds of "call K is made by both or neither": its goal
 * states the guards before both call points itself, so any prefix of
 * guards within the call points may be assumed; the largest one that the
 * obligations before it already assume (up to the call points) keeps the
 * driver's assumptions growing. */
static void reach_bounds(const hp *h, uint32_t k, uint32_t o_done,
			 uint32_t p_done, obl *b)
{
	uint32_t co = call_point(&h->ho, k), cp = call_point(&h->hpp, k);
	b->o_upto = o_done < co ? o_done : co;
	b->p_upto = p_done < cp ? p_done : cp;
}

jp_status hp_obligations(hp *h, const uint32_t *match, ver_mode mode,
			 obl_list *L, jp_err *err)
{
	h->match = match;
	h->loose_guards = mode != VER_MODE_ALIGNED;
	h->Q.n = 0;
	jp_status st = hp_build_obls(h, L, &h->Q);
	if (st)
		return st;
	obl *v = calloc(h->Q.n + 1, sizeof *v);
	if (!v)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	uint32_t o_done = 0, p_done = 0;
	for (uint32_t i = 0; i < h->Q.n; i++) {
		const hobl *q = &h->Q.v[i];
		v[i] = q->b;
		if (q->kind != H_BASE) {
			v[i].kind = OBL_MODEL;
			v[i].j = i;
		}
		if (mode == VER_MODE_TRACE && q->kind == H_CALL_EQ) {
			/* Trace mode compares the calls of runs that reach
			 * both ends: a run that leaves at a guard resumes
			 * elsewhere, with calls of its own. */
			v[i].o_upto = h->o->nops;
			v[i].p_upto = h->p->nops;
		} else if (q->kind == H_CALL_REACH) {
			reach_bounds(h, q->k, o_done, p_done, &v[i]);
			h->Q.v[i].b.o_upto =
			    v[i].o_upto; /* its goal uses them */
			h->Q.v[i].b.p_upto = v[i].p_upto;
		}
		o_done = v[i].o_upto > o_done ? v[i].o_upto : o_done;
		p_done = v[i].p_upto > p_done ? v[i].p_upto : p_done;
	}
	free(L->v);
	L->v = v;
	L->n = L->cap = h->Q.n;
	return JP_OK;
}

/* Whether obligation Q is about the divergence the last replay found. */
static bool about_divergence(const hp *h, const hobl *q)
{
	if (h->div_call != UINT32_MAX)
		return (q->kind == H_CALL_EQ || q->kind == H_CALL_REACH) &&
		       q->k == h->div_call;
	if (h->div_outcome_p == INTERP_UNDEFINED &&
	    h->div_outcome_o != INTERP_UNDEFINED)
		return q->kind == H_OPT_DEF && q->k == h->div_stop_p;
	if (h->div_outcome_o == INTERP_GUARD_FAIL)
		return (q->kind == H_BASE || q->kind == H_GUARD_HEAP) &&
		       q->b.og == h->div_stop_o;
	if (h->div_outcome_p == INTERP_GUARD_FAIL)
		return (q->kind == H_BASE || q->kind == H_GUARD_HEAP) &&
		       q->b.pg == h->div_stop_p;
	return q->kind == H_END_HEAP ||
	       (q->kind == H_BASE &&
		(q->b.kind == OBL_OUTPUT || q->b.kind == OBL_END));
}

int32_t hp_divergence_obl(const hp *h)
{
	for (uint32_t i = 0; i < h->Q.n; i++)
		if (about_divergence(h, &h->Q.v[i]))
			return (int32_t)i;
	return -1;
}

bool hp_obl_compares_heaps(const hp *h, uint32_t i)
{
	if (i >= h->Q.n)
		return false;
	hkind k = h->Q.v[i].kind;
	return k == H_CALL_EQ || k == H_GUARD_HEAP || k == H_END_HEAP;
}

bool hp_pairing_only(const hp *h)
{
	return h->pairing_only;
}

bool hp_elided(const hp *h)
{
	return h->elided;
}

bool hp_copy_too_long(const hp *h)
{
	return h->copy_too_long;
}

const char *hp_guess_why(const hp *h)
{
	return h->guess_why;
}

bool hp_div_orig_guard(const hp *h, uint32_t *g)
{
	if (h->div_outcome_o != INTERP_GUARD_FAIL)
		return false;
	*g = h->div_stop_o;
	return true;
}

Z3_ast hp_obl_defined(hp *h, uint32_t i)
{
	return i < h->Q.n ? hp_def_upto(h, h->Q.v[i].d_upto) : zc_true(&h->S);
}

Z3_ast hp_model_goal_neg(hp *h, const obl *b)
{
	return hp_goal_neg(h, &h->Q.v[b->j]);
}

void hp_model_describe(const hp *h, const obl *b, strbuf *sb)
{
	hp_describe(h, &h->Q.v[b->j], sb);
}
