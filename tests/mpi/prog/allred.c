/*
 * allred.c: an imbalanced MPI_Allreduce, for tests/mpi/mpi.t. Plain MPI,
 * no pmkit; it times its own computation with MPI_Wtime and prints, per
 * rank after MPI_Finalize,
 *   truth: rank R compute SECONDS wall SECONDS
 * (wall: from the return of MPI_Init to the call of MPI_Finalize; the
 * rest is MPI time).
 *
 *   allred [STEPS [UNIT_MS]]   (40 2)
 * Each step rank k computes UNIT_MS x (1 + k / 2), more on one rank
 * each step in turn (step s: rank s % size computes 3 x UNIT_MS more),
 * then all join an MPI_Allreduce of 1,000 doubles: every rank waits for
 * the slowest of the step, which changes.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 40;
	double unit = (argc > 2 ? atof(argv[2]) : 2) * 1e-3;
	int rank, size;
	double compute = 0, t0, t1, a[1000] = {0}, b[1000];

	MPI_Init(&argc, &argv);
	t0 = MPI_Wtime();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int s = 0; s < steps; s++) {
		compute += spin(unit * (1 + rank / 2.0) +
				(s % size == rank ? 3 * unit : 0));
		MPI_Allreduce(a, b, 1000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	t1 = MPI_Wtime();
	MPI_Finalize();
	printf("truth: rank %d compute %.6f wall %.6f\n", rank, compute,
	       t1 - t0);
	return 0;
}
