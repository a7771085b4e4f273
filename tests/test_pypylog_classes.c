/* ir/pypylog_classes: the classes of a PyPy log's allocations, named from
 * the field descrs its traces use (docs/pypy.md, "Classes of
 * allocations"). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"
#include "test_pypylog_util.h"

/* The descrs of T's first N new_with_vtable ops into CLS; how many. */
static uint32_t alloc_classes(const ir_trace *t, const char **cls, uint32_t n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < t->nops && k < n; i++)
		if (t->ops[i].opc == IR_NEW_WITH_VTABLE)
			cls[k++] = ir_strtext(t, t->ops[i].descr);
	return k;
}

/* The class T's first guard_class compares with. */
static const char *guarded(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (t->ops[i].opc == IR_GUARD_CLASS)
			return ir_valname(t, t->ops[i].args[1]);
	return "";
}

/* A log of one noopt trace and its bridge, each with BODY_O / BODY_P (ops
 * of the inputs [p0, i1]), into a pair. */
static const pl_pair *pair_of(const char *body_o, const char *body_p,
			      pl_log *log, char *buf, size_t n)
{
	snprintf(buf, n,
		 "[1] {jit-log-noopt\n[p0, i1]\n%s[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f01 with 9 ops\n[p0, i1]\n%s"
		 "[4] jit-log-opt-bridge}\n",
		 body_o, body_p);
	return read_pair(buf, 1, 0, log);
}

/* p2 is written through A's field at 8 and B's at 16: B's sits above A's,
 * so B is the deeper class of one line and p2's class.  p3's classes C
 * (8 and 24) and D (16) overlap: no line, left as printed.  The objects
 * guarded to have class 1234 are read through A's and B's fields: 1234
 * is B, which names an allocation and is never printed. */
static void test_line_of_classes(void)
{
	static const char body[] =
	    "guard_class(p0, ConstClass(1234))\n"
	    "i5 = getfield_gc_i(p0, descr=<FieldS m.A.inst_x 8>)\n"
	    "i6 = getfield_gc_i(p0, descr=<FieldS m.B.inst_y 16>)\n"
	    "p2 = new_with_vtable(descr=<SizeDescr 24>)\n"
	    "setfield_gc(p2, i1, descr=<FieldS m.A.inst_x 8>)\n"
	    "setfield_gc(p2, i1, descr=<FieldS m.B.inst_y 16>)\n"
	    "p3 = new_with_vtable(descr=<SizeDescr 40>)\n"
	    "setfield_gc(p3, i1, descr=<FieldS m.C.inst_x 8>)\n"
	    "setfield_gc(p3, i1, descr=<FieldS m.C.inst_z 24>)\n"
	    "setfield_gc(p3, i1, descr=<FieldS m.D.inst_y 16>)\n"
	    "finish(i5, i6, p2, p3)\n";
	char buf[4096];
	pl_log log;
	const pl_pair *p = pair_of(body, body, &log, buf, sizeof buf);
	if (!p)
		return;
	const ir_trace *sides[2] = {p->orig, p->opt};
	for (int s = 0; s < 2; s++) {
		const char *cls[2] = {NULL, NULL};
		CHECK(alloc_classes(sides[s], cls, 2) == 2);
		CHECK(cls[0] && !strcmp(cls[0], "B"));
		CHECK(cls[1] && !strcmp(cls[1], "<SizeDescr 40>"));
		CHECK(!strcmp(guarded(sides[s]), "B"));
	}
	pl_free(&log);
}

/* The optimized trace writes only A's field of an object of the same size
 * (PyPy leaves out a store of 0 into a fresh object): A there, B in the
 * original would be two classes the runs do not have, so the original's
 * allocation is left as printed.  Unchanged: one class names it. */
static void test_contested_size(void)
{
	char buf[4096];
	pl_log log;
	const pl_pair *p =
	    pair_of("p2 = new_with_vtable(descr=<SizeDescr 24>)\n"
		    "setfield_gc(p2, i1, descr=<FieldS m.A.inst_x 8>)\n"
		    "setfield_gc(p2, 0, descr=<FieldS m.B.inst_y 16>)\n"
		    "finish(p2)\n",
		    "+1: p2 = new_with_vtable(descr=<SizeDescr 24>)\n"
		    "+2: setfield_gc(p2, i1, descr=<FieldS m.A.inst_x 8>)\n"
		    "+3: finish(p2)\n",
		    &log, buf, sizeof buf);
	if (!p)
		return;
	const char *co = NULL, *cp = NULL;
	CHECK(alloc_classes(p->orig, &co, 1) == 1 && co &&
	      !strcmp(co, "<SizeDescr 24>"));
	CHECK(alloc_classes(p->opt, &cp, 1) == 1 && cp && !strcmp(cp, "A"));
	pl_free(&log);
}

int main(void)
{
	test_line_of_classes();
	test_contested_size();
	return check_summary("test_pypylog_classes");
}
