/*
 * test_abstract.c - hiding multipliers and dividers (verify/abstract.h).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "verify/abstract.h"
#include "verify/z3ctx.h"

static Z3_context Z;

static Z3_ast var(zc_scope *S, const char *name)
{
	return zc_keep(S, Z3_mk_const(Z, Z3_mk_string_symbol(Z, name),
				      Z3_mk_bv_sort(Z, 64)));
}

static Z3_lbool solve(Z3_ast f)
{
	Z3_solver s = Z3_mk_simple_solver(Z);
	Z3_solver_inc_ref(Z, s);
	Z3_solver_assert(Z, s, f);
	Z3_lbool a = Z3_solver_check(Z, s);
	Z3_solver_dec_ref(Z, s);
	return a;
}

/* The same product is one stand-in everywhere; a term with no multiplier is
 * left alone; a hidden term inside another is hidden in its arguments. */
static void test_hiding(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	abs_map m;
	abs_init(&m, &S);
	Z3_ast x = var(&S, "x"), y = var(&S, "y");
	Z3_ast p = zc_keep(&S, Z3_mk_bvmul(Z, x, y));
	Z3_ast q = zc_keep(&S, Z3_mk_bvudiv(Z, p, y));
	Z3_ast sum = zc_keep(&S, Z3_mk_bvadd(Z, x, y));
	bool hid = false;
	CHECK(abs_term(&m, sum, &hid) == sum && !hid);
	Z3_ast a = abs_term(&m, p, &hid);
	CHECK(hid && a != p);
	/* An uninterpreted function of the same arguments. */
	CHECK(Z3_get_ast_kind(Z, a) == Z3_APP_AST &&
	      Z3_get_app_num_args(Z, Z3_to_app(Z, a)) == 2 &&
	      Z3_get_decl_kind(Z, Z3_get_app_decl(Z, Z3_to_app(Z, a))) ==
		  Z3_OP_UNINTERPRETED);
	hid = false;
	Z3_ast p2 = zc_keep(&S, Z3_mk_bvmul(Z, x, y));
	CHECK(abs_term(&m, p2, &hid) == a && hid);
	hid = false;
	Z3_ast b = abs_term(&m, q, &hid);
	CHECK(hid && b != a && m.n == 2);
	/* The division's stand-in takes the product's stand-in as argument. */
	CHECK(Z3_get_app_arg(Z, Z3_to_app(Z, b), 0) == a);
	CHECK(!m.failed);
	abs_free(&m);
	zc_scope_release(&S);
}

/* An abstract query proves what holds for any product, and does not prove
 * what needs the product's meaning (the exact query is unsat, the abstract
 * one sat). */
static void test_over_approximation(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	abs_map m;
	abs_init(&m, &S);
	Z3_ast x = var(&S, "x"), y = var(&S, "y");
	Z3_ast p = zc_keep(&S, Z3_mk_bvmul(Z, x, y));
	/* p < y and not (p <= y): unsat for any p. */
	Z3_ast lt = zc_keep(&S, Z3_mk_bvslt(Z, p, y));
	Z3_ast le = zc_keep(&S, Z3_mk_bvsle(Z, p, y));
	Z3_ast c1[2] = {lt, zc_keep(&S, Z3_mk_not(Z, le))};
	Z3_ast f1 = zc_keep(&S, Z3_mk_and(Z, 2, c1));
	bool hid = false;
	Z3_ast g1 = abs_term(&m, f1, &hid);
	CHECK(hid && solve(g1) == Z3_L_FALSE);
	/* x * 2 is odd: unsat, but only because of the multiplication. */
	Z3_ast d = zc_keep(&S, Z3_mk_bvmul(Z, x, zc_bv(&S, 64, 2)));
	Z3_ast odd =
	    zc_keep(&S, Z3_mk_eq(Z, zc_keep(&S, Z3_mk_extract(Z, 0, 0, d)),
				 zc_keep(&S, Z3_mk_unsigned_int(
						 Z, 1, Z3_mk_bv_sort(Z, 1)))));
	CHECK(solve(odd) == Z3_L_FALSE);
	hid = false;
	Z3_ast g2 = abs_term(&m, odd, &hid);
	CHECK(hid && solve(g2) == Z3_L_TRUE);
	abs_reset(&m);
	CHECK(m.n == 0);
	abs_free(&m);
	zc_scope_release(&S);
}

/* Congruence: products of arguments that are equal but written
 * differently are equal in the abstraction, and the proof needs no
 * multiplier; products of different arguments are not made equal. */
static void test_congruence(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	abs_map m;
	abs_init(&m, &S);
	Z3_ast x = var(&S, "x"), y = var(&S, "y"), z = var(&S, "z");
	Z3_ast yy = zc_keep(&S, Z3_mk_bvand(Z, y, y));
	Z3_ast p1 = zc_keep(&S, Z3_mk_bvmul(Z, x, y));
	Z3_ast p2 = zc_keep(&S, Z3_mk_bvmul(Z, x, yy));
	Z3_ast ne = zc_keep(&S, Z3_mk_not(Z, zc_keep(&S, Z3_mk_eq(Z, p1, p2))));
	bool hid = false;
	Z3_ast g = abs_term(&m, ne, &hid);
	CHECK(hid && solve(g) == Z3_L_FALSE);
	/* Under y = z, x * y = x * z; without it, not provable. */
	Z3_ast p3 = zc_keep(&S, Z3_mk_bvmul(Z, x, z));
	Z3_ast ne3 =
	    zc_keep(&S, Z3_mk_not(Z, zc_keep(&S, Z3_mk_eq(Z, p1, p3))));
	Z3_ast g3 = abs_term(&m, ne3, &hid);
	CHECK(solve(g3) == Z3_L_TRUE);
	Z3_ast c[2] = {zc_keep(&S, Z3_mk_eq(Z, y, z)), g3};
	CHECK(solve(zc_keep(&S, Z3_mk_and(Z, 2, c))) == Z3_L_FALSE);
	CHECK(!m.failed);
	abs_free(&m);
	zc_scope_release(&S);
}

/* Commutation and congruence: under y = z, x * y = z * x needs the
 * factors swapped, which congruence alone cannot see; and x / y = x / (y |
 * 1) holds once y is odd, which Z3's congruence closure learns only from
 * an equality it is told.  abs_axioms supplies both, and makes nothing
 * equal that is not.  The axioms stop at ABS_MAX_AXIOMS. */
static void test_axioms(void)
{
	zc_scope S;
	zc_scope_init(&S, Z);
	abs_map m;
	abs_init(&m, &S);
	Z3_ast x = var(&S, "x"), y = var(&S, "y"), z = var(&S, "z");
	Z3_ast p1 = zc_keep(&S, Z3_mk_bvmul(Z, x, y));
	Z3_ast p2 = zc_keep(&S, Z3_mk_bvmul(Z, z, x));
	Z3_ast ne = zc_keep(&S, Z3_mk_not(Z, zc_keep(&S, Z3_mk_eq(Z, p1, p2))));
	Z3_ast yz = zc_keep(&S, Z3_mk_eq(Z, y, z));
	bool hid = false;
	Z3_ast g = abs_term(&m, ne, &hid);
	Z3_ast c[3] = {yz, g, NULL};
	CHECK(hid && solve(zc_keep(&S, Z3_mk_and(Z, 2, c))) == Z3_L_TRUE);
	Z3_ast ax = NULL;
	/* Congruence and commutation of the two products. */
	CHECK(abs_axioms(&m, &ax) && ax != NULL && m.naxioms == 2);
	c[2] = ax;
	CHECK(solve(zc_keep(&S, Z3_mk_and(Z, 3, c))) == Z3_L_FALSE);
	/* Without y = z the products may differ. */
	Z3_ast c2[2] = {g, ax};
	CHECK(solve(zc_keep(&S, Z3_mk_and(Z, 2, c2))) == Z3_L_TRUE);
	/* Nothing new since the last call. */
	CHECK(abs_axioms(&m, &ax) && ax == NULL);
	/* Two quotients: one congruence axiom, none with the products. */
	Z3_ast y1 = zc_keep(&S, Z3_mk_bvor(Z, y, zc_bv(&S, 64, 1)));
	Z3_ast q1 = zc_keep(&S, Z3_mk_bvudiv(Z, x, y));
	Z3_ast q2 = zc_keep(&S, Z3_mk_bvudiv(Z, x, y1));
	Z3_ast qne =
	    zc_keep(&S, Z3_mk_not(Z, zc_keep(&S, Z3_mk_eq(Z, q1, q2))));
	Z3_ast odd = zc_keep(
	    &S, Z3_mk_eq(Z, zc_keep(&S, Z3_mk_bvand(Z, y, zc_bv(&S, 64, 1))),
			 zc_bv(&S, 64, 1)));
	Z3_ast c3[3] = {odd, abs_term(&m, qne, &hid), NULL};
	CHECK(abs_axioms(&m, &ax) && ax != NULL && m.naxioms == 3);
	c3[2] = ax;
	CHECK(solve(zc_keep(&S, Z3_mk_and(Z, 3, c3))) == Z3_L_FALSE);
	/* Many products: at most ABS_MAX_AXIOMS axioms in all. */
	Z3_ast v = x;
	for (int i = 0; i < 20; i++) {
		char name[16];
		snprintf(name, sizeof name, "v%d", i);
		v = zc_keep(&S, Z3_mk_bvmul(Z, var(&S, name), v));
		CHECK(abs_term(&m, v, &hid) != NULL);
	}
	CHECK(abs_axioms(&m, &ax) && ax != NULL && m.naxioms == ABS_MAX_AXIOMS);
	CHECK(!m.failed);
	abs_free(&m);
	zc_scope_release(&S);
}

int main(void)
{
	zc_ctx zc;
	jp_err err;
	if (zc_init(&zc, &err) != JP_OK) {
		fprintf(stderr, "no Z3: %s\n", err.msg);
		return 1;
	}
	Z = zc.z;
	test_hiding();
	test_over_approximation();
	test_congruence();
	test_axioms();
	CHECK(!zc_failed());
	zc_fini(&zc);
	return check_summary("test_abstract");
}
