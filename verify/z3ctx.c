/* z3ctx.c - the verifier's Z3 context (reference counted, rebuilt every
 * few thousand checks), term scopes, id sets and error handling; the
 * contract is in z3ctx.h. */
#define _POSIX_C_SOURCE 200809L

#include "z3ctx.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"

/* glibc keeps memory the program freed for later reuse, which after one
 * memory-hungry Z3 query leaves tens of MB resident that nothing uses.
 * With glibc we tune and trim its heap (heap_policy, trim_heap); other C
 * libraries simply do without. */
#if defined(__GLIBC__)
#include <malloc.h>
#define ZC_GLIBC_HEAP 1
#endif

/* The first Z3 error since the last clear, per thread.  Only the first is
 * kept because later ones are usually consequences of it (a NULL term fed
 * to the next call). */
static _Thread_local bool zc_err_set;
static _Thread_local char zc_err_text[256];
static _Thread_local Z3_error_code zc_err_code;

static void record_error(Z3_context c, Z3_error_code e)
{
	if (zc_err_set)
		return;
	zc_err_set = true;
	zc_err_code = e;
	const char *msg = Z3_get_error_msg(c, e);
	snprintf(zc_err_text, sizeof zc_err_text, "Z3 error %d: %s", (int)e,
		 msg ? msg : "(no message)");
}

bool zc_failed(void)
{
	return zc_err_set;
}

const char *zc_error_text(void)
{
	return zc_err_set ? zc_err_text : "no Z3 error";
}

bool zc_failed_memout(void)
{
	return zc_err_set && zc_err_code == Z3_MEMOUT_FAIL;
}

void zc_clear_error(void)
{
	zc_err_set = false;
	zc_err_text[0] = 0;
}

jp_status zc_check_error(jp_err *err, const char *what)
{
	if (!zc_err_set)
		return JP_OK;
	return jp_fail(err, JP_EINTERNAL, "%s: %s", what, zc_err_text);
}

static Z3_context make_context(void)
{
	Z3_config cfg = Z3_mk_config();
	if (!cfg)
		return NULL;
	/* Models must assign every input so counterexamples are complete. */
	Z3_set_param_value(cfg, "model", "true");
	Z3_context z = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (z)
		Z3_set_error_handler(z, record_error);
	return z;
}

/* The process's heap policy, set by every zc_init (the same values each
 * time).  Measured with the loop of `jitprove bench --sections memory
 * --memory-traces 4000` (4,000 30-op traces, cap 48 MB, retain 24 MB):
 * peak RSS 162 MB with neither measure below, 137 MB with the fixed mmap
 * threshold alone, 151 MB with a trim after every check alone, 126 MB
 * with both; trimming only after rebuilds and long checks (below) gives
 * 127-129 MB.
 *  - glibc raises its mmap threshold each time a large block is freed, up
 *    to 32 MB, after which Z3's large tables and clause arrays come from
 *    the main heap and fragment it.  A fixed threshold keeps blocks of
 *    128 KB and more in their own mappings, returned to the system as
 *    soon as they are freed. */
static void heap_policy(void)
{
#ifdef ZC_GLIBC_HEAP
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

/*  - What remains freed but resident after a check is handed back with
 *    malloc_trim.  A trim walks the heap (about 0.5 ms on average here),
 *    so it is done only after a check that took at least TRIM_AFTER_MS
 *    (hard queries are the ones that allocate much), which bounds its
 *    cost to about 1% of the verifier's time, and after each rebuild. */
enum { TRIM_AFTER_MS = 50 };

static void trim_heap(zc_ctx *zc)
{
	zc->trims++;
#ifdef ZC_GLIBC_HEAP
	malloc_trim(0);
#endif
}

jp_status zc_init(zc_ctx *zc, jp_err *err)
{
	memset(zc, 0, sizeof *zc);
	zc->recycle_every = 2000;
	zc->retain_mb = ZC_DEFAULT_RETAIN_MB;
	heap_policy();
	zc->z = make_context();
	if (!zc->z)
		return jp_fail(err, JP_EINTERNAL, "cannot create a Z3 context");
	zc->last_begin_ms = clk_now_ms();
	return JP_OK;
}

void zc_fini(zc_ctx *zc)
{
	if (zc->z)
		Z3_del_context(zc->z);
	zc->z = NULL;
}

unsigned zc_z3_mb(void)
{
	return (unsigned)(Z3_get_estimated_alloc_size() >> 20);
}

/* Whether Z3 holds more than the context should keep between checks.
 * The total is process-wide, so with several contexts in one process a
 * busy neighbour can trigger a rebuild; that costs a few milliseconds and
 * no verdict. */
static bool holds_too_much(const zc_ctx *zc)
{
	return zc->retain_mb && zc_z3_mb() > zc->retain_mb;
}

jp_status zc_begin_check(zc_ctx *zc, jp_err *err)
{
	bool broken = zc_err_set;
	zc_clear_error();
	double t = clk_now_ms();
	bool long_check = t - zc->last_begin_ms >= TRIM_AFTER_MS;
	zc->last_begin_ms = t;
	bool full = holds_too_much(zc);
	if (zc->checks >= zc->recycle_every || full || broken) {
		Z3_del_context(zc->z);
		zc->z = make_context();
		zc->checks = 0;
		zc->rebuilds++;
		zc->memory_rebuilds += full;
		if (!zc->z)
			return jp_fail(err, JP_EINTERNAL,
				       "cannot rebuild the Z3 context");
		long_check = true; /* the old context's memory is free now */
	}
	if (long_check)
		trim_heap(zc);
	zc->checks++;
	return JP_OK;
}

/* The defaults VER_DEFAULT_MEMORY_MB (the cap) and ZC_DEFAULT_RETAIN_MB,
 * from the same 4,000 traces (timeout 500 ms; unknown traces include
 * timeouts, which vary by a few from run to run with the machine's load):
 *
 *   cap/retain MB  peak RSS MB  unknown traces  by the cap  CPU s
 *   none (before)          221              30           0   59.9
 *   80/40                  153              29           7   62.4
 *   64/32                  149              32          13   50.3
 *   48/24                  127              34          30   40.1
 *
 * The queries the cap stops would mostly have timed out anyway, later:
 * the cap costs a few unknowns in 4,000 traces and saves CPU time.  The
 * peak stays about 80 MB above the cap: Z3's checks come between whole
 * operators, and bit-blasting one 64-bit divider adds about 30 MB.
 *
 * Tried and dropped: a hard ceiling (Z3's global memory_max_size, 48 MB
 * above the cap), which stops Z3 at the allocation that crosses it.  The
 * call then fails with Z3_MEMOUT_FAIL, but the context is left broken:
 * in the memory slice of `jitprove bench` the first pair that reached
 * the ceiling (trace 6,629) made the next Z3_del_context crash with
 * SIGSEGV (Z3 4.8.12).  The ceiling is therefore set only in a child
 * process that ends after its one query (zc_set_ceiling, used by the
 * isolated fallback queries of verify/check.c). */

/* The high watermark this thread set last, so that the global setting
 * (which takes a lock and parses a string) is only touched on a change. */
static _Thread_local unsigned zc_watermark_mb;
static _Thread_local bool zc_watermark_set;

static void set_watermark(unsigned memory_mb)
{
	if (zc_watermark_set && zc_watermark_mb == memory_mb)
		return;
	/* Z3 takes the watermark in bytes as a 32-bit number; a larger cap
	 * is no cap. */
	unsigned long long bytes = (unsigned long long)memory_mb << 20;
	char v[32];
	snprintf(v, sizeof v, "%llu", bytes > UINT_MAX ? 0ull : bytes);
	Z3_global_param_set("memory_high_watermark", v);
	zc_watermark_mb = memory_mb;
	zc_watermark_set = true;
}

static _Thread_local unsigned zc_fail_countdown;

void zc_test_fail_after(unsigned n)
{
	zc_fail_countdown = n;
}

/* The test hook's error: a bit-vector sum of two Booleans, which Z3
 * refuses through the error handler. */
static void test_point(Z3_context z)
{
	if (!zc_fail_countdown || --zc_fail_countdown)
		return;
	Z3_ast t = Z3_mk_true(z);
	Z3_inc_ref(z, t);
	Z3_ast bad = Z3_mk_bvadd(z, t, t);
	if (bad) { /* not refused after all: no error to test with */
		Z3_inc_ref(z, bad);
		Z3_dec_ref(z, bad);
	}
	Z3_dec_ref(z, t);
}

void zc_limit_params(Z3_context z, Z3_params p, zc_solver_kind kind,
		     unsigned memory_mb)
{
	test_point(z);
	/* The cap is on Z3's whole total, not on what one query adds to
	 * it: a per-query allowance would ratchet up within a pair, whose
	 * solvers keep what their earlier queries allocated (measured:
	 * 275 MB peak with an allowance of 48 MB per query). */
	if (kind == ZC_SMT_SOLVER) {
		set_watermark(memory_mb);
		return;
	}
	if (memory_mb)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "max_memory"),
				   memory_mb);
}

void zc_set_ceiling(unsigned mb)
{
	char v[32];
	snprintf(v, sizeof v, "%u", mb);
	Z3_global_param_set("memory_max_size", v);
}

bool zc_is_memout(const char *reason)
{
	/* The tactics say "max. memory exceeded", the SAT solver
	 * "sat.max.memory", the SMT kernel "memout". */
	return reason && (strstr(reason, "memory") || strstr(reason, "memout"));
}

void zc_scope_init(zc_scope *s, Z3_context z)
{
	memset(s, 0, sizeof *s);
	s->z = z;
}

Z3_ast zc_keep(zc_scope *s, Z3_ast a)
{
	if (!a) {
		s->failed = true;
		return NULL;
	}
	if (s->n == s->cap) {
		uint32_t ncap = s->cap ? s->cap * 2 : 256;
		Z3_ast *t = realloc(s->terms, (size_t)ncap * sizeof *t);
		if (!t) {
			s->failed = true;
			return NULL;
		}
		s->terms = t;
		s->cap = ncap;
	}
	Z3_inc_ref(s->z, a);
	s->terms[s->n++] = a;
	return a;
}

void zc_scope_release(zc_scope *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		Z3_dec_ref(s->z, s->terms[i]);
	free(s->terms);
	s->terms = NULL;
	s->n = s->cap = 0;
	s->failed = false;
}

Z3_sort zc_bv_sort(Z3_context z, unsigned w)
{
	/* Sorts are ASTs too, but Z3 keeps the sorts of live terms alive;
	 * a sort is only used to build a term right away. */
	return Z3_mk_bv_sort(z, w);
}

Z3_ast zc_bv(zc_scope *s, unsigned w, uint64_t v)
{
	return zc_keep(s, Z3_mk_unsigned_int64(s->z, v, zc_bv_sort(s->z, w)));
}

Z3_ast zc_true(zc_scope *s)
{
	return zc_keep(s, Z3_mk_true(s->z));
}

Z3_ast zc_false(zc_scope *s)
{
	return zc_keep(s, Z3_mk_false(s->z));
}

bool zc_numeral(Z3_context z, Z3_ast a, uint64_t *v)
{
	if (!a || Z3_get_ast_kind(z, a) != Z3_NUMERAL_AST)
		return false;
	return Z3_get_numeral_uint64(z, a, v);
}

bool zc_app_of(Z3_context z, Z3_ast t, Z3_decl_kind kind, unsigned nargs,
	       Z3_app *app)
{
	if (!t || Z3_get_ast_kind(z, t) != Z3_APP_AST)
		return false;
	*app = Z3_to_app(z, t);
	return Z3_get_decl_kind(z, Z3_get_app_decl(z, *app)) == kind &&
	       Z3_get_app_num_args(z, *app) == nargs;
}

Z3_ast zc_arg_of(Z3_context z, Z3_app app, unsigned i)
{
	return Z3_get_app_arg(z, app, i);
}

bool zc_is_true(Z3_context z, Z3_ast a)
{
	return a && Z3_get_bool_value(z, a) == Z3_L_TRUE;
}

bool zc_is_false(Z3_context z, Z3_ast a)
{
	return a && Z3_get_bool_value(z, a) == Z3_L_FALSE;
}

static uint32_t id_slot(unsigned id, uint32_t cap)
{
	return (id * 2654435761u) & (cap - 1);
}

/* The slot of ID, or of the empty slot where it would go. */
static uint32_t idset_find(const zc_idset *s, unsigned id)
{
	uint32_t k = id_slot(id, s->cap);
	while (s->slot[k] != UINT_MAX && s->slot[k] != id)
		k = (k + 1) & (s->cap - 1);
	return k;
}

bool zc_idset_get(const zc_idset *s, unsigned id, uint32_t *val)
{
	if (!s->cap)
		return false;
	uint32_t k = idset_find(s, id);
	if (s->slot[k] != id)
		return false;
	*val = s->val[k];
	return true;
}

bool zc_idset_has(const zc_idset *s, unsigned id)
{
	uint32_t v;
	return zc_idset_get(s, id, &v);
}

static bool idset_grow(zc_idset *s)
{
	zc_idset g = {NULL, NULL, 0, s->cap ? s->cap * 2 : 64};
	g.slot = malloc((size_t)g.cap * sizeof *g.slot);
	g.val = malloc((size_t)g.cap * sizeof *g.val);
	if (!g.slot || !g.val) {
		free(g.slot);
		free(g.val);
		return false;
	}
	memset(g.slot, 0xff, (size_t)g.cap * sizeof *g.slot);
	for (uint32_t i = 0; i < s->cap; i++) {
		if (s->slot[i] == UINT_MAX)
			continue;
		uint32_t k = idset_find(&g, s->slot[i]);
		g.slot[k] = s->slot[i];
		g.val[k] = s->val[i];
	}
	g.n = s->n;
	free(s->slot);
	free(s->val);
	*s = g;
	return true;
}

bool zc_idset_put(zc_idset *s, unsigned id, uint32_t val, bool *added)
{
	*added = false;
	if ((s->n + 1) * 2 > s->cap && !idset_grow(s))
		return false;
	uint32_t k = idset_find(s, id);
	if (s->slot[k] == id)
		return true;
	s->slot[k] = id;
	s->val[k] = val;
	s->n++;
	*added = true;
	return true;
}

bool zc_idset_add(zc_idset *s, unsigned id, bool *added)
{
	return zc_idset_put(s, id, 0, added);
}

void zc_idset_clear(zc_idset *s)
{
	if (s->slot)
		memset(s->slot, 0xff, (size_t)s->cap * sizeof *s->slot);
	s->n = 0;
}

void zc_idset_free(zc_idset *s)
{
	free(s->slot);
	free(s->val);
	s->slot = NULL;
	s->val = NULL;
	s->n = s->cap = 0;
}
