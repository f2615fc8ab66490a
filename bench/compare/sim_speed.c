/*
 * sim_speed.c: simulated instructions per second of CPU time of the sim
 * core with the PMU on (4 programmable counters, one with edge detect and
 * one with a threshold, plus the fixed ones and an overflow sampler),
 * median of RUNS runs (default 3) for each of the 12 preset workloads; and
 * the peak memory for two trace lengths, to show it does not grow with the
 * length.
 *
 *   build/bench/sim_speed [INSTRUCTIONS [RUNS]]   (default 2,000,000, 3)
 *
 * Time is the process's CPU time (CLOCK_PROCESS_CPUTIME_ID): on a shared,
 * busy machine wall time mostly measures waiting for a CPU. The target is
 * at least 2 M instructions per second on every workload.
 *
 * No peer is printed: a peer's figure belongs here only when it is measured
 * in the same run, and ChampSim is not built here (no Debian package; it
 * needs its own build and a trace converted to its format). An earlier
 * version printed a quoted "0.5 M insns/s" for it, measured on another
 * machine at another time, which said nothing about this run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "pmkit/sim.h"

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double last_wall; /* wall seconds of the last run_once */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
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
	last_wall = wall_s();
	t0 = now_s();
	pmk_sim_run(s, 0);
	t1 = now_s();
	last_wall = wall_s() - last_wall;
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
	static const char *wl[] = {
	    "pointer-chase", "random-load", "stream",	 "branchy",
	    "fp-compute",    "icache",	    "int-mix",	 "int-memory",
	    "int-compress",  "kernel-mix",  "miss-load", "ilp"};
	unsigned long long n = argc > 1 ? strtoull(argv[1], NULL, 0) : 2000000;
	int runs = argc > 2 ? atoi(argv[2]) : 3;
	double slowest = 0;
	const char *slowest_wl = NULL;
	char spec[128];
	double all = 0;
	uint64_t all_n = 0;
	if (runs < 1 || runs > 99)
		runs = 3;
	printf("# sim_speed: simulated instructions per second of CPU time, "
	       "PMU on, median of %d\n",
	       runs);
	for (size_t k = 0; k < sizeof wl / sizeof wl[0]; k++) {
		double t[99], w[99], mips;
		uint64_t insns = 0;
		unsigned long long nn = n;
		snprintf(spec, sizeof spec, "%s:n=%llu", wl[k], nn);
		for (int r = 0; r < runs; r++) {
			t[r] = run_once(spec, &insns);
			w[r] = last_wall;
		}
		qsort(t, (size_t)runs, sizeof t[0], cmp);
		qsort(w, (size_t)runs, sizeof w[0], cmp);
		mips = (double)insns / t[runs / 2] / 1e6;
		printf("%-14s %10llu insns  %8.3f s  %6.2f M insns/s  "
		       "(wall %.3f s)\n",
		       wl[k], (unsigned long long)insns, t[runs / 2], mips,
		       w[runs / 2]);
		if (!slowest_wl || mips < slowest) {
			slowest = mips;
			slowest_wl = wl[k];
		}
		all += t[runs / 2];
		all_n += insns;
	}
	printf("%-14s %10llu insns  %8.3f s  %6.2f M insns/s\n", "all",
	       (unsigned long long)all_n, all, (double)all_n / all / 1e6);
	printf("slowest        %s, %.2f M insns/s (target: at least 2)\n",
	       slowest_wl, slowest);
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
