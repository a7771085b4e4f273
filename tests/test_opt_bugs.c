/*
 * test_opt_bugs.c - the injectable bugs and their reproducers.
 *
 * For every bug of passes/bugs.def, corpus/bugs/<name>/ holds orig.trace,
 * opt.trace (the output of `jitprove opt --inject <name> orig.trace`) and
 * expect ("counterexample").  This test checks that
 *   - the committed opt.trace is what the optimizer prints today with the
 *     bug switched on (so the pair stays a real reproducer);
 *   - without the bug the output is different (the bug matters here);
 *   - orig.trace and opt.trace really diverge on some input, found by
 *     running both in the interpreter on edge values;
 *   - orig.trace and the output without the bug do not diverge there.
 * Reproducers that touch the heap are searched with the heap-aware oracle
 * (test_opt_heap_util.h: aliasing inputs, initial heaps, call effects,
 * heaps compared at calls).
 * Every test runs in the repository root (tests/CMakeLists.txt).
 */
#include "test_opt_heap_util.h"

static bool touches_heap(const ir_trace *t)
{
	for (uint32_t i = 0; t && i < t->ninputs; i++)
		if (t->vals[t->inputs[i]].kind == 'r')
			return true;
	for (uint32_t i = 0; t && i < t->nops; i++)
		if (ir_op_has((ir_opcode)t->ops[i].opc, IRF_HEAP))
			return true;
	return false;
}

static char *read_text(const char *path)
{
	char *text = NULL;
	size_t len;
	jp_err err;
	if (ir_read_file(path, &text, &len, &err)) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		return NULL;
	}
	return text;
}

static void check_bug(opt_bug b)
{
	const char *name = opt_bug_name(b);
	char path[256];
	snprintf(path, sizeof path, "corpus/bugs/%s/orig.trace", name);
	char *orig_src = read_text(path);
	snprintf(path, sizeof path, "corpus/bugs/%s/opt.trace", name);
	char *opt_src = read_text(path);
	snprintf(path, sizeof path, "corpus/bugs/%s/expect", name);
	char *expect = read_text(path);
	CHECK(orig_src && opt_src && expect);
	ir_trace *orig = orig_src ? tu_parse(orig_src, 64) : NULL;
	bool heap = touches_heap(orig);
	CHECK(expect && strstr(expect, "counterexample"));
	ir_trace *committed = opt_src ? tu_parse(opt_src, 64) : NULL;
	ir_trace *buggy = orig ? tu_opt(orig, NULL, name, NULL) : NULL;
	ir_trace *good = orig ? tu_opt(orig, NULL, NULL, NULL) : NULL;
	char *s_committed = committed ? tu_print(committed) : NULL;
	char *s_buggy = buggy ? tu_print(buggy) : NULL;
	char *s_good = good ? tu_print(good) : NULL;
	bool regen = s_committed && s_buggy && !strcmp(s_committed, s_buggy);
	if (!regen)
		fprintf(
		    stderr,
		    "%s: opt.trace is not today's output with the bug:\n%s\n",
		    name, s_buggy ? s_buggy : "(error)");
	CHECK(regen);
	bool matters = s_buggy && s_good && strcmp(s_buggy, s_good);
	if (!matters)
		fprintf(stderr, "%s: the bug does not change the output\n",
			name);
	CHECK(matters);
	uint64_t wit[64];
	bool diverges = orig && committed && orig->ninputs <= 64 &&
			(heap ? hu_find_divergence(orig, committed, 2000)
			      : tu_find_divergence(orig, committed, wit));
	if (!diverges)
		fprintf(stderr, "%s: no input makes the pair diverge\n", name);
	CHECK(diverges);
	bool good_same = orig && good &&
			 !(heap ? hu_find_divergence(orig, good, 2000)
				: tu_find_divergence(orig, good, wit));
	CHECK(good_same);
	free(orig_src);
	free(opt_src);
	free(expect);
	free(s_committed);
	free(s_buggy);
	free(s_good);
	ir_trace_free(orig);
	ir_trace_free(committed);
	ir_trace_free(buggy);
	ir_trace_free(good);
}

int main(void)
{
	for (int b = 0; b < OPT_BUG_COUNT; b++)
		check_bug((opt_bug)b);
	return check_summary("test_opt_bugs");
}
