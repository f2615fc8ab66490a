/*
 * bursty.c: an MPI program of short calls in bursts, with its own truth,
 * for libpmkit-mpi's timing of calls (mpi/timing.c). Plain MPI, no pmkit.
 *
 *   bursty [UNIT_MS [ROUNDS [POLLS [TRIPS]]]]    (default 30 3 100000 2000)
 * Each round, on every rank: POLLS MPI_Iprobe that find nothing (short,
 * local calls), then TRIPS round trips of 1 KiB with its partner (rank
 * k^1, when there is one: Send and Recv, short calls that may wait; the
 * first receive waits for the partner's polling to end; region "trips"
 * with MPI_Pcontrol), then (k + 1)
 * units of UNIT_MS of computation. Each rank prints the time it measured
 * around each phase:
 *   truth: rank K compute S polls S trips S
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

static volatile double sink;

static void compute(double seconds)
{
	double t0 = now(), x = 1;
	while (now() - t0 < seconds)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

int main(int argc, char **argv)
{
	int rank, size, flag;
	double unit = (argc > 1 ? atof(argv[1]) : 30) * 1e-3;
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	long polls = argc > 3 ? atol(argv[3]) : 100000;
	int trips = argc > 4 ? atoi(argv[4]) : 2000;
	double t_comp = 0, t_poll = 0, t_trip = 0, t;
	static char buf[1024];
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int r = 0; r < rounds; r++) {
		int peer = rank ^ 1;
		t = now();
		for (long i = 0; i < polls; i++)
			MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag,
				   &st);
		t_poll += now() - t;
		MPI_Pcontrol(1, "trips");
		t = now();
		for (int i = 0; peer < size && i < trips; i++)
			if (rank & 1) {
				MPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1,
					 MPI_COMM_WORLD);
			} else {
				MPI_Send(buf, sizeof buf, MPI_CHAR, peer, 1,
					 MPI_COMM_WORLD);
				MPI_Recv(buf, sizeof buf, MPI_CHAR, peer, 1,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		t_trip += now() - t;
		MPI_Pcontrol(-1, "trips");
		t = now();
		compute((rank + 1) * unit);
		t_comp += now() - t;
	}
	printf("truth: rank %d compute %.6f polls %.6f trips %.6f\n", rank,
	       t_comp, t_poll, t_trip);
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
