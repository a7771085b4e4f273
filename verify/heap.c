/*
 * heap.c - the heap checker's driver (heap.h has the model and the
 * contract): sets the model up for a pair, builds the obligations, and
 * settles each with an incremental solver, a fresh one, or the
 * abstraction, replaying every model before a counterexample is reported.
 *
 * Map: the driver (solver limits, indicators, solvers, queries,
 * setup, hp_check).
 * Files: heap_int.h (the model's types), heap_model.c (the shared model),
 * heap_encode.c (one trace's encoding, obligations), heap_replay.c
 * (concrete comparison and replay).
 */
#include "heap_int.h"

#include "util/clock.h"

/* ---- driver ----------------------------------------------------------------
 */

/* Queries go first to one incremental solver per pair with a short
 * budget: the background is asserted once, each guard's pass condition
 * once behind an indicator constant, and a query assumes the indicators
 * of the guards before it and pushes only its negated goal.  A query that
 * budget does not settle goes to a fresh solver with the rest of the
 * timeout (Z3's non-incremental solver preprocesses the whole query, which
 * is faster on the hard ones). */
enum { HP_FAST_MS = 100 };

static void set_limits(hp *h, Z3_solver s, unsigned timeout_ms)
{
	Z3_params p = Z3_mk_params(h->z);
	Z3_params_inc_ref(h->z, p);
	if (timeout_ms)
		Z3_params_set_uint(
		    h->z, p, Z3_mk_string_symbol(h->z, "timeout"), timeout_ms);
	if (h->opts->rlimit)
		Z3_params_set_uint(h->z, p, Z3_mk_string_symbol(h->z, "rlimit"),
				   h->opts->rlimit);
	Z3_solver_set_params(h->z, s, p);
	Z3_params_dec_ref(h->z, p);
}

static unsigned fast_budget(const hp *h)
{
	unsigned user = h->opts->timeout_ms;
	return user && user < HP_FAST_MS ? user : HP_FAST_MS;
}

/* Makes the indicator constant of each guard of E: one per guard, shared
 * by the exact and the abstract solver. */
static void make_indicators(hp *h, const htrace *e, Z3_ast *ind, char tag)
{
	for (uint32_t i = 0; i < e->t->nops; i++) {
		if (!e->pass[i])
			continue;
		char sym[32];
		snprintf(sym, sizeof sym, "pass_%c%u", tag, i);
		ind[i] = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
					  Z3_mk_bool_sort(h->z)));
	}
}

static void need_indicators(hp *h)
{
	if (h->have_ind)
		return;
	make_indicators(h, &h->ho, h->ind_o, 'o');
	make_indicators(h, &h->hpp, h->ind_p, 'p');
	for (uint32_t i = 0; i < h->o->nops; i++) {
		if (!h->ho.nn[i])
			continue;
		char sym[32];
		snprintf(sym, sizeof sym, "def_o%u", i);
		h->ind_d[i] =
		    K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
				     Z3_mk_bool_sort(h->z)));
	}
	h->have_ind = true;
}

/* Asserts "indicator implies defined if reached" for ORIG's field
 * accesses into S (through ABS when not NULL); false when abstracting
 * failed. */
static bool def_indicators(hp *h, Z3_solver s, abs_map *abs)
{
	for (uint32_t i = 0; i < h->o->nops; i++) {
		if (!h->ind_d[i])
			continue;
		Z3_ast d = hp_def_at(h, i);
		if (abs)
			d = abs_term(abs, d, &h->abs_any);
		if (!d)
			return false;
		Z3_solver_assert(h->z, s,
				 K(h, Z3_mk_implies(h->z, h->ind_d[i], d)));
	}
	return true;
}

/* Asserts "indicator implies pass" for the guards of E into S, each pass
 * condition through ABS (the abstraction) when it is not NULL.  False
 * when abstracting failed. */
static bool indicators(hp *h, Z3_solver s, const htrace *e, const Z3_ast *ind,
		       abs_map *abs)
{
	for (uint32_t i = 0; i < e->t->nops; i++) {
		if (!e->pass[i])
			continue;
		Z3_ast pass =
		    abs ? abs_term(abs, e->pass[i], &h->abs_any) : e->pass[i];
		if (!pass)
			return false;
		Z3_solver_assert(h->z, s,
				 K(h, Z3_mk_implies(h->z, ind[i], pass)));
	}
	return true;
}

/* Makes *OUT a new incremental solver with a budget of MS holding the
 * background and "indicator implies pass" for every guard, each through
 * ABS (the abstraction) when it is not NULL.  False when Z3 or
 * abstracting failed; a solver made is in *OUT even then (hp_check
 * releases it). */
static bool pair_solver(hp *h, Z3_solver *out, unsigned ms, abs_map *abs)
{
	Z3_solver s = Z3_mk_simple_solver(h->z);
	if (!s)
		return false;
	Z3_solver_inc_ref(h->z, s);
	*out = s;
	set_limits(h, s, ms);
	Z3_ast bg = abs ? abs_term(abs, h->bg, &h->abs_any) : h->bg;
	if (!bg)
		return false;
	Z3_solver_assert(h->z, s, bg);
	need_indicators(h);
	return indicators(h, s, &h->ho, h->ind_o, abs) &&
	       indicators(h, s, &h->hpp, h->ind_p, abs) &&
	       def_indicators(h, s, abs) && !zc_failed();
}

static bool make_solver(hp *h)
{
	return h->s || pair_solver(h, &h->s, fast_budget(h), NULL);
}

/* The abstraction (verify/abstract.h) gets this budget, as in the integer
 * verifier: without multipliers, the queries it can prove are easy. */
enum { HP_ABS_MS = 50 };

/* The abstraction's solver: the background and the guards' pass
 * conditions with every multiplier and divider hidden. */
static bool make_abs_solver(hp *h)
{
	if (h->sa)
		return true;
	unsigned user = h->opts->timeout_ms;
	abs_init(&h->A, &h->S);
	return pair_solver(h, &h->sa,
			   user && user < HP_ABS_MS ? user : HP_ABS_MS, &h->A);
}

static uint32_t assumptions(const hp *h, const hobl *q, Z3_ast *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < q->b.o_upto; i++)
		if (h->ind_o[i])
			out[n++] = h->ind_o[i];
	for (uint32_t i = 0; i < q->b.p_upto; i++)
		if (h->ind_p[i])
			out[n++] = h->ind_p[i];
	for (uint32_t i = 0; i < q->d_upto && i < h->o->nops; i++)
		if (h->ind_d[i])
			out[n++] = h->ind_d[i];
	return n;
}

/* The query in a fresh solver with everything asserted. */
static Z3_solver fresh_solver(hp *h, const hobl *q, Z3_ast neg,
			      unsigned timeout_ms)
{
	Z3_solver s = Z3_mk_solver(h->z);
	Z3_solver_inc_ref(h->z, s);
	set_limits(h, s, timeout_ms);
	Z3_solver_assert(h->z, s, h->bg);
	Z3_solver_assert(h->z, s, hp_all_pass(h, &h->ho, q->b.o_upto));
	Z3_solver_assert(h->z, s, hp_all_pass(h, &h->hpp, q->b.p_upto));
	Z3_solver_assert(h->z, s, hp_def_upto(h, q->d_upto));
	Z3_solver_assert(h->z, s, neg);
	return s;
}

static void set_reason(hp *h, const char *what, const char *why)
{
	if (h->res->reason)
		return;
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s: %s", what, why);
	h->res->reason = sb_detach(&sb);
}

/* A satisfying model: refuted when it replays. */
static jp_status use_model(hp *h, Z3_solver s, ver_obligation *out,
			   bool *refuted)
{
	jp_status st = JP_OK;
	Z3_model m = Z3_solver_get_model(h->z, s);
	if (!m)
		return zc_check_error(h->err, "getting a model");
	Z3_model_inc_ref(h->z, m);
	int r = hp_replay(h, m, out->what, &st);
	if (r == 1) {
		out->status = VER_REFUTED;
		out->how = VER_BY_SOLVER;
		*refuted = true;
	} else if (!st) {
		set_reason(h, out->what,
			   "the solver's counterexample needs a call to "
			   "write a fresh object that the world cannot reach "
			   "at run time (the static escape analysis "
			   "over-approximates)");
	}
	Z3_model_dec_ref(h->z, m);
	return st;
}

/* Pushes a scope onto the incremental solver S, asserts NEG in it and
 * checks it under the indicators of the guards before Q; the caller pops
 * (after reading a model). */
static jp_status push_check(hp *h, Z3_solver s, const hobl *q, Z3_ast neg,
			    Z3_lbool *ans)
{
	uint32_t cap = 2 * h->o->nops + h->p->nops + 1;
	Z3_ast *as = calloc(cap, sizeof *as);
	Z3_solver_push(h->z, s);
	if (!as)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	uint32_t n = assumptions(h, q, as);
	Z3_solver_assert(h->z, s, neg);
	*ans = Z3_solver_check_assumptions(h->z, s, n, as);
	free(as);
	return zc_check_error(h->err, "solver check");
}

static jp_status abs_failed(hp *h, const char *what)
{
	return jp_fail(h->err, JP_EINTERNAL, "abstracting %s: %s", what,
		       zc_error_text());
}

/* Asks the abstraction of the query (verify/abstract.h): *ANS becomes
 * Z3_L_FALSE when it is unsatisfiable, which proves the exact query
 * unsatisfiable too; otherwise *ANS is left alone (sat or unknown says
 * nothing).  Nothing is asked when nothing is hidden: the
 * abstract query would then be the exact one.  Most heap pairs that the
 * exact solver cannot settle multiply or divide (176 of 179 undecided
 * heap pairs of a 20,000-trace campaign), and most of their obligations
 * hold whatever the products are. */
static jp_status abstract_query(hp *h, const hobl *q, Z3_ast neg, Z3_lbool *ans)
{
	if (!make_abs_solver(h))
		return h->A.failed
			   ? abs_failed(h, "the heap model")
			   : zc_check_error(h->err, "creating a solver");
	bool hid = h->abs_any;
	Z3_ast g = abs_term(&h->A, neg, &hid);
	if (!g)
		return abs_failed(h, "a goal");
	if (!hid)
		return JP_OK;
	Z3_ast ax;
	if (!abs_axioms(&h->A, &ax))
		return abs_failed(h, "axioms");
	if (ax)
		Z3_solver_assert(h->z, h->sa, ax);
	h->res->abstract_calls++;
	Z3_lbool a = Z3_L_UNDEF;
	jp_status st = push_check(h, h->sa, q, g, &a);
	Z3_solver_pop(h->z, h->sa, 1);
	if (!st && a == Z3_L_FALSE) {
		*ans = Z3_L_FALSE;
		h->res->abstract_proved++;
	}
	return st ? st : zc_check_error(h->err, "solver pop");
}

/* The incremental query: *ANS is the solver's answer; a model is used
 * before the goal is popped. */
static jp_status fast_query(hp *h, const hobl *q, Z3_ast neg,
			    ver_obligation *out, bool *refuted, Z3_lbool *ans)
{
	if (!make_solver(h))
		return zc_check_error(h->err, "creating a solver");
	jp_status st = push_check(h, h->s, q, neg, ans);
	if (!st && *ans == Z3_L_TRUE)
		st = use_model(h, h->s, out, refuted);
	else if (!st && *ans == Z3_L_UNDEF)
		snprintf(h->why, sizeof h->why, "%s",
			 Z3_solver_get_reason_unknown(h->z, h->s));
	Z3_solver_pop(h->z, h->s, 1);
	return st ? st : zc_check_error(h->err, "solver pop");
}

static jp_status solve(hp *h, const hobl *q, ver_obligation *out, bool *refuted)
{
	double t0 = clk_now_ms();
	Z3_ast raw = hp_goal_neg(h, q);
	out->checked = true;
	out->status = VER_UNKNOWN;
	out->how = VER_BY_NONE;
	if (zc_is_false(h->z, raw)) {
		out->status = VER_PROVED;
		out->how = VER_BY_IDENTITY;
		return JP_OK;
	}
	Z3_ast neg = K(h, Z3_simplify(h->z, raw));
	if (zc_is_false(h->z, neg)) {
		out->status = VER_PROVED;
		out->how = VER_BY_REWRITE;
		out->ms = clk_now_ms() - t0;
		return JP_OK;
	}
	h->res->solver_calls++;
	h->why[0] = 0;
	Z3_lbool ans = Z3_L_UNDEF;
	/* The abstraction gets the goal as built, as the guards are: Z3's
	 * rewriter writes -x as -1 * x, which would be hidden, and cut the
	 * goal off from the guards that say what -x is (measured: a pair
	 * with "-x // 15" took 266 ms that way and 4 ms with RAW). */
	jp_status st = h->gave_up ? JP_OK : abstract_query(h, q, raw, &ans);
	if (!st && ans != Z3_L_FALSE)
		st = fast_query(h, q, neg, out, refuted, &ans);
	unsigned user = h->opts->timeout_ms;
	double spent = clk_now_ms() - t0;
	/* Once an obligation is unknown the pair cannot be proved: the rest
	 * only look for a counterexample within the short budget, so a hard
	 * pair costs one timeout, not one per obligation. */
	if (!st && ans == Z3_L_UNDEF && !h->gave_up &&
	    (user == 0 || (user > HP_FAST_MS && spent + 1 < (double)user))) {
		h->res->slow_queries++;
		Z3_solver s =
		    fresh_solver(h, q, neg, user ? user - (unsigned)spent : 0);
		ans = Z3_solver_check(h->z, s);
		st = zc_check_error(h->err, "solver check");
		if (!st && ans == Z3_L_TRUE)
			st = use_model(h, s, out, refuted);
		else if (!st && ans == Z3_L_UNDEF)
			set_reason(h, out->what,
				   Z3_solver_get_reason_unknown(h->z, s));
		Z3_solver_dec_ref(h->z, s);
	} else if (!st && ans == Z3_L_UNDEF) {
		set_reason(h, out->what, h->why[0] ? h->why : "unknown");
	}
	if (!st && ans == Z3_L_FALSE) {
		out->status = VER_PROVED;
		out->how = VER_BY_SOLVER;
	}
	if (!st && out->status == VER_UNKNOWN)
		h->gave_up = true;
	out->ms = clk_now_ms() - t0;
	h->res->ms_solve += out->ms;
	return st;
}

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
	jp_status st = hp_scan_fields(h, o);
	if (!st)
		st = hp_scan_fields(h, p);
	if (st)
		return st;
	h->ind_o = calloc(o->nops + 1, sizeof *h->ind_o);
	h->ind_p = calloc(p->nops + 1, sizeof *h->ind_p);
	h->ind_d = calloc(o->nops + 1, sizeof *h->ind_d);
	if (!h->ind_o || !h->ind_p || !h->ind_d)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	h->hk = calloc((size_t)h->maxcalls * (h->nf + 1) + 1, sizeof *h->hk);
	h->rk = calloc(h->maxcalls + 1, sizeof *h->rk);
	if (!h->hk || !h->rk || !hp_trace_alloc(h, &h->ho, o) ||
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
		st = hp_realism(h);
	return st;
}

static jp_status init_res(hp *h)
{
	ver_result *r = h->res;
	const ir_trace *o = h->o;
	r->verdict = VER_UNKNOWN;
	r->mode_used = VER_MODE_ALIGNED;
	r->failed = -1;
	r->width = h->w;
	r->ninputs = o->ninputs;
	r->inputs = calloc(o->ninputs + 1, sizeof *r->inputs);
	r->input_names = calloc(o->ninputs + 1, sizeof *r->input_names);
	r->input_kinds = calloc(o->ninputs + 1, 1);
	if (!r->inputs || !r->input_names || !r->input_kinds)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < o->ninputs; i++) {
		const char *nm = ir_valname(o, o->inputs[i]);
		r->input_names[i] = malloc(strlen(nm) + 1);
		if (!r->input_names[i])
			return jp_fail(h->err, JP_ENOMEM, "out of memory");
		strcpy(r->input_names[i], nm);
		r->input_kinds[i] = is_ref(o, o->inputs[i]) ? 'r' : 'i';
	}
	return JP_OK;
}

static jp_status run_all(hp *h, const hlist *Q)
{
	ver_result *r = h->res;
	r->obl = calloc(Q->n + 1, sizeof *r->obl);
	if (!r->obl)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	r->nobl = Q->n;
	for (uint32_t i = 0; i < Q->n; i++) {
		strbuf sb;
		sb_init(&sb);
		hp_describe(h, &Q->v[i], &sb);
		r->obl[i].what = sb_detach(&sb);
		r->obl[i].status = VER_UNKNOWN;
		r->obl[i].how = VER_BY_NONE;
		if (!r->obl[i].what)
			return jp_fail(h->err, JP_ENOMEM, "out of memory");
	}
	bool refuted = false, unknown = false;
	for (uint32_t i = 0; i < Q->n && !refuted; i++) {
		jp_status st = solve(h, &Q->v[i], &r->obl[i], &refuted);
		if (st)
			return st;
		if (zc_failed())
			return zc_check_error(h->err, "Z3 (heap model)");
		if (refuted)
			r->failed = (int32_t)i;
		else if (r->obl[i].status == VER_UNKNOWN) {
			unknown = true;
			if (r->failed < 0)
				r->failed = (int32_t)i;
		}
	}
	/* The statistics are counted from the list, so they always add up. */
	r->by_identity = r->by_solver = r->by_rewrite = 0;
	for (uint32_t i = 0; i < r->nobl; i++) {
		if (!r->obl[i].checked)
			continue;
		r->by_identity += r->obl[i].how == VER_BY_IDENTITY;
		r->by_solver += r->obl[i].how == VER_BY_SOLVER;
		r->by_rewrite += r->obl[i].how == VER_BY_REWRITE;
	}
	r->verdict = refuted ? VER_REFUTED : unknown ? VER_UNKNOWN : VER_PROVED;
	if (refuted) {
		free(r->reason);
		r->reason = NULL;
	} else if (!unknown) {
		r->failed = -1;
	}
	return JP_OK;
}

jp_status hp_check(Z3_context z, const ir_trace *orig, const ir_trace *opt,
		   const ver_opts *opts, ver_result *res, jp_err *err)
{
	if (opts->mode == VER_MODE_TRACE)
		return jp_fail(err, JP_EUNSUPPORTED,
			       "trace mode does not model the heap; heap "
			       "traces are checked in aligned mode");
	hp *h = calloc(1, sizeof *h);
	if (!h)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	h->z = z;
	h->o = orig;
	h->p = opt;
	h->opts = opts;
	h->res = res;
	h->w = orig->width;
	h->err = err;
	zc_scope_init(&h->S, z);
	arena_init(&h->nodes);
	double t0 = clk_now_ms();
	bool skip = false; /* unknown before any obligation */
	uint32_t *match = calloc(opt->nops + 1, sizeof *match);
	obl_list L;
	memset(&L, 0, sizeof L);
	hlist Q;
	memset(&Q, 0, sizeof Q);
	jp_status st = match ? JP_OK : jp_fail(err, JP_ENOMEM, "out of memory");
	if (!st)
		st = obl_match_labels(orig, opt, match, err);
	if (!st)
		st = obl_require_order(orig, opt, match, err);
	if (!st)
		st = init_res(h);
	if (!st)
		st = setup(h);
	if (st == JP_EUNSUPPORTED && h->over_limit) {
		/* A limit of the model, not of the input: unknown. */
		res->reason = malloc(strlen(err->msg) + 1);
		st = res->reason ? JP_OK
				 : jp_fail(err, JP_ENOMEM, "out of memory");
		if (res->reason)
			strcpy(res->reason, err->msg);
		res->verdict = VER_UNKNOWN;
		skip = true;
	}
	res->ms_encode = clk_now_ms() - t0;
	if (!st && !skip)
		st = obl_build(orig, opt, VER_MODE_ALIGNED, match, true, &L,
			       err);
	if (!st && !skip)
		st = hp_build_obls(h, &L, &Q);
	if (!st && !skip)
		st = run_all(h, &Q);
	free(Q.v);
	obl_list_free(&L);
	free(match);
	hp_trace_free(&h->ho);
	hp_trace_free(&h->hpp);
	if (h->tyfun)
		Z3_dec_ref(z, Z3_func_decl_to_ast(z, h->tyfun));
	if (h->s)
		Z3_solver_dec_ref(z, h->s);
	if (h->sa) {
		Z3_solver_dec_ref(z, h->sa);
		abs_free(&h->A);
	}
	zc_scope_release(&h->S);
	arena_free(&h->nodes);
	free(h->ind_o);
	free(h->ind_p);
	free(h->ind_d);
	free(h->cp);
	free(h->f);
	free(h->cls);
	free(h->vars);
	free(h->hk);
	free(h->rk);
	free(h);
	return st;
}
