/*
 * opt_internal.h - what the optimizations see of the optimizer framework.
 *
 * opt.c walks the input trace once.  Integer ops and integer guards become
 * an opt_op (a small mutable copy whose arguments are already output
 * values) and run through the hooks of the enabled passes, in passes.def
 * order.  A hook inspects or rewrites the op and answers:
 *
 *   OPT_NEXT     go on with the next pass;
 *   OPT_RESTART  the op was rewritten (other opcode or arguments): start
 *                again from the first pass, so every pass sees the new op;
 *   OPT_REMOVED  the op is gone: its result now stands for the value set
 *                with opt_replace (ops with a result must set one), or, for
 *                a guard, the guard always passes.
 *
 * An op that every pass lets through is emitted into the output trace, and
 * then every pass's `emitted` hook runs on it (to record what it computed:
 * bounds of its result, a value-numbering entry, facts from a guard).
 *
 * Values.  Output values are ir_vids of the output trace.  A union-find
 * over them ("forwarding") records equalities learned later: after
 * guard_value(x, 5) passes, x is forwarded to the constant 5, so every
 * later use of x reads 5.  A representative is always a constant or a
 * value defined earlier than every value forwarded to it, so forwarding
 * never breaks SSA.  opt_find gives the representative.
 *
 * Overflow-checked ops: a pass that removes an *_ovf op or turns it into a
 * plain op must say whether it overflows (opt_set_ovf), so that the
 * framework can drop or keep the overflow guard that follows.
 *
 * Errors are sticky: a hook that runs out of memory calls opt_fail and
 * returns anything; opt_run stops and reports it.
 */
#ifndef JP_PASSES_OPT_INTERNAL_H
#define JP_PASSES_OPT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/trace.h"
#include "passes/bounds.h"
#include "passes/opt.h"

typedef enum opt_verdict {
	OPT_NEXT,
	OPT_RESTART,
	OPT_REMOVED,
} opt_verdict;

/* The op being optimized. */
typedef struct opt_op {
	ir_opcode opc;
	uint32_t nargs;	 /* 0, 1 or 2 */
	ir_vid args[2];	 /* output values (representatives) */
	uint32_t in_op;	 /* the input op it comes from, or UINT32_MAX for an
			    op a pass created (opt_emit_extra) */
	ir_vid result;	 /* set by opt_replace or by emission */
	uint32_t out_op; /* output op index once emitted, else UINT32_MAX */
	bool fails;	 /* a guard known to fail whenever it is reached */
	uint32_t rule;	 /* 1 + the opt_rule that last rewrote or created
			    it; 0 = none */
} opt_op;

/* Where an overflow-checked op stands while its guard is pending. */
typedef enum opt_ovf_state {
	OPT_OVF_NONE,	   /* no *_ovf op pending */
	OPT_OVF_EMITTED,   /* emitted as an *_ovf op: the guard follows it */
	OPT_OVF_KNOWN_NO,  /* removed or made plain: never overflows here */
	OPT_OVF_KNOWN_YES, /* removed or made plain: always overflows here */
} opt_ovf_state;

typedef struct opt_ctx opt_ctx;

/* The hooks of one pass; NULL hooks are skipped. */
typedef struct opt_pass_hooks {
	jp_status (*init)(opt_ctx *c);
	void (*fini)(opt_ctx *c);
	opt_verdict (*propagate)(opt_ctx *c, opt_op *op);
	void (*emitted)(opt_ctx *c, const opt_op *op);
	/* Runs once after the last op (dce). */
	jp_status (*finish)(opt_ctx *c);

	/* Heap ops (objects, fields, calls) do not fit an opt_op: they have
	 * any number of arguments and fail-args.  The framework offers each
	 * input heap op I to the passes with this hook, in passes.def order;
	 * a pass returns true when it consumed the op (removed it, or emitted
	 * it itself), and the framework copies the op when none did. */
	bool (*heap_op)(opt_ctx *c, uint32_t i);
	/* The output value of input value V when this pass holds it (a
	 * virtual object, materialized now), else IR_NOVAL; opt_get asks it
	 * for values with no output value yet. */
	ir_vid (*get)(opt_ctx *c, ir_vid v);
	/* Before input guard I is emitted (its fail-args are read there). */
	void (*before_guard)(opt_ctx *c, uint32_t i);
	/* After any guard is emitted: the trace may leave there. */
	void (*after_guard)(opt_ctx *c);
	/* The bounds this pass knows of V, a representative that is not a
	 * constant: true with *OUT set, false when it knows nothing.  Read
	 * through opt_bound. */
	bool (*bound)(opt_ctx *c, ir_vid v, bnd *out);
	/* Another pass emitted a store (opt_note_store): FIELD (an output
	 * string id) of the fresh object OBJ now holds VAL. */
	void (*stored)(opt_ctx *c, uint32_t field, ir_vid obj, ir_vid val);
} opt_pass_hooks;

extern const opt_pass_hooks opt_fold_hooks, opt_simplify_hooks,
    opt_bounds_hooks, opt_cse_hooks, opt_virtualize_hooks, opt_heap_hooks,
    opt_dce_hooks;

struct opt_ctx {
	const ir_trace *in;
	ir_trace *out;
	int w;
	opt_config cfg;
	opt_stats *stats;

	ir_vid *map; /* input vid -> output vid (IR_NOVAL: undefined) */
	ir_vid *uf;  /* output vid -> parent in the union-find */
	uint32_t capuf;
	uint32_t *origin; /* output op -> input op, or UINT32_MAX */
	uint8_t *exact;	  /* output op -> 1: an *_ovf op whose
			     guard_no_overflow passed */
	uint32_t capops;

	opt_ovf_state ovf; /* of the pending *_ovf op */
	opt_pass ovf_pass; /* the pass that decided it */
	uint32_t ovf_out;  /* the emitted *_ovf op (OPT_OVF_EMITTED) */

	bool dead;	    /* a guard that always fails was emitted */
	opt_pass dead_pass; /* the pass that made it fail */
	opt_pass cur_pass;  /* whose hook is running */

	void *state[OPT_PASS_COUNT]; /* each pass's own data */

	opt_rule cur_rule;  /* the rule whose hook is running, or
			       OPT_RULE_COUNT: new ops are its work */
	bool materializing; /* opt_get is materializing a virtual object */

	bool in_failargs; /* opt_get is reading a guard's fail-args */
	uint32_t cur_in;  /* the input op being optimized */

	jp_status status; /* sticky error */
	jp_err *err;
};

static inline bool opt_enabled(const opt_ctx *c, opt_pass p)
{
	return (c->cfg.passes >> p) & 1;
}

static inline bool opt_bug_on(const opt_ctx *c, opt_bug b)
{
	return (c->cfg.bugs >> b) & 1;
}

/* rules.c: the rule a rewrite of an op OPC by pass P belongs to
 * (OPT_RULE_COUNT: none), the rule names, and the passes that whole-pass
 * rules switched off in RULES_OFF switch off. */
opt_rule opt_rule_of(opt_pass p, ir_opcode opc);
extern const char *const opt_rule_names[OPT_RULE_COUNT];
uint64_t opt_rules_passes_off(uint64_t rules_off);
/* The bounds pass's analysis rules for the result of OPC (forward) and
 * for the arguments of OPC (backward). */
opt_rule opt_rule_forward(ir_opcode opc);
opt_rule opt_rule_backward(ir_opcode opc);
/* Whether rule R is on; if so it counts as fired.  A pass calls it where
 * a rule that the framework cannot see (an analysis step, a value
 * forwarded by a fact) is about to act. */
bool opt_rule_fire(opt_ctx *c, opt_rule r);
/* Rule R fired: sets its rules_fired bit and counts it (rule coverage). */
void opt_rule_hit(opt_ctx *c, opt_rule r);
/* Branch B of the bounds pass was taken (rule coverage). */
void opt_branch_hit(opt_ctx *c, opt_branch b);

/* Records an error (first one wins). */
void opt_fail(opt_ctx *c, jp_status s, const char *what);

/* Grows the malloc'd array *P (elements of SZ bytes, capacity *CAP) to
 * hold at least NEED elements, doubling.  On failure records JP_ENOMEM
 * with opt_fail and returns false; *P is then unchanged. */
bool opt_grow(opt_ctx *c, void **p, uint32_t *cap, uint32_t need, size_t sz);

/* Union-find over output values. */
ir_vid opt_find(opt_ctx *c, ir_vid v);
/* Forwards V's class to TO's (a constant or an earlier value). */
void opt_union(opt_ctx *c, ir_vid v, ir_vid to);

/* Integer constants of the output. */
bool opt_const(const opt_ctx *c, ir_vid v, uint64_t *val);
bool opt_is_const_val(const opt_ctx *c, ir_vid v, uint64_t val);
ir_vid opt_const_int(opt_ctx *c, uint64_t val);
/* Whether V is an integer (kind 'i') value. */
bool opt_is_int(const opt_ctx *c, ir_vid v);

/* The output op defining V, or NULL (inputs, constants).  The pointer is
 * valid until the next emission. */
const ir_op *opt_def(const opt_ctx *c, ir_vid v);
/* Index of the output op defining V, or UINT32_MAX. */
uint32_t opt_def_index(const opt_ctx *c, ir_vid v);

/* Marks OP removed in favour of value V (returns OPT_REMOVED). */
opt_verdict opt_replace(opt_ctx *c, opt_op *op, ir_vid v);
opt_verdict opt_replace_const(opt_ctx *c, opt_op *op, uint64_t val);
/* Rewrites OP in place into OPC(A, B) (B ignored for unary ops) and
 * returns OPT_RESTART. */
opt_verdict opt_rewrite(opt_ctx *c, opt_op *op, ir_opcode opc, ir_vid a,
			ir_vid b);

/* OP, a guard, fails whenever it is reached.  Unless its arguments are
 * constants already, it becomes guard_true(0) (same label and fail-args);
 * once it is emitted, everything after it is unreachable and dropped, and
 * the trace ends there (see emit_end in opt.c).  Returns OPT_NEXT. */
opt_verdict opt_guard_fails(opt_ctx *c, opt_op *op);

/* Sends a new op OPC(A, B) through every pass and returns the output value
 * standing for its result. */
ir_vid opt_emit_extra(opt_ctx *c, ir_opcode opc, ir_vid a, ir_vid b);

/* For the *_ovf op being processed: whether it overflows, decided by the
 * current pass. */
void opt_set_ovf(opt_ctx *c, bool overflows);

/* Whether output op OPI is an *_ovf op known not to have overflowed (its
 * guard_no_overflow was emitted and passed). */
bool opt_is_exact(const opt_ctx *c, uint32_t opi);

/* For passes that use bounds without being the bounds pass: the abstract
 * value of V, from the `bound` hook of the first enabled pass that knows
 * it (top when none does, e.g. with the bounds pass off). */
bnd opt_bound(opt_ctx *c, ir_vid v);

/* DCE helper: rebuilds the output keeping only ops with KEEP[i]. */
jp_status opt_compact(opt_ctx *c, const bool *keep);

/* ------------------------------------------------------------------ */
/* Heap ops.  They reach the passes through the heap hooks of
 * opt_pass_hooks (virtualize.c, then heapcache.c), never through a call
 * from one pass to another: opt.c is the framework, every pass a leaf that
 * calls only the services below (tests/cli/passes_layers.sh checks it). */

/* The output value for input value V, through forwarding; a value a pass
 * holds (a virtual object) is materialized (emitted) first. */
ir_vid opt_get(opt_ctx *c, ir_vid v);
/* Copies input op I to the output (arguments through opt_get); returns
 * the output op index or UINT32_MAX. */
uint32_t opt_copy_op(opt_ctx *c, uint32_t i);
/* The output string id for input string id ID. */
uint32_t opt_copy_str(opt_ctx *c, uint32_t id);
/* Bookkeeping for an op a pass emitted itself with ir_emit. */
void opt_note_emitted(opt_ctx *c, uint32_t opi, uint32_t in_op);
/* A pass emitted a store (materializing an object): FIELD (output string
 * id) of the fresh object OBJ now holds VAL.  Runs the other enabled
 * passes' `stored` hooks. */
void opt_note_store(opt_ctx *c, uint32_t field, ir_vid obj, ir_vid val);
/* Input guard I always fails: emits guard_true(0) with its label and
 * fail-args, which ends the trace. */
void opt_guard_fails_at(opt_ctx *c, uint32_t i);

#endif
