/* ir/pypylog_folds.c: reads of a constant's memory that the optimized
 * trace has folded into constants of its own. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"
#include "test_pypylog_util.h"

#define INTVAL                                                                 \
	"descr=<FieldS pypy.objspace.std.intobject.W_IntObject.inst_intval 8 " \
	"pure>)\n"

/* The guard_values of T against an integer constant before its first op
 * that is not a front-end fact (a fact's read or guard_value): the
 * folds' facts, with their integers into V (at most 4). */
static uint32_t int_facts(const ir_trace *t, uint64_t *v)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		bool read = op->opc == IR_GETFIELD_GC_I ||
			    op->opc == IR_GETARRAYITEM_GC_R;
		if (!read && op->opc != IR_GUARD_VALUE)
			break;
		if (op->opc == IR_GUARD_VALUE &&
		    ir_val(t, op->args[1])->tag == IR_VAL_CONST_INT) {
			if (n < 4)
				v[n] = ir_val(t, op->args[1])->cval;
			n++;
		}
	}
	return n;
}

/* A log of one bridge: the original adds the intval of items A and B of
 * constant array K (pure reads at constant indices), the optimized trace
 * adds the integers X and Y.  EXTRA goes into the original before the
 * first addition. */
static const pl_pair *two_items(const char *extra, const char *x, const char *y,
				const pl_opts *o, pl_log *log)
{
	char text[2000];
	snprintf(text, sizeof text,
		 "[1] {jit-log-noopt\n"
		 "[i0]\n"
		 "p1 = getarrayitem_gc_pure_r(ConstPtr(ptr9), 1, descr=<ArrayP "
		 "8>)\n"
		 "i2 = getfield_gc_i(p1, " INTVAL
		 "p3 = getarrayitem_gc_pure_r(ConstPtr(ptr9), 2, descr=<ArrayP "
		 "8>)\n"
		 "i4 = getfield_gc_i(p3, " INTVAL "%s"
		 "i5 = int_add(i0, i2)\n"
		 "i6 = int_add(i5, i4)\n"
		 "finish(i6)\n"
		 "[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f0b with 3 ops\n"
		 "[i10]\n"
		 "+1: i15 = int_add(i10, %s)\n"
		 "+2: i16 = int_add(i15, %s)\n"
		 "+3: finish(i16)\n"
		 "[4] jit-log-opt-bridge}\n",
		 extra, x, y);
	return o ? read_pair_opts(text, o, 1, 0, log)
		 : read_pair(text, 1, 0, log);
}

/* The two reads pair in order with the two integers (31, then 28): both
 * traces start with the facts, and the pair counts two identities; the
 * same with the integers swapped gives them swapped. */
static void test_in_order(void)
{
	const char *xy[2][2] = {{"31", "28"}, {"28", "31"}};
	for (int k = 0; k < 2; k++) {
		pl_log log;
		const pl_pair *p =
		    two_items("", xy[k][0], xy[k][1], NULL, &log);
		if (!p)
			return;
		uint64_t v[4] = {0}, w[4] = {0};
		CHECK(int_facts(p->orig, v) == 2);
		CHECK(int_facts(p->opt, w) == 2);
		CHECK(v[0] == (k ? 28u : 31u) && v[1] == (k ? 31u : 28u));
		CHECK(w[0] == v[0] && w[1] == v[1]);
		CHECK(p->nsame == 2);
		pl_free(&log);
	}
}

/* No fact: when the original has an integer constant in the role too (it
 * may be the optimized trace's), and with --consts-unknown or
 * --ptrs-apart. */
static void test_not_taken(void)
{
	pl_log log;
	const pl_pair *p =
	    two_items("i7 = int_add(i0, 5)\n", "31", "28", NULL, &log);
	if (p) {
		uint64_t v[4];
		CHECK(int_facts(p->orig, v) == 0);
		CHECK(p->nsame == 0);
		pl_free(&log);
	}
	pl_opts o[2] = {{.consts_unknown = true}, {.apart = true}};
	for (int k = 0; k < 2; k++) {
		p = two_items("", "31", "28", &o[k], &log);
		if (!p)
			return;
		uint64_t v[4];
		CHECK(int_facts(p->orig, v) == 0);
		pl_free(&log);
	}
}

int main(void)
{
	test_in_order();
	test_not_taken();
	return check_summary("test_pypylog_folds");
}
