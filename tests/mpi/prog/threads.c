/*
 * threads.c: MPI_THREAD_MULTIPLE with two threads inside MPI at once, for
 * tests/mpi/mpi.t. Plain MPI and pthreads, no pmkit.
 *
 *   threads [TRIPS [WORK_MS]]   (50 1)
 * Two ranks, two threads each. Each thread t of rank 0 makes TRIPS round
 * trips with thread t of rank 1 (tag t): send, then wait in MPI_Recv;
 * rank 1 receives, computes WORK_MS, answers. So both threads of rank 0
 * wait in MPI_Recv at the same time for most of the run. Prints
 * "truth: provided N" (the thread level given; the test skips below
 * MPI_THREAD_MULTIPLE), and after MPI_Finalize "truth: rank R wall S".
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, trips;
static double work;

static void spin(double secs)
{
	volatile double x = 1;
	double t0 = MPI_Wtime();
	while (MPI_Wtime() - t0 < secs)
		for (int i = 0; i < 200; i++)
			x = x * 1.0000001 + 1e-9;
}

static void *run(void *arg)
{
	int t = (int)(long)arg, v = 0;
	for (int i = 0; i < trips; i++) {
		if (rank == 0) {
			MPI_Send(&v, 1, MPI_INT, 1, t, MPI_COMM_WORLD);
			MPI_Recv(&v, 1, MPI_INT, 1, t, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			spin(work);
			MPI_Send(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int provided;
	pthread_t th[2];
	double t0, t1;
	trips = argc > 1 ? atoi(argv[1]) : 50;
	work = (argc > 2 ? atof(argv[2]) : 1) * 1e-3;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	t0 = MPI_Wtime();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		printf("truth: provided %d\n", provided == MPI_THREAD_MULTIPLE);
	if (provided == MPI_THREAD_MULTIPLE) {
		for (long t = 0; t < 2; t++)
			pthread_create(&th[t], NULL, run, (void *)t);
		for (int t = 0; t < 2; t++)
			pthread_join(th[t], NULL);
	}
	t1 = MPI_Wtime();
	MPI_Finalize();
	printf("truth: rank %d wall %.6f\n", rank, t1 - t0);
	return 0;
}
