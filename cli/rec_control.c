/*
 * rec_control.c: record's control descriptors (rec_control.h). The FIFOs of
 * fifo:CTL,ACK are opened read-write, so that opening never waits for the
 * other side and a controller that comes and goes (one `daemon ping` after
 * another) never gives us an end of file; the control descriptor is made
 * non-blocking and polled by record's loop.
 */
#include "cli/rec_control.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static int open_fifo(const char *opt, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		cli_error("option '%s': cannot open '%s': %s", opt, path,
			  strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
		cli_error("option '%s': '%s' is not a FIFO (mkfifo makes one)",
			  opt, path);
		close(fd);
		return -1;
	}
	return fd;
}

static int parse_fd(const char *opt, const char *s, int *fd)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < 0 || v > 1 << 20 || *s == '-' ||
	    *s == '+') {
		cli_error("option '%s': '%s' is not a file descriptor", opt, s);
		return -1;
	}
	if (fcntl((int)v, F_GETFD) < 0) {
		cli_error("option '%s': descriptor %ld is not open", opt, v);
		return -1;
	}
	*fd = (int)v;
	return 0;
}

int rec_ctl_open(struct rec_ctl *c, const char *opt, const char *spec)
{
	char tmp[4096];
	char *ack;
	int fifo;
	rec_ctl_close(c);
	if (!strncmp(spec, "fifo:", 5))
		fifo = 1;
	else if (!strncmp(spec, "fd:", 3))
		fifo = 0;
	else {
		cli_error("option '%s' takes fifo:CTL[,ACK] or fd:N[,M], not "
			  "'%s'",
			  opt, spec);
		return EXIT_USAGE;
	}
	if (snprintf(tmp, sizeof tmp, "%s", spec + (fifo ? 5 : 3)) >=
		(int)sizeof tmp ||
	    !tmp[0]) {
		cli_error("option '%s': no control %s in '%s'", opt,
			  fifo ? "FIFO" : "descriptor", spec);
		return EXIT_USAGE;
	}
	ack = strchr(tmp, ',');
	if (ack)
		*ack++ = 0;
	if (fifo) {
		c->owned = 1;
		if ((c->ctl_fd = open_fifo(opt, tmp)) < 0 ||
		    (ack && (c->ack_fd = open_fifo(opt, ack)) < 0)) {
			rec_ctl_close(c);
			return EXIT_USAGE;
		}
	} else if (parse_fd(opt, tmp, &c->ctl_fd) ||
		   (ack && parse_fd(opt, ack, &c->ack_fd))) {
		c->ctl_fd = c->ack_fd = -1;
		return EXIT_USAGE;
	} else {
		int fl = fcntl(c->ctl_fd, F_GETFL);
		if (fl >= 0)
			fcntl(c->ctl_fd, F_SETFL, fl | O_NONBLOCK);
	}
	return 0;
}

static const struct {
	const char *word;
	enum rec_ctl_cmd cmd;
} words[] = {
    {"enable", REC_CTL_ENABLE},	    {"disable", REC_CTL_DISABLE},
    {"ping", REC_CTL_PING},	    {"stop", REC_CTL_STOP},
    {"snapshot", REC_CTL_SNAPSHOT}, {"evlist", REC_CTL_EVLIST},
};

/* The command at the start of the buffer, `n` bytes, its end excluded. */
static enum rec_ctl_cmd decode(const char *s, size_t n, char *arg, size_t size)
{
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	snprintf(arg, size, "%.*s", (int)n, s);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t w = strlen(words[i].word);
		if (n >= w && !memcmp(s, words[i].word, w) &&
		    (n == w || s[w] == ' ')) {
			snprintf(arg, size, "%.*s",
				 (int)(n > w ? n - w - 1 : 0),
				 s + (n > w ? w + 1 : w));
			return words[i].cmd;
		}
	}
	return REC_CTL_UNKNOWN;
}

enum rec_ctl_cmd rec_ctl_next(struct rec_ctl *c, char *arg, size_t size)
{
	if (c->ctl_fd < 0)
		return REC_CTL_NONE;
	for (;;) {
		for (size_t i = 0; i < c->len; i++) {
			if (c->buf[i] == '\n' || c->buf[i] == 0) {
				enum rec_ctl_cmd cmd =
				    decode(c->buf, i, arg, size);
				memmove(c->buf, c->buf + i + 1, c->len - i - 1);
				c->len -= i + 1;
				if (i == 0) /* an empty line */
					return rec_ctl_next(c, arg, size);
				return cmd;
			}
		}
		if (c->len == sizeof c->buf) /* a line too long: dropped */
			c->len = 0;
		ssize_t k =
		    read(c->ctl_fd, c->buf + c->len, sizeof c->buf - c->len);
		if (k <= 0) {
			if (k < 0 && errno == EINTR)
				continue;
			return REC_CTL_NONE;
		}
		c->len += (size_t)k;
	}
}

void rec_ctl_ack(struct rec_ctl *c)
{
	ssize_t k;
	if (c->ack_fd < 0)
		return;
	while ((k = write(c->ack_fd, "ack\n", 4)) < 0 && errno == EINTR)
		;
}

void rec_ctl_close(struct rec_ctl *c)
{
	if (c->owned) {
		if (c->ctl_fd >= 0)
			close(c->ctl_fd);
		if (c->ack_fd >= 0)
			close(c->ack_fd);
	}
	c->ctl_fd = c->ack_fd = -1;
	c->owned = 0;
	c->len = 0;
}

int rec_ctl_all_events(enum rec_ctl_cmd cmd, const char *arg)
{
	if (!arg[0])
		return 1;
	cli_warn("--control: '%s %s': pmkit enables and disables all events "
		 "at once; ignored",
		 cmd == REC_CTL_ENABLE ? "enable" : "disable", arg);
	return 0;
}
