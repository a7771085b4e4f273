/*
 * test_opt_heap_util.h - a heap-aware differential oracle for the heap
 * optimizations (test_opt_heap*.c).
 *
 * Two traces behave alike in one environment when, run in the interpreter:
 *   - they end the same way (same end kind, or the same failing guard
 *     label) with the same outputs / fail-args;
 *   - they make the same calls with the same arguments;
 *   - the final heap agrees on every pre-existing object (inputs and
 *     everything the environment names), and on every fresh object that
 *     both traces allocate under the same result name;
 *   - at each call, the heap agrees in the same way (a call may read any
 *     object it can reach; the interpreter does not record that, so the
 *     oracle cuts both traces at their k-th call and compares the heaps
 *     there).
 * An environment in which the first trace (the original) reads or writes
 * a field through NULL is skipped: that access is undefined behaviour
 * (docs/semantics.md), so the optimized trace may do anything there (the
 * heap pass forwards a store to a load on any reference).
 * Fresh objects are compared by identity, not address: an address of a
 * fresh object is replaced by the result name of its allocation (the
 * identity rule of docs/optimizer.md), so removing an allocation does not
 * shift the others.
 *
 * Environments are random: reference inputs drawn from a small pool of
 * addresses (so two inputs often alias) and sometimes NULL, initial
 * fields and types for the pool, call results and call writes.
 */
#ifndef JP_TESTS_TEST_OPT_HEAP_UTIL_H
#define JP_TESTS_TEST_OPT_HEAP_UTIL_H

#include "test_opt_util.h"

enum { HU_POOL = 3, HU_MAXF = 16, HU_MAXC = 8, HU_MAXCELLS = 96 };

static const uint64_t hu_pool[HU_POOL] = {0x1000, 0x2000, 0x3000};

typedef struct hu_env {
	interp_env env;
	uint64_t args[64];
	interp_cell init[HU_MAXCELLS];
	interp_type types[HU_POOL];
	uint64_t rets[HU_MAXC];
	interp_cell writes[HU_MAXCELLS];
} hu_env;

/* The field and class names a trace uses. */
typedef struct hu_names {
	const char *fields[HU_MAXF];
	int nf;
	const char *classes[HU_MAXF];
	int nc;
} hu_names;

static inline void hu_add_name(const char **l, int *n, const char *s)
{
	for (int k = 0; k < *n; k++)
		if (!strcmp(l[k], s))
			return;
	if (*n < HU_MAXF)
		l[(*n)++] = s;
}

static inline void hu_collect(const ir_trace *t, hu_names *nm)
{
	memset(nm, 0, sizeof *nm);
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_GETFIELD_GC_I ||
		    op->opc == IR_GETFIELD_GC_R || op->opc == IR_SETFIELD_GC)
			hu_add_name(nm->fields, &nm->nf,
				    ir_strtext(t, op->descr));
		if (op->opc == IR_GUARD_CLASS)
			hu_add_name(nm->classes, &nm->nc,
				    ir_strtext(t, t->vals[op->args[1]].name));
	}
}

static inline uint64_t hu_value(const ir_trace *t)
{
	uint64_t e[64];
	int ne = tu_edges(t->width, e);
	uint64_t r = tu_rand() % 4;
	if (r == 0)
		return hu_pool[tu_rand() % HU_POOL];
	if (r == 1)
		return sem_mask(t->width, tu_rand());
	return e[tu_rand() % (uint64_t)ne];
}

/* A random environment for T. */
static inline void hu_random_env(const ir_trace *t, const hu_names *nm,
				 hu_env *h)
{
	memset(h, 0, sizeof *h);
	for (uint32_t i = 0; i < t->ninputs && i < 64; i++) {
		if (t->vals[t->inputs[i]].kind == 'r')
			h->args[i] = tu_rand() % 8 == 0
					 ? 0
					 : hu_pool[tu_rand() % HU_POOL];
		else
			h->args[i] = sem_mask(t->width, hu_value(t));
	}
	uint32_t ni = 0, nw = 0;
	for (int p = 0; p < HU_POOL; p++)
		for (int f = 0; f < nm->nf && ni < HU_MAXCELLS; f++)
			if (tu_rand() % 3)
				h->init[ni++] = (interp_cell){
				    0, hu_pool[p], nm->fields[f], hu_value(t)};
	for (int p = 0; p < HU_POOL; p++)
		h->types[p] = (interp_type){
		    hu_pool[p], nm->nc && tu_rand() % 4
				    ? nm->classes[tu_rand() % (uint64_t)nm->nc]
				    : NULL};
	for (int k = 0; k < HU_MAXC; k++)
		h->rets[k] = hu_value(t);
	for (uint32_t k = 0; k < HU_MAXC && nm->nf; k++)
		for (int p = 0; p < HU_POOL && nw < HU_MAXCELLS; p++)
			if (tu_rand() % 3 == 0)
				h->writes[nw++] = (interp_cell){
				    k, hu_pool[p],
				    nm->fields[tu_rand() % (uint64_t)nm->nf],
				    hu_value(t)};
	h->env.args = h->args;
	h->env.nargs = t->ninputs;
	h->env.init = h->init;
	h->env.ninit = ni;
	h->env.types = h->types;
	h->env.ntypes = HU_POOL;
	h->env.call_ret = h->rets;
	h->env.ncall_ret = HU_MAXC;
	h->env.call_writes = h->writes;
	h->env.ncall_writes = nw;
}

/* The identity of X in run R of T: a fresh object's allocation name, or
 * NULL for anything else (compared by value). */
static inline const char *hu_fresh_name(const ir_trace *t,
					const interp_result *r, uint64_t x)
{
	const interp_obj *o = interp_find_obj(r, x);
	if (!o || o->fresh < 0)
		return NULL;
	return ir_valname(t, t->ops[o->alloc_op].result);
}

static inline bool hu_same_val(const ir_trace *ta, const interp_result *ra,
			       uint64_t x, const ir_trace *tb,
			       const interp_result *rb, uint64_t y)
{
	const char *na = hu_fresh_name(ta, ra, x);
	const char *nb = hu_fresh_name(tb, rb, y);
	if (na || nb)
		return na && nb && !strcmp(na, nb);
	return x == y;
}

static inline bool hu_has_field(const interp_obj *o, const char *f)
{
	for (uint32_t k = 0; o && k < o->nfields; k++)
		if (!strcmp(o->fields[k], f))
			return true;
	return false;
}

/* Field F of the object at ADDR at the end of run R. */
static inline uint64_t hu_field(const interp_result *r, const interp_env *env,
				uint64_t addr, const char *f)
{
	const interp_obj *o = interp_find_obj(r, addr);
	if (hu_has_field(o, f))
		return interp_obj_field(o, f);
	if (o && o->fresh >= 0)
		return 0;
	for (uint32_t k = 0; k < env->ninit; k++)
		if (env->init[k].addr == addr && !strcmp(env->init[k].field, f))
			return env->init[k].value;
	return 0;
}

/* Compares the objects of RA (pre-existing ones, and fresh ones that RB
 * allocated under the same name) with RB over the field names NM. */
static inline bool hu_same_heap(const ir_trace *ta, const interp_result *ra,
				const ir_trace *tb, const interp_result *rb,
				const interp_env *env, const hu_names *nm)
{
	for (uint32_t i = 0; i < ra->nobjs; i++) {
		const interp_obj *oa = &ra->objs[i];
		uint64_t addr_b = oa->addr;
		if (oa->fresh >= 0) {
			const char *name = hu_fresh_name(ta, ra, oa->addr);
			bool found = false;
			for (uint32_t j = 0; j < rb->nobjs && !found; j++) {
				const char *nb =
				    hu_fresh_name(tb, rb, rb->objs[j].addr);
				if (nb && !strcmp(nb, name)) {
					addr_b = rb->objs[j].addr;
					found = true;
				}
			}
			if (!found)
				continue;
		}
		for (int f = 0; f < nm->nf; f++)
			if (!hu_same_val(
				ta, ra,
				hu_field(ra, env, oa->addr, nm->fields[f]), tb,
				rb, hu_field(rb, env, addr_b, nm->fields[f])))
				return false;
	}
	return true;
}

/* The kind of output K of run R (a ref output is compared by identity). */
static inline char hu_out_kind(const ir_trace *t, const interp_result *r,
			       uint32_t k)
{
	const ir_op *op = &t->ops[r->stop_op];
	ir_vid v =
	    r->outcome == INTERP_GUARD_FAIL ? op->failargs[k] : op->args[k];
	return v == IR_NOVAL ? 'i' : t->vals[v].kind;
}

static inline bool hu_same_run(const ir_trace *ta, const interp_result *ra,
			       const ir_trace *tb, const interp_result *rb,
			       const interp_env *env, const hu_names *nm)
{
	/* RA (the original) undefined (a NULL access): only the calls it
	 * made before count (docs/semantics.md, "Undefined behaviour"). */
	if (ra->outcome == INTERP_UNDEFINED)
		return rb->ncalls >= ra->ncalls;
	if (ra->outcome != rb->outcome || ra->nout != rb->nout ||
	    ra->ncalls != rb->ncalls)
		return false;
	if (ra->outcome == INTERP_GUARD_FAIL &&
	    strcmp(ir_guard_label(ta, ra->stop_op),
		   ir_guard_label(tb, rb->stop_op)))
		return false;
	for (uint32_t k = 0; k < ra->nout; k++) {
		bool ref = hu_out_kind(ta, ra, k) == 'r';
		if (ref ? !hu_same_val(ta, ra, ra->out[k], tb, rb, rb->out[k])
			: ra->out[k] != rb->out[k])
			return false;
	}
	for (uint32_t i = 0; i < ra->ncalls; i++) {
		if (ra->calls[i].nargs != rb->calls[i].nargs)
			return false;
		for (uint32_t k = 0; k < ra->calls[i].nargs; k++)
			if (!hu_same_val(ta, ra, ra->calls[i].args[k], tb, rb,
					 rb->calls[i].args[k]))
				return false;
	}
	return hu_same_heap(ta, ra, tb, rb, env, nm) &&
	       hu_same_heap(tb, rb, ta, ra, env, nm);
}

/* T cut at its K-th call (the call becomes finish()); NULL when T has
 * fewer calls. */
static inline ir_trace *hu_cut_at_call(const ir_trace *t, uint32_t k)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		if (!ir_op_has((ir_opcode)t->ops[i].opc, IRF_CALL) || k--)
			continue;
		ir_trace *c = ir_trace_clone(t);
		if (!c)
			return NULL;
		ir_op *op = &c->ops[i];
		op->opc = IR_FINISH;
		op->kind = 'v';
		op->nargs = 0;
		op->result = IR_NOVAL;
		op->nfail = 0;
		return c;
	}
	return NULL;
}

/* Whether run R of T reads or writes a field through NULL (undefined
 * behaviour): the ops up to the one it stopped at all ran. */
static inline bool hu_undefined(const ir_trace *t, const interp_result *r)
{
	for (uint32_t i = 0; i <= r->stop_op && i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		bool access = op->opc == IR_GETFIELD_GC_I ||
			      op->opc == IR_GETFIELD_GC_R ||
			      op->opc == IR_SETFIELD_GC;
		if (access && r->vals[op->args[0]] == 0)
			return true;
	}
	return false;
}

/* 1 when A and B behave alike in H, 0 when not, -1 when the interpreter
 * refused, 2 when A (the original) is undefined in H. */
static inline int hu_same_once(const ir_trace *a, const ir_trace *b,
			       const interp_env *env, const hu_names *nm)
{
	interp_result ra, rb;
	jp_err err;
	if (interp_run(a, env, &ra, &err))
		return -1;
	if (hu_undefined(a, &ra)) {
		interp_result_free(&ra);
		return 2;
	}
	if (interp_run(b, env, &rb, &err)) {
		interp_result_free(&ra);
		return -1;
	}
	int same = hu_same_run(a, &ra, b, &rb, env, nm);
	interp_result_free(&ra);
	interp_result_free(&rb);
	return same;
}

static inline int hu_same_in(const ir_trace *a, const ir_trace *b,
			     const interp_env *env, const hu_names *nm)
{
	int same = hu_same_once(a, b, env, nm);
	if (same == 2)
		return 1; /* undefined: anything goes */
	for (uint32_t k = 0; same == 1; k++) {
		ir_trace *ca = hu_cut_at_call(a, k), *cb = hu_cut_at_call(b, k);
		if (ca && cb) {
			same = hu_same_once(ca, cb, env, nm);
			same = same == 2 ? 1 : same;
		}
		ir_trace_free(ca);
		ir_trace_free(cb);
		if (!ca || !cb)
			break;
	}
	return same;
}

/* Searches ROUNDS random environments for one where A and B differ. */
static inline bool hu_find_divergence(const ir_trace *a, const ir_trace *b,
				      int rounds)
{
	hu_names nm, nb;
	hu_collect(a, &nm);
	hu_collect(b, &nb);
	for (int k = 0; k < nb.nf; k++)
		hu_add_name(nm.fields, &nm.nf, nb.fields[k]);
	hu_env *h = malloc(sizeof *h);
	bool found = false;
	for (int r = 0; r < rounds && !found && h; r++) {
		hu_random_env(a, &nm, h);
		found = hu_same_in(a, b, &h->env, &nm) != 1;
	}
	free(h);
	return found;
}

enum { HU_ROUNDS = 400 };

/* Optimizes SRC with PASSES and compares with EXPECTED (both read at
 * width 64); then checks that input and output behave alike. */
static inline void hu_expect(const char *file, int line, const char *passes,
			     const char *src, const char *expected)
{
	ir_trace *t = tu_parse(src, 64);
	ir_trace *e = tu_parse(expected, 64);
	ir_trace *o = t ? tu_opt(t, passes, NULL, NULL) : NULL;
	char *got = o ? tu_print(o) : NULL;
	char *want = e ? tu_print(e) : NULL;
	bool ok = got && want && !strcmp(got, want);
	if (!ok)
		fprintf(stderr,
			"%s:%d: optimizer output differs\n  got:\n%s\n"
			"  expected:\n%s\n",
			file, line, got ? got : "(error)",
			want ? want : "(error)");
	check_report(ok, file, line, "optimized text == expected text");
	bool div = t && o && hu_find_divergence(t, o, HU_ROUNDS);
	if (div)
		fprintf(stderr, "%s:%d: output behaves differently\n", file,
			line);
	check_report(t && o && !div, file, line, "output behaves like input");
	free(got);
	free(want);
	ir_trace_free(t);
	ir_trace_free(e);
	ir_trace_free(o);
}

#define EXPECT_HEAP(passes, src, expected)                                     \
	hu_expect(__FILE__, __LINE__, passes, src, expected)

#endif
