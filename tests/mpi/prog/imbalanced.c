/*
 * imbalanced.c: an MPI program with a known imbalance and known messages,
 * for tests/mpi/mpi.t and docs/mpi.md. Plain MPI, no pmkit.
 *
 *   imbalanced [UNIT_MS [ROUNDS [open|die|kill|abort]]]
 * Each of ROUNDS rounds (default 3): rank k computes (k + 1) x UNIT_MS
 * (default 40) of busy work inside region "work", then all meet in
 * MPI_Barrier. Then a ring: each rank sends 10 messages of 1 KiB to the
 * next rank (MPI_Isend + MPI_Wait) and receives 10 from the previous one
 * (MPI_Recv), inside region "ring" nested in region "comm"; then 5
 * MPI_Allreduce of one double and one MPI_Iallreduce with its MPI_Wait. With "open", region "left-open" is never
 * closed; with "die", rank 1 exits without MPI_Finalize (exit(3), at the
 * end); with "kill", rank 2 kills itself (SIGKILL) after its first
 * "work", while the others wait in MPI_Barrier; with "abort", rank 1
 * calls MPI_Abort there. Rank 0 prints the truth it measured itself,
 * after MPI_Finalize: every rank's compute time, the time outside MPI
 * calls from MPI_Init to the last MPI_Barrier (each round from the return
 * of the previous call to the call of MPI_Barrier, so the time the rank
 * waits for a CPU after a call returns, on a loaded machine, is in it as
 * it is in the library's), their imbalance (max / mean), and each rank's
 * time in its busy work alone (region "work"):
 *   truth: compute S0 S1 ...
 *   truth: imbalance X
 *   truth: work S0 S1 ...
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Busy work until `secs` of wall time have passed. */
static double spin(double secs)
{
	volatile double x = 1;
	double t0 = now(), t;
	do {
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
		t = now();
	} while (t - t0 < secs);
	return t - t0;
}

int main(int argc, char **argv)
{
	int rank, size, rounds = argc > 2 ? atoi(argv[2]) : 3;
	double unit = (argc > 1 ? atof(argv[1]) : 40) * 1e-3, mine = 0, sum = 0;
	double *all = NULL, *works = NULL, out = 0, last;
	char buf[1024], in[1024];
	MPI_Request req;

	const char *mode = argc > 3 ? argv[3] : NULL;

	MPI_Init(&argc, &argv);
	last = now();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 3 && !strcmp(argv[3], "open"))
		MPI_Pcontrol(1, "left-open");
	for (int r = 0; r < rounds; r++) {
		MPI_Pcontrol(1, "work");
		mine += spin((rank + 1) * unit);
		MPI_Pcontrol(-1, "work");
		if (mode && !strcmp(mode, "kill") && rank == 2)
			raise(SIGKILL);
		if (mode && !strcmp(mode, "abort") && rank == 1)
			MPI_Abort(MPI_COMM_WORLD, 4);
		out += now() - last;
		MPI_Barrier(MPI_COMM_WORLD);
		last = now();
	}
	memset(buf, rank, sizeof buf);
	MPI_Pcontrol(1, "comm");
	MPI_Pcontrol(1, "ring");
	for (int m = 0; m < 10; m++) {
		MPI_Isend(buf, sizeof buf, MPI_CHAR, (rank + 1) % size, m,
			  MPI_COMM_WORLD, &req);
		MPI_Recv(in, sizeof in, MPI_CHAR, (rank + size - 1) % size, m,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	}
	MPI_Pcontrol(-1, "ring");
	for (int m = 0; m < 5; m++) {
		double one = 1, s;
		MPI_Allreduce(&one, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	{
		double one = 1, s;
		MPI_Request r;
		MPI_Iallreduce(&one, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	}
	MPI_Pcontrol(-1, "comm");

	if (rank == 0) {
		all = malloc(sizeof *all * (size_t)size);
		works = malloc(2 * sizeof *works * (size_t)size);
	}
	{
		double two[2] = {out, mine};
		MPI_Gather(two, 2, MPI_DOUBLE, works, 2, MPI_DOUBLE, 0,
			   MPI_COMM_WORLD);
	}
	for (int i = 0; rank == 0 && i < size; i++) {
		all[i] = works[2 * i];
		works[i] = works[2 * i + 1];
	}
	if (mode && !strcmp(mode, "die") && rank == 1)
		exit(3);
	MPI_Finalize();
	/* printed after MPI_Finalize: the time to print is outside the
	 * library's window too */
	if (rank == 0) {
		double max = 0;
		printf("truth: compute");
		for (int i = 0; i < size; i++) {
			printf(" %.6f", all[i]);
			sum += all[i];
			if (all[i] > max)
				max = all[i];
		}
		printf("\ntruth: imbalance %.4f\ntruth: work", max / (sum / size));
		for (int i = 0; i < size; i++)
			printf(" %.6f", works[i]);
		printf("\n");
		fflush(stdout);
		free(all);
		free(works);
	}
	return 0;
}
