/*
 * cmd_script.c: `pmkit script [-i FILE] [-F FIELDS] [-G] [--ns]
 * [--comms L] [--pids L] [--tids L] [--no-demangle]`: every sample of a
 * record file or perf.data file as `perf script` prints it, so the tools
 * that read perf script's text (FlameGraph's stackcollapse-perf.pl, the
 * perf importers of Firefox Profiler and speedscope) read pmkit's files.
 * `pmkit report --script` prints the same text through the same code.
 */
/* pmkit-command: script | print each sample as perf script does */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/stdin_file.h"
#include "lib/sample/perfout.h"

enum {
	OPT_NS = 256, OPT_NO_DEMANGLE, OPT_COMMS, OPT_PIDS, OPT_TIDS,
	OPT_DEMANGLE
};

static const struct cli_opt script_opts[] = {
	{'i', "input", CLI_ARG},
	{'F', "fields", CLI_ARG},
	{'G', "hide-call-graph", CLI_NOARG},
	{OPT_NS, "ns", CLI_NOARG},
	{OPT_NO_DEMANGLE, "no-demangle", CLI_NOARG},
	{OPT_DEMANGLE, "demangle", CLI_NOARG},
	{OPT_COMMS, "comms", CLI_ARG},
	{OPT_PIDS, "pids", CLI_ARG},
	{OPT_TIDS, "tids", CLI_ARG},
	{0},
};

struct sargs {
	pmk__script_opts o;
	const char *in;
	int in_given;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct sargs *a = arg;
	pmk_diag d;
	switch (key) {
	case 'i':
		a->in = val;
		a->in_given = 1;
		break;
	case 'F':
		pmk_diag_clear(&d);
		if (pmk__script_fields_parse(val, &a->o, &d) < 0) {
			cli_error("%s", d.message);
			fprintf(stderr, "hint: %s\n", d.hint);
			return EXIT_USAGE;
		}
		break;
	case 'G':
		a->o.hide_graph = 1;
		break;
	case OPT_NS:
		a->o.ns = 1;
		break;
	case OPT_NO_DEMANGLE:
		a->o.mangled = 1;
		break;
	case OPT_DEMANGLE:
		a->o.mangled = 0;
		break;
	case OPT_COMMS:
		a->o.comms = val;
		break;
	case OPT_PIDS:
		a->o.pids = val;
		break;
	case OPT_TIDS:
		a->o.tids = val;
		break;
	default:
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_script(int argc, char **argv)
{
	struct sargs a;
	pmk_diag d;
	int first, rc;
	memset(&a, 0, sizeof a);
	pmk__script_opts_init(&a.o);
	a.in = PMK_REC_DEFAULT_FILE;
	first = cli_opt_parse_mixed("script", argc, argv, script_opts, on_opt,
				    &a);
	if (first < 0)
		return -first;
	if (first < argc) {
		/* pmkit script FILE, as -i FILE */
		if (argc - first > 1 || a.in_given) {
			cli_error("one input file: '%s' is one too many",
				  argv[argc - 1]);
			return cli_usage("script");
		}
		a.in = argv[first];
	}
	if (!strcmp(a.in, "-") && !(a.in = cli_stdin_file()))
		return 1; /* perf's -i -: a recording piped in */
	pmk_diag_clear(&d);
	rc = pmk__profile_script(a.in, &a.o, stdout, &d);
	if (rc < 0) {
		if (!d.message[0])
			snprintf(d.message, sizeof d.message, "%s",
				 pmk_strerror(rc));
		cli_error("%s: %s", a.in, d.message);
		if (d.hint[0])
			fprintf(stderr, "hint: %s\n", d.hint);
		return rc == PMK_ENOENT || rc == PMK_EIO ? 1 : EXIT_USAGE;
	}
	return 0;
}
