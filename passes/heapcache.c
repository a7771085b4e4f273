/*
 * heapcache.c - load/store forwarding and dead store elimination (pass
 * "heap").
 *
 * The cache maps (field, reference) to the value the field is known to
 * hold, learned from an emitted load or store.  References are output
 * values; two different ones may name the same object ("may alias")
 * unless one of them is a fresh allocation of the output and the other
 * was defined before that allocation, is another fresh allocation, or the
 * fresh object has not escaped yet (nobody can have obtained its address).
 * A fresh object escapes when it is a call argument or the value of a
 * store.
 *
 *  - A load whose (field, reference) is cached is replaced by the cached
 *    value (rule heap.forward); otherwise it is emitted and its result
 *    cached.  This holds for every reference, inputs and loaded ones
 *    included, as in the load/store post: a field access through NULL is
 *    undefined behaviour in the original trace (docs/semantics.md), so
 *    the optimizer may assume the reference is not NULL once the trace
 *    has accessed a field through it.  Only a load or store through the
 *    constant NULL is left alone (never cached).
 *  - A store of the value already cached for (field, reference) is
 *    removed (heap.same-store).  Otherwise every cached entry of that
 *    field whose reference may alias is dropped, the store is emitted and
 *    cached.
 *  - A call (escape_*, opaque op) may read and change every object except
 *    fresh objects that have not escaped: all other entries are dropped.
 *
 * Dead stores.  An emitted store stays "pending" until something could
 * observe it.  The observers of a store to (f, p) are: a load of field f
 * through a reference that may alias p; a call (it may read any escaped
 * object; pending stores to fresh objects that have not escaped survive
 * it); a guard that stays in the output (when it fails, the interpreter
 * resumes with the heap as it is); and the end of the trace.  A second
 * store to exactly (f, p) while the first is still pending makes the
 * first dead (heap.dead-store); dead stores are removed once the trace is
 * complete.  Stores
 * through other references and loads of other fields do not observe.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/opt_internal.h"

typedef struct hentry {
	uint32_t field; /* output string id */
	ir_vid obj, val;
} hentry;

typedef struct hpend {
	uint32_t field;
	ir_vid obj;
	uint32_t op; /* the store in the output */
} hpend;

typedef struct hstate {
	hentry *e;
	uint32_t ne, cape;
	hpend *p;
	uint32_t np, capp;
	uint32_t *dead; /* output op indices of dead stores */
	uint32_t ndead, capdead;
	ir_vid *esc; /* fresh objects that escaped */
	uint32_t nesc, capesc;
} hstate;

static hstate *hs(opt_ctx *c)
{
	return c->state[OPT_PASS_HEAP];
}

static jp_status hc_init(opt_ctx *c)
{
	hstate *s = calloc(1, sizeof *s);
	if (!s)
		return JP_ENOMEM;
	c->state[OPT_PASS_HEAP] = s;
	return JP_OK;
}

static void hc_fini(opt_ctx *c)
{
	hstate *s = hs(c);
	if (!s)
		return;
	free(s->e);
	free(s->p);
	free(s->dead);
	free(s->esc);
	free(s);
	c->state[OPT_PASS_HEAP] = NULL;
}

static bool in_list(const ir_vid *l, uint32_t n, ir_vid v)
{
	for (uint32_t k = 0; k < n; k++)
		if (l[k] == v)
			return true;
	return false;
}

static void add_vid(opt_ctx *c, ir_vid **l, uint32_t *n, uint32_t *cap,
		    ir_vid v)
{
	if (!in_list(*l, *n, v) &&
	    opt_grow(c, (void **)l, cap, *n + 1, sizeof **l))
		(*l)[(*n)++] = v;
}

/* ------------------------------------------------------------------ */
/* Facts about references.                                             */

static bool fresh(const opt_ctx *c, ir_vid v)
{
	const ir_op *d = opt_def(c, v);
	return d && (d->opc == IR_NEW || d->opc == IR_NEW_WITH_VTABLE);
}

static bool escaped(opt_ctx *c, ir_vid v)
{
	return in_list(hs(c)->esc, hs(c)->nesc, v);
}

static void note_escape(opt_ctx *c, ir_vid v)
{
	hstate *s = hs(c);
	if (v != IR_NOVAL && fresh(c, v))
		add_vid(c, &s->esc, &s->nesc, &s->capesc, v);
}

/* A fresh object nobody outside the trace can know about. */
static bool private_obj(opt_ctx *c, ir_vid v)
{
	return fresh(c, v) && !escaped(c, v);
}

static bool defined_before(const opt_ctx *c, ir_vid b, ir_vid a)
{
	uint32_t db = opt_def_index(c, b), da = opt_def_index(c, a);
	return db == UINT32_MAX || (da != UINT32_MAX && db < da);
}

/* Whether fresh object A may be the object at B (B != A). */
static bool fresh_may_be(opt_ctx *c, ir_vid a, ir_vid b)
{
	return !fresh(c, b) && !defined_before(c, b, a) && escaped(c, a);
}

static bool may_alias(opt_ctx *c, ir_vid a, ir_vid b)
{
	if (a == b)
		return true;
	/* BUG alias-exact-only: two different values are taken to be two
	 * different objects. */
	if (opt_bug_on(c, OPT_BUG_ALIAS_EXACT_ONLY))
		return false;
	if (fresh(c, a))
		return fresh_may_be(c, a, b);
	if (fresh(c, b))
		return fresh_may_be(c, b, a);
	return true;
}

/* ------------------------------------------------------------------ */
/* The cache and the pending stores.                                   */

static hentry *lookup(opt_ctx *c, uint32_t field, ir_vid obj)
{
	hstate *s = hs(c);
	for (uint32_t k = 0; k < s->ne; k++)
		if (s->e[k].field == field && opt_find(c, s->e[k].obj) == obj)
			return &s->e[k];
	return NULL;
}

static void put(opt_ctx *c, uint32_t field, ir_vid obj, ir_vid val)
{
	hstate *s = hs(c);
	hentry *e = lookup(c, field, obj);
	if (!e) {
		if (!opt_grow(c, (void **)&s->e, &s->cape, s->ne + 1,
			      sizeof *s->e))
			return;
		e = &s->e[s->ne++];
	}
	e->field = field;
	e->obj = obj;
	e->val = val;
}

/* Drops the entries of FIELD whose reference may alias OBJ. */
static void invalidate_field(opt_ctx *c, uint32_t field, ir_vid obj)
{
	hstate *s = hs(c);
	uint32_t n = 0;
	for (uint32_t k = 0; k < s->ne; k++)
		if (!(s->e[k].field == field &&
		      may_alias(c, opt_find(c, s->e[k].obj), obj)))
			s->e[n++] = s->e[k];
	s->ne = n;
}

/* A call: drops everything a call can read or change. */
static void call_effects(opt_ctx *c)
{
	hstate *s = hs(c);
	uint32_t n = 0;
	for (uint32_t k = 0; k < s->ne; k++)
		if (private_obj(c, opt_find(c, s->e[k].obj)))
			s->e[n++] = s->e[k];
	s->ne = n;
	/* BUG dse-across-escape: the call is not taken as reading the
	 * stores before it. */
	if (opt_bug_on(c, OPT_BUG_DSE_ACROSS_ESCAPE))
		return;
	n = 0;
	for (uint32_t k = 0; k < s->np; k++)
		if (private_obj(c, opt_find(c, s->p[k].obj)))
			s->p[n++] = s->p[k];
	s->np = n;
}

/* A load of FIELD through OBJ observes the pending stores it may read. */
static void observe_load(opt_ctx *c, uint32_t field, ir_vid obj)
{
	hstate *s = hs(c);
	uint32_t n = 0;
	for (uint32_t k = 0; k < s->np; k++)
		if (!(s->p[k].field == field &&
		      may_alias(c, opt_find(c, s->p[k].obj), obj)))
			s->p[n++] = s->p[k];
	s->np = n;
}

/* A store to exactly (FIELD, OBJ): a pending store there is dead (and
 * removed, unless heap.dead-store is off); the new store replaces it as
 * the pending one. */
static void overwrite(opt_ctx *c, uint32_t field, ir_vid obj)
{
	hstate *s = hs(c);
	for (uint32_t k = 0; k < s->np; k++) {
		if (s->p[k].field != field || opt_find(c, s->p[k].obj) != obj)
			continue;
		if (opt_rule_fire(c, OPT_RULE_HEAP_DEAD_STORE) &&
		    opt_grow(c, (void **)&s->dead, &s->capdead, s->ndead + 1,
			     sizeof *s->dead))
			s->dead[s->ndead++] = s->p[k].op;
		s->p[k] = s->p[--s->np];
		return;
	}
}

static void add_pending(opt_ctx *c, uint32_t field, ir_vid obj, uint32_t op)
{
	hstate *s = hs(c);
	if (opt_grow(c, (void **)&s->p, &s->capp, s->np + 1, sizeof *s->p))
		s->p[s->np++] = (hpend){field, obj, op};
}

/* A guard was emitted: the trace may leave there, so every pending store
 * has been observed. */
static void hc_after_guard(opt_ctx *c)
{
	if (hs(c))
		hs(c)->np = 0;
}

/* A store another pass emitted (materialization): FIELD of the fresh
 * object OBJ holds VAL. */
static void hc_stored(opt_ctx *c, uint32_t field, ir_vid obj, ir_vid val)
{
	if (val != IR_NOVAL && c->out->vals[val].kind == 'r')
		note_escape(c, val);
	put(c, field, obj, val);
}

/* ------------------------------------------------------------------ */
/* The ops.                                                            */

static void count_removed(opt_ctx *c)
{
	if (c->stats)
		c->stats->removed[OPT_PASS_HEAP]++;
}

static bool is_null(const opt_ctx *c, ir_vid v)
{
	return c->out->vals[v].tag == IR_VAL_CONST_NULL;
}

static bool hc_load(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	ir_vid p = opt_get(c, iop->args[0]);
	uint32_t field = opt_copy_str(c, iop->descr);
	if (c->status)
		return true;
	observe_load(c, field, p);
	hentry *e = is_null(c, p) ? NULL : lookup(c, field, p);
	/* A field read with the other kind than the value it holds (the toy
	 * spelling allows it) keeps its load: forwarding would put a
	 * reference where the trace uses an integer. */
	if (e && c->out->vals[opt_find(c, e->val)].kind !=
		     c->in->vals[iop->result].kind)
		e = NULL;
	if (e && opt_rule_fire(c, OPT_RULE_HEAP_FORWARD)) {
		c->map[iop->result] = opt_find(c, e->val);
		count_removed(c);
		return true;
	}
	uint32_t opi = opt_copy_op(c, i);
	if (opi != UINT32_MAX && !is_null(c, p))
		put(c, field, p, c->out->ops[opi].result);
	return true;
}

static bool hc_store(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	ir_vid p = opt_get(c, iop->args[0]);
	ir_vid v = opt_get(c, iop->args[1]);
	uint32_t field = opt_copy_str(c, iop->descr);
	if (c->status)
		return true;
	if (c->out->vals[v].kind == 'r')
		note_escape(c, v);
	if (is_null(c, p)) {
		opt_copy_op(c, i);
		return true;
	}
	hentry *e = lookup(c, field, p);
	if (e && opt_find(c, e->val) == opt_find(c, v) &&
	    opt_rule_fire(c, OPT_RULE_HEAP_SAME_STORE)) {
		count_removed(c);
		return true;
	}
	overwrite(c, field, p);
	invalidate_field(c, field, p);
	uint32_t opi = opt_copy_op(c, i);
	if (opi == UINT32_MAX)
		return true;
	put(c, field, p, v);
	add_pending(c, field, p, opi);
	return true;
}

static bool hc_call(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	for (uint32_t k = 0; k < iop->nargs && !c->status; k++) {
		ir_vid v = opt_get(c, iop->args[k]);
		if (v != IR_NOVAL && c->out->vals[v].kind == 'r')
			note_escape(c, v);
	}
	if (c->status)
		return true;
	call_effects(c);
	opt_copy_op(c, i);
	return true;
}

static bool hc_op(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	if (ir_op_has((ir_opcode)iop->opc, IRF_CALL))
		return hc_call(c, i);
	switch ((ir_opcode)iop->opc) {
	case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R: return hc_load(c, i);
	case IR_SETFIELD_GC: return hc_store(c, i);
	/* Array items are not cached: taken like a call (forgets the
	 * cache, a stored object escapes), which is always correct. */
	case IR_GETARRAYITEM_GC_I:
	case IR_GETARRAYITEM_GC_R:
	case IR_SETARRAYITEM_GC: return hc_call(c, i);
	default: return false;
	}
}

/* Removes the dead stores, now that the trace is complete. */
static jp_status hc_finish(opt_ctx *c)
{
	hstate *s = hs(c);
	if (!s || !s->ndead)
		return JP_OK;
	bool *keep = malloc((size_t)c->out->nops + 1);
	if (!keep) {
		opt_fail(c, JP_ENOMEM, "out of memory");
		return JP_ENOMEM;
	}
	memset(keep, 1, (size_t)c->out->nops + 1);
	for (uint32_t k = 0; k < s->ndead; k++)
		keep[s->dead[k]] = false;
	if (c->stats)
		c->stats->removed[OPT_PASS_HEAP] += s->ndead;
	jp_status st = opt_compact(c, keep);
	free(keep);
	return st;
}

const opt_pass_hooks opt_heap_hooks = {
    .init = hc_init,
    .fini = hc_fini,
    .finish = hc_finish,
    .heap_op = hc_op,
    .after_guard = hc_after_guard,
    .stored = hc_stored,
};
