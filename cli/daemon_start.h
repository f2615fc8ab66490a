/*
 * daemon_start.h: `pmkit daemon start`: take the base directory's lock
 * (BASE/lock, holding the daemon's pid; a second daemon on the same base
 * is refused), make the clients' socket BASE/control and the log
 * BASE/output, go to the background (unless `foreground`) and run the
 * daemon (daemon_server.h). The command returns once the daemon has
 * started its sessions and listens.
 */
#ifndef PMK_CLI_DAEMON_START_H
#define PMK_CLI_DAEMON_START_H

#include "cli/daemon_config.h"

/* The exit code: 0 started (or, in the foreground, stopped), 1 failed
 * (said on stderr). */
int daemon_start(const char *config, const struct dcfg *cfg, const char *base,
		 int foreground);

#endif
