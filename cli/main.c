/*
 * main.c: `pmkit COMMAND [ARGS]`: find the command and run it.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/core/strdist.h"

static void print_commands(FILE *out)
{
	fprintf(out, "usage: pmkit COMMAND [ARGS]\n\ncommands:\n");
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out, "\n'pmkit help COMMAND' shows a command's manual.\n");
}

int main(int argc, char **argv)
{
	const char *name;

	if (argc < 2) {
		print_commands(stderr);
		return EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("pmkit %s\n", PMK_VERSION_STRING);
		return 0;
	}
	for (const struct cli_command *c = cli_commands; c->name; c++) {
		if (strcmp(c->name, name) == 0) {
			int rc;
			/* `pmkit CMD --help` is `pmkit help CMD`. */
			if (argc == 3 && (!strcmp(argv[2], "--help") ||
					  !strcmp(argv[2], "-h"))) {
				return cli_man_render(name, stdout) ? 1 : 0;
			}
			cli_defs_env_warn();
			rc = c->fn(argc - 1, argv + 1);
			if (fflush(stdout) != 0 || ferror(stdout)) {
				cli_error("could not write the output");
				return 1;
			}
			return rc;
		}
	}
	cli_error("'%s' is not a pmkit command", name);
	{
		const char *best = NULL;
		int bestd = 3;
		for (const struct cli_command *c = cli_commands; c->name; c++) {
			int d = pmk__edit_distance(name, c->name);
			if (d < bestd) {
				bestd = d;
				best = c->name;
			}
		}
		if (best)
			fprintf(stderr, "hint: did you mean '%s'?\n", best);
		else
			fprintf(stderr, "hint: 'pmkit help' lists the commands\n");
	}
	return EXIT_USAGE;
}
