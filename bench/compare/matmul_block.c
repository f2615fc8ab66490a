/*
 * matmul_block.c: bar for the case study: the blocked multiply (seed 004
 * Figure 6, B transposed) with the probe's block size N =
 * floor(sqrt(C / 3 / 8)) for level L (default L1) runs within 10 % of the
 * best N of a sweep, at n = 1000 (or argv[1]). Times are the min of 3 runs.
 *   build/bench/matmul_block [N_MATRIX [LEVEL]]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"

static void blocked(int n, int nb, const double *a, const double *bt, double *c)
{
	memset(c, 0, (size_t)n * n * sizeof *c);
	for (int jj = 0; jj < n; jj += nb)
		for (int kk = 0; kk < n; kk += nb) {
			int je = jj + nb < n ? jj + nb : n;
			int ke = kk + nb < n ? kk + nb : n;
			for (int i = 0; i < n; i++)
				for (int j = jj; j < je; j++) {
					double t = 0;
					for (int k = kk; k < ke; k++)
						t += bt[(size_t)i * n + k] *
						     a[(size_t)j * n + k];
					c[(size_t)j * n + i] += t;
				}
		}
}

static double timed(int n, int nb, const double *a, const double *bt, double *c)
{
	double best = INFINITY;
	for (int r = 0; r < 3; r++) {
		uint64_t t0 = pmk_bench_now_ns();
		blocked(n, nb, a, bt, c);
		double s = (double)(pmk_bench_now_ns() - t0) / 1e9;
		if (s < best)
			best = s;
	}
	return best;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000,
	    level = argc > 2 ? atoi(argv[2]) : 1;
	pmk_probe p;
	size_t cache = 0;
	if (n < 16 || n > 4000)
		n = 1000;
	if (pmk_probe_run(&p, PMK_PROBE_QUICK, -1, 64u << 20, NULL, NULL) == 0)
		for (int i = 0; i < p.nlevels; i++)
			if (p.lv[i].level == level)
				cache = p.lv[i].size_bytes;
	pmk_probe_release(&p);
	if (!cache) {
		printf("the probe found no L%d\n", level);
		return 1;
	}
	int nb = (int)floor(sqrt((double)cache / 24.0));
	double *a = malloc((size_t)n * n * sizeof *a),
	       *bt = malloc((size_t)n * n * sizeof *a),
	       *c = malloc((size_t)n * n * sizeof *a);
	if (!a || !bt || !c)
		return 1;
	for (size_t i = 0; i < (size_t)n * n; i++)
		a[i] = (double)(i % 97) / 97, bt[i] = (double)(i % 89) / 89;
	int sweep[] = {8,  16, 24,  32,	 40,  48,  56,	64,
		       80, 96, 128, 160, 192, 256, 384, 512};
	int ns = (int)(sizeof sweep / sizeof *sweep), best = 0;
	double t[16];
	printf("n = %d, L%d = %zu bytes from the probe, N = %d\n", n, level,
	       cache, nb);
	for (int i = 0; i < ns; i++) {
		t[i] = timed(n, sweep[i], a, bt, c);
		if (t[i] < t[best])
			best = i;
		printf("  N = %3d  %.4f s\n", sweep[i], t[i]);
	}
	double tp = timed(n, nb, a, bt, c);
	double ratio = tp / t[best];
	printf("probe's N = %d: %.4f s; sweep's best N = %d: %.4f s; ratio "
	       "%.3f: %s (bar: within 10 %%)\n",
	       nb, tp, sweep[best], t[best], ratio,
	       ratio <= 1.10 ? "PASS" : "FAIL");
	free(a), free(bt), free(c);
	return ratio <= 1.10 ? 0 : 1;
}
