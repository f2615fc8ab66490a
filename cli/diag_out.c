/*
 * diag_out.c: how every command reports: "error: ..." and "warning: ..."
 * on stderr, a library diagnostic with its marker and hint, and the small
 * checks of option values that word their errors alike (cli/cli.h). It
 * calls no other file of cli/, so every file may call it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cli_diag(const pmk_diag *d)
{
	char buf[2048];
	pmk_diag_format(d, buf, sizeof buf);
	fprintf(stderr, "error: %s\n", buf);
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
	char *end;
	if (!s || !*s || *s == '-')
		return -1;
	*out = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

int cli_opt_u64(const char *opt, const char *s, unsigned long long *out)
{
	if (cli_parse_u64(s, out) == 0)
		return 0;
	cli_error("option '%s' needs a whole number, not '%s'", opt,
		  s ? s : "");
	return -1;
}

int cli_isatty(int fd)
{
	return isatty(fd);
}
