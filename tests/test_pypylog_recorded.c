/* ir/pypylog_recorded.c: what the run PyPy recorded proves about its
 * constants, which becomes guards at the start of both traces. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"
#include "test_pypylog_util.h"

/* The guard_class ops of T on a ConstPtr. */
static uint32_t const_classes(const ir_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		n += t->ops[i].opc == IR_GUARD_CLASS &&
		     ir_val(t, t->ops[i].args[0])->tag == IR_VAL_CONST_PTR;
	return n;
}

/* What the recording proves about constants: two constants the same
 * value was equal to are one object; a guard_class on a promoted value is
 * the constant's class; a guard on an immutable field read from it holds
 * of that field; nothing from a mutable field or a loop's second
 * iteration. */
static void test_recorded_facts(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, p1]\n"
	    "guard_value(p0, ConstPtr(ptr1))\n"
	    "guard_class(p0, ConstClass(D))\n"
	    "p2 = getfield_gc_r(p0, descr=<FieldP d.D.inst_s 16 pure>)\n"
	    "guard_value(p2, ConstPtr(ptr3))\n"
	    "i4 = ptr_eq(ConstPtr(ptr5), p0)\n"
	    "guard_true(i4)\n"
	    "i6 = getfield_gc_i(p0, descr=<FieldS d.D.inst_n 24 pure>)\n"
	    "guard_value(i6, 7)\n"
	    "i7 = getfield_gc_i(p0, descr=<FieldS d.D.inst_m 32>)\n"
	    "guard_value(i7, 3)\n"
	    "guard_class(p1, ConstClass(E))\n"
	    "finish(i7)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f09 with 2 ops\n"
	    "[p10, p11]\n"
	    "+1: guard_value(p10, ConstPtr(ptr11), descr=<Guard0x1>) [p10]\n"
	    "+2: i12 = getfield_gc_i(ConstPtr(ptr11), descr=<FieldS d.D.inst_m "
	    "32>)\n"
	    "+3: finish(i12)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	/* ptr1 is ptr5; ptr1's class; its field s is ptr3; its field n is 7 */
	CHECK(p->nrecorded == 4);
	const ir_trace *sides[2] = {p->orig, p->opt};
	for (int s = 0; s < 2; s++) {
		const ir_trace *t = sides[s];
		CHECK(t->nops > 8 && t->ops[0].opc == IR_PTR_EQ &&
		      t->ops[1].opc == IR_GUARD_TRUE);
		CHECK(t->ops[2].opc == IR_GUARD_CLASS &&
		      ir_val(t, t->ops[2].args[0])->tag == IR_VAL_CONST_PTR &&
		      !strcmp(ir_valname(t, t->ops[2].args[1]), "D"));
		CHECK(t->ops[3].opc == IR_GETFIELD_GC_R &&
		      t->ops[4].opc == IR_GUARD_VALUE);
		CHECK(t->ops[5].opc == IR_GETFIELD_GC_I &&
		      t->ops[6].opc == IR_GUARD_VALUE &&
		      ir_val(t, t->ops[6].args[1])->cval == 7);
	}
	/* E is the class of an input, not of a constant */
	uint32_t classes = 0;
	for (uint32_t i = 0; i < p->opt->nops; i++)
		classes += p->opt->ops[i].opc == IR_GUARD_CLASS;
	CHECK(classes == 1);
	pl_free(&log);
}

/* Whether T compares ConstPtr A with ConstPtr B (a recorded fact). */
static bool compares(const ir_trace *t, const char *a, const char *b)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_PTR_EQ || op->nargs != 2)
			continue;
		const char *x = ir_valname(t, op->args[0]);
		const char *y = ir_valname(t, op->args[1]);
		if ((strstr(x, a) && strstr(y, b)) ||
		    (strstr(x, b) && strstr(y, a)))
			return true;
	}
	return false;
}

/* Only a loop's first unrolled iteration is recorded (IR_OPF_RECORDED),
 * also in the pass after the calls' kept fields: the second one's guard
 * on p1, which is p0 there, would make ptr2 and ptr4 one object. */
static void test_recorded_loop_copy(void)
{
	const char *text = "[1] {jit-log-noopt\n"
			   "[p0, p1]\n"
			   "guard_value(p1, ConstPtr(ptr2))\n"
			   "i3 = ptr_eq(p0, ConstPtr(ptr4))\n"
			   "guard_true(i3)\n"
			   "i5 = ptr_eq(p1, ConstPtr(ptr6))\n"
			   "guard_true(i5)\n"
			   "jump(p0, p0)\n"
			   "[2] jit-log-noopt}\n"
			   "[3] {jit-log-opt-loop\n"
			   "# Loop 1 (f) : loop with 4 ops\n"
			   "[p10, p11]\n"
			   "+1: label(p10, p11, descr=TargetToken(1))\n"
			   "+2: guard_value(p11, ConstPtr(ptr12), "
			   "descr=<Guard0x1>) [p10]\n"
			   "+3: label(p10, p11, descr=TargetToken(2))\n"
			   "+4: jump(p10, p11, descr=TargetToken(2))\n"
			   "[4] jit-log-opt-loop}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	CHECK(compares(p->orig, "ptr2", "ptr6"));
	CHECK(!compares(p->orig, "ptr2", "ptr4"));
	CHECK(!compares(p->orig, "ptr4", "ptr6"));
	pl_free(&log);
}

/* A generator's frame stack, as PyPy's bridges of a generator record it
 * (the frame is no virtualizable): the constant True pushed at index
 * i1, i1 fixed by a guard_value on i1 + 1, read back at index 4 and
 * guarded by class and value.  BETWEEN goes between the push and the
 * read. */
static void stack_log(char *buf, size_t cap, const char *between,
		      const char *index_guard)
{
	snprintf(buf, cap,
		 "[1] {jit-log-noopt\n"
		 "[p0, i1, i2]\n"
		 "setarrayitem_gc(p0, i1, ConstPtr(ptr2), descr=<ArrayP 8>)\n"
		 "i3 = int_add(i1, 1)\n"
		 "%s"
		 "%s"
		 "p4 = getarrayitem_gc_r(p0, 4, descr=<ArrayP 8>)\n"
		 "setarrayitem_gc(p0, 4, NULL, descr=<ArrayP 8>)\n"
		 "guard_class(p4, ConstClass(W_BoolObject))\n"
		 "i5 = getfield_gc_i(p4, descr=<FieldS "
		 "pypy.objspace.std.intobject.W_IntObject.inst_intval 8 "
		 "pure>)\n"
		 "i6 = int_is_true(i5)\n"
		 "guard_true(i6)\n"
		 "finish(i3)\n"
		 "[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f09 with 3 ops\n"
		 "[p10, i11, i12]\n"
		 "+1: guard_value(i11, 4, descr=<Guard0x1>) [p10]\n"
		 "+2: setarrayitem_gc(p10, 4, NULL, descr=<ArrayP 8>)\n"
		 "+3: finish(5)\n"
		 "[4] jit-log-opt-bridge}\n",
		 index_guard, between);
}

/* How many facts the stack log with BETWEEN and INDEX_GUARD records: 2
 * (the constant's class, its value) or none, checked alike in both
 * traces; UINT32_MAX when it does not read. */
static uint32_t stack_facts(const char *between, const char *index_guard)
{
	char text[2048];
	stack_log(text, sizeof text, between, index_guard);
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return UINT32_MAX;
	uint32_t n = p->nrecorded;
	const ir_trace *sides[2] = {p->orig, p->opt};
	for (int s = 0; s < 2; s++) {
		const ir_trace *t = sides[s];
		CHECK(const_classes(t) == (n ? 1u : 0u));
		/* the optimized trace has no int_is_true of its own */
		CHECK(count_op(t, IR_INT_IS_TRUE) == (n ? 1u : 0u) + (s == 0));
	}
	pl_free(&log);
	return n;
}

static const char fixed[] = "guard_value(i3, 5)\n";

/* The item the trace stored at an index the run fixed (i1 + 1 == 5) is
 * the one it reads at 4: True's class and value are facts. */
static void test_stack_item(void)
{
	CHECK(stack_facts("", fixed) == 2);
	/* the same through int_eq, and through a field the index came from */
	CHECK(stack_facts("", "i7 = int_eq(i3, 5)\nguard_true(i7)\n") == 2);
	/* a store at another index the run fixed changes nothing */
	CHECK(stack_facts("setarrayitem_gc(p0, 3, NULL, descr=<ArrayP 8>)\n",
			  fixed) == 2);
	/* nor does a store of another array descr, or a field store */
	CHECK(stack_facts("setarrayitem_gc(p0, i2, NULL, descr=<ArrayS 8>)\n"
			  "setfield_gc(p0, 0, descr=<FieldS f.F.inst_x 8>)\n",
			  fixed) == 2);
}

/* Nothing when the run did not fix the index, when a store at an index
 * it did not fix or a call may have written the item in between, or
 * when the run's integers disagree (guards no run passes). */
static void test_stack_item_not_known(void)
{
	CHECK(stack_facts("", "") == 0);
	CHECK(stack_facts("", "guard_true(i3)\n") == 0);
	CHECK(stack_facts("setarrayitem_gc(p0, i2, NULL, descr=<ArrayP 8>)\n",
			  fixed) == 0);
	CHECK(stack_facts("call_n(ConstClass(f), p0, descr=<Callv 0 r EF=5>)\n"
			  "guard_no_exception()\n",
			  fixed) == 0);
	CHECK(stack_facts("guard_value(i1, 3)\n", fixed) == 0);
}

/* An integer item narrower than a word reads back the stored value only
 * when it fits: a store of 300 into a byte is no read of 300 (which
 * would make the run's integers disagree and drop every fact); two
 * reads are one value (here two the run cannot have had). */
static void test_narrow_items(void)
{
	CHECK(stack_facts("setarrayitem_gc(p0, 7, 300, descr=<ArrayS 1>)\n"
			  "i8 = getarrayitem_gc_i(p0, 7, descr=<ArrayS 1>)\n"
			  "guard_value(i8, 44)\n",
			  fixed) == 2);
	CHECK(stack_facts("i8 = getarrayitem_gc_i(p0, 7, descr=<ArrayS 1>)\n"
			  "guard_value(i8, 44)\n"
			  "i9 = getarrayitem_gc_i(p0, 7, descr=<ArrayS 1>)\n"
			  "guard_value(i9, 45)\n",
			  fixed) == 0);
}

/* A formatter's format string, a constant, and its position, stored
 * into the formatter and read back: the run fixed the position (POS), so
 * the guards on the string's length and on its char there are facts of
 * the constant; with the position an input, none. */
static uint32_t format_facts(const char *pos)
{
	char text[2048];
	snprintf(text, sizeof text,
		 "[1] {jit-log-noopt\n"
		 "[p0, i9]\n"
		 "p1 = new(descr=<SizeDescr 88>)\n"
		 "setfield_gc(p1, ConstPtr(ptr2), descr=<FieldP f.Fmt.inst_fmt "
		 "56>)\n"
		 "setfield_gc(p1, %s, descr=<FieldS f.Fmt.inst_fmtpos 8>)\n"
		 "p3 = getfield_gc_r(p1, descr=<FieldP f.Fmt.inst_fmt 56>)\n"
		 "i4 = getfield_gc_i(p1, descr=<FieldS f.Fmt.inst_fmtpos 8>)\n"
		 "i5 = strlen(p3)\n"
		 "i6 = int_lt(i4, i5)\n"
		 "guard_true(i6)\n"
		 "i7 = strgetitem(p3, i4)\n"
		 "i8 = int_eq(i7, 37)\n"
		 "guard_false(i8)\n"
		 "finish(i4)\n"
		 "[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f09 with 1 ops\n"
		 "[p10, i19]\n"
		 "+1: finish(%s)\n"
		 "[4] jit-log-opt-bridge}\n",
		 pos, pos[0] == 'i' ? "i19" : pos);
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return UINT32_MAX;
	uint32_t n = p->nrecorded;
	/* the facts read the constant's length and its char 2 */
	CHECK(count_op(p->opt, IR_GETARRAYITEM_GC_I) == (n ? 1u : 0u));
	pl_free(&log);
	return n;
}

static void test_const_string(void)
{
	CHECK(format_facts("2") == 2);
	CHECK(format_facts("i9") == 0);
}

#define INTVAL                                                                 \
	"descr=<FieldS pypy.objspace.std.intobject.W_IntObject.inst_intval 8 " \
	"pure>)\n"
#define LOCALS                                                                 \
	"descr=<FieldP pypy.interpreter.pyframe.PyFrame.inst_locals_cells_"    \
	"stack_w 56>)\n"

/* The facts of a frame's locals array, the frame made by the trace: two
 * constants stored into the array, a call that takes neither the frame
 * nor the array, a force_virtualizable of the frame (EffectInfo: no
 * effect), the array read back from the frame and the constants read
 * back from it, guarded by class and compared.  BETWEEN goes before the
 * call.  The number of facts (guard_class of each, the comparison) or
 * UINT32_MAX. */
static uint32_t locals_facts(const char *between)
{
	char text[3000];
	snprintf(text, sizeof text,
		 "[1] {jit-log-noopt\n"
		 "[p0, i9]\n"
		 "p1 = new_with_vtable(descr=PyFrame)\n"
		 "p2 = new(descr=<ArrayP 8>)\n"
		 "setfield_gc(p1, p2, " LOCALS
		 "setarrayitem_gc(p2, 2, ConstPtr(ptr3), descr=<ArrayP 8>)\n"
		 "setarrayitem_gc(p2, 3, ConstPtr(ptr7), descr=<ArrayP 8>)\n"
		 "%s"
		 "call_n(ConstClass(f), p0, descr=<Callv 0 r EF=5>)\n"
		 "guard_no_exception()\n"
		 "cond_call(i9, 123, p1, descr=<Callv 0 r EF=2 OS=121>)\n"
		 "p4 = getfield_gc_r(p1, " LOCALS
		 "p5 = getarrayitem_gc_r(p4, 2, descr=<ArrayP 8>)\n"
		 "guard_class(p5, ConstClass(W_IntObject))\n"
		 "p8 = getarrayitem_gc_r(p4, 3, descr=<ArrayP 8>)\n"
		 "guard_class(p8, ConstClass(W_IntObject))\n"
		 "i6 = getfield_gc_i(p5, " INTVAL
		 "i10 = getfield_gc_i(p8, " INTVAL "i11 = int_gt(i6, i10)\n"
		 "guard_false(i11)\n"
		 "finish(p1)\n"
		 "[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f0a with 2 ops\n"
		 "[p20, i29]\n"
		 "+1: call_n(ConstClass(f), p20, descr=<Callv 0 r EF=5>)\n"
		 "+2: finish(p20)\n"
		 "[4] jit-log-opt-bridge}\n",
		 between);
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return UINT32_MAX;
	uint32_t n = p->nrecorded;
	CHECK(const_classes(p->opt) == (n ? 2u : 0u));
	CHECK(count_op(p->opt, IR_INT_GT) == (n ? 1u : 0u));
	pl_free(&log);
	return n;
}

/* A frame's locals array is stored in the frame only: a call reaches
 * neither while the frame stays the trace's own, so the constants read
 * back are the ones stored (their classes, and the comparison of their
 * immutable integers, are facts; spell_edits' generator frames).  Not
 * once the frame went into an input object, nor when the array did, nor
 * when an object read from the frame did. */
static void test_frame_locals(void)
{
	CHECK(locals_facts("") == 3);
	CHECK(locals_facts("setfield_gc(p0, p1, " LOCALS) == 0);
	CHECK(locals_facts("setfield_gc(p0, p2, " LOCALS) == 0);
	CHECK(locals_facts("p12 = getfield_gc_r(p1, " LOCALS
			   "setfield_gc(p0, p12, " LOCALS) == 0);
}

int main(void)
{
	test_recorded_facts();
	test_recorded_loop_copy();
	test_stack_item();
	test_stack_item_not_known();
	test_narrow_items();
	test_const_string();
	test_frame_locals();
	return check_summary("test_pypylog_recorded");
}
