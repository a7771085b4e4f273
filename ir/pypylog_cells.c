/*
 * pypylog_cells.c - naming the global cells of a PyPy log pair: fields
 * both traces read and write only through ConstPtrs (docs/pypy.md,
 * "ConstPtr identities", global cells).  Sections: accesses; reads the
 * optimizer removed; pairing the pieces.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "pypylog_ptrs_int.h"

/* PyPy keeps a module's global variables in cells, ConstPtr objects whose
 * one field the trace reads (LOAD_NAME) and writes (STORE_NAME); each
 * occurrence has a name of its own, and roles do not tell the cells apart
 * (every read of one looks like every read of another).  For a field D
 * that both traces reach only through constants, aligned pieces of the
 * traces (a loop's first unrolled iteration and its preamble, the second
 * and the peeled body; a bridge whole) pair:
 *  - their stores of D in order, when both have as many (the optimizer
 *    keeps a store to a global: other code can read it);
 *  - the optimized trace's reads of D, each with the first free read of
 *    the unoptimized piece whose value is used the same way (by the same
 *    pure ops at the same argument position) and, when the pieces store D
 *    as often, that follows as many stores (read_partner);
 *  - a read of the unoptimized piece left without a partner was removed
 *    by the optimizer, which forwards a read only from the same constant:
 *    it names the object of the source PyPy's heap cache can have given
 *    it (read_source).
 * These identities are counted with the others (P->nsame). */

/* ---- accesses --------------------------------------------------------- */

/* Whether op OP accesses field D of a ConstPtr: 1 a read, 2 a store, 0
 * not; -1 when it accesses D through a value that is not a constant. */
static int cell_access(const ir_trace *t, const ir_op *op, const char *d)
{
	bool get = op->opc == IR_GETFIELD_GC_I || op->opc == IR_GETFIELD_GC_R;
	bool set = op->opc == IR_SETFIELD_GC;
	if ((!get && !set) || !op->descr || op->nargs == 0 ||
	    strcmp(ir_strtext(t, op->descr), d))
		return 0;
	if (!pl_cptr_name(t, op->args[0]))
		return -1;
	return get ? 1 : 2;
}

/* How the value V is used: the pure ops taking it, with the position. */
static uint64_t use_sig(const ir_trace *t, ir_vid v)
{
	uint64_t h = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (!ir_op_has((ir_opcode)op->opc, IRF_PURE))
			continue;
		for (uint32_t j = 0; j < op->nargs; j++)
			if (op->args[j] == v)
				h += pl_mix(pl_mix(9, op->opc), j);
	}
	return h;
}

/* The accesses of field D in piece P: op indices into OPS (*N). */
static void accesses(const piece *p, const char *d, int kind, uint32_t *ops,
		     uint32_t *n)
{
	*n = 0;
	for (uint32_t i = p->from; i < p->to; i++)
		if (cell_access(p->t, &p->t->ops[i], d) == kind)
			ops[(*n)++] = i;
}

static uint32_t name_at(ptr_names *pn, const ir_trace *t, uint32_t opi)
{
	return pn_name_index(pn, pl_cptr_name(t, t->ops[opi].args[0]));
}

/* ---- reads the optimizer removed -------------------------------------- */

/* How value V of T is used, as a sorted multiset of hashes in USES (at
 * most CAP; the number): each op taking V, with its name, descr and the
 * position, but guards (the optimizer merges and drops them), labels and
 * ends (a loop's values go round through them). */
static uint32_t value_uses(const ir_trace *t, ir_vid v, uint64_t *uses,
			   uint32_t cap)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops && n < cap; i++) {
		const ir_op *op = &t->ops[i];
		ir_opcode c = (ir_opcode)op->opc;
		if (ir_op_has(c, IRF_GUARD) || ir_op_has(c, IRF_END) ||
		    c == IR_LABEL)
			continue;
		for (uint32_t j = 0; j < op->nargs && n < cap; j++) {
			if (op->args[j] != v)
				continue;
			uint64_t h = pl_mix(13, op->opc);
			if (op->opname)
				h = pl_mix(
				    h, pl_hash_text(ir_strtext(t, op->opname)));
			if (op->descr)
				h = pl_mix(
				    h, pl_hash_text(ir_strtext(t, op->descr)));
			uses[n++] = pl_mix(h, j);
		}
	}
	for (uint32_t i = 1; i < n; i++) /* insertion sort: few uses */
		for (uint32_t j = i; j > 0 && uses[j - 1] > uses[j]; j--) {
			uint64_t x = uses[j];
			uses[j] = uses[j - 1];
			uses[j - 1] = x;
		}
	return n;
}

enum { MAX_USES = 64 };

/* Whether candidate source C of a removed read fits: the uses the
 * optimized trace gives C's value there (OV of OPT) beyond those the
 * unoptimized trace gives it (V of ORIG) are uses of the read's value R
 * (all of them: 1; none beyond: 0; others: -1). */
static int takes_read(const ir_trace *orig, ir_vid v, const ir_trace *opt,
		      ir_vid ov, ir_vid r)
{
	uint64_t a[MAX_USES], b[MAX_USES], u[MAX_USES];
	uint32_t na = value_uses(orig, v, a, MAX_USES);
	uint32_t nb = value_uses(opt, ov, b, MAX_USES);
	uint32_t nu = value_uses(orig, r, u, MAX_USES);
	uint32_t i = 0, k = 0, extra = 0;
	for (uint32_t j = 0; j < nb; j++) {
		while (i < na && a[i] < b[j])
			i++;
		if (i < na && a[i] == b[j]) {
			i++;
			continue;
		}
		while (k < nu && u[k] < b[j])
			k++;
		if (k == nu || u[k] != b[j])
			return -1;
		k++;
		extra++;
	}
	return extra > 0;
}

/* The pieces' D accesses: ORIG's (A, NA) and OPT's (B, NB), stores or
 * reads; MATE[m] is OPT's op paired with A[m], or UINT32_MAX. */
typedef struct cell_acc {
	uint32_t *a, *b, *mate;
	uint32_t na, nb;
} cell_acc;

/* The value piece T of OPT has where ORIG's access of D at op X has its
 * value (a store's operand, a read's result): the paired access's (ST
 * pairs stores in order, RD reads by MATE), or IR_NOVAL. */
static ir_vid mate_value(const piece *t, const cell_acc *st, const cell_acc *rd,
			 uint32_t x)
{
	for (uint32_t m = 0; m < st->na && st->na == st->nb; m++)
		if (st->a[m] == x)
			return t->t->ops[st->b[m]].args[1];
	for (uint32_t m = 0; m < rd->na; m++)
		if (rd->a[m] == x && rd->mate[m] != UINT32_MAX)
			return t->t->ops[rd->mate[m]].result;
	return IR_NOVAL;
}

/* The access of D in piece O whose object a read of D at op AT that the
 * optimizer removed names, or UINT32_MAX.  PyPy's heap optimizer caches
 * D of one struct after a store of D (the store forces the pending one
 * of another struct and clears every cached D: optimizeopt/heap.py,
 * force_lazy_set) and of every struct read after that, until a call.  So
 * the read took its value from the last store before it or from a kept
 * read after that store: from the store alone when nothing is between,
 * else from the one source whose value the optimized trace uses in the
 * read's uses too (takes_read: global_cells' bridge, bank's loop). */
static uint32_t read_source(const piece *o, const piece *t, const char *d,
			    const cell_acc *st, const cell_acc *rd, uint32_t at)
{
	uint32_t cand[8], nc = 0, i = at;
	while (i-- > o->from) {
		const ir_op *op = &o->t->ops[i];
		if (pn_call_op(o->t, op))
			return UINT32_MAX;
		int k = cell_access(o->t, op, d);
		if (k == 1 && mate_value(t, st, rd, i) == IR_NOVAL)
			continue; /* a removed read: one of the sources */
		if (k != 0 && nc == 8)
			return UINT32_MAX;
		if (k != 0)
			cand[nc++] = i;
		if (k == 2)
			break;
	}
	if (i == UINT32_MAX || nc == 0)
		return UINT32_MAX; /* no store: what came before is unknown */
	if (nc == 1)
		return cand[0];
	uint32_t pick = UINT32_MAX;
	for (uint32_t c = 0; c < nc; c++) {
		const ir_op *op = &o->t->ops[cand[c]];
		ir_vid v = op->opc == IR_SETFIELD_GC ? op->args[1] : op->result;
		ir_vid ov = mate_value(t, st, rd, cand[c]);
		int f = ov == IR_NOVAL ? -1
				       : takes_read(o->t, v, t->t, ov,
						    o->t->ops[at].result);
		if (f < 0 || (f > 0 && pick != UINT32_MAX))
			return UINT32_MAX;
		if (f > 0)
			pick = cand[c];
	}
	return pick;
}

/* ---- pairing the pieces -------------------------------------------- */

/* The number of stores of D in piece P before op AT. */
static uint32_t stores_before(const piece *p, const char *d, uint32_t at)
{
	uint32_t n = 0;
	for (uint32_t i = p->from; i < at; i++)
		n += cell_access(p->t, &p->t->ops[i], d) == 2;
	return n;
}

/* Whether the read A[M] of piece O may be the partner of the read at op
 * BK of piece T: used the same way (U) and, when the pieces store D as
 * often (SAME_STORES), after as many of those stores. */
static bool read_partner(const piece *o, const piece *t, const char *d,
			 uint32_t am, uint32_t bk, uint64_t u, bool same_stores)
{
	if (use_sig(o->t, o->t->ops[am].result) != u)
		return false;
	return !same_stores ||
	       stores_before(o, d, am) == stores_before(t, d, bk);
}

/* ST's arrays hold the stores, RD's the reads (each CAP long). */
static void pair_cell_pieces(ptr_names *pn, const piece *o, const piece *t,
			     const char *d, cell_acc *st, cell_acc *rd)
{
	accesses(o, d, 2, st->a, &st->na);
	accesses(t, d, 2, st->b, &st->nb);
	bool same_stores = st->na == st->nb;
	if (same_stores)
		for (uint32_t k = 0; k < st->na; k++)
			pn_unite(pn, name_at(pn, o->t, st->a[k]),
				 name_at(pn, t->t, st->b[k]));
	accesses(o, d, 1, rd->a, &rd->na);
	accesses(t, d, 1, rd->b, &rd->nb);
	for (uint32_t m = 0; m < rd->na; m++)
		rd->mate[m] = UINT32_MAX;
	for (uint32_t k = 0; k < rd->nb; k++) {
		uint64_t u = use_sig(t->t, t->t->ops[rd->b[k]].result);
		uint32_t m = 0;
		while (m < rd->na && (rd->mate[m] != UINT32_MAX ||
				      !read_partner(o, t, d, rd->a[m], rd->b[k],
						    u, same_stores)))
			m++;
		if (m == rd->na)
			return; /* a read without a partner: say nothing */
		rd->mate[m] = rd->b[k];
		pn_unite(pn, name_at(pn, o->t, rd->a[m]),
			 name_at(pn, t->t, rd->b[k]));
	}
	for (uint32_t m = 0; m < rd->na; m++) {
		uint32_t s = rd->mate[m] != UINT32_MAX
				 ? UINT32_MAX
				 : read_source(o, t, d, st, rd, rd->a[m]);
		if (s != UINT32_MAX)
			pn_unite(pn, name_at(pn, o->t, rd->a[m]),
				 name_at(pn, o->t, s));
	}
}

/* Whether T reaches field D only through constants (and does reach it). */
static bool cell_field(const ir_trace *t, const char *d)
{
	bool any = false;
	for (uint32_t i = 0; i < t->nops; i++) {
		int k = cell_access(t, &t->ops[i], d);
		if (k < 0)
			return false;
		any |= k > 0;
	}
	return any;
}

void pn_pair_cells(ptr_names *pn, const pl_pair *p)
{
	piece o[2], t[2];
	uint32_t np = pn_pieces_of(p, o, t);
	uint32_t cap = p->orig->nops + p->opt->nops + 1;
	uint32_t *buf = calloc(5 * (size_t)cap, sizeof *buf);
	cell_acc st = {buf, buf + cap, NULL, 0, 0};
	cell_acc rd = {buf + 2 * cap, buf + 3 * cap, buf + 4 * cap, 0, 0};
	for (uint32_t i = 0; buf && i < p->orig->nops; i++) {
		const ir_op *op = &p->orig->ops[i];
		const char *d = op->descr ? ir_strtext(p->orig, op->descr) : "";
		if (cell_access(p->orig, op, d) <= 0)
			continue;
		bool first = true; /* each field once */
		for (uint32_t j = 0; j < i && first; j++) {
			const ir_op *q = &p->orig->ops[j];
			first = !(q->descr && cell_access(p->orig, q, d) > 0);
		}
		if (!first || !cell_field(p->orig, d) || !cell_field(p->opt, d))
			continue;
		for (uint32_t k = 0; k < np; k++)
			pair_cell_pieces(pn, &o[k], &t[k], d, &st, &rd);
	}
	free(buf);
}
