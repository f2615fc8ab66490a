/* ten_hot.c: ten functions with shares 10:9:...:1 of the CPU time, so
 * that a profile's top 10 have clearly different percentages; built with
 * frame pointers for call-graph recordings. Argument: rounds (default 20). */
#include <stdlib.h>

volatile double sink;

#define HOT(name, k)                                                           \
	__attribute__((noinline)) void name(long n)                            \
	{                                                                      \
		for (long i = 0; i < n * (k); i++)                             \
			sink += (double)i * 0.5;                               \
	}
HOT(hot10, 10)
HOT(hot09, 9)
HOT(hot08, 8)
HOT(hot07, 7)
HOT(hot06, 6)
HOT(hot05, 5)
HOT(hot04, 4)
HOT(hot03, 3)
HOT(hot02, 2)
HOT(hot01, 1)

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20;
	for (long r = 0; r < rounds; r++) {
		hot10(100000);
		hot09(100000);
		hot08(100000);
		hot07(100000);
		hot06(100000);
		hot05(100000);
		hot04(100000);
		hot03(100000);
		hot02(100000);
		hot01(100000);
	}
	return 0;
}
