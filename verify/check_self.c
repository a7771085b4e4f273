/*
 * check_self.c - --self-check: the encoding of both traces evaluated at
 * the screening inputs must agree with the interpreter value by value and
 * guard by guard, and each trace checked against itself must be proved
 * without the solver.
 */
#include "check_int.h"

#include <string.h>

static jp_status eval_at(chk_pair *ps, Z3_model m, Z3_ast t, uint64_t *v,
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

static jp_status self_check_trace(chk_pair *ps, Z3_model m, const enc_trace *e,
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

jp_status chk_self_check_at(chk_pair *ps, const uint64_t *x, jp_err *err)
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

/* A trace checked against itself must be proved, and without the solver:
 * every obligation's two sides are the same term. */
jp_status chk_self_check_identity(ver_ctx *c, const ir_trace *t,
				  const ver_opts *opts, jp_err *err)
{
	ver_opts o = *opts;
	o.self_check = false;
	o.screen_inputs = 4;
	o.mode = VER_MODE_ALIGNED;
	o.smt2_dir = NULL;
	o.solver_cmd = NULL;
	o.audit = false;
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
