/*
 * timing.c: the timing harness. CLOCK_MONOTONIC, fixed-length samples (no
 * per-process calibration of the interval), a pinned CPU, minimum and median
 * over the samples. The core clock is in clock.c.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmkit/bench.h"

uint64_t pmk_bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pmk_bench_cfg_default(pmk_bench_cfg *cfg)
{
	cfg->sample_ms = 10;
	cfg->samples = 5;
	cfg->cpu = -1;
}

int pmk_bench_pin(int cpu)
{
	cpu_set_t set;
	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		return PMK_ESYS;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		return errno == EINVAL ? PMK_EINVAL : PMK_ESYS;
	return cpu;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double pmk_bench_median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One sample: call fn(chunk) until `len_ns` have passed. */
static double one_sample(pmk_bench_fn fn, void *arg, uint64_t chunk,
			 uint64_t len_ns, uint64_t *ops_out)
{
	uint64_t ops = 0, t0 = pmk_bench_now_ns(), t;
	do {
		ops += fn(arg, chunk);
		t = pmk_bench_now_ns();
	} while (t - t0 < len_ns);
	*ops_out = ops;
	return (double)(t - t0) / (double)(ops ? ops : 1);
}

int pmk_bench_run(pmk_bench_fn fn, void *arg, const pmk_bench_cfg *cfg,
		  pmk_bench_stat *out)
{
	pmk_bench_cfg def;
	double v[64];
	uint64_t chunk = 1, len_ns, ops;
	int n;

	if (!fn || !out)
		return PMK_EINVAL;
	if (!cfg) {
		pmk_bench_cfg_default(&def);
		cfg = &def;
	}
	n = cfg->samples < 5 ? 5 : cfg->samples > 64 ? 64 : cfg->samples;
	len_ns = (uint64_t)((cfg->sample_ms > 0 ? cfg->sample_ms : 10) * 1e6);
	memset(out, 0, sizeof *out);
	out->cpu = sched_getcpu();

	/* Warm-up: grow the chunk until one call lasts >= 20 us (or a whole
	 * sample), then run one whole sample and throw it away. */
	for (;;) {
		uint64_t t0 = pmk_bench_now_ns(), dt;
		fn(arg, chunk);
		dt = pmk_bench_now_ns() - t0;
		if (dt >= 20000 || dt >= len_ns / 4 || chunk >= (1ull << 40))
			break;
		chunk *= 2;
	}
	one_sample(fn, arg, chunk, len_ns, &ops);

	for (int i = 0; i < n; i++) {
		v[i] = one_sample(fn, arg, chunk, len_ns, &ops);
		out->ops += ops;
	}
	out->samples = n;
	out->median_ns = pmk_bench_median(v, n); /* sorts v */
	out->min_ns = v[0];
	out->max_ns = v[n - 1];
	return 0;
}
