/* ir/pypylog_ptrs.c: ConstPtr names of the optimized trace that the
 * roles alone leave apart, paired by what becomes of the object they are
 * stored into (holder_fate): the frame the optimizer kept is the one
 * passed to call_assembler, and with several such frames in both traces
 * the k-th pairs with the k-th (memo's recursive calls). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"

#define WREF                                                                   \
	"descr=<FieldP "                                                       \
	"pypy.interpreter.pyframe.PyFrame.inst_f_generator_wref 32>)\n"

/* A log of one bridge: ORIG's ops (unoptimized, inputs [p0]) and OPT's
 * (optimized, inputs [p10], no offsets needed beyond "+N: "). */
static bool read_one(const char *orig, const char *opt, pl_log *log)
{
	char text[4096];
	snprintf(text, sizeof text,
		 "[1] {jit-log-noopt\n[p0]\n%s[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f0000140000 with 4 ops\n"
		 "[p10]\n%s[4] jit-log-opt-bridge}\n",
		 orig, opt);
	jp_err e;
	CHECK(pl_read_text(text, strlen(text), "t.log", NULL, log, &e) ==
	      JP_OK);
	bool ok = log->n == 1 && log->pairs[0].orig && log->pairs[0].opt;
	CHECK(ok);
	return ok;
}

/* Whether the ConstPtr name S is the log's ptrN N (with its section
 * prefix, "s3_ptr4"). */
static bool is_ptr(const char *s, const char *n)
{
	size_t a = strlen(s), b = strlen(n);
	return a > b && s[a - b - 1] == '_' && !strcmp(s + a - b, n);
}

/* Whether the ConstPtr name stored by the K-th setfield_gc of T is the
 * log's ptrN (with its section prefix). */
static bool stores_ptr(const ir_trace *t, uint32_t k, const char *n)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_SETFIELD_GC || k-- != 0)
			continue;
		return is_ptr(ir_valname(t, op->args[1]), n);
	}
	return false;
}

/* Reads TEXT, a log of one pair, into LOG: the pair's optimized trace, or
 * NULL (a failed check says so; LOG is freed then). */
static const ir_trace *read_opt(const char *text, pl_log *log)
{
	jp_err e;
	CHECK(pl_read_text(text, strlen(text), "t.log", NULL, log, &e) ==
	      JP_OK);
	CHECK(log->n == 1 && log->pairs[0].opt);
	if (log->n == 1 && log->pairs[0].opt)
		return log->pairs[0].opt;
	pl_free(log);
	return NULL;
}

#define BACKREF                                                                \
	"descr=<FieldP pypy.interpreter.pyframe.PyFrame.inst_f_backref 24>)\n"

/* Two frames, the second passed to call_assembler, where the optimized
 * trace keeps that one: its constant is the kept frame's.  Variant 1
 * makes the first frame the second one's f_backref and forces the second
 * (a cond_call force_virtualizable on its vable_token) before the
 * call_assembler: PyPy drops that call for a frame it keeps virtual, so
 * it tells nothing of what becomes of the frame (obj_fate;
 * bowling_score's bridges). */
static void test_kept_frame(void)
{
	for (int forced = 0; forced < 2; forced++) {
		char orig[900];
		snprintf(orig, sizeof orig,
			 "p1 = new_with_vtable(descr=PyFrame)\n"
			 "setfield_gc(p1, ConstPtr(ptr2), " WREF
			 "p3 = new_with_vtable(descr=PyFrame)\n"
			 "setfield_gc(p3, ConstPtr(ptr4), " WREF "%s"
			 "p5 = call_assembler_r(p3, p0, descr=<Loop1>)\n"
			 "finish(p5)\n",
			 forced
			     ? "setfield_gc(p3, p1, " BACKREF
			       "p6 = getfield_gc_r(p3, descr=<FieldP "
			       "pypy.interpreter.pyframe.PyFrame.vable_token "
			       "8>)\n"
			       "i7 = ptr_ne(p6, NULL)\n"
			       "cond_call(i7, ConstClass(fv), p3, "
			       "descr=<Callv 0 r EF=2 OS=121>)\n"
			     : "");
		pl_log log;
		if (!read_one(orig,
			      "+1: p13 = new_with_vtable(descr=PyFrame)\n"
			      "+2: setfield_gc(p13, ConstPtr(ptr14), " WREF
			      "+3: p15 = call_assembler_r(p13, p10, "
			      "descr=<Loop1>)\n"
			      "+4: finish(p15)\n",
			      &log))
			return;
		const pl_pair *p = &log.pairs[0];
		if (!forced)
			CHECK(p->nsame == 1);
		CHECK(stores_ptr(p->opt, 0, "ptr4"));
		pl_free(&log);
	}
}

static void test_frames_in_turn(void)
{
	pl_log log;
	if (!read_one("p1 = new_with_vtable(descr=PyFrame)\n"
		      "setfield_gc(p1, ConstPtr(ptr2), " WREF
		      "p3 = new_with_vtable(descr=PyFrame)\n"
		      "setfield_gc(p3, ConstPtr(ptr4), " WREF
		      "p5 = call_assembler_r(p3, p0, descr=<Loop1>)\n"
		      "p6 = new_with_vtable(descr=PyFrame)\n"
		      "setfield_gc(p6, ConstPtr(ptr7), " WREF
		      "p8 = call_assembler_r(p6, p0, descr=<Loop1>)\n"
		      "finish(p8)\n",
		      "+1: p13 = new_with_vtable(descr=PyFrame)\n"
		      "+2: setfield_gc(p13, ConstPtr(ptr14), " WREF
		      "+3: p15 = call_assembler_r(p13, p10, descr=<Loop1>)\n"
		      "+4: p16 = new_with_vtable(descr=PyFrame)\n"
		      "+5: setfield_gc(p16, ConstPtr(ptr17), " WREF
		      "+6: p18 = call_assembler_r(p16, p10, descr=<Loop1>)\n"
		      "+7: finish(p18)\n",
		      &log))
		return;
	const pl_pair *p = &log.pairs[0];
	CHECK(p->nsame == 2);
	CHECK(stores_ptr(p->opt, 0, "ptr4"));
	CHECK(stores_ptr(p->opt, 1, "ptr7"));
	pl_free(&log);
	/* Three frames passed on one side, two on the other: no pairing by
	 * place. */
	if (!read_one("p1 = new_with_vtable(descr=PyFrame)\n"
		      "setfield_gc(p1, ConstPtr(ptr2), " WREF
		      "p3 = call_assembler_r(p1, p0, descr=<Loop1>)\n"
		      "p4 = new_with_vtable(descr=PyFrame)\n"
		      "setfield_gc(p4, ConstPtr(ptr5), " WREF
		      "p6 = call_assembler_r(p4, p0, descr=<Loop1>)\n"
		      "p7 = new_with_vtable(descr=PyFrame)\n"
		      "setfield_gc(p7, ConstPtr(ptr8), " WREF
		      "p9 = call_assembler_r(p7, p0, descr=<Loop1>)\n"
		      "finish(p9)\n",
		      "+1: p13 = new_with_vtable(descr=PyFrame)\n"
		      "+2: setfield_gc(p13, ConstPtr(ptr14), " WREF
		      "+3: p15 = call_assembler_r(p13, p10, descr=<Loop1>)\n"
		      "+4: p16 = new_with_vtable(descr=PyFrame)\n"
		      "+5: setfield_gc(p16, ConstPtr(ptr17), " WREF
		      "+6: p18 = call_assembler_r(p16, p10, descr=<Loop1>)\n"
		      "+7: finish(p18)\n",
		      &log))
		return;
	CHECK(log.pairs[0].nsame == 0);
	pl_free(&log);
}

/* A constant stored into an item of the frame's locals array: the array
 * kept is the one stored into the frame passed to call_assembler, and
 * the item's constant index is part of its place (sparse_dot). */
static void test_locals_item(void)
{
	pl_log log;
#define LOCALS                                                                 \
	"descr=<FieldP pypy.interpreter.pyframe.PyFrame.inst_locals_cells_"    \
	"stack_w 56>)\n"
	if (!read_one(
		"p1 = new(descr=<ArrayP 8>)\n"
		"p2 = new_with_vtable(descr=PyFrame)\n"
		"setfield_gc(p2, p1, " LOCALS "p5 = new(descr=<ArrayP 8>)\n"
		"setarrayitem_gc(p5, 2, ConstPtr(ptr6), descr=<ArrayP 8>)\n"
		"i8 = getarrayitem_gc_i(p5, 0, descr=<ArrayP 8>)\n"
		"setarrayitem_gc(p1, 2, ConstPtr(ptr3), descr=<ArrayP 8>)\n"
		"setarrayitem_gc(p1, 5, ConstPtr(ptr4), descr=<ArrayP 8>)\n"
		"p7 = call_assembler_r(p2, p0, i8, descr=<Loop1>)\n"
		"finish(p7)\n",
		"+1: p11 = new(descr=<ArrayP 8>)\n"
		"+2: setarrayitem_gc(p11, 2, ConstPtr(ptr12), "
		"descr=<ArrayP 8>)\n"
		"+3: setarrayitem_gc(p11, 5, ConstPtr(ptr14), "
		"descr=<ArrayP 8>)\n"
		"+4: p13 = new_with_vtable(descr=PyFrame)\n"
		"+5: setfield_gc(p13, p11, " LOCALS
		"+6: p15 = call_assembler_r(p13, p10, 0, descr=<Loop1>)\n"
		"+7: finish(p15)\n",
		&log))
		return;
	const pl_pair *p = &log.pairs[0];
	const ir_trace *t = p->opt;
	CHECK(t->ops[1].opc == IR_SETARRAYITEM_GC);
	const char *s = ir_valname(t, t->ops[1].args[2]);
	CHECK(strlen(s) > 5 && !strcmp(s + strlen(s) - 5, "_ptr3"));
	pl_free(&log);
}

/* A constant compared with an object the trace allocated plays no role
 * the optimized trace keeps (the comparison folds): the constant left
 * apart (another item: no full role) pairs with the one compared with a
 * list item (fnv_table). */
static void test_folded_compare(void)
{
	pl_log log;
	if (!read_one("p1 = getfield_gc_r(p0, descr=<FieldP l.L.items 8>)\n"
		      "p2 = getarrayitem_gc_r(p1, 0, descr=<ArrayP 8>)\n"
		      "i3 = instance_ptr_eq(ConstPtr(ptr4), p2)\n"
		      "guard_true(i3)\n"
		      "p5 = new_with_vtable(descr=W_IntObject)\n"
		      "i6 = instance_ptr_eq(ConstPtr(ptr7), p5)\n"
		      "guard_false(i6)\n"
		      "finish()\n",
		      "+1: p11 = getfield_gc_r(p10, descr=<FieldP l.L.items "
		      "8>)\n"
		      "+2: p12 = getarrayitem_gc_r(p11, 1, descr=<ArrayP 8>)\n"
		      "+3: i13 = ptr_eq(ConstPtr(ptr14), p12)\n"
		      "+4: guard_true(i13, descr=<Guard0x1>) [p10]\n"
		      "+5: finish()\n",
		      &log))
		return;
	const ir_trace *t = log.pairs[0].opt;
	CHECK(t->nops > 2 && t->ops[2].opc == IR_PTR_EQ);
	const char *s = t->nops > 2 ? ir_valname(t, t->ops[2].args[0]) : "";
	CHECK(strlen(s) > 5 && !strcmp(s + strlen(s) - 5, "_ptr4"));
	pl_free(&log);
}

/* Whether the K-th guard_value of T compares with the log's ptrN. */
static bool guards_ptr(const ir_trace *t, uint32_t k, const char *n)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc != IR_GUARD_VALUE || op->nargs != 2 ||
		    ir_val(t, op->args[1])->tag != IR_VAL_CONST_PTR || k-- != 0)
			continue;
		return is_ptr(ir_valname(t, op->args[1]), n);
	}
	return false;
}

#define WLOC                                                                   \
	"descr=<FieldP pypy.interpreter.pyframe.FrameDebugData.inst_w_locals " \
	"64>)\n"
#define CALLF "call_n(ConstClass(f), descr=<Callv 0 EF=5>)\n"

/* A role with three names in ORIG and two in OPT (the optimizer dropped
 * the promotion between the two calls): the names pair in order where
 * both traces have as many between the same two calls -- before the
 * first call and after the second -- and nowhere else (fnv_table). */
static void test_by_piece(void)
{
	pl_log log;
	if (!read_one("p1 = getfield_gc_r(p0, " WLOC
		      "guard_value(p1, ConstPtr(ptr2))\n" CALLF
		      "p3 = getfield_gc_r(p0, " WLOC
		      "guard_value(p3, ConstPtr(ptr4))\n" CALLF
		      "p5 = getfield_gc_r(p0, " WLOC
		      "guard_value(p5, ConstPtr(ptr6))\n"
		      "finish()\n",
		      "+1: p11 = getfield_gc_r(p10, " WLOC
		      "+2: guard_value(p11, ConstPtr(ptr12), descr=<Guard0x1>) "
		      "[p10]\n"
		      "+3: " CALLF "+4: " CALLF
		      "+5: p15 = getfield_gc_r(p10, " WLOC
		      "+6: guard_value(p15, ConstPtr(ptr16), descr=<Guard0x2>) "
		      "[p10]\n"
		      "+7: finish()\n",
		      &log))
		return;
	const ir_trace *t = log.pairs[0].opt;
	CHECK(guards_ptr(t, 0, "ptr2"));
	CHECK(guards_ptr(t, 1, "ptr6"));
	CHECK(log.pairs[0].nsame == 2);
	pl_free(&log);
	/* with as many promotions between the calls too, they pair in order
	 * as a whole (the rule before this one); and with no call between
	 * the original's two reads of the field, their two constants are one
	 * object (stored_const): the class takes the first name */
	if (!read_one("p1 = getfield_gc_r(p0, " WLOC
		      "guard_value(p1, ConstPtr(ptr2))\n" CALLF
		      "p5 = getfield_gc_r(p0, " WLOC
		      "guard_value(p5, ConstPtr(ptr6))\n"
		      "finish()\n",
		      "+1: p11 = getfield_gc_r(p10, " WLOC
		      "+2: guard_value(p11, ConstPtr(ptr12), descr=<Guard0x1>) "
		      "[p10]\n"
		      "+5: p15 = getfield_gc_r(p10, " WLOC
		      "+6: guard_value(p15, ConstPtr(ptr16), descr=<Guard0x2>) "
		      "[p10]\n"
		      "+3: " CALLF "+7: finish()\n",
		      &log))
		return;
	t = log.pairs[0].opt;
	CHECK(guards_ptr(t, 0, "ptr2"));
	CHECK(guards_ptr(t, 1, "ptr2"));
	pl_free(&log);
}

#define CALLG "call_n(ConstClass(g), descr=<Callv 0 EF=5>)\n"

/* A role with two names in ORIG and one in OPT, where ORIG makes a call
 * (g) that OPT does not: the pieces make different numbers of calls, so
 * the stretches are bounded by the calls both make (f), and the name
 * after f pairs with the original's one after f (unite_by_stretch;
 * parking_garage's bridges guard a map after a call_assembler).  With
 * the optimized promotion before f, it pairs with the first; with two
 * promotions after f in the original against one, with nothing. */
static void test_by_stretch(void)
{
	static const char *const orig[] = {
	    "p1 = getfield_gc_r(p0, " WLOC
	    "guard_value(p1, ConstPtr(ptr2))\n" CALLF CALLG
	    "p5 = getfield_gc_r(p0, " WLOC
	    "guard_value(p5, ConstPtr(ptr6))\nfinish()\n",
	    "p1 = getfield_gc_r(p0, " WLOC
	    "guard_value(p1, ConstPtr(ptr2))\n" CALLF CALLG
	    "p5 = getfield_gc_r(p0, " WLOC
	    "guard_value(p5, ConstPtr(ptr6))\nfinish()\n",
	    "p1 = getfield_gc_r(p0, " WLOC
	    "guard_value(p1, ConstPtr(ptr2))\n" CALLF
	    "p3 = getfield_gc_r(p0, " WLOC
	    "guard_value(p3, ConstPtr(ptr4))\n" CALLG
	    "p5 = getfield_gc_r(p0, " WLOC
	    "guard_value(p5, ConstPtr(ptr6))\nfinish()\n",
	};
	static const char *const after =
	    "+3: " CALLF "+5: p15 = getfield_gc_r(p10, " WLOC
	    "+6: guard_value(p15, ConstPtr(ptr16), descr=<Guard0x2>) [p10]\n"
	    "+7: finish()\n";
	static const char *const before =
	    "+5: p15 = getfield_gc_r(p10, " WLOC
	    "+6: guard_value(p15, ConstPtr(ptr16), descr=<Guard0x2>) [p10]\n"
	    "+3: " CALLF "+7: finish()\n";
	static const char *const want[] = {"ptr6", "ptr2", "ptr16"};
	for (int v = 0; v < 3; v++) {
		pl_log log;
		if (!read_one(orig[v], v == 1 ? before : after, &log))
			return;
		CHECK(guards_ptr(log.pairs[0].opt, 0, want[v]));
		pl_free(&log);
	}
}

/* The name of ConstPtr argument J of the K-th call of ConstClass(F) in
 * T, or "". */
static const char *call_arg(const ir_trace *t, const char *f, uint32_t k,
			    uint32_t j)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->nargs <= j ||
		    ir_val(t, op->args[0])->tag != IR_VAL_CONST_CLASS ||
		    strcmp(ir_valname(t, op->args[0]), f) || k-- != 0)
			continue;
		return ir_val(t, op->args[j])->tag == IR_VAL_CONST_PTR
			   ? ir_valname(t, op->args[j])
			   : "";
	}
	return "";
}

#define APP  "ConstClass(app)"
#define APPD "descr=<Callv 0 rrii EF=5>)\n"
#define LEN  "descr=<FieldS rpy_string.length 8>)\n"

/* The k-th call of a function both traces call as many times passes the
 * same object in the same place (unite_call_args): config_lexer's "%s"
 * formatting appends a format string's tail from ConstPtr(ptr2), 15 to
 * its length, where the optimized trace appends from ConstPtr(ptr13), 15
 * to 15, the name its head's append had (variant 0; the roles differ in
 * the other arguments).  Not when the optimized trace calls the function
 * once more (1), nor when its second call is of another function (2). */
static void test_call_args(void)
{
	static const char *const orig =
	    "call_n(" APP ", p0, ConstPtr(ptr3), 0, 13, " APPD
	    "i4 = getfield_gc_i(ConstPtr(ptr2), " LEN "call_n(" APP
	    ", p0, ConstPtr(ptr2), 15, i4, " APPD "finish()\n";
	static const char *const tail[] = {"app", "app", "other"};
	for (int v = 0; v < 3; v++) {
		char opt[600];
		snprintf(opt, sizeof opt,
			 "+1: call_n(" APP
			 ", p10, ConstPtr(ptr13), 0, 13, " APPD
			 "%s+3: call_n(ConstClass(%s), p10, ConstPtr(ptr13), "
			 "15, 15, " APPD "+4: finish()\n",
			 v == 1 ? "+2: call_n(" APP
				  ", p10, ConstPtr(ptr13), 13, 13, " APPD
				: "",
			 tail[v]);
		pl_log log;
		if (!read_one(orig, opt, &log))
			continue;
		const pl_pair *p = &log.pairs[0];
		const char *a = call_arg(p->orig, "app", 1, 2);
		const char *b = call_arg(p->opt, tail[v],
					 v == 1 ? 2
					 : v	? 0
						: 1,
					 2);
		CHECK(*a && *b);
		CHECK((strcmp(a, b) == 0) == (v == 0));
		pl_free(&log);
	}
}

#define STRAT                                                                  \
	"descr=<FieldP "                                                       \
	"pypy.objspace.std.listobject.W_ListObject.inst_strategy 16>)\n"

/* A store the next store of the same field of the same object overwrites
 * before anything can see it plays no role (overwritten): a new list's
 * strategy set to the empty strategy, then to the one it gets, where the
 * optimized trace stores only the second (topo_sort).  Its last store
 * pairs with the optimized trace's (variant 0).  With a guard between
 * too (1): the list is still the trace's own, the optimizer keeps it
 * virtual there, and an exit shows the first strategy in resume data the
 * log does not print (json_pretty).  Not once the list has escaped
 * before the first store (2: stored into an input object): an exit shows
 * the first store, and the role has two names against one: nothing. */
static void test_overwritten_store(void)
{
	for (int v = 0; v < 3; v++) {
		char orig[700];
		snprintf(orig, sizeof orig,
			 "p1 = new_with_vtable(descr=W_ListObject)\n%s"
			 "setfield_gc(p1, ConstPtr(ptr2), " STRAT "%s"
			 "setfield_gc(p1, ConstPtr(ptr3), " STRAT
			 "call_n(ConstClass(f), p1, descr=<Callv 0 r EF=5>)\n"
			 "finish()\n",
			 v == 2 ? "setfield_gc(p0, p1, " WLOC : "",
			 v ? "guard_nonnull(p0)\n" : "");
		pl_log log;
		if (!read_one(orig,
			      "+1: p11 = new_with_vtable(descr=W_ListObject)\n"
			      "+2: setfield_gc(p11, ConstPtr(ptr12), " STRAT
			      "+3: call_n(ConstClass(f), p11, descr=<Callv 0 r "
			      "EF=5>)\n"
			      "+4: finish()\n",
			      &log))
			return;
		const pl_pair *p = &log.pairs[0];
		CHECK(p->nsame == (v == 2 ? 0 : 1));
		CHECK(stores_ptr(p->opt, 0, v == 2 ? "ptr12" : "ptr3"));
		pl_free(&log);
	}
}

#define TABLE(r, a, i)                                                         \
	r " = getarrayitem_gc_i(ConstPtr(" a "), " i ", descr=<ArrayU 2>)\n"

/* Three lookups in three prebuilt tables whose indices the two traces
 * compute from values in other places: the full roles differ, and in its
 * shallow role ORIG has three objects.  In order, as many on both sides,
 * they pair (expr_eval's unicodedb lookups); with one lookup fewer on one
 * side nothing pairs. */
static void test_same_order(void)
{
	for (int fewer = 0; fewer < 2; fewer++) {
		char opt[600];
		snprintf(opt, sizeof opt,
			 "+1: i11 = int_add(i10, 1)\n"
			 "+2: " TABLE("i12", "ptr13", "i11") "+3: " TABLE(
			     "i14", "ptr15", "i12") "%s"
						    "+5: finish(i16)\n",
			 fewer ? "+4: i16 = int_add(i14, 1)\n"
			       : "+4: " TABLE("i16", "ptr17", "i14"));
		pl_log log;
		char text[4096];
		snprintf(text, sizeof text,
			 "[1] {jit-log-noopt\n[i0]\n" TABLE("i1", "ptr2", "i0")
			     TABLE("i3", "ptr4", "i1") TABLE(
				 "i5", "ptr6",
				 "i3") "finish(i5)\n[2] jit-log-noopt}\n"
				       "[3] {jit-log-opt-bridge\n"
				       "# bridge out of Guard 0x7f0000190000 "
				       "with 4 ops\n"
				       "[i10]\n%s[4] jit-log-opt-bridge}\n",
			 opt);
		const ir_trace *t = read_opt(text, &log);
		if (!t)
			return;
		const char *first = ir_valname(t, t->ops[1].args[0]);
		CHECK(log.pairs[0].nsame == (fewer ? 0 : 3));
		CHECK(is_ptr(first, fewer ? "ptr13" : "ptr2"));
		pl_free(&log);
	}
}

/* One role, as many occurrences in neither trace: twice, the unoptimized
 * trace stores a list strategy into a list that dies (the optimizer made
 * it virtual) and into one it appends; the optimized one stores it only
 * into the two it appends, under two names (knapsack_dp's preamble and
 * body), a call between.  An object's fate counts the arrays it is
 * stored into as an item (obj_fate), so the appended lists are told from
 * the ones that die and pair in order.  When the optimized lists go to a
 * call instead, no place matches and the first naming leaves the names
 * apart; the second, after the lists that die are taken apart as private
 * objects (since session 36), finds one object left in the role, ptr4,
 * and names both that. */
static void test_by_fate(void)
{
	for (int called = 0; called < 2; called++) {
		char text[3072], opt[1024];
		const char *fate = called ? "call_n(ConstClass(f), %s, "
					    "descr=<Callv 0 r EF=5>)\n"
					  : "setarrayitem_gc(p10, %s, %s, "
					    "descr=<ArrayP 8>)\n";
		char f1[128], f2[128];
		snprintf(f1, sizeof f1, fate, called ? "p11" : "0", "p11");
		snprintf(f2, sizeof f2, fate, called ? "p13" : "1", "p13");
		snprintf(opt, sizeof opt,
			 "+1: p11 = new_with_vtable(descr=W_ListObject)\n"
			 "+2: setfield_gc(p11, ConstPtr(ptr12), " STRAT "+3: %s"
			 "+35: call_n(ConstClass(g), descr=<Callv 0 EF=5>)\n"
			 "+4: p13 = new_with_vtable(descr=W_ListObject)\n"
			 "+5: setfield_gc(p13, ConstPtr(ptr14), " STRAT
			 "+6: %s",
			 f1, f2);
		snprintf(text, sizeof text,
			 "[1] {jit-log-noopt\n[p0]\n"
			 "p1 = new_with_vtable(descr=W_ListObject)\n"
			 "setfield_gc(p1, ConstPtr(ptr2), " STRAT
			 "p3 = new_with_vtable(descr=W_ListObject)\n"
			 "setfield_gc(p3, ConstPtr(ptr4), " STRAT
			 "setarrayitem_gc(p0, 0, p3, descr=<ArrayP 8>)\n"
			 "call_n(ConstClass(g), descr=<Callv 0 EF=5>)\n"
			 "p5 = new_with_vtable(descr=W_ListObject)\n"
			 "setfield_gc(p5, ConstPtr(ptr2), " STRAT
			 "p6 = new_with_vtable(descr=W_ListObject)\n"
			 "setfield_gc(p6, ConstPtr(ptr4), " STRAT
			 "setarrayitem_gc(p0, 1, p6, descr=<ArrayP 8>)\n"
			 "finish()\n[2] jit-log-noopt}\n"
			 "[3] {jit-log-opt-bridge\n"
			 "# bridge out of Guard 0x7f00001a0000 with 6 ops\n"
			 "[p10]\n%s+7: finish()\n[4] jit-log-opt-bridge}\n",
			 opt);
		pl_log log;
		const ir_trace *t = read_opt(text, &log);
		if (!t)
			return;
		CHECK(stores_ptr(t, 0, "ptr4"));
		CHECK(stores_ptr(t, 1, "ptr4"));
		pl_free(&log);
	}
}

#define MAP "descr=<FieldP pypy.interpreter.typedef.W_Obj.inst_map 48>)\n"

/* A field of an object the trace did not make, promoted twice with no
 * call and no store of the field between: the two constants are one
 * object (a loop's second iteration promotes again the map of the node
 * the first one passes on, trie_words), and the optimized trace, which
 * promotes once, names it alike.  Not across a call, nor across a store
 * of the field through another object. */
static void test_promoted_twice(void)
{
	const char *between[] = {"", CALLF,
				 "setfield_gc(p9, ConstPtr(ptr7), " MAP};
	for (int k = 0; k < 3; k++) {
		char orig[800];
		snprintf(orig, sizeof orig,
			 "p1 = getfield_gc_r(p0, " MAP
			 "guard_value(p1, ConstPtr(ptr2))\n"
			 "p9 = getfield_gc_r(p0, descr=<FieldP m.M.inst_x 8>)\n"
			 "%s"
			 "p3 = getfield_gc_r(p0, " MAP
			 "guard_value(p3, ConstPtr(ptr4))\n"
			 "finish()\n",
			 between[k]);
		pl_log log;
		if (!read_one(orig,
			      "+1: p11 = getfield_gc_r(p10, " MAP
			      "+2: guard_value(p11, ConstPtr(ptr12), "
			      "descr=<Guard0x1>) [p10]\n"
			      "+3: finish()\n",
			      &log))
			return;
		const ir_trace *o = log.pairs[0].orig;
		uint32_t last = 0;
		for (uint32_t i = 0; i < o->nops; i++)
			if (o->ops[i].opc == IR_GUARD_VALUE)
				last = i;
		const char *n = ir_valname(o, o->ops[last].args[1]);
		CHECK(k == 0 ? is_ptr(n, "ptr2") : is_ptr(n, "ptr4"));
		pl_free(&log);
	}
}

/* Two instance comparisons of one value with two constants, the first
 * before its class is known, the second after: PyPy's optimizer cannot
 * fold the first, and keeps it; it folded the second by classes.  So the
 * optimized trace's one comparison is the first's constant
 * (pl_class_foldable: a comparison PyPy may have folded plays no role). */
static void test_unfoldable_compare(void)
{
	pl_log log;
	if (!read_one("p1 = getfield_gc_r(p0, descr=<FieldP m.M.inst_x 8>)\n"
		      "guard_nonnull(p1)\n"
		      "i2 = instance_ptr_eq(ConstPtr(ptr2), p1)\n"
		      "guard_false(i2)\n"
		      "guard_class(p1, ConstClass(W_A))\n"
		      "i3 = instance_ptr_eq(ConstPtr(ptr3), p1)\n"
		      "guard_false(i3)\n"
		      "finish()\n",
		      "+1: p11 = getfield_gc_r(p10, descr=<FieldP m.M.inst_x "
		      "8>)\n"
		      "+2: guard_nonnull_class(p11, ConstClass(W_A), "
		      "descr=<Guard0x1>) [p10]\n"
		      "+3: i12 = instance_ptr_eq(ConstPtr(ptr5), p11)\n"
		      "+4: guard_false(i12, descr=<Guard0x2>) [p10]\n"
		      "+5: finish()\n",
		      &log))
		return;
	const ir_trace *t = log.pairs[0].opt;
	bool found = false;
	for (uint32_t i = 0; i < t->nops; i++)
		if (t->ops[i].opc == IR_PTR_EQ) {
			found = true;
			CHECK(is_ptr(ir_valname(t, t->ops[i].args[0]), "ptr2"));
		}
	CHECK(found);
	pl_free(&log);
}

#define WTYPE                                                                  \
	"descr=<FieldP pypy.interpreter.error.OperationError.inst_w_type "     \
	"24>)\n"

/* Stores PyPy drops play no role: those into an exception nothing looks
 * at (a StopIteration made when an iterator runs out, never_seen), and a
 * store overwritten with only a guard between that passes on every run
 * (a new object compared with a constant, sure_pass).  The optimized
 * trace's one store pairs with the last (parking_garage).  Also with a
 * guard that may fail between the two stores: the exception is the
 * trace's own, virtual in the optimized trace, and an exit shows the
 * first store in resume data (test_overwritten_store). */
static void test_dropped_stores(void)
{
	for (int may_fail = 0; may_fail < 2; may_fail++) {
		char orig[1200];
		snprintf(orig, sizeof orig,
			 "p1 = new_with_vtable(descr=OperationError)\n"
			 "setfield_gc(p1, ConstPtr(ptr2), " WTYPE
			 "p3 = new_with_vtable(descr=OperationError)\n"
			 "setfield_gc(p3, ConstPtr(ptr4), " WTYPE
			 "p8 = new_with_vtable(descr=W_Exc)\n"
			 "i9 = ptr_eq(ConstPtr(ptr7), %s)\n"
			 "guard_false(i9)\n"
			 "setfield_gc(p3, ConstPtr(ptr5), " WTYPE
			 "finish(p3, p8)\n",
			 may_fail ? "p0" : "p8");
		pl_log log;
		if (!read_one(
			orig,
			"+1: p13 = new_with_vtable(descr=OperationError)\n"
			"+2: setfield_gc(p13, ConstPtr(ptr15), " WTYPE
			"+3: p18 = new_with_vtable(descr=W_Exc)\n"
			"+4: finish(p13, p18)\n",
			&log))
			return;
		CHECK(stores_ptr(log.pairs[0].opt, 0, "ptr5"));
		pl_free(&log);
	}
}

/* A store of a constant the optimized trace does not have, into a field
 * promoted to another constant with no call between: PyPy dropped it as
 * the value the field holds, so the two constants are one object
 * (unite_restored; parking_garage's exception handlers).  Not across a
 * call, and not when the optimized trace stores a constant there too. */
static void test_restored_store(void)
{
	const char *between[] = {"", CALLF, ""};
	for (int k = 0; k < 3; k++) {
		char orig[800], opt[800];
		snprintf(orig, sizeof orig,
			 "p1 = getfield_gc_r(p0, " WTYPE
			 "guard_value(p1, ConstPtr(ptr2))\n"
			 "%s"
			 "setfield_gc(p0, ConstPtr(ptr3), " WTYPE "finish()\n",
			 between[k]);
		snprintf(opt, sizeof opt,
			 "+1: p11 = getfield_gc_r(p10, " WTYPE
			 "+2: guard_value(p11, ConstPtr(ptr12), "
			 "descr=<Guard0x1>) [p10]\n"
			 "%s%s+4: finish()\n",
			 k == 1 ? "+3: " : "", k == 1 ? CALLF : "");
		if (k == 2)
			snprintf(opt + strlen(opt) - strlen("+4: finish()\n"),
				 sizeof opt - strlen(opt),
				 "+3: setfield_gc(p10, ConstPtr(ptr13), " WTYPE
				 "+4: finish()\n");
		pl_log log;
		if (!read_one(orig, opt, &log))
			return;
		CHECK(
		    stores_ptr(log.pairs[0].orig, 0, k == 0 ? "ptr2" : "ptr3"));
		pl_free(&log);
	}
}

/* A constant of the optimized trace in a role the unoptimized trace does
 * not have (the map of an object it reaches another way: particle_box's
 * peeled body reads the next item of a list the preamble loaded), where
 * the op, the position and the ops making the other arguments match one
 * object of the unoptimized trace: that object (mid_role); nothing when
 * they match two. */
static void test_mid_role(void)
{
	for (int two = 0; two < 2; two++) {
		char orig[900];
		snprintf(orig, sizeof orig,
			 "p1 = getarrayitem_gc_r(p0, 0, descr=<ArrayP 8>)\n"
			 "p2 = getfield_gc_r(p1, " MAP
			 "guard_value(p2, ConstPtr(ptr3))\n"
			 "p4 = getfield_gc_r(p0, " WLOC
			 "guard_value(p4, ConstPtr(ptr5))\n"
			 "p6 = getfield_gc_r(p0, " STRAT
			 "guard_value(p6, ConstPtr(ptr7))\n"
			 "%sfinish()\n",
			 two ? "p8 = getfield_gc_r(p4, " MAP
			       "guard_value(p8, ConstPtr(ptr9))\n"
			     : "");
		pl_log log;
		if (!read_one(orig,
			      "+1: p11 = getfield_gc_r(p10, " WLOC
			      "+2: guard_value(p11, ConstPtr(ptr15), "
			      "descr=<Guard0x1>) [p10]\n"
			      "+3: p12 = getfield_gc_r(p10, " STRAT
			      "+4: p13 = getfield_gc_r(p12, " MAP
			      "+5: guard_value(p13, ConstPtr(ptr16), "
			      "descr=<Guard0x2>) [p10]\n"
			      "+6: finish()\n",
			      &log))
			return;
		const ir_trace *t = log.pairs[0].opt;
		CHECK(guards_ptr(t, 0, "ptr5"));
		CHECK(guards_ptr(t, 1, two ? "ptr16" : "ptr3"));
		pl_free(&log);
	}
}

/* Two objects' maps promoted, the first again later (one name: the
 * recording shows it is the same object); the optimized trace promotes
 * each once, the second object's index computed otherwise (the
 * optimizer folded "+ 0").  By full role only the first pairs; by the
 * order in which the objects first appear the second pairs too
 * (same_first_order: elo_ratings' bridge).  With the objects promoted
 * in the other order in the optimized trace, the first place disagrees
 * and the second name stays apart. */
static void test_first_order(void)
{
	for (int swap = 0; swap < 2; swap++) {
		const char *a = "+1: p12 = getarrayitem_gc_r(p10, 0, "
				"descr=<ArrayP 8>)\n"
				"+2: p13 = getfield_gc_r(p12, " MAP
				"+3: guard_value(p13, ConstPtr(ptr14), "
				"descr=<Guard0x1>) [p10, i11]\n";
		const char *b = "+4: p15 = getarrayitem_gc_r(p10, i11, "
				"descr=<ArrayP 8>)\n"
				"+5: p16 = getfield_gc_r(p15, " MAP
				"+6: guard_value(p16, ConstPtr(ptr17), "
				"descr=<Guard0x2>) [p10, i11]\n";
		char text[4096];
		snprintf(
		    text, sizeof text,
		    "[1] {jit-log-noopt\n[p0, i1]\n"
		    "p2 = getarrayitem_gc_r(p0, 0, descr=<ArrayP 8>)\n"
		    "p3 = getfield_gc_r(p2, " MAP
		    "guard_value(p3, ConstPtr(ptr4))\n"
		    "i5 = int_add(i1, 0)\n"
		    "p6 = getarrayitem_gc_r(p0, i5, descr=<ArrayP 8>)\n"
		    "p7 = getfield_gc_r(p6, " MAP
		    "guard_value(p7, ConstPtr(ptr8))\n"
		    "p9 = getfield_gc_r(p2, " MAP
		    "guard_value(p9, ConstPtr(ptr4))\n"
		    "finish()\n[2] jit-log-noopt}\n"
		    "[3] {jit-log-opt-bridge\n"
		    "# bridge out of Guard 0x7f00001a0000 with 7 ops\n"
		    "[p10, i11]\n%s%s+7: finish()\n[4] jit-log-opt-bridge}\n",
		    swap ? b : a, swap ? a : b);
		pl_log log;
		const ir_trace *t = read_opt(text, &log);
		if (!t)
			return;
		CHECK(guards_ptr(t, swap ? 1 : 0, "ptr4"));
		CHECK(guards_ptr(t, swap ? 0 : 1, swap ? "ptr17" : "ptr8"));
		pl_free(&log);
	}
}

/* A role where the optimizer moved a guard_value on another kind of
 * value up, before the map's: in the shallow role (any guard_value) the
 * objects appear in different orders, in the mid role (a guard_value of
 * a map) in the same order, and the maps pair there (parking_garage's
 * bridge).  ORIG checks the map three times (the second is the first's
 * object by its recording); OPT twice, around the same call. */
static void test_first_order_mid(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n[p0, i1]\n"
	    "p2 = getfield_gc_r(p0, " MAP "guard_value(p2, ConstPtr(ptr3))\n"
	    "p4 = getarrayitem_gc_r(p0, i1, descr=<ArrayP 8>)\n"
	    "guard_value(p4, ConstPtr(ptr5))\n"
	    "p6 = getfield_gc_r(p0, " MAP "guard_value(p6, ConstPtr(ptr7))\n"
	    "call_n(ConstClass(f), p0, descr=<Callv 0 r EF=5>)\n"
	    "p8 = getfield_gc_r(p0, " MAP "guard_value(p8, ConstPtr(ptr9))\n"
	    "finish()\n[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f00001a0000 with 7 ops\n"
	    "[p10, i11]\n"
	    "+1: p12 = getarrayitem_gc_r(p10, i11, descr=<ArrayP 8>)\n"
	    "+2: guard_value(p12, ConstPtr(ptr13), descr=<Guard0x1>) [p10]\n"
	    "+3: p14 = getfield_gc_r(p10, " MAP
	    "+4: guard_value(p14, ConstPtr(ptr15), descr=<Guard0x2>) [p10]\n"
	    "+5: call_n(ConstClass(f), p10, descr=<Callv 0 r EF=5>)\n"
	    "+6: p16 = getfield_gc_r(p10, " MAP
	    "+7: guard_value(p16, ConstPtr(ptr17), descr=<Guard0x3>) [p10]\n"
	    "+8: finish()\n[4] jit-log-opt-bridge}\n";
	pl_log log;
	const ir_trace *t = read_opt(text, &log);
	if (!t)
		return;
	CHECK(guards_ptr(t, 0, "ptr5"));
	CHECK(guards_ptr(t, 1, "ptr3"));
	CHECK(guards_ptr(t, 2, "ptr9"));
	pl_free(&log);
}

/* A new list's strategy set twice, with a read of the strategy of
 * another list between (bignum_digits' loop iterates over one list while
 * it fills a new one): the object read existed before the new list, so
 * it is not the new list and the first store is overwritten unseen.  The
 * optimized trace's one constant is the second (unite_live).  A read of
 * the new list's own strategy between keeps both stores, and nothing is
 * paired. */
static void test_store_past_older_read(void)
{
	for (int own = 0; own < 2; own++) {
		char orig[900];
		snprintf(orig, sizeof orig,
			 "p1 = new_with_vtable(descr=W_ListObject)\n"
			 "setfield_gc(p1, ConstPtr(ptr2), " STRAT
			 "p3 = getfield_gc_r(%s, " STRAT "guard_nonnull(p3)\n"
			 "setfield_gc(p1, ConstPtr(ptr5), " STRAT
			 "p6 = call_r(ConstClass(f), p1, descr=<Callr 8 r "
			 "EF=5>)\n"
			 "finish(p6)\n",
			 own ? "p1" : "p0");
		pl_log log;
		if (!read_one(orig,
			      "+1: p11 = getfield_gc_r(p10, " STRAT
			      "+2: guard_nonnull(p11, descr=<Guard0x1>) [p10]\n"
			      "+3: p12 = new_with_vtable(descr=W_ListObject)\n"
			      "+4: setfield_gc(p12, ConstPtr(ptr15), " STRAT
			      "+5: p16 = call_r(ConstClass(f), p12, "
			      "descr=<Callr 8 r EF=5>)\n"
			      "+6: finish(p16)\n",
			      &log))
			return;
		CHECK(stores_ptr(log.pairs[0].opt, 0, own ? "ptr15" : "ptr5"));
		pl_free(&log);
	}
}

#define CELL                                                                   \
	"descr=<FieldP pypy.objspace.std.typeobject.ObjectMutableCell."        \
	"inst_w_value 8>)\n"

/* A new instance put into a global cell and read back out of it, its map
 * promoted (points' loop: the second iteration reads what the first one
 * stored): on the recorded run the guard passed, so the constant it
 * promotes is the one stored (stored_const through forwarded).  Not
 * across a call, which may write the cell. */
static void test_map_through_cell(void)
{
	for (int call = 0; call < 2; call++) {
		char orig[900];
		snprintf(orig, sizeof orig,
			 "p1 = new_with_vtable(descr=W_Obj)\n"
			 "setfield_gc(p1, ConstPtr(ptr2), " MAP
			 "setfield_gc(ConstPtr(ptr3), p1, " CELL "%s"
			 "p4 = getfield_gc_r(ConstPtr(ptr3), " CELL
			 "p5 = getfield_gc_r(p4, " MAP
			 "guard_value(p5, ConstPtr(ptr6))\n"
			 "finish(p4)\n",
			 call ? CALLF : "");
		pl_log log;
		if (!read_one(orig, "+1: finish(p10)\n", &log))
			return;
		CHECK(guards_ptr(log.pairs[0].orig, 0, call ? "ptr6" : "ptr2"));
		pl_free(&log);
	}
}

/* An item stored at an index the trace computes from the length of an
 * array it made with a constant length: the optimizer computes that
 * index as the constant, and the roles compare it so (known_int).  A
 * second array stored between, in the optimized trace after, leaves the
 * order of the constants different in the two traces, so no pairing by
 * order finds it. */
static void test_index_from_length(void)
{
	pl_log log;
	if (!read_one("p1 = new(descr=<ArrayP 8>)\n"
		      "setfield_gc(p1, 2, descr=<ArrayP 8>.length)\n"
		      "setarrayitem_gc(p1, 0, ConstPtr(ptr2), "
		      "descr=<ArrayP 8>)\n"
		      "p7 = new(descr=<ArrayP 8>)\n"
		      "setfield_gc(p7, 1, descr=<ArrayP 8>.length)\n"
		      "setarrayitem_gc(p7, 0, ConstPtr(ptr8), "
		      "descr=<ArrayP 8>)\n"
		      "i3 = getfield_gc_i(p1, descr=<ArrayP 8>.length)\n"
		      "i4 = int_add(i3, -1)\n"
		      "setarrayitem_gc(p1, i4, ConstPtr(ptr5), "
		      "descr=<ArrayP 8>)\n"
		      "p6 = call_r(ConstClass(join), p1, p7, "
		      "descr=<Callr 8 rr EF=5>)\n"
		      "finish(p6)\n",
		      "+1: p11 = new(descr=<ArrayP 8>)\n"
		      "+2: setfield_gc(p11, 2, descr=<ArrayP 8>.length)\n"
		      "+3: setarrayitem_gc(p11, 0, ConstPtr(ptr12), "
		      "descr=<ArrayP 8>)\n"
		      "+4: setarrayitem_gc(p11, 1, ConstPtr(ptr13), "
		      "descr=<ArrayP 8>)\n"
		      "+5: p17 = new(descr=<ArrayP 8>)\n"
		      "+6: setfield_gc(p17, 1, descr=<ArrayP 8>.length)\n"
		      "+7: setarrayitem_gc(p17, 0, ConstPtr(ptr18), "
		      "descr=<ArrayP 8>)\n"
		      "+8: p14 = call_r(ConstClass(join), p11, p17, "
		      "descr=<Callr 8 rr EF=5>)\n"
		      "+9: finish(p14)\n",
		      &log))
		return;
	const ir_trace *t = log.pairs[0].opt;
	const char *want[] = {"ptr2", "ptr5", "ptr8"};
	uint32_t k = 0;
	for (uint32_t i = 0; i < t->nops; i++)
		if (t->ops[i].opc == IR_SETARRAYITEM_GC && k < 3)
			k += is_ptr(ir_valname(t, t->ops[i].args[2]), want[k]);
	CHECK(k == 3);
	pl_free(&log);
}

/* Two constants pushed through one slot of an input frame's value stack
 * before a call, where the optimized trace writes the slot once: the
 * call may read the slot, so what the original has there at the call
 * is the optimized trace's constant (item_at_call; anagram_groups,
 * bst_map).  Not when the optimized trace clears the slot again before
 * the call (its store is not what the call sees). */
static void test_item_at_call(void)
{
	for (int pop = 0; pop < 2; pop++) {
		char opt[700];
		snprintf(opt, sizeof opt,
			 "+1: p11 = getfield_gc_r(p10, " LOCALS
			 "+2: setarrayitem_gc(p11, 3, ConstPtr(ptr14), "
			 "descr=<ArrayP 8>)\n%s"
			 "+4: call_n(ConstClass(f), p10, descr=<Callv 0 r "
			 "EF=5>)\n"
			 "+5: finish()\n",
			 pop ? "+3: setarrayitem_gc(p11, 3, NULL, "
			       "descr=<ArrayP 8>)\n"
			     : "");
		pl_log log;
		if (!read_one("p1 = getfield_gc_r(p0, " LOCALS
			      "setarrayitem_gc(p1, 3, ConstPtr(ptr2), "
			      "descr=<ArrayP 8>)\n"
			      "setarrayitem_gc(p1, 3, ConstPtr(ptr4), "
			      "descr=<ArrayP 8>)\n"
			      "call_n(ConstClass(f), p0, descr=<Callv 0 r "
			      "EF=5>)\n"
			      "finish()\n",
			      opt, &log))
			return;
		const ir_trace *t = log.pairs[0].opt;
		const char *want = pop ? "ptr14" : "ptr4";
		bool ok = false;
		for (uint32_t i = 0; i < t->nops; i++)
			if (t->ops[i].opc == IR_SETARRAYITEM_GC &&
			    ir_val(t, t->ops[i].args[2])->tag ==
				IR_VAL_CONST_PTR)
				ok = is_ptr(ir_valname(t, t->ops[i].args[2]),
					    want);
		CHECK(ok);
		pl_free(&log);
	}
}

int main(void)
{
	test_kept_frame();
	test_frames_in_turn();
	test_locals_item();
	test_folded_compare();
	test_by_piece();
	test_by_stretch();
	test_call_args();
	test_overwritten_store();
	test_same_order();
	test_by_fate();
	test_promoted_twice();
	test_unfoldable_compare();
	test_dropped_stores();
	test_restored_store();
	test_mid_role();
	test_first_order();
	test_first_order_mid();
	test_store_past_older_read();
	test_map_through_cell();
	test_index_from_length();
	test_item_at_call();
	return check_summary("test_pypylog_ptrs");
}
