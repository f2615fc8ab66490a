/*
 * halo.c: an uneven halo exchange, for tests/mpi/mpi.t. Plain MPI, no
 * pmkit; it times its own computation with MPI_Wtime and prints, per rank
 * after MPI_Finalize,
 *   truth: rank R compute SECONDS wall SECONDS
 * (wall: from the return of MPI_Init to the call of MPI_Finalize; the
 * rest is MPI time).
 *
 *   halo [STEPS [UNIT_MS]]   (30 2)
 * A line of ranks (not periodic). Each step rank k computes
 * (k % 3 + 1) x UNIT_MS, then exchanges halos with its left and right
 * neighbours with MPI_Sendrecv, (k + 1) x 1,024 doubles sent each way,
 * so both the work and the messages are uneven.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 30;
	double unit = (argc > 2 ? atof(argv[2]) : 2) * 1e-3;
	int rank, size, n, nmax;
	double compute = 0, t0, t1, *out, *in;

	MPI_Init(&argc, &argv);
	t0 = MPI_Wtime();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	n = (rank + 1) * 1024;
	nmax = size * 1024;
	out = calloc((size_t)n, sizeof *out);
	in = calloc((size_t)nmax, sizeof *in);
	for (int s = 0; s < steps; s++) {
		compute += spin((rank % 3 + 1) * unit);
		for (int d = -1; d <= 1; d += 2) {
			int to = rank + d, from = rank - d;
			MPI_Sendrecv(
			    out, to >= 0 && to < size ? n : 0, MPI_DOUBLE,
			    to >= 0 && to < size ? to : MPI_PROC_NULL, d + 1,
			    in, nmax, MPI_DOUBLE,
			    from >= 0 && from < size ? from : MPI_PROC_NULL,
			    d + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
	t1 = MPI_Wtime();
	MPI_Finalize();
	printf("truth: rank %d compute %.6f wall %.6f\n", rank, compute,
	       t1 - t0);
	free(out);
	free(in);
	return 0;
}
