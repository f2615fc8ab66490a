/*
 * sched_msg.c: perf bench sched's two benchmarks (see sched_msg.h).
 *
 * messaging: each group has `fds` receivers, each reading its own pipe or
 * stream socket, and `fds` senders, each writing `loops` messages of
 * `datasize` bytes to every receiver of its group, so that a receiver
 * reads loops * fds messages. Every task says it is ready on one pipe and
 * then blocks reading a second one; the clock starts when all are ready
 * and the second pipe's write end is closed (every reader sees EOF at
 * once), and stops when every task has been reaped or joined.
 *
 * Every task is ours and bounded: a sender ends after its writes, a
 * receiver after its bytes or at EOF (a sender that died), and each is
 * waited for, on every path.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/sched_msg.h"
#include "lib/core/diag.h"
#include "pmkit/bench.h"

struct worker {
	int sender;
	int in;	      /* a receiver's read end */
	int *out;     /* a sender's write ends: the group's receivers */
	int nout;
	long loops;   /* messages to each receiver, or expected in all */
	int datasize;
	int ready_w, wake_r;
	int failed;   /* thread mode: nonzero when it failed */
	int live;     /* started (to be joined or reaped) */
	pthread_t th;
	pid_t pid;
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Ready, then wait for the start (EOF on the wake pipe). */
static int wait_start(const struct worker *w)
{
	char b = 0;
	ssize_t r;
	if (write_all(w->ready_w, &b, 1))
		return -1;
	while ((r = read(w->wake_r, &b, 1)) < 0 && errno == EINTR)
		;
	return r == 0 ? 0 : -1;
}

static int run_worker(struct worker *w)
{
	char buf[4096];
	if (wait_start(w))
		return -1;
	if (w->sender) {
		memset(buf, 's', sizeof buf);
		for (long i = 0; i < w->loops; i++)
			for (int j = 0; j < w->nout; j++)
				if (write_all(w->out[j], buf,
					      (size_t)w->datasize))
					return -1;
		return 0;
	}
	for (long long left = (long long)w->loops * w->datasize; left > 0;) {
		ssize_t r = read(w->in, buf,
				 left < (long long)sizeof buf ? (size_t)left
							      : sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		left -= r;
	}
	return 0;
}

static void *thread_main(void *arg)
{
	struct worker *w = arg;
	w->failed = run_worker(w) != 0;
	return NULL;
}

/* Start one worker as a thread or a process. */
static int start(struct worker *w, int threads, int wake_w, pthread_attr_t *a)
{
	if (threads) {
		int e = pthread_create(&w->th, a, thread_main, w);
		if (e)
			errno = e;
		return (w->live = !e) ? 0 : -1;
	}
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	w->live = 1;
	if (w->pid == 0) {
		close(wake_w); /* else the start's EOF never comes */
		_exit(run_worker(w) ? 1 : 0);
	}
	return 0;
}

/* Wait for every started worker; -1 when one failed. */
static int finish(struct worker *w, int n, int threads)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		if (!w[i].live)
			continue;
		if (threads) {
			pthread_join(w[i].th, NULL);
			bad |= w[i].failed;
		} else {
			int st;
			while (waitpid(w[i].pid, &st, 0) < 0 && errno == EINTR)
				;
			bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
		}
	}
	return bad ? -1 : 0;
}

static int check_cfg(const pmk__sched_msg_cfg *c, pmk_diag *d)
{
	const char *bad = c->groups < 1 || c->groups > 10000 ? "groups"
			  : c->fds < 1 || c->fds > 1000	       ? "fds"
			  : c->loops < 1			       ? "loops"
			  : c->datasize < 1 || c->datasize > 4096
			      ? "datasize"
			      : NULL;
	if (bad)
		return pmk__diag_set(d, PMK_EINVAL, 0, 1, NULL,
				     "sched messaging: %s out of range", bad);
	return 0;
}

int pmk__sched_messaging(const pmk__sched_msg_cfg *c, uint64_t *ns,
			 pmk_diag *d)
{
	int nw = 2 * c->groups * c->fds, started = 0, rc = 0, e = 0;
	int ready[2] = {-1, -1}, wake[2] = {-1, -1};
	struct worker *w;
	int *fds; /* each receiver's pair: [2*i] read end, [2*i+1] write end */
	pthread_attr_t attr;
	uint64_t t0;
	pmk_diag_clear(d);
	if ((rc = check_cfg(c, d)) != 0)
		return rc;
	w = calloc((size_t)nw, sizeof *w);
	fds = malloc((size_t)nw * sizeof *fds);
	if (!w || !fds) {
		free(w);
		free(fds);
		return PMK_ENOMEM;
	}
	for (int i = 0; i < nw; i++)
		fds[i] = -1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	if (pipe(ready) || pipe(wake)) {
		e = errno;
		goto out;
	}
	for (int g = 0; g < c->groups && !e; g++) {
		int *gf = fds + 2 * g * c->fds;
		struct worker *gw = w + 2 * g * c->fds;
		/* the receivers first, each with its own pipe or socket */
		for (int i = 0; i < c->fds; i++) {
			struct worker *r = &gw[i];
			if ((c->pipes ? pipe(gf + 2 * i)
				      : socketpair(AF_UNIX, SOCK_STREAM, 0,
						   gf + 2 * i)) != 0) {
				e = errno;
				break;
			}
			*r = (struct worker){.in = gf[2 * i],
					     .loops = (long)c->loops * c->fds,
					     .datasize = c->datasize,
					     .ready_w = ready[1],
					     .wake_r = wake[0]};
			if (start(r, c->threads, wake[1], &attr)) {
				e = errno ? errno : EAGAIN;
				break;
			}
			started++;
			if (!c->threads) { /* the receiver has its own copy */
				close(gf[2 * i]);
				gf[2 * i] = -1;
			}
		}
		if (e)
			break;
		for (int i = 0; i < c->fds; i++) {
			struct worker *s = &gw[c->fds + i];
			int *outs = malloc((size_t)c->fds * sizeof *outs);
			if (!outs) {
				e = ENOMEM;
				break;
			}
			for (int j = 0; j < c->fds; j++)
				outs[j] = gf[2 * j + 1];
			*s = (struct worker){.sender = 1, .in = -1,
					     .out = outs, .nout = c->fds,
					     .loops = c->loops,
					     .datasize = c->datasize,
					     .ready_w = ready[1],
					     .wake_r = wake[0]};
			if (start(s, c->threads, wake[1], &attr)) {
				e = errno ? errno : EAGAIN;
				break;
			}
			started++;
		}
		if (!c->threads) /* the senders have theirs */
			for (int i = 0; i < c->fds; i++) {
				if (gf[2 * i + 1] >= 0)
					close(gf[2 * i + 1]);
				gf[2 * i + 1] = -1;
			}
	}
	/* all ready, then the start for all at once */
	for (int i = 0; i < started && !e; i++) {
		char b;
		ssize_t r = read(ready[0], &b, 1);
		if (r < 0 && errno == EINTR) {
			i--;
			continue;
		}
		if (r != 1)
			e = r < 0 ? errno : EPIPE;
	}
	t0 = pmk_bench_now_ns();
	close(wake[1]); /* on a failure too: the started ones end */
	wake[1] = -1;
	if (e) /* a receiver waiting for a sender never made sees EOF */
		for (int i = 1; i < nw; i += 2)
			if (fds[i] >= 0) {
				close(fds[i]);
				fds[i] = -1;
			}
	if (finish(w, nw, c->threads) != 0 && !e)
		e = ECHILD;
	*ns = pmk_bench_now_ns() - t0;
out:
	for (int i = 0; i < nw; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		free(w[i].out);
	}
	for (int i = 0; i < 2; i++) {
		if (ready[i] >= 0)
			close(ready[i]);
		if (wake[i] >= 0)
			close(wake[i]);
	}
	pthread_attr_destroy(&attr);
	free(w);
	free(fds);
	if (e)
		return pmk__diag_file(
		    d, PMK_ESYS, e == ECHILD ? 0 : e, NULL,
		    e == EMFILE ? "fewer groups (-g), or a higher ulimit -n"
				: NULL,
		    "sched messaging: %s%s",
		    e == ECHILD ? "a sender or receiver failed"
				: "cannot create the tasks and their pipes: ",
		    e == ECHILD ? "" : strerror(e));
	return 0;
}

/* ---- pipe ---- */

struct pinger {
	int in, out;
	long loops;
	int failed;
};

/* The second task: read the token, send it back, `loops` times. */
static int pong(struct pinger *p)
{
	int v;
	for (long i = 0; i < p->loops; i++) {
		ssize_t r;
		while ((r = read(p->in, &v, sizeof v)) < 0 && errno == EINTR)
			;
		if (r != (ssize_t)sizeof v ||
		    write_all(p->out, (const char *)&v, sizeof v))
			return -1;
	}
	return 0;
}

static void *pong_thread(void *arg)
{
	struct pinger *p = arg;
	p->failed = pong(p) != 0;
	return NULL;
}

int pmk__sched_pipe(long loops, int threaded, uint64_t *ns, pmk_diag *d)
{
	int a[2] = {-1, -1}, b[2] = {-1, -1}, e = 0, v = 0;
	struct pinger p;
	pthread_t th;
	pid_t pid = -1;
	uint64_t t0;
	pmk_diag_clear(d);
	if (loops < 1)
		return pmk__diag_set(d, PMK_EINVAL, 0, 1, NULL,
				     "sched pipe: loops out of range");
	if (pipe(a) || pipe(b))
		e = errno;
	p = (struct pinger){a[0], b[1], loops, 0};
	if (!e && threaded && (e = pthread_create(&th, NULL, pong_thread, &p)))
		threaded = -1;
	if (!e && !threaded) {
		if ((pid = fork()) < 0)
			e = errno;
		else if (pid == 0)
			_exit(pong(&p) ? 1 : 0);
	}
	t0 = pmk_bench_now_ns();
	for (long i = 0; i < loops && !e; i++) {
		ssize_t r;
		if (write_all(a[1], (const char *)&v, sizeof v)) {
			e = errno ? errno : EPIPE;
			break;
		}
		while ((r = read(b[0], &v, sizeof v)) < 0 && errno == EINTR)
			;
		if (r != (ssize_t)sizeof v)
			e = r < 0 ? errno : EPIPE;
	}
	*ns = pmk_bench_now_ns() - t0;
	/* the second task sees EOF if it is still reading */
	if (a[1] >= 0)
		close(a[1]);
	if (threaded == 1) {
		pthread_join(th, NULL);
		if (p.failed && !e)
			e = ECHILD;
	} else if (pid > 0) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if ((!WIFEXITED(st) || WEXITSTATUS(st)) && !e)
			e = ECHILD;
	}
	for (int i = 0; i < 2; i++) {
		if (b[i] >= 0)
			close(b[i]);
	}
	if (a[0] >= 0)
		close(a[0]);
	if (e)
		return pmk__diag_file(d, PMK_ESYS, e == ECHILD ? 0 : e, NULL,
				      NULL, "sched pipe: %s%s",
				      e == ECHILD ? "the second task failed"
						  : "cannot pass the token: ",
				      e == ECHILD ? "" : strerror(e));
	return 0;
}
