/*
 * pmkregion.c: pmkit's own region API in an MPI program, for
 * tests/mpi/mpi.t. Linked with -lpmkit-mpi (which carries libpmkit), so
 * pmk_region_begin/end are the library's: region "solve" (rank k spins
 * (k + 1) x 20 ms) appears in the job's banner and JSON as a pmk region,
 * and each rank's pmkit-regions file is its own.
 */
#include <mpi.h>
#include <time.h>

#include "pmkit.h"

int main(int argc, char **argv)
{
	struct timespec t0, t;
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	pmk_region_begin("solve");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1e9 + (t.tv_nsec - t0.tv_nsec) <
	       20e6 * (rank + 1));
	pmk_region_end("solve");
	MPI_Finalize();
	return 0;
}
