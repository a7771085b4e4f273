/* ir/pypylog_cells.c: the global cells of a PyPy log pair, fields both
 * traces reach only through ConstPtrs -- which optimized read pairs with
 * which unoptimized one, and which object a read the optimizer removed
 * names. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"

#define CELL "descr=<FieldP c.Cell.inst_w 8>)\n"
#define BAL  "descr=<FieldS c.Acct.inst_bal 8>)\n"

/* The name of the ConstPtr op I of T reads or writes through. */
static const char *cell_of(const ir_trace *t, uint32_t i)
{
	return ir_valname(t, t->ops[i].args[0]);
}

/* Two globals stored, both read, twice (bank's "transfer(src, dst)" with
 * the roles swapped between): the reads' values are used alike, so only
 * the stores before each read pair the optimized second read with the
 * unoptimized third, not the second; the reads the optimizer removed
 * name the store just before them, whose value the optimized trace uses
 * where they were (read_source), not the kept read between. */
static void test_cell_reads(void)
{
	const char *text =
	    "[1] {jit-log-noopt\n[p1, p2]\n"
	    "setfield_gc(ConstPtr(ptr1), p1, " CELL
	    "setfield_gc(ConstPtr(ptr2), p2, " CELL
	    "p3 = getfield_gc_r(ConstPtr(ptr3), " CELL
	    "p4 = getfield_gc_r(ConstPtr(ptr4), " CELL
	    "i5 = getfield_gc_i(p3, " BAL "setfield_gc(p4, i5, " BAL
	    "setfield_gc(ConstPtr(ptr6), p2, " CELL
	    "setfield_gc(ConstPtr(ptr7), p1, " CELL
	    "p8 = getfield_gc_r(ConstPtr(ptr8), " CELL
	    "p9 = getfield_gc_r(ConstPtr(ptr9), " CELL
	    "i10 = getfield_gc_i(p8, " BAL "setfield_gc(p9, i10, " BAL
	    "finish()\n[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0000150000 with 10 ops\n[p11, p12]\n"
	    "+1: setfield_gc(ConstPtr(ptr11), p11, " CELL
	    "+2: setfield_gc(ConstPtr(ptr12), p12, " CELL
	    "+3: p13 = getfield_gc_r(ConstPtr(ptr13), " CELL
	    "+4: i15 = getfield_gc_i(p13, " BAL "+5: setfield_gc(p12, i15, " BAL
	    "+6: setfield_gc(ConstPtr(ptr16), p12, " CELL
	    "+7: setfield_gc(ConstPtr(ptr17), p11, " CELL
	    "+8: p18 = getfield_gc_r(ConstPtr(ptr18), " CELL
	    "+9: i20 = getfield_gc_i(p18, " BAL
	    "+10: setfield_gc(p11, i20, " BAL "+11: finish()\n"
	    "[4] jit-log-opt-bridge}\n";
	pl_log log;
	jp_err e;
	CHECK(pl_read_text(text, strlen(text), "t.log", NULL, &log, &e) ==
	      JP_OK);
	const pl_pair *p = log.n == 1 ? &log.pairs[0] : NULL;
	CHECK(p && p->orig && p->opt && p->orig->nops == 13 &&
	      p->opt->nops == 11);
	if (p && p->orig && p->opt && p->orig->nops == 13 &&
	    p->opt->nops == 11) {
		const ir_trace *o = p->orig, *t = p->opt;
		CHECK(!strcmp(cell_of(o, 3), cell_of(o, 1))); /* dst */
		CHECK(strcmp(cell_of(o, 2), cell_of(o, 1)));
		CHECK(!strcmp(cell_of(o, 9), cell_of(o, 7)));
		CHECK(strcmp(cell_of(o, 8), cell_of(o, 7)));
		CHECK(!strcmp(cell_of(t, 2), cell_of(o, 2))); /* src */
		CHECK(!strcmp(cell_of(t, 7), cell_of(o, 8)));
		CHECK(strcmp(cell_of(t, 7), cell_of(o, 3)));
	}
	pl_free(&log);
}

int main(void)
{
	test_cell_reads();
	return check_summary("test_pypylog_cells");
}
