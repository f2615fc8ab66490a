/*
 * sim_speed.c: simulated instructions per second of the sim core with the
 * PMU on (4 programmable counters, one with edge detect and one with a
 * threshold, plus the fixed ones and an overflow sampler), median of 3 runs
 * per workload; and the peak memory for two trace lengths, to show it does
 * not grow with the length.
 *
 *   build/bench/sim_speed [INSTRUCTIONS]     (default 2,000,000)
 *
 * ChampSim is not installable here (no Debian package); the research notes
 * measured it at about 0.5 M instructions/s on this machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "pmkit/sim.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_sample(void *arg, const pmk_sim_sample *s)
{
	(void)s;
	++*(uint64_t *)arg;
}

static double run_once(const char *spec, uint64_t *insns)
{
	static const char *ev[] = {"inst_retired:c=2", "dispatch_stall:e",
				   "l1d_miss", "br_misp_retired:period=1000"};
	pmk_sim_config cfg;
	pmk_workload *w;
	pmk_sim *s;
	uint64_t samples = 0;
	double t0, t1;
	pmk_sim_config_default(&cfg);
	if (pmk_workload_new(&w, spec, NULL) < 0 ||
	    pmk_sim_new(&s, &cfg, pmk_workload_next, w, NULL) < 0) {
		fprintf(stderr, "cannot start %s\n", spec);
		exit(1);
	}
	for (int i = 0; i < 4; i++) {
		pmk_sim_counter_cfg c;
		pmk_sim_counter_parse(ev[i], &c, NULL);
		pmk_sim_counter_set(s, i, &c);
		pmk_sim_counter_enable(s, i, 1);
	}
	pmk_sim_set_sampler(s, on_sample, &samples);
	t0 = now_s();
	pmk_sim_run(s, 0);
	t1 = now_s();
	*insns = pmk_sim_stats_get(s)->committed;
	pmk_sim_free(s);
	pmk_workload_free(w);
	return t1 - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static long max_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
	static const char *wl[] = {"int-mix", "ilp", "branchy", "stream",
				   "icache", "pointer-chase"};
	unsigned long long n = argc > 1 ? strtoull(argv[1], NULL, 0) : 2000000;
	char spec[128];
	double all = 0;
	uint64_t all_n = 0;
	printf("# sim_speed: simulated instructions per second, PMU on, "
	       "median of 3\n");
	for (size_t k = 0; k < sizeof wl / sizeof wl[0]; k++) {
		double t[3];
		uint64_t insns = 0;
		unsigned long long nn = n;
		snprintf(spec, sizeof spec, "%s:n=%llu", wl[k], nn);
		for (int r = 0; r < 3; r++)
			t[r] = run_once(spec, &insns);
		qsort(t, 3, sizeof t[0], cmp);
		printf("%-14s %10llu insns  %8.3f s  %6.2f M insns/s\n", wl[k],
		       (unsigned long long)insns, t[1],
		       (double)insns / t[1] / 1e6);
		all += t[1];
		all_n += insns;
	}
	printf("%-14s %10llu insns  %8.3f s  %6.2f M insns/s\n", "all",
	       (unsigned long long)all_n, all, (double)all_n / all / 1e6);
	printf("champsim       (not installable here; 0.5 M insns/s measured "
	       "on this machine per the research notes)\n");
	{
		uint64_t insns;
		long r1, r2;
		snprintf(spec, sizeof spec, "int-mix:n=%llu", n);
		run_once(spec, &insns);
		r1 = max_rss_kb();
		snprintf(spec, sizeof spec, "int-mix:n=%llu", n * 4);
		run_once(spec, &insns);
		r2 = max_rss_kb();
		printf("memory: peak RSS %ld KB after %llu insns, %ld KB after "
		       "%llu more\n",
		       r1, n, r2, n * 4);
	}
	return 0;
}
