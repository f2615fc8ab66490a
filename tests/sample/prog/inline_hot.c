/* inline_hot.c: the hot loop is a static function forced inline into a
 * noinline caller, so its samples land in code DWARF describes as
 * DW_TAG_inlined_subroutine "mix" inside "outer". Argument: seconds. */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) static unsigned long outer(unsigned long x)
{
	unsigned long r = mix(x);
	sink = r;
	return r;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec t0, t;
	unsigned long x = 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int k = 0; k < 1000; k++)
			x = outer(x);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		     1e-9 * (double)(t.tv_nsec - t0.tv_nsec) <
		 secs);
	return (int)(x & 0);
}
