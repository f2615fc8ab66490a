/*
 * cmd_evlist.c: `pmkit evlist [-i FILE]`, perf's evlist: the events a
 * recording holds (a pmkit record file or a perf.data file), one name a
 * line; with -v each with its sample count and period.
 */
/* pmkit-command: evlist | the events a recording holds */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/personality.h"

static const struct cli_opt evlist_opts[] = {
	{'i', "input", CLI_ARG},
	{'v', "verbose", CLI_NOARG},
	{0},
};

struct eargs {
	const char *in;
	int verbose;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct eargs *a = arg;
	if (key == 'i')
		a->in = val;
	else if (key == 'v')
		a->verbose = 1;
	return 0;
}

int cmd_evlist(int argc, char **argv)
{
	struct eargs a = {NULL, 0};
	pmk_profile *p = NULL;
	pmk_profile_stats st;
	pmk_diag d;
	int rc = cli_opt_parse_only("evlist", argc, argv, evlist_opts, on_opt,
				    &a);
	if (rc)
		return rc;
	if (!a.in)
		a.in = cli_as_perf ? CLI_PERF_DATA : PMK_REC_DEFAULT_FILE;
	if ((rc = pmk_profile_load(&p, a.in, &d)) != 0) {
		cli_diag(&d);
		return rc == PMK_EFORMAT ? EXIT_USAGE : 1;
	}
	pmk_profile_stats_get(p, &st);
	for (int i = 0; i < st.nevents; i++) {
		const char *name = pmk_profile_event_name(p, i);
		if (a.verbose)
			printf("%s: %llu samples, period %llu\n",
			       name ? name : "?",
			       (unsigned long long)st.samples[i],
			       (unsigned long long)st.period[i]);
		else
			printf("%s\n", name ? name : "?");
	}
	pmk_profile_free(p);
	return 0;
}
