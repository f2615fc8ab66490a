/*
 * daemon_server.c: the daemon's loop (daemon_server.h). One thread: it
 * polls a signalfd (SIGCHLD, SIGTERM, SIGINT, SIGHUP), an inotify watch on
 * the config file's directory (a file replaced by rename is seen as well
 * as one rewritten in place; only the end of a write counts, so a config
 * half written is never read) and the listening socket, and answers one
 * client at a time.
 */
#include "cli/daemon_server.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/daemon_proto.h"
#include "cli/daemon_session.h"

#define STOP_GRACE_MS 30000 /* a record's time to write its file */
#define PING_WAIT_MS  3000

struct server {
	const struct dserver_opts *o;
	struct dsess sess[DCFG_MAX_SESSIONS];
	int n;
	time_t started;
	const char *cfg_name; /* the config file's name in its directory */
	int quit;
};

static void say(struct server *sv, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(struct server *sv, const char *fmt, ...)
{
	struct timeval tv;
	struct tm tm;
	char when[32];
	va_list ap;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(sv->o->log, "[%s.%06ld] ", when, (long)tv.tv_usec);
	va_start(ap, fmt);
	vfprintf(sv->o->log, fmt, ap);
	va_end(ap);
	fputc('\n', sv->o->log);
	fflush(sv->o->log);
}

static void start(struct server *sv, struct dsess *s)
{
	char why[256];
	if (dsess_start(s, sv->o->base, sv->o->exe, sv->o->argv0, why,
			sizeof why) < 0) {
		say(sv, "session '%s': cannot start: %s", s->name, why);
		s->exited = 1;
		s->status = 0;
		return;
	}
	say(sv, "session '%s' started (pid %d): %s", s->name, (int)s->pid,
	    s->run);
}

static void stop(struct server *sv, struct dsess *s, const char *why)
{
	if (!dsess_alive(s))
		return;
	say(sv, "%s: stopping session '%s' (pid %d)", why, s->name,
	    (int)s->pid);
	dsess_stop(s, STOP_GRACE_MS);
}

/* Make the sessions those of `cfg`: removed ones stopped, changed ones
 * restarted, new ones started; one that ended on its own stays ended
 * while its run line is the same. */
static void reconfig(struct server *sv, const struct dcfg *cfg)
{
	int k = 0;
	for (int i = 0; i < sv->n; i++) {
		const struct dcfg_session *c = dcfg_find(cfg, sv->sess[i].name);
		if (!c || strcmp(c->run, sv->sess[i].run))
			stop(sv, &sv->sess[i], "reconfig");
		if (c)
			sv->sess[k++] = sv->sess[i];
	}
	sv->n = k;
	for (int j = 0; j < cfg->nsess; j++) {
		const struct dcfg_session *c = &cfg->sess[j];
		struct dsess *s = NULL;
		for (int i = 0; i < sv->n; i++)
			if (!strcmp(sv->sess[i].name, c->name))
				s = &sv->sess[i];
		if (s && !strcmp(s->run, c->run))
			continue;
		if (!s) {
			s = &sv->sess[sv->n++];
			memset(s, 0, sizeof *s);
			snprintf(s->name, sizeof s->name, "%s", c->name);
		}
		snprintf(s->run, sizeof s->run, "%s", c->run);
		start(sv, s);
	}
}

static void reload(struct server *sv)
{
	static struct dcfg cfg;
	struct dcfg_err e;
	if (!sv->o->config)
		return;
	if (dcfg_load(sv->o->config, &cfg, &e) < 0) {
		say(sv, "reconfig: %s:%d: %s; the sessions are kept",
		    sv->o->config, e.line, e.msg);
		return;
	}
	if (cfg.base[0] && strcmp(cfg.base, sv->o->base))
		say(sv,
		    "reconfig: the base changes at a restart only; still "
		    "%s",
		    sv->o->base);
	reconfig(sv, &cfg);
}

static void reap(struct server *sv)
{
	int st;
	pid_t pid;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (int i = 0; i < sv->n; i++) {
			struct dsess *s = &sv->sess[i];
			if (s->pid != pid || s->exited)
				continue;
			s->exited = 1;
			s->status = st;
			if (WIFSIGNALED(st))
				say(sv, "session '%s' killed by signal %d",
				    s->name, WTERMSIG(st));
			else
				say(sv, "session '%s' exited, status=%d",
				    s->name, WEXITSTATUS(st));
		}
	}
}

static struct dsess *find(struct server *sv, const char *name)
{
	for (int i = 0; i < sv->n; i++)
		if (dsess_alive(&sv->sess[i]) &&
		    !strcmp(sv->sess[i].name, name))
			return &sv->sess[i];
	return NULL;
}

static long minutes(time_t since)
{
	return (long)((time(NULL) - since) / 60);
}

static void list(struct server *sv, const struct dproto_req *r, FILE *f)
{
	const char *b = sv->o->base, *x = r->sep;
	fprintf(f, "0\n");
	if (x[0])
		fprintf(f, "%d%s%s%s%s%s%s/output%s%s/lock%s%ld\n",
			(int)getpid(), x, "daemon", x, b, x, b, x, b, x,
			minutes(sv->started));
	else
		fprintf(f, "[%d:daemon] base: %s\n", (int)getpid(), b);
	if (!x[0] && r->verbose)
		fprintf(f,
			"  output:  %s/output\n  lock:    %s/lock\n"
			"  up:      %ld minutes\n",
			b, b, minutes(sv->started));
	for (int i = 0; i < sv->n; i++) {
		const struct dsess *s = &sv->sess[i];
		const char *d = s->dir;
		if (!dsess_alive(s))
			continue;
		if (x[0]) {
			fprintf(f,
				"%d%s%s%s%s%s%s%s%s/output%s%s/control%s%s/"
				"ack%s%ld\n",
				(int)s->pid, x, s->name, x, s->run, x, d, x, d,
				x, d, x, d, x, minutes(s->started));
			continue;
		}
		fprintf(f, "[%d:%s] %s record %s\n", (int)s->pid, s->name,
			r->as_perf ? "perf" : "pmkit", s->run);
		if (r->verbose)
			fprintf(f,
				"  base:    %s\n  output:  %s/output\n"
				"  control: %s/control\n  ack:     %s/ack\n"
				"  up:      %ld minutes\n",
				d, d, d, d, minutes(s->started));
	}
}

static void ping(struct server *sv, const struct dproto_req *r, FILE *f)
{
	fprintf(f, "0\n");
	if (r->session[0]) {
		struct dsess *s = find(sv, r->session);
		if (!s)
			fprintf(f, "%-4s %s (not found)\n", "FAIL", r->session);
		else
			fprintf(f, "%-4s %s\n",
				dsess_ping(s, PING_WAIT_MS) ? "OK" : "FAIL",
				s->name);
		return;
	}
	for (int i = 0; i < sv->n; i++)
		if (dsess_alive(&sv->sess[i]))
			fprintf(f, "%-4s %s\n",
				dsess_ping(&sv->sess[i], PING_WAIT_MS) ? "OK"
								       : "FAIL",
				sv->sess[i].name);
}

static void sig(struct server *sv, const struct dproto_req *r, FILE *f)
{
	struct dsess *one = r->session[0] ? find(sv, r->session) : NULL;
	if (r->session[0] && !one) {
		fprintf(f, "1\n%s: no session '%s' runs\n",
			r->as_perf ? "failed" : "error", r->session);
		return;
	}
	fprintf(f, "0\n");
	for (int i = 0; i < sv->n; i++) {
		struct dsess *s = &sv->sess[i];
		if ((one && s != one) || !dsess_alive(s))
			continue;
		if (dsess_signal(s, SIGUSR2) == 0)
			fprintf(f, "signal %d sent to session '%s [%d]'\n",
				SIGUSR2, s->name, (int)s->pid);
	}
}

static void shutdown_all(struct server *sv, const char *why)
{
	for (int i = 0; i < sv->n; i++)
		stop(sv, &sv->sess[i], why);
	sv->quit = 1;
}

/* Read one request (waiting at most two seconds for it) and answer it. */
static void serve(struct server *sv, int c)
{
	struct dproto_req r;
	size_t got = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	while (got < sizeof r) {
		struct pollfd p = {c, POLLIN, 0};
		ssize_t k;
		if (poll(&p, 1, 2000) <= 0)
			return;
		k = read(c, (char *)&r + got, sizeof r - got);
		if (k <= 0)
			return;
		got += (size_t)k;
	}
	r.sep[sizeof r.sep - 1] = 0;
	r.session[sizeof r.session - 1] = 0;
	if (memcmp(r.magic, DPROTO_MAGIC, sizeof DPROTO_MAGIC))
		return;
	if (!(f = open_memstream(&text, &len)))
		return;
	switch (r.cmd) {
	case DPROTO_LIST:
		list(sv, &r, f);
		break;
	case DPROTO_PING:
		ping(sv, &r, f);
		break;
	case DPROTO_SIGNAL:
		sig(sv, &r, f);
		break;
	case DPROTO_STOP:
		shutdown_all(sv, "stop");
		fprintf(f, "0\n");
		break;
	default:
		fprintf(f, "2\nerror: unknown request %d\n", r.cmd);
	}
	fclose(f);
	for (size_t off = 0; off < len;) {
		ssize_t k = send(c, text + off, len - off, MSG_NOSIGNAL);
		if (k <= 0)
			break;
		off += (size_t)k;
	}
	free(text);
}

/* The config file's directory watched for it being written or renamed
 * into place; -1 when there is no config file. */
static int watch(struct server *sv)
{
	char dir[PATH_MAX];
	const char *slash;
	int fd;
	if (!sv->o->config || !(slash = strrchr(sv->o->config, '/')))
		return -1;
	snprintf(dir, sizeof dir, "%.*s",
		 (int)(slash == sv->o->config ? 1 : slash - sv->o->config),
		 sv->o->config);
	sv->cfg_name = slash + 1;
	fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd >= 0 &&
	    inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		say(sv, "cannot watch '%s' for changes: %s", dir,
		    strerror(errno));
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Whether the inotify events waiting name the config file. */
static int config_changed(struct server *sv, int fd)
{
	char buf[8192]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	int hit = 0;
	ssize_t k;
	while ((k = read(fd, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + k;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			if (ev->len && !strcmp(ev->name, sv->cfg_name))
				hit = 1;
			p += sizeof *ev + ev->len;
		}
	}
	return hit;
}

int dserver_run(const struct dserver_opts *o, const struct dcfg *cfg)
{
	static struct server sv;
	sigset_t set;
	int sfd, ifd;
	memset(&sv, 0, sizeof sv);
	sv.o = o;
	sv.started = time(NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0) {
		say(&sv, "signalfd: %s", strerror(errno));
		return 1;
	}
	ifd = watch(&sv);
	say(&sv, "daemon started (pid %d)", (int)getpid());
	reconfig(&sv, cfg);
	if (o->ready_fd >= 0) {
		ssize_t k = write(o->ready_fd, "1", 1);
		(void)k;
		close(o->ready_fd);
	}
	while (!sv.quit) {
		struct pollfd p[3] = {{sfd, POLLIN, 0},
				      {o->sock_fd, POLLIN, 0},
				      {ifd, POLLIN, 0}};
		if (poll(p, ifd >= 0 ? 3 : 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			say(&sv, "poll: %s", strerror(errno));
			shutdown_all(&sv, "error");
			break;
		}
		if (p[0].revents) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof si) ==
			       (ssize_t)sizeof si) {
				if (si.ssi_signo == SIGCHLD)
					reap(&sv);
				else if (si.ssi_signo == SIGHUP)
					reload(&sv);
				else
					shutdown_all(&sv, "signal");
			}
		}
		if (!sv.quit && ifd >= 0 && p[2].revents &&
		    config_changed(&sv, ifd))
			reload(&sv);
		if (!sv.quit && p[1].revents) {
			int c = accept4(o->sock_fd, NULL, NULL, SOCK_CLOEXEC);
			if (c >= 0) {
				serve(&sv, c);
				close(c);
			}
		}
	}
	reap(&sv);
	say(&sv, "daemon exited");
	close(sfd);
	if (ifd >= 0)
		close(ifd);
	return 0;
}
