/*
 * rmaio.c: persistent requests, one-sided communication and MPI-IO, for
 * tests/mpi/mpi.t. Plain MPI, no pmkit; it prints its own counts after
 * MPI_Finalize, per rank:
 *   truth: call FUNCTION CALLS BYTES_SENT BYTES_RECV
 *   truth: to SRC DST CALLS BYTES
 *
 *   rmaio DIR [STEPS]   (STEPS 20)
 * Each step: a ring of persistent requests (MPI_Send_init to rank + 1 of
 * 1,000 bytes, MPI_Recv_init from rank - 1, MPI_Startall, MPI_Waitall),
 * then an MPI_Put of 64 doubles to rank + 1 between two MPI_Win_fence.
 * Then MPI-IO on DIR/rmaio.dat: each rank writes its 4 KiB block with
 * MPI_File_write_at_all and reads it back with MPI_File_read_at.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int steps = argc > 2 ? atoi(argv[2]) : 20;
	int rank, size, next, prev;
	char sbuf[1000] = {0}, rbuf[1000], path[4096], io[4096] = {0};
	double *base, put[64] = {0};
	MPI_Request req[2];
	MPI_Win win;
	MPI_File fh;

	MPI_Init(&argc, &argv);
	if (argc < 2) {
		fprintf(stderr, "rmaio DIR [STEPS]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	next = (rank + 1) % size;
	prev = (rank + size - 1) % size;
	MPI_Send_init(sbuf, sizeof sbuf, MPI_CHAR, next, 1, MPI_COMM_WORLD,
		      &req[0]);
	MPI_Recv_init(rbuf, sizeof rbuf, MPI_CHAR, prev, 1, MPI_COMM_WORLD,
		      &req[1]);
	MPI_Win_allocate(64 * sizeof(double), sizeof(double), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &base, &win);
	for (int s = 0; s < steps; s++) {
		MPI_Startall(2, req);
		MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
		MPI_Win_fence(0, win);
		MPI_Put(put, 64, MPI_DOUBLE, next, 0, 64, MPI_DOUBLE, win);
		MPI_Win_fence(0, win);
	}
	MPI_Request_free(&req[0]);
	MPI_Request_free(&req[1]);
	MPI_Win_free(&win);
	snprintf(path, sizeof path, "%s/rmaio.dat", argv[1]);
	MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
		      MPI_INFO_NULL, &fh);
	MPI_File_write_at_all(fh, (MPI_Offset)rank * sizeof io, io, sizeof io,
			      MPI_BYTE, MPI_STATUS_IGNORE);
	MPI_File_read_at(fh, (MPI_Offset)rank * sizeof io, io, sizeof io,
			 MPI_BYTE, MPI_STATUS_IGNORE);
	MPI_File_close(&fh);
	MPI_Finalize();
	printf("truth: call MPI_Send_init 1 0 0\n");
	printf("truth: call MPI_Recv_init 1 0 0\n");
	printf("truth: call MPI_Startall %d %d %d\n", steps,
	       steps * (int)sizeof sbuf, steps * (int)sizeof rbuf);
	printf("truth: call MPI_Win_allocate 1 0 0\n");
	printf("truth: call MPI_Win_fence %d 0 0\n", 2 * steps);
	printf("truth: call MPI_Put %d %d 0\n", steps, steps * (int)sizeof put);
	printf("truth: call MPI_Win_free 1 0 0\n");
	printf("truth: call MPI_File_open 1 0 0\n");
	printf("truth: call MPI_File_write_at_all 1 %d 0\n", (int)sizeof io);
	printf("truth: call MPI_File_read_at 1 0 %d\n", (int)sizeof io);
	printf("truth: call MPI_File_close 1 0 0\n");
	printf("truth: to %d %d %d %d\n", rank, next, 2 * steps,
	       steps * (int)(sizeof sbuf + sizeof put));
	return 0;
}
