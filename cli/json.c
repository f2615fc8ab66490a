/*
 * json.c: the JSON pieces every command writes.
 */
#include <math.h>

#include "cli/cli.h"
#include "lib/core/textout.h"

void cli_json_str(FILE *out, const char *s)
{
	pmk__json_str(out, s);
}

void cli_json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.15g", v);
	else
		fputs("null", out);
}
