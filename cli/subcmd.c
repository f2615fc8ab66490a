/*
 * subcmd.c: subcommand dispatch with a nearest-name hint (cli/subcmd.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/subcmd.h"
#include "lib/core/strdist.h"

/* "a, b or c" */
static void list_names(const struct cli_sub *subs, FILE *f)
{
	int n = 0;
	while (subs[n].name)
		n++;
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
			subs[i].name);
}

const struct cli_sub *cli_sub_find(const char *cmd, const struct cli_sub *subs,
				   const char *name)
{
	const char *best = NULL;
	int bestd = 99;
	for (const struct cli_sub *s = subs; s->name; s++) {
		int d;
		if (!strcmp(s->name, name))
			return s;
		d = pmk__edit_distance(name, s->name);
		if (d < bestd) {
			bestd = d;
			best = s->name;
		}
	}
	cli_error("unknown %s subcommand '%s'", cmd, name);
	/* near: a typo or two, or a third of the name */
	if (best && (bestd <= 2 || bestd * 3 <= (int)strlen(best))) {
		fprintf(stderr, "hint: did you mean '%s'?\n", best);
	} else {
		fputs("hint: use ", stderr);
		list_names(subs, stderr);
		fputc('\n', stderr);
	}
	return NULL;
}

int cli_sub_run(const char *cmd, const struct cli_sub *subs, int argc,
		char **argv)
{
	const struct cli_sub *s;
	if (argc < 2) {
		fprintf(stderr, "error: '%s' needs a subcommand: ", cmd);
		list_names(subs, stderr);
		fputc('\n', stderr);
		return cli_usage(cmd);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		char page[64];
		snprintf(page, sizeof page, "pmkit-%s", cmd);
		return cli_man_render(page, stdout) ? 1 : 0;
	}
	s = cli_sub_find(cmd, subs, argv[1]);
	if (!s)
		return EXIT_USAGE;
	return s->fn(argc - 1, argv + 1);
}
