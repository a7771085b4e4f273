/*
 * jitprove - finds miscompilations in JIT trace optimizers.
 *
 * This file only dispatches to the subcommands listed in commands.def, and
 * checks standard output once at the end of every command (a write error
 * is exit 2 whatever the command found).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define CMD(name, desc) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef CMD

typedef struct command {
	const char *name;
	const char *desc;
	int (*fn)(int, char **);
} command;

static const command commands[] = {
#define CMD(name, desc) {#name, desc, cmd_##name},
#include "commands.def"
#undef CMD
};

static void usage(FILE *f)
{
	fprintf(f, "usage: jitprove COMMAND [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].desc);
	fprintf(f, "\n'jitprove COMMAND --help' describes a command.\n"
		   "exit codes: 0 proved/nothing found, 1 counterexample/"
		   "findings, 2 usage or input error, 3 unknown\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return cli_finish_stdout(EXIT_PROVED);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("jitprove %s\n", JP_VERSION);
		return cli_finish_stdout(EXIT_PROVED);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return cli_finish_stdout(
			    commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "jitprove: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
