/*
 * opt.h - the trace optimizer: one forward pass, a chain of optimizations.
 *
 * opt_run reads an input trace and builds a new, optimized trace.  It
 * never changes its input.  Like PyPy's optimizeopt, it walks the ops once;
 * each op of the input gets a "forwarded" link (union-find) to the value
 * that replaces it, and each enabled optimization has a hook per op kind.
 *
 * Guard provenance: every guard of the output carries, as an explicit
 * descr= label, the label of the input guard it stands for.  A guard may
 * change kind (guard_value(x, 0) -> guard_false(x)) or disappear; it is
 * never duplicated and never moved before another guard.  The verifier
 * aligns the two traces by these labels.
 *
 * A guard that always fails is kept (with constant arguments that make it
 * fail) and ends the trace: later ops are dropped and the end op keeps its
 * kind, with 0 / NULL for outputs not defined before the guard (they are
 * unreachable).  docs/optimizer.md describes the passes and this choice.
 *
 * Known bugs (bugs.def) can be switched on to inject realistic
 * miscompilations; they are all off by default.
 *
 * Ownership: *OUT is a new trace the caller frees with ir_trace_free.
 */
#ifndef JP_PASSES_OPT_H
#define JP_PASSES_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/trace.h"

/* The optimizations, in the order their hooks run on each op.  A pass is
 * selected by name with --passes. */
typedef enum opt_pass {
#define PASS(id, name, desc) OPT_PASS_##id,
#include "passes.def"
#undef PASS
	OPT_PASS_COUNT
} opt_pass;

/* The injectable bugs. */
typedef enum opt_bug {
#define BUG(id, name, desc) OPT_BUG_##id,
#include "bugs.def"
#undef BUG
	OPT_BUG_COUNT
} opt_bug;

/* The rules (rules.def): one pass's rewrites of one family of ops, the
 * unit of rule blame.  Ops a rule rewrote or created carry its name; a
 * rule switched off skips those rewrites (the pass's analysis still runs;
 * the whole-pass rules virtualize, heap and dce switch their pass off). */
typedef enum opt_rule {
#define RULE(id, name, pass, desc) OPT_RULE_##id,
#include "rules.def"
#undef RULE
	OPT_RULE_COUNT
} opt_rule;

/* The branches of the bounds domain and pass (branches.def), for rule
 * coverage: which bound decided, which side of a range edge. */
typedef enum opt_branch {
#define BRANCH(id, name, rule, desc) OPT_BR_##id,
#include "branches.def"
#undef BRANCH
	OPT_BR_COUNT
} opt_branch;

typedef struct opt_config {
	uint64_t passes;    /* bit (1 << opt_pass) set = enabled */
	uint64_t bugs;	    /* bit (1 << opt_bug) set = injected */
	uint64_t rules_off; /* bit (1 << opt_rule) set = rule switched off */
	bool annotate;	    /* ops a rule rewrote or created get its name as
			       ir_op.rule ("# rule: NAME" when printed) */
} opt_config;

typedef struct opt_stats {
	uint32_t ops_in, ops_out; /* non-marker ops, end op excluded */
	uint32_t guards_in, guards_out;
	uint32_t removed[OPT_PASS_COUNT]; /* input ops removed, by pass */
	uint64_t rules_fired; /* bit (1 << opt_rule): the rule rewrote,
				 created or removed an op (whole-pass rules:
				 the pass took part) */
	/* Rule coverage: how often each rule fired (each time it would set
	 * its rules_fired bit) and each branch (branches.def) was taken. */
	uint32_t rule_hits[OPT_RULE_COUNT];
	uint32_t branch_hits[OPT_BR_COUNT];
} opt_stats;

/* All passes enabled, no bugs. */
opt_config opt_default_config(void);

/* Parses "fold,cse,bounds" into a pass mask; "all" selects every pass.
 * On error names the unknown pass and lists the valid ones. */
jp_status opt_parse_passes(const char *list, uint64_t *mask, jp_err *err);
/* Parses "neg-minint,pow2-div" into a bug mask ("none" = 0). */
jp_status opt_parse_bugs(const char *list, uint64_t *mask, jp_err *err);

/* Parses "bounds.guard,cse.pure" into a rule mask ("none" = 0, "all" =
 * every rule). */
jp_status opt_parse_rules(const char *list, uint64_t *mask, jp_err *err);
/* The mask of the analysis rules (rules.def): they compute facts, the
 * other rules rewrite ops with them. */
uint64_t opt_rules_analysis(void);
/* The rule named NAME (LEN bytes), or OPT_RULE_COUNT. */
opt_rule opt_rule_find(const char *name, size_t len);

const char *opt_rule_name(opt_rule r);
const char *opt_rule_desc(opt_rule r);
/* A branch's name ("fwd.add.wrap-split"), description and rule. */
const char *opt_branch_name(opt_branch b);
const char *opt_branch_desc(opt_branch b);
opt_rule opt_branch_rule(opt_branch b);
const char *opt_pass_name(opt_pass p);
const char *opt_pass_desc(opt_pass p);
const char *opt_bug_name(opt_bug b);
const char *opt_bug_desc(opt_bug b);

/* Optimizes IN.  STATS may be NULL.  Errors: JP_ENOMEM, JP_EUNSUPPORTED
 * (an op no pass knows how to copy), JP_EINTERNAL. */
jp_status opt_run(const ir_trace *in, const opt_config *cfg, ir_trace **out,
		  opt_stats *stats, jp_err *err);

/* NULL when constant folding (the fold pass) handles OPC; otherwise why it
 * deliberately does not. */
const char *opt_fold_unhandled(ir_opcode opc);

#endif
