/* The verifier's --audit: identity shortcuts are audited by plain Z3, the
 * corpus pairs keep their verdicts with --audit and the audit agrees, and
 * a settlement made wrong on purpose (the chk_test_wrong_settle hook) is
 * caught.  Helpers: test_check_util.h. */
#define _POSIX_C_SOURCE 200809L
#include "test_check_util.h"
#include "verify/check_int.h" /* chk_test_wrong_settle */

/* ---- --audit ------------------------------------------------------------ */

/* The identity shortcut through assumptions (chk_goal_neg: the goal is an
 * asserted assumption, or an assumption is false) proves without a query,
 * and never more: a near miss is refuted.  With --audit each proof is
 * also asked of plain Z3, which must agree. */
static ver_result check_audited(const char *orig, const char *opt)
{
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	ver_opts o = test_opts();
	o.audit = true;
	ver_result r;
	jp_err err;
	memset(&r, 0, sizeof r);
	CHECK(a && b && ver_check(C, a, b, &o, &r, &err) == JP_OK);
	CHECK(r.audit_disagreed == 0);
	ir_trace_free(a);
	ir_trace_free(b);
	return r;
}

static void test_identity_shortcuts(void)
{
	/* g1 repeats g0's very condition: removed, it holds by identity. */
	ver_result r = check_audited(
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "i2 = int_lt(i0, 5)\nguard_true(i2, descr=g1)\nfinish(i0)\n",
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "finish(i0)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.solver_calls == 0);
	CHECK(r.by_identity == r.nobl);
	CHECK(r.audited >= 1 && r.audit_agreed == r.audited);
	ver_result_free(&r);
	/* g1 is stronger than g0 (i0 < 4 after i0 < 5): removing it is a
	 * miscompilation at i0 = 4, not an identity. */
	r = check_audited(
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "i2 = int_lt(i0, 4)\nguard_true(i2, descr=g1)\nfinish(i0)\n",
	    "[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
	    "finish(i0)\n");
	CHECK(r.verdict == VER_REFUTED);
	CHECK(r.verdict != VER_REFUTED || r.inputs[0] == 4);
	ver_result_free(&r);
	/* After a guard that always fails, nothing later is reachable:
	 * the removed g1 holds vacuously (an assumption is false). */
	r = check_audited("[i0]\nguard_true(0, descr=g0)\n"
			  "i1 = int_lt(i0, 4)\nguard_true(i1, descr=g1)\n"
			  "finish(i0)\n",
			  "[i0]\nguard_true(0, descr=g0)\nfinish(i0)\n");
	CHECK(r.verdict == VER_PROVED);
	CHECK(r.solver_calls == 0);
	CHECK(r.audit_disagreed == 0);
	ver_result_free(&r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	strbuf sb;
	sb_init(&sb);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(&sb, buf, n);
	fclose(f);
	return sb_detach(&sb);
}

/* Checks corpus pair DIR with and without --audit: the verdict must not
 * move, and plain Z3 must never find a model for a proved obligation.
 * Adds the pair's audit counts to *AUDITED and *AGREED. */
static void audit_corpus_pair(const char *dir, uint32_t *audited,
			      uint32_t *agreed)
{
	char po[512], pp[512];
	snprintf(po, sizeof po, "corpus/pairs/%s/orig.trace", dir);
	snprintf(pp, sizeof pp, "corpus/pairs/%s/opt.trace", dir);
	char *a = slurp(po), *b = slurp(pp);
	CHECK(a && b);
	ir_trace *o = a ? parse(a, 64) : NULL, *p = b ? parse(b, 64) : NULL;
	CHECK(o && p);
	if (o && p) {
		ver_opts vo = ver_default_opts();
		ver_result plain, audited_r;
		jp_err err;
		memset(&plain, 0, sizeof plain);
		memset(&audited_r, 0, sizeof audited_r);
		CHECK(ver_check(C, o, p, &vo, &plain, &err) == JP_OK);
		vo.audit = true;
		CHECK(ver_check(C, o, p, &vo, &audited_r, &err) == JP_OK);
		if (audited_r.audit_disagreed)
			fprintf(stderr, "%s: %s\n", dir,
				audited_r.reason ? audited_r.reason : "?");
		CHECK(audited_r.audit_disagreed == 0);
		CHECK(audited_r.verdict == plain.verdict);
		CHECK(plain.audited == 0); /* only with the option */
		CHECK(audited_r.audited == audited_r.audit_agreed +
					       audited_r.audit_disagreed +
					       audited_r.audit_unknown);
		*audited += audited_r.audited;
		*agreed += audited_r.audit_agreed;
		ver_result_free(&plain);
		ver_result_free(&audited_r);
	}
	ir_trace_free(o);
	ir_trace_free(p);
	free(a);
	free(b);
}

/* The corpus pairs settled by the shortcuts (ranges, rewriting, facts,
 * refolding, lemmas, identity through assumptions): the audit agrees. */
static void test_audit_agrees_on_corpus(void)
{
	static const char *dirs[] = {
	    "algebra_identities",
	    "and_mask_bounds",
	    "const_fold",
	    "cse_repeated_guard",
	    "force_ge_zero_nonneg",
	    "guard_value_pins",
	    "kept_facts_pinned_condition",
	    "mul_to_shift",
	    "neg_keeps_lemma",
	    "pow2_div_mod",
	    "range_cancel_sub_add",
	    "range_pins_value",
	    "range_same_arg_mask",
	    "refold_pinned_divisor",
	    "refold_same_arg_sum",
	    "new_guard_implied",
	};
	uint32_t audited = 0, agreed = 0;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		audit_corpus_pair(dirs[i], &audited, &agreed);
	/* Most plain queries are easy; a loaded machine may turn a few
	 * into unknowns, never into disagreements. */
	CHECK(audited >= 20);
	CHECK(agreed * 2 >= audited);
}

/* A deliberately wrong shortcut (chk_test_wrong_settle: every obligation
 * "proved by rewriting" on sight) turns two inequivalent pairs into
 * proofs; --audit must catch it, and the verdict must then not be
 * "proved". */
static void audit_catches(const char *orig, const char *opt)
{
	ir_trace *a = parse(orig, 64), *b = parse(opt, 64);
	CHECK(a && b);
	if (!a || !b) {
		ir_trace_free(a);
		ir_trace_free(b);
		return;
	}
	ver_opts vo = ver_default_opts();
	vo.screen_inputs = 0; /* screening would find these */
	ver_result r;
	jp_err err;
	chk_test_wrong_settle = true;
	memset(&r, 0, sizeof r);
	CHECK(ver_check(C, a, b, &vo, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_PROVED); /* the hook really lies */
	CHECK(r.audited == 0);
	ver_result_free(&r);
	vo.audit = true;
	memset(&r, 0, sizeof r);
	CHECK(ver_check(C, a, b, &vo, &r, &err) == JP_OK);
	chk_test_wrong_settle = false;
	CHECK(r.verdict == VER_UNKNOWN);
	CHECK(r.audit_disagreed == 1);
	CHECK(r.audited >= 1);
	CHECK(r.reason && strstr(r.reason, "audit disagreement"));
	CHECK(r.failed >= 0);
	strbuf sb;
	sb_init(&sb);
	ver_result_json(&r, &sb);
	CHECK(strstr(sb.buf, "\"audit_disagreed\":1") != NULL);
	sb_release(&sb);
	ver_result_free(&r);
	/* Without the hook the same pair is refuted, as it should be. */
	vo.screen_inputs = 32;
	memset(&r, 0, sizeof r);
	CHECK(ver_check(C, a, b, &vo, &r, &err) == JP_OK);
	CHECK(r.verdict == VER_REFUTED);
	CHECK(r.audit_disagreed == 0);
	ver_result_free(&r);
	ir_trace_free(a);
	ir_trace_free(b);
}

static void test_audit_catches_wrong_settle(void)
{
	/* A changed output. */
	audit_catches("[i0]\ni1 = int_add(i0, 1)\nfinish(i1)\n",
		      "[i0]\ni1 = int_add(i0, 2)\nfinish(i1)\n");
	/* A removed guard that can fail (i0 = 5). */
	audit_catches("[i0]\ni1 = int_lt(i0, 5)\nguard_true(i1, descr=g0)\n"
		      "finish(i0)\n",
		      "[i0]\nfinish(i0)\n");
	/* A heap pair (one driver): a field stored with another value, which
	 * only the heap model's own "end (same heap)" obligation sees. */
	audit_catches("[p0, i1]\nsetfield_gc(p0, i1, descr=f)\nfinish()\n",
		      "[p0, i1]\ni2 = int_add(i1, 1)\n"
		      "setfield_gc(p0, i2, descr=f)\nfinish()\n");
}

int main(void)
{
	if (!open_ctx())
		return 1;
	test_identity_shortcuts();
	test_audit_agrees_on_corpus();
	test_audit_catches_wrong_settle();
	ver_ctx_free(C);
	return check_summary("test_check_audit");
}
