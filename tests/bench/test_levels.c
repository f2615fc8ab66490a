/*
 * test_levels.c: level detection on synthetic latency curves (no timing),
 * size points and size parsing.
 */
#include <math.h>
#include <stdlib.h>

#include "pmkit/bench.h"
#include "tests/support/t.h"

/* A synthetic cache hierarchy: latency lat[k] up to cap[k], with a
 * transition of `width` octaves after each edge (0: a sharp step), plus
 * multiplicative noise of +-noise. */
static int synth(size_t *size, double *lat, const size_t *cap, const double *l,
		 int nlev, double width, double noise, unsigned seed)
{
	int n = pmk_bench_sizes(4096, 256u << 20, 8, 64, size, 400);
	srand(seed);
	for (int i = 0; i < n; i++) {
		double s = log2((double)size[i]), v = l[nlev];
		for (int k = nlev - 1; k >= 0; k--) {
			double e = log2((double)cap[k]);
			double f = width > 0 ? (s - e) / width : (s > e);
			if (f < 0)
				f = 0;
			if (f > 1)
				f = 1;
			if (s <= e + (width > 0 ? width : 0))
				v = l[k] * pow(l[k + 1] / l[k], f);
		}
		lat[i] = v * (1 + noise * (2.0 * rand() / RAND_MAX - 1));
	}
	return n;
}

static void test_sizes_include_powers_of_two(void)
{
	size_t s[400];
	int n = pmk_bench_sizes(4096, 1u << 20, 8, 64, s, 400);
	int pow2 = 0;
	for (int i = 0; i < n; i++) {
		if ((s[i] & (s[i] - 1)) == 0)
			pow2++;
		if (i)
			T_CHECK(s[i] > s[i - 1]);
		T_CHECK(s[i] % 64 == 0);
	}
	T_EQ_INT(pow2, 9); /* 4K .. 1M */
	T_EQ_INT(n, 8 * 8 + 1);
	T_EQ_U64(s[0], 4096);
	T_EQ_U64(s[n - 1], 1u << 20);
	/* 8 points per octave: 32K, 36K, ... 60K */
	for (int i = 0; i < n; i++)
		if (s[i] == 32768)
			T_EQ_U64(s[i + 1], 36864);
}

static void test_parse_size(void)
{
	size_t v;
	T_EQ_INT(pmk_bench_parse_size("64", &v), 0);
	T_EQ_U64(v, 64);
	T_EQ_INT(pmk_bench_parse_size("32k", &v), 0);
	T_EQ_U64(v, 32768);
	T_EQ_INT(pmk_bench_parse_size("4M", &v), 0);
	T_EQ_U64(v, 4u << 20);
	T_EQ_INT(pmk_bench_parse_size("1.5m", &v), 0);
	T_EQ_U64(v, 3u << 19);
	T_EQ_INT(pmk_bench_parse_size("1g", &v), 0);
	T_EQ_U64(v, 1u << 30);
	T_CHECK(pmk_bench_parse_size("", &v) < 0);
	T_CHECK(pmk_bench_parse_size("-1", &v) < 0);
	T_CHECK(pmk_bench_parse_size("12x", &v) < 0);
	T_CHECK(pmk_bench_parse_size("k", &v) < 0);
	T_CHECK(pmk_bench_parse_size(NULL, &v) < 0);
}

static void test_sharp_steps(void)
{
	size_t size[400], cap[3] = {32768, 512u << 10, 8u << 20};
	double lat[400], l[4] = {1, 4, 15, 100};
	pmk_level lv[8];
	int n = synth(size, lat, cap, l, 3, 0, 0, 1);
	int nl = pmk_levels_detect(size, lat, n, 1.15, 1.3, lv, 8);
	T_EQ_INT(nl, 4);
	for (int k = 0; k < 3 && k < nl; k++) {
		T_EQ_U64(lv[k].size_bytes, cap[k]);
		T_NEAR(lv[k].latency_ns, l[k], 1e-9);
	}
	if (nl == 4) {
		T_EQ_U64(lv[3].size_bytes, 0); /* memory */
		T_NEAR(lv[3].latency_ns, 100, 1e-9);
	}
}

static void test_gradual_transitions_with_noise(void)
{
	size_t size[400], cap[3] = {49152, 1u << 20, 16u << 20};
	double lat[400], l[4] = {1.14, 4.0, 13, 130};
	pmk_level lv[8];
	for (unsigned seed = 1; seed <= 20; seed++) {
		int n = synth(size, lat, cap, l, 3, 0.5, 0.03, seed);
		int nl = pmk_levels_detect(size, lat, n, 1.15, 1.3, lv, 8);
		T_EQ_INT(nl, 4);
		if (nl != 4)
			return;
		for (int k = 0; k < 3; k++) {
			/* plateau latency within the noise */
			T_NEAR(lv[k].latency_ns, l[k], l[k] * 0.05);
			/* the edge estimate is within a quarter octave of the
			 * synthetic capacity plus half the transition */
			double e =
			    pmk_levels_edge(size, lat, n, &lv[k], &lv[k + 1]);
			double want = log2((double)cap[k]) + 0.25;
			T_CHECKF(fabs(log2(e) - want) < 0.3,
				 "seed %u level %d edge %g", seed, k + 1, e);
		}
	}
}

static void test_slow_rise_is_one_level(void)
{
	/* an L3 whose latency creeps up 12 -> 15 ns is one level */
	size_t size[400];
	double lat[400];
	pmk_level lv[8];
	int n = pmk_bench_sizes(4096, 64u << 20, 8, 64, size, 400);
	for (int i = 0; i < n; i++) {
		double s = log2((double)size[i]);
		lat[i] = s <= 15 ? 1 : s <= 24 ? 12 + 3 * (s - 15) / 9 : 100;
	}
	int nl = pmk_levels_detect(size, lat, n, 1.15, 1.3, lv, 8);
	T_EQ_INT(nl, 3);
	T_EQ_U64(lv[1].size_bytes, 16u << 20);
}

static void test_transition_points_are_not_levels(void)
{
	/* a long climb to memory (3 points around 40-60 ns) must not become
	 * a level: it is slower than half of memory */
	size_t size[] = {4096,	 8192,	 16384,	  32768,   65536,   131072,
			 262144, 524288, 1 << 20, 2 << 20, 4 << 20, 8 << 20};
	double lat[] = {1, 1, 1, 1, 10, 10, 10, 55, 60, 62, 100, 101};
	pmk_level lv[8];
	int nl = pmk_levels_detect(size, lat, 12, 1.15, 1.3, lv, 8);
	T_EQ_INT(nl, 3);
	T_NEAR(lv[nl - 1].latency_ns, 100.5, 1);
}

static void test_flat_curve_and_bad_input(void)
{
	size_t size[10];
	double lat[10];
	pmk_level lv[4];
	for (int i = 0; i < 10; i++)
		size[i] = 4096u << i, lat[i] = 2;
	T_EQ_INT(pmk_levels_detect(size, lat, 10, 1.15, 1.3, lv, 4), 1);
	T_EQ_U64(lv[0].size_bytes, 0);
	size[3] = size[2]; /* not increasing */
	T_EQ_INT(pmk_levels_detect(size, lat, 10, 1.15, 1.3, lv, 4),
		 PMK_EINVAL);
	T_EQ_INT(pmk_levels_detect(NULL, lat, 10, 1.15, 1.3, lv, 4),
		 PMK_EINVAL);
	size[3] = 4096u << 3;
	lat[4] = -1;
	T_EQ_INT(pmk_levels_detect(size, lat, 10, 1.15, 1.3, lv, 4),
		 PMK_EINVAL);
}

static void test_tlb_step_is_told_from_a_cache_step(void)
{
	/* L1 32 KiB at 1 ns, L2 1 MiB at 4 ns, memory 100 ns; a 64-entry
	 * TLB whose miss costs 2 ns shows on the all-pages curve only */
	size_t size[400];
	double win[400], all[400];
	pmk_level lv[8];
	int n = pmk_bench_sizes(8192, 64u << 20, 8, 64, size, 400);
	srand(7);
	for (int i = 0; i < n; i++) {
		double s = (double)size[i], pages = s / 4096;
		double base = s <= 32768 ? 1 : s <= (1 << 20) ? 4 : 100;
		double noise = 1 + 0.01 * (2.0 * rand() / RAND_MAX - 1);
		win[i] = base * noise;
		all[i] = win[i] + (pages > 64 ? 2 * (1 - 64 / pages) : 0);
	}
	int nl = pmk_levels_detect(size, win, n, 1.15, 1.5, lv, 8);
	T_EQ_INT(nl, 3); /* the TLB step is not a level of the window curve */
	double e = 0, m = 0;
	T_EQ_INT(pmk_tlb_fit(size, win, all, n, &lv[0], &e, &m), 0); /* L1 */
	T_EQ_INT(pmk_tlb_fit(size, win, all, n, &lv[1], &e, &m), 1); /* L2 */
	T_NEAR(e, 64, 3);
	T_NEAR(m, 2, 0.2);
	/* the same curves without a TLB effect: no step */
	T_EQ_INT(pmk_tlb_fit(size, win, win, n, &lv[1], &e, &m), 0);
	pmk_level bad = {0, 1, 5, 2};
	T_EQ_INT(pmk_tlb_fit(size, win, all, n, &bad, &e, &m), PMK_EINVAL);
}

int main(void)
{
	T_RUN(test_sizes_include_powers_of_two);
	T_RUN(test_parse_size);
	T_RUN(test_sharp_steps);
	T_RUN(test_gradual_transitions_with_noise);
	T_RUN(test_slow_rise_is_one_level);
	T_RUN(test_transition_points_are_not_levels);
	T_RUN(test_flat_curve_and_bad_input);
	T_RUN(test_tlb_step_is_told_from_a_cache_step);
	return t_done();
}
