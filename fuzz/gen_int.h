/*
 * gen_int.h - the generator's internals, shared by its files (not a public
 * interface: gen.h is).
 *
 *   gen.c       options, profiles, bookkeeping, emitting ops and guards,
 *               operand choice, the single-op actions, the trace
 *   gen_edge.c  edge values and the edge-directed shapes (ranges that end
 *               at the constants the bounds domain treats specially)
 *   gen_snip.c  the integer snippets
 *   gen_id.c    trace identities as text, annotated printing
 *   gen_heap.c  the example heap, heap actions and heap snippets
 *
 * Every helper works on one gen_ctx.  After an allocation failure the
 * helpers return a harmless vid and set g->oom; gen_trace discards the
 * trace.  A guard that would fail on the example values sets g->internal
 * (a generator bug, reported by gen_trace).
 */
#ifndef JP_FUZZ_GEN_INT_H
#define JP_FUZZ_GEN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/gen.h"
#include "ir/trace.h"
#include "util/rng.h"

/* One field of one object of the example heap. */
typedef struct gen_cell {
	uint64_t addr;
	uint32_t field; /* string id of the field name */
	uint64_t val;
} gen_cell;

struct gen_ctx {
	rng r;
	ir_trace *t;
	int w;
	bool oom;      /* an allocation failed; the trace is discarded */
	bool internal; /* a guard would fail on the example: a generator bug */
	uint64_t *ex;  /* example value per vid */
	uint8_t *uses; /* per vid: how often used as an argument (saturates) */
	uint8_t *must_out; /* per vid: must appear in the outputs */
	uint8_t *sink;	   /* per vid: output only, never an operand */
	uint32_t capvals;
	ir_vid *pool; /* int inputs and int op results, in order of creation */
	uint32_t npool, cappool;
	uint64_t *inputs;
	uint32_t capinputs;
	ir_vid *outs;
	uint32_t capouts;
	uint32_t nguards;
	uint32_t nemitted; /* ops emitted so far, guards included */
	bool last_ovf;	   /* overflow flag of the last *_ovf op */
	uint32_t nintin;   /* integer inputs: the first entries of POOL */
	/* Heap traces. */
	bool heap;     /* this trace uses heap actions */
	bool toy;      /* profile toy: only ops the toy spelling has */
	ir_vid *rpool; /* ref values usable as operands */
	uint32_t nrpool, caprpool;
	gen_cell *cells; /* the example heap: (object, field) -> value */
	uint32_t ncells, capcells;
	uint64_t next_fresh; /* placeholder address of the next fresh object */
	uint32_t ifield[3], rfield[2], tname[2]; /* string ids */
	bool edge; /* this trace mixes in the edge shapes (gen_edge.c) */
};

/* A random element of a static array. */
#define PICK(arr) (arr[rng_below(&g->r, sizeof arr / sizeof arr[0])])

/* Bookkeeping (gen.c). */
bool gen_grow(void **p, uint32_t *cap, uint32_t need, size_t size);
bool gen_track_vals(gen_ctx *g);
ir_vid gen_fallback(gen_ctx *g);
void gen_use(gen_ctx *g, ir_vid v);
void gen_pool_add(gen_ctx *g, ir_vid v);

/* Emitting (gen.c).  gen_cst: the constant V; gen_emit: OPC(A, B) with its
 * example value; gen_guard: a guard that must pass on the example. */
ir_vid gen_cst(gen_ctx *g, uint64_t v);
bool gen_costly(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b);
ir_vid gen_emit(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b);
void gen_add_failargs(gen_ctx *g, uint32_t opi, ir_vid first);
void gen_guard(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b);
void gen_guard_bool(gen_ctx *g, ir_vid v);
void gen_guard_ovf(gen_ctx *g);

/* Operands (gen.c). */
ir_vid gen_pick_val(gen_ctx *g);
ir_vid gen_pick_input_or_val(gen_ctx *g);
ir_vid gen_pick_operand(gen_ctx *g, uint32_t pct);
ir_vid gen_shift_count(gen_ctx *g);
uint64_t gen_near(gen_ctx *g, uint64_t center);
uint64_t gen_mask_value(gen_ctx *g);
void gen_range_guard(gen_ctx *g, ir_vid v, uint64_t center);
void gen_signed_guard(gen_ctx *g, ir_vid v, uint64_t k);
ir_vid gen_make_cmp(gen_ctx *g);
void gen_act_binop(gen_ctx *g);

/* Values (gen_edge.c). */
uint64_t gen_pow2(gen_ctx *g, int k);
uint64_t gen_sgn(gen_ctx *g, int64_t v);
uint64_t gen_repeated(gen_ctx *g);
uint64_t gen_edge_value(gen_ctx *g);
uint64_t gen_input_value(gen_ctx *g);

/* Integer snippets (gen_snip.c). */
void gen_snip_addcmp(gen_ctx *g);
void gen_snip_neg(gen_ctx *g);
void gen_snip_muleq(gen_ctx *g);
void gen_snip_lshift(gen_ctx *g);
void gen_snip_ovfcse(gen_ctx *g);
void gen_snip_pow2div(gen_ctx *g);
void gen_snip_fgez(gen_ctx *g);
void gen_snip_and(gen_ctx *g);
void gen_snip_ovftwin(gen_ctx *g);
void gen_snip_gvbool(gen_ctx *g);
void gen_snip_ucmp(gen_ctx *g);

/* Heap (gen_heap.c). */
void gen_rpool_add(gen_ctx *g, ir_vid v);
ir_vid gen_pick_ref(gen_ctx *g);
ir_vid gen_new_obj(gen_ctx *g);
uint32_t gen_int_field(gen_ctx *g);
uint32_t gen_ref_field(gen_ctx *g);
void gen_setfield(gen_ctx *g, ir_vid p, uint32_t field, ir_vid v);
ir_vid gen_getfield(gen_ctx *g, ir_vid p, uint32_t field, bool ref);
ir_vid gen_escape(gen_ctx *g, uint32_t n, const ir_vid *args);
bool gen_is_fresh(gen_ctx *g, ir_vid p);
void gen_act_new(gen_ctx *g);
void gen_act_set(gen_ctx *g);
void gen_act_get(gen_ctx *g);
void gen_act_escape(gen_ctx *g);
void gen_act_nullguard(gen_ctx *g);
void gen_act_ptrcmp(gen_ctx *g);
void gen_act_class(gen_ctx *g);
void gen_hsnip_mat(gen_ctx *g);
void gen_hsnip_twice(gen_ctx *g);
void gen_hsnip_cycle(gen_ctx *g);
void gen_hsnip_alias(gen_ctx *g);
void gen_hsnip_dse(gen_ctx *g);
void gen_hsnip_failargs(gen_ctx *g);

/* Edge shapes (gen_edge.c): one random edge-directed shape (the heap
 * ones only in heap traces). */
void gen_edge_shape(gen_ctx *g);

#endif
