/* jitprove run: execute a trace on concrete inputs in the interpreter. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir/interp.h"
#include "ir/print.h"
#include "ir/sem.h"

static void print_value(const ir_trace *t, ir_vid v, uint64_t x, strbuf *sb)
{
	if (t->vals[v].kind == 'r') {
		if (x == 0)
			sb_puts(sb, "NULL");
		else
			sb_printf(sb, "0x%" PRIx64, x);
		return;
	}
	ir_print_int(t->width, x, sb);
	if (sem_signed(t->width, x) < -9 || sem_signed(t->width, x) > 9)
		sb_printf(sb, " (0x%" PRIx64 ")", x);
}

static void print_run(const ir_trace *t, const interp_result *res)
{
	strbuf sb;
	sb_init(&sb);
	for (uint32_t i = 0; i < t->nops && i <= res->stop_op; i++) {
		const ir_op *op = &t->ops[i];
		size_t start = sb.len;
		ir_print_op(t, i, &sb);
		size_t w = sb.len - start;
		for (; w < 40; w++)
			sb_putc(&sb, ' ');
		if (op->result != IR_NOVAL && res->known[op->result]) {
			sb_puts(&sb, " # = ");
			print_value(t, op->result, res->vals[op->result], &sb);
		} else if (ir_op_has(op->opc, IRF_GUARD)) {
			bool failed = res->outcome == INTERP_GUARD_FAIL &&
				      res->stop_op == i;
			sb_puts(&sb, failed ? " # FAILED" : " # passed");
		}
		sb_putc(&sb, '\n');
	}
	switch (res->outcome) {
	case INTERP_FINISH: sb_puts(&sb, "result: finish("); break;
	case INTERP_JUMP: sb_puts(&sb, "result: jump("); break;
	case INTERP_GUARD_FAIL:
		sb_printf(&sb, "result: guard %s failed, fail-args [",
			  ir_guard_label(t, res->stop_op));
		break;
	case INTERP_UNDEFINED:
		sb_printf(&sb, "result: undefined (op %u accesses NULL)\n",
			  res->stop_op);
		fputs(sb.buf, stdout);
		sb_release(&sb);
		return;
	}
	const ir_op *stop = &t->ops[res->stop_op];
	const ir_vid *src =
	    res->outcome == INTERP_GUARD_FAIL ? stop->failargs : stop->args;
	for (uint32_t i = 0; i < res->nout; i++) {
		if (i)
			sb_puts(&sb, ", ");
		if (src[i] == IR_NOVAL)
			sb_puts(&sb, "None");
		else
			print_value(t, src[i], res->out[i], &sb);
	}
	sb_puts(&sb, res->outcome == INTERP_GUARD_FAIL ? "]\n" : ")\n");
	fputs(sb.buf, stdout);
	sb_release(&sb);
}

int cmd_run(int argc, char **argv)
{
	int width = 64;
	const char *args = NULL;
	bool opaque = false;
	const cli_opt opts[] = {
	    cli_opt_width(&width),
	    {"args", CLI_STRING, &args,
	     "LIST  input values, e.g. 1,-2,0x10 (default: the trace's "
	     "'# args:' comment, else zeros)"},
	    cli_opt_opaque(&opaque),
	};
	const cli_spec spec = {
	    "jitprove run TRACE [--width W] [--args LIST]",
	    "Runs TRACE in the concrete interpreter and prints every op with\n"
	    "its value, then the outcome: the outputs, or the failing guard\n"
	    "with its fail-args.  References are given as addresses (0 is\n"
	    "NULL).",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    1,
	    1};
	const char *pos[1];
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	jp_err err;
	ir_trace *t;
	char comment[1024];
	if (cli_load_trace(pos[0], width, opaque, &t, comment, sizeof comment,
			   &err))
		return cli_error(&err);
	if (!args && comment[0])
		args = comment;
	uint64_t *vals = calloc(t->ninputs + 1, sizeof *vals);
	int n = 0;
	rc = EXIT_PROVED;
	if (!vals) {
		fprintf(stderr, "jitprove: out of memory\n");
		rc = EXIT_USAGE;
	} else if (args && !cli_parse_int_list(args, width, vals,
					       (int)t->ninputs + 1, &n)) {
		fprintf(stderr,
			"jitprove: --args: expected a comma-separated list of "
			"integers, found '%s'\n",
			args);
		rc = EXIT_USAGE;
	} else if (args && (uint32_t)n != t->ninputs) {
		fprintf(stderr,
			"jitprove: --args: expected %u values, found %d\n",
			t->ninputs, n);
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_PROVED) {
		interp_env env = {.args = vals, .nargs = t->ninputs};
		interp_result res;
		if (interp_run(t, &env, &res, &err)) {
			rc = cli_error(&err);
		} else {
			print_run(t, &res);
			interp_result_free(&res);
		}
	}
	free(vals);
	ir_trace_free(t);
	return rc;
}
