/* The static escape facts of the heap model (verify/heap_escape.c): a
 * store that puts back what a load of the same field of the same object
 * read leaves pending what was pending at the load, so a fresh object
 * that only passed through the field, and that a later store overwrote,
 * does not escape at the next call (parking_garage's bridges: PyPy saves
 * the context's topframeref, stores a virtual ref there and puts the
 * saved value back).  When a store into that field of another reference
 * comes between the load and the put-back, the put-back may bring back
 * what that store replaced: a real difference, refuted.  Runs in the
 * repository root (tests/CMakeLists.txt). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_heap_util.h"

#define TOP "descr=<FieldP ec.topframeref 128>)\n"
#define TLS                                                                    \
	"(ConstClass(threadlocalref_get), 64, descr=<Callr 8 i EF=1 OS=5>)\n"
#define LOOKUP "i9 = call_i(ConstClass(lookup), p2, descr=<Calli 8 r EF=5>)\n"

/* The optimized trace: the vrefs are gone, the context's field is set
 * back to its old value before the call. */
static const char *OPT = "[p0, p1, p2]\n"
			 "setfield_gc(p0, p1, " TOP LOOKUP "finish(i9)\n";

/* ORIG with the put-back through the loop-invariant call's result, which
 * may or may not be the input P0: proved with the rule (before it, the
 * vref escaped at the call and the pair was unknown). */
static void test_put_back(void)
{
	const char *orig =
	    "[p0, p1, p2]\n"
	    "p3 = new_with_vtable(descr=JitVirtualRef)\n"
	    "setfield_gc(p0, p3, " TOP "p4 = call_loopinvariant_r" TLS
	    "p5 = getfield_gc_r(p4, " TOP
	    "p6 = new_with_vtable(descr=JitVirtualRef)\n"
	    "setfield_gc(p4, p6, " TOP "i7 = int_add(1, 2)\n"
	    "setfield_gc(p4, p5, " TOP "setfield_gc(p0, p1, " TOP LOOKUP
	    "finish(i9)\n";
	CHECK(verdict_texts(orig, OPT) == VER_PROVED);
}

/* A store into the field of P0 between the load and the put-back: when
 * P4 is P0 the put-back brings the vref back, and the call sees it. */
static void test_store_between(void)
{
	const char *orig =
	    "[p0, p1, p2]\n"
	    "p3 = new_with_vtable(descr=JitVirtualRef)\n"
	    "setfield_gc(p0, p3, " TOP "p4 = call_loopinvariant_r" TLS
	    "p5 = getfield_gc_r(p4, " TOP "setfield_gc(p0, p1, " TOP
	    "setfield_gc(p4, p5, " TOP LOOKUP "finish(i9)\n";
	CHECK(verdict_texts(orig, OPT) == VER_REFUTED);
}

/* A call between the load and the put-back may change the field, and it
 * sees the vref where the optimized trace has the old value. */
static void test_call_between(void)
{
	const char *orig =
	    "[p0, p1, p2]\n"
	    "p3 = new_with_vtable(descr=JitVirtualRef)\n"
	    "setfield_gc(p0, p3, " TOP "p4 = call_loopinvariant_r" TLS
	    "p5 = getfield_gc_r(p4, " TOP
	    "call_n(ConstClass(g), descr=<Callv 0 EF=5>)\n"
	    "setfield_gc(p4, p5, " TOP "setfield_gc(p0, p1, " TOP LOOKUP
	    "finish(i9)\n";
	const char *opt = "[p0, p1, p2]\n"
			  "call_n(ConstClass(g), descr=<Callv 0 EF=5>)\n"
			  "setfield_gc(p0, p1, " TOP LOOKUP "finish(i9)\n";
	CHECK(verdict_texts(orig, opt) == VER_REFUTED);
}

/* The value put back was read through another reference (P0, which P4
 * may not be): when P4 is not P0, the vref stays in P4's field, and the
 * call sees it there. */
static void test_other_holder(void)
{
	const char *orig =
	    "[p0, p1, p2]\n"
	    "p3 = new_with_vtable(descr=JitVirtualRef)\n"
	    "setfield_gc(p0, p3, " TOP "p4 = call_loopinvariant_r" TLS
	    "p5 = getfield_gc_r(p0, " TOP "setfield_gc(p4, p5, " TOP
	    "setfield_gc(p0, p1, " TOP LOOKUP "finish(i9)\n";
	CHECK(verdict_texts(orig, OPT) == VER_REFUTED);
}

int main(void)
{
	jp_err e;
	C = ver_ctx_new(&e);
	CHECK(C != NULL);
	if (!C)
		return check_summary("test_heap_escape");
	test_put_back();
	test_store_between();
	test_call_between();
	test_other_holder();
	ver_ctx_free(C);
	return check_summary("test_heap_escape");
}
