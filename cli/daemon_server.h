/*
 * daemon_server.h: the running `pmkit daemon`: it starts the configured
 * record sessions, answers the clients on its socket (daemon_proto.h),
 * follows changes of its config file (inotify: sessions whose run line
 * changed are restarted, removed ones stopped, new ones started), notes
 * in its log which sessions ended, and on `daemon stop` or SIGTERM stops
 * every session before it exits. Started by cli/daemon_start.c, which
 * has taken the base's lock and made the socket and the log.
 */
#ifndef PMK_CLI_DAEMON_SERVER_H
#define PMK_CLI_DAEMON_SERVER_H

#include <stdio.h>

#include "cli/daemon_config.h"

struct dserver_opts {
	const char *config; /* the config file (absolute), or NULL */
	const char *base;   /* the base directory (absolute) */
	const char *exe;    /* this program, to start `record` with */
	const char *argv0;  /* its name for the sessions ("perf", "pmkit") */
	int sock_fd;	    /* listening on BASE/control */
	FILE *log;	    /* BASE/output */
	int ready_fd;	    /* written to (then closed) once up, or -1 */
};

/* Run until stopped; the exit code. */
int dserver_run(const struct dserver_opts *o, const struct dcfg *cfg);

#endif
