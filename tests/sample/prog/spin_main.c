/* spin_main.c: calls into spin_lib.c through via_a (4 parts of the work)
 * and via_b (1 part) for argv[1] CPU seconds; shared by
 * tests/sample/record.t and bench/compare/dwarf_report.sh. */
#include <stdlib.h>
#include <time.h>
void lib_spin(long n);
/* the empty asm after the call keeps it a call, not a tail jump, at -O2
 * too (the DWARF stack test and the bench build it so) */
__attribute__((noinline)) void via_a(long n) { lib_spin(4 * n); __asm__ volatile(""); }
__attribute__((noinline)) void via_b(long n) { lib_spin(n); __asm__ volatile(""); }
int main(int argc, char **argv)
{
	double want = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec ts;
	do {
		via_a(100000);
		via_b(100000);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < want);
	return 0;
}
