/*
 * daemon_session.c: starting, stopping, pinging and signalling one record
 * session of `pmkit daemon` (daemon_session.h).
 *
 * The run line is split at blanks, with '...' and "..." quoting, as a
 * shell would split a line without expansions. The record process gets
 * its own process group, so that a session killed outright takes its
 * workload with it.
 */
#include "cli/daemon_session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 256

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

/* Split `run` into argv[from..] (words copied into `buf`); the count, or
 * -1 when a quote is not closed or there are too many words. */
static int split(const char *run, char **argv, int from, char *buf)
{
	int n = from;
	const char *p = run;
	for (;;) {
		char q = 0;
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (n == MAX_ARGS - 1)
			return -1;
		argv[n++] = buf;
		for (; *p && (q || (*p != ' ' && *p != '\t' && *p != '\n'));
		     p++) {
			if (!q && (*p == '\'' || *p == '"'))
				q = *p;
			else if (q && *p == q)
				q = 0;
			else
				*buf++ = *p;
		}
		if (q)
			return -1;
		*buf++ = 0;
	}
	argv[n] = NULL;
	return n;
}

/* A FIFO at `path`: a stale one (or anything else of ours) replaced. */
static int fifo_at(const char *path)
{
	unlink(path);
	return mkfifo(path, 0600);
}

int dsess_start(struct dsess *s, const char *base, const char *exe,
		const char *argv0, char *why, size_t size)
{
	char *argv[MAX_ARGS], *buf, path[PATH_MAX + 16];
	int out, n;
	pid_t pid;
	s->pid = 0;
	s->exited = 0;
	if (snprintf(s->dir, sizeof s->dir, "%s/session-%s", base, s->name) >=
	    (int)sizeof s->dir) {
		snprintf(why, size, "path too long");
		return -1;
	}
	buf = malloc(strlen(s->run) + 1);
	if (!buf) {
		snprintf(why, size, "out of memory");
		return -1;
	}
	argv[0] = (char *)argv0;
	argv[1] = (char *)"record";
	argv[2] = (char *)"--control=fifo:control,ack";
	if ((n = split(s->run, argv, 3, buf)) < 0) {
		snprintf(why, size,
			 "run line: unclosed quote or more than %d "
			 "words",
			 MAX_ARGS - 4);
		free(buf);
		return -1;
	}
	if (mkdir(s->dir, 0755) && errno != EEXIST) {
		snprintf(why, size, "cannot make '%s': %s", s->dir,
			 strerror(errno));
		free(buf);
		return -1;
	}
	snprintf(path, sizeof path, "%s/control", s->dir);
	if (fifo_at(path) == 0) {
		snprintf(path, sizeof path, "%s/ack", s->dir);
		if (fifo_at(path) == 0)
			path[0] = 0;
	}
	if (path[0]) {
		snprintf(why, size, "cannot make the FIFO '%s': %s", path,
			 strerror(errno));
		free(buf);
		return -1;
	}
	/* a log, appended while the session runs (not a result file) */
	snprintf(path, sizeof path, "%s/output", s->dir);
	out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		   0644);
	if (out < 0) {
		snprintf(why, size, "cannot open '%s': %s", path,
			 strerror(errno));
		free(buf);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(why, size, "fork: %s", strerror(errno));
		close(out);
		free(buf);
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		int in = open("/dev/null", O_RDONLY);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		if (in < 0 || chdir(s->dir) || dup2(in, 0) < 0 ||
		    dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(126);
		execv(exe, argv);
		dprintf(2, "cannot run '%s': %s\n", exe, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* either side may win the race */
	close(out);
	free(buf);
	s->pid = pid;
	s->started = time(NULL);
	return 0;
}

int dsess_alive(const struct dsess *s)
{
	return s->pid > 0 && !s->exited;
}

/* Reap the session if it has ended: 1 when it has. */
static int reaped(struct dsess *s, int wait_flags)
{
	int st;
	pid_t r = waitpid(s->pid, &st, wait_flags);
	if (r == s->pid || (r < 0 && errno == ECHILD)) {
		s->exited = 1;
		s->status = r == s->pid ? st : 0;
		return 1;
	}
	return 0;
}

void dsess_stop(struct dsess *s, int grace_ms)
{
	if (!dsess_alive(s))
		return;
	kill(s->pid, SIGTERM);
	for (int t = 0; t < grace_ms; t += 10) {
		if (reaped(s, WNOHANG))
			break;
		sleep_ms(10);
	}
	if (!s->exited) {
		kill(-s->pid, SIGKILL);
		kill(s->pid, SIGKILL);
		reaped(s, 0);
	}
	/* what the record started and left behind in its group */
	kill(-s->pid, SIGKILL);
}

int dsess_ping(const struct dsess *s, int timeout_ms)
{
	char path[PATH_MAX + 16], buf[256];
	int ctl, ack, ok = 0;
	ssize_t k;
	struct pollfd pfd;
	if (!dsess_alive(s))
		return 0;
	snprintf(path, sizeof path, "%s/control", s->dir);
	/* ENXIO until the record has opened its end: not up yet */
	ctl = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (ctl < 0)
		return 0;
	snprintf(path, sizeof path, "%s/ack", s->dir);
	ack = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ack < 0) {
		close(ctl);
		return 0;
	}
	while (read(ack, buf, sizeof buf) > 0) /* a late ack of a past ping */
		;
	if (write(ctl, "ping\n", 5) == 5) {
		pfd.fd = ack;
		pfd.events = POLLIN;
		for (int t = 0; t < timeout_ms && !ok; t += 50) {
			if (poll(&pfd, 1, 50) > 0 &&
			    (k = read(ack, buf, sizeof buf - 1)) > 0) {
				buf[k] = 0;
				ok = strstr(buf, "ack") != NULL;
			}
			if (!ok && kill(s->pid, 0) != 0)
				break;
		}
	}
	close(ctl);
	close(ack);
	return ok;
}

/* Whether signal `sig` waits to be taken by process `pid` (its shared or
 * its main thread's pending set, /proc/PID/status). */
static int pending(pid_t pid, int sig)
{
	char path[64], line[256];
	int p = 0;
	FILE *f;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long m;
		if ((sscanf(line, "SigPnd: %llx", &m) == 1 ||
		     sscanf(line, "ShdPnd: %llx", &m) == 1) &&
		    (m >> (sig - 1)) & 1)
			p = 1;
	}
	fclose(f);
	return p;
}

int dsess_signal(const struct dsess *s, int sig)
{
	if (!dsess_alive(s) || kill(s->pid, sig) != 0)
		return -1;
	for (int t = 0; t < 1000 && pending(s->pid, sig); t += 5)
		sleep_ms(5);
	return 0;
}
