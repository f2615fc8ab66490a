/*
 * fuzz_mpijson.c: the reader of pmkit-mpi/1 JSON (mpi/jread.c), which
 * reads `pmkit mpi report` files and, at MPI_Finalize, the records other
 * ranks send. Each input is read into a fresh job; what was read is then
 * written back (banner, JSON, CSV, SVG) to exercise the writers on it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi/job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmk__mpi_job job = {0};
	char err[128];
	FILE *null;
	if (size > (1 << 20))
		return 0;
	if (pmk__mpi_json_read(&job, (const char *)data, size, err,
			       sizeof err) == 0 &&
	    job.size <= 4096) {
		null = fopen("/dev/null", "w");
		if (null) {
			pmk__mpi_banner(null, &job, 8);
			pmk__mpi_json(null, &job);
			pmk__mpi_csv(null, &job);
			pmk__mpi_svg(null, &job, job.nev ? 0 : -1);
			fclose(null);
		}
	}
	pmk__mpi_job_release(&job);
	return 0;
}
