/*
 * test_opt.c: the option parser of every command (cli/opt.c), as a table
 * of command lines: what each option receives, where the operands start,
 * and which lines are usage errors (exit 2) with which message and hint.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "tests/support/t.h"

#include "cli/opt.c"

static char errbuf[1024];

/* The CLI's printers (cli/main.c, cli/cmd_help.c): the message kept. */
void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(errbuf, sizeof errbuf, fmt, ap);
	va_end(ap);
}

int cli_usage(const char *cmd)
{
	(void)cmd;
	return EXIT_USAGE;
}

enum { K_JSON = 256, K_PER_CORE, K_PER_SOCKET, K_SIM };
static const struct cli_opt table[] = {
	{'e', "event", CLI_ARG},
	{'a', "all-cpus", CLI_NOARG},
	{'x', "field-separator", CLI_ARG},
	{'j', "json-output", CLI_NOARG},
	{K_JSON, "json", CLI_NOARG},
	{K_PER_CORE, "per-core", CLI_NOARG},
	{K_PER_SOCKET, "per-socket", CLI_NOARG},
	{K_SIM, "sim", CLI_OPTARG},
	{0, NULL, 0},
};

/* Every option seen, as "key=value;" ("a;" for a flag). */
static char seen[1024];
static int record(int key, const char *val, void *arg)
{
	size_t n = strlen(seen);
	(void)arg;
	if (key < 256)
		snprintf(seen + n, sizeof seen - n, "%c", key);
	else
		snprintf(seen + n, sizeof seen - n, "<%d>", key - 256);
	n = strlen(seen);
	snprintf(seen + n, sizeof seen - n, "%s%s;", val ? "=" : "",
		 val ? val : "");
	return 0;
}

/* Split "a b c" into argv (words separated by single spaces; "_" is an
 * empty word). */
static int split(char *line, char **argv)
{
	int n = 0;
	argv[n++] = "stat";
	for (char *w = strtok(line, " "); w; w = strtok(NULL, " "))
		argv[n++] = strcmp(w, "_") ? w : "";
	argv[n] = NULL;
	return n;
}

static const struct {
	int line;
	const char *cmd;
	int mixed;
	const char *seen;    /* options received */
	int first;           /* index of the first operand, or -2 (usage) */
	const char *error;   /* part of the message of a usage error */
} cases[] = {
	{__LINE__, "-e task-clock", 0, "e=task-clock;", 3, NULL},
	{__LINE__, "-etask-clock", 0, "e=task-clock;", 2, NULL},
	{__LINE__, "--event=task-clock", 0, "e=task-clock;", 2, NULL},
	{__LINE__, "--event task-clock", 0, "e=task-clock;", 3, NULL},
	{__LINE__, "-x, -e a", 0, "x=,;e=a;", 4, NULL},
	{__LINE__, "-x ; -j", 0, "x=;;j;", 4, NULL},
	{__LINE__, "-ae cycles", 0, "a;e=cycles;", 3, NULL},
	{__LINE__, "-aj", 0, "a;j;", 2, NULL},
	{__LINE__, "--json", 0, "<0>;", 2, NULL},
	{__LINE__, "--json-output", 0, "j;", 2, NULL},
	{__LINE__, "--per-c", 0, "<1>;", 2, NULL},
	{__LINE__, "--sim", 0, "<3>;", 2, NULL},
	{__LINE__, "--sim=cfg", 0, "<3>=cfg;", 2, NULL},
	{__LINE__, "--sim cfg", 0, "<3>;", 2, NULL},
	{__LINE__, "-- -a", 0, "", 2, NULL},
	{__LINE__, "-a sleep -x", 0, "a;", 2, NULL},
	{__LINE__, "sleep 1", 0, "", 1, NULL},
	{__LINE__, "", 0, "", 1, NULL},
	{__LINE__, "-e", 0, "", -2, "option '-e' needs a value"},
	{__LINE__, "--event", 0, "", -2, "option '--event' needs a value"},
	{__LINE__, "-Q", 0, "", -2, "unknown option '-Q'"},
	{__LINE__, "--nosuch", 0, "", -2, "unknown option '--nosuch'"},
	{__LINE__, "--per", 0, "", -2, "option '--per' is ambiguous"},
	{__LINE__, "--json=1", 0, "", -2, "option '--json' takes no value"},
	{__LINE__, "-a --bogus=3 x", 0, "a;", -2, "unknown option '--bogus'"},
	/* mixed: operands anywhere, moved to the end in their order */
	{__LINE__, "cycles --json x", 1, "<0>;", 2, NULL},
	{__LINE__, "a -e b c", 1, "e=b;", 3, NULL},
	{__LINE__, "a -- -e", 1, "", 2, NULL},
};

static void test_table(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[256], *argv[32];
		int argc, got;
		snprintf(buf, sizeof buf, "%s", cases[i].cmd);
		argc = split(buf, argv);
		seen[0] = errbuf[0] = 0;
		got = cases[i].mixed
			  ? cli_opt_parse_mixed("stat", argc, argv, table,
						record, NULL)
			  : cli_opt_parse("stat", argc, argv, table, record,
					  NULL);
		T_CHECKF(got == cases[i].first, "line %d '%s': returned %d",
			 cases[i].line, cases[i].cmd, got);
		T_CHECKF(!strcmp(seen, cases[i].seen),
			 "line %d '%s': saw '%s', want '%s'", cases[i].line,
			 cases[i].cmd, seen, cases[i].seen);
		if (cases[i].error)
			T_CHECKF(strstr(errbuf, cases[i].error) != NULL,
				 "line %d '%s': message '%s'", cases[i].line,
				 cases[i].cmd, errbuf);
	}
}

/* The operands after a mixed parse, in order. */
static void test_mixed_order(void)
{
	char buf[] = "a -e b c --json d", *argv[16];
	int argc = split(buf, argv);
	int i = cli_opt_parse_mixed("stat", argc, argv, table, record, NULL);
	T_ASSERT(i == argc - 3);
	T_EQ_STR(argv[i], "a");
	T_EQ_STR(argv[i + 1], "c");
	T_EQ_STR(argv[i + 2], "d");
}

/* cli_opt_canon: every option as "--name" and its value, then operands. */
static void test_canon(void)
{
	char buf[] = "x -ae y --per-s --field-separator=; z", *argv[16];
	char **av = argv;
	int argc = split(buf, argv);
	T_ASSERT(cli_opt_canon("stat", &argc, &av, table) == 0);
	T_EQ_INT(argc, 9);
	T_EQ_STR(av[1], "--all-cpus");
	T_EQ_STR(av[2], "--event");
	T_EQ_STR(av[3], "y");
	T_EQ_STR(av[4], "--per-socket");
	T_EQ_STR(av[5], "--field-separator");
	T_EQ_STR(av[6], ";");
	T_EQ_STR(av[7], "x");
	T_EQ_STR(av[8], "z");
	T_CHECK(av[9] == NULL);
}

/* A callback's exit code stops the parse and is returned negated. */
static int refuse(int key, const char *val, void *arg)
{
	(void)val;
	(void)arg;
	return key == 'j' ? 7 : 0;
}

static void test_callback_stops(void)
{
	char buf[] = "-a -j -e x", *argv[16];
	int argc = split(buf, argv);
	T_EQ_INT(cli_opt_parse("stat", argc, argv, table, refuse, NULL), -7);
	T_EQ_STR(cli_opt_current(), "-j");
}

/* cli_opt_take: -a takes "caller" or "callee" as the next word, --sim
 * any word not an option (perf's `-g caller`, `--diff BASE NEW`). */
static int t_argc;
static char **t_argv;
static int is_order(const char *w)
{
	return !strcmp(w, "caller") || !strcmp(w, "callee");
}
static int taker(int key, const char *val, void *arg)
{
	if (key == 'a' && !val)
		val = cli_opt_take(t_argc, t_argv, is_order);
	else if (key == K_SIM && !val)
		val = cli_opt_take(t_argc, t_argv, NULL);
	return record(key, val, arg);
}

static void test_take(void)
{
	static const struct {
		int line;
		const char *cmd;
		int mixed;
		const char *seen;
		int first;
	} tc[] = {
		{__LINE__, "-a caller x", 0, "a=caller;", 3},
		{__LINE__, "-a x caller", 0, "a;", 2},
		{__LINE__, "-aj callee", 0, "a;j;", 2},
		{__LINE__, "-ja callee -e y", 0, "j;a=callee;e=y;", 5},
		{__LINE__, "-a -j", 0, "a;j;", 3},
		{__LINE__, "--sim a b", 0, "<3>=a;", 3},
		{__LINE__, "--sim -a", 0, "<3>;a;", 3},
		{__LINE__, "--sim=a b", 0, "<3>=a;", 2},
		{__LINE__, "--sim a", 0, "<3>=a;", 3},
		{__LINE__, "--sim", 0, "<3>;", 2},
		{__LINE__, "f --sim a b -a callee g", 1, "<3>=a;a=callee;", 5},
		{__LINE__, "--sim a -- -j", 1, "<3>=a;", 4},
	};
	for (size_t i = 0; i < sizeof tc / sizeof tc[0]; i++) {
		char buf[256], *argv[32];
		int argc, got;
		snprintf(buf, sizeof buf, "%s", tc[i].cmd);
		argc = split(buf, argv);
		t_argc = argc;
		t_argv = argv;
		seen[0] = 0;
		got = tc[i].mixed ? cli_opt_parse_mixed("report", argc, argv,
							table, taker, NULL)
				  : cli_opt_parse("report", argc, argv, table,
						  taker, NULL);
		T_CHECKF(got == tc[i].first, "line %d '%s': returned %d",
			 tc[i].line, tc[i].cmd, got);
		T_CHECKF(!strcmp(seen, tc[i].seen),
			 "line %d '%s': saw '%s', want '%s'", tc[i].line,
			 tc[i].cmd, seen, tc[i].seen);
	}
}

int main(void)
{
	/* the hints go to stderr: keep them out of the test's output */
	int fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
	T_RUN(test_table);
	T_RUN(test_mixed_order);
	T_RUN(test_canon);
	T_RUN(test_callback_stops);
	T_RUN(test_take);
	return t_done();
}
