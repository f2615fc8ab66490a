/*
 * burstbarrier.c: bursts of short calls, then computation, then a
 * barrier, for tests/mpi/mpi.t. Plain MPI, no pmkit; it times its own
 * computation with MPI_Wtime and prints, per rank after MPI_Finalize,
 *   truth: rank R compute SECONDS wall SECONDS
 * (wall: from the return of MPI_Init to the call of MPI_Finalize; the
 * rest is MPI time).
 *
 *   burstbarrier [STEPS [UNIT_MS [BURST]]]   (20 5 200)
 * Each step: BURST exchanges of 8 bytes around the ring (MPI_Irecv from
 * the left, MPI_Isend to the right, MPI_Waitall), then rank k computes
 * (k + 1) x UNIT_MS, then MPI_Barrier: every rank but the last waits
 * there, the longer the lower its rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 20;
	double unit = (argc > 2 ? atof(argv[2]) : 5) * 1e-3;
	int burst = argc > 3 ? atoi(argv[3]) : 200;
	int rank, size;
	double compute = 0, t0, t1, out = 1, in;
	MPI_Request rq[2];

	MPI_Init(&argc, &argv);
	t0 = MPI_Wtime();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int s = 0; s < steps; s++) {
		for (int i = 0; i < burst; i++) {
			MPI_Irecv(&in, 1, MPI_DOUBLE, (rank + size - 1) % size,
				  0, MPI_COMM_WORLD, &rq[0]);
			MPI_Isend(&out, 1, MPI_DOUBLE, (rank + 1) % size, 0,
				  MPI_COMM_WORLD, &rq[1]);
			MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		}
		compute += spin((rank + 1) * unit);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	t1 = MPI_Wtime();
	MPI_Finalize();
	printf("truth: rank %d compute %.6f wall %.6f\n", rank, compute,
	       t1 - t0);
	return 0;
}
