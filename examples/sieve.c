/*
 * sieve.c: seed 000's prime-number example. A byte per integer; passes with
 * strides 2, 3, 4, ... up to sqrt(size) mark the multiples as not prime.
 * "store-always" writes a 1 at every step; "test-before-store" writes only
 * where the byte is still 0, so each line is dirtied once and most lines
 * are evicted clean (the seed's Pentium Pro fix). Both are timed with the
 * pmkit clock and counted with a pmkit event set; the prime counts must
 * agree.
 *
 *   sieve [--quick] [--size BYTES] [--reps N]
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "examples/measure.h"

static void sieve_store_always(unsigned char *a, size_t n)
{
	size_t lim = (size_t)sqrt((double)n);
	for (size_t p = 2; p <= lim; p++)
		for (size_t m = 2 * p; m < n; m += p)
			a[m] = 1;
}

static void sieve_test_first(unsigned char *a, size_t n)
{
	size_t lim = (size_t)sqrt((double)n);
	for (size_t p = 2; p <= lim; p++)
		for (size_t m = 2 * p; m < n; m += p)
			if (!a[m])
				a[m] = 1;
}

static size_t count_primes(const unsigned char *a, size_t n)
{
	size_t k = 0;
	for (size_t i = 2; i < n; i++)
		k += !a[i];
	return k;
}

int main(int argc, char **argv)
{
	size_t n = 64u << 20;
	int reps = 3;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			n = 8u << 20, reps = 3;
		else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (pmk_bench_parse_size(argv[++i], &n) || n < 16) {
				fprintf(stderr, "sieve: bad size '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			reps = atoi(argv[++i]);
			if (reps < 1 || reps > 100) {
				fprintf(stderr, "sieve: bad --reps\n");
				return 2;
			}
		} else {
			fprintf(stderr, "usage: sieve [--quick] [--size BYTES] "
					"[--reps N]\n");
			return 2;
		}
	}
	unsigned char *a = mmap(NULL, n, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED) {
		fprintf(stderr, "sieve: cannot map %zu bytes\n", n);
		return 1;
	}
	pmk_bench_pin(-1);
	ex_counters cnt;
	ex_counters_open(&cnt);
	size_t primes[2] = {0, 0};
	double best[2] = {INFINITY, INFINITY};
	static const char *const name[2] = {"store-always",
					    "test-before-store"};
	printf("sieve of %zu integers (one byte each), strides 2..%zu, best of "
	       "%d\n",
	       n, (size_t)sqrt((double)n), reps);
	for (int v = 0; v < 2; v++) {
		for (int r = 0; r < reps; r++) {
			memset(a, 0, n);
			if (r == reps - 1)
				ex_counters_start(&cnt);
			uint64_t t0 = pmk_bench_now_ns();
			if (v == 0)
				sieve_store_always(a, n);
			else
				sieve_test_first(a, n);
			double s = (double)(pmk_bench_now_ns() - t0) / 1e9;
			if (r == reps - 1)
				ex_counters_stop(&cnt);
			if (s < best[v])
				best[v] = s;
		}
		primes[v] = count_primes(a, n);
		printf("%-18s %8.4f s  %zu primes below %zu\n", name[v],
		       best[v], primes[v], n);
		ex_counters_print(&cnt, stdout);
	}
	ex_counters_close(&cnt);
	munmap(a, n);
	if (primes[0] != primes[1]) {
		fprintf(stderr, "sieve: the two versions disagree\n");
		return 1;
	}
	printf("test-before-store / store-always time: %.3f\n",
	       best[1] / best[0]);
	return 0;
}
