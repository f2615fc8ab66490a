/*
 * cli/optval.c: an option's value checked against a range, for the option
 * callbacks of the commands (cli/opt.h): the message names the option as
 * the user wrote it and the range. Apart from opt.c, which only parses.
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/opt.h"

int cli_opt_u64_in(const char *v, unsigned long long lo, unsigned long long hi,
		   unsigned long long *out)
{
	if (cli_opt_u64(cli_opt_current(), v, out))
		return EXIT_USAGE;
	if (*out < lo || *out > hi) {
		cli_error("option '%s' must be between %llu and %llu, not '%s'",
			  cli_opt_current(), lo, hi, v);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_opt_double_in(const char *v, double lo, double hi, double *out)
{
	char *end;
	*out = strtod(v, &end);
	if (!*v || *end || !(*out >= lo && *out <= hi)) {
		cli_error("option '%s' needs a number between %g and %g, not "
			  "'%s'",
			  cli_opt_current(), lo, hi, v);
		return EXIT_USAGE;
	}
	return 0;
}
