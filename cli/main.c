/*
 * main.c: `pmkit COMMAND [ARGS]`: find the command and run it. Run as
 * `perf` (a link or copy of that name) or as `pmkit perf COMMAND [ARGS]`,
 * the same commands take perf's defaults (cli/personality.h), and `perf
 * probe` is `pmkit uprobe` (pmkit's probe is its machine probe).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/personality.h"
#include "lib/core/strdist.h"

int cli_as_perf;

static const char *prog(void)
{
	return cli_as_perf ? "perf" : "pmkit";
}

static void print_commands(FILE *out)
{
	fprintf(out, "usage: %s COMMAND [ARGS]\n\ncommands:\n", prog());
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out, "\n'%s help COMMAND' shows a command's manual.\n", prog());
}

/* Whether argv (a command's arguments, argv[0] the command) names an
 * input file with -i/--input (or a unique prefix of --input), before a
 * `--`. */
static int has_input(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t n;
		if (!strcmp(a, "--"))
			return 0;
		if (!strncmp(a, "-i", 2))
			return 1;
		if (strncmp(a, "--", 2))
			continue;
		n = strcspn(a + 2, "=");
		if (n >= 2 && !strncmp(a + 2, "input", n) && n <= 5)
			return 1;
	}
	return 0;
}

/* As perf, `script` reads perf.data unless told otherwise: its default
 * is given as `-i perf.data` ahead of the user's arguments (perf script's
 * own positional arguments name a script, never the input). */
static char **perf_script_args(int *argc, char **argv)
{
	static char in_opt[] = "--input=" CLI_PERF_DATA;
	char **v;
	if (has_input(*argc, argv))
		return argv;
	v = calloc((size_t)*argc + 2, sizeof *v);
	if (!v)
		return argv;
	v[0] = argv[0];
	v[1] = in_opt;
	memcpy(v + 2, argv + 1, sizeof *v * (size_t)(*argc - 1));
	(*argc)++;
	return v;
}

int main(int argc, char **argv)
{
	const char *name, *base = argv[0] ? strrchr(argv[0], '/') : NULL;

	base = base ? base + 1 : argv[0] ? argv[0] : "";
	if (!strcmp(base, "perf"))
		cli_as_perf = 1;
	else if (argc >= 2 && !strcmp(argv[1], "perf")) {
		/* `pmkit perf ARGS`: as if run as perf */
		cli_as_perf = 1;
		argc--;
		argv++;
	}
	if (argc < 2) {
		print_commands(stderr);
		return EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	/* perf's probe makes probes (pmkit's uprobe); pmkit's own probe
	 * measures the machine */
	if (cli_as_perf && !strcmp(name, "probe"))
		name = "uprobe";
	if (!strcmp(name, "--version") || !strcmp(name, "version") ||
	    (cli_as_perf && !strcmp(name, "-v"))) {
		if (cli_as_perf) /* perf's line, saying what answers it */
			printf("perf version %s (pmkit)\n", PMK_VERSION_STRING);
		else
			printf("pmkit %s\n", PMK_VERSION_STRING);
		return 0;
	}
	for (const struct cli_command *c = cli_commands; c->name; c++) {
		if (strcmp(c->name, name) == 0) {
			int rc, cargc = argc - 1;
			char **cargv = argv + 1;
			/* `pmkit CMD --help` is `pmkit help CMD`. */
			if (argc == 3 && (!strcmp(argv[2], "--help") ||
					  !strcmp(argv[2], "-h"))) {
				return cli_man_render(name, stdout) ? 1 : 0;
			}
			if (cli_as_perf && !strcmp(name, "script"))
				cargv = perf_script_args(&cargc, cargv);
			cli_defs_env_warn();
			rc = c->fn(cargc, cargv);
			if (cargv != argv + 1) /* perf_script_args' copy */
				free(cargv);
			if (cli_opt_help_asked) /* `pmkit bench os --help` */
				rc = cli_man_render(name, stdout) ? 1 : 0;
			if (fflush(stdout) != 0 || ferror(stdout)) {
				cli_error("could not write the output");
				return 1;
			}
			return rc;
		}
	}
	cli_error("'%s' is not a %s command", name, prog());
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
			fprintf(stderr, "hint: '%s help' lists the commands\n",
				prog());
	}
	return EXIT_USAGE;
}
