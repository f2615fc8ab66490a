/* plt_vdso.cc: a C++ program whose time goes to a namespaced function
 * (demangled as work::spin_abs(int)), through the PLT to libc's abs (the
 * stub shows as abs@plt), and into the vdso (clock_gettime), in rounds until
 * it has used argv[1] seconds of CPU time. Built with -fno-builtin so that
 * abs is a real call. */
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
int main(int argc, char **argv)
{
	double want = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec ts;
	do {
		sink = work::spin_abs(20000000);
		vdso_time(300);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < want);
	return 0;
}
