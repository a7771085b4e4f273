/* ir/pypylog_consts.c: the classes a pair takes its ConstPtrs not to
 * have, because the optimized trace folded their instance comparisons,
 * and the heap model's use of them (verify/heap_classes.c); the one-char
 * strings it takes them to be. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"
#include "test_heap_util.h"
#include "test_pypylog_util.h"
#include "verify/check.h"

/* A bridge whose original compares ConstPtr(ptr1) with its input as
 * instances; BEFORE and AFTER go before and after the comparison, OPT is
 * the optimized bridge's body (its ops numbered from +1). */
static void make_log(char *buf, size_t cap, const char *cmp, const char *before,
		     const char *after, const char *opt)
{
	snprintf(buf, cap,
		 "[1] {jit-log-noopt\n"
		 "[p0]\n"
		 "%s"
		 "i1 = %s(ConstPtr(ptr1), p0)\n"
		 "guard_false(i1)\n"
		 "%s"
		 "finish(p0)\n"
		 "[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f0a with 3 ops\n"
		 "[p10]\n"
		 "%s"
		 "+9: finish(p10)\n"
		 "[4] jit-log-opt-bridge}\n",
		 before, cmp, after, opt);
}

static const char *const GC0 = "guard_class(p0, ConstClass(W_A))\n";
static const char *const GC10 =
    "+1: guard_class(p10, ConstClass(W_A), descr=<Guard0x1>) [p10]\n";

/* The descr of the original's first comparison, or "" without one (the
 * front end may put facts before it). */
static const char *cmp_descr(const pl_pair *p)
{
	for (uint32_t i = 0; i < p->orig->nops; i++) {
		const ir_op *op = &p->orig->ops[i];
		if (op->opc == IR_PTR_EQ)
			return op->descr ? ir_strtext(p->orig, op->descr) : "";
	}
	return "no comparison";
}

/* Folded: the class a guard_class gave the input before the comparison,
 * none of the optimized trace's comparisons with the constant left. */
static void test_folded(void)
{
	char text[1200];
	make_log(text, sizeof text, "instance_ptr_eq", GC0, "", GC10);
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	CHECK(p->nclasses == 1);
	CHECK(!strcmp(cmp_descr(p), "<not-class=W_A>"));
	pl_free(&log);
	pl_opts o = {.consts_unknown = true};
	p = read_pair_opts(text, &o, 1, 0, &log);
	CHECK(p && p->nclasses == 0 && !strcmp(cmp_descr(p), ""));
	pl_free(&log);
}

/* Not taken: a plain ptr_eq (PyPy folds it by classes never); the class
 * known only after the comparison; a comparison the optimized trace
 * keeps; a constant whose class the traces pin (guard_value of the input
 * to it, or a guard_class on it). */
static void test_not_taken(void)
{
	struct {
		const char *cmp, *before, *after, *opt;
	} cases[] = {
	    {"ptr_eq", GC0, "", GC10},
	    {"instance_ptr_eq", "", GC0, GC10},
	    {"instance_ptr_eq", GC0, "",
	     "+1: i11 = instance_ptr_eq(ConstPtr(ptr5), p10)\n"
	     "+2: guard_false(i11, descr=<Guard0x1>) [p10]\n"},
	    {"instance_ptr_eq", GC0, "guard_value(p0, ConstPtr(ptr1))\n", GC10},
	    {"instance_ptr_eq", GC0,
	     "guard_class(ConstPtr(ptr1), ConstClass(W_B))\n", GC10},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1400];
		make_log(text, sizeof text, cases[i].cmp, cases[i].before,
			 cases[i].after, cases[i].opt);
		pl_log log;
		const pl_pair *p = read_pair(text, 1, 0, &log);
		if (!p)
			continue;
		CHECK(p->nclasses == 0);
		CHECK(!strcmp(cmp_descr(p), ""));
		pl_free(&log);
	}
}

/* The heap model takes "<not-class=C>" as type(K) != C: the pair whose
 * optimized trace drops the comparison is proved with it, refuted
 * without it (the input may be the constant). */
static void test_heap_model(void)
{
	const char *orig_fmt =
	    "[p0]\n"
	    "guard_class(p0, ConstClass(W_A))\n"
	    "i1 = instance_ptr_eq(ConstPtr(k), p0%s)\n"
	    "guard_false(i1)\n"
	    "i2 = getfield_gc_i(p0, descr=<FieldS m.A.inst_x 8>)\n"
	    "finish(i2)\n";
	const char *opt_text =
	    "[p0]\n"
	    "guard_class(p0, ConstClass(W_A))\n"
	    "i2 = getfield_gc_i(p0, descr=<FieldS m.A.inst_x 8>)\n"
	    "finish(i2)\n";
	for (int with = 0; with < 2; with++) {
		char orig_text[600];
		snprintf(orig_text, sizeof orig_text, orig_fmt,
			 with ? ", descr=<not-class=W_A>" : "");
		ir_trace *o = parse(orig_text), *p = parse(opt_text);
		CHECK(o && p);
		ver_opts vo = ver_default_opts();
		vo.isolate = false;
		ver_result r;
		jp_err e;
		bool ok = o && p && ver_check(C, o, p, &vo, &r, &e) == JP_OK;
		CHECK(ok);
		CHECK(ok && r.verdict == (with ? VER_PROVED : VER_REFUTED));
		if (ok)
			ver_result_free(&r);
		ir_trace_free(o);
		ir_trace_free(p);
	}
}

/* A string comparison with a constant that the optimized trace makes a
 * comparison with one char: the original's call takes the char form with
 * that char, its descr naming the constant (pl_const_strings).  Not with
 * --consts-unknown, nor when two calls show two chars for one constant. */
static void test_const_strings(void)
{
	for (int v = 0; v < 3; v++) {
		char text[1600];
		snprintf(
		    text, sizeof text,
		    "[1] {jit-log-noopt\n"
		    "[p0, p1]\n"
		    "i2 = call_i(ConstClass(ll_streq__rpy_stringPtr_rpy_"
		    "stringPtr), p0, ConstPtr(ptr3), descr=<Calli 1 rr "
		    "EF=0 OS=24>)\n"
		    "i4 = call_i(ConstClass(ll_streq__rpy_stringPtr_rpy_"
		    "stringPtr), p1, ConstPtr(ptr3), descr=<Calli 1 rr "
		    "EF=0 OS=24>)\n"
		    "finish(i2, i4)\n"
		    "[2] jit-log-noopt}\n"
		    "[3] {jit-log-opt-bridge\n"
		    "# bridge out of Guard 0x7f0f with 3 ops\n"
		    "[p10, p11]\n"
		    "+1: i12 = call_i(ConstClass(_ll_2_str_eq_nonnull_char__"
		    "rpy_stringPtr_Char), p10, 35, descr=<Calli 8 ri EF=0 "
		    "OS=29>)\n"
		    "+2: i14 = call_i(ConstClass(_ll_2_str_eq_nonnull_char__"
		    "rpy_stringPtr_Char), p11, %d, descr=<Calli 8 ri EF=0 "
		    "OS=29>)\n"
		    "+3: finish(i12, i14)\n"
		    "[4] jit-log-opt-bridge}\n",
		    v == 2 ? 36 : 35);
		pl_opts o = {.consts_unknown = v == 1};
		pl_log log;
		const pl_pair *p = read_pair_opts(text, &o, 1, 0, &log);
		if (p) {
			bool taken = v == 0;
			const ir_trace *t = p->orig;
			CHECK(p->nstrs == (taken ? 1u : 0u));
			for (uint32_t i = 0; i < 2; i++) {
				const ir_op *op = &t->ops[i];
				CHECK(
				    !strcmp(ir_valname(t, op->args[0]),
					    taken ? "str_eq_char" : "str_eq"));
				CHECK(!taken ||
				      (ir_val(t, op->args[2])->cval == 35 &&
				       strstr(ir_strtext(t, op->descr),
					      "const-str=")));
			}
		}
		pl_free(&log);
	}
}

/* The original concatenates s + K twice (K a ConstPtr), the optimized
 * trace writes ']' where K goes: both traces start with guard_value of
 * K's length (1) and char (93), and P->nstrs is 1.  Not with
 * --consts-unknown (V 1), not when the second write is another char
 * (V 2), not when the optimized trace writes one of the two (V 3: the
 * parts are not as many). */
static void test_const_concats(void)
{
	for (int v = 0; v < 4; v++) {
		char text[2400];
		snprintf(
		    text, sizeof text,
		    "[1] {jit-log-noopt\n"
		    "[p0, p1]\n"
		    "p2 = call_pure_r(ConstClass(ll_strconcat__rpy_stringPtr_"
		    "rpy_stringPtr), p0, ConstPtr(ptr3), descr=<Callr 8 rr "
		    "EF=3 OS=22>)\n"
		    "setarrayitem_gc(p1, 0, p2, descr=<ArrayP 8>)\n"
		    "p4 = call_pure_r(ConstClass(ll_strconcat__rpy_stringPtr_"
		    "rpy_stringPtr), p2, ConstPtr(ptr3), descr=<Callr 8 rr "
		    "EF=3 OS=22>)\n"
		    "setarrayitem_gc(p1, 1, p4, descr=<ArrayP 8>)\n"
		    "finish()\n"
		    "[2] jit-log-noopt}\n"
		    "[3] {jit-log-opt-bridge\n"
		    "# bridge out of Guard 0x7f0e with 9 ops\n"
		    "[p10, p11]\n"
		    "+1: i12 = strlen(p10)\n"
		    "+2: i13 = int_add(i12, 1)\n"
		    "+3: p14 = newstr(i13)\n"
		    "copystrcontent(p10, p14, 0, 0, i12)\n"
		    "+4: strsetitem(p14, i12, 93)\n"
		    "+5: setarrayitem_gc(p11, 0, p14, descr=<ArrayP 8>)\n"
		    "+6: i15 = int_add(i13, 1)\n"
		    "+7: p16 = newstr(i15)\n"
		    "copystrcontent(p14, p16, 0, 0, i13)\n"
		    "%s"
		    "+9: setarrayitem_gc(p11, 1, p16, descr=<ArrayP 8>)\n"
		    "+10: finish()\n"
		    "[4] jit-log-opt-bridge}\n",
		    v == 3   ? ""
		    : v == 2 ? "+8: strsetitem(p16, i13, 94)\n"
			     : "+8: strsetitem(p16, i13, 93)\n");
		pl_opts o = {.consts_unknown = v == 1};
		pl_log log;
		const pl_pair *p = read_pair_opts(text, &o, 1, 0, &log);
		if (p) {
			bool taken = v == 0;
			CHECK(p->nstrs == (taken ? 1u : 0u));
			const ir_trace *ts[2] = {p->orig, p->opt};
			for (int k = 0; k < 2; k++) {
				const ir_trace *t = ts[k];
				bool facts =
				    t->nops > 4 &&
				    t->ops[0].opc == IR_GETARRAYITEM_GC_I &&
				    t->ops[1].opc == IR_GUARD_VALUE &&
				    t->ops[2].opc == IR_GETFIELD_GC_I &&
				    t->ops[3].opc == IR_GUARD_VALUE;
				CHECK(facts == taken);
				CHECK(
				    !taken ||
				    (ir_val(t, t->ops[1].args[1])->cval == 93 &&
				     ir_val(t, t->ops[3].args[1])->cval == 1 &&
				     !strcmp(
					 ir_valname(t, t->ops[0].args[0]),
					 ir_valname(p->orig,
						    p->orig->ops[0].args[0]))));
			}
		}
		pl_free(&log);
	}
}

/* The original compares a one-char slice s[i:i+1] with a constant, the
 * optimized trace compares s's char i with '#' (str_eq_slice_char, which
 * the front end spells as that compare): the original's call becomes
 * the same compare, and the pair is proved.  Not with --consts-unknown (V 1),
 * nor when s may change between the slice and the comparison (V 2). */
static void test_const_slice_char(void)
{
	for (int v = 0; v < 3; v++) {
		char text[1600];
		snprintf(
		    text, sizeof text,
		    "[1] {jit-log-noopt\n"
		    "[p0, i1]\n"
		    "i2 = int_add(i1, 1)\n"
		    "p3 = call_pure_r(ConstClass(_ll_stringslice__rpy_"
		    "stringPtr_Signed_Signed), p0, i1, i2, descr=<Callr 8 rii "
		    "EF=3 OS=23>)\n"
		    "guard_no_exception()\n"
		    "%s"
		    "i4 = call_pure_i(ConstClass(ll_streq__rpy_stringPtr_rpy_"
		    "stringPtr), p3, ConstPtr(ptr5), descr=<Calli 1 rr EF=0 "
		    "OS=24>)\n"
		    "finish(i4)\n"
		    "[2] jit-log-noopt}\n"
		    "[3] {jit-log-opt-bridge\n"
		    "# bridge out of Guard 0x7f0f with 2 ops\n"
		    "[p10, i11]\n"
		    "+1: i12 = call_i(ConstClass(_ll_4_str_eq_slice_char__rpy_"
		    "stringPtr_Signed_Signed_Char), p10, i11, 1, 35, "
		    "descr=<Calli 8 riii EF=0 OS=27>)\n"
		    "+2: finish(i12)\n"
		    "[4] jit-log-opt-bridge}\n",
		    v == 2 ? "strsetitem(p0, 0, 65)\n" : "");
		pl_opts o = {.consts_unknown = v == 1};
		pl_log log;
		jp_err e;
		const pl_pair *p = read_pair_opts(text, &o, 1, 0, &log);
		if (!p) {
			pl_free(&log);
			continue;
		}
		bool taken = v == 0;
		CHECK(p->nstrs == (taken ? 1u : 0u));
		const ir_trace *t = p->orig;
		const ir_op *call = NULL;
		for (uint32_t i = 0; i < t->nops; i++)
			if (t->ops[i].opc == IR_OPAQUE &&
			    t->ops[i].nargs >= 3 &&
			    strstr(ir_valname(t, t->ops[i].args[0]), "str_eq"))
				call = &t->ops[i];
		/* Taken: the call is the char compare s[i] == '#', as the
		 * optimized trace's str_eq_slice_char is spelled
		 * (pl_str_char_compares; char_compares here). */
		uint32_t eq35 = 0;
		for (uint32_t i = 0; i < t->nops; i++)
			eq35 += t->ops[i].opc == IR_INT_EQ &&
				ir_val(t, t->ops[i].args[1])->tag ==
				    IR_VAL_CONST_INT &&
				ir_val(t, t->ops[i].args[1])->cval == 35;
		CHECK(taken ? call == NULL && eq35 == 1
			    : call != NULL && call->nargs == 3 && eq35 == 0);
		ver_opts vo = ver_default_opts();
		vo.isolate = false;
		ver_result r;
		bool ok = ver_check(C, p->orig, p->opt, &vo, &r, &e) == JP_OK;
		CHECK(ok);
		CHECK(ok && (r.verdict == VER_PROVED) == taken);
		if (ok)
			ver_result_free(&r);
		pl_free(&log);
	}
}

int main(void)
{
	jp_err err;
	C = ver_ctx_new(&err);
	CHECK(C != NULL);
	if (!C)
		return check_summary("test_pypylog_consts");
	test_folded();
	test_not_taken();
	test_heap_model();
	test_const_strings();
	test_const_concats();
	test_const_slice_char();
	ver_ctx_free(C);
	return check_summary("test_pypylog_consts");
}
