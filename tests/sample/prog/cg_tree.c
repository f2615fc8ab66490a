/* cg_tree.c: call chains of known shape for callgraph.t: a leaf reached
 * through several paths (a1 -> b1, a1 -> b2 -> b1, a2 -> b2, a recursion
 * three deep, and main directly), each taking a different share of the
 * time. Built with -O0 and frame pointers so that every frame is walked;
 * the `sink` after each call keeps the calls from becoming jumps.
 *   cg_tree [SECONDS]   (default 0.4) */
#include <stdlib.h>
#include <time.h>

volatile double sink;

__attribute__((noinline)) void leaf(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)i * 0.5;
	sink = s;
}
__attribute__((noinline)) void b1(long n) { leaf(n); sink += 1; }
__attribute__((noinline)) void b2(long n) { leaf(n); b1(n / 2); sink += 1; }
__attribute__((noinline)) void a1(long n) { b1(n); b2(n); sink += 1; }
__attribute__((noinline)) void a2(long n) { b2(3 * n); sink += 1; }
__attribute__((noinline)) void rec(int d, long n)
{
	if (d)
		rec(d - 1, n);
	else
		leaf(n);
	sink += 1;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.4, t0 = now();
	/* the clock read once in 8 rounds (about 2 ms), so that few samples
	 * fall in it */
	for (int i = 1;; i++) {
		a1(20000);
		a2(20000);
		rec(3, 50000);
		leaf(7000);
		if (i % 8 == 0 && now() - t0 >= secs)
			break;
	}
	return 0;
}
