/*
 * gen.c - the random trace generator (gen.h has the contract).
 *
 * Map:
 *   actions, profiles and their weights   gen_action, profile_weights
 *   options and profiles                  gen_default_opts ... gen_apply_args
 *   bookkeeping, emitting, guards         gen_grow ... gen_guard_ovf
 *   operands                              pick_any ... gen_near
 *   single actions                        gen_act_binop ... act_guard_bool
 *   the trace (mutation steps too)        finish, add_inputs, generate
 *   gen_unhandled
 * Files: gen_int.h (the shared internals), gen_edge.c (edge values and
 * edge-directed shapes), gen_snip.c (integer snippets), gen_heap.c (heap),
 * gen_id.c (trace identities as text, annotated printing).
 */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen_int.h"
#include "ir/print.h"
#include "ir/sem.h"
#include "ir/validate.h"
#include "util/rng.h"

/* The generator's actions.  A_* emit one op or one op and its guard; S_*
 * are snippets, the multi-op shapes that integer optimizations reason
 * about (see the comment of each snippet function). */
typedef enum gen_action {
	A_BINOP,
	A_UNOP,
	A_CMP,
	A_GUARD_CMP,
	A_OVF,
	A_GUARD_VALUE,
	A_RANGE,
	A_KNOWNBITS,
	A_GUARD_BOOL,
	S_ADDCMP,
	S_NEG,
	S_MULEQ,
	S_LSHIFT,
	S_OVFCSE,
	S_POW2DIV,
	S_FGEZ,
	S_AND,
	S_OVFTWIN,
	S_GVBOOL,
	S_UCMP,
	/* Heap actions: only in heap traces. */
	H_NEW,
	H_SET,
	H_GET,
	H_ESCAPE,
	H_NULLGUARD,
	H_PTRCMP,
	H_CLASS,
	HS_MAT,
	HS_TWICE,
	HS_CYCLE,
	HS_ALIAS,
	HS_DSE,
	HS_FAILARGS,
	/* Edge-directed shapes (gen_edge.c): only in edge traces.  Last, so
	 * that its zero weight in other traces changes none of their draws. */
	E_EDGE,
	A_COUNT
} gen_action;

#define A_FIRST_HEAP H_NEW
#define A_LAST_HEAP  HS_FAILARGS

/* Relative weights of the actions, per profile.  The snippets keep a
 * share in every profile except "arithmetic" so that any campaign can reach
 * every shape; "all" is the default and the broadest. */
/* clang-format off */
static const uint32_t profile_weights[GEN_PROFILE_COUNT][A_COUNT] = {
    /*                      bin  un cmp gcmp ovf gval rng  kb  gb */
    /*                      add neg mul  shl ocse  p2 fgz and twin gvb ucmp */
    /*                      new set get  esc null ptr cls mat twice cyc
			    alias dse fail */
    [GEN_PROFILE_ALL] =      {30,  8,  4,  8,  6,  3,  8,  4,  3,
			       4,  4,  3,  4,  3,  4,  3,  4,  3,  3,  3,
			       4,  4,  4,  3,  2,  2,  1,  3,  3,  4,
			       4,  4,  3},
    [GEN_PROFILE_ARITH] =    {60, 15,  6,  3,  3,  1,  2,  1,  2,
			       1,  1,  1,  1,  1,  2,  1,  1,  1,  1,  1,
			       0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
			       0,  0,  0},
    [GEN_PROFILE_BOUNDS] =   {18,  5,  3, 10,  2,  3, 16,  8,  3,
			       6,  6,  4,  6,  1,  3,  4,  6,  1,  3,  6,
			       0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
			       0,  0,  0},
    [GEN_PROFILE_OVERFLOW] = {20,  5,  3,  5, 25,  2,  5,  2,  2,
			       3,  3,  5,  2,  8,  1,  1,  1,  8,  1,  1,
			       0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
			       0,  0,  0},
    [GEN_PROFILE_HEAP] =     {15,  3,  2,  6,  2,  2,  4,  2,  2,
			       1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
			      10, 10, 10,  6,  4,  3,  3,  5,  4,  3,
			       4,  4,  4},
    [GEN_PROFILE_TOY] =      {40,  0,  0,  0,  0,  0,  0,  0,  0,
			       0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
			      10,  8, 10,  5,  0,  0,  0,  6,  0,  0,
			       0,  0,  0},
    [GEN_PROFILE_EDGE] =     {30,  8,  4,  8,  6,  3,  8,  4,  3,
			       4,  4,  3,  4,  3,  4,  3,  4,  3,  3,  3,
			       4,  4,  4,  3,  2,  2,  1,  3,  3,  4,
			       4,  4,  3},
};

/* The weight of E_EDGE in an edge trace (the other weights sum to about
 * 110 without the heap, 150 with it), and the share of edge traces
 * (percent) where it is not gen_opts.edge_pct. */
static const uint32_t edge_weight[GEN_PROFILE_COUNT] = {
    [GEN_PROFILE_ALL] = 20,	 [GEN_PROFILE_ARITH] = 10,
    [GEN_PROFILE_BOUNDS] = 20,	 [GEN_PROFILE_OVERFLOW] = 20,
    [GEN_PROFILE_HEAP] = 20,	 [GEN_PROFILE_EDGE] = 60,
};

/* The share of heap traces (percent) per profile, when heap ops are on,
 * and their length limit. */
static const uint32_t heap_share[GEN_PROFILE_COUNT] = {
    [GEN_PROFILE_ALL] = 20, [GEN_PROFILE_HEAP] = 100,
    [GEN_PROFILE_TOY] = 100, [GEN_PROFILE_EDGE] = 25,
};
enum { HEAP_MAX_LEN = 16 };
/* clang-format on */

static const char *const profile_names[GEN_PROFILE_COUNT] = {
    [GEN_PROFILE_ALL] = "all",
    [GEN_PROFILE_ARITH] = "arithmetic",
    [GEN_PROFILE_BOUNDS] = "bounds-heavy",
    [GEN_PROFILE_OVERFLOW] = "overflow-heavy",
    [GEN_PROFILE_HEAP] = "heap",
    [GEN_PROFILE_TOY] = "toy",
    [GEN_PROFILE_EDGE] = "edge",
};

static const char *const profile_descs[GEN_PROFILE_COUNT] = {
    [GEN_PROFILE_ALL] = "every op kind, guard kind and snippet (default)",
    [GEN_PROFILE_ARITH] = "long arithmetic chains with few guards",
    [GEN_PROFILE_BOUNDS] =
	"range and known-bits guards around add, neg, shift, and",
    [GEN_PROFILE_OVERFLOW] = "*_ovf ops with their guards, ovf snippets",
    [GEN_PROFILE_HEAP] = "objects, fields, calls, fail-args (heap ops on)",
    [GEN_PROFILE_TOY] = "only the Toy Optimizer's ops (for --syntax toy)",
    [GEN_PROFILE_EDGE] =
	"every trace mixes in the edge shapes: ranges ending at W, 2^k, "
	"MININT/MAXINT, near-overflow products, alias shapes",
};

gen_opts gen_default_opts(void)
{
	gen_opts o;
	o.width = 64;
	o.min_len = 10;
	o.max_len = 50;
	o.min_inputs = 1;
	o.max_inputs = 4;
	o.profile = GEN_PROFILE_ALL;
	o.heap = false;
	o.edge_pct = GEN_EDGE_PCT;
	return o;
}

jp_status gen_check_opts(const gen_opts *o, jp_err *err)
{
	if (o->width != 8 && o->width != 16 && o->width != 32 && o->width != 64)
		return jp_fail(err, JP_EINPUT,
			       "expected width 8, 16, 32 or 64, found %d",
			       o->width);
	if (o->min_len < 1 || o->min_len > o->max_len || o->max_len > 10000)
		return jp_fail(err, JP_EINPUT,
			       "expected a length range within 1..10000, found "
			       "%u-%u",
			       o->min_len, o->max_len);
	if (o->min_inputs < 1 || o->min_inputs > o->max_inputs ||
	    o->max_inputs > 64)
		return jp_fail(err, JP_EINPUT,
			       "expected an input count range within 1..64, "
			       "found %u-%u",
			       o->min_inputs, o->max_inputs);
	if (o->edge_pct > 100)
		return jp_fail(err, JP_EINPUT,
			       "expected an edge share of 0..100%%, found %u",
			       o->edge_pct);
	if ((unsigned)o->profile >= GEN_PROFILE_COUNT)
		return jp_fail(err, JP_EINPUT, "invalid profile %d",
			       (int)o->profile);
	return JP_OK;
}

const char *gen_profile_name(gen_profile p)
{
	return (unsigned)p < GEN_PROFILE_COUNT ? profile_names[p] : "?";
}

const char *gen_profile_desc(gen_profile p)
{
	return (unsigned)p < GEN_PROFILE_COUNT ? profile_descs[p] : "?";
}

jp_status gen_parse_profile(const char *name, gen_profile *p, jp_err *err)
{
	/* Full names and their first words. */
	static const struct {
		const char *name;
		gen_profile p;
	} names[] = {
	    {"all", GEN_PROFILE_ALL},
	    {"arithmetic", GEN_PROFILE_ARITH},
	    {"arith", GEN_PROFILE_ARITH},
	    {"bounds-heavy", GEN_PROFILE_BOUNDS},
	    {"bounds", GEN_PROFILE_BOUNDS},
	    {"overflow-heavy", GEN_PROFILE_OVERFLOW},
	    {"overflow", GEN_PROFILE_OVERFLOW},
	    {"heap", GEN_PROFILE_HEAP},
	    {"toy", GEN_PROFILE_TOY},
	    {"edge", GEN_PROFILE_EDGE},
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (!strcmp(name, names[i].name)) {
			*p = names[i].p;
			return JP_OK;
		}
	}
	return jp_fail(
	    err, JP_EINPUT,
	    "unknown profile '%s'; expected one of: all, arithmetic, "
	    "bounds-heavy, overflow-heavy, heap, toy, edge",
	    name);
}

static bool parse_u32(const char *s, size_t len, uint32_t *out)
{
	if (len == 0 || len > 9)
		return false;
	uint32_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

jp_status gen_parse_range(const char *s, uint32_t *lo, uint32_t *hi,
			  jp_err *err)
{
	const char *dash = strchr(s, '-');
	bool ok;
	if (dash)
		ok = parse_u32(s, (size_t)(dash - s), lo) &&
		     parse_u32(dash + 1, strlen(dash + 1), hi) && *lo <= *hi;
	else {
		ok = parse_u32(s, strlen(s), lo);
		*hi = *lo;
	}
	if (!ok)
		return jp_fail(err, JP_EINPUT,
			       "expected N or LO-HI (LO <= HI), found '%s'", s);
	return JP_OK;
}

/* Prefixes ERR's message with the option it is about. */
static jp_status option_error(jp_err *err, const char *option)
{
	if (!err)
		return JP_EINPUT;
	char msg[sizeof err->msg];
	snprintf(msg, sizeof msg, "%s", err->msg);
	return jp_fail(err, err->status, "%s: %s", option, msg);
}

jp_status gen_apply_args(gen_opts *o, const char *profile, const char *length,
			 const char *inputs, jp_err *err)
{
	if (gen_parse_profile(profile, &o->profile, err))
		return JP_EINPUT;
	if (length && gen_parse_range(length, &o->min_len, &o->max_len, err))
		return option_error(err, "--length");
	if (inputs &&
	    gen_parse_range(inputs, &o->min_inputs, &o->max_inputs, err))
		return option_error(err, "--inputs");
	return gen_check_opts(o, err);
}

gen_ctx *gen_ctx_new(void)
{
	return calloc(1, sizeof(gen_ctx));
}

void gen_ctx_free(gen_ctx *g)
{
	if (!g)
		return;
	free(g->ex);
	free(g->uses);
	free(g->must_out);
	free(g->sink);
	free(g->rpool);
	free(g->cells);
	free(g->pool);
	free(g->inputs);
	free(g->outs);
	free(g);
}

/* ---- bookkeeping ----
 * The per-vid arrays grow with the trace's value table.  After an
 * allocation failure every helper returns a harmless vid (the first input)
 * and g->oom makes gen_trace discard the trace, which keeps the action code
 * free of error plumbing. */

bool gen_grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	if (need <= *cap)
		return true;
	uint32_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, (size_t)n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

bool gen_track_vals(gen_ctx *g)
{
	uint32_t need = g->t->nvals;
	if (need <= g->capvals)
		return true;
	uint32_t cap = g->capvals, cap2 = g->capvals, cap3 = g->capvals;
	uint32_t cap4 = g->capvals;
	if (!gen_grow((void **)&g->ex, &cap, need, sizeof *g->ex) ||
	    !gen_grow((void **)&g->uses, &cap2, need, sizeof *g->uses) ||
	    !gen_grow((void **)&g->must_out, &cap3, need,
		      sizeof *g->must_out) ||
	    !gen_grow((void **)&g->sink, &cap4, need, sizeof *g->sink))
		return false;
	memset(g->uses + g->capvals, 0, cap2 - g->capvals);
	memset(g->must_out + g->capvals, 0, cap3 - g->capvals);
	memset(g->sink + g->capvals, 0, cap4 - g->capvals);
	g->capvals = cap;
	return true;
}

ir_vid gen_fallback(gen_ctx *g)
{
	g->oom = true;
	return g->t->inputs[0];
}

ir_vid gen_cst(gen_ctx *g, uint64_t v)
{
	if (g->oom)
		return g->t->inputs[0];
	ir_vid c = ir_const_int(g->t, v);
	if (c == IR_NOVAL || !gen_track_vals(g))
		return gen_fallback(g);
	g->ex[c] = sem_mask(g->w, v);
	return c;
}

void gen_use(gen_ctx *g, ir_vid v)
{
	if (g->uses[v] < 255)
		g->uses[v]++;
}

void gen_pool_add(gen_ctx *g, ir_vid v)
{
	if (!gen_grow((void **)&g->pool, &g->cappool, g->npool + 1,
		      sizeof *g->pool)) {
		g->oom = true;
		return;
	}
	g->pool[g->npool++] = v;
}

/* Whether OPC on A, B is costly for a bit-vector solver at any width
 * above 8: a division by a variable (a full divider circuit) or a product
 * of two variables. */
bool gen_costly(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b)
{
	return ir_op_needs_circuit(opc, ir_is_const(g->t, a),
				   ir_is_const(g->t, b));
}

/* Emits a pure or overflow-checked op on ARGS, computing its example value
 * with sem_eval (the one definition of op semantics).  The result of a
 * costly op is a sink: an output, but never the operand of a later op or
 * guard, so the verifier meets its circuit in one obligation (where the
 * two sides are usually the same term) instead of in the assumptions of
 * every later query. */
ir_vid gen_emit(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b)
{
	if (g->oom)
		return g->t->inputs[0];
	int n = ir_opinfo_of(opc)->nargs;
	ir_vid args[2] = {a, b};
	uint64_t ev[2] = {g->ex[a], n > 1 ? g->ex[b] : 0};
	bool ovf = false;
	uint64_t r = sem_eval(opc, g->w, ev, &ovf);
	uint32_t opi = ir_emit(g->t, opc, (uint32_t)n, args, 0, NULL);
	if (opi == UINT32_MAX || !gen_track_vals(g))
		return gen_fallback(g);
	ir_vid res = g->t->ops[opi].result;
	g->ex[res] = r;
	for (int i = 0; i < n; i++)
		gen_use(g, args[i]);
	gen_pool_add(g, res);
	if (n == 2 && gen_costly(g, opc, a, b)) {
		g->sink[res] = 1;
		g->must_out[res] = 1;
	}
	if (ir_op_has(opc, IRF_OVF))
		g->last_ovf = ovf;
	g->nemitted++;
	return res;
}

/* Gives guard OPI fail-args: FIRST (when not IR_NOVAL) and one to three
 * live values, references preferred (a virtual object there must be
 * materialized when the guard fails). */
void gen_add_failargs(gen_ctx *g, uint32_t opi, ir_vid first)
{
	ir_vid fa[4];
	uint32_t n = 0;
	if (first != IR_NOVAL)
		fa[n++] = first;
	uint32_t k = 1 + (uint32_t)rng_below(&g->r, 3);
	for (uint32_t i = 0; i < k; i++) {
		ir_vid v = g->nrpool && rng_chance(&g->r, 1, 2)
			       ? gen_pick_ref(g)
			       : g->pool[rng_below(&g->r, g->npool)];
		bool dup = false;
		for (uint32_t j = 0; j < n; j++)
			dup |= fa[j] == v;
		if (!dup)
			fa[n++] = v;
	}
	if (ir_set_failargs(g->t, opi, n, fa) != JP_OK)
		g->oom = true;
}

/* Emits a guard with the label the parser would give it.  The guard must
 * pass on the example values; if it would not, the generator has a bug. */
void gen_guard(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b)
{
	if (g->oom)
		return;
	int n = ir_opinfo_of(opc)->nargs;
	ir_vid args[2] = {a, b};
	uint64_t ev[2] = {n > 0 ? g->ex[a] : 0, n > 1 ? g->ex[b] : 0};
	/* guard_class is only emitted on objects whose class is known to
	 * match (sem_guard_passes has no heap to look at). */
	if (opc != IR_GUARD_CLASS && !sem_guard_passes(opc, ev, g->last_ovf))
		g->internal = true;
	char lbl[24];
	snprintf(lbl, sizeof lbl, "g%u", g->nguards);
	uint32_t descr = ir_cstr(g->t, lbl);
	if (descr == UINT32_MAX) {
		g->oom = true;
		return;
	}
	uint32_t opi = ir_emit(g->t, opc, (uint32_t)n, args, descr, NULL);
	if (opi == UINT32_MAX) {
		g->oom = true;
		return;
	}
	g->t->ops[opi].flags |= IR_OPF_IMPLICIT_LABEL;
	for (int i = 0; i < n; i++)
		gen_use(g, args[i]);
	g->nguards++;
	g->nemitted++;
	if (g->heap && rng_chance(&g->r, 1, 3))
		gen_add_failargs(g, opi, IR_NOVAL);
}

/* guard_true or guard_false on V, whichever passes on the example. */
void gen_guard_bool(gen_ctx *g, ir_vid v)
{
	gen_guard(g, g->ex[v] ? IR_GUARD_TRUE : IR_GUARD_FALSE, v, 0);
}

void gen_guard_ovf(gen_ctx *g)
{
	gen_guard(g, g->last_ovf ? IR_GUARD_OVERFLOW : IR_GUARD_NO_OVERFLOW, 0,
		  0);
}

/* A non-constant operand: half the time one of the last four values, so
 * values flow through long chains; otherwise any value. */
static ir_vid pick_any(gen_ctx *g)
{
	uint32_t n = g->npool;
	for (int tries = 0; tries < 8; tries++) {
		ir_vid v;
		if (n > 1 && rng_chance(&g->r, 1, 2)) {
			uint32_t back = n < 4 ? n : 4;
			v = g->pool[n - 1 - rng_below(&g->r, back)];
		} else {
			v = g->pool[rng_below(&g->r, n)];
		}
		if (!g->sink[v])
			return v;
	}
	/* Integer inputs come first in the pool and are never sinks. */
	return g->pool[rng_below(&g->r, g->nintin)];
}

static bool is_bool(gen_ctx *g, ir_vid v)
{
	uint32_t def = ir_defop(g->t, v);
	return def != UINT32_MAX && ir_op_has(g->t->ops[def].opc, IRF_CMP);
}

/* Comparison results (0 or 1) are frequent but dull operands: usually
 * draw again when one comes up. */
ir_vid gen_pick_val(gen_ctx *g)
{
	ir_vid v = pick_any(g);
	for (int i = 0; i < 2 && is_bool(g, v) && rng_chance(&g->r, 3, 4); i++)
		v = pick_any(g);
	return v;
}

/* Mostly an input, else as pick_val.  Snippets whose failure
 * needs a particular value (a shift count of W-1) use it: concrete
 * screening tries edge values on inputs, so the failure shows without
 * the solver. */
ir_vid gen_pick_input_or_val(gen_ctx *g)
{
	if (rng_chance(&g->r, 3, 4))
		return g->pool[rng_below(&g->r, g->nintin)];
	return gen_pick_val(g);
}

/* Another operand: a constant with probability PCT percent. */
ir_vid gen_pick_operand(gen_ctx *g, uint32_t pct)
{
	if (rng_chance(&g->r, pct, 100))
		return gen_cst(g, gen_edge_value(g));
	return gen_pick_val(g);
}

/* A shift count: mostly constants in [0, W) with W-1, W and W+1 favoured,
 * sometimes a value masked into range (known bits), rarely any value. */
ir_vid gen_shift_count(gen_ctx *g)
{
	rng *r = &g->r;
	int w = g->w;
	uint32_t c = (uint32_t)rng_below(r, 100);
	if (c < 45)
		return gen_cst(g, rng_below(r, (uint64_t)w));
	if (c < 55)
		return gen_cst(g, (uint64_t)w - 1);
	if (c < 62)
		return gen_cst(g, (uint64_t)w + (uint64_t)rng_below(r, 2));
	if (c < 70)
		return gen_cst(g, 1 + rng_below(r, 4));
	if (c < 92 && g->toy) /* no int_and in the toy spelling */
		return gen_cst(g, rng_below(r, (uint64_t)w));
	if (c < 92)
		return gen_emit(g, IR_INT_AND, gen_pick_val(g),
				gen_cst(g, (uint64_t)w - 1));
	return gen_pick_val(g);
}

/* A constant near CENTER (within +-2), or an edge value. */
uint64_t gen_near(gen_ctx *g, uint64_t center)
{
	if (rng_chance(&g->r, 3, 10))
		return gen_edge_value(g);
	return sem_mask(g->w, center + (uint64_t)rng_range(&g->r, -2, 2));
}

/* ---- single actions ---- */

static const ir_opcode binops[] = {
    IR_INT_ADD,	    IR_INT_ADD,	      IR_INT_ADD,     IR_INT_SUB,
    IR_INT_SUB,	    IR_INT_SUB,	      IR_INT_MUL,     IR_INT_MUL,
    IR_INT_AND,	    IR_INT_AND,	      IR_INT_OR,      IR_INT_OR,
    IR_INT_XOR,	    IR_INT_XOR,	      IR_INT_LSHIFT,  IR_INT_LSHIFT,
    IR_INT_RSHIFT,  IR_INT_RSHIFT,    IR_UINT_RSHIFT, IR_UINT_RSHIFT,
    IR_INT_SIGNEXT, IR_UINT_MUL_HIGH, IR_INT_PY_DIV,  IR_INT_PY_MOD,
};

static const ir_opcode unops[] = {
    IR_INT_NEG,	    IR_INT_NEG,		  IR_INT_NEG,		IR_INT_INVERT,
    IR_INT_INVERT,  IR_INT_FORCE_GE_ZERO, IR_INT_FORCE_GE_ZERO, IR_SAME_AS_I,
    IR_INT_IS_TRUE, IR_INT_IS_ZERO,
};

static const ir_opcode cmpops[] = {
    IR_INT_EQ,	IR_INT_NE,  IR_INT_LT,	IR_INT_LE,  IR_INT_GT,
    IR_INT_GE,	IR_INT_LT,  IR_INT_LE,	IR_INT_GT,  IR_INT_GE,
    IR_UINT_LT, IR_UINT_LE, IR_UINT_GT, IR_UINT_GE,
};

/* Range comparisons only (for range guards). */
static const ir_opcode rangeops[] = {
    IR_INT_LT, IR_INT_LE, IR_INT_GT,  IR_INT_GE,  IR_INT_LT,  IR_INT_LE,
    IR_INT_GT, IR_INT_GE, IR_UINT_LT, IR_UINT_LE, IR_UINT_GT, IR_UINT_GE,
};

static ir_vid divisor(gen_ctx *g)
{
	/* Mostly powers of two (what strength reduction looks for) and
	 * +-1.  Other constants become magic-number multiplications in the
	 * optimizer, and variables full divider circuits: at W = 64 both
	 * cost the solver seconds, so they are rare there and more common
	 * at smaller widths, where they are cheap to prove. */
	bool wide = g->w > 32;
	uint32_t hard_const = wide ? 4 : 15, hard_var = wide ? 6 : 15;
	ir_vid d;
	uint32_t c = (uint32_t)rng_below(&g->r, 100);
	if (c < hard_const) {
		d = gen_cst(g,
			    gen_sgn(g, rng_range(&g->r, 3, 16) *
					   (rng_chance(&g->r, 1, 4) ? -1 : 1)));
	} else if (c < hard_const + hard_var) {
		d = gen_pick_val(g);
	} else if (c < hard_const + hard_var + 15) {
		d = gen_cst(g, rng_chance(&g->r, 1, 2) ? 1 : sem_allones(g->w));
	} else {
		d = gen_cst(
		    g, sem_mask(g->w,
				(rng_chance(&g->r, 1, 4) ? 0 - 1 : 1) *
				    gen_pow2(g, (int)rng_below(
						    &g->r, (uint64_t)g->w))));
	}
	/* A division by zero is defined (sem.h) but a real trace has
	 * guarded it away: repair most of them. */
	if (g->ex[d] == 0 && rng_chance(&g->r, 7, 8))
		d = gen_cst(g, 1 + rng_below(&g->r, 9));
	return d;
}

static const ir_opcode toy_binops[] = {
    IR_INT_ADD, IR_INT_ADD, IR_INT_ADD, IR_INT_SUB,    IR_INT_SUB,
    IR_INT_SUB, IR_INT_MUL, IR_INT_MUL, IR_INT_LSHIFT, IR_INT_RSHIFT,
};

void gen_act_binop(gen_ctx *g)
{
	ir_opcode opc = g->toy ? PICK(toy_binops) : PICK(binops);
	ir_vid a = gen_pick_operand(g, 4), b;
	switch (opc) {
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: b = gen_shift_count(g); break;
	case IR_INT_SIGNEXT: {
		static const uint64_t n[] = {1, 2, 4, 1, 2, 4, 8, 0};
		b = gen_cst(g, n[rng_below(&g->r, 8)]);
		break;
	}
	case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: b = divisor(g); break;
	case IR_INT_MUL:
	case IR_UINT_MUL_HIGH: b = gen_pick_operand(g, 85); break;
	default: b = gen_pick_operand(g, 25); break;
	}
	if (ir_is_const(g->t, a) && ir_is_const(g->t, b))
		a = gen_pick_val(g);
	if (ir_op_has(opc, IRF_COMM) && rng_chance(&g->r, 1, 4)) {
		ir_vid x = a;
		a = b;
		b = x;
	}
	gen_emit(g, opc, a, b);
}

static void act_unop(gen_ctx *g)
{
	/* Separate statements: the order of two draws inside one call's
	 * arguments is unspecified (gcc and clang differ), and the same seed
	 * must give the same trace with every compiler. */
	ir_opcode opc = PICK(unops);
	gen_emit(g, opc, gen_pick_val(g), 0);
}

ir_vid gen_make_cmp(gen_ctx *g)
{
	ir_vid a = gen_pick_val(g);
	ir_vid b = rng_chance(&g->r, 1, 2) ? gen_cst(g, gen_near(g, g->ex[a]))
					   : gen_pick_val(g);
	if (rng_chance(&g->r, 1, 5)) {
		ir_vid x = a;
		a = b;
		b = x;
	}
	return gen_emit(g, PICK(cmpops), a, b);
}

static void act_cmp(gen_ctx *g)
{
	gen_make_cmp(g);
}

static void act_guard_cmp(gen_ctx *g)
{
	gen_guard_bool(g, gen_make_cmp(g));
}

/* An overflow-checked op and its guard.  Most example overflows are
 * repaired (a real trace mostly stays on the no-overflow path), the rest
 * get guard_overflow. */
static void act_ovf(gen_ctx *g)
{
	static const ir_opcode ops[] = {IR_INT_ADD_OVF, IR_INT_SUB_OVF,
					IR_INT_MUL_OVF};
	ir_opcode opc = PICK(ops);
	/* A product of two variables is the hardest thing a bit-vector
	 * solver meets (and its overflow flag worse): keep it rare. */
	ir_vid a = gen_pick_val(g);
	ir_vid b = gen_pick_operand(g, opc == IR_INT_MUL_OVF ? 85 : 30);
	uint64_t ev[2] = {g->ex[a], g->ex[b]};
	bool ovf;
	sem_eval(opc, g->w, ev, &ovf);
	if (ovf && rng_chance(&g->r, 2, 3))
		b = gen_cst(g, gen_sgn(g, rng_range(&g->r, -4, 4)));
	if (ir_op_has(opc, IRF_COMM) && rng_chance(&g->r, 1, 4)) {
		ir_vid x = a;
		a = b;
		b = x;
	}
	gen_emit(g, opc, a, b);
	gen_guard_ovf(g);
}

static void act_guard_value(gen_ctx *g)
{
	ir_vid v = gen_pick_val(g);
	gen_guard(g, IR_GUARD_VALUE, v, gen_cst(g, g->ex[v]));
}

/* A range check of V against a constant near CENTER (or an edge value),
 * guarded on the side the example satisfies. */
void gen_range_guard(gen_ctx *g, ir_vid v, uint64_t center)
{
	ir_vid k = gen_cst(g, gen_near(g, center));
	ir_opcode opc = PICK(rangeops);
	ir_vid c = rng_chance(&g->r, 1, 5) ? gen_emit(g, opc, k, v)
					   : gen_emit(g, opc, v, k);
	gen_guard_bool(g, c);
}

/* A signed range check only (what the bounds snippets need). */
void gen_signed_guard(gen_ctx *g, ir_vid v, uint64_t k)
{
	static const ir_opcode ops[] = {IR_INT_LT, IR_INT_LE, IR_INT_GT,
					IR_INT_GE};
	gen_guard_bool(g, gen_emit(g, PICK(ops), v, gen_cst(g, k)));
}

static void act_range(gen_ctx *g)
{
	ir_vid v = gen_pick_val(g);
	gen_range_guard(g, v, g->ex[v]);
}

uint64_t gen_mask_value(gen_ctx *g)
{
	int k = 1 + (int)rng_below(&g->r, (uint64_t)g->w - 1);
	switch (rng_below(&g->r, 6)) {
	case 0: return gen_pow2(g, k) - 1;		      /* low bits */
	case 1: return sem_mask(g->w, ~(gen_pow2(g, k) - 1)); /* high bits */
	case 2: return 1;
	case 3: return gen_pow2(g, k);
	case 4: return gen_repeated(g);
	default: return gen_edge_value(g);
	}
}

/* Known bits: guard_value(int_and(v, mask), example & mask). */
static void act_knownbits(gen_ctx *g)
{
	ir_vid v = gen_pick_val(g);
	ir_vid a = gen_emit(g, IR_INT_AND, v, gen_cst(g, gen_mask_value(g)));
	if (rng_chance(&g->r, 3, 4))
		gen_guard(g, IR_GUARD_VALUE, a, gen_cst(g, g->ex[a]));
	else
		gen_guard_bool(g,
			       gen_emit(g, IR_INT_EQ, a, gen_cst(g, g->ex[a])));
}

/* guard_true/guard_false on an earlier comparison, or on a value. */
static void act_guard_bool(gen_ctx *g)
{
	for (uint32_t i = g->npool; i-- > 0 && g->npool - i <= 8;) {
		ir_vid v = g->pool[i];
		uint32_t def = ir_defop(g->t, v);
		if (def != UINT32_MAX &&
		    ir_op_has(g->t->ops[def].opc, IRF_CMP) &&
		    rng_chance(&g->r, 2, 3)) {
			gen_guard_bool(g, v);
			return;
		}
	}
	ir_vid v = gen_pick_val(g);
	if (rng_chance(&g->r, 1, 2))
		v = gen_emit(g,
			     rng_chance(&g->r, 1, 2) ? IR_INT_IS_TRUE
						     : IR_INT_IS_ZERO,
			     v, 0);
	gen_guard_bool(g, v);
}

typedef void (*action_fn)(gen_ctx *);

static const action_fn actions[A_COUNT] = {
    [A_BINOP] = gen_act_binop,
    [A_UNOP] = act_unop,
    [A_CMP] = act_cmp,
    [A_GUARD_CMP] = act_guard_cmp,
    [A_OVF] = act_ovf,
    [A_GUARD_VALUE] = act_guard_value,
    [A_RANGE] = act_range,
    [A_KNOWNBITS] = act_knownbits,
    [A_GUARD_BOOL] = act_guard_bool,
    [S_ADDCMP] = gen_snip_addcmp,
    [S_NEG] = gen_snip_neg,
    [S_MULEQ] = gen_snip_muleq,
    [S_LSHIFT] = gen_snip_lshift,
    [S_OVFCSE] = gen_snip_ovfcse,
    [S_POW2DIV] = gen_snip_pow2div,
    [S_FGEZ] = gen_snip_fgez,
    [S_AND] = gen_snip_and,
    [S_OVFTWIN] = gen_snip_ovftwin,
    [H_NEW] = gen_act_new,
    [H_SET] = gen_act_set,
    [H_GET] = gen_act_get,
    [H_ESCAPE] = gen_act_escape,
    [H_NULLGUARD] = gen_act_nullguard,
    [H_PTRCMP] = gen_act_ptrcmp,
    [H_CLASS] = gen_act_class,
    [HS_MAT] = gen_hsnip_mat,
    [HS_TWICE] = gen_hsnip_twice,
    [HS_CYCLE] = gen_hsnip_cycle,
    [HS_ALIAS] = gen_hsnip_alias,
    [HS_DSE] = gen_hsnip_dse,
    [HS_FAILARGS] = gen_hsnip_failargs,
    [S_GVBOOL] = gen_snip_gvbool,
    [S_UCMP] = gen_snip_ucmp,
    [E_EDGE] = gen_edge_shape,
};

/* ---- the trace ---- */

/* The outputs: every op result nothing uses (it would otherwise be dead),
 * every value a snippet marked, and a few random others; at most 40. */
static void finish(gen_ctx *g)
{
	enum { MAXOUT = 40 };
	uint32_t n = 0;
	if (!gen_grow((void **)&g->outs, &g->capouts, MAXOUT,
		      sizeof *g->outs)) {
		g->oom = true;
		return;
	}
	/* Latest values first, so a cap drops early leaves, not late ones. */
	for (uint32_t i = g->npool; i-- > 0 && n < MAXOUT;) {
		ir_vid v = g->pool[i];
		if (g->t->vals[v].tag != IR_VAL_OP)
			continue;
		if (g->uses[v] == 0 || g->must_out[v] ||
		    rng_chance(&g->r, 1, 8))
			g->outs[n++] = v;
	}
	/* References: unused fresh objects and loads (their escape at the
	 * end is what materialization must get right), marked ones. */
	for (uint32_t i = g->nrpool; i-- > 0 && n < MAXOUT;) {
		ir_vid v = g->rpool[i];
		if (g->t->vals[v].tag != IR_VAL_OP)
			continue;
		if (g->uses[v] == 0 || g->must_out[v])
			g->outs[n++] = v;
	}
	if (n == 0) /* a trace of guards only: output the last value */
		g->outs[n++] = g->pool[g->npool - 1];
	/* Definition order (vids grow with definitions). */
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && g->outs[j - 1] < g->outs[j];
		     j--) {
			ir_vid x = g->outs[j];
			g->outs[j] = g->outs[j - 1];
			g->outs[j - 1] = x;
		}
	/* Back to definition order, which reads naturally. */
	for (uint32_t i = 0; i < n / 2; i++) {
		ir_vid x = g->outs[i];
		g->outs[i] = g->outs[n - 1 - i];
		g->outs[n - 1 - i] = x;
	}
	if (g->toy) {
		/* The toy spelling has no end op with arguments: every
		 * output is printed, and the trace ends with finish(). */
		for (uint32_t i = 0; i < n && !g->oom; i++)
			if (ir_emit(g->t, IR_ESCAPE_N, 1, &g->outs[i], 0,
				    NULL) == UINT32_MAX)
				g->oom = true;
		if (ir_emit(g->t, IR_FINISH, 0, NULL, 0, NULL) == UINT32_MAX)
			g->oom = true;
		return;
	}
	ir_opcode end = rng_chance(&g->r, 1, 6) ? IR_JUMP : IR_FINISH;
	if (ir_emit(g->t, end, n, g->outs, 0, NULL) == UINT32_MAX)
		g->oom = true;
}

/* The escapes the toy profile's end will add (one per unused value, as
 * finish chooses them), so that they count toward the length; 0 for the
 * other profiles, whose end is one op. */
static uint32_t toy_escapes(const gen_ctx *g)
{
	if (!g->toy)
		return 0;
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->npool; i++)
		n += g->t->vals[g->pool[i]].tag == IR_VAL_OP &&
		     g->uses[g->pool[i]] == 0;
	for (uint32_t i = 0; i < g->nrpool; i++)
		n += g->t->vals[g->rpool[i]].tag == IR_VAL_OP &&
		     g->uses[g->rpool[i]] == 0;
	return n;
}

static void reset(gen_ctx *g, const rng *r, int width)
{
	g->r = *r;
	g->w = width;
	g->oom = g->internal = false;
	g->npool = 0;
	g->nguards = 0;
	g->nemitted = 0;
	g->last_ovf = false;
	g->heap = false;
	g->edge = false;
	g->nintin = 0;
	g->nrpool = 0;
	g->ncells = 0;
	g->next_fresh = 0;
	if (g->capvals) {
		memset(g->uses, 0, g->capvals);
		memset(g->must_out, 0, g->capvals);
		memset(g->sink, 0, g->capvals);
	}
}

static bool intern_names(gen_ctx *g)
{
	static const char *const ints[3] = {"f", "g", "h"};
	static const char *const toyints[3] = {"0", "1", "2"};
	static const char *const refs[2] = {"next", "prev"};
	static const char *const types[2] = {"T", "U"};
	bool ok = true;
	for (int i = 0; i < 3; i++)
		ok &= (g->ifield[i] = ir_cstr(
			   g->t, g->toy ? toyints[i] : ints[i])) != UINT32_MAX;
	for (int i = 0; i < 2; i++) {
		ok &= (g->rfield[i] = ir_cstr(g->t, refs[i])) != UINT32_MAX;
		ok &= (g->tname[i] = ir_cstr(g->t, types[i])) != UINT32_MAX;
	}
	return ok;
}

/* The inputs: in a heap trace, one or two references first (distinct
 * addresses, sometimes NULL), always at least one integer. */
static bool add_inputs(gen_ctx *g, const gen_opts *o)
{
	if (o->heap && heap_share[o->profile] &&
	    rng_chance(&g->r, heap_share[o->profile], 100))
		g->heap = true;
	if (g->heap && !intern_names(g))
		return false;
	uint32_t n = (uint32_t)rng_range(&g->r, o->min_inputs, o->max_inputs);
	uint32_t nref = 0;
	if (g->heap && n > 1 && !g->toy) {
		nref = 1 + (uint32_t)rng_below(&g->r, 2);
		if (nref > n - 1)
			nref = n - 1;
	}
	if (!gen_grow((void **)&g->inputs, &g->capinputs, n, sizeof *g->inputs))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		bool ref = i < nref;
		ir_vid v = ir_add_input(g->t, ref ? 'r' : 'i', NULL);
		if (v == IR_NOVAL || !gen_track_vals(g))
			return false;
		if (ref) {
			/* Small addresses: '# args:' values are read at
			 * the trace's width. */
			g->ex[v] = rng_chance(&g->r, 1, 7) ? 0 : 16 * (i + 1);
			gen_rpool_add(g, v);
		} else {
			g->ex[v] = gen_input_value(g);
			gen_pool_add(g, v);
			g->nintin++;
		}
		g->inputs[i] = g->ex[v];
	}
	return !g->oom;
}

/* Whether this trace mixes in the edge shapes.  Decided on a copy of the
 * stream, so that deciding draws nothing: a trace that is not an edge
 * trace is the same as before edge traces existed (the seeds of saved
 * findings and tests keep their traces). */
static bool edge_trace(const gen_ctx *g, const gen_opts *o)
{
	uint32_t pct = o->profile == GEN_PROFILE_EDGE  ? 100
		       : o->profile == GEN_PROFILE_TOY ? 0
						       : o->edge_pct;
	if (pct == 0)
		return false;
	if (pct >= 100)
		return true;
	rng peek = g->r;
	/* Mixed, so that the decision is independent of how the first
	 * real draw is used. */
	return rng_mix64(rng_next(&peek) ^ UINT64_C(0x65646765)) % 100 < pct;
}

/* A mutation step: from here on the choices come from the stream of SEED
 * (mixed, so that it is not the fresh trace of SEED drawn out of step),
 * and the length target is drawn again as for a fresh trace (HI is the
 * trace's upper length), at least one action further.  Returns it. */
static uint32_t mutate_here(gen_ctx *g, const gen_opts *o, uint32_t hi,
			    uint64_t seed)
{
	rng_seed(&g->r, rng_mix64(seed ^ UINT64_C(0x6d7574617465)));
	uint32_t t = (uint32_t)rng_range(&g->r, o->min_len, hi);
	return t > g->nemitted ? t : g->nemitted + 1;
}

/* Generates a trace drawing every choice from *R, which is left advanced
 * past them, and switching streams at the mutation steps of ID (may be
 * NULL).  ORIGIN ("seed 42") names the stream in generator-bug
 * messages. */
static jp_status generate(gen_ctx *g, rng *r, const gen_id *id,
			  const char *origin, const gen_opts *o, ir_trace **out,
			  gen_example *ex, jp_err *err)
{
	*out = NULL;
	jp_status e = gen_check_opts(o, err);
	if (e)
		return e;
	reset(g, r, o->width);
	g->toy = o->profile == GEN_PROFILE_TOY;
	g->edge = edge_trace(g, o);
	g->t = ir_trace_new(o->width);
	if (g->t)
		g->t->toy = g->toy;
	if (!g->t || !add_inputs(g, o)) {
		ir_trace_free(g->t);
		g->t = NULL;
		return jp_fail(err, JP_ENOMEM,
			       "out of memory generating a trace");
	}
	/* Heap traces are kept short: the verifier's heap model costs grow
	 * fast with length (about 0.3 s at 15 ops, 1.7 s at 30), and the
	 * heap shapes are small. */
	uint32_t hi = o->max_len;
	if (g->heap && hi > HEAP_MAX_LEN)
		hi = o->min_len > HEAP_MAX_LEN ? o->min_len : HEAP_MAX_LEN;
	uint32_t target = (uint32_t)rng_range(&g->r, o->min_len, hi);
	uint32_t wts[A_COUNT];
	memcpy(wts, profile_weights[o->profile], sizeof wts);
	if (!g->heap)
		for (int a = A_FIRST_HEAP; a <= A_LAST_HEAP; a++)
			wts[a] = 0;
	wts[E_EDGE] = g->edge ? edge_weight[o->profile] : 0;
	uint32_t m = 0; /* the next mutation step of ID */
	for (;;) {
		while (id && m < id->nmut && g->nemitted >= id->mut[m].cut)
			target = mutate_here(g, o, hi, id->mut[m++].seed);
		if (g->nemitted + toy_escapes(g) >= target || g->oom)
			break;
		int a = rng_pick_weighted(&g->r, wts, A_COUNT);
		/* Near the end, prefer single ops so the length stays close
		 * to the target. */
		if (target - g->nemitted < 3 && a > A_GUARD_BOOL)
			a = A_BINOP;
		actions[a](g);
	}
	uint32_t body = g->nemitted;
	finish(g);
	*r = g->r;
	ir_trace *t = g->t;
	g->t = NULL;
	if (id && m < id->nmut && !g->oom) {
		ir_trace_free(t);
		return jp_fail(err, JP_EINPUT,
			       "trace %s: expected mutation cuts below the ops "
			       "emitted before them, found cut %u with %u ops",
			       origin, id->mut[m].cut, body);
	}
	if (g->oom) {
		ir_trace_free(t);
		return jp_fail(err, JP_ENOMEM,
			       "out of memory generating a trace");
	}
	if (g->internal) {
		ir_trace_free(t);
		return jp_fail(err, JP_EINTERNAL,
			       "generator bug: a guard fails on the example "
			       "values (%s)",
			       origin);
	}
	jp_err verr;
	if (ir_validate(t, NULL, &verr)) {
		ir_trace_free(t);
		return jp_fail(err, JP_EINTERNAL,
			       "generator bug: invalid trace (%s): %s", origin,
			       verr.msg);
	}
	if (ex) {
		ex->ninputs = t->ninputs;
		ex->inputs = g->inputs;
		ex->nvals = t->nvals;
		ex->vals = g->ex;
		ex->body = body;
	}
	*out = t;
	return JP_OK;
}

jp_status gen_trace(gen_ctx *g, uint64_t seed, const gen_opts *o,
		    ir_trace **out, gen_example *ex, jp_err *err)
{
	gen_id id = gen_id_seed(seed);
	return gen_trace_id(g, &id, o, out, ex, err);
}

jp_status gen_trace_id(gen_ctx *g, const gen_id *id, const gen_opts *o,
		       ir_trace **out, gen_example *ex, jp_err *err)
{
	char origin[GEN_ID_TEXT + 8];
	char text[GEN_ID_TEXT];
	gen_id_text(id, text);
	snprintf(origin, sizeof origin, "seed %s", text);
	*out = NULL;
	if (id->nmut > GEN_MUT_MAX)
		return jp_fail(err, JP_EINPUT,
			       "trace %s: expected at most %d mutation steps, "
			       "found %u",
			       text, GEN_MUT_MAX, id->nmut);
	for (uint32_t i = 1; i < id->nmut; i++)
		if (id->mut[i].cut <= id->mut[i - 1].cut)
			return jp_fail(err, JP_EINPUT,
				       "trace %s: expected increasing "
				       "mutation cuts, found %u after %u",
				       text, id->mut[i].cut,
				       id->mut[i - 1].cut);
	rng r;
	rng_seed(&r, id->seed);
	return generate(g, &r, id->nmut ? id : NULL, origin, o, out, ex, err);
}

jp_status gen_trace_rng(gen_ctx *g, rng *r, const gen_opts *o, ir_trace **out,
			gen_example *ex, jp_err *err)
{
	return generate(g, r, NULL, r->bytes ? "byte-driven" : "rng stream", o,
			out, ex, err);
}

/* Which ops the generator writes (gen.h).  Every op has a case: an op added
 * to ir/ops.def stops the build here, and test_gen checks the claims
 * against the ops the traces contain. */
const char *gen_unhandled(ir_opcode opc)
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
	case IR_ESCAPE_N: case IR_ESCAPE_I: case IR_JUMP: case IR_FINISH:
		/* clang-format on */
		return NULL;
	/* clang-format off */
	case IR_DEBUG_MERGE_POINT: case IR_LABEL:
		/* clang-format on */
		return "a marker: changes no value, so no optimizer bug needs "
		       "one";
	/* clang-format off */
	case IR_OPAQUE:
		/* clang-format on */
		return "stands for an op outside the table, read with "
		       "--opaque; escape_i/escape_n are the generated calls";
	/* clang-format off */
	case IR_GETARRAYITEM_GC_I: case IR_GETARRAYITEM_GC_R:
	case IR_SETARRAYITEM_GC:
		/* clang-format on */
		return "array items come from PyPy logs; the generated heap "
		       "traces use fields";
	}
	return "not an op of the table";
}
