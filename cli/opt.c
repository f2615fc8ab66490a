/*
 * opt.c: the table-driven option parser (cli/opt.h) on getopt_long. The
 * table becomes getopt_long's short-option string and long-option array;
 * errors are explained here so every command words them alike.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "lib/core/strdist.h"

#define MAX_OPTS 96

static char current[80];

const char *cli_opt_current(void)
{
	return current;
}

/* "--name" of an option key, or "-k". */
static void key_name(const struct cli_opt *opts, int key, const char *typed,
		     char *buf, size_t size)
{
	if (typed && typed[0] == '-' && typed[1] == '-') {
		size_t n = strcspn(typed, "=");
		snprintf(buf, size, "%.*s", (int)n, typed);
		return;
	}
	if (key > 0 && key < 256) {
		snprintf(buf, size, "-%c", key);
		return;
	}
	for (const struct cli_opt *o = opts; o->key; o++)
		if (o->key == key && o->name) {
			snprintf(buf, size, "--%s", o->name);
			return;
		}
	snprintf(buf, size, "%s", typed ? typed : "?");
}

/* "did you mean '--per-core'?" for a mistyped long or short option. */
static void hint_nearest(const struct cli_opt *opts, const char *bad)
{
	const char *best = NULL;
	int bestd = 99;
	char want[80];
	size_t n = strcspn(bad, "=");
	while (*bad == '-' && n)
		bad++, n--;
	snprintf(want, sizeof want, "%.*s", (int)n, bad);
	if (!want[0])
		return;
	for (const struct cli_opt *o = opts; o->key; o++) {
		int d;
		if (!o->name)
			continue;
		d = pmk__edit_distance(want, o->name);
		/* "--null-run" for "--null": one holds the other whole */
		if (d > 1 && (strstr(want, o->name) == want ||
			      strstr(o->name, want) == o->name))
			d = 1;
		if (d < bestd) {
			bestd = d;
			best = o->name;
		}
	}
	/* a short typo like "-per-core" is the long option with one dash */
	if (best && (bestd <= 2 || bestd * 3 <= (int)strlen(best)))
		fprintf(stderr, "hint: did you mean '--%s'?\n", best);
}

const char *cli_opt_take(int argc, char **argv, int (*ok)(const char *))
{
	const char *w;
	if (optind < 1 || optind >= argc)
		return NULL;
	w = argv[optind];
	/* an option word is never taken: that is also where a cluster not
	 * yet done (`-gv`) still stands */
	if ((w[0] == '-' && w[1]) || (ok && !ok(w)))
		return NULL;
	optind++;
	return w;
}

int cli_opt_dashdash(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1] == '-' && !argv[i][2])
			return i;
	return argc;
}

int cli_opt_help_asked;

static int parse(const char *cmd, int argc, char **argv,
		 const struct cli_opt *opts, cli_opt_fn fn, void *arg,
		 int permute)
{
	struct option lo[MAX_OPTS + 1];
	char so[3 * MAX_OPTS + 3];
	int nl = 0, ns = 0;

	if (!permute)
		so[ns++] = '+'; /* stop at the first operand: a workload's options */
	so[ns++] = ':'; /* report a missing value as ':' */
	for (const struct cli_opt *o = opts; o->key && nl < MAX_OPTS; o++) {
		if (o->key < 256) {
			so[ns++] = (char)o->key;
			if (o->arg == CLI_ARG)
				so[ns++] = ':';
		}
		if (o->name) {
			lo[nl].name = o->name;
			lo[nl].has_arg = o->arg == CLI_ARG      ? required_argument
					 : o->arg == CLI_OPTARG ? optional_argument
								: no_argument;
			lo[nl].flag = NULL;
			lo[nl].val = o->key;
			nl++;
		}
	}
	so[ns] = 0;
	memset(&lo[nl], 0, sizeof lo[nl]);

	optind = 0; /* glibc: start over (several parses in one process) */
	opterr = 0;
	for (;;) {
		int prev = optind ? optind : 1, li = -1;
		int c = getopt_long(argc, argv, so, lo, &li);
		const char *typed;
		char name[80];
		if (c == -1)
			break;
		typed = prev < argc ? argv[prev] : NULL;
		if (c == '?' && typed &&
		    (!strcmp(typed, "--help") || !strcmp(typed, "-h"))) {
			/* a subcommand's --help: main.c shows the manual */
			cli_opt_help_asked = 1;
			return -EXIT_USAGE;
		}
		if (c == '?') {
			if (optopt && optopt < 256 && !(typed && typed[1] == '-')) {
				cli_error("unknown option '-%c'", optopt);
				if (typed)
					hint_nearest(opts, typed);
			} else if (optopt) {
				/* a long option given a value it takes not */
				key_name(opts, optopt, typed, name, sizeof name);
				cli_error("option '%s' takes no value", name);
			} else {
				const char *bad = argv[optind - 1];
				size_t n = strcspn(bad, "=");
				int amb = 0;
				for (int k = 0; k < nl; k++)
					amb += !strncmp(lo[k].name, bad + 2,
							n > 2 ? n - 2 : 0);
				if (amb > 1)
					cli_error("option '%.*s' is ambiguous",
						  (int)n, bad);
				else
					cli_error("unknown option '%.*s'",
						  (int)n, bad);
				hint_nearest(opts, bad);
			}
			cli_usage(cmd);
			return -EXIT_USAGE;
		}
		if (c == ':') {
			key_name(opts, optopt, argv[optind - 1], name, sizeof name);
			cli_error("option '%s' needs a value", name);
			cli_usage(cmd);
			return -EXIT_USAGE;
		}
		if (li >= 0)
			snprintf(current, sizeof current, "--%s", lo[li].name);
		else
			snprintf(current, sizeof current, "-%c", c);
		{
			int rc = fn(c, optarg, arg);
			if (rc)
				return -rc;
		}
	}
	return optind;
}

int cli_opt_parse(const char *cmd, int argc, char **argv,
		  const struct cli_opt *opts, cli_opt_fn fn, void *arg)
{
	return parse(cmd, argc, argv, opts, fn, arg, 0);
}

int cli_opt_parse_mixed(const char *cmd, int argc, char **argv,
			const struct cli_opt *opts, cli_opt_fn fn, void *arg)
{
	return parse(cmd, argc, argv, opts, fn, arg, 1);
}

int cli_opt_parse_only(const char *cmd, int argc, char **argv,
		       const struct cli_opt *opts, cli_opt_fn fn, void *arg)
{
	int i = cli_opt_parse_mixed(cmd, argc, argv, opts, fn, arg);
	if (i < 0)
		return -i;
	if (i < argc) {
		cli_error("unknown argument '%s'", argv[i]);
		return cli_usage(cmd);
	}
	return 0;
}

/* cli_opt_canon: the options collected as canonical words. The words and
 * the array live in static storage (reachable until exit, so no leak). */
struct canon {
	const struct cli_opt *opts;
	char **out;
	int n;
	size_t used; /* of the word arena */
};

static char canon_arena[16384];
static char **canon_argv;

static int canon_add(int key, const char *val, void *arg)
{
	struct canon *c = arg;
	const char *word = NULL;
	char *w = canon_arena + c->used;
	int n;
	for (const struct cli_opt *o = c->opts; o->key; o++)
		if (o->key == key) {
			word = o->name;
			break;
		}
	n = word ? snprintf(w, sizeof canon_arena - c->used, "--%s", word)
		 : snprintf(w, sizeof canon_arena - c->used, "-%c", key);
	if (n < 0 || (size_t)n + 1 > sizeof canon_arena - c->used) {
		cli_error("too many options");
		return EXIT_USAGE;
	}
	c->used += (size_t)n + 1;
	c->out[c->n++] = w;
	if (val)
		c->out[c->n++] = (char *)val;
	return 0;
}

int cli_opt_canon(const char *cmd, int *argc, char ***argv,
		  const struct cli_opt *opts)
{
	struct canon c;
	int first;
	c.opts = opts;
	c.n = 0;
	c.used = 0;
	free(canon_argv);
	/* each option takes at least one character of argv (a cluster such
	 * as -abc is three options in one argument) and gives at most two
	 * words; then the operands, the command name and a NULL */
	size_t cap = (size_t)*argc + 2;
	for (int i = 1; i < *argc; i++)
		cap += 2 * strlen((*argv)[i]);
	canon_argv = c.out = calloc(cap, sizeof *c.out);
	if (!c.out)
		return 1;
	c.out[c.n++] = (*argv)[0];
	first = parse(cmd, *argc, *argv, opts, canon_add, &c, 1);
	if (first < 0)
		return -first;
	for (int i = first; i < *argc; i++)
		c.out[c.n++] = (*argv)[i];
	c.out[c.n] = NULL;
	*argc = c.n;
	*argv = c.out;
	return 0;
}
