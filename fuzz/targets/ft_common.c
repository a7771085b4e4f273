/* ft_common.c - shared pieces of the libFuzzer targets; see ft_common.h. */
#define _POSIX_C_SOURCE 200809L

#include "ft_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/campaign.h"
#include "ir/print.h"
#include "ir/sem.h"
#include "verify/oblig.h"

/* ---- environment -------------------------------------------------------- */

static ft_env env;
static bool env_ready;

static _Noreturn void env_error(const char *var, const char *msg)
{
	fprintf(stderr, "jitprove fuzz target: %s: %s\n", var, msg);
	exit(2);
}

static uint32_t env_uint(const char *var, uint32_t dflt)
{
	const char *s = getenv(var);
	if (!s || !*s)
		return dflt;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || v > UINT32_MAX || *s == '-')
		env_error(var, "expected a non-negative integer");
	return (uint32_t)v;
}

static void env_load(void)
{
	jp_err err;
	env.cfg = opt_default_config();
	env.inject = getenv("JITPROVE_INJECT");
	if (!env.inject || !*env.inject)
		env.inject = "none";
	if (opt_parse_bugs(env.inject, &env.cfg.bugs, &err))
		env_error("JITPROVE_INJECT", err.msg);
	env.passes = getenv("JITPROVE_PASSES");
	if (!env.passes || !*env.passes)
		env.passes = "all";
	if (opt_parse_passes(env.passes, &env.cfg.passes, &err))
		env_error("JITPROVE_PASSES", err.msg);
	env.slow_every = env_uint("JITPROVE_SLOW_EVERY", 32);
	env.rlimit = env_uint("JITPROVE_RLIMIT", 200000);
	env.timeout_ms = env_uint("JITPROVE_TIMEOUT_MS", 10000);
	env.repro_dir = getenv("JITPROVE_REPRO_DIR");
	if (!env.repro_dir || !*env.repro_dir)
		env.repro_dir = ".";
	const char *h = getenv("JITPROVE_HEAP");
	if (!h || !*h || !strcmp(h, "auto"))
		env.heap = 2;
	else if (!strcmp(h, "0") || !strcmp(h, "1"))
		env.heap = h[0] - '0';
	else
		env_error("JITPROVE_HEAP", "expected 0, 1 or auto");
	const char *q = getenv("JITPROVE_FUZZ_QUIET");
	env.quiet = q && *q && strcmp(q, "0") != 0;
	env_ready = true;
}

const ft_env *ft_env_get(void)
{
	if (!env_ready)
		env_load();
	return &env;
}

uint64_t ft_hash(const uint8_t *data, size_t size)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < size; i++) {
		h ^= data[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* ---- counters ---------------------------------------------------------- */

static ft_counters counters;

static void print_counters(void)
{
	const ft_counters *c = &counters;
	fprintf(stderr,
		"jitprove fuzz stats: %llu inputs, %llu concrete runs, %llu "
		"checks (%llu proved, %llu refuted, %llu unknown), ops %llu -> "
		"%llu\n",
		(unsigned long long)c->inputs, (unsigned long long)c->runs,
		(unsigned long long)c->checks, (unsigned long long)c->proved,
		(unsigned long long)c->refuted, (unsigned long long)c->unknown,
		(unsigned long long)c->ops_in, (unsigned long long)c->ops_out);
}

ft_counters *ft_counters_get(void)
{
	static bool registered;
	if (!registered) {
		registered = true;
		const char *s = getenv("JITPROVE_FUZZ_STATS");
		if (s && *s && strcmp(s, "0") != 0)
			atexit(print_counters);
	}
	return &counters;
}

/* ---- decoding ----------------------------------------------------------- */

enum { HEAP_MAX_LEN = 24 };

bool ft_heap_enabled(ver_ctx *vc)
{
	const ft_env *e = ft_env_get();
	if (e->heap != 2)
		return e->heap == 1;
	return vc && camp_verifier_has_heap(vc);
}

bool ft_has_heap_ops(const ir_trace *t)
{
	for (uint32_t i = 0; i < t->nops; i++)
		if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_HEAP))
			return true;
	for (uint32_t i = 0; i < t->ninputs; i++)
		if (ir_val(t, t->inputs[i])->kind != 'i')
			return true;
	return false;
}

jp_status ft_decode_trace(gen_ctx *g, rng *r, uint32_t max_len,
			  uint32_t max_inputs, bool heap, ir_trace **out,
			  gen_example *ex, jp_err *err)
{
	static const int widths[] = {64, 32, 16, 8};
	gen_opts o = gen_default_opts();
	o.width = widths[rng_below(r, 4)];
	/* Not the toy profile: it is for external optimizers that speak the
	 * toy spelling, and its objects and escapes are heap ops whatever
	 * HEAP says (the seed corpora were also written before it). */
	o.profile = (gen_profile)rng_below(r, GEN_PROFILE_TOY);
	o.min_len = 1;
	o.max_len = max_len;
	o.min_inputs = 1;
	o.max_inputs = max_inputs;
	/* Heap traces cost the Z3 tier about ten times an integer trace, so
	 * one decoded trace in four may use heap ops, and those are kept
	 * shorter.  The choice takes a byte only when heap ops are allowed. */
	o.heap = heap && rng_chance(r, 1, 4);
	if (o.heap && o.max_len > HEAP_MAX_LEN)
		o.max_len = HEAP_MAX_LEN;
	return gen_trace_rng(g, r, &o, out, ex, err);
}

/* ---- input vectors ------------------------------------------------------ */

void ft_inputs_free(ft_inputs *in)
{
	free(in->v);
	in->v = NULL;
	in->n = in->cap = 0;
}

/* Appends one vector (a copy of X); false when out of memory. */
static bool inputs_push(ft_inputs *in, const uint64_t *x)
{
	if (in->n == in->cap) {
		uint32_t cap = in->cap ? in->cap * 2 : 32;
		size_t per = in->ninputs ? in->ninputs : 1;
		uint64_t *v = realloc(in->v, (size_t)cap * per * sizeof *v);
		if (!v)
			return false;
		in->v = v;
		in->cap = cap;
	}
	if (in->ninputs)
		memcpy(in->v + (size_t)in->n * in->ninputs, x,
		       in->ninputs * sizeof *x);
	in->n++;
	return true;
}

/* The edge values of width W, where optimizer bugs live. */
static uint32_t edge_values(int w, uint64_t *e)
{
	uint32_t n = 0;
	e[n++] = 0;
	e[n++] = 1;
	e[n++] = sem_allones(w);
	e[n++] = sem_minint(w);
	e[n++] = sem_maxint(w);
	e[n++] = sem_minint(w) + 1;
	e[n++] = sem_maxint(w) - 1;
	e[n++] = 2;
	e[n++] = sem_mask(w, (uint64_t)-2);
	return n;
}

/* One edge-biased random value of width W. */
static uint64_t random_value(int w, rng *r, const uint64_t *example)
{
	uint64_t e[16];
	uint32_t ne = edge_values(w, e);
	switch (rng_below(r, 5)) {
	case 0: return e[rng_below(r, ne)];
	case 1: return sem_mask(w, (uint64_t)rng_range(r, -16, 16));
	case 2:
		if (example)
			return sem_mask(w, *example +
					       (uint64_t)rng_range(r, -2, 2));
		return sem_mask(w, rng_next(r));
	case 3: {
		int k = (int)rng_below(r, (uint64_t)w);
		return sem_mask(w, (UINT64_C(1) << k) +
				       (uint64_t)rng_range(r, -1, 1));
	}
	default: return sem_mask(w, rng_next(r));
	}
}

static bool input_is_int(const ir_trace *t, uint32_t i)
{
	return ir_val(t, t->inputs[i])->kind == 'i';
}

jp_status ft_make_inputs(const ir_trace *t, const uint64_t *example, rng *r,
			 uint32_t nrandom, ft_inputs *out, jp_err *err)
{
	uint32_t n = t->ninputs;
	int w = t->width;
	memset(out, 0, sizeof *out);
	out->ninputs = n;
	uint64_t *x = calloc(n ? n : 1, sizeof *x);
	uint64_t e[16];
	uint32_t ne = edge_values(w, e);
	bool ok = x != NULL;
	if (ok && example) {
		ok = inputs_push(out, example);
		for (uint32_t i = 0; ok && i < n; i++) {
			if (!input_is_int(t, i))
				continue;
			for (uint32_t k = 0; ok && k < ne + 2; k++) {
				memcpy(x, example, n * sizeof *x);
				x[i] = k < ne	 ? e[k]
				       : k == ne ? sem_mask(w, example[i] + 1)
						 : sem_mask(w, example[i] - 1);
				ok = inputs_push(out, x);
			}
		}
	}
	for (uint32_t k = 0; ok && k < ne; k++) {
		for (uint32_t i = 0; i < n; i++)
			x[i] = input_is_int(t, i) ? e[k]
			       : example	  ? example[i]
						  : 0;
		ok = inputs_push(out, x);
	}
	for (uint32_t k = 0; ok && k < nrandom; k++) {
		for (uint32_t i = 0; i < n; i++)
			x[i] = input_is_int(t, i)
				   ? random_value(w, r,
						  example ? &example[i] : NULL)
			       : example ? example[i]
					 : 0;
		ok = inputs_push(out, x);
	}
	free(x);
	if (!ok) {
		ft_inputs_free(out);
		return jp_fail(err, JP_ENOMEM, "out of memory making inputs");
	}
	return JP_OK;
}

/* ---- differential runs -------------------------------------------------- */

/* The kind of a divergence of the runs RO (of ORIG) and RP (of OPT). */
static ft_kind divergence_kind(const ir_trace *orig, const ir_trace *opt,
			       const interp_result *ro, const interp_result *rp)
{
	bool ofail = ro->outcome == INTERP_GUARD_FAIL;
	bool pfail = rp->outcome == INTERP_GUARD_FAIL;
	if (pfail && !ofail)
		return FT_DIV_OPT_GUARD;
	if (ofail && !pfail)
		return FT_DIV_ORIG_GUARD;
	if (ofail && pfail)
		return FT_DIV_OTHER_GUARD;
	return obl_ends_differ(orig, opt) || ro->outcome != rp->outcome
		   ? FT_DIV_END
		   : FT_DIV_OUTPUT;
}

jp_status ft_diverges(const ir_trace *orig, const ir_trace *opt,
		      const uint64_t *x, bool aligned, bool *div, ft_kind *kind,
		      strbuf *why, jp_err *err)
{
	interp_env ev;
	memset(&ev, 0, sizeof ev);
	ev.args = x;
	ev.nargs = orig->ninputs;
	interp_result ro, rp;
	memset(&ro, 0, sizeof ro);
	memset(&rp, 0, sizeof rp);
	jp_status s = interp_run(orig, &ev, &ro, err);
	if (!s)
		s = interp_run(opt, &ev, &rp, err);
	if (!s)
		*div = obl_diverges(aligned ? VER_MODE_ALIGNED : VER_MODE_TRACE,
				    false, orig, opt, &ro, &rp, why);
	if (!s && *div && kind)
		*kind = divergence_kind(orig, opt, &ro, &rp);
	interp_result_free(&ro);
	interp_result_free(&rp);
	return s;
}

/* ---- findings ----------------------------------------------------------- */

static const char *const kind_descs[FT_KIND_COUNT] = {
#define KIND(id, fn, desc) [FT_##id] = desc,
#include "ft_kinds.def"
#undef KIND
};

const char *ft_kind_desc(ft_kind k)
{
	return (unsigned)k < FT_KIND_COUNT ? kind_descs[k] : "?";
}

/* One crash site per kind; see ft_kind.  Each writes its own kind to a
 * volatile so no two bodies are identical (a compiler may merge identical
 * functions), and they are called through a volatile table so none is
 * inlined into ft_crash: the symbolized stack shows ft_crash_<fn>. */
static volatile int crash_kind;

#define KIND(id, fn, desc)                                                     \
	static void ft_crash_##fn(void)                                        \
	{                                                                      \
		crash_kind = FT_##id;                                          \
		abort();                                                       \
	}
#include "ft_kinds.def"
#undef KIND

static void (*volatile const crash_sites[FT_KIND_COUNT])(void) = {
#define KIND(id, fn, desc) [FT_##id] = ft_crash_##fn,
#include "ft_kinds.def"
#undef KIND
};

static _Noreturn void ft_crash(ft_kind kind)
{
	fprintf(stderr, "---- finding kind: %s\n", ft_kind_desc(kind));
	fflush(stderr);
	if ((unsigned)kind < FT_KIND_COUNT && crash_sites[kind])
		crash_sites[kind]();
	abort();
}

static void print_args(const ir_trace *t, const uint64_t *x, strbuf *sb)
{
	sb_puts(sb, "# args: ");
	for (uint32_t i = 0; i < t->ninputs; i++) {
		if (i)
			sb_puts(sb, ", ");
		if (ir_val(t, t->inputs[i])->kind == 'i')
			ir_print_int(t->width, x[i], sb);
		else
			sb_printf(sb, "0x%" PRIx64, x[i]);
	}
	sb_putc(sb, '\n');
}

/* The trace as a file: a header saying how to read it, the example inputs,
 * then the trace. */
static void trace_file(const char *what, const ir_trace *t,
		       const uint64_t *inputs, strbuf *sb)
{
	sb_printf(sb, "# %s trace, width %d (read with --width %d)\n", what,
		  t->width, t->width);
	if (inputs)
		print_args(t, inputs, sb);
	ir_print(t, sb);
}

/* Writes TEXT to DIR/NAME; returns false on failure (reported, not fatal:
 * the traces are printed anyway). */
static bool write_file(const char *dir, const char *name, const char *text,
		       char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fputs(text, f) >= 0;
	ok = (fclose(f) == 0) && ok;
	return ok;
}

_Noreturn void ft_finding(ft_kind kind, const char *target, const char *title,
			  const char *details, const ir_trace *orig,
			  const ir_trace *opt, const uint64_t *inputs,
			  bool reducible)
{
	const ft_env *e = ft_env_get();
	strbuf o, p;
	sb_init(&o);
	sb_init(&p);
	trace_file("original", orig, inputs, &o);
	if (opt)
		trace_file("optimized", opt, inputs, &p);
	uint64_t h = ft_hash((const uint8_t *)o.buf, o.len) ^
		     ft_hash((const uint8_t *)p.buf, p.len);
	char oname[96], pname[96], opath[1024], ppath[1024];
	snprintf(oname, sizeof oname, "jitprove-%s-%016" PRIx64 ".orig.trace",
		 target, h);
	snprintf(pname, sizeof pname, "jitprove-%s-%016" PRIx64 ".opt.trace",
		 target, h);
	bool wrote =
	    write_file(e->repro_dir, oname, o.buf, opath, sizeof opath);
	if (opt)
		wrote = write_file(e->repro_dir, pname, p.buf, ppath,
				   sizeof ppath) &&
			wrote;
	if (!e->quiet) {
		fprintf(stderr, "\n==== jitprove %s: %s\n", target, title);
		fprintf(stderr, "injected bugs: %s\n", e->inject);
		if (details && *details)
			fprintf(stderr, "%s%s", details,
				details[strlen(details) - 1] == '\n' ? ""
								     : "\n");
		fprintf(stderr, "---- original trace ----\n%s", o.buf);
		if (opt)
			fprintf(stderr, "---- optimized trace ----\n%s", p.buf);
		if (wrote && opt)
			fprintf(stderr,
				"---- reproduce with:\n  jitprove check "
				"--width %d %s %s\n",
				orig->width, opath, ppath);
		if (wrote && reducible)
			fprintf(stderr,
				"---- reduce with:\n  jitprove reduce --width "
				"%d --inject %s --passes %s %s\n",
				orig->width, e->inject, e->passes, opath);
		else if (wrote)
			fprintf(stderr, "---- written to %s\n", opath);
		else
			fprintf(stderr,
				"---- (could not write the traces to "
				"%s; set JITPROVE_REPRO_DIR)\n",
				e->repro_dir);
		fflush(stderr);
	}
	sb_release(&o);
	sb_release(&p);
	ft_crash(kind);
}

_Noreturn void ft_finding_text(ft_kind kind, const char *target,
			       const char *title, const char *details,
			       const char *text, size_t len)
{
	if (!ft_env_get()->quiet) {
		fprintf(stderr, "\n==== jitprove %s: %s\n", target, title);
		if (details && *details)
			fprintf(stderr, "%s\n", details);
		fprintf(stderr, "---- input (%zu bytes) ----\n", len);
		fwrite(text, 1, len, stderr);
		fprintf(stderr, "\n---- end of input ----\n");
		fflush(stderr);
	}
	ft_crash(kind);
}
