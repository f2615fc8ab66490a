/*
 * mpi_overhead.c: the MPI side of bench/compare/mpi_overhead.sh. Plain
 * MPI; the script runs it with libpmkit-mpi preloaded (and without, as a
 * control).
 *
 *   mpi_overhead [BLOCKS [ITERATIONS]]
 * With and without the library in the same run: blocks of ITERATIONS
 * (default 200) calls through the MPI_ entry points (through the
 * library's wrappers when it is preloaded) and through the PMPI_ ones
 * (never wrapped) come in pairs, BLOCKS (default 300) pairs, the order
 * within a pair alternating (PMPI MPI, MPI PMPI, ...), so that both halves
 * of a pair see the same machine. One line per block, "WHAT MPI|PMPI NS"
 * (time per iteration), the two blocks of a pair one after the other:
 *  - on one rank (mpirun -np 1), "iprobe": one MPI_Iprobe that finds
 *    nothing, the cheapest call there is, so the difference is the
 *    wrapper's own cost; "selfmsg": MPI_Isend + MPI_Recv + MPI_Wait of
 *    1 KiB to itself (three wrapped calls, with the bytes counted);
 *  - on 2 or more ranks, "pingpong": one round trip of a 1 KiB message
 *    between rank 0 and rank 1 (MPI_Send + MPI_Recv on each side);
 *    "allreduce": one MPI_Allreduce of one double on every rank (rank 0's
 *    time).
 * On one rank it also prints what one read of each clock the library may
 * use costs here, "clock tsc|monotonic NS" (the median of BLOCKS blocks;
 * the TSC on x86-64 only).
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

static char buf[1024];

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of `blocks` blocks of n reads of one clock, in ns per read. */
static double clock_cost(int tsc, int blocks, int n)
{
	double *t = malloc(sizeof *t * (size_t)blocks), m;
	volatile unsigned long long sink = 0;
	struct timespec ts;
	if (!t)
		return 0;
	for (int b = 0; b < blocks; b++) {
		double t0 = now();
		for (int i = 0; i < n; i++) {
#if defined(__x86_64__)
			if (tsc) {
				sink += __builtin_ia32_rdtsc();
				continue;
			}
#endif
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sink += (unsigned long long)ts.tv_nsec;
		}
		t[b] = (now() - t0) / n * 1e9;
	}
	qsort(t, (size_t)blocks, sizeof *t, cmp_double);
	m = t[blocks / 2];
	free(t);
	return m;
}

static void iprobe(int rank, int n, int wrapped)
{
	int flag;
	for (int i = 0; i < n; i++)
		if (wrapped)
			MPI_Iprobe(0, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		else
			PMPI_Iprobe(0, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

static void selfmsg(int rank, int n, int wrapped)
{
	MPI_Request rq;
	for (int i = 0; i < n; i++)
		if (wrapped) {
			MPI_Isend(buf, sizeof buf, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &rq);
			MPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			PMPI_Isend(buf, sizeof buf, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &rq);
			PMPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE);
			PMPI_Wait(&rq, MPI_STATUS_IGNORE);
		}
}

static void pingpong(int rank, int n, int wrapped)
{
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

static void allreduce(int rank, int n, int wrapped)
{
	double x = 1, s;
	for (int i = 0; i < n; i++)
		if (wrapped)
			MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		else
			PMPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* BLOCKS pairs of blocks of N iterations of fn, after a warm-up; rank 0
 * prints one line per block. */
static void pairs(const char *what, void (*fn)(int, int, int), int rank,
		  int blocks, int n)
{
	fn(rank, n, 0);
	fn(rank, n, 1);
	for (int p = 0; p < blocks; p++)
		for (int k = 0; k < 2; k++) {
			int wrapped = (p & 1) ^ k; /* PMPI MPI, MPI PMPI, ... */
			double t0 = now();
			fn(rank, n, wrapped);
			if (rank == 0)
				printf("%s %s %.2f\n", what, wrapped ? "MPI" : "PMPI",
				       (now() - t0) / n * 1e9);
		}
}

int main(int argc, char **argv)
{
	int rank, size, blocks = argc > 1 ? atoi(argv[1]) : 300;
	int n = argc > 2 ? atoi(argv[2]) : 200;
	double t0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (blocks < 1 || n < 1) {
		if (rank == 0)
			fprintf(stderr, "usage: mpi_overhead [BLOCKS [ITERATIONS]]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (size == 1) {
#if defined(__x86_64__)
		printf("clock tsc %.2f\n", clock_cost(1, blocks, n * 10));
#endif
		printf("clock monotonic %.2f\n", clock_cost(0, blocks, n * 10));
		pairs("iprobe", iprobe, rank, blocks, n * 10);
		pairs("selfmsg", selfmsg, rank, blocks, n);
	}
	if (size >= 2 && rank < 2)
		pairs("pingpong", pingpong, rank, blocks, n);
	PMPI_Barrier(MPI_COMM_WORLD);
	if (size >= 2)
		pairs("allreduce", allreduce, rank, blocks, n);
	fflush(stdout);
	PMPI_Barrier(MPI_COMM_WORLD);
	t0 = now();
	MPI_Finalize();
	printf("finalize_ms %d %.3f\n", rank, (now() - t0) * 1e3);
	return 0;
}
