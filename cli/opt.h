/*
 * opt.h: the one option parser of the pmkit commands, on getopt_long.
 *
 * A command describes its options in a table and gets one callback per
 * option, in command-line order:
 *
 *     static const struct cli_opt opts[] = {
 *         {'e', "event", CLI_ARG},      // -e X, -eX, --event X, --event=X
 *         {'a', "all-cpus", CLI_NOARG}, // -a, combined: -av
 *         {OPT_JSON, "json", CLI_NOARG},// long only: keys >= 256
 *         {0},
 *     };
 *     int i = cli_opt_parse("stat", argc, argv, opts, on_opt, &o);
 *
 * Every command parses its options here.
 *
 * Parsing stops at `--` or at the first operand (the command to run keeps
 * its own options). Long names may be shortened to a unique prefix, as
 * getopt_long and perf allow. An unknown option, a missing value or a
 * value given to a flag prints `error: ...` with the nearest option name
 * as a hint, then the command's usage, and returns -EXIT_USAGE (-2).
 */
#ifndef PMK_CLI_OPT_H
#define PMK_CLI_OPT_H

enum { CLI_NOARG = 0, CLI_ARG = 1, CLI_OPTARG = 2 };

struct cli_opt {
	int key;           /* a short option's letter, or >= 256 for long only */
	const char *name;  /* long name without "--", or NULL */
	int arg;           /* CLI_NOARG, CLI_ARG or CLI_OPTARG (only "--name=V") */
};

/* Set when the parse stopped at a --help or -h the table does not take
 * (`pmkit bench os --help`): the parse returns -EXIT_USAGE without a word,
 * and main.c shows the command's manual and exits 0. */
extern int cli_opt_help_asked;

/* The callback: `val` is the option's value (NULL for flags). It returns 0
 * to go on, or an exit code (after printing why) to stop. */
typedef int (*cli_opt_fn)(int key, const char *val, void *arg);

/* Parse argv[1..] (argv[0] is the command name). Returns the index of the
 * first operand (argc when none), or a negative exit code: -EXIT_USAGE for
 * a usage error, or minus the callback's code. */
int cli_opt_parse(const char *cmd, int argc, char **argv,
		  const struct cli_opt *opts, cli_opt_fn fn, void *arg);

/* The same for commands that run no program: options and operands may be
 * mixed (`pmkit list cycles --json`); the operands are moved to the end of
 * argv, in their order, and the index of the first is returned. */
int cli_opt_parse_mixed(const char *cmd, int argc, char **argv,
			const struct cli_opt *opts, cli_opt_fn fn, void *arg);
/* Options and no operand at all: 0, or the exit code after an error (an
 * operand is "unknown argument", with the command's usage). */
int cli_opt_parse_only(const char *cmd, int argc, char **argv,
		       const struct cli_opt *opts, cli_opt_fn fn, void *arg);

/* No command uses this any more (addie went to cli_opt_parse_mixed); kept
 * while tests/fuzz/fuzz_opt.c drives it. For code that walks argv itself:
 * check argv against the
 * table (errors and hints as above) and replace it with a canonical copy,
 * every option as "--name" (or "-k" when it has no long name) followed by
 * its value as a word of its own, then the operands. 0, or the exit code
 * after an error was printed. */
int cli_opt_canon(const char *cmd, int *argc, char ***argv,
		  const struct cli_opt *opts);

/* For options whose value may follow as a word of its own, as perf takes
 * them (`--call-graph dwarf`, `-g caller`, `--diff BASE NEW`): called from
 * the callback, it returns the next word and moves past it when `ok`
 * accepts it (any word not starting with '-' when `ok` is NULL), else NULL. */
const char *cli_opt_take(int argc, char **argv, int (*ok)(const char *));

/* The index of the word "--" in argv[1..argc-1], or argc: for commands
 * that mix options and operands before it and run a command after it. */
int cli_opt_dashdash(int argc, char **argv);

/* The option as the user wrote it ("-e" or "--event"), for messages from
 * the callback about the option being handled. */
const char *cli_opt_current(void);

/* The value `v` of the option being handled as a whole number, or a
 * number, within [lo, hi]; 0, or EXIT_USAGE after an error naming the
 * option and the range. */
int cli_opt_u64_in(const char *v, unsigned long long lo, unsigned long long hi,
		   unsigned long long *out);
int cli_opt_double_in(const char *v, double lo, double hi, double *out);

#endif
