/*
 * workload.c: the measured child. It is forked first and blocks on a pipe
 * so that counters can be attached to it before it runs a single
 * instruction of the workload; exec errors come back through a second,
 * close-on-exec pipe (EOF means exec succeeded).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/workload.h"

unsigned long workload_builtin(void)
{
	enum { N = (16 << 20) / sizeof(uint32_t) };
	uint32_t *next = malloc(N * sizeof *next);
	uint64_t x = 88172645463325252ull, sum = 0;
	double f = 1.0;
	uint32_t p = 0;
	if (!next)
		return 0;
	/* a random cyclic permutation (Sattolo) for the chase */
	for (uint32_t i = 0; i < N; i++)
		next[i] = i;
	for (uint32_t i = N - 1; i > 0; i--) {
		uint32_t j, t;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		j = (uint32_t)(x % i);
		t = next[i], next[i] = next[j], next[j] = t;
	}
	for (int round = 0; round < 2000000; round++) {
		p = next[p];
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (x & 1) /* unpredictable branch */
			sum += p;
		else
			f = f * 1.0000001 + 0.5;
	}
	free(next);
	return (unsigned long)(sum + (uint64_t)f);
}

int workload_prepare(struct workload *w, char **argv)
{
	int go[2], err[2];
	if (pipe2(go, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	w->pid = fork();
	if (w->pid < 0) {
		close(go[0]), close(go[1]), close(err[0]), close(err[1]);
		return -1;
	}
	if (w->pid == 0) {
		char c;
		int e;
		ssize_t k;
		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		while ((k = read(go[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (k != 1)
			_exit(125); /* the parent gave up */
		if (!argv) {
			volatile unsigned long r = workload_builtin();
			(void)r;
			_exit(0);
		}
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

int workload_start(struct workload *w)
{
	int e = 0;
	ssize_t r;
	while ((r = write(w->go_fd, "g", 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		e = errno ? errno : EIO;
	/* closed either way: a child still waiting for `go` then reads the
	 * end of the pipe and exits, so workload_wait cannot hang */
	close(w->go_fd);
	w->go_fd = -1;
	if (e) {
		close(w->err_fd);
		w->err_fd = -1;
		return e;
	}
	while ((r = read(w->err_fd, &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(w->err_fd);
	w->err_fd = -1;
	return r == (ssize_t)sizeof e ? e : 0;
}

int workload_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

int workload_wait(struct workload *w)
{
	int st;
	while (waitpid(w->pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return workload_status(st);
}

int workload_poll(struct workload *w, int *status)
{
	int st;
	pid_t r = waitpid(w->pid, &st, WNOHANG);
	if (r == w->pid) {
		*status = workload_status(st);
		return 1;
	}
	return 0;
}
