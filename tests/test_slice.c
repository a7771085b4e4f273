/*
 * test_slice.c - the assumptions a query is first asked with
 * (verify/slice.h): which are kept, and checking a model against the
 * dropped ones.  The verdicts that depend on it are tested end to end in
 * test_verify.c (test_slicing).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "verify/slice.h"
#include "verify/z3ctx.h"

static Z3_context Z;

static Z3_ast var(zc_scope *S, const char *name)
{
	return zc_keep(S, Z3_mk_const(Z, Z3_mk_string_symbol(Z, name),
				      Z3_mk_bv_sort(Z, 8)));
}

static Z3_ast num(zc_scope *S, unsigned v)
{
	return zc_bv(S, 8, v);
}

static Z3_ast eq(zc_scope *S, Z3_ast a, Z3_ast b)
{
	return zc_keep(S, Z3_mk_eq(Z, a, b));
}

static Z3_ast mk_not(zc_scope *S, Z3_ast a)
{
	return zc_keep(S, Z3_mk_not(Z, a));
}

/* Kept: assumptions without multipliers, and those whose multipliers all
 * occur in the goal (also inside a bigger hard term of the goal).
 * Dropped: those with a multiplier or divider the goal does not have. */
static void test_select(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	sl_set s;
	sl_init(&s, Z);
	Z3_ast x = var(&S, "x"), y = var(&S, "y");
	Z3_ast xx = zc_keep(&S, Z3_mk_bvmul(Z, x, x));
	Z3_ast yy = zc_keep(&S, Z3_mk_bvmul(Z, y, y));
	Z3_ast xxy = zc_keep(&S, Z3_mk_bvmul(Z, xx, y));
	Z3_ast yq = zc_keep(&S, Z3_mk_bvudiv(Z, y, x));
	Z3_ast h[5] = {
	    eq(&S, xx, num(&S, 0)),			    /* x*x = 0 */
	    zc_keep(&S, Z3_mk_bvult(Z, x, num(&S, 5))),	    /* x < 5 */
	    mk_not(&S, eq(&S, yy, num(&S, 4))),		    /* y*y != 4 */
	    eq(&S, xxy, num(&S, 1)),			    /* x*x*y = 1 */
	    eq(&S, zc_keep(&S, Z3_mk_bvadd(Z, yq, xx)), y), /* y/x + x*x = y */
	};
	for (int i = 0; i < 5; i++)
		CHECK(sl_add(&s, h[i]));
	CHECK(s.n == 5);
	bool keep[5];
	/* A goal about x*x: y*y, x*x*y and y/x are foreign. */
	Z3_ast g1 =
	    mk_not(&S, eq(&S, zc_keep(&S, Z3_mk_bvand(Z, xx, num(&S, 2))),
			  num(&S, 0)));
	CHECK(sl_select(&s, g1, keep) == 2);
	CHECK(keep[0] && keep[1] && !keep[2] && !keep[3] && !keep[4]);
	/* A goal without multipliers keeps only the multiplier-free. */
	Z3_ast g2 = mk_not(&S, zc_keep(&S, Z3_mk_bvult(Z, x, num(&S, 9))));
	CHECK(sl_select(&s, g2, keep) == 1);
	CHECK(!keep[0] && keep[1] && !keep[2] && !keep[3] && !keep[4]);
	/* A goal containing x*x*y contains x*x as well. */
	Z3_ast g3 = mk_not(&S, eq(&S, xxy, y));
	CHECK(sl_select(&s, g3, keep) == 3);
	CHECK(keep[0] && keep[1] && !keep[2] && keep[3] && !keep[4]);
	/* Both hard terms of h[4] are needed. */
	Z3_ast g4 = mk_not(&S, eq(&S, yq, xx));
	CHECK(sl_select(&s, g4, keep) == 3);
	CHECK(keep[0] && keep[1] && !keep[2] && !keep[3] && keep[4]);
	/* After a clear, the set starts again from assumption 0. */
	sl_clear(&s);
	CHECK(s.n == 0);
	CHECK(sl_add(&s, h[2]));
	CHECK(sl_select(&s, g1, keep) == 0 && !keep[0]);
	CHECK(!S.failed);
	sl_free(&s);
	zc_scope_release(&S);
}

/* A model of a slice is checked against each dropped assumption: the
 * broken ones are marked kept and counted; kept ones are not looked at. */
static void test_violated(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	Z3_ast x = var(&S, "x"), y = var(&S, "y");
	Z3_ast xx = zc_keep(&S, Z3_mk_bvmul(Z, x, x));
	Z3_ast yy = zc_keep(&S, Z3_mk_bvmul(Z, y, y));
	Z3_ast h[3] = {
	    eq(&S, xx, num(&S, 0)),			/* false for x = 1 */
	    mk_not(&S, eq(&S, yy, num(&S, 4))),		/* false for y = 2 */
	    zc_keep(&S, Z3_mk_bvult(Z, x, num(&S, 5))), /* true */
	};
	Z3_model m = Z3_mk_model(Z);
	Z3_model_inc_ref(Z, m);
	Z3_add_const_interp(Z, m, Z3_get_app_decl(Z, Z3_to_app(Z, x)),
			    num(&S, 1));
	Z3_add_const_interp(Z, m, Z3_get_app_decl(Z, Z3_to_app(Z, y)),
			    num(&S, 2));
	bool keep[3] = {false, false, false};
	CHECK(sl_violated(Z, m, h, 3, keep) == 2);
	CHECK(keep[0] && keep[1] && !keep[2]);
	/* Already kept assumptions are skipped, even when broken. */
	bool keep2[3] = {true, false, false};
	CHECK(sl_violated(Z, m, h, 3, keep2) == 1);
	CHECK(keep2[0] && keep2[1] && !keep2[2]);
	Z3_model_dec_ref(Z, m);
	/* An input the model leaves out is completed (as the verifier reads
	 * inputs): y = 0 keeps y*y != 4 true. */
	m = Z3_mk_model(Z);
	Z3_model_inc_ref(Z, m);
	Z3_add_const_interp(Z, m, Z3_get_app_decl(Z, Z3_to_app(Z, x)),
			    num(&S, 0));
	bool keep3[3] = {false, false, false};
	CHECK(sl_violated(Z, m, h, 3, keep3) == 0);
	CHECK(!keep3[0] && !keep3[1] && !keep3[2]);
	Z3_model_dec_ref(Z, m);
	CHECK(!S.failed);
	zc_scope_release(&S);
}

int main(void)
{
	zc_ctx zc;
	jp_err err;
	if (zc_init(&zc, &err) != JP_OK) {
		fprintf(stderr, "zc_init: %s\n", err.msg);
		return 1;
	}
	Z = zc.z;
	test_select();
	test_violated();
	zc_fini(&zc);
	return check_summary("test_slice");
}
