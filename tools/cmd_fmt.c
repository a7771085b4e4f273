/* jitprove fmt: parse, validate and print a trace canonically. */
#include <stdio.h>

#include "cli.h"
#include "ir/print.h"

int cmd_fmt(int argc, char **argv)
{
	int width = 64;
	bool opaque = false;
	const cli_opt opts[] = {
	    cli_opt_width(&width),
	    cli_opt_opaque(&opaque),
	};
	const cli_spec spec = {
	    "jitprove fmt TRACE [--width W] [--opaque]",
	    "Parses and validates TRACE ('-' for standard input) and prints "
	    "it\n"
	    "in canonical form.  Exit 0 when valid, 2 with a located message\n"
	    "when not.",
	    opts,
	    (int)(sizeof opts / sizeof opts[0]),
	    1,
	    1};
	const char *pos[1];
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	ir_trace *t;
	jp_err err;
	if (cli_load_trace(pos[0], width, opaque, &t, NULL, 0, &err))
		return cli_error(&err);
	strbuf sb;
	sb_init(&sb);
	ir_print(t, &sb);
	fputs(sb.buf, stdout);
	sb_release(&sb);
	ir_trace_free(t);
	return EXIT_PROVED;
}
