/*
 * test_ops.c - the op table's columns agree with the ops' meaning.
 *
 * The columns of ir/ops.def (wrapping twin, comparison shape, multiplier /
 * divider, toy spelling, result kind) replace facts that modules used to
 * write out by hand.  Each is checked here against sem_eval, the one
 * definition of what an op computes, so a wrong row fails a test instead
 * of silently changing every module that reads it.
 */
#include "check.h"
#include "ir/ops.h"
#include "ir/sem.h"

#include <stdbool.h>
#include <stdint.h>

static const uint64_t samples8[] = {0, 1, 2, 0x7f, 0x80, 0x81, 0xfe, 0xff};
#define NSAMPLES (sizeof samples8 / sizeof samples8[0])

/* The twin of an overflow-checked op computes the same wrapped value with
 * the same arguments; every other op is its own twin. */
static void test_twin(void)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		ir_opcode t = ir_op_wrapping(opc);
		if (!ir_op_has(opc, IRF_OVF)) {
			CHECK(ir_opinfos[i].twin == IR_NO_OP);
			CHECK(t == opc);
			continue;
		}
		CHECK(t != opc);
		CHECK(!ir_op_has(t, IRF_OVF) && ir_op_has(t, IRF_PURE));
		CHECK(ir_opinfos[t].nargs == ir_opinfos[i].nargs);
		CHECK(strcmp(ir_opinfos[t].args, ir_opinfos[i].args) == 0);
		CHECK(ir_opinfos[t].result == ir_opinfos[i].result);
		for (size_t x = 0; x < NSAMPLES; x++)
			for (size_t y = 0; y < NSAMPLES; y++) {
				uint64_t a[2] = {samples8[x], samples8[y]};
				bool ovf;
				CHECK_EQ_U64(sem_eval(opc, 8, a, &ovf),
					     sem_eval(t, 8, a, NULL));
			}
	}
}

static bool rel_holds(ir_cmp c, uint64_t x, uint64_t y)
{
	if (c.rel == IR_REL_EQ)
		return x == y;
	if (!c.uns) {
		x ^= 0x80; /* 8 bits: order signed values as unsigned */
		y ^= 0x80;
	}
	return c.rel == IR_REL_LT ? x < y : x <= y;
}

/* Every integer comparison is what its shape says, on all 8-bit pairs;
 * the shapes are distinct; reflexivity agrees with op(x, x). */
static void test_cmp_shape(void)
{
	int ncmp = 0;
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		ir_cmp c = ir_op_cmp(opc);
		bool intcmp =
		    ir_op_has(opc, IRF_CMP) && ir_opinfos[i].args[0] == 'i';
		CHECK((c.rel != IR_REL_NONE) == intcmp);
		/* pointer comparisons have a relation too (EQ), for
		 * reflexivity, but no integer shape */
		CHECK((ir_opinfos[i].rel != IR_REL_NONE) ==
		      ir_op_has(opc, IRF_CMP));
		if (ir_op_has(opc, IRF_CMP) && ir_opinfos[i].nargs == 2) {
			uint64_t a[2] = {5, 5};
			CHECK(ir_cmp_reflexive(opc) ==
			      (sem_eval(opc, 8, a, NULL) == 1));
		}
		if (!intcmp)
			continue;
		ncmp++;
		CHECK(ir_cmp_opcode(c) == i);
		CHECK(c.zero == (ir_opinfos[i].nargs == 1));
		for (uint64_t x = 0; x < 256; x++)
			for (uint64_t y = 0; y < 256; y++) {
				if (c.zero && y)
					break;
				uint64_t a[2] = {x, y};
				uint64_t p = c.swap ? y : x, q = c.swap ? x : y;
				bool want = rel_holds(c, p, c.zero ? 0 : q);
				if (c.neg)
					want = !want;
				CHECK(sem_eval(opc, 8, a, NULL) ==
				      (want ? 1u : 0u));
			}
	}
	CHECK(ncmp == 12);
	ir_cmp none = {IR_REL_NONE, false, false, false, false};
	CHECK(ir_cmp_opcode(none) == -1);
}

/* Multiplier and divider ops are exactly the products and divisions. */
static void test_circuits(void)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		bool mul = ir_op_has(opc, IRF_MULTIPLIER);
		bool div = ir_op_has(opc, IRF_DIVIDER);
		CHECK(!(mul && div));
		CHECK(ir_op_needs_circuit(opc, false, false) == (mul || div));
		CHECK(!ir_op_needs_circuit(opc, false, true));
		CHECK(ir_op_needs_circuit(opc, true, false) == div);
		if (mul || div)
			CHECK(ir_opinfos[i].nargs == 2 &&
			      (ir_op_has(opc, IRF_PURE) ||
			       ir_op_has(opc, IRF_OVF)));
	}
	CHECK(ir_op_has(IR_INT_MUL, IRF_MULTIPLIER));
	CHECK(ir_op_has(IR_INT_MUL_OVF, IRF_MULTIPLIER));
	CHECK(ir_op_has(IR_UINT_MUL_HIGH, IRF_MULTIPLIER));
	CHECK(ir_op_has(IR_INT_PY_DIV, IRF_DIVIDER));
	CHECK(ir_op_has(IR_INT_PY_MOD, IRF_DIVIDER));
	/* the table agrees with sem_eval: 3 * 5 is 15, 17 // 5 is 3 */
	uint64_t a[2] = {3, 5}, b[2] = {17, 5};
	CHECK(sem_eval(IR_INT_MUL, 8, a, NULL) == 15);
	CHECK(sem_eval(IR_INT_PY_DIV, 8, b, NULL) == 3);
}

/* The toy words read as the ops the tutorials mean. */
static void test_toy(void)
{
	static const struct {
		const char *word;
		ir_opcode opc;
	} want[] = {
	    {"add", IR_INT_ADD},       {"sub", IR_INT_SUB},
	    {"mul", IR_INT_MUL},       {"lshift", IR_INT_LSHIFT},
	    {"rshift", IR_INT_RSHIFT}, {"dummy", IR_SAME_AS_I},
	    {"alloc", IR_NEW},	       {"load", IR_GETFIELD_GC_I},
	    {"store", IR_SETFIELD_GC}, {"escape", IR_ESCAPE_N},
	};
	int n = 0;
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
		CHECK(ir_opcode_by_toy(want[k].word, strlen(want[k].word)) ==
		      (int)want[k].opc);
	for (int i = 0; i < IR_OPCODE_COUNT; i++)
		n += ir_opinfos[i].toy != NULL;
	CHECK(n == 11); /* the ten words, "load" twice (int and ref) */
	CHECK(strcmp(ir_opinfos[IR_GETFIELD_GC_R].toy, "load") == 0);
	CHECK(ir_opcode_by_toy("print", 5) == -1); /* a parser alias */
	CHECK(ir_opcode_by_toy("int_add", 7) == -1);
}

/* Result kinds: comparisons and integer ops give ints, allocations refs,
 * guards and ends nothing. */
static void test_result_kind(void)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_opcode opc = (ir_opcode)i;
		char r = ir_opinfos[i].result;
		CHECK(r == 'i' || r == 'r' || r == 'v');
		if (ir_op_has(opc, IRF_PURE) || ir_op_has(opc, IRF_OVF) ||
		    ir_op_has(opc, IRF_CMP))
			CHECK(r == 'i');
		if (ir_op_has(opc, IRF_ALLOC))
			CHECK(r == 'r');
		if (ir_op_has(opc, IRF_GUARD) || ir_op_has(opc, IRF_END) ||
		    ir_op_has(opc, IRF_MARK))
			CHECK(r == 'v');
	}
}

int main(void)
{
	test_twin();
	test_cmp_shape();
	test_circuits();
	test_toy();
	test_result_kind();
	return check_summary("test_ops");
}
