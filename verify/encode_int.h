/*
 * encode_int.h - what encode.c and encode_peephole.c share: the term
 * helpers both build with.  Internal to the encoder; encode.h is the
 * contract.
 */
#ifndef JP_VERIFY_ENCODE_INT_H
#define JP_VERIFY_ENCODE_INT_H

#include "verify/encode.h"

/* A term kept alive in scope S (zc_keep): every term the encoder builds
 * goes through it. */
static inline Z3_ast K(zc_scope *s, Z3_ast a)
{
	return zc_keep(s, a);
}

/* Puts the two arguments A of a commutative op in the one canonical order
 * (encode.c says why this one). */
void enc_canonical_order(Z3_context z, Z3_ast *a);

/* x < 0 at width W, signed. */
Z3_ast enc_is_neg(zc_scope *s, int w, Z3_ast x);

#endif
