/*
 * cmd_diff.c: `pmkit diff [--event NAME] [--json] [BASE [NEW]]`, perf's diff
 * over what report --diff has: per function, its share of the samples in
 * BASE and in NEW and the change, most changed first. As perf: with no
 * file, BASE is perf.data.old and NEW perf.data (pmkit.rec.old and
 * pmkit.rec when run as pmkit); one file is BASE, against perf.data. As
 * perf (or with --stdio or -c), perf diff's layout (perfdiff.c).
 */
/* pmkit-command: diff | compare two recordings function by function */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/personality.h"
#include "lib/sample/perfout.h"

enum { D_JSON = 256, D_STDIO };

static const struct cli_opt diff_opts[] = {
	{D_JSON, "json", CLI_NOARG}, {'e', "event", CLI_ARG},
	{D_STDIO, "stdio", CLI_NOARG}, {'c', "compute", CLI_ARG}, {0},
};

struct dargs {
	const char *event;
	int json, stdio, compute;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct dargs *a = arg;
	if (key == D_JSON)
		a->json = 1;
	else if (key == 'e')
		a->event = val;
	else if (key == D_STDIO)
		a->stdio = 1;
	else if (key == 'c') { /* perf's -c: implies perf's layout */
		static const char *const names[] = {"delta-abs", "delta",
						    "ratio"};
		a->compute = -1;
		for (int i = 0; i < 3; i++)
			if (!strcmp(val, names[i]))
				a->compute = i;
		if (a->compute < 0) {
			cli_error("-c takes delta-abs, delta or ratio, not "
				  "'%s' (perf's wdiff and cycles are not "
				  "offered)",
				  val);
			return EXIT_USAGE;
		}
		a->stdio = 1;
	}
	return 0;
}

static int load(pmk_profile **p, const char *path)
{
	pmk_diag d;
	int rc = pmk_profile_load(p, path, &d);
	if (rc) {
		cli_diag(&d);
		return rc == PMK_EFORMAT ? EXIT_USAGE : 1;
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct dargs a = {NULL, 0, 0, 0};
	const char *data = cli_as_perf ? CLI_PERF_DATA : PMK_REC_DEFAULT_FILE;
	char old[4096];
	const char *base, *new;
	pmk_profile *pa = NULL, *pb = NULL;
	int first, rc;
	first = cli_opt_parse_mixed("diff", argc, argv, diff_opts, on_opt, &a);
	if (first < 0)
		return -first;
	if (argc - first > 2) {
		cli_error("two recordings at most, not '%s' too",
			  argv[first + 2]);
		return EXIT_USAGE;
	}
	snprintf(old, sizeof old, "%s.old", data);
	base = first < argc ? argv[first] : old;
	new = first + 1 < argc ? argv[first + 1] : data;
	if ((rc = load(&pa, base)) != 0)
		return rc;
	if ((rc = load(&pb, new)) != 0) {
		pmk_profile_free(pa);
		return rc;
	}
	/* perf's layout as perf, or with --stdio or -c; pmkit's own table
	 * (and --json) otherwise */
	if ((cli_as_perf || a.stdio) && !a.json)
		rc = pmk__profile_perf_diff(pa, pb, a.event, a.compute, stdout);
	else
		rc = pmk_profile_diff(pa, pb, a.event, a.json, stdout);
	if (rc == PMK_ENOEVENT) {
		cli_error("no event '%s' in both recordings", a.event);
		rc = EXIT_USAGE;
	} else if (rc < 0) {
		cli_error("%s", pmk_strerror(rc));
		rc = 1;
	}
	pmk_profile_free(pa);
	pmk_profile_free(pb);
	return rc;
}
