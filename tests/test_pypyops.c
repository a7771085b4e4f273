/* ir/pypyops: the PyPy vocabulary table, and how the parser reads each
 * kind of entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/parse.h"
#include "ir/pypyops.h"

/* The table is consistent: unique names, none that ops.def already has,
 * aliases name a real op of the same result kind, kinds are i/r/v. */
static void test_table(void)
{
	size_t n = ir_pyop_count();
	CHECK(n > 100);
	for (size_t i = 0; i < n; i++) {
		const ir_pyop *p = ir_pyop_at(i);
		size_t len = strlen(p->name);
		CHECK(ir_opcode_by_name(p->name, len) < 0);
		CHECK(ir_pyop_find(p->name, len) == p);
		CHECK(p->kind == 'i' || p->kind == 'r' || p->kind == 'v');
		if (p->act == IR_PY_ALIAS) {
			CHECK(p->target >= 0 && p->target < IR_OPCODE_COUNT);
			if (p->target >= 0 && p->target < IR_OPCODE_COUNT)
				CHECK(ir_opinfos[p->target].result == p->kind);
		} else {
			CHECK(p->target == IR_NO_OP);
		}
	}
	CHECK(ir_pyop_at(n) == NULL);
	CHECK(ir_pyop_find("int_add", 7) == NULL);
	CHECK(ir_pyop_find("bogus", 5) == NULL);
	/* the ops named by issue 26 are all there */
	static const char *named[] = {"getarrayitem_gc_r",
				      "assert_not_none",
				      "guard_not_invalidated",
				      "guard_nonnull_class",
				      "instance_ptr_eq",
				      "call_pure_i",
				      "quasiimmut_field",
				      "leave_portal_frame",
				      "new_array_clear",
				      "call_r",
				      "setarrayitem_gc",
				      "arraylen_gc",
				      "newstr",
				      "float_add",
				      "call_may_force_i",
				      "call_release_gil_n",
				      "call_assembler_r",
				      "cond_call",
				      "guard_not_forced",
				      "guard_no_exception",
				      "guard_exception",
				      "record_exact_class",
				      "force_token",
				      "virtual_ref",
				      "virtual_ref_finish",
				      "enter_portal_frame",
				      "increment_debug_counter",
				      "keepalive",
				      "zero_array",
				      "strlen",
				      "strgetitem",
				      "strsetitem",
				      "copystrcontent",
				      "same_as_r",
				      "instance_ptr_ne",
				      "getarrayitem_gc_pure_i"};
	for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
		/* (array items are ops.def ops now) */
		bool found = ir_pyop_find(named[i], strlen(named[i])) != NULL ||
			     ir_opcode_by_name(named[i], strlen(named[i])) >= 0;
		if (!found)
			fprintf(stderr, "  missing: %s\n", named[i]);
		CHECK(found);
	}
}

static ir_trace *parse(const char *text, bool opaque, jp_err *e)
{
	ir_parse_opts o = {.width = 64, .opaque = opaque, .file = "t"};
	ir_trace *t = NULL;
	jp_err_clear(e);
	ir_parse(text, strlen(text), &o, &t, e);
	return t;
}

/* The trace "[p0, i1]", OP, "finish()" (opaque ops allowed), or NULL. */
static ir_trace *one_op(const char *op)
{
	char text[256];
	snprintf(text, sizeof text, "[p0, i1]\n%s\nfinish()\n", op);
	jp_err e;
	return parse(text, true, &e);
}

/* Reinterpreting a float's bits as a longlong and back is the identity:
 * a float is its bit pattern (these were opaque calls, each a call
 * event, so a float list read made every heap pair unknown). */
static void test_float_bytes(void)
{
	jp_err e;
	ir_trace *t = parse("[i0]\n"
			    "f1 = convert_longlong_bytes_to_float(i0)\n"
			    "i2 = convert_float_bytes_to_longlong(f1)\n"
			    "finish(i2)\n",
			    true, &e);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(t->nops == 1 && t->ops[0].opc == IR_FINISH &&
	      t->ops[0].nargs == 1 && t->ops[0].args[0] == t->inputs[0]);
	ir_trace_free(t);
}

static void test_reading(void)
{
	jp_err e;
	const char *text =
	    "[p0, p1, i2]\n"
	    "assert_not_none(p0)\n"
	    "quasiimmut_field(ConstPtr(ptr3), descr=<QuasiImmutDescr>)\n"
	    "guard_not_invalidated(descr=<Guard0x1>) [p0]\n"
	    "p4 = same_as_r(p1)\n"
	    "i5 = instance_ptr_eq(p4, p0)\n"
	    "guard_false(i5)\n"
	    "guard_nonnull_class(p0, ConstClass(W_Int), descr=<Guard0x2>)\n"
	    "p6 = getarrayitem_gc_r(p1, 0, descr=<ArrayP 8>)\n"
	    "i7 = call_pure_i(ConstClass(f), i2, descr=<Calli 8 i EF=0>)\n"
	    "f8 = float_add(i2, 0.5)\n"
	    "jump(p0, p6, i7, descr=TargetToken(5))\n";
	/* without the PyPy vocabulary: an error naming the op and the way */
	ir_trace *t = parse(text, false, &e);
	CHECK(t == NULL && e.line == 2 &&
	      strstr(e.msg, "unknown operation 'assert_not_none'") &&
	      strstr(e.msg, "--opaque"));
	t = parse(text, true, &e);
	CHECK(t != NULL);
	if (!t) {
		fprintf(stderr, "  %d:%d %s\n", e.line, e.col, e.msg);
		return;
	}
	/* dropped: assert_not_none, quasiimmut_field, guard_not_invalidated;
	 * same_as_r is a copy: instance_ptr_eq reads p1 itself */
	CHECK(t->ops[0].opc == IR_PTR_EQ);
	CHECK(t->ops[0].args[0] == t->inputs[1]);
	CHECK(t->ops[1].opc == IR_GUARD_FALSE);
	CHECK(t->ops[2].opc == IR_GUARD_NONNULL &&
	      t->ops[2].args[0] == t->inputs[0]);
	CHECK(t->ops[3].opc == IR_GUARD_CLASS &&
	      t->ops[3].args[0] == t->inputs[0]);
	/* an array item at a constant index is an item op like any other */
	CHECK(t->ops[4].opc == IR_GETARRAYITEM_GC_R);
	CHECK(!strcmp(ir_strtext(t, t->ops[4].descr), "<ArrayP 8>"));
	CHECK(t->ops[5].opc == IR_OPAQUE && t->ops[5].kind == 'i');
	CHECK(t->ops[6].opc == IR_OPAQUE && t->ops[6].kind == 'i');
	CHECK(t->ops[7].opc == IR_JUMP);
	CHECK(t->nops == 8);
	ir_trace_free(t);
	/* arrays: allocation with its length, length, item at a variable
	 * index, item stored at a constant index: the same item ops */
	t = parse("[p0, i1]\n"
		  "p2 = new_array_clear(i1, descr=<ArrayS 8>)\n"
		  "i3 = arraylen_gc(p2, descr=<ArrayS 8>)\n"
		  "i4 = getarrayitem_gc_i(p0, i1, descr=<ArrayS 8>)\n"
		  "setarrayitem_gc(p2, 3, i4, descr=<ArrayS 8>)\n"
		  "finish(i3)\n",
		  true, &e);
	CHECK(t != NULL);
	if (!t) {
		fprintf(stderr, "  %d:%d %s\n", e.line, e.col, e.msg);
		return;
	}
	CHECK(t->nops == 6);
	CHECK(t->ops[0].opc == IR_NEW &&
	      !strcmp(ir_strtext(t, t->ops[0].descr), "<ArrayS 8>"));
	CHECK(t->ops[1].opc == IR_SETFIELD_GC &&
	      t->ops[1].args[0] == t->ops[0].result &&
	      t->ops[1].args[1] == t->inputs[1] &&
	      !strcmp(ir_strtext(t, t->ops[1].descr), "<ArrayS 8>.length"));
	CHECK(t->ops[2].opc == IR_GETFIELD_GC_I &&
	      !strcmp(ir_strtext(t, t->ops[2].descr), "<ArrayS 8>.length"));
	CHECK(t->ops[3].opc == IR_GETARRAYITEM_GC_I &&
	      t->ops[3].args[1] == t->inputs[1] &&
	      !strcmp(ir_strtext(t, t->ops[3].descr), "<ArrayS 8>"));
	CHECK(t->ops[4].opc == IR_SETARRAYITEM_GC && t->ops[4].nargs == 3 &&
	      t->ops[4].args[2] == t->ops[3].result &&
	      !strcmp(ir_strtext(t, t->ops[4].descr), "<ArrayS 8>"));
	ir_trace_free(t);
	/* strings and unicode: no descr in the log, "<str>" / "<unicode>";
	 * interior fields: an item of their own descr; _f and _pure reads
	 * are the same item reads */
	t = parse(
	    "[p0, i1, p5]\n"
	    "p2 = newstr(i1)\n"
	    "i3 = strlen(p0)\n"
	    "i4 = strgetitem(p0, i1)\n"
	    "strsetitem(p2, 0, i4)\n"
	    "i6 = unicodegetitem(p5, 2)\n"
	    "p7 = getinteriorfield_gc_r(p5, i1, descr=<InteriorFieldDescr "
	    "<FieldP dictentry.key 8>>)\n"
	    "setinteriorfield_gc(p5, i1, p7, descr=<InteriorFieldDescr "
	    "<FieldP dictentry.value 16>>)\n"
	    "i8 = getarrayitem_gc_pure_i(p0, 1, descr=<ArrayS 8>)\n"
	    "f9 = getarrayitem_gc_f(p0, 1, descr=<ArrayF 8>)\n"
	    "finish(i3)\n",
	    true, &e);
	CHECK(t != NULL);
	if (!t) {
		fprintf(stderr, "  %d:%d %s\n", e.line, e.col, e.msg);
		return;
	}
	CHECK(t->nops == 11);
	CHECK(t->ops[0].opc == IR_NEW &&
	      !strcmp(ir_strtext(t, t->ops[0].descr), "<str>"));
	CHECK(t->ops[1].opc == IR_SETFIELD_GC &&
	      !strcmp(ir_strtext(t, t->ops[1].descr), "<str>.length"));
	CHECK(t->ops[2].opc == IR_GETFIELD_GC_I &&
	      !strcmp(ir_strtext(t, t->ops[2].descr), "<str>.length"));
	CHECK(t->ops[3].opc == IR_GETARRAYITEM_GC_I &&
	      !strcmp(ir_strtext(t, t->ops[3].descr), "<str>"));
	CHECK(t->ops[4].opc == IR_SETARRAYITEM_GC &&
	      !strcmp(ir_strtext(t, t->ops[4].descr), "<str>"));
	CHECK(t->ops[5].opc == IR_GETARRAYITEM_GC_I &&
	      !strcmp(ir_strtext(t, t->ops[5].descr), "<unicode>"));
	CHECK(t->ops[6].opc == IR_GETARRAYITEM_GC_R &&
	      strstr(ir_strtext(t, t->ops[6].descr), "dictentry.key"));
	CHECK(t->ops[7].opc == IR_SETARRAYITEM_GC &&
	      strstr(ir_strtext(t, t->ops[7].descr), "dictentry.value"));
	CHECK(t->ops[8].opc == IR_GETARRAYITEM_GC_I);
	CHECK(t->ops[9].opc == IR_GETARRAYITEM_GC_I && t->ops[9].kind == 'i');
	ir_trace_free(t);
	/* strhash reads the cached hash, a field "<str>.hash" (no call) */
	t = parse("[p0, p1]\ni2 = strhash(p0)\ni3 = unicodehash(p1)\n"
		  "finish(i2, i3)\n",
		  true, &e);
	CHECK(t != NULL && t->nops == 3);
	if (t) {
		CHECK(t->ops[0].opc == IR_GETFIELD_GC_I &&
		      t->ops[0].args[0] == t->inputs[0] &&
		      !strcmp(ir_strtext(t, t->ops[0].descr), "<str>.hash"));
		CHECK(
		    t->ops[1].opc == IR_GETFIELD_GC_I &&
		    !strcmp(ir_strtext(t, t->ops[1].descr), "<unicode>.hash"));
	}
	ir_trace_free(t);
	/* an array op without its descr, or with a wrong arity: an error */
	t = parse("[p0, i1]\ni2 = getarrayitem_gc_pure_i(p0, i1)\n"
		  "finish(i2)\n",
		  true, &e);
	CHECK(t == NULL && e.line == 2 && strstr(e.msg, "expected descr="));
	ir_trace_free(t);
	t = parse("[p0, i1]\ni2 = strgetitem(p0)\nfinish(i2)\n", true, &e);
	CHECK(t == NULL && e.line == 2 &&
	      strstr(e.msg, "takes 2 arguments, found 1"));
	ir_trace_free(t);
	/* the length field prints as <D>.length and reads back as it */
	t = parse("[p0]\ni1 = getfield_gc_i(p0, descr=<ArrayS 8>.length)\n"
		  "finish(i1)\n",
		  false, &e);
	CHECK(t != NULL && t->nops == 2 &&
	      !strcmp(ir_strtext(t, t->ops[0].descr), "<ArrayS 8>.length"));
	ir_trace_free(t);
}

/* Item widths from array descrs (ir_py_item_bits): chars are unsigned
 * bytes, "<ArrayU/S N>" N bytes for N < 8, anything else a whole word. */
static void test_item_bits(void)
{
	bool sg = true;
	CHECK(ir_py_item_bits("<str>", &sg) == 8 && !sg);
	CHECK(ir_py_item_bits("<ArrayU 1>", &sg) == 8 && !sg);
	CHECK(ir_py_item_bits("<ArrayU 2>", &sg) == 16 && !sg);
	CHECK(ir_py_item_bits("<ArrayS 1>", &sg) == 8 && sg);
	CHECK(ir_py_item_bits("<ArrayS 4>", &sg) == 32 && sg);
	CHECK(ir_py_item_bits("<ArrayS 8>", &sg) == 0 && !sg);
	CHECK(ir_py_item_bits("<ArrayU 3>", &sg) == 0);
	CHECK(ir_py_item_bits("<ArrayF 4>", &sg) == 0);
	CHECK(ir_py_item_bits("<ArrayP 8>", &sg) == 0);
	CHECK(ir_py_item_bits("<unicode>", &sg) == 0);
	CHECK(ir_py_item_bits("<str>.length", &sg) == 0);
	CHECK(ir_py_item_bits("<ArrayU 1>.length", &sg) == 0);
	CHECK(ir_py_item_bits("<ArrayU 1", &sg) == 0);
	CHECK(ir_py_item_bits("<ArrayU ", &sg) == 0);
	CHECK(ir_py_item_bits("7", &sg) == 0);
	CHECK(ir_py_item_bits(NULL, &sg) == 0);
}

/* What the descrs state (ir_pycall_of, ir_py_extraeffect,
 * ir_py_field_immutable): EF=0 calls with integer arguments are pure,
 * EF=1 ones with constant arguments loop-invariant whatever the op name,
 * force_token the frame; everything else stays opaque. */
static void test_descr_guarantees(void)
{
	CHECK(ir_py_extraeffect("<Calli 8 ii EF=0 OS=14>") == 0);
	CHECK(ir_py_extraeffect("<Callv 0 rriii EF=2 OS=1>") == 2);
	CHECK(ir_py_extraeffect("<Callr 8 i EF=12>") == 12);
	CHECK(ir_py_extraeffect("<Loop1>") == -1);
	CHECK(ir_py_extraeffect("<Calli 8 i EF=>") == -1);
	CHECK(ir_py_field_immutable("<FieldS W_IntObject.inst_intval 8 pure>"));
	CHECK(!ir_py_field_immutable("<FieldS W_IntObject.inst_intval 8>"));
	CHECK(!ir_py_field_immutable("<ArrayP 8 pure>[0]"));
	CHECK(!ir_py_field_immutable("pure"));
	CHECK(ir_py_items_immutable("<str>"));
	CHECK(ir_py_items_immutable("<unicode>[3]"));
	CHECK(!ir_py_items_immutable("<str>.length"));
	CHECK(!ir_py_items_immutable("<ArrayU 1>[0]"));
	CHECK(!ir_py_items_immutable("<strx>"));
	/* fields a call keeps: listed by name after " keeps=", and every
	 * field for the guards on the last call's exception or frame */
	const char *kd = "<Calli 8 rri EF=5 OS=4 keeps=a.D.inst_s,a.D.inst_t>";
	CHECK(ir_py_call_keeps("call_i", kd, "<FieldP a.D.inst_s 16>"));
	CHECK(ir_py_call_keeps("call_i", kd, "<FieldS a.D.inst_t 8 pure>"));
	CHECK(!ir_py_call_keeps("call_i", kd, "<FieldP a.D.inst_st 16>"));
	CHECK(!ir_py_call_keeps("call_i", kd, "<FieldP a.D.inst_ 16>"));
	CHECK(!ir_py_call_keeps("call_i", kd, "<ArrayP 8>"));
	CHECK(!ir_py_call_keeps("call_i", "<Calli 8 rri EF=5>",
				"<FieldP a.D.inst_s 16>"));
	/* the items of an array descr, every item alike, not its length
	 * and not another descr's items */
	const char *ki = "<Calli 8 rri EF=5 keeps=a.D.inst_s,ArrayS8[]>";
	char tok[16];
	CHECK(ir_py_items_token("<ArrayS 8>", tok, sizeof tok) &&
	      !strcmp(tok, "ArrayS8[]"));
	CHECK(ir_py_items_token("<ArrayU 1>[3]", tok, sizeof tok) &&
	      !strcmp(tok, "ArrayU1[]"));
	CHECK(!ir_py_items_token("<ArrayS 8>.length", tok, sizeof tok));
	CHECK(!ir_py_items_token("<FieldP a.D.inst_s 16>", tok, sizeof tok));
	CHECK(!ir_py_items_token("<ArrayS 8>", tok, 4)); /* no room */
	CHECK(ir_py_call_keeps("call_i", ki, "<ArrayS 8>"));
	CHECK(ir_py_call_keeps("call_i", ki, "<ArrayS 8>[5]"));
	CHECK(ir_py_call_keeps("call_i", ki, "<FieldP a.D.inst_s 16>"));
	CHECK(!ir_py_call_keeps("call_i", ki, "<ArrayP 8>"));
	CHECK(!ir_py_call_keeps("call_i", ki, "<ArrayS 8>.length"));
	CHECK(!ir_py_call_ignores(ki, "<ArrayS 8>"));
	/* an elidable call (EF=0, 3, 4) sees no field: not its items */
	for (int ef = 0; ef <= 5; ef++) {
		char d[48];
		snprintf(d, sizeof d, "<Calli 8 rr EF=%d OS=32>", ef);
		bool el = ef == 0 || ef == 3 || ef == 4;
		CHECK(ir_py_call_ignores(d, "<FieldP a.D.inst_s 16>") == el);
		CHECK(ir_py_call_keeps("call_i", d, "<FieldP a.D.inst_s 16>") ==
		      el);
		CHECK(!ir_py_call_ignores(d, "<ArrayU 1>"));
		/* and writes no item either */
		CHECK(ir_py_call_keeps("call_i", d, "<ArrayU 1>") == el);
	}
	/* force_virtualizable (OS=121) writes no field but vable_token, and
	 * no item; another EF=2 call may write any */
	const char *fv = "<Callv 0 r EF=2 OS=121>";
	const char *vt =
	    "<FieldP pypy.interpreter.pyframe.PyFrame.vable_token 8>";
	CHECK(ir_py_forces_vable(fv));
	CHECK(!ir_py_forces_vable("<Callv 0 r EF=2 OS=12>"));
	CHECK(!ir_py_forces_vable(NULL));
	CHECK(ir_py_call_keeps("cond_call", fv,
			       "<FieldP pypy.interpreter.pyframe.PyFrame."
			       "inst_pycode 64>"));
	CHECK(ir_py_call_keeps("cond_call", fv, "<ArrayP 8>"));
	CHECK(!ir_py_call_keeps("cond_call", fv, vt));
	CHECK(!ir_py_call_keeps("cond_call", "<Callv 0 r EF=2>",
				"<FieldP a.D.inst_s 16>"));
	CHECK(!ir_py_call_keeps("call_i", NULL, "<FieldP a.D.inst_s 16>"));
	CHECK(ir_py_call_keeps("guard_no_exception", NULL, "<FieldP x.X.y 8>"));
	CHECK(ir_py_call_keeps("guard_not_forced", NULL, "<ArrayP 8>"));
	static const struct {
		const char *op;
		ir_pycall want;
	} cases[] = {
	    {"i2 = call_pure_i(ConstClass(f), i1, 2, descr=<Calli 8 ii EF=0 "
	     "OS=14>)",
	     IR_PYCALL_PURE},
	    {"i2 = call_i(ConstClass(f), i1, descr=<Calli 8 i EF=0>)",
	     IR_PYCALL_PURE},
	    /* can raise: opaque */
	    {"i2 = call_pure_i(ConstClass(f), i1, descr=<Calli 8 i EF=4>)",
	     IR_PYCALL_OPAQUE},
	    {"i2 = call_i(ConstClass(f), i1, descr=<Calli 8 i EF=5>)",
	     IR_PYCALL_OPAQUE},
	    /* a reference argument, a reference result: opaque */
	    {"i2 = call_pure_i(ConstClass(f), p0, descr=<Calli 8 r EF=0>)",
	     IR_PYCALL_OPAQUE},
	    {"p2 = call_pure_r(ConstClass(f), i1, descr=<Callr 8 i EF=0>)",
	     IR_PYCALL_OPAQUE},
	    /* no function constant: opaque */
	    {"i2 = call_pure_i(i1, descr=<Calli 8 i EF=0>)", IR_PYCALL_OPAQUE},
	    {"p2 = call_loopinvariant_r(ConstClass(tl), 64, descr=<Callr 8 i "
	     "EF=1 OS=5>)",
	     IR_PYCALL_LOOPINV},
	    {"p2 = call_r(ConstClass(tl), 64, descr=<Callr 8 i EF=1 OS=5>)",
	     IR_PYCALL_LOOPINV},
	    /* a variable argument: opaque */
	    {"p2 = call_loopinvariant_r(ConstClass(tl), i1, descr=<Callr 8 i "
	     "EF=1>)",
	     IR_PYCALL_OPAQUE},
	    {"p2 = force_token()", IR_PYCALL_FRAME},
	    {"p2 = virtual_ref(p0, 0)", IR_PYCALL_OPAQUE},
	    {"i2 = int_add(i1, 1)", IR_PYCALL_OPAQUE},
	    {"copystrcontent(p0, p0, i1, 0, i1)", IR_PYCALL_STRCOPY},
	    {"copyunicodecontent(p0, p0, 0, i1, 2)", IR_PYCALL_STRCOPY},
	    {"copystrcontent(p0, i1, i1, 0, i1)", IR_PYCALL_OPAQUE},
	    {"copystrcontent(p0, p0, i1, 0)", IR_PYCALL_OPAQUE},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ir_trace *t = one_op(cases[i].op);
		CHECK(t != NULL);
		if (!t)
			continue;
		if (ir_pycall_of(t, &t->ops[0]) != cases[i].want)
			fprintf(stderr, "  case %zu: %s\n", i, cases[i].op);
		CHECK(ir_pycall_of(t, &t->ops[0]) == cases[i].want);
		ir_trace_free(t);
	}
}

/* The conditional calls and the plain call each one makes. */
static void test_cond_calls(void)
{
	static const struct {
		const char *op;
		ir_pycond kind;
		const char *event;
		uint32_t first;
	} cases[] = {
	    {"cond_call(i1, ConstClass(f), p0, descr=<Callv 0 r EF=2>)",
	     IR_PYCOND_CALL, "call_n", 1},
	    {"i2 = cond_call_value_i(i1, ConstClass(f), p0, descr=<Calli 8 r "
	     "EF=5>)",
	     IR_PYCOND_VALUE, "call_i", 1},
	    {"p2 = cond_call_value_r(p0, ConstClass(f), i1, descr=<Callr 8 i "
	     "EF=5>)",
	     IR_PYCOND_VALUE, "call_r", 1},
	    {"call_n(ConstClass(f), p0, descr=<Callv 0 r EF=5>)",
	     IR_PYCOND_NONE, "call_n", 0},
	    {"cond_call_gc_wb(p0, descr=<WriteBarrierDescr>)", IR_PYCOND_NONE,
	     NULL, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ir_trace *t = one_op(cases[i].op);
		CHECK(t != NULL);
		if (!t)
			continue;
		const ir_op *op = &t->ops[0];
		CHECK(t->nops == 1 || ir_py_cond_of(t, op) == cases[i].kind);
		if (cases[i].event) {
			uint32_t first = 9;
			const char *ev = ir_py_call_event(t, op, &first);
			CHECK(!strcmp(ev, cases[i].event));
			CHECK(first == cases[i].first);
		}
		ir_trace_free(t);
	}
	CHECK(ir_py_cond_calls(IR_PYCOND_CALL, 2));
	CHECK(!ir_py_cond_calls(IR_PYCOND_CALL, 0));
	CHECK(ir_py_cond_calls(IR_PYCOND_VALUE, 0));
	CHECK(!ir_py_cond_calls(IR_PYCOND_VALUE, 7));
}

/* A string's hash (IR_PYCALL_CACHED) is a function of the string, its
 * guard_no_exception passes (IR_PYCALL_NOEXC), also after a store the
 * optimizer delayed past it; another cond_call_value and the guard after
 * it, or after another call, stay opaque. */
static void test_cached_hash(void)
{
	jp_err e;
	ir_trace *t = parse("[p0, i1]\n"
			    "i2 = cond_call_value_i(i1, "
			    "ConstClass(_ll_strhash__rpy_stringPtr), "
			    "p0, descr=<Calli 8 r EF=5>)\n"
			    "setfield_gc(p0, i2, descr=<FieldS a.B.c 8>)\n"
			    "guard_no_exception()\n"
			    "i3 = cond_call_value_i(i1, ConstClass(f), p0, "
			    "descr=<Calli 8 r EF=5>)\n"
			    "guard_no_exception()\n"
			    "finish(i3)\n",
			    true, &e);
	CHECK(t != NULL);
	if (!t)
		return;
	static const ir_pycall want[] = {IR_PYCALL_CACHED, IR_PYCALL_OPAQUE,
					 IR_PYCALL_NOEXC,  IR_PYCALL_OPAQUE,
					 IR_PYCALL_OPAQUE, IR_PYCALL_OPAQUE};
	CHECK(t->nops == 6);
	for (uint32_t i = 0; i < t->nops && i < 6; i++)
		CHECK(ir_pycall_of(t, &t->ops[i]) == want[i]);
	uint32_t first = 0;
	CHECK(!strcmp(ir_pycall_fn(t, &t->ops[0], &first),
		      "_ll_strhash__rpy_stringPtr"));
	CHECK(first == 2);
	ir_trace_free(t);
}

/* The string helpers PyPy's optimizer takes apart need their string
 * arguments non-NULL (ir_py_needs_nonnull); OS_STR_EQUAL accepts NULL,
 * integer arguments and the function never count. */
static void test_string_args_nonnull(void)
{
	static const struct {
		const char *op;
		bool need[4]; /* per argument */
	} cases[] = {
	    {"p2 = call_r(ConstClass(cat), p0, p0, descr=<Callr 8 rr EF=3 "
	     "OS=22>)",
	     {false, true, true, false}},
	    {"p2 = call_r(ConstClass(sl), p0, i1, i1, descr=<Callr 8 rii EF=3 "
	     "OS=43>)",
	     {false, true, false, false}},
	    {"i2 = call_i(ConstClass(eq), p0, p0, descr=<Calli 1 rr EF=0 "
	     "OS=24>)",
	     {false, false, false, false}},
	    {"i2 = call_i(ConstClass(eq), p0, i1, descr=<Calli 1 ri EF=0 "
	     "OS=29>)",
	     {false, true, false, false}},
	    {"p2 = call_r(ConstClass(f), p0, descr=<Callr 8 r EF=5>)",
	     {false, false, false, false}},
	};
	/* Which of them make a string (ir_py_returns_string). */
	static const bool makes[] = {true, true, false, false, false};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ir_trace *t = one_op(cases[i].op);
		CHECK(t != NULL);
		if (!t)
			continue;
		for (uint32_t j = 0; j < 4; j++)
			CHECK(ir_py_needs_nonnull(t, &t->ops[0], j) ==
			      cases[i].need[j]);
		CHECK(ir_py_returns_string(t, &t->ops[0]) == makes[i]);
		ir_trace_free(t);
	}
}

/* What a call event sees is its descr's; a guard on what the previous
 * call left sees what that call saw (ir_py_seen_descr). */
static void test_seen_descr(void)
{
	jp_err e;
	ir_trace *t =
	    parse("[p0]\n"
		  "call_n(ConstClass(f), p0, descr=<Callv 0 r EF=5 "
		  "ignores=a.B.c>)\n"
		  "guard_no_exception()\n"
		  "i1 = int_add(1, 2)\n"
		  "guard_no_exception()\n"
		  "call_n(ConstClass(g), p0, descr=<Callv 0 r EF=5>)\n"
		  "finish()\n",
		  true, &e);
	CHECK(t != NULL);
	if (!t)
		return;
	for (uint32_t i = 0; i < 4; i++) {
		const char *d = ir_py_seen_descr(t, &t->ops[i]);
		if (i == 2)
			continue;
		CHECK(d && strstr(d, "ignores=a.B.c"));
	}
	const char *g = ir_py_seen_descr(t, &t->ops[4]);
	CHECK(g && !strstr(g, "ignores="));
	ir_trace_free(t);
	t = parse("[p0]\nguard_no_exception()\nfinish()\n", true, &e);
	CHECK(t && ir_py_seen_descr(t, &t->ops[0]) == NULL);
	ir_trace_free(t);
}

int main(void)
{
	test_seen_descr();
	test_string_args_nonnull();
	test_cond_calls();
	test_cached_hash();
	test_table();
	test_descr_guarantees();
	test_item_bits();
	test_reading();
	test_float_bytes();
	return check_summary("test_pypyops");
}
