/*
 * cmd_convert.c: `pmkit convert [--to perf|pmkit] [--no-backup] IN OUT`:
 * a pmkit record file into perf's perf.data, or a perf.data file (perf's
 * file or pipe format) into a pmkit record file. The direction comes from
 * IN's first bytes; --to says which one is wanted and refuses the other.
 * OUT "-" writes to standard output (perf.data then in perf's pipe
 * format). OUT is written as every pmkit output file: a new file renamed
 * into place, the previous one kept as OUT.old.
 */
/* pmkit-command: convert | convert between pmkit record files and perf.data */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"

enum { OPT_TO = 256, OPT_NO_BACKUP };

static const struct cli_opt convert_opts[] = {
	{OPT_TO, "to", CLI_ARG},
	{OPT_NO_BACKUP, "no-backup", CLI_NOARG},
	{0},
};

struct cargs {
	int to; /* 0 either, 1 perf, 2 pmkit */
	int no_backup;
};

static int on_opt(int key, const char *val, void *arg)
{
	struct cargs *a = arg;
	switch (key) {
	case OPT_TO:
		if (!strcmp(val, "perf"))
			a->to = 1;
		else if (!strcmp(val, "pmkit"))
			a->to = 2;
		else {
			cli_error("--to takes perf or pmkit, not '%s'", val);
			return EXIT_USAGE;
		}
		return 0;
	case OPT_NO_BACKUP:
		a->no_backup = 1;
		return 0;
	}
	return EXIT_USAGE;
}

int cmd_convert(int argc, char **argv)
{
	struct cargs a;
	pmk_diag d;
	int first, kind, rc;
	const char *in, *out;
	memset(&a, 0, sizeof a);
	first = cli_opt_parse_mixed("convert", argc, argv, convert_opts, on_opt,
				    &a);
	if (first < 0)
		return -first;
	if (argc - first != 2) {
		cli_error("convert takes an input and an output file");
		return cli_usage("convert");
	}
	in = argv[first];
	out = argv[first + 1];
	kind = pmk_rec_file_kind(in);
	if (kind < 0) {
		cli_error("cannot read '%s'", in);
		return 1;
	}
	if (kind == 0) {
		cli_error("'%s' is neither a pmkit record file nor a perf.data "
			  "file",
			  in);
		return EXIT_USAGE;
	}
	if (a.to && a.to != (kind == 1 ? 2 : 1)) {
		cli_error("'%s' is already a %s file", in,
			  kind == 1 ? "perf.data" : "pmkit record");
		return EXIT_USAGE;
	}
	if (kind == 2) {
		pmk_perfdata_opts po;
		memset(&po, 0, sizeof po);
		po.flags = a.no_backup ? PMK_PERFDATA_NO_BACKUP : 0;
		rc = pmk_perfdata_write(in, out, &po, &d);
	} else {
		rc = pmk_perfdata_to_rec(
		    in, out, a.no_backup ? PMK_PERFDATA_NO_BACKUP : 0, &d);
	}
	if (rc < 0) {
		cli_diag(&d);
		return 1;
	}
	return 0;
}
