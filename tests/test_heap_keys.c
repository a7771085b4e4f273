/* The heap comparison at the written keys (verify/heap_encode.c,
 * heap_neq): heaps over the same base are compared only where either trace
 * writes, and a heap that really differs at one written key is still
 * refuted by the solver (screening off) with a replayed counterexample.
 * And the fresh addresses as numerals (heap_model.c,
 * addresses_as_numerals): used where every field has one kind, symbolic
 * where a toy field holds both, and either way a fresh object is no input
 * and no other fresh object.  And a copied item's index in its source is
 * the trace's own term for that sum.  Runs in the repository root
 * (tests/CMakeLists.txt). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/parse.h"
#include "test_heap_util.h"
#include "verify/check.h"

#define ASET(p, i, v) "setarrayitem_gc(" p ", " i ", " v ", descr=<ArrayS 8>)\n"

/* The verdict of the solver alone (no screening inputs), which must
 * come with a replayed counterexample when refuted (verdict_with). */
static int solver_verdict(const char *a, const char *b)
{
	ver_opts o = ver_default_opts();
	o.screen_inputs = 0;
	return verdict_with(a, b, &o);
}

/* Heaps over the same base are compared only at the keys either trace
 * writes (heap_encode.c, heap_neq): a difference at one written address
 * is still found, whether that key is a field's address, an item's
 * (address, index), or an object whose items a call kept (compared at
 * the witness index). */
static void test_written_keys(void)
{
	/* Two stores in the other order: the same heap unless the inputs
	 * are one object and the values differ. */
	const char *in = "[p0, p1, i2, i3]\n";
	const char *s02 = "setfield_gc(p0, i2, descr=v)\n";
	const char *s13 = "setfield_gc(p1, i3, descr=v)\n";
	const char *s12 = "setfield_gc(p1, i2, descr=v)\n";
	char a[512], b[512];
	snprintf(a, sizeof a, "%s%s%sfinish()\n", in, s02, s13);
	snprintf(b, sizeof b, "%s%s%sfinish()\n", in, s13, s02);
	CHECK(solver_verdict(a, b) == VER_REFUTED);
	snprintf(a, sizeof a, "%s%s%sfinish()\n", in, s02, s12);
	snprintf(b, sizeof b, "%s%s%sfinish()\n", in, s12, s02);
	CHECK(solver_verdict(a, b) == VER_PROVED);
	/* A key only the optimized trace writes (p1 is not NULL in both,
	 * so that the store's own obligation holds). */
	snprintf(b, sizeof b, "%sguard_nonnull(p1)\n%sfinish()\n", in, s13);
	CHECK(solver_verdict("[p0, p1, i2, i3]\nguard_nonnull(p1)\nfinish()\n",
			     b) == VER_REFUTED);
	/* The same with items: one cell when the indices are equal. */
	const char *ia = "[p0, i1, i2, i3, i4]\n";
	snprintf(a, sizeof a, "%s%s%sfinish()\n", ia, ASET("p0", "i1", "i2"),
		 ASET("p0", "i3", "i4"));
	snprintf(b, sizeof b, "%s%s%sfinish()\n", ia, ASET("p0", "i3", "i4"),
		 ASET("p0", "i1", "i2"));
	CHECK(solver_verdict(a, b) == VER_REFUTED);
	snprintf(b, sizeof b,
		 "%si9 = int_eq(i1, i3)\nguard_false(i9)\n%s%sfinish()\n", ia,
		 ASET("p0", "i3", "i4"), ASET("p0", "i1", "i2"));
	snprintf(a, sizeof a,
		 "%si9 = int_eq(i1, i3)\nguard_false(i9)\n%s%sfinish()\n", ia,
		 ASET("p0", "i1", "i2"), ASET("p0", "i3", "i4"));
	CHECK(solver_verdict(a, b) == VER_PROVED);
	/* A fresh array the call cannot reach keeps its items across it (a
	 * whole-object write of its address); it escapes at the end, where
	 * one trace has an item the other has not: found at the witness
	 * index. */
	const char *mk = "[i1]\np5 = new_array_clear(4, descr=<ArrayS 8>)\n";
	snprintf(a, sizeof a, "%s%sescape_n()\nfinish(p5)\n", mk,
		 ASET("p5", "i1", "7"));
	snprintf(b, sizeof b, "%sescape_n()\nfinish(p5)\n", mk);
	CHECK(solver_verdict(a, b) == VER_REFUTED);
	snprintf(b, sizeof b, "%s%sescape_n()\nfinish(p5)\n", mk,
		 ASET("p5", "i1", "7"));
	CHECK(solver_verdict(a, b) == VER_PROVED);
}

/* How many of the queries the solver is asked for the pair A, B (written
 * with --smt2 into a new directory) declare a symbolic fresh address a0;
 * -1 when no query was written. */
static int symbolic_fresh(const char *a, const char *b)
{
	char dir[] = "/tmp/jp_numeralsXXXXXX";
	if (!mkdtemp(dir))
		return -1;
	ir_trace *x = parse(a), *y = parse(b);
	int nq = 0, nsym = 0;
	if (x && y) {
		ver_opts o = ver_default_opts();
		o.screen_inputs = 0;
		o.smt2_dir = dir;
		ver_result r;
		jp_err err;
		if (!ver_check(C, x, y, &o, &r, &err))
			ver_result_free(&r);
	}
	ir_trace_free(x);
	ir_trace_free(y);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		char *q = slurp(path);
		nq++;
		nsym += q && strstr(q, "(declare-fun a0 ") != NULL;
		free(q);
		remove(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	return nq ? nsym : -1;
}

/* Fresh objects get fixed distinct addresses where no field holds both
 * kinds (heap_model.c, addresses_as_numerals), and still differ from the
 * inputs and from each other. */
static void test_fresh_numerals(void)
{
	const char *eq_in = "[p0]\np1 = new(descr=s)\n"
			    "i2 = ptr_eq(p1, p0)\n%s(i2)\nfinish()\n";
	const char *eq_two = "[p0]\np1 = new(descr=s)\np2 = new(descr=s)\n"
			     "setfield_gc(p0, p1, descr=f)\n"
			     "setfield_gc(p1, p2, descr=f)\n"
			     "i3 = ptr_eq(p1, p2)\n%s(i3)\nfinish()\n";
	const char *none = "[p0]\np1 = new(descr=s)\np2 = new(descr=s)\n"
			   "setfield_gc(p0, p1, descr=f)\n"
			   "setfield_gc(p1, p2, descr=f)\nfinish()\n";
	char a[512], b[512];
	snprintf(a, sizeof a, eq_in, "guard_false");
	CHECK(solver_verdict(a, "[p0]\np1 = new(descr=s)\nfinish()\n") ==
	      VER_PROVED);
	snprintf(a, sizeof a, eq_two, "guard_false");
	CHECK(solver_verdict(a, none) == VER_PROVED);
	snprintf(b, sizeof b, eq_two, "guard_true");
	CHECK(solver_verdict(a, b) == VER_REFUTED);
	/* The queries of a PyPy-typed heap pair have no symbolic fresh
	 * address; a toy pair whose field holds an integer and a reference
	 * keeps them. */
	CHECK(symbolic_fresh(a, b) == 0);
	const char *toy = "var0 = getarg(0)\nobj0 = alloc()\nobj1 = alloc()\n"
			  "store(obj1, 0, 5)\nstore(obj1, 0, obj0)\n"
			  "store(obj0, 0, 7)\nstore(var0, 0, obj1)\n";
	const char *lost = "var0 = getarg(0)\nobj0 = alloc()\n"
			   "obj1 = alloc()\nstore(obj1, 0, 5)\n"
			   "store(obj0, 0, 7)\nstore(var0, 0, obj1)\n";
	CHECK(symbolic_fresh(toy, lost) > 0);
}

/* Checks the pair ORIG, OPT in context X under OPTS: true when the check
 * ran and proved it, *R then filled (the caller frees it). */
static bool proved_in(ver_ctx *x, const char *orig, const char *opt,
		      const ver_opts *opts, ver_result *r)
{
	ir_trace *o = orig ? parse(orig) : NULL, *p = opt ? parse(opt) : NULL;
	jp_err err;
	bool ran = o && p && !ver_check(x, o, p, opts, r, &err);
	bool proved = ran && r->verdict == VER_PROVED;
	ir_trace_free(o);
	ir_trace_free(p);
	if (ran && !proved)
		ver_result_free(r);
	return proved;
}

/* How output 0 of the pair ORIG, OPT is settled in context X (-1 when the
 * pair is not proved). */
static int out0_how(ver_ctx *x, const char *orig, const char *opt)
{
	ver_opts opts = ver_default_opts();
	opts.timeout_ms = 20000;
	ver_result r;
	if (!proved_in(x, orig, opt, &opts, &r))
		return -1;
	int how = -1;
	for (uint32_t i = 0; i < r.nobl; i++)
		if (!strcmp(r.obl[i].what, "output 0 (same value)"))
			how = (int)r.obl[i].how;
	ver_result_free(&r);
	return how;
}

/* Item 2 of a five-item copy of s from i1, and s[i1 + 2] by another name
 * (no lemma pairs the two). */
static const char *copy5 = "[p0, i1]\np4 = new(descr=<str>)\n"
			   "setfield_gc(p4, 5, descr=<str>.length)\n"
			   "copystrcontent(p0, p4, i1, 0, 5)\n"
			   "i5 = getarrayitem_gc_i(p4, 2, descr=<str>)\n"
			   "finish(i5)\n";
static const char *direct5 = "[p0, i1]\ni6 = int_add(i1, 2)\n"
			     "i7 = getarrayitem_gc_i(p0, i6, descr=<str>)\n"
			     "finish(i7)\n";

/* The heap model computes a copied item's index in the source (start +
 * offset) with the encoder's own builder, so it is the trace's term for
 * the same sum in every context history: the encoder orders a sum's
 * arguments by term id, and the model's fixed order matched it only when
 * the numeral was older than the input (ci --jobs 1 and 2 reported corpus
 * pair str_copy_slice_read differently).  Asked in a fresh context and
 * in one where the numeral 2 is older than the pair's inputs. */
static void test_copy_index_terms(void)
{
	for (int round = 0; round < 2; round++) {
		jp_err err;
		ver_ctx *x = round ? C : ver_ctx_new(&err);
		CHECK(x != NULL);
		if (!x)
			break;
		CHECK(out0_how(x, copy5, direct5) == (int)VER_BY_IDENTITY);
		if (!round)
			ver_ctx_free(x);
		CHECK(solver_verdict("[i0]\ni1 = int_add(i0, 2)\nfinish(i1)\n",
				     "[i0]\ni1 = int_add(2, i0)\nfinish(i1)"
				     "\n") == VER_PROVED);
	}
}

/* The solver queries the proof of (ORIG, OPT) asked (screening off), -1
 * when the pair is not proved. */
static int proof_queries(const char *orig, const char *opt)
{
	ver_opts opts = ver_default_opts();
	opts.screen_inputs = 0;
	ver_result r;
	if (!proved_in(C, orig, opt, &opts, &r))
		return -1;
	int n = (int)r.solver_calls;
	ver_result_free(&r);
	return n;
}

/* What a reference may be (heap_encode.c, addr_info): a read through a
 * reference the world handed over skips the write the call's havoc left
 * at a fresh object that had not escaped, so the original's read is the
 * optimized trace's term (no solver query); a reference that may be a fresh
 * object still sees that object's writes: one loaded from where the
 * trace stored it, one loaded after a call escaped it (whether the call
 * wrote the field or kept it), one a call returns after it escaped. */
static void test_addr_facts(void)
{
	const char *body = "escape_n()\np2 = getfield_gc_r(p0, descr=g)\n"
			   "i3 = getfield_gc_i(p2, descr=f)\nfinish(i3)\n";
	char a[512], b[512];
	snprintf(a, sizeof a,
		 "[p0]\np1 = new(descr=T)\nsetfield_gc(p1, 7, descr=f)\n%s",
		 body);
	snprintf(b, sizeof b, "[p0]\n%s", body);
	CHECK(proof_queries(a, b) == 0);
	/* p3 may be p1: p0 holds it unless p6 is p0. */
	const char *held = "[p0, p6, p7, i9]\np1 = new(descr=T)\n"
			   "setfield_gc(p0, p1, descr=g)\n"
			   "setfield_gc(p6, p7, descr=g)\n"
			   "p3 = getfield_gc_r(p0, descr=g)\n"
			   "setfield_gc(p3, i9, descr=f)\n"
			   "i4 = getfield_gc_i(p1, descr=f)\n";
	snprintf(a, sizeof a, "%sfinish(i4)\n", held);
	snprintf(b, sizeof b, "%sfinish(0)\n", held);
	CHECK(solver_verdict(a, b) == VER_REFUTED);
	/* p3 may be p1: stored into p0 before a call that escaped it but
	 * kept the field (no call wrote p1 there), or written there by a
	 * call after p1 escaped.  Either way a store through p3 may change
	 * p1 (after the call, p1's field is the world's: i8). */
	const char *tail = "p3 = getfield_gc_r(p0, descr=<FieldP W.f 8>)\n"
			   "i8 = getfield_gc_i(p1, descr=<FieldS W.h 8>)\n"
			   "setfield_gc(p3, i9, descr=<FieldS W.h 8>)\n"
			   "i4 = getfield_gc_i(p1, descr=<FieldS W.h 8>)\n";
	const char *heads[2] = {
	    "[p0, p6, p7, i9]\np1 = new(descr=T)\n"
	    "setfield_gc(p0, p1, descr=<FieldP W.f 8>)\n"
	    "call_n(ConstClass(g), p0, descr=<Callv 0 r EF=5 keeps=W.f>)\n"
	    "setfield_gc(p6, p7, descr=<FieldP W.f 8>)\n",
	    "[p0, p6, p7, i9]\np1 = new(descr=T)\n"
	    "call_n(ConstClass(g), p1, descr=<Callv 0 r EF=5>)\n"};
	for (int k = 0; k < 2; k++) {
		snprintf(a, sizeof a, "%s%sfinish(i4)\n", heads[k], tail);
		snprintf(b, sizeof b, "%s%sfinish(i8)\n", heads[k], tail);
		CHECK(solver_verdict(a, b) == VER_REFUTED);
	}
	/* p5 may be p1, which escaped before the call. */
	const char *ret = "[i9]\np1 = new(descr=T)\nescape_n(p1)\n"
			  "p5 = my_call()\nsetfield_gc(p1, 7, descr=f)\n"
			  "setfield_gc(p5, i9, descr=f)\n"
			  "i6 = getfield_gc_i(p1, descr=f)\n";
	snprintf(a, sizeof a, "%sfinish(i6)\n", ret);
	snprintf(b, sizeof b, "%sfinish(7)\n", ret);
	CHECK(solver_verdict(a, b) == VER_REFUTED);
	CHECK(solver_verdict(a, a) == VER_PROVED);
}

int main(void)
{
	jp_err err;
	C = ver_ctx_new(&err);
	CHECK(C != NULL);
	if (!C)
		return check_summary("test_heap_keys");
	test_written_keys();
	test_fresh_numerals();
	test_copy_index_terms();
	test_addr_facts();
	ver_ctx_free(C);
	return check_summary("test_heap_keys");
}
