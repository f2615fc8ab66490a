/*
 * addie_speed.c: Addie steps per second (target: at least 100 million).
 * Measures an 8-bit Addie fed a fixed pseudo-random 0/1 stream held in
 * memory, one call per sample (pmk_addie_step), a byte per sample
 * (pmk_addie_run) and 64 samples per word (pmk_addie_run_packed), with
 * independent and with correlated random numbers, and a 16-bit Addie.
 * Prints the median of 9 repeats of 16 million steps each. No peer is
 * shown: no installable tool implements an Addie.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pmkit.h"

enum { N = 1 << 24, REPS = 9 };

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static volatile uint32_t sink;

/* Returns steps per second (median). */
static double measure(unsigned bits, unsigned rng, int how,
		      const uint8_t *bytes, const uint64_t *words)
{
	double rate[REPS];
	for (int r = 0; r < REPS; r++) {
		pmk_addie_config c;
		pmk_addie a;
		double t0, t1;
		pmk_addie_config_default(&c);
		c.bits = bits;
		c.rng = rng;
		c.seed = 12345 + (uint32_t)r;
		pmk_addie_init(&a, &c);
		t0 = now_ns();
		if (how == 0) {
			for (size_t i = 0; i < N; i++)
				pmk_addie_step(&a, bytes[i]);
		} else if (how == 1) {
			pmk_addie_run(&a, bytes, N);
		} else {
			pmk_addie_run_packed(&a, words, N);
		}
		t1 = now_ns();
		sink = a.counter;
		rate[r] = N / ((t1 - t0) * 1e-9);
	}
	qsort(rate, REPS, sizeof rate[0], cmp);
	return rate[REPS / 2];
}

int main(void)
{
	static const char *hows[3] = {"pmk_addie_step (a call per sample)",
				      "pmk_addie_run (a byte per sample)",
				      "pmk_addie_run_packed (64 per word)"};
	static const struct {
		unsigned bits, rng;
		const char *name;
	} cfgs[3] = {{8, PMK_ADDIE_RNG_INDEPENDENT, "8-bit, independent"},
		     {8, PMK_ADDIE_RNG_CORRELATED, "8-bit, correlated"},
		     {16, PMK_ADDIE_RNG_INDEPENDENT, "16-bit, independent"}};
	uint8_t *bytes = malloc(N);
	uint64_t *words = calloc(N / 64, sizeof *words);
	pmk_bitsource src;
	double worst = 1e300;
	if (!bytes || !words) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	pmk_bitsource_init(&src, 1, 64, 255);
	for (size_t i = 0; i < N; i++) {
		bytes[i] = (uint8_t)pmk_bitsource_next(&src);
		words[i / 64] |= (uint64_t)bytes[i] << (i % 64);
	}
	printf("Addie steps per second, median of %d repeats of %d steps\n",
	       REPS, N);
	for (int k = 0; k < 3; k++) {
		for (int h = 0; h < 3; h++) {
			double r =
			    measure(cfgs[k].bits, cfgs[k].rng, h, bytes, words);
			printf("  %-20s %-38s %8.1f million/s\n", cfgs[k].name,
			       hows[h], r / 1e6);
			if (r < worst)
				worst = r;
		}
	}
	printf("slowest: %.1f million steps/s; target >= 100 million/s: %s\n",
	       worst / 1e6, worst >= 100e6 ? "met" : "NOT met");
	free(bytes);
	free(words);
	return 0;
}
