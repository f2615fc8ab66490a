/*
 * fuzz_opt.c: the CLI option parser (cli/opt.c) on arbitrary argument
 * vectors: the input split at newlines and NULs into argv[1..], parsed
 * (and made canonical) against a table with every kind of option (flags, values, optional
 * values, long-only keys, names sharing prefixes).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opt.c"

/* The CLI's printers, silenced (they live in cli/main.c, cli/cmd_help.c). */
void cli_error(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
}

int cli_usage(const char *cmd)
{
	(void)cmd;
	return EXIT_USAGE;
}

static const struct cli_opt table[] = {
	{'e', "event", CLI_ARG},
	{'a', "all-cpus", CLI_NOARG},
	{'x', "field-separator", CLI_ARG},
	{'A', "no-aggr", CLI_NOARG},
	{256, "per-core", CLI_NOARG},
	{257, "per-socket", CLI_NOARG},
	{258, "sim", CLI_OPTARG},
	{259, "json", CLI_NOARG},
	{'j', "json-output", CLI_NOARG},
	{'n', "null", CLI_NOARG},
	{260, "pre", CLI_ARG},
	{0, NULL, 0},
};

static int seen(int key, const char *val, void *arg)
{
	size_t *n = arg;
	*n += (size_t)key + (val ? strlen(val) : 0);
	(void)cli_opt_current();
	return key == 'n' && val == NULL && (*n & 255) == 7 ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[66];
	int argc = 1;
	size_t n = 0, start = 0;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[0] = "stat";
	for (size_t i = 0; i <= size && argc < 65; i++)
		if (i == size || buf[i] == '\n' || buf[i] == 0) {
			buf[i] = 0;
			argv[argc++] = buf + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	(void)cli_opt_parse("stat", argc, argv, table, seen, &n);
	{
		int cargc = argc;
		char **cargv = argv;
		(void)cli_opt_canon("stat", &cargc, &cargv, table);
	}
	free(buf);
	return 0;
}
