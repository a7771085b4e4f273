/* ir/pypylog_lookups.c: the original's dict lookup that repeats an
 * earlier one, left out when the optimized trace took its result from
 * PyPy's lookup cache (heap.py, _optimize_CALL_DICT_LOOKUP). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/pypylog.h"
#include "test_pypylog_util.h"

#define DSTORAGE "descr=<FieldP m.D.inst_dstorage 8>"
#define LOOKUP	 "ConstClass(ll_lookup)"
#define LDESCR	 "descr=<Calli 8 riii EF=5 OS=4>"

/* A bridge whose original looks key i0 up in p1's storage for reading,
 * then runs CHECK (a check of the index, or nothing), BETWEEN and
 * STORAGE2 (which defines p6, the storage again), looks the key up with
 * flag FLAG in p6 and stores; its optimized trace, as PyPy makes it, has
 * one lookup and uses its index for the store. */
static char *bridge(const char *between, const char *storage2, const char *flag,
		    const char *check)
{
	static char buf[4096];
	snprintf(buf, sizeof buf,
		 "[1] {jit-log-noopt\n"
		 "[i0, p1, p9]\n"
		 "p3 = getfield_gc_r(p1, " DSTORAGE ")\n"
		 "i4 = call_i(" LOOKUP ", p3, i0, i0, 0, " LDESCR ")\n"
		 "guard_no_exception()\n"
		 "%s"
		 "%s"
		 "%s"
		 "i7 = call_i(" LOOKUP ", p6, i0, i0, %s, " LDESCR ")\n"
		 "guard_no_exception()\n"
		 "call_n(ConstClass(ll_store), p6, i0, p9, i0, i7, "
		 "descr=<Callv 0 ririi EF=5>)\n"
		 "guard_no_exception()\n"
		 "finish(i7)\n"
		 "[2] jit-log-noopt}\n"
		 "[3] {jit-log-opt-bridge\n"
		 "# bridge out of Guard 0x7f0a with 8 ops\n"
		 "[i10, p11, p19]\n"
		 "+1: p13 = getfield_gc_r(p11, " DSTORAGE ")\n"
		 "+2: i14 = call_i(" LOOKUP ", p13, i10, i10, 0, " LDESCR ")\n"
		 "+3: guard_no_exception(descr=<Guard0x2>) [p11]\n"
		 "+4: i15 = int_lt(i14, 0)\n"
		 "+5: guard_false(i15, descr=<Guard0x3>) [p11]\n"
		 "+6: call_n(ConstClass(ll_store), p13, i10, p19, i10, i14, "
		 "descr=<Callv 0 ririi EF=5>)\n"
		 "+7: guard_no_exception(descr=<Guard0x4>) [p11]\n"
		 "+8: finish(i14)\n"
		 "[4] jit-log-opt-bridge}\n",
		 check, between, storage2, flag);
	return buf;
}

static const char *const CHECK_NONNEG = "i5 = int_lt(i4, 0)\n"
					"guard_false(i5)\n";
static const char *const READ_AGAIN = "p6 = getfield_gc_r(p1, " DSTORAGE ")\n";

/* The lookups T makes (calls with OS=4 in their descr). */
static uint32_t lookups(const ir_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		n += op->descr && strstr(ir_strtext(t, op->descr), " OS=4");
	}
	return n;
}

/* The original's lookups after the log is read with options O. */
static uint32_t orig_lookups(const char *text, const pl_opts *o,
			     uint32_t *nkept)
{
	pl_log log;
	const pl_pair *p = o ? read_pair_opts(text, o, 1, 0, &log)
			     : read_pair(text, 1, 0, &log);
	if (!p)
		return UINT32_MAX;
	uint32_t n = lookups(p->orig);
	*nkept = p->nkept;
	pl_free(&log);
	return n;
}

/* The storage read again after a lookup the optimized trace keeps it
 * across (pl_call_effects), the same key, the index checked >= 0: the
 * store's lookup is the first one's, and is counted. */
static void test_repeat_for_store(void)
{
	uint32_t kept = 0;
	CHECK(orig_lookups(bridge("", READ_AGAIN, "1", CHECK_NONNEG), NULL,
			   &kept) == 1);
	CHECK(kept == 2); /* the storage kept by the lookup, and the lookup */
	/* A second FLAG_LOOKUP lookup needs no check of the index. */
	CHECK(orig_lookups(bridge("", READ_AGAIN, "0", ""), NULL, &kept) == 1);
}

/* What keeps the original's second lookup: FLAG_STORE with the index
 * not checked (it may be -1); a call between (it may write the dict); a
 * store of the storage field between; another key; the flag
 * FLAG_DELETE; --calls-write-all. */
static void test_not_repeated(void)
{
	uint32_t kept = 0;
	CHECK(orig_lookups(bridge("", READ_AGAIN, "1", ""), NULL, &kept) == 2);
	CHECK(orig_lookups(bridge("call_n(ConstClass(g), descr=<Callv 0 "
				  "EF=5>)\nguard_no_exception()\n",
				  READ_AGAIN, "1", CHECK_NONNEG),
			   NULL, &kept) == 2);
	CHECK(orig_lookups(bridge("setfield_gc(p1, p9, " DSTORAGE ")\n",
				  READ_AGAIN, "1", CHECK_NONNEG),
			   NULL, &kept) == 2);
	CHECK(orig_lookups(bridge("", READ_AGAIN, "2", CHECK_NONNEG), NULL,
			   &kept) == 2);
	const char *other_key = "p6 = getfield_gc_r(p1, " DSTORAGE ")\n"
				"i8 = int_add(i0, 1)\n";
	char text[4096];
	snprintf(text, sizeof text, "%s",
		 bridge("", other_key, "1", CHECK_NONNEG));
	char *k = strstr(text, "p6, i0, i0,");
	CHECK(k != NULL);
	if (k)
		memcpy(k, "p6, i8, i8,", 11);
	CHECK(orig_lookups(text, NULL, &kept) == 2);
	pl_opts o = {0};
	o.write_all = true;
	CHECK(orig_lookups(bridge("", READ_AGAIN, "1", CHECK_NONNEG), &o,
			   &kept) == 2);
}

/* An optimized trace with as many lookups as the original removed
 * none: nothing is left out. */
static void test_as_many(void)
{
	uint32_t kept = 0;
	const char *twice =
	    "[1] {jit-log-noopt\n"
	    "[i0, p1]\n"
	    "p3 = getfield_gc_r(p1, " DSTORAGE ")\n"
	    "i4 = call_i(" LOOKUP ", p3, i0, i0, 0, " LDESCR ")\n"
	    "guard_no_exception()\n"
	    "i7 = call_i(" LOOKUP ", p3, i0, i0, 0, " LDESCR ")\n"
	    "guard_no_exception()\n"
	    "finish(i4, i7)\n"
	    "[2] jit-log-noopt}\n"
	    "[3] {jit-log-opt-bridge\n"
	    "# bridge out of Guard 0x7f0a with 5 ops\n"
	    "[i10, p11]\n"
	    "+1: p13 = getfield_gc_r(p11, " DSTORAGE ")\n"
	    "+2: i14 = call_i(" LOOKUP ", p13, i10, i10, 0, " LDESCR ")\n"
	    "+3: guard_no_exception(descr=<Guard0x2>) [p11]\n"
	    "+4: i15 = call_i(" LOOKUP ", p13, i10, i10, 0, " LDESCR ")\n"
	    "+5: guard_no_exception(descr=<Guard0x3>) [p11]\n"
	    "+6: finish(i14, i15)\n"
	    "[4] jit-log-opt-bridge}\n";
	CHECK(orig_lookups(twice, NULL, &kept) == 2);
	/* and the same original against one lookup: the second is left
	 * out (the same storage value, no check needed) */
	char one[4096];
	snprintf(one, sizeof one, "%s", twice);
	char *l = strstr(one, "+4: i15 = call_i(");
	char *e = l ? strstr(l, "+6: finish(i14, i15)") : NULL;
	CHECK(l && e);
	if (l && e)
		memmove(l, "+6: finish(i14, i14)\n[4] jit-log-opt-bridge}\n",
			strlen("+6: finish(i14, i14)\n[4] "
			       "jit-log-opt-bridge}\n") +
			    1);
	CHECK(orig_lookups(one, NULL, &kept) == 1);
	CHECK(kept == 1);
}

int main(void)
{
	test_repeat_for_store();
	test_not_repeated();
	test_as_many();
	return check_summary("test_pypylog_lookups");
}
