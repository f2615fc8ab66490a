/*
 * cli.h: what every `pmkit` command shares.
 *
 * To add a command NAME: create cli/cmd_NAME.c defining
 *     int cmd_NAME(int argc, char **argv);
 * with a line `/\* pmkit-command: NAME | one-line summary *\/` near the top
 * (scripts/gen-commands builds the dispatch table from these lines), and a
 * man page docs/man/pmkit-NAME.1 (shown by `pmkit help NAME`). argv[0] is
 * the command name.
 *
 * Exit codes (docs/man/pmkit.1): 0 success; 1 the command failed;
 * 2 bad usage or bad input (nothing was run); stat and record return the
 * workload's own status, 128+N when it died of signal N, 126/127 when it
 * could not be executed / found.
 */
#ifndef PMK_CLI_H
#define PMK_CLI_H

#include <stdio.h>

#include "pmkit.h"

enum { EXIT_USAGE = 2 };

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};
struct cli_manpage {
	const char *name; /* "pmkit-stat" */
	const char *text; /* roff source */
};
extern const struct cli_command cli_commands[];
extern const struct cli_manpage cli_manpages[];

/* ---- reporting (cli/diag_out.c; it calls no other file of cli/) ---- */

/* "error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a diagnostic as "error: message", the input with a marker, a hint. */
void cli_diag(const pmk_diag *d);
/* ---- manuals and usage (cli/usage.c) ---- */

/* Print "usage: ..." for a command from its man page SYNOPSIS and return
 * EXIT_USAGE. */
int cli_usage(const char *cmd);
/* Render a man page as plain text to `out`; 0, or -1 if there is none. */
int cli_man_render(const char *name, FILE *out);
/* ---- option values (cli/diag_out.c) ---- */

/* Parse a whole non-negative number; 0 on success. */
int cli_parse_u64(const char *s, unsigned long long *out);
/* Parse a number of a command-line option, or print an error naming the
 * option and return -1. */
int cli_opt_u64(const char *opt, const char *s, unsigned long long *out);
/* ---- definition files (cli/defs_load.c) ---- */

/* Load a definition file of user events (--defs FILE); on failure print
 * the error and return non-zero. */
int cli_defs_load(const char *path);
/* Warn once when PMK_USER_EVENTS_FILE could not be loaded. */
void cli_defs_env_warn(void);
/* ---- output (cli/json.c; tables: cli/table.h) ---- */

/* A JSON string (escaped, quoted) and a JSON number (null if not finite). */
void cli_json_str(FILE *out, const char *s);
void cli_json_num(FILE *out, double v);
/* Whether stdout/stderr is a terminal (for progress output; diag_out.c). */
int cli_isatty(int fd);

#endif
