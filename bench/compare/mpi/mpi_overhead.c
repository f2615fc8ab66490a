/*
 * mpi_overhead.c: the MPI side of bench/compare/mpi_overhead.sh. Plain
 * MPI; the script runs it with libpmkit-mpi preloaded (and without, as a
 * control).
 *
 *   mpi_overhead [BLOCKS [ITERATIONS]]
 * With and without the library in the same run: blocks of ITERATIONS
 * (default 2000) calls alternate between the MPI_ entry points (through
 * the library's wrappers when it is preloaded) and the PMPI_ ones (never
 * wrapped), BLOCKS (default 40) of each, so both see the same machine.
 *  - "pingpong MPI|PMPI US": one round trip of a 1 KiB message between
 *    rank 0 and rank 1 (MPI_Send + MPI_Recv on each side), per block;
 *  - "allreduce MPI|PMPI US": one MPI_Allreduce of one double on every
 *    rank, per block (rank 0's time).
 * Then each rank times its own MPI_Finalize and prints
 * "finalize_ms RANK VALUE" after it.
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

static void pingpong(int rank, int n, int wrapped)
{
	char buf[1024] = {0};
	int peer = 1 - rank;
	for (int i = 0; i < n; i++) {
		if (wrapped && rank == 0) {
			MPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else if (wrapped) {
			MPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
		} else if (rank == 0) {
			PMPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
			PMPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE);
		} else {
			PMPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE);
			PMPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
		}
	}
}

static void allreduce(int n, int wrapped)
{
	double x = 1, s;
	for (int i = 0; i < n; i++)
		if (wrapped)
			MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		else
			PMPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	int rank, size, blocks = argc > 1 ? atoi(argv[1]) : 40;
	int n = argc > 2 ? atoi(argv[2]) : 2000;
	double t0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size >= 2 && rank < 2) {
		pingpong(rank, n, 0); /* warm-up */
		for (int b = 0; b < 2 * blocks; b++) {
			t0 = now();
			pingpong(rank, n, b & 1);
			if (rank == 0)
				printf("pingpong %s %.4f\n", b & 1 ? "MPI" : "PMPI",
				       (now() - t0) / n * 1e6);
		}
	}
	PMPI_Barrier(MPI_COMM_WORLD);
	allreduce(n, 0);
	for (int b = 0; b < 2 * blocks; b++) {
		t0 = now();
		allreduce(n, b & 1);
		if (rank == 0)
			printf("allreduce %s %.4f\n", b & 1 ? "MPI" : "PMPI",
			       (now() - t0) / n * 1e6);
	}
	fflush(stdout);
	PMPI_Barrier(MPI_COMM_WORLD);
	t0 = now();
	MPI_Finalize();
	printf("finalize_ms %d %.3f\n", rank, (now() - t0) * 1e3);
	return 0;
}
