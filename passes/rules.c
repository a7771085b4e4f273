/*
 * rules.c - the optimizer's rules (rules.def): names, and which rule a
 * pass's rewrite of an op belongs to.
 *
 * A rule is a pass and a family of ops, so the framework (opt.c) knows the
 * rule before the pass's hook runs: switching a rule off skips that hook
 * for that op, and a hook that changes the op is the rule firing.  The
 * passes themselves need no bookkeeping.
 */
#include <string.h>

#include "passes/opt_internal.h"

const char *const opt_rule_names[OPT_RULE_COUNT] = {
#define RULE(id, name, pass, desc) name,
#include "rules.def"
#undef RULE
};

static const char *const rule_descs[OPT_RULE_COUNT] = {
#define RULE(id, name, pass, desc) desc,
#include "rules.def"
#undef RULE
};

static const opt_pass rule_pass[OPT_RULE_COUNT] = {
#define RULE(id, name, pass, desc) OPT_PASS_##pass,
#include "rules.def"
#undef RULE
};

_Static_assert(OPT_RULE_COUNT <= 64, "rule mask is a uint64_t");

static const char *const branch_names[OPT_BR_COUNT] = {
#define BRANCH(id, name, rule, desc) name,
#include "branches.def"
#undef BRANCH
};

static const char *const branch_descs[OPT_BR_COUNT] = {
#define BRANCH(id, name, rule, desc) desc,
#include "branches.def"
#undef BRANCH
};

static const opt_rule branch_rules[OPT_BR_COUNT] = {
#define BRANCH(id, name, rule, desc) OPT_RULE_##rule,
#include "branches.def"
#undef BRANCH
};

const char *opt_branch_name(opt_branch b)
{
	return b < OPT_BR_COUNT ? branch_names[b] : "?";
}

const char *opt_branch_desc(opt_branch b)
{
	return b < OPT_BR_COUNT ? branch_descs[b] : "?";
}

opt_rule opt_branch_rule(opt_branch b)
{
	return b < OPT_BR_COUNT ? branch_rules[b] : OPT_RULE_COUNT;
}

const char *opt_rule_name(opt_rule r)
{
	return r < OPT_RULE_COUNT ? opt_rule_names[r] : "?";
}

const char *opt_rule_desc(opt_rule r)
{
	return r < OPT_RULE_COUNT ? rule_descs[r] : "?";
}

opt_rule opt_rule_find(const char *name, size_t len)
{
	for (int r = 0; r < OPT_RULE_COUNT; r++)
		if (strlen(opt_rule_names[r]) == len &&
		    !memcmp(opt_rule_names[r], name, len))
			return (opt_rule)r;
	return OPT_RULE_COUNT;
}

static opt_rule simplify_rule(ir_opcode opc)
{
	if (ir_op_has(opc, IRF_OVF))
		return OPT_RULE_SIMPLIFY_OVF;
	if (ir_op_has(opc, IRF_GUARD))
		return OPT_RULE_SIMPLIFY_GUARD;
	if (ir_op_has(opc, IRF_CMP))
		return OPT_RULE_SIMPLIFY_CMP;
	switch (opc) {
	case IR_INT_ADD:
	case IR_INT_SUB:
	case IR_INT_NEG: return OPT_RULE_SIMPLIFY_ADDITIVE;
	case IR_INT_MUL:
	case IR_UINT_MUL_HIGH: return OPT_RULE_SIMPLIFY_MUL;
	case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: return OPT_RULE_SIMPLIFY_DIV;
	case IR_INT_AND:
	case IR_INT_OR:
	case IR_INT_XOR:
	case IR_INT_INVERT: return OPT_RULE_SIMPLIFY_BITWISE;
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: return OPT_RULE_SIMPLIFY_SHIFT;
	case IR_INT_IS_TRUE:
	case IR_INT_IS_ZERO: return OPT_RULE_SIMPLIFY_CMP;
	default: return OPT_RULE_SIMPLIFY_UNARY;
	}
}

/* The families of ops the bounds pass's analysis rules are split by. */
enum {
	FAM_ADDITIVE,
	FAM_MUL,
	FAM_DIV,
	FAM_BITWISE,
	FAM_SHIFT,
	FAM_CMP,
	FAM_OTHER
};

static int family(ir_opcode opc)
{
	if (ir_op_has(opc, IRF_CMP))
		return FAM_CMP;
	switch (opc) {
	case IR_INT_ADD:
	case IR_INT_SUB:
	case IR_INT_NEG:
	case IR_INT_ADD_OVF:
	case IR_INT_SUB_OVF: return FAM_ADDITIVE;
	case IR_INT_MUL:
	case IR_INT_MUL_OVF:
	case IR_UINT_MUL_HIGH: return FAM_MUL;
	case IR_INT_PY_DIV:
	case IR_INT_PY_MOD: return FAM_DIV;
	case IR_INT_AND:
	case IR_INT_OR:
	case IR_INT_XOR:
	case IR_INT_INVERT: return FAM_BITWISE;
	case IR_INT_LSHIFT:
	case IR_INT_RSHIFT:
	case IR_UINT_RSHIFT: return FAM_SHIFT;
	default: return FAM_OTHER;
	}
}

opt_rule opt_rule_forward(ir_opcode opc)
{
	static const opt_rule r[] = {
	    OPT_RULE_BOUNDS_FWD_ADDITIVE, OPT_RULE_BOUNDS_FWD_MUL,
	    OPT_RULE_BOUNDS_FWD_DIV,	  OPT_RULE_BOUNDS_FWD_BITWISE,
	    OPT_RULE_BOUNDS_FWD_SHIFT,	  OPT_RULE_BOUNDS_FWD_CMP,
	    OPT_RULE_BOUNDS_FWD_OTHER};
	return r[family(opc)];
}

opt_rule opt_rule_backward(ir_opcode opc)
{
	static const opt_rule r[] = {
	    OPT_RULE_BOUNDS_BACK_ADDITIVE, OPT_RULE_BOUNDS_BACK_MUL,
	    OPT_RULE_BOUNDS_BACK_OTHER,	   OPT_RULE_BOUNDS_BACK_BITWISE,
	    OPT_RULE_BOUNDS_BACK_SHIFT,	   OPT_RULE_BOUNDS_BACK_CMP,
	    OPT_RULE_BOUNDS_BACK_OTHER};
	return r[family(opc)];
}

uint64_t opt_rules_analysis(void)
{
	uint64_t m = 0;
	for (int r = OPT_RULE_BOUNDS_FWD_ADDITIVE;
	     r <= OPT_RULE_BOUNDS_BACK_CMP; r++)
		m |= UINT64_C(1) << r;
	return m;
}

void opt_rule_hit(opt_ctx *c, opt_rule r)
{
	if (!c->stats || r >= OPT_RULE_COUNT)
		return;
	c->stats->rules_fired |= UINT64_C(1) << r;
	c->stats->rule_hits[r]++;
}

void opt_branch_hit(opt_ctx *c, opt_branch b)
{
	if (c->stats)
		c->stats->branch_hits[b]++;
}

bool opt_rule_fire(opt_ctx *c, opt_rule r)
{
	if (r >= OPT_RULE_COUNT || (c->cfg.rules_off >> r & 1))
		return false;
	opt_rule_hit(c, r);
	return true;
}

static opt_rule bounds_rule(ir_opcode opc)
{
	if (ir_op_has(opc, IRF_OVF))
		return OPT_RULE_BOUNDS_OVF;
	if (ir_op_has(opc, IRF_GUARD))
		return OPT_RULE_BOUNDS_GUARD;
	if (ir_op_has(opc, IRF_CMP))
		return OPT_RULE_BOUNDS_CMP;
	if (opc == IR_INT_PY_DIV || opc == IR_INT_PY_MOD)
		return OPT_RULE_BOUNDS_DIV;
	return OPT_RULE_BOUNDS_ARITH;
}

opt_rule opt_rule_of(opt_pass p, ir_opcode opc)
{
	bool guard = ir_op_has(opc, IRF_GUARD);
	switch (p) {
	case OPT_PASS_FOLD:
		return guard ? OPT_RULE_FOLD_GUARD : OPT_RULE_FOLD_OP;
	case OPT_PASS_SIMPLIFY: return simplify_rule(opc);
	case OPT_PASS_BOUNDS: return bounds_rule(opc);
	case OPT_PASS_CSE:
		return guard			 ? OPT_RULE_CSE_GUARD
		       : ir_op_has(opc, IRF_OVF) ? OPT_RULE_CSE_OVF
						 : OPT_RULE_CSE_PURE;
	case OPT_PASS_VIRTUALIZE: return OPT_RULE_VIRTUALIZE;
	case OPT_PASS_HEAP: return OPT_RULE_HEAP;
	case OPT_PASS_DCE: return OPT_RULE_DCE;
	default: return OPT_RULE_COUNT;
	}
}

uint64_t opt_rules_passes_off(uint64_t rules_off)
{
	uint64_t passes = 0;
	for (int r = 0; r < OPT_RULE_COUNT; r++) {
		/* The heap pass has finer rules too (heap.forward ...): only
		 * the rule named like the pass switches it off. */
		bool whole = r == OPT_RULE_VIRTUALIZE || r == OPT_RULE_HEAP ||
			     r == OPT_RULE_DCE;
		if (whole && (rules_off >> r & 1))
			passes |= UINT64_C(1) << rule_pass[r];
	}
	return passes;
}
