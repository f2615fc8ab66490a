/*
 * mpi_overhead.c: the MPI side of bench/compare/mpi_overhead.sh. Plain
 * MPI; the script runs it with and without libpmkit-mpi preloaded.
 *
 *   mpi_overhead [ITERATIONS]
 * Rank 0 and rank 1 ping-pong a 1 KiB message ITERATIONS times (default
 * 20000, after 1000 for warm-up): "pingpong_us" is the time of one round
 * trip. Then every rank runs ITERATIONS MPI_Allreduce of one double:
 * "allreduce_us" per call. Each rank then times its own MPI_Finalize and
 * prints "finalize_ms RANK VALUE" after it.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int rank, size, n = argc > 1 ? atoi(argv[1]) : 20000;
	char buf[1024] = {0};
	double t0, t, x = 1, s;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size >= 2 && rank < 2) {
		int peer = 1 - rank;
		for (int pass = 0; pass < 2; pass++) {
			int iters = pass ? n : 1000;
			t0 = now();
			for (int i = 0; i < iters; i++)
				if (rank == 0) {
					MPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1,
						 MPI_COMM_WORLD);
					MPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1,
						 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				} else {
					MPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1,
						 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
					MPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1,
						 MPI_COMM_WORLD);
				}
			t = now() - t0;
		}
		if (rank == 0)
			printf("pingpong_us %.4f\n", t / n * 1e6);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	for (int pass = 0; pass < 2; pass++) {
		int iters = pass ? n : 1000;
		t0 = now();
		for (int i = 0; i < iters; i++)
			MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		t = now() - t0;
	}
	if (rank == 0)
		printf("allreduce_us %.4f\n", t / n * 1e6);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = now();
	MPI_Finalize();
	printf("finalize_ms %d %.3f\n", rank, (now() - t0) * 1e3);
	return 0;
}
