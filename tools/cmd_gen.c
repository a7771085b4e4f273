/*
 * cmd_gen.c - jitprove gen: print one random trace with its example values.
 */
#include <stdio.h>

#include "cli.h"
#include "fuzz/gen.h"

static int fail(const jp_err *e)
{
	return cli_error(e);
}

int cmd_gen(int argc, char **argv)
{
	const char *seed_s = "0";
	const char *profile = "all", *length = NULL, *inputs = NULL;
	int width = 64;
	bool no_heap = false;
	cli_opt opts[] = {
	    {"seed", CLI_STRING, &seed_s,
	     "S  the trace's seed (default 0), or the identity "
	     "SEED+CUT:SEED... of a\n      mutated trace (coverage feedback, "
	     "docs/fuzzing.md)"},
	    {"profile", CLI_STRING, &profile,
	     "P  all, arithmetic, bounds-heavy, overflow-heavy or heap"},
	    {"length", CLI_STRING, &length,
	     "N|LO-HI  number of ops, guards included (default 10-50)"},
	    {"inputs", CLI_STRING, &inputs,
	     "N|LO-HI  number of input variables (default 1-4)"},
	    cli_opt_width(&width),
	    {"no-heap", CLI_FLAG, &no_heap,
	     "integer traces only (no objects, fields, calls)"},
	};
	cli_spec spec = {
	    "jitprove gen [--seed S] [--profile P] [--length N] [--inputs N] "
	    "[--width W]",
	    "Generates one random trace, deterministically from the seed, and "
	    "prints it\nwith the example values as comments: a '# args:' line "
	    "with the example inputs,\nthen '# = value' after each op.  Every "
	    "guard passes on the example inputs.\nParse it back with --width W "
	    "when W is not 64.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    0,
	    0};
	const char *pos[1];
	int npos, rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	jp_err err;
	jp_err_clear(&err);
	gen_opts o = gen_default_opts();
	o.width = width;
	o.heap = !no_heap;
	if (gen_apply_args(&o, profile, length, inputs, &err))
		return cli_usage_error(&spec, "%s", err.msg);
	gen_id id;
	int64_t v;
	/* A plain seed as every seed option reads it (negative and
	 * hexadecimal too), else an identity. */
	if (cli_parse_i64(seed_s, &v))
		id = gen_id_seed((uint64_t)v);
	else if (gen_parse_id(seed_s, &id, &err))
		return cli_usage_error(&spec, "--seed: %s", err.msg);
	gen_ctx *g = gen_ctx_new();
	if (!g) {
		jp_fail(&err, JP_ENOMEM, "out of memory");
		return fail(&err);
	}
	ir_trace *t;
	gen_example ex;
	if (gen_trace_id(g, &id, &o, &t, &ex, &err)) {
		gen_ctx_free(g);
		return fail(&err);
	}
	strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "# jitprove gen --seed ");
	gen_format_id(&id, &sb);
	sb_printf(&sb, " --profile %s", gen_profile_name(o.profile));
	if (length)
		sb_printf(&sb, " --length %s", length);
	if (inputs)
		sb_printf(&sb, " --inputs %s", inputs);
	if (width != 64)
		sb_printf(&sb, " --width %d", width);
	if (no_heap)
		sb_puts(&sb, " --no-heap");
	sb_putc(&sb, '\n');
	gen_print_annotated(t, &ex, &sb);
	int code = EXIT_PROVED;
	if (sb.oom) {
		jp_fail(&err, JP_ENOMEM, "out of memory");
		code = fail(&err);
	} else {
		fputs(sb.buf, stdout);
	}
	sb_release(&sb);
	ir_trace_free(t);
	gen_ctx_free(g);
	return code;
}
