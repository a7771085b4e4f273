/*
 * virtualize.c - allocation removal by partial evaluation (pass
 * "virtualize"), and the dispatch of heap ops to the heap passes.
 *
 * A `new` / `new_with_vtable` of the input is not emitted: it becomes a
 * virtual object, known at optimization time, holding its fields.  A
 * setfield_gc on a virtual object updates the field here; a getfield_gc_*
 * reads it (a field never written reads 0 / NULL, as a fresh object's
 * fields do).  guard_class / guard_nonnull on a virtual object are decided
 * (its type is the allocation's descr; the toy alloc() has none), and so
 * are ptr_eq / ptr_ne / guard_value involving one: a virtual object is a
 * fresh object, distinct from NULL and from every other reference.
 *
 * A virtual object escapes when the output needs its address: it is an
 * argument of any op this pass does not handle (a store into a
 * non-virtual object, a call, jump / finish, a marker), or in the
 * fail-args of a guard that stays.  Then opt_get materializes it, just
 * before the op that uses it: the cluster of virtual objects reachable
 * from it through fields is allocated first, every object once, then the
 * field stores are emitted, so that a cycle never stores a pointer to an
 * object not yet allocated.  A materialized allocation keeps the result
 * name of the input allocation it stands for (the identity rule of
 * docs/optimizer.md); from then on the object is an ordinary one.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/opt_internal.h"

enum {
	NOOBJ = UINT32_MAX,
	/* How deep the buggy recursive materialization (virtual-cycle) may go
	 * before it gives up with NULL: wrong, but finite. */
	CYCLE_DEPTH = 8,
};

typedef struct vfield {
	uint32_t descr; /* input string id of the field */
	bool virt;	/* val is a virtual object index, else an output vid */
	uint32_t val;
} vfield;

typedef struct vobj {
	uint32_t in_op; /* the allocation in the input */
	uint32_t nf, capf;
	vfield *f;	 /* fields in the order first written */
	ir_vid out;	 /* output value once materialized, else IR_NOVAL */
	uint32_t nalloc; /* allocations emitted for it (1 unless buggy) */
	uint32_t mat_in; /* the input op during which it was materialized */
	bool mark;	 /* in the cluster being materialized */
} vobj;

typedef struct vstate {
	vobj *o;
	uint32_t n, cap;
	uint32_t *vmap; /* input vid -> object index, or NOOBJ */
	uint32_t *list; /* the cluster being materialized */
	uint32_t nlist, caplist;
} vstate;

static vstate *vs(opt_ctx *c)
{
	return c->state[OPT_PASS_VIRTUALIZE];
}

static jp_status vrt_init(opt_ctx *c)
{
	vstate *s = calloc(1, sizeof *s);
	if (!s)
		return JP_ENOMEM;
	s->vmap = malloc(((size_t)c->in->nvals + 1) * sizeof *s->vmap);
	if (!s->vmap) {
		free(s);
		return JP_ENOMEM;
	}
	for (uint32_t v = 0; v <= c->in->nvals; v++)
		s->vmap[v] = NOOBJ;
	c->state[OPT_PASS_VIRTUALIZE] = s;
	return JP_OK;
}

static void vrt_fini(opt_ctx *c)
{
	vstate *s = vs(c);
	if (!s)
		return;
	for (uint32_t k = 0; k < s->n; k++)
		free(s->o[k].f);
	free(s->o);
	free(s->vmap);
	free(s->list);
	free(s);
	c->state[OPT_PASS_VIRTUALIZE] = NULL;
}

/* BUG materialize-twice: a materialized object is forgotten as soon as
 * the op that made it escape is done; it is virtual again, and the next
 * escape allocates it a second time. */
static void forget(opt_ctx *c, uint32_t id)
{
	vobj *o = &vs(c)->o[id];
	if (opt_bug_on(c, OPT_BUG_MATERIALIZE_TWICE) && o->out != IR_NOVAL &&
	    o->mat_in != c->cur_in)
		o->out = IR_NOVAL;
}

/* The virtual object input value V stands for, or NOOBJ (not an object
 * of this pass, or one already materialized). */
static uint32_t virt_of(opt_ctx *c, ir_vid v)
{
	vstate *s = vs(c);
	if (v == IR_NOVAL || !s)
		return NOOBJ;
	uint32_t id = s->vmap[v];
	if (id == NOOBJ)
		return NOOBJ;
	forget(c, id);
	return s->o[id].out == IR_NOVAL ? id : NOOBJ;
}

static void count_removed(opt_ctx *c, int delta)
{
	if (c->stats)
		c->stats->removed[OPT_PASS_VIRTUALIZE] += (uint32_t)delta;
}

/* ------------------------------------------------------------------ */
/* Materialization.                                                    */

static ir_vid emit_alloc(opt_ctx *c, uint32_t id)
{
	vobj *o = &vs(c)->o[id];
	const ir_op *iop = &c->in->ops[o->in_op];
	/* The first allocation keeps the input's name; a second one (only
	 * the buggy variants make it) needs a fresh name to stay SSA. */
	const char *name = o->nalloc ? NULL : ir_valname(c->in, iop->result);
	uint32_t descr = opt_copy_str(c, iop->descr);
	if (c->status)
		return IR_NOVAL;
	uint32_t opi =
	    ir_emit(c->out, (ir_opcode)iop->opc, 0, NULL, descr, name);
	opt_note_emitted(c, opi, o->in_op);
	if (c->status)
		return IR_NOVAL;
	c->out->ops[opi].flags = iop->flags & ~IR_OPF_IMPLICIT_LABEL;
	if (!o->nalloc++)
		count_removed(c, -1);
	return c->out->ops[opi].result;
}

static void emit_store(opt_ctx *c, ir_vid obj, uint32_t in_descr, ir_vid val)
{
	uint32_t descr = opt_copy_str(c, in_descr);
	ir_vid args[2] = {obj, val};
	if (c->status)
		return;
	uint32_t opi = ir_emit(c->out, IR_SETFIELD_GC, 2, args, descr, NULL);
	opt_note_emitted(c, opi, UINT32_MAX);
	if (!c->status)
		opt_note_store(c, descr, obj, val);
}

static ir_vid field_out(opt_ctx *c, const vfield *f)
{
	return f->virt ? vs(c)->o[f->val].out : opt_find(c, f->val);
}

/* BUG virtual-cycle: depth-first materialization that marks an object as
 * done only after its fields are stored, so a cycle comes back to an
 * object still in progress and allocates it again. */
static ir_vid materialize_rec(opt_ctx *c, uint32_t id, int depth)
{
	vstate *s = vs(c);
	if (s->o[id].out != IR_NOVAL)
		return s->o[id].out;
	if (depth > CYCLE_DEPTH)
		return ir_const_null(c->out);
	ir_vid self = emit_alloc(c, id);
	for (uint32_t k = 0; k < s->o[id].nf && !c->status; k++) {
		vfield f = s->o[id].f[k];
		ir_vid v = f.virt ? materialize_rec(c, f.val, depth + 1)
				  : opt_find(c, f.val);
		emit_store(c, self, f.descr, v);
	}
	s->o[id].out = self;
	return self;
}

/* Collects the virtual objects reachable from ID (ID included) that are
 * not materialized yet into s->list, each once. */
static void collect(opt_ctx *c, uint32_t id)
{
	vstate *s = vs(c);
	s->nlist = 0;
	if (!opt_grow(c, (void **)&s->list, &s->caplist, 1, sizeof *s->list))
		return;
	s->list[s->nlist++] = id;
	s->o[id].mark = true;
	for (uint32_t i = 0; i < s->nlist; i++) {
		vobj *o = &s->o[s->list[i]];
		for (uint32_t k = 0; k < o->nf; k++) {
			uint32_t t = o->f[k].val;
			if (!o->f[k].virt || s->o[t].mark ||
			    s->o[t].out != IR_NOVAL)
				continue;
			if (!opt_grow(c, (void **)&s->list, &s->caplist,
				      s->nlist + 1, sizeof *s->list))
				return;
			s->o[t].mark = true;
			s->list[s->nlist++] = t;
		}
	}
}

static ir_vid materialize(opt_ctx *c, uint32_t id)
{
	vstate *s = vs(c);
	if (opt_bug_on(c, OPT_BUG_VIRTUAL_CYCLE))
		return materialize_rec(c, id, 0);
	collect(c, id);
	/* Every object of the cluster exists before any store names it. */
	for (uint32_t i = 0; i < s->nlist && !c->status; i++)
		s->o[s->list[i]].out = emit_alloc(c, s->list[i]);
	bool stores = !opt_bug_on(c, OPT_BUG_MATERIALIZE_DROPS_FIELDS);
	for (uint32_t i = 0; i < s->nlist && stores && !c->status; i++) {
		vobj *o = &s->o[s->list[i]];
		for (uint32_t k = 0; k < o->nf && !c->status; k++)
			emit_store(c, o->out, o->f[k].descr,
				   field_out(c, &o->f[k]));
	}
	ir_vid r = s->o[id].out;
	for (uint32_t i = 0; i < s->nlist; i++) {
		s->o[s->list[i]].mark = false;
		s->o[s->list[i]].mat_in = c->cur_in;
	}
	return c->status ? IR_NOVAL : r;
}

static ir_vid vrt_get(opt_ctx *c, ir_vid v)
{
	vstate *s = vs(c);
	if (!s || s->vmap[v] == NOOBJ)
		return IR_NOVAL;
	uint32_t id = s->vmap[v];
	forget(c, id);
	if (s->o[id].out != IR_NOVAL)
		return s->o[id].out;
	/* BUG virtual-fail-args: the guard's fail-args get NULL where the
	 * virtual object should have been materialized. */
	if (c->in_failargs && opt_bug_on(c, OPT_BUG_VIRTUAL_FAIL_ARGS))
		return ir_const_null(c->out);
	opt_pass saved = c->cur_pass;
	c->cur_pass = OPT_PASS_VIRTUALIZE;
	ir_vid r = materialize(c, id);
	c->cur_pass = saved;
	return r;
}

/* Virtual objects among the fail-args of input guard I must exist before
 * the guard. */
static void vrt_before_guard(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	if (opt_bug_on(c, OPT_BUG_VIRTUAL_FAIL_ARGS))
		return;
	for (uint32_t k = 0; k < iop->nfail && !c->status; k++)
		if (virt_of(c, iop->failargs[k]) != NOOBJ)
			vrt_get(c, iop->failargs[k]);
}

/* ------------------------------------------------------------------ */
/* Ops on virtual objects.                                             */

static void new_object(opt_ctx *c, uint32_t i)
{
	vstate *s = vs(c);
	if (!opt_grow(c, (void **)&s->o, &s->cap, s->n + 1, sizeof *s->o))
		return;
	vobj *o = &s->o[s->n];
	memset(o, 0, sizeof *o);
	o->in_op = i;
	o->out = IR_NOVAL;
	s->vmap[c->in->ops[i].result] = s->n++;
}

static vfield *find_field(vobj *o, uint32_t descr)
{
	for (uint32_t k = 0; k < o->nf; k++)
		if (o->f[k].descr == descr)
			return &o->f[k];
	return NULL;
}

static void set_field(opt_ctx *c, uint32_t id, uint32_t descr, ir_vid v)
{
	vstate *s = vs(c);
	vfield nf = {descr, false, 0};
	uint32_t t = virt_of(c, v);
	if (t != NOOBJ) {
		nf.virt = true;
		nf.val = t;
	} else {
		nf.val = opt_get(c, v);
	}
	vobj *o = &s->o[id];
	vfield *f = find_field(o, descr);
	if (f) {
		*f = nf;
		return;
	}
	if (opt_grow(c, (void **)&o->f, &o->capf, o->nf + 1, sizeof *o->f))
		o->f[o->nf++] = nf;
}

static void get_field(opt_ctx *c, uint32_t id, const ir_op *iop)
{
	vstate *s = vs(c);
	const vfield *f = find_field(&s->o[id], iop->descr);
	if (f && f->virt)
		s->vmap[iop->result] = f->val;
	else if (f)
		c->map[iop->result] = opt_find(c, f->val);
	else /* never written: a fresh object's fields are 0 / NULL */
		c->map[iop->result] = iop->kind == 'r' ? ir_const_null(c->out)
						       : opt_const_int(c, 0);
}

/* The type a virtual object was allocated with (input string id; 0 for
 * none). */
static uint32_t type_of(opt_ctx *c, uint32_t id)
{
	return c->in->ops[vs(c)->o[id].in_op].descr;
}

static bool guard_fails(opt_ctx *c, uint32_t i)
{
	c->cur_pass = OPT_PASS_VIRTUALIZE;
	opt_guard_fails_at(c, i);
	return true;
}

/* guard_value / ptr_eq / ptr_ne with a virtual argument: equal only to
 * itself.  Returns -1 when neither argument is virtual. */
static int same_object(opt_ctx *c, const ir_op *iop)
{
	uint32_t a = virt_of(c, iop->args[0]), b = virt_of(c, iop->args[1]);
	if (a == NOOBJ && b == NOOBJ)
		return -1;
	return a == b;
}

static bool vrt_op(opt_ctx *c, uint32_t i)
{
	const ir_op *iop = &c->in->ops[i];
	uint32_t id = iop->nargs ? virt_of(c, iop->args[0]) : NOOBJ;
	int same;
	switch ((ir_opcode)iop->opc) {
	case IR_NEW:
	case IR_NEW_WITH_VTABLE: new_object(c, i); break;
	case IR_SETFIELD_GC:
		if (id == NOOBJ)
			return false;
		set_field(c, id, iop->descr, iop->args[1]);
		break;
	case IR_GETFIELD_GC_I:
	case IR_GETFIELD_GC_R:
		if (id == NOOBJ)
			return false;
		get_field(c, id, iop);
		break;
	case IR_GUARD_CLASS: {
		if (id == NOOBJ)
			return false;
		const ir_value *cls = &c->in->vals[iop->args[1]];
		uint32_t t = type_of(c, id);
		if (!t ||
		    strcmp(ir_strtext(c->in, t), ir_strtext(c->in, cls->name)))
			return guard_fails(c, i);
		break;
	}
	case IR_GUARD_NONNULL:
		if (id == NOOBJ)
			return false;
		break;
	case IR_GUARD_ISNULL: return id == NOOBJ ? false : guard_fails(c, i);
	case IR_GUARD_VALUE:
		if (c->in->vals[iop->args[0]].kind != 'r' ||
		    (same = same_object(c, iop)) < 0)
			return false;
		if (!same)
			return guard_fails(c, i);
		break;
	case IR_PTR_EQ:
	case IR_PTR_NE:
		if ((same = same_object(c, iop)) < 0)
			return false;
		c->map[iop->result] = opt_const_int(
		    c, (uint64_t)(same ^ (iop->opc == IR_PTR_NE)));
		break;
	default: return false;
	}
	count_removed(c, 1);
	return true;
}

const opt_pass_hooks opt_virtualize_hooks = {
    .init = vrt_init,
    .fini = vrt_fini,
    .heap_op = vrt_op,
    .get = vrt_get,
    .before_guard = vrt_before_guard,
};
