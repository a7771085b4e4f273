/*
 * check_audit.c - checking the checker, at run time.
 *  - --smt2 writes every solver query as a standalone SMT-LIB 2 file, and
 *    --solver-cmd has a second solver answer it; a different answer is an
 *    internal error, and no answer at all (anything but sat, unsat,
 *    unknown or timeout) an error too.  ver_solver_probe tries the
 *    command on two tiny queries first.
 *  - --audit (ver_opts.audit) asks every proved obligation again, of Z3,
 *    on the plain encoding: each op by enc_op / enc_guard over the input
 *    variables, with none of the shortcuts that settle or rewrite goals
 *    without the solver seeing that encoding (identity through
 *    assumptions, ranges, rewriting, facts, lemmas, refolding, encoder
 *    folding and peepholes, the abstraction).  docs/trust.md lists those
 *    shortcuts; this is their runtime cross-check.
 *
 * Sections: second solver and SMT-LIB files; the plain encoding; the
 * audit.
 */
#define _POSIX_C_SOURCE 200809L

#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- second solver and SMT-LIB files ----------------------------------- */

/* Whether the queries are re-checked (--smt2 writes every query out,
 * --solver-cmd re-checks it with another solver): then every obligation
 * that needs reasoning must go to a query, and the range analyses settle
 * nothing themselves. */
bool chk_rechecking(const chk_pair *ps)
{
	return ps->opts->smt2_dir || ps->opts->solver_cmd;
}

/* Writes QUERY (the assumptions plus NEG) as a standalone SMT-LIB 2 file.
 * PATH receives the file name. */
static jp_status write_smt2(chk_pair *ps, Z3_ast neg, char *path, size_t size,
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
	    ps->z, "jitprove verifier query", ps->heap ? "QF_AUFBV" : "QF_BV",
	    "unknown", "", ps->hyps.n, ps->hyps.v, neg);
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

/* What a second solver answered: sat / unsat, an answer that is no
 * verdict (unknown, timeout), or something else entirely. */
typedef enum solver_answer {
	ANS_UNSAT,
	ANS_SAT,
	ANS_INCONCLUSIVE,
	ANS_GARBAGE,
} solver_answer;

/* Runs CMD on PATH.  On ANS_GARBAGE, SAID gets what it printed first (or
 * that it printed nothing) and its exit status. */
static solver_answer second_solver(const char *cmd, const char *path,
				   char *said, size_t size)
{
	size_t n = strlen(cmd) + strlen(path) + 16;
	char *line = malloc(n);
	snprintf(said, size, "nothing could be run (out of memory)");
	if (!line)
		return ANS_GARBAGE;
	snprintf(line, n, "%s '%s' 2>&1", cmd, path);
	FILE *f = popen(line, "r");
	free(line);
	if (!f) {
		snprintf(said, size, "the shell could not be started");
		return ANS_GARBAGE;
	}
	char buf[256] = "", first[96] = "";
	solver_answer ans = ANS_GARBAGE;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\r\n")] = 0;
		if (!first[0]) /* the start of the first line, for messages */
			snprintf(first, sizeof first, "%.*s",
				 (int)sizeof first - 1, buf);
		if (!strcmp(buf, "unsat") || !strcmp(buf, "sat")) {
			ans = buf[0] == 's' ? ANS_SAT : ANS_UNSAT;
			break;
		}
		if (!strcmp(buf, "unknown") || !strcmp(buf, "timeout")) {
			ans = ANS_INCONCLUSIVE;
			break;
		}
	}
	while (fgets(buf, sizeof buf, f))
		; /* let it finish rather than die of a broken pipe */
	int status = pclose(f);
	if (ans == ANS_GARBAGE)
		snprintf(said, size, "%s%s%s (exit status %d)",
			 first[0] ? "it printed '" : "it printed nothing",
			 first, first[0] ? "'" : "",
			 status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status)
							  : -1);
	return ans;
}

/* A tiny query for ver_solver_probe whose answer is known. */
static jp_status probe_once(const char *cmd, bool sat, jp_err *err)
{
	char path[] = "/tmp/jitprove-probe-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return jp_fail(err, JP_EIO,
			       "cannot create a temporary file for probing "
			       "--solver-cmd");
	}
	fprintf(f,
		";; jitprove solver probe: the answer must be %s\n"
		"(set-logic QF_BV)\n(declare-fun x () (_ BitVec 8))\n"
		"(assert (= (bvadd x #x01) #x%s))\n%s(check-sat)\n",
		sat ? "sat" : "unsat", sat ? "05" : "00",
		sat ? "" : "(assert (= x #x00))\n");
	bool ok = fclose(f) == 0;
	char said[160];
	solver_answer a =
	    ok ? second_solver(cmd, path, said, sizeof said) : ANS_GARBAGE;
	remove(path);
	if (!ok)
		return jp_fail(err, JP_EIO,
			       "cannot write a temporary file for probing "
			       "--solver-cmd");
	if (a == (sat ? ANS_SAT : ANS_UNSAT))
		return JP_OK;
	if (a == ANS_GARBAGE)
		return jp_fail(err, JP_EINPUT,
			       "--solver-cmd '%s' does not work as a solver: "
			       "run on a query it should answer '%s', %s",
			       cmd, sat ? "sat" : "unsat", said);
	return jp_fail(
	    err, JP_EINPUT,
	    "--solver-cmd '%s' answered '%s' on a query whose answer "
	    "is '%s'",
	    cmd,
	    a == ANS_SAT     ? "sat"
	    : a == ANS_UNSAT ? "unsat"
			     : "unknown",
	    sat ? "sat" : "unsat");
}

jp_status ver_solver_probe(const char *cmd, jp_err *err)
{
	jp_status st = probe_once(cmd, true, err);
	return st ? st : probe_once(cmd, false, err);
}

jp_status chk_recheck(chk_pair *ps, Z3_ast neg, Z3_lbool ans, jp_err *err)
{
	char path[4096];
	jp_status st = write_smt2(ps, neg, path, sizeof path, err);
	if (st || !ps->opts->solver_cmd || ans == Z3_L_UNDEF) {
		if (!st && !ps->opts->smt2_dir)
			remove(path);
		return st;
	}
	char said[160];
	solver_answer other =
	    second_solver(ps->opts->solver_cmd, path, said, sizeof said);
	ps->res->second_checked++;
	if (other == ANS_INCONCLUSIVE)
		ps->res->second_inconclusive++;
	else if (other == ANS_GARBAGE)
		/* Not an answer, so certainly no agreement. */
		st = jp_fail(err, JP_EIO,
			     "the second solver '%s' gave no answer on %s: %s",
			     ps->opts->solver_cmd,
			     ps->opts->smt2_dir ? path : "a query", said);
	else if ((other == ANS_SAT) != (ans == Z3_L_TRUE))
		st = jp_fail(err, JP_EINTERNAL,
			     "solver disagreement on %s: Z3 says %s, '%s' says "
			     "%s",
			     ps->opts->smt2_dir ? path : "a query",
			     ans == Z3_L_TRUE ? "sat" : "unsat",
			     ps->opts->solver_cmd,
			     other == ANS_SAT ? "sat" : "unsat");
	if (!ps->opts->smt2_dir)
		remove(path);
	return st;
}

/* ---- the plain encoding ------------------------------------------------ */

/* A trace encoded op by op with enc_op and enc_guard only: no folding of
 * constant ops, no enc_peephole, and overflow flags by the textbook
 * definition (enc_ovf_reference).  Z3 still hash-conses, so a computation
 * written the same in both traces is one term here too. */
typedef struct plain_trace {
	Z3_ast *val;  /* per vid */
	Z3_ast *pass; /* per op: "the guard passes", else NULL */
} plain_trace;

/* The wrapping op of an overflow-checked one, or OPC itself. */
static ir_opcode wrapping_op(ir_opcode opc)
{
	switch (opc) {
	case IR_INT_ADD_OVF: return IR_INT_ADD;
	case IR_INT_SUB_OVF: return IR_INT_SUB;
	case IR_INT_MUL_OVF: return IR_INT_MUL;
	default: return opc;
	}
}

static jp_status plain_op(zc_scope *S, const ir_trace *t, uint32_t i,
			  plain_trace *e, Z3_ast *ovf, jp_err *err)
{
	const ir_op *op = &t->ops[i];
	ir_opcode opc = (ir_opcode)op->opc;
	if (ir_op_has(opc, IRF_MARK) || ir_op_has(opc, IRF_END))
		return JP_OK;
	Z3_ast a[2] = {NULL, NULL};
	for (uint32_t j = 0; j < op->nargs && j < 2; j++)
		if (!(a[j] = e->val[op->args[j]]))
			return jp_fail(err, JP_EUNSUPPORTED,
				       "audit: op %u has an argument the plain "
				       "encoding has no term for",
				       i);
	if (ir_op_has(opc, IRF_GUARD)) {
		/* The flag of the op right before, markers skipped. */
		Z3_ast prev = NULL;
		for (uint32_t k = i; k-- > 0;)
			if (!ir_op_has(t->ops[k].opc, IRF_MARK)) {
				prev = ovf[k];
				break;
			}
		e->pass[i] = enc_guard(S, opc, a, NULL, prev);
		return e->pass[i] ? JP_OK
				  : jp_fail(err, JP_EUNSUPPORTED,
					    "audit: cannot encode guard %u", i);
	}
	ir_opcode w = wrapping_op(opc);
	Z3_ast r = enc_op(S, t->width, w, a, NULL);
	if (w != opc)
		ovf[i] = enc_ovf_reference(S, t->width, opc, a[0], a[1]);
	if (!r || (w != opc && !ovf[i]))
		return jp_fail(err, JP_EUNSUPPORTED,
			       "audit: cannot encode op %u ('%s')", i,
			       ir_op_name(t, op));
	if (op->result != IR_NOVAL)
		e->val[op->result] = r;
	return JP_OK;
}

/* A heap pair's plain terms are the heap model's own (ET, the driver's
 * copy of them): the audit then re-asks every proof without the driver's
 * shortcuts (ranges, rewriting, facts, lemmas, refolding), though with the
 * integer encoder's forms the model uses. */
static jp_status plain_heap(const ir_trace *t, const enc_trace *et,
			    plain_trace *e, jp_err *err)
{
	e->val = calloc((size_t)t->nvals + 1, sizeof *e->val);
	e->pass = calloc((size_t)t->nops + 1, sizeof *e->pass);
	if (!e->val || !e->pass)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	memcpy(e->val, et->val, t->nvals * sizeof *e->val);
	memcpy(e->pass, et->pass, t->nops * sizeof *e->pass);
	return JP_OK;
}

static jp_status plain_build(chk_pair *ps, const ir_trace *t, plain_trace *e,
			     jp_err *err)
{
	if (ps->heap)
		return plain_heap(t, t == ps->o ? &ps->eo : &ps->ep, e, err);
	e->val = calloc((size_t)t->nvals + 1, sizeof *e->val);
	e->pass = calloc((size_t)t->nops + 1, sizeof *e->pass);
	Z3_ast *ovf = calloc((size_t)t->nops + 1, sizeof *ovf);
	if (!e->val || !e->pass || !ovf) {
		free(ovf);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < t->ninputs; i++)
		e->val[t->inputs[i]] = ps->vars[i];
	for (ir_vid v = 0; v < t->nvals; v++) {
		const ir_value *x = ir_val(t, v);
		if (x->tag == IR_VAL_CONST_INT)
			e->val[v] = zc_bv(&ps->S, (unsigned)t->width, x->cval);
		else if (x->tag == IR_VAL_CONST_NULL)
			e->val[v] = zc_bv(&ps->S, 64, 0);
	}
	jp_status st = JP_OK;
	for (uint32_t i = 0; i < t->nops && !st; i++)
		st = plain_op(&ps->S, t, i, e, ovf, err);
	free(ovf);
	if (!st && ps->S.failed)
		st = jp_fail(err, JP_EINTERNAL, "audit: encoding: %s",
			     zc_error_text());
	return st;
}

static void plain_free(plain_trace *e)
{
	free(e->val);
	free(e->pass);
}

/* ---- the audit --------------------------------------------------------- */

/* The negated goal of B on the plain terms, as chk_goal_neg makes it but
 * with no lemmas and no assumption-based shortcut; NULL with *SAME set when
 * the two sides are one plain term (nothing to audit: syntactic identity
 * of the very same term). */
static Z3_ast plain_goal_neg(chk_pair *ps, const plain_trace *po,
			     const plain_trace *pp, const obl *b, bool *same)
{
	Z3_context z = ps->z;
	*same = false;
	Z3_ast a = b->og != OBL_NONE ? po->pass[b->og] : NULL;
	Z3_ast c = b->pg != OBL_NONE ? pp->pass[b->pg] : NULL;
	switch (b->kind) {
	case OBL_SAME:
		if (a == c) {
			*same = true;
			return NULL;
		}
		return zc_keep(&ps->S, Z3_mk_xor(z, a, c));
	case OBL_REMOVED:
	case OBL_T_ORIG: return chk_mk_not(ps, a);
	case OBL_NEW:
	case OBL_T_OPT: return chk_mk_not(ps, c);
	case OBL_FAILARGS: {
		const ir_op *ga = &ps->o->ops[b->og], *gb = &ps->p->ops[b->pg];
		Z3_ast parts[3] = {chk_mk_not(ps, a), chk_mk_not(ps, c), NULL};
		uint32_t n = 2;
		if (ga->nfail == gb->nfail) {
			Z3_ast *d = malloc(((size_t)ga->nfail + 1) * sizeof *d);
			if (!d) {
				ps->S.failed = true;
				return NULL;
			}
			uint32_t nd = 0;
			bool shape = true;
			for (uint32_t j = 0; j < ga->nfail && shape; j++) {
				ir_vid va = ga->failargs[j],
				       vb = gb->failargs[j];
				if ((va == IR_NOVAL) != (vb == IR_NOVAL) ||
				    (va != IR_NOVAL &&
				     (ir_val(ps->o, va)->kind == 'r') !=
					 (ir_val(ps->p, vb)->kind == 'r'))) {
					shape = false;
					break;
				}
				if (va == IR_NOVAL ||
				    po->val[va] == pp->val[vb])
					continue;
				d[nd++] = chk_mk_not(
				    ps, zc_keep(&ps->S, Z3_mk_eq(z, po->val[va],
								 pp->val[vb])));
			}
			if (shape && nd == 0) {
				free(d);
				*same = true; /* every fail-arg one term */
				return NULL;
			}
			if (shape)
				parts[n++] =
				    zc_keep(&ps->S, Z3_mk_or(z, nd, d));
			free(d);
		}
		return chk_mk_and(ps, n, parts);
	}
	case OBL_OUTPUT: {
		const ir_op *eo = &ps->o->ops[ps->o->nops - 1];
		const ir_op *ep = &ps->p->ops[ps->p->nops - 1];
		Z3_ast x = po->val[eo->args[b->j]];
		Z3_ast y = pp->val[ep->args[b->j]];
		if (x == y) {
			*same = true;
			return NULL;
		}
		return chk_mk_not(ps, zc_keep(&ps->S, Z3_mk_eq(z, x, y)));
	}
	case OBL_END: return zc_true(&ps->S);
	case OBL_EXIT: return NULL; /* not audited: see chk_audit */
	case OBL_MODEL: return hp_model_goal_neg(ps->heap, b);
	}
	return NULL;
}

/* The budgets of a plain query: first the incremental solver, which
 * holds the assumptions asserted so far, then a fresh bit-blasting solver.
 * Both get a short budget (chk_short_limit: wall clock, or a resource
 * count when the pair has an rlimit): the plain encoding has
 * queries no solver settles quickly (x + x against x << 1 inside an
 * overflow check is a hard miter for bit-blasting), and an audit that
 * spent the full query budget on each would cost a campaign 25 times its
 * own time.  A plain query without an answer is "audit unknown", never a
 * disagreement. */
enum { AUDIT_FAST_MS = 50, AUDIT_SLOW_MS = 250 };

/* Sets S's limits to the short budget MS (chk_short_limit). */
static void audit_limits(chk_pair *ps, Z3_solver s, unsigned ms, bool tactic)
{
	Z3_context z = ps->z;
	chk_limit lim = chk_short_limit(ps, ms);
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	if (lim.timeout_ms)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"),
				   lim.timeout_ms);
	if (lim.rlimit)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "rlimit"),
				   lim.rlimit);
	zc_limit_params(z, p, tactic ? ZC_TACTIC_SOLVER : ZC_SMT_SOLVER,
			ps->cap_mb);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);
}

static jp_status make_audit_solvers(chk_pair *ps, jp_err *err)
{
	Z3_context z = ps->z;
	if (!ps->solvers.audit) {
		ps->solvers.audit = Z3_mk_simple_solver(z);
		if (!ps->solvers.audit)
			return zc_check_error(err, "creating a solver");
		Z3_solver_inc_ref(z, ps->solvers.audit);
		audit_limits(ps, ps->solvers.audit, AUDIT_FAST_MS, false);
	}
	if (!ps->solvers.audit_slow && ps->heap) {
		/* Arrays and a type function: Z3's general solver. */
		ps->solvers.audit_slow = Z3_mk_solver(z);
		if (!ps->solvers.audit_slow)
			return zc_check_error(err, "creating a solver");
		Z3_solver_inc_ref(z, ps->solvers.audit_slow);
		audit_limits(ps, ps->solvers.audit_slow, AUDIT_SLOW_MS, false);
	}
	if (!ps->solvers.audit_slow) {
		Z3_tactic t = Z3_mk_tactic(z, "qfbv");
		if (!t)
			return zc_check_error(err, "creating a tactic");
		Z3_tactic_inc_ref(z, t);
		ps->solvers.audit_slow = Z3_mk_solver_from_tactic(z, t);
		Z3_tactic_dec_ref(z, t);
		if (!ps->solvers.audit_slow)
			return zc_check_error(err, "creating a solver");
		Z3_solver_inc_ref(z, ps->solvers.audit_slow);
		audit_limits(ps, ps->solvers.audit_slow, AUDIT_SLOW_MS, true);
	}
	return zc_check_error(err, "configuring the audit solvers");
}

/* Asserts in S the plain guard conditions of ORIG before O_UPTO and of OPT
 * before P_UPTO, from index O_FROM / P_FROM on. */
static void assert_plain_hyps(chk_pair *ps, Z3_solver s, const plain_trace *po,
			      const plain_trace *pp, uint32_t o_from,
			      uint32_t o_upto, uint32_t p_from, uint32_t p_upto)
{
	for (uint32_t i = o_from; i < o_upto && i < ps->o->nops; i++)
		if (po->pass[i])
			Z3_solver_assert(ps->z, s, po->pass[i]);
	for (uint32_t i = p_from; i < p_upto && i < ps->p->nops; i++)
		if (pp->pass[i])
			Z3_solver_assert(ps->z, s, pp->pass[i]);
}

/* Asks obligation B of the plain encoding: *ANS is Z3's answer to "the
 * assumptions of B and its negated goal", X the inputs of a model. */
static jp_status audit_one(chk_pair *ps, const plain_trace *po,
			   const plain_trace *pp, const obl *b, Z3_ast neg,
			   Z3_lbool *ans, uint64_t *x, jp_err *err)
{
	/* Z3's own rewriter on the plain goal first: what it turns into
	 * false is unsatisfiable under any assumptions. */
	Z3_ast simp = zc_keep(&ps->S, Z3_simplify(ps->z, neg));
	if (simp && zc_is_false(ps->z, simp)) {
		*ans = Z3_L_FALSE;
		return JP_OK;
	}
	jp_status st = make_audit_solvers(ps, err);
	if (st)
		return st;
	Z3_context z = ps->z;
	chk_solvers *sv = &ps->solvers;
	Z3_solver s = sv->audit;
	if (b->o_upto < sv->audit_o_done || b->p_upto < sv->audit_p_done) {
		Z3_solver_reset(z, s); /* trace mode: the bounds went back */
		audit_limits(ps, s, AUDIT_FAST_MS, false);
		sv->audit_o_done = sv->audit_p_done = 0;
		sv->audit_background = false;
	}
	if (ps->heap && !sv->audit_background) {
		Z3_solver_assert(z, s, hp_background(ps->heap));
		sv->audit_background = true;
	}
	assert_plain_hyps(ps, s, po, pp, sv->audit_o_done, b->o_upto,
			  sv->audit_p_done, b->p_upto);
	sv->audit_o_done = b->o_upto;
	sv->audit_p_done = b->p_upto;
	Z3_solver_push(z, s);
	Z3_solver_assert(z, s, neg);
	*ans = Z3_solver_check(z, s);
	st = zc_check_error(err, "audit check");
	if (!st && *ans == Z3_L_TRUE)
		st = chk_model_inputs(ps, s, x, err);
	Z3_solver_pop(z, s, 1);
	if (st || *ans != Z3_L_UNDEF)
		return st;
	s = sv->audit_slow;
	Z3_solver_reset(z, s);
	audit_limits(ps, s, AUDIT_SLOW_MS, !ps->heap);
	if (ps->heap)
		Z3_solver_assert(z, s, hp_background(ps->heap));
	assert_plain_hyps(ps, s, po, pp, 0, b->o_upto, 0, b->p_upto);
	Z3_solver_assert(z, s, neg);
	*ans = Z3_solver_check(z, s);
	st = zc_check_error(err, "audit check");
	if (!st && *ans == Z3_L_TRUE)
		st = chk_model_inputs(ps, s, x, err);
	return st;
}

/* Records the disagreement on obligation I (model X): the verdict can no
 * longer be "proved". */
static void disagree(chk_pair *ps, uint32_t i, const uint64_t *x)
{
	ver_result *r = ps->res;
	r->audit_disagreed++;
	if (r->audit_disagreed > 1)
		return; /* the first one names the reason */
	int32_t k = -1;
	cex_env ce = chk_make_cex_env(ps);
	jp_err e;
	bool replays = !ps->heap && !cex_classify(&ce, x, &k, &e) && k >= 0;
	char why[512];
	snprintf(why, sizeof why,
		 "audit disagreement: '%s' was proved (by %s), but Z3 on the "
		 "plain encoding finds a model (%s)",
		 r->obl[i].what, ver_how_name(r->obl[i].how),
		 ps->heap  ? "a heap pair's model, not replayed"
		 : replays ? "the interpreter confirms a divergence on it"
			   : "it does not replay on the interpreter");
	chk_set_reason(ps, why);
	if (r->verdict == VER_PROVED) {
		r->verdict = VER_UNKNOWN;
		r->failed = (int32_t)i;
	}
}

bool chk_test_wrong_settle;

jp_status chk_audit(chk_pair *ps, jp_err *err)
{
	if (!ps->opts->audit || !ps->encoded)
		return JP_OK;
	plain_trace po = {0}, pp = {0};
	uint64_t *x = calloc((size_t)ps->o->ninputs + 1, sizeof *x);
	jp_status st = x ? plain_build(ps, ps->o, &po, err)
			 : jp_fail(err, JP_ENOMEM, "out of memory");
	if (!st)
		st = plain_build(ps, ps->p, &pp, err);
	ver_result *r = ps->res;
	if (st == JP_EUNSUPPORTED) {
		/* An op enc_op has no term for (the encoder only folds it):
		 * nothing can be asked, every proof is an audit unknown; the
		 * check itself stands. */
		ps->S.failed = false;
		for (uint32_t i = 0; i < r->nobl; i++)
			if (r->obl[i].checked &&
			    r->obl[i].status == VER_PROVED) {
				r->audited++;
				r->audit_unknown++;
			}
		st = JP_OK;
		plain_free(&po);
		plain_free(&pp);
		free(x);
		return st;
	}
	for (uint32_t i = 0; i < ps->L.n && i < r->nobl && !st; i++) {
		const ver_obligation *ob = &r->obl[i];
		if (!ob->checked || ob->status != VER_PROVED)
			continue;
		/* The exit-label goal of reordered guards has no plain form
		 * here yet: it counts as an audit unknown, never as agreed. */
		if (ps->L.v[i].kind == OBL_EXIT) {
			r->audited++;
			r->audit_unknown++;
			continue;
		}
		bool same;
		Z3_ast neg = plain_goal_neg(ps, &po, &pp, &ps->L.v[i], &same);
		if (ps->S.failed) {
			st = jp_fail(err, JP_EINTERNAL, "audit: a goal: %s",
				     zc_error_text());
			break;
		}
		if (same)
			continue;
		/* What a heap obligation assumes, as in the driver. */
		neg = chk_heap_defined(ps, i, neg);
		Z3_lbool ans;
		st = audit_one(ps, &po, &pp, &ps->L.v[i], neg, &ans, x, err);
		if (st)
			break;
		r->audited++;
		if (ans == Z3_L_FALSE)
			r->audit_agreed++;
		else if (ans == Z3_L_UNDEF)
			r->audit_unknown++;
		else
			disagree(ps, i, x);
	}
	plain_free(&po);
	plain_free(&pp);
	free(x);
	return st;
}
