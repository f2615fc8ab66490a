/*
 * outfile.c: writing a finished output safely (job.h). The data is
 * complete before anything is touched: it goes to a new file created
 * next to the target (O_EXCL, so never through a planted symlink), the
 * existing target is kept as TARGET.old, and the new file is renamed into
 * place. No fsync: it cost 10 to 20 ms of MPI_Finalize on a busy disk, and
 * a measurement lost to a crash of the machine is taken again. A target that is a directory or a device is
 * refused. (The shared safe-output module of issue 16 should replace this
 * when it lands.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/job.h"
#include "pmkit.h"

int pmk__mpi_write_file(const char *path, const char *data,
			unsigned long len)
{
	struct stat st;
	size_t n = strlen(path);
	char *tmp = malloc(n + 16), *old = malloc(n + 8);
	int fd = -1, rc = PMK_EIO, saved;
	if (!tmp || !old) {
		free(tmp);
		free(old);
		return PMK_ENOMEM;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto out;
	}
	snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto out;
	{ /* mkstemp makes 0600; an output file is 0644 under the umask */
		mode_t um = umask(0);
		umask(um);
		fchmod(fd, 0644 & ~um);
	}
	for (unsigned long off = 0; off < len;) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto out_unlink;
		off += (unsigned long)w;
	}
	if (close(fd) != 0) {
		fd = -1;
		goto out_unlink;
	}
	fd = -1;
	snprintf(old, n + 8, "%s.old", path);
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		rename(path, old); /* keeps the previous result */
	if (rename(tmp, path) != 0)
		goto out_unlink;
	rc = 0;
	goto out;
out_unlink:
	saved = errno;
	if (fd >= 0)
		close(fd);
	fd = -1;
	unlink(tmp);
	errno = saved;
out:
	if (fd >= 0)
		close(fd);
	free(tmp);
	free(old);
	return rc;
}
