/*
 * oblig.h - proof obligations of a trace pair, and their concrete meaning.
 *
 * The verifier turns "OPT behaves like ORIG" into a list of obligations.
 * Each obligation has assumptions -- every guard of ORIG before op index
 * o_upto passed, and every guard of OPT before op index p_upto passed --
 * and a goal.  The list is ordered so that both bounds never decrease in
 * aligned mode, which lets the solver add assumptions incrementally.
 *
 * Aligned mode (guards paired by label; see docs/verifier.md for why each
 * rule is needed):
 *   OBL_SAME     paired guards fail for exactly the same inputs;
 *   OBL_FAILARGS paired guards resume with equal fail-args when they fail
 *                (only with --failargs);
 *   OBL_REMOVED  an ORIG guard without counterpart always passes;
 *   OBL_NEW      an OPT guard without counterpart always passes where ORIG
 *                passed every guard up to the next paired one;
 *   OBL_OUTPUT   output j is equal when both traces reach their end;
 *   OBL_END      the ends differ (jump vs finish, number or kind of
 *                outputs): the end must be unreachable.
 * Aligned mode with guards in another order (OPT has a paired guard
 * before one that precedes it in ORIG, so no walk in order exists):
 *   OBL_EXIT     on every input both traces leave at guards with the same
 *                label, or both pass every guard; with --failargs (j = 1)
 *                the fail-args at the exit guard are equal too.  No
 *                assumptions.  og / pg name the two guards out of order
 *                (for the description only);
 *   plus OBL_OUTPUT / OBL_END.
 * Any mode, for a pair with a heap (verify/heap.h):
 *   OBL_MODEL    an obligation of the heap model (calls, heaps); j indexes
 *                the model's own list, which gives its goal and meaning.
 *                obl_eval calls it vacuous: the model's replay judges it.
 * Trace mode (no alignment):
 *   OBL_T_ORIG   an ORIG guard passes wherever OPT reaches its end;
 *   OBL_T_OPT    an OPT guard passes wherever ORIG reaches its end;
 *   plus OBL_OUTPUT / OBL_END.
 *
 * obl_eval gives each obligation its meaning on concrete runs of both
 * traces (interp_result); the solver encoding in check.c must agree with it,
 * and counterexamples are confirmed with it.  Independently of the
 * obligations, obl_diverges compares the observable behaviour of two runs;
 * a counterexample is only believed when obl_diverges says so.
 */
#ifndef JP_VERIFY_OBLIG_H
#define JP_VERIFY_OBLIG_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/interp.h"
#include "ir/strbuf.h"
#include "ir/trace.h"
#include "verify/check.h"

typedef enum obl_kind {
	OBL_SAME,
	OBL_FAILARGS,
	OBL_REMOVED,
	OBL_NEW,
	OBL_OUTPUT,
	OBL_END,
	OBL_T_ORIG,
	OBL_T_OPT,
	OBL_EXIT,
	OBL_MODEL,
} obl_kind;

#define OBL_NONE UINT32_MAX

typedef struct obl {
	obl_kind kind;
	uint32_t og, pg;	 /* guard op index in ORIG / OPT, or OBL_NONE */
	uint32_t j;		 /* output index (OBL_OUTPUT); 1 when fail-args
				    are compared (OBL_EXIT) */
	uint32_t o_upto, p_upto; /* assumption bounds, see above */
} obl;

typedef struct obl_list {
	obl *v;
	uint32_t n, cap;
} obl_list;

void obl_list_free(obl_list *l);

/* Pairs the guards of OPT with those of ORIG by label.  MATCH (room for
 * opt->nops) receives, per op of OPT, the op index of the ORIG guard with
 * the same label, or OBL_NONE.  The pairs need not be in order (see
 * obl_in_order).  Errors: JP_ENOMEM only. */
jp_status obl_match_labels(const ir_trace *orig, const ir_trace *opt,
			   uint32_t *match, jp_err *err);

/* Whether MATCH pairs the guards in increasing order.  If not, *OG and *PG
 * (may be NULL) receive the first pair out of order: OPT has guard *PG
 * before the guard that ORIG has at *OG, which ORIG has before *PG's
 * counterpart.  Whether that changes behaviour depends on the inputs: the
 * obligations then are OBL_EXIT's (a counterexample only where an input
 * leaves the traces at different guards). */
bool obl_in_order(const ir_trace *opt, const uint32_t *match, uint32_t *og,
		  uint32_t *pg);

/* JP_EUNSUPPORTED naming the two guards when MATCH is not in order: for
 * the heap model, whose obligations follow the guards in order. */
jp_status obl_require_order(const ir_trace *orig, const ir_trace *opt,
			    const uint32_t *match, jp_err *err);

/* Whether every guard of T has a label assigned by position. */
bool obl_all_implicit(const ir_trace *t);

/* Builds the obligations of MODE (VER_MODE_ALIGNED uses MATCH: the walk
 * in order when obl_in_order, else OBL_EXIT and the end's obligations;
 * VER_MODE_INFERRED's MATCH is in order; VER_MODE_TRACE ignores it). */
jp_status obl_build(const ir_trace *orig, const ir_trace *opt, ver_mode mode,
		    const uint32_t *match, bool failargs, obl_list *out,
		    jp_err *err);

/* Whether the two ends are different in kind or shape (OBL_END). */
bool obl_ends_differ(const ir_trace *orig, const ir_trace *opt);

/* One line naming the obligation, e.g. "guard g3 (same condition)". */
void obl_describe(const obl *b, const ir_trace *orig, const ir_trace *opt,
		  strbuf *sb);

typedef enum obl_truth {
	OBL_HOLDS,
	OBL_FAILS,
	OBL_VACUOUS, /* the assumptions do not hold on this run */
} obl_truth;

/* The obligation on concrete runs RO (of ORIG) and RP (of OPT) of the same
 * inputs. */
obl_truth obl_eval(const obl *b, const ir_trace *orig, const ir_trace *opt,
		   const interp_result *ro, const interp_result *rp);

/* The first obligation of L that fails on the runs, or -1. */
int32_t obl_first_failing(const obl_list *l, const ir_trace *orig,
			  const ir_trace *opt, const interp_result *ro,
			  const interp_result *rp);

/* Whether the runs behave differently as seen from outside, in MODE:
 * aligned -- they leave at different guards (by label) or one reaches its
 * end and the other does not, or they reach different ends or outputs, or
 * (FAILARGS) they leave at the same guard with different fail-args; trace
 * -- one reaches its end and the other does not, or both do with different
 * ends or outputs.  When they differ, WHY (may be NULL) gets a sentence. */
bool obl_diverges(ver_mode mode, bool failargs, const ir_trace *orig,
		  const ir_trace *opt, const interp_result *ro,
		  const interp_result *rp, strbuf *why);

#endif
