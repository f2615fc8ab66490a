/*
 * read_cost.c: what reading an event set costs, beside a raw read() of
 * the same group format on the same kind of event, measured in one run.
 *
 *   build/bench/read_cost [ROUNDS] [CALLS]
 * prints, for one software event and for a group of four, the median over
 * ROUNDS (default 15) of the mean ns per call over CALLS (default 100000)
 * calls, and the ratio pmkit / raw (target: at most 1.10). Where the machine
 * counts instructions it also measures a hardware event, which pmkit reads
 * from user space when the kernel allows it.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pmkit.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int open_raw(uint32_t type, uint64_t config, int group)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

static void measure(const char *label, const char *events, int nraw,
		    const uint32_t *types, const uint64_t *configs, int rounds,
		    long calls)
{
	double r_raw[64], r_pmk[64];
	uint64_t buf[3 + 8];
	size_t want = sizeof(uint64_t) * (size_t)(3 + nraw);
	pmk_value v[8];
	pmk_eventset *es;
	pmk_diag d;
	int fds[8], n;
	char list[256], *tok, *save;

	fds[0] = open_raw(types[0], configs[0], -1);
	for (int i = 1; i < nraw; i++)
		fds[i] = open_raw(types[i], configs[i], fds[0]);
	if (fds[0] < 0) {
		printf("%-28s not measured: the event does not open here\n",
		       label);
		return;
	}
	pmk_eventset_new(&es, PMK_ES_GROUP | PMK_ES_MULTIPLEX);
	snprintf(list, sizeof list, "%s", events);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		pmk_eventset_add(es, tok, &d);
	pmk_eventset_start(es);
	n = pmk_eventset_size(es);
	for (int r = 0; r < rounds; r++) {
		double t0, t1;
		for (long i = 0; i < calls / 10; i++) { /* warm up both */
			if (read(fds[0], buf, want) < 0)
				abort();
			pmk_eventset_read(es, v, n);
		}
		/* alternate the order so drift hurts both alike */
		for (int which = 0; which < 2; which++) {
			int pmk = (which + r) % 2;
			t0 = now_ns();
			if (pmk)
				for (long i = 0; i < calls; i++)
					pmk_eventset_read(es, v, n);
			else
				for (long i = 0; i < calls; i++)
					if (read(fds[0], buf, want) < 0)
						abort();
			t1 = now_ns();
			(pmk ? r_pmk : r_raw)[r] = (t1 - t0) / (double)calls;
		}
	}
	qsort(r_raw, (size_t)rounds, sizeof *r_raw, cmp);
	qsort(r_pmk, (size_t)rounds, sizeof *r_pmk, cmp);
	printf("%-28s raw read() %8.1f ns   pmk_eventset_read %8.1f ns   "
	       "ratio %.3f\n",
	       label, r_raw[rounds / 2], r_pmk[rounds / 2],
	       r_pmk[rounds / 2] / r_raw[rounds / 2]);
	pmk_eventset_free(es);
	for (int i = 0; i < nraw; i++)
		close(fds[i]);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	long calls = argc > 2 ? atol(argv[2]) : 100000;
	uint32_t sw1[] = {PERF_TYPE_SOFTWARE};
	uint64_t c1[] = {PERF_COUNT_SW_TASK_CLOCK};
	uint32_t sw4[] = {PERF_TYPE_SOFTWARE, PERF_TYPE_SOFTWARE,
			  PERF_TYPE_SOFTWARE, PERF_TYPE_SOFTWARE};
	uint64_t c4[] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
			 PERF_COUNT_SW_CONTEXT_SWITCHES,
			 PERF_COUNT_SW_CPU_MIGRATIONS};
	uint32_t hw1[] = {PERF_TYPE_HARDWARE};
	uint64_t h1[] = {PERF_COUNT_HW_INSTRUCTIONS};
	if (rounds < 1 || rounds > 64)
		rounds = 15;
	if (calls < 1)
		calls = 100000;
	printf("read cost: median of %d rounds of %ld calls, same group format "
	       "(GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING)\n",
	       rounds, calls);
	measure("task-clock", "task-clock", 1, sw1, c1, rounds, calls);
	measure("4 software events, 1 group",
		"task-clock,page-faults,context-switches,cpu-migrations", 4,
		sw4, c4, rounds, calls);
	measure("instructions (hardware)", "instructions", 1, hw1, h1, rounds,
		calls);
	return 0;
}
