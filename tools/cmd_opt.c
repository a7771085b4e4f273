/* jitprove opt: run the optimizer on a trace and print the result. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "fuzz/extopt.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "passes/opt.h"

static void print_stats(const opt_stats *s)
{
	fprintf(stderr, "# ops: %u -> %u, guards: %u -> %u\n", s->ops_in,
		s->ops_out, s->guards_in, s->guards_out);
	fprintf(stderr, "# input ops removed by pass:");
	for (int p = 0; p < OPT_PASS_COUNT; p++)
		fprintf(stderr, " %s %u", opt_pass_name((opt_pass)p),
			s->removed[p]);
	fprintf(stderr, "\n");
}

/* --serve: the persistent protocol of docs/own-optimizer.md on stdin and
 * stdout, so the built-in optimizer can stand in for an external one. */
static int serve(const opt_config *cfg, const ir_parse_opts *po)
{
	strbuf in, out;
	sb_init(&in);
	sb_init(&out);
	int rc = EXIT_PROVED, r;
	jp_err err;
	while ((r = xo_read_frame(stdin, &in)) == 1) {
		ir_trace *t = NULL, *o = NULL;
		if (ir_parse(in.buf, in.len, po, &t, &err) ||
		    opt_run(t, cfg, &o, NULL, &err)) {
			ir_trace_free(t);
			rc = cli_error(&err);
			break;
		}
		sb_reset(&out);
		ir_print(o, &out);
		sb_puts(&out, XO_END "\n");
		ir_trace_free(o);
		ir_trace_free(t);
		if (out.oom || fputs(out.buf, stdout) < 0 || fflush(stdout)) {
			fprintf(stderr,
				"jitprove opt --serve: cannot write the "
				"answer\n");
			rc = EXIT_USAGE;
			break;
		}
	}
	if (r < 0 && rc == EXIT_PROVED) {
		fprintf(stderr, "jitprove opt --serve: the input ended inside "
				"a trace (expected a line --end--)\n");
		rc = EXIT_USAGE;
	}
	sb_release(&in);
	sb_release(&out);
	return rc;
}

int cmd_opt(int argc, char **argv)
{
	int width = 0;
	bool stats = false, opaque = false, serve_mode = false;
	opt_config cfg = opt_default_config();
	const cli_opt opts[] = {
	    cli_opt_passes(&cfg.passes),
	    cli_opt_inject(&cfg.bugs),
	    cli_opt_width(&width),
	    {"stats", CLI_FLAG, &stats,
	     "print op counts and removals per pass to stderr"},
	    cli_opt_opaque(&opaque),
	    {"serve", CLI_FLAG, &serve_mode,
	     "no TRACE: optimize trace after trace from stdin, each ended "
	     "by a line\n      --end--, answering each with the optimized "
	     "trace and --end--"},
	};
	const cli_spec spec = {
	    "jitprove opt TRACE|- [--passes LIST] [--inject BUG[,BUG]] "
	    "[--width W] [--stats]\n       jitprove opt --serve [options]",
	    "Optimizes TRACE and prints the optimized trace, so that\n"
	    "  jitprove opt t.trace > o.trace && jitprove check t.trace "
	    "o.trace\n"
	    "checks the optimizer on it.  Every guard of the output carries,\n"
	    "as descr=, the label of the input guard it stands for.\n"
	    "Passes, in the order they run: fold, simplify, bounds, cse,\n"
	    "virtualize, heap, dce "
	    "(docs/optimizer.md).  With TRACE '-' (one trace) or --serve "
	    "(many)\nit is an optimizer command for jitprove fuzz "
	    "--optimizer\n(docs/own-optimizer.md).",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    0,
	    1};
	const char *pos[1];
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	jp_err err;
	if (serve_mode != (npos == 0))
		return cli_usage_error(&spec, serve_mode
						  ? "--serve reads stdin: no "
						    "TRACE argument"
						  : "expected TRACE (a file, "
						    "or - for stdin)");
	if (serve_mode) {
		ir_parse_opts sp = {width, opaque, "<stdin>"};
		return serve(&cfg, &sp);
	}
	ir_trace *t, *o;
	if (cli_load_trace(pos[0], width, opaque, &t, NULL, 0, &err))
		return cli_error(&err);
	opt_stats st;
	if (opt_run(t, &cfg, &o, &st, &err)) {
		ir_trace_free(t);
		return cli_error(&err);
	}
	strbuf sb;
	sb_init(&sb);
	ir_print(o, &sb);
	rc = EXIT_PROVED;
	if (sb.oom) {
		fprintf(stderr, "jitprove: out of memory\n");
		rc = EXIT_USAGE;
	} else {
		fputs(sb.buf, stdout);
	}
	if (stats)
		print_stats(&st);
	sb_release(&sb);
	ir_trace_free(o);
	ir_trace_free(t);
	return rc;
}
