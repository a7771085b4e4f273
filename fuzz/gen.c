#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	A_COUNT
} gen_action;

#define A_FIRST_HEAP H_NEW

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
};

/* The share of heap traces (percent) per profile, when heap ops are on,
 * and their length limit. */
static const uint32_t heap_share[GEN_PROFILE_COUNT] = {
    [GEN_PROFILE_ALL] = 20, [GEN_PROFILE_HEAP] = 100,
    [GEN_PROFILE_TOY] = 100,
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
};

static const char *const profile_descs[GEN_PROFILE_COUNT] = {
    [GEN_PROFILE_ALL] = "every op kind, guard kind and snippet (default)",
    [GEN_PROFILE_ARITH] = "long arithmetic chains with few guards",
    [GEN_PROFILE_BOUNDS] =
	"range and known-bits guards around add, neg, shift, and",
    [GEN_PROFILE_OVERFLOW] = "*_ovf ops with their guards, ovf snippets",
    [GEN_PROFILE_HEAP] = "objects, fields, calls, fail-args (heap ops on)",
    [GEN_PROFILE_TOY] = "only the Toy Optimizer's ops (for --syntax toy)",
};

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
	    "bounds-heavy, overflow-heavy, heap, toy",
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

static bool grow(void **p, uint32_t *cap, uint32_t need, size_t size)
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

static bool track_vals(gen_ctx *g)
{
	uint32_t need = g->t->nvals;
	if (need <= g->capvals)
		return true;
	uint32_t cap = g->capvals, cap2 = g->capvals, cap3 = g->capvals;
	uint32_t cap4 = g->capvals;
	if (!grow((void **)&g->ex, &cap, need, sizeof *g->ex) ||
	    !grow((void **)&g->uses, &cap2, need, sizeof *g->uses) ||
	    !grow((void **)&g->must_out, &cap3, need, sizeof *g->must_out) ||
	    !grow((void **)&g->sink, &cap4, need, sizeof *g->sink))
		return false;
	memset(g->uses + g->capvals, 0, cap2 - g->capvals);
	memset(g->must_out + g->capvals, 0, cap3 - g->capvals);
	memset(g->sink + g->capvals, 0, cap4 - g->capvals);
	g->capvals = cap;
	return true;
}

static ir_vid fallback(gen_ctx *g)
{
	g->oom = true;
	return g->t->inputs[0];
}

static ir_vid cst(gen_ctx *g, uint64_t v)
{
	if (g->oom)
		return g->t->inputs[0];
	ir_vid c = ir_const_int(g->t, v);
	if (c == IR_NOVAL || !track_vals(g))
		return fallback(g);
	g->ex[c] = sem_mask(g->w, v);
	return c;
}

static void use(gen_ctx *g, ir_vid v)
{
	if (g->uses[v] < 255)
		g->uses[v]++;
}

static void pool_add(gen_ctx *g, ir_vid v)
{
	if (!grow((void **)&g->pool, &g->cappool, g->npool + 1,
		  sizeof *g->pool)) {
		g->oom = true;
		return;
	}
	g->pool[g->npool++] = v;
}

/* Whether OPC on A, B is costly for a bit-vector solver at any width
 * above 8: a division by a variable (a full divider circuit) or a product
 * of two variables. */
static bool costly(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b)
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
static ir_vid emit(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b)
{
	if (g->oom)
		return g->t->inputs[0];
	int n = ir_opinfo_of(opc)->nargs;
	ir_vid args[2] = {a, b};
	uint64_t ev[2] = {g->ex[a], n > 1 ? g->ex[b] : 0};
	bool ovf = false;
	uint64_t r = sem_eval(opc, g->w, ev, &ovf);
	uint32_t opi = ir_emit(g->t, opc, (uint32_t)n, args, 0, NULL);
	if (opi == UINT32_MAX || !track_vals(g))
		return fallback(g);
	ir_vid res = g->t->ops[opi].result;
	g->ex[res] = r;
	for (int i = 0; i < n; i++)
		use(g, args[i]);
	pool_add(g, res);
	if (n == 2 && costly(g, opc, a, b)) {
		g->sink[res] = 1;
		g->must_out[res] = 1;
	}
	if (ir_op_has(opc, IRF_OVF))
		g->last_ovf = ovf;
	g->nemitted++;
	return res;
}

static ir_vid pick_ref(gen_ctx *g);

/* Gives guard OPI fail-args: FIRST (when not IR_NOVAL) and one to three
 * live values, references preferred (a virtual object there must be
 * materialized when the guard fails). */
static void add_failargs(gen_ctx *g, uint32_t opi, ir_vid first)
{
	ir_vid fa[4];
	uint32_t n = 0;
	if (first != IR_NOVAL)
		fa[n++] = first;
	uint32_t k = 1 + (uint32_t)rng_below(&g->r, 3);
	for (uint32_t i = 0; i < k; i++) {
		ir_vid v = g->nrpool && rng_chance(&g->r, 1, 2)
			       ? pick_ref(g)
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
static void guard(gen_ctx *g, ir_opcode opc, ir_vid a, ir_vid b)
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
		use(g, args[i]);
	g->nguards++;
	g->nemitted++;
	if (g->heap && rng_chance(&g->r, 1, 3))
		add_failargs(g, opi, IR_NOVAL);
}

/* guard_true or guard_false on V, whichever passes on the example. */
static void guard_bool(gen_ctx *g, ir_vid v)
{
	guard(g, g->ex[v] ? IR_GUARD_TRUE : IR_GUARD_FALSE, v, 0);
}

static void guard_ovf(gen_ctx *g)
{
	guard(g, g->last_ovf ? IR_GUARD_OVERFLOW : IR_GUARD_NO_OVERFLOW, 0, 0);
}

/* ---- values ---- */

static uint64_t pow2(gen_ctx *g, int k)
{
	return sem_mask(g->w, UINT64_C(1) << k);
}

static uint64_t sgn(gen_ctx *g, int64_t v)
{
	return sem_from_signed(g->w, v);
}

/* A byte pattern repeated over the width: 0x5555..., 0x0f0f..., ... */
static uint64_t repeated(gen_ctx *g)
{
	static const uint8_t bytes[] = {0x55, 0xaa, 0x0f, 0xf0, 0x33,
					0xcc, 0xff, 0x80, 0x01, 0x7f};
	uint64_t b = bytes[rng_below(&g->r, sizeof bytes)];
	if (rng_chance(&g->r, 1, 4)) /* 16-bit patterns 0xff00..., 0x00ff... */
		return sem_mask(g->w, rng_chance(&g->r, 1, 2)
					  ? UINT64_C(0xff00ff00ff00ff00)
					  : UINT64_C(0x00ff00ff00ff00ff));
	return sem_mask(g->w, b * UINT64_C(0x0101010101010101));
}

/* A value where bugs live: 0, +-1, MININT, MAXINT and neighbours, +-2^k,
 * 2^k +- 1, low and high masks, repeated bit patterns, small numbers. */
static uint64_t edge_value(gen_ctx *g)
{
	rng *r = &g->r;
	int w = g->w;
	int k = (int)rng_below(r, (uint64_t)w);
	switch (rng_below(r, 12)) {
	case 0: return sgn(g, rng_range(r, -2, 2));
	case 1: return rng_chance(r, 1, 2) ? sem_minint(w) : sem_maxint(w);
	case 2:
		return sem_mask(w,
				sem_minint(w) + (uint64_t)rng_range(r, -2, 2));
	case 3: return pow2(g, k);
	case 4: return sem_mask(w, 0 - pow2(g, k));
	case 5: return sem_mask(w, pow2(g, k) + (uint64_t)rng_range(r, -1, 1));
	case 6:
		return rng_chance(r, 1, 2) ? sem_mask(w, pow2(g, k) - 1)
					   : sem_mask(w, ~(pow2(g, k) - 1));
	case 7: return repeated(g);
	case 8:
	case 9: return sgn(g, rng_range(r, -16, 16));
	case 10: return sgn(g, rng_range(r, -1000, 1000));
	default: {
		/* Random bits of a random magnitude, either sign. */
		uint64_t x = rng_next(r) & (pow2(g, k) * 2 - 1);
		return sem_mask(w, rng_chance(r, 1, 2) ? x : 0 - x);
	}
	}
}

/* An example input: edge values, small numbers and random magnitudes. */
static uint64_t input_value(gen_ctx *g)
{
	switch (rng_below(&g->r, 10)) {
	case 0:
	case 1:
	case 2:
	case 3: return edge_value(g);
	case 4:
	case 5:
	case 6: return sgn(g, rng_range(&g->r, -100, 100));
	default: {
		int k = (int)rng_below(&g->r, (uint64_t)g->w);
		uint64_t x = rng_next(&g->r) & (pow2(g, k) * 2 - 1);
		return sem_mask(g->w, rng_chance(&g->r, 1, 2) ? x : 0 - x);
	}
	}
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
static ir_vid pick_val(gen_ctx *g)
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
static ir_vid pick_input_or_val(gen_ctx *g)
{
	if (rng_chance(&g->r, 3, 4))
		return g->pool[rng_below(&g->r, g->nintin)];
	return pick_val(g);
}

/* Another operand: a constant with probability PCT percent. */
static ir_vid pick_operand(gen_ctx *g, uint32_t pct)
{
	if (rng_chance(&g->r, pct, 100))
		return cst(g, edge_value(g));
	return pick_val(g);
}

/* A shift count: mostly constants in [0, W) with W-1, W and W+1 favoured,
 * sometimes a value masked into range (known bits), rarely any value. */
static ir_vid shift_count(gen_ctx *g)
{
	rng *r = &g->r;
	int w = g->w;
	uint32_t c = (uint32_t)rng_below(r, 100);
	if (c < 45)
		return cst(g, rng_below(r, (uint64_t)w));
	if (c < 55)
		return cst(g, (uint64_t)w - 1);
	if (c < 62)
		return cst(g, (uint64_t)w + (uint64_t)rng_below(r, 2));
	if (c < 70)
		return cst(g, 1 + rng_below(r, 4));
	if (c < 92 && g->toy) /* no int_and in the toy spelling */
		return cst(g, rng_below(r, (uint64_t)w));
	if (c < 92)
		return emit(g, IR_INT_AND, pick_val(g),
			    cst(g, (uint64_t)w - 1));
	return pick_val(g);
}

/* A constant near CENTER (within +-2), or an edge value. */
static uint64_t near(gen_ctx *g, uint64_t center)
{
	if (rng_chance(&g->r, 3, 10))
		return edge_value(g);
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

#define PICK(arr) (arr[rng_below(&g->r, sizeof arr / sizeof arr[0])])

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
		d = cst(g, sgn(g, rng_range(&g->r, 3, 16) *
				      (rng_chance(&g->r, 1, 4) ? -1 : 1)));
	} else if (c < hard_const + hard_var) {
		d = pick_val(g);
	} else if (c < hard_const + hard_var + 15) {
		d = cst(g, rng_chance(&g->r, 1, 2) ? 1 : sem_allones(g->w));
	} else {
		d = cst(
		    g, sem_mask(g->w, (rng_chance(&g->r, 1, 4) ? 0 - 1 : 1) *
					  pow2(g, (int)rng_below(
						      &g->r, (uint64_t)g->w))));
	}
	/* A division by zero is defined (sem.h) but a real trace has
	 * guarded it away: repair most of them. */
	if (g->ex[d] == 0 && rng_chance(&g->r, 7, 8))
		d = cst(g, 1 + rng_below(&g->r, 9));
	return d;
}

static const ir_opcode toy_binops[] = {
    IR_INT_ADD, IR_INT_ADD, IR_INT_ADD, IR_INT_SUB,    IR_INT_SUB,
    IR_INT_SUB, IR_INT_MUL, IR_INT_MUL, IR_INT_LSHIFT, IR_INT_RSHIFT,
};

static void act_binop(gen_ctx *g)
{
	ir_opcode opc = g->toy ? PICK(toy_binops) : PICK(binops);
	ir_vid a = pick_operand(g, 4), b;
	switch (opc) {
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: b = shift_count(g); break;
	case IR_INT_SIGNEXT: {
		static const uint64_t n[] = {1, 2, 4, 1, 2, 4, 8, 0};
		b = cst(g, n[rng_below(&g->r, 8)]);
		break;
	}
	case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: b = divisor(g); break;
	case IR_INT_MUL:
	case IR_UINT_MUL_HIGH: b = pick_operand(g, 85); break;
	default: b = pick_operand(g, 25); break;
	}
	if (ir_is_const(g->t, a) && ir_is_const(g->t, b))
		a = pick_val(g);
	if (ir_op_has(opc, IRF_COMM) && rng_chance(&g->r, 1, 4)) {
		ir_vid x = a;
		a = b;
		b = x;
	}
	emit(g, opc, a, b);
}

static void act_unop(gen_ctx *g)
{
	/* Separate statements: the order of two draws inside one call's
	 * arguments is unspecified (gcc and clang differ), and the same seed
	 * must give the same trace with every compiler. */
	ir_opcode opc = PICK(unops);
	emit(g, opc, pick_val(g), 0);
}

static ir_vid make_cmp(gen_ctx *g)
{
	ir_vid a = pick_val(g);
	ir_vid b =
	    rng_chance(&g->r, 1, 2) ? cst(g, near(g, g->ex[a])) : pick_val(g);
	if (rng_chance(&g->r, 1, 5)) {
		ir_vid x = a;
		a = b;
		b = x;
	}
	return emit(g, PICK(cmpops), a, b);
}

static void act_cmp(gen_ctx *g)
{
	make_cmp(g);
}

static void act_guard_cmp(gen_ctx *g)
{
	guard_bool(g, make_cmp(g));
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
	ir_vid a = pick_val(g);
	ir_vid b = pick_operand(g, opc == IR_INT_MUL_OVF ? 85 : 30);
	uint64_t ev[2] = {g->ex[a], g->ex[b]};
	bool ovf;
	sem_eval(opc, g->w, ev, &ovf);
	if (ovf && rng_chance(&g->r, 2, 3))
		b = cst(g, sgn(g, rng_range(&g->r, -4, 4)));
	if (ir_op_has(opc, IRF_COMM) && rng_chance(&g->r, 1, 4)) {
		ir_vid x = a;
		a = b;
		b = x;
	}
	emit(g, opc, a, b);
	guard_ovf(g);
}

static void act_guard_value(gen_ctx *g)
{
	ir_vid v = pick_val(g);
	guard(g, IR_GUARD_VALUE, v, cst(g, g->ex[v]));
}

/* A range check of V against a constant near CENTER (or an edge value),
 * guarded on the side the example satisfies. */
static void range_guard(gen_ctx *g, ir_vid v, uint64_t center)
{
	ir_vid k = cst(g, near(g, center));
	ir_opcode opc = PICK(rangeops);
	ir_vid c =
	    rng_chance(&g->r, 1, 5) ? emit(g, opc, k, v) : emit(g, opc, v, k);
	guard_bool(g, c);
}

/* A signed range check only (what the bounds snippets need). */
static void signed_guard(gen_ctx *g, ir_vid v, uint64_t k)
{
	static const ir_opcode ops[] = {IR_INT_LT, IR_INT_LE, IR_INT_GT,
					IR_INT_GE};
	guard_bool(g, emit(g, PICK(ops), v, cst(g, k)));
}

static void act_range(gen_ctx *g)
{
	ir_vid v = pick_val(g);
	range_guard(g, v, g->ex[v]);
}

static uint64_t mask_value(gen_ctx *g)
{
	int k = 1 + (int)rng_below(&g->r, (uint64_t)g->w - 1);
	switch (rng_below(&g->r, 6)) {
	case 0: return pow2(g, k) - 1;			  /* low bits */
	case 1: return sem_mask(g->w, ~(pow2(g, k) - 1)); /* high bits */
	case 2: return 1;
	case 3: return pow2(g, k);
	case 4: return repeated(g);
	default: return edge_value(g);
	}
}

/* Known bits: guard_value(int_and(v, mask), example & mask). */
static void act_knownbits(gen_ctx *g)
{
	ir_vid v = pick_val(g);
	ir_vid a = emit(g, IR_INT_AND, v, cst(g, mask_value(g)));
	if (rng_chance(&g->r, 3, 4))
		guard(g, IR_GUARD_VALUE, a, cst(g, g->ex[a]));
	else
		guard_bool(g, emit(g, IR_INT_EQ, a, cst(g, g->ex[a])));
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
			guard_bool(g, v);
			return;
		}
	}
	ir_vid v = pick_val(g);
	if (rng_chance(&g->r, 1, 2))
		v = emit(g,
			 rng_chance(&g->r, 1, 2) ? IR_INT_IS_TRUE
						 : IR_INT_IS_ZERO,
			 v, 0);
	guard_bool(g, v);
}

/* ---- snippets ---- */

/* y = x + c (or c + x, x - c); a range guard on y; a range guard on x
 * whose bound is derived from the first (k - c): the shape from which a
 * bounds pass concludes facts about x, right or wrong under wraparound. */
static void snip_addcmp(gen_ctx *g)
{
	ir_vid x = pick_val(g);
	uint64_t c = edge_value(g);
	if (c == 0)
		c = 1;
	ir_vid cv = cst(g, c);
	uint32_t form = (uint32_t)rng_below(&g->r, 3);
	ir_vid y = form == 0   ? emit(g, IR_INT_ADD, x, cv)
		   : form == 1 ? emit(g, IR_INT_ADD, cv, x)
			       : emit(g, IR_INT_SUB, x, cv);
	uint64_t k = near(g, g->ex[y]);
	signed_guard(g, y, k);
	uint64_t m = form == 2 ? k + c : k - c;
	signed_guard(g, x,
		     sem_mask(g->w, m + (uint64_t)rng_range(&g->r, -1, 2)));
	g->must_out[x] = 1;
}

/* A range guard on x, then y = -x (int_neg or 0 - x) and a range guard on
 * y near the negated bound: the MININT corner of negation. */
static void snip_neg(gen_ctx *g)
{
	ir_vid x = pick_val(g);
	uint64_t k = rng_chance(&g->r, 1, 3) ? 0 : near(g, g->ex[x]);
	signed_guard(g, x, k);
	ir_vid y = rng_chance(&g->r, 1, 2) ? emit(g, IR_INT_NEG, x, 0)
					   : emit(g, IR_INT_SUB, cst(g, 0), x);
	uint64_t k2 = sem_mask(g->w, 0 - k + (uint64_t)rng_range(&g->r, -1, 1));
	signed_guard(g, y, rng_chance(&g->r, 1, 4) ? near(g, g->ex[y]) : k2);
	g->must_out[y] = 1;
}

/* int_mul(x, c) == c guarded true, then x is used: from this a careless
 * optimizer concludes x == 1.  c is chosen so the example satisfies it:
 * any c when x is 1, else a multiple of 2^(W - tz(x - 1)). */
static void snip_muleq(gen_ctx *g)
{
	/* Prefer an x whose example admits a nonzero c. */
	ir_vid x = pick_val(g);
	for (int i = 0; i < 4 && !(g->ex[x] & 1); i++)
		x = pick_val(g);
	uint64_t e = g->ex[x], c;
	/* c is never a power of two: int_mul by 2^k becomes a shift before
	 * the bounds pass sees it. */
	uint64_t odd = 3 + 2 * rng_below(&g->r, 32);
	if (e == 1) {
		/* An even c leaves the high bits of x free: x == 1 does not
		 * follow, which is what a wrong backward rule gets wrong. */
		c = rng_chance(&g->r, 1, 5)
			? edge_value(g)
			: sem_mask(g->w,
				   odd << rng_below(&g->r, (uint64_t)g->w - 2));
	} else {
		uint64_t d = sem_mask(g->w, e - 1);
		int tz = 0;
		while (tz < g->w && !((d >> tz) & 1))
			tz++;
		/* x * c == c needs c * (x - 1) == 0 mod 2^W: c a multiple
		 * of 2^(W - tz); tz = 0 (x even) leaves only c = 0. */
		c = tz == 0 ? 0 : sem_mask(g->w, odd << (g->w - tz));
	}
	if (c == 0 || (c & (c - 1)) == 0)
		c = sem_mask(g->w, c * 3 + (c == 0 ? 12 : 0));
	if (sem_mask(g->w, g->ex[x] * c) != c && e != 1)
		x = cst(g, 1); /* cannot hold on the example: keep it valid */
	ir_vid cv = cst(g, c);
	ir_vid y = rng_chance(&g->r, 1, 2) ? emit(g, IR_INT_MUL, x, cv)
					   : emit(g, IR_INT_MUL, cv, x);
	if (rng_chance(&g->r, 2, 3))
		guard(g, IR_GUARD_VALUE, y, cv);
	else
		guard_bool(
		    g, emit(g, rng_chance(&g->r, 3, 4) ? IR_INT_EQ : IR_INT_NE,
			    y, cv));
	if (rng_chance(&g->r, 1, 2))
		range_guard(g, x, g->ex[x]);
	g->must_out[x] = 1;
}

/* y = x << n with a small constant n, a range guard on y, then a range
 * guard on x with the bound shifted back (k >> n): the backward reasoning
 * through a shift that loses the bits shifted out.  Sometimes the PyPy
 * shape instead: int_lshift(2^j, n) with n range-guarded. */
static void snip_lshift(gen_ctx *g)
{
	int w = g->w;
	if (rng_chance(&g->r, 1, 4)) {
		ir_vid n = pick_val(g);
		guard_bool(g,
			   emit(g, IR_UINT_LT, n,
				cst(g, g->ex[n] < (uint64_t)w ? (uint64_t)w
							      : g->ex[n] + 1)));
		ir_vid y = emit(
		    g, IR_INT_LSHIFT,
		    cst(g, pow2(g, (int)rng_below(&g->r, (uint64_t)w))), n);
		guard(g, IR_GUARD_VALUE, y, cst(g, g->ex[y]));
		g->must_out[n] = 1;
		return;
	}
	ir_vid x = pick_val(g);
	uint64_t n = rng_chance(&g->r, 1, 5)
			 ? (uint64_t)w - 1 - rng_below(&g->r, 3)
			 : 1 + rng_below(&g->r, 8);
	ir_vid y = emit(g, IR_INT_LSHIFT, x, cst(g, n));
	uint64_t k = near(g, g->ex[y]);
	signed_guard(g, y, k);
	uint64_t m = sem_from_signed(w, sem_signed(w, k) >> n);
	signed_guard(g, x, sem_mask(w, m + (uint64_t)rng_range(&g->r, -1, 1)));
	g->must_out[x] = 1;
}

/* int_sub_ovf(int_add(a, b), b) and its guard: CSE/simplification may turn
 * it into a, forgetting that the add may have wrapped. */
static void snip_ovfcse(gen_ctx *g)
{
	ir_vid a = pick_val(g), b = pick_operand(g, 15);
	ir_vid s = rng_chance(&g->r, 1, 2) ? emit(g, IR_INT_ADD, a, b)
					   : emit(g, IR_INT_ADD, b, a);
	ir_vid r = emit(g, IR_INT_SUB_OVF, s, b);
	guard_ovf(g);
	g->must_out[r] = 1;
}

/* x // (1 << y) (or %) with y a constant near W-1 or a value masked into
 * [0, W): strength reduction to a shift must exclude y = W-1. */
static void snip_pow2div(gen_ctx *g)
{
	int w = g->w;
	ir_vid y;
	uint32_t c = (uint32_t)rng_below(&g->r, 20);
	if (c < 3)
		y = cst(g, (uint64_t)w - 1);
	else if (c < 5)
		y = cst(g, rng_below(&g->r, (uint64_t)w));
	else
		y = emit(g, IR_INT_AND, pick_input_or_val(g),
			 cst(g, (uint64_t)w - 1));
	ir_vid p = emit(g, IR_INT_LSHIFT, cst(g, 1), y);
	ir_vid x = pick_input_or_val(g);
	ir_vid q = emit(
	    g, rng_chance(&g->r, 4, 5) ? IR_INT_PY_DIV : IR_INT_PY_MOD, x, p);
	g->must_out[q] = 1;
}

/* int_force_ge_zero of a value known to be odd, then a guard on the
 * result's sign or zeroness. */
static void snip_fgez(gen_ctx *g)
{
	ir_vid v = pick_val(g), odd;
	if ((g->ex[v] & 1) && rng_chance(&g->r, 1, 2)) {
		guard(g, IR_GUARD_VALUE, emit(g, IR_INT_AND, v, cst(g, 1)),
		      cst(g, 1));
		odd = v;
	} else {
		odd = emit(g, IR_INT_OR, v, cst(g, 1));
	}
	ir_vid r = emit(g, IR_INT_FORCE_GE_ZERO, odd, 0);
	switch (rng_below(&g->r, 4)) {
	case 0: guard_bool(g, emit(g, IR_INT_IS_ZERO, r, 0)); break;
	case 1: guard_bool(g, emit(g, IR_INT_IS_TRUE, r, 0)); break;
	case 2: guard_bool(g, emit(g, IR_INT_GT, r, cst(g, 0))); break;
	default: guard_bool(g, emit(g, IR_INT_GE, r, cst(g, 1))); break;
	}
	g->must_out[r] = 1;
}

/* y = x & mask, then a range or known-bits guard on y (or on a second
 * mask of it): range and known bits of an and must agree.  Half of the
 * time the bits under the mask are all known (int_or(v, m) & m,
 * int_lshift(v, k) & (2^k - 1), or a known-bits guard on v and then a
 * narrower mask): the result is then a constant by its known bits while
 * its range is still wide. */
static void snip_and(gen_ctx *g)
{
	ir_vid x = pick_val(g);
	uint64_t m = mask_value(g);
	switch (rng_below(&g->r, 6)) {
	case 0:
		x = emit(g, IR_INT_OR, x, cst(g, m));
		if (rng_chance(&g->r, 1, 2))
			m &= mask_value(g) | 1;
		break;
	case 1: {
		uint64_t k = 1 + rng_below(&g->r, (uint64_t)g->w - 1);
		x = emit(g, IR_INT_LSHIFT, x, cst(g, k));
		m = pow2(g, (int)k) - 1;
		break;
	}
	case 2: {
		/* Known bits from a guard, then a narrower mask. */
		ir_vid k = emit(g, IR_INT_AND, x, cst(g, m));
		guard(g, IR_GUARD_VALUE, k, cst(g, g->ex[k]));
		m &= mask_value(g);
		break;
	}
	default: break;
	}
	ir_vid y = rng_chance(&g->r, 1, 2) ? emit(g, IR_INT_AND, x, cst(g, m))
					   : emit(g, IR_INT_AND, cst(g, m), x);
	switch (rng_below(&g->r, 5)) {
	case 0:
		range_guard(g, y, rng_chance(&g->r, 1, 2) ? m : g->ex[y]);
		break;
	case 1: signed_guard(g, y, near(g, m)); break;
	case 2: {
		ir_vid z = emit(g, IR_INT_AND, y, cst(g, mask_value(g)));
		guard(g, IR_GUARD_VALUE, z, cst(g, g->ex[z]));
		break;
	}
	case 3: guard_bool(g, emit(g, IR_INT_IS_ZERO, y, 0)); break;
	default: break; /* the output alone shows a wrong constant */
	}
	g->must_out[y] = 1;
}

/* An op and, later, its overflow-checked twin on the same operands:
 * value numbering may reuse the plain op's result, but must keep the
 * overflow check. */
static void snip_ovftwin(gen_ctx *g)
{
	static const ir_opcode plain[] = {IR_INT_ADD, IR_INT_ADD, IR_INT_SUB,
					  IR_INT_MUL};
	static const ir_opcode checked[] = {IR_INT_ADD_OVF, IR_INT_ADD_OVF,
					    IR_INT_SUB_OVF, IR_INT_MUL_OVF};
	int k = (int)rng_below(&g->r, 4);
	ir_vid a = pick_val(g), b = pick_operand(g, k == 3 ? 85 : 20);
	ir_vid p = emit(g, plain[k], a, b);
	if (rng_chance(&g->r, 1, 2))
		act_binop(g);
	bool swap = ir_op_has(checked[k], IRF_COMM) && rng_chance(&g->r, 1, 3);
	ir_vid c = swap ? emit(g, checked[k], b, a) : emit(g, checked[k], a, b);
	guard_ovf(g);
	g->must_out[p] = 1;
	g->must_out[c] = 1;
}

/* guard_value(x, 1) on an x that is 1 on the example but not known to be
 * a boolean: x = v - (example(v) - 1), or a mask of v that is 1. */
static void snip_gvbool(gen_ctx *g)
{
	ir_vid v = pick_val(g), x;
	if ((g->ex[v] & 1) && rng_chance(&g->r, 1, 3))
		x = emit(g, IR_INT_AND, v, cst(g, 1 + 2 * rng_below(&g->r, 8)));
	else if (rng_chance(&g->r, 1, 2))
		x = emit(g, IR_INT_SUB, v, cst(g, g->ex[v] - 1));
	else
		x = emit(g, IR_INT_ADD, v, cst(g, 1 - g->ex[v]));
	if (g->ex[x] == 1)
		guard(g, IR_GUARD_VALUE, x, cst(g, 1));
	else
		guard(g, IR_GUARD_VALUE, x, cst(g, g->ex[x]));
	g->must_out[x] = 1;
}

/* A signed range guard on x, then an unsigned comparison of x against a
 * constant near the bound: unsigned order must not be read off the
 * signed range when it contains negative numbers. */
static void snip_ucmp(gen_ctx *g)
{
	static const ir_opcode ucmp[] = {IR_UINT_LT, IR_UINT_LE, IR_UINT_GT,
					 IR_UINT_GE};
	ir_vid x = pick_val(g);
	uint64_t k = near(g, g->ex[x]);
	signed_guard(g, x, k);
	uint64_t k2 = rng_chance(&g->r, 1, 2) ? near(g, k) : near(g, g->ex[x]);
	ir_vid c = rng_chance(&g->r, 1, 4) ? emit(g, PICK(ucmp), cst(g, k2), x)
					   : emit(g, PICK(ucmp), x, cst(g, k2));
	guard_bool(g, c);
	g->must_out[x] = 1;
}

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
	if (!grow((void **)&g->cells, &g->capcells, g->ncells + 1,
		  sizeof *g->cells)) {
		g->oom = true;
		return;
	}
	g->cells[g->ncells++] = (gen_cell){addr, field, v};
}

static void rpool_add(gen_ctx *g, ir_vid v)
{
	if (!grow((void **)&g->rpool, &g->caprpool, g->nrpool + 1,
		  sizeof *g->rpool)) {
		g->oom = true;
		return;
	}
	g->rpool[g->nrpool++] = v;
}

/* A reference operand: mostly one of the latest. */
static ir_vid pick_ref(gen_ctx *g)
{
	uint32_t n = g->nrpool;
	if (n > 1 && rng_chance(&g->r, 1, 2)) {
		uint32_t back = n < 3 ? n : 3;
		return g->rpool[n - 1 - rng_below(&g->r, back)];
	}
	return g->rpool[rng_below(&g->r, n)];
}

/* Emits a heap op (no sem_eval meaning): ARGS, DESCR, example result. */
static ir_vid emit_heap(gen_ctx *g, ir_opcode opc, uint32_t nargs,
			const ir_vid *args, uint32_t descr, uint64_t exres)
{
	if (g->oom)
		return g->t->inputs[0];
	uint32_t opi = ir_emit(g->t, opc, nargs, args, descr, NULL);
	if (opi == UINT32_MAX || !track_vals(g))
		return fallback(g);
	for (uint32_t i = 0; i < nargs; i++)
		use(g, args[i]);
	g->nemitted++;
	ir_vid res = g->t->ops[opi].result;
	if (res == IR_NOVAL)
		return IR_NOVAL;
	g->ex[res] = exres;
	if (g->t->vals[res].kind == 'r')
		rpool_add(g, res);
	else
		pool_add(g, res);
	return res;
}

/* A fresh object; its class is its descr (T or U). */
static ir_vid new_obj(gen_ctx *g)
{
	if (g->toy) { /* alloc(): no type */
		g->next_fresh += 16;
		return emit_heap(g, IR_NEW, 0, NULL, 0,
				 FRESH_ADDR + g->next_fresh);
	}
	ir_opcode opc = rng_chance(&g->r, 1, 2) ? IR_NEW_WITH_VTABLE : IR_NEW;
	uint32_t t = g->tname[rng_below(&g->r, 2)];
	g->next_fresh += 16;
	return emit_heap(g, opc, 0, NULL, t, FRESH_ADDR + g->next_fresh);
}

static uint32_t int_field(gen_ctx *g)
{
	return g->ifield[rng_below(&g->r, 3)];
}

static uint32_t ref_field(gen_ctx *g)
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
	return new_obj(g);
}

static void setfield(gen_ctx *g, ir_vid p, uint32_t field, ir_vid v)
{
	p = nonnull_ref(g, p);
	ir_vid args[2] = {p, v};
	emit_heap(g, IR_SETFIELD_GC, 2, args, field, 0);
	heap_set(g, g->ex[p], field, g->ex[v]);
}

static ir_vid getfield(gen_ctx *g, ir_vid p, uint32_t field, bool ref)
{
	p = nonnull_ref(g, p);
	uint64_t v = heap_get(g, g->ex[p], field);
	return emit_heap(g, ref ? IR_GETFIELD_GC_R : IR_GETFIELD_GC_I, 1, &p,
			 field, ref ? v : sem_mask(g->w, v));
}

/* A call seeing ARGS; escape_i returns 0 on the example. */
static ir_vid escape(gen_ctx *g, uint32_t n, const ir_vid *args)
{
	bool ret = !g->toy && rng_chance(&g->r, 1, 3);
	return emit_heap(g, ret ? IR_ESCAPE_I : IR_ESCAPE_N, n, args, 0, 0);
}

/* A store of an int (or, into a ref field, a reference) into P. */
static void store_some(gen_ctx *g, ir_vid p)
{
	/* One draw per statement (see act_unop). */
	if (!g->toy && g->nrpool && rng_chance(&g->r, 1, 4)) {
		uint32_t f = ref_field(g);
		setfield(g, p, f, pick_ref(g));
	} else {
		uint32_t f = int_field(g);
		setfield(g, p, f, pick_operand(g, 30));
	}
}

static void act_new(gen_ctx *g)
{
	ir_vid p = new_obj(g);
	uint32_t n = (uint32_t)rng_below(&g->r, 3);
	for (uint32_t i = 0; i < n; i++)
		store_some(g, p);
}

static void act_set(gen_ctx *g)
{
	if (!g->nrpool) {
		act_new(g);
		return;
	}
	store_some(g, pick_ref(g));
}

static void act_get(gen_ctx *g)
{
	if (!g->nrpool) {
		act_new(g);
		return;
	}
	ir_vid p = pick_ref(g);
	if (!g->toy && rng_chance(&g->r, 1, 4))
		getfield(g, p, ref_field(g), true);
	else
		getfield(g, p, int_field(g), false);
}

static void act_escape(gen_ctx *g)
{
	ir_vid args[3];
	uint32_t n = 1 + (uint32_t)rng_below(&g->r, 3);
	for (uint32_t i = 0; i < n; i++)
		args[i] = g->nrpool && rng_chance(&g->r, 2, 3) ? pick_ref(g)
							       : pick_val(g);
	escape(g, n, args);
}

static void act_nullguard(gen_ctx *g)
{
	if (!g->nrpool) {
		act_new(g);
		return;
	}
	ir_vid p = pick_ref(g);
	guard(g, g->ex[p] ? IR_GUARD_NONNULL : IR_GUARD_ISNULL, p, 0);
}

static void act_ptrcmp(gen_ctx *g)
{
	if (!g->nrpool) {
		act_new(g);
		return;
	}
	ir_vid p = pick_ref(g);
	ir_vid q = rng_chance(&g->r, 1, 4) ? ir_const_null(g->t) : pick_ref(g);
	if (q == IR_NOVAL || !track_vals(g)) {
		g->oom = true;
		return;
	}
	g->ex[q] = g->t->vals[q].tag == IR_VAL_CONST_NULL ? 0 : g->ex[q];
	ir_vid c =
	    emit(g, rng_chance(&g->r, 1, 2) ? IR_PTR_EQ : IR_PTR_NE, p, q);
	if (rng_chance(&g->r, 3, 4))
		guard_bool(g, c);
}

/* guard_class on a fresh object (its class is known; input objects have
 * none in the example environment). */
static void act_class(gen_ctx *g)
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
		if (cls == IR_NOVAL || !track_vals(g)) {
			g->oom = true;
			return;
		}
		guard(g, IR_GUARD_CLASS, p, cls);
		return;
	}
	act_new(g);
}

/* new, field stores, then an escape (a call or the end of the trace):
 * materialization must emit the stores. */
static void hsnip_mat(gen_ctx *g)
{
	ir_vid p = new_obj(g);
	uint32_t n = 1 + (uint32_t)rng_below(&g->r, 2);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t f = int_field(g); /* one draw per statement */
		setfield(g, p, f, pick_operand(g, 30));
	}
	if (rng_chance(&g->r, 2, 3))
		escape(g, 1, &p);
	else
		g->must_out[p] = 1;
}

/* One fresh object escaping twice (two calls, or a call and the end):
 * it is the same object both times. */
static void hsnip_twice(gen_ctx *g)
{
	ir_vid p = new_obj(g);
	if (rng_chance(&g->r, 1, 2)) {
		uint32_t f = int_field(g); /* one draw per statement */
		setfield(g, p, f, pick_operand(g, 30));
	}
	escape(g, 1, &p);
	if (rng_chance(&g->r, 1, 3))
		act_binop(g);
	if (rng_chance(&g->r, 2, 3))
		escape(g, 1, &p);
	else
		g->must_out[p] = 1;
}

/* Two (or three) fresh objects pointing at each other, then an escape:
 * materializing a cycle must allocate each object once. */
static void hsnip_cycle(gen_ctx *g)
{
	ir_vid o[3];
	uint32_t n = 2 + (uint32_t)rng_below(&g->r, 2);
	for (uint32_t i = 0; i < n; i++)
		o[i] = new_obj(g);
	uint32_t f = ref_field(g);
	for (uint32_t i = 0; i < n; i++)
		setfield(g, o[i], f, o[(i + 1) % n]);
	if (rng_chance(&g->r, 2, 3))
		escape(g, 1, &o[rng_below(&g->r, n)]);
	else
		g->must_out[o[0]] = 1;
}

static bool is_fresh(gen_ctx *g, ir_vid p)
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
		ir_vid p = pick_ref(g);
		if (!is_fresh(g, p) && p != other)
			return p;
	}
	return getfield(g, pick_ref(g), ref_field(g), true);
}

/* Stores through two references that may be the same object, then a
 * load through the first: the second store must invalidate it.  Null
 * guards first, so that forwarding is allowed at all. */
static void hsnip_alias(gen_ctx *g)
{
	if (!g->nrpool) {
		act_new(g);
		return;
	}
	ir_vid p = pick_aliasable(g, IR_NOVAL);
	ir_vid q = pick_aliasable(g, p);
	if (g->ex[p])
		guard(g, IR_GUARD_NONNULL, p, 0);
	if (g->ex[q] && rng_chance(&g->r, 1, 2))
		guard(g, IR_GUARD_NONNULL, q, 0);
	uint32_t f = int_field(g);
	setfield(g, p, f, pick_operand(g, 30));
	setfield(g, q, f, pick_operand(g, 50));
	ir_vid v = getfield(g, p, f, false);
	g->must_out[v] = 1;
}

/* A store, a call, a second store to the same field: the call may read
 * the first value, so that store is not dead. */
static void hsnip_dse(gen_ctx *g)
{
	if (!g->nrpool) {
		act_new(g);
		return;
	}
	ir_vid p = pick_ref(g);
	uint32_t f = int_field(g);
	setfield(g, p, f, pick_operand(g, 30));
	ir_vid a = rng_chance(&g->r, 1, 2) ? p : pick_val(g);
	escape(g, 1, &a);
	setfield(g, p, f, pick_operand(g, 30));
}

/* A fresh object with a field, then a guard whose fail-args hold it: if
 * the guard fails, the object must exist. */
static void hsnip_failargs(gen_ctx *g)
{
	ir_vid p = new_obj(g);
	uint32_t f = int_field(g); /* one draw per statement */
	setfield(g, p, f, pick_operand(g, 30));
	ir_vid c = make_cmp(g);
	guard_bool(g, c);
	uint32_t opi = g->t->nops - 1;
	if (!g->oom && ir_op_has(g->t->ops[opi].opc, IRF_GUARD))
		add_failargs(g, opi, p);
}

typedef void (*action_fn)(gen_ctx *);

static const action_fn actions[A_COUNT] = {
    [A_BINOP] = act_binop,
    [A_UNOP] = act_unop,
    [A_CMP] = act_cmp,
    [A_GUARD_CMP] = act_guard_cmp,
    [A_OVF] = act_ovf,
    [A_GUARD_VALUE] = act_guard_value,
    [A_RANGE] = act_range,
    [A_KNOWNBITS] = act_knownbits,
    [A_GUARD_BOOL] = act_guard_bool,
    [S_ADDCMP] = snip_addcmp,
    [S_NEG] = snip_neg,
    [S_MULEQ] = snip_muleq,
    [S_LSHIFT] = snip_lshift,
    [S_OVFCSE] = snip_ovfcse,
    [S_POW2DIV] = snip_pow2div,
    [S_FGEZ] = snip_fgez,
    [S_AND] = snip_and,
    [S_OVFTWIN] = snip_ovftwin,
    [H_NEW] = act_new,
    [H_SET] = act_set,
    [H_GET] = act_get,
    [H_ESCAPE] = act_escape,
    [H_NULLGUARD] = act_nullguard,
    [H_PTRCMP] = act_ptrcmp,
    [H_CLASS] = act_class,
    [HS_MAT] = hsnip_mat,
    [HS_TWICE] = hsnip_twice,
    [HS_CYCLE] = hsnip_cycle,
    [HS_ALIAS] = hsnip_alias,
    [HS_DSE] = hsnip_dse,
    [HS_FAILARGS] = hsnip_failargs,
    [S_GVBOOL] = snip_gvbool,
    [S_UCMP] = snip_ucmp,
};

/* ---- the trace ---- */

/* The outputs: every op result nothing uses (it would otherwise be dead),
 * every value a snippet marked, and a few random others; at most 40. */
static void finish(gen_ctx *g)
{
	enum { MAXOUT = 40 };
	uint32_t n = 0;
	if (!grow((void **)&g->outs, &g->capouts, MAXOUT, sizeof *g->outs)) {
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
	if (!grow((void **)&g->inputs, &g->capinputs, n, sizeof *g->inputs))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		bool ref = i < nref;
		ir_vid v = ir_add_input(g->t, ref ? 'r' : 'i', NULL);
		if (v == IR_NOVAL || !track_vals(g))
			return false;
		if (ref) {
			/* Small addresses: '# args:' values are read at
			 * the trace's width. */
			g->ex[v] = rng_chance(&g->r, 1, 7) ? 0 : 16 * (i + 1);
			rpool_add(g, v);
		} else {
			g->ex[v] = input_value(g);
			pool_add(g, v);
			g->nintin++;
		}
		g->inputs[i] = g->ex[v];
	}
	return !g->oom;
}

/* Generates a trace drawing every choice from *R, which is left advanced
 * past them.  ORIGIN ("seed 42") names the stream in generator-bug
 * messages. */
static jp_status generate(gen_ctx *g, rng *r, const char *origin,
			  const gen_opts *o, ir_trace **out, gen_example *ex,
			  jp_err *err)
{
	*out = NULL;
	jp_status e = gen_check_opts(o, err);
	if (e)
		return e;
	reset(g, r, o->width);
	g->toy = o->profile == GEN_PROFILE_TOY;
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
		for (int a = A_FIRST_HEAP; a < A_COUNT; a++)
			wts[a] = 0;
	while (g->nemitted + toy_escapes(g) < target && !g->oom) {
		int a = rng_pick_weighted(&g->r, wts, A_COUNT);
		/* Near the end, prefer single ops so the length stays close
		 * to the target. */
		if (target - g->nemitted < 3 && a > A_GUARD_BOOL)
			a = A_BINOP;
		actions[a](g);
	}
	finish(g);
	*r = g->r;
	ir_trace *t = g->t;
	g->t = NULL;
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
	}
	*out = t;
	return JP_OK;
}

jp_status gen_trace(gen_ctx *g, uint64_t seed, const gen_opts *o,
		    ir_trace **out, gen_example *ex, jp_err *err)
{
	rng r;
	char origin[40];
	rng_seed(&r, seed);
	snprintf(origin, sizeof origin, "seed %llu", (unsigned long long)seed);
	return generate(g, &r, origin, o, out, ex, err);
}

jp_status gen_trace_rng(gen_ctx *g, rng *r, const gen_opts *o, ir_trace **out,
			gen_example *ex, jp_err *err)
{
	return generate(g, r, r->bytes ? "byte-driven" : "rng stream", o, out,
			ex, err);
}

/* ---- annotated printing ---- */

void gen_print_annotated(const ir_trace *t, const gen_example *ex, strbuf *sb)
{
	sb_puts(sb, "# args: ");
	for (uint32_t i = 0; i < ex->ninputs; i++) {
		if (i)
			sb_puts(sb, ", ");
		ir_print_int(t->width, ex->inputs[i], sb);
	}
	sb_putc(sb, '\n');
	/* Print the trace canonically, then append the example value to each
	 * line that is an op with a result.  The printer writes one op per
	 * line, so the k-th op line is found by matching ir_print_op. */
	strbuf all, line;
	sb_init(&all);
	sb_init(&line);
	ir_print(t, &all);
	const char *p = all.buf;
	uint32_t opi = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		sb_add(sb, p, len);
		if (opi < t->nops) {
			sb_reset(&line);
			ir_print_op(t, opi, &line);
			const char *q = p;
			while (q < p + len && (*q == ' ' || *q == '\t'))
				q++;
			if ((size_t)(p + len - q) >= line.len &&
			    !memcmp(q, line.buf, line.len)) {
				ir_vid r = t->ops[opi].result;
				if (r != IR_NOVAL && r < ex->nvals &&
				    t->vals[r].kind == 'i') {
					sb_puts(sb, "  # = ");
					ir_print_int(t->width, ex->vals[r], sb);
				}
				opi++;
			}
		}
		sb_putc(sb, '\n');
		p = nl ? nl + 1 : p + len;
	}
	if (all.oom || line.oom)
		sb->oom = true;
	sb_release(&all);
	sb_release(&line);
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
	}
	return "not an op of the table";
}
