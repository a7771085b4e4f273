/*
 * test_opt_framework.c - what passes/opt.c guarantees whatever the passes
 * do: guard provenance, fail-args, heap ops copied through, names, pass
 * selection, statistics, the end of a trace after a failing guard.
 */
#include "test_opt_util.h"

/* Every guard of the output has an explicit label naming its input
 * guard; implicit labels g<k> are made explicit; kinds may change. */
static void test_provenance(void)
{
	EXPECT_OPT("[i0, i1]\n"
		   "guard_true(i1)\n"
		   "i2 = int_lt(i0, 10)\n"
		   "guard_true(i2, descr=mine) [i0]\n"
		   "i3 = int_lt(i0, 20)\n"
		   "guard_true(i3)\n"
		   "guard_value(i0, 0) [i1, None, 5]\n"
		   "finish(i0)\n",
		   "[i0, i1]\n"
		   "guard_true(i1, descr=g0)\n"
		   "i2 = int_lt(i0, 10)\n"
		   "guard_true(i2, descr=mine) [i0]\n"
		   "guard_false(i0, descr=g3) [i1, None, 5]\n"
		   "finish(0)\n");
	/* The labels in the printed output are explicit. */
	ir_trace *t = tu_parse("[i0]\nguard_true(i0)\nfinish(i0)\n", 64);
	ir_trace *o = t ? tu_opt(t, NULL, NULL, NULL) : NULL;
	char *s = o ? tu_print(o) : NULL;
	CHECK(s && strstr(s, "guard_true(i0, descr=g0)"));
	CHECK(o && !(o->ops[0].flags & IR_OPF_IMPLICIT_LABEL));
	free(s);
	ir_trace_free(t);
	ir_trace_free(o);
}

/* Without the heap passes (virtualize, heap), heap ops, calls and markers
 * are copied unchanged; integer ops around them are still optimized; refs
 * keep their identity. */
static void test_heap_copied(void)
{
	EXPECT_OPT_P("fold,simplify,bounds,cse,dce",
		     "[p0, i1]\n"
		     "debug_merge_point(0, 0, 'loop')\n"
		     "guard_nonnull(p0) [i1]\n"
		     "guard_class(p0, ConstClass(Node)) []\n"
		     "i2 = getfield_gc_i(p0, descr=value)\n"
		     "i3 = int_add(i2, 0)\n"
		     "p4 = new(descr=Node)\n"
		     "setfield_gc(p4, i3, descr=value)\n"
		     "i5 = getfield_gc_i(p0, descr=value)\n"
		     "i6 = int_mul(i5, 2)\n"
		     "escape_n(p4, i6)\n"
		     "i7 = escape_i(i6)\n"
		     "i8 = int_add(i1, 1)\n"
		     "label(p0, i8, descr=L)\n"
		     "p9 = getfield_gc_r(p0, descr=next)\n"
		     "guard_isnull(p9)\n"
		     "i10 = int_add(i1, 1)\n"
		     "jump(p0, i10, i7)\n",
		     "[p0, i1]\n"
		     "debug_merge_point(0, 0, 'loop')\n"
		     "guard_nonnull(p0, descr=g0) [i1]\n"
		     "guard_class(p0, ConstClass(Node), descr=g1) []\n"
		     "i2 = getfield_gc_i(p0, descr=value)\n"
		     "p4 = new(descr=Node)\n"
		     "setfield_gc(p4, i2, descr=value)\n"
		     "i5 = getfield_gc_i(p0, descr=value)\n"
		     "i6 = int_lshift(i5, 1)\n"
		     "escape_n(p4, i6)\n"
		     "i7 = escape_i(i6)\n"
		     "i8 = int_add(i1, 1)\n"
		     "label(p0, i8, descr=L)\n"
		     "p9 = getfield_gc_r(p0, descr=next)\n"
		     "guard_isnull(p9, descr=g2)\n"
		     "jump(p0, i8, i7)\n");
	/* Opaque calls keep their own name. */
	EXPECT_OPT("[i0]\n"
		   "i1 = call_i(i0, 2)\n"
		   "i2 = int_add(i1, 0)\n"
		   "call_n(i2)\n"
		   "finish(i2)\n",
		   "[i0]\n"
		   "i1 = call_i(i0, 2)\n"
		   "call_n(i1)\n"
		   "finish(i1)\n");
}

/* Names of copied ops are kept; names made up for new ops never collide
 * with a name of the input, even one defined later. */
static void test_names(void)
{
	EXPECT_OPT_P("simplify",
		     "[i0]\n"
		     "i1 = int_py_div(i0, 3)\n"
		     "i2 = int_add(i1, 1)\n"
		     "i3 = int_add(i2, 1)\n"
		     "i4 = int_add(i3, 1)\n"
		     "i5 = int_add(i4, 1)\n"
		     "finish(i5)\n",
		     "[i0]\n"
		     "i6 = int_rshift(i0, 63)\n"
		     "i7 = int_xor(i0, i6)\n"
		     "i8 = uint_mul_high(i7, -6148914691236517205)\n"
		     "i9 = uint_rshift(i8, 1)\n"
		     "i1 = int_xor(i9, i6)\n"
		     "i2 = int_add(i1, 1)\n"
		     "i3 = int_add(i1, 2)\n"
		     "i4 = int_add(i1, 3)\n"
		     "i5 = int_add(i1, 4)\n"
		     "finish(i5)\n");
}

/* A guard that always fails ends the trace: the guard stays (with its
 * label and fail-args), the rest goes, the end op keeps its kind with the
 * values defined so far and 0 / NULL for the others. */
static void test_failing_guard_ends_trace(void)
{
	EXPECT_OPT("[i0, p1]\n"
		   "i2 = int_and(i0, 7)\n"
		   "i3 = int_gt(i2, 7)\n"
		   "guard_true(i3, descr=never) [i0, i2]\n"
		   "p4 = getfield_gc_r(p1, descr=f)\n"
		   "i5 = int_add(i0, 1)\n"
		   "guard_true(i5)\n"
		   "jump(i2, p4, i5, p1)\n",
		   "[i0, p1]\n"
		   "i2 = int_and(i0, 7)\n"
		   "guard_true(0, descr=never) [i0, i2]\n"
		   "jump(i2, NULL, 0, p1)\n");
	/* With fold off, the bounds pass still proves it fails. */
	EXPECT_OPT_P("bounds,dce",
		     "[i0]\n"
		     "i2 = int_and(i0, 7)\n"
		     "i3 = int_gt(i2, 7)\n"
		     "guard_true(i3, descr=never) [i0, i2]\n"
		     "finish(i0)\n",
		     "[i0]\n"
		     "i2 = int_and(i0, 7)\n"
		     "guard_true(0, descr=never) [i0, i2]\n"
		     "finish(i0)\n");
}

/* dce: pure ops nothing uses go; fail-args keep values alive; *_ovf ops,
 * guards and heap ops stay. */
static void test_dce(void)
{
	EXPECT_OPT_P("dce",
		     "[i0, p1]\n"
		     "i2 = int_add(i0, 1)\n"
		     "i3 = int_mul(i2, 3)\n"
		     "i4 = int_sub(i0, 1)\n"
		     "i5 = int_lt(i4, 0)\n"
		     "guard_false(i0) [i3]\n"
		     "i6 = int_add_ovf(i0, 5)\n"
		     "guard_no_overflow()\n"
		     "i7 = getfield_gc_i(p1, descr=f)\n"
		     "i8 = int_xor(i7, i7)\n"
		     "p9 = new(descr=T)\n"
		     "finish(i0)\n",
		     "[i0, p1]\n"
		     "i2 = int_add(i0, 1)\n"
		     "i3 = int_mul(i2, 3)\n"
		     "guard_false(i0, descr=g0) [i3]\n"
		     "i6 = int_add_ovf(i0, 5)\n"
		     "guard_no_overflow(descr=g1)\n"
		     "i7 = getfield_gc_i(p1, descr=f)\n"
		     "p9 = new(descr=T)\n"
		     "finish(i0)\n");
}

static void test_pass_selection(void)
{
	uint64_t m;
	jp_err err;
	CHECK(opt_parse_passes("fold,cse", &m, &err) == JP_OK &&
	      m == ((UINT64_C(1) << OPT_PASS_FOLD) |
		    (UINT64_C(1) << OPT_PASS_CSE)));
	CHECK(opt_parse_passes("all", &m, &err) == JP_OK &&
	      m == opt_default_config().passes);
	CHECK(opt_parse_passes("none", &m, &err) == JP_OK && m == 0);
	CHECK(opt_parse_passes(" bounds , dce ", &m, &err) == JP_OK &&
	      m == ((UINT64_C(1) << OPT_PASS_BOUNDS) |
		    (UINT64_C(1) << OPT_PASS_DCE)));
	CHECK(opt_parse_passes("fold,licm", &m, &err) == JP_EINPUT &&
	      strstr(err.msg, "'licm'") && strstr(err.msg, "simplify"));
	CHECK(opt_parse_passes("", &m, &err) == JP_EINPUT);
	CHECK(opt_parse_bugs("neg-minint,pow2-div", &m, &err) == JP_OK &&
	      m == ((UINT64_C(1) << OPT_BUG_NEG_MININT) |
		    (UINT64_C(1) << OPT_BUG_POW2_DIV)));
	CHECK(opt_parse_bugs("none", &m, &err) == JP_OK && m == 0);
	CHECK(opt_parse_bugs("neg-max", &m, &err) == JP_EINPUT &&
	      strstr(err.msg, "add-wrap-bounds"));
	CHECK(!strcmp(opt_pass_name(OPT_PASS_BOUNDS), "bounds"));
	CHECK(!strcmp(opt_bug_name(OPT_BUG_OVF_CSE), "ovf-cse"));
	CHECK(strlen(opt_bug_desc(OPT_BUG_OVF_CSE)) > 10);
	/* No pass: a copy. */
	const char *src = "[i0]\n"
			  "i1 = int_add(i0, 0)\n"
			  "i2 = int_add(3, 4)\n"
			  "guard_value(i1, 5) [i2]\n"
			  "finish(i1, i2)\n";
	EXPECT_OPT_P("none", src,
		     "[i0]\n"
		     "i1 = int_add(i0, 0)\n"
		     "i2 = int_add(3, 4)\n"
		     "guard_value(i1, 5, descr=g0) [i2]\n"
		     "finish(i1, i2)\n");
}

static void test_stats_and_input_untouched(void)
{
	const char *src = "[i0]\n"
			  "i1 = int_add(2, 3)\n"  /* fold */
			  "i2 = int_mul(i0, 1)\n" /* simplify */
			  "i3 = int_and(i0, 255)\n"
			  "i4 = int_lt(i3, 256)\n" /* bounds */
			  "guard_true(i4)\n" /* bounds (no longer a guard) */
			  "i5 = int_and(i0, 255)\n" /* cse */
			  "i6 = int_add(i0, i1)\n"
			  "i7 = int_sub(i0, 1)\n" /* dce */
			  "finish(i2, i5, i6)\n";
	ir_trace *t = tu_parse(src, 64);
	char *before = t ? tu_print(t) : NULL;
	opt_stats st;
	ir_trace *o = t ? tu_opt(t, NULL, NULL, &st) : NULL;
	char *after = t ? tu_print(t) : NULL;
	CHECK(before && after && !strcmp(before, after));
	CHECK(o && st.ops_in == 8 && st.guards_in == 1);
	CHECK(o && st.guards_out == 0 && st.ops_out == 2);
	CHECK(st.removed[OPT_PASS_FOLD] == 2); /* i1, guard_true(1) */
	CHECK(st.removed[OPT_PASS_SIMPLIFY] == 1);
	CHECK(st.removed[OPT_PASS_BOUNDS] == 1);
	CHECK(st.removed[OPT_PASS_CSE] == 1);
	CHECK(st.removed[OPT_PASS_DCE] == 1);
	free(before);
	free(after);
	ir_trace_free(t);
	ir_trace_free(o);
}

/* Every width is handled: constants wrap at the trace's width. */
static void test_widths(void)
{
	EXPECT_OPT_W(8,
		     "[i0]\n"
		     "i1 = int_add(i0, 100)\n"
		     "i2 = int_add(i1, 100)\n"
		     "i3 = int_mul(i0, -128)\n"
		     "finish(i2, i3)\n",
		     "[i0]\n"
		     "i2 = int_add(i0, -56)\n"
		     "i3 = int_lshift(i0, 7)\n"
		     "finish(i2, i3)\n");
	EXPECT_OPT_W(16,
		     "[i0]\n"
		     "i1 = int_and(i0, 255)\n"
		     "i2 = int_lt(i1, 256)\n"
		     "guard_true(i2)\n"
		     "i3 = int_py_div(i1, 256)\n"
		     "finish(i3)\n",
		     "[i0]\nfinish(0)\n");
}

int main(void)
{
	test_provenance();
	test_heap_copied();
	test_names();
	test_failing_guard_ends_trace();
	test_dce();
	test_pass_selection();
	test_stats_and_input_untouched();
	test_widths();
	return check_summary("test_opt_framework");
}
