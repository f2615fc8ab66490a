/*
 * cmd_annotate.c: `pmkit annotate [-i FILE] [--stdio] [-s SYMBOL] [SYMBOL]`,
 * perf's annotate over what report has: each function's instructions with
 * the share of its samples on each and the source lines between them
 * (capstone; the source lines alone without it). With a SYMBOL that one,
 * else every function with samples, hottest first, as perf annotate
 * --stdio prints them. The input is a pmkit record file or a perf.data
 * file (perf.data by default when pmkit runs as perf).
 */
/* pmkit-command: annotate | a function's samples by instruction and source line */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/personality.h"

enum { A_STDIO = 256, A_SOURCE };

static const struct cli_opt annotate_opts[] = {
	{'i', "input", CLI_ARG},   {'s', "symbol", CLI_ARG},
	{A_STDIO, "stdio", CLI_NOARG}, {A_SOURCE, "source-only", CLI_NOARG},
	{0},
};

struct aargs {
	const char *in, *sym;
	int source_only;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct aargs *a = arg;
	switch (key) {
	case 'i': a->in = val; break;
	case 's': a->sym = val; break;
	case A_SOURCE: a->source_only = 1; break;
	}
	return 0;
}

/* One function: instructions where capstone is there, else lines. */
static int one(pmk_profile *p, const char *fn, int source_only)
{
	pmk_diag d;
	int rc = source_only ? PMK_ENOTSUP
			     : pmk_profile_annotate_asm(p, fn, stdout, &d);
	if (rc == PMK_ENOTSUP)
		rc = pmk_profile_annotate(p, fn, stdout, &d);
	if (rc) {
		cli_error("%s: %s", fn, d.message[0] ? d.message
						     : pmk_strerror(rc));
		return rc == PMK_ENOENT ? EXIT_USAGE : 1;
	}
	return 0;
}

int cmd_annotate(int argc, char **argv)
{
	struct aargs a = {NULL, NULL, 0};
	pmk_profile *p = NULL;
	pmk_diag d;
	int first, rc = 0;
	first = cli_opt_parse_mixed("annotate", argc, argv, annotate_opts,
				    on_opt, &a);
	if (first < 0)
		return -first;
	if (first < argc && !a.sym)
		a.sym = argv[first++];
	if (first < argc) {
		cli_error("one symbol, not '%s' too", argv[first]);
		return EXIT_USAGE;
	}
	if (!a.in)
		a.in = cli_as_perf ? CLI_PERF_DATA : PMK_REC_DEFAULT_FILE;
	if ((rc = pmk_profile_load(&p, a.in, &d)) != 0) {
		cli_diag(&d);
		return rc == PMK_EFORMAT ? EXIT_USAGE : 1;
	}
	if (a.sym) {
		rc = one(p, a.sym, a.source_only);
	} else {
		const pmk_profile_row *rows;
		int n = 0, shown = 0;
		if (pmk_profile_histogram(p, PMK_SORT_FUNCTION, &rows, &n) != 0)
			n = 0;
		for (int i = 0; i < n && rc == 0; i++) {
			const char *fn = rows[i].function ? rows[i].function
							  : rows[i].key;
			/* functions only: unknown code has nothing to show */
			if (!fn || fn[0] == '[' || !rows[i].samples[0])
				continue;
			if (shown++)
				fputc('\n', stdout);
			rc = one(p, fn, a.source_only);
			if (rc == EXIT_USAGE) /* not symbolized: go on */
				rc = 0;
		}
		if (!shown)
			fprintf(stderr, "pmkit annotate: no function with "
					"samples in '%s'\n",
				a.in);
	}
	pmk_profile_free(p);
	return rc;
}
