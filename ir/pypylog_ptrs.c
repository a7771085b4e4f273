/*
 * pypylog_ptrs.c - naming each ConstPtr of a PyPy log pair once
 * (docs/pypy.md, "ConstPtr identities").  Sections: value signatures;
 * the union of names by role; renaming both traces.  The names left apart
 * after the roles are paired in pypylog_apart.c.
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

/* Whether V of T is an integer the trace fixes, in *C: a constant; the
 * length of an array the trace allocated, which it set to a constant
 * (no op changes a length: docs/semantics.md, "Arrays"); or the sum or
 * difference of two such, DEPTH levels deep.  An optimizer computes
 * such an index as the constant: trycount's error message joins five
 * strings, the original putting the last at its list's length minus
 * one, the optimized trace at 4. */
static bool known_int(const ir_trace *t, ir_vid v, int depth, uint64_t *c)
{
	const ir_value *x = ir_val(t, v);
	if (x->tag == IR_VAL_CONST_INT) {
		*c = x->cval;
		return true;
	}
	if (x->tag != IR_VAL_OP || depth <= 0)
		return false;
	const ir_op *op = &t->ops[x->def];
	uint64_t a, b;
	if ((op->opc == IR_INT_ADD || op->opc == IR_INT_SUB) &&
	    op->nargs == 2 && known_int(t, op->args[0], depth - 1, &a) &&
	    known_int(t, op->args[1], depth - 1, &b)) {
		*c = op->opc == IR_INT_ADD ? a + b : a - b;
		return true;
	}
	if (op->opc != IR_GETFIELD_GC_I || op->nargs != 1 || !op->descr ||
	    !ir_descr_is_length(ir_strtext(t, op->descr)) ||
	    !ir_allocated(t, op->args[0]))
		return false;
	for (uint32_t i = ir_defop(t, op->args[0]) + 1; i < x->def; i++) {
		const ir_op *s = &t->ops[i];
		if (s->opc == IR_SETFIELD_GC && s->nargs == 2 &&
		    s->args[0] == op->args[0] && s->descr &&
		    !strcmp(ir_strtext(t, s->descr), ir_strtext(t, op->descr)))
			return known_int(t, s->args[1], 0, c);
	}
	return false;
}

uint64_t pl_val_sig(const ir_trace *t, ir_vid v, int depth)
{
	const ir_value *x = ir_val(t, v);
	uint64_t c;
	if (x->tag == IR_VAL_OP && known_int(t, v, 3, &c))
		return pl_mix(2, c);
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

/* What V holds when it reads a field of an object (getfield_gc_r) that
 * the trace last stored, through the same value with no call between (a
 * raw read is none), with no store of that field through any other value
 * between: the value stored; else V.  A loop whose first iteration puts
 * a new instance into a global cell reads it back from the cell in the
 * second (points' loop). */
static ir_vid forwarded(const ir_trace *t, ir_vid v)
{
	const ir_value *x = ir_val(t, v);
	if (x->tag != IR_VAL_OP)
		return v;
	const ir_op *rd = &t->ops[x->def];
	if (rd->opc != IR_GETFIELD_GC_R || rd->nargs != 1 || !rd->descr)
		return v;
	const char *d = ir_strtext(t, rd->descr);
	for (uint32_t i = x->def; i-- > 0;) {
		const ir_op *op = &t->ops[i];
		if (pn_call_op(t, op) && !pl_is_raw_read(t, op))
			return v;
		if (op->opc == IR_SETFIELD_GC && op->nargs == 2 && op->descr &&
		    !strcmp(ir_strtext(t, op->descr), d))
			return op->args[0] == rd->args[0] ? op->args[1] : v;
	}
	return v;
}

/* The ConstPtr that V, read at op AT, holds when V is a field read whose
 * field the trace last set to a ConstPtr, with no call between (which
 * could write it; a raw read cannot): a store into an object the trace
 * allocated (stores into other objects cannot reach it), or into one the
 * read's object is forwarded to (with no store of that field through
 * any other value between), or, with no
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
	/* the object read: an allocation the trace stored where it is read
	 * from counts as that allocation, but then no store of the field
	 * through another value, which may be another name of it */
	ir_vid o = rd->args[0], f = forwarded(t, o);
	bool via = f != o && ir_allocated(t, f);
	if (via)
		o = f;
	bool fresh = !via && ir_allocated(t, o);
	const char *d = ir_strtext(t, rd->descr);
	for (uint32_t i = x->def; i-- > 0;) {
		const ir_op *op = &t->ops[i];
		if (pn_call_op(t, op) && !pl_is_raw_read(t, op))
			return IR_NOVAL;
		bool same = op->descr && !strcmp(ir_strtext(t, op->descr), d);
		if (op->opc == IR_SETFIELD_GC && op->nargs == 2 && same) {
			if (op->args[0] == o)
				return pl_cptr_name(t, op->args[1])
					   ? op->args[1]
					   : IR_NOVAL;
			if (!fresh)
				return IR_NOVAL; /* may be the object */
		}
		if (!fresh && !via && op->opc == IR_GETFIELD_GC_R &&
		    op->nargs == 1 && same && op->args[0] == o) {
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
 * passes on every run (sure_pass), no call, no read of the field (of an
 * object that may be this one: older_than), no other use of the object
 * than accesses of its other fields (a new list's strategy set twice).  An
 * object the trace allocated may also pass guards, and be stored into another
 * such object, between the stores: the optimizer keeps it virtual there, its
 * fields at an exit go into the resume data the log does not print, and the
 * heap model leaves out fresh objects nothing outside has reached (since
 * session 37: a list json_pretty makes empty, pushes on an inlined frame's
 * stack and fills before the call_assembler that takes the frame).  A role
 * whose occurrences the traces have in different numbers is tried again without
 * such stores (unite_live); a name left out stays apart, which only proves
 * less. An item of an array the trace allocated, at a constant index, is
 * dropped the same way (item_overwritten). */
static bool item_overwritten(const ir_trace *t, uint32_t i);

/* Whether X, an object T allocated, is out of a call's sight at op AT: no
 * op from its allocation to AT takes it but as the object of a field
 * access (used_at: an item store, or a store of X into any object, counts
 * as a use).  Nothing else holds it, so a call that is not passed it
 * cannot read it (the next store of the field is then the one PyPy writes
 * when the object escapes; topo_sort's sorted() sets a new list's
 * strategy, calls ll_kvi on a set's storage, and sets the strategy
 * again). */
static bool unseen_by_calls(const ir_trace *t, ir_vid x, uint32_t at)
{
	if (!ir_allocated(t, x))
		return false;
	for (uint32_t k = ir_val(t, x)->def + 1; k <= at && k < t->nops; k++)
		if (used_at(&t->ops[k], x))
			return false;
	return true;
}

/* Whether V, a value of T, existed before X, an object T allocated, was
 * made: an input, a constant, or the result of an earlier op.  A new
 * object is none of those, so an access through V is no access of X
 * (bignum_digits' loop reads the strategy of the list it iterates over
 * between the two stores of a new list's strategy). */
static bool older_than(const ir_trace *t, ir_vid v, ir_vid x)
{
	uint32_t d = ir_defop(t, v);
	return ir_allocated(t, x) && (d == UINT32_MAX || d < ir_defop(t, x));
}

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
	/* whether something may hold X by op K (unseen_by_calls), kept up
	 * to date as K moves on */
	bool held = !unseen_by_calls(t, x, i);
	for (uint32_t k = i + 1; k < t->nops; k++) {
		const ir_op *op = &t->ops[k];
		bool same = op->descr && !strcmp(ir_strtext(t, op->descr), d);
		if (op->opc == IR_SETFIELD_GC && op->nargs == 2 &&
		    op->args[0] == x && same)
			return op->args[1] != x;
		/* the field of an object that is not X */
		if (same && op->nargs > 0 && !used_at(op, x) &&
		    older_than(t, op->args[0], x))
			same = false;
		bool guard = ir_op_has((ir_opcode)op->opc, IRF_GUARD);
		held = held || used_at(op, x);
		if ((guard && !fresh && !sure_pass(t, op)) ||
		    (pn_call_op(t, op) && held) ||
		    ir_op_has((ir_opcode)op->opc, IRF_END) || same)
			return false;
		if (fresh ? escapes_at(t, op, x) : used_at(op, x))
			return false;
	}
	return false;
}

/* Whether the index of item access OP of T is a constant that is no
 * negative number, in *C (a negative one is taken as unknown). */
static bool item_index(const ir_trace *t, const ir_op *op, uint64_t *c)
{
	return pl_const_index(t, op, c) && (int64_t)*c >= 0;
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
	uint64_t c, d;
	ir_vid x = st->nargs == 3 ? st->args[0] : IR_NOVAL;
	if (!item_index(t, st, &c) || x == IR_NOVAL || !ir_allocated(t, x))
		return false;
	for (uint32_t k = ir_val(t, x)->def + 1; k < i; k++)
		if (escapes_at(t, &t->ops[k], x) &&
		    !(t->ops[k].args[0] == x && item_index(t, &t->ops[k], &d)))
			return false;
	for (uint32_t k = i + 1; k < t->nops; k++) {
		const ir_op *op = &t->ops[k];
		bool item = (op->opc == IR_SETARRAYITEM_GC ||
			     op->opc == IR_GETARRAYITEM_GC_I ||
			     op->opc == IR_GETARRAYITEM_GC_R) &&
			    op->nargs >= 2 && op->args[0] == x &&
			    op->descr == st->descr;
		if (item && op->opc == IR_SETARRAYITEM_GC &&
		    item_index(t, op, &d) && d == c)
			return op->args[2] != x;
		if (pn_call_op(t, op) || ir_op_has((ir_opcode)op->opc, IRF_END))
			return false;
		if (item) {
			if (!item_index(t, op, &d) || d == c)
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
uint32_t pn_rec_obj(ptr_names *pn, uint32_t i)
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

/* The objects ORIG's names are by its recording (pn_rec_obj). */
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
		uint32_t x = pn_rec_obj(pn, o[i].name);
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

const call_pairs *pn_paired_calls(ptr_names *pn, const pl_pair *p)
{
	call_pairs *cp = &pn->calls;
	if (!cp->done) {
		cp->done = true;
		uint32_t *c, *o, nc;
		if (!pl_paired_calls(p, &c, &nc, &o))
			return NULL;
		cp->orig = malloc((nc + 1) * sizeof *cp->orig);
		cp->opt = malloc((nc + 1) * sizeof *cp->opt);
		/* only a pairing no other could replace says where a
		 * stretch ends (three frames run against two: which one the
		 * optimizer dropped is not known) */
		cp->ok = cp->orig && cp->opt && pl_calls_forced(p, c, nc, o);
		for (uint32_t k = 0; cp->ok && k < nc; k++)
			if (c[k] != UINT32_MAX && o[k] != UINT32_MAX) {
				cp->orig[cp->n] = o[k];
				cp->opt[cp->n++] = c[k];
			}
		free(c);
		free(o);
	}
	return cp->ok ? cp : NULL;
}

/* The number of the calls CALLS (N op indices, in order) of piece P
 * before op X. */
static uint32_t stretch_of(const uint32_t *calls, uint32_t n, const piece *p,
			   uint32_t x)
{
	uint32_t s = 0;
	for (uint32_t k = 0; k < n && calls[k] < x; k++)
		s += calls[k] >= p->from && calls[k] < p->to;
	return s;
}

/* Group [I, J) in piece K of PC when the two traces' pieces make different
 * numbers of calls (unite_by_piece): the stretches are bounded by the
 * calls both traces make (CP), and in a stretch where both traces have as
 * many occurrences of the role they pair in order.  The optimizer moves
 * no guard across a call, and a call it removed (a loop-invariant one
 * whose result it knows, a cond_call it knew not to run) bounds nothing:
 * parking_garage's bridges guard an object's map after a call_assembler,
 * where the original makes a call the optimized trace does not. */
static void unite_by_stretch(ptr_names *pn, piece pc[2][2], uint32_t k,
			     uint32_t i, uint32_t j, const call_pairs *cp)
{
	const uint32_t *calls[2] = {cp->orig, cp->opt};
	uint32_t *st = malloc((j - i) * sizeof *st);
	if (!st) {
		pn->oom = true;
		return;
	}
	for (uint32_t x = i; x < j; x++) {
		const ptr_occ *o = &pn->occ[x];
		const piece *p = &pc[o->side][k];
		st[x - i] = o->op >= p->from && o->op < p->to
				? stretch_of(calls[o->side], cp->n, p, o->op)
				: UINT32_MAX;
	}
	for (uint32_t s = 0; s <= cp->n; s++) {
		uint32_t a[2] = {0, 0};
		for (uint32_t x = i; x < j; x++)
			a[pn->occ[x].side] += st[x - i] == s;
		if (a[0] == 0 || a[0] != a[1])
			continue;
		for (uint32_t x = i, y = i, n = 0; n < a[0]; n++, x++, y++) {
			while (pn->occ[x].side != 0 || st[x - i] != s)
				x++;
			while (pn->occ[y].side != 1 || st[y - i] != s)
				y++;
			pn_unite(pn, pn->occ[x].name, pn->occ[y].name);
		}
	}
	free(st);
}

/* Whether op OP of T is a call of a ConstClass function the heap model
 * makes an event of (pn_call_op), the calls unite_call_args pairs. */
static bool fn_call(const ir_trace *t, const ir_op *op)
{
	return pn_call_op(t, op) && op->nargs > 0 &&
	       ir_val(t, op->args[0])->tag == IR_VAL_CONST_CLASS;
}

/* The number of calls of T before op I (all of them with I = T->nops)
 * that call what op A of U calls (pl_same_call). */
static uint32_t calls_like(const ir_trace *t, uint32_t i, const ir_trace *u,
			   const ir_op *a)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < i; k++)
		n +=
		    fn_call(t, &t->ops[k]) && pl_same_call(t, &t->ops[k], u, a);
	return n;
}

/* The ConstPtr arguments in the same place of the K-th call of a function
 * in both traces, when both call it (the same op and descr) as many
 * times, name one object.  The optimizer passes a residual call what the
 * recorded run passed, a box it may have replaced by a constant of the
 * same object, and it removes no call of a function it calls as often;
 * the roles miss such an argument when the call's other arguments are
 * computed differently (config_lexer's "%s" formatting appends the
 * format string's tail from ConstPtr(a), 15 to strlen(a), where the
 * optimized trace appends from ConstPtr(b), 15 to 15, b the name the
 * head's append gave it). */
static void unite_call_args(ptr_names *pn, const pl_pair *p)
{
	const ir_trace *o = p->orig, *t = p->opt;
	for (uint32_t i = 0; i < o->nops && !pn->oom; i++) {
		const ir_op *a = &o->ops[i];
		if (!fn_call(o, a))
			continue;
		uint32_t x = UINT32_MAX;
		for (uint32_t j = 0; j < a->nargs && x == UINT32_MAX; j++)
			if (pl_cptr_name(o, a->args[j]))
				x = j;
		if (x == UINT32_MAX)
			continue;
		uint32_t nth = calls_like(o, i, o, a), n = 0, k = UINT32_MAX;
		for (uint32_t y = 0; y < t->nops; y++)
			if (fn_call(t, &t->ops[y]) &&
			    pl_same_call(t, &t->ops[y], o, a)) {
				if (n == nth)
					k = y;
				n++;
			}
		if (k == UINT32_MAX || n != calls_like(o, o->nops, o, a))
			continue;
		const ir_op *b = &t->ops[k];
		for (uint32_t j = x; j < a->nargs && j < b->nargs; j++) {
			const char *ma = pl_cptr_name(o, a->args[j]);
			const char *mb = pl_cptr_name(t, b->args[j]);
			uint32_t u = ma ? pn_name_index(pn, ma) : UINT32_MAX;
			uint32_t v = mb ? pn_name_index(pn, mb) : UINT32_MAX;
			if (u != UINT32_MAX && v != UINT32_MAX)
				pn_unite(pn, u, v);
		}
	}
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
		if (ncalls != cb[1][pc[1][k].to] - cb[1][pc[1][k].from]) {
			/* the calls are not aligned: by the ones both make */
			const call_pairs *both = pn_paired_calls(pn, p);
			if (both)
				unite_by_stretch(pn, pc, k, i, j, both);
			continue;
		}
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
	pn.recops = nrec;
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
		unite_call_args(&pn, p);
	if (!pn.oom)
		pn_pair_cells(&pn, p);
	if (!pn.oom)
		pn_pair_left_apart(&pn, p, norig);
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
	free(pn.runptr);
	free(cb[0]);
	free(cb[1]);
	free(pn.calls.orig);
	free(pn.calls.opt);
}
