/*
 * cmd_help.c: `pmkit help [COMMAND]`: a command's manual as plain text
 * (the renderer is cli/usage.c).
 */
/* pmkit-command: help | show the manual of a command */
#include "cli/cli.h"

int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		if (cli_man_render("pmkit", stdout) != 0)
			return 1;
		printf("\nCOMMANDS\n");
		for (const struct cli_command *c = cli_commands; c->name; c++)
			printf("       %-10s %s\n", c->name, c->summary);
		return 0;
	}
	if (cli_man_render(argv[1], stdout) != 0) {
		cli_error("no manual for '%s'", argv[1]);
		fprintf(stderr, "hint: 'pmkit help' lists the commands\n");
		return EXIT_USAGE;
	}
	return 0;
}
