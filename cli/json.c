/*
 * json.c: the JSON pieces every command writes.
 */
#include <math.h>

#include "cli/cli.h"

void cli_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void cli_json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.15g", v);
	else
		fputs("null", out);
}
