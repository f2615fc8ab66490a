/*
 * daemon_client.h: the client side of `pmkit daemon` (list, stop, signal,
 * ping): send one request to the daemon on BASE/control and print its
 * reply (daemon_proto.h).
 */
#ifndef PMK_CLI_DAEMON_CLIENT_H
#define PMK_CLI_DAEMON_CLIENT_H

#include "cli/daemon_proto.h"

/* The exit code the reply carries, or 1 after an error was printed (no
 * daemon on `base`, no answer). */
int dclient_request(const char *base, const struct dproto_req *r);

#endif
