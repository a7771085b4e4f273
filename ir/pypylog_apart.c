/*
 * pypylog_apart.c - ConstPtr names of the optimized trace still apart
 * from every name of the original once the roles are compared
 * (pypylog_ptrs.c): paired by what the optimizer does with constants
 * (docs/pypy.md, "ConstPtr identities").  Sections: roles; the fates of
 * holders; pairing what is left apart.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypylog_ptrs_int.h"
#include "pypyops.h"

static uint32_t find(ptr_names *pn, uint32_t i)
{
	return pl_uf_find(pn->up, i);
}

/* ---- constants the optimizer left in a role ------------------------------ */

uint64_t pn_shallow_role(const ir_trace *t, uint32_t opi, uint32_t j)
{
	const ir_op *op = &t->ops[opi];
	uint64_t h = pl_mix(10, op->opc);
	if (op->opname && op->opc == IR_OPAQUE)
		h = pl_mix(h, pl_hash_text(ir_strtext(t, op->opname)));
	if (op->descr && !ir_op_has((ir_opcode)op->opc, IRF_GUARD))
		h = pl_mix(h, pl_hash_text(ir_strtext(t, op->descr)));
	return pl_mix(h, j);
}

/* The role of argument J of op OPI with one level of the other
 * arguments: shallow_role and, for each other argument, how it is made
 * without its own arguments (pl_val_sig to depth 0: the op and its
 * descr, or the kind of input or constant). */
static uint64_t mid_role(const ir_trace *t, uint32_t opi, uint32_t j)
{
	const ir_op *op = &t->ops[opi];
	uint64_t h = pn_shallow_role(t, opi, j);
	for (uint32_t k = 0; k < op->nargs; k++)
		if (k != j)
			h = pl_mix(h, pl_val_sig(t, op->args[k], 0));
	return h;
}

/* The role of argument J of op OPI, the value a store puts into a field
 * or an item, by the holder alone: shallow_role and how the holder is
 * computed (pl_val_sig to depth 3), not the index.  An optimizer that
 * caches a list's length computes the index of an append otherwise (its
 * own length plus the appends it made) but appends to the same list
 * (json_pretty's bridges end by appending a constant string to the
 * list its lines go into); 0 for any other argument. */
static uint64_t holder_role(const ir_trace *t, uint32_t opi, uint32_t j)
{
	const ir_op *op = &t->ops[opi];
	if ((op->opc != IR_SETFIELD_GC && op->opc != IR_SETARRAYITEM_GC) ||
	    op->nargs < 2 || j != op->nargs - 1)
		return 0;
	return pl_mix(pn_shallow_role(t, opi, j),
		      pl_val_sig(t, op->args[0], 3));
}

typedef enum role_kind { ROLE_SHALLOW, ROLE_MID, ROLE_HOLDER } role_kind;

/* The role of argument J of op OPI, of kind KIND. */
static uint64_t role_of(const ir_trace *t, uint32_t opi, uint32_t j,
			role_kind kind)
{
	switch (kind) {
	case ROLE_SHALLOW: return pn_shallow_role(t, opi, j);
	case ROLE_MID: return mid_role(t, opi, j);
	case ROLE_HOLDER: return holder_role(t, opi, j);
	}
	return 0;
}

/* What becomes of the allocation X of T after op FROM: the calls after
 * FROM it is passed to, with the position (not a force_virtualizable of
 * it: ir_py_clears_vable), the arrays it is stored into
 * as an item (their descr), and (DEPTH more levels) the fields of
 * allocations it is stored into anywhere, with their fates. */
static uint64_t obj_fate(const ir_trace *t, ir_vid x, uint32_t from, int depth)
{
	uint64_t h = 11;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *c = &t->ops[i];
		if (ir_op_has((ir_opcode)c->opc, IRF_CALL)) {
			uint32_t cond;
			/* it did not see the constant; or a frame's
			 * force_virtualizable, which PyPy drops for a frame
			 * it keeps virtual (bowling_score's bridge) */
			if (i <= from ||
			    ir_py_clears_vable(t, c, &cond) != UINT32_MAX)
				continue;
			for (uint32_t j = 0; j < c->nargs; j++)
				if (c->args[j] == x)
					h = pl_mix(pl_mix(h, c->opc), j);
		} else if (c->opc == IR_SETARRAYITEM_GC && c->nargs == 3 &&
			   c->args[2] == x && c->descr) {
			/* stored as an item: appended to a list */
			h = pl_mix(pl_mix(h, c->opc),
				   pl_hash_text(ir_strtext(t, c->descr)));
		} else if (depth > 0 && c->opc == IR_SETFIELD_GC &&
			   c->nargs == 2 && c->args[1] == x && c->descr) {
			if (ir_allocated(t, c->args[0]))
				h = pl_mix(
				    pl_mix(h, pl_hash_text(
						  ir_strtext(t, c->descr))),
				    obj_fate(t, c->args[0], from, depth - 1));
		}
	}
	return h;
}

/* What becomes of the object op OPI stores a constant into (a field or an
 * item), when that holder is an allocation of the trace (obj_fate: a
 * frame the optimizer keeps is the one passed to call_assembler, and
 * its locals array the one stored into that frame; the virtual frames it
 * removed went nowhere), with the constant index of an item; 0 for any
 * other op. */
static uint64_t holder_fate(const ir_trace *t, uint32_t opi)
{
	const ir_op *op = &t->ops[opi];
	if ((op->opc != IR_SETFIELD_GC && op->opc != IR_SETARRAYITEM_GC) ||
	    op->nargs == 0)
		return 0;
	if (!ir_allocated(t, op->args[0]))
		return 0;
	uint64_t h = obj_fate(t, op->args[0], opi, 1);
	for (uint32_t j = 1; j < op->nargs; j++) /* an item's index */
		if (ir_val(t, op->args[j])->tag == IR_VAL_CONST_INT)
			h = pl_mix(pl_mix(h, j), ir_val(t, op->args[j])->cval);
	return h;
}

/* Whether OP of T compares a constant with an allocation of T: its
 * result is known (an object the trace made is no constant), so the
 * optimizer folds it away and no op of the optimized trace plays its
 * role (fnv_table's "is None" on a new integer). */
static bool folded_compare(const ir_trace *t, const ir_op *op)
{
	if ((op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE) || op->nargs != 2)
		return false;
	return ir_allocated(t, op->args[0]) || ir_allocated(t, op->args[1]);
}

/* The one name ORIG gives role R (of KIND: role_of), or UINT32_MAX when it
 * gives none or several; with FATE nonzero, only the occurrences whose
 * holder has that fate (holder_fate) count.  With KP (per value of ORIG,
 * the ConstPtr the recorded run shows it to be, or IR_NOVAL: run_ptrs),
 * an argument that is no ConstPtr counts as that one. */
static uint32_t orig_name_in(ptr_names *pn, const ir_trace *o, uint64_t r,
			     uint64_t fate, role_kind kind, const ir_vid *kp)
{
	uint32_t k = UINT32_MAX;
	for (uint32_t i = 0; i < o->nops; i++) {
		const ir_op *op = &o->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			ir_vid v = op->args[j];
			const char *s = pl_cptr_name(
			    o, kp && kp[v] != IR_NOVAL ? kp[v] : v);
			if (!s || role_of(o, i, j, kind) != r ||
			    (fate && holder_fate(o, i) != fate) ||
			    folded_compare(o, op))
				continue;
			uint32_t x =
			    find(pn, pn_rec_obj(pn, pn_name_index(pn, s)));
			if (k != UINT32_MAX && k != x)
				return UINT32_MAX;
			k = x;
		}
	}
	return k;
}

/* The ops of T with a ConstPtr in role R (of KIND: role_of), in order,
 * at most CAP into OPS (the argument's index into ARG); their number (all of
 * them).  FATE: only those whose holder has it (holder_fate); 0: any, but a
 * comparison the optimizer folds (folded_compare). */
static uint32_t role_ops(const ir_trace *t, uint64_t r, role_kind kind,
			 uint64_t fate, uint32_t *ops, uint32_t *arg,
			 uint32_t cap)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++)
			if (pl_cptr_name(t, op->args[j]) &&
			    role_of(t, i, j, kind) == r &&
			    (fate ? holder_fate(t, i) == fate
				  : !folded_compare(t, op))) {
				if (n < cap) {
					ops[n] = i;
					arg[n] = j;
				}
				n++;
				break;
			}
	}
	return n;
}

/* The name of ORIG in the same place as OPT's op I among the stores in
 * role R into holders with FATE, when both traces make as many (several
 * frames passed to call_assembler, each in its turn); UINT32_MAX when
 * the counts differ. */
static uint32_t same_place(ptr_names *pn, const pl_pair *p, uint32_t i,
			   uint64_t r, uint64_t fate)
{
	uint32_t a[64], b[64], aj[64], bj[64];
	uint32_t na = role_ops(p->orig, r, ROLE_SHALLOW, fate, a, aj, 64);
	uint32_t nb = role_ops(p->opt, r, ROLE_SHALLOW, fate, b, bj, 64);
	if (na != nb || na > 64)
		return UINT32_MAX;
	for (uint32_t k = 0; k < nb; k++) {
		if (b[k] != i)
			continue;
		const ir_op *op = &p->orig->ops[a[k]];
		for (uint32_t j = 0; j < op->nargs; j++) {
			const char *s = pl_cptr_name(p->orig, op->args[j]);
			if (s && pn_shallow_role(p->orig, a[k], j) == r)
				return find(
				    pn, pn_rec_obj(pn, pn_name_index(pn, s)));
		}
	}
	return UINT32_MAX;
}

/* The name of ORIG in the same place as OPT's op I among all the ops with
 * a ConstPtr in role R (of KIND), when both traces have as many and every
 * place whose OPT name is already one of ORIG's objects has that object in
 * ORIG too (the order is the optimizer's: it keeps the order of what it
 * keeps, and the agreeing places show nothing was dropped); else
 * UINT32_MAX.  Three lookups in three prebuilt tables of unicodedb, whose
 * indices the two traces compute from inputs in other places
 * (expr_eval). */
static uint32_t same_order(ptr_names *pn, const pl_pair *p, uint32_t i,
			   uint64_t r, role_kind kind, uint32_t norig)
{
	uint32_t a[64], aj[64], b[64], bj[64], k = UINT32_MAX;
	uint32_t na = role_ops(p->orig, r, kind, 0, a, aj, 64);
	uint32_t nb = role_ops(p->opt, r, kind, 0, b, bj, 64);
	if (na != nb || na > 64)
		return UINT32_MAX;
	for (uint32_t m = 0; m < na; m++) {
		const char *sa =
		    pl_cptr_name(p->orig, p->orig->ops[a[m]].args[aj[m]]);
		const char *sb =
		    pl_cptr_name(p->opt, p->opt->ops[b[m]].args[bj[m]]);
		uint32_t x = find(pn, pn_rec_obj(pn, pn_name_index(pn, sa)));
		uint32_t y = find(pn, pn_name_index(pn, sb));
		if (y < norig && y != x)
			return UINT32_MAX;
		if (b[m] == i)
			k = x;
	}
	return k;
}

/* The objects of the ops in role R of side SIDE of P, in the order they
 * first appear, at most 64 into D; their number, or UINT32_MAX when more.
 * *AT: the place in D of the object op I (of OPT) names. */
static uint32_t first_objects(ptr_names *pn, const pl_pair *p, int side,
			      uint64_t r, role_kind kind, uint32_t i,
			      uint32_t *d, uint32_t *at)
{
	const ir_trace *t = side ? p->opt : p->orig;
	uint32_t a[64], aj[64], nd = 0;
	uint32_t na = role_ops(t, r, kind, 0, a, aj, 64);
	if (na > 64)
		return UINT32_MAX;
	for (uint32_t m = 0; m < na; m++) {
		uint32_t x = pn_name_index(
		    pn, pl_cptr_name(t, t->ops[a[m]].args[aj[m]]));
		if (x == UINT32_MAX)
			return UINT32_MAX; /* out of memory */
		x = find(pn, side ? x : pn_rec_obj(pn, x));
		uint32_t k = 0;
		while (k < nd && d[k] != x)
			k++;
		if (k == nd)
			d[nd++] = x;
		if (side && a[m] == i)
			*at = k;
	}
	return nd;
}

/* same_order over the objects of the role in the order they first appear
 * in each trace: the optimizer removes a guard_value on a map it already
 * checked, so ORIG may have more occurrences than OPT but not more
 * objects (elo_ratings' bridge checks two players' maps, both again after
 * a call; its optimized trace checks each once).  The role is R, a
 * mid_role when KIND is ROLE_MID: the optimizer also moves a guard_value up,
 * past guards of another kind of value in the same shallow role
 * (parking_garage's bridge checks an array item's value before, not
 * after, an object's map), and their order differs where the roles do
 * not tell their arguments apart. */
static uint32_t same_first_order(ptr_names *pn, const pl_pair *p, uint32_t i,
				 uint64_t r, role_kind kind, uint32_t norig)
{
	uint32_t da[64], db[64], at = UINT32_MAX;
	uint32_t na = first_objects(pn, p, 0, r, kind, i, da, &at);
	uint32_t nb = first_objects(pn, p, 1, r, kind, i, db, &at);
	if (na != nb || na == UINT32_MAX || at == UINT32_MAX)
		return UINT32_MAX;
	for (uint32_t m = 0; m < nb; m++)
		if (db[m] < norig && db[m] != da[m])
			return UINT32_MAX;
	return da[at];
}

/* The ConstPtr each value of ORIG is on the recorded run (pl_run_values
 * over ORIG's first PN->recops ops), or IR_NOVAL; worked out once, when
 * first asked (PN->runptr); NULL when out of memory. */
static const ir_vid *run_ptrs(ptr_names *pn, const ir_trace *o)
{
	if (pn->runptr || pn->oom)
		return pn->runptr;
	size_t n = o->nvals ? o->nvals : 1;
	ir_vid *vs = malloc(n * sizeof *vs), *kp = malloc(n * sizeof *kp);
	bool *known = malloc(n * sizeof *known);
	uint64_t *x = malloc(n * sizeof *x);
	for (ir_vid v = 0; vs && v < o->nvals; v++)
		vs[v] = v;
	if (vs && kp && known && x &&
	    pl_run_values(o, pn->recops, vs, o->nvals, known, x, kp))
		pn->runptr = kp;
	else
		free(kp);
	pn->oom |= !pn->runptr;
	free(vs);
	free(known);
	free(x);
	return pn->runptr;
}

/* Whether op K of T stores into the place op I of U stores into, by role:
 * the same op and descr, the holder's role H (holder_role) and the same
 * constant index. */
static bool in_place_of(const ir_trace *t, uint32_t k, const ir_trace *u,
			uint32_t i, uint64_t h)
{
	const ir_op *a = &t->ops[k], *b = &u->ops[i];
	uint64_t x, y;
	return a->opc == IR_SETARRAYITEM_GC && a->nargs == 3 && a->descr &&
	       b->descr &&
	       !strcmp(ir_strtext(t, a->descr), ir_strtext(u, b->descr)) &&
	       holder_role(t, k, 2) == h && pl_const_index(t, a, &x) &&
	       pl_const_index(u, b, &y) && x == y;
}

/* The last op of T in [FROM, TO) that stores into the place of op I of
 * U (in_place_of, role H), or UINT32_MAX. */
static uint32_t last_in_place(const ir_trace *t, const ir_trace *u, uint32_t i,
			      uint64_t h, uint32_t from, uint32_t to)
{
	for (uint32_t k = to; k-- > from;)
		if (in_place_of(t, k, u, i, h))
			return k;
	return UINT32_MAX;
}

/* ORIG's constant in the place OPT's op I stores a constant into -- an
 * item at a constant index of an array the trace did not make (a
 * frame's locals and value stack) -- when the next call both traces make
 * comes: ORIG's last store there between the calls both make before and
 * after op I, when op I is OPT's last there before that call (the calls
 * paired once per pair, only when no other pairing could be:
 * pn_paired_calls).  The call may read the slot, so both traces have
 * the same object there.  PyPy writes a slot of the frame it keeps once
 * per stretch, where the recording pushed and popped several constants
 * through it (anagram_groups' bridges); UINT32_MAX otherwise. */
static uint32_t item_at_call(ptr_names *pn, const pl_pair *p, uint32_t i,
			     uint64_t h)
{
	const ir_trace *t = p->opt, *o = p->orig;
	const ir_op *op = &t->ops[i];
	uint64_t c;
	if (op->opc != IR_SETARRAYITEM_GC || op->nargs != 3 ||
	    !pl_const_index(t, op, &c) || ir_allocated(t, op->args[0]))
		return UINT32_MAX;
	const call_pairs *cp = pn_paired_calls(pn, p);
	if (!cp)
		return UINT32_MAX;
	uint32_t m = 0;
	while (m < cp->n && cp->opt[m] < i)
		m++;
	uint32_t ft = m ? cp->opt[m - 1] : 0, fo = m ? cp->orig[m - 1] : 0;
	uint32_t tt = m < cp->n ? cp->opt[m] : t->nops;
	uint32_t to = m < cp->n ? cp->orig[m] : o->nops;
	uint32_t s = last_in_place(t, t, i, h, ft, tt) == i
			 ? last_in_place(o, t, i, h, fo, to)
			 : UINT32_MAX;
	const char *n =
	    s == UINT32_MAX ? NULL : pl_cptr_name(o, o->ops[s].args[2]);
	return n ? find(pn, pn_rec_obj(pn, pn_name_index(pn, n))) : UINT32_MAX;
}

/* A name of OPT still apart from every name of ORIG (index NORIG and up
 * are OPT's own) is, in a role where ORIG has one object, that object:
 * the optimizer copies constants, it does not make new ones (the one it
 * puts for a promoted value is the guard_value's box, with the guard's
 * name, paired by role already).  A loop's peeled body stores the same
 * constant as the preamble in an op whose other arguments come from the
 * label, so the full role does not match.  When ORIG has several names
 * in the role, the stores into allocations that go to the same calls
 * (holder_fate) decide: an inlined call's frame that the optimizer kept
 * is the one passed to call_assembler.  Else all the ops in the role, in
 * order, when both traces have as many (same_order).  Last, a store's
 * value by its holder alone (holder_role): ORIG's one object there, or
 * in order when both traces store as many constants there; or, for an
 * item of an array the trace did not make, what ORIG has there at the
 * next call both make (item_at_call). */
void pn_pair_left_apart(ptr_names *pn, const pl_pair *p, uint32_t norig)
{
	const ir_trace *t = p->opt;
	for (uint32_t i = 0; i < t->nops && !pn->oom; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			const char *s = pl_cptr_name(t, op->args[j]);
			uint32_t x = s ? pn_name_index(pn, s) : UINT32_MAX;
			if (x == UINT32_MAX || find(pn, x) < norig)
				continue;
			uint64_t r = pn_shallow_role(t, i, j);
			uint32_t k =
			    orig_name_in(pn, p->orig, r, 0, ROLE_SHALLOW, NULL);
			uint64_t fate = holder_fate(t, i);
			if (k == UINT32_MAX && fate)
				k = orig_name_in(pn, p->orig, r, fate,
						 ROLE_SHALLOW, NULL);
			if (k == UINT32_MAX && fate)
				k = same_place(pn, p, i, r, fate);
			if (k == UINT32_MAX)
				k = same_order(pn, p, i, r, ROLE_SHALLOW,
					       norig);
			if (k == UINT32_MAX)
				k = orig_name_in(pn, p->orig, mid_role(t, i, j),
						 0, ROLE_MID, NULL);
			if (k == UINT32_MAX)
				k = same_first_order(pn, p, i, r, ROLE_SHALLOW,
						     norig);
			if (k == UINT32_MAX)
				k = same_first_order(pn, p, i,
						     mid_role(t, i, j),
						     ROLE_MID, norig);
			uint64_t h = holder_role(t, i, j);
			if (k == UINT32_MAX && h)
				k = orig_name_in(pn, p->orig, h, 0, ROLE_HOLDER,
						 NULL);
			if (k == UINT32_MAX && h)
				k = same_order(pn, p, i, h, ROLE_HOLDER, norig);
			if (k == UINT32_MAX && h)
				k = item_at_call(pn, p, i, h);
			/* Last, a value of ORIG the recorded run shows to be a
			 * constant counts as that constant: a frame local
			 * stored as a constant, read back after a call that
			 * cannot reach the frame and passed to a call
			 * (parking_garage's key function for sorted(), which
			 * its optimized trace passes as the constant). */
			const ir_vid *kp =
			    k == UINT32_MAX ? run_ptrs(pn, p->orig) : NULL;
			if (kp)
				k = orig_name_in(pn, p->orig, r, 0,
						 ROLE_SHALLOW, kp);
			if (k != UINT32_MAX)
				pn_unite(pn, k, x);
		}
	}
}
