/*
 * daemon_start.c: the lock, socket and log of a new daemon, and its
 * detaching from the terminal (daemon_start.h). The lock is a flock on
 * BASE/lock taken before the fork: the daemon inherits the locked
 * descriptor, so there is no moment when the base is not locked. The
 * parent waits on a pipe until the daemon says it is up.
 */
#include "cli/daemon_start.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/daemon_server.h"
#include "cli/personality.h"

/* Another daemon holds the base: said with perf's word for it when run
 * as perf, which scripts look for ("failed:"). */
static void refuse(const char *base, int pid)
{
	fprintf(stderr, "%s: another daemon (pid %d) owns %s\n",
		cli_as_perf ? "failed" : "error", pid, base);
}

static int take_lock(const char *base)
{
	char path[PATH_MAX + 8], buf[32] = "";
	int fd;
	snprintf(path, sizeof path, "%s/lock", base);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
	if (fd < 0) {
		cli_error("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
		buf[k > 0 ? k : 0] = 0;
		if (errno == EWOULDBLOCK || errno == EAGAIN)
			refuse(base, atoi(buf));
		else
			cli_error("cannot lock '%s': %s", path,
				  strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int listen_at(const char *base)
{
	struct sockaddr_un a;
	int fd;
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	if (snprintf(a.sun_path, sizeof a.sun_path, "%s/control", base) >=
	    (int)sizeof a.sun_path) {
		cli_error("base '%s' is too long for a socket path (at most "
			  "%zu bytes with '/control')",
			  base, sizeof a.sun_path - 1);
		return -1;
	}
	unlink(a.sun_path); /* a dead daemon's: we hold the lock */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    listen(fd, 16) < 0) {
		cli_error("cannot listen on '%s': %s", a.sun_path,
			  strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static FILE *open_log(const char *base)
{
	char path[PATH_MAX + 8];
	struct stat st;
	FILE *f;
	int fd;
	snprintf(path, sizeof path, "%s/output", base);
	/* a log appended while the daemon runs, not a result file */
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    !(f = fdopen(fd, "a"))) {
		cli_error("cannot write the log '%s': %s", path,
			  fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return f;
}

/* In the daemon: no terminal, standard output and error to the log, no
 * descriptor of the caller's kept open (a shell's $(...) would wait). */
static void detach(int lock, int sock, int logfd, int ready)
{
	int null = open("/dev/null", O_RDWR);
	setsid();
	if (null >= 0) {
		dup2(null, 0);
		close(null);
	}
	dup2(logfd, 1);
	dup2(logfd, 2);
	for (int fd = 3; fd < 1024; fd++)
		if (fd != lock && fd != sock && fd != logfd && fd != ready)
			close(fd);
	if (chdir("/"))
		return;
}

int daemon_start(const char *config, const struct dcfg *cfg, const char *base,
		 int foreground)
{
	static char exe[PATH_MAX];
	struct dserver_opts o;
	char path[PATH_MAX + 16], pid[32];
	int lock, ready[2] = {-1, -1}, rc;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		cli_error("cannot find this program (/proc/self/exe): %s",
			  strerror(errno));
		return 1;
	}
	exe[n] = 0;
	if (mkdir(base, 0700) && errno != EEXIST) {
		cli_error("cannot make the base '%s': %s", base,
			  strerror(errno));
		return 1;
	}
	memset(&o, 0, sizeof o);
	o.config = config;
	o.base = base;
	o.exe = exe;
	o.argv0 = cli_as_perf ? "perf" : "pmkit";
	o.ready_fd = -1;
	if ((lock = take_lock(base)) < 0)
		return 1;
	if ((o.sock_fd = listen_at(base)) < 0 || !(o.log = open_log(base))) {
		close(lock);
		return 1;
	}
	snprintf(path, sizeof path, "%s/control", base);
	fflush(stdout);
	fflush(stderr);
	if (!foreground) {
		pid_t p;
		char c = 0;
		if (pipe2(ready, O_CLOEXEC) < 0 || (p = fork()) < 0) {
			cli_error("cannot start the daemon: %s",
				  strerror(errno));
			unlink(path);
			return 1;
		}
		if (p > 0) { /* the command: wait until the daemon is up */
			close(ready[1]);
			while ((n = read(ready[0], &c, 1)) < 0 &&
			       errno == EINTR)
				;
			if (n == 1)
				return 0;
			cli_error("the daemon did not start: see %s/output",
				  base);
			return 1;
		}
		close(ready[0]);
		detach(lock, o.sock_fd, fileno(o.log), ready[1]);
		o.ready_fd = ready[1];
	}
	snprintf(pid, sizeof pid, "%d\n", (int)getpid());
	if (ftruncate(lock, 0) == 0 &&
	    pwrite(lock, pid, strlen(pid), 0) != (ssize_t)strlen(pid))
		fprintf(o.log, "cannot write the pid to %s/lock\n", base);
	rc = dserver_run(&o, cfg);
	unlink(path);
	fclose(o.log);
	close(lock);
	return rc;
}
