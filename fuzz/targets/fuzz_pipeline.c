/*
 * fuzz_pipeline.c - libFuzzer target: bytes -> generated trace -> optimizer
 * -> differential execution, and on a fraction of inputs -> Z3 proof.
 *
 * Structure-aware: the bytes are not text but the generator's choices
 * (ft_decode_trace), so every input is a valid trace whose guards pass on
 * its example inputs, and libFuzzer's byte mutations become small edits of
 * the trace (one choice changed, inserted or dropped).  Coverage feedback
 * then steers towards traces that reach new code in the optimizer.
 *
 * Fast tier (every input): the original and the optimized trace run on the
 * interpreter on the example inputs, on each input swapped for edge values,
 * and on edge-biased random vectors; any divergence (verify/oblig.h,
 * obl_diverges, aligned by guard label) is a miscompilation and aborts with
 * the reproducer.  Heap traces are compared by the heap model's rule
 * instead (verify/heap.h, hp_run_diverges: fresh objects by identity, the
 * reachable heap at every call and at the end), each vector also in a
 * world where the input objects start with random fields, the input
 * references alias and the calls return random values.
 *
 * Slow tier (1 input in JITPROVE_SLOW_EVERY, chosen by a hash of the
 * bytes, and every heap trace, whose calls may change the heap in ways
 * no concrete world tried covers): ver_check under a fixed Z3 resource
 * limit (the wall-clock limit
 * is only a far-away safety net), so the verdict depends only on the input
 * and a crash replays.  A refutation aborts with the verifier's
 * counterexample report; an unknown verdict is not a finding.
 *
 * Also findings: the optimizer failing on a valid trace, producing an
 * invalid one, or the verifier failing (JP_EINTERNAL: its own self-checks;
 * JP_EINPUT: the optimizer broke the guard-order contract).  A generator
 * failure is a finding too: every byte string must decode.
 *
 * JITPROVE_INJECT=<bug> switches on an injected optimizer bug so the target
 * can be demonstrated (see ft_common.h for the other variables).
 */
#include <stdio.h>
#include <string.h>

#include "ft_common.h"
#include "ir/validate.h"
#include "verify/check.h"
#include "verify/heap.h"

#define TARGET "fuzz_pipeline"

enum {
	MAX_LEN = 40,	/* ops per decoded trace */
	MAX_INPUTS = 4, /* inputs per decoded trace */
	NRANDOM = 16,	/* random vectors per input, besides the edges */
	MAX_CELLS = 64, /* initial fields in a random heap world */
	MAX_CALLS = 16, /* call results in a random heap world */
};

static gen_ctx *gen;
static ver_ctx *vc;
static bool heap; /* decode heap traces too (ft_heap_enabled) */

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
	(void)argc;
	(void)argv;
	ft_env_get(); /* a malformed variable stops here, before fuzzing */
	ft_counters_get();
	gen = gen_ctx_new();
	jp_err err;
	vc = ver_ctx_new(&err);
	if (!gen || !vc) {
		fprintf(stderr, "%s: cannot initialize: %s\n", TARGET,
			gen ? err.msg : "out of memory");
		return 1;
	}
	heap = ft_heap_enabled(vc);
	return 0;
}

static void decode_failed(const jp_err *err, const uint8_t *data, size_t size)
{
	char msg[1200];
	jp_err_format(err, msg, sizeof msg);
	ft_finding_text(FT_GEN_ERROR, TARGET,
			"the generator failed to decode an input", msg,
			(const char *)data, size);
}

/* The fast tier: concrete differential runs. */
static void fast_tier(const ir_trace *orig, const ir_trace *opt,
		      const gen_example *ex, rng *r)
{
	ft_inputs in;
	jp_err err;
	if (ft_make_inputs(orig, ex->inputs, r, NRANDOM, &in, &err))
		return; /* out of memory: not a finding */
	strbuf why;
	sb_init(&why);
	for (uint32_t k = 0; k < in.n; k++) {
		const uint64_t *x = ft_inputs_at(&in, k);
		bool div = false;
		ft_kind kind = FT_DIV_OUTPUT;
		sb_reset(&why);
		jp_status s =
		    ft_diverges(orig, opt, x, true, &div, &kind, &why, &err);
		ft_counters_get()->runs++;
		if (s == JP_ENOMEM)
			break;
		if (s)
			ft_finding(FT_INTERP_ERROR, TARGET,
				   "the interpreter failed", err.msg, orig, opt,
				   x, false);
		if (div) {
			sb_printf(&why,
				  "\n(found by concrete execution, input "
				  "vector %u)",
				  k);
			ft_finding(kind, TARGET,
				   "the optimized trace behaves differently",
				   why.buf, orig, opt, x, true);
		}
	}
	sb_release(&why);
	ft_inputs_free(&in);
}

/* A random heap world for the input vector X of ORIG: the input objects
 * start with random fields (integers, or NULL or an input reference for
 * reference fields), and the calls return random values.  ALIAS makes
 * every reference input the first non-null one. */
typedef struct heap_world {
	uint64_t args[MAX_INPUTS + 1];
	interp_cell init[MAX_CELLS];
	uint64_t rets[MAX_CALLS];
	interp_env env;
} heap_world;

static bool field_is_ref(const ir_trace *t, const char *name)
{
	for (uint32_t i = 0; i < t->nops; i++) {
		const ir_op *op = &t->ops[i];
		if (op->opc == IR_GETFIELD_GC_R &&
		    !strcmp(t->strs[op->descr], name))
			return true;
		if (op->opc == IR_SETFIELD_GC &&
		    !strcmp(t->strs[op->descr], name) &&
		    ir_val(t, op->args[1])->kind == 'r')
			return true;
	}
	return false;
}

static void heap_world_make(heap_world *w, const ir_trace *orig,
			    const uint64_t *x, bool alias, rng *r)
{
	memset(w, 0, sizeof *w);
	uint32_t n = orig->ninputs <= MAX_INPUTS ? orig->ninputs : MAX_INPUTS;
	uint64_t first = 0;
	for (uint32_t j = 0; j < n; j++) {
		w->args[j] = x[j];
		bool ref = ir_val(orig, orig->inputs[j])->kind == 'r';
		if (ref && alias && first)
			w->args[j] = first;
		if (ref && !first)
			first = x[j];
	}
	uint32_t ni = 0;
	for (uint32_t j = 0; j < n; j++) {
		if (ir_val(orig, orig->inputs[j])->kind != 'r' || !w->args[j])
			continue;
		for (uint32_t i = 0; i < orig->nops && ni < MAX_CELLS; i++) {
			const ir_op *op = &orig->ops[i];
			if (!ir_op_has(op->opc, IRF_HEAP) ||
			    op->opc == IR_NEW ||
			    op->opc == IR_NEW_WITH_VTABLE ||
			    ir_op_has(op->opc, IRF_CALL))
				continue;
			const char *f = orig->strs[op->descr];
			uint64_t v = rng_next(r);
			if (field_is_ref(orig, f))
				v = rng_chance(r, 1, 2) ? 0 : w->args[j];
			w->init[ni++] = (interp_cell){0, w->args[j], f, v};
		}
	}
	for (uint32_t k = 0; k < MAX_CALLS; k++)
		w->rets[k] =
		    rng_chance(r, 1, 2) ? rng_below(r, 4) : rng_next(r);
	w->env = (interp_env){.args = w->args,
			      .nargs = n,
			      .init = w->init,
			      .ninit = ni,
			      .call_ret = w->rets,
			      .ncall_ret = MAX_CALLS};
}

/* The fast tier of heap traces: the heap model's concrete comparison in
 * the default world and in a random one, per input vector. */
static void heap_fast_tier(const ir_trace *orig, const ir_trace *opt,
			   const gen_example *ex, rng *r)
{
	ft_inputs in;
	jp_err err;
	if (orig->ninputs > MAX_INPUTS ||
	    ft_make_inputs(orig, ex->inputs, r, NRANDOM, &in, &err))
		return; /* out of memory: not a finding */
	strbuf why;
	sb_init(&why);
	heap_world w;
	for (uint32_t k = 0; k < in.n; k++) {
		const uint64_t *x = ft_inputs_at(&in, k);
		for (int variant = 0; variant < 3; variant++) {
			heap_world_make(&w, orig, x, variant == 2, r);
			if (variant == 0) {
				w.env.ninit = 0;
				w.env.ncall_ret = 0;
			}
			bool div = false;
			sb_reset(&why);
			jp_status s = hp_run_diverges(orig, opt, &w.env, &div,
						      &why, &err);
			ft_counters_get()->runs++;
			if (s == JP_ENOMEM || s == JP_EUNSUPPORTED)
				goto out;
			if (s)
				ft_finding(FT_INTERP_ERROR, TARGET,
					   "the interpreter failed", err.msg,
					   orig, opt, w.args, false);
			if (div) {
				sb_printf(&why,
					  "\n(found by concrete execution with "
					  "the heap model's comparison, input "
					  "vector %u, world %d: %s)",
					  k, variant,
					  variant == 0 ? "the default heap"
					  : variant == 1
					      ? "random fields and call results"
					      : "aliased references, random "
						"fields and call results");
				ft_finding(FT_DIV_OUTPUT, TARGET,
					   "the optimized trace behaves "
					   "differently (heap)",
					   why.buf, orig, opt, w.args, true);
			}
		}
	}
out:
	sb_release(&why);
	ft_inputs_free(&in);
}

/* The slow tier: the Z3 check under a fixed resource limit. */
static void slow_tier(const ir_trace *orig, const ir_trace *opt,
		      const gen_example *ex)
{
	const ft_env *e = ft_env_get();
	ft_counters *c = ft_counters_get();
	ver_opts vo = ver_default_opts();
	vo.mode = VER_MODE_AUTO;
	vo.timeout_ms = e->timeout_ms;
	vo.rlimit = e->rlimit;
	/* A fork per hard query would slow libFuzzer down and copy its
	 * coverage state; the target's own memory limit guards it. */
	vo.isolate = false;
	vo.seed = 0;
	vo.examples = ex->inputs;
	vo.nexamples = 1;
	ver_result res;
	memset(&res, 0, sizeof res);
	jp_err err;
	jp_err_clear(&err);
	jp_status s = ver_check(vc, orig, opt, &vo, &res, &err);
	c->checks++;
	/* A heap trace the verifier cannot model is undecided, not a bug. */
	if (s == JP_ENOMEM || s == JP_ELIMIT ||
	    (s == JP_EUNSUPPORTED && ft_has_heap_ops(orig))) {
		c->unknown++;
		return;
	}
	if (s) {
		char msg[1200];
		jp_err_format(&err, msg, sizeof msg);
		ft_finding(s == JP_EINPUT ? FT_GUARD_ORDER : FT_VERIFIER_ERROR,
			   TARGET,
			   s == JP_EINPUT ? "the optimizer broke the guard "
					    "order (verifier rejects the pair)"
					  : "the verifier failed",
			   msg, orig, opt, ex->inputs, s == JP_EINPUT);
	}
	switch (res.verdict) {
	case VER_PROVED: c->proved++; break;
	case VER_UNKNOWN: c->unknown++; break;
	case VER_REFUTED:
		c->refuted++;
		ft_finding(FT_REFUTED, TARGET,
			   "the verifier refutes the optimized trace (Z3 "
			   "tier)",
			   res.cex_text ? res.cex_text : "(no report)", orig,
			   opt, res.inputs ? res.inputs : ex->inputs, true);
	}
	ver_result_free(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const ft_env *e = ft_env_get();
	ft_counters *c = ft_counters_get();
	if (!gen)
		return 0;
	c->inputs++;
	rng r;
	rng_from_bytes(&r, data, size);
	ir_trace *orig = NULL, *opt = NULL;
	gen_example ex;
	jp_err err;
	jp_status s = ft_decode_trace(gen, &r, MAX_LEN, MAX_INPUTS, heap, &orig,
				      &ex, &err);
	if (s == JP_ENOMEM)
		return 0;
	if (s)
		decode_failed(&err, data, size);
	opt_stats st;
	s = opt_run(orig, &e->cfg, &opt, &st, &err);
	/* An optimizer without heap support may refuse heap ops: a gap, not
	 * a miscompilation.  On integer traces it is a finding. */
	if (s == JP_ENOMEM || (s == JP_EUNSUPPORTED && ft_has_heap_ops(orig))) {
		ir_trace_free(orig);
		return 0;
	}
	if (s)
		ft_finding(FT_OPT_ERROR, TARGET,
			   "the optimizer failed on a valid trace", err.msg,
			   orig, NULL, ex.inputs, true);
	if (ir_validate(opt, "<optimized>", &err))
		ft_finding(FT_OPT_INVALID, TARGET,
			   "the optimizer produced an invalid trace", err.msg,
			   orig, opt, ex.inputs, true);
	c->ops_in += ir_count_ops(orig);
	c->ops_out += ir_count_ops(opt);
	/* obl_diverges does not model the heap (fresh objects would compare
	 * by address, heap effects would go unseen): heap traces take the
	 * heap model's concrete comparison, and always the Z3 tier too,
	 * since no concrete world covers everything a call may do. */
	bool is_heap = ft_has_heap_ops(orig) || ft_has_heap_ops(opt);
	if (is_heap)
		heap_fast_tier(orig, opt, &ex, &r);
	else
		fast_tier(orig, opt, &ex, &r);
	if (is_heap ||
	    (e->slow_every && ft_hash(data, size) % e->slow_every == 0))
		slow_tier(orig, opt, &ex);
	ir_trace_free(opt);
	ir_trace_free(orig);
	return 0;
}
