/*
 * sem.h - the concrete meaning of every integer operation.
 *
 * This is the single executable definition of op semantics: the interpreter
 * (the oracle), the constant folder in passes/ and the generator all call
 * sem_eval, and the Z3 encoder in verify/ is tested against it.  The prose
 * version is docs/semantics.md; the two must say the same thing.
 *
 * Values are W-bit patterns in canonical form: a uint64_t whose bits above W
 * are zero.  Every function here is total: it is defined for every input,
 * including shift counts outside [0, W), division by zero and MININT / -1.
 */
#ifndef JP_IR_SEM_H
#define JP_IR_SEM_H

#include <stdbool.h>
#include <stdint.h>

#include "ops.h"

static inline uint64_t sem_mask(int w, uint64_t x)
{
	return w >= 64 ? x : x & ((UINT64_C(1) << w) - 1);
}

/* The signed value of canonical X. */
static inline int64_t sem_signed(int w, uint64_t x)
{
	if (w >= 64)
		return (int64_t)x;
	uint64_t sign = UINT64_C(1) << (w - 1);
	if (x & sign)
		return (int64_t)(x | ~((UINT64_C(1) << w) - 1));
	return (int64_t)x;
}

/* Canonical form of the signed value V. */
static inline uint64_t sem_from_signed(int w, int64_t v)
{
	return sem_mask(w, (uint64_t)v);
}

static inline uint64_t sem_minint(int w)
{
	return UINT64_C(1) << (w - 1);
}
static inline uint64_t sem_maxint(int w)
{
	return sem_minint(w) - 1;
}
static inline uint64_t sem_allones(int w)
{
	return sem_mask(w, ~UINT64_C(0));
}
static inline bool sem_is_negative(int w, uint64_t x)
{
	return (x >> (w - 1)) & 1;
}

/* True when sem_eval can evaluate OPC: the pure integer ops, the pointer
 * comparisons and the overflow-checked ops. */
bool sem_evaluable(ir_opcode opc);

/* Evaluates OPC at width W on canonical ARGS (as many as the op takes).
 * For overflow-checked ops, *OVF (when not NULL) is set to whether the exact
 * mathematical result lies outside the signed W-bit range; for other ops it
 * is set to false.  ptr_eq/ptr_ne compare full 64-bit addresses. */
uint64_t sem_eval(ir_opcode opc, int w, const uint64_t *args, bool *ovf);

/* Whether an integer guard passes: guard_true/guard_false on ARGS[0],
 * guard_value on ARGS[0] == ARGS[1], guard_no_overflow/guard_overflow on the
 * flag PREV_OVF of the op before it, guard_nonnull/guard_isnull on an
 * address.  guard_class needs the heap and is not handled here. */
bool sem_guard_passes(ir_opcode opc, const uint64_t *args, bool prev_ovf);

/* Python-style floor division and modulo with the documented totality
 * choices (division by zero gives 0 and x; MININT / -1 wraps to MININT). */
uint64_t sem_py_div(int w, uint64_t x, uint64_t y);
uint64_t sem_py_mod(int w, uint64_t x, uint64_t y);

/* The high W bits of the unsigned 2W-bit product. */
uint64_t sem_umulh(int w, uint64_t x, uint64_t y);

#endif
