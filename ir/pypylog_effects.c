/*
 * pypylog_effects.c - the fields PyPy's optimizer took a call to keep
 * (docs/pypy.md, "Call effects": an assumption, counted).
 *
 * PyPy's EffectInfo lists, for every residual call, the field descrs it
 * may write; the optimizer keeps a cached field value across a call that
 * cannot write the field.  The log does not print those lists, so to the
 * model every opaque call may write every field of every object it can
 * reach, and a field value the optimized trace carries across a call is
 * not proved.  The optimized trace shows what the optimizer took each
 * call to keep: a field F it read before call K and does not read again
 * before a later call that may write F (or its end), while the
 * unoptimized trace does read F after its call K.  Both
 * traces' call K then get " keeps=F" in their descr (ir_py_call_keeps):
 * the model, the interpreter and the replay leave F unchanged by that
 * call.  The same descr on the same call in both traces changes what the
 * world may do, not what either trace does; what is not caught is an
 * optimizer that keeps a field across a call that does write it.
 * Sections: reads of fields; the calls' descrs.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypylog_int.h"
#include "pypyops.h"
#include "strbuf.h"

/* ---- reads of fields ---------------------------------------------------- */

/* Whether op OP of T is a call event of the heap model (as hp_is_call). */
static bool is_call(const ir_trace *t, const ir_op *op)
{
	return ir_py_is_call_event(t, op);
}

/* The descr text of op OP of T when it reads a mutable field. */
static const char *field_read(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_GETFIELD_GC_I && op->opc != IR_GETFIELD_GC_R)
		return NULL;
	const char *d = op->descr ? ir_strtext(t, op->descr) : "";
	if (strncmp(d, "<Field", 6) || ir_py_field_immutable(d))
		return NULL;
	return d;
}

/* The descr of a store to a field at op OP of T, or NULL. */
static const char *field_store(const ir_trace *t, const ir_op *op)
{
	if (op->opc != IR_SETFIELD_GC || !op->descr)
		return NULL;
	const char *d = ir_strtext(t, op->descr);
	return strncmp(d, "<Field", 6) ? NULL : d;
}

/* The descr of a store to an item at op OP of T ("<ArrayP 8>": EffectInfo
 * names the items of one array descr alike), or NULL. */
static const char *item_store(const ir_trace *t, const ir_op *op)
{
	char tok[64];
	if (op->opc != IR_SETARRAYITEM_GC || !op->descr || op->nargs < 3)
		return NULL;
	const char *d = ir_strtext(t, op->descr);
	return ir_py_items_token(d, tok, sizeof tok) ? d : NULL;
}

/* The descr of a store at op OP of T that a call may not see: a field
 * (field_store) or an item (item_store). */
static const char *kept_store(const ir_trace *t, const ir_op *op)
{
	const char *d = field_store(t, op);
	return d ? d : item_store(t, op);
}

/* The descr text of op OP of T when it reads what a call may keep: a
 * mutable field, or an item of an array ("<ArrayS 8>": PyPy's EffectInfo
 * lists the array descrs a call may write, all items of one alike). */
static const char *kept_read(const ir_trace *t, const ir_op *op)
{
	const char *d = field_read(t, op);
	if (d)
		return d;
	if (op->opc != IR_GETARRAYITEM_GC_I && op->opc != IR_GETARRAYITEM_GC_R)
		return NULL;
	char tok[64];
	d = op->descr ? ir_strtext(t, op->descr) : "";
	return ir_py_items_token(d, tok, sizeof tok) ? d : NULL;
}

/* The op indices of T's calls (*N of them); NULL when out of memory. */
static uint32_t *calls_of(const ir_trace *t, uint32_t *n)
{
	uint32_t *c = calloc(t->nops + 1, sizeof *c);
	*n = 0;
	for (uint32_t i = 0; c && i < t->nops; i++)
		if (is_call(t, &t->ops[i]))
			c[(*n)++] = i;
	return c;
}

/* The first and the last op of T in [FROM, TO) reading field D
 * (UINT32_MAX: none). */
static void reads_of(const ir_trace *t, const char *d, uint32_t from,
		     uint32_t to, uint32_t *first, uint32_t *last)
{
	*first = *last = UINT32_MAX;
	for (uint32_t i = from; i < to && i < t->nops; i++) {
		const char *r = kept_read(t, &t->ops[i]);
		if (!r || strcmp(r, d))
			continue;
		if (*first == UINT32_MAX)
			*first = i;
		*last = i;
	}
}

/* ---- the calls' descrs -------------------------------------------------- */

/* Appends the name of field descr D to the keep list SB (once). */
static void add_kept(strbuf *sb, const char *d)
{
	char tok[64];
	if (ir_py_items_token(d, tok, sizeof tok)) {
		sb_printf(sb, "%s%s", sb->len ? "," : "", tok);
		return;
	}
	const char *s = strchr(d, ' ');
	if (!s)
		return;
	s++;
	size_t n = strcspn(s, " >");
	sb_printf(sb, "%s%.*s", sb->len ? "," : "", (int)n, s);
}

/* Gives op OPI of T the descr "<...KEY=LIST>" (KEY " keeps" or
 * " ignores", not there yet). */
static bool set_list(ir_trace *t, uint32_t opi, const char *key,
		     const char *list)
{
	ir_op *op = &t->ops[opi];
	const char *d = op->descr ? ir_strtext(t, op->descr) : "";
	size_t n = strlen(d);
	char k[16];
	snprintf(k, sizeof k, "%s=", key);
	if (n < 2 || d[n - 1] != '>' || strstr(d, k))
		return false;
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%.*s%s%s>", (int)(n - 1), d, k, list);
	uint32_t id = sb.buf ? ir_cstr(t, sb.buf) : UINT32_MAX;
	sb_release(&sb);
	if (id == UINT32_MAX)
		return false;
	op->descr = id;
	return true;
}

/* Whether V of T is the result of op OC or of an op after it. */
static bool made_after(const ir_trace *t, ir_vid v, uint32_t oc)
{
	uint32_t d = ir_defop(t, v);
	return d != UINT32_MAX && d >= oc;
}

/* Whether T reads or stores field D of object X before op OC: the
 * optimizer may then have had X.D cached across OC. */
static bool touched_before(const ir_trace *t, uint32_t oc, ir_vid x,
			   const char *d)
{
	for (uint32_t i = 0; i < oc; i++) {
		const ir_op *op = &t->ops[i];
		const char *r = field_read(t, op);
		if (!r)
			r = field_store(t, op);
		if (r && op->nargs >= 1 && op->args[0] == x && !strcmp(r, d))
			return true;
	}
	return false;
}

/* Whether X is an argument of op OC of T. */
static bool passed_to(const ir_trace *t, uint32_t oc, ir_vid x)
{
	const ir_op *op = &t->ops[oc];
	for (uint32_t a = 0; a < op->nargs; a++)
		if (op->args[a] == x)
			return true;
	return false;
}

/* Whether T reads field D (or, for RD an item read, the item RD read;
 * RD is NULL for a field the optimized trace stored) after op OC
 * before a later call that may write it (one whose descr does not keep D:
 * guard_no_exception and the like write nothing) or its end.  A field of
 * an object made by the call or after it (its result) is not one the
 * optimizer can have had cached, and neither is one of an object whose
 * field D it first looks at after the call, unless the call takes the
 * object: PyPy reads such a field whatever the call does (bowling_score:
 * the map of another instance), but a call is likeliest to write the
 * objects it is passed, and the model's one field D may stand for several
 * of PyPy's descrs (a list's length, list_types). */
static bool read_again(const ir_trace *t, uint32_t oc, const char *d,
		       const ir_op *rd)
{
	bool item = rd && !field_read(t, rd);
	for (uint32_t i = oc + 1; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		const char *r = kept_read(t, op);
		if (r && !strcmp(r, d) &&
		    (!item || (op->nargs == 2 && op->args[0] == rd->args[0] &&
			       op->args[1] == rd->args[1])) &&
		    (item || (!made_after(t, op->args[0], oc) &&
			      (touched_before(t, oc, op->args[0], d) ||
			       passed_to(t, oc, op->args[0])))))
			return true;
		if (!is_call(t, op))
			continue;
		const char *cd = op->descr ? ir_strtext(t, op->descr) : NULL;
		if (!ir_py_call_keeps(ir_op_name(t, op), cd, d))
			return false;
	}
	return false;
}

static bool in_list(const strbuf *sb, const char *d);
static bool stores_in(const ir_trace *t, uint32_t from, uint32_t to,
		      const char *d);

/* Whether the original stores field D after its call K (at op OO) and the
 * optimized trace stores it nowhere after its call K (at OC): PyPy's heap
 * cache drops a store of the value it knows the field holds, which it
 * knows across a call only when the call's EffectInfo does not write the
 * field (kv_parser's bridge reads the execution context's
 * sys_exc_operror on entry and the original stores the same value back
 * at its end). */
static bool store_dropped(const pl_pair *p, uint32_t oc, uint32_t oo,
			  const char *d)
{
	return stores_in(p->orig, oo + 1, p->orig->nops, d) &&
	       !stores_in(p->opt, oc + 1, p->opt->nops, d);
}

/* The fields the optimized trace takes its call K (at op OC) to keep, the
 * unoptimized one's at OO, appended to SB; their number.  A field the
 * optimized trace reads again before its next call that may write it is
 * one it took the call to change; one it does not read there, while the
 * original does read it after the call, is one it carried across.  Since
 * session 31 so is a field it stored before the call and read nowhere
 * before it: PyPy's heap cache keeps what a store wrote as it keeps what
 * a read found (ring_median's generator frame, whose code object the
 * original reads back after a list resize).  Since session 40 a store
 * the optimized trace dropped counts as such a read (store_dropped). */
static uint32_t kept_at(const pl_pair *p, uint32_t oc, uint32_t oo, strbuf *sb)
{
	const ir_trace *t = p->opt;
	uint32_t n = 0;
	for (uint32_t i = 0; i < oc; i++) {
		const ir_op *op = &t->ops[i];
		const char *d = kept_read(t, op);
		bool store = !d;
		if (store)
			d = field_store(t, op);
		if (!d)
			continue;
		uint32_t f, l, fo, lo;
		reads_of(t, d, 0, oc, &f, &l);
		if (store ? f != UINT32_MAX || in_list(sb, d) : f != i)
			continue; /* counted at its first read, or once */
		if (read_again(t, oc, d, store ? NULL : op))
			continue;
		reads_of(p->orig, d, oo + 1, p->orig->nops, &fo, &lo);
		if (fo == UINT32_MAX && !store_dropped(p, oc, oo, d))
			continue; /* the original does not read it after */
		add_kept(sb, d);
		n++;
	}
	return n;
}

/* Whether op OP of T is a guard that looks at what the previous call
 * left (guard_no_exception, ...): it writes and reads no field. */
static bool guard_call(const ir_trace *t, const ir_op *op)
{
	return ir_py_writes_nothing(ir_op_name(t, op));
}

/* Whether T stores field D between its calls around op C: before it
 * (BEFORE, back to the previous call that is not a guard) or after it (up
 * to the next one). */
static bool stores_near(const ir_trace *t, uint32_t c, const char *d,
			bool before)
{
	uint32_t i = c;
	while (before ? i-- > 0 : ++i < t->nops) {
		const ir_op *op = &t->ops[i];
		const char *s = kept_store(t, op);
		if (s && !strcmp(s, d))
			return true;
		if (is_call(t, op) && !guard_call(t, op))
			return false;
	}
	return false;
}

/* Whether T stores the cell of store OP (at op I) before it, back to its
 * previous call that is not a guard: the same field, or for an item at a
 * constant index, the same item (an array's items are separate cells, and
 * the optimizer delays each store of its own). */
static bool stored_before(const ir_trace *t, uint32_t i, const ir_op *op)
{
	uint64_t k, x;
	const char *d = kept_store(t, op);
	if (!item_store(t, op) || !pl_const_index(t, op, &k))
		return stores_near(t, i, d, true);
	while (i-- > 0) {
		const ir_op *q = &t->ops[i];
		const char *s = item_store(t, q);
		if (s && !strcmp(s, d) && pl_const_index(t, q, &x) && x == k)
			return true;
		if (is_call(t, q) && !guard_call(t, q))
			return false;
	}
	return false;
}

/* Whether the object X, stored into at op I of T, is one T allocated and
 * that nothing in (I, TO) can see: no op there takes it as an argument
 * except as the object of a field access, a pointer comparison or a
 * guard's condition (they look at its address or type, not its fields,
 * and pass it on to nothing; memo's new integer is compared with a
 * cached constant before the dict store).  A store into it before an
 * earlier call is then as if made just before op TO: the earlier calls
 * cannot see the object. */
static bool private_until(const ir_trace *t, ir_vid x, uint32_t i, uint32_t to)
{
	if (!ir_allocated(t, x))
		return false;
	for (uint32_t j = i + 1; j < to; j++) {
		const ir_op *op = &t->ops[j];
		bool access = op->opc == IR_SETFIELD_GC ||
			      op->opc == IR_GETFIELD_GC_I ||
			      op->opc == IR_GETFIELD_GC_R;
		bool looks = op->opc == IR_PTR_EQ || op->opc == IR_PTR_NE ||
			     ir_op_has((ir_opcode)op->opc, IRF_GUARD);
		for (uint32_t a = access  ? 1
				  : looks ? op->nargs
					  : 0;
		     a < op->nargs; a++)
			if (op->args[a] == x)
				return false;
		for (uint32_t a = 0; a < op->nfail; a++)
			if (op->failargs[a] == x)
				return false;
	}
	return true;
}

/* Whether the store OP of U, when it stores an item, is matched by a
 * store of T of an item of the same descr at the same constant index
 * after T's op C, before T's next call (PAST_CALLS: any later) and
 * before T reads an item of the descr at that index or at one that is not
 * a constant: the evidence that the optimizer delayed that very store
 * past call C, not that it stored another item of the descr there (every
 * array of one descr shares it: a list's items and a frame's stack).
 * PyPy's heap cache keeps item stores per constant index and writes a
 * delayed one out before a read of the same index of an array that may
 * be the same (heap.py, possible_aliasing), not before a read of another
 * constant index.  True for a field store. */
static bool same_item_after(const ir_trace *u, const ir_op *op,
			    const ir_trace *t, uint32_t c, bool past_calls)
{
	const char *d = item_store(u, op);
	uint64_t k, x;
	if (!d)
		return true;
	if (!pl_const_index(u, op, &k))
		return false;
	for (uint32_t i = c + 1; i < t->nops; i++) {
		const ir_op *q = &t->ops[i];
		const char *w = item_store(t, q);
		if (w && !strcmp(w, d) && pl_const_index(t, q, &x) && x == k)
			return true;
		const char *r = kept_read(t, q);
		if ((r && !strcmp(r, d) &&
		     !(pl_const_index(t, q, &x) && x != k)) ||
		    (!past_calls && is_call(t, q) && !guard_call(t, q)))
			return false;
	}
	return false;
}

/* The fields the optimizer delayed a store of past call K (the optimized
 * trace's at op OC, the original's at OO), appended to SB; their number.
 * The original stores F between its previous call and call K (or before
 * that into an object of its own that nothing before call K sees); the
 * optimized trace stores F between call K and its next call, and either
 * does not store it before call K or the original does not store it
 * after (two stores of F before the call, the first one written and the
 * second delayed).  PyPy writes a delayed store before a call only when the
 * call's EffectInfo says it may read or write the field (heap.py,
 * force_from_effectinfo), so the optimizer took the call not to see F. */
static uint32_t ignored_at(const pl_pair *p, uint32_t oc, uint32_t oo,
			   strbuf *sb)
{
	const ir_trace *o = p->orig, *t = p->opt;
	uint32_t n = 0;
	bool crossed = false; /* a call lies between op I and call K */
	for (uint32_t i = oo; i-- > 0;) {
		const ir_op *op = &o->ops[i];
		if (is_call(o, op) && !guard_call(o, op)) {
			crossed = true;
			continue;
		}
		const char *d = kept_store(o, op);
		if (!d || (crossed && !private_until(o, op->args[0], i, oo)) ||
		    stored_before(o, i, op) || !stores_near(t, oc, d, false) ||
		    !same_item_after(o, op, t, oc, false) ||
		    (stores_near(t, oc, d, true) &&
		     stores_near(o, oo, d, false)))
			continue; /* counted at its first store; not delayed */
		add_kept(sb, d);
		n++;
	}
	return n;
}

/* Whether the list SB (add_kept) names the field of descr D, or the
 * items of array descr D. */
static bool in_list(const strbuf *sb, const char *d)
{
	char tok[64];
	const char *s = tok;
	size_t n;
	if (ir_py_items_token(d, tok, sizeof tok)) {
		n = strlen(tok);
	} else {
		s = strchr(d, ' ');
		if (!s)
			return false;
		n = strcspn(++s, " >");
	}
	if (!sb->buf)
		return false;
	for (const char *k = sb->buf; *k;) {
		size_t m = strcspn(k, ",");
		if (m == n && !strncmp(k, s, n))
			return true;
		k += m + (k[m] == ',');
	}
	return false;
}

/* Whether T's first access of field D after op C is a store (a read
 * would see what was stored before). */
static bool stored_later(const ir_trace *t, uint32_t c, const char *d)
{
	for (uint32_t i = c + 1; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		const char *r = kept_read(t, op), *w = kept_store(t, op);
		if (r && !strcmp(r, d))
			return false;
		if (w && !strcmp(w, d))
			return true;
	}
	return false;
}

/* Whether a call of T in ops (FROM, TO] takes X as an argument. */
static bool passed_to_call(const ir_trace *t, ir_vid x, uint32_t from,
			   uint32_t to)
{
	for (uint32_t i = from + 1; i <= to && i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; is_call(t, op) && j < op->nargs; j++)
			if (op->args[j] == x)
				return true;
	}
	return false;
}

/* Whether T stores field D in ops [FROM, TO). */
static bool stores_in(const ir_trace *t, uint32_t from, uint32_t to,
		      const char *d)
{
	for (uint32_t i = from; i < to; i++) {
		const char *w = kept_store(t, &t->ops[i]);
		if (w && !strcmp(w, d))
			return true;
	}
	return false;
}

/* Whether X of T is an object that existed before T ran: an input or a
 * ConstPtr. */
static bool old_object(const ir_value *x)
{
	return x->tag == IR_VAL_INPUT || x->tag == IR_VAL_CONST_PTR;
}

/* Whether value A of T and value B of U are surely two values: two
 * integer constants that differ, NULL and a ConstPtr (never NULL), or an
 * object one trace allocated and one the other had before it ran (an
 * input or a ConstPtr): an allocation is new (spell_edits' bridge
 * restores the caller's topframeref, an input, and sets a new virtual
 * reference in it before a call that ignores the field). */
static bool surely_differ(const ir_trace *t, ir_vid a, const ir_trace *u,
			  ir_vid b)
{
	const ir_value *x = ir_val(t, a), *y = ir_val(u, b);
	if (x->tag == IR_VAL_CONST_INT && y->tag == IR_VAL_CONST_INT)
		return x->cval != y->cval;
	if ((old_object(x) && ir_allocated(u, b)) ||
	    (ir_allocated(t, a) && old_object(y)))
		return true;
	return (x->tag == IR_VAL_CONST_NULL && y->tag == IR_VAL_CONST_PTR) ||
	       (x->tag == IR_VAL_CONST_PTR && y->tag == IR_VAL_CONST_NULL);
}

/* Whether T stores what op LIKE of U stores in ops [FROM, TO): the field
 * of its descr, or for an item store an item of its descr at the same
 * constant index, or (ANY_INDEX) at an index that is no constant, which
 * may be any.  Items of one descr are the items of every array of it, so
 * an item store elsewhere says nothing of whether this one was
 * delayed.  With ALIKE, a store of a value surely other than LIKE's
 * (surely_differ) is not that store: the optimized trace wrote an earlier
 * store of the original's and delayed the last one (kv_parser's bridge
 * sets a frame's local to a constant, then to NULL before a call, and
 * its optimized trace writes the constant before the call and NULL
 * after). */
static bool stores_slot_in(const ir_trace *t, uint32_t from, uint32_t to,
			   const ir_trace *u, const ir_op *like, bool any_index,
			   bool alike)
{
	const char *d = kept_store(u, like);
	bool item = item_store(u, like) != NULL;
	uint64_t k = 0, x = 0;
	bool kc = item && pl_const_index(u, like, &k);
	ir_vid v = like->args[like->nargs - 1];
	for (uint32_t i = from; i < to; i++) {
		const ir_op *q = &t->ops[i];
		const char *w = item ? item_store(t, q) : kept_store(t, q);
		if (!w || strcmp(w, d) ||
		    (alike && surely_differ(t, q->args[q->nargs - 1], u, v)))
			continue;
		if (!item)
			return true;
		bool known = pl_const_index(t, q, &x) && kc;
		if (known ? x == k : any_index)
			return true;
	}
	return false;
}

/* Whether V, a value of U, is OLD read back: V reads a field of an
 * object whose last store of that field before the read, with no store of
 * it into anything else between, put OLD there (json_pretty's inlined
 * frame keeps the caller's topframeref in its f_backref, and the pop
 * stores what it reads from there). */
static bool read_back(const ir_trace *u, ir_vid v, ir_vid old)
{
	const ir_value *x = ir_val(u, v);
	if (v == old)
		return true;
	if (x->tag != IR_VAL_OP)
		return false;
	const ir_op *r = &u->ops[x->def];
	const char *d = field_read(u, r);
	if (!d)
		return false;
	for (uint32_t j = x->def; j-- > 0;) {
		const ir_op *op = &u->ops[j];
		const char *w = field_store(u, op);
		if (!w || strcmp(w, d))
			continue;
		return op->args[0] == r->args[0] && op->args[1] == old;
	}
	return false;
}

/* Whether U stores OLD back into D of X after op C (read_back), with no
 * store of D into anything else before: *AT that store. */
static bool restored_after(const ir_trace *u, ir_vid x, ir_vid old, uint32_t c,
			   const char *d, uint32_t *at)
{
	for (uint32_t j = c + 1; old != IR_NOVAL && j < u->nops; j++) {
		const ir_op *op = &u->ops[j];
		const char *w = field_store(u, op);
		if (w && !strcmp(w, d) && op->args[0] != x)
			return false;
		if (w && !strcmp(w, d) && read_back(u, op->args[1], old)) {
			*at = j;
			return true;
		}
	}
	return false;
}

/* Whether U's store at op I (of field D into X) is undone after op C: a
 * store of D after C writes into X the value U read from X's D before
 * its first store of D, and every store of D from that read to that
 * store goes into X (the value may be read back from where it was kept:
 * read_back).  PyPy pushes a frame for an inlined call by storing
 * a new virtual reference into the execution context's topframeref and
 * pops it by storing the old one back; when the references stay virtual
 * the optimizer removes every such store, however deep the calls nest
 * (lfsr_stream's dict lookups, holdout13; bowling_score's list append
 * two frames down, holdout12). */
static bool undone_after(const ir_trace *u, uint32_t i, uint32_t c,
			 const char *d, uint32_t *at)
{
	ir_vid x = u->ops[i].args[0], old = IR_NOVAL, near = IR_NOVAL;
	bool stored = false; /* a store of D between a read and op I */
	for (uint32_t j = i; j-- > 0 && old == IR_NOVAL;) {
		const ir_op *op = &u->ops[j];
		const char *r = field_read(u, op), *w = field_store(u, op);
		if (w && !strcmp(w, d) && op->args[0] != x)
			break;
		stored |= w && !strcmp(w, d);
		if (r && !strcmp(r, d) && op->args[0] == x) {
			if (!stored && near == IR_NOVAL)
				near = op->result;
			if (!stores_in(u, 0, j, d))
				old = op->result;
		}
	}
	/* The value before the first push, else the one right before this
	 * push: a pop stores it back whatever the pushes before (spell_edits'
	 * bridge pops an inlined frame into the context it has as an input,
	 * then pushes another into the context read anew from the
	 * thread-local state, its old value read right before). */
	return restored_after(u, x, old, c, d, at) ||
	       (near != old && restored_after(u, x, near, c, d, at));
}

/* Whether values A of T and B of U are the same by how they are written:
 * the same input position, integer constant or ConstPtr name, or both
 * NULL. */
static bool same_written(const ir_trace *t, ir_vid a, const ir_trace *u,
			 ir_vid b)
{
	const ir_value *x = ir_val(t, a), *y = ir_val(u, b);
	if (x->tag != y->tag)
		return false;
	switch ((ir_valtag)x->tag) {
	case IR_VAL_INPUT: return x->def == y->def;
	case IR_VAL_CONST_INT: return x->cval == y->cval;
	case IR_VAL_CONST_NULL: return true;
	case IR_VAL_CONST_PTR:
		return !strcmp(ir_strtext(t, x->name), ir_strtext(u, y->name));
	case IR_VAL_OP:
	case IR_VAL_CONST_CLASS: return false;
	}
	return false;
}

/* Whether T stores the field U's op I stores in ops [FROM, TO), other than
 * as one of U's stores of it before op I: the same value written the
 * same way (same_written).  spell_edits' bridge pops an inlined frame,
 * putting back the context's topframeref it has as an input, before it
 * pushes the next one, which is undone after a call; its optimized trace
 * makes the pop's store only. */
static bool stores_not_before(const ir_trace *t, uint32_t from, uint32_t to,
			      const ir_trace *u, uint32_t i)
{
	const char *d = field_store(u, &u->ops[i]);
	for (uint32_t k = from; k < to; k++) {
		const ir_op *q = &t->ops[k];
		const char *w = field_store(t, q);
		if (!w || strcmp(w, d))
			continue;
		bool earlier = false;
		for (uint32_t j = 0; j < i && !earlier; j++) {
			const ir_op *e = &u->ops[j];
			const char *we = field_store(u, e);
			earlier = we && !strcmp(we, d) &&
				  same_written(t, q->args[1], u, e->args[1]);
		}
		if (!earlier)
			return true;
	}
	return false;
}

/* The op of the optimized trace before which it must not store the field
 * the original puts back at its op AT (undone_after): its call paired
 * with the original's first call after AT, or its end when there is none
 * or it is not paired.  A store after that is one of its own (json_pretty
 * pushes an inlined frame around a list resize and pops it, and the
 * optimized trace stores topframeref only for the call_assembler after
 * it). */
static uint32_t undo_bound(const pl_pair *p, const uint32_t *c,
			   const uint32_t *o, uint32_t nc, uint32_t at)
{
	for (uint32_t m = 0; m < nc; m++)
		if (o[m] != UINT32_MAX && o[m] > at)
			return c[m] != UINT32_MAX ? c[m] : p->opt->nops;
	return p->opt->nops;
}

/* Where the optimized trace's part of the window of delayed_at starts,
 * for the original's store of field D at op I, J the index of its first
 * call after I, K that of the call the window ends at: after the last call
 * before J that both traces make (PyPy removes a loop-invariant call whose
 * result it knows), and after as many stores of D there as the original makes
 * between that call and op I (those are the same stores, in the same order), as
 * far as its call K.  elevator_sim's bridge pops the frame of a call_assembler,
 * putting back a value it read from that frame, then reads the context anew
 * from the thread-local state and pushes an inlined frame around a list search;
 * its optimized trace makes the pop's store only, of its own value of the
 * frame. */
static uint32_t window_start(const pl_pair *p, const uint32_t *c,
			     const uint32_t *o, uint32_t j, uint32_t k,
			     uint32_t i, const char *d)
{
	uint32_t from = 0, ufrom = 0, own = 0;
	for (uint32_t m = j; m-- > 0;)
		if (c[m] != UINT32_MAX && o[m] != UINT32_MAX) {
			from = c[m] + 1;
			ufrom = o[m] + 1;
			break;
		}
	for (uint32_t x = ufrom; x < i; x++) {
		const char *w = field_store(p->orig, &p->orig->ops[x]);
		own += w && !strcmp(w, d);
	}
	for (; own && from < c[k]; from++) {
		const char *w = field_store(p->opt, &p->opt->ops[from]);
		own -= w && !strcmp(w, d);
	}
	return from;
}

/* The fields the optimizer delayed a store of past several calls, call K
 * among them (C and O: the two traces' calls, aligned; ignored_at names
 * the ones delayed past one call): the original's last store of F before
 * its call K comes before its call J <= K, the optimized trace stores F
 * nowhere between its call J - 1 and call K, and stores F after call K
 * before it reads F (or, when the original undoes its store after call K,
 * stores F nowhere from call J - 1 to the call paired with the original's
 * first call after the undoing store: undo_bound); the store goes into an
 * object the original did not allocate and that no call between takes.
 * PyPy keeps a store pending (a virtual reference stored into the
 * execution context's topframeref) across every call whose EffectInfo
 * neither reads nor writes the field, so calls J..K all ignore it
 * (sparse_dot's dict iteration and lookup calls). */
static uint32_t delayed_at(const pl_pair *p, const uint32_t *c,
			   const uint32_t *o, uint32_t nc, uint32_t k,
			   strbuf *sb)
{
	const ir_trace *u = p->orig, *t = p->opt;
	uint32_t n = 0;
	if (o[k] == UINT32_MAX || c[k] == UINT32_MAX)
		return 0;
	for (uint32_t i = o[k]; i-- > 0;) {
		const char *d = kept_store(u, &u->ops[i]);
		if (!d || in_list(sb, d) ||
		    stores_slot_in(u, i + 1, o[k], u, &u->ops[i], false,
				   false) ||
		    ir_allocated(u, u->ops[i].args[0]) ||
		    passed_to_call(u, u->ops[i].args[0], i, o[k]))
			continue; /* not the last store before call K; an
				     object of the trace's own (ignored_at);
				     one a call takes sees its field */
		uint32_t j = 0;
		while (j < k && (o[j] == UINT32_MAX || o[j] < i))
			j++;
		uint32_t from = window_start(p, c, o, j, k, i, d);
		/* Stored after call K, or never in the optimized trace when
		 * the original undoes its store (undone_after). */
		if (stores_slot_in(t, from, c[k], u, &u->ops[i], true, true) ||
		    !same_item_after(u, &u->ops[i], t, c[k], true))
			continue;
		uint32_t at;
		if (!stored_later(t, c[k], d) &&
		    (!undone_after(u, i, o[k], d, &at) ||
		     stores_not_before(t, from, undo_bound(p, c, o, nc, at), u,
				       i)))
			continue;
		add_kept(sb, d);
		n++;
	}
	return n;
}

/* Whether T allocates X after its last call before op C (a guard on a
 * call aside) and stores field D into it nowhere from there to C. */
static bool built_for(const ir_trace *t, ir_vid x, uint32_t c, const char *d)
{
	const ir_value *v = ir_val(t, x);
	if (!ir_allocated(t, x) || v->def >= c)
		return false;
	for (uint32_t j = v->def + 1; j < c; j++) {
		const ir_op *op = &t->ops[j];
		const char *w = field_store(t, op);
		if ((is_call(t, op) && !guard_call(t, op)) ||
		    (w && !strcmp(w, d) && op->args[0] == x))
			return false;
	}
	return true;
}

/* The fields of objects forced for call K that the optimized trace
 * stores after it (the optimized trace's call at op OC, the original's
 * at OO), appended to SB; their number.  The optimized trace allocates X
 * after its previous call, passes X to call K and stores field F into X
 * after call K, before its next call, and the original does not store F
 * between its call K and its next call (so the store is no later store
 * of the program's).  PyPy allocates a virtual where a call forces it and
 * keeps its fields as pending stores (virtualize.py's forcing, heap.py's
 * lazy sets), written before the call only when its EffectInfo says it
 * may read or write the field (force_from_effectinfo): call K neither
 * reads nor writes F.  This is ignored_at where the original put X where
 * calls before K could see it (topo_sort's new integer, a value of a dict
 * setitem, first kept in the frame's value stack). */
static uint32_t forced_at(const pl_pair *p, uint32_t oc, uint32_t oo,
			  strbuf *sb)
{
	const ir_trace *o = p->orig, *t = p->opt;
	const ir_op *call = &t->ops[oc];
	uint32_t n = 0;
	for (uint32_t i = oc + 1; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (is_call(t, op) && !guard_call(t, op))
			break;
		const char *d = field_store(t, op);
		bool passed = false;
		for (uint32_t a = 0; d && a < call->nargs; a++)
			passed |= call->args[a] == op->args[0];
		if (!passed || in_list(sb, d) ||
		    !built_for(t, op->args[0], oc, d) ||
		    stores_near(o, oo, d, false))
			continue;
		add_kept(sb, d);
		n++;
	}
	return n;
}

const char *pl_call_fn(const ir_trace *t, const ir_op *op, uint32_t n)
{
	if (op->opc != IR_OPAQUE || op->nargs != n || op->result == IR_NOVAL ||
	    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS)
		return NULL;
	return ir_valname(t, op->args[0]);
}

/* Whether call A of T is the char form PyPy's optimizer makes of call B
 * of U, a string compare with a constant of one char (vstring.py,
 * handle_str_equal_level1): str_eq_char(s, c) for str_eq(s, K) or
 * str_eq(K, s), K a ConstPtr (the front end's names of the helpers).
 * They pair as one call, as pl_const_strings then reads them. */
static bool char_form(const ir_trace *t, const ir_op *a, const ir_trace *u,
		      const ir_op *b)
{
	const char *fa = pl_call_fn(t, a, 3), *fb = pl_call_fn(u, b, 3);
	return fa && fb && !strcmp(fa, "str_eq_char") &&
	       !strcmp(fb, "str_eq") &&
	       (pl_cptr_name(u, b->args[1]) != NULL) !=
		   (pl_cptr_name(u, b->args[2]) != NULL);
}

/* Whether call ops A of T and B of U call the same function the same
 * way: the op, its function (a ConstClass or constant first argument)
 * and its descr; or A is the char form of B, or B of A (char_form). */
bool pl_same_call(const ir_trace *t, const ir_op *a, const ir_trace *u,
		  const ir_op *b)
{
	if (char_form(t, a, u, b) || char_form(u, b, t, a))
		return true;
	const char *na = ir_op_name(t, a), *nb = ir_op_name(u, b);
	/* a cond_call the optimizer knew to be taken is a call_n of the
	 * same function (json_pretty's list resize on an empty list) */
	bool cond = (!strcmp(na, "cond_call") && !strcmp(nb, "call_n")) ||
		    (!strcmp(na, "call_n") && !strcmp(nb, "cond_call"));
	if ((strcmp(na, nb) && !cond) || (!a->descr) != (!b->descr) ||
	    (a->descr &&
	     strcmp(ir_strtext(t, a->descr), ir_strtext(u, b->descr))))
		return false;
	if (!a->nargs || !b->nargs)
		return a->nargs == b->nargs;
	/* a conditional call's first argument is its condition: the
	 * function is the second (ir_py_call_event) */
	uint32_t j, k;
	(void)ir_py_call_event(t, a, &j);
	(void)ir_py_call_event(u, b, &k);
	if (j >= a->nargs || k >= b->nargs)
		return j >= a->nargs && k >= b->nargs && a->nargs == b->nargs;
	if (a->nargs - j != b->nargs - k)
		return false;
	const ir_value *x = ir_val(t, a->args[j]), *y = ir_val(u, b->args[k]);
	if (x->tag != y->tag)
		return false;
	if (x->tag == IR_VAL_CONST_CLASS)
		return !strcmp(ir_strtext(t, x->name), ir_strtext(u, y->name));
	if (x->tag == IR_VAL_CONST_INT)
		return x->cval == y->cval;
	return true;
}

/* Pairs the optimized trace's calls C (NC) with the original's O (NO):
 * in order when there are as many; else a longest common subsequence of
 * pl_same_call (the optimizer removed calls, say a cond_call it knew not to
 * run).  C[k] is left UINT32_MAX when unpaired, O[k] the partner. */
static bool align_calls(const pl_pair *p, uint32_t *c, uint32_t nc,
			const uint32_t *o, uint32_t no, uint32_t *po)
{
	if (nc == no) {
		memcpy(po, o, no * sizeof *po);
		return true;
	}
	uint32_t w = no + 1;
	uint32_t *L = calloc((size_t)(nc + 1) * w, sizeof *L);
	if (!L)
		return false;
	for (uint32_t i = nc; i-- > 0;)
		for (uint32_t j = no; j-- > 0;)
			L[i * w + j] =
			    pl_same_call(p->opt, &p->opt->ops[c[i]], p->orig,
					 &p->orig->ops[o[j]])
				? L[(i + 1) * w + j + 1] + 1
			    : L[(i + 1) * w + j] > L[i * w + j + 1]
				? L[(i + 1) * w + j]
				: L[i * w + j + 1];
	uint32_t i = 0, j = 0;
	while (i < nc) {
		if (j < no &&
		    pl_same_call(p->opt, &p->opt->ops[c[i]], p->orig,
				 &p->orig->ops[o[j]]) &&
		    L[i * w + j] == L[(i + 1) * w + j + 1] + 1) {
			po[i++] = o[j++];
		} else if (j < no && L[i * w + j + 1] >= L[(i + 1) * w + j]) {
			j++;
		} else {
			c[i] = UINT32_MAX;
			po[i++] = UINT32_MAX;
		}
	}
	free(L);
	return true;
}

bool pl_paired_calls(const pl_pair *p, uint32_t **c, uint32_t *nc, uint32_t **o)
{
	uint32_t no;
	*c = calls_of(p->opt, nc);
	uint32_t *o0 = calls_of(p->orig, &no);
	*o = *c && o0 ? calloc(*nc + 1, sizeof **o) : NULL;
	bool ok = *o && align_calls(p, *c, *nc, o0, no, *o);
	free(o0);
	if (!ok) {
		free(*c);
		free(*o);
		*c = *o = NULL;
	}
	return ok;
}

/* Whether CALLS (N op indices of T) hold a call that calls what op A of U
 * calls (pl_same_call). */
static bool has_like(const ir_trace *t, const uint32_t *calls, uint32_t n,
		     const ir_trace *u, const ir_op *a)
{
	for (uint32_t k = 0; k < n; k++)
		if (pl_same_call(t, &t->ops[calls[k]], u, a))
			return true;
	return false;
}

bool pl_calls_forced(const pl_pair *p, const uint32_t *c, uint32_t nc,
		     const uint32_t *o)
{
	uint32_t no, nt;
	uint32_t *oc = calls_of(p->orig, &no), *tc = calls_of(p->opt, &nt);
	bool forced = oc && tc && nt == nc;
	/* C[k] is the optimized trace's k-th call, UINT32_MAX when unpaired:
	 * TC[k] is its op either way */
	for (uint32_t k = 0; forced && k < nc; k++)
		forced =
		    c[k] != UINT32_MAX ||
		    !has_like(p->orig, oc, no, p->opt, &p->opt->ops[tc[k]]);
	for (uint32_t j = 0; forced && j < no; j++) {
		bool paired = false;
		for (uint32_t k = 0; k < nc && !paired; k++)
			paired = c[k] != UINT32_MAX && o[k] == oc[j];
		forced = paired || !has_like(p->opt, tc, nt, p->orig,
					     &p->orig->ops[oc[j]]);
	}
	free(oc);
	free(tc);
	return forced;
}

void pl_call_effects(pl_pair *p)
{
	if (!p->orig || !p->opt)
		return;
	uint32_t nc, *c, *o;
	if (pl_paired_calls(p, &c, &nc, &o)) {
		for (uint32_t k = 0; k < nc; k++) {
			if (c[k] == UINT32_MAX)
				continue;
			strbuf sb;
			sb_init(&sb);
			uint32_t n = kept_at(p, c[k], o[k], &sb);
			uint32_t was = p->opt->ops[c[k]].descr;
			if (n && sb.buf && !sb.oom &&
			    set_list(p->opt, c[k], " keeps", sb.buf)) {
				if (set_list(p->orig, o[k], " keeps", sb.buf))
					p->nkept += n;
				else /* both or neither */
					p->opt->ops[c[k]].descr = was;
			}
			sb_release(&sb);
			sb_init(&sb);
			n = ignored_at(p, c[k], o[k], &sb);
			n += delayed_at(p, c, o, nc, k, &sb);
			n += forced_at(p, c[k], o[k], &sb);
			was = p->opt->ops[c[k]].descr;
			if (n && sb.buf && !sb.oom &&
			    set_list(p->opt, c[k], " ignores", sb.buf)) {
				if (set_list(p->orig, o[k], " ignores", sb.buf))
					p->nkept += n;
				else
					p->opt->ops[c[k]].descr = was;
			}
			sb_release(&sb);
		}
	}
	free(c);
	free(o);
}
