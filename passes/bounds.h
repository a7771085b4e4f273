/*
 * bounds.h - the abstract domain of integer bounds: a signed range plus
 * known bits, reduced against each other.
 *
 * An abstract value describes a set of W-bit integers (W = 8, 16, 32 or 64)
 * as the intersection of two simpler sets:
 *   - a signed range [lo, hi] (lo, hi are sign-extended into int64_t), and
 *   - a "tnum" (tristate number, as in PyPy's knownbits and the eBPF
 *     verifier): bit i is unknown when bit i of MASK is 1, otherwise it is
 *     known and equal to bit i of VAL.  VAL & MASK == 0; both are canonical
 *     W-bit patterns (sem.h).
 * A concrete value x is a member when lo <= signed(x) <= hi and
 * (x & ~mask) == val.
 *
 * Soundness contract: every transfer function here returns a value that
 * contains op(x, y) for every member x of the first and y of the second
 * argument ("forward"), and every backward function returns a value that
 * contains every argument consistent with the result ("backward").  The
 * property tests in tests/test_bounds.c check this exhaustively at width 8.
 * Injected bugs (passes/bugs.def) break exactly this contract, on purpose,
 * in the functions that take a BUGS mask.
 *
 * Reduction invariant: every value returned by this module (with no bug
 * injected) is reduced -- lo and hi are themselves members, the tnum holds
 * no bit that the range decides otherwise (the common high bits of lo and
 * hi are known), and in particular the tnum is a constant exactly when
 * lo == hi.  bnd_is_const/bnd_const_val rely on this: they test the tnum
 * and read the range (see bug and-no-shrink for what happens when a
 * transfer function forgets to reduce).
 *
 * An empty value (no member) stands for unreachable code.  Values are
 * plain structs passed by value; nothing here allocates or fails.
 */
#ifndef JP_PASSES_BOUNDS_H
#define JP_PASSES_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ops.h"

typedef struct bnd {
	int64_t lo, hi;	    /* signed range, inclusive */
	uint64_t val, mask; /* known bits, canonical W-bit */
	uint8_t w;	    /* width: 8, 16, 32 or 64 */
	bool empty;	    /* no member at all */
} bnd;

/* Constructors; all return reduced values. */
bnd bnd_top(int w);
bnd bnd_empty(int w);
bnd bnd_const(int w, uint64_t c);
bnd bnd_range(int w, int64_t lo, int64_t hi);
bnd bnd_tnum(int w, uint64_t val, uint64_t mask);
/* The value with range [lo, hi] and tnum (val, mask), reduced.  Used by the
 * property tests to build arbitrary abstract values. */
bnd bnd_make(int w, int64_t lo, int64_t hi, uint64_t val, uint64_t mask);

/* Tightens range and tnum against each other until both describe the
 * same set as well as they can (see the reduction invariant above). */
bnd bnd_reduce(bnd b);
/* Whether B satisfies the reduction invariant (for tests). */
bool bnd_is_reduced(const bnd *b);

bool bnd_contains(const bnd *b, uint64_t x);
bool bnd_is_const(const bnd *b);
/* The constant of a value for which bnd_is_const holds. */
uint64_t bnd_const_val(const bnd *b);
bool bnd_is_top(const bnd *b);
bool bnd_equal(const bnd *a, const bnd *b);
/* Whether 0 is not a member. */
bool bnd_is_nonzero(const bnd *b);
/* Unsigned bounds of the members: [*umin, *umax]. */
void bnd_ubounds(const bnd *b, uint64_t *umin, uint64_t *umax);

/* Intersection and (over-approximated) union. */
bnd bnd_meet(bnd a, bnd b);
bnd bnd_join(bnd a, bnd b);

/* Forward transfer of a pure integer op or of the value of an
 * overflow-checked op (which wraps).  ARGS holds as many values as OPC
 * takes.  Ops without a transfer function give top.  BUGS: opt_bug mask. */
bnd bnd_forward(ir_opcode opc, const bnd *args, uint64_t bugs);

/* The result of an overflow-checked op known not to have overflowed: the
 * exact mathematical result, which then lies in the W-bit range. */
bnd bnd_forward_exact(ir_opcode opc, const bnd *args);

/* Whether an overflow-checked op can overflow / must overflow on members
 * of ARGS. */
bool bnd_may_overflow(ir_opcode opc, const bnd *args);
bool bnd_must_overflow(ir_opcode opc, const bnd *args);

/* Decides a comparison (an IRF_CMP op on integers): 1 or 0 when every
 * pair of members gives that result, -1 when unknown. */
int bnd_decide_cmp(ir_opcode opc, const bnd *args, uint64_t bugs);

/* Backward refinement.  Given that the result of OPC(ARGS) lies in R,
 * returns ARGS[I] refined: a subset of ARGS[I] containing every member x of
 * ARGS[I] for which some choice of the other argument (a member of its
 * value) gives a result in R.  EXACT: OPC is overflow-checked and known not
 * to have overflowed.  Comparisons are handled by bnd_refine_cmp. */
bnd bnd_backward(ir_opcode opc, int i, const bnd *r, const bnd *args,
		 bool exact, uint64_t bugs);

/* Given that comparison OPC(A, B) evaluated to TRUTH, refines A and B in
 * place. */
void bnd_refine_cmp(ir_opcode opc, bool truth, bnd *a, bnd *b);

/* Rule coverage: from now on, in this thread, the transfer functions count
 * the branch each call takes (passes/branches.def) into HITS, an array of
 * OPT_BR_COUNT counters (opt_stats.branch_hits); NULL, the default, counts
 * nothing.  opt_run sets it for the length of one run. */
void bnd_count_into(uint32_t *hits);

/* Appends a readable form ("[0, 255] 0000xxxx") to BUF of SIZE bytes. */
void bnd_format(const bnd *b, char *buf, int size);

#endif
