/*
 * range.h - the verifier's own range analysis of integer values.
 *
 * Most obligations the verifier proves are easy: "this guard, removed by
 * the optimizer, always passes given the earlier guards", "this value is
 * that constant".  This module settles many of them in microseconds,
 * without Z3, and gives facts that can be handed to Z3 as redundant
 * assumptions.  It is written from the op semantics (ir/sem.h,
 * docs/semantics.md) and never from the optimizer's bounds analysis: it
 * exists to check that analysis, so it must not share its mistakes.
 *
 * The domain.  Each integer value v of a trace of width W has a fact:
 *  - a signed interval [smin, smax], held as int64_t values (the signed
 *    meaning of the W-bit pattern, sem_signed);
 *  - an unsigned interval [umin, umax] of canonical W-bit patterns;
 *  - known bits: ZEROS has a bit set where v's bit is certainly 0, ONES
 *    where it is certainly 1 (both within the low W bits, never overlapping).
 * The three parts describe the same set and are kept consistent with each
 * other (each is tightened from the others after every step).  A value v
 * "is inside" a fact when its signed meaning is in [smin, smax], its
 * pattern in [umin, umax], (v & ZEROS) == 0 and (v & ONES) == ONES.
 * References, class constants and heap results are not tracked: their
 * facts are "top" (everything); heap ops and calls change no fact (values
 * are SSA, so a fact about a value never stops being true).
 *
 * The contract.  A vr_state walks one trace (borrowed: it must outlive the
 * state and not change).  After vr_advance(r, upto), for every execution
 * of the trace in which every guard with op index < upto passed, every
 * integer value defined before op upto (inputs and constants included) is
 * inside the fact vr_get returns for it.  Guards are first used as
 * assumptions ("refinement": guard_true(int_lt(x, 10)) makes x <= 9,
 * transitively through a few levels of add/sub/xor/and/... ), then the walk
 * goes on.  When the assumptions contradict each other (no execution can
 * pass every guard before upto), the state is "infeasible": vr_infeasible
 * says so, every fact is then vacuously true and vr_guard_passes returns
 * true.  Everything the module claims errs on the side of "unknown": a fact
 * may be wider than necessary, never narrower.
 *
 * Ownership and errors: vr_init allocates the state (JP_ENOMEM is the only
 * failure); vr_free releases it.  The other calls cannot fail.
 */
#ifndef JP_VERIFY_RANGE_H
#define JP_VERIFY_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/err.h"
#include "ir/trace.h"

typedef struct vr_fact {
	int64_t smin, smax;  /* signed bounds: the signed meaning of W bits */
	uint64_t umin, umax; /* unsigned bounds: canonical W-bit patterns */
	uint64_t zeros;	     /* bits certainly 0 (within the low W bits) */
	uint64_t ones;	     /* bits certainly 1 */
} vr_fact;

typedef struct vr_state vr_state;

/* Makes a state for T, positioned before op 0 (only inputs and constants
 * have facts: inputs are top, constants exact). */
jp_status vr_init(vr_state **r, const ir_trace *t, jp_err *err);
void vr_free(vr_state *r);

/* Back to before op 0. */
void vr_reset(vr_state *r);

/* Processes ops [current point, UPTO): the result of every integer op gets
 * the fact its operation gives from its operands' facts; every guard is
 * assumed to pass and refines the facts of the values it tests.  UPTO below
 * the current point resets first; UPTO beyond the end is clamped. */
void vr_advance(vr_state *r, uint32_t upto);

/* The current point: the UPTO of the last vr_advance (0 after reset). */
uint32_t vr_point(const vr_state *r);

/* Whether the guards before the current point contradict each other. */
bool vr_infeasible(const vr_state *r);

/* Whether guard op K (K >= the current point, typically equal to it)
 * certainly passes in every execution in which the guards before the
 * current point passed.  guard_no_overflow / guard_overflow are decided
 * from the facts of the operands of the overflow-checked op before them.
 * False when K is not a guard, or the guard tests references (guard_class,
 * guard_nonnull, guard_isnull, guard_value on references): not tracked. */
bool vr_guard_passes(const vr_state *r, uint32_t k);

/* NULL when the range analysis has a transfer (or, for a guard, an
 * assumption) for OPC; otherwise why it deliberately has none (the result
 * is then top, or the op tells it nothing). */
const char *vr_unhandled(ir_opcode opc);

/* The fact of integer value V at the current point (top for references and
 * for values defined at or after the current point, unless their operands
 * make them narrower). */
vr_fact vr_get(const vr_state *r, ir_vid v);

/* True when V is certainly the one value *C (canonical) at the current
 * point. */
bool vr_const(const vr_state *r, ir_vid v, uint64_t *c);

/* Narrows the stored fact of every integer value defined before the
 * current point by evaluating its op once more from its operands' stored
 * facts, in definition order.  vr_get re-evaluates a few levels back on
 * every call; this pass carries what the guards refined to every later
 * use, however far, at the cost of one evaluation per op.  Sound at any
 * time: both facts hold, so their meet does. */
void vr_narrow(vr_state *r);

/* True when V's stored fact is the one value *C, without re-evaluating
 * anything (O(1)).  After vr_narrow it also finds the constants that
 * only a chain deeper than vr_const's look-back pins. */
bool vr_known(const vr_state *r, ir_vid v, uint64_t *c);

/* Which argument op I (before the current point) certainly returns
 * unchanged, judged from the stored facts of its arguments (O(1)): 0 or
 * 1, or -1 when none.  x & y is x when every bit that may be 1 in x is
 * known 1 in y; x | y is x when every bit that may be 1 in y is known 1
 * in x; int_force_ge_zero(x) and int_is_true(x) are x when x >= 0,
 * resp. x is 0 or 1; int_py_mod(x, y) is x when 0 <= x < y;
 * int_signext(x, n) is x when x fits in n bytes; x * C is x when x has t
 * known low zeros and C is 1 modulo 2^(W-t).  The optimizer removes
 * such ops on its own bounds, and the pair is then proved by replacing
 * the op's term with its argument's rather than by bit-blasting. */
int vr_same_arg(const vr_state *r, uint32_t i);

/* Whether canonical X is inside F, at width W (the tests' oracle check). */
bool vr_contains(int w, const vr_fact *f, uint64_t x);

#endif
