/*
 * cli/writeout.c: open and close a command's output file with the shared
 * messages (cli/writeout.h).
 */
#include "cli/writeout.h"

#include "cli/cli.h"
#include "lib/core/outfile.h"

FILE *cli_out_open(const char *path)
{
	pmk_diag d;
	FILE *f = pmk__out_fopen(path, 0, &d); /* new file, renamed into place */
	if (!f)
		cli_diag(&d);
	return f;
}

int cli_out_close(FILE *f, const char *path, int ok, const char *prefix)
{
	pmk_diag d;
	if (!f)
		return 1;
	if (pmk__out_fclose(f, ok, &d) != 0 || !ok) {
		if (!ok)
			cli_error("cannot write '%s'", path);
		else
			cli_diag(&d);
		return 1;
	}
	fprintf(stderr, "%swrote %s\n", prefix, path);
	return 0;
}
