/*
 * heap_escape.c - the static points-to and escape facts of one trace in
 * the heap model: which fresh identities a reference may be, what a fresh
 * object's fields may hold, which fresh objects the world can reach at a
 * call, a guard exit or the end, and the stores no call has seen yet.
 * The facts are a static over-approximation (heap.h): an object counted
 * as escaped that the run does not reach only costs a proof, never a
 * wrong one; one counted as unreachable must be unreachable.
 *
 * Map: contents and closure; stores no call has seen yet (htrace.pend);
 * cells of fresh objects; loads and stores; a store that puts back what
 * a load read.
 */
#include "heap_int.h"

/* ---- contents and closure ------------------------------------------------ */

/* What the fields of identity X may hold. */
static hset contents(const htrace *e, uint32_t x)
{
	hset m = hs_none();
	for (uint32_t f = 0; f < e->nf; f++)
		m = hs_or(m, e->cont[(size_t)x * e->nf + f]);
	return m;
}

/* What the fields of identity X may hold that a call with descr CD sees:
 * all but those CD says it ignores (ir_py_call_ignores). */
static hset contents_seen(const hp *h, const htrace *e, uint32_t x,
			  const char *cd)
{
	hset m = hs_none();
	for (uint32_t f = 0; f < e->nf; f++)
		if (!ir_py_call_ignores(cd, h->f[f].name))
			m = hs_or(m, e->cont[(size_t)x * e->nf + f]);
	return m;
}

/* M and everything its objects reach; at a call whose descr is CD (H
 * given), not through the fields the call ignores: it neither reads nor
 * writes them, so what only they hold stays out of its reach, as the
 * interpreter's reach skips them (bloom_filter's generator, whose frame
 * the optimized trace links to it after the weakref call). */
static hset close_esc_at(const hp *h, const htrace *e, hset m, const char *cd)
{
	hset prev;
	do {
		prev = m;
		for (uint32_t x = 0; x < HP_MAXID; x++)
			if (hs_has(m, x))
				m = hs_or(m, h && cd
						 ? contents_seen(h, e, x, cd)
						 : contents(e, x));
	} while (!hs_eq(m, prev));
	return m;
}

static hset close_esc(const htrace *e, hset m)
{
	return close_esc_at(NULL, e, m, NULL);
}

/* ---- stores no call has seen yet (htrace.pend) ----------------------- */

/* A store of VAL into field F of HOLDER (SLOT: a field, the item at
 * constant index IDX, or an item at an index that is not a constant) that
 * the next event sees.  A store replaces what an earlier one left pending
 * in the same field or constant item (one reference is one object); an
 * item at another index stays pending apart, and one at an unknown index
 * adds to what such stores left. */
/* The index of E's pending entry for field or items F of HOLDER in SLOT
 * (at IDX for HP_PEND_ITEM), or E->npend when there is none. */
static uint32_t find_pending(const htrace *e, ir_vid holder, uint32_t f,
			     uint8_t slot, uint64_t idx)
{
	uint32_t k = 0;
	while (k < e->npend &&
	       (e->pend[k].holder != holder || e->pend[k].f != f ||
		e->pend[k].slot != slot ||
		(slot == HP_PEND_ITEM && e->pend[k].idx != idx)))
		k++;
	return k;
}

static void add_pending(htrace *e, ir_vid holder, uint32_t f, hset val,
			uint8_t slot, uint64_t idx)
{
	uint32_t k = find_pending(e, holder, f, slot, idx);
	if (k == e->npend)
		e->npend++;
	else if (slot == HP_PEND_ANY_ITEM)
		val = hs_or(val, e->pend[k].val);
	e->pend[k] = (struct hpend){holder, f, val, slot, idx};
}

/* What escaped in E, with every store no call has seen yet: what a guard
 * exit or the end shows. */
hset hp_with_pending(const htrace *e)
{
	hset m = e->esc;
	for (uint32_t k = 0; k < e->npend; k++)
		m = hs_or(m, e->pend[k].val);
	return close_esc(e, m);
}

/* At CALL: the stores it sees escape now; those into fields its descr
 * ignores wait for a later call. */
void hp_flush_pending(hp *h, htrace *e, const ir_op *call)
{
	const char *cd = ir_py_seen_descr(e->t, call);
	uint32_t w = 0;
	for (uint32_t k = 0; k < e->npend; k++) {
		struct hpend q = e->pend[k];
		if (cd && ir_py_call_ignores(cd, h->f[q.f].name))
			e->pend[w++] = q;
		else
			e->esc = hs_or(e->esc, q.val);
	}
	e->npend = w;
	e->esc = close_esc_at(h, e, e->esc, cd);
}

/* M, the objects the references among V[0..N) may be, and all they
 * reach (close_esc_at, with H and CD). */
hset hp_escape_list_at(const hp *h, const htrace *e, hset m, const ir_vid *v,
		       uint32_t n, const char *cd)
{
	for (uint32_t i = 0; i < n; i++)
		if (is_ref(e->t, v[i]))
			m = hs_or(m, e->pts[v[i]]);
	return close_esc_at(h, e, m, cd);
}

hset hp_escape_list(const htrace *e, hset m, const ir_vid *v, uint32_t n)
{
	return hp_escape_list_at(NULL, e, m, v, n, NULL);
}

/* ---- cells of fresh objects ------------------------------------------------
 */

/* Cell C (identity * nf + field) may now also hold VAL (OTHER: an
 * object that is not fresh, or any escaped fresh one), wherever in the
 * object. */
void hp_cont_add(htrace *e, size_t c, hset val, bool other)
{
	e->cont[c] = hs_or(e->cont[c], val);
	e->cont_other[c] |= other;
	e->loose[c] = hs_or(e->loose[c], val);
	e->loose_other[c] |= other;
}

/* Item IDX of cell C now holds exactly VAL (OTHER), replacing what the
 * last store there put: the contents are recomputed from the items and
 * what is loose.  False when out of memory (the caller adds it loose). */
static bool item_set(htrace *e, size_t c, uint64_t idx, hset val, bool other)
{
	uint32_t i = 0;
	while (i < e->nitems && (e->items[i].c != c || e->items[i].idx != idx))
		i++;
	if (i == e->nitems) {
		if (e->nitems == e->capitems) {
			uint32_t cap = e->capitems ? 2 * e->capitems : 16;
			struct hitem *v =
			    realloc(e->items, cap * sizeof *e->items);
			if (!v)
				return false;
			e->items = v;
			e->capitems = cap;
		}
		e->nitems++;
	}
	e->items[i] = (struct hitem){c, idx, val, other};
	e->cont[c] = e->loose[c];
	e->cont_other[c] = e->loose_other[c];
	for (uint32_t j = 0; j < e->nitems; j++)
		if (e->items[j].c == c) {
			e->cont[c] = hs_or(e->cont[c], e->items[j].val);
			e->cont_other[c] |= e->items[j].other;
		}
	return true;
}

/* ---- loads and stores ------------------------------------------------------
 */

/* The points-to facts of a load of field F through the value SRC. */
void hp_load_facts(htrace *e, uint32_t f, ir_vid src, ir_vid dst)
{
	hset m = hs_none(), from = e->pts[src];
	bool other = e->other[src];
	for (uint32_t x = 0; x < HP_MAXID; x++)
		if (hs_has(from, x)) {
			m = hs_or(m, e->cont[(size_t)x * e->nf + f]);
			other |= e->cont_other[(size_t)x * e->nf + f];
		}
	if (e->other[src])
		for (uint32_t k = 0; k < e->npend; k++)
			if (e->pend[k].f == f)
				m = hs_or(m, e->pend[k].val);
	e->pts[dst] = m;
	e->other[dst] = other;
}

/* The points-to and escape facts of a store of the reference V into
 * field F of OBJ (item IDX when ITEM).  A store into the object of an
 * allocation's own result replaces the field's contents (that reference
 * is exactly one object, and a NULL access is undefined), and likewise
 * the item at a constant index; any other item store adds to what the
 * array may hold.  When the holder may be an object that is not fresh,
 * or a fresh object that escaped, the value escapes at the next event
 * that sees the field (pending: a call whose descr ignores it does not,
 * as the interpreter's reach skips it there; an exit and the end do);
 * otherwise it escapes later, with its holder (close_esc), if ever: a
 * fresh object reached only through fresh objects the world cannot reach
 * stays unreachable (the run-time rule of docs/semantics.md). */
void hp_store_facts(htrace *e, uint32_t f, ir_vid obj, ir_vid v, bool item,
		    ir_vid idx)
{
	const ir_trace *t = e->t;
	hset holders = e->pts[obj], val = e->pts[v];
	bool known_fresh = ir_allocated(t, obj);
	bool const_item = item && ir_val(t, idx)->tag == IR_VAL_CONST_INT;
	bool exact_item = const_item && known_fresh;
	for (uint32_t x = 0; x < HP_MAXID; x++) {
		if (!hs_has(holders, x))
			continue;
		size_t c = (size_t)x * e->nf + f;
		if (exact_item &&
		    item_set(e, c, ir_val(t, idx)->cval, val, e->other[v]))
			continue;
		if (known_fresh && !item) {
			e->cont[c] = val;
			e->cont_other[c] = e->other[v];
		} else {
			hp_cont_add(e, c, val, e->other[v]);
		}
	}
	/* A holder that may be an object that is not fresh may also be any
	 * escaped fresh object (the world hands those back): each may now
	 * hold the value. */
	if (e->other[obj])
		for (uint32_t x = 0; x < HP_MAXID; x++)
			if (hs_has(e->esc, x))
				hp_cont_add(e, (size_t)x * e->nf + f, val,
					    e->other[v]);
	if (hs_any(hs_and(holders, e->esc)) || e->other[obj])
		add_pending(e, obj, f, val,
			    !item	 ? HP_PEND_FIELD
			    : const_item ? HP_PEND_ITEM
					 : HP_PEND_ANY_ITEM,
			    const_item ? ir_val(t, idx)->cval : 0);
	else
		e->esc = close_esc(e, e->esc);
}

/* Notes that E stored field F of OBJ, when OBJ is an allocation's own
 * result (exactly one fresh identity), before its next call. */
void hp_mark_built(htrace *e, uint32_t f, ir_vid obj)
{
	if (!ir_allocated(e->t, obj))
		return;
	for (uint32_t x = 0; x < HP_MAXID; x++) {
		size_t c = (size_t)x * e->nf + f;
		if (hs_has(e->pts[obj], x) && e->built[c] == UINT32_MAX)
			e->built[c] = e->ncalls;
	}
}

/* ---- a store that puts back what a load read ------------------------------
 *
 * PyPy's unoptimized traces save a field, store something else there and
 * put the saved value back: the execution context's topframeref around
 * an inlined call, with a virtual ref of the callee's frame in between
 * (pypy/interpreter/executioncontext.py, enter and leave).  The saved
 * value may be a fresh object stored into that field of another reference
 * that may be the same object (the thread's context as an input and as
 * threadlocalref_get's result), so the plain rule lets the put-back leave
 * that object pending under the new holder, and it escapes at the next
 * call although a later store overwrote it.
 *
 * Why restoring the holder's pending entry is sound: after the put-back,
 * field F of H holds exactly what it held at the load, because nothing in
 * between stored into F but into H itself (which the put-back
 * overwrites) and nothing in between was a call or any other op that
 * writes fields.  What F of H held at the load was what the world held
 * there (not fresh, or escaped) or a fresh object left pending by a store
 * into F of some holder that is H at run time: H's own entry, which the
 * put-back restores as it was, or another holder's entry, which stays
 * until a store into F of that holder replaces it -- and that store, to
 * the same object, replaces what F of H holds too.  Stores into F of
 * other holders between the load and the put-back would break the
 * argument (the put-back would bring back what such a store replaced),
 * so there are none. */

void hp_note_read(htrace *e, uint32_t i, uint32_t f)
{
	const ir_op *op = &e->t->ops[i];
	ir_vid dst = op->result;
	uint32_t k = find_pending(e, op->args[0], f, HP_PEND_FIELD, 0);
	e->rdseen[dst] = k < e->npend ? 2 : 1;
	if (k < e->npend)
		e->rdpend[dst] = e->pend[k].val;
}

/* Whether op OP of T may change a field other than by its own setfield:
 * anything but a plain op, a guard, or a call PyPy's descr makes a
 * function of its arguments (ir_pycall_of; no event, no effect). */
static bool may_write_fields(const ir_trace *t, const ir_op *op)
{
	if (op->opc == IR_ESCAPE_N || op->opc == IR_ESCAPE_I)
		return true;
	if (op->opc != IR_OPAQUE)
		return false;
	ir_pycall pc = ir_pycall_of(t, op);
	return pc != IR_PYCALL_PURE && pc != IR_PYCALL_LOOPINV &&
	       pc != IR_PYCALL_FRAME;
}

/* Whether store I of E puts back, into field F of an object that is not
 * one of the trace's allocations, what load R read from there, with no op
 * in between that writes F of another holder or any field otherwise. */
static bool puts_back(const htrace *e, uint32_t i, uint32_t *r)
{
	const ir_trace *t = e->t;
	const ir_op *op = &t->ops[i];
	ir_vid obj = op->args[0], v = op->args[1];
	*r = ir_defop(t, v);
	if (*r == UINT32_MAX || !e->rdseen[v] || !e->other[obj] ||
	    hs_any(e->pts[obj]) || !op->descr)
		return false;
	const ir_op *rd = &t->ops[*r];
	const char *d = t->strs[op->descr];
	if (rd->opc != IR_GETFIELD_GC_R || rd->args[0] != obj || !rd->descr ||
	    strcmp(t->strs[rd->descr], d))
		return false;
	for (uint32_t j = *r + 1; j < i; j++) {
		const ir_op *q = &t->ops[j];
		if (may_write_fields(t, q))
			return false;
		if (q->opc == IR_SETFIELD_GC && q->args[0] != obj &&
		    (!q->descr || !strcmp(t->strs[q->descr], d)))
			return false;
	}
	return true;
}

void hp_store_back(htrace *e, uint32_t i, uint32_t f)
{
	uint32_t r;
	if (!puts_back(e, i, &r))
		return;
	ir_vid obj = e->t->ops[i].args[0], v = e->t->ops[i].args[1];
	uint32_t k = find_pending(e, obj, f, HP_PEND_FIELD, 0);
	if (k == e->npend)
		return; /* hp_store_facts left nothing pending */
	if (e->rdseen[v] == 2) {
		e->pend[k].val = e->rdpend[v];
		return;
	}
	e->pend[k] = e->pend[--e->npend];
}
