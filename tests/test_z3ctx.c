/*
 * test_z3ctx.c - the Z3 context's memory limits (verify/z3ctx.h): a query
 * that needs more memory than its cap answers unknown with a memory
 * reason, not an error; the context stays usable afterwards; a context
 * holding more than retain_mb is rebuilt; term scopes and id sets.
 */
#include <stdlib.h>

#include "tests/check.h"
#include "verify/check.h"
#include "verify/z3ctx.h"

/* A limit the hard query below would need far longer than this to reach
 * in time: if the memory cap does not stop it, the timeout does, and the
 * reason ("timeout"/"canceled") fails the memout checks. */
enum { SAFETY_MS = 5000 };

static Z3_ast var(zc_scope *S, const char *name, unsigned w)
{
	return zc_keep(S, Z3_mk_const(S->z, Z3_mk_string_symbol(S->z, name),
				      zc_bv_sort(S->z, w)));
}

static Z3_ast not_eq (zc_scope * S, Z3_ast a, Z3_ast b)
{
	return zc_keep(S, Z3_mk_not(S->z, zc_keep(S, Z3_mk_eq(S->z, a, b))));
}

/* x / 5 differs from x * 0xCCCCCCCCCCCCCCCD >> 66 (PyPy's multiply-high
 * form, on 128 bits) for some 64-bit x: unsatisfiable, but proving it
 * bit-blasts a 64-bit divider against a 128-bit multiplier, which takes
 * Z3 4.8.12 seconds and well over 40 MB. */
static Z3_ast hard_goal(zc_scope *S)
{
	Z3_context z = S->z;
	Z3_ast x = var(S, "x", 64);
	Z3_ast q = zc_keep(S, Z3_mk_bvudiv(z, x, zc_bv(S, 64, 5)));
	Z3_ast xx = zc_keep(S, Z3_mk_zero_ext(z, 64, x));
	Z3_ast m = zc_keep(S, Z3_mk_unsigned_int64(z, 0xCCCCCCCCCCCCCCCDull,
						   zc_bv_sort(z, 128)));
	Z3_ast p = zc_keep(S, Z3_mk_bvmul(z, xx, m));
	Z3_ast hi = zc_keep(S, Z3_mk_extract(z, 127, 66, p));
	Z3_ast r = zc_keep(S, Z3_mk_zero_ext(z, 2, hi));
	return not_eq (S, q, r);
}

/* x + y differs from y + x: unsatisfiable, settled at once. */
static Z3_ast easy_goal(zc_scope *S)
{
	Z3_ast x = var(S, "x", 64), y = var(S, "y", 64);
	return not_eq (S, zc_keep(S, Z3_mk_bvadd(S->z, x, y)),
		       zc_keep(S, Z3_mk_bvadd(S->z, y, x)));
}

static Z3_solver make_solver(Z3_context z, zc_solver_kind kind)
{
	Z3_solver s;
	if (kind == ZC_TACTIC_SOLVER) {
		Z3_tactic t = Z3_mk_tactic(z, "qfbv");
		Z3_tactic_inc_ref(z, t);
		s = Z3_mk_solver_from_tactic(z, t);
		Z3_tactic_dec_ref(z, t);
	} else {
		s = Z3_mk_simple_solver(z);
	}
	Z3_solver_inc_ref(z, s);
	return s;
}

/* Checks GOAL in a fresh solver of KIND with the cap MEMORY_MB; the
 * reason of an unknown answer is copied into WHY. */
static Z3_lbool ask(Z3_context z, zc_solver_kind kind, unsigned memory_mb,
		    Z3_ast goal, char *why, size_t whylen)
{
	Z3_solver s = make_solver(z, kind);
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"), SAFETY_MS);
	zc_limit_params(z, p, kind, memory_mb);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);
	Z3_solver_assert(z, s, goal);
	Z3_lbool r = Z3_solver_check(z, s);
	why[0] = 0;
	if (r == Z3_L_UNDEF)
		snprintf(why, whylen, "%s", Z3_solver_get_reason_unknown(z, s));
	Z3_solver_dec_ref(z, s);
	return r;
}

/* The cap applies to Z3's process-wide total, so "a few MB more than Z3
 * holds now" is a tiny cap for the query. */
static unsigned tiny_cap(void)
{
	return zc_z3_mb() + 4;
}

static void test_tactic_cap(zc_ctx *zc)
{
	zc_scope S;
	zc_scope_init(&S, zc->z);
	char why[128];
	Z3_lbool r = ask(zc->z, ZC_TACTIC_SOLVER, tiny_cap(), hard_goal(&S),
			 why, sizeof why);
	CHECK(r == Z3_L_UNDEF);
	CHECK(!zc_failed());
	CHECK(zc_is_memout(why));
	if (!zc_is_memout(why))
		fprintf(stderr, "  reason: %s\n", why);
	/* The same context answers the next query, capped or not. */
	CHECK(ask(zc->z, ZC_TACTIC_SOLVER, 0, easy_goal(&S), why, sizeof why) ==
	      Z3_L_FALSE);
	CHECK(ask(zc->z, ZC_TACTIC_SOLVER, 4096, easy_goal(&S), why,
		  sizeof why) == Z3_L_FALSE);
	CHECK(!zc_failed());
	CHECK(!S.failed);
	zc_scope_release(&S);
}

static void test_smt_cap(zc_ctx *zc)
{
	zc_scope S;
	zc_scope_init(&S, zc->z);
	char why[128];
	Z3_lbool r = ask(zc->z, ZC_SMT_SOLVER, tiny_cap(), hard_goal(&S), why,
			 sizeof why);
	CHECK(r == Z3_L_UNDEF);
	CHECK(!zc_failed()); /* unknown, not a Z3 error */
	CHECK(zc_is_memout(why));
	if (!zc_is_memout(why))
		fprintf(stderr, "  reason: %s\n", why);
	/* Lifting the cap (it is a process-wide watermark) makes the SMT
	 * solver usable again in the same context. */
	CHECK(ask(zc->z, ZC_SMT_SOLVER, 0, easy_goal(&S), why, sizeof why) ==
	      Z3_L_FALSE);
	CHECK(!zc_failed());
	zc_scope_release(&S);
}

/* retain_mb: a context holding more than that is rebuilt at the start of
 * the next check; 0 never rebuilds for memory. */
static void test_retain(void)
{
	jp_err err;
	zc_ctx zc;
	CHECK(zc_init(&zc, &err) == JP_OK);
	zc.retain_mb = 0;
	CHECK(zc_begin_check(&zc, &err) == JP_OK);
	CHECK(zc.rebuilds == 0 && zc.memory_rebuilds == 0);
	/* Any context holds more than 1 MB. */
	zc.retain_mb = 1;
	CHECK(zc_z3_mb() > 1);
	CHECK(zc_begin_check(&zc, &err) == JP_OK);
	CHECK(zc.rebuilds == 1 && zc.memory_rebuilds == 1);
	CHECK(zc.trims >= 1); /* freed memory handed back after a rebuild */
	/* The rebuilt context works. */
	zc_scope S;
	zc_scope_init(&S, zc.z);
	char why[128];
	CHECK(ask(zc.z, ZC_TACTIC_SOLVER, 0, easy_goal(&S), why, sizeof why) ==
	      Z3_L_FALSE);
	zc_scope_release(&S);
	/* A generous limit does not rebuild. */
	zc.retain_mb = 100000;
	CHECK(zc_begin_check(&zc, &err) == JP_OK);
	CHECK(zc.rebuilds == 1);
	/* The periodic rebuild is not counted as a memory rebuild. */
	zc.recycle_every = 1;
	CHECK(zc_begin_check(&zc, &err) == JP_OK);
	CHECK(zc.rebuilds == 2 && zc.memory_rebuilds == 1);
	zc_fini(&zc);
}

static void test_memout_reasons(void)
{
	CHECK(zc_is_memout("max. memory exceeded"));
	CHECK(zc_is_memout("memout"));
	CHECK(zc_is_memout("sat.max.memory"));
	CHECK(!zc_is_memout("timeout"));
	CHECK(!zc_is_memout("canceled"));
	CHECK(!zc_is_memout("(incomplete quantifiers)"));
	CHECK(!zc_is_memout(NULL));
}

static void test_defaults(void)
{
	jp_err err;
	zc_ctx zc;
	CHECK(zc_init(&zc, &err) == JP_OK);
	CHECK(zc.retain_mb == ZC_DEFAULT_RETAIN_MB);
	CHECK(zc.retain_mb > 0 && zc.retain_mb < VER_DEFAULT_MEMORY_MB);
	/* A fresh context stays under the retain limit, or every check
	 * would rebuild it. */
	CHECK(zc_z3_mb() < ZC_DEFAULT_RETAIN_MB);
	zc_fini(&zc);
}

/* zc_idset: adds, finds, grows, clears. */
static void test_idset(void)
{
	zc_idset s = {0};
	bool added;
	CHECK(!zc_idset_has(&s, 7));
	for (unsigned i = 0; i < 1000; i++)
		CHECK(zc_idset_add(&s, i * 3, &added) && added);
	CHECK(zc_idset_add(&s, 3, &added) && !added);
	CHECK(zc_idset_has(&s, 2997) && !zc_idset_has(&s, 2998));
	CHECK(s.n == 1000);
	zc_idset_clear(&s);
	CHECK(s.n == 0 && !zc_idset_has(&s, 3));
	zc_idset_free(&s);
}

/* zc_idset's numbers: kept through growth; the first number stays. */
static void test_idset_numbers(void)
{
	zc_idset s = {0};
	bool added;
	uint32_t v = 0;
	CHECK(!zc_idset_get(&s, 5, &v));
	for (unsigned i = 0; i < 500; i++)
		CHECK(zc_idset_put(&s, i * 7 + 1, i + 100, &added) && added);
	CHECK(zc_idset_put(&s, 8, 1, &added) && !added);
	CHECK(zc_idset_get(&s, 8, &v) && v == 101);
	CHECK(zc_idset_get(&s, 499 * 7 + 1, &v) && v == 599);
	CHECK(!zc_idset_get(&s, 9, &v));
	CHECK(zc_idset_add(&s, 9, &added) && added);
	CHECK(zc_idset_get(&s, 9, &v) && v == 0);
	zc_idset_free(&s);
}

int main(void)
{
	/* First, while no other context holds memory. */
	test_defaults();
	jp_err err;
	zc_ctx zc;
	if (zc_init(&zc, &err) != JP_OK) {
		fprintf(stderr, "cannot create a Z3 context\n");
		return 1;
	}
	test_tactic_cap(&zc);
	test_smt_cap(&zc);
	test_retain();
	test_memout_reasons();
	test_idset();
	test_idset_numbers();
	zc_fini(&zc);
	return check_summary("z3ctx");
}
