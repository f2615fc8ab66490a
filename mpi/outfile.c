/*
 * outfile.c: writing a finished output of libpmkit-mpi or `pmkit mpi`
 * (job.h) through libpmkit's safe output files (lib/core/outfile.h): the
 * data is complete before anything is touched, goes to a new file next to
 * the target, the existing target is kept as TARGET.old, and the new file
 * is renamed into place; never through a symlink; a directory is refused.
 * No fsync: it cost 10 to 20 ms of MPI_Finalize on a busy disk, and a
 * measurement lost to a crash of the machine is taken again.
 */
#include <errno.h>
#include <stdio.h>

#include "lib/core/outfile.h"
#include "mpi/job.h"
#include "pmkit.h"

int pmk__mpi_write_file(const char *path, const char *data,
			unsigned long len, pmk_diag *d)
{
	pmk__outfile of;
	pmk_diag local;
	FILE *f;
	int rc;
	if (!d)
		d = &local;
	pmk_diag_clear(d);
	rc = pmk__outfile_open(&of, path, 0, d);
	if (rc == 0) {
		f = pmk__outfile_stream(&of);
		if (!f || fwrite(data, 1, len, f) != len) {
			d->sys_errno = errno;
			snprintf(d->message, sizeof d->message,
				 "cannot write '%s'", path);
			pmk__outfile_abort(&of);
			rc = PMK_EIO;
		} else
			rc = pmk__outfile_commit(&of, d);
	}
	if (rc && !d->message[0])
		snprintf(d->message, sizeof d->message, "cannot write '%s': %s",
			 path, pmk_strerror(rc));
	return rc;
}
