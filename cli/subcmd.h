/*
 * subcmd.h: the one subcommand table of the commands that have them
 * (`pmkit addie figures`, `pmkit bench lat`, `pmkit sim run`, ...):
 *
 *     static const struct cli_sub subs[] = {
 *         {"figures", addie_figures},
 *         {"quality", addie_quality},
 *         {NULL, NULL},
 *     };
 *     return cli_sub_run("addie", subs, argc, argv);
 *
 * The subcommand runs with argv[0] its own name. A missing subcommand is a
 * usage error; `--help`/`-h` shows the command's manual; an unknown one is
 * an error with the nearest name as a hint ("did you mean 'figures'?"),
 * or the list of names when none is near.
 */
#ifndef PMK_CLI_SUBCMD_H
#define PMK_CLI_SUBCMD_H

struct cli_sub {
	const char *name;
	int (*fn)(int argc, char **argv);
};

/* Find the subcommand named argv[1] and run it on argc - 1, argv + 1;
 * its exit code, or EXIT_USAGE after an error was printed. */
int cli_sub_run(const char *cmd, const struct cli_sub *subs, int argc,
		char **argv);

/* The entry named `name`, or NULL after "error: unknown CMD subcommand"
 * and the hint were printed. */
const struct cli_sub *cli_sub_find(const char *cmd, const struct cli_sub *subs,
				   const char *name);

#endif
