/* ir/pypylog: PyPy JIT logs into checkable pairs. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"
#include "ir/pypyops.h"
#include "test_pypylog_util.h"

static const char loop_log[] =
    "[10] {jit-log-noopt\n"
    "# Traced loop or bridge with 4 ops\n"
    "[i0, p1]\n"
    "i2 = int_add(i0, 1)\n"
    "i3 = int_lt(i2, 100)\n"
    "guard_true(i3)\n"
    "guard_value(p1, ConstPtr(ptr4))\n"
    "jump(i2, p1, descr=<Loop-1>)\n"
    "[11] jit-log-noopt}\n"
    "[12] {jit-log-other\n"
    "ignored text\n"
    "[13] jit-log-other}\n"
    "[14] {jit-log-opt-loop\n"
    "# Loop 7 (f) : loop with 9 ops\n"
    "[p0]\n"
    "+10: i1 = getfield_gc_i(p0, descr=<FieldS x 8>)\n"
    "+12: p2 = getfield_gc_r(p0, descr=<FieldP y 16>)\n"
    "+20: label(i1, p2, descr=TargetToken(1))\n"
    "+24: i3 = int_add(i1, 1)\n"
    "+28: i4 = int_lt(i3, 100)\n"
    "+30: guard_true(i4, descr=<Guard0x1>) [i1]\n"
    "+34: guard_value(p2, ConstPtr(ptr9), descr=<Guard0x2>) [i1]\n"
    "+40: label(i3, p2, descr=TargetToken(2))\n"
    "+44: i5 = int_add(i3, 1)\n"
    "+48: i6 = int_lt(i5, 100)\n"
    "+50: guard_true(i6, descr=<Guard0x3>) [i3]\n"
    "+60: jump(i5, p2, descr=TargetToken(2))\n"
    "[15] jit-log-opt-loop}\n"
    "[16] {jit-log-noopt\n"
    "[i0, p1]\n"
    "i2 = int_sub(i0, 1)\n"
    "guard_nonnull(p1)\n"
    "finish(i2, ConstPtr(null))\n"
    "[17] jit-log-noopt}\n"
    "[18] {jit-log-opt-bridge\n"
    "# bridge out of Guard 0x7f00aa with 3 ops\n"
    "[i10, p11]\n"
    "+5: i12 = int_sub(i10, 1)\n"
    "+8: guard_nonnull(p11, descr=<Guard0x5>) [i10]\n"
    "+9: finish(i12, ConstPtr(null))\n"
    "[19] jit-log-opt-bridge}\n";

/* The ConstPtr name of T's first guard_value, or "". */
static const char *guard_value_ptr(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_GUARD_VALUE)
			continue;
		const ir_value *x = ir_val(t, op->args[1]);
		if (x->tag == IR_VAL_CONST_PTR)
			return ir_strtext(t, x->name);
	}
	return "";
}

static void test_loop_and_bridge(void)
{
	pl_log log;
	jp_err e;
	jp_err_clear(&e);
	CHECK(pl_read_text(loop_log, strlen(loop_log), "t.log", NULL, &log,
			   &e) == JP_OK);
	CHECK(log.n == 2 && log.unpaired == 0);
	if (log.n != 2)
		return;
	const pl_pair *p = &log.pairs[0];
	CHECK(!strcmp(p->id, "loop 7") && p->kind == PL_LOOP);
	CHECK(p->orig && p->opt && !p->reason && !p->error);
	if (p->orig && p->opt) {
		/* two labels: the unoptimized trace runs twice */
		CHECK(p->orig->ninputs == 2 && p->opt->ninputs == 2);
		CHECK(count_op(p->orig, IR_INT_ADD) == 2);
		CHECK(count_op(p->orig, IR_GUARD_TRUE) == 2);
		/* the prologue is gone; the optimized trace starts at label 1
		 */
		CHECK(count_op(p->opt, IR_GETFIELD_GC_I) == 0);
		CHECK(count_op(p->opt, IR_LABEL) == 1);
		/* jumps end as finish() without outputs */
		CHECK(p->orig->ops[p->orig->nops - 1].opc == IR_FINISH &&
		      p->orig->ops[p->orig->nops - 1].nargs == 0);
		CHECK(p->opt->ops[p->opt->nops - 1].opc == IR_FINISH);
		/* the guard_value of the optimized trace names the object of
		 * the unoptimized one's (one identity, counted) */
		CHECK(p->nsame == 1);
		CHECK(!strcmp(guard_value_ptr(p->opt), "s0_ptr4"));
		CHECK(!strcmp(guard_value_ptr(p->orig), "s0_ptr4"));
	}
	p = &log.pairs[1];
	CHECK(!strcmp(p->id, "bridge 0x7f00aa") && p->kind == PL_BRIDGE);
	CHECK(p->orig && p->opt);
	if (p->orig && p->opt) {
		const ir_op *end = &p->opt->ops[p->opt->nops - 1];
		/* a finish keeps its outputs; ConstPtr(null) is NULL */
		CHECK(end->opc == IR_FINISH && end->nargs == 2);
		CHECK(ir_val(p->opt, end->args[1])->tag == IR_VAL_CONST_NULL);
	}
	pl_free(&log);
}

/* The loop jumping to its preamble label, not its body label, is not
 * shaped (never proved); a noopt section that does not parse is an
 * error of its pair; a file without sections is refused. */
static void test_refusals(void)
{
	char *bad = strdup(loop_log);
	char *j = strstr(bad, "jump(i5, p2, descr=TargetToken(2))");
	CHECK(j != NULL);
	if (!j) {
		free(bad);
		return;
	}
	j[strlen("jump(i5, p2, descr=TargetToken(")] = '1';
	pl_log log;
	jp_err e;
	CHECK(pl_read_text(bad, strlen(bad), "t.log", NULL, &log, &e) == JP_OK);
	CHECK(log.n == 2 && !log.pairs[0].orig && log.pairs[0].reason &&
	      strstr(log.pairs[0].reason, "not to its label TargetToken(2)"));
	pl_free(&log);
	char *g = strstr(bad, "i2 = int_sub(i0, 1)");
	memcpy(g, "i2 = int_sub(i0, )", 18);
	CHECK(pl_read_text(bad, strlen(bad), "t.log", NULL, &log, &e) == JP_OK);
	CHECK(log.n == 2 && log.pairs[1].error &&
	      strstr(log.pairs[1].error, "t.log:"));
	pl_free(&log);
	free(bad);
	const char *none = "[i0]\nfinish(i0)\n";
	CHECK(pl_read_text(none, strlen(none), "t.log", NULL, &log, &e) ==
	      JP_EINPUT);
	CHECK(strstr(e.msg, "jit-log-noopt") != NULL);
}

/* An entry bridge reads the frame in a prologue without a label: its
 * inputs and the leading reads (not the locals array itself) are the
 * unoptimized trace's inputs. */
static void test_entry_bridge(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1, p2]\n"
	    "i3 = int_add(i1, 1)\n"
	    "guard_nonnull(p2)\n"
	    "finish(i3)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-loop\n"
	    "# Loop 4 (f) : entry bridge with 5 ops\n"
	    "[p0]\n"
	    "+1: i1 = getfield_gc_i(p0, descr=<FieldS depth 8>)\n"
	    "+2: p5 = getfield_gc_r(p0, descr=<FieldP locals 16>)\n"
	    "+3: p2 = getarrayitem_gc_r(p5, 0, descr=<ArrayP 8>)\n"
	    "+4: i3 = int_add(i1, 1)\n"
	    "+5: guard_nonnull(p2, descr=<Guard0x9>) [p0]\n"
	    "+6: finish(i3)\n"
	    "[4] jit-log-opt-loop}\n";
	pl_log log;
	jp_err e;
	CHECK(pl_read_text(text, strlen(text), "t.log", NULL, &log, &e) ==
	      JP_OK);
	CHECK(log.n == 1);
	if (log.n != 1)
		return;
	const pl_pair *p = &log.pairs[0];
	CHECK(p->kind == PL_ENTRY && !strcmp(p->id, "entry 4"));
	CHECK(p->opt != NULL);
	if (p->opt) {
		CHECK(p->opt->ninputs == 3);
		CHECK(!strcmp(ir_valname(p->opt, p->opt->inputs[1]), "i1"));
		CHECK(!strcmp(ir_valname(p->opt, p->opt->inputs[2]), "p2"));
		CHECK(p->opt->ops[0].opc == IR_INT_ADD);
	}
	pl_free(&log);
}

/* A bridge (inputs one by one) with an allocation, a raw read and a
 * ConstPtr in a store: the allocation's class comes from the field it is
 * written through; the raw reads of both traces become one shared input;
 * the ConstPtr stored in the same role is one object (counted); one
 * stored in two roles in the same trace identifies nothing. */
static void test_classes_raw_ptrs(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1]\n"
	    "p2 = new_with_vtable(descr=<SizeDescr 16>)\n"
	    "setfield_gc(p2, i1, descr=<FieldS pypy.objspace.std.intobject."
	    "W_IntObject.inst_intval 8 pure>)\n"
	    "p3 = new_with_vtable(descr=<SizeDescr 24>)\n"
	    "setfield_gc(p3, i1, descr=<FieldS a.A.inst_x 8>)\n"
	    "setfield_gc(p3, i1, descr=<FieldS a.B.inst_y 16>)\n"
	    "i4 = getfield_raw_i(4096, descr=<FieldS sig.c_value 0>)\n"
	    "setfield_gc(p0, ConstPtr(ptr5), descr=<FieldP w.W.inst_a 8>)\n"
	    "setfield_gc(p0, ConstPtr(ptr6), descr=<FieldP w.W.inst_b 16>)\n"
	    "guard_nonnull(p0)\n"
	    "setfield_gc(p0, ConstPtr(ptr7), descr=<FieldP w.W.inst_b 16>)\n"
	    "finish(i4, p2, p3)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f01 with 9 ops\n"
	    "[p10, i11]\n"
	    "+1: i14 = getfield_raw_i(4096, descr=<FieldS sig.c_value 0>)\n"
	    "+2: setfield_gc(p10, ConstPtr(ptr15), descr=<FieldP w.W.inst_a "
	    "8>)\n"
	    "+3: setfield_gc(p10, ConstPtr(ptr17), descr=<FieldP w.W.inst_b "
	    "16>)\n"
	    "+4: p12 = new_with_vtable(descr=<SizeDescr 16>)\n"
	    "+5: setfield_gc(p12, i11, descr=<FieldS pypy.objspace.std."
	    "intobject.W_IntObject.inst_intval 8 pure>)\n"
	    "+6: p13 = new_with_vtable(descr=<SizeDescr 24>)\n"
	    "+7: setfield_gc(p13, i11, descr=<FieldS a.A.inst_x 8>)\n"
	    "+8: setfield_gc(p13, i11, descr=<FieldS a.B.inst_y 16>)\n"
	    "+9: finish(i14, p12, p13)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *sides[2] = {p->orig, p->opt};
	for (int s = 0; s < 2; s++) {
		const ir_trace *t = sides[s];
		const char *cls[2] = {NULL, NULL};
		uint32_t nnew = 0, nraw = 0;
		for (uint32_t i = 0; i < t->nops; i++) {
			const ir_op *op = &t->ops[i];
			if (op->opc == IR_NEW_WITH_VTABLE && nnew < 2)
				cls[nnew++] = ir_strtext(t, op->descr);
			nraw += op->opc == IR_OPAQUE;
		}
		/* one class named: taken; two classes, B's field above A's:
		 * B, the deeper (tests/test_pypylog_classes.c has more) */
		CHECK(nnew == 2 && !strcmp(cls[0], "W_IntObject") &&
		      !strcmp(cls[1], "B"));
		/* the raw read is the extra input iraw0 */
		CHECK(nraw == 0 && t->ninputs == 3 &&
		      !strcmp(ir_valname(t, t->inputs[2]), "iraw0"));
	}
	/* ptr15 stored as inst_a is ptr5; inst_b has two names in the
	 * unoptimized trace (the first seen at the guard's exit), so ptr17
	 * stays apart */
	CHECK(p->nsame == 1);
	bool s0_ptr5 = false, s1_ptr17 = false;
	for (uint32_t v = 0; v < p->opt->nvals; v++) {
		const ir_value *x = ir_val(p->opt, v);
		if (x->tag != IR_VAL_CONST_PTR)
			continue;
		s0_ptr5 |= !strcmp(ir_strtext(p->opt, x->name), "s0_ptr5");
		s1_ptr17 |= !strcmp(ir_strtext(p->opt, x->name), "s1_ptr17");
	}
	CHECK(s0_ptr5 && s1_ptr17);
	pl_free(&log);
}

/* Calls whose descr names OS_INT_PY_DIV (12) or OS_INT_PY_MOD (14) are
 * int_py_div / int_py_mod; another oopspec, or none, stays a call. */
static void test_oopspec_calls(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[i0, i1]\n"
	    "i2 = call_pure_i(ConstClass(ll_int_py_mod__Signed_Signed), i0, "
	    "i1, descr=<Calli 8 ii EF=0 OS=14>)\n"
	    "i3 = call_i(ConstClass(ll_int_py_div__Signed_Signed), i0, 2, "
	    "descr=<Calli 8 ii EF=0 OS=12>)\n"
	    "i4 = call_i(ConstClass(other), i0, 2, descr=<Calli 8 ii EF=0 "
	    "OS=13>)\n"
	    "i5 = call_i(ConstClass(plain), i0, 2, descr=<Calli 8 ii EF=5>)\n"
	    "p6 = call_pure_r(ConstClass(ll_str), i0, descr=<Callr 8 i EF=3>)\n"
	    "finish(i2, i3, i4, i5, p6)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f02 with 5 ops\n"
	    "[i0, i1]\n"
	    "+1: i2 = call_i(ConstClass(ll_int_py_mod__Signed_Signed), i0, "
	    "i1, descr=<Calli 8 ii EF=0 OS=14>)\n"
	    "+2: i3 = int_rshift(i0, 1)\n"
	    "+3: i4 = call_i(ConstClass(other), i0, 2, descr=<Calli 8 ii EF=0 "
	    "OS=13>)\n"
	    "+4: i5 = call_i(ConstClass(plain), i0, 2, descr=<Calli 8 ii "
	    "EF=5>)\n"
	    "+5: p6 = call_r(ConstClass(ll_str), i0, descr=<Callr 8 i EF=3>)\n"
	    "+6: finish(i2, i3, i4, i5, p6)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig, *t = p->opt;
	CHECK(o->ops[0].opc == IR_INT_PY_MOD && o->ops[0].nargs == 2 &&
	      !strcmp(ir_valname(o, o->ops[0].args[1]), "i1"));
	CHECK(o->ops[1].opc == IR_INT_PY_DIV);
	CHECK(o->ops[2].opc == IR_OPAQUE && o->ops[3].opc == IR_OPAQUE);
	CHECK(t->ops[0].opc == IR_INT_PY_MOD);
	/* the call_pure_r PyPy keeps is printed call_r: one name */
	CHECK(o->ops[4].opc == IR_OPAQUE && t->ops[4].opc == IR_OPAQUE &&
	      !strcmp(ir_op_name(o, &o->ops[4]), "call_r") &&
	      !strcmp(ir_op_name(t, &t->ops[4]), "call_r"));
	pl_free(&log);
}

/* A bridge knows what its loop knew at the failing guard: p11 is a label
 * argument the preamble checks and the body's jump passes a fresh
 * W_IntObject back in (an invariant: not NULL, class W_IntObject); p3
 * left a guard_isnull that failed (not NULL); i30 is p11's intval (the
 * preamble read it, the jump passes p48 and the value just stored into
 * it: rotating_pair): a read of the field and two guards in both traces.
 * The optimized bridge's short preamble (effect-free ops after its last
 * debug_merge_point) is left out, but a store there stays. */
static void test_bridge_facts(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, p1]\n"
	    "i2 = getfield_gc_i(p1, descr=<FieldS pypy.objspace.std.intobject."
	    "W_IntObject.inst_intval 8 pure>)\n"
	    "jump(p0, p1)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-loop\n"
	    "# Loop 1 (f) : loop with 12 ops\n"
	    "[p0]\n"
	    "+1: p11 = getfield_gc_r(p0, descr=<FieldP f.F.inst_a 8>)\n"
	    "+2: p3 = getfield_gc_r(p0, descr=<FieldP f.F.inst_b 16>)\n"
	    "+3: label(p11, p3, descr=TargetToken(1))\n"
	    "+4: guard_nonnull_class(p11, ConstClass(W_IntObject), "
	    "descr=<Guard0xa1>) [p11]\n"
	    "+5: i30 = getfield_gc_i(p11, descr=<FieldS pypy.objspace.std."
	    "intobject.W_IntObject.inst_intval 8 pure>)\n"
	    "+6: label(p11, p3, i30, descr=TargetToken(2))\n"
	    "+7: guard_isnull(p3, descr=<Guard0xa2>) [p11, p3, i30]\n"
	    "+8: i31 = int_add(i30, 1)\n"
	    "+9: p48 = new_with_vtable(descr=<SizeDescr 16>)\n"
	    "+10: setfield_gc(p48, i31, descr=<FieldS pypy.objspace.std."
	    "intobject.W_IntObject.inst_intval 8 pure>)\n"
	    "+11: jump(p48, p3, i31, descr=TargetToken(2))\n"
	    "[4] jit-log-opt-loop}\n"
	    "[5] {jit-log-noopt\n"
	    "[p0, p1, i2]\n"
	    "guard_nonnull(p0)\n"
	    "i5 = getfield_gc_i(p1, descr=<FieldS g.G.inst_c 8>)\n"
	    "setfield_gc(p1, i2, descr=<FieldS g.G.inst_e 24>)\n"
	    "jump(p0, p1, i5)\n"
	    "[6] jit-log-noopt}\n"
	    "[7] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0xa2 with 5 ops\n"
	    "[p10, p11, i12]\n"
	    "+1: i15 = getfield_gc_i(p11, descr=<FieldS g.G.inst_c 8>)\n"
	    "+2: debug_merge_point(0, 0, 'x')\n"
	    "+3: i16 = getfield_gc_i(p10, descr=<FieldS g.G.inst_d 16>)\n"
	    "+4: setfield_gc(p11, i12, descr=<FieldS g.G.inst_e 24>)\n"
	    "+4: i18 = getarrayitem_gc_i(p10, 0, descr=<ArrayS 8>)\n"
	    "+4: call_n(ConstClass(w), p10, descr=<Callv 0 r EF=2>)\n"
	    "+4: i17 = call_i(ConstClass(e), i16, descr=<Calli 8 i EF=0>)\n"
	    "+5: guard_true(i16, descr=<Guard0xa3>) [p10]\n"
	    "+6: jump(p10, p11, i15, descr=TargetToken(2))\n"
	    "[8] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 2, 1, &log);
	if (!p)
		return;
	CHECK(p->nfacts == 5);
	const ir_trace *sides[2] = {p->orig, p->opt};
	for (int s = 0; s < 2; s++) {
		const ir_trace *t = sides[s];
		CHECK(t->nops > 3 && t->ops[0].opc == IR_GUARD_NONNULL &&
		      t->ops[0].args[0] == t->inputs[0]);
		CHECK(t->ops[1].opc == IR_GUARD_CLASS &&
		      !strcmp(ir_valname(t, t->ops[1].args[1]), "W_IntObject"));
		CHECK(t->ops[2].opc == IR_GUARD_NONNULL &&
		      t->ops[2].args[0] == t->inputs[1]);
	}
	/* the short preamble: the read and the guard go, the store stays;
	 * the intval fact is one read and one guard_true */
	CHECK(count_op(p->opt, IR_GETFIELD_GC_I) == 2);
	CHECK(count_op(p->opt, IR_GETARRAYITEM_GC_I) == 0);
	CHECK(count_op(p->opt, IR_SETFIELD_GC) == 1);
	CHECK(count_op(p->opt, IR_GUARD_TRUE) == 1);
	/* EF=2 may write (effectinfo.py: cannot raise, not elidable): it
	 * stays; the elidable EF=0 call goes */
	CHECK(count_op(p->opt, IR_OPAQUE) == 1);
	pl_free(&log);
}

/* arraycopy into an array the trace allocated is its item reads and
 * stores; force_token is the shared input pforce_token; a role with two
 * ConstPtr names in each trace pairs them in order. */
static void test_arraycopy_force_token(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, p1]\n"
	    "p2 = new_array(2, descr=<ArrayS 8>)\n"
	    "call_n(ConstClass(ll_arraycopy), p1, p2, 0, 0, 2, descr=<Callv 0 "
	    "rriii EF=2 OS=1>)\n"
	    "p3 = force_token()\n"
	    "setfield_gc(p0, p3, descr=<FieldP f.F.vable_token 8>)\n"
	    "setfield_gc(p0, ConstPtr(ptr4), descr=<FieldP f.F.inst_map 16>)\n"
	    "setfield_gc(p0, ConstPtr(ptr5), descr=<FieldP f.F.inst_map 16>)\n"
	    "finish(p2)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f03 with 4 ops\n"
	    "[p10, p11]\n"
	    "+1: p12 = new_array(2, descr=<ArrayS 8>)\n"
	    "+2: p13 = force_token()\n"
	    "+3: setfield_gc(p10, ConstPtr(ptr14), descr=<FieldP f.F.inst_map "
	    "16>)\n"
	    "+4: setfield_gc(p10, ConstPtr(ptr15), descr=<FieldP f.F.inst_map "
	    "16>)\n"
	    "+5: setfield_gc(p10, p13, descr=<FieldP f.F.vable_token 8>)\n"
	    "+6: finish(p12)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig, *t = p->opt;
	CHECK(count_op(o, IR_OPAQUE) == 0 && count_op(t, IR_OPAQUE) == 0);
	/* two item reads of p1 and two item stores into p2 */
	CHECK(count_op(o, IR_GETARRAYITEM_GC_I) == 2);
	CHECK(count_op(o, IR_SETARRAYITEM_GC) == 2);
	CHECK(
	    !strcmp(ir_valname(o, o->inputs[o->ninputs - 1]), "pforce_token") &&
	    !strcmp(ir_valname(t, t->inputs[t->ninputs - 1]), "pforce_token"));
	CHECK(p->nsame == 2);
	pl_free(&log);
}

/* float_truediv by a power of two whose reciprocal is one too is PyPy's
 * float_mul by that reciprocal, in both traces; by 3.0, or by 2**-1074
 * (whose reciprocal overflows), it stays a division. */
static void test_float_div_pow2(void)
{
	const char *divisors[] = {"2.0", "-0.25", "3.0", "5e-324"};
	const char *bits[] = {"4602678819172646912", "13839561654909534208",
			      NULL, NULL}; /* 0.5, -4.0 */
	for (int k = 0; k < 4; k++) {
		char text[800];
		snprintf(text, sizeof text,
			 "[1] {jit-log-noopt\n"
			 "[f0]\n"
			 "f1 = float_truediv(f0, %s)\n"
			 "finish(f1)\n"
			 "[2] jit-log-noopt}\n"
			 "[3] {jit-log-opt-bridge\n"
			 "# bridge out of Guard 0x7f0e with 2 ops\n"
			 "[f10]\n"
			 "+1: f11 = float_truediv(f10, %s)\n"
			 "+2: finish(f11)\n"
			 "[4] jit-log-opt-bridge}\n",
			 divisors[k], divisors[k]);
		pl_log log;
		const pl_pair *p = read_pair(text, 1, 0, &log);
		if (!p)
			return;
		for (int s = 0; s < 2; s++) {
			const ir_trace *t = s ? p->opt : p->orig;
			const ir_op *op = &t->ops[0];
			CHECK(!strcmp(ir_op_name(t, op),
				      bits[k] ? "float_mul" : "float_truediv"));
			const ir_value *c = ir_val(t, op->args[1]);
			char b[32];
			snprintf(b, sizeof b, "%llu",
				 (unsigned long long)c->cval);
			CHECK(c->tag == IR_VAL_CONST_INT &&
			      (!bits[k] || !strcmp(b, bits[k])));
		}
		pl_free(&log);
	}
}

/* float_mul(x, 1.0), either way round, is x in both traces, as PyPy's
 * optimizer makes it (pl_float_mul_one).  Not 2.0, nor -1.0 (PyPy's
 * float_neg for it flips a NaN's sign, which the product need not). */
static void test_float_mul_one(void)
{
	const char *factors[] = {"f0, 1.0", "1.000000, f0", "f0, 2.0",
				 "f0, -1.0"};
	for (int k = 0; k < 4; k++) {
		char text[800];
		snprintf(text, sizeof text,
			 "[1] {jit-log-noopt\n"
			 "[f0]\n"
			 "f1 = float_mul(%s)\n"
			 "finish(f1)\n"
			 "[2] jit-log-noopt}\n"
			 "[3] {jit-log-opt-bridge\n"
			 "# bridge out of Guard 0x7f0e with 1 ops\n"
			 "[f10]\n"
			 "+1: finish(f10)\n"
			 "[4] jit-log-opt-bridge}\n",
			 factors[k]);
		pl_log log;
		const pl_pair *p = read_pair(text, 1, 0, &log);
		if (!p)
			return;
		const ir_op *op = &p->orig->ops[0];
		CHECK((op->opc == IR_SAME_AS_I) == (k < 2));
		CHECK(op->opc != IR_SAME_AS_I || op->nargs == 1);
		pl_free(&log);
	}
}

/* Global cells (pypylog_ptrs.c, "cells"): the stores pair in order, the
 * kept read by the use of its value, and the read the optimizer removed
 * names the one store before it. */
static void test_global_cells(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[i1]\n"
	    "setfield_gc(ConstPtr(ptr1), i1, descr=<FieldS c.Cell.inst_v 8>)\n"
	    "i2 = getfield_gc_i(ConstPtr(ptr2), descr=<FieldS c.Cell.inst_v "
	    "8>)\n"
	    "i3 = int_mul(i2, 31)\n"
	    "i4 = getfield_gc_i(ConstPtr(ptr4), descr=<FieldS c.Cell.inst_v "
	    "8>)\n"
	    "i5 = int_add(i3, i4)\n"
	    "setfield_gc(ConstPtr(ptr6), i5, descr=<FieldS c.Cell.inst_v 8>)\n"
	    "finish(i5)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0b with 5 ops\n"
	    "[i11]\n"
	    "+1: setfield_gc(ConstPtr(ptr12), i11, descr=<FieldS c.Cell.inst_v "
	    "8>)\n"
	    "+2: i13 = getfield_gc_i(ConstPtr(ptr14), descr=<FieldS "
	    "c.Cell.inst_v 8>)\n"
	    "+3: i15 = int_mul(i13, 31)\n"
	    "+4: i16 = int_add(i15, i11)\n"
	    "+5: setfield_gc(ConstPtr(ptr17), i16, descr=<FieldS c.Cell.inst_v "
	    "8>)\n"
	    "+6: finish(i16)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig, *t = p->opt;
	CHECK(p->nsame == 4);
	/* the removed read of ptr4 is the store's object, ptr1 */
	CHECK(!strcmp(ir_valname(o, o->ops[3].args[0]),
		      ir_valname(o, o->ops[0].args[0])));
	CHECK(!strcmp(ir_valname(t, t->ops[0].args[0]),
		      ir_valname(o, o->ops[0].args[0])));
	CHECK(!strcmp(ir_valname(t, t->ops[1].args[0]),
		      ir_valname(o, o->ops[1].args[0])));
	CHECK(!strcmp(ir_valname(t, t->ops[4].args[0]),
		      ir_valname(o, o->ops[5].args[0])));
	CHECK(strcmp(ir_valname(o, o->ops[1].args[0]),
		     ir_valname(o, o->ops[0].args[0])));
	pl_free(&log);
}

/* A constant of the optimized trace still apart after the roles is, in
 * a role where the unoptimized trace has one object, that object (a
 * peeled body stores the preamble's constant through label values). */
static void test_left_apart(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1]\n"
	    "setarrayitem_gc(p0, i1, ConstPtr(ptr1), descr=<ArrayP 8>)\n"
	    "finish()\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0d with 2 ops\n"
	    "[p10, i11]\n"
	    "+1: i12 = int_add(i11, 0)\n"
	    "+2: setarrayitem_gc(p10, i12, ConstPtr(ptr13), descr=<ArrayP "
	    "8>)\n"
	    "+3: finish()\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	CHECK(p->nsame == 1);
	CHECK(!strcmp(ir_valname(p->opt, p->opt->ops[1].args[2]),
		      ir_valname(p->orig, p->orig->ops[0].args[2])));
	pl_free(&log);
}

/* virtual_ref and virtual_ref_finish are what PyPy's optimizer makes of
 * them: a new JitVirtualRef holding the frame token and NULL, and stores
 * into it; the unoptimized trace then matches the optimized one. */
static void test_virtual_refs(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, p1]\n"
	    "p2 = virtual_ref(p1, 0)\n"
	    "setfield_gc(p0, p2, descr=<FieldP e.E.inst_top 8>)\n"
	    "virtual_ref_finish(p2, NULL)\n"
	    "finish()\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0e with 5 ops\n"
	    "[p10, p11]\n"
	    "+1: p12 = force_token()\n"
	    "+2: p13 = new_with_vtable(descr=JitVirtualRef)\n"
	    "+3: setfield_gc(p13, p12, descr=<FieldP "
	    "JitVirtualRef.virtual_token 8>)\n"
	    "+4: setfield_gc(p13, NULL, descr=<FieldP JitVirtualRef.forced "
	    "16>)\n"
	    "+5: setfield_gc(p10, p13, descr=<FieldP e.E.inst_top 8>)\n"
	    "+6: setfield_gc(p13, NULL, descr=<FieldP "
	    "JitVirtualRef.virtual_token 8>)\n"
	    "+7: finish()\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig;
	CHECK(count_op(o, IR_OPAQUE) == 0);
	CHECK(count_op(o, IR_NEW_WITH_VTABLE) == 1);
	CHECK(count_op(o, IR_SETFIELD_GC) == 4);
	CHECK(o->nops == 6 && o->ops[0].opc == IR_NEW_WITH_VTABLE &&
	      !strcmp(ir_strtext(o, o->ops[0].descr), "JitVirtualRef"));
	CHECK(o->ops[1].opc == IR_SETFIELD_GC &&
	      !strcmp(ir_valname(o, o->ops[1].args[1]), "pforce_token"));
	pl_free(&log);
}

/* What the front end made of the original of log TEXT's one pair: its
 * string copies, call_r calls, guard_no_exceptions and new objects among
 * its ops; AFTER is false when a guard_no_exception does not come right
 * after a call_r (the guard of a helper that stays a call). */
typedef struct str_counts {
	uint32_t copies, calls, guards, news;
	bool after;
} str_counts;

/* Fills C from log TEXT; false when the log does not read (read_pair
 * says so). */
static bool orig_str_ops(const char *text, str_counts *c)
{
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return false;
	const ir_trace *o = p->orig;
	*c = (str_counts){0, 0, 0, count_op(o, IR_NEW), true};
	for (uint32_t i = 0; i < o->nops; i++) {
		const ir_op *op = &o->ops[i];
		if (op->opc != IR_OPAQUE)
			continue;
		const char *n = ir_strtext(o, op->opname);
		c->copies += ir_py_str_copy(o, op) != NULL;
		c->calls += !strcmp(n, "call_r");
		if (strcmp(n, "guard_no_exception"))
			continue;
		c->guards++;
		c->after =
		    c->after && i > 0 && o->ops[i - 1].opc == IR_OPAQUE &&
		    !strcmp(ir_strtext(o, o->ops[i - 1].opname), "call_r");
	}
	pl_free(&log);
	return true;
}

/* A string slice of known length (OS_STR_SLICE, stop = start + 1) is
 * the new string, its length and its item copied; one of unknown length
 * stays a call. */
static void test_str_slices(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1, i5]\n"
	    "i2 = int_add(i1, 1)\n"
	    "p3 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i1, i2, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "p4 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i1, i5, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "finish(p3, p4)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0f with 1 ops\n"
	    "[p10, i11, i15]\n"
	    "+1: finish(p10, p10)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig;
	CHECK(count_op(o, IR_OPAQUE) == 1); /* the slice to i5 */
	CHECK(count_op(o, IR_NEW) == 1 && count_op(o, IR_SETFIELD_GC) == 1 &&
	      count_op(o, IR_GETARRAYITEM_GC_I) == 1 &&
	      count_op(o, IR_SETARRAYITEM_GC) == 1);
	for (uint32_t i = 0; i < o->nops; i++)
		if (o->ops[i].opc == IR_SETFIELD_GC)
			CHECK(!strcmp(ir_strtext(o, o->ops[i].descr),
				      "<str>.length") &&
			      ir_val(o, o->ops[i].args[1])->cval == 1);
	pl_free(&log);
}

/* A slice whose start is its stop minus a constant (s[n-8:n], written
 * int_add(-8, n) or int_sub(n, 2)) is that many item copies too; a
 * distance over 64 or of two unrelated values stays a call. */
static void test_str_slice_from_end(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1, i5]\n"
	    "i2 = int_add(-3, i1)\n"
	    "p3 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i2, i1, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "i6 = int_sub(i1, 2)\n"
	    "i7 = int_add(i6, 1)\n"
	    "p4 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i7, i1, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "i8 = int_sub(i1, 65)\n"
	    "p9 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i8, i1, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "p10 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i2, i5, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "finish(p3, p4, p9, p10)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0f with 1 ops\n"
	    "[p10, i11, i15]\n"
	    "+1: finish(p10, p10, p10, p10)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig;
	CHECK(count_op(o, IR_OPAQUE) == 2); /* 65 chars; i2 to i5 */
	CHECK(count_op(o, IR_NEW) == 2 && count_op(o, IR_SETFIELD_GC) == 2 &&
	      count_op(o, IR_GETARRAYITEM_GC_I) == 3 + 1 &&
	      count_op(o, IR_SETARRAYITEM_GC) == 3 + 1);
	uint64_t lens = 0;
	for (uint32_t i = 0; i < o->nops; i++)
		if (o->ops[i].opc == IR_SETFIELD_GC)
			lens = lens * 10 + ir_val(o, o->ops[i].args[1])->cval;
	CHECK(lens == 31);
	pl_free(&log);
}

/* An elidable call (EF=0 or 3) whose result nothing uses is left out,
 * with its guard_no_exception (pl_unused_pure_calls; maze_bfs' slice
 * PyPy never forces); one that may raise (EF=4), or whose result is
 * used, stays. */
/* Counts the ops of T calling ConstClass(F) and the guard_no_exception
 * ops. */
static uint32_t calls_of(const ir_trace *t, const char *f, uint32_t *guards)
{
	uint32_t n = 0;
	*guards = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_OPAQUE || !op->opname)
			continue;
		*guards +=
		    !strcmp(ir_strtext(t, op->opname), "guard_no_exception");
		n += op->nargs &&
		     ir_val(t, op->args[0])->tag == IR_VAL_CONST_CLASS &&
		     !strcmp(ir_valname(t, op->args[0]), f);
	}
	return n;
}

/* A call_pure_X repeating an earlier one (same function, descr and
 * arguments, an argument being a repeat's result counting as the earlier
 * result) is left out with its guard_no_exception; a call_r, another
 * argument or another function is kept. */
static void test_repeated_pure_calls(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[i0, i1]\n"
	    "p2 = call_pure_r(ConstClass(f), i0, descr=<Callr 8 i EF=4>)\n"
	    "guard_no_exception()\n"
	    "p3 = call_pure_r(ConstClass(f), i0, descr=<Callr 8 i EF=4>)\n"
	    "guard_no_exception()\n"
	    "p4 = call_pure_r(ConstClass(m), p2, p3, descr=<Callr 8 rr "
	    "EF=4>)\n"
	    "guard_no_exception()\n"
	    "p5 = call_pure_r(ConstClass(m), p2, p2, descr=<Callr 8 rr "
	    "EF=4>)\n"
	    "guard_no_exception()\n"
	    "p6 = call_pure_r(ConstClass(f), i1, descr=<Callr 8 i EF=4>)\n"
	    "guard_no_exception()\n"
	    "p7 = call_r(ConstClass(g), i0, descr=<Callr 8 i EF=4>)\n"
	    "guard_no_exception()\n"
	    "p8 = call_r(ConstClass(g), i0, descr=<Callr 8 i EF=4>)\n"
	    "guard_no_exception()\n"
	    "finish(p5)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0f with 1 ops\n"
	    "[i10, i11]\n"
	    "+1: finish(i10)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig;
	uint32_t gf, gm, gg;
	uint32_t f = calls_of(o, "f", &gf), m = calls_of(o, "m", &gm);
	uint32_t g = calls_of(o, "g", &gg);
	/* f(i0) once, f(i1) once; m(p2, p3) once (m(p2, p2) repeats it);
	 * both call_r of g stay; one guard per call left. */
	CHECK(f == 2 && m == 1 && g == 2 && gf == 5);
	/* The finish returns the one m call's result. */
	const ir_op *end = &o->ops[o->nops - 1];
	ir_vid r = end->nargs == 1 ? end->args[0] : IR_NOVAL;
	const ir_value *rv = r != IR_NOVAL ? ir_val(o, r) : NULL;
	const ir_op *def = rv && rv->tag == IR_VAL_OP ? &o->ops[rv->def] : NULL;
	CHECK(def && def->nargs == 3 &&
	      !strcmp(ir_valname(o, def->args[0]), "m"));
	pl_free(&log);
}

/* A call_pure_X that repeats an earlier one only once the pair's rewrite
 * has forwarded a field of an object the trace made to what was stored
 * there (pl_repeated_elidable_calls; config_lexer's codepoints_in_utf8 of
 * a string and of the _utf8 field of the W_UnicodeObject boxing it) is
 * left out of the original, with its guard_no_exception (variant 0).
 * Not a call_i the tracer recorded as one (1), nor the optimized trace's
 * calls (2: PyPy's optimizer kept both). */
static void test_forwarded_pure_repeat(void)
{
	for (int v = 0; v < 3; v++) {
		char text[1600];
		snprintf(
		    text, sizeof text,
		    "[1] {jit-log-noopt\n"
		    "[p0]\n"
		    "p1 = call_pure_r(ConstClass(esc), p0, descr=<Callr 8 r "
		    "EF=4>)\n"
		    "guard_no_exception()\n"
		    "i2 = call_pure_i(ConstClass(cp), p1, descr=<Calli 8 r "
		    "EF=4>)\n"
		    "guard_no_exception()\n"
		    "p3 = new_with_vtable(descr=W_UnicodeObject)\n"
		    "setfield_gc(p3, p1, descr=<FieldP "
		    "W_UnicodeObject.inst__utf8 "
		    "24 pure>)\n"
		    "p4 = getfield_gc_r(p3, descr=<FieldP "
		    "W_UnicodeObject.inst__utf8 24 pure>)\n"
		    "i5 = %s(ConstClass(cp), p4, descr=<Calli 8 r EF=4>)\n"
		    "guard_no_exception()\n"
		    "i6 = int_add(i2, i5)\n"
		    "finish(i6)\n"
		    "[2] jit-log-noopt}\n"
		    "[3] {jit-log-opt-bridge\n"
		    "# bridge out of Guard 0x7f0f with 5 ops\n"
		    "[p10]\n"
		    "+1: p11 = call_r(ConstClass(esc), p10, descr=<Callr 8 r "
		    "EF=4>)\n"
		    "+2: guard_no_exception(descr=<Guard0x1>) [p10]\n"
		    "+3: i12 = call_i(ConstClass(cp), p11, descr=<Calli 8 r "
		    "EF=4>)\n"
		    "+4: guard_no_exception(descr=<Guard0x2>) [p10]\n%s"
		    "+7: i13 = int_add(i12, i12)\n"
		    "+8: finish(i13)\n"
		    "[4] jit-log-opt-bridge}\n",
		    v == 1 ? "call_i" : "call_pure_i",
		    v == 2 ? "+5: i14 = call_i(ConstClass(cp), p11, "
			     "descr=<Calli 8 r EF=4>)\n"
			     "+6: guard_no_exception(descr=<Guard0x3>) [p10]\n"
			   : "");
		pl_log log;
		const pl_pair *p = read_pair(text, 1, 0, &log);
		if (!p)
			continue;
		uint32_t go, gt;
		uint32_t o = calls_of(p->orig, "cp", &go);
		uint32_t t = calls_of(p->opt, "cp", &gt);
		CHECK(o == (v == 1 ? 2u : 1u) && go == o + 1);
		CHECK(t == (v == 2 ? 2u : 1u) && gt == t + 1);
		pl_free(&log);
	}
}

static void test_unused_pure_calls(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1, i5]\n"
	    "p3 = call_r(ConstClass(slice), p0, i1, i5, descr=<Callr 8 rii "
	    "EF=3 OS=23>)\n"
	    "guard_no_exception()\n"
	    "i4 = call_i(ConstClass(h), p0, descr=<Calli 8 r EF=4>)\n"
	    "guard_no_exception()\n"
	    "i6 = call_i(ConstClass(g), p0, descr=<Calli 8 r EF=0>)\n"
	    "i7 = call_i(ConstClass(g), i1, descr=<Calli 8 i EF=0>)\n"
	    "finish(i7)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0f with 1 ops\n"
	    "[p10, i11, i15]\n"
	    "+1: finish(i11)\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *o = p->orig;
	uint32_t guards;
	uint32_t h = calls_of(o, "h", &guards), g = calls_of(o, "g", &guards);
	uint32_t slices = calls_of(o, "slice", &guards);
	CHECK(slices == 0 && h == 1 && g == 1 && guards == 1);
	pl_free(&log);
}

/* copystrcontent of a constant length into a string the trace made is
 * its item reads and stores, from the two starts on; into a string it
 * did not make, or of a length it does not know, it stays an op. */
static void test_str_copies(void)
{
	const char *text = "[1] {jit-log-noopt\n"
			   "[p0, p1, i2, i3]\n"
			   "finish(p0)\n"
			   "[2] jit-log-noopt}\n"
			   "[3] {jit-log-opt-bridge\n"
			   "# bridge out of Guard 0x7f0f with 6 ops\n"
			   "[p10, p11, i12, i13]\n"
			   "+1: p14 = newstr(4)\n"
			   "+2: copystrcontent(p10, p14, i12, 1, 3)\n"
			   "+3: copystrcontent(p10, p11, i12, 1, 3)\n"
			   "+4: copystrcontent(p10, p14, i12, 0, i13)\n"
			   "+5: p15 = newunicode(2)\n"
			   "+6: copyunicodecontent(p10, p15, 0, 0, 2)\n"
			   "+7: finish(p14, p15)\n"
			   "[4] jit-log-opt-bridge}\n";
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	const ir_trace *t = p->opt;
	CHECK(count_op(t, IR_OPAQUE) == 2);
	CHECK(count_op(t, IR_GETARRAYITEM_GC_I) == 5 &&
	      count_op(t, IR_SETARRAYITEM_GC) == 5);
	uint32_t k = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_SETARRAYITEM_GC)
			continue;
		const ir_value *at = ir_val(t, op->args[1]);
		const char *d = ir_strtext(t, op->descr);
		if (k < 3) /* items 1, 2, 3 of the new <str> */
			CHECK(at->tag == IR_VAL_CONST_INT &&
			      at->cval == k + 1 && !strcmp(d, "<str>"));
		else
			CHECK(!strcmp(d, "<unicode>"));
		k++;
	}
	pl_free(&log);
}

/* A slice of a length the trace orders (guards that fail unless
 * 0 <= start <= stop, or start 0 and stop a length) is the new string, its
 * length stop - start and one string copy, its guard_no_exception left
 * out; one the trace does not order stays a call with its guard.  A
 * concatenation is the two lengths, the new string of their sum and two
 * copies. */
static void test_str_slice_copies(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1, i2, p9]\n"
	    "i10 = int_lt(i1, 0)\n"
	    "guard_false(i10)\n"
	    "i3 = int_ge(i1, i2)\n"
	    "guard_false(i3)\n"
	    "p4 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i1, i2, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "guard_no_exception()\n"
	    "p5 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i2, i1, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "guard_no_exception()\n"
	    "i6 = strlen(p0)\n"
	    "p7 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, 0, i6, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "p8 = call_r(ConstClass(ll_strconcat__rpy_stringPtr_rpy_"
	    "stringPtr), p4, p9, descr=<Callr 8 rr EF=3 OS=22>)\n"
	    "guard_no_exception()\n"
	    "finish(p4, p5, p7, p8)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0f with 1 ops\n"
	    "[p10, i11, i12, p19]\n"
	    "+1: finish(p10, p10, p10, p10)\n"
	    "[4] jit-log-opt-bridge}\n";
	str_counts c;
	if (!orig_str_ops(text, &c))
		return;
	CHECK(c.after); /* the kept slice's */
	CHECK(c.copies == 2 + 2 && c.calls == 1 && c.guards == 1);
	CHECK(c.news == 3);
}

/* The order of a slice's ends from guards in any spelling: int_ge(i1, 0)
 * and int_gt(i2, i1) passing order them; int_gt(i1, i2) passing orders
 * them the other way, and that slice stays a call. */
static void test_str_slice_turned_guards(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1, i2, i5]\n"
	    "i3 = int_ge(i1, 0)\n"
	    "guard_true(i3)\n"
	    "i4 = int_gt(i2, i1)\n"
	    "guard_true(i4)\n"
	    "i6 = int_gt(i1, i5)\n"
	    "guard_true(i6)\n"
	    "p7 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i1, i2, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "p8 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i1, i5, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "finish(p7, p8)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0f with 1 ops\n"
	    "[p10, i11, i12, i15]\n"
	    "+1: finish(p10, p10)\n"
	    "[4] jit-log-opt-bridge}\n";
	str_counts c;
	if (!orig_str_ops(text, &c))
		return;
	CHECK(c.copies == 1 && c.calls == 1 && c.guards == 0);
}

/* The guard_no_exception after a slice that becomes an allocation is
 * left out (the allocation raises nothing; PyPy's optimizer drops the
 * guard of a call it removes): kept, it was a call event of the original
 * only, and h2_caesar's loops were refuted through it.  The one after a
 * slice that stays a call stays. */
static void test_str_slice_guard(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n"
	    "[p0, i1, i5]\n"
	    "i2 = int_add(i1, 1)\n"
	    "p3 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i1, i2, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "debug_merge_point(0, 0, 'f')\n"
	    "guard_no_exception()\n"
	    "p4 = call_r(ConstClass(_ll_stringslice__rpy_stringPtr_Signed_"
	    "Signed), p0, i1, i5, descr=<Callr 8 rii EF=3 OS=23>)\n"
	    "guard_no_exception()\n"
	    "finish(p3, p4)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0f with 1 ops\n"
	    "[p10, i11, i15]\n"
	    "+1: finish(p10, p10)\n"
	    "[4] jit-log-opt-bridge}\n";
	str_counts c;
	if (!orig_str_ops(text, &c))
		return;
	CHECK(c.after); /* after the call */
	CHECK(c.calls == 1 && c.guards == 1);
	CHECK(c.news == 1);
}

/* List fields renamed for their lists' item types (pypylog_types.c):
 * every list typed, both traces renamed alike; a list with no item type,
 * or with two, leaves every name as it was. */
static void test_list_types(void)
{
	static const char *const items[3] = {
	    "setarrayitem_gc(p4, 0, 65, descr=<ArrayU 1>)\n",
	    "i9 = int_add(i2, 1)\n", /* the list of chars has no type */
	    "setarrayitem_gc(p4, 0, 65, descr=<ArrayU 1>)\n" /* two */
	    "i9 = getarrayitem_gc_i(p4, 0, descr=<ArrayS 8>)\n",
	};
	for (int v = 0; v < 3; v++) {
		char text[1200];
		snprintf(
		    text, sizeof text,
		    "[1] {jit-log-noopt\n"
		    "[p0, p1, i2]\n"
		    "p3 = getfield_gc_r(p0, descr=<FieldP list.items 16>)\n"
		    "i5 = getarrayitem_gc_i(p3, i2, descr=<ArrayS 8>)\n"
		    "p4 = getfield_gc_r(p1, descr=<FieldP list.items 16>)\n"
		    "%s"
		    "i6 = getfield_gc_i(p0, descr=<FieldS list.length 8>)\n"
		    "finish(i6)\n"
		    "[2] jit-log-noopt}\n"
		    "[3] {jit-log-opt-bridge\n"
		    "# bridge out of Guard 0x7f0d with 2 ops\n"
		    "[p10, p11, i12]\n"
		    "+1: i16 = getfield_gc_i(p10, descr=<FieldS list.length "
		    "8>)\n"
		    "+2: finish(i16)\n"
		    "[4] jit-log-opt-bridge}\n",
		    items[v]);
		pl_log log;
		const pl_pair *p = read_pair(text, 1, 0, &log);
		if (!p)
			return;
		const ir_trace *o = p->orig;
		CHECK(!strcmp(ir_strtext(o, o->ops[0].descr),
			      v ? "<FieldP list.items 16>"
				: "<FieldP list:ArrayS8.items 16>"));
		CHECK(!strcmp(ir_strtext(o, o->ops[2].descr),
			      v ? "<FieldP list.items 16>"
				: "<FieldP list:ArrayU1.items 16>"));
		CHECK(!strcmp(ir_strtext(p->opt, p->opt->ops[0].descr),
			      v ? "<FieldS list.length 8>"
				: "<FieldS list:ArrayS8.length 8>"));
		pl_free(&log);
	}
	/* a list field too long to rename leaves every name as it was */
	char longf[400], text[1600];
	memset(longf, 'x', 250);
	longf[250] = 0;
	snprintf(text, sizeof text,
		 "[1] {jit-log-noopt\n"
		 "[p0, i2]\n"
		 "p3 = getfield_gc_r(p0, descr=<FieldP list.items 16>)\n"
		 "i5 = getarrayitem_gc_i(p3, i2, descr=<ArrayS 8>)\n"
		 "i6 = getfield_gc_i(p0, descr=<FieldS list.%s 8>)\n"
		 "finish(i6)\n"
		 "[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f0e with 1 ops\n"
		 "[p10, i12]\n"
		 "+1: p13 = getfield_gc_r(p10, descr=<FieldP list.items 16>)\n"
		 "+2: i15 = getarrayitem_gc_i(p13, i12, descr=<ArrayS 8>)\n"
		 "+3: i16 = getfield_gc_i(p10, descr=<FieldS list.%s 8>)\n"
		 "+4: finish(i16)\n"
		 "[4] jit-log-opt-bridge}\n",
		 longf, longf);
	pl_log log;
	const pl_pair *p = read_pair(text, 1, 0, &log);
	if (!p)
		return;
	CHECK(!strcmp(ir_strtext(p->orig, p->orig->ops[0].descr),
		      "<FieldP list.items 16>"));
	pl_free(&log);
}

int main(void)
{
	test_str_slices();
	test_str_slice_guard();
	test_str_slice_from_end();
	test_unused_pure_calls();
	test_repeated_pure_calls();
	test_forwarded_pure_repeat();
	test_str_copies();
	test_str_slice_copies();
	test_str_slice_turned_guards();
	test_virtual_refs();
	test_left_apart();
	test_global_cells();
	test_float_div_pow2();
	test_float_mul_one();
	test_arraycopy_force_token();
	test_bridge_facts();
	test_oopspec_calls();
	test_classes_raw_ptrs();
	test_entry_bridge();
	test_loop_and_bridge();
	test_refusals();
	test_list_types();
	return check_summary("test_pypylog");
}
