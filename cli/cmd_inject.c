/*
 * cmd_inject.c: `pmkit inject [-b] [-i IN] [-o OUT]`: perf inject's
 * stream filter, as perf's pipelines use it (`perf record -o - | perf
 * inject -b | perf report -i -`): a recording (perf.data in perf's file or
 * pipe format, or pmkit's record file; "-", the default, is standard
 * input) written out as perf.data (perf's pipe format to standard output,
 * the default, or a file). -b (perf's "inject build ids") is accepted and
 * adds nothing: pmkit's perf.data names each file by its path, where perf
 * reads its symbols, and carries no build ids. perf inject's other
 * injections (--jit, --sched-stat, -s, itrace) are not supported.
 */
/* pmkit-command: inject | rewrite a recording as perf.data (perf inject) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/stdin_file.h"

static const struct cli_opt inject_opts[] = {
	{'b', "build-ids", CLI_NOARG},
	{'i', "input", CLI_ARG},
	{'o', "output", CLI_ARG},
	{0},
};

struct iargs {
	const char *in, *out;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct iargs *a = arg;
	switch (key) {
	case 'b':
		return 0;
	case 'i':
		a->in = val;
		return 0;
	case 'o':
		a->out = val;
		return 0;
	}
	return EXIT_USAGE;
}

int cmd_inject(int argc, char **argv)
{
	struct iargs a = {"-", "-"};
	pmk_perfdata_opts po;
	pmk_diag d;
	FILE *tmp = NULL;
	char tpath[64];
	const char *rec;
	int kind, rc;
	rc = cli_opt_parse_only("inject", argc, argv, inject_opts, on_opt, &a);
	if (rc)
		return rc;
	if (!strcmp(a.in, "-") && !(a.in = cli_stdin_file()))
		return 1;
	kind = pmk_rec_file_kind(a.in);
	if (kind < 0) {
		cli_error("cannot read '%s': %s", a.in, strerror(errno));
		return 1;
	}
	if (kind == 0) {
		cli_error("'%s' is neither a perf.data file nor a pmkit record "
			  "file",
			  a.in);
		return EXIT_USAGE;
	}
	rec = a.in;
	if (kind == PMK_FILE_PERFDATA) { /* to pmkit's records first */
		if (!(tmp = tmpfile())) {
			cli_error("cannot create a temporary file: %s",
				  strerror(errno));
			return 1;
		}
		snprintf(tpath, sizeof tpath, "/proc/self/fd/%d", fileno(tmp));
		if (pmk_perfdata_to_rec(a.in, tpath, PMK_PERFDATA_NO_BACKUP,
					&d) < 0) {
			cli_diag(&d);
			fclose(tmp);
			return 1;
		}
		rec = tpath;
	}
	memset(&po, 0, sizeof po);
	rc = pmk_perfdata_write(rec, a.out, &po, &d);
	if (tmp)
		fclose(tmp);
	if (rc < 0) {
		cli_diag(&d);
		return 1;
	}
	return 0;
}
