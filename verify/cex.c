/* cex.c - counterexamples: concrete replay on the interpreter,
 * simplification and the report; the contract is in cex.h. */
#include "cex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/print.h"
#include "ir/sem.h"

jp_status cex_run(const ir_trace *t, const uint64_t *x, interp_result *r,
		  jp_err *err)
{
	interp_env env;
	memset(&env, 0, sizeof env);
	env.args = x;
	env.nargs = t->ninputs;
	env.cond_always = true; /* as the integer encoder takes them */
	return interp_run(t, &env, r, err);
}

jp_status cex_classify(const cex_env *e, const uint64_t *x, int32_t *k,
		       jp_err *err)
{
	interp_result ro, rp;
	jp_status st = cex_run(e->orig, x, &ro, err);
	if (st)
		return st;
	st = cex_run(e->opt, x, &rp, err);
	if (st) {
		interp_result_free(&ro);
		return st;
	}
	bool div =
	    obl_diverges(e->mode, e->failargs, e->orig, e->opt, &ro, &rp, NULL);
	int32_t first = obl_first_failing(e->obls, e->orig, e->opt, &ro, &rp);
	interp_result_free(&ro);
	interp_result_free(&rp);
	*k = div ? first : -1;
	if (div && first < 0)
		return jp_fail(err, JP_EINTERNAL,
			       "the traces diverge but no obligation fails "
			       "(a bug in the obligations)");
	if (!div && first >= 0)
		return jp_fail(err, JP_EINTERNAL,
			       "obligation %d fails but the traces do not "
			       "diverge (a bug in the obligations)",
			       (int)first);
	return JP_OK;
}

/* ---- simplification ---------------------------------------------------- */

/* Candidate values, simplest first: 0, small magnitudes, then round and
 * edge values.  A value's rank is its position here (or "not simple"). */
enum { NSMALL = 33, MAXCAND = 64 };

static uint32_t int_candidates(int w, uint64_t *c)
{
	uint32_t n = 0;
	c[n++] = 0;
	for (int64_t m = 1; m <= 16; m++) {
		c[n++] = sem_from_signed(w, m);
		c[n++] = sem_from_signed(w, -m);
	}
	static const int64_t round[] = {32,   -32, 64,	-64, 100,  -100, 127,
					-128, 128, 255, 256, 1000, -1000};
	for (size_t i = 0; i < sizeof round / sizeof round[0]; i++)
		c[n++] = sem_from_signed(w, round[i]);
	c[n++] = sem_maxint(w);
	c[n++] = sem_minint(w);
	c[n++] = sem_maxint(w) - 1;
	c[n++] = sem_minint(w) + 1;
	c[n++] = (UINT64_C(1) << (w / 2)) - 1;
	c[n++] = UINT64_C(1) << (w / 2);
	return n;
}

static uint32_t ref_candidates(uint64_t *c)
{
	c[0] = 0;
	c[1] = 0x10;
	c[2] = 0x20;
	c[3] = 0x30;
	return 4;
}

static uint32_t candidates(const ir_trace *t, uint32_t i, uint64_t *c)
{
	if (ir_val(t, t->inputs[i])->kind == 'r')
		return ref_candidates(c);
	return int_candidates(t->width, c);
}

static uint32_t rank_of(uint64_t v, const uint64_t *c, uint32_t n)
{
	for (uint32_t r = 0; r < n; r++)
		if (c[r] == v)
			return r;
	return n;
}

/* Tries the simpler candidates for input I; keeps the first that still
 * fails at *K or earlier. */
static jp_status simplify_concrete(const cex_env *e, uint64_t *x, int32_t *k,
				   uint32_t i, bool *changed, jp_err *err)
{
	uint64_t c[MAXCAND];
	uint32_t n = candidates(e->orig, i, c);
	uint32_t r = rank_of(x[i], c, n);
	uint64_t keep = x[i];
	for (uint32_t j = 0; j < r; j++) {
		if (c[j] == keep)
			continue;
		x[i] = c[j];
		int32_t kk;
		jp_status st = cex_classify(e, x, &kk, err);
		if (st) {
			x[i] = keep;
			return st;
		}
		if (kk >= 0 && kk <= *k) {
			*k = kk;
			*changed = true;
			return JP_OK;
		}
	}
	x[i] = keep;
	return JP_OK;
}

/* Asks the solver for a variant with input I pinned to 0, then to a small
 * range; every answer is confirmed concretely. */
static jp_status simplify_requery(const cex_env *e, uint64_t *x, int32_t *k,
				  uint32_t i, unsigned *budget, bool *changed,
				  jp_err *err)
{
	uint32_t n = e->orig->ninputs;
	uint64_t *out = calloc(n + 1, sizeof *out);
	if (!out)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	static const uint64_t bounds[] = {0, 16};
	bool ref = ir_val(e->orig, e->orig->inputs[i])->kind == 'r';
	jp_status st = JP_OK;
	for (size_t b = 0; b < (ref ? 1u : 2u) && *budget > 0; b++) {
		(*budget)--;
		int got = e->requery(e->ud, *k, x, i, bounds[b], out, err);
		if (got < 0) {
			st = err ? err->status : JP_EINTERNAL;
			break;
		}
		if (got == 2) {
			*budget = 0; /* too hard: keep what we have */
			break;
		}
		if (got == 0)
			continue;
		int32_t kk;
		st = cex_classify(e, out, &kk, err);
		if (st)
			break;
		if (kk < 0 || kk > *k) {
			st = jp_fail(err, JP_EINTERNAL,
				     "the solver's simplified counterexample "
				     "does not replay on the interpreter (an "
				     "encoder bug)");
			break;
		}
		memcpy(x, out, n * sizeof *x);
		*k = kk;
		*changed = true;
		break;
	}
	free(out);
	return st;
}

jp_status cex_simplify(const cex_env *e, uint64_t *x, int32_t *k, jp_err *err)
{
	unsigned budget = e->requery ? e->max_requeries : 0;
	for (int pass = 0; pass < 3; pass++) {
		bool changed = false;
		for (uint32_t i = 0; i < e->orig->ninputs; i++) {
			jp_status st =
			    simplify_concrete(e, x, k, i, &changed, err);
			if (st)
				return st;
			uint64_t c[MAXCAND];
			uint32_t n = candidates(e->orig, i, c);
			/* The solver is asked only when the value is not
			 * small already: its queries can be slow. */
			if (pass > 0 || budget == 0 ||
			    rank_of(x[i], c, n) < NSMALL)
				continue;
			bool asked = false;
			st = simplify_requery(e, x, k, i, &budget, &asked, err);
			if (st)
				return st;
			if (asked) {
				changed = true;
				st = simplify_concrete(e, x, k, i, &changed,
						       err);
				if (st)
					return st;
			}
		}
		if (!changed)
			break;
	}
	return JP_OK;
}

/* ---- the report -------------------------------------------------------- */

void cex_format_value(int w, uint64_t v, strbuf *sb)
{
	sb_printf(sb, "0x%0*llx (", w / 4, (unsigned long long)v);
	ir_print_int(w, v, sb);
	sb_putc(sb, ')');
}

static void format_kind_value(const ir_trace *t, ir_vid vid, uint64_t v,
			      strbuf *sb)
{
	if (ir_val(t, vid)->kind == 'r')
		sb_printf(sb, "0x%016llx (ref)", (unsigned long long)v);
	else
		cex_format_value(t->width, v, sb);
}

static void pad_to(strbuf *sb, size_t line_start, size_t col)
{
	size_t len = sb->len - line_start;
	if (len < col)
		for (; len < col; len++)
			sb_putc(sb, ' ');
	else
		sb_putc(sb, ' ');
}

static void failarg_values(const ir_trace *t, const ir_op *op,
			   const interp_result *r, strbuf *sb)
{
	sb_puts(sb, ", fail-args [");
	for (uint32_t j = 0; j < op->nfail; j++) {
		if (j)
			sb_puts(sb, ", ");
		ir_vid v = op->failargs[j];
		if (v == IR_NOVAL)
			sb_puts(sb, "None");
		else
			format_kind_value(t, v, r->vals[v], sb);
	}
	sb_putc(sb, ']');
}

static void op_outcome(const ir_trace *t, uint32_t i, const interp_result *r,
		       strbuf *sb)
{
	const ir_op *op = &t->ops[i];
	bool reached = r->stop_op >= i;
	if (!reached) {
		sb_puts(sb, "(not reached)");
		return;
	}
	if (ir_op_has(op->opc, IRF_END)) {
		sb_puts(sb, "-> reached");
		return;
	}
	if (ir_op_has(op->opc, IRF_GUARD)) {
		bool fails = r->outcome == INTERP_GUARD_FAIL && r->stop_op == i;
		sb_puts(sb, fails ? "-> FAILS" : "-> passes");
		if (fails && op->nfail)
			failarg_values(t, op, r, sb);
		return;
	}
	if (op->result != IR_NOVAL && r->known[op->result]) {
		sb_puts(sb, "-> ");
		format_kind_value(t, op->result, r->vals[op->result], sb);
		if (ir_op_has(op->opc, IRF_OVF) && r->ovf[i])
			sb_puts(sb, ", overflow");
	}
}

void cex_print_run(const char *title, const ir_trace *t, const interp_result *r,
		   uint32_t mark, strbuf *sb)
{
	sb_printf(sb, "%s:\n", title);
	for (uint32_t i = 0; i < t->nops; i++) {
		if (ir_op_has(t->ops[i].opc, IRF_MARK))
			continue;
		size_t start = sb->len;
		sb_puts(sb, i == mark ? "  >>> " : "      ");
		ir_print_op(t, i, sb);
		pad_to(sb, start, 46);
		op_outcome(t, i, r, sb);
		sb_putc(sb, '\n');
	}
}

/* Where each trace shows the divergence first, per obligation kind. */
static void marks(const obl *b, const interp_result *ro,
		  const interp_result *rp, uint32_t *mo, uint32_t *mp)
{
	*mo = *mp = OBL_NONE;
	switch (b->kind) {
	case OBL_SAME:
	case OBL_FAILARGS:
		*mo = b->og;
		*mp = b->pg;
		break;
	case OBL_REMOVED:
	case OBL_T_ORIG: *mo = b->og; break;
	case OBL_NEW:
	case OBL_T_OPT: *mp = b->pg; break;
	case OBL_OUTPUT:
	case OBL_END:
	case OBL_EXIT:
	case OBL_MODEL:
		*mo = ro->stop_op;
		*mp = rp->stop_op;
		break;
	}
}

jp_status cex_report(const cex_env *e, const uint64_t *x, int32_t k, strbuf *sb,
		     jp_err *err)
{
	interp_result ro, rp;
	jp_status st = cex_run(e->orig, x, &ro, err);
	if (st)
		return st;
	st = cex_run(e->opt, x, &rp, err);
	if (st) {
		interp_result_free(&ro);
		return st;
	}
	const obl *b = &e->obls->v[k];
	sb_puts(sb, "counterexample: ");
	obl_describe(b, e->orig, e->opt, sb);
	sb_puts(sb, " fails\n  ");
	obl_diverges(e->mode, e->failargs, e->orig, e->opt, &ro, &rp, sb);
	sb_puts(sb, "\ninputs:\n");
	for (uint32_t i = 0; i < e->orig->ninputs; i++) {
		ir_vid v = e->orig->inputs[i];
		sb_printf(sb, "  %s = ", ir_valname(e->orig, v));
		format_kind_value(e->orig, v, x[i], sb);
		sb_putc(sb, '\n');
	}
	uint32_t mo, mp;
	marks(b, &ro, &rp, &mo, &mp);
	cex_print_run("original trace", e->orig, &ro, mo, sb);
	cex_print_run("optimized trace", e->opt, &rp, mp, sb);
	sb_puts(sb, "(>>> marks the first point where the traces diverge)\n");
	interp_result_free(&ro);
	interp_result_free(&rp);
	return JP_OK;
}
