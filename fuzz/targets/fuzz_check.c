/*
 * fuzz_check.c - libFuzzer target for the verifier itself: the Z3 encoder,
 * the obligations and the counterexample machinery.
 *
 * The bytes decode (ft_decode_trace) to a trace A and then to a variant B
 * of A: the optimizer's output under random passes and injected bugs, or
 * A with one local edit (an op replaced by another of the same signature, a
 * constant changed, arguments swapped, a guard flipped), or A printed and
 * parsed back.  Every variant has A's inputs, so the pair is checkable.
 * The verifier runs with its own encoder self-check on and a fixed Z3
 * resource limit (deterministic verdicts), and these must hold:
 *   - A checked against itself, and against its printed-and-parsed copy,
 *     is proved;
 *   - every counterexample replays: the two traces really diverge on it
 *     (independently of the verifier, by interp_run + obl_diverges);
 *   - a proved pair does not diverge on the example inputs, their edge
 *     variants and 64 random edge-biased vectors;
 *     (these two only for integer traces: obl_diverges does not model the
 *     heap, and the verifier replays heap counterexamples itself)
 *   - aligned mode proved implies trace mode is not refuted (aligned
 *     equivalence is the stronger property);
 *   - for local edits (same guards on both sides), checking (A, B) and
 *     (B, A) gives the same decided verdict (aligned equivalence is then
 *     symmetric);
 *   - ver_check never fails with an internal error.
 * A violation aborts with both traces printed and written to files.
 */
#include <stdio.h>
#include <string.h>

#include "ft_common.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/sem.h"
#include "ir/validate.h"
#include "verify/check.h"

#define TARGET "fuzz_check"

enum {
	MAX_LEN = 16, /* small traces: the solver runs on every input */
	MAX_INPUTS = 3,
	NRANDOM = 64, /* random vectors that must agree on a proof */
};

typedef enum mutation {
	MUT_OPTIMIZE, /* B = opt_run(A) with random passes and bugs */
	MUT_OPCODE,   /* an op replaced by another of the same signature */
	MUT_CONST,    /* a constant argument changed */
	MUT_SWAP,     /* the arguments of a binary op swapped */
	MUT_GUARD,    /* guard_true <-> guard_false, and the ovf guards */
	MUT_REPARSE,  /* A printed and parsed back: must be proved */
	MUT_COUNT
} mutation;

static const char *const mutation_names[MUT_COUNT] = {
    "optimizer output",	 "opcode replaced", "constant changed",
    "arguments swapped", "guard flipped",   "printed and re-parsed"};

static gen_ctx *gen;
static ver_ctx *vc;
static bool heap; /* decode heap traces too (ft_heap_enabled) */

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
	(void)argc;
	(void)argv;
	ft_env_get();
	ft_counters_get();
	gen = gen_ctx_new();
	jp_err err;
	vc = ver_ctx_new(&err);
	if (!gen || !vc) {
		fprintf(stderr, "%s: cannot initialize: %s\n", TARGET,
			vc ? "out of memory" : err.msg);
		return 1;
	}
	heap = ft_heap_enabled(vc);
	return 0;
}

/* ---- mutations ---------------------------------------------------------- */

/* Whether OPC takes and returns integers with NARGS arguments and no
 * other effect: such ops can replace each other in place. */
static bool plain_int_op(ir_opcode opc, int nargs)
{
	const ir_opinfo *oi = ir_opinfo_of(opc);
	if (!(oi->flags & IRF_PURE) || oi->nargs != nargs || oi->result != 'i')
		return false;
	for (int i = 0; i < nargs; i++)
		if (oi->args[i] != 'i')
			return false;
	return true;
}

/* Op indices of T satisfying PRED, at most CAP of them. */
static uint32_t ops_where(const ir_trace *t,
			  bool (*pred)(const ir_trace *, uint32_t),
			  uint32_t *idx, uint32_t cap)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nops && n < cap; i++)
		if (pred(t, i))
			idx[n++] = i;
	return n;
}

static bool is_plain(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	return plain_int_op((ir_opcode)op->opc, (int)op->nargs);
}

static bool has_const_arg(const ir_trace *t, uint32_t i)
{
	const ir_op *op = &t->ops[i];
	if (!is_plain(t, i))
		return false;
	for (uint32_t j = 0; j < op->nargs; j++)
		if (ir_val(t, op->args[j])->tag == IR_VAL_CONST_INT)
			return true;
	return false;
}

static bool is_binary(const ir_trace *t, uint32_t i)
{
	return is_plain(t, i) && t->ops[i].nargs == 2;
}

/* Guards that have an opposite of the same shape. */
static ir_opcode opposite_guard(ir_opcode opc)
{
	switch (opc) {
	case IR_GUARD_TRUE: return IR_GUARD_FALSE;
	case IR_GUARD_FALSE: return IR_GUARD_TRUE;
	case IR_GUARD_NO_OVERFLOW: return IR_GUARD_OVERFLOW;
	case IR_GUARD_OVERFLOW: return IR_GUARD_NO_OVERFLOW;
	default: return opc;
	}
}

static bool is_flippable_guard(const ir_trace *t, uint32_t i)
{
	ir_opcode opc = (ir_opcode)t->ops[i].opc;
	return opposite_guard(opc) != opc;
}

/* One local edit of B (a clone of A), chosen by R; false when B has no op
 * the edit applies to. */
static bool edit(ir_trace *b, mutation m, rng *r)
{
	uint32_t idx[64], n;
	switch (m) {
	case MUT_OPCODE: {
		n = ops_where(b, is_plain, idx, 64);
		if (!n)
			return false;
		ir_op *op = &b->ops[idx[rng_below(r, n)]];
		ir_opcode same[IR_OPCODE_COUNT];
		uint32_t ns = 0;
		for (int o = 0; o < IR_OPCODE_COUNT; o++)
			if (o != op->opc &&
			    plain_int_op((ir_opcode)o, (int)op->nargs))
				same[ns++] = (ir_opcode)o;
		if (!ns)
			return false;
		op->opc = (uint16_t)same[rng_below(r, ns)];
		return true;
	}
	case MUT_CONST: {
		n = ops_where(b, has_const_arg, idx, 64);
		if (!n)
			return false;
		uint32_t opi = idx[rng_below(r, n)];
		uint32_t j = 0;
		while (ir_val(b, b->ops[opi].args[j])->tag != IR_VAL_CONST_INT)
			j++;
		uint64_t old = ir_val(b, b->ops[opi].args[j])->cval;
		int w = b->width;
		uint64_t v;
		switch (rng_below(r, 4)) {
		case 0: v = old + 1; break;
		case 1: v = old - 1; break;
		case 2:
			v = old ^ (UINT64_C(1) << rng_below(r, (uint64_t)w));
			break;
		default: v = rng_chance(r, 1, 2) ? sem_minint(w) : 0; break;
		}
		ir_vid c = ir_const_int(b, sem_mask(w, v));
		if (c == IR_NOVAL)
			return false;
		b->ops[opi].args[j] = c;
		return true;
	}
	case MUT_SWAP: {
		n = ops_where(b, is_binary, idx, 64);
		if (!n)
			return false;
		ir_op *op = &b->ops[idx[rng_below(r, n)]];
		ir_vid x = op->args[0];
		op->args[0] = op->args[1];
		op->args[1] = x;
		return true;
	}
	case MUT_GUARD: {
		n = ops_where(b, is_flippable_guard, idx, 64);
		if (!n)
			return false;
		ir_op *op = &b->ops[idx[rng_below(r, n)]];
		op->opc = (uint16_t)opposite_guard((ir_opcode)op->opc);
		return true;
	}
	default: return false;
	}
}

/* A printed and parsed back; NULL when that fails (a finding). */
static ir_trace *reparse(const ir_trace *a)
{
	strbuf sb;
	sb_init(&sb);
	ir_print(a, &sb);
	ir_trace *b = NULL;
	jp_err err;
	ir_parse_opts po = {a->width, false, "<printed>"};
	if (!sb.oom && ir_parse(sb.buf, sb.len, &po, &b, &err))
		ft_finding(FT_PARSER, TARGET,
			   "a generated trace does not parse back", err.msg, a,
			   NULL, NULL, false);
	sb_release(&sb);
	return b;
}

/* Makes the variant B of A; NULL when the mutation does not apply (or out
 * of memory).  *M may change to MUT_OPTIMIZE when no edit applies. */
static ir_trace *variant(const ir_trace *a, mutation *m, rng *r)
{
	if (*m == MUT_REPARSE)
		return reparse(a);
	if (*m != MUT_OPTIMIZE) {
		ir_trace *b = ir_trace_clone(a);
		if (!b)
			return NULL;
		if (edit(b, *m, r)) {
			jp_err err;
			if (ir_validate(b, "<variant>", &err))
				ft_finding(FT_CHECKER, TARGET,
					   "a local edit made an invalid trace "
					   "(fuzz_check bug)",
					   err.msg, a, b, NULL, false);
			return b;
		}
		ir_trace_free(b);
		*m = MUT_OPTIMIZE;
	}
	opt_config cfg = opt_default_config();
	cfg.passes = rng_below(r, (uint64_t)1 << OPT_PASS_COUNT);
	cfg.bugs = rng_chance(r, 1, 2)
		       ? 0
		       : UINT64_C(1) << rng_below(r, OPT_BUG_COUNT);
	ir_trace *b = NULL;
	jp_err err;
	jp_status s = opt_run(a, &cfg, &b, NULL, &err);
	if (s == JP_ENOMEM || (s == JP_EUNSUPPORTED && ft_has_heap_ops(a)))
		return NULL;
	if (s)
		ft_finding(FT_OPT_ERROR, TARGET,
			   "the optimizer failed on a valid trace", err.msg, a,
			   NULL, NULL, false);
	return b;
}

/* ---- the checks --------------------------------------------------------- */

typedef struct pair {
	const ir_trace *a, *b;
	const gen_example *ex;
	mutation m;
	bool heap;	/* a heap pair: obl_diverges cannot judge it, so
			   proofs and counterexamples are not re-run here
			   (the verifier replays them with its heap model) */
	char what[160]; /* "A vs B (opcode replaced), aligned" */
} pair;

static _Noreturn void bad_kind(ft_kind kind, const pair *p, const char *title,
			       const char *why, const uint64_t *x)
{
	char msg[1400];
	snprintf(msg, sizeof msg, "pair: %s\n%s", p->what, why ? why : "");
	ft_finding(kind, TARGET, title, msg, p->a, p->b, x, false);
}

/* A self-consistency check of the verifier failed. */
static _Noreturn void bad(const pair *p, const char *title, const char *why,
			  const uint64_t *x)
{
	bad_kind(FT_CHECKER, p, title, why, x);
}

/* Whether A and B diverge on X (aborting on an interpreter error). */
static bool diverges(const pair *p, const uint64_t *x, bool aligned,
		     strbuf *why)
{
	bool div = false;
	jp_err err;
	ft_counters_get()->runs++;
	if (ft_diverges(p->a, p->b, x, aligned, &div, NULL, why, &err) &&
	    err.status != JP_ENOMEM)
		bad_kind(FT_INTERP_ERROR, p, "the interpreter failed", err.msg,
			 x);
	return div;
}

/* A proof must survive concrete execution on many inputs. */
static void confirm_proof(const pair *p, bool aligned, rng *r)
{
	ft_inputs in;
	jp_err err;
	if (ft_make_inputs(p->a, p->ex ? p->ex->inputs : NULL, r, NRANDOM, &in,
			   &err))
		return;
	strbuf why;
	sb_init(&why);
	for (uint32_t k = 0; k < in.n; k++) {
		const uint64_t *x = ft_inputs_at(&in, k);
		sb_reset(&why);
		if (diverges(p, x, aligned, &why))
			bad(p, "proved, but the traces diverge on an input",
			    why.buf, x);
	}
	sb_release(&why);
	ft_inputs_free(&in);
}

/* Checks the pair in MODE; returns the verdict, or -1 when the pair was
 * not checkable (out of memory, or the verifier rejected an optimizer
 * output that broke the guard order). */
static int check(const pair *p, ver_mode mode, rng *r, uint64_t seed)
{
	const ft_env *e = ft_env_get();
	ft_counters *c = ft_counters_get();
	ver_opts vo = ver_default_opts();
	vo.mode = mode;
	vo.timeout_ms = e->timeout_ms;
	vo.rlimit = e->rlimit;
	/* A fork per hard query would slow libFuzzer down and copy its
	 * coverage state; the target's own memory limit guards it. */
	vo.isolate = false;
	vo.seed = seed;
	vo.self_check = true;
	if (p->ex) {
		vo.examples = p->ex->inputs;
		vo.nexamples = 1;
	}
	ver_result res;
	memset(&res, 0, sizeof res);
	jp_err err;
	jp_err_clear(&err);
	jp_status s = ver_check(vc, p->a, p->b, &vo, &res, &err);
	c->checks++;
	if (s == JP_ENOMEM || s == JP_ELIMIT)
		return -1;
	if (s == JP_EINPUT && p->m == MUT_OPTIMIZE)
		return -1; /* an injected bug may reorder guards */
	if (s == JP_EUNSUPPORTED && ft_has_heap_ops(p->a))
		return -1; /* a heap op the verifier cannot model */
	if (s) {
		char msg[1200];
		jp_err_format(&err, msg, sizeof msg);
		bad_kind(FT_VERIFIER_ERROR, p, "the verifier failed", msg,
			 NULL);
	}
	int v = (int)res.verdict;
	bool aligned = mode != VER_MODE_TRACE;
	if (res.verdict == VER_REFUTED) {
		c->refuted++;
		strbuf why;
		sb_init(&why);
		if (!res.inputs || res.ninputs != p->a->ninputs)
			bad(p, "refuted without a counterexample", NULL, NULL);
		if (!p->heap && !diverges(p, res.inputs, aligned, &why))
			bad(p, "the counterexample does not replay",
			    res.cex_text, res.inputs);
		sb_release(&why);
	} else if (res.verdict == VER_PROVED) {
		c->proved++;
		if (!p->heap)
			confirm_proof(p, aligned, r);
	} else {
		c->unknown++;
	}
	ver_result_free(&res);
	return v;
}

static void describe(pair *p, const char *x, const char *y, ver_mode mode)
{
	snprintf(p->what, sizeof p->what, "%s vs %s (%s), %s", x, y,
		 mutation_names[p->m],
		 mode == VER_MODE_TRACE ? "trace mode" : "aligned mode");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!gen || !vc)
		return 0;
	ft_counters_get()->inputs++;
	rng r;
	rng_from_bytes(&r, data, size);
	ir_trace *a = NULL;
	gen_example ex;
	jp_err err;
	jp_status s =
	    ft_decode_trace(gen, &r, MAX_LEN, MAX_INPUTS, heap, &a, &ex, &err);
	if (s == JP_ENOMEM)
		return 0;
	if (s)
		ft_finding_text(FT_GEN_ERROR, TARGET,
				"the generator failed to decode an input",
				err.msg, (const char *)data, size);
	uint64_t seed = ft_hash(data, size);
	mutation m = (mutation)rng_below(&r, MUT_COUNT);

	/* A against itself. */
	bool hp = ft_has_heap_ops(a);
	pair self = {a, a, &ex, MUT_REPARSE, hp, ""};
	snprintf(self.what, sizeof self.what, "A vs A, aligned mode");
	int v = check(&self, VER_MODE_ALIGNED, &r, seed);
	if (v >= 0 && v != VER_PROVED)
		bad(&self, "a trace checked against itself is not proved",
		    ver_verdict_name((ver_verdict)v), NULL);

	ir_trace *b = variant(a, &m, &r);
	if (!b) {
		ir_trace_free(a);
		return 0;
	}
	pair ab = {a, b, &ex, m, hp || ft_has_heap_ops(b), ""};
	describe(&ab, "A", "B", VER_MODE_ALIGNED);
	int va = check(&ab, VER_MODE_ALIGNED, &r, seed);
	if (m == MUT_REPARSE && va >= 0 && va != VER_PROVED)
		bad(&ab,
		    "a trace checked against its re-parsed copy is not "
		    "proved",
		    ver_verdict_name((ver_verdict)va), NULL);
	describe(&ab, "A", "B", VER_MODE_TRACE);
	int vt = check(&ab, VER_MODE_TRACE, &r, seed);
	if (va == VER_PROVED && vt == VER_REFUTED)
		bad(&ab, "aligned mode proved what trace mode refutes", NULL,
		    NULL);
	if (m != MUT_OPTIMIZE && m != MUT_REPARSE) {
		pair ba = {b, a, NULL, m, ab.heap, ""};
		describe(&ba, "B", "A", VER_MODE_ALIGNED);
		int vb = check(&ba, VER_MODE_ALIGNED, &r, seed);
		if (va >= 0 && vb >= 0 && va != VER_UNKNOWN &&
		    vb != VER_UNKNOWN && va != vb)
			bad(&ab, "checking (A, B) and (B, A) disagree",
			    va == VER_PROVED ? "A vs B proved, B vs A refuted"
					     : "A vs B refuted, B vs A proved",
			    NULL);
	}
	ir_trace_free(b);
	ir_trace_free(a);
	return 0;
}
