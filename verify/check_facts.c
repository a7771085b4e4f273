/*
 * check_facts.c - rewriting with equalities the assumptions imply: facts
 * (terms pinned to constants or simpler terms by an assumption or by the
 * range analysis), lemmas (OPT values proved equal to ORIG values of the
 * same name) and refolding (ops whose arguments a fact pins, given the
 * encoder's cheap term).  None of these settles an obligation by itself:
 * they make the goal smaller, and the rewriter (check_settle.c) or the
 * solver decides it.
 *
 * Sections: substitution with the facts; lemmas; facts; refolding; facts
 * of the range analysis.
 */
#include "check_int.h"

#include <stdlib.h>
#include <string.h>

/* Marks the lemmas changed; generation 0 means "never made". */
static void lemmas_changed(chk_pair *ps)
{
	if (++ps->lemmas.gen == 0)
		ps->lemmas.gen = 1;
}

void chk_drop_lemmas(chk_pair *ps)
{
	ps->lemmas.n = 0;
	lemmas_changed(ps);
}

/* ---- substitution with the facts ---------------------------------------- */

/* Rounds of substitution in subst_facts: Z3_substitute replaces the terms
 * it meets, but not a term it has just rebuilt, so a fact about a term
 * that contains another pinned term needs a second round.  Bounded,
 * because every round is sound on its own. */
enum { SUBST_ROUNDS = 3 };

/* T with the terms the assumptions pin replaced by their constants.  Each
 * round walks all of T, so this is kept for the goals that the cheaper
 * steps did not settle (on 1000-op pairs, substituting every goal and
 * assumption took 40% of the check time). */
static Z3_ast subst_map(chk_pair *ps, Z3_ast t, uint32_t n, Z3_ast *from,
			Z3_ast *to)
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

Z3_ast chk_subst_facts(chk_pair *ps, Z3_ast t)
{
	return subst_map(ps, t, ps->facts.n, ps->facts.from, ps->facts.to);
}

/* Whether goal G is false by rewriting with the facts other than the
 * range analysis's constants.  Z3_substitute replaces the outermost term
 * it knows, so when the ranges pin a whole condition of one trace (its
 * value is certain there), the condition is gone before the assumed
 * constants inside it can make it the other trace's very term; and the
 * other trace's condition, which its own ranges could not pin, is then
 * left for the solver to prove constant. */
bool chk_false_by_kept(chk_pair *ps, Z3_ast g)
{
	if (ps->facts.nkept == ps->facts.n)
		return false; /* the same substitution as subst_facts */
	Z3_ast k = subst_map(ps, g, ps->facts.nkept, ps->facts.kept_from,
			     ps->facts.kept_to);
	if (!k || k == g)
		return false;
	Z3_ast simp = zc_keep(&ps->S, Z3_simplify(ps->z, k));
	return simp && zc_is_false(ps->z, simp);
}

/* ---- lemmas ------------------------------------------------------------- */

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

jp_status chk_find_candidates(chk_pair *ps, jp_err *err)
{
	const ir_trace *o = ps->o, *p = ps->p;
	uint32_t cap = 16;
	while (cap < 2 * o->nvals + 2)
		cap *= 2;
	uint32_t *tab = malloc((size_t)cap * sizeof *tab);
	ps->lemmas.cand_o =
	    malloc(((size_t)p->nops + 1) * sizeof *ps->lemmas.cand_o);
	ps->lemmas.cand_p =
	    malloc(((size_t)p->nops + 1) * sizeof *ps->lemmas.cand_p);
	if (!tab || !ps->lemmas.cand_o || !ps->lemmas.cand_p) {
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
				ps->lemmas.cand_o[ps->lemmas.ncand] = ov;
				ps->lemmas.cand_p[ps->lemmas.ncand++] = pv;
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

static jp_status add_lemma(chk_pair *ps, Z3_ast from, Z3_ast to, jp_err *err)
{
	lemmas_changed(ps);
	return map_push(&ps->lemmas.from, &ps->lemmas.to, &ps->lemmas.n,
			&ps->lemmas.cap, from, to, err);
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
static jp_status add_fact(chk_pair *ps, Z3_ast from, Z3_ast to, fact_kind kind,
			  jp_err *err)
{
	if (!from || !to || from == to ||
	    Z3_get_ast_kind(ps->z, from) == Z3_NUMERAL_AST)
		return JP_OK;
	bool added;
	if (!zc_idset_put(&ps->facts.ids, Z3_get_ast_id(ps->z, from),
			  ps->facts.n, &added))
		return jp_fail(err, JP_ENOMEM, "out of memory");
	if (!added)
		return JP_OK; /* the first fact of a term stays */
	jp_status st = map_push(&ps->facts.from, &ps->facts.to, &ps->facts.n,
				&ps->facts.cap, from, to, err);
	if (!st && kind == FACT_KEPT)
		st = map_push(&ps->facts.kept_from, &ps->facts.kept_to,
			      &ps->facts.nkept, &ps->facts.capkept, from, to,
			      err);
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

static jp_status learn_value(chk_pair *ps, Z3_ast t, uint64_t c, fact_kind kind,
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
			return chk_learn_facts(
			    ps,
			    c == k1 ? zc_arg_of(z, a, 0)
				    : chk_mk_not(ps, zc_arg_of(z, a, 0)),
			    d + 1, kind, err);
		if (!invert_step(z, t, &t, &c))
			return JP_OK;
	}
	return JP_OK;
}

/* Learns what assumption H pins (above). */
jp_status chk_learn_facts(chk_pair *ps, Z3_ast h, int depth, fact_kind kind,
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
			jp_status st = chk_learn_facts(ps, zc_arg_of(z, a, i),
						       depth + 1, kind, err);
			if (st)
				return st;
		}
		return JP_OK;
	}
	return add_fact(ps, h, zc_true(&ps->S), kind, err);
}

/* Lemmas are optional, and a candidate the short budget cannot settle is
 * usually a product or quotient the optimizer rewrote, like the pair's
 * next candidates: each such query costs the abstract and the
 * bit-blasting budget (about 100 ms).  On the bench's 1000-op pairs one
 * pair spent 1.3 s of its 1.8 s on thirteen of them.  After this many,
 * a pair tries no more lemmas (those proved stay in use). */
enum { LEMMA_UNKNOWNS = 2 };

/* Tries the candidates defined before OPT op P_UPTO, each with the short
 * budget.  *ADDED says whether a lemma was proved. */
jp_status chk_try_lemmas(chk_pair *ps, uint32_t p_upto, bool *added,
			 jp_err *err)
{
	*added = false;
	for (; ps->lemmas.next < ps->lemmas.ncand &&
	       ps->lemmas.unknowns < LEMMA_UNKNOWNS;
	     ps->lemmas.next++) {
		ir_vid pv = ps->lemmas.cand_p[ps->lemmas.next];
		ir_vid ov = ps->lemmas.cand_o[ps->lemmas.next];
		if (ps->p->vals[pv].def >= p_upto)
			break;
		Z3_ast raw = ps->ep.val[pv];
		Z3_ast x = chk_subst(ps, raw),
		       y = chk_subst(ps, ps->eo.val[ov]);
		if (x == y)
			continue;
		/* With the facts substituted (a refolded product against
		 * the optimizer's shifts, say) the two often become one
		 * term, and the query is then not needed; otherwise the
		 * query gets the smaller terms.  The facts hold under the
		 * assumptions, so the lemma does. */
		Z3_ast fx = chk_subst_facts(ps, x), fy = chk_subst_facts(ps, y);
		Z3_lbool ans = Z3_L_FALSE;
		jp_status st = JP_OK;
		Z3_ast neg = NULL, simp = NULL;
		if (fx != fy) {
			neg = chk_mk_not(
			    ps, zc_keep(&ps->S, Z3_mk_eq(ps->z, fx, fy)));
			simp = zc_keep(&ps->S, Z3_simplify(ps->z, neg));
		}
		if (fx != fy && (!simp || !zc_is_false(ps->z, simp))) {
			ps->res->lemma_queries++;
			st = chk_query(ps, neg, true, &ans, NULL, err);
			if (!st && ans == Z3_L_UNDEF)
				ps->lemmas.unknowns++;
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
static bool is_fact(chk_pair *ps, Z3_ast t)
{
	return zc_idset_has(&ps->facts.ids, Z3_get_ast_id(ps->z, t));
}

/* An argument of an op as the constant a fact pins it to (the term
 * itself, not a subterm: the ranges pin a value and the values computed
 * from it, so this is where a pinned divisor shows), else as LEM, the
 * argument RAW with the lemmas.  A lookup: it is asked for every
 * candidate op whenever the facts grow.  A fact whose term is a numeral
 * is read off directly, as subst_facts would find it; each call of that
 * makes Z3 a map of all the facts, which on a 1000-op pair took a
 * quarter of the check time here. */
static Z3_ast pinned(chk_pair *ps, Z3_ast raw, Z3_ast lem)
{
	Z3_ast t = is_fact(ps, raw)	     ? raw
		   : lem && is_fact(ps, lem) ? lem
					     : NULL;
	if (!t)
		return lem;
	uint32_t i;
	if (zc_idset_get(&ps->facts.ids, Z3_get_ast_id(ps->z, t), &i) &&
	    Z3_get_ast_kind(ps->z, ps->facts.to[i]) == Z3_NUMERAL_AST)
		return ps->facts.to[i];
	return chk_subst_facts(ps, t);
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
/* An overflow-checked product (int_mul_ovf): its refold also gives the
 * overflow check. */
static bool checked_product(ir_opcode opc)
{
	return ir_op_has(opc, IRF_OVF) && ir_op_has(opc, IRF_MULTIPLIER);
}

static bool refold_candidate(chk_pair *ps, const enc_trace *e, uint32_t opi)
{
	const ir_op *op = &e->t->ops[opi];
	ir_opcode opc = (ir_opcode)op->opc;
	uint64_t c;
	return (ir_op_has(opc, IRF_MULTIPLIER) || ir_op_has(opc, IRF_DIVIDER) ||
		same_value_op(opc)) &&
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
typedef struct chk_rterm {
	Z3_ast from, ofrom, a[2];
} rterm;

/* The trace and op index of op number I of the pair: ORIG ops are
 * numbered first, then OPT ops after ORIG's op count. */
static const enc_trace *pair_op(const chk_pair *ps, uint32_t i, uint32_t *opi)
{
	bool orig = i < ps->o->nops;
	*opi = orig ? i : i - ps->o->nops;
	return orig ? &ps->eo : &ps->ep;
}

static const enc_trace *cand_op(const chk_pair *ps, uint32_t k, uint32_t *opi)
{
	return pair_op(ps, ps->refold.cand[k], opi);
}

/* The candidates of both traces, once per pair.  There are at most as
 * many as ops, so the lists are allocated once at that size. */
static jp_status refold_candidates(chk_pair *ps, jp_err *err)
{
	if (ps->refold.cand)
		return JP_OK;
	uint32_t n = ps->o->nops + ps->p->nops;
	ps->refold.cand = malloc(((size_t)n + 1) * sizeof *ps->refold.cand);
	ps->refold.term = malloc(((size_t)n + 1) * sizeof *ps->refold.term);
	if (!ps->refold.cand || !ps->refold.term) {
		free(ps->refold.cand); /* both made again on the next call */
		free(ps->refold.term);
		ps->refold.cand = NULL;
		ps->refold.term = NULL;
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t opi;
		const enc_trace *e = pair_op(ps, i, &opi);
		if (refold_candidate(ps, e, opi))
			ps->refold.cand[ps->refold.n++] = i;
	}
	return JP_OK;
}

/* Makes the candidates' rterms for the current lemmas. */
static void refold_terms(chk_pair *ps)
{
	if (ps->refold.term_gen == ps->lemmas.gen)
		return;
	for (uint32_t k = 0; k < ps->refold.n; k++) {
		uint32_t opi;
		const enc_trace *e = cand_op(ps, k, &opi);
		const ir_op *op = &e->t->ops[opi];
		rterm *rt = &ps->refold.term[k];
		rt->from = chk_subst(ps, e->val[op->result]);
		rt->ofrom = checked_product(op->opc)
				? chk_subst(ps, e->ovf[opi])
				: NULL;
		for (int j = 0; j < 2; j++)
			rt->a[j] = chk_subst(ps, e->val[op->args[j]]);
	}
	ps->refold.term_gen = ps->lemmas.gen;
}

/* Makes candidate K a fact when a fact pins an argument (or makes the two
 * arguments of a same_value_op one) and enc_peephole has a term for the
 * op on the pinned arguments.  The overflow check of int_mul_ovf becomes
 * one too: by a constant it is a range test (enc_op), where the trace's
 * term has a 2W multiplier. */
static jp_status refold_op(chk_pair *ps, uint32_t k, jp_err *err)
{
	uint32_t opi;
	const enc_trace *e = cand_op(ps, k, &opi);
	const ir_op *op = &e->t->ops[opi];
	ir_opcode opc = (ir_opcode)op->opc;
	const rterm *rt = &ps->refold.term[k];
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
	if (!checked_product(opc))
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
jp_status chk_refold_facts(chk_pair *ps, jp_err *err)
{
	if (ps->facts.n == ps->refold.nfact)
		return JP_OK;
	jp_status st = refold_candidates(ps, err);
	if (!st)
		refold_terms(ps);
	for (uint32_t k = 0; !st && k < ps->refold.n; k++)
		st = refold_op(ps, k, err);
	ps->refold.nfact = ps->facts.n;
	if (!st && ps->S.failed)
		st = jp_fail(err, JP_EINTERNAL, "refolding: %s",
			     zc_error_text());
	return st;
}

/* ---- facts of the range analysis ---------------------------------------- */

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
jp_status chk_facts_of_ranges(chk_pair *ps, vr_state *r, const ir_trace *t,
			      const enc_trace *e, uint32_t upto, jp_err *err)
{
	if (chk_rechecking(ps))
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
