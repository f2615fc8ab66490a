/* plt_vdso.cc: a C++ program whose time goes to a namespaced function
 * (demangled as work::spin_abs(int)), through the PLT to libc's abs (the
 * stub shows as abs@plt), and into the vdso (clock_gettime), in rounds until
 * argv[1] seconds have passed. Built with -fno-builtin so that abs is a
 * real call.
 *
 * What the profile should see is set by time, not by the host: a vdso clock
 * read costs 20 ns on one machine and far more on others, so the number of
 * reads per round is measured first (about a tenth of a round goes to the
 * vdso). The end of the run is read from CLOCK_MONOTONIC (in the vdso, no
 * system call): a CPU-time clock is a system call, and on some VMs the
 * timer's samples pile up where that call returns (seen: 85 % of cpu-clock
 * samples, perf's and pmkit's alike, in __vdso_clock_gettime for 0.02 % of
 * the time), which left the PLT stub without a sample. */
#include <stdlib.h>
#include <time.h>
volatile long sink;
namespace work {
__attribute__((noinline)) long spin_abs(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += abs(i - n / 2);
	return s;
}
}
__attribute__((noinline)) void vdso_time(int n)
{
	struct timespec ts;
	for (int i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
}
static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	double want = argc > 1 ? atof(argv[1]) : 0.3;
	double start = mono_s(), t0, t1, t2;
	int reads = 300;
	do {
		t0 = mono_s();
		sink = work::spin_abs(5000000);
		t1 = mono_s();
		vdso_time(reads);
		t2 = mono_s();
		/* the next round's reads: a tenth of the spin's time */
		if (t2 > t1 && t1 > t0) {
			double n = reads * (t1 - t0) / 9 / (t2 - t1);
			reads = n < 1 ? 1 : n > 1e7 ? 10000000 : (int)n;
		}
	} while (t2 - start < want);
	return 0;
}
