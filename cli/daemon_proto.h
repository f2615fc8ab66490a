/*
 * daemon_proto.h: what `pmkit daemon` clients (list, stop, signal, ping)
 * and the daemon say to each other over the daemon's socket BASE/control:
 * one request, then the reply as text, and the connection is closed. The
 * reply's first line is the exit code the client takes ("0\n"), the rest
 * is what it prints: on standard output for 0, on standard error else.
 */
#ifndef PMK_CLI_DAEMON_PROTO_H
#define PMK_CLI_DAEMON_PROTO_H

#include "cli/daemon_config.h"

#define DPROTO_MAGIC "pmkit-daemon-1"

enum dproto_cmd { DPROTO_LIST = 1, DPROTO_STOP, DPROTO_SIGNAL, DPROTO_PING };

struct dproto_req {
	char magic[16]; /* DPROTO_MAGIC */
	int cmd;	/* enum dproto_cmd */
	int verbose;	/* list -v */
	char sep[16];	/* list -x SEP, "" for the bracketed layout */
	char session[DCFG_NAME_MAX]; /* signal, ping: one session, "" all */
	int as_perf;		     /* the client runs as perf: perf's words */
};

#endif
