/*
 * gen_heap.c - the generator's heap actions and heap snippets.
 */
#include "fuzz/gen_int.h"

#include "ir/sem.h"

/* ---- heap ----
 * The example heap mirrors the interpreter's default environment: input
 * objects start with every field 0, fresh objects too, calls return 0 and
 * write nothing.  Objects are known by address; ref inputs have distinct
 * addresses (or are NULL), fresh objects get placeholder addresses that
 * collide with nothing. */

enum { FRESH_ADDR = 0x7f0000000000 };

static uint64_t heap_get(gen_ctx *g, uint64_t addr, uint32_t field)
{
	for (uint32_t i = 0; i < g->ncells; i++)
		if (g->cells[i].addr == addr && g->cells[i].field == field)
			return g->cells[i].val;
	return 0;
}

static void heap_set(gen_ctx *g, uint64_t addr, uint32_t field, uint64_t v)
{
	if (addr == 0)
		return; /* a store through NULL is lost */
	for (uint32_t i = 0; i < g->ncells; i++)
		if (g->cells[i].addr == addr && g->cells[i].field == field) {
			g->cells[i].val = v;
			return;
		}
	if (!gen_grow((void **)&g->cells, &g->capcells, g->ncells + 1,
		      sizeof *g->cells)) {
		g->oom = true;
		return;
	}
	g->cells[g->ncells++] = (gen_cell){addr, field, v};
}

void gen_rpool_add(gen_ctx *g, ir_vid v)
{
	if (!gen_grow((void **)&g->rpool, &g->caprpool, g->nrpool + 1,
		      sizeof *g->rpool)) {
		g->oom = true;
		return;
	}
	g->rpool[g->nrpool++] = v;
}

/* A reference operand: mostly one of the latest. */
ir_vid gen_pick_ref(gen_ctx *g)
{
	uint32_t n = g->nrpool;
	if (n > 1 && rng_chance(&g->r, 1, 2)) {
		uint32_t back = n < 3 ? n : 3;
		return g->rpool[n - 1 - rng_below(&g->r, back)];
	}
	return g->rpool[rng_below(&g->r, n)];
}

/* Emits a heap op (no sem_eval meaning): ARGS, DESCR, example result. */
ir_vid gen_emit_heap(gen_ctx *g, ir_opcode opc, uint32_t nargs,
		     const ir_vid *args, uint32_t descr, uint64_t exres)
{
	if (g->oom)
		return g->t->inputs[0];
	uint32_t opi = ir_emit(g->t, opc, nargs, args, descr, NULL);
	if (opi == UINT32_MAX || !gen_track_vals(g))
		return gen_fallback(g);
	for (uint32_t i = 0; i < nargs; i++)
		gen_use(g, args[i]);
	g->nemitted++;
	ir_vid res = g->t->ops[opi].result;
	if (res == IR_NOVAL)
		return IR_NOVAL;
	g->ex[res] = exres;
	if (g->t->vals[res].kind == 'r')
		gen_rpool_add(g, res);
	else
		gen_pool_add(g, res);
	return res;
}

/* A fresh object; its class is its descr (T or U). */
ir_vid gen_new_obj(gen_ctx *g)
{
	if (g->toy) { /* alloc(): no type */
		g->next_fresh += 16;
		return gen_emit_heap(g, IR_NEW, 0, NULL, 0,
				     FRESH_ADDR + g->next_fresh);
	}
	ir_opcode opc = rng_chance(&g->r, 1, 2) ? IR_NEW_WITH_VTABLE : IR_NEW;
	uint32_t t = g->tname[rng_below(&g->r, 2)];
	g->next_fresh += 16;
	return gen_emit_heap(g, opc, 0, NULL, t, FRESH_ADDR + g->next_fresh);
}

uint32_t gen_int_field(gen_ctx *g)
{
	return g->ifield[rng_below(&g->r, 3)];
}

uint32_t gen_ref_field(gen_ctx *g)
{
	return g->rfield[rng_below(&g->r, 2)];
}

/* A field access through NULL is undefined behaviour (docs/semantics.md)
 * and the example run must reach the end: an access whose reference is
 * NULL on the example goes through the newest reference that is not
 * (a new object when there is none). */
static ir_vid nonnull_ref(gen_ctx *g, ir_vid p)
{
	if (g->ex[p])
		return p;
	for (uint32_t i = g->nrpool; i-- > 0;)
		if (g->ex[g->rpool[i]])
			return g->rpool[i];
	return gen_new_obj(g);
}

void gen_setfield(gen_ctx *g, ir_vid p, uint32_t field, ir_vid v)
{
	p = nonnull_ref(g, p);
	ir_vid args[2] = {p, v};
	gen_emit_heap(g, IR_SETFIELD_GC, 2, args, field, 0);
	heap_set(g, g->ex[p], field, g->ex[v]);
}

ir_vid gen_getfield(gen_ctx *g, ir_vid p, uint32_t field, bool ref)
{
	p = nonnull_ref(g, p);
	uint64_t v = heap_get(g, g->ex[p], field);
	return gen_emit_heap(g, ref ? IR_GETFIELD_GC_R : IR_GETFIELD_GC_I, 1,
			     &p, field, ref ? v : sem_mask(g->w, v));
}

/* A call seeing ARGS; escape_i returns 0 on the example. */
ir_vid gen_escape(gen_ctx *g, uint32_t n, const ir_vid *args)
{
	bool ret = !g->toy && rng_chance(&g->r, 1, 3);
	return gen_emit_heap(g, ret ? IR_ESCAPE_I : IR_ESCAPE_N, n, args, 0, 0);
}

/* A store of an int (or, into a ref field, a reference) into P. */
static void store_some(gen_ctx *g, ir_vid p)
{
	/* One draw per statement (see act_unop). */
	if (!g->toy && g->nrpool && rng_chance(&g->r, 1, 4)) {
		uint32_t f = gen_ref_field(g);
		gen_setfield(g, p, f, gen_pick_ref(g));
	} else {
		uint32_t f = gen_int_field(g);
		gen_setfield(g, p, f, gen_pick_operand(g, 30));
	}
}

void gen_act_new(gen_ctx *g)
{
	ir_vid p = gen_new_obj(g);
	uint32_t n = (uint32_t)rng_below(&g->r, 3);
	for (uint32_t i = 0; i < n; i++)
		store_some(g, p);
}

void gen_act_set(gen_ctx *g)
{
	if (!g->nrpool) {
		gen_act_new(g);
		return;
	}
	store_some(g, gen_pick_ref(g));
}

void gen_act_get(gen_ctx *g)
{
	if (!g->nrpool) {
		gen_act_new(g);
		return;
	}
	ir_vid p = gen_pick_ref(g);
	if (!g->toy && rng_chance(&g->r, 1, 4))
		gen_getfield(g, p, gen_ref_field(g), true);
	else
		gen_getfield(g, p, gen_int_field(g), false);
}

void gen_act_escape(gen_ctx *g)
{
	ir_vid args[3];
	uint32_t n = 1 + (uint32_t)rng_below(&g->r, 3);
	for (uint32_t i = 0; i < n; i++)
		args[i] = g->nrpool && rng_chance(&g->r, 2, 3)
			      ? gen_pick_ref(g)
			      : gen_pick_val(g);
	gen_escape(g, n, args);
}

void gen_act_nullguard(gen_ctx *g)
{
	if (!g->nrpool) {
		gen_act_new(g);
		return;
	}
	ir_vid p = gen_pick_ref(g);
	gen_guard(g, g->ex[p] ? IR_GUARD_NONNULL : IR_GUARD_ISNULL, p, 0);
}

void gen_act_ptrcmp(gen_ctx *g)
{
	if (!g->nrpool) {
		gen_act_new(g);
		return;
	}
	ir_vid p = gen_pick_ref(g);
	ir_vid q =
	    rng_chance(&g->r, 1, 4) ? ir_const_null(g->t) : gen_pick_ref(g);
	if (q == IR_NOVAL || !gen_track_vals(g)) {
		g->oom = true;
		return;
	}
	g->ex[q] = g->t->vals[q].tag == IR_VAL_CONST_NULL ? 0 : g->ex[q];
	ir_vid c =
	    gen_emit(g, rng_chance(&g->r, 1, 2) ? IR_PTR_EQ : IR_PTR_NE, p, q);
	if (rng_chance(&g->r, 3, 4))
		gen_guard_bool(g, c);
}

/* guard_class on a fresh object (its class is known; input objects have
 * none in the example environment). */
void gen_act_class(gen_ctx *g)
{
	for (uint32_t i = g->nrpool; i-- > 0;) {
		ir_vid p = g->rpool[i];
		uint32_t def = ir_defop(g->t, p);
		if (def == UINT32_MAX ||
		    (g->t->ops[def].opc != IR_NEW &&
		     g->t->ops[def].opc != IR_NEW_WITH_VTABLE))
			continue;
		ir_vid cls = ir_const_class(
		    g->t, ir_strtext(g->t, g->t->ops[def].descr));
		if (cls == IR_NOVAL || !gen_track_vals(g)) {
			g->oom = true;
			return;
		}
		gen_guard(g, IR_GUARD_CLASS, p, cls);
		return;
	}
	gen_act_new(g);
}

/* new, field stores, then an escape (a call or the end of the trace):
 * materialization must emit the stores. */
void gen_hsnip_mat(gen_ctx *g)
{
	ir_vid p = gen_new_obj(g);
	uint32_t n = 1 + (uint32_t)rng_below(&g->r, 2);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t f = gen_int_field(g); /* one draw per statement */
		gen_setfield(g, p, f, gen_pick_operand(g, 30));
	}
	if (rng_chance(&g->r, 2, 3))
		gen_escape(g, 1, &p);
	else
		g->must_out[p] = 1;
}

/* One fresh object escaping twice (two calls, or a call and the end):
 * it is the same object both times. */
void gen_hsnip_twice(gen_ctx *g)
{
	ir_vid p = gen_new_obj(g);
	if (rng_chance(&g->r, 1, 2)) {
		uint32_t f = gen_int_field(g); /* one draw per statement */
		gen_setfield(g, p, f, gen_pick_operand(g, 30));
	}
	gen_escape(g, 1, &p);
	if (rng_chance(&g->r, 1, 3))
		gen_act_binop(g);
	if (rng_chance(&g->r, 2, 3))
		gen_escape(g, 1, &p);
	else
		g->must_out[p] = 1;
}

/* Two (or three) fresh objects pointing at each other, then an escape:
 * materializing a cycle must allocate each object once. */
void gen_hsnip_cycle(gen_ctx *g)
{
	ir_vid o[3];
	uint32_t n = 2 + (uint32_t)rng_below(&g->r, 2);
	for (uint32_t i = 0; i < n; i++)
		o[i] = gen_new_obj(g);
	uint32_t f = gen_ref_field(g);
	for (uint32_t i = 0; i < n; i++)
		gen_setfield(g, o[i], f, o[(i + 1) % n]);
	if (rng_chance(&g->r, 2, 3))
		gen_escape(g, 1, &o[rng_below(&g->r, n)]);
	else
		g->must_out[o[0]] = 1;
}

bool gen_is_fresh(gen_ctx *g, ir_vid p)
{
	uint32_t d = ir_defop(g->t, p);
	return d != UINT32_MAX && (g->t->ops[d].opc == IR_NEW ||
				   g->t->ops[d].opc == IR_NEW_WITH_VTABLE);
}

/* A reference that may alias others: an input or a loaded reference (a
 * fresh object aliases nothing until it escapes).  Loads one when there
 * is none. */
static ir_vid pick_aliasable(gen_ctx *g, ir_vid other)
{
	for (int tries = 0; tries < 8; tries++) {
		ir_vid p = gen_pick_ref(g);
		if (!gen_is_fresh(g, p) && p != other)
			return p;
	}
	return gen_getfield(g, gen_pick_ref(g), gen_ref_field(g), true);
}

/* Stores through two references that may be the same object, then a
 * load through the first: the second store must invalidate it.  Null
 * guards first, so that forwarding is allowed at all. */
void gen_hsnip_alias(gen_ctx *g)
{
	if (!g->nrpool) {
		gen_act_new(g);
		return;
	}
	ir_vid p = pick_aliasable(g, IR_NOVAL);
	ir_vid q = pick_aliasable(g, p);
	if (g->ex[p])
		gen_guard(g, IR_GUARD_NONNULL, p, 0);
	if (g->ex[q] && rng_chance(&g->r, 1, 2))
		gen_guard(g, IR_GUARD_NONNULL, q, 0);
	uint32_t f = gen_int_field(g);
	gen_setfield(g, p, f, gen_pick_operand(g, 30));
	gen_setfield(g, q, f, gen_pick_operand(g, 50));
	ir_vid v = gen_getfield(g, p, f, false);
	g->must_out[v] = 1;
}

/* A store, a call, a second store to the same field: the call may read
 * the first value, so that store is not dead. */
void gen_hsnip_dse(gen_ctx *g)
{
	if (!g->nrpool) {
		gen_act_new(g);
		return;
	}
	ir_vid p = gen_pick_ref(g);
	uint32_t f = gen_int_field(g);
	gen_setfield(g, p, f, gen_pick_operand(g, 30));
	ir_vid a = rng_chance(&g->r, 1, 2) ? p : gen_pick_val(g);
	gen_escape(g, 1, &a);
	gen_setfield(g, p, f, gen_pick_operand(g, 30));
}

/* A fresh object with a field, then a guard whose fail-args hold it: if
 * the guard fails, the object must exist. */
void gen_hsnip_failargs(gen_ctx *g)
{
	ir_vid p = gen_new_obj(g);
	uint32_t f = gen_int_field(g); /* one draw per statement */
	gen_setfield(g, p, f, gen_pick_operand(g, 30));
	ir_vid c = gen_make_cmp(g);
	gen_guard_bool(g, c);
	uint32_t opi = g->t->nops - 1;
	if (!g->oom && ir_op_has(g->t->ops[opi].opc, IRF_GUARD))
		gen_add_failargs(g, opi, p);
}
