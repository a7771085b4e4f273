/*
 * test_reduce.c - the fuzzer's oracle and reducer: classification,
 * normalization, signatures, and delta debugging of traces that an
 * injected optimizer bug miscompiles (the result must be small, valid, and
 * fail the same way).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz/reduce.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/validate.h"

static ver_ctx *vc;

static ir_trace *parse(const char *text)
{
	ir_parse_opts po = {64, false, "test"};
	ir_trace *t = NULL;
	jp_err err;
	if (ir_parse(text, strlen(text), &po, &t, &err) != JP_OK)
		fprintf(stderr, "parse: %s\n", err.msg);
	return t;
}

static red_env env_with(const char *bugs)
{
	red_env e = red_default_env(vc);
	CHECK(opt_parse_bugs(bugs, &e.cfg.bugs, NULL) == JP_OK);
	return e;
}

static bool has_op(const ir_trace *t, ir_opcode opc)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (t->ops[i].opc == opc)
			return true;
	return false;
}

static void test_normalize(void)
{
	char buf[96];
	red_normalize("guard g3 (same condition)", buf, sizeof buf);
	CHECK_STREQ(buf, "guard (same condition)");
	red_normalize("output 12 (same value)", buf, sizeof buf);
	CHECK_STREQ(buf, "output (same value)");
	red_normalize("  end   (x) ", buf, sizeof buf);
	CHECK_STREQ(buf, "end (x)");
	red_normalize("a b c d", buf, 4);
	CHECK_STREQ(buf, "a b");
	CHECK(strcmp(red_kind_name(RED_REFUTED), "refuted") == 0);
	CHECK(red_is_failure(RED_OPT_ERROR) && !red_is_failure(RED_UNKNOWN));
}

static void test_proved(void)
{
	ir_trace *t = parse("[i0, i1]\n"
			    "i2 = int_add(i0, 0)\n"
			    "i3 = int_mul(i2, 1)\n"
			    "i4 = int_lt(i3, 10)\n"
			    "guard_true(i4)\n"
			    "finish(i3, i1)\n");
	CHECK(t != NULL);
	if (!t)
		return;
	red_env e = env_with("none");
	red_outcome o;
	CHECK(red_evaluate(&e, t, &o, NULL) == JP_OK);
	CHECK(o.kind == RED_PROVED);
	CHECK(o.opt != NULL && o.have_res);
	red_outcome_free(&o);
	CHECK(o.opt == NULL);
	ir_trace_free(t);
}

/* Reduces TEXT under BUGS and checks the common properties: the result
 * validates, is no larger than MAXOPS, fails exactly as the original, and
 * still does when judged again from scratch. */
static ir_trace *reduce_checked(const char *text, const char *bugs,
				uint32_t maxops, red_outcome *fin_out)
{
	ir_trace *t = parse(text);
	CHECK(t != NULL);
	if (!t)
		return NULL;
	red_env e = env_with(bugs);
	red_outcome o;
	CHECK(red_evaluate(&e, t, &o, NULL) == JP_OK);
	CHECK(red_is_failure(o.kind));
	if (!red_is_failure(o.kind)) {
		fprintf(stderr, "  expected a failure with %s, got %s\n", bugs,
			red_kind_name(o.kind));
		red_outcome_free(&o);
		ir_trace_free(t);
		return NULL;
	}
	ir_trace *r = NULL;
	red_outcome fin;
	red_stats st;
	CHECK(red_reduce(&e, t, &o, &r, &fin, &st, NULL) == JP_OK);
	CHECK(r != NULL);
	if (r) {
		CHECK(ir_validate(r, NULL, NULL) == JP_OK);
		CHECK(red_same_failure(&fin, &o));
		CHECK(st.complete);
		CHECK(st.ops_before == ir_count_ops(t));
		CHECK(st.ops_after == ir_count_ops(r));
		CHECK(st.ops_after <= maxops);
		CHECK(st.accepted > 0 && st.evals >= st.accepted);
		if (st.ops_after > maxops) {
			strbuf sb;
			sb_init(&sb);
			ir_print(r, &sb);
			fprintf(stderr, "  reduced to %u ops:\n%s",
				st.ops_after, sb.buf);
			sb_release(&sb);
		}
		/* Judged again from its printed form, it fails the same way
		 * (guards were relabelled implicitly, so print/parse keeps
		 * the labels). */
		strbuf sb;
		sb_init(&sb);
		ir_print(r, &sb);
		ir_trace *back = parse(sb.buf);
		sb_release(&sb);
		CHECK(back != NULL);
		if (back) {
			red_outcome again;
			CHECK(red_evaluate(&e, back, &again, NULL) == JP_OK);
			CHECK(red_same_failure(&again, &o));
			red_outcome_free(&again);
			ir_trace_free(back);
		}
	}
	if (fin_out)
		*fin_out = fin;
	else
		red_outcome_free(&fin);
	red_outcome_free(&o);
	ir_trace_free(t);
	return r;
}

/* guard_value(x, 1) turned into guard_true(x): the noise around it must
 * go, down to the one guard. */
static void test_reduce_guard_value_bool(void)
{
	const char *text = "[i0, i1, i2]\n"
			   "i3 = int_add(i1, i2)\n"
			   "i4 = int_mul(i3, 7)\n"
			   "i5 = int_lt(i4, 100)\n"
			   "guard_true(i5)\n"
			   "i6 = int_sub_ovf(i1, 3)\n"
			   "guard_no_overflow()\n"
			   "i7 = int_xor(i6, i2)\n"
			   "i8 = int_add(i0, 41)\n"
			   "i9 = int_sub(i8, 41)\n"
			   "guard_value(i9, 1)\n"
			   "i10 = int_and(i7, 255)\n"
			   "i11 = int_rshift(i10, 3)\n"
			   "finish(i3, i4, i6, i7, i10, i11, i9)\n";
	red_outcome fin;
	ir_trace *r = reduce_checked(text, "guard-value-bool", 3, &fin);
	if (!r)
		return;
	CHECK(has_op(r, IR_GUARD_VALUE));
	CHECK(!has_op(r, IR_INT_MUL) && !has_op(r, IR_INT_SUB_OVF));
	char sig[256];
	red_signature(r, &fin, UINT64_C(1) << OPT_BUG_GUARD_VALUE_BOOL, sig,
		      sizeof sig);
	CHECK(strncmp(sig, "guard-value-bool.refuted.", 25) == 0);
	CHECK(strstr(sig, ".refuted.guard.") != NULL);
	CHECK(strchr(sig, '/') == NULL && strchr(sig, ' ') == NULL);
	red_outcome_free(&fin);
	ir_trace_free(r);
}

/* int_sub_ovf(int_add(a, b), b) -> a: the reduced trace keeps the *_ovf
 * op and its guard together, right after each other. */
static void test_reduce_ovf_pair(void)
{
	const char *text = "[i0, i1, i2]\n"
			   "i3 = int_mul(i2, i2)\n"
			   "i4 = int_lt(i3, 1000)\n"
			   "guard_true(i4)\n"
			   "i5 = int_add(i0, i1)\n"
			   "i6 = int_mul_ovf(i2, 3)\n"
			   "guard_no_overflow()\n"
			   "i7 = int_sub_ovf(i5, i1)\n"
			   "guard_no_overflow()\n"
			   "i8 = int_add(i7, i3)\n"
			   "i9 = int_or(i6, i8)\n"
			   "finish(i8, i3, i9)\n";
	ir_trace *r = reduce_checked(text, "ovf-cse", 4, NULL);
	if (!r)
		return;
	bool paired = false;
	for (uint32_t i = 0; i + 1 < r->nops; i++)
		if (r->ops[i].opc == IR_INT_SUB_OVF &&
		    ir_op_has(r->ops[i + 1].opc, IRF_OVFGUARD))
			paired = true;
	CHECK(paired);
	CHECK(!has_op(r, IR_INT_MUL_OVF));
	ir_trace_free(r);
}

/* Constants shrink: a large constant that does not matter becomes 0 or
 * disappears, one that matters stays. */
static void test_reduce_consts(void)
{
	const char *text = "[i0, i1]\n"
			   "i2 = int_add(i1, 123456789)\n"
			   "i3 = int_xor(i2, -987654321)\n"
			   "guard_value(i0, 1)\n"
			   "finish(i3)\n";
	ir_trace *r = reduce_checked(text, "guard-value-bool", 1, NULL);
	if (!r)
		return;
	for (ir_vid v = 0; v < r->nvals; v++)
		if (r->vals[v].tag == IR_VAL_CONST_INT)
			CHECK(r->vals[v].cval <= 1);
	CHECK(r->ninputs == 1);
	ir_trace_free(r);
}

/* Two guards that only pin a value to one number become one guard_value
 * (pinned to its counterexample value), and the chain behind them goes. */
static void test_reduce_pin(void)
{
	const char *text = "[i0]\n"
			   "i1 = int_lshift(i0, 7)\n"
			   "i2 = int_xor(i1, i0)\n"
			   "i3 = int_le(i2, 4611686018427387992)\n"
			   "guard_false(i3)\n"
			   "i4 = int_sub(0, i2)\n"
			   "i5 = int_lt(i4, -4611686018427387993)\n"
			   "guard_false(i5)\n"
			   "i6 = int_and(i0, 31)\n"
			   "guard_value(i6, 25)\n"
			   "finish()\n";
	ir_trace *r = reduce_checked(text, "and-no-shrink", 5, NULL);
	if (!r)
		return;
	CHECK(!has_op(r, IR_INT_SUB) && !has_op(r, IR_INT_LT));
	ir_trace_free(r);
}

/* A budget or the stop flag ends the reduction early with a valid trace
 * that still fails the same way. */
static void test_budget_and_stop(void)
{
	const char *text = "[i0, i1, i2]\n"
			   "i3 = int_add(i1, i2)\n"
			   "i4 = int_mul(i3, 7)\n"
			   "i5 = int_add(i0, 0)\n"
			   "guard_value(i5, 1)\n"
			   "i6 = int_and(i4, 255)\n"
			   "finish(i3, i4, i6, i5)\n";
	ir_trace *t = parse(text);
	if (!t)
		return;
	red_env e = env_with("guard-value-bool");
	red_outcome o;
	CHECK(red_evaluate(&e, t, &o, NULL) == JP_OK);
	CHECK(o.kind == RED_REFUTED);
	e.max_evals = 2;
	ir_trace *r = NULL;
	red_outcome fin;
	red_stats st;
	CHECK(red_reduce(&e, t, &o, &r, &fin, &st, NULL) == JP_OK);
	CHECK(r && !st.complete && st.evals <= 3);
	if (r) {
		CHECK(ir_validate(r, NULL, NULL) == JP_OK);
		CHECK(red_same_failure(&fin, &o));
		red_outcome_free(&fin);
		ir_trace_free(r);
	}
	static volatile sig_atomic_t stop = 1;
	e.max_evals = 0;
	e.stop = &stop;
	CHECK(red_reduce(&e, t, &o, &r, &fin, &st, NULL) == JP_OK);
	CHECK(r && !st.complete && st.evals == 0);
	CHECK(r && ir_count_ops(r) == ir_count_ops(t));
	if (r) {
		CHECK(red_same_failure(&fin, &o));
		red_outcome_free(&fin);
		ir_trace_free(r);
	}
	red_outcome_free(&o);
	ir_trace_free(t);
}

static void test_signature_limits(void)
{
	ir_trace *t = parse("[i0]\ni1 = int_neg(i0)\nguard_value(i1, 5)\n"
			    "finish(i1)\n");
	if (!t)
		return;
	red_outcome o;
	memset(&o, 0, sizeof o);
	o.kind = RED_REFUTED;
	snprintf(o.obl, sizeof o.obl, "guard (removed: must always pass)");
	char a[256], b[40], c[40];
	red_signature(t, &o, 0, a, sizeof a);
	CHECK_STREQ(a, "nobug.refuted.guard.int_neg");
	red_signature(t, &o, (UINT64_C(1) << OPT_BUG_COUNT) - 1, b, sizeof b);
	CHECK(strlen(b) < sizeof b && strchr(b, '~') != NULL);
	o.kind = RED_OPT_ERROR;
	red_signature(t, &o, (UINT64_C(1) << OPT_BUG_COUNT) - 1, c, sizeof c);
	CHECK(strcmp(b, c) != 0); /* the hash keeps cut signatures apart */
	ir_trace *g = parse("[i0]\nguard_value(i0, 1)\nfinish()\n");
	if (g) {
		/* Only guards: they are the signature's ops then. */
		o.kind = RED_REFUTED;
		red_signature(g, &o, 0, a, sizeof a);
		CHECK_STREQ(a, "nobug.refuted.guard.guard_value");
		ir_trace_free(g);
	}
	o.kind = RED_OPT_ERROR;
	snprintf(o.obl, sizeof o.obl, "internal error");
	red_signature(t, &o, 0, a, sizeof a);
	CHECK_STREQ(a, "nobug.optimizer-error.internal-error.int_neg");
	ir_trace_free(t);
}

/* Rule signatures: readable, parsed back, tied to the bugs and the kind. */
static void test_rule_signature(void)
{
	uint64_t bugs = 0, rules, back = 0;
	CHECK(opt_parse_bugs("neg-minint", &bugs, NULL) == JP_OK);
	CHECK(opt_parse_rules("bounds.fwd-additive,simplify.ovf", &rules,
			      NULL) == JP_OK);
	char sig[200];
	red_rule_signature(bugs, RED_REFUTED, rules, sig, sizeof sig);
	CHECK_STREQ(sig, "neg-minint.refuted.rules.simplify-ovf+"
			 "bounds-fwd-additive");
	CHECK(red_parse_rule_signature(sig, bugs, RED_REFUTED, &back));
	CHECK_EQ_U64(back, rules);
	CHECK(!red_parse_rule_signature(sig, 0, RED_REFUTED, &back));
	CHECK(!red_parse_rule_signature(sig, bugs, RED_OPT_ERROR, &back));
	CHECK(!red_parse_rule_signature("neg-minint.refuted.guard.int_neg",
					bugs, RED_REFUTED, &back));
	CHECK(!red_parse_rule_signature("neg-minint.refuted.rules.bounds-nope",
					bugs, RED_REFUTED, &back));
	/* A failure blamed on a rule reports it as fired. */
	ir_trace *t = parse("[i0]\ni1 = int_add(i0, 1)\n"
			    "i2 = int_sub_ovf(i1, 1)\nguard_no_overflow()\n"
			    "finish(i2)\n");
	red_env e = env_with("ovf-cse");
	red_outcome o;
	CHECK(t && red_evaluate(&e, t, &o, NULL) == JP_OK);
	if (t) {
		CHECK(o.kind == RED_REFUTED);
		CHECK(o.rules_fired & (UINT64_C(1) << OPT_RULE_SIMPLIFY_OVF));
		red_outcome_free(&o);
	}
	ir_trace_free(t);
}

int main(void)
{
	jp_err err;
	vc = ver_ctx_new(&err);
	if (!vc) {
		fprintf(stderr, "ver_ctx_new: %s\n", err.msg);
		return 1;
	}
	test_normalize();
	test_proved();
	test_reduce_guard_value_bool();
	test_reduce_ovf_pair();
	test_reduce_consts();
	test_reduce_pin();
	test_budget_and_stop();
	test_signature_limits();
	test_rule_signature();
	ver_ctx_free(vc);
	return check_summary("test_reduce");
}
