/*
 * heap_neq.c - whether two heap states differ: the terms the heap
 * obligations compare at calls, failing guards and the end (heap_obl.c),
 * and the fields a model makes differ (--explain).  The states are write
 * lists over base arrays (heap_encode.c, "heap states"); heap.h has the
 * model.
 *
 * Map: comparing heap states.
 */
#include "heap_int.h"

/* ---- comparing heap states -----------------------------------------------
 */

/* A growing disjunction (heap_neq's "they differ here" terms). */
typedef struct hdisj {
	Z3_ast *v;
	uint32_t n, cap;
} hdisj;

/* Adds "SX != SY" to D, unless the two are the same term or the
 * disjunct is there already. */
static void disj_neq(hp *h, hdisj *d, Z3_ast sx, Z3_ast sy)
{
	if (sx == sy || h->S.failed)
		return;
	Z3_ast t = K(h, Z3_mk_not(h->z, K(h, Z3_mk_eq(h->z, sx, sy))));
	for (uint32_t i = 0; i < d->n; i++)
		if (d->v[i] == t)
			return;
	if (d->n == d->cap) {
		uint32_t c = d->cap * 2 + 8;
		Z3_ast *v = realloc(d->v, c * sizeof *v);
		if (!v) {
			h->S.failed = true;
			return;
		}
		d->v = v;
		d->cap = c;
	}
	d->v[d->n++] = t;
}

/* The part of cell value V of field F that reads see: the low bits of an
 * item narrower than a word (hfield.bits; every read narrows, so the rest
 * of the word is no state of the program), else V. */
static Z3_ast seen_bits(hp *h, uint32_t f, Z3_ast v)
{
	unsigned bits = h->f[f].bits;
	return bits && v ? K(h, Z3_mk_extract(h->z, bits - 1, 0, v)) : v;
}

/* The keys where the field states X and Y are compared (heap_neq): the
 * address (and index) of every write of either list; a whole-object
 * write (no index) of an indexed field at the index WI.  Each (address,
 * index) pair of terms once, as K[2j], K[2j+1] (NULL index: a plain
 * field).  *N receives their number; NULL when out of memory. */
static Z3_ast *written_keys(const hmem *x, const hmem *y, Z3_ast wi,
			    bool indexed, uint32_t *n)
{
	size_t cap = 0;
	for (const hnode *w = x->w; w; w = w->next)
		cap++;
	for (const hnode *w = y->w; w; w = w->next)
		cap++;
	Z3_ast *k = calloc(2 * cap + 2, sizeof *k);
	if (!k)
		return NULL;
	*n = 0;
	const hnode *lists[2] = {x->w, y->w};
	for (int s = 0; s < 2; s++)
		for (const hnode *w = lists[s]; w; w = w->next) {
			Z3_ast a = w->addr, i = indexed ? w->idx : NULL;
			if (indexed && !i)
				i = wi;
			uint32_t j = 0;
			while (j < *n && (k[2 * j] != a || k[2 * j + 1] != i))
				j++;
			if (j < *n)
				continue;
			k[2 * j] = a;
			k[2 * j + 1] = i;
			(*n)++;
		}
	return k;
}

/* "The states X and Y of one field, over the same base, differ": at a key
 * neither list writes both read the base, so they differ somewhere iff
 * they differ at a key one of them writes.  The disjunction over those
 * keys says it without a symbolic address: the solver need not split on
 * which write that address hits, and a key whose reads are the same term
 * in both (the same last write) drops out before Z3 sees it.  A
 * whole-object write of an indexed field is compared at the witness index
 * WI, a constant of the query, so it stays existential: "some item of
 * that object" (docs/trust.md, "Heap comparisons"). */
static void field_neq_written(hp *h, const hmem *x, const hmem *y, Z3_ast wi,
			      uint32_t f, hdisj *d)
{
	bool indexed = h->f[f].indexed;
	uint32_t nk = 0;
	Z3_ast *k = written_keys(x, y, wi, indexed, &nk);
	if (!k) {
		h->S.failed = true;
		return;
	}
	for (uint32_t j = 0; j < nk && !h->S.failed; j++)
		disj_neq(h, d,
			 seen_bits(h, f,
				   hp_read_from(h, x->base, x->w, k[2 * j],
						k[2 * j + 1])),
			 seen_bits(h, f,
				   hp_read_from(h, y->base, y->w, k[2 * j],
						k[2 * j + 1])));
	free(k);
}

/* "The heaps X and Y differ".  Per field: over the same base, at the keys
 * either writes (field_neq_written); over different bases (a call's
 * havoc array in one, an older state in the other), at a fresh address w
 * (and index): the same as array disequality (extensionality), with only
 * selects over write lists, which the bit-vector solver handles without
 * array reasoning. */
/* Adds to D the ways field F of the states X and Y can differ (none when
 * they are the same state). */
static void field_neq(hp *h, const hmem *x, const hmem *y, uint32_t f, hdisj *d)
{
	Z3_ast w = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, "hw"),
				    zc_bv_sort(h->z, 64)));
	Z3_ast wi = K(h, Z3_mk_const(h->z, Z3_mk_string_symbol(h->z, "hwi"),
				     zc_bv_sort(h->z, 64)));
	if (x->base == y->base && x->w == y->w)
		return;
	if (x->base == y->base) {
		field_neq_written(h, x, y, wi, f, d);
		return;
	}
	Z3_ast fi = h->f[f].indexed ? wi : NULL;
	disj_neq(h, d, seen_bits(h, f, hp_mem_read_item(h, *x, w, fi)),
		 seen_bits(h, f, hp_mem_read_item(h, *y, w, fi)));
}

static Z3_ast disj_term(hp *h, hdisj *d)
{
	Z3_ast r = h->S.failed ? zc_true(&h->S)
		   : d->n      ? K(h, Z3_mk_or(h->z, d->n, d->v))
			       : zc_false(&h->S);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
	return r;
}

/* "The heaps X and Y differ" where CALL (an op of the original, or NULL)
 * sees them: every field but those its descr says it ignores
 * (ir_py_call_ignores). */
Z3_ast hp_heap_neq_at(hp *h, const hmem *x, const hmem *y, const ir_op *call)
{
	const char *cd = call ? ir_py_seen_descr(h->o, call) : NULL;
	hdisj d = {0};
	for (uint32_t f = 0; f < h->nf && !h->S.failed; f++)
		if (!cd || !ir_py_call_ignores(cd, h->f[f].name))
			field_neq(h, &x[f], &y[f], f, &d);
	return disj_term(h, &d);
}

/* The fields of the states X and Y that model M makes differ, as lines
 * "  at WHERE: F differs" into SB. */
static void explain_states(hp *h, Z3_model m, const hmem *x, const hmem *y,
			   const char *where, strbuf *sb)
{
	for (uint32_t f = 0; f < h->nf && !h->S.failed; f++) {
		hdisj d = {0};
		field_neq(h, &x[f], &y[f], f, &d);
		Z3_ast r = disj_term(h, &d), v = NULL;
		if (Z3_model_eval(h->z, m, r, true, &v) && v &&
		    Z3_get_bool_value(h->z, v) == Z3_L_TRUE)
			sb_printf(sb, "  at %s: %s differs\n", where,
				  h->f[f].name);
	}
}

void hp_explain_heaps(hp *h, Z3_model m, strbuf *sb)
{
	const htrace *eo = &h->ho, *ep = &h->hpp;
	char where[32];
	for (uint32_t k = 0; k < eo->ncalls && k < ep->ncalls; k++) {
		snprintf(where, sizeof where, "call %u", k);
		explain_states(h, m, &eo->cheap[(size_t)k * h->nf],
			       &ep->cheap[(size_t)k * h->nf], where, sb);
	}
	explain_states(h, m, eo->eheap, ep->eheap, "the end", sb);
}
