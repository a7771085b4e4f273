/* jitprove opt: run the optimizer on a trace and print the result. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
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

int cmd_opt(int argc, char **argv)
{
	int width = 0;
	bool stats = false, opaque = false;
	opt_config cfg = opt_default_config();
	const cli_opt opts[] = {
	    cli_opt_passes(&cfg.passes),
	    cli_opt_inject(&cfg.bugs),
	    cli_opt_width(&width),
	    {"stats", CLI_FLAG, &stats,
	     "print op counts and removals per pass to stderr"},
	    cli_opt_opaque(&opaque),
	};
	const cli_spec spec = {
	    "jitprove opt TRACE [--passes LIST] [--inject BUG[,BUG]] "
	    "[--width W] [--stats]",
	    "Optimizes TRACE and prints the optimized trace, so that\n"
	    "  jitprove opt t.trace > o.trace && jitprove check t.trace "
	    "o.trace\n"
	    "checks the optimizer on it.  Every guard of the output carries,\n"
	    "as descr=, the label of the input guard it stands for.\n"
	    "Passes, in the order they run: fold, simplify, bounds, cse,\n"
	    "virtualize, heap, dce "
	    "(docs/optimizer.md).",
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
