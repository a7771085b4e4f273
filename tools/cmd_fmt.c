/* jitprove fmt: parse, validate and print a trace canonically. */
#include <stdio.h>

#include "cli.h"
#include "ir/parse.h"
#include "ir/print.h"

int cmd_fmt(int argc, char **argv)
{
	int width = 64;
	bool opaque = false;
	const cli_opt opts[] = {
	    {"width", CLI_WIDTH, &width, "W  integer width: 8, 16, 32 or 64"},
	    {"opaque", CLI_FLAG, &opaque,
	     "read unknown operations as opaque calls"},
	};
	const cli_spec spec = {
	    "jitprove fmt TRACE [--width W] [--opaque]",
	    "Parses and validates TRACE ('-' for standard input) and prints "
	    "it\n"
	    "in canonical form.  Exit 0 when valid, 2 with a located message\n"
	    "when not.",
	    opts,
	    2,
	    1,
	    1};
	const char *pos[1];
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	ir_parse_opts po = {.width = width, .opaque = opaque};
	ir_trace *t;
	jp_err err;
	if (ir_parse_file(pos[0], &po, &t, &err))
		return cli_error(&err);
	strbuf sb;
	sb_init(&sb);
	ir_print(t, &sb);
	fputs(sb.buf, stdout);
	sb_release(&sb);
	ir_trace_free(t);
	return EXIT_PROVED;
}
