/*
 * test_opt_rules.c - rule blame in the optimizer (passes/rules.def): which
 * rules fire, the "# rule: NAME" annotation of the ops they make (printed
 * and parsed back), and switching rules off.
 */
#include "check.h"
#include "test_opt_util.h"

#include "passes/bounds.h"

static ir_trace *run(const char *src, uint64_t off, bool annotate,
		     opt_stats *st)
{
	ir_trace *in = tu_parse(src, 64);
	if (!in)
		return NULL;
	opt_config cfg = opt_default_config();
	cfg.rules_off = off;
	cfg.annotate = annotate;
	ir_trace *out = NULL;
	jp_err err;
	jp_status s = opt_run(in, &cfg, &out, st, &err);
	ir_trace_free(in);
	return s ? NULL : out;
}

static uint64_t bit(opt_rule r)
{
	return UINT64_C(1) << r;
}

/* 0 - x becomes int_neg (simplify.additive); x + 0 goes; the guard on a
 * comparison the bounds decide goes (bounds.cmp folds it first). */
static const char *src = "[i0]\n"
			 "i1 = int_sub(0, i0)\n"
			 "i2 = int_add(i1, 0)\n"
			 "i3 = int_and(i0, 255)\n"
			 "i4 = int_lt(i3, 256)\n"
			 "guard_true(i4)\n"
			 "finish(i2, i3)\n";

static void test_fired_and_annotated(void)
{
	opt_stats st;
	ir_trace *o = run(src, 0, true, &st);
	CHECK(o != NULL);
	if (!o)
		return;
	CHECK(st.rules_fired & bit(OPT_RULE_SIMPLIFY_ADDITIVE));
	CHECK(st.rules_fired & bit(OPT_RULE_BOUNDS_CMP));
	CHECK(!(st.rules_fired & bit(OPT_RULE_CSE_PURE)));
	char *txt = tu_print(o);
	CHECK(strstr(txt, "int_neg(i0)  # rule: simplify.additive") != NULL);
	/* Ops no rule touched carry nothing. */
	CHECK(strstr(txt, "int_and(i0, 255)\n") != NULL);
	/* The comment parses back onto the op and prints the same. */
	ir_trace *back = tu_parse(txt, 64);
	CHECK(back != NULL);
	if (back) {
		char *txt2 = tu_print(back);
		CHECK_STREQ(txt, txt2);
		bool found = false;
		for (uint32_t i = 0; i < back->nops; i++)
			if (back->ops[i].rule &&
			    !strcmp(back->strs[back->ops[i].rule],
				    "simplify.additive"))
				found = true;
		CHECK(found);
		free(txt2);
		ir_trace_free(back);
	}
	free(txt);
	ir_trace_free(o);
	/* Without annotate the output has no comments. */
	o = run(src, 0, false, NULL);
	CHECK(o != NULL);
	if (o) {
		txt = tu_print(o);
		CHECK(strstr(txt, "# rule") == NULL);
		free(txt);
		ir_trace_free(o);
	}
}

static void test_rules_off(void)
{
	opt_stats st;
	/* simplify.additive off: 0 - x stays a subtraction. */
	ir_trace *o = run(src, bit(OPT_RULE_SIMPLIFY_ADDITIVE), true, &st);
	CHECK(o != NULL);
	if (!o)
		return;
	char *txt = tu_print(o);
	CHECK(strstr(txt, "int_sub(0, i0)") != NULL);
	CHECK(strstr(txt, "int_neg") == NULL);
	CHECK(!(st.rules_fired & bit(OPT_RULE_SIMPLIFY_ADDITIVE)));
	free(txt);
	ir_trace_free(o);
	/* Every bounds rule off: the guard stays (fold cannot decide it). */
	uint64_t b = bit(OPT_RULE_BOUNDS_CMP) | bit(OPT_RULE_BOUNDS_GUARD) |
		     bit(OPT_RULE_BOUNDS_ARITH);
	o = run(src, b, false, &st);
	CHECK(o != NULL);
	if (o) {
		txt = tu_print(o);
		CHECK(strstr(txt, "guard_true") != NULL);
		free(txt);
		ir_trace_free(o);
	}
	/* All rules off is the identity up to dce (dce is a rule too). */
	o = run(src, ~UINT64_C(0), false, &st);
	CHECK(o != NULL);
	if (o) {
		CHECK(st.rules_fired == 0);
		CHECK_EQ_U64(ir_count_ops(o), 5);
		ir_trace_free(o);
	}
}

/* The heap pass's finer rules: each fires on its rewrite, and switched
 * off skips only that rewrite (the pass still runs). */
static void test_heap_rules(void)
{
	const char *h = "[p0, i1]\n"
			"setfield_gc(p0, 5, descr=f)\n"
			"setfield_gc(p0, i1, descr=f)\n"
			"i2 = getfield_gc_i(p0, descr=f)\n"
			"setfield_gc(p0, i2, descr=f)\n"
			"finish(i2)\n";
	opt_stats st;
	ir_trace *o = run(h, 0, false, &st);
	CHECK(o != NULL);
	if (o) {
		CHECK(st.rules_fired & bit(OPT_RULE_HEAP_FORWARD));
		CHECK(st.rules_fired & bit(OPT_RULE_HEAP_SAME_STORE));
		CHECK(st.rules_fired & bit(OPT_RULE_HEAP_DEAD_STORE));
		char *txt = tu_print(o);
		CHECK_STREQ(txt, "[p0, i1]\nsetfield_gc(p0, i1, descr=f)\n"
				 "finish(i1)\n");
		free(txt);
		ir_trace_free(o);
	}
	/* heap.dead-store off: the first store stays, the rest as before. */
	o = run(h, bit(OPT_RULE_HEAP_DEAD_STORE), false, &st);
	CHECK(o != NULL);
	if (o) {
		CHECK(!(st.rules_fired & bit(OPT_RULE_HEAP_DEAD_STORE)));
		char *txt = tu_print(o);
		CHECK_STREQ(txt, "[p0, i1]\nsetfield_gc(p0, 5, descr=f)\n"
				 "setfield_gc(p0, i1, descr=f)\n"
				 "finish(i1)\n");
		free(txt);
		ir_trace_free(o);
	}
	/* heap.forward off: the load stays, and so the store of what it
	 * read is the same store (removed). */
	o = run(h, bit(OPT_RULE_HEAP_FORWARD), false, &st);
	CHECK(o != NULL);
	if (o) {
		char *txt = tu_print(o);
		CHECK_STREQ(txt, "[p0, i1]\nsetfield_gc(p0, i1, descr=f)\n"
				 "i2 = getfield_gc_i(p0, descr=f)\n"
				 "finish(i2)\n");
		free(txt);
		ir_trace_free(o);
	}
}

/* Rule coverage: per rule and per bounds branch, counted in one run and
 * only in it. */
static void test_coverage_counts(void)
{
	/* x in [0, 9] % y in [10, 99] is x (rw.mod-identity); x in [0, 10]
	 * % y in [10, 99] stays (rw.mod-edge-kept). */
	const char *m = "[i0, i1, i2]\n"
			"i3 = uint_lt(i0, 10)\n"
			"guard_true(i3)\n"
			"i4 = uint_lt(i2, 11)\n"
			"guard_true(i4)\n"
			"i5 = int_ge(i1, 10)\n"
			"guard_true(i5)\n"
			"i6 = int_lt(i1, 100)\n"
			"guard_true(i6)\n"
			"i7 = int_py_mod(i0, i1)\n"
			"i8 = int_py_mod(i2, i1)\n"
			"finish(i7, i8)\n";
	opt_stats st;
	ir_trace *o = run(m, 0, false, &st);
	CHECK(o != NULL);
	CHECK_EQ_U64(st.branch_hits[OPT_BR_RW_MOD], 1);
	CHECK_EQ_U64(st.branch_hits[OPT_BR_RW_MOD_EDGE], 1);
	CHECK(st.branch_hits[OPT_BR_MOD_IDENTITY] >= 1);
	CHECK(st.branch_hits[OPT_BR_REF_ULT_X] >= 2);
	CHECK(st.rule_hits[OPT_RULE_BOUNDS_DIV] >= 1);
	CHECK(st.branch_hits[OPT_BR_RW_POW2_DIV] == 0);
	/* Every rule with hits has its bit, and the other way round. */
	for (int r = 0; r < OPT_RULE_COUNT; r++)
		CHECK((st.rule_hits[r] != 0) == ((st.rules_fired >> r) & 1));
	ir_trace_free(o);
	/* The domain counts only inside opt_run. */
	bnd a[2] = {bnd_range(64, 0, 5), bnd_range(64, 10, 20)};
	(void)bnd_forward(IR_INT_PY_MOD, a, 0);
	CHECK_EQ_U64(st.branch_hits[OPT_BR_RW_MOD], 1);
	/* A second run counts from zero; with the bounds rules off nothing
	 * of the bounds pass is counted. */
	o = run(m, opt_rules_analysis() | bit(OPT_RULE_BOUNDS_DIV), false, &st);
	CHECK(o != NULL);
	CHECK_EQ_U64(st.branch_hits[OPT_BR_RW_MOD], 0);
	CHECK_EQ_U64(st.branch_hits[OPT_BR_MOD_IDENTITY], 0);
	CHECK_EQ_U64(st.rule_hits[OPT_RULE_BOUNDS_DIV], 0);
	ir_trace_free(o);
	/* Names: unique, and each branch belongs to a bounds rule. */
	for (int b = 0; b < OPT_BR_COUNT; b++) {
		CHECK(strlen(opt_branch_name((opt_branch)b)) > 3);
		CHECK(!strncmp(opt_rule_name(opt_branch_rule((opt_branch)b)),
			       "bounds.", 7));
		for (int k = 0; k < b; k++)
			CHECK(strcmp(opt_branch_name((opt_branch)b),
				     opt_branch_name((opt_branch)k)));
	}
}

static void test_names(void)
{
	uint64_t m = 0;
	CHECK(opt_parse_rules("bounds.guard,cse.pure", &m, NULL) == JP_OK);
	CHECK_EQ_U64(m, bit(OPT_RULE_BOUNDS_GUARD) | bit(OPT_RULE_CSE_PURE));
	jp_err err;
	CHECK(opt_parse_rules("bounds.nope", &m, &err) == JP_EINPUT);
	CHECK(strstr(err.msg, "bounds.guard") != NULL);
	CHECK(opt_rule_find("heap", 4) == OPT_RULE_HEAP);
	CHECK(opt_rule_find("hea", 3) == OPT_RULE_COUNT);
	for (int r = 0; r < OPT_RULE_COUNT; r++)
		CHECK(opt_rule_find(opt_rule_name((opt_rule)r),
				    strlen(opt_rule_name((opt_rule)r))) ==
		      (opt_rule)r);
}

/* A bug's rule: ovf-cse is simplify's rewrite of int_sub_ovf. */
static void test_bug_rule(void)
{
	const char *t = "[i0, i1]\n"
			"i2 = int_add(i0, i1)\n"
			"i3 = int_sub_ovf(i2, i1)\n"
			"guard_no_overflow()\n"
			"finish(i3)\n";
	ir_trace *in = tu_parse(t, 64);
	CHECK(in != NULL);
	if (!in)
		return;
	opt_config cfg = opt_default_config();
	CHECK(opt_parse_bugs("ovf-cse", &cfg.bugs, NULL) == JP_OK);
	opt_stats st;
	ir_trace *out = NULL;
	CHECK(opt_run(in, &cfg, &out, &st, NULL) == JP_OK);
	CHECK(st.rules_fired & bit(OPT_RULE_SIMPLIFY_OVF));
	CHECK(out && ir_count_guards(out) == 0);
	ir_trace_free(out);
	cfg.rules_off = bit(OPT_RULE_SIMPLIFY_OVF);
	CHECK(opt_run(in, &cfg, &out, &st, NULL) == JP_OK);
	CHECK(out && ir_count_guards(out) == 1);
	ir_trace_free(out);
	ir_trace_free(in);
}

int main(void)
{
	test_fired_and_annotated();
	test_rules_off();
	test_heap_rules();
	test_coverage_counts();
	test_names();
	test_bug_rule();
	return check_summary("test_opt_rules");
}
