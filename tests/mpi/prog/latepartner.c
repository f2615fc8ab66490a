/*
 * latepartner.c: a late partner inside a burst of short calls, for
 * tests/mpi/mpi.t. Plain MPI, no pmkit; it times its own computation with
 * MPI_Wtime and prints, per rank after MPI_Finalize,
 *   truth: rank R compute SECONDS wall SECONDS
 * (wall: from the return of MPI_Init to the call of MPI_Finalize; all that
 * is not computation is the program's MPI time).
 *
 *   latepartner [STEPS [EVERY [LATE_MS [TRIPS]]]]   (1500 150 20 10)
 * Ranks pair up (0-1, 2-3, ...). Each step rank k computes k x 20 us, then
 * makes TRIPS round trips of one int with its partner and joins one
 * MPI_Allreduce of a double; every EVERY-th step rank 1 computes LATE_MS
 * more first, so rank 0 waits for it inside a run of tiny round trips,
 * the others in the MPI_Allreduce. Rank 0 computes least and waits most;
 * rank 1 computes most.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 1500;
	int every = argc > 2 ? atoi(argv[2]) : 150;
	double late = (argc > 3 ? atof(argv[3]) : 20) * 1e-3;
	int trips = argc > 4 ? atoi(argv[4]) : 10;
	int rank, size, partner, v = 0;
	double compute = 0, t0, t1, x = 1, y;

	MPI_Init(&argc, &argv);
	t0 = MPI_Wtime();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	for (int s = 0; s < steps; s++) {
		if (rank)
			compute += spin(rank * 20e-6);
		if (rank == 1 && s % every == every - 1)
			compute += spin(late);
		for (int i = 0; partner < size && i < trips; i++) {
			if (rank % 2 == 0) {
				MPI_Send(&v, 1, MPI_INT, partner, 0,
					 MPI_COMM_WORLD);
				MPI_Recv(&v, 1, MPI_INT, partner, 0,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(&v, 1, MPI_INT, partner, 0,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(&v, 1, MPI_INT, partner, 0,
					 MPI_COMM_WORLD);
			}
		}
		MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	t1 = MPI_Wtime();
	MPI_Finalize();
	printf("truth: rank %d compute %.6f wall %.6f\n", rank, compute,
	       t1 - t0);
	return 0;
}
