/*
 * daemon_session.h: one record session of `pmkit daemon`: a `record`
 * process started from the session's run line in BASE/session-NAME (its
 * working directory), with the control and ack FIFOs there for
 * `--control=fifo:control,ack` and its standard output and error in
 * `output`; stopped with SIGTERM (SIGKILL to its process group when it
 * does not end); pinged through its control FIFO; signalled.
 */
#ifndef PMK_CLI_DAEMON_SESSION_H
#define PMK_CLI_DAEMON_SESSION_H

#include <limits.h>
#include <sys/types.h>
#include <time.h>

#include "cli/daemon_config.h"

struct dsess {
	char name[DCFG_NAME_MAX];
	char run[DCFG_RUN_MAX];
	char dir[PATH_MAX]; /* BASE/session-NAME */
	pid_t pid;	    /* the record process; 0 before it starts */
	int exited;	    /* it ended (not restarted until reconfigured) */
	int status;	    /* its wait status, once exited */
	time_t started;
};

/* Make the session's directory, FIFOs and output file under `base` and
 * start `exe` (named `argv0`) as `record --control=fifo:control,ack RUN`.
 * 0, or -1 with `why` saying what failed. */
int dsess_start(struct dsess *s, const char *base, const char *exe,
		const char *argv0, char *why, size_t size);
/* Stop a running session: SIGTERM, and SIGKILL to its process group when
 * it has not ended after `grace_ms`; reaps it. */
void dsess_stop(struct dsess *s, int grace_ms);
/* Send "ping" on the control FIFO and wait up to `timeout_ms` for "ack":
 * 1 when it came, 0 when not. */
int dsess_ping(const struct dsess *s, int timeout_ms);
/* Send `sig`, and wait (up to a second) until the process has taken it,
 * so that two signals in a row are two signals, not one. 0, or -1. */
int dsess_signal(const struct dsess *s, int sig);
/* Whether the session's record process runs. */
int dsess_alive(const struct dsess *s);

#endif
