/*
 * heap_model.c - the part of the heap model both traces share: fields,
 * identities of fresh objects (paired by their first access path, or by
 * name), calls, constant pointers, the background assumptions and the
 * realism check of the unknown heap (heap.h has the model).
 *
 * Map: support (hp_uses_heap, hp_supported); the shared model; pairing
 * fresh objects by their first access path; what a call returns; realism
 * of the unknown heap.
 */
#include "heap_int.h"

/* ---- support ------------------------------------------------------------ */

/* A ConstPtr is an object of the heap model even without a heap op (the
 * integer encoder has no term for it). */
static bool uses_const_ptr(const ir_trace *t, const ir_vid *v, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++)
		if (v[j] != IR_NOVAL &&
		    ir_val(t, v[j])->tag == IR_VAL_CONST_PTR)
			return true;
	return false;
}

bool hp_uses_heap(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		uint32_t c;
		if (ir_op_has(op->opc, IRF_HEAP) || ir_py_str_copy(t, op) ||
		    ir_py_clears_vable(t, op, &c) != UINT32_MAX ||
		    uses_const_ptr(t, op->args, op->nargs) ||
		    uses_const_ptr(t, op->failargs, op->nfail))
			return true;
	}
	return false;
}

/* Whether argument J of OP is a ConstClass whose value the model would
 * need: not the class of guard_class (a class by name) nor the function
 * a call names (call_fn).  Classes have no address in the model, and
 * two classes compared as values would look alike. */
static bool class_as_value(const ir_trace *t, const ir_op *op, uint32_t j)
{
	if (op->args[j] == IR_NOVAL ||
	    ir_val(t, op->args[j])->tag != IR_VAL_CONST_CLASS)
		return false;
	if (op->opc != IR_OPAQUE)
		return ir_op_argkind(op->opc, (int)j) != 'c';
	uint32_t c;
	(void)ir_py_call_event(t, op, &c);
	return j != c && j != 0;
}

jp_status hp_supported(const ir_trace *t, const char *file, jp_err *err)
{
	if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64)
		return jp_fail(err, JP_EINPUT, "unsupported width %d",
			       t->width);
	/* A string copy's indices are words (heap_encode.c, mem_copy_range):
	 * at another width they would wrap elsewhere than the trace's. */
	for (uint32_t i = 0; i < t->nops && t->width != 64; i++)
		if (ir_py_str_copy(t, &t->ops[i]))
			return jp_fail_at(err, JP_EUNSUPPORTED, file,
					  t->ops[i].line, t->ops[i].col,
					  "%s needs width 64",
					  ir_op_name(t, &t->ops[i]));
	/* An opaque op returning a reference is a call whose result is NULL,
	 * an object that is not fresh or an escaped fresh one
	 * (hp_call_results). */
	return JP_OK;
}

jp_status hp_scan_classes(hp *h, const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		for (uint32_t j = 0; j < op->nargs; j++) {
			if (!class_as_value(t, op, j))
				continue;
			h->over_limit = true;
			return jp_fail_at(
			    h->err, JP_EUNSUPPORTED, NULL, op->line, op->col,
			    "argument %u of %s is a class constant used as a "
			    "value; the heap model has no address for a class",
			    j + 1, ir_op_name(t, op));
		}
	}
	return JP_OK;
}

uint32_t hp_field_index(const hp *h, const char *name)
{
	for (uint32_t i = 0; i < h->nf; i++)
		if (!strcmp(h->f[i].name, name))
			return i;
	return HP_NONE;
}

uint32_t hp_class_find(const hp *h, const char *name, size_t len)
{
	for (uint32_t i = 0; i < h->ncls; i++)
		if (strlen(h->cls[i].name) == len &&
		    !strncmp(h->cls[i].name, name, len))
			return i + 1;
	return HP_NONE;
}

uint32_t hp_class_index(hp *h, const char *name)
{
	uint32_t c = hp_class_find(h, name, strlen(name));
	if (c != HP_NONE)
		return c;
	h->cls[h->ncls].name = name;
	return ++h->ncls;
}

/* A field is one 64-bit word per object, whatever kind of value is
 * written to it: an integer is stored as its W-bit pattern zero-extended
 * and read back as the low W bits, a reference as its address.  Chosen
 * over one array per (field, kind) because the toy spelling's fields are
 * offsets: a store of either kind replaces what the field held, so a dead
 * store of a reference followed by one of an integer is dead in both
 * models only with one word.  Which kind a cell holds matters only to the
 * replay's reachability, and the interpreter records it per write
 * (interp_obj.kinds).  PyPy's typed descrs keep their one kind: outside
 * the toy spelling a field used with both kinds is an input error. */
static bool ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), m = strlen(sfx);
	return n >= m && !strcmp(s + n - m, sfx);
}

/* Adds the field of descr NAME (or checks it), used by op OP of T. */
static jp_status add_named_field(hp *h, const ir_trace *t, const ir_op *op,
				 const char *name, char kind, bool indexed)
{
	/* The interpreter names item I of descr D "D[I]" (interp.h): a
	 * field of that name would be the same cell there. */
	if (!indexed && ends_with(name, "]"))
		return jp_fail_at(h->err, JP_EINPUT, NULL, op->line, op->col,
				  "field descr '%s' ends in ']', which names "
				  "array items (getarrayitem_gc_*); use "
				  "another name",
				  name);
	uint32_t i = hp_field_index(h, name);
	if (i != HP_NONE && h->f[i].indexed != indexed)
		return jp_fail_at(h->err, JP_EINPUT, NULL, op->line, op->col,
				  "descr '%s' is used for array items and for "
				  "a field; a PyPy descr is one or the other",
				  name);
	if (i != HP_NONE) {
		if (h->f[i].kind != kind && h->f[i].kind != 'm' && !t->toy)
			return jp_fail_at(
			    h->err, JP_EINPUT, NULL, op->line, op->col,
			    "field '%s' is used as %s here and as %s "
			    "before; a PyPy descr has one kind (the heap "
			    "model lets only the toy spelling's fields hold "
			    "either)",
			    name, kind == 'r' ? "a reference" : "an integer",
			    kind == 'r' ? "an integer" : "a reference");
		if (h->f[i].kind != kind)
			h->f[i].kind = 'm';
		return JP_OK;
	}
	hfield *f = &h->f[h->nf++];
	f->name = name;
	f->kind = kind;
	f->immutable = ir_py_field_immutable(name) ||
		       (indexed && ir_py_items_immutable(name));
	f->indexed = indexed;
	f->immut = !indexed && ir_descr_is_length(name);
	f->bits = indexed ? ir_py_item_bits(name, &f->bits_signed) : 0;
	if (!h->z)
		return JP_OK; /* the concrete comparison needs no terms */
	f->range = zc_bv_sort(h->z, 64u);
	char sym[32];
	snprintf(sym, sizeof sym, "h0_%u", h->nf - 1);
	f->h0 =
	    K(h,
	      Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
			  Z3_mk_array_sort(h->z, hp_key_sort(h, f), f->range)));
	return JP_OK;
}

static jp_status add_field(hp *h, const ir_trace *t, const ir_op *op, char kind,
			   bool indexed)
{
	return add_named_field(h, t, op, t->strs[op->descr], kind, indexed);
}

Z3_sort hp_key_sort(const hp *h, const hfield *f)
{
	return zc_bv_sort(h->z, f->indexed ? 128u : 64u);
}

jp_status hp_scan_fields(hp *h, const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		jp_status st = JP_OK;
		if (op->opc == IR_GETFIELD_GC_I)
			st = add_field(h, t, op, 'i', false);
		else if (op->opc == IR_GETFIELD_GC_R)
			st = add_field(h, t, op, 'r', false);
		else if (op->opc == IR_SETFIELD_GC)
			st = add_field(
			    h, t, op,
			    ir_val(t, op->args[1])->kind == 'r' ? 'r' : 'i',
			    false);
		else if (op->opc == IR_GETARRAYITEM_GC_I)
			st = add_field(h, t, op, 'i', true);
		else if (op->opc == IR_GETARRAYITEM_GC_R)
			st = add_field(h, t, op, 'r', true);
		else if (op->opc == IR_SETARRAYITEM_GC)
			st = add_field(
			    h, t, op,
			    ir_val(t, op->args[2])->kind == 'r' ? 'r' : 'i',
			    true);
		else if (ir_py_str_copy(t, op))
			st = add_named_field(h, t, op, ir_py_str_copy(t, op),
					     'i', true);
		if (st)
			return st;
		if (op->opc == IR_GUARD_CLASS)
			hp_class_index(h, ir_valname(t, op->args[1]));
		if (op->opc == IR_NEW || op->opc == IR_NEW_WITH_VTABLE)
			hp_class_index(h, t->strs[op->descr]);
	}
	return JP_OK;
}

/* Whether fresh objects get fixed, distinct addresses (HP_FRESH_ADDR)
 * instead of symbolic ones constrained to be distinct.  The model looks at
 * a reference only through equality, NULL tests, the heap arrays it
 * indexes and the class function `type`; no term reads its bits as an
 * integer as long as every field holds one kind (the toy spelling's mixed
 * fields, kind 'm', store an address in a word an integer read sees).
 * Then a model of the symbolic form, renamed by a permutation of the
 * non-null addresses that sends each a_x to HP_FRESH_ADDR(x), is a model of
 * the fixed form with every verdict the same, and the converse is
 * immediate: the fixed form decides exactly what the symbolic one does.
 * The solver gains: a disequality "r is not a_x" becomes one comparison
 * with a numeral, and the distinctness of the fresh addresses disappears
 * (docs/trust.md, "Fresh addresses as numerals"; 5 to 10 times faster on
 * the heap queries of real PyPy loops, docs/performance.md). */
static bool addresses_as_numerals(const hp *h)
{
	for (uint32_t i = 0; i < h->nf; i++)
		if (h->f[i].kind == 'm')
			return false;
	return true;
}

static jp_status new_ident(hp *h, const ir_trace *t, const ir_op *op,
			   uint32_t *out)
{
	if (h->nid == HP_MAXID) {
		h->over_limit = true;
		return jp_fail_at(h->err, JP_EUNSUPPORTED, NULL, op->line,
				  op->col,
				  "more than %d fresh objects in the two "
				  "traces; the heap model stops there",
				  HP_MAXID);
	}
	hident *d = &h->id[h->nid];
	uint32_t me = h->nid;
	d->name = ir_valname(t, op->result);
	d->cls = hp_class_index(h, t->strs[op->descr]);
	d->unnamed = op->opc == IR_NEW_WITH_VTABLE &&
		     !strncmp(t->strs[op->descr], "<SizeDescr", 10);
	*out = h->nid++;
	if (!h->z)
		return JP_OK;
	/* The class of an unnamed allocation is one real class the log
	 * does not print: any class, the same object's in both traces. */
	char csym[32];
	snprintf(csym, sizeof csym, "class%u", me);
	d->clsv = d->unnamed
		      ? K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, csym),
					 zc_bv_sort(h->z, 16)))
		      : zc_bv(&h->S, 16, d->cls);
	if (addresses_as_numerals(h)) {
		d->addr = zc_bv(&h->S, 64, HP_FRESH_ADDR(me));
		return JP_OK;
	}
	char sym[32];
	snprintf(sym, sizeof sym, "a%u", me);
	d->addr = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
				   zc_bv_sort(h->z, 64)));
	return JP_OK;
}

/* ---- pairing fresh objects by their first access path ------------------
 *
 * Allocations of the two traces that the result names do not pair are
 * paired by the path through which each first becomes observable (see
 * heap.h): "call K arg J", "end arg J", "guard L failarg J", or
 * "in P.F" (stored into field F of input P), extended by ".F" for an
 * object first reached through field F of an object with a path.  The
 * escape rules are the encoder's (a static over-approximation). */

typedef struct hpaths {
	const ir_trace *t;
	uint32_t *aop; /* allocation index -> op */
	hset *pts;     /* per vid: allocations it may be */
	char **key;    /* per allocation: its path, or NULL */
	hset esc;      /* allocations escaped so far */
	bool *hidden;  /* per op: a store the next call does not see, unnamed */
	uint32_t nhidden; /* how many of them */
	uint32_t nalloc;
	bool failed;
} hpaths;

/* Whether OP stores a reference into a field or an array item: *VAL the
 * value, LABEL the field ("D", "D[K]" at a constant index K, "D[*]" at a
 * variable one). */
static bool ref_store(const ir_trace *t, const ir_op *op, ir_vid *val,
		      char *label, size_t cap)
{
	const char *d = op->descr ? t->strs[op->descr] : "";
	if (op->opc == IR_SETFIELD_GC && is_ref(t, op->args[1])) {
		*val = op->args[1];
		snprintf(label, cap, "%s", d);
		return true;
	}
	if (op->opc != IR_SETARRAYITEM_GC || !is_ref(t, op->args[2]))
		return false;
	*val = op->args[2];
	const ir_value *i = ir_val(t, op->args[1]);
	if (i->tag == IR_VAL_CONST_INT)
		snprintf(label, cap, "%s[%llu]", d,
			 (unsigned long long)i->cval);
	else
		snprintf(label, cap, "%s[*]", d);
	return true;
}

static void key_set(hpaths *P, uint32_t x, const char *k)
{
	if (P->key[x])
		return;
	size_t n = strlen(k);
	P->key[x] = malloc(n + 1);
	if (!P->key[x]) {
		P->failed = true;
		return;
	}
	memcpy(P->key[x], k, n + 1);
}

/* Gives every allocation in MASK that has no path the path K. */
static void key_mask(hpaths *P, hset mask, const char *k)
{
	for (uint32_t x = 0; x < P->nalloc; x++)
		if (hs_has(mask, x))
			key_set(P, x, k);
}

static bool holder_name(const ir_trace *t, ir_vid v, int depth, strbuf *sb);

/* Whether A and B are one object by value or by name (holder_name): the
 * thread-local context reached through a bridge input in one place and a
 * loop-invariant call in another. */
static bool same_holder(const ir_trace *t, ir_vid a, ir_vid b)
{
	if (a == b)
		return true;
	strbuf x, y;
	sb_init(&x);
	sb_init(&y);
	bool same = holder_name(t, a, 0, &x) && holder_name(t, b, 0, &y) &&
		    x.buf && y.buf && !strcmp(x.buf, y.buf);
	sb_release(&x);
	sb_release(&y);
	return same;
}

/* Whether a reference store after op I, through the same reference,
 * writes the cell LBL of store I again before op UPTO -- or, with
 * AT_EVENTS, before the next call or end, whichever comes first.  A cell
 * at a variable index ("[*]") is never known to be the same. */
static bool same_cell_later(const ir_trace *t, uint32_t i, const char *lbl,
			    uint32_t upto, bool at_events)
{
	size_t n = strlen(lbl);
	if (n >= 3 && !strcmp(lbl + n - 3, "[*]"))
		return false;
	for (uint32_t j = i + 1; j < upto; j++) {
		const ir_op *q = &t->ops[j];
		ir_vid sv;
		char l2[320];
		if (at_events &&
		    (hp_is_call(t, q) || ir_op_has(q->opc, IRF_END)))
			return false;
		if (ref_store(t, q, &sv, l2, sizeof l2) && !strcmp(l2, lbl) &&
		    same_holder(t, q->args[0], t->ops[i].args[0]))
			return true;
	}
	return false;
}

/* Whether the reference store I no longer holds at op UPTO: a later
 * reference store before UPTO through the same allocation's own result
 * (exactly one object) replaces the same cell (a field, or an item at the
 * same constant index).  A fresh frame's stack slot is written many times
 * before the frame escapes; only what it holds then is reached through
 * it. */
static bool store_replaced(const ir_trace *t, uint32_t i, const char *lbl,
			   uint32_t upto)
{
	return ir_allocated(t, t->ops[i].args[0]) &&
	       same_cell_later(t, i, lbl, upto, false);
}

/* The first call or end of T at or after op I (T->nops when none): where
 * the heaps are next compared. */
static uint32_t next_event(const ir_trace *t, uint32_t i)
{
	while (i < t->nops && !hp_is_call(t, &t->ops[i]) &&
	       !ir_op_has(t->ops[i].opc, IRF_END))
		i++;
	return i;
}

/* Offers the path "K.LBL" to every allocation in MASK; BEST keeps the
 * smallest offer each has had. */
static void key_offer(hpaths *P, char **best, hset mask, const char *k,
		      const char *lbl)
{
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s.%s", k, lbl);
	P->failed |= !sb.buf;
	for (uint32_t x = 0; sb.buf && x < P->nalloc; x++) {
		if (!hs_has(mask, x) ||
		    (best[x] && strcmp(sb.buf, best[x]) >= 0))
			continue;
		char *c = malloc(sb.len + 1);
		P->failed |= !c;
		if (c) {
			memcpy(c, sb.buf, sb.len + 1);
			free(best[x]);
			best[x] = c;
		}
	}
	sb_release(&sb);
}

/* Objects stored (before op UPTO) into objects with a path, and still
 * held there at the next call or end (a store through an allocation's
 * own result replaced before then is never seen), get the path of the
 * holder extended by the field; ESCAPE adds them to the escaped set.
 * The paths go out breadth first, and an object held in several cells
 * takes the smallest of their paths: which cell the trace happened to
 * write first is not a fact of the object (the unoptimized trace moves a
 * value through a frame's stack slots before it settles in a local,
 * where the optimized trace stores it once), so both traces must name it
 * alike from what the cells hold at the event. */
static void key_closure(hpaths *P, uint32_t upto, hset seen, bool escape)
{
	const ir_trace *t = P->t;
	uint32_t seen_at = next_event(t, upto);
	char **best = calloc(P->nalloc + 1, sizeof *best);
	if (!best) {
		P->failed = true;
		return;
	}
	for (;;) {
		hset found = hs_none();
		for (uint32_t i = 0; i < upto; i++) {
			const ir_op *op = &t->ops[i];
			ir_vid sv;
			char lbl[320];
			if (!ref_store(t, op, &sv, lbl, sizeof lbl) ||
			    store_replaced(t, i, lbl, seen_at))
				continue;
			hset obj = P->pts[op->args[0]];
			hset val = hs_minus(P->pts[sv], seen);
			if (!hs_any(hs_and(obj, seen)) || !hs_any(val))
				continue;
			for (uint32_t x = 0; x < P->nalloc; x++)
				if (hs_has(obj, x) && P->key[x])
					key_offer(P, best, val, P->key[x], lbl);
			found = hs_or(found, val);
		}
		if (!hs_any(found))
			break;
		for (uint32_t x = 0; x < P->nalloc; x++) {
			if (best[x] && !P->key[x])
				P->key[x] = best[x]; /* the path is its now */
			else
				free(best[x]);
			best[x] = NULL;
		}
		seen = hs_or(seen, found);
	}
	free(best);
	if (escape)
		P->esc = hs_or(P->esc, seen);
}

/* The objects of the values V[0..n) become observable at EVENT. */
static void key_event(hpaths *P, uint32_t i, const char *event,
		      const char *what, const ir_vid *v, uint32_t n,
		      bool escape)
{
	hset seen = escape ? P->esc : hs_none();
	for (uint32_t j = 0; j < n; j++) {
		if (!is_ref(P->t, v[j]))
			continue;
		strbuf sb;
		sb_init(&sb);
		sb_printf(&sb, "%s %s %u", event, what, j);
		key_mask(P, hs_minus(P->pts[v[j]], seen), sb.buf ? sb.buf : "");
		P->failed |= !sb.buf;
		sb_release(&sb);
		seen = hs_or(seen, P->pts[v[j]]);
	}
	key_closure(P, i, seen, escape);
}

/* The name of the reference a loop-invariant call OP returns, LBL
 * appended: both traces see one object per function and integer constant
 * arguments in a run (ir_pycall_of, IR_PYCALL_LOOPINV). */
static void loopinv_key(strbuf *sb, const ir_trace *t, const ir_op *op,
			const char *lbl)
{
	uint32_t first;
	sb_printf(sb, "loopinvariant %s(", ir_pycall_fn(t, op, &first));
	for (uint32_t j = first; j < op->nargs; j++)
		sb_printf(sb, "%s%llu", j > first ? "," : "",
			  (unsigned long long)ir_val(t, op->args[j])->cval);
	sb_printf(sb, ")%s", lbl);
}

/* The loop-invariant call (its op) whose result a guard_true(ptr_eq)
 * says is input V, or UINT32_MAX.  A bridge's facts state that the
 * thread-local execution context is one of its inputs; one trace may
 * reach the context through the input and the other through a new
 * call_loopinvariant (memo's recursive calls), and both must name it
 * alike for the objects stored into it to pair. */
static uint32_t loopinv_alias(const ir_trace *t, ir_vid v)
{
	if (ir_val(t, v)->tag != IR_VAL_INPUT)
		return UINT32_MAX;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *g = &t->ops[i];
		if (g->opc != IR_GUARD_TRUE)
			continue;
		uint32_t e = ir_defop(t, g->args[0]);
		if (e == UINT32_MAX || t->ops[e].opc != IR_PTR_EQ)
			continue;
		const ir_op *eq = &t->ops[e];
		for (int k = 0; k < 2; k++) {
			uint32_t c = ir_defop(t, eq->args[1 - k]);
			if (eq->args[k] == v && c != UINT32_MAX &&
			    ir_pycall_of(t, &t->ops[c]) == IR_PYCALL_LOOPINV)
				return c;
		}
	}
	return UINT32_MAX;
}

/* The path of cell LBL of the holder of store OP when the holder is not
 * fresh and can be named the same way in both traces (an input by
 * position, a ConstPtr, a loop-invariant call's result), into SB; false
 * otherwise. */
static bool holder_key(const ir_trace *t, const ir_op *op, const char *lbl,
		       strbuf *sb);

/* The name of the non-fresh object V: an input by position, a ConstPtr,
 * a loop-invariant call's result, or a field read from one of those (a
 * list's item array), DEPTH levels at most; false when it has none. */
static bool holder_name(const ir_trace *t, ir_vid v, int depth, strbuf *sb)
{
	const ir_value *x = ir_val(t, v);
	uint32_t d = ir_defop(t, v);
	const ir_op *dop = d != UINT32_MAX ? &t->ops[d] : NULL;
	uint32_t li = loopinv_alias(t, v);
	if (li != UINT32_MAX) /* the name the other trace may use for it */
		loopinv_key(sb, t, &t->ops[li], "");
	else if (x->tag == IR_VAL_INPUT) /* by position: names may differ */
		sb_printf(sb, "input %u", x->def);
	else if (x->tag == IR_VAL_CONST_PTR)
		sb_printf(sb, "ConstPtr(%s)", t->strs[x->name]);
	else if (dop && ir_pycall_of(t, dop) == IR_PYCALL_LOOPINV)
		loopinv_key(sb, t, dop, ""); /* one object per arguments */
	else if (dop && dop->opc == IR_GETFIELD_GC_R && depth > 0 &&
		 holder_name(t, dop->args[0], depth - 1, sb))
		sb_printf(sb, "->%s", dop->descr ? t->strs[dop->descr] : "");
	else
		return false;
	return true;
}

static bool holder_key(const ir_trace *t, const ir_op *op, const char *lbl,
		       strbuf *sb)
{
	sb_puts(sb, "in ");
	if (!holder_name(t, op->args[0], 3, sb))
		return false;
	sb_printf(sb, ".%s", lbl);
	return true;
}

/* Whether the reference store I into a cell of a non-fresh object is
 * replaced before anything can see it: a later reference store into the
 * same cell through the same value (a field, or an item at the same
 * constant index) with no call and no end between.  Calls and the end are
 * where the two traces' heaps are compared for runs that reach both ends
 * (guards compare nothing there: trace mode and the inferred pairing),
 * so only the object stored last is seen in that cell; an inlined
 * __init__ that stores a temporary array into an attribute and then the
 * array that replaces it is optimized into the last store alone.  (The
 * pairing is a choice of names: whichever it picks, a difference stays a
 * difference.) */
static bool store_overwritten(const ir_trace *t, uint32_t i, const char *lbl)
{
	return same_cell_later(t, i, lbl, t->nops, true);
}

/* How many stores before op I put what may be a fresh object into the
 * cell named KEY (holder_key): the same cell of a non-fresh object is
 * written again on every iteration of an unrolled loop, and the k-th
 * object stored there pairs with the k-th of the other trace.  A store
 * overwritten before anything sees it does not count. */
static uint32_t earlier_stores(const hpaths *P, uint32_t i, const char *key)
{
	const ir_trace *t = P->t;
	uint32_t n = 0;
	for (uint32_t j = 0; j < i; j++) {
		ir_vid sv;
		char lbl[320];
		if (!ref_store(t, &t->ops[j], &sv, lbl, sizeof lbl) ||
		    !hs_any(P->pts[sv]) || store_overwritten(t, j, lbl))
			continue;
		strbuf sb;
		sb_init(&sb);
		n += holder_key(t, &t->ops[j], lbl, &sb) && sb.buf &&
		     !strcmp(sb.buf, key);
		sb_release(&sb);
	}
	return n;
}

/* Whether the field or item store I into a non-fresh object is hidden
 * from the next event: that event is a call whose descr says it ignores
 * the field or the items of the array descr (ir_py_call_ignores: the
 * optimizer delayed such a store past the call, which does not see
 * it).  The stored object is then first seen later (a call's argument,
 * say), as in the trace that delayed the store. */
static bool store_hidden(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	if ((op->opc != IR_SETFIELD_GC && op->opc != IR_SETARRAYITEM_GC) ||
	    !op->descr)
		return false;
	uint32_t j = next_event(t, i + 1);
	if (j == t->nops || !hp_is_call(t, &t->ops[j]))
		return false; /* the end (or none) sees every field */
	const ir_op *q = &t->ops[j];
	return ir_py_call_ignores(ir_py_seen_descr(t, q), t->strs[op->descr]);
}

static void key_stored(hpaths *P, uint32_t i, bool fresh);

/* The stores hidden from the calls before event E (store_hidden) that E
 * sees: named now, before E's own arguments, as the trace that delayed
 * the store past those calls names them at its store. */
static void key_hidden(hpaths *P, uint32_t e)
{
	const ir_trace *t = P->t;
	const ir_op *ev = &t->ops[e];
	if (!P->nhidden)
		return; /* the usual case: nothing to scan for */
	const char *cd = hp_is_call(t, ev) ? ir_py_seen_descr(t, ev) : NULL;
	for (uint32_t j = 0; j < e; j++) {
		const ir_op *q = &t->ops[j];
		if (!P->hidden[j] ||
		    (cd && ir_py_call_ignores(cd, t->strs[q->descr])))
			continue;
		P->hidden[j] = false;
		P->nhidden--;
		key_stored(P, j, false);
	}
}

static void key_store(hpaths *P, uint32_t i)
{
	const ir_trace *t = P->t;
	const ir_op *op = &t->ops[i];
	ir_vid sv;
	char lbl[320];
	if (!ref_store(t, op, &sv, lbl, sizeof lbl))
		return;
	bool fresh = ir_allocated(t, op->args[0]);
	if (fresh && !hs_any(hs_and(P->pts[op->args[0]], P->esc)))
		return; /* the holder's own path covers it later */
	if (!fresh && store_overwritten(t, i, lbl))
		return; /* nothing sees it there: the later store names */
	if (!fresh && store_hidden(t, i)) {
		P->hidden[i] = true; /* named at the event that sees it */
		P->nhidden++;
		return;
	}
	key_stored(P, i, fresh);
}

/* Names what store I put into a holder: the holder's key for a non-fresh
 * holder, and the closure of what escapes with it. */
static void key_stored(hpaths *P, uint32_t i, bool fresh)
{
	const ir_trace *t = P->t;
	const ir_op *op = &t->ops[i];
	ir_vid sv;
	char lbl[320];
	if (!ref_store(t, op, &sv, lbl, sizeof lbl))
		return;
	hset val = hs_minus(P->pts[sv], P->esc);
	strbuf sb;
	sb_init(&sb);
	if (!fresh && holder_key(t, op, lbl, &sb) && sb.buf) {
		uint32_t k = earlier_stores(P, i, sb.buf);
		if (k)
			sb_printf(&sb, "#%u", k);
		key_mask(P, val, sb.buf ? sb.buf : "");
	}
	P->failed |= sb.oom;
	sb_release(&sb);
	/* Through anything else the path is not named: those objects stay
	 * without a path (and unpaired).  Into an escaped fresh object, the
	 * closure extends the holder's path. */
	key_closure(P, i + 1, fresh ? P->esc : hs_or(P->esc, val), true);
}

/* The function call OP of T calls, for naming: its ConstClass or
 * integer constant (a conditional call's after its condition), else the
 * op's name; *FIRST is set to its first argument after the function. */
static const char *call_fn(const ir_trace *t, const ir_op *op, char *num,
			   size_t cap, uint32_t *first)
{
	uint32_t c;
	const char *ev = ir_py_call_event(t, op, &c);
	*first = c;
	if (c >= op->nargs)
		return ev;
	const ir_value *f = ir_val(t, op->args[c]);
	if (f->tag == IR_VAL_CONST_CLASS) {
		*first = c + 1;
		return t->strs[f->name];
	}
	if (f->tag == IR_VAL_CONST_INT) {
		*first = c + 1;
		snprintf(num, cap, "%llu", (unsigned long long)f->cval);
		return num;
	}
	return ev;
}

/* Names call op I of T "call F#N", F its function (call_fn) and N how
 * many calls of F come before it; returns the index of its first
 * argument after the function.  By function, not by position: a
 * conditional call the optimizer dropped (it never calls) or made plain
 * leaves the names of the other calls as they were. */
static uint32_t call_name(const ir_trace *t, uint32_t i, char *ev, size_t cap)
{
	char num[32], num2[32];
	uint32_t first, f2, n = 0;
	const char *fn = call_fn(t, &t->ops[i], num, sizeof num, &first);
	for (uint32_t j = 0; j < i; j++)
		n +=
		    hp_is_call(t, &t->ops[j]) &&
		    !strcmp(fn, call_fn(t, &t->ops[j], num2, sizeof num2, &f2));
	snprintf(ev, cap, "call %.260s#%u", fn, n);
	return first;
}

/* What the field read I of a holder that is not fresh holds when the
 * trace stored into that field of the same holder (same_holder) after
 * its last call: that store's objects.  A frame's f_backref is the
 * thread-local context's topframeref that one trace reads back through
 * a loop-invariant call where the other passes the object it stored. */
static hset forwarded(const hpaths *P, uint32_t i)
{
	const ir_trace *t = P->t;
	const ir_op *op = &t->ops[i];
	if (op->opc != IR_GETFIELD_GC_R || !op->descr)
		return hs_none();
	for (uint32_t j = i; j-- > 0;) {
		const ir_op *q = &t->ops[j];
		ir_vid sv;
		char lbl[320];
		if (hp_is_call(t, q) || ir_op_has(q->opc, IRF_END))
			break;
		if (ref_store(t, q, &sv, lbl, sizeof lbl) &&
		    !strcmp(lbl, t->strs[op->descr]))
			return same_holder(t, q->args[0], op->args[0])
				   ? P->pts[sv]
				   : hs_none();
	}
	return hs_none();
}

static void key_walk(hpaths *P)
{
	const ir_trace *t = P->t;
	for (uint32_t i = 0; i < t->nops && !P->failed; i++) {
		const ir_op *op = &t->ops[i];
		char ev[320];
		if (ir_op_has(op->opc, IRF_ALLOC)) {
			for (uint32_t x = 0; x < P->nalloc; x++)
				if (P->aop[x] == i)
					P->pts[op->result] = hs_one(x);
		} else if (op->opc == IR_GETFIELD_GC_R ||
			   op->opc == IR_GETARRAYITEM_GC_R) {
			/* Whatever was stored into what the holder may be. */
			hset m = hs_none(), src = P->pts[op->args[0]];
			for (uint32_t j = 0; j < i; j++) {
				const ir_op *q = &t->ops[j];
				ir_vid sv;
				char lbl[320];
				if (ref_store(t, q, &sv, lbl, sizeof lbl) &&
				    hs_any(hs_and(P->pts[q->args[0]], src)))
					m = hs_or(m, P->pts[sv]);
			}
			if (!hs_any(src))
				m = forwarded(P, i);
			P->pts[op->result] = m;
		} else if (op->opc == IR_SETFIELD_GC ||
			   op->opc == IR_SETARRAYITEM_GC) {
			key_store(P, i);
		} else if (hp_is_call(t, op)) {
			key_hidden(P, i);
			uint32_t first = call_name(t, i, ev, sizeof ev);
			key_event(P, i, ev, "arg", op->args + first,
				  op->nargs - first, true);
		} else if (ir_op_has(op->opc, IRF_END)) {
			key_hidden(P, i);
			key_event(P, i, "end", "arg", op->args, op->nargs,
				  true);
		} else if (ir_op_has(op->opc, IRF_GUARD) && op->nfail) {
			snprintf(ev, sizeof ev, "guard %s",
				 ir_guard_label(t, i));
			key_event(P, i, ev, "failarg", op->failargs, op->nfail,
				  false);
		}
	}
}

static void paths_free(hpaths *P)
{
	for (uint32_t x = 0; P->key && x < P->nalloc; x++)
		free(P->key[x]);
	free(P->key);
	free(P->aop);
	free(P->pts);
	free(P->hidden);
}

/* Computes the first access path of every allocation of T; false when
 * out of memory.  More than HP_MAXID allocations: no paths. */
static bool paths_of(const ir_trace *t, hpaths *P)
{
	memset(P, 0, sizeof *P);
	P->t = t;
	for (uint32_t i = 0; i < t->nops; i++)
		P->nalloc += ir_op_has(t->ops[i].opc, IRF_ALLOC);
	P->aop = calloc(P->nalloc + 1, sizeof *P->aop);
	P->key = calloc(P->nalloc + 1, sizeof *P->key);
	P->pts = calloc(t->nvals + 1, sizeof *P->pts);
	P->hidden = calloc(t->nops + 1, sizeof *P->hidden);
	if (!P->aop || !P->key || !P->pts || !P->hidden)
		return false;
	if (P->nalloc > HP_MAXID) {
		P->nalloc = 0;
		return true;
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has(t->ops[i].opc, IRF_ALLOC))
			P->aop[n++] = i;
	key_walk(P);
	return !P->failed;
}

/* Allocation X of P is paired-by-path candidate: it has a path no other
 * unpaired allocation of the same trace shares. */
static bool key_unique(const hpaths *P, uint32_t x, const uint32_t *ident)
{
	if (!P->key[x])
		return false;
	for (uint32_t y = 0; y < P->nalloc; y++)
		if (y != x && ident[P->aop[y]] == HP_NONE && P->key[y] &&
		    !strcmp(P->key[x], P->key[y]))
			return false;
	return true;
}

/* Pairs the allocations left unpaired so far (ORIG's that no OPT
 * allocation took, OPT's without identity: a hint may have paired some)
 * by equal, unique paths and the same op and type. */
static jp_status pair_by_path(hp *h, bool *taken)
{
	const ir_trace *o = h->o, *p = h->p;
	hpaths A, B;
	bool ok = paths_of(o, &A);
	ok = paths_of(p, &B) && ok;
	uint32_t *oid = calloc(o->nops + 1, sizeof *oid);
	ok = ok && oid;
	for (uint32_t i = 0; ok && i < o->nops; i++)
		oid[i] = h->ho.ident[i] != HP_NONE && taken[h->ho.ident[i]]
			     ? h->ho.ident[i]
			     : HP_NONE;
	for (uint32_t y = 0; ok && y < B.nalloc; y++) {
		const ir_op *op = &p->ops[B.aop[y]];
		if (h->hpp.ident[B.aop[y]] != HP_NONE ||
		    !key_unique(&B, y, h->hpp.ident))
			continue;
		for (uint32_t x = 0; x < A.nalloc; x++) {
			const ir_op *q = &o->ops[A.aop[x]];
			if (oid[A.aop[x]] != HP_NONE || !A.key[x] ||
			    strcmp(A.key[x], B.key[y]) ||
			    !key_unique(&A, x, oid) ||
			    !hp_same_alloc(o, q, p, op))
				continue;
			h->hpp.ident[B.aop[y]] = h->ho.ident[A.aop[x]];
			oid[A.aop[x]] = h->ho.ident[A.aop[x]];
			taken[h->ho.ident[A.aop[x]]] = true;
			break;
		}
	}
	free(oid);
	paths_free(&A);
	paths_free(&B);
	return ok ? JP_OK : jp_fail(h->err, JP_ENOMEM, "out of memory");
}

/* Pairs the allocations HINT_IN pairs (the pairing a replay's runs
 * forced, hp_take_hint), when both are allocations of one op and type. */
static void pair_by_hint(hp *h, bool *taken)
{
	const ir_trace *o = h->o, *p = h->p;
	for (uint32_t i = 0; h->hint_in && i < o->nops; i++) {
		uint32_t j = h->hint_in[i];
		if (j >= p->nops ||
		    !hp_same_alloc(o, &o->ops[i], p, &p->ops[j]) ||
		    h->hpp.ident[j] != HP_NONE || taken[h->ho.ident[i]])
			continue;
		h->hpp.ident[j] = h->ho.ident[i];
		taken[h->ho.ident[i]] = true;
	}
}

/* Pairs allocations as a hint says, then by their first access path, then
 * the rest by result name, op and type; see heap.h. */
jp_status hp_scan_idents(hp *h)
{
	const ir_trace *o = h->o, *p = h->p;
	bool taken[HP_MAXID] = {false};
	for (uint32_t i = 0; i < o->nops; i++)
		if (ir_op_has(o->ops[i].opc, IRF_ALLOC)) {
			jp_status st =
			    new_ident(h, o, &o->ops[i], &h->ho.ident[i]);
			if (st)
				return st;
		}
	pair_by_hint(h, taken);
	jp_status st = pair_by_path(h, taken);
	for (uint32_t i = 0; !st && i < p->nops; i++) {
		const ir_op *op = &p->ops[i];
		if (!ir_op_has(op->opc, IRF_ALLOC) ||
		    h->hpp.ident[i] != HP_NONE)
			continue;
		const char *nm = ir_valname(p, op->result);
		for (uint32_t j = 0; j < o->nops; j++) {
			const ir_op *q = &o->ops[j];
			if (!hp_same_alloc(o, q, p, op) ||
			    taken[h->ho.ident[j]] ||
			    strcmp(ir_valname(o, q->result), nm))
				continue;
			h->hpp.ident[i] = h->ho.ident[j];
			taken[h->ho.ident[j]] = true;
			break;
		}
	}
	for (uint32_t i = 0; !st && i < p->nops; i++)
		if (ir_op_has(p->ops[i].opc, IRF_ALLOC) &&
		    h->hpp.ident[i] == HP_NONE)
			st = new_ident(h, p, &p->ops[i], &h->hpp.ident[i]);
	return st;
}

uint32_t hp_count_calls(const ir_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		n += hp_is_call(t, &t->ops[i]);
	return n;
}

void hp_make_calls(hp *h)
{
	Z3_sort bv64 = zc_bv_sort(h->z, 64);
	for (uint32_t k = 0; k < h->maxcalls; k++) {
		char sym[48];
		snprintf(sym, sizeof sym, "r%u", k);
		h->rk[k] =
		    K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
				     zc_bv_sort(h->z, (unsigned)h->w)));
		snprintf(sym, sizeof sym, "rr%u", k);
		h->rkr[k] = K(
		    h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym), bv64));
		for (uint32_t f = 0; f < h->nf; f++) {
			snprintf(sym, sizeof sym, "hk%u_%u", k, f);
			h->hk[k * h->nf + f] = K(
			    h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sym),
					   Z3_mk_array_sort(
					       h->z, hp_key_sort(h, &h->f[f]),
					       h->f[f].range)));
		}
	}
}

/* The ConstPtr of name NAME, made on first use. */
Z3_ast hp_cptr_addr(hp *h, const char *name)
{
	for (uint32_t i = 0; i < h->ncp; i++)
		if (!strcmp(h->cp[i].name, name))
			return h->cp[i].addr;
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "ConstPtr(%s)", name);
	if (!sb.buf) {
		h->S.failed = true;
		return zc_bv(&h->S, 64, 1);
	}
	hcptr *c = &h->cp[h->ncp++];
	c->name = name;
	c->addr = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, sb.buf),
				   zc_bv_sort(h->z, 64)));
	sb_release(&sb);
	return c->addr;
}

void hp_scan_cptrs(hp *h, const ir_trace *t)
{
	for (ir_vid v = 0; v < t->nvals; v++)
		if (ir_val(t, v)->tag == IR_VAL_CONST_PTR)
			hp_cptr_addr(h, t->strs[ir_val(t, v)->name]);
}

/* Fresh addresses are distinct, non-null, not an input reference and not
 * a ConstPtr; a ConstPtr is non-null. */
void hp_make_background(hp *h)
{
	uint32_t cap = h->nid * (h->o->ninputs + h->ncp + 2) + h->ncp + 2,
		 n = 0;
	Z3_ast *c = calloc(cap, sizeof *c);
	if (!c) {
		h->S.failed = true;
		return;
	}
	Z3_ast null = zc_bv(&h->S, 64, 0);
	for (uint32_t i = 0; i < h->nid; i++) {
		c[n++] =
		    K(h, Z3_mk_not(h->z,
				   K(h, Z3_mk_eq(h->z, h->id[i].addr, null))));
		for (uint32_t j = 0; j < h->o->ninputs; j++)
			if (ir_val(h->o, h->o->inputs[j])->kind == 'r')
				c[n++] = K(
				    h,
				    Z3_mk_not(h->z,
					      K(h, Z3_mk_eq(h->z, h->id[i].addr,
							    h->vars[j]))));
		for (uint32_t j = 0; j < h->ncp; j++)
			c[n++] =
			    K(h,
			      Z3_mk_not(h->z, K(h, Z3_mk_eq(h->z, h->id[i].addr,
							    h->cp[j].addr))));
	}
	for (uint32_t j = 0; j < h->ncp; j++) {
		c[n++] =
		    K(h, Z3_mk_not(h->z,
				   K(h, Z3_mk_eq(h->z, h->cp[j].addr, null))));
	}
	if (h->nid >= 2) {
		Z3_ast *a = calloc(h->nid, sizeof *a);
		if (!a) {
			free(c);
			h->S.failed = true;
			return;
		}
		for (uint32_t i = 0; i < h->nid; i++)
			a[i] = h->id[i].addr;
		c[n++] = K(h, Z3_mk_distinct(h->z, h->nid, a));
		free(a);
	}
	h->bg = n ? K(h, Z3_mk_and(h->z, n, c)) : zc_true(&h->S);
	free(c);
}

/* ---- what a call returns ----------------------------------------------- */

/* The fresh identities call K of E may return: the ones escaped at it,
 * none for force_token and virtual_ref (the JIT frame, a new vref: never
 * an object of the trace), every one when E makes no call K (nothing to
 * restrict). */
static hset may_return(const htrace *e, uint32_t k)
{
	if (k >= e->ncalls)
		return hs_all();
	const ir_op *op = &e->t->ops[e->callop[k]];
	if (ir_py_returns_foreign_ref(ir_op_name(e->t, op)))
		return hs_none();
	return e->callesc[k];
}

/* Call K's reference result r_k is NULL, an object that is not fresh, or
 * a fresh object escaped at the call in both traces: where the two runs
 * agree up to the call (its obligations), the world reaches the same
 * identities in both (equal arguments and heaps, and every object it
 * reaches has escaped by the static over-approximation), so what it hands
 * back is one of those, the same one in both runs -- a_x names both
 * objects of identity x.  An object escaped in one trace only, or of one
 * trace only, is not reachable in both, and were the runs to differ
 * before the call an earlier obligation fails.  Added once both traces
 * are encoded (their escape sets). */
jp_status hp_call_results(hp *h)
{
	h->retesc = calloc(h->maxcalls + 1, sizeof *h->retesc);
	Z3_ast *c = calloc((size_t)h->maxcalls * h->nid + 2, sizeof *c);
	if (!h->retesc || !c) {
		free(c);
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	}
	uint32_t n = 0;
	c[n++] = h->bg;
	for (uint32_t k = 0; k < h->maxcalls; k++) {
		hset ok = hs_and(may_return(&h->ho, k), may_return(&h->hpp, k));
		h->retesc[k] = ok;
		for (uint32_t x = 0; x < h->nid; x++)
			if (!hs_has(ok, x))
				c[n++] =
				    K(h,
				      Z3_mk_not(h->z,
						K(h, Z3_mk_eq(h->z, h->rkr[k],
							      h->id[x].addr))));
	}
	h->bg = K(h, Z3_mk_and(h->z, n, c));
	free(c);
	return JP_OK;
}

/* ---- realism of the unknown heap ------------------------------------------
 */

/* The initial heap and a call's writes cannot hold the address of a fresh
 * object that the world cannot reach: no initial cell holds a fresh
 * object, and the k-th call only stores objects that escaped before it.
 * Without these facts the solver picks such values and the counterexample
 * does not replay.  Stated at the cells the traces load (no quantifier):
 * the cell of H0 or of the havoc array the load reads through: that of the
 * last call before it that does not keep the field (enc_call: a descr's
 * keeps=, guard_no_exception, a length, an immutable field).  The havoc
 * arrays are shared, so the call's cell excludes only objects that escaped
 * in neither trace at that call: true of the real call in both runs. */
jp_status hp_realism(hp *h)
{
	const htrace *es[2] = {&h->ho, &h->hpp};
	size_t cap = ((size_t)h->ho.nloads + h->hpp.nloads) * (h->nid + 1) +
		     h->ncells + 2;
	Z3_ast *c = calloc(cap, sizeof *c);
	if (!c)
		return jp_fail(h->err, JP_ENOMEM, "out of memory");
	uint32_t n = 0;
	c[n++] = h->bg;
	/* Lengths of objects that are not fresh (nonneg_length), fields
	 * never NULL (nonnull_field). */
	for (uint32_t i = 0; i < h->ncells; i++) {
		Z3_ast x = h->cells[i].cell, zero = zc_bv(&h->S, 64, 0);
		c[n++] = h->cells[i].nonnull
			     ? K(h, Z3_mk_not(h->z, Z3_mk_eq(h->z, x, zero)))
			     : K(h, Z3_mk_bvsge(h->z, x, zero));
	}
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < es[s]->nloads; i++) {
			uint32_t f = es[s]->lf[i], k = es[s]->lk[i];
			hset allowed = hs_none();
			Z3_ast arr = h->f[f].h0;
			if (k != HP_NONE) {
				if (k >= h->ho.ncalls || k >= h->hpp.ncalls)
					continue;
				allowed =
				    hs_or(h->ho.callesc[k], h->hpp.callesc[k]);
				arr = h->hk[k * h->nf + f];
			}
			Z3_ast v =
			    K(h, Z3_mk_select(h->z, arr, es[s]->lobj[i]));
			for (uint32_t x = 0; x < h->nid; x++)
				if (!hs_has(allowed, x))
					c[n++] = K(
					    h,
					    Z3_mk_not(
						h->z,
						K(h, Z3_mk_eq(h->z, v,
							      h->id[x].addr))));
		}
	h->bg = K(h, Z3_mk_and(h->z, n, c));
	free(c);
	return JP_OK;
}
