/*
 * test_opt_heap.c - allocation removal (passes/virtualize.c) and load/store
 * forwarding with dead store elimination (passes/heapcache.c).
 *
 * The first group follows the allocation-removal tutorial step by step
 * (sink allocations, materialize with fields, recursively, with cycles,
 * loads from non-virtual objects, materialization by other ops), the
 * second the load/store tutorial (two loads, store invalidation, other
 * fields, aliasing inputs, store-then-load, load-then-store, store after
 * store, the dead-store exercise it left open).  Every expected text is
 * also checked in the interpreter on random heaps with aliasing inputs
 * (test_opt_heap_util.h).  Last, the boxed-integer loop of the
 * allocation-removal paper (corpus/heap/boxed_integer.trace).
 */
#include "test_opt_heap_util.h"

#define V  "virtualize"
#define H  "heap"
#define VH "virtualize,heap"

/* ---- allocation removal ---- */

static void test_sink_allocation(void)
{
	EXPECT_HEAP(V,
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "sto0 = store(obj0, 0, var0)\n"
		    "var1 = load(obj0, 0)\n"
		    "var2 = print(var1)\n",
		    "var0 = getarg(0)\n"
		    "var2 = print(var0)\n");
	/* A field never written reads 0, as in a fresh object. */
	EXPECT_HEAP(V,
		    "obj0 = alloc()\n"
		    "var1 = load(obj0, 3)\n"
		    "var2 = print(var1)\n",
		    "var2 = print(0)\n");
}

static void test_materialize(void)
{
	EXPECT_HEAP(V,
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "sto0 = store(obj0, 0, var0)\n"
		    "sto1 = store(obj0, 1, 5)\n"
		    "sto2 = store(obj0, 0, 7)\n"
		    "var1 = escape(obj0)\n",
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "store(obj0, 0, 7)\n"
		    "store(obj0, 1, 5)\n"
		    "var1 = escape(obj0)\n");
	/* Materialized once: the second escape uses the same object, and a
	 * store after the escape is a real store. */
	EXPECT_HEAP(V,
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "var1 = escape(obj0)\n"
		    "sto0 = store(obj0, 0, var0)\n"
		    "var2 = escape(obj0)\n",
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "var1 = escape(obj0)\n"
		    "sto0 = store(obj0, 0, var0)\n"
		    "var2 = escape(obj0)\n");
}

static void test_materialize_recursive(void)
{
	EXPECT_HEAP(V,
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "obj1 = alloc()\n"
		    "obj2 = alloc()\n"
		    "sto0 = store(obj0, 0, obj1)\n"
		    "sto1 = store(obj1, 0, var0)\n"
		    "var1 = escape(obj0)\n"
		    "var2 = load(obj2, 0)\n"
		    "var3 = escape(var2)\n",
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "obj1 = alloc()\n"
		    "store(obj0, 0, obj1)\n"
		    "store(obj1, 0, var0)\n"
		    "var1 = escape(obj0)\n"
		    "var3 = escape(0)\n");
}

static void test_materialize_cycle(void)
{
	EXPECT_HEAP(V,
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "obj1 = alloc()\n"
		    "sto0 = store(obj0, 0, obj1)\n"
		    "sto1 = store(obj1, 0, obj0)\n"
		    "sto2 = store(obj1, 1, var0)\n"
		    "var1 = escape(obj0)\n",
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "obj1 = alloc()\n"
		    "store(obj0, 0, obj1)\n"
		    "store(obj1, 0, obj0)\n"
		    "store(obj1, 1, var0)\n"
		    "var1 = escape(obj0)\n");
	/* A self-cycle. */
	EXPECT_HEAP(V,
		    "obj0 = alloc()\n"
		    "sto0 = store(obj0, 0, obj0)\n"
		    "var1 = escape(obj0)\n",
		    "obj0 = alloc()\n"
		    "store(obj0, 0, obj0)\n"
		    "var1 = escape(obj0)\n");
}

/* Nothing may stand between an *_ovf op and its guard: a virtual object
 * in the overflow guard's fail-args is materialized before the op
 * (corpus/regressions/ovf-guard-virtual-failargs). */
static void test_ovf_guard_failargs(void)
{
	EXPECT_HEAP(V,
		    "[i0]\n"
		    "p1 = new(descr=U)\n"
		    "setfield_gc(p1, i0, descr=f)\n"
		    "i2 = int_sub_ovf(i0, 1)\n"
		    "guard_no_overflow(descr=g0) [p1]\n"
		    "finish(i2)\n",
		    "[i0]\n"
		    "p1 = new(descr=U)\n"
		    "setfield_gc(p1, i0, descr=f)\n"
		    "i2 = int_sub_ovf(i0, 1)\n"
		    "guard_no_overflow(descr=g0) [p1]\n"
		    "finish(i2)\n");
}

static void test_load_from_non_virtual(void)
{
	EXPECT_HEAP(V,
		    "var0 = getarg(0)\n"
		    "var1 = load(var0, 0)\n"
		    "var2 = print(var1)\n",
		    "var0 = getarg(0)\n"
		    "var1 = load(var0, 0)\n"
		    "var2 = print(var1)\n");
}

/* Other ops that need the object: a store into a non-virtual object,
 * the fail-args of a guard that stays, the end of the trace, a
 * comparison with itself is folded without materializing. */
static void test_materialize_on_other_ops(void)
{
	EXPECT_HEAP(V,
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "sto0 = store(obj0, 0, 1)\n"
		    "sto1 = store(var0, 0, obj0)\n",
		    "var0 = getarg(0)\n"
		    "obj0 = alloc()\n"
		    "store(obj0, 0, 1)\n"
		    "sto1 = store(var0, 0, obj0)\n");
	EXPECT_HEAP(V,
		    "[p0, i1]\n"
		    "p2 = new_with_vtable(descr=Box)\n"
		    "setfield_gc(p2, i1, descr=v)\n"
		    "i3 = ptr_eq(p2, p0)\n"
		    "i4 = ptr_ne(p2, p2)\n"
		    "guard_class(p2, ConstClass(Box), descr=g0)\n"
		    "guard_nonnull(p2, descr=g1)\n"
		    "guard_true(i1, descr=g2) [p2]\n"
		    "guard_false(i1, descr=g3)\n"
		    "finish(i3, i4, p2)\n",
		    "[p0, i1]\n"
		    "p2 = new_with_vtable(descr=Box)\n"
		    "setfield_gc(p2, i1, descr=v)\n"
		    "guard_true(i1, descr=g2) [p2]\n"
		    "guard_false(i1, descr=g3)\n"
		    "finish(0, 0, p2)\n");
	/* A class guard that cannot pass on the virtual object ends the
	 * trace; its fail-args still get the object. */
	EXPECT_HEAP(V,
		    "[p0, i1]\n"
		    "p2 = new_with_vtable(descr=Box)\n"
		    "setfield_gc(p2, i1, descr=v)\n"
		    "guard_class(p2, ConstClass(Other), descr=g0) [p2]\n"
		    "i3 = getfield_gc_i(p2, descr=v)\n"
		    "finish(i3)\n",
		    "[p0, i1]\n"
		    "p2 = new_with_vtable(descr=Box)\n"
		    "setfield_gc(p2, i1, descr=v)\n"
		    "guard_true(0, descr=g0) [p2]\n"
		    "finish(0)\n");
}

/* ---- load/store forwarding ---- */

static void test_two_loads(void)
{
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "var1 = load(var0, 0)\n"
		    "var2 = load(var0, 0)\n"
		    "var3 = escape(var1)\n"
		    "var4 = escape(var2)\n",
		    "var0 = getarg(0)\n"
		    "var1 = load(var0, 0)\n"
		    "var3 = escape(var1)\n"
		    "var4 = escape(var1)\n");
}

static void test_store_invalidates(void)
{
	/* Same field, other reference: it may be the same object. */
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "var1 = getarg(1)\n"
		    "var2 = load(var0, 0)\n"
		    "sto0 = store(var1, 0, 5)\n"
		    "var3 = load(var0, 0)\n"
		    "var4 = escape(var2)\n"
		    "var5 = escape(var3)\n",
		    "var0 = getarg(0)\n"
		    "var1 = getarg(1)\n"
		    "var2 = load(var0, 0)\n"
		    "sto0 = store(var1, 0, 5)\n"
		    "var3 = load(var0, 0)\n"
		    "var4 = escape(var2)\n"
		    "var5 = escape(var3)\n");
	/* Another field (offset) does not interfere. */
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "var1 = getarg(1)\n"
		    "var2 = load(var0, 0)\n"
		    "sto0 = store(var1, 1, 5)\n"
		    "var3 = load(var0, 0)\n"
		    "var4 = escape(var2)\n"
		    "var5 = escape(var3)\n",
		    "var0 = getarg(0)\n"
		    "var1 = getarg(1)\n"
		    "var2 = load(var0, 0)\n"
		    "sto0 = store(var1, 1, 5)\n"
		    "var4 = escape(var2)\n"
		    "var5 = escape(var2)\n");
}

static void test_aliasing_inputs(void)
{
	EXPECT_HEAP(H,
		    "[p0, p1]\n"
		    "guard_nonnull(p0, descr=g0)\n"
		    "setfield_gc(p0, 1, descr=f)\n"
		    "setfield_gc(p1, 2, descr=f)\n"
		    "i2 = getfield_gc_i(p0, descr=f)\n"
		    "finish(i2)\n",
		    "[p0, p1]\n"
		    "guard_nonnull(p0, descr=g0)\n"
		    "setfield_gc(p0, 1, descr=f)\n"
		    "setfield_gc(p1, 2, descr=f)\n"
		    "i2 = getfield_gc_i(p0, descr=f)\n"
		    "finish(i2)\n");
	/* A fresh object is no input. */
	EXPECT_HEAP(H,
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "setfield_gc(p0, 2, descr=f)\n"
		    "i2 = getfield_gc_i(p1, descr=f)\n"
		    "escape_n(p0)\n"
		    "i3 = getfield_gc_i(p1, descr=f)\n"
		    "finish(i2, i3)\n",
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "setfield_gc(p0, 2, descr=f)\n"
		    "escape_n(p0)\n"
		    "finish(1, 1)\n");
}

/* The alias rules for fresh objects (the heap pass alone, so that the
 * allocations stay): a fresh object is no reference defined before it
 * and no other fresh object; once it escaped, a reference obtained after
 * that (loaded, returned by a call) may be it.  The differential oracle
 * cannot make a loaded reference point at a fresh object, so the expected
 * texts carry these tests: each fails if its rule is broken either way. */
static void test_fresh_alias_rules(void)
{
	/* An input, defined before the allocation, is never the fresh
	 * object, escaped or not. */
	EXPECT_HEAP(H,
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "escape_n(p1)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "setfield_gc(p0, 2, descr=f)\n"
		    "i2 = getfield_gc_i(p1, descr=f)\n"
		    "finish(i2)\n",
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "escape_n(p1)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "setfield_gc(p0, 2, descr=f)\n"
		    "finish(1)\n");
	/* An escaped fresh object and a reference loaded afterwards may be
	 * the same object: the store through the loaded reference drops
	 * the cached field of the fresh one. */
	EXPECT_HEAP(H,
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "escape_n(p1)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "setfield_gc(p2, 2, descr=f)\n"
		    "i3 = getfield_gc_i(p1, descr=f)\n"
		    "finish(i3)\n",
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "escape_n(p1)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "setfield_gc(p2, 2, descr=f)\n"
		    "i3 = getfield_gc_i(p1, descr=f)\n"
		    "finish(i3)\n");
	/* ... and the other way round: a store to the escaped fresh object
	 * drops what was cached for the loaded reference, and a load
	 * through the loaded reference observes a pending store to the
	 * fresh object (it is not dead). */
	EXPECT_HEAP(H,
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "escape_n(p1)\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "i3 = getfield_gc_i(p2, descr=f)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "i4 = getfield_gc_i(p2, descr=f)\n"
		    "setfield_gc(p1, 5, descr=f)\n"
		    "finish(i3, i4)\n",
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "escape_n(p1)\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "i3 = getfield_gc_i(p2, descr=f)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "i4 = getfield_gc_i(p2, descr=f)\n"
		    "setfield_gc(p1, 5, descr=f)\n"
		    "finish(i3, i4)\n");
	/* A fresh object that has not escaped is nobody else's: the loaded
	 * reference cannot be it. */
	EXPECT_HEAP(H,
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "setfield_gc(p2, 2, descr=f)\n"
		    "i3 = getfield_gc_i(p1, descr=f)\n"
		    "finish(i3)\n",
		    "[p0]\n"
		    "p1 = new(descr=T)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "setfield_gc(p2, 2, descr=f)\n"
		    "finish(1)\n");
	/* Two fresh objects are two objects, even both escaped. */
	EXPECT_HEAP(H,
		    "[]\n"
		    "p1 = new(descr=T)\n"
		    "p2 = new(descr=T)\n"
		    "escape_n(p1, p2)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "setfield_gc(p2, 2, descr=f)\n"
		    "i3 = getfield_gc_i(p1, descr=f)\n"
		    "finish(i3)\n",
		    "[]\n"
		    "p1 = new(descr=T)\n"
		    "p2 = new(descr=T)\n"
		    "escape_n(p1, p2)\n"
		    "setfield_gc(p1, 1, descr=f)\n"
		    "setfield_gc(p2, 2, descr=f)\n"
		    "finish(1)\n");
}

/* The load/store post's first example: two loads removed, one after a
 * load, one after a store, on an input reference. */
static void test_post_first_example(void)
{
	EXPECT_HEAP(H,
		    "v0 = getarg(0)\n"
		    "v1 = load(v0, 5)\n"
		    "v2 = store(v0, 6, 123)\n"
		    "v3 = load(v0, 6)\n"
		    "v4 = load(v0, 5)\n"
		    "v5 = escape(v1)\n"
		    "v6 = escape(v3)\n"
		    "v7 = escape(v4)\n",
		    "v0 = getarg(0)\n"
		    "v1 = load(v0, 5)\n"
		    "v2 = store(v0, 6, 123)\n"
		    "v5 = escape(v1)\n"
		    "v6 = escape(123)\n"
		    "v7 = escape(v1)\n");
}

static void test_store_then_load(void)
{
	/* Forwarded through any reference: a field access through NULL is
	 * undefined, so var0 is not NULL after the store (the post's
	 * test_load_after_store_removed). */
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "sto0 = store(var0, 0, 5)\n"
		    "var1 = load(var0, 0)\n"
		    "var2 = load(var0, 1)\n"
		    "var3 = escape(var1)\n"
		    "var4 = escape(var2)\n",
		    "var0 = getarg(0)\n"
		    "sto0 = store(var0, 0, 5)\n"
		    "var2 = load(var0, 1)\n"
		    "var3 = escape(5)\n"
		    "var4 = escape(var2)\n");
	/* A reference loaded from another object, too. */
	EXPECT_HEAP(H,
		    "[p0, i1]\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "setfield_gc(p2, i1, descr=f)\n"
		    "i3 = getfield_gc_i(p2, descr=f)\n"
		    "finish(i3)\n",
		    "[p0, i1]\n"
		    "p2 = getfield_gc_r(p0, descr=next)\n"
		    "setfield_gc(p2, i1, descr=f)\n"
		    "finish(i1)\n");
	/* A field read with the other kind than the value stored keeps its
	 * load (forwarding would make the trace ill-kinded). */
	EXPECT_HEAP(H,
		    "v0 = getarg(0)\n"
		    "v1 = alloc()\n"
		    "s0 = store(v0, 0, v1)\n"
		    "v2 = load(v0, 0)\n"
		    "v3 = add(v2, 1)\n"
		    "v4 = escape(v3)\n"
		    "v5 = escape(v1)\n",
		    "v0 = getarg(0)\n"
		    "v1 = alloc()\n"
		    "s0 = store(v0, 0, v1)\n"
		    "v2 = load(v0, 0)\n"
		    "v3 = add(v2, 1)\n"
		    "v4 = escape(v3)\n"
		    "v5 = escape(v1)\n");
	/* Through the constant NULL nothing is forwarded. */
	EXPECT_HEAP(H,
		    "[i0]\n"
		    "setfield_gc(NULL, i0, descr=f)\n"
		    "i1 = getfield_gc_i(NULL, descr=f)\n"
		    "finish(i1)\n",
		    "[i0]\n"
		    "setfield_gc(NULL, i0, descr=f)\n"
		    "i1 = getfield_gc_i(NULL, descr=f)\n"
		    "finish(i1)\n");
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "guard_nonnull(var0, descr=g0)\n"
		    "sto0 = store(var0, 0, 5)\n"
		    "var1 = load(var0, 0)\n"
		    "var2 = escape(var1)\n",
		    "var0 = getarg(0)\n"
		    "guard_nonnull(var0, descr=g0)\n"
		    "sto0 = store(var0, 0, 5)\n"
		    "var2 = escape(5)\n");
}

static void test_load_then_store(void)
{
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "var1 = load(var0, 0)\n"
		    "sto0 = store(var0, 0, var1)\n"
		    "var2 = escape(var1)\n",
		    "var0 = getarg(0)\n"
		    "var1 = load(var0, 0)\n"
		    "var2 = escape(var1)\n");
}

static void test_store_after_store(void)
{
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "sto0 = store(var0, 0, 5)\n"
		    "sto1 = store(var0, 0, 5)\n",
		    "var0 = getarg(0)\n"
		    "sto0 = store(var0, 0, 5)\n");
}

/* The tutorial's open exercise: the first store is dead. */
static void test_dead_store(void)
{
	/* Exactly as the post writes it, on an input reference. */
	EXPECT_HEAP(H,
		    "arg0 = getarg(0)\n"
		    "var0 = store(arg0, 0, 5)\n"
		    "var1 = store(arg0, 0, 7)\n"
		    "var2 = load(arg0, 0)\n"
		    "var3 = escape(var2)\n",
		    "arg0 = getarg(0)\n"
		    "var1 = store(arg0, 0, 7)\n"
		    "var3 = escape(7)\n");
	EXPECT_HEAP(H,
		    "var0 = getarg(0)\n"
		    "guard_nonnull(var0, descr=g0)\n"
		    "var1 = store(var0, 0, 5)\n"
		    "var2 = store(var0, 0, 7)\n"
		    "var3 = load(var0, 0)\n"
		    "var4 = escape(var3)\n",
		    "var0 = getarg(0)\n"
		    "guard_nonnull(var0, descr=g0)\n"
		    "var2 = store(var0, 0, 7)\n"
		    "var4 = escape(7)\n");
	/* Observers keep it: a call, a guard that stays, a load through a
	 * reference that may alias. */
	EXPECT_HEAP(H,
		    "[p0, p1, i2]\n"
		    "setfield_gc(p0, 1, descr=f)\n"
		    "escape_n(p1)\n"
		    "setfield_gc(p0, 2, descr=f)\n"
		    "guard_true(i2, descr=g0)\n"
		    "setfield_gc(p0, 3, descr=f)\n"
		    "i3 = getfield_gc_i(p1, descr=f)\n"
		    "setfield_gc(p0, 4, descr=f)\n"
		    "i4 = getfield_gc_i(p1, descr=g)\n"
		    "setfield_gc(p1, 0, descr=f)\n"
		    "setfield_gc(p0, 5, descr=f)\n"
		    "finish(i3, i4)\n",
		    "[p0, p1, i2]\n"
		    "setfield_gc(p0, 1, descr=f)\n"
		    "escape_n(p1)\n"
		    "setfield_gc(p0, 2, descr=f)\n"
		    "guard_true(i2, descr=g0)\n"
		    "setfield_gc(p0, 3, descr=f)\n"
		    "i3 = getfield_gc_i(p1, descr=f)\n"
		    "i4 = getfield_gc_i(p1, descr=g)\n"
		    "setfield_gc(p1, 0, descr=f)\n"
		    "setfield_gc(p0, 5, descr=f)\n"
		    "finish(i3, i4)\n");
}

/* ---- the paper's example ---- */

static void test_boxed_integer(void)
{
	char *src = NULL;
	size_t len;
	jp_err err;
	CHECK(
	    !ir_read_file("corpus/heap/boxed_integer.trace", &src, &len, &err));
	ir_trace *t = src ? tu_parse(src, 64) : NULL;
	ir_trace *o = t ? tu_opt(t, NULL, NULL, NULL) : NULL;
	CHECK(t && o);
	int news[2] = {0, 0}, classes[2] = {0, 0};
	const ir_trace *ts[2] = {t, o};
	for (int k = 0; k < 2 && o; k++)
		for (uint32_t i = 0; i < ts[k]->nops; i++) {
			news[k] += ts[k]->ops[i].opc == IR_NEW_WITH_VTABLE;
			classes[k] += ts[k]->ops[i].opc == IR_GUARD_CLASS;
		}
	CHECK(news[0] == 5 && classes[0] == 7);
	CHECK(news[1] == 2 && classes[1] == 3);
	/* The lifted objects keep the names of the allocations they stand
	 * for. */
	char *text = o ? tu_print(o) : NULL;
	CHECK(text &&
	      strstr(text, "p15 = new_with_vtable(descr=BoxedInteger)"));
	CHECK(text &&
	      strstr(text, "p10 = new_with_vtable(descr=BoxedInteger)"));
	CHECK(t && o && !hu_find_divergence(t, o, 2000));
	free(text);
	free(src);
	ir_trace_free(t);
	ir_trace_free(o);
}

/* The oracle itself must see a wrong heap: dropping a store to an input
 * object, or materializing under another name, is a divergence. */
static void test_oracle_sees_heap(void)
{
	ir_trace *a = tu_parse("[p0]\nsetfield_gc(p0, 1, descr=f)\n"
			       "escape_n(p0)\nsetfield_gc(p0, 2, descr=f)\n"
			       "finish()\n",
			       64);
	ir_trace *b = tu_parse("[p0]\nescape_n(p0)\n"
			       "setfield_gc(p0, 2, descr=f)\nfinish()\n",
			       64);
	ir_trace *c = tu_parse("[p0]\np1 = new(descr=T)\nfinish(p1)\n", 64);
	ir_trace *d = tu_parse("[p0]\np2 = new(descr=T)\nfinish(p2)\n", 64);
	CHECK(a && b && hu_find_divergence(a, b, 50));
	CHECK(c && d && hu_find_divergence(c, d, 5));
	CHECK(c && !hu_find_divergence(c, c, 5));
	ir_trace_free(a);
	ir_trace_free(b);
	ir_trace_free(c);
	ir_trace_free(d);
}

int main(void)
{
	test_sink_allocation();
	test_materialize();
	test_materialize_recursive();
	test_materialize_cycle();
	test_load_from_non_virtual();
	test_ovf_guard_failargs();
	test_materialize_on_other_ops();
	test_two_loads();
	test_store_invalidates();
	test_aliasing_inputs();
	test_fresh_alias_rules();
	test_post_first_example();
	test_store_then_load();
	test_load_then_store();
	test_store_after_store();
	test_dead_store();
	test_boxed_integer();
	test_oracle_sees_heap();
	return check_summary("test_opt_heap");
}
