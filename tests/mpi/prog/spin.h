/*
 * spin.h: the computing of the MPI test programs (allred, burstbarrier,
 * halo, latepartner, pollmaster): burn SECS of wall time by MPI_Wtime,
 * checking the clock every 200 multiply-adds; returns the time it took.
 * Included by each program (they are built one file each, mk/mpi.mk).
 */
#ifndef PMK_TEST_MPI_SPIN_H
#define PMK_TEST_MPI_SPIN_H
#include <mpi.h>

static double spin(double secs)
{
	volatile double x = 1;
	double t0 = MPI_Wtime(), t;
	do {
		for (int i = 0; i < 200; i++)
			x = x * 1.0000001 + 1e-9;
		t = MPI_Wtime();
	} while (t - t0 < secs);
	return t - t0;
}
#endif
