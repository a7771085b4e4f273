/*
 * pypylog_ptrs.c - naming each ConstPtr of a PyPy log pair once
 * (docs/pypy.md, "ConstPtr identities").  Sections: value signatures;
 * the union of names by role; renaming both traces.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypylog_ptrs_int.h"
#include "pypyops.h"

/* ---- signatures ---------------------------------------------------------- */

/* How a value is computed, to depth DEPTH: input positions, constants, ops
 * and their descrs (every ConstPtr alike: their names say nothing).  The
 * roles of ConstPtr occurrences are compared by it (pl_same_ptrs).  Guards
 * are not paired here: PyPy's unoptimized guards have no descr, and the
 * checker infers the pairing whichever side lacks labels, for heap pairs
 * too (verify/check.c), by what each guard checks rather than by how it
 * is spelled. */

uint64_t pl_mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

uint64_t pl_hash_text(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

uint64_t pl_val_sig(const ir_trace *t, ir_vid v, int depth)
{
	const ir_value *x = ir_val(t, v);
	switch ((ir_valtag)x->tag) {
	case IR_VAL_INPUT: return pl_mix(1, x->def);
	case IR_VAL_CONST_INT: return pl_mix(2, x->cval);
	case IR_VAL_CONST_NULL: return 3;
	case IR_VAL_CONST_PTR: return 4;
	case IR_VAL_CONST_CLASS:
		return pl_mix(5, pl_hash_text(ir_strtext(t, x->name)));
	case IR_VAL_OP: break;
	}
	const ir_op *op = &t->ops[x->def];
	uint64_t h = pl_mix(6, op->opc);
	if (op->descr)
		h = pl_mix(h, pl_hash_text(ir_strtext(t, op->descr)));
	/* call_pure_i and the call_i the optimizer leaves of it are one
	 * function when the descr makes them one (ir_pycall_of). */
	if (op->opname && op->opc == IR_OPAQUE &&
	    ir_pycall_of(t, op) == IR_PYCALL_OPAQUE)
		h = pl_mix(h, pl_hash_text(ir_strtext(t, op->opname)));
	for (uint32_t i = 0; depth > 0 && i < op->nargs; i++)
		h = pl_mix(h, pl_val_sig(t, op->args[i], depth - 1));
	return h;
}

/* ---- ConstPtr identities ------------------------------------------------ */

/* PyPy prints every constant box with a number of its own (the log's
 * box-name memo is keyed by box, and each section unpacks fresh boxes),
 * so one object has a different ConstPtr name in each section and often
 * several in one.  Unless P->apart, the names are unified by the role
 * each occurrence plays (docs/pypy.md, "ConstPtr identities"):
 *  - an occurrence of ORIG and one of OPT with the same role signature
 *    (the op, its name and descr, the argument position, and how the
 *    other arguments are computed) name one object, when that role has
 *    one name in each trace; a role with several names in a trace pairs
 *    its occurrences in order when both traces have as many, and says
 *    nothing otherwise;
 *  - guard_value(ConstPtr(a), ConstPtr(b)) (the unrolled second iteration
 *    of a loop whose jump passes a promoted constant) names one object;
 *    so does guard_value(v, ConstPtr(b)) where v reads a field of an
 *    object the trace made whose last store, with no call since, was
 *    ConstPtr(a) (the second iteration promotes the map the first one
 *    gave a new instance).
 * Each class takes the name ORIG gives it first.  These identities are
 * assumptions the log cannot confirm; P->nsame counts them. */

uint32_t pn_name_index(ptr_names *pn, const char *s)
{
	for (uint32_t i = 0; i < pn->n; i++)
		if (!strcmp(pn->v[i], s))
			return i;
	if (pn->n == pn->cap) {
		uint32_t cap = pn->cap ? 2 * pn->cap : 16;
		const char **v = realloc(pn->v, cap * sizeof *v);
		uint32_t *up = v ? realloc(pn->up, cap * sizeof *up) : NULL;
		if (v)
			pn->v = v;
		if (!v || !up) {
			pn->oom = true;
			return UINT32_MAX;
		}
		pn->up = up;
		pn->cap = cap;
	}
	pn->v[pn->n] = s;
	pn->up[pn->n] = pn->n;
	return pn->n++;
}

static uint32_t find(ptr_names *pn, uint32_t i)
{
	return pl_uf_find(pn->up, i);
}

/* Unites the classes of A and B, the smaller index (ORIG's first name)
 * staying the root; true when they were apart. */
bool pn_unite(ptr_names *pn, uint32_t a, uint32_t b)
{
	a = find(pn, a);
	b = find(pn, b);
	if (a == b)
		return false;
	if (b < a) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	pn->up[b] = a;
	return true;
}

static void add_occ(ptr_names *pn, uint64_t sig, uint32_t name, uint32_t op,
		    uint8_t side, uint8_t dead)
{
	if (pn->nocc == pn->occcap) {
		uint32_t cap = pn->occcap ? 2 * pn->occcap : 32;
		ptr_occ *o = realloc(pn->occ, cap * sizeof *o);
		if (!o) {
			pn->oom = true;
			return;
		}
		pn->occ = o;
		pn->occcap = cap;
	}
	pn->occ[pn->nocc] = (ptr_occ){sig, name, pn->nocc, op, side, dead};
	pn->nocc++;
}

/* The role of argument J of op OPI. */
static uint64_t role_sig(const ir_trace *t, uint32_t opi, uint32_t j)
{
	const ir_op *op = &t->ops[opi];
	uint64_t h = pl_mix(8, op->opc);
	/* call_pure_i and the call_i the optimizer leaves of it are one
	 * function when the descr makes them one (ir_pycall_of). */
	if (op->opname && op->opc == IR_OPAQUE &&
	    ir_pycall_of(t, op) == IR_PYCALL_OPAQUE)
		h = pl_mix(h, pl_hash_text(ir_strtext(t, op->opname)));
	if (op->descr && !ir_op_has((ir_opcode)op->opc, IRF_GUARD))
		h = pl_mix(h, pl_hash_text(ir_strtext(t, op->descr)));
	h = pl_mix(h, j);
	for (uint32_t k = 0; k < op->nargs; k++)
		if (k != j)
			h = pl_mix(h, pl_val_sig(t, op->args[k], 3));
	return h;
}

/* Whether OP of T is a call the heap model makes an event of. */
bool pn_call_op(const ir_trace *t, const ir_op *op)
{
	return ir_op_has((ir_opcode)op->opc, IRF_CALL) &&
	       ir_pycall_of(t, op) == IR_PYCALL_OPAQUE;
}

/* The ConstPtr that V, read at op AT, holds when V is a field read whose
 * field the trace last set to a ConstPtr, with no call between (which
 * could write it; a raw read cannot): a store into an object the trace
 * allocated (stores into other objects cannot reach it), or, with no
 * store of that field through any other object between, a
 * guard_value of an earlier read of the same field of the same object
 * (a loop's second iteration reads again the map of the object the first
 * one passes on, which the first one promoted: on a run that gets there
 * the two constants are one object, and PyPy's loop closes only when its
 * two boxes are one address); else IR_NOVAL. */
static ir_vid stored_const(const ir_trace *t, ir_vid v, uint32_t at)
{
	const ir_value *x = ir_val(t, v);
	if (x->tag != IR_VAL_OP)
		return IR_NOVAL;
	const ir_op *rd = &t->ops[x->def];
	if (rd->opc != IR_GETFIELD_GC_R || rd->nargs != 1 || !rd->descr ||
	    x->def > at)
		return IR_NOVAL;
	bool fresh = ir_allocated(t, rd->args[0]);
	const char *d = ir_strtext(t, rd->descr);
	for (uint32_t i = x->def; i-- > 0;) {
		const ir_op *op = &t->ops[i];
		if (pn_call_op(t, op) && !pl_is_raw_read(t, op))
			return IR_NOVAL;
		bool same = op->descr && !strcmp(ir_strtext(t, op->descr), d);
		if (op->opc == IR_SETFIELD_GC && op->nargs == 2 && same) {
			if (op->args[0] == rd->args[0])
				return pl_cptr_name(t, op->args[1])
					   ? op->args[1]
					   : IR_NOVAL;
			if (!fresh)
				return IR_NOVAL; /* may be the object */
		}
		if (!fresh && op->opc == IR_GETFIELD_GC_R && op->nargs == 1 &&
		    same && op->args[0] == rd->args[0]) {
			ir_vid k = pl_pinned(t, op->result, i + 1, x->def);
			if (k != IR_NOVAL)
				return k;
		}
	}
	return IR_NOVAL;
}

/* Whether guard G of T passes on every run: guard_false of a ptr_eq (or
 * guard_true of a ptr_ne) between an object the trace allocated and a
 * ConstPtr, which is never a new object.  PyPy's optimizer folds that
 * comparison (the new object is virtual) and makes no exit of it. */
static bool sure_pass(const ir_trace *t, const ir_op *g)
{
	if ((g->opc != IR_GUARD_FALSE && g->opc != IR_GUARD_TRUE) ||
	    g->nargs != 1)
		return false;
	uint32_t d = ir_defop(t, g->args[0]);
	const ir_op *c = d == UINT32_MAX ? NULL : &t->ops[d];
	if (!c || c->nargs != 2 ||
	    c->opc != (g->opc == IR_GUARD_FALSE ? IR_PTR_EQ : IR_PTR_NE))
		return false;
	for (int a = 0; a < 2; a++)
		if (ir_allocated(t, c->args[a]) &&
		    pl_cptr_name(t, c->args[1 - a]))
			return true;
	return false;
}

/* Whether X, an object T allocated, is never looked at: no op takes it
 * but as the object its fields are stored into, no guard passes it on.
 * PyPy's optimizer drops such an object and its stores (a StopIteration
 * made when a loop's iterator runs out, then dropped by the code that
 * catches it). */
static bool never_seen(const ir_trace *t, ir_vid x)
{
	if (!ir_allocated(t, x))
		return false;
	for (uint32_t k = ir_val(t, x)->def + 1; k < t->nops; k++) {
		const ir_op *op = &t->ops[k];
		bool store =
		    op->opc == IR_SETFIELD_GC || op->opc == IR_SETARRAYITEM_GC;
		for (uint32_t j = 0; j < op->nargs; j++)
			if (op->args[j] == x && !(store && j == 0))
				return false;
		for (uint32_t j = 0; j < op->nfail; j++)
			if (op->failargs[j] == x)
				return false;
	}
	return true;
}

/* Whether OP takes X other than as the object of a field access. */
static bool used_at(const ir_op *op, ir_vid x)
{
	bool field = op->opc == IR_SETFIELD_GC || op->opc == IR_GETFIELD_GC_I ||
		     op->opc == IR_GETFIELD_GC_R;
	for (uint32_t j = 0; j < op->nargs; j++)
		if (op->args[j] == x && !(field && j == 0))
			return true;
	return false;
}

/* Whether OP of T lets X, an object T allocated, be seen beyond the
 * objects T allocated: any use but as the object of a field access or
 * as the value stored into another allocation of T. */
static bool escapes_at(const ir_trace *t, const ir_op *op, ir_vid x)
{
	bool store = op->opc == IR_SETFIELD_GC || op->opc == IR_SETARRAYITEM_GC;
	if (store && op->nargs >= 2 && op->args[op->nargs - 1] == x &&
	    ir_allocated(t, op->args[0])) {
		for (uint32_t j = 0; j + 1 < op->nargs; j++)
			if (op->args[j] == x)
				return true;
		return false;
	}
	return used_at(op, x);
}

/* Whether op I of T is a store that PyPy's optimizer drops because a
 * later store of the same field of the same object overwrites it before
 * anything could see it: no guard (an exit shows the heap) but one that
 * passes on every run (sure_pass), no call, no read of the field, no
 * other use of the object than accesses of its other fields (a new list's
 * strategy set twice).  An object the trace allocated may also pass
 * guards, and be stored into another such object, between the stores:
 * the optimizer keeps it virtual there, its fields at an exit go into
 * the resume data the log does not print, and the heap model leaves out
 * fresh objects nothing outside has reached (since session 37: a list
 * json_pretty makes empty, pushes on an inlined frame's stack and fills
 * before the call_assembler that takes the frame).  A role whose occurrences
 * the traces have in different numbers is tried again without such stores
 * (unite_live); a name left out stays apart, which only proves less.
 * An item of an array the trace allocated, at a constant index, is
 * dropped the same way (item_overwritten). */
static bool item_overwritten(const ir_trace *t, uint32_t i);

static bool overwritten(const ir_trace *t, uint32_t i)
{
	const ir_op *st = &t->ops[i];
	if (st->opc == IR_SETARRAYITEM_GC)
		return item_overwritten(t, i);
	if (st->opc != IR_SETFIELD_GC || st->nargs != 2 || !st->descr)
		return false;
	const char *d = ir_strtext(t, st->descr);
	ir_vid x = st->args[0];
	bool fresh = ir_allocated(t, x);
	for (uint32_t k = fresh ? ir_val(t, x)->def + 1 : i; fresh && k < i;
	     k++)
		fresh = !escapes_at(t, &t->ops[k], x);
	for (uint32_t k = i + 1; k < t->nops; k++) {
		const ir_op *op = &t->ops[k];
		bool same = op->descr && !strcmp(ir_strtext(t, op->descr), d);
		if (op->opc == IR_SETFIELD_GC && op->nargs == 2 &&
		    op->args[0] == x && same)
			return op->args[1] != x;
		bool guard = ir_op_has((ir_opcode)op->opc, IRF_GUARD);
		if ((guard && !fresh && !sure_pass(t, op)) ||
		    pn_call_op(t, op) ||
		    ir_op_has((ir_opcode)op->opc, IRF_END) || same)
			return false;
		if (fresh ? escapes_at(t, op, x) : used_at(op, x))
			return false;
	}
	return false;
}

/* The constant index of item store or read OP, or -1. */
static int64_t const_index(const ir_trace *t, const ir_op *op)
{
	if (op->nargs < 2 || ir_val(t, op->args[1])->tag != IR_VAL_CONST_INT)
		return -1;
	return ir_val(t, op->args[1])->cval;
}

/* Whether op I of T stores into item C, a constant index, of an array X
 * the trace allocated, and a later store into item C of X overwrites it
 * with no call between (one could read X through another object), no
 * read of item C or of an unknown index of X, and no use of X but
 * accesses of its other constant items and stores into other objects
 * the trace allocated: the optimizer keeps X virtual, and writes item C
 * once, with its last value, when X escapes (a frame's locals array
 * passed to call_assembler within its frame: polygon_area's bridge
 * stores two bools into one local, its optimized trace the second
 * only).  Guards between are no sight of it: at an exit X's items go
 * into the resume data, which the log does not print. */
static bool item_overwritten(const ir_trace *t, uint32_t i)
{
	const ir_op *st = &t->ops[i];
	int64_t c = const_index(t, st);
	ir_vid x = st->nargs == 3 ? st->args[0] : IR_NOVAL;
	if (c < 0 || x == IR_NOVAL || !ir_allocated(t, x))
		return false;
	for (uint32_t k = ir_val(t, x)->def + 1; k < i; k++)
		if (escapes_at(t, &t->ops[k], x) &&
		    !(t->ops[k].args[0] == x &&
		      const_index(t, &t->ops[k]) >= 0))
			return false;
	for (uint32_t k = i + 1; k < t->nops; k++) {
		const ir_op *op = &t->ops[k];
		bool item = (op->opc == IR_SETARRAYITEM_GC ||
			     op->opc == IR_GETARRAYITEM_GC_I ||
			     op->opc == IR_GETARRAYITEM_GC_R) &&
			    op->nargs >= 2 && op->args[0] == x &&
			    op->descr == st->descr;
		if (item && op->opc == IR_SETARRAYITEM_GC &&
		    const_index(t, op) == c)
			return op->args[2] != x;
		if (pn_call_op(t, op) || ir_op_has((ir_opcode)op->opc, IRF_END))
			return false;
		if (item) {
			int64_t d = const_index(t, op);
			if (d < 0 || d == c)
				return false; /* a read of item C, maybe */
			if (op->opc == IR_SETARRAYITEM_GC && op->args[2] == x)
				return false;
			continue;
		}
		if (escapes_at(t, op, x))
			return false;
	}
	return false;
}

static void collect(ptr_names *pn, const ir_trace *t, uint8_t side)
{
	for (uint32_t i = 0; i < t->nops && !pn->oom; i++) {
		const ir_op *op = &t->ops[i];
		/* plays no role: a store overwritten unseen; in ORIG, an
		 * instance comparison PyPy may have folded by classes (the
		 * optimized trace keeps only the ones it could not fold); a
		 * store into an object nothing looks at */
		uint8_t dead = OCC_LIVE;
		if (overwritten(t, i) || (side == 0 && pl_class_foldable(t, i)))
			dead = OCC_DEAD;
		else if (op->opc == IR_SETFIELD_GC && op->nargs == 2 &&
			 never_seen(t, op->args[0]))
			dead = OCC_UNSEEN;
		for (uint32_t j = 0; j < op->nargs; j++) {
			const char *s = pl_cptr_name(t, op->args[j]);
			uint32_t k = s ? pn_name_index(pn, s) : UINT32_MAX;
			if (k != UINT32_MAX)
				add_occ(pn, role_sig(t, i, j), k, i, side,
					dead);
		}
		if (op->opc == IR_GUARD_VALUE && op->nargs == 2) {
			ir_vid s0 = stored_const(t, op->args[0], i);
			const char *a =
			    pl_cptr_name(t, s0 != IR_NOVAL ? s0 : op->args[0]);
			const char *b = pl_cptr_name(t, op->args[1]);
			uint32_t x = a ? pn_name_index(pn, a) : UINT32_MAX;
			uint32_t y = b ? pn_name_index(pn, b) : UINT32_MAX;
			if (x != UINT32_MAX && y != UINT32_MAX)
				pn_unite(pn, x, y);
		}
	}
}

static int occ_cmp(const void *a, const void *b)
{
	const ptr_occ *x = a, *y = b;
	if (x->sig != y->sig)
		return x->sig < y->sig ? -1 : 1;
	if (x->side != y->side)
		return x->side - y->side;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The object name I stands for as far as the recording tells: the root
 * of its class of ORIG names the run proves one object, or I. */
static uint32_t rec_obj(ptr_names *pn, uint32_t i)
{
	return pn->rec && i < pn->nrec ? pl_uf_find(pn->rec, i) : i;
}

static void rec_same(void *ctx, const char *a, const char *b)
{
	ptr_names *pn = ctx;
	uint32_t x = UINT32_MAX, y = UINT32_MAX;
	for (uint32_t i = 0; i < pn->nrec; i++) {
		if (!strcmp(pn->v[i], a))
			x = i;
		if (!strcmp(pn->v[i], b))
			y = i;
	}
	if (x == UINT32_MAX || y == UINT32_MAX)
		return;
	x = pl_uf_find(pn->rec, x);
	y = pl_uf_find(pn->rec, y);
	if (x != y)
		pn->rec[x > y ? x : y] = x < y ? x : y;
}

/* The objects ORIG's names are by its recording (rec_obj). */
static void recorded_objects(ptr_names *pn, const ir_trace *o, uint32_t nrec)
{
	pn->nrec = pn->n;
	pn->rec = calloc(pn->nrec + 1, sizeof *pn->rec);
	if (!pn->rec)
		return; /* no facts: names stay apart, which is weaker */
	for (uint32_t i = 0; i < pn->nrec; i++)
		pn->rec[i] = i;
	pl_recorded_same(o, nrec, rec_same, pn);
}

/* The objects of group [I, J) (one role) on SIDE: the one object (a name
 * of it), or UINT32_MAX when none or several. */
static uint32_t group_name(ptr_names *pn, uint32_t i, uint32_t j, uint8_t side)
{
	const ptr_occ *o = pn->occ;
	uint32_t k = UINT32_MAX;
	for (; i < j; i++) {
		if (o[i].side != side)
			continue;
		uint32_t x = rec_obj(pn, o[i].name);
		if (k != UINT32_MAX && x != k)
			return UINT32_MAX;
		k = x;
	}
	return k;
}

/* Group [I, J) (one role) names several objects in a trace: when both
 * traces have as many occurrences of the role, the k-th of ORIG and the
 * k-th of OPT name one object (the optimizer keeps the order of what it
 * keeps; a role it dropped an occurrence of identifies nothing). */
static bool unite_in_order(ptr_names *pn, uint32_t i, uint32_t j)
{
	uint32_t m = i;
	while (m < j && pn->occ[m].side == 0)
		m++;
	if (m == i || m == j || m - i != j - m)
		return false;
	for (uint32_t k = 0; k < m - i; k++)
		pn_unite(pn, pn->occ[i + k].name, pn->occ[m + k].name);
	return true;
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
 * FROM it is passed to, with the position, the arrays it is stored into
 * as an item (their descr), and (DEPTH more levels) the fields of
 * allocations it is stored into anywhere, with their fates. */
static uint64_t obj_fate(const ir_trace *t, ir_vid x, uint32_t from, int depth)
{
	uint64_t h = 11;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *c = &t->ops[i];
		if (ir_op_has((ir_opcode)c->opc, IRF_CALL)) {
			if (i <= from)
				continue; /* it did not see the constant */
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
 * holder has that fate (holder_fate) count. */
static uint32_t orig_name_in(ptr_names *pn, const ir_trace *o, uint64_t r,
			     uint64_t fate, role_kind kind)
{
	uint32_t k = UINT32_MAX;
	for (uint32_t i = 0; i < o->nops; i++) {
		const ir_op *op = &o->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			const char *s = pl_cptr_name(o, op->args[j]);
			if (!s || role_of(o, i, j, kind) != r ||
			    (fate && holder_fate(o, i) != fate) ||
			    folded_compare(o, op))
				continue;
			uint32_t x =
			    find(pn, rec_obj(pn, pn_name_index(pn, s)));
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
				return find(pn,
					    rec_obj(pn, pn_name_index(pn, s)));
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
		uint32_t x = find(pn, rec_obj(pn, pn_name_index(pn, sa)));
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
		x = find(pn, side ? x : rec_obj(pn, x));
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
 * in order when both traces store as many constants there. */
static void pair_left_apart(ptr_names *pn, const pl_pair *p, uint32_t norig)
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
			    orig_name_in(pn, p->orig, r, 0, ROLE_SHALLOW);
			uint64_t fate = holder_fate(t, i);
			if (k == UINT32_MAX && fate)
				k = orig_name_in(pn, p->orig, r, fate,
						 ROLE_SHALLOW);
			if (k == UINT32_MAX && fate)
				k = same_place(pn, p, i, r, fate);
			if (k == UINT32_MAX)
				k = same_order(pn, p, i, r, ROLE_SHALLOW,
					       norig);
			if (k == UINT32_MAX)
				k = orig_name_in(pn, p->orig, mid_role(t, i, j),
						 0, ROLE_MID);
			if (k == UINT32_MAX)
				k = same_first_order(pn, p, i, r, ROLE_SHALLOW,
						     norig);
			if (k == UINT32_MAX)
				k = same_first_order(pn, p, i,
						     mid_role(t, i, j),
						     ROLE_MID, norig);
			uint64_t h = holder_role(t, i, j);
			if (k == UINT32_MAX && h)
				k = orig_name_in(pn, p->orig, h, 0,
						 ROLE_HOLDER);
			if (k == UINT32_MAX && h)
				k = same_order(pn, p, i, h, ROLE_HOLDER, norig);
			if (k != UINT32_MAX)
				pn_unite(pn, k, x);
		}
	}
}

/* The ConstPtr field F of X holds where op AT of T stores into it, as the
 * guard_value pin of the last read of F from X, with no call and no store
 * of F between (either may change it); else IR_NOVAL.  Not an earlier
 * store's constant: of two stores PyPy may drop the first (overwritten),
 * and the second's constant need not be the first's. */
static ir_vid held_const(const ir_trace *t, uint32_t at)
{
	const ir_op *st = &t->ops[at];
	const char *d = ir_strtext(t, st->descr);
	ir_vid x = st->args[0];
	for (uint32_t i = at; i-- > 0;) {
		const ir_op *op = &t->ops[i];
		if (pn_call_op(t, op) && !pl_is_raw_read(t, op))
			return IR_NOVAL;
		if (!op->descr || strcmp(ir_strtext(t, op->descr), d))
			continue;
		if (op->opc == IR_SETFIELD_GC)
			return IR_NOVAL;
		if (op->opc == IR_GETFIELD_GC_R && op->nargs == 1 &&
		    op->args[0] == x) {
			ir_vid k = pl_pinned(t, op->result, i + 1, at);
			if (k != IR_NOVAL)
				return k;
		}
	}
	return IR_NOVAL;
}

/* Whether the class of name Y has an occurrence in OPT. */
static bool seen_in_opt(ptr_names *pn, uint32_t y)
{
	uint32_t r = find(pn, y);
	for (uint32_t k = 0; k < pn->nocc; k++)
		if (pn->occ[k].side == 1 && find(pn, pn->occ[k].name) == r)
			return true;
	return false;
}

/* A store of ORIG of a ConstPtr B that no name of OPT is, into a field
 * known to hold ConstPtr A (held_const), names A: PyPy's heap optimizer
 * drops a store of the value the field holds (heap.py, do_setfield:
 * the cached box is the same constant), and an optimizer makes no
 * constants, so an optimized trace without B stores nothing there only
 * when B is A.  parking_garage's exception handlers set an
 * OperationError's w_type to the class its value's map gives, after
 * promoting the w_type the error had: the same class. */
static void unite_restored(ptr_names *pn, const pl_pair *p)
{
	const ir_trace *t = p->orig;
	for (uint32_t i = 0; i < t->nops && !pn->oom; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_SETFIELD_GC || op->nargs != 2 || !op->descr)
			continue;
		const char *b = pl_cptr_name(t, op->args[1]);
		uint32_t y = b ? pn_name_index(pn, b) : UINT32_MAX;
		if (y == UINT32_MAX || seen_in_opt(pn, y))
			continue;
		const char *a = pl_cptr_name(t, held_const(t, i));
		uint32_t x = a ? pn_name_index(pn, a) : UINT32_MAX;
		if (x != UINT32_MAX)
			pn_unite(pn, x, y);
	}
}

/* The aligned pieces of P: one, or two for a peeled loop (ORIG unrolled
 * twice, OPT's preamble and body split at its label). */
uint32_t pn_pieces_of(const pl_pair *p, piece *o, piece *t)
{
	uint32_t lab = UINT32_MAX, n = p->opt->nops - 1;
	for (uint32_t i = 0; i < n; i++)
		if (p->opt->ops[i].opc == IR_LABEL)
			lab = i;
	uint32_t m = p->orig->nops - 1;
	o[0] = (piece){p->orig, 0, m};
	t[0] = (piece){p->opt, 0, n};
	if (lab == UINT32_MAX || m % 2)
		return 1;
	for (uint32_t i = 0; i < m / 2; i++)
		if (p->orig->ops[i].opc != p->orig->ops[m / 2 + i].opc)
			return 1;
	o[0].to = m / 2;
	o[1] = (piece){p->orig, m / 2, m};
	t[0].to = lab;
	t[1] = (piece){p->opt, lab + 1, n};
	return 2;
}

/* The number of opaque calls of T before each op: CB[i] (NULL when out of
 * memory). */
static uint32_t *calls_before(const ir_trace *t)
{
	uint32_t *cb = calloc(t->nops + 1, sizeof *cb);
	uint32_t n = 0;
	for (uint32_t i = 0; cb && i < t->nops; i++) {
		cb[i] = n;
		n +=
		    pn_call_op(t, &t->ops[i]) && !pl_is_raw_read(t, &t->ops[i]);
	}
	if (cb)
		cb[t->nops] = n;
	return cb;
}

/* Whether occurrence O lies in piece P and after its C-th call there. */
static bool occ_in(const ptr_occ *o, const piece *p, const uint32_t *cb,
		   uint32_t c)
{
	return o->op >= p->from && o->op < p->to &&
	       cb[o->op] - cb[p->from] == c;
}

/* Group [I, J) (one role) when the traces have different numbers of its
 * occurrences: in aligned pieces (pieces_of) with as many calls in both
 * traces, they pair in order between the same two calls, where both have
 * as many (the optimizer moves no guard across a call; where it dropped
 * one, that stretch says nothing).  A frame's locals dict read and promoted
 * again after each call of a module-level loop (fnv_table's bridges). */
static void unite_by_piece(ptr_names *pn, const pl_pair *p, uint32_t i,
			   uint32_t j, uint32_t *const cb[2])
{
	piece pc[2][2];
	uint32_t np = pn_pieces_of(p, pc[0], pc[1]);
	for (uint32_t k = 0; k < np; k++) {
		uint32_t ncalls = cb[0][pc[0][k].to] - cb[0][pc[0][k].from];
		if (ncalls != cb[1][pc[1][k].to] - cb[1][pc[1][k].from])
			continue; /* the calls are not aligned */
		for (uint32_t c = 0; c <= ncalls; c++) {
			uint32_t a[2] = {0, 0}, first[2] = {j, j};
			for (uint32_t x = i; x < j; x++) {
				const ptr_occ *o = &pn->occ[x];
				if (!occ_in(o, &pc[o->side][k], cb[o->side], c))
					continue;
				if (!a[o->side]++)
					first[o->side] = x;
			}
			if (a[0] == 0 || a[0] != a[1])
				continue;
			for (uint32_t x = first[0], y = first[1], n = 0;
			     n < a[0]; n++, x++, y++) {
				while (
				    !occ_in(&pn->occ[x], &pc[0][k], cb[0], c))
					x++;
				while (
				    !occ_in(&pn->occ[y], &pc[1][k], cb[1], c))
					y++;
				pn_unite(pn, pn->occ[x].name, pn->occ[y].name);
			}
		}
	}
}

/* A copy of T with every ConstPtr renamed to its class's root (NULL on
 * failure, WHY set). */
static ir_trace *renamed_copy(const ir_trace *t, ptr_names *pn, char *why,
			      size_t ws)
{
	const char **from = calloc(pn->n + 1, sizeof *from);
	const char **to = calloc(pn->n + 1, sizeof *to);
	ir_trace *d = from && to ? ir_trace_new(t->width) : NULL;
	copier c;
	bool ok = d && pl_copier_init(&c, d, t);
	if (!ok) {
		snprintf(why, ws, "out of memory");
		free(from);
		free(to);
		ir_trace_free(d);
		return NULL;
	}
	c.keep_labels = true;
	for (uint32_t i = 0; i < pn->n; i++) {
		from[c.nren] = pn->v[i];
		to[c.nren++] = pn->v[find(pn, i)];
	}
	c.ren_from = from;
	c.ren_to = to;
	ok = ok && pl_copy_inputs(&c);
	for (uint32_t i = 0; ok && i + 1 < t->nops; i++)
		ok = pl_copy_op(&c, i, "", why, ws);
	ir_trace *r = pl_copy_done(&c, ok); /* the end may rename too */
	free(from);
	free(to);
	return r;
}

/* The loop whose call_assembler allocation X of T is passed to after op
 * FROM, hashed; 0 when none.  call_assembler runs the loop's code on the
 * frame it gets. */
static uint64_t loop_of(const ir_trace *t, ir_vid x, uint32_t from)
{
	for (uint32_t i = from + 1; i < t->nops; i++) {
		const ir_op *c = &t->ops[i];
		if (c->opc != IR_OPAQUE || !c->opname || !c->descr ||
		    c->nargs == 0 || c->args[0] != x ||
		    strncmp(ir_strtext(t, c->opname), "call_assembler_", 15))
			continue;
		const char *d = ir_strtext(t, c->descr);
		char tok[48];
		snprintf(tok, sizeof tok, "%.*s", (int)strcspn(d, " >"), d);
		return pl_mix(12, pl_hash_text(tok));
	}
	return 0;
}

/* The loop whose call_assembler the holder of op OPI's constant (an
 * allocation of T: a frame) goes to after OPI, hashed; 0 when none:
 * passed itself, or stored into a field of another allocation that is
 * passed (a generator's frame: the generator goes to the loop of its
 * code; spell_edits' bridges), the field's descr then part of the hash. */
static uint64_t holder_loop(const ir_trace *t, uint32_t opi)
{
	const ir_op *op = &t->ops[opi];
	if (op->opc != IR_SETFIELD_GC || op->nargs != 2 ||
	    !ir_allocated(t, op->args[0]))
		return 0;
	ir_vid x = op->args[0];
	uint64_t h = loop_of(t, x, opi);
	for (uint32_t i = 0; !h && i < t->nops; i++) {
		const ir_op *s = &t->ops[i];
		if (s->opc != IR_SETFIELD_GC || s->nargs != 2 ||
		    s->args[1] != x || s->args[0] == x || !s->descr ||
		    !ir_allocated(t, s->args[0]))
			continue;
		uint64_t g = loop_of(t, s->args[0], i > opi ? i : opi);
		if (g)
			h = pl_mix(g, pl_hash_text(ir_strtext(t, s->descr)));
	}
	return h;
}

/* Group [I, J) (one role) with several names: when the traces have as
 * many occurrences, each storing its constant into a frame of its trace
 * passed to the call_assembler of a loop (holder_loop) that no other
 * occurrence of that trace reaches, occurrences of one loop name one
 * object.  The optimizer materializes the frames it keeps in another
 * order than the recording made them (tictactoe_minimax's bridges: the
 * frame for Loop1 first, the caller's frame for Loop65 at the end), so
 * order alone pairs the wrong ones. */
static bool unite_by_loop(ptr_names *pn, const pl_pair *p, uint32_t i,
			  uint32_t j)
{
	uint32_t n[2] = {0, 0};
	uint64_t *f = calloc(j - i + 1, sizeof *f);
	bool ok = f != NULL;
	for (uint32_t x = i; ok && x < j; x++) {
		const ptr_occ *o = &pn->occ[x];
		f[x - i] = holder_loop(o->side ? p->opt : p->orig, o->op);
		ok = f[x - i] != 0;
		n[o->side]++;
	}
	ok = ok && n[0] == n[1] && n[0] > 1;
	for (uint32_t x = i; ok && x < j; x++) {
		uint32_t same[2] = {0, 0};
		for (uint32_t y = i; y < j; y++)
			same[pn->occ[y].side] += f[y - i] == f[x - i];
		ok = same[0] == 1 && same[1] == 1;
	}
	for (uint32_t x = i; ok && x < j; x++)
		for (uint32_t y = i; pn->occ[x].side == 0 && y < j; y++)
			if (pn->occ[y].side == 1 && f[y - i] == f[x - i])
				pn_unite(pn, pn->occ[x].name, pn->occ[y].name);
	free(f);
	return ok;
}

/* Group [I, J) (one role) paired neither way: the same without its
 * occurrences that play no role, copied after the others (the group's own
 * order is kept for the pairing by pieces).  Without stores into objects
 * nothing looks at, only one name left in each trace pairs: what becomes
 * of the objects (holder_fate, pair_left_apart) decides among several. */
static bool unite_live(ptr_names *pn, uint32_t i, uint32_t j)
{
	uint32_t ndead = 0, k = 0;
	bool unseen = false;
	for (uint32_t x = i; x < j; x++) {
		ndead += pn->occ[x].dead != OCC_LIVE;
		unseen |= pn->occ[x].dead == OCC_UNSEEN;
	}
	if (!ndead || ndead == j - i)
		return false;
	if (pn->nocc + (j - i) > pn->occcap) {
		uint32_t cap = pn->nocc + (j - i);
		ptr_occ *o = realloc(pn->occ, cap * sizeof *o);
		if (!o) {
			pn->oom = true;
			return false;
		}
		pn->occ = o;
		pn->occcap = cap;
	}
	uint32_t base = pn->nocc;
	for (uint32_t x = i; x < j; x++)
		if (!pn->occ[x].dead)
			pn->occ[base + k++] = pn->occ[x];
	uint32_t a = group_name(pn, base, base + k, 0);
	uint32_t b = group_name(pn, base, base + k, 1);
	if (a == UINT32_MAX || b == UINT32_MAX)
		return !unseen && unite_in_order(pn, base, base + k);
	pn_unite(pn, a, b);
	return true;
}

void pl_same_ptrs(pl_pair *p, uint32_t nrec)
{
	ptr_names pn;
	memset(&pn, 0, sizeof pn);
	collect(&pn, p->orig, 0);
	uint32_t norig = pn.n;
	if (!pn.oom)
		recorded_objects(&pn, p->orig, nrec);
	collect(&pn, p->opt, 1);
	if (!pn.oom && pn.nocc > 0) /* no ConstPtr: occ is NULL */
		qsort(pn.occ, pn.nocc, sizeof *pn.occ, occ_cmp);
	uint32_t *cb[2] = {calls_before(p->orig), calls_before(p->opt)};
	for (uint32_t i = 0, j; !pn.oom && i < pn.nocc; i = j) {
		for (j = i; j < pn.nocc && pn.occ[j].sig == pn.occ[i].sig; j++)
			;
		uint32_t a = group_name(&pn, i, j, 0);
		uint32_t b = group_name(&pn, i, j, 1);
		if (a != UINT32_MAX && b != UINT32_MAX)
			pn_unite(&pn, a, b);
		else if (!unite_by_loop(&pn, p, i, j) &&
			 !unite_in_order(&pn, i, j) && !unite_live(&pn, i, j) &&
			 cb[0] && cb[1])
			unite_by_piece(&pn, p, i, j, cb);
	}
	if (!pn.oom)
		pn_pair_cells(&pn, p);
	if (!pn.oom)
		pair_left_apart(&pn, p, norig);
	if (!pn.oom)
		unite_restored(&pn, p);
	uint32_t merged = 0;
	for (uint32_t i = 0; i < pn.n; i++)
		merged += find(&pn, i) != i;
	if (!pn.oom && merged > 0) {
		char why[256] = "";
		ir_trace *o = renamed_copy(p->orig, &pn, why, sizeof why);
		ir_trace *t =
		    o ? renamed_copy(p->opt, &pn, why, sizeof why) : NULL;
		if (t) {
			ir_trace_free(p->orig);
			ir_trace_free(p->opt);
			p->orig = o;
			p->opt = t;
			p->nsame += merged;
		} else {
			ir_trace_free(o);
		}
	}
	free(pn.v);
	free(pn.up);
	free(pn.occ);
	free(pn.rec);
	free(cb[0]);
	free(cb[1]);
}
