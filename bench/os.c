/*
 * os.c: the OS and IPC benchmarks of seed 004's Figure 7 (lmbench's set),
 * each timed by the harness (fixed-length samples, min and median). Every
 * helper process is ours, bounded (it exits at EOF or EPIPE) and reaped;
 * network benchmarks bind 127.0.0.1 with an ephemeral port only.
 * Helper processes inherit the harness's CPU pinning, so the two ends of a
 * pipe or socket share one CPU (lmbench leaves this to chance).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/os_path.h"
#include "pmkit/bench.h"

const char *const pmk_os_names[] = {
    "null_syscall", "read",	   "write",	"ctx",	     "pipe_lat",
    "unix_lat",	    "udp_lat",	   "tcp_lat",	"pipe_bw",   "unix_bw",
    "tcp_bw",	    "tcp_connect", "fork_exit", "fork_exec", "fork_sh",
    "sig_install",  "sig_catch",   "pagefault", "mmap",	     "file_rd",
    "select",	    "stat",	   "open",	NULL};

#define BW_CHUNK   (64u << 10)
#define FILE_BYTES (16u << 20)

struct os {
	int fd[4];
	pid_t child;
	char *buf, *map;
	size_t len, pos;
	uint64_t sink;
	int nproc;
	size_t ws;
};

static int set(pmk_os_result *r, const char *name, const char *unit,
	       const pmk_bench_stat *st, double scale, int bw)
{
	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", name);
	snprintf(r->unit, sizeof r->unit, "%s", unit);
	r->samples = st->samples;
	if (bw) {
		r->median = scale / st->median_ns;
		r->best = scale / st->min_ns;
	} else {
		r->median = st->median_ns * scale;
		r->best = st->min_ns * scale;
	}
	return 1;
}

static ssize_t full_read(int fd, char *b, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, b + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return got ? (ssize_t)got : k;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

static void reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

/* ---- system calls ------------------------------------------------------- */

static uint64_t k_null(void *a, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getppid);
	return n;
}

static uint64_t k_read(void *a, uint64_t n)
{
	struct os *o = a;
	char c;
	for (uint64_t i = 0; i < n; i++)
		if (read(o->fd[0], &c, 1) != 1)
			break;
	return n;
}

static uint64_t k_write(void *a, uint64_t n)
{
	struct os *o = a;
	char c = 0;
	for (uint64_t i = 0; i < n; i++)
		if (write(o->fd[0], &c, 1) != 1)
			break;
	return n;
}

/* ---- ping-pong latency over a pair of descriptors ------------------------ */

/* The echo side: read one byte, write it back, until EOF. */
static void echo_loop(int rd, int wr)
{
	char c;
	while (read(rd, &c, 1) == 1)
		if (write(wr, &c, 1) != 1)
			break;
	_exit(0);
}

static uint64_t k_pingpong(void *a, uint64_t n)
{
	struct os *o = a;
	char c = 'x';
	for (uint64_t i = 0; i < n; i++) {
		if (write(o->fd[1], &c, 1) != 1 || read(o->fd[0], &c, 1) != 1)
			return i ? i : 1;
	}
	return n;
}

static int lat_pipe(const pmk_bench_cfg *cfg, pmk_os_result *r, int unix_sock)
{
	struct os o = {.fd = {-1, -1, -1, -1}};
	pmk_bench_stat st;
	int a[2], b[2], rc;
	if (unix_sock) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, a))
			return PMK_ESYS;
		b[0] = a[1], b[1] = a[0];
	} else if (pipe(a)) {
		return PMK_ESYS;
	} else if (pipe(b)) {
		close(a[0]), close(a[1]);
		return PMK_ESYS;
	}
	/* parent writes a[1] (or the socket), child reads a[0] and answers on
	 * b[1]; parent reads b[0] */
	o.child = fork();
	if (o.child == 0) {
		if (unix_sock)
			echo_loop(a[1], a[1]);
		close(a[1]), close(b[0]);
		echo_loop(a[0], b[1]);
	}
	if (unix_sock) {
		close(a[1]);
		o.fd[0] = o.fd[1] = a[0];
	} else {
		close(a[0]), close(b[1]);
		o.fd[1] = a[1], o.fd[0] = b[0];
	}
	rc = o.child < 0 ? PMK_ESYS : pmk_bench_run(k_pingpong, &o, cfg, &st);
	close(o.fd[0]);
	if (o.fd[1] != o.fd[0])
		close(o.fd[1]);
	reap(o.child);
	if (rc)
		return rc;
	return set(r, unix_sock ? "unix_lat" : "pipe_lat", "us", &st, 1e-3, 0);
}

/* ---- streaming bandwidth ------------------------------------------------- */

static void writer_loop(int fd)
{
	char *b = malloc(BW_CHUNK);
	if (b) {
		memset(b, 'x', BW_CHUNK);
		while (write(fd, b, BW_CHUNK) > 0)
			;
	}
	_exit(0);
}

static uint64_t k_drain(void *a, uint64_t n)
{
	struct os *o = a;
	for (uint64_t i = 0; i < n; i++)
		if (full_read(o->fd[0], o->buf, BW_CHUNK) != (ssize_t)BW_CHUNK)
			return i ? i : 1;
	return n;
}

static int bw_stream(const pmk_bench_cfg *cfg, pmk_os_result *r, int unix_sock)
{
	struct os o = {.fd = {-1, -1, -1, -1}};
	pmk_bench_stat st;
	int p[2], rc;
	if (unix_sock ? socketpair(AF_UNIX, SOCK_STREAM, 0, p) : pipe(p))
		return PMK_ESYS;
	o.buf = malloc(BW_CHUNK);
	o.child = o.buf ? fork() : -1;
	if (o.child == 0) {
		close(p[0]);
		writer_loop(p[1]);
	}
	close(p[1]);
	o.fd[0] = p[0];
	rc = o.child < 0 ? PMK_ESYS : pmk_bench_run(k_drain, &o, cfg, &st);
	close(p[0]);
	reap(o.child);
	free(o.buf);
	if (rc)
		return rc;
	return set(r, unix_sock ? "unix_bw" : "pipe_bw", "MB/s", &st,
		   BW_CHUNK * 1e3, 1);
}

/* ---- loopback networking ------------------------------------------------- */

static int listen_lo(int type, struct sockaddr_in *sa)
{
	socklen_t len = sizeof *sa;
	int s = socket(AF_INET, type, 0), one = 1;
	if (s < 0)
		return -1;
	memset(sa, 0, sizeof *sa);
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa->sin_port = 0;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(s, (struct sockaddr *)sa, sizeof *sa) ||
	    getsockname(s, (struct sockaddr *)sa, &len) ||
	    (type == SOCK_STREAM && listen(s, 64))) {
		close(s);
		return -1;
	}
	return s;
}

static int connect_lo(const struct sockaddr_in *sa)
{
	int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	if (s < 0)
		return -1;
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(s, (const struct sockaddr *)sa, sizeof *sa)) {
		close(s);
		return -1;
	}
	return s;
}

static uint64_t k_udp(void *a, uint64_t n)
{
	struct os *o = a;
	char c = 'x';
	for (uint64_t i = 0; i < n; i++)
		if (send(o->fd[0], &c, 1, 0) != 1 ||
		    recv(o->fd[0], &c, 1, 0) != 1)
			return i ? i : 1;
	return n;
}

static int lat_udp(const pmk_bench_cfg *cfg, pmk_os_result *r)
{
	struct sockaddr_in sa;
	struct os o = {.fd = {-1, -1, -1, -1}};
	pmk_bench_stat st;
	int srv = listen_lo(SOCK_DGRAM, &sa), cli, rc;
	if (srv < 0)
		return PMK_ESYS;
	o.child = fork();
	if (o.child == 0) {
		struct sockaddr_in from;
		socklen_t fl = sizeof from;
		char c;
		struct timeval tv = {2, 0}; /* bounded: stop when idle */
		setsockopt(srv, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		while (recvfrom(srv, &c, 1, 0, (struct sockaddr *)&from, &fl) ==
		       1)
			if (sendto(srv, &c, 1, 0, (struct sockaddr *)&from,
				   fl) != 1)
				break;
		_exit(0);
	}
	close(srv);
	cli = socket(AF_INET, SOCK_DGRAM, 0);
	if (cli < 0 || connect(cli, (struct sockaddr *)&sa, sizeof sa)) {
		reap(o.child);
		return PMK_ESYS;
	}
	struct timeval tv = {2, 0};
	setsockopt(cli, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	o.fd[0] = cli;
	rc = o.child < 0 ? PMK_ESYS : pmk_bench_run(k_udp, &o, cfg, &st);
	close(cli);
	reap(o.child);
	if (rc)
		return rc;
	return set(r, "udp_lat", "us", &st, 1e-3, 0);
}

static uint64_t k_connect(void *a, uint64_t n)
{
	struct os *o = a;
	const struct sockaddr_in *sa = (const struct sockaddr_in *)o->map;
	struct linger lg = {1, 0};
	for (uint64_t i = 0; i < n; i++) {
		int s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0)
			return i ? i : 1;
		setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
		if (connect(s, (const struct sockaddr *)sa, sizeof *sa)) {
			close(s);
			return i ? i : 1;
		}
		close(s);
	}
	return n;
}

/* mode 0: echo (latency), 1: stream (bandwidth), 2: accept and close */
static int tcp_bench(const pmk_bench_cfg *cfg, pmk_os_result *r, int mode)
{
	struct sockaddr_in sa;
	struct os o = {.fd = {-1, -1, -1, -1}};
	pmk_bench_stat st;
	int srv = listen_lo(SOCK_STREAM, &sa), rc;
	if (srv < 0)
		return PMK_ESYS;
	o.child = fork();
	if (o.child == 0) {
		for (;;) {
			int c = accept(srv, NULL, NULL), one = 1;
			if (c < 0)
				_exit(0);
			setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof one);
			if (mode == 0)
				echo_loop(c, c);
			if (mode == 1) {
				signal(SIGPIPE, SIG_IGN);
				writer_loop(c);
			}
			close(c);
		}
	}
	if (o.child < 0) {
		close(srv);
		return PMK_ESYS;
	}
	o.buf = malloc(BW_CHUNK);
	if (mode == 2) {
		/* connect + close; RST on close (linger 0) so no TIME_WAIT
		 * piles up */
		o.map = (char *)&sa;
		rc = 0;
	} else {
		o.fd[0] = connect_lo(&sa);
		rc = o.fd[0] < 0 ? PMK_ESYS : 0;
	}
	if (rc == 0) {
		if (mode == 0) {
			o.fd[1] = o.fd[0];
			rc = pmk_bench_run(k_pingpong, &o, cfg, &st);
		} else if (mode == 1) {
			rc = o.buf ? pmk_bench_run(k_drain, &o, cfg, &st)
				   : PMK_ENOMEM;
		} else {
			rc = pmk_bench_run(k_connect, &o, cfg, &st);
		}
	}
	if (o.fd[0] >= 0)
		close(o.fd[0]);
	close(srv);
	reap(o.child);
	free(o.buf);
	if (rc)
		return rc;
	if (mode == 0)
		return set(r, "tcp_lat", "us", &st, 1e-3, 0);
	if (mode == 1)
		return set(r, "tcp_bw", "MB/s", &st, BW_CHUNK * 1e3, 1);
	return set(r, "tcp_connect", "us", &st, 1e-3, 0);
}

/* ---- processes ------------------------------------------------------------
 */

static uint64_t k_fork(void *a, uint64_t n)
{
	struct os *o = a;
	for (uint64_t i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0) {
			if (o->nproc == 1)
				execl("/bin/true", "true", (char *)NULL);
			else if (o->nproc == 2)
				execl("/bin/sh", "sh", "-c", "exit 0",
				      (char *)NULL);
			_exit(0);
		}
		if (p < 0)
			return i ? i : 1;
		while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
			;
	}
	return n;
}

/* ---- context switch: a ring of processes passing a token ----------------- */

static uint64_t sum_ws(const char *ws, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i += 64)
		s += (unsigned char)ws[i];
	return s;
}

static uint64_t k_ring(void *a, uint64_t n)
{
	struct os *o = a;
	char c = 't';
	for (uint64_t i = 0; i < n; i++) {
		o->sink += sum_ws(o->buf, o->ws);
		if (write(o->fd[1], &c, 1) != 1 || read(o->fd[0], &c, 1) != 1)
			return i ? i : 1;
	}
	return n;
}

static int ctx(const pmk_bench_cfg *cfg, int nproc, size_t ws, pmk_os_result *r)
{
	int p[16][2], rc = 0, made = 0;
	pid_t kids[16];
	struct os o = {.fd = {-1, -1, -1, -1}};
	pmk_bench_stat st, ovr;
	char name[48];

	o.ws = ws;
	o.buf = calloc(1, ws ? ws : 1);
	if (!o.buf || nproc < 2 || nproc > 16) {
		free(o.buf);
		return PMK_EINVAL;
	}
	/* overhead: the same work with the token going through one pipe of
	 * our own (no switch) */
	if (pipe(p[0]) == 0) {
		o.fd[0] = p[0][0], o.fd[1] = p[0][1];
		rc = pmk_bench_run(k_ring, &o, cfg, &ovr);
		close(p[0][0]), close(p[0][1]);
	} else {
		rc = PMK_ESYS;
	}
	for (int i = 0; i < nproc && rc == 0; i++, made++)
		if (pipe(p[i]))
			rc = PMK_ESYS;
	/* process i reads p[i] and writes p[(i + 1) % n]; we are process 0 */
	for (int i = 1; i < nproc && rc == 0; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			int in = p[i][0], out = p[(i + 1) % nproc][1];
			char c;
			for (int k = 0; k < nproc; k++)
				if (k != i)
					close(p[k][0]);
			for (int k = 0; k < nproc; k++)
				if (k != (i + 1) % nproc)
					close(p[k][1]);
			while (read(in, &c, 1) == 1) {
				o.sink += sum_ws(o.buf, ws);
				if (write(out, &c, 1) != 1)
					break;
			}
			_exit((int)(o.sink & 1));
		}
		if (kids[i] < 0) {
			rc = PMK_ESYS;
			nproc = i;
		}
	}
	if (rc == 0) {
		o.fd[0] = p[0][0], o.fd[1] = p[1 % nproc][1];
		rc = pmk_bench_run(k_ring, &o, cfg, &st);
	}
	for (int i = 0; i < made; i++)
		close(p[i][0]), close(p[i][1]);
	for (int i = 1; i < nproc; i++)
		if (kids[i] > 0)
			while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
				;
	free(o.buf);
	if (rc)
		return rc;
	/* one trip = nproc switches; minus the work done without switching */
	snprintf(name, sizeof name, "ctx_%dp_%zuk", nproc, ws >> 10);
	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", name);
	snprintf(r->unit, sizeof r->unit, "us");
	r->samples = st.samples;
	r->median = (st.median_ns - ovr.median_ns) / nproc * 1e-3;
	r->best = (st.min_ns - ovr.min_ns) / nproc * 1e-3;
	return 1;
}

/* ---- signals ---------------------------------------------------------------
 */

static volatile sig_atomic_t caught;
static void on_sig(int s)
{
	(void)s;
	caught++;
}

static uint64_t k_sig_install(void *a, uint64_t n)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sig;
	for (uint64_t i = 0; i < n; i++)
		sigaction(SIGUSR1, &sa, NULL);
	return n;
}

static uint64_t k_sig_catch(void *a, uint64_t n)
{
	pid_t me = getpid();
	for (uint64_t i = 0; i < n; i++)
		kill(me, SIGUSR1);
	return n;
}

/* ---- files and memory mappings ----------------------------------------------
 */

static int tmp_file(size_t bytes)
{
	char path[256];
	const char *dir = getenv("TMPDIR");
	int fd;
	snprintf(path, sizeof path, "%s/pmkit-bench-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	char *b = calloc(1, BW_CHUNK);
	for (size_t off = 0; b && off < bytes; off += BW_CHUNK)
		if (write(fd, b, BW_CHUNK) != (ssize_t)BW_CHUNK) {
			free(b);
			close(fd);
			return -1;
		}
	free(b);
	return fd;
}

/* page fault: touch the next page of a read-only shared mapping of a file
 * in the page cache (a minor fault); remap when every page was touched */
static uint64_t k_fault(void *a, uint64_t n)
{
	struct os *o = a;
	long pg = sysconf(_SC_PAGESIZE);
	for (uint64_t i = 0; i < n; i++) {
		if (!o->map || o->pos >= o->len) {
			if (o->map)
				munmap(o->map, o->len);
			o->map = mmap(NULL, o->len, PROT_READ, MAP_SHARED,
				      o->fd[0], 0);
			if (o->map == MAP_FAILED) {
				o->map = NULL;
				return i ? i : 1;
			}
			o->pos = 0;
		}
		o->sink += (unsigned char)o->map[o->pos];
		o->pos += (size_t)pg;
	}
	return n;
}

/* mmap: map the file, touch one byte per 16 KiB, unmap */
static uint64_t k_mmap(void *a, uint64_t n)
{
	struct os *o = a;
	for (uint64_t i = 0; i < n; i++) {
		char *m = mmap(NULL, o->len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       o->fd[0], 0);
		if (m == MAP_FAILED)
			return i ? i : 1;
		for (size_t off = 0; off < o->len; off += 16384)
			m[off] = 1;
		munmap(m, o->len);
	}
	return n;
}

static uint64_t k_file_rd(void *a, uint64_t n)
{
	struct os *o = a;
	for (uint64_t i = 0; i < n; i++) {
		if (pread(o->fd[0], o->buf, BW_CHUNK, (off_t)o->pos) !=
		    (ssize_t)BW_CHUNK)
			return i ? i : 1;
		o->pos = (o->pos + BW_CHUNK) % o->len;
	}
	return n;
}

static uint64_t k_select(void *a, uint64_t n)
{
	struct os *o = a;
	for (uint64_t i = 0; i < n; i++) {
		fd_set rd;
		struct timeval tv = {0, 0};
		FD_ZERO(&rd);
		for (int k = 0; k < o->nproc; k++)
			FD_SET(o->fd[0] + k, &rd);
		select(o->fd[0] + o->nproc, &rd, NULL, NULL, &tv);
	}
	return n;
}

static int file_bench(const char *name, const pmk_bench_cfg *cfg,
		      pmk_os_result *r)
{
	struct os o = {.fd = {-1, -1, -1, -1}};
	pmk_bench_stat st;
	int rc;
	o.len = FILE_BYTES;
	o.fd[0] = tmp_file(o.len);
	if (o.fd[0] < 0)
		return PMK_EIO;
	if (!strcmp(name, "pagefault")) {
		rc = pmk_bench_run(k_fault, &o, cfg, &st);
		if (o.map)
			munmap(o.map, o.len);
	} else if (!strcmp(name, "mmap")) {
		rc = pmk_bench_run(k_mmap, &o, cfg, &st);
	} else {
		o.buf = malloc(BW_CHUNK);
		rc =
		    o.buf ? pmk_bench_run(k_file_rd, &o, cfg, &st) : PMK_ENOMEM;
		free(o.buf);
	}
	close(o.fd[0]);
	if (rc)
		return rc;
	if (!strcmp(name, "pagefault"))
		return set(r, "pagefault", "us", &st, 1e-3, 0);
	if (!strcmp(name, "mmap"))
		return set(r, "mmap_16m", "us", &st, 1e-3, 0);
	return set(r, "file_rd", "MB/s", &st, BW_CHUNK * 1e3, 1);
}

static int select_bench(const pmk_bench_cfg *cfg, pmk_os_result *r)
{
	/* 100 consecutive descriptors of one file */
	struct os o = {.fd = {-1, -1, -1, -1}};
	pmk_bench_stat st;
	int fd = open("/dev/null", O_RDONLY), base = -1, ok = 1, rc;
	if (fd < 0)
		return PMK_ESYS;
	base = fcntl(fd, F_DUPFD, 100);
	for (int k = 1; k < 100 && base >= 0; k++)
		if (fcntl(fd, F_DUPFD, base + k) != base + k)
			ok = 0;
	close(fd);
	if (base < 0 || !ok || base + 100 > FD_SETSIZE) {
		for (int k = 0; base >= 0 && k < 100; k++)
			close(base + k);
		return PMK_ESYS;
	}
	o.fd[0] = base;
	o.nproc = 100;
	rc = pmk_bench_run(k_select, &o, cfg, &st);
	for (int k = 0; k < 100; k++)
		close(base + k);
	if (rc)
		return rc;
	return set(r, "select_100", "us", &st, 1e-3, 0);
}

int pmk_os_run(const char *name, const pmk_bench_cfg *cfg, pmk_os_result *out,
	       int max)
{
	pmk_bench_stat st;
	struct os o = {.fd = {-1, -1, -1, -1}};
	void (*old)(int);
	int rc = 0;

	if (!name || !out || max < 1)
		return PMK_EINVAL;
	old = signal(SIGPIPE, SIG_IGN);
	if (!strcmp(name, "null_syscall")) {
		rc = pmk_bench_run(k_null, &o, cfg, &st);
		rc = rc ? rc : set(out, name, "us", &st, 1e-3, 0);
	} else if (!strcmp(name, "read") || !strcmp(name, "write")) {
		int w = name[0] == 'w';
		o.fd[0] = open(w ? "/dev/null" : "/dev/zero",
			       w ? O_WRONLY : O_RDONLY);
		if (o.fd[0] < 0) {
			rc = PMK_ESYS;
		} else {
			rc = pmk_bench_run(w ? k_write : k_read, &o, cfg, &st);
			close(o.fd[0]);
			rc = rc ? rc : set(out, name, "us", &st, 1e-3, 0);
		}
	} else if (!strcmp(name, "ctx")) {
		static const int np[] = {2, 8, 2, 8};
		static const size_t ws[] = {0, 0, 16384, 16384};
		for (int i = 0; i < 4 && i < max; i++) {
			int k = ctx(cfg, np[i], ws[i], &out[i]);
			if (k < 0) {
				rc = k;
				break;
			}
			rc += k;
		}
	} else if (!strcmp(name, "pipe_lat") || !strcmp(name, "unix_lat")) {
		rc = lat_pipe(cfg, out, name[0] == 'u');
	} else if (!strcmp(name, "pipe_bw") || !strcmp(name, "unix_bw")) {
		rc = bw_stream(cfg, out, name[0] == 'u');
	} else if (!strcmp(name, "udp_lat")) {
		rc = lat_udp(cfg, out);
	} else if (!strcmp(name, "tcp_lat")) {
		rc = tcp_bench(cfg, out, 0);
	} else if (!strcmp(name, "tcp_bw")) {
		rc = tcp_bench(cfg, out, 1);
	} else if (!strcmp(name, "tcp_connect")) {
		rc = tcp_bench(cfg, out, 2);
	} else if (!strncmp(name, "fork_", 5)) {
		o.nproc = !strcmp(name, "fork_exec")   ? 1
			  : !strcmp(name, "fork_sh")   ? 2
			  : !strcmp(name, "fork_exit") ? 0
						       : -1;
		if (o.nproc < 0) {
			rc = PMK_ENOENT;
		} else {
			rc = pmk_bench_run(k_fork, &o, cfg, &st);
			rc = rc ? rc : set(out, name, "us", &st, 1e-3, 0);
		}
	} else if (!strcmp(name, "sig_install")) {
		rc = pmk_bench_run(k_sig_install, &o, cfg, &st);
		rc = rc ? rc : set(out, name, "us", &st, 1e-3, 0);
	} else if (!strcmp(name, "sig_catch")) {
		struct sigaction sa, prev;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_sig;
		sigaction(SIGUSR1, &sa, &prev);
		rc = pmk_bench_run(k_sig_catch, &o, cfg, &st);
		sigaction(SIGUSR1, &prev, NULL);
		rc = rc ? rc : set(out, name, "us", &st, 1e-3, 0);
	} else if (!strcmp(name, "pagefault") || !strcmp(name, "mmap") ||
		   !strcmp(name, "file_rd")) {
		rc = file_bench(name, cfg, out);
	} else if (!strcmp(name, "select")) {
		rc = select_bench(cfg, out);
	} else if (!strcmp(name, "stat") || !strcmp(name, "open")) {
		rc = pmk__os_path(name, cfg, out);
	} else {
		rc = PMK_ENOENT;
	}
	signal(SIGPIPE, old);
	return rc;
}
