/* The pairing of fresh objects by their first access path
 * (verify/heap_model.c) where the two traces name the thread-local
 * execution context differently: a bridge's input that its facts say is
 * the context (guard_true(ptr_eq(call_r(threadlocalref_get), p0))) has
 * the name of the loop-invariant call's result, and a read of the
 * context's field after a store into it is the object stored
 * (memo's recursive calls: a frame's f_backref is the topframeref read
 * back).  A pair whose objects really differ is still refuted.  Runs in
 * the repository root (tests/CMakeLists.txt). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_heap_util.h"

#define TLS                                                                    \
	"(ConstClass(threadlocalref_get), 64, descr=<Callr 8 i EF=1 OS=5>)\n"
#define FACT "p1 = call_r" TLS "i2 = ptr_eq(p1, p0)\nguard_true(i2)\n"

/* ORIG stores a vref into the context through call_loopinvariant, OPT
 * through the input the facts say is the context: one path, so one
 * object.  (Before, the two were objects of their own, and check gave
 * a replayed counterexample for this correct pair.) */
static void test_context_by_name(void)
{
	const char *orig =
	    "[p0]\n" FACT "p4 = call_loopinvariant_r" TLS "p5 = new(descr=V)\n"
	    "setfield_gc(p5, 1, descr=tok)\n"
	    "setfield_gc(p4, p5, descr=top)\n"
	    "call_n(ConstClass(f), p4, descr=<Callv 0 r EF=5>)\n"
	    "finish()\n";
	const char *opt = "[p0]\n" FACT "p15 = new(descr=V)\n"
			  "setfield_gc(p15, %d, descr=tok)\n"
			  "setfield_gc(p0, p15, descr=top)\n"
			  "call_n(ConstClass(f), p0, descr=<Callv 0 r EF=5>)\n"
			  "finish()\n";
	char b[512];
	snprintf(b, sizeof b, opt, 1);
	CHECK(verdict_texts(orig, b) == VER_PROVED);
	snprintf(b, sizeof b, opt, 2); /* the object holds another value */
	CHECK(verdict_texts(orig, b) == VER_REFUTED);
}

/* ORIG reads the context's top back through call_loopinvariant and
 * stores it into a new frame; OPT stores the vref into the frame
 * directly.  Then both replace top before the call: the vref is reached
 * only through the frame, in both traces. */
static void test_read_back(void)
{
	const char *orig = "[p0]\n" FACT "p3 = new(descr=V)\n"
			   "setfield_gc(p3, 1, descr=tok)\n"
			   "setfield_gc(p0, p3, descr=top)\n"
			   "p4 = call_loopinvariant_r" TLS
			   "p6 = getfield_gc_r(p4, descr=top)\n"
			   "p7 = new(descr=F)\n"
			   "setfield_gc(p7, p6, descr=back)\n"
			   "setfield_gc(p4, NULL, descr=top)\n"
			   "call_n(ConstClass(f), p7, descr=<Callv 0 r EF=5>)\n"
			   "finish()\n";
	const char *opt = "[p0]\n" FACT "p13 = new(descr=V)\n"
			  "setfield_gc(p13, %d, descr=tok)\n"
			  "p17 = new(descr=F)\n"
			  "setfield_gc(p17, p13, descr=back)\n"
			  "setfield_gc(p0, NULL, descr=top)\n"
			  "call_n(ConstClass(f), p17, descr=<Callv 0 r EF=5>)\n"
			  "finish()\n";
	char b[512];
	snprintf(b, sizeof b, opt, 1);
	CHECK(verdict_texts(orig, b) == VER_PROVED);
	snprintf(b, sizeof b, opt, 3);
	CHECK(verdict_texts(orig, b) == VER_REFUTED);
}

/* A store into the context that the next calls ignore (" ignores=",
 * the optimizer delayed it past them) names its object at the first
 * event that sees the field, as the optimized trace, which stores it
 * only then (heap_model.c, key_hidden). */
static void test_hidden_store(void)
{
	const char *orig =
	    "[p0, p1]\n"
	    "p2 = new(descr=V)\n"
	    "setfield_gc(p2, 1, descr=tok)\n"
	    "setfield_gc(p0, p2, descr=<FieldP e.E.inst_top 8>)\n"
	    "call_n(ConstClass(f), p1, descr=<Callv 0 r EF=5 "
	    "ignores=e.E.inst_top>)\n"
	    "guard_no_exception()\n"
	    "call_n(ConstClass(g), p1, descr=<Callv 0 r EF=5>)\n"
	    "finish()\n";
	const char *opt =
	    "[p0, p1]\n"
	    "call_n(ConstClass(f), p1, descr=<Callv 0 r EF=5 "
	    "ignores=e.E.inst_top>)\n"
	    "guard_no_exception()\n"
	    "p12 = new(descr=V)\n"
	    "setfield_gc(p12, %d, descr=tok)\n"
	    "setfield_gc(p0, p12, descr=<FieldP e.E.inst_top 8>)\n"
	    "call_n(ConstClass(g), p1, descr=<Callv 0 r EF=5>)\n"
	    "finish()\n";
	char b[600];
	snprintf(b, sizeof b, opt, 1);
	CHECK(verdict_texts(orig, b) == VER_PROVED);
	snprintf(b, sizeof b, opt, 2);
	CHECK(verdict_texts(orig, b) == VER_REFUTED);
}

int main(void)
{
	jp_err e;
	C = ver_ctx_new(&e);
	CHECK(C != NULL);
	if (!C)
		return check_summary("test_heap_paths");
	test_context_by_name();
	test_read_back();
	test_hidden_store();
	ver_ctx_free(C);
	return check_summary("test_heap_paths");
}
