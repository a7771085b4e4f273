/*
 * encode.h - trace operations as Z3 terms.
 *
 * Every value of a trace becomes a functional term over the shared input
 * variables: no fresh variable and equation per op.  Z3 hash-conses terms,
 * so a computation that is the same in both traces becomes the very same
 * term, and an obligation whose two sides are one term is settled without
 * the solver.
 *
 * Sorts: an integer value is a bit-vector of the trace width W; a reference
 * is a 64-bit bit-vector holding its address (0 = NULL), exactly as the
 * interpreter represents it.  Guard conditions and overflow flags are Z3
 * Booleans.  Every encoding follows docs/semantics.md and ir/sem.c; the
 * tests evaluate each one against the interpreter.
 *
 * Heap: ops that touch the heap (new*, getfield*, setfield, escape_*,
 * opaque, guard_class) and ConstPtr/ConstClass values are refused with
 * JP_EUNSUPPORTED for now.  References that only flow into ptr_eq/ptr_ne,
 * guard_nonnull/guard_isnull, guard_value, fail-args and outputs are
 * handled exactly (they are just addresses).  A heap model would add, per
 * trace, one array term per field (address -> value), fresh objects as
 * distinct addresses, and thread the array terms through enc_trace_build
 * like the values are threaded today.
 *
 * Ownership: every term is kept in the caller's zc_scope; the enc_trace
 * arrays are malloc'd and released by enc_trace_free.
 */
#ifndef JP_VERIFY_ENCODE_H
#define JP_VERIFY_ENCODE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/trace.h"
#include "verify/z3ctx.h"

/* JP_EUNSUPPORTED (with the op's name and line) when T uses something the
 * encoder cannot model exactly. */
jp_status enc_supported(const ir_trace *t, const char *file, jp_err *err);

/* Makes one variable per input of T: x0, x1, ... (the index, not the
 * trace's name, so the symbol table of a long-lived context stays small).
 * VARS has room for t->ninputs. */
jp_status enc_inputs(zc_scope *s, const ir_trace *t, Z3_ast *vars, jp_err *err);

typedef struct enc_trace {
	const ir_trace *t;
	int w;
	Z3_ast *val; /* per vid: the value's term; NULL for class constants */
	Z3_ast
	    *bval;   /* per vid: the Boolean behind a 0/1 comparison, or NULL */
	Z3_ast *ovf; /* per op: overflow flag of *_ovf ops, else NULL */
	Z3_ast *pass;	 /* per op: "the guard passes" for guards, else NULL */
	uint32_t folded; /* ops whose arguments were all constants */
	uint32_t peepholes; /* ops given a cheaper equal term */
	uint32_t hard;	    /* multiplications/divisions of two unknowns */
} enc_trace;

/* Encodes every op of T over the input variables VARS (from enc_inputs on
 * a trace with the same inputs).  Ops whose arguments are all constants are
 * folded with sem_eval, the same function the interpreter uses. */
jp_status enc_trace_build(zc_scope *s, const ir_trace *t, const Z3_ast *vars,
			  enc_trace *out, jp_err *err);
void enc_trace_free(enc_trace *e);

/* Encodes op OPI of E's trace into E exactly as enc_trace_build does
 * (folding, canonical order, peepholes, the Boolean of a comparison, the
 * overflow flag, a guard's pass condition), given the terms of its
 * arguments in E.  For an encoder of more ops (the heap model's) that
 * keeps its terms in arrays E points to; E's counters are updated. */
jp_status enc_trace_op(zc_scope *s, enc_trace *e, uint32_t opi, jp_err *err);

/* How many ops of T multiply or divide values the solver does not know,
 * given the terms VAL (per vid) of its values: enc_trace.hard for terms
 * made by another encoder (the heap model's). */
uint32_t enc_count_hard(zc_scope *s, const ir_trace *t, const Z3_ast *val);

/* The term of op OPC at width W on argument terms A, without folding.  For
 * overflow-checked ops *OVF receives the overflow flag (may be NULL).
 * Returns NULL (and marks S failed) for an op it cannot encode. */
Z3_ast enc_op(zc_scope *s, int w, ir_opcode opc, const Z3_ast *a, Z3_ast *ovf);

/* NULL when the integer encoder gives OPC a meaning (enc_op, enc_cmp or
 * enc_guard, or nothing to encode: markers and ends); otherwise why it
 * deliberately does not. */
const char *enc_unhandled(ir_opcode opc);

/* A cheaper or canonical term equal to enc_op's for ops with a constant
 * argument, or NULL when none applies; enc_trace_build uses it:
 *  - a product by a constant, a shift left by a constant, and x + x take
 *    one form, however nested (x * 3 << 2 and x * 12 are one term); a
 *    product by -1 and 0 - x are int_neg(x), with x kept whole, and
 *    -(a - b) is b - a, -(-y) is y;
 *  - a constant that leaves x alone (x + 0, x & -1, x >> 0, ...) gives x,
 *    and x & 0, x | -1 give the constant;
 *  - a power of two: floor division and modulo,
 *    uint_mul_high become shifts and masks; a divisor of -1 a negation;
 *  - any other positive divisor k: "x // k" becomes ((x ^ t) /u k) ^ t
 *    with t = x >> (W-1), and "x % k" x minus that times k;
 *  - "uint_mul_high(n, M) >> S" becomes the same unsigned division when
 *    verify/divmagic.h proves the constants divide exactly (for n whose
 *    sign bit is clear by the shape of its term; otherwise under an
 *    if-then-else on n's sign that keeps the original term for n < 0).
 * The last two make an optimizer's multiply-high sequence for a division
 * by a constant the same term as the division it replaced. */
Z3_ast enc_peephole(zc_scope *s, int w, ir_opcode opc, const Z3_ast *a);

/* The term enc_trace_build gives op OPC on argument terms A0, A1 when no
 * fold applies: a commutative op's arguments in the encoder's canonical
 * order, then enc_peephole's term or enc_op's.  Another encoder that
 * computes a value the trace may compute too (the heap model's index of
 * a copied item) builds it here, so that the two are one term: the
 * canonical order goes by term id, which depends on what the context
 * made before, so a term built in a fixed order would match the trace's
 * only in some context histories. */
Z3_ast enc_binop(zc_scope *s, int w, ir_opcode opc, Z3_ast a0, Z3_ast a1);

/* "The guard passes" for guard OPC on argument terms A, with ARG0_BOOL the
 * Boolean behind a comparison argument (or NULL), and PREV_OVF the
 * overflow flag of the op before an overflow guard. */
Z3_ast enc_guard(zc_scope *s, ir_opcode opc, const Z3_ast *a, Z3_ast arg0_bool,
		 Z3_ast prev_ovf);

/* Overflow of the exact signed result, by the textbook definition: sign-
 * extend both operands to 2W bits and compare the exact result with the
 * sign-extended wrapped one.  Kept separate so a test can prove it equal to
 * the cheaper formulas enc_op uses. */
Z3_ast enc_ovf_reference(zc_scope *s, int w, ir_opcode opc, Z3_ast x, Z3_ast y);

#endif
