/*
 * daemon_client.c: one request to the daemon and its reply
 * (daemon_client.h). A reply is waited for as long as the daemon takes:
 * `stop` returns once every session has ended.
 */
#include "cli/daemon_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/cli.h"

int dclient_request(const char *base, const struct dproto_req *r)
{
	struct sockaddr_un a;
	char buf[4096];
	int fd, rc = -1, first = 1;
	size_t off = 0;
	ssize_t k;
	FILE *out = stdout;
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	if (snprintf(a.sun_path, sizeof a.sun_path, "%s/control", base) >=
	    (int)sizeof a.sun_path) {
		cli_error("base '%s' is too long for a socket path", base);
		return 1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		fprintf(stderr,
			"%s: no daemon on '%s': cannot connect to "
			"'%s': %s\n",
			r->as_perf ? "failed" : "error", base, a.sun_path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	while (off < sizeof *r) {
		k = send(fd, (const char *)r + off, sizeof *r - off,
			 MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		off += (size_t)k;
	}
	/* "RC\n" first, then the text */
	off = 0;
	while ((k = read(fd, buf + off, sizeof buf - 1 - off)) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		off += (size_t)k;
		if (first) {
			char *nl;
			buf[off] = 0;
			if (!(nl = strchr(buf, '\n'))) {
				if (off < sizeof buf - 1)
					continue;
				break;
			}
			rc = atoi(buf);
			out = rc ? stderr : stdout;
			first = 0;
			fwrite(nl + 1, 1, off - (size_t)(nl + 1 - buf), out);
		} else {
			fwrite(buf, 1, off, out);
		}
		off = 0;
	}
	close(fd);
	if (rc < 0) {
		cli_error("no answer from the daemon on '%s'", base);
		return 1;
	}
	fflush(out);
	return rc;
}
