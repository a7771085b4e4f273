/*
 * check_int.h - the verifier's internal state of one pair, shared by the
 * check*.c files.  Not a public header: verify/check.h is the only entry
 * to the verifier; nothing outside verify/check*.c (and
 * tests/test_check_audit.c, for the test hook at the end) includes this.
 *
 * One chk_pair lives for one ver_check call.  Its parts, by the file that
 * owns them:
 *   check.c         the driver: ver_check, the modes, the obligation walk;
 *   check_goal.c    encoding, the assumptions (hyps) and the negated goals;
 *   check_settle.c  the cheap settling steps: identity, ranges, rewriting;
 *   check_facts.c   facts, lemmas and refolding (rewriting with equalities
 *                   the assumptions imply);
 *   check_solve.c   the solvers: fast, slow (bit-blasting) fallback with
 *                   slicing, the abstraction, isolation in a child;
 *   check_audit.c   --smt2 / --solver-cmd and the plain-encoding audit;
 *   check_screen.c  concrete screening and counterexamples;
 *   check_self.c    --self-check (encoder against interpreter);
 *   check_result.c  ver_result bookkeeping, names and JSON.
 */
#ifndef JP_VERIFY_CHECK_INT_H
#define JP_VERIFY_CHECK_INT_H

#include "util/clock.h"
#include "verify/abstract.h"
#include "verify/cex.h"
#include "verify/check.h"
#include "verify/encode.h"
#include "verify/heap.h"
#include "verify/oblig.h"
#include "verify/range.h"
#include "verify/slice.h"
#include "verify/z3ctx.h"

struct ver_ctx {
	zc_ctx zc;
	uint64_t pairs; /* checks made, names the --smt2 files */
};

/* The slow solvers' tactic for heap pairs (make_heap_solver): the
 * bit-vector tactic on plain bit-vector queries, else the array tactic
 * after a simplifying preamble.  PRE holds the preamble's steps and their
 * chain, all alive as long as COND (see make_heap_solver). */
enum { CHK_HEAP_PRE = 12 };
typedef struct chk_heap_tactic {
	Z3_probe bvonly;
	Z3_tactic bv, smt, cond;
	Z3_tactic pre[CHK_HEAP_PRE];
	unsigned npre;
} chk_heap_tactic;

/* The solvers of a pair, by role; each is made on first use. */
typedef struct chk_solvers {
	Z3_solver fast;		 /* incremental, short budget (FAST_MS) */
	Z3_solver slow;		 /* bit-blasting fallback (qfbv tactic) */
	Z3_solver abstract;	 /* incremental, multipliers and dividers
				    hidden (verify/abstract.h) */
	Z3_solver abstract_slow; /* the abstraction's bit-blasting fallback
				    (qfufbv tactic) */
	Z3_solver audit;	 /* --audit: the plain encoding, incremental */
	Z3_solver audit_slow;	 /* ... its bit-blasting fallback (qfbv) */
	uint32_t audit_o_done, audit_p_done; /* guards asserted in audit */
	bool audit_background; /* the heap model's background, in audit */
	chk_heap_tactic heap_tactic;
} chk_solvers;

/* The assumptions asserted so far: the guard conditions passed. */
typedef struct chk_hyps {
	Z3_ast *v; /* the asserted guard conditions */
	uint32_t n, cap;
	zc_idset ids;		 /* ids of the asserted terms */
	bool contradict;	 /* some assumption is the constant false */
	uint32_t o_done, p_done; /* guards before these op indices asserted */
	bool background;	 /* the heap model's background asserted */
} chk_hyps;

/* The fallback first asks a slice of the assumptions (verify/slice.h);
 * keep[i] says whether hyps.v[i] is in it. */
typedef struct chk_slice {
	sl_set set;
	bool *keep;
	uint32_t cap;
} chk_slice;

/* The abstraction (verify/abstract.h) of the assumptions, asserted in
 * solvers.abstract. */
typedef struct chk_abs {
	abs_map map;
	uint32_t done; /* assumptions asserted in solvers.abstract */
	bool any;      /* some asserted assumption hides something */
} chk_abs;

/* Lemmas: OPT values proved equal to the ORIG value of the same name under
 * the current assumptions; later terms use the ORIG term. */
typedef struct chk_lemmas {
	Z3_ast *from, *to;
	uint32_t n, cap;
	uint32_t gen;		   /* changes whenever the lemmas do */
	uint32_t *cand_o, *cand_p; /* candidate pairs (vids), by OPT op */
	uint32_t ncand, next;
	bool on;	   /* aligned walks only: assumptions only grow */
	uint32_t unknowns; /* lemma queries the budget did not settle */
} chk_lemmas;

/* Facts: terms that the assumptions, or the ranges under them, pin to
 * constants or to simpler terms (learn_facts, facts_of_ranges, refold). */
typedef struct chk_facts {
	Z3_ast *from, *to;
	uint32_t n, cap;
	zc_idset ids; /* ids of the from terms, with their index */
	/* The facts other than the range analysis's constants (FACT_KEPT):
	 * substituted alone, they keep the terms' shape (false_by_kept). */
	Z3_ast *kept_from, *kept_to;
	uint32_t nkept, capkept;
} chk_facts;

/* Refolding: the candidate ops, made on first use, and their terms with
 * the lemmas applied, made again when lemmas.gen moves on. */
typedef struct chk_refold {
	uint32_t *cand;
	struct chk_rterm *term;
	uint32_t n;
	uint32_t term_gen; /* lemmas.gen of term; 0 = not made */
	uint32_t nfact;	   /* facts.n at the last refolding */
} chk_refold;

/* The screening inputs, kept for the self-check. */
typedef struct chk_screen {
	uint64_t *x; /* n vectors of ninputs values, flattened */
	uint32_t n;
} chk_screen;

/* The state of one pair. */
typedef struct chk_pair {
	ver_ctx *c;
	Z3_context z;
	const ir_trace *o, *p;
	const ver_opts *opts;
	ver_result *res;
	unsigned cap_mb; /* Z3's memory cap for this process's queries */
	zc_scope S;
	Z3_ast *vars;
	enc_trace eo, ep;
	bool encoded;
	vr_state *vo, *vp; /* the range analyses of both traces */
	chk_solvers solvers;
	chk_hyps hyps;
	chk_slice slice;
	chk_abs abs;
	/* The mode being checked. */
	ver_mode mode;
	obl_list L;
	unsigned qno; /* queries asked, names the --smt2 files */
	chk_lemmas lemmas;
	chk_facts facts;
	chk_refold refold;
	bool gave_up;	/* an obligation was unknown: later queries quick */
	double t_start; /* clk_now_ms() when ver_check began (the budget) */
	chk_screen screen;
	/* A pair with a heap: the heap model is the encoding backend
	 * (verify/heap.h), made by chk_encode; the last satisfying model
	 * read is kept for its replay, which needs more than the inputs. */
	bool heap_pair;
	bool heap_limit; /* the pair is beyond a limit of the heap model */
	/* A pairing of fresh objects to start from (hp_open's HINT): the
	 * one a first try's replay forced (ver_check), or NULL. */
	const uint32_t *hint;
	hp *heap;
	Z3_model model;
} chk_pair;

/* Where a fact comes from: an assumption or a rewrite that keeps the
 * term's shape, or a constant the range analysis pins a term to. */
typedef enum fact_kind { FACT_KEPT, FACT_PINNED } fact_kind;

/* ---- the steps, by the file that defines them ---- */

/* ---- check_result.c ---- */

jp_status chk_init_obligations(chk_pair *ps, jp_err *err);
void chk_settle(chk_pair *ps, uint32_t i, ver_verdict v, ver_how how,
		double ms);
void chk_set_reason(chk_pair *ps, const char *why);
jp_status chk_init_result(chk_pair *ps, jp_err *err);

/* ---- check_goal.c ---- */

/* A note for ver_opts.on_progress (printf-style), when it is set. */
void chk_progress(chk_pair *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
jp_status chk_encode(chk_pair *ps, jp_err *err);
jp_status chk_assume(chk_pair *ps, uint32_t o_upto, uint32_t p_upto,
		     jp_err *err);
Z3_ast chk_mk_not(chk_pair *ps, Z3_ast a);
Z3_ast chk_mk_and(chk_pair *ps, uint32_t n, const Z3_ast *a);
Z3_ast chk_subst(chk_pair *ps, Z3_ast t);
Z3_ast chk_goal_neg(chk_pair *ps, const obl *b, bool *ident);
/* NEG with what obligation I of a heap pair also assumes (the original
 * defined up to a point, hp_obl_defined) conjoined; NEG itself for other
 * pairs.  chk_goal_neg and the audit both use it. */
Z3_ast chk_heap_defined(chk_pair *ps, uint32_t i, Z3_ast neg);

/* ---- check_facts.c ---- */

void chk_drop_lemmas(chk_pair *ps);
Z3_ast chk_subst_facts(chk_pair *ps, Z3_ast t);
bool chk_false_by_kept(chk_pair *ps, Z3_ast g);
jp_status chk_find_candidates(chk_pair *ps, jp_err *err);
jp_status chk_learn_facts(chk_pair *ps, Z3_ast h, int depth, fact_kind kind,
			  jp_err *err);
jp_status chk_try_lemmas(chk_pair *ps, uint32_t p_upto, bool *added,
			 jp_err *err);
jp_status chk_refold_facts(chk_pair *ps, jp_err *err);
jp_status chk_facts_of_ranges(chk_pair *ps, vr_state *r, const ir_trace *t,
			      const enc_trace *e, uint32_t upto, jp_err *err);

/* ---- check_settle.c ---- */

jp_status chk_settle_cheaply(chk_pair *ps, uint32_t i, double t1, Z3_ast *neg,
			     jp_err *err);

/* ---- check_solve.c ---- */

bool chk_hard_pair(const chk_pair *ps);

/* The limits of one solver check: a wall-clock timeout and Z3's resource
 * count (rlimit), each 0 for none. */
typedef struct chk_limit {
	unsigned timeout_ms, rlimit;
} chk_limit;

/* A short budget of MS (the incremental solver's first try, the
 * abstraction, a lemma, the audit).  Without ver_opts.rlimit it is MS of
 * wall clock (no more than ver_opts.timeout_ms).  With one it is a
 * resource count, MS * CHK_RLIMIT_PER_MS (no more than the rlimit), and the
 * wall clock is only ver_opts.timeout_ms, the safety net: a check cut
 * short by the wall clock gives a different answer on a loaded machine,
 * and with an rlimit the user asked for answers that do not depend on
 * the load (docs/ci.md, "Limits").  CHK_RLIMIT_PER_MS is about what Z3
 * 4.8.12 counts per millisecond on the queries that ran into the 50 ms
 * budget (docs/performance.md, session 45). */
enum { CHK_RLIMIT_PER_MS = 6000 };
chk_limit chk_short_limit(const chk_pair *ps, unsigned ms);
jp_status chk_make_solver(chk_pair *ps, jp_err *err);
jp_status chk_model_inputs(chk_pair *ps, Z3_solver s, uint64_t *x, jp_err *err);
jp_status chk_query(chk_pair *ps, Z3_ast neg, bool quick, Z3_lbool *ans,
		    uint64_t *x, jp_err *err);

/* ---- check_audit.c ---- */

bool chk_rechecking(const chk_pair *ps);
/* --audit: every proved obligation asked again on the plain encoding
 * (ver_opts.audit); counts and, on a disagreement, the verdict in
 * ps->res. */
jp_status chk_audit(chk_pair *ps, jp_err *err);
/* For tests only: when set, every obligation that reaches the cheap steps
 * is settled "proved by rewriting" at once, a deliberately wrong shortcut
 * that --audit must catch (tests/test_check_audit.c). */
extern bool chk_test_wrong_settle;
jp_status chk_recheck(chk_pair *ps, Z3_ast neg, Z3_lbool ans, jp_err *err);

/* ---- check_screen.c ---- */

jp_status chk_make_screen(chk_pair *ps, jp_err *err);
jp_status chk_run_screen(chk_pair *ps, int32_t *k, uint64_t *x, jp_err *err);
cex_env chk_make_cex_env(chk_pair *ps);
jp_status chk_finish_cex(chk_pair *ps, uint64_t *x, int32_t k, ver_how how,
			 double t0, jp_err *err);

/* ---- check_self.c ---- */

jp_status chk_self_check_at(chk_pair *ps, const uint64_t *x, jp_err *err);
jp_status chk_self_check_identity(ver_ctx *c, const ir_trace *t,
				  const ver_opts *opts, jp_err *err);

#endif
