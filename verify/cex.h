/*
 * cex.h - counterexamples: concrete replay, simplification and the report.
 *
 * Everything here runs the two traces on the concrete interpreter (the
 * oracle, ir/interp.h); nothing trusts the solver.  A counterexample is an
 * input vector on which the traces behave differently (obl_diverges) and
 * on which some obligation fails (obl_eval).  cex_simplify replaces input
 * values by simpler ones -- 0, then small magnitudes, then edge values --
 * as long as the traces still diverge at the same obligation or an earlier
 * one, like Alive2 does; it may ask the solver (through a callback) for a
 * variant with one input pinned to 0 or to a small range, and confirms each
 * answer concretely.
 *
 * Values are printed as zero-padded hex and signed decimal; references as
 * 64-bit hex addresses.
 */
#ifndef JP_VERIFY_CEX_H
#define JP_VERIFY_CEX_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/interp.h"
#include "ir/strbuf.h"
#include "ir/trace.h"
#include "verify/oblig.h"

/* Asks the solver for inputs on which obligation K fails, with inputs
 * J < I pinned to VALS[J] and input I restricted to signed values in
 * [-BOUND, BOUND].  Returns 1 and fills OUT (all inputs) when it found
 * some, 0 when there are none, 2 when the solver gave up (no further
 * re-queries are made then), -1 on an error (ERR filled). */
typedef int (*cex_requery_fn)(void *ud, int32_t k, const uint64_t *vals,
			      uint32_t i, uint64_t bound, uint64_t *out,
			      jp_err *err);

typedef struct cex_env {
	const ir_trace *orig, *opt;
	const obl_list *obls;
	ver_mode mode;
	bool failargs;
	cex_requery_fn requery; /* may be NULL */
	void *ud;
	unsigned max_requeries;
} cex_env;

/* Runs T on inputs X (one per input, canonical ints or addresses). */
jp_status cex_run(const ir_trace *t, const uint64_t *x, interp_result *r,
		  jp_err *err);

/* Runs both traces on X.  *K receives the first failing obligation when
 * the traces diverge, and -1 when they do not.  A divergence with no
 * failing obligation, or a failing obligation without divergence, is a bug
 * in the obligations: JP_EINTERNAL. */
jp_status cex_classify(const cex_env *e, const uint64_t *x, int32_t *k,
		       jp_err *err);

/* Simplifies X in place while the traces still diverge at obligation *K
 * or an earlier one (*K is updated).  X must be a confirmed
 * counterexample. */
jp_status cex_simplify(const cex_env *e, uint64_t *x, int32_t *k, jp_err *err);

/* Appends one run R of trace T under TITLE: every op with its value (or
 * "passes" / "FAILS" / "(not reached)"), ">>>" before op MARK. */
void cex_print_run(const char *title, const ir_trace *t, const interp_result *r,
		   uint32_t mark, strbuf *sb);

/* Appends the report for counterexample X failing obligation K: the
 * obligation, the inputs, both traces with every value, and marks at the
 * first point where they diverge. */
jp_status cex_report(const cex_env *e, const uint64_t *x, int32_t k, strbuf *sb,
		     jp_err *err);

/* Appends a canonical value of width W as "0x.. (signed decimal)". */
void cex_format_value(int w, uint64_t v, strbuf *sb);

#endif
