#include "interp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pypyops.h"
#include "sem.h"

/* Fresh objects are placed from this address upwards, skipping any address
 * an input or a ConstPtr already uses, so a fresh object never compares
 * equal to another reference. */
#define FRESH_BASE UINT64_C(0x7f0000000000)

typedef struct heap {
	interp_obj *objs;
	uint32_t n, cap;
} heap;

typedef struct run {
	const ir_trace *t;
	const interp_env *env;
	interp_result *res;
	heap h;
	uint32_t nfresh;
	uint32_t ncalls, capcalls;
	bool undef; /* the op just run accessed NULL */
	/* The last conditional call that did not call and is no event, or
	 * UINT32_MAX: the guard_no_exception on it passes, no event
	 * (ir_py_noexc_cond). */
	uint32_t skipped;
	bool *reached; /* per heap object: the world can reach it */
	uint32_t capreached;
	jp_err *err;
} run;

uint64_t interp_default_ptr_addr(const char *name)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= UINT64_C(1099511628211);
	}
	/* Keep it non-null, aligned and away from the fresh region. */
	return ((h & UINT64_C(0x0000000fffffff0)) | UINT64_C(0x10000000000));
}

static uint64_t ptr_addr(const interp_env *env, const char *name)
{
	for (uint32_t i = 0; i < env->nptrs; i++)
		if (!strcmp(env->ptrs[i].name, name))
			return env->ptrs[i].addr;
	return interp_default_ptr_addr(name);
}

const interp_obj *interp_find_obj(const interp_result *res, uint64_t addr)
{
	for (uint32_t i = 0; i < res->nobjs; i++)
		if (res->objs[i].addr == addr)
			return &res->objs[i];
	return NULL;
}

uint64_t interp_obj_field(const interp_obj *o, const char *field)
{
	for (uint32_t i = 0; i < o->nfields; i++)
		if (!strcmp(o->fields[i], field))
			return o->values[i];
	return 0;
}

int interp_item_field(char *buf, size_t cap, const char *descr, uint64_t idx)
{
	return snprintf(buf, cap, "%s[%" PRIu64 "]", descr, idx);
}

/* The field name of item IDX under DESCR, owned by the result (one copy
 * per name, so that equal slots are equal pointers' strings). */
static const char *item_name(run *r, const char *descr, uint64_t idx)
{
	interp_result *res = r->res;
	int n = interp_item_field(NULL, 0, descr, idx);
	char *nm = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!nm)
		return NULL;
	interp_item_field(nm, (size_t)n + 1, descr, idx);
	for (uint32_t i = 0; i < res->nnames; i++)
		if (!strcmp(res->names[i], nm)) {
			free(nm);
			return res->names[i];
		}
	if (res->nnames == res->capnames) {
		uint32_t cap = res->capnames ? res->capnames * 2 : 8;
		char **v = realloc(res->names, cap * sizeof *v);
		if (!v) {
			free(nm);
			return NULL;
		}
		res->names = v;
		res->capnames = cap;
	}
	return res->names[res->nnames++] = nm;
}

static interp_obj *find(heap *h, uint64_t addr)
{
	for (uint32_t i = 0; i < h->n; i++)
		if (h->objs[i].addr == addr)
			return &h->objs[i];
	return NULL;
}

static const char *input_class(const interp_env *env, uint64_t addr)
{
	for (uint32_t i = 0; i < env->ntypes; i++)
		if (env->types[i].addr == addr)
			return env->types[i].cls;
	return NULL;
}

/* The object at ADDR, created on first touch (input objects start with
 * the environment's initial fields). */
static interp_obj *touch(run *r, uint64_t addr)
{
	interp_obj *o = find(&r->h, addr);
	if (o)
		return o;
	if (r->h.n == r->h.cap) {
		uint32_t cap = r->h.cap ? r->h.cap * 2 : 8;
		interp_obj *n = realloc(r->h.objs, cap * sizeof *n);
		if (!n)
			return NULL;
		r->h.objs = n;
		r->h.cap = cap;
	}
	o = &r->h.objs[r->h.n++];
	memset(o, 0, sizeof *o);
	o->addr = addr;
	o->fresh = -1;
	o->alloc_op = UINT32_MAX;
	o->cls = input_class(r->env, addr);
	return o;
}

/* Sets FIELD of O to V, written as KIND ('i', 'r', or 0 for a call's
 * plain write). */
static bool set_field(interp_obj *o, const char *field, uint64_t v, char kind)
{
	for (uint32_t i = 0; i < o->nfields; i++)
		if (!strcmp(o->fields[i], field)) {
			o->values[i] = v;
			o->kinds[i] = kind;
			return true;
		}
	if (o->nfields == o->capfields) {
		uint32_t cap = o->capfields ? o->capfields * 2 : 4;
		const char **f = realloc(o->fields, cap * sizeof *f);
		if (!f)
			return false;
		o->fields = f;
		uint64_t *vals = realloc(o->values, cap * sizeof *vals);
		if (!vals)
			return false;
		o->values = vals;
		char *k = realloc(o->kinds, cap);
		if (!k)
			return false;
		o->kinds = k;
		o->capfields = cap;
	}
	o->fields[o->nfields] = field;
	o->kinds[o->nfields] = kind;
	o->values[o->nfields++] = v;
	return true;
}

static bool has_field(const interp_obj *o, const char *field)
{
	for (uint32_t i = 0; i < o->nfields; i++)
		if (!strcmp(o->fields[i], field))
			return true;
	return false;
}

/* Reading a field of an input object that nobody wrote yet gives its
 * initial value from the environment (0 when unlisted). */
static uint64_t get_field(run *r, interp_obj *o, const char *field)
{
	if (has_field(o, field) || o->fresh >= 0)
		return interp_obj_field(o, field);
	for (uint32_t i = 0; i < r->env->ninit; i++) {
		const interp_cell *c = &r->env->init[i];
		if (c->addr == o->addr && !strcmp(c->field, field))
			return c->value;
	}
	return 0;
}

/* Whether the environment mentions A anywhere: as an object of the initial
 * heap, a reference stored in it, a typed object, a call result or a call's
 * write.  Such an address may name an object that exists before the trace
 * runs (reachable through the heap, not only through the inputs), so a
 * fresh object must not get it.  Integers that happen to equal A only cost
 * a skipped address. */
static bool env_mentions(const interp_env *env, uint64_t a)
{
	for (uint32_t i = 0; i < env->ninit; i++)
		if (env->init[i].addr == a || env->init[i].value == a)
			return true;
	for (uint32_t i = 0; i < env->ntypes; i++)
		if (env->types[i].addr == a)
			return true;
	for (uint32_t i = 0; i < env->ncall_ret; i++)
		if (env->call_ret[i] == a)
			return true;
	for (uint32_t i = 0; i < env->npure; i++)
		if (env->pure[i].ret == a)
			return true;
	for (uint32_t i = 0; i < env->ncall_writes; i++)
		if (env->call_writes[i].addr == a ||
		    env->call_writes[i].value == a)
			return true;
	return false;
}

static bool addr_taken(run *r, uint64_t a)
{
	const ir_trace *t = r->t;
	if (env_mentions(r->env, a))
		return true;
	for (uint32_t i = 0; i < t->ninputs; i++)
		if (t->vals[t->inputs[i]].kind == 'r' && r->env->args[i] == a)
			return true;
	for (ir_vid v = 0; v < t->nvals; v++)
		if (t->vals[v].tag == IR_VAL_CONST_PTR && r->res->vals[v] == a)
			return true;
	return find(&r->h, a) != NULL;
}

static jp_status do_alloc(run *r, uint32_t opi, uint64_t *out)
{
	uint64_t a = FRESH_BASE + 16 * (uint64_t)r->nfresh;
	while (addr_taken(r, a))
		a += 16;
	interp_obj *o = touch(r, a);
	if (!o)
		return jp_fail(r->err, JP_ENOMEM, "out of memory");
	o->fresh = (int32_t)r->nfresh++;
	o->alloc_op = opi;
	const ir_op *op = &r->t->ops[opi];
	o->cls = op->descr ? r->t->strs[op->descr] : NULL;
	if (r->env->alloc_class && r->env->alloc_class[opi])
		o->cls = r->env->alloc_class[opi];
	*out = a;
	return JP_OK;
}

static void free_objs(interp_obj *objs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free(objs[i].fields);
		free(objs[i].values);
		free(objs[i].kinds);
	}
	free(objs);
}

/* A deep copy of the heap for a call's snapshot. */
static bool snapshot(const heap *h, interp_call *c)
{
	c->nobjs = 0;
	c->objs = calloc(h->n + 1, sizeof *c->objs);
	if (!c->objs)
		return false;
	for (uint32_t i = 0; i < h->n; i++) {
		const interp_obj *o = &h->objs[i];
		interp_obj *d = &c->objs[c->nobjs++];
		*d = *o;
		d->capfields = o->nfields;
		d->fields = malloc((o->nfields + 1) * sizeof *d->fields);
		d->values = malloc((o->nfields + 1) * sizeof *d->values);
		d->kinds = malloc(o->nfields + 1);
		if (!d->fields || !d->values || !d->kinds)
			return false;
		if (o->nfields) {
			memcpy(d->kinds, o->kinds, o->nfields);
			memcpy(d->fields, o->fields,
			       o->nfields * sizeof *d->fields);
			memcpy(d->values, o->values,
			       o->nfields * sizeof *d->values);
		}
	}
	return true;
}

/* The address of the fresh object whose allocation result is NAME, or 0
 * when it was not allocated in this run (yet). */
static uint64_t fresh_named(const run *r, const char *name)
{
	for (uint32_t i = 0; i < r->h.n; i++) {
		const interp_obj *o = &r->h.objs[i];
		if (o->fresh >= 0 &&
		    !strcmp(ir_valname(r->t, r->t->ops[o->alloc_op].result),
			    name))
			return o->addr;
	}
	return 0;
}

/* Marks the fresh object at A (if it is one) as reached; true when it
 * was not before. */
static bool reach_addr(run *r, uint64_t a)
{
	for (uint32_t i = 0; i < r->h.n; i++)
		if (r->h.objs[i].addr == a && r->h.objs[i].fresh >= 0 &&
		    !r->reached[i])
			return r->reached[i] = true;
	return false;
}

/* Updates r->reached at the call OPI with arguments ARGS: the fresh
 * objects the world can reach there are the ones it reached at earlier
 * calls, the call's reference arguments, the fresh objects a field of an
 * object that is not fresh refers to, and, transitively, what a field
 * (last written with a reference) of a reached object refers to; not
 * through a field the call ignores. */
static bool reach_at_call(run *r, uint32_t opi, const uint64_t *args)
{
	if (r->capreached < r->h.n) {
		bool *n = realloc(r->reached, r->h.n * sizeof *n);
		if (!n)
			return false;
		memset(n + r->capreached, 0,
		       (r->h.n - r->capreached) * sizeof *n);
		r->reached = n;
		r->capreached = r->h.n;
	}
	const ir_op *op = &r->t->ops[opi];
	for (uint32_t j = 0; j < op->nargs; j++)
		if (r->t->vals[op->args[j]].kind == 'r')
			reach_addr(r, args[j]);
	/* nothing is reached through a field the call's descr says it
	 * ignores (ir_py_call_ignores): the call does not see it */
	const char *cd = ir_py_seen_descr(r->t, op);
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < r->h.n; i++) {
			const interp_obj *o = &r->h.objs[i];
			if (o->fresh >= 0 && !r->reached[i])
				continue;
			for (uint32_t f = 0; f < o->nfields; f++)
				if (o->kinds[f] == 'r' &&
				    !(cd &&
				      ir_py_call_ignores(cd, o->fields[f])) &&
				    reach_addr(r, o->values[f]))
					changed = true;
		}
	}
	return true;
}

static bool reached_addr(const run *r, uint64_t a)
{
	for (uint32_t i = 0; i < r->h.n && i < r->capreached; i++)
		if (r->h.objs[i].addr == a)
			return r->reached[i];
	return false;
}

/* Whether FIELD of the object at A is one no call changes: an immutable
 * field or a string's character (docs/pypy.md) of an object that is not
 * fresh. */
static bool immutable_cell(run *r, uint64_t a, const char *field)
{
	if (!ir_py_field_immutable(field) && !ir_py_items_immutable(field))
		return false;
	const interp_obj *o = find(&r->h, a);
	return !o || o->fresh < 0;
}

/* An integer item of descr DESCR read from the word WORD: its low bits,
 * extended, when the descr says the items are narrower than a word
 * (ir_py_item_bits; docs/semantics.md, "Arrays"). */
static uint64_t narrow_item(const char *descr, uint64_t word)
{
	bool sign;
	unsigned bits = ir_py_item_bits(descr, &sign);
	if (!bits)
		return word;
	word = sem_mask((int)bits, word);
	return sign ? (uint64_t)sem_signed((int)bits, word) : word;
}

/* The writes of call K that name fresh objects (after reach_at_call).
 * One to or of a fresh object the world cannot reach at the call is one
 * no call can make: it is counted (nrejected), not applied. */
static jp_status apply_obj_writes(run *r, uint32_t k, const char *cname,
				  const char *cdescr, uint64_t *out,
				  uint64_t ret)
{
	for (uint32_t i = 0; i < r->env->nobj_writes; i++) {
		const interp_obj_write *w = &r->env->obj_writes[i];
		if (w->call != k)
			continue;
		uint64_t a = w->obj ? fresh_named(r, w->obj) : w->addr;
		uint64_t v =
		    w->value_obj ? fresh_named(r, w->value_obj) : w->value;
		if (!a || (w->value_obj && !v))
			continue;
		if (ir_descr_is_length(w->field) ||
		    (w->obj && !reached_addr(r, a)) ||
		    (w->value_obj && !reached_addr(r, v)) ||
		    immutable_cell(r, a, w->field) ||
		    ir_py_call_keeps(cname, cdescr, w->field)) {
			r->res->nrejected++;
			continue;
		}
		interp_obj *o = touch(r, a);
		if (!o || !set_field(o, w->field, v, w->value_obj ? 'r' : 0))
			return jp_fail(r->err, JP_ENOMEM, "out of memory");
	}
	*out = ret;
	return JP_OK;
}

/* The fresh object env->call_ret_obj names as call K's result, when the
 * world reaches it at the call (after reach_at_call); one it cannot reach
 * is no result a world gives: counted, and call_ret[k] stays. */
static void ret_fresh(run *r, uint32_t k, interp_call *c)
{
	const interp_env *env = r->env;
	if (!env->call_ret_obj || k >= env->ncall_ret || !env->call_ret_obj[k])
		return;
	uint64_t a = fresh_named(r, env->call_ret_obj[k]);
	if (a && reached_addr(r, a))
		c->ret = a;
	else
		r->res->nrejected++;
}

static jp_status do_call(run *r, uint32_t opi, const uint64_t *args,
			 uint64_t *out)
{
	const ir_op *op = &r->t->ops[opi];
	interp_result *res = r->res;
	if (res->ncalls == r->capcalls) {
		uint32_t cap = r->capcalls ? r->capcalls * 2 : 4;
		interp_call *c = realloc(res->calls, cap * sizeof *c);
		if (!c)
			return jp_fail(r->err, JP_ENOMEM, "out of memory");
		res->calls = c;
		r->capcalls = cap;
	}
	uint32_t k = res->ncalls;
	interp_call *c = &res->calls[res->ncalls++];
	memset(c, 0, sizeof *c);
	c->op = opi;
	c->nargs = op->nargs;
	c->args = malloc((op->nargs + 1) * sizeof *c->args);
	if (!c->args || !snapshot(&r->h, c))
		return jp_fail(r->err, JP_ENOMEM, "out of memory");
	if (op->nargs)
		memcpy(c->args, args, op->nargs * sizeof *args);
	c->ret = k < r->env->ncall_ret ? r->env->call_ret[k] : 0;
	if (op->kind == 'i')
		c->ret = sem_mask(r->t->width, c->ret);
	/* What the world reaches is decided by the heap the call sees,
	 * before any of its writes. */
	if ((r->env->nobj_writes || r->env->call_ret_obj) &&
	    !reach_at_call(r, opi, args))
		return jp_fail(r->err, JP_ENOMEM, "out of memory");
	const char *cname = ir_op_name(r->t, op);
	const char *cdescr = op->descr ? ir_strtext(r->t, op->descr) : NULL;
	ret_fresh(r, k, c);
	for (uint32_t i = 0; i < r->env->ncall_writes; i++) {
		const interp_cell *w = &r->env->call_writes[i];
		if (w->call != k)
			continue;
		/* No call changes a length, or an immutable field of an
		 * object that is not fresh, or a field its descr says it
		 * keeps (docs/pypy.md). */
		if (ir_descr_is_length(w->field) ||
		    immutable_cell(r, w->addr, w->field) ||
		    ir_py_call_keeps(cname, cdescr, w->field)) {
			res->nrejected++;
			continue;
		}
		interp_obj *o = touch(r, w->addr);
		if (!o || !set_field(o, w->field, w->value, 0))
			return jp_fail(r->err, JP_ENOMEM, "out of memory");
	}
	return apply_obj_writes(r, k, cname, cdescr, out, c->ret);
}

uint64_t interp_pure_find(const interp_env *env, const char *fn, uint32_t nargs,
			  const uint64_t *args)
{
	for (uint32_t i = 0; i < env->npure; i++) {
		const interp_pure *p = &env->pure[i];
		if (p->nargs == nargs && !strcmp(p->fn, fn) &&
		    (!nargs || !memcmp(p->args, args, nargs * sizeof *args)))
			return p->ret;
	}
	return 0;
}

/* A string copy (ir_py_str_copy) of A[4] items of descr D from A[0]'s
 * items at A[2] on to A[1]'s items at A[3] on: all read before any is
 * written, as the heap model's copy reads the state before it.  Through
 * NULL or with a negative length: undefined.  More than
 * INTERP_MAX_COPY items: the run stops there as too long
 * (interp_result.too_long), which says nothing about the trace. */
static jp_status str_copy(run *r, const char *d, const uint64_t *a)
{
	const ir_trace *t = r->t;
	uint64_t n = a[4];
	if (a[0] == 0 || a[1] == 0 || sem_is_negative(t->width, n)) {
		r->undef = true;
		return JP_OK;
	}
	if (n > INTERP_MAX_COPY) {
		r->res->too_long = true;
		r->undef = true;
		return JP_OK;
	}
	uint64_t buf[INTERP_MAX_COPY];
	interp_obj *o;
	for (uint64_t k = 0; k < n; k++) {
		const char *from =
		    item_name(r, d, sem_mask(t->width, a[2] + k));
		if (!from || !(o = touch(r, a[0])))
			return jp_fail(r->err, JP_ENOMEM, "out of memory");
		buf[k] = get_field(r, o, from);
	}
	for (uint64_t k = 0; k < n; k++) {
		const char *to = item_name(r, d, sem_mask(t->width, a[3] + k));
		if (!to || !(o = touch(r, a[1])) ||
		    !set_field(o, to, buf[k], 'i'))
			return jp_fail(r->err, JP_ENOMEM, "out of memory");
	}
	return JP_OK;
}

/* A force_virtualizable (ir_py_clears_vable) of frame A[F] under the
 * condition A[C]: where it calls, every vable_token field of the frame,
 * written or initial, becomes NULL; through a NULL frame it is
 * undefined.  No event. */
static jp_status clear_vable(run *r, const uint64_t *a, uint32_t f, uint32_t c)
{
	if (c != UINT32_MAX && a[c] == 0)
		return JP_OK;
	if (a[f] == 0) {
		r->undef = true;
		return JP_OK;
	}
	interp_obj *o = touch(r, a[f]);
	if (!o)
		return jp_fail(r->err, JP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < o->nfields; i++)
		if (ir_py_is_vable_token(o->fields[i])) {
			o->values[i] = 0;
			o->kinds[i] = 'r';
		}
	for (uint32_t i = 0; o->fresh < 0 && i < r->env->ninit; i++) {
		const interp_cell *x = &r->env->init[i];
		if (x->addr == a[f] && ir_py_is_vable_token(x->field) &&
		    !set_field(o, x->field, 0, 'r'))
			return jp_fail(r->err, JP_ENOMEM, "out of memory");
	}
	return JP_OK;
}

/* A call that is a function of its arguments: the environment's entry,
 * no event, no effect (a cached hash: its cache when not 0; the
 * guard_no_exception after it: nothing). */
static void do_pure(run *r, uint32_t opi, const uint64_t *args, uint64_t *out)
{
	const ir_trace *t = r->t;
	const ir_op *op = &t->ops[opi];
	ir_pycall pc = ir_pycall_of(t, op);
	uint32_t first;
	const char *fn = ir_pycall_fn(t, op, &first);
	*out = 0;
	if (pc == IR_PYCALL_NOEXC)
		return; /* passes */
	if (pc == IR_PYCALL_CACHED && args[0] != 0) {
		*out = args[0]; /* the cache's value */
		return;
	}
	*out = interp_pure_find(r->env, fn, op->nargs - first, args + first);
	if (op->kind == 'i')
		*out = sem_mask(t->width, *out);
}

static jp_status do_heap(run *r, uint32_t opi, const uint64_t *a, uint64_t *out,
			 bool *pass)
{
	const ir_trace *t = r->t;
	const ir_op *op = &t->ops[opi];
	const char *descr = t->strs[op->descr];
	interp_obj *o;
	switch ((ir_opcode)op->opc) {
	case IR_NEW:
	case IR_NEW_WITH_VTABLE: return do_alloc(r, opi, out);
	case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R:
		/* Through NULL: undefined (real JITs never reach a field
		 * access with NULL; docs/semantics.md). */
		if (a[0] == 0) {
			r->undef = true;
			return JP_OK;
		}
		if (!(o = touch(r, a[0])))
			break;
		/* A field is one 64-bit word: an integer read takes its low
		 * W bits, whatever kind wrote it. */
		*out = get_field(r, o, descr);
		if (op->kind == 'i')
			*out = sem_mask(t->width, *out);
		return JP_OK;
	case IR_SETFIELD_GC:
		if (a[0] == 0) {
			r->undef = true;
			return JP_OK;
		}
		if (!(o = touch(r, a[0])))
			break;
		/* Materialize the initial value of the other fields is not
		 * needed: untouched fields still read from env->init. */
		if (!set_field(o, descr, a[1], t->vals[op->args[1]].kind))
			break;
		return JP_OK;
	case IR_GETARRAYITEM_GC_I:
	case IR_GETARRAYITEM_GC_R:
	case IR_SETARRAYITEM_GC: {
		/* Item I of an array is the field "D[I]" of its object (the
		 * index as its W-bit pattern): every index names a slot
		 * (docs/semantics.md, "Arrays"); through NULL: undefined. */
		if (a[0] == 0) {
			r->undef = true;
			return JP_OK;
		}
		const char *item = item_name(r, descr, a[1]);
		if (!item || !(o = touch(r, a[0])))
			break;
		if (op->opc == IR_SETARRAYITEM_GC) {
			if (!set_field(o, item, a[2],
				       t->vals[op->args[2]].kind))
				break;
			return JP_OK;
		}
		*out = get_field(r, o, item);
		if (op->kind == 'i')
			*out = sem_mask(t->width, narrow_item(descr, *out));
		return JP_OK;
	}
	case IR_GUARD_CLASS:
		if (a[0] == 0) {
			r->undef = true;
			return JP_OK;
		}
		if (!(o = touch(r, a[0])))
			break;
		*pass = o->cls &&
			!strcmp(o->cls, t->strs[t->vals[op->args[1]].name]);
		return JP_OK;
	case IR_ESCAPE_N:
	case IR_ESCAPE_I:
	case IR_OPAQUE: {
		const char *cd = ir_py_str_copy(t, op);
		uint32_t vc, vf = ir_py_clears_vable(t, op, &vc);
		if (cd)
			return str_copy(r, cd, a);
		if (vf != UINT32_MAX)
			return clear_vable(r, a, vf, vc);
		if (ir_pycall_of(t, op) != IR_PYCALL_OPAQUE) {
			do_pure(r, opi, a, out);
			return JP_OK;
		}
		/* A conditional call that does not call is no event: it
		 * gives its first argument (cond_call_value) or nothing. */
		ir_pycond cc = ir_py_cond_of(t, op);
		if (cc != IR_PYCOND_NONE && !r->env->cond_always &&
		    !ir_py_cond_calls(cc, a[0])) {
			*out = cc == IR_PYCOND_VALUE ? a[0] : 0;
			if (r->env->cond_events && r->env->cond_events[opi])
				r->res->nrejected++;
			else
				r->skipped = opi;
			return JP_OK;
		}
		if (r->skipped != UINT32_MAX &&
		    ir_py_noexc_cond(t, op) == r->skipped)
			return JP_OK;
		/* A string helper on NULL is undefined (ir_py_needs_nonnull).
		 */
		for (uint32_t j = 0; j < op->nargs; j++)
			if (a[j] == 0 && ir_py_needs_nonnull(t, op, j)) {
				r->undef = true;
				return JP_OK;
			}
		return do_call(r, opi, a, out);
	}
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT:
	case IR_INT_LE: case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT:
	case IR_UINT_LE: case IR_UINT_GT: case IR_UINT_GE:
	case IR_INT_IS_TRUE: case IR_INT_IS_ZERO: case IR_PTR_EQ:
	case IR_PTR_NE: case IR_INT_ADD_OVF: case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: case IR_GUARD_TRUE: case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: case IR_GUARD_NONNULL: case IR_GUARD_ISNULL:
	case IR_DEBUG_MERGE_POINT: case IR_LABEL: case IR_JUMP:
	case IR_FINISH:
		/* clang-format on */
		break;
	}
	return jp_fail(r->err, JP_ENOMEM, "out of memory");
}

static void init_consts(run *r)
{
	const ir_trace *t = r->t;
	for (ir_vid v = 0; v < t->nvals; v++) {
		const ir_value *x = &t->vals[v];
		switch ((ir_valtag)x->tag) {
		case IR_VAL_CONST_INT:
			r->res->vals[v] = x->cval;
			r->res->known[v] = true;
			break;
		case IR_VAL_CONST_NULL:
		case IR_VAL_CONST_CLASS:
			r->res->vals[v] = 0;
			r->res->known[v] = true;
			break;
		case IR_VAL_CONST_PTR:
			r->res->vals[v] = ptr_addr(r->env, t->strs[x->name]);
			r->res->known[v] = true;
			break;
		case IR_VAL_INPUT:
		case IR_VAL_OP: break; /* not constants */
		}
	}
}

static jp_status set_outputs(run *r, const ir_vid *v, uint32_t n)
{
	interp_result *res = r->res;
	res->out = malloc((n + 1) * sizeof *res->out);
	if (!res->out)
		return jp_fail(r->err, JP_ENOMEM, "out of memory");
	res->nout = n;
	for (uint32_t i = 0; i < n; i++)
		res->out[i] = v[i] == IR_NOVAL ? 0 : res->vals[v[i]];
	return JP_OK;
}

static jp_status exec(run *r)
{
	const ir_trace *t = r->t;
	interp_result *res = r->res;
	uint64_t argbuf[8];
	uint64_t *a = argbuf;
	uint32_t acap = 8;
	jp_status e = JP_OK;
	bool prev_ovf = false;
	for (uint32_t i = 0; i < t->nops && !e; i++) {
		const ir_op *op = &t->ops[i];
		if (op->nargs > acap) {
			if (a != argbuf)
				free(a);
			acap = op->nargs;
			a = malloc(acap * sizeof *a);
			if (!a)
				return jp_fail(r->err, JP_ENOMEM,
					       "out of memory");
		}
		for (uint32_t k = 0; k < op->nargs; k++)
			a[k] = res->vals[op->args[k]];
		uint64_t v = 0;
		bool pass = true, ovf = false;
		ir_opcode opc = (ir_opcode)op->opc;
		if (sem_evaluable(opc)) {
			v = sem_eval(opc, t->width, a, &ovf);
			res->ovf[i] = ovf;
		} else if (ir_op_has(opc, IRF_END)) {
			res->outcome =
			    opc == IR_JUMP ? INTERP_JUMP : INTERP_FINISH;
			res->stop_op = i;
			e = set_outputs(r, op->args, op->nargs);
			break;
		} else if (ir_op_has(opc, IRF_MARK)) {
			continue;
		} else if (opc == IR_GUARD_CLASS || ir_op_has(opc, IRF_HEAP)) {
			e = do_heap(r, i, a, &v, &pass);
		} else if (ir_op_has(opc, IRF_GUARD)) {
			pass = sem_guard_passes(opc, a, prev_ovf);
		}
		if (e)
			break;
		if (r->undef) {
			res->outcome = INTERP_UNDEFINED;
			res->stop_op = i;
			e = set_outputs(r, NULL, 0);
			break;
		}
		if (op->result != IR_NOVAL) {
			res->vals[op->result] = v;
			res->known[op->result] = true;
		}
		prev_ovf = ovf;
		if (!pass) {
			res->outcome = INTERP_GUARD_FAIL;
			res->stop_op = i;
			e = set_outputs(r, op->failargs, op->nfail);
			break;
		}
	}
	if (a != argbuf)
		free(a);
	return e;
}

jp_status interp_run(const ir_trace *t, const interp_env *env,
		     interp_result *res, jp_err *err)
{
	memset(res, 0, sizeof *res);
	if (env->nargs != t->ninputs)
		return jp_fail(err, JP_EINPUT,
			       "expected %u input values, found %u", t->ninputs,
			       env->nargs);
	res->nvals = t->nvals;
	res->vals = calloc(t->nvals + 1, sizeof *res->vals);
	res->known = calloc(t->nvals + 1, sizeof *res->known);
	res->ovf = calloc(t->nops + 1, sizeof *res->ovf);
	if (!res->vals || !res->known || !res->ovf) {
		interp_result_free(res);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	run r = {
	    .t = t, .env = env, .res = res, .err = err, .skipped = UINT32_MAX};
	for (uint32_t i = 0; i < t->ninputs; i++) {
		ir_vid v = t->inputs[i];
		bool ref = t->vals[v].kind == 'r';
		res->vals[v] =
		    ref ? env->args[i] : sem_mask(t->width, env->args[i]);
		res->known[v] = true;
	}
	init_consts(&r);
	jp_status e = exec(&r);
	free(r.reached);
	res->objs = r.h.objs;
	res->nobjs = r.h.n;
	if (e) {
		interp_result_free(res);
		return e;
	}
	return JP_OK;
}

void interp_result_free(interp_result *res)
{
	free(res->vals);
	free(res->known);
	free(res->ovf);
	free(res->out);
	for (uint32_t i = 0; i < res->ncalls; i++) {
		free(res->calls[i].args);
		free_objs(res->calls[i].objs, res->calls[i].nobjs);
	}
	free(res->calls);
	for (uint32_t i = 0; i < res->nobjs; i++) {
		free(res->objs[i].fields);
		free(res->objs[i].values);
		free(res->objs[i].kinds);
	}
	free(res->objs);
	for (uint32_t i = 0; i < res->nnames; i++)
		free(res->names[i]);
	free(res->names);
	memset(res, 0, sizeof *res);
}

/* Which ops the interpreter runs (interp.h): all of them, by sem_eval,
 * sem_guard_passes, the heap model, or as markers and ends.  Every op has a
 * case: an op added to ir/ops.def stops the build here. */
const char *interp_unhandled(ir_opcode opc)
{
	switch (opc) {
	/* clang-format off */
	case IR_INT_ADD: case IR_INT_SUB: case IR_INT_MUL: case IR_INT_AND:
	case IR_INT_OR: case IR_INT_XOR: case IR_INT_LSHIFT:
	case IR_INT_RSHIFT: case IR_UINT_RSHIFT: case IR_INT_NEG:
	case IR_INT_INVERT: case IR_INT_SIGNEXT: case IR_UINT_MUL_HIGH:
	case IR_INT_FORCE_GE_ZERO: case IR_SAME_AS_I: case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: case IR_INT_EQ: case IR_INT_NE: case IR_INT_LT:
	case IR_INT_LE: case IR_INT_GT: case IR_INT_GE: case IR_UINT_LT:
	case IR_UINT_LE: case IR_UINT_GT: case IR_UINT_GE:
	case IR_INT_IS_TRUE: case IR_INT_IS_ZERO: case IR_PTR_EQ:
	case IR_PTR_NE: case IR_INT_ADD_OVF: case IR_INT_SUB_OVF:
	case IR_INT_MUL_OVF: case IR_GUARD_TRUE: case IR_GUARD_FALSE:
	case IR_GUARD_VALUE: case IR_GUARD_NO_OVERFLOW:
	case IR_GUARD_OVERFLOW: case IR_GUARD_CLASS: case IR_GUARD_NONNULL:
	case IR_GUARD_ISNULL: case IR_NEW: case IR_NEW_WITH_VTABLE:
	case IR_GETFIELD_GC_I: case IR_GETFIELD_GC_R: case IR_SETFIELD_GC:
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R: case IR_SETARRAYITEM_GC:
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_DEBUG_MERGE_POINT:
	case IR_LABEL: case IR_OPAQUE: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return NULL;
	}
	return "not an op of the table";
}
