/*
 * interpose.c: the fault injector of tests/fault (an LD_PRELOAD library,
 * built by mk/fault.mk into $(O)/fault/libpmkfault.so). It makes one call
 * of one kind fail with one errno, the way a full disk, an exhausted
 * descriptor table or a refused permission would:
 *
 *   PMK_FAULT_CALL   open | write | read | mmap | perf_event_open
 *   PMK_FAULT_NTH    fail the Nth call of that kind (1-based), only it
 *   PMK_FAULT_ERRNO  ENOSPC | EMFILE | ENOMEM | EACCES | EINTR
 *   PMK_FAULT_COUNT  a file that gets the number of calls of that kind the
 *                    process made (written at exit), so that a driver can
 *                    fail each in turn
 *
 * "open" is open, open64, openat, openat64, fopen and fopen64; "write" is
 * write and the fclose of a stream open for writing (where its buffered
 * data reaches the file);
 * "read" is read and fread; "mmap" is mmap and mmap64; "perf_event_open" is
 * syscall(SYS_perf_event_open, ...). Only a program named pmkit is
 * affected; there the variables and LD_PRELOAD are removed from the
 * environment at load, so the workloads it starts run without faults (a
 * forked child before its exec is still subject to them).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

enum { K_NONE, K_OPEN, K_WRITE, K_READ, K_MMAP, K_PERF };

static int kind, fail_errno;
static long nth, calls;
static pid_t owner;
static char count_path[4096];

static void save_count(void)
{
	if (!owner || getpid() != owner || !count_path[0])
		return;
	int (*ropen)(const char *, int, ...) =
	    (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	ssize_t (*rwrite)(int, const void *, size_t) =
	    (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	char buf[32];
	int fd = ropen(count_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	int n = snprintf(buf, sizeof buf, "%ld\n", calls);
	if (rwrite(fd, buf, (size_t)n) < 0)
		n = 0;
	close(fd);
}

__attribute__((constructor)) static void fault_init(void)
{
	const char *c = getenv("PMK_FAULT_CALL"), *n = getenv("PMK_FAULT_NTH"),
		   *e = getenv("PMK_FAULT_ERRNO"),
		   *p = getenv("PMK_FAULT_COUNT");
	/* only in pmkit: a timeout or env in front passes it on */
	if (strcmp(program_invocation_short_name, "pmkit"))
		return;
	owner = getpid();
	if (c) {
		kind = !strcmp(c, "open")	       ? K_OPEN
		       : !strcmp(c, "write")	       ? K_WRITE
		       : !strcmp(c, "read")	       ? K_READ
		       : !strcmp(c, "mmap")	       ? K_MMAP
		       : !strcmp(c, "perf_event_open") ? K_PERF
						       : K_NONE;
	}
	nth = n ? atol(n) : 0;
	fail_errno = !e			    ? EIO
		     : !strcmp(e, "ENOSPC") ? ENOSPC
		     : !strcmp(e, "EMFILE") ? EMFILE
		     : !strcmp(e, "ENOMEM") ? ENOMEM
		     : !strcmp(e, "EACCES") ? EACCES
		     : !strcmp(e, "EINTR")  ? EINTR
					    : EIO;
	if (p)
		snprintf(count_path, sizeof count_path, "%s", p);
	unsetenv("LD_PRELOAD");
	unsetenv("PMK_FAULT_CALL");
	unsetenv("PMK_FAULT_NTH");
	unsetenv("PMK_FAULT_ERRNO");
	unsetenv("PMK_FAULT_COUNT");
	atexit(save_count);
}

/* Whether this call of kind `k` is the one to fail (sets errno). */
static int hit(int k)
{
	if (!owner || k != kind || getpid() != owner)
		return 0;
	if (++calls != nth)
		return 0;
	errno = fail_errno;
	return 1;
}

#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))

static int open_any(const char *sym, int dirfd, const char *path, int flags,
		    va_list ap)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | __O_TMPFILE))
		mode = (mode_t)va_arg(ap, int);
	if (hit(K_OPEN))
		return -1;
	if (dirfd == -100000)
		return REAL(sym, int (*)(const char *, int, ...))(path, flags,
								  mode);
	return REAL(sym, int (*)(int, const char *, int, ...))(dirfd, path,
							       flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int r = open_any("open", -100000, path, flags, ap);
	va_end(ap);
	return r;
}
int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int r = open_any("open64", -100000, path, flags, ap);
	va_end(ap);
	return r;
}
int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int r = open_any("openat", dirfd, path, flags, ap);
	va_end(ap);
	return r;
}
int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int r = open_any("openat64", dirfd, path, flags, ap);
	va_end(ap);
	return r;
}
FILE *fopen(const char *path, const char *mode)
{
	if (hit(K_OPEN))
		return NULL;
	return REAL("fopen", FILE * (*)(const char *, const char *))(path,
								     mode);
}
FILE *fopen64(const char *path, const char *mode)
{
	if (hit(K_OPEN))
		return NULL;
	return REAL("fopen64", FILE * (*)(const char *, const char *))(path,
								       mode);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (hit(K_WRITE))
		return -1;
	return REAL("write", ssize_t(*)(int, const void *, size_t))(fd, buf, n);
}
int fclose(FILE *f)
{
	int w = __fwritable(f) != 0; /* only streams that write count */
	int r = REAL("fclose", int (*)(FILE *))(f); /* always closed */
	if (w && hit(K_WRITE))
		return EOF;
	return r;
}

ssize_t read(int fd, void *buf, size_t n)
{
	if (hit(K_READ))
		return -1;
	return REAL("read", ssize_t(*)(int, void *, size_t))(fd, buf, n);
}
size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
	if (hit(K_READ)) {
		return 0; /* like a failed read: the stream's error flag is
			     not set, so a careless caller sees an end */
	}
	return REAL("fread",
		    size_t(*)(void *, size_t, size_t, FILE *))(buf, size, n, f);
}

void *mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	if (hit(K_MMAP))
		return MAP_FAILED;
	return REAL("mmap", void *(*)(void *, size_t, int, int, int, off_t))(
	    a, n, prot, flags, fd, off);
}
void *mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	if (hit(K_MMAP))
		return MAP_FAILED;
	return REAL("mmap64", void *(*)(void *, size_t, int, int, int, off_t))(
	    a, n, prot, flags, fd, off);
}

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open && hit(K_PERF))
		return -1;
	return REAL("syscall", long (*)(long, ...))(nr, a[0], a[1], a[2], a[3],
						    a[4], a[5]);
}
