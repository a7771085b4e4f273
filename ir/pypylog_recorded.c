/*
 * pypylog_recorded.c - what the recording of a trace proves about its
 * constants (docs/pypy.md, "What the recording proves").
 *
 * PyPy's unoptimized trace is the record of one real run: every guard in
 * it passed, on the values that run had.  A guard whose subject is known
 * to be a ConstPtr object therefore states a fact about that object on
 * that run, and when the fact is about something no later run can change
 * it holds on every run:
 *  - guard_value(v, ConstPtr(K)) (or a passed ptr_eq against K) makes v
 *    the object K; two constants the same v was equal to are one object,
 *    and a ptr_eq that was false keeps two objects apart;
 *  - two reads of field d of an object older than the trace (an input or
 *    a constant) with nothing between them that may write d there (an
 *    opaque call, a store of d through anything but the trace's own
 *    allocations) read one value: their guards are on one value;
 *  - guard_class(v, C) with v the object K: K's class is C (an object's
 *    class never changes);
 *  - y = getfield(v, d) of an immutable field d (the descr ends in
 *    " pure") with v the object K: any guard on y (its value, class,
 *    nullness, truth) holds of K.d (a quasi-immutable field can change,
 *    but only by invalidating the loop, the condition under which the
 *    heap model already takes such fields as fixed).
 * The optimizer knows these facts too: it reads the constants' memory
 * when it optimizes (a guard_class on a promoted value is dropped).  The
 * facts become the same guards at the start of both traces: they remove
 * runs that cannot happen and change nothing else.  Only the recorded
 * ops count: the first NREC ops of the pair's ORIG (a loop's second
 * iteration is a copy, not a record).
 * Sections: equal values; collecting facts; the pair's new traces.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"
#include "sem.h"
#include "strbuf.h"

/* ---- equal values ------------------------------------------------------- */

typedef struct rec {
	const ir_trace *t;
	uint32_t nrec;
	ir_vid *up;   /* union-find over the values of T: equal on the run */
	ir_vid *kptr; /* per root: a ConstPtr in its class, or IR_NOVAL */
	/* Per root: whether the integer the class had on the run is known
	 * (run_ints), and that integer.  IBAD: two pins disagreed, which
	 * a run cannot do; then no integer is taken as known. */
	bool *ik;
	uint64_t *iv;
	bool ibad;
	/* Per value: the first op by which an allocation may have escaped
	 * (UINT32_MAX: never; escapes). */
	uint32_t *esc;
} rec;

static void rec_close(rec *r)
{
	free(r->up);
	free(r->kptr);
	free(r->ik);
	free(r->iv);
	free(r->esc);
}

static ir_vid find(rec *r, ir_vid v)
{
	return pl_uf_find(r->up, v);
}

/* Unites the classes of A and B, and what the run fixed of them: a
 * constant integer in a class, or a pin (run_ints). */
static bool known_int(const rec *r, ir_vid v, uint64_t *x);

/* Unites the classes of A and B, and what the run fixed of them: a
 * constant integer in a class (which stays its root), or a pin
 * (run_ints). */
static void unite(rec *r, ir_vid a, ir_vid b)
{
	a = find(r, a);
	b = find(r, b);
	if (a == b)
		return;
	uint64_t xa, xb;
	bool ka = known_int(r, a, &xa), kb = known_int(r, b, &xb);
	if (ir_val(r->t, b)->tag == IR_VAL_CONST_INT) {
		ir_vid c = a;
		a = b;
		b = c;
	}
	r->up[b] = a;
	if (ka && kb)
		r->ibad |= xa != xb;
	else if ((ka || kb) && ir_val(r->t, a)->tag != IR_VAL_CONST_INT) {
		r->ik[a] = true;
		r->iv[a] = ka ? xa : xb;
	}
}

static bool is_cptr(const ir_trace *t, ir_vid v)
{
	return v != IR_NOVAL && ir_val(t, v)->tag == IR_VAL_CONST_PTR;
}

/* The comparison op I is passed as true (guard_true of ptr_eq, guard_false
 * of ptr_ne) or false, in the recorded ops; -1 when no guard says. */
static int ptr_cmp_outcome(const rec *r, uint32_t i)
{
	const ir_trace *t = r->t;
	ir_vid res = t->ops[i].result;
	bool eq = t->ops[i].opc == IR_PTR_EQ;
	for (uint32_t j = i + 1; j < r->nrec; j++) {
		const ir_op *g = &t->ops[j];
		if (g->nargs != 1 || g->args[0] != res)
			continue;
		if (g->opc == IR_GUARD_TRUE)
			return eq;
		if (g->opc == IR_GUARD_FALSE)
			return !eq;
	}
	return -1;
}

/* Whether V exists before the trace runs: an input or a ConstPtr (so no
 * allocation of the trace returns it). */
static bool preexisting(const ir_trace *t, ir_vid v)
{
	ir_valtag tag = (ir_valtag)ir_val(t, v)->tag;
	return tag == IR_VAL_INPUT || tag == IR_VAL_CONST_PTR;
}

static bool allocation(const ir_trace *t, ir_vid v)
{
	const ir_value *x = ir_val(t, v);
	return x->tag == IR_VAL_OP &&
	       ir_op_has((ir_opcode)t->ops[x->def].opc, IRF_ALLOC);
}

static bool field_read(const ir_op *op)
{
	return (op->opc == IR_GETFIELD_GC_I || op->opc == IR_GETFIELD_GC_R) &&
	       op->nargs == 1 && op->descr;
}

/* Whether an allocation X may have escaped by op J, J included
 * (escapes). */
static bool escaped_by(const rec *r, ir_vid x, uint32_t j)
{
	return r->esc[x] <= j;
}

/* Whether a store through Y may write a field of X: Y may be X.  An
 * object the trace allocates is none of the objects that exist before
 * it (inputs, constants) nor another allocation; anything else (a value
 * read from memory, a call's result) may be any object, X too once it
 * escaped.  Such an X may be an allocation too, but only one made before
 * X was read and escaped by then (stored, or passed to a call). */
static bool may_alias(const rec *r, ir_vid y, ir_vid x)
{
	const ir_trace *t = r->t;
	if (y == x)
		return true;
	if (allocation(t, x))
		return !preexisting(t, y) && !allocation(t, y);
	if (!allocation(t, y))
		return true;
	if (preexisting(t, x))
		return false;
	uint32_t xd = ir_val(t, x)->def, yd = ir_val(t, y)->def;
	return ir_val(t, x)->tag != IR_VAL_OP ||
	       (yd < xd && escaped_by(r, y, xd));
}

/* Whether op OP is a store of X as the value into an allocation of T
 * other than X: X then escapes when that holder does (escapes). */
static bool stored_into_new(const ir_trace *t, const ir_op *op, ir_vid x)
{
	return (op->opc == IR_SETFIELD_GC || op->opc == IR_SETARRAYITEM_GC) &&
	       op->nargs >= 2 && op->args[op->nargs - 1] == x &&
	       op->args[0] != x && allocation(t, op->args[0]);
}

/* Whether op OP of T lets a value X out by itself: X is an argument of
 * OP other than as the object of a field or item access, the value
 * stored into another allocation (stored_into_new), or the subject of a
 * guard, a pointer comparison or a force_virtualizable (its EffectInfo
 * reads and writes nothing; ir_py_clears_vable); a stored X or an X
 * passed to a call may reach any call after. */
static bool escapes_at(const ir_trace *t, const ir_op *op, ir_vid x)
{
	ir_opcode c = (ir_opcode)op->opc;
	uint32_t cond;
	bool obj = field_read(op) || c == IR_SETFIELD_GC ||
		   c == IR_SETARRAYITEM_GC || c == IR_GETARRAYITEM_GC_I ||
		   c == IR_GETARRAYITEM_GC_R;
	bool looks = ir_op_has(c, IRF_GUARD) || c == IR_PTR_EQ ||
		     c == IR_PTR_NE || ir_op_has(c, IRF_MARK) ||
		     ir_py_clears_vable(t, op, &cond) != UINT32_MAX;
	bool into_new = stored_into_new(t, op, x);
	for (uint32_t k = 0; k < op->nargs; k++)
		if (op->args[k] == x && !looks && !(obj && k == 0) &&
		    !(into_new && k + 1 == op->nargs))
			return true;
	return false;
}

/* Fills R->esc.  An allocation escapes at its first op that lets it out
 * (escapes_at); stored into another allocation Y, it escapes from the
 * store on once what Y holds may be reached other than through Y's own
 * accesses: Y escapes, Y is passed or stored anywhere (a value read back
 * from there is Y under another name), or a reference read from Y is let
 * out or stored (it may be an object stored in Y).  A frame's locals
 * array lives in the frame, which only goes to call_assembler at the end
 * (spell_edits' bridges read a constant back from a generator frame's
 * locals after a call and guard its class).  A few rounds reach the
 * nesting real traces have; the result only errs early. */
static void escapes(rec *r)
{
	const ir_trace *t = r->t;
	uint32_t *use = malloc((t->nvals + 1) * sizeof *use);
	uint32_t *open = malloc((t->nvals + 1) * sizeof *open);
	for (ir_vid v = 0; v < t->nvals; v++)
		r->esc[v] = UINT32_MAX;
	if (!use || !open) { /* every allocation escapes at once */
		for (ir_vid v = 0; v < t->nvals; v++)
			r->esc[v] = 0;
		free(use);
		free(open);
		return;
	}
	for (ir_vid v = 0; v < t->nvals; v++)
		use[v] = open[v] = UINT32_MAX;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t k = 0; k < op->nargs; k++) {
			ir_vid x = op->args[k];
			bool out = escapes_at(t, op, x);
			if (out && allocation(t, x) && r->esc[x] > i)
				r->esc[x] = i;
			if ((out || stored_into_new(t, op, x)) && use[x] > i)
				use[x] = i;
			if (k > 0 && open[x] > i)
				open[x] = i;
		}
	}
	/* A reference read from V is let out when what is read from it
	 * is (it may be an object stored in an object stored in V): later
	 * reads first. */
	for (uint32_t i = t->nops; i-- > 0;) {
		const ir_op *op = &t->ops[i];
		bool ref_read = (op->opc == IR_GETFIELD_GC_R ||
				 op->opc == IR_GETARRAYITEM_GC_R) &&
				op->nargs >= 1 && op->result != IR_NOVAL;
		if (!ref_read)
			continue;
		ir_vid v = op->args[0], w = op->result;
		if (use[w] < use[v])
			use[v] = use[w];
		if (use[w] < open[v])
			open[v] = use[w];
	}
	bool changed = true;
	for (int round = 0; changed && round < 8; round++) {
		changed = false;
		for (uint32_t i = 0; i < t->nops; i++) {
			const ir_op *op = &t->ops[i];
			ir_vid x = op->nargs ? op->args[op->nargs - 1] : 0;
			if (!op->nargs || !allocation(t, x) ||
			    !stored_into_new(t, op, x))
				continue;
			ir_vid y = op->args[0];
			uint32_t e = open[y] < r->esc[y] ? open[y] : r->esc[y];
			e = e < i ? i : e;
			if (e < r->esc[x]) {
				r->esc[x] = e;
				changed = true;
			}
		}
	}
	free(use);
	free(open);
}

/* Whether OP is a conditional call that did not call on the run: its
 * condition is an integer the run fixed (run_ints) for which it makes no
 * call.  kv_parser's string builder grows when its size is 0, a size
 * the unoptimized trace computes from constants (int_mul(1, 4) + 13);
 * nothing it could write changed on the run. */
static bool not_called(const rec *r, const ir_op *op)
{
	ir_pycond cc = ir_py_cond_of(r->t, op);
	uint64_t x;
	return cc != IR_PYCOND_NONE && op->nargs >= 1 &&
	       known_int(r, op->args[0], &x) && !ir_py_cond_calls(cc, x);
}

/* Whether op OP leaves field D (a descr) of X as it was on the run:
 * pure ops, guards, markers, reads, item stores (items are no fields),
 * allocations, calls the model takes as functions without effect
 * (ir_pycall_of) or whose descr keeps D, a call an allocation X has not
 * escaped to (ESCAPED: by OP, OP included; escapes_at), a conditional
 * call that did not call on the run (not_called), and field stores
 * of another field or through an object that is not X (may_alias).  Anything
 * else (an opaque call, an op this list does not name) may write D. */
static bool keeps_field(const rec *r, const ir_op *op, uint32_t d, ir_vid x,
			bool escaped)
{
	const ir_trace *t = r->t;
	ir_opcode c = (ir_opcode)op->opc;
	uint32_t cond;
	if (c == IR_SETFIELD_GC)
		return op->nargs == 2 && op->descr &&
		       (strcmp(ir_strtext(t, op->descr), ir_strtext(t, d)) ||
			!may_alias(r, op->args[0], x));
	if (ir_py_clears_vable(t, op, &cond) != UINT32_MAX)
		return !ir_py_is_vable_token(ir_strtext(t, d));
	if (c == IR_OPAQUE && allocation(t, x) && !escaped)
		return true; /* no call reaches it yet */
	if (c == IR_OPAQUE && not_called(r, op))
		return true;
	if (c == IR_OPAQUE)
		return ir_pycall_of(t, op) != IR_PYCALL_OPAQUE ||
		       ir_py_call_keeps(ir_op_name(t, op),
					op->descr ? ir_strtext(t, op->descr)
						  : NULL,
					ir_strtext(t, d));
	if (c == IR_SETARRAYITEM_GC || c == IR_GETARRAYITEM_GC_I ||
	    c == IR_GETARRAYITEM_GC_R || field_read(op))
		return true;
	if (ir_op_has(c, IRF_CALL) || ir_op_has(c, IRF_OBS) ||
	    ir_op_has(c, IRF_END))
		return false;
	return ir_op_has(c, IRF_PURE) || ir_op_has(c, IRF_OVF) ||
	       ir_op_has(c, IRF_GUARD) || ir_op_has(c, IRF_MARK) ||
	       ir_op_has(c, IRF_ALLOC);
}

static bool item_read(const ir_op *op)
{
	return (op->opc == IR_GETARRAYITEM_GC_I ||
		op->opc == IR_GETARRAYITEM_GC_R) &&
	       op->nargs == 2 && op->descr;
}

/* Whether op OP leaves item IDX (of array descr D) of X as it was on
 * the run: as keeps_field, but an item store writes it unless its
 * descr is another, its array is not X (may_alias) or its index is
 * known to be another; a string copy writes the items of its own
 * descr only; a field store writes no item. */
static bool keeps_item(rec *r, const ir_op *op, uint32_t d, ir_vid x,
		       uint64_t idx, bool escaped)
{
	const ir_trace *t = r->t;
	const char *dt = ir_strtext(t, d);
	uint64_t other;
	if (op->opc == IR_SETARRAYITEM_GC)
		return op->nargs == 3 && op->descr &&
		       (strcmp(ir_strtext(t, op->descr), dt) ||
			!may_alias(r, op->args[0], x) ||
			(known_int(r, op->args[1], &other) && other != idx));
	if (op->opc == IR_SETFIELD_GC)
		return true;
	const char *copied = ir_py_str_copy(t, op);
	if (copied)
		return strcmp(copied, dt) != 0;
	return keeps_field(r, op, d, x, escaped);
}

/* Whether op B of R's trace reads field D of X (or of a value the run
 * showed to be X) with GET; with IDX, item *IDX of array descr D. */
static bool reads(rec *r, const ir_op *b, uint32_t d, ir_vid x, ir_opcode get,
		  const uint64_t *idx)
{
	const ir_trace *t = r->t;
	uint64_t at;
	bool acc =
	    idx ? item_read(b) && known_int(r, b->args[1], &at) && at == *idx
		: field_read(b);
	return acc && b->opc == get && find(r, b->args[0]) == find(r, x) &&
	       !strcmp(ir_strtext(t, b->descr), ir_strtext(t, d));
}

/* The op after I that reads field D of X (with GET; with IDX, item *IDX
 * of array descr D) before anything that may write it there, or
 * UINT32_MAX. */
static uint32_t next_read(rec *r, uint32_t i, uint32_t d, ir_vid x,
			  ir_opcode get, const uint64_t *idx)
{
	const ir_trace *t = r->t;
	bool fresh = allocation(t, x);
	for (uint32_t j = i + 1; j < r->nrec; j++) {
		const ir_op *b = &t->ops[j];
		if (reads(r, b, d, x, get, idx))
			return j;
		bool escaped = fresh && escaped_by(r, x, j);
		if (idx ? !keeps_item(r, b, d, x, *idx, escaped)
			: !keeps_field(r, b, d, x, escaped))
			break;
	}
	return UINT32_MAX;
}

/* A read of field D of an object, after a store there or another read
 * with nothing between them that may write D there, reads on the run
 * what was stored or read (the cell did not change): unites them.  PyPy's
 * recorder reads a field again when its heap cache lost it (an object
 * stored into an array forgets what it knew), and each read has its own
 * guard_value with a constant of its own name; a frame the trace made
 * gets its code object stored, and the code read back is promoted under
 * another name. */
static void unchanged_reads(rec *r)
{
	const ir_trace *t = r->t;
	for (uint32_t i = 0; i < r->nrec; i++) {
		const ir_op *a = &t->ops[i];
		ir_vid x, v;
		ir_opcode get;
		if (field_read(a)) {
			x = a->args[0];
			v = a->result;
			get = (ir_opcode)a->opc;
		} else if (a->opc == IR_SETFIELD_GC && a->nargs == 2 &&
			   a->descr && ir_val(t, a->args[1])->kind != 'f') {
			/* An integer store too (since session 34): RPython
			 * stores a value of the field's type, which reads
			 * back as it was (a formatter's position). */
			x = a->args[0];
			v = a->args[1];
			get = ir_val(t, v)->kind == 'r' ? IR_GETFIELD_GC_R
							: IR_GETFIELD_GC_I;
		} else
			continue;
		/* The next read carries on the chain. */
		uint32_t j = next_read(r, i, a->descr, x, get, NULL);
		if (j != UINT32_MAX)
			unite(r, v, t->ops[j].result);
	}
}

/* ---- integers on the run ----------------------------------------------- */

/* The integer V had on the run into *X, when known. */
static bool known_int(const rec *r, ir_vid v, uint64_t *x)
{
	if (r->ibad || v == IR_NOVAL || ir_val(r->t, v)->kind != 'i')
		return false;
	ir_vid k = pl_uf_find(r->up, v);
	const ir_value *c = ir_val(r->t, k);
	*x = c->tag == IR_VAL_CONST_INT ? c->cval : r->iv[k];
	return c->tag == IR_VAL_CONST_INT || r->ik[k];
}

/* Records that the integer V had on the run is X; whether that is new. */
static bool pin(rec *r, ir_vid v, uint64_t x)
{
	uint64_t old;
	if (r->ibad || ir_val(r->t, v)->kind != 'i')
		return false;
	if (known_int(r, v, &old)) {
		r->ibad = old != x;
		return r->ibad;
	}
	ir_vid k = find(r, v);
	r->ik[k] = true;
	r->iv[k] = sem_mask(r->t->width, x);
	return true;
}

/* Pins A and B to one value when one of them is known. */
static bool pin_equal(rec *r, ir_vid a, ir_vid b)
{
	uint64_t x;
	if (known_int(r, a, &x))
		return pin(r, b, x);
	if (known_int(r, b, &x))
		return pin(r, a, x);
	return false;
}

/* Whether guard G of T passed on an int_eq of its argument (a
 * guard_true of int_eq, a guard_false of int_ne): that op, else NULL. */
static const ir_op *passed_eq(const ir_trace *t, const ir_op *g)
{
	if (g->nargs != 1 ||
	    (g->opc != IR_GUARD_TRUE && g->opc != IR_GUARD_FALSE))
		return NULL;
	uint32_t d = ir_defop(t, g->args[0]);
	if (d == UINT32_MAX || t->ops[d].nargs != 2)
		return NULL;
	ir_opcode want = g->opc == IR_GUARD_TRUE ? IR_INT_EQ : IR_INT_NE;
	return t->ops[d].opc == want ? &t->ops[d] : NULL;
}

/* Pins the result of pure integer op OP when its arguments are known,
 * and an argument of an addition or subtraction when the result and the
 * other argument are (the run's values wrap as sem_eval's do). */
static bool eval_op(rec *r, const ir_op *op)
{
	const ir_trace *t = r->t;
	uint64_t a[3], y, x;
	if (!sem_evaluable((ir_opcode)op->opc) || op->nargs > 3 ||
	    op->result == IR_NOVAL)
		return false;
	bool all = true;
	for (uint32_t k = 0; k < op->nargs; k++)
		all = known_int(r, op->args[k], &a[k]) && all;
	if (all)
		return pin(r, op->result,
			   sem_eval((ir_opcode)op->opc, t->width, a, NULL));
	ir_opcode twin = ir_op_wrapping((ir_opcode)op->opc);
	if ((twin != IR_INT_ADD && twin != IR_INT_SUB) || op->nargs != 2 ||
	    !known_int(r, op->result, &y))
		return false;
	for (uint32_t k = 0; k < 2; k++) {
		if (!known_int(r, op->args[1 - k], &x))
			continue;
		uint64_t b[2] = {y, x};
		ir_opcode inv = IR_INT_SUB; /* y - x: an addend, a minuend */
		if (twin == IR_INT_SUB && k == 0)
			inv = IR_INT_ADD; /* a - x = y: a = y + x */
		else if (twin == IR_INT_SUB)
			b[0] = x, b[1] = y; /* x - a = y: a = x - y */
		return pin(r, op->args[k], sem_eval(inv, t->width, b, NULL));
	}
	return false;
}

/* The integers the recorded ops fix on the run: constants, what a
 * passed guard_value or int_eq compared them with, and what follows by
 * the ops' semantics.  Every pin is the run's own value, so any order
 * gives the same pins; it repeats until nothing changes. */
static void run_ints(rec *r)
{
	const ir_trace *t = r->t;
	for (bool changed = true; changed && !r->ibad;) {
		changed = false;
		for (uint32_t i = 0; i < r->nrec; i++) {
			const ir_op *op = &t->ops[i];
			const ir_op *eq = passed_eq(t, op);
			if (op->opc == IR_GUARD_VALUE && op->nargs == 2)
				changed |=
				    pin_equal(r, op->args[0], op->args[1]);
			else if (eq)
				changed |=
				    pin_equal(r, eq->args[0], eq->args[1]);
			else
				changed |= eval_op(r, op);
		}
	}
}

/* ---- items read again --------------------------------------------------- */

/* As unchanged_reads, for array items at an index the run fixed: a
 * generator's frame is no virtualizable, so PyPy's trace stores the
 * constant True on the frame's value stack, reads it back and guards
 * its class and value.  An integer item narrower than a word reads back
 * the stored value only when it fits, so only reads of one are united
 * with its stores. */
static void unchanged_items(rec *r)
{
	const ir_trace *t = r->t;
	for (uint32_t i = 0; i < r->nrec; i++) {
		const ir_op *a = &t->ops[i];
		bool set =
		    a->opc == IR_SETARRAYITEM_GC && a->nargs == 3 && a->descr;
		uint64_t idx;
		if ((!set && !item_read(a)) || !known_int(r, a->args[1], &idx))
			continue;
		ir_vid v = set ? a->args[2] : a->result;
		char kind = ir_val(t, v)->kind;
		bool is_signed;
		if (set && kind == 'i' &&
		    ir_py_item_bits(ir_strtext(t, a->descr), &is_signed))
			continue;
		ir_opcode get = set ? (kind == 'r' ? IR_GETARRAYITEM_GC_R
						   : IR_GETARRAYITEM_GC_I)
				    : (ir_opcode)a->opc;
		if (kind != 'r' && kind != 'i')
			continue;
		uint32_t j = next_read(r, i, a->descr, a->args[0], get, &idx);
		if (j != UINT32_MAX)
			unite(r, v, t->ops[j].result);
	}
}

/* Unites every value with the values the run showed it equal to. */
static void link_values(rec *r)
{
	const ir_trace *t = r->t;
	unchanged_reads(r);
	for (uint32_t i = 0; i < r->nrec; i++) {
		const ir_op *op = &t->ops[i];
		if (op->nargs != 2)
			continue;
		bool cmp = op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE;
		/* Two references a passed comparison found equal are one
		 * object on the run, constants or not (a bridge's fact that
		 * an input is what a field held). */
		if ((op->opc == IR_GUARD_VALUE &&
		     (is_cptr(t, op->args[0]) || is_cptr(t, op->args[1]))) ||
		    (cmp && ptr_cmp_outcome(r, i) == 1))
			unite(r, op->args[0], op->args[1]);
	}
	/* Items need their indexes; what they read may be a field's
	 * object or an index. */
	run_ints(r);
	unchanged_items(r);
	unchanged_reads(r);
	run_ints(r);
}

/* The classes of equal values, and the ConstPtr of each.  Integers the
 * run cannot have had (two pins that disagree: guards no run passes, or
 * a log that is not PyPy's) make every union they led to suspect: then
 * the values are linked again without integers. */
static void equalities(rec *r)
{
	const ir_trace *t = r->t;
	link_values(r);
	if (r->ibad) {
		for (ir_vid v = 0; v < t->nvals; v++)
			r->up[v] = v;
		link_values(r);
	}
	for (ir_vid v = 0; v < t->nvals; v++)
		r->kptr[v] = IR_NOVAL;
	for (ir_vid v = 0; v < t->nvals; v++)
		if (is_cptr(t, v) && r->kptr[find(r, v)] == IR_NOVAL)
			r->kptr[find(r, v)] = v;
}

/* The ConstPtr V is known to be, or IR_NOVAL. */
static ir_vid known_ptr(rec *r, ir_vid v)
{
	return v == IR_NOVAL ? IR_NOVAL : r->kptr[find(r, v)];
}

/* Analyses the run T's first NREC ops record into R; false when out of
 * memory.  R is to be closed either way. */
static bool rec_open(rec *r, const ir_trace *t, uint32_t nrec)
{
	size_t n = t->nvals + 1;
	*r = (rec){t,
		   nrec,
		   calloc(n, sizeof(ir_vid)),
		   calloc(n, sizeof(ir_vid)),
		   calloc(n, sizeof(bool)),
		   calloc(n, sizeof(uint64_t)),
		   false,
		   calloc(n, sizeof(uint32_t))};
	if (!r->up || !r->kptr || !r->ik || !r->iv || !r->esc)
		return false;
	for (ir_vid v = 0; v < t->nvals; v++)
		r->up[v] = v;
	escapes(r);
	equalities(r);
	return true;
}

/* ---- collecting facts --------------------------------------------------- */

/* One fact: guard OPC on SUBJ (a ConstPtr, or K.FIELD read with the
 * getfield GET), against ARG (IR_NOVAL: a one-argument guard).  ARG is
 * a value of the recorded trace (a constant). */
typedef struct fact {
	ir_opcode opc;
	ir_vid subj;
	int get; /* IR_NO_OP: the subject itself; else an ir_opcode */
	uint32_t field;
	ir_vid arg;
	/* GET an item read (getarrayitem_gc_*): its index. */
	uint64_t idx;
	/* A pure integer op between the read and the guard (the guard is
	 * on MID(y), y the value read, at argument MPOS; with two arguments
	 * (MTWO) the other one is the integer MVAL), or IR_NO_OP. */
	int mid;
	uint32_t mpos;
	bool mtwo;
	uint64_t mval;
	/* With MTWO, the other argument as a read of another constant
	 * instead of MVAL: OGET of OFIELD (item OIDX) of OSUBJ, or OSUBJ
	 * IR_NOVAL. */
	ir_vid osubj;
	int oget;
	uint32_t ofield;
	uint64_t oidx;
} fact;

typedef struct facts {
	fact *v;
	uint32_t n, cap;
	bool oom;
} facts;

static fact mkfact(ir_opcode opc, ir_vid subj, int get, uint32_t field,
		   ir_vid arg)
{
	return (fact){opc, subj,  get, field,	 arg,	   0, IR_NO_OP,
		      0,   false, 0,   IR_NOVAL, IR_NO_OP, 0, 0};
}

static bool same_fact(const fact *a, const fact *b)
{
	return a->opc == b->opc && a->subj == b->subj && a->get == b->get &&
	       a->field == b->field && a->arg == b->arg && a->idx == b->idx &&
	       a->mid == b->mid && a->mpos == b->mpos && a->mtwo == b->mtwo &&
	       a->mval == b->mval && a->osubj == b->osubj &&
	       a->oget == b->oget && a->ofield == b->ofield &&
	       a->oidx == b->oidx;
}

static void add(facts *fs, fact f)
{
	for (uint32_t i = 0; i < fs->n; i++)
		if (same_fact(&fs->v[i], &f))
			return;
	if (fs->n == fs->cap) {
		uint32_t cap = fs->cap ? 2 * fs->cap : 16;
		fact *v = realloc(fs->v, cap * sizeof *v);
		if (!v) {
			fs->oom = true;
			return;
		}
		fs->v = v;
		fs->cap = cap;
	}
	fs->v[fs->n++] = f;
}

/* Whether op OP is a guard that says something of its first argument
 * alone, or against a constant. */
static bool usable_guard(const ir_trace *t, const ir_op *op)
{
	switch ((int)op->opc) {
	case IR_GUARD_TRUE:
	case IR_GUARD_FALSE:
	case IR_GUARD_NONNULL:
	case IR_GUARD_ISNULL: return op->nargs == 1;
	case IR_GUARD_CLASS:
	case IR_GUARD_VALUE:
		return op->nargs == 2 && ir_is_const(t, op->args[1]);
	default: return false;
	}
}

/* Facts from the guards on V in the recorded ops, stated of SUBJ (through
 * field FIELD read by GET when GET is not IR_NO_OP), the guard on MID's
 * result when MID is an op (mid_ops). */
static void guards_on(rec *r, facts *fs, ir_vid v, fact base)
{
	const ir_trace *t = r->t;
	for (uint32_t i = 0; i < r->nrec; i++) {
		const ir_op *op = &t->ops[i];
		if (op->nargs == 0 || op->args[0] != v || !usable_guard(t, op))
			continue;
		/* A constant's own guard_value is the identity, stated
		 * apart (one_object); nullness of a constant is known. */
		if (base.get == IR_NO_OP && op->opc != IR_GUARD_CLASS)
			continue;
		fact f = base;
		f.opc = (ir_opcode)op->opc;
		f.arg = op->nargs == 2 ? op->args[1] : IR_NOVAL;
		add(fs, f);
	}
}

static ir_vid immutable_read(rec *r, const ir_op *op, uint64_t *idx);

/* Whether integer O of R's trace is read from a constant by something
 * that never changes (immutable_read), after Y is (the fact is taken
 * once, from the first read): F's other operand then. */
static bool other_read(rec *r, ir_vid y, ir_vid o, fact *f)
{
	uint32_t d = ir_defop(r->t, o);
	uint32_t dy = ir_defop(r->t, y);
	if (d == UINT32_MAX || dy == UINT32_MAX || d < dy)
		return false;
	const ir_op *op = &r->t->ops[d];
	ir_vid k = immutable_read(r, op, &f->oidx);
	if (k == IR_NOVAL || ir_val(r->t, op->result)->kind == 'r')
		return false;
	f->osubj = k;
	f->oget = (int)op->opc;
	f->ofield = op->descr;
	return true;
}

/* Facts from the guards on a pure integer op of the integer value Y read
 * from a constant and an integer the run fixed (int_is_true(K.intval), a
 * W_BoolObject's value; int_lt(2, K.length)), or another such read
 * (int_gt(K1.intval, K2.intval): a comparison of two constant integers
 * the optimizer folds, spell_edits' bridges), in BASE's terms: the op
 * is a function, so the guard holds of K on every run as on the
 * recorded one. */
static void mid_ops(rec *r, facts *fs, ir_vid y, fact base)
{
	const ir_trace *t = r->t;
	for (uint32_t i = 0; i < r->nrec; i++) {
		const ir_op *op = &t->ops[i];
		ir_opcode c = (ir_opcode)op->opc;
		if (!ir_op_has(c, IRF_PURE) || op->nargs == 0 ||
		    op->nargs > 2 || op->result == IR_NOVAL ||
		    ir_val(t, op->result)->kind != 'i')
			continue;
		for (uint32_t k = 0; k < op->nargs; k++) {
			ir_vid o = op->nargs == 2 ? op->args[1 - k] : IR_NOVAL;
			fact f = base;
			if (op->args[k] != y ||
			    (o != IR_NOVAL && !known_int(r, o, &f.mval) &&
			     !other_read(r, y, o, &f)))
				continue;
			f.mid = (int)c;
			f.mpos = k;
			f.mtwo = o != IR_NOVAL;
			guards_on(r, fs, op->result, f);
			break;
		}
	}
}

/* The constant op OP of R's trace reads something of that never changes
 * (an immutable field, a length, a string's char at an index the run
 * fixed, *IDX), or IR_NOVAL. */
static ir_vid immutable_read(rec *r, const ir_op *op, uint64_t *idx)
{
	const ir_trace *t = r->t;
	if (!op->descr || op->result == IR_NOVAL)
		return IR_NOVAL;
	const char *d = ir_strtext(t, op->descr);
	if ((op->opc == IR_GETFIELD_GC_I || op->opc == IR_GETFIELD_GC_R) &&
	    op->nargs == 1 &&
	    (ir_py_field_immutable(d) || ir_descr_is_length(d)))
		return known_ptr(r, op->args[0]);
	bool pure = op->flags & IR_OPF_PURE_ITEM;
	if ((op->opc == IR_GETARRAYITEM_GC_I ||
	     (pure && op->opc == IR_GETARRAYITEM_GC_R)) &&
	    op->nargs == 2 && (pure || ir_py_items_immutable(d)) &&
	    known_int(r, op->args[1], idx))
		return known_ptr(r, op->args[0]);
	return IR_NOVAL;
}

static void collect(rec *r, facts *fs)
{
	const ir_trace *t = r->t;
	/* Constants that are one object, or two. */
	for (ir_vid v = 0; v < t->nvals; v++) {
		ir_vid k = known_ptr(r, v);
		if (is_cptr(t, v) && k != IR_NOVAL && k != v)
			add(fs, mkfact(IR_PTR_EQ, k, IR_NO_OP, 0, v));
	}
	for (uint32_t i = 0; i < r->nrec; i++) {
		const ir_op *op = &t->ops[i];
		bool cmp = op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE;
		if (cmp && op->nargs == 2 && ptr_cmp_outcome(r, i) == 0) {
			ir_vid a = known_ptr(r, op->args[0]);
			ir_vid b = known_ptr(r, op->args[1]);
			if (a != IR_NOVAL && b != IR_NOVAL && a != b)
				add(fs, mkfact(IR_PTR_NE, a, IR_NO_OP, 0, b));
		}
	}
	/* Classes of constants, and their immutable fields. */
	for (ir_vid v = 0; v < t->nvals; v++) {
		ir_vid k = known_ptr(r, v);
		if (k != IR_NOVAL)
			guards_on(r, fs, v,
				  mkfact(IR_NO_OP, k, IR_NO_OP, 0, IR_NOVAL));
	}
	for (uint32_t i = 0; i < r->nrec; i++) {
		const ir_op *op = &t->ops[i];
		uint64_t idx = 0;
		ir_vid k = immutable_read(r, op, &idx);
		if (k == IR_NOVAL)
			continue;
		ir_vid y = op->result;
		ir_vid ky = known_ptr(r, y);
		fact f = mkfact(IR_NO_OP, k, (int)op->opc, op->descr, IR_NOVAL);
		f.idx = idx;
		if (ky != IR_NOVAL) { /* the field holds that object */
			f.opc = IR_GUARD_VALUE;
			f.arg = ky;
			add(fs, f);
		} else {
			guards_on(r, fs, y, f);
			mid_ops(r, fs, y, f);
		}
	}
}

/* ---- the pair's new traces ---------------------------------------------- */

static ir_vid const_in(ir_trace *d, const ir_trace *s, ir_vid v)
{
	const ir_value *x = ir_val(s, v);
	switch ((ir_valtag)x->tag) {
	case IR_VAL_CONST_INT: return ir_const_int(d, x->cval);
	case IR_VAL_CONST_NULL: return ir_const_null(d);
	case IR_VAL_CONST_PTR: return ir_const_ptr(d, ir_strtext(s, x->name));
	case IR_VAL_CONST_CLASS:
		return ir_const_class(d, ir_strtext(s, x->name));
	case IR_VAL_INPUT:
	case IR_VAL_OP: break;
	}
	return IR_NOVAL;
}

/* Emits into D the read GET of FIELD (item IDX) of SUBJ, named from
 * TAG and K: its result, or IR_NOVAL when out of memory. */
static ir_vid emit_read(ir_trace *d, const ir_trace *s, ir_vid subj, int get,
			uint32_t field, uint64_t idx, const char *tag,
			uint32_t k)
{
	char name[32];
	bool ref = get == IR_GETFIELD_GC_R || get == IR_GETARRAYITEM_GC_R;
	bool item = get == IR_GETARRAYITEM_GC_I || get == IR_GETARRAYITEM_GC_R;
	ir_vid a[2] = {subj, item ? ir_const_int(d, idx) : IR_NOVAL};
	snprintf(name, sizeof name, "%c%s%u", ref ? 'p' : 'i', tag, k);
	uint32_t o = ir_emit(d, (ir_opcode)get, item ? 2 : 1, a,
			     ir_cstr(d, ir_strtext(s, field)), name);
	if (o == UINT32_MAX)
		return IR_NOVAL;
	/* an item read here is a string's char or an immutable array's
	 * item; only the latter is printed as PyPy's pure read */
	if (item && !ir_py_items_immutable(ir_strtext(s, field)))
		d->ops[o].flags |= IR_OPF_PURE_ITEM;
	return d->ops[o].result;
}

/* Emits fact F (its constants from S) into D; false when out of memory. */
static bool emit_fact(ir_trace *d, const ir_trace *s, const fact *f, uint32_t k)
{
	char name[32], lbl[32];
	ir_vid subj = const_in(d, s, f->subj);
	ir_vid arg = f->arg == IR_NOVAL ? IR_NOVAL : const_in(d, s, f->arg);
	if (f->get != IR_NO_OP) {
		subj =
		    emit_read(d, s, subj, f->get, f->field, f->idx, "rec", k);
		if (subj == IR_NOVAL)
			return false;
	}
	if (f->mid != IR_NO_OP) {
		ir_vid a[2];
		uint32_t n = f->mtwo ? 2 : 1;
		a[f->mpos] = subj;
		if (n == 2)
			a[1 - f->mpos] =
			    f->osubj == IR_NOVAL
				? ir_const_int(d, f->mval)
				: emit_read(d, s, const_in(d, s, f->osubj),
					    f->oget, f->ofield, f->oidx, "orec",
					    k);
		if (n == 2 && a[1 - f->mpos] == IR_NOVAL)
			return false;
		snprintf(name, sizeof name, "imid%u", k);
		uint32_t o = ir_emit(d, (ir_opcode)f->mid, n, a, 0, name);
		if (o == UINT32_MAX)
			return false;
		subj = d->ops[o].result;
	}
	ir_opcode g = f->opc;
	if (f->opc == IR_PTR_EQ || f->opc == IR_PTR_NE) {
		ir_vid a[2] = {subj, arg};
		snprintf(name, sizeof name, "irec%u", k);
		uint32_t o = ir_emit(d, IR_PTR_EQ, 2, a, 0, name);
		if (o == UINT32_MAX)
			return false;
		subj = d->ops[o].result;
		arg = IR_NOVAL;
		g = f->opc == IR_PTR_EQ ? IR_GUARD_TRUE : IR_GUARD_FALSE;
	}
	ir_vid a[2] = {subj, arg};
	snprintf(lbl, sizeof lbl, "grec%u", k);
	uint32_t o =
	    ir_emit(d, g, arg == IR_NOVAL ? 1 : 2, a, ir_cstr(d, lbl), NULL);
	if (o == UINT32_MAX)
		return false;
	d->ops[o].flags |= IR_OPF_IMPLICIT_LABEL;
	return true;
}

typedef struct prefix_in {
	const ir_trace *s; /* the trace the facts are about */
	const facts *fs;
	uint32_t base; /* the first fact's number: a second pass's facts
			* come after the first's, whose names stay */
} prefix_in;

/* Emits the facts X->FS (of X->S's values), numbered from X->BASE. */
static bool emit_facts(copier *c, void *ctx)
{
	const prefix_in *x = ctx;
	for (uint32_t k = 0; k < x->fs->n; k++)
		if (!emit_fact(c->d, x->s, &x->fs->v[k], x->base + k))
			return false;
	return true;
}

bool pl_run_values(const ir_trace *t, uint32_t nrec, const ir_vid *vs,
		   uint32_t n, bool *known, uint64_t *x, ir_vid *kptr)
{
	rec r;
	bool ok = nrec <= t->nops && rec_open(&r, t, nrec);
	for (uint32_t k = 0; ok && k < n; k++) {
		known[k] = vs[k] != IR_NOVAL && known_int(&r, vs[k], &x[k]);
		kptr[k] = known_ptr(&r, vs[k]);
	}
	if (nrec <= t->nops)
		rec_close(&r);
	return ok;
}

void pl_recorded_same(const ir_trace *t, uint32_t nrec,
		      void (*same)(void *ctx, const char *a, const char *b),
		      void *ctx)
{
	if (nrec > t->nops)
		return;
	rec r;
	if (rec_open(&r, t, nrec)) {
		for (ir_vid v = 0; v < t->nvals; v++) {
			ir_vid k = known_ptr(&r, v);
			if (is_cptr(t, v) && k != IR_NOVAL && k != v)
				same(ctx, ir_strtext(t, ir_val(t, k)->name),
				     ir_strtext(t, ir_val(t, v)->name));
		}
	}
	rec_close(&r);
}

/* A line that names fact F of S's values. */
static void fact_key(const ir_trace *s, const fact *f, strbuf *sb)
{
	ir_vid v[2] = {f->subj, f->arg};
	sb_printf(sb, "%d %d %s %llu %d %u %d %llu", (int)f->opc, f->get,
		  f->get != IR_NO_OP ? ir_strtext(s, f->field) : "-",
		  (unsigned long long)f->idx, f->mid, f->mpos, (int)f->mtwo,
		  (unsigned long long)f->mval);
	if (f->osubj != IR_NOVAL)
		sb_printf(sb, " %d %s %llu %s", f->oget,
			  ir_strtext(s, f->ofield), (unsigned long long)f->oidx,
			  ir_strtext(s, ir_val(s, f->osubj)->name));
	for (int i = 0; i < 2; i++) {
		const ir_value *x = v[i] == IR_NOVAL ? NULL : ir_val(s, v[i]);
		if (!x)
			sb_puts(sb, " -");
		else if (x->tag == IR_VAL_CONST_INT)
			sb_printf(sb, " %llu", (unsigned long long)x->cval);
		else if (x->tag == IR_VAL_CONST_NULL)
			sb_puts(sb, " NULL");
		else
			sb_printf(sb, " %d:%s", (int)x->tag,
				  ir_strtext(s, x->name));
	}
	sb_puts(sb, "\n");
}

/* Leaves in FS the facts whose key is not among P's (rec_keys), and in
 * KEYS P's keys and theirs; whether any is left (false also when out of
 * memory). */
static bool only_new(const pl_pair *p, const ir_trace *s, facts *fs,
		     strbuf *keys)
{
	if (p->rec_keys)
		sb_puts(keys, p->rec_keys);
	uint32_t n = 0;
	for (uint32_t i = 0; i < fs->n; i++) {
		strbuf k;
		sb_init(&k);
		fact_key(s, &fs->v[i], &k);
		if (k.oom || !k.buf) {
			sb_release(&k);
			return false;
		}
		/* Keys end in a newline: a whole line matches. */
		const char *hit = keys->buf ? strstr(keys->buf, k.buf) : NULL;
		bool line = hit && (hit == keys->buf || hit[-1] == '\n');
		if (!line) {
			sb_puts(keys, k.buf);
			fs->v[n++] = fs->v[i];
		}
		sb_release(&k);
	}
	fs->n = n;
	return n > 0 && !keys->oom;
}

void pl_recorded_facts(pl_pair *p, uint32_t nrec)
{
	if (!p->orig || !p->opt || nrec > p->orig->nops)
		return;
	uint32_t before = p->nrecorded;
	const ir_trace *t = p->orig;
	rec r;
	facts fs = {NULL, 0, 0, false};
	bool ok = rec_open(&r, t, nrec);
	if (ok)
		collect(&r, &fs);
	/* A second pass (pl_read_text, after a bridge's facts and its
	 * calls' kept fields) adds only what the first did not find: it
	 * may find fewer facts in all, one constant standing for several
	 * the first kept apart. */
	strbuf keys;
	sb_init(&keys);
	/* T is P's ORIG until both copies are made. */
	prefix_in x = {t, &fs, before};
	if (ok && !fs.oom && only_new(p, t, &fs, &keys) &&
	    pl_prefix_both(p, emit_facts, &x)) {
		p->nrecorded = before + fs.n; /* the old stay too */
		free(p->rec_keys);
		p->rec_keys = sb_detach(&keys);
	}
	sb_release(&keys);
	rec_close(&r);
	free(fs.v);
}

/* ---- guards on constants ------------------------------------------------ */

/* The first ConstPtr among the N values A of T, or NULL. */
static const char *first_cptr(const ir_trace *t, const ir_vid *a, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++)
		if (is_cptr(t, a[j]))
			return ir_strtext(t, ir_val(t, a[j])->name);
	return NULL;
}

const char *pl_guard_const(const ir_trace *t, uint32_t g)
{
	const ir_op *op = &t->ops[g];
	if (!ir_op_has((ir_opcode)op->opc, IRF_GUARD) || op->nargs == 0)
		return NULL;
	/* guard_value(x, K) tests x against K, not what K holds */
	if (is_cptr(t, op->args[0]))
		return ir_strtext(t, ir_val(t, op->args[0])->name);
	uint32_t d = ir_defop(t, op->args[0]);
	if (d == UINT32_MAX)
		return NULL;
	const ir_op *def = &t->ops[d];
	return first_cptr(t, def->args, def->nargs);
}
