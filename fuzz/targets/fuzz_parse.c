/*
 * fuzz_parse.c - libFuzzer target: any bytes through the parser, the
 * validator, the printer and the interpreter.
 *
 * The bytes are trace text as a user would write it (the dictionary
 * fuzz_parse.dict holds the syntax's tokens).  Each input is parsed twice,
 * at width 64 with unknown ops refused and at width 8 with unknown ops read
 * as opaque calls, which exercises both literal-range checks and both
 * op-name paths.  What must hold (a violation aborts, which is how a
 * libFuzzer target reports a finding; ASan/UBSan report memory errors,
 * leaks and undefined behaviour on their own):
 *   - ir_parse fails cleanly (JP_EINPUT or JP_EUNSUPPORTED with a message
 *     and no trace) or returns a trace ir_validate accepts;
 *   - the printed trace parses back, and printing that gives the same
 *     text (the printer's fixed point), as does printing a clone;
 *   - the interpreter runs the trace on all-zero and all-one inputs
 *     without an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft_common.h"
#include "ir/interp.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/validate.h"

#define TARGET "fuzz_parse"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ft_env_get();
	return 0;
}

static _Noreturn void fail_kind(ft_kind kind, const char *title,
				const jp_err *err, const char *text, size_t len)
{
	char msg[1200];
	msg[0] = 0;
	if (err)
		jp_err_format(err, msg, sizeof msg);
	ft_finding_text(kind, TARGET, title, msg, text, len);
}

static _Noreturn void fail(const char *title, const jp_err *err,
			   const char *text, size_t len)
{
	fail_kind(FT_PARSER, title, err, text, len);
}

/* Runs T on inputs that are all VALUE (references: 0, i.e. NULL). */
static void run_on(const ir_trace *t, uint64_t value, const char *text,
		   size_t len)
{
	uint64_t *x = calloc(t->ninputs ? t->ninputs : 1, sizeof *x);
	if (!x)
		return;
	for (uint32_t i = 0; i < t->ninputs; i++)
		x[i] = ir_val(t, t->inputs[i])->kind == 'i' ? value : 0;
	interp_env env;
	memset(&env, 0, sizeof env);
	env.args = x;
	env.nargs = t->ninputs;
	interp_result res;
	memset(&res, 0, sizeof res);
	jp_err err;
	jp_status s = interp_run(t, &env, &res, &err);
	interp_result_free(&res);
	free(x);
	if (s && s != JP_ENOMEM)
		fail_kind(FT_INTERP_ERROR,
			  "the interpreter failed on a parsed trace", &err,
			  text, len);
}

/* The printer round trip of a parsed trace T. */
static void round_trip(const ir_trace *t, const ir_parse_opts *po,
		       const char *text, size_t len)
{
	strbuf a, b, c;
	sb_init(&a);
	sb_init(&b);
	sb_init(&c);
	ir_print(t, &a);
	jp_err err;
	ir_trace *t2 = NULL;
	if (a.oom)
		goto out;
	jp_status s = ir_parse(a.buf, a.len, po, &t2, &err);
	if (s == JP_ENOMEM)
		goto out;
	if (s) {
		fprintf(stderr, "printed:\n%s\n", a.buf);
		fail("the printed trace does not parse back", &err, text, len);
	}
	ir_print(t2, &b);
	if (!b.oom && strcmp(a.buf, b.buf) != 0) {
		fprintf(stderr, "first print:\n%s\nsecond print:\n%s\n", a.buf,
			b.buf);
		fail("printing the re-parsed trace gives other text", NULL,
		     text, len);
	}
	if (t2->ninputs != t->ninputs || t2->nops != t->nops)
		fail("the re-parsed trace has other inputs or ops", NULL, text,
		     len);
	ir_trace *t3 = ir_trace_clone(t);
	if (t3) {
		ir_print(t3, &c);
		if (!c.oom && strcmp(a.buf, c.buf) != 0)
			fail("a clone prints differently", NULL, text, len);
		ir_trace_free(t3);
	}
out:
	ir_trace_free(t2);
	sb_release(&a);
	sb_release(&b);
	sb_release(&c);
}

static void parse_one(const char *text, size_t len, const ir_parse_opts *po)
{
	/* A non-NULL value the parser must overwrite (with NULL on failure). */
	static ir_trace poison;
	ir_trace *t = &poison;
	jp_err err;
	jp_err_clear(&err);
	jp_status s = ir_parse(text, len, po, &t, &err);
	if (s == JP_ENOMEM)
		return;
	if (s) {
		if (s != JP_EINPUT && s != JP_EUNSUPPORTED)
			fail("the parser failed with an unexpected status",
			     &err, text, len);
		if (t != NULL)
			fail("the parser failed but returned a trace", &err,
			     text, len);
		if (!err.msg[0] || err.status != s)
			fail("the parser failed without a message", &err, text,
			     len);
		return;
	}
	if (!t || t == &poison)
		fail("the parser succeeded without a trace", NULL, text, len);
	if (ir_validate(t, po->file, &err))
		fail("the parser returned a trace the validator rejects", &err,
		     text, len);
	round_trip(t, po, text, len);
	run_on(t, 0, text, len);
	run_on(t, 1, text, len);
	(void)ir_count_ops(t);
	(void)ir_count_guards(t);
	ir_trace_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	ir_parse_opts po = {64, false, "<fuzz>"};
	parse_one(text, size, &po);
	po.width = 8;
	po.opaque = true;
	parse_one(text, size, &po);
	char args[256];
	(void)ir_args_comment(text, size, args, sizeof args);
	return 0;
}
