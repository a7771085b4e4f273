/* The concrete interpreter: values, guards, fail-args, heap, calls. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/sem.h"

static ir_trace *parse_with(const char *text, int width, bool opaque)
{
	ir_parse_opts o = {.width = width, .opaque = opaque};
	ir_trace *t = NULL;
	jp_err e;
	if (ir_parse(text, strlen(text), &o, &t, &e))
		fprintf(stderr, "parse error %d:%d %s\n", e.line, e.col, e.msg);
	return t;
}

static ir_trace *parse(const char *text, int width)
{
	return parse_with(text, width, false);
}

/* TEXT in PyPy's spelling: 64 bits, an op without a model an opaque
 * call. */
static ir_trace *parse_pypy(const char *text)
{
	return parse_with(text, 64, true);
}

static void test_wraparound(void)
{
	ir_trace *t = parse("[i0]\ni1 = int_add(i0, 10)\ni2 = int_lt(i1, 15)\n"
			    "guard_true(i2) [i0]\ni3 = int_lt(i0, 6)\n"
			    "guard_true(i3) [i0, i1, None]\njump(i1)\n",
			    64);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t ok = 3, wrap = UINT64_C(0x7fffffffffffffff);
	interp_env env = {.args = &ok, .nargs = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_JUMP);
	CHECK(r.nout == 1 && r.out[0] == 13);
	interp_result_free(&r);
	env.args = &wrap;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_GUARD_FAIL);
	CHECK(r.stop_op == 4);
	CHECK(r.nout == 3);
	CHECK_EQ_U64(r.out[0], wrap);
	CHECK_EQ_U64(r.out[1], UINT64_C(0x8000000000000009));
	CHECK_EQ_U64(r.out[2], 0);
	CHECK(!r.known[t->ops[3].result] || r.vals[t->ops[3].result] == 0);
	interp_result_free(&r);
	/* wrong argument count is an input error, not a crash */
	env.nargs = 0;
	CHECK(interp_run(t, &env, &r, &e) == JP_EINPUT);
	ir_trace_free(t);
}

static void test_overflow_guards(void)
{
	ir_trace *t = parse("[i0, i1]\ni2 = int_mul_ovf(i0, i1)\n"
			    "guard_overflow()\nfinish(i2)\n",
			    8);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t a[2] = {16, 8}; /* 128 does not fit in int8 */
	interp_env env = {.args = a, .nargs = 2};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH);
	CHECK_EQ_U64(r.out[0], 0x80);
	interp_result_free(&r);
	a[1] = 7;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_GUARD_FAIL);
	interp_result_free(&r);
	ir_trace_free(t);
}

static void test_heap(void)
{
	ir_trace *t = parse("[p0, p1, i2]\n"
			    "setfield_gc(p0, i2, descr=f)\n"
			    "i3 = getfield_gc_i(p1, descr=f)\n"
			    "i4 = getfield_gc_i(p1, descr=g)\n"
			    "p5 = new_with_vtable(descr=Box)\n"
			    "guard_class(p5, ConstClass(Box))\n"
			    "i6 = getfield_gc_i(p5, descr=f)\n"
			    "i7 = ptr_eq(p5, p0)\n"
			    "i8 = escape_i(p5, i3)\n"
			    "i9 = getfield_gc_i(p0, descr=h)\n"
			    "guard_class(p0, ConstClass(Box))\n"
			    "finish(i3, i4, i6, i7, i8, i9)\n",
			    64);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t args[3] = {0x1000, 0x1000, 42};
	interp_cell init[] = {{0, 0x1000, "g", 7}, {0, 0x1000, "f", 99}};
	uint64_t rets[] = {1234};
	interp_cell writes[] = {{0, 0x1000, "h", 55}};
	interp_type types[] = {{0x1000, "Box"}};
	interp_env env = {.args = args,
			  .nargs = 3,
			  .init = init,
			  .ninit = 2,
			  .call_ret = rets,
			  .ncall_ret = 1,
			  .call_writes = writes,
			  .ncall_writes = 1,
			  .types = types,
			  .ntypes = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH);
	if (r.outcome == INTERP_FINISH && r.nout == 6) {
		CHECK_EQ_U64(r.out[0], 42); /* p0 and p1 alias: store seen */
		CHECK_EQ_U64(r.out[1], 7);  /* initial heap */
		CHECK_EQ_U64(r.out[2], 0);  /* fresh objects start zeroed */
		CHECK_EQ_U64(r.out[3], 0);  /* fresh != input */
		CHECK_EQ_U64(r.out[4], 1234);
		CHECK_EQ_U64(r.out[5], 55); /* the call wrote p0.h */
	}
	CHECK(r.ncalls == 1 && r.calls[0].nargs == 2);
	CHECK(r.ncalls == 1 && r.calls[0].args[1] == 42);
	const interp_obj *o = interp_find_obj(&r, r.calls[0].args[0]);
	CHECK(o && o->fresh == 0 && o->alloc_op == 3);
	interp_result_free(&r);
	/* p0 without a class fails the class guard */
	env.ntypes = 0;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_GUARD_FAIL && r.stop_op == 9);
	interp_result_free(&r);
	/* fresh addresses avoid the inputs' addresses */
	args[0] = args[1] = UINT64_C(0x7f0000000000);
	env.ntypes = 1;
	types[0].addr = args[0];
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.out[3] == 0);
	interp_result_free(&r);
	ir_trace_free(t);
}

static void test_toy(void)
{
	ir_trace *t = parse("var0 = getarg(0)\nobj0 = alloc()\nobj1 = alloc()\n"
			    "store(obj0, 0, var0)\nstore(obj1, 0, obj0)\n"
			    "var1 = load(obj1, 0)\nvar2 = load(var1, 0)\n"
			    "print(var2)\n",
			    64);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t a = 5;
	interp_env env = {.args = &a, .nargs = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.ncalls == 1 && r.calls[0].args[0] == 5);
	interp_result_free(&r);
	ir_trace_free(t);
}

/* Regression: a fresh object must not take the address of an object
 * reachable through the initial heap. */
static void test_fresh_avoids_heap_addresses(void)
{
	ir_trace *t = parse("[p0]\np1 = getfield_gc_r(p0, descr=next)\n"
			    "p2 = new(descr=T)\ni3 = ptr_eq(p1, p2)\n"
			    "finish(i3)\n",
			    64);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t a = 0x1000;
	interp_cell init[] = {{0, 0x1000, "next", UINT64_C(0x7f0000000000)}};
	interp_env env = {.args = &a, .nargs = 1, .init = init, .ninit = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.nout == 1 && r.out[0] == 0);
	interp_result_free(&r);
	ir_trace_free(t);
}

/* Each call records the heap it sees (before its own writes), and
 * obj_writes name fresh objects by their allocation's result name: as
 * targets and as stored values.  Writes naming an object not allocated in
 * the run are skipped. */
static void test_call_snapshots_and_obj_writes(void)
{
	ir_trace *t = parse("[p0]\n"
			    "p1 = new(descr=Node)\n"
			    "setfield_gc(p1, 5, descr=val)\n"
			    "escape_n(p1)\n"
			    "i2 = getfield_gc_i(p1, descr=val)\n"
			    "p3 = getfield_gc_r(p0, descr=next)\n"
			    "escape_n()\n"
			    "finish(i2, p3)\n",
			    64);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t args[1] = {0x2000};
	interp_obj_write ow[] = {
	    {0, "p1", 0, "val", NULL, 9},	/* fresh target */
	    {0, NULL, 0x2000, "next", "p1", 0}, /* fresh value */
	    {1, "p7", 0, "val", NULL, 1},	/* no such object: skipped */
	};
	interp_env env = {
	    .args = args, .nargs = 1, .obj_writes = ow, .nobj_writes = 3};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.ncalls == 2 && r.nout == 2);
	if (r.outcome != INTERP_FINISH || r.ncalls != 2 || r.nout != 2) {
		ir_trace_free(t);
		return;
	}
	CHECK_EQ_U64(r.out[0], 9); /* the call changed the escaped box */
	const interp_obj *box = interp_find_obj(&r, r.vals[t->ops[0].result]);
	CHECK(box != NULL && box->fresh == 0);
	CHECK_EQ_U64(r.out[1], box ? box->addr : 1);
	/* Call 0 saw the box with val = 5, before its own write. */
	CHECK(r.calls[0].nobjs == 1);
	if (r.calls[0].nobjs == 1)
		CHECK_EQ_U64(interp_obj_field(&r.calls[0].objs[0], "val"), 5);
	/* Call 1 saw both objects, p0.next already pointing to the box. */
	CHECK(r.calls[1].nobjs == 2);
	for (uint32_t i = 0; i < r.calls[1].nobjs; i++)
		if (r.calls[1].objs[i].addr == 0x2000)
			CHECK_EQ_U64(
			    interp_obj_field(&r.calls[1].objs[i], "next"),
			    box ? box->addr : 1);
	interp_result_free(&r);
	ir_trace_free(t);
}

/* The interpreter claims every op (interp_unhandled is NULL for all) and
 * runs each pure or overflow-checked one to the value sem_eval gives. */
static void test_claims(void)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		const ir_opinfo *info = ir_opinfo_of(opc);
		CHECK(interp_unhandled(opc) == NULL);
		if (!sem_evaluable(opc) || info->args[0] != 'i')
			continue;
		char text[160];
		snprintf(text, sizeof text, "[]\ni0 = %s(%s)\n%sfinish(i0)\n",
			 info->name, info->nargs == 1 ? "5" : "5, 3",
			 ir_op_has(opc, IRF_OVF) ? "guard_no_overflow()\n"
						 : "");
		ir_trace *t = parse(text, 8);
		CHECK(t != NULL);
		if (!t)
			continue;
		interp_env env = {0};
		interp_result r;
		jp_err e;
		uint64_t a[2] = {5, 3};
		bool ovf;
		uint64_t want = sem_eval(opc, 8, a, &ovf);
		CHECK(interp_run(t, &env, &r, &e) == JP_OK);
		CHECK(r.outcome == INTERP_FINISH && r.nout == 1 &&
		      r.out[0] == want);
		interp_result_free(&r);
		ir_trace_free(t);
	}
}

/* A field access or guard_class through NULL is undefined: the run stops
 * there (INTERP_UNDEFINED, no outputs); a guard failing first leaves
 * before, defined. */
static void test_undefined(void)
{
	static const char *texts[] = {
	    "[p0]\ni1 = getfield_gc_i(p0, descr=f)\nfinish(i1)\n",
	    "[p0]\nescape_n()\nsetfield_gc(p0, 1, descr=f)\nfinish()\n",
	    "[p0]\nguard_class(p0, ConstClass(A)) []\nfinish()\n",
	};
	static const uint32_t stop[] = {0, 1, 0};
	for (int k = 0; k < 3; k++) {
		ir_trace *t = parse(texts[k], 64);
		CHECK(t != NULL);
		if (!t)
			continue;
		uint64_t a = 0;
		interp_env env = {.args = &a, .nargs = 1};
		interp_result r;
		jp_err e;
		CHECK(interp_run(t, &env, &r, &e) == JP_OK);
		CHECK(r.outcome == INTERP_UNDEFINED && r.stop_op == stop[k] &&
		      r.nout == 0 && r.ncalls == (k == 1));
		interp_result_free(&r);
		ir_trace_free(t);
	}
	ir_trace *t = parse("[p0]\nguard_nonnull(p0) []\n"
			    "i1 = getfield_gc_i(p0, descr=f)\nfinish(i1)\n",
			    64);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t a = 0;
	interp_env env = {.args = &a, .nargs = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_GUARD_FAIL && r.stop_op == 0);
	interp_result_free(&r);
	ir_trace_free(t);
}

/* A field is one word: a reference written, then read as a 32-bit
 * integer, gives the address's low 32 bits; each field remembers the kind
 * of its last write. */
static void test_mixed_kinds(void)
{
	ir_trace *t = parse("[p0]\nsetfield_gc(p0, p0, descr=f)\n"
			    "i1 = getfield_gc_i(p0, descr=f)\n"
			    "setfield_gc(p0, i1, descr=g)\nfinish(i1)\n",
			    32);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t a = UINT64_C(0x123456789);
	interp_env env = {.args = &a, .nargs = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.nout == 1 &&
	      r.out[0] == 0x23456789);
	const interp_obj *o = interp_find_obj(&r, a);
	CHECK(o && o->nfields == 2);
	if (o && o->nfields == 2)
		CHECK(o->kinds[0] == 'r' && o->kinds[1] == 'i');
	interp_result_free(&r);
	ir_trace_free(t);
}

/* A call's write to a fresh object applies only where the world reaches
 * the object at the call: p2 passed to it, or stored into the input p0;
 * p3, held only by the unescaped p4, is out of reach (nrejected). */
static void test_obj_write_reach(void)
{
	ir_trace *t = parse("[p0]\np2 = new(descr=T)\np3 = new(descr=T)\n"
			    "p4 = new(descr=T)\nsetfield_gc(p4, p3, descr=n)\n"
			    "p5 = new(descr=T)\nsetfield_gc(p0, p5, descr=n)\n"
			    "escape_n(p2)\ni6 = getfield_gc_i(p2, descr=f)\n"
			    "i7 = getfield_gc_i(p3, descr=f)\n"
			    "i8 = getfield_gc_i(p5, descr=f)\n"
			    "finish(i6, i7, i8)\n",
			    64);
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t a = 0x1000;
	interp_obj_write w[] = {{0, "p2", 0, "f", NULL, 1},
				{0, "p3", 0, "f", NULL, 2},
				{0, "p5", 0, "f", NULL, 3}};
	interp_env env = {
	    .args = &a, .nargs = 1, .obj_writes = w, .nobj_writes = 3};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.nout == 3);
	if (r.nout == 3)
		CHECK(r.out[0] == 1 && r.out[1] == 0 && r.out[2] == 3);
	CHECK(r.nrejected == 1);
	interp_result_free(&r);
	ir_trace_free(t);
}

/* A call never changes a field its descr says it keeps (" keeps=",
 * ir_py_call_keeps), nor does guard_no_exception change any: such writes
 * of the environment are rejected, not applied. */
static void test_kept_fields(void)
{
	const char *text =
	    "[p0]\n"
	    "call_n(ConstClass(g), p0, descr=<Callv 0 r EF=5 keeps=W.v>)\n"
	    "guard_no_exception()\n"
	    "i1 = getfield_gc_i(p0, descr=<FieldS W.v 8>)\n"
	    "i2 = getfield_gc_i(p0, descr=<FieldS W.w 8>)\n"
	    "finish(i1, i2)\n";
	ir_trace *t = parse_pypy(text);
	jp_err e;
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t args[1] = {0x2000};
	interp_cell init[] = {{0, 0x2000, "<FieldS W.v 8>", 4},
			      {0, 0x2000, "<FieldS W.w 8>", 4}};
	interp_cell cw[] = {{0, 0x2000, "<FieldS W.v 8>", 9},
			    {0, 0x2000, "<FieldS W.w 8>", 9},
			    {1, 0x2000, "<FieldS W.w 8>", 11}};
	interp_env env = {.args = args,
			  .nargs = 1,
			  .init = init,
			  .ninit = 2,
			  .call_writes = cw,
			  .ncall_writes = 3};
	interp_result r;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.nout == 2);
	if (r.outcome == INTERP_FINISH && r.nout == 2) {
		CHECK_EQ_U64(r.out[0], 4); /* kept by the call */
		CHECK_EQ_U64(r.out[1], 9); /* the call's write */
		CHECK(r.nrejected == 2);
	}
	interp_result_free(&r);
	ir_trace_free(t);
}

/* A call PyPy's descr makes a function (ir_pycall_of) is no event: it
 * returns the environment's entry for its arguments (0 when unlisted).  A
 * call never changes an immutable field of an object that is not fresh:
 * such a write is rejected, not applied; in a fresh object it applies. */
static void test_pure_calls_and_immutable_fields(void)
{
	const char *text =
	    "[p0, i1]\n"
	    "i2 = call_pure_i(ConstClass(f), i1, 2, descr=<Calli 8 ii EF=0>)\n"
	    "i3 = call_i(ConstClass(f), i1, 3, descr=<Calli 8 ii EF=0>)\n"
	    "p4 = force_token()\n"
	    "p5 = new(descr=T)\n"
	    "call_n(ConstClass(g), p0, p5, descr=<Callv 0 rr EF=5>)\n"
	    "i6 = getfield_gc_i(p0, descr=<FieldS W.v 8 pure>)\n"
	    "i7 = getfield_gc_i(p0, descr=<FieldS W.w 8>)\n"
	    "i8 = getfield_gc_i(p5, descr=<FieldS W.v 8 pure>)\n"
	    "finish(i2, i3, p4, i6, i7, i8)\n";
	ir_trace *t = parse_pypy(text);
	jp_err e;
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t args[2] = {0x2000, 7}, a72[2] = {7, 2}, none[1] = {0};
	interp_pure pure[] = {{"f", 2, a72, 11},
			      {"force_token", 0, none, 0x5000}};
	interp_cell init[] = {{0, 0x2000, "<FieldS W.v 8 pure>", 4},
			      {0, 0x2000, "<FieldS W.w 8>", 4}};
	interp_cell cw[] = {{0, 0x2000, "<FieldS W.v 8 pure>", 9},
			    {0, 0x2000, "<FieldS W.w 8>", 9}};
	interp_obj_write ow[] = {{0, "p5", 0, "<FieldS W.v 8 pure>", NULL, 9}};
	interp_env env = {.args = args,
			  .nargs = 2,
			  .init = init,
			  .ninit = 2,
			  .call_writes = cw,
			  .ncall_writes = 2,
			  .obj_writes = ow,
			  .nobj_writes = 1,
			  .pure = pure,
			  .npure = 2};
	interp_result r;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.nout == 6);
	if (r.outcome == INTERP_FINISH && r.nout == 6) {
		CHECK(r.ncalls == 1); /* only call_n */
		CHECK_EQ_U64(r.out[0], 11);
		CHECK_EQ_U64(r.out[1], 0); /* f(7, 3) is not listed */
		CHECK_EQ_U64(r.out[2], 0x5000);
		CHECK_EQ_U64(r.out[3], 4); /* immutable: kept */
		CHECK_EQ_U64(r.out[4], 9); /* mutable: the call's write */
		CHECK_EQ_U64(r.out[5], 9); /* a fresh object: applied */
		CHECK(r.nrejected == 1);
	}
	interp_result_free(&r);
	ir_trace_free(t);
}

/* A string's hash (IR_PYCALL_CACHED) is its cache when that is not 0,
 * else the environment's entry for the string, and neither it nor the
 * guard_no_exception after it is an event. */
static void test_cached_hash(void)
{
	const char *text = "[p0, p1]\n"
			   "i2 = getfield_gc_i(p0, descr=<str>.hash)\n"
			   "i3 = cond_call_value_i(i2, "
			   "ConstClass(_ll_strhash__rpy_stringPtr), "
			   "p0, descr=<Calli 8 r EF=5>)\n"
			   "guard_no_exception()\n"
			   "i4 = getfield_gc_i(p1, descr=<str>.hash)\n"
			   "i5 = cond_call_value_i(i4, "
			   "ConstClass(_ll_strhash__rpy_stringPtr), "
			   "p1, descr=<Calli 8 r EF=5>)\n"
			   "guard_no_exception()\n"
			   "finish(i3, i5)\n";
	ir_trace *t = parse_pypy(text);
	jp_err e;
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t args[2] = {0x2000, 0x3000}, a0[1] = {0x2000}, a1[1] = {0x3000};
	interp_pure pure[] = {{"_ll_strhash__rpy_stringPtr", 1, a0, 41},
			      {"_ll_strhash__rpy_stringPtr", 1, a1, 43}};
	interp_cell init[] = {{0, 0x3000, "<str>.hash", 17}};
	interp_env env = {.args = args,
			  .nargs = 2,
			  .init = init,
			  .ninit = 1,
			  .pure = pure,
			  .npure = 2};
	interp_result r;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.nout == 2);
	if (r.outcome == INTERP_FINISH && r.nout == 2) {
		CHECK(r.ncalls == 0);
		CHECK_EQ_U64(r.out[0], 41); /* cache 0: the hash */
		CHECK_EQ_U64(r.out[1], 17); /* the cache */
	}
	interp_result_free(&r);
	ir_trace_free(t);
}

/* Array items: item i of descr D is the field "D[i]" of the array's
 * object, at any index; initial items come from the environment; a call
 * never changes a length; an item access through NULL is undefined. */
static void test_array_items(void)
{
	ir_trace *t = parse("[p0, i1, i2]\n"
			    "setarrayitem_gc(p0, i1, 7, descr=A)\n"
			    "i3 = getarrayitem_gc_i(p0, 3, descr=A)\n"
			    "i4 = getarrayitem_gc_i(p0, i2, descr=A)\n"
			    "i5 = getarrayitem_gc_i(p0, 9, descr=A)\n"
			    "escape_n()\n"
			    "i6 = getfield_gc_i(p0, descr=A.length)\n"
			    "finish(i3, i4, i5, i6)\n",
			    16);
	CHECK(t != NULL);
	if (!t)
		return;
	char name[32];
	CHECK(interp_item_field(name, sizeof name, "A", 9) == 4 &&
	      !strcmp(name, "A[9]"));
	const interp_cell init[] = {{0, 0x100, "A[9]", 42},
				    {0, 0x100, "A[3]", 5},
				    {0, 0x100, "A.length", 10}};
	const interp_cell writes[] = {{0, 0x100, "A.length", 99}};
	uint64_t args[3] = {0x100, 3, 0xffff};
	interp_env env = {.args = args,
			  .nargs = 3,
			  .init = init,
			  .ninit = 3,
			  .call_writes = writes,
			  .ncall_writes = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	/* the store at the variable index 3 is the item at the constant 3;
	 * index 0xffff (-1 at W = 16) is its own slot, initially 0 */
	CHECK(r.outcome == INTERP_FINISH && r.nout == 4);
	if (r.nout == 4) {
		CHECK_EQ_U64(r.out[0], 7);
		CHECK_EQ_U64(r.out[1], 0);
		CHECK_EQ_U64(r.out[2], 42);
		CHECK_EQ_U64(r.out[3], 10);
	}
	CHECK(r.nrejected == 1);
	const interp_obj *o = interp_find_obj(&r, 0x100);
	CHECK(o && interp_obj_field(o, "A[3]") == 7);
	interp_result_free(&r);
	args[2] = 3; /* now i2 names the slot written */
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.nout == 4 && r.out[1] == 7);
	interp_result_free(&r);
	args[0] = 0;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_UNDEFINED && r.stop_op == 0);
	interp_result_free(&r);
	ir_trace_free(t);
}

/* PyPy's conditional calls: cond_call calls only when its condition is
 * not 0, cond_call_value_i only when its value is 0 (else it gives the
 * value); a call not made is no event.  Call k is the k-th call made:
 * its result is call_ret[k]. */
static void test_cond_calls(void)
{
	const char *text =
	    "[i0, i1]\n"
	    "cond_call(i0, ConstClass(f), i1, descr=<Callv 0 i EF=5>)\n"
	    "i2 = cond_call_value_i(i1, ConstClass(h), i0, "
	    "descr=<Calli 8 i EF=5>)\n"
	    "finish(i2)\n";
	ir_trace *t = parse_pypy(text);
	jp_err e;
	CHECK(t != NULL);
	if (!t)
		return;
	static const struct {
		uint64_t c, v;
		uint32_t ncalls;
		uint64_t out;
	} cases[] = {
	    {0, 5, 0, 5},  /* neither calls */
	    {3, 5, 1, 5},  /* cond_call calls, the value is 5 */
	    {0, 0, 1, 70}, /* the value is 0: h is called, call 0 */
	    {1, 0, 2, 71}, /* both call: h is call 1 */
	};
	uint64_t ret[2] = {70, 71};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint64_t args[2] = {cases[i].c, cases[i].v};
		interp_env env = {
		    .args = args, .nargs = 2, .call_ret = ret, .ncall_ret = 2};
		interp_result r;
		CHECK(interp_run(t, &env, &r, &e) == JP_OK);
		CHECK(r.outcome == INTERP_FINISH && r.nout == 1);
		CHECK(r.ncalls == cases[i].ncalls);
		if (r.outcome == INTERP_FINISH && r.nout == 1)
			CHECK_EQ_U64(r.out[0], cases[i].out);
		interp_result_free(&r);
	}
	ir_trace_free(t);
}

/* The guard_no_exception on a cond_call that did not call looks at no
 * call: it passes and is no event (ir_py_noexc_cond).  After a call that
 * was made, it is an event of its own, as after any call. */
static void test_noexc_after_cond_call(void)
{
	ir_trace *t = parse_pypy(
	    "[i0, i1]\n"
	    "cond_call(i0, ConstClass(f), i1, descr=<Callv 0 i EF=5>)\n"
	    "guard_no_exception()\n"
	    "i2 = call_i(ConstClass(g), i1, descr=<Calli 8 i EF=5>)\n"
	    "guard_no_exception()\n"
	    "finish(i2)\n");
	jp_err e;
	CHECK(t != NULL);
	if (!t)
		return;
	static const struct {
		uint64_t c;
		uint32_t ncalls, op0;
	} cases[] = {
	    {0, 2, 2}, /* g and its guard: call 0 is g (op 2) */
	    {1, 4, 0}, /* f, its guard, g, its guard */
	};
	uint64_t ret[4] = {7, 8, 9, 10};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint64_t args[2] = {cases[i].c, 5};
		interp_env env = {
		    .args = args, .nargs = 2, .call_ret = ret, .ncall_ret = 4};
		interp_result r;
		CHECK(interp_run(t, &env, &r, &e) == JP_OK);
		CHECK(r.outcome == INTERP_FINISH);
		CHECK(r.ncalls == cases[i].ncalls);
		if (r.ncalls)
			CHECK(r.calls[0].op == cases[i].op0);
		interp_result_free(&r);
	}
	ir_trace_free(t);
}

/* A force_virtualizable (cond_call ... OS=121; ir_py_clears_vable) is no
 * call event: where it calls it sets the frame's vable_token to NULL,
 * whether the token was written by the trace or is the initial one; where
 * it does not call it changes nothing; with a NULL frame it is
 * undefined. */
static void test_clear_vable(void)
{
	ir_trace *t = parse_pypy(
	    "[p0, i1]\n"
	    "cond_call(i1, 7, p0, descr=<Callv 0 r EF=2 OS=121>)\n"
	    "p2 = getfield_gc_r(p0, descr=<FieldP F.vable_token 8>)\n"
	    "finish(p2)\n");
	jp_err e;
	CHECK(t != NULL);
	if (!t)
		return;
	static const struct {
		uint64_t frame, calls, token;
		interp_outcome out;
	} cases[] = {
	    {0x1000, 1, 0, INTERP_FINISH},
	    {0x1000, 0, 0x55, INTERP_FINISH},
	    {0, 1, 0, INTERP_UNDEFINED},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint64_t args[2] = {cases[i].frame, cases[i].calls};
		interp_cell init[] = {
		    {0, 0x1000, "<FieldP F.vable_token 8>", 0x55}};
		interp_env env = {
		    .args = args, .nargs = 2, .init = init, .ninit = 1};
		interp_result r;
		CHECK(interp_run(t, &env, &r, &e) == JP_OK);
		CHECK(r.outcome == cases[i].out);
		CHECK(r.ncalls == 0);
		if (r.outcome == INTERP_FINISH)
			CHECK(r.nout == 1 && r.out[0] == cases[i].token);
		interp_result_free(&r);
	}
	ir_trace_free(t);
}

/* A string helper on NULL is undefined at the call, which is then no
 * event (ir_py_needs_nonnull); on a string it is an ordinary call. */
static void test_string_helper_on_null(void)
{
	ir_trace *t = parse_pypy("[p0, p1]\n"
				 "p2 = call_r(ConstClass(cat), p0, p1, "
				 "descr=<Callr 8 rr EF=3 OS=22>)\n"
				 "finish(p2)\n");
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t args[2] = {0x2000, 0}, ret[1] = {0x3000};
	interp_env env = {
	    .args = args, .nargs = 2, .call_ret = ret, .ncall_ret = 1};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_UNDEFINED && r.stop_op == 0 && r.ncalls == 0);
	interp_result_free(&r);
	args[1] = 0x2010;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.ncalls == 1);
	interp_result_free(&r);
	ir_trace_free(t);
}

/* copystrcontent copies items (all read before any is written, so an
 * overlapping copy moves the old ones), is no call event, and is
 * undefined through NULL or with a negative length; a copy longer than
 * INTERP_MAX_COPY stops the run as too long. */
static void test_str_copies(void)
{
	ir_trace *t = parse_pypy("[p0, i1, i2]\n"
				 "p3 = newstr(4)\n"
				 "copystrcontent(p0, p3, i1, 1, 2)\n"
				 "copystrcontent(p3, p3, 1, 2, i2)\n"
				 "i4 = strgetitem(p3, 1)\n"
				 "i5 = strgetitem(p3, 2)\n"
				 "i6 = strgetitem(p3, 3)\n"
				 "finish(i4, i5, i6)\n");
	CHECK(t != NULL);
	if (!t)
		return;
	uint64_t args[3] = {0x1000, 5, 2};
	interp_cell init[] = {{0, 0x1000, "<str>[5]", 'a'},
			      {0, 0x1000, "<str>[6]", 'b'}};
	interp_env env = {.args = args, .nargs = 3, .init = init, .ninit = 2};
	interp_result r;
	jp_err e;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_FINISH && r.ncalls == 0 && !r.too_long);
	if (r.outcome == INTERP_FINISH && r.nout == 3) {
		CHECK_EQ_U64(r.out[0], 'a');
		CHECK_EQ_U64(r.out[1], 'a'); /* item 1 before the second copy */
		CHECK_EQ_U64(r.out[2], 'b');
	}
	interp_result_free(&r);
	args[2] = (uint64_t)-1; /* a negative length */
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_UNDEFINED && !r.too_long);
	interp_result_free(&r);
	args[2] = INTERP_MAX_COPY + 1;
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_UNDEFINED && r.too_long);
	interp_result_free(&r);
	args[2] = 1;
	args[0] = 0; /* through NULL */
	CHECK(interp_run(t, &env, &r, &e) == JP_OK);
	CHECK(r.outcome == INTERP_UNDEFINED && !r.too_long);
	interp_result_free(&r);
	ir_trace_free(t);
}

int main(void)
{
	test_string_helper_on_null();
	test_cond_calls();
	test_noexc_after_cond_call();
	test_clear_vable();
	test_kept_fields();
	test_claims();
	test_pure_calls_and_immutable_fields();
	test_cached_hash();
	test_call_snapshots_and_obj_writes();
	test_fresh_avoids_heap_addresses();
	test_wraparound();
	test_overflow_guards();
	test_heap();
	test_toy();
	test_undefined();
	test_mixed_kinds();
	test_obj_write_reach();
	test_array_items();
	test_str_copies();
	return check_summary("test_interp");
}
