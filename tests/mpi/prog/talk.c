/*
 * talk.c: a known communication pattern, for tests/mpi/mpi.t (who talks
 * to whom, message sizes, call sites). Plain MPI, no pmkit; it counts its
 * own messages and prints them after MPI_Finalize, per rank:
 *   truth: to SRC DST CALLS BYTES       point-to-point sends, by pair
 *   truth: hist FUNCTION BUCKET CALLS   bucket k >= 1: [2^(k-1), 2^k) bytes
 *   truth: site FUNCTION talk.c:LINE CALLS
 *   truth: coll CALLS BYTES             collectives, bytes contributed
 *
 *   talk [STEPS]   (40; 4 ranks or more, even count)
 * Each step: a ring (rank r sends to r + 1 with MPI_Send at one call
 * site, sizes cycling over 8, 100, 1,000, 4,096 and 65,536 bytes; even
 * ranks send first) and an MPI_Allreduce of 8 doubles. Then the heavy
 * pair: rank 0 sends rank 2 STEPS x 2 messages of 256 KiB with MPI_Send
 * at a second call site, and 10 of 512 bytes with MPI_Isend on the
 * communicator of the even ranks (rank 2 is its rank 1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 64
static long to_calls[MAXP], to_bytes[MAXP];
static long hist_send[64], hist_isend[64];
static long site_ring, site_heavy, coll_calls, coll_bytes;
static int line_ring, line_heavy;

static int bucket(long b)
{
	return b ? 64 - __builtin_clzl((unsigned long)b) : 0;
}

static void count(int world_dest, long bytes, long *hist)
{
	to_calls[world_dest]++;
	to_bytes[world_dest] += bytes;
	hist[bucket(bytes)]++;
}

int main(int argc, char **argv)
{
	static const int sizes[] = {8, 100, 1000, 4096, 65536};
	int steps = argc > 1 ? atoi(argv[1]) : 40;
	int rank, size, next, prev;
	char *buf = calloc(256 * 1024, 1);
	double a[8] = {0}, b[8];
	MPI_Comm evens;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 4 || size > MAXP || size % 2) {
		if (!rank)
			fprintf(stderr, "talk: 4 to %d ranks, an even count\n",
				MAXP);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	next = (rank + 1) % size;
	prev = (rank + size - 1) % size;
	for (int s = 0; s < steps; s++) {
		int n = sizes[s % 5];
		if (rank % 2 == 0) {
			line_ring = __LINE__ + 1;
			MPI_Send(buf, n, MPI_CHAR, next, 1, MPI_COMM_WORLD);
			site_ring++;
			count(next, n, hist_send);
			MPI_Recv(buf, n, MPI_CHAR, prev, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, n, MPI_CHAR, prev, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			line_ring = __LINE__ + 1;
			MPI_Send(buf, n, MPI_CHAR, next, 1, MPI_COMM_WORLD);
			site_ring++;
			count(next, n, hist_send);
		}
		MPI_Allreduce(a, b, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		coll_calls++;
		coll_bytes += sizeof a;
	}
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &evens);
	if (rank == 0) {
		MPI_Request r;
		for (int i = 0; i < steps * 2; i++) {
			line_heavy = __LINE__ + 1;
			MPI_Send(buf, 256 * 1024, MPI_BYTE, 2, 2,
				 MPI_COMM_WORLD);
			site_heavy++;
			count(2, 256 * 1024, hist_send);
		}
		for (int i = 0; i < 10; i++) {
			MPI_Isend(buf, 64, MPI_DOUBLE, 1, 3, evens, &r);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
			count(2, 512, hist_isend);
		}
	} else if (rank == 2) {
		for (int i = 0; i < steps * 2; i++)
			MPI_Recv(buf, 256 * 1024, MPI_BYTE, 0, 2,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int i = 0; i < 10; i++)
			MPI_Recv(buf, 64, MPI_DOUBLE, 0, 3, evens,
				 MPI_STATUS_IGNORE);
	}
	MPI_Comm_free(&evens);
	MPI_Finalize();
	for (int d = 0; d < size; d++)
		if (to_calls[d])
			printf("truth: to %d %d %ld %ld\n", rank, d,
			       to_calls[d], to_bytes[d]);
	for (int k = 0; k < 64; k++) {
		if (hist_send[k])
			printf("truth: hist MPI_Send %d %ld\n", k,
			       hist_send[k]);
		if (hist_isend[k])
			printf("truth: hist MPI_Isend %d %ld\n", k,
			       hist_isend[k]);
	}
	if (site_ring)
		printf("truth: site MPI_Send talk.c:%d %ld\n", line_ring,
		       site_ring);
	if (site_heavy)
		printf("truth: site MPI_Send talk.c:%d %ld\n", line_heavy,
		       site_heavy);
	printf("truth: coll %ld %ld\n", coll_calls, coll_bytes);
	free(buf);
	return 0;
}
