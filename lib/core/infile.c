/*
 * infile.c: the bounded, typed input reader (infile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "lib/core/diag.h"
#include "lib/core/infile.h"

/* PMK_INPUT_MAX: BYTES with an optional K, M or G; 0 when it is set but
 * not such a size (or too large for this machine), so that callers refuse
 * it instead of guessing. */
size_t pmk__infile_max(void)
{
	const char *s = secure_getenv("PMK_INPUT_MAX");
	char *end;
	unsigned long long v;
	unsigned shift = 0;
	if (!s || !*s)
		return PMK__INFILE_MAX_DEFAULT;
	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		end++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		end++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		end++;
		break;
	}
	/* checked before the shift: 18014398509481985K wrapped to 1 KiB */
	if (*end || v == 0 || v > (unsigned long long)(SIZE_MAX / 2) >> shift)
		return 0;
	return (size_t)(v << shift);
}

/* Kernel pseudo-file systems: their "regular files" may never end
 * (tracefs's trace_pipe blocks forever) or change as they are read. */
static const char *pseudo_fs(int fd)
{
	struct statfs sf;
	if (fstatfs(fd, &sf) != 0)
		return NULL;
	switch ((unsigned long)sf.f_type) {
	case 0x9fa0: /* PROC_SUPER_MAGIC */
		return "procfs";
	case 0x62656572: /* SYSFS_MAGIC */
		return "sysfs";
	case 0x74726163: /* TRACEFS_MAGIC */
		return "tracefs";
	case 0x64626720: /* DEBUGFS_MAGIC */
		return "debugfs";
	case 0x27e0eb: /* CGROUP_SUPER_MAGIC */
	case 0x63677270: /* CGROUP2_SUPER_MAGIC */
		return "cgroupfs";
	case 0x73636673: /* SECURITYFS_MAGIC */
		return "securityfs";
	}
	return NULL;
}

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "a special file";
}

int pmk__infile_open(const char *path, unsigned flags, pmk_diag *d)
{
	struct stat st;
	int fd, e;
	if (!path)
		return PMK_EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		return pmk__diag_file(d, e == ENOENT ? PMK_ENOENT : PMK_EIO, e,
				      path, NULL, "cannot open: %s",
				      strerror(e));
	}
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		return pmk__diag_file(d, PMK_EIO, e, path, NULL,
				      "cannot open: %s", strerror(e));
	}
	if (!S_ISREG(st.st_mode) &&
	    !(S_ISFIFO(st.st_mode) && (flags & PMK__IN_STREAM))) {
		close(fd);
		return pmk__diag_file(
		    d, PMK_EFORMAT, 0, path,
		    "give a regular file; pmkit does not read "
		    "directories, devices or FIFOs as files",
		    "cannot read: it is %s, not a regular file",
		    kind_of(st.st_mode));
	}
	if (!(flags & PMK__IN_PSEUDO)) {
		const char *fs = pseudo_fs(fd);
		if (fs) {
			close(fd);
			return pmk__diag_file(
			    d, PMK_EFORMAT, 0, path,
			    "copy it to a file first (cp FILE copy)",
			    "cannot read: it is a %s pseudo-file, not a "
			    "regular file (it may never end)",
			    fs);
		}
	}
	/* reads block as usual from here */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int pmk__infile_read(const char *path, unsigned flags, size_t max, char **out,
		     size_t *len, pmk_diag *d)
{
	int fd;
	*out = NULL;
	if (!max && !(max = pmk__infile_max()))
		return pmk__diag_file(
		    d, PMK_EINVAL, 0, path,
		    "PMK_INPUT_MAX=BYTES, with an optional K, M or G suffix, "
		    "at most 8 EiB; unset it for 64 MiB",
		    "cannot read: PMK_INPUT_MAX is not a size in bytes");
	fd = pmk__infile_open(path, flags & ~(unsigned)PMK__IN_STREAM, d);
	if (fd < 0)
		return fd;
	return pmk__infile_read_fd(fd, path, flags, max, out, len, d);
}

int pmk__infile_read_fd(int fd, const char *path, unsigned flags, size_t max,
			char **out, size_t *len, pmk_diag *d)
{
	char *buf = NULL, *nul;
	size_t n = 0, cap = 0;
	*out = NULL;
	if (!max && !(max = pmk__infile_max())) {
		close(fd);
		return pmk__diag_file(
		    d, PMK_EINVAL, 0, path,
		    "PMK_INPUT_MAX=BYTES, with an optional K, M or G suffix, "
		    "at most 8 EiB; unset it for 64 MiB",
		    "cannot read: PMK_INPUT_MAX is not a size in bytes");
	}
	for (;;) {
		ssize_t k;
		if (cap - n < 2) {
			/* n <= max here, so the buffer can still grow */
			size_t nc = cap ? cap * 2 : 8192;
			char *nb;
			if (nc > max + 2)
				nc = max + 2;
			if (!(nb = realloc(buf, nc))) {
				free(buf);
				close(fd);
				return pmk__diag_file(
				    d, PMK_ENOMEM, ENOMEM, path, NULL,
				    "cannot read: %s", strerror(ENOMEM));
			}
			buf = nb;
			cap = nc;
		}
		k = read(fd, buf + n, cap - n - 1);
		if (k < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			return pmk__diag_file(d, PMK_EIO, e, path, NULL,
					      "cannot read: %s", strerror(e));
		}
		if (k == 0)
			break;
		n += (size_t)k;
		if (n > max) {
			free(buf);
			close(fd);
			return pmk__diag_file(
			    d, PMK_ERANGE, 0, path,
			    "PMK_INPUT_MAX=BYTES (K, M or G suffix) "
			    "raises the limit",
			    "cannot read: larger than %zu bytes", max);
		}
	}
	close(fd);
	if (!buf && !(buf = malloc(1)))
		return pmk__diag_file(d, PMK_ENOMEM, ENOMEM, path, NULL,
				      "cannot read: %s", strerror(ENOMEM));
	buf[n] = 0;
	if (!(flags & PMK__IN_BINARY) && (nul = memchr(buf, 0, n)) != NULL) {
		size_t at = (size_t)(nul - buf);
		const char *ls = buf;
		int line = 1;
		for (const char *q = buf; q < nul; q++)
			if (*q == '\n') {
				line++;
				ls = q + 1;
			}
		pmk__diag_file(d, PMK_EFORMAT, 0, path,
			       "a text file holds no NUL bytes",
			       "NUL byte at offset %zu", at);
		if (d) {
			d->line = line;
			d->column = (int)(nul - ls) + 1;
		}
		free(buf);
		return PMK_EFORMAT;
	}
	*out = buf;
	if (len)
		*len = n;
	return 0;
}
