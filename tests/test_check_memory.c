/* The verifier's memory stays flat over many checks of one context that
 * is recycled (ver_ctx_set_recycle).  Helpers: test_check_util.h. */
#define _POSIX_C_SOURCE 200809L
#include "test_check_util.h"

/* ---- memory stays flat over many checks -------------------------------- */

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = -1, resident = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * 4;
}

static void test_memory_flat(void)
{
	jp_err err;
	ver_ctx *c = ver_ctx_new(&err);
	ver_ctx_set_recycle(c, 100);
	ir_trace *a = parse("[i0, i1]\ni2 = int_and(i0, 255)\n"
			    "i3 = int_lt(i2, i1)\nguard_true(i3, descr=a)\n"
			    "i4 = int_lt(i1, 0)\nguard_false(i4, descr=b)\n"
			    "i5 = int_mul(i2, 7)\nfinish(i5)\n",
			    64);
	/* 7 has three bits set, so the product keeps its multiplier (a
	 * product by 3 is an adder, the same term as i2 + i2 + i2). */
	ir_trace *b = parse("[i0, i1]\ni2 = int_and(i0, 255)\n"
			    "i3 = int_lt(i2, i1)\nguard_true(i3, descr=a)\n"
			    "i6 = int_lshift(i2, 3)\ni5 = int_sub(i6, i2)\n"
			    "finish(i5)\n",
			    64);
	ver_opts o = ver_default_opts();
	o.screen_inputs = 4;
	long before = 0;
	int proved = 0, solver = 0;
	for (int k = 0; k < 1500; k++) {
		ver_result r;
		if (ver_check(c, a, b, &o, &r, &err) == JP_OK) {
			proved += r.verdict == VER_PROVED;
			solver += r.solver_calls > 0;
			ver_result_free(&r);
		}
		if (k == 300)
			before = rss_kb();
	}
	long after = rss_kb();
	printf("memory: 1500 checks, %u context rebuilds, rss %ld kB -> %ld "
	       "kB\n",
	       ver_ctx_rebuilds(c), before, after);
	CHECK(proved == 1500);
	CHECK(solver == 1500); /* every check reached the solver */
	CHECK(ver_ctx_rebuilds(c) >= 14);
	if (before > 0 && after > 0)
		CHECK(after - before < 16 * 1024);
	ir_trace_free(a);
	ir_trace_free(b);
	ver_ctx_free(c);
}

int main(void)
{
	test_memory_flat();
	return check_summary("test_check_memory");
}
