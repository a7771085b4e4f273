/*
 * test_opt_fuzz.c - differential testing of the optimizer against the
 * interpreter on random traces (fuzz/gen.h), without the verifier.
 *
 * For every generated trace, the optimized trace must behave like the
 * original on the generator's example inputs (which run the whole trace)
 * and on edge and random inputs (every input value at width 8 when there
 * is one input).  Each trace is optimized with all passes and with a
 * random subset of them, so each pass is also tested without the others'
 * help.  JP_OPT_FUZZ_N=<traces per configuration> runs longer;
 * JP_OPT_FUZZ_BUGS=<bug,...> injects bugs (to see that this test finds
 * them; it then fails, as it should).
 */
#include "fuzz/gen.h"
#include "test_opt_util.h"

static int traces_per_config(void)
{
	const char *s = getenv("JP_OPT_FUZZ_N");
	return s && atoi(s) > 0 ? atoi(s) : 120;
}

static void report(const ir_trace *t, const ir_trace *o, const uint64_t *wit,
		   uint64_t seed, const char *passes)
{
	char *a = tu_print(t), *b = tu_print(o);
	fprintf(stderr, "seed %llu passes %s: divergence on",
		(unsigned long long)seed, passes);
	for (uint32_t i = 0; i < t->ninputs; i++)
		fprintf(stderr, " %lld",
			(long long)sem_signed(t->width, wit[i]));
	fprintf(stderr, "\n--- input\n%s--- optimized\n%s", a, b);
	free(a);
	free(b);
}

static bool check_one(const ir_trace *t, const gen_example *ex, uint64_t seed,
		      const char *passes)
{
	ir_trace *o = tu_opt(t, passes, getenv("JP_OPT_FUZZ_BUGS"), NULL);
	if (!o) {
		fprintf(stderr, "seed %llu: opt_run failed\n",
			(unsigned long long)seed);
		return false;
	}
	uint64_t wit[64];
	bool bad = false;
	if (ex && t->ninputs <= 64) {
		memcpy(wit, ex->inputs, t->ninputs * sizeof *wit);
		bad = tu_same_on(t, o, wit) != 1;
	}
	if (!bad)
		bad = t->ninputs <= 64 && tu_find_divergence(t, o, wit);
	if (bad)
		report(t, o, wit, seed, passes);
	ir_trace_free(o);
	return !bad;
}

static const char *random_passes(uint64_t r, char *buf, size_t size)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int p = 0; p < OPT_PASS_COUNT; p++)
		if ((r >> p) & 1)
			off += (size_t)snprintf(buf + off, size - off, "%s%s",
						off ? "," : "",
						opt_pass_name((opt_pass)p));
	return off ? buf : "none";
}

static void run(int width, gen_profile profile, int n)
{
	gen_ctx *g = gen_ctx_new();
	gen_opts go = gen_default_opts();
	go.width = width;
	go.profile = profile;
	go.min_len = 5;
	go.max_len = 40;
	go.min_inputs = 1;
	go.max_inputs = width == 8 ? 2 : 3;
	int failed = 0;
	char buf[128];
	for (int i = 0; i < n && failed < 3; i++) {
		uint64_t seed = (uint64_t)width * 1000003u +
				(uint64_t)profile * 7919u + (uint64_t)i;
		ir_trace *t = NULL;
		gen_example ex;
		jp_err err;
		if (gen_trace(g, seed, &go, &t, &ex, &err)) {
			fprintf(stderr, "gen_trace: %s\n", err.msg);
			failed++;
			continue;
		}
		if (!check_one(t, &ex, seed, "all"))
			failed++;
		else if (!check_one(t, &ex, seed,
				    random_passes(tu_rand(), buf, sizeof buf)))
			failed++;
		ir_trace_free(t);
	}
	gen_ctx_free(g);
	if (failed)
		fprintf(stderr, "width %d profile %s: %d failures\n", width,
			gen_profile_name(profile), failed);
	CHECK(failed == 0);
}

int main(void)
{
	int n = traces_per_config();
	for (int p = 0; p < GEN_PROFILE_COUNT; p++) {
		run(8, (gen_profile)p, n);
		run(64, (gen_profile)p, n / 2);
	}
	run(16, GEN_PROFILE_ALL, n / 4);
	run(32, GEN_PROFILE_BOUNDS, n / 4);
	return check_summary("test_opt_fuzz");
}
