/*
 * daemon_config.h: the configuration of `pmkit daemon` (cli/cmd_daemon.c),
 * read from a perf config file: a `[daemon]` section with `base = PATH`
 * and one `[session-NAME]` section with `run = RECORD ARGUMENTS` per
 * record session. Other sections (a ~/.perfconfig's [report], ...) are
 * skipped. Pure: parsing makes no system call; dcfg_load reads the file.
 */
#ifndef PMK_CLI_DAEMON_CONFIG_H
#define PMK_CLI_DAEMON_CONFIG_H

#include <limits.h>
#include <stddef.h>

#define DCFG_MAX_SESSIONS 32
#define DCFG_NAME_MAX	  64   /* a session's name, with its NUL */
#define DCFG_RUN_MAX	  1024 /* a session's run line, with its NUL */
#define DCFG_BASE_MAX	  (PATH_MAX - 128) /* room for session paths */
#define DCFG_FILE_MAX	  (1 << 20)	   /* a config file larger is refused */

struct dcfg_session {
	char name[DCFG_NAME_MAX];
	char run[DCFG_RUN_MAX];
	int line; /* of its [session-NAME] header */
};

struct dcfg {
	char base[DCFG_BASE_MAX]; /* "" when the file names none */
	int nsess;
	struct dcfg_session sess[DCFG_MAX_SESSIONS];
};

/* What was wrong: the line (1-based; 0 for the file as a whole) and why. */
struct dcfg_err {
	int line;
	char msg[192];
};

/* Parse `len` bytes of config text into `c`. 0, or -1 with `e` filled. */
int dcfg_parse(const char *text, size_t len, struct dcfg *c,
	       struct dcfg_err *e);
/* Read and parse the file at `path`; -1 with `e` filled when it cannot be
 * read (line 0) or does not parse. */
int dcfg_load(const char *path, struct dcfg *c, struct dcfg_err *e);
/* The session named `name`, or NULL. */
const struct dcfg_session *dcfg_find(const struct dcfg *c, const char *name);

#endif
