/*
 * z3ctx.h - the Z3 context, term scopes and error handling of the verifier.
 *
 * A zc_ctx owns one reference-counted Z3 context (Z3_mk_context_rc).  Z3's
 * default error handler calls exit(1), which a shell would read as
 * "counterexample", so every context gets a handler that only records the
 * error; callers learn about it from a NULL result and zc_failed().
 *
 * Terms: in a reference-counted context a term that nobody holds a
 * reference to may be freed and its memory reused by the next term, which
 * silently gives wrong answers.  Every term the verifier keeps therefore
 * goes through zc_keep, which takes a reference and records the term in a
 * zc_scope; zc_scope_release drops all of them at once when a check ends.
 *
 * Memory: Z3 keeps caches (simplifier, symbol tables, solver state) that
 * grow slowly over many checks.  zc_begin_check rebuilds the context every
 * zc_ctx.recycle_every checks, which keeps memory flat over millions of
 * checks.  No term or solver may live across zc_begin_check.
 *
 * Memory of single queries: Z3 counts every byte it allocates in one
 * process-wide total (Z3_get_estimated_alloc_size, zc_z3_mb).
 * zc_limit_params caps that total for a solver's queries: past the cap a
 * query answers unknown, with the reason "max. memory exceeded" (tactic
 * solvers) or "memout" (SMT solvers), never an error, and the context
 * stays usable.  Z3 looks at the total only between steps, so a query
 * can overshoot the cap by one step (bit-blasting a wide multiplier or
 * divider: about 30 MB, z3ctx.c).  Because the total also counts what a
 * context keeps between checks (its term tables and allocator pools grow
 * to fit the largest query seen and never shrink), zc_begin_check
 * rebuilds the context when Z3 holds more than zc_ctx.retain_mb at the
 * start of a check, so that one hard query does not leave every later
 * query starting close to the cap.
 *
 * The C library's heap: glibc keeps freed memory for reuse, so after a
 * hard query the process stays tens of MB above what Z3 holds.  With
 * glibc, zc_init fixes the mmap threshold (a process-wide malloc setting;
 * large blocks then go back to the system when freed) and zc_begin_check
 * trims the heap after a rebuild and after a check that took long enough
 * for the trim to cost little.  z3ctx.c has the measurements.
 *
 * Threads: a zc_ctx belongs to one thread.  The error record is
 * thread-local, so several workers with their own contexts do not mix up
 * their errors.
 */
#ifndef JP_VERIFY_Z3CTX_H
#define JP_VERIFY_Z3CTX_H

#include <stdbool.h>
#include <stdint.h>

#include <z3.h>

#include "ir/err.h"

typedef struct zc_ctx {
	Z3_context z;
	unsigned checks;	  /* checks since the context was (re)built */
	unsigned recycle_every;	  /* rebuild after this many checks */
	unsigned rebuilds;	  /* how often it was rebuilt (statistics) */
	unsigned retain_mb;	  /* rebuild when Z3 holds more than this at the
				     start of a check; 0 = never */
	unsigned memory_rebuilds; /* rebuilds because of retain_mb (part of
				     rebuilds) */
	unsigned trims;		  /* freed memory handed back (statistics) */
	double last_begin_ms;	  /* when the last check began */
} zc_ctx;

/* The default zc_ctx.retain_mb.  A fresh context holds about 16 MB;
 * z3ctx.c has the measurements behind the value. */
#define ZC_DEFAULT_RETAIN_MB 24u

/* Builds the context.  Errors: JP_ENOMEM / JP_EINTERNAL when Z3 cannot
 * create one. */
jp_status zc_init(zc_ctx *zc, jp_err *err);
void zc_fini(zc_ctx *zc);

/* Starts a check: rebuilds the context when it is due (every
 * recycle_every checks, or when Z3 holds more than retain_mb, or when the
 * last check ended with a Z3 error, after which Z3's state is not
 * trusted), and clears the error record. */
jp_status zc_begin_check(zc_ctx *zc, jp_err *err);

/* The kinds of solver, which Z3 limits in different ways. */
typedef enum zc_solver_kind {
	ZC_SMT_SOLVER,	  /* Z3_mk_simple_solver / Z3_mk_solver */
	ZC_TACTIC_SOLVER, /* Z3_mk_solver_from_tactic */
} zc_solver_kind;

/* Applies the memory cap MEMORY_MB (MB of Z3's process-wide total; 0:
 * none) to a solver of kind KIND about to be configured with P
 * (Z3_solver_set_params).  Tactic solvers get it as their max_memory
 * parameter.  SMT solvers must not: they accept it, but their
 * preprocessing turns it into a Z3 error instead of unknown.  They stop
 * at Z3's high watermark instead, a global setting that this sets (with
 * different caps in one process, the last one set wins). */
void zc_limit_params(Z3_context z, Z3_params p, zc_solver_kind kind,
		     unsigned memory_mb);

/* Whether REASON (from Z3_solver_get_reason_unknown) says that a memory
 * limit stopped the query. */
bool zc_is_memout(const char *reason);

/* Sets Z3's hard ceiling: the allocation that takes its process-wide
 * total past MB megabytes (0: no ceiling) fails, and the Z3 call that made
 * it fails with Z3_MEMOUT_FAIL (zc_failed_memout).  The context is then
 * broken: Z3 4.8.12 can crash deleting it.  Only for a process that ends
 * after the failing call (a child of verify/isolate.h). */
void zc_set_ceiling(unsigned mb);

/* Z3's process-wide allocation total in MB (all contexts, all threads). */
unsigned zc_z3_mb(void);

/* Whether a Z3 call failed since the last zc_clear_error (on this thread),
 * and a description of the first failure. */
bool zc_failed(void);
const char *zc_error_text(void);
/* Whether the recorded failure is Z3 running out of memory. */
bool zc_failed_memout(void);
void zc_clear_error(void);

/* Turns a recorded Z3 failure into JP_EINTERNAL with WHAT as context;
 * JP_OK when nothing failed.  The verifier's entry point turns any
 * failure while a Z3 error is recorded into an unknown verdict with the
 * message as its reason (verify/check.h). */
jp_status zc_check_error(jp_err *err, const char *what);

/* A test hook: the N-th call of zc_limit_params from now on (N >= 1;
 * 0 disarms) makes Z3 report an error through the context's error
 * handler, as an exception inside Z3 would (a sort error on purpose).
 * Per thread; a forked child counts on from its parent's count. */
void zc_test_fail_after(unsigned n);

/* The set of terms held by one check. */
typedef struct zc_scope {
	Z3_context z;
	Z3_ast *terms;
	uint32_t n, cap;
	bool failed; /* a NULL term was kept, or memory ran out */
} zc_scope;

void zc_scope_init(zc_scope *s, Z3_context z);
/* Takes a reference to A and records it; returns A.  A NULL A (a failed
 * Z3 call) marks the scope failed and returns NULL, so a chain of term
 * constructions can be checked once at its end. */
Z3_ast zc_keep(zc_scope *s, Z3_ast a);
/* Drops every reference taken through S; S can be reused afterwards. */
void zc_scope_release(zc_scope *s);

/* Small term helpers; every result is kept in S. */
Z3_sort zc_bv_sort(Z3_context z, unsigned w);
Z3_ast zc_bv(zc_scope *s, unsigned w, uint64_t v);
Z3_ast zc_true(zc_scope *s);
Z3_ast zc_false(zc_scope *s);

/* The value of a bit-vector numeral (width <= 64), or false. */
bool zc_numeral(Z3_context z, Z3_ast a, uint64_t *v);
/* Whether T is an application of KIND with NARGS arguments (*APP). */
bool zc_app_of(Z3_context z, Z3_ast t, Z3_decl_kind kind, unsigned nargs,
	       Z3_app *app);
/* Argument I of APP (no reference taken: APP keeps it alive). */
Z3_ast zc_arg_of(Z3_context z, Z3_app app, unsigned i);
/* Whether A is the constant true / false. */
bool zc_is_true(Z3_context z, Z3_ast a);
bool zc_is_false(Z3_context z, Z3_ast a);

/* A set of term ids (Z3_get_ast_id), for "seen this term already", each
 * with a number the user gives it (an index, say; 0 from zc_idset_add):
 * open addressing, grown as needed.  Ids are stable while the terms are
 * alive, so a set must not outlive the scope holding its terms. */
typedef struct zc_idset {
	unsigned *slot; /* UINT_MAX marks an empty slot */
	uint32_t *val;	/* val[k] is slot[k]'s number */
	uint32_t n, cap;
} zc_idset;

bool zc_idset_has(const zc_idset *s, unsigned id);
/* Whether ID is in the set; if so, *VAL is its number. */
bool zc_idset_get(const zc_idset *s, unsigned id, uint32_t *val);
/* Adds ID with number VAL; *ADDED says whether it was new (an id already
 * there keeps its number).  False when out of memory. */
bool zc_idset_put(zc_idset *s, unsigned id, uint32_t val, bool *added);
bool zc_idset_add(zc_idset *s, unsigned id, bool *added);
void zc_idset_clear(zc_idset *s);
void zc_idset_free(zc_idset *s);

#endif
