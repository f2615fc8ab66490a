/*
 * nompi.c: a program that never calls MPI_Init, for tests/mpi/mpi.t: with
 * libpmkit-mpi preloaded it must run untouched (output, exit status 3, or
 * the status given as its argument) and get one note. Under mpirun it is
 * given 0: a rank exiting with another status makes mpirun kill the
 * others, rank 0 among them, maybe before it wrote its note.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	puts("untouched");
	return argc > 1 ? atoi(argv[1]) : 3;
}
