/*
 * pollmaster.c: a master that polls with MPI_Iprobe(MPI_ANY_SOURCE) and
 * workers that compute, for tests/mpi/mpi.t. Plain MPI, no pmkit; it
 * times its own computation with MPI_Wtime and prints, per rank after
 * MPI_Finalize,
 *   truth: rank R compute SECONDS wall SECONDS
 * (wall: from the return of MPI_Init to the call of MPI_Finalize; the
 * rest of the wall time, the polling loop included, is MPI time).
 *
 *   pollmaster [TASKS [WORK_MS [MASTER_US]]]   (40 2 100)
 * Worker w (rank 1 ..) computes w x WORK_MS, sends its result to rank 0
 * and receives the next order, TASKS times. Rank 0 polls MPI_Iprobe until
 * a result is there, receives it, computes MASTER_US on it and answers.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

int main(int argc, char **argv)
{
	int tasks = argc > 1 ? atoi(argv[1]) : 40;
	double work = (argc > 2 ? atof(argv[2]) : 2) * 1e-3;
	double mwork = (argc > 3 ? atof(argv[3]) : 100) * 1e-6;
	int rank, size, v = 0;
	double compute = 0, t0, t1;

	MPI_Init(&argc, &argv);
	t0 = MPI_Wtime();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		int *left = calloc((size_t)size, sizeof *left), busy = size - 1;
		for (int w = 1; w < size; w++)
			left[w] = tasks;
		while (busy > 0) {
			MPI_Status st;
			int flag = 0;
			do
				MPI_Iprobe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
					   &flag, &st);
			while (!flag);
			MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			compute += spin(mwork);
			v = --left[st.MPI_SOURCE] > 0;
			busy -= !v;
			MPI_Send(&v, 1, MPI_INT, st.MPI_SOURCE, 2,
				 MPI_COMM_WORLD);
		}
		free(left);
	} else {
		do {
			compute += spin(rank * work);
			MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
			MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} while (v);
	}
	t1 = MPI_Wtime();
	MPI_Finalize();
	printf("truth: rank %d compute %.6f wall %.6f\n", rank, compute,
	       t1 - t0);
	return 0;
}
