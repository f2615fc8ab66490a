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
#include <unistd.h>

#include "lib/core/diag.h"
#include "lib/core/infile.h"

size_t pmk__infile_max(void)
{
	const char *s = getenv("PMK_INPUT_MAX");
	char *end;
	unsigned long long v;
	if (!s || !*s)
		return PMK__INFILE_MAX_DEFAULT;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return PMK__INFILE_MAX_DEFAULT;
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end || v == 0 || v > (unsigned long long)(SIZE_MAX / 2))
		return PMK__INFILE_MAX_DEFAULT;
	return (size_t)v;
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
	/* reads block as usual from here */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int pmk__infile_read(const char *path, unsigned flags, size_t max, char **out,
		     size_t *len, pmk_diag *d)
{
	char *buf = NULL, *nul;
	size_t n = 0, cap = 0;
	int fd;
	*out = NULL;
	if (!max)
		max = pmk__infile_max();
	fd = pmk__infile_open(path, flags & ~(unsigned)PMK__IN_STREAM, d);
	if (fd < 0)
		return fd;
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
