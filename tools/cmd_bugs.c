/* jitprove bugs: list the known bugs the optimizer can inject. */
#include <stdio.h>

#include "cli.h"
#include "passes/opt.h"

int cmd_bugs(int argc, char **argv)
{
	const cli_spec spec = {
	    "jitprove bugs",
	    "Lists the known miscompilations that 'jitprove opt --inject "
	    "NAME'\ncan switch on, one per line with what it does wrong.  "
	    "corpus/bugs/NAME/\nholds a reproducer for each.",
	    NULL,
	    0,
	    0,
	    0};
	const char *pos[1];
	int npos;
	int rc = cli_parse(&spec, argc, argv, pos, &npos);
	if (rc >= 0)
		return rc;
	for (int b = 0; b < OPT_BUG_COUNT; b++)
		printf("%-18s %s\n", opt_bug_name((opt_bug)b),
		       opt_bug_desc((opt_bug)b));
	return EXIT_PROVED;
}
