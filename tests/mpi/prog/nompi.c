/*
 * nompi.c: a program that never calls MPI_Init, for tests/mpi/mpi.t: with
 * libpmkit-mpi preloaded it must run untouched (output, exit status 3)
 * and get one note.
 */
#include <stdio.h>

int main(void)
{
	puts("untouched");
	return 3;
}
