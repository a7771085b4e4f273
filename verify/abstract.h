/*
 * abstract.h - queries with their multipliers and dividers hidden.
 *
 * Bit-blasting a 64-bit multiplication or division (a 128-bit one for
 * uint_mul_high and for the overflow check of int_mul_ovf) is what makes
 * the solver slow, yet most obligations of a pair that multiplies hold
 * whatever the product is: both traces compute the same product term, and
 * the obligation is about what is done with it afterwards.
 *
 * An abstraction replaces every multiplication, division and remainder
 * term op(a, b) by f_op(a', b'), where f_op is an uninterpreted function
 * (one per operation and sorts) and a', b' are the arguments abstracted in
 * turn.  If "assumptions and not goal" is unsatisfiable after the
 * replacement, it was unsatisfiable before: any model of the original
 * query is a model of the abstract one once each f_op is interpreted as
 * the operation it stands for.  So an unsat abstract query proves the
 * obligation; sat or unknown says nothing (the functions may take values
 * no multiplication gives), and the caller asks the exact query.  This
 * holds for any set of replaced terms, so the choice of what to hide
 * affects only speed, never soundness.
 *
 * Functions rather than fresh variables keep congruence: x * y and
 * x * (y & y), or a product of two values the guards make equal, are equal
 * in the abstraction too, which the solver shows without a multiplier.
 *
 * Ownership: an abs_map belongs to one check; the terms it makes are kept
 * in the caller's zc_scope and live as long as it.
 */
#ifndef JP_VERIFY_ABSTRACT_H
#define JP_VERIFY_ABSTRACT_H

#include <stdbool.h>
#include <stdint.h>

#include "verify/z3ctx.h"

/* An entry of the walk's work list: a term to visit, or (POST) a hidden
 * term whose arguments have been visited. */
typedef struct abs_item {
	Z3_ast t;
	bool post;
} abs_item;

typedef struct abs_map {
	zc_scope *S;
	Z3_ast *from, *to; /* hidden terms and their stand-ins */
	uint32_t n, cap;
	zc_idset seen;		/* terms visited by the walk */
	struct abs_item *stack; /* the walk's work list */
	uint32_t capstack;
	bool failed;	  /* out of memory, or a Z3 call failed */
	uint32_t paired;  /* stand-ins abs_axioms has looked at */
	uint32_t naxioms; /* axioms it has made (at most ABS_MAX_AXIOMS) */
} abs_map;

/* The most axioms one map makes (abs_axioms): they grow with the square
 * of the number of stand-ins. */
enum { ABS_MAX_AXIOMS = 64 };

/* Whether an application of KIND is a multiplier or divider (bvmul, the
 * signed and unsigned divisions and remainders): the circuits that are
 * expensive to bit-blast, which the abstraction hides and verify/slice.h
 * slices by. */
bool abs_hidden_kind(Z3_decl_kind k);

void abs_init(abs_map *m, zc_scope *S);
/* Forgets every hidden term (the terms themselves stay in the scope). */
void abs_reset(abs_map *m);
void abs_free(abs_map *m);

/* T with every multiplication, division and remainder replaced by its
 * stand-in; *HID is set when T contains one.  NULL when something failed
 * (m->failed is then set). */
Z3_ast abs_term(abs_map *m, Z3_ast t, bool *hid);

/* Axioms about the stand-ins made since the last call, for each pair of
 * applications f(a, b) and f(c, d) of one function: congruence, "a = c
 * and b = d implies f(a, b) = f(c, d)", and for products commutation, "a
 * = d and b = c implies the same".  Z3 merges f(a, b) and f(c, d) only
 * once a = c and b = d are equalities of its e-graph, which what it learns
 * bit by bit does not give it: an optimizer that rewrote a factor (and
 * the encoder's term order, which may then swap the factors) made such
 * pairs time out on the bit-blasted multipliers.  Each axiom holds for
 * the operation, so asserting them keeps the abstraction sound.  *OUT
 * receives their conjunction, or NULL when there are none; false when
 * something failed. */
bool abs_axioms(abs_map *m, Z3_ast *out);

#endif
