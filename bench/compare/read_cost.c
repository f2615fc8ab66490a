/*
 * read_cost.c: what reading an event set costs, beside a raw read() of the
 * very descriptor pmkit opened, measured in one run.
 *
 *   build/bench/read_cost [ROUNDS] [CALLS]
 *
 * For one software event and for a group of four, each round times CALLS
 * (default 100000) calls of pmk_eventset_read and CALLS raw read()s of the
 * set's own leader descriptor (found in /proc/self/fd after the set opens,
 * read with the size its read format returns), in alternating order; the
 * figure is the median over ROUNDS (default 15) of the per-round ratio
 * pmkit / raw (target: at most 1.05 for one event), with the median ns of
 * each beside it. Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID):
 * on a busy machine wall time mostly measures waiting for a CPU. A third line
 * times, on descriptors of its own, what the kernel's group read format costs
 * for a lone event against the plain format (perf reads a lone event without
 * it). Where the machine counts instructions it also measures a hardware event,
 * which pmkit reads from user space (rdpmc) when the kernel allows it. It does
 * not pin itself: run it under taskset, and say the load (uptime) with its
 * figures.
 */
#include <dirent.h>
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
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The perf_event descriptors open now, as a bit map over fd numbers. */
#define MAXFD 4096
static void perf_fds(unsigned char *map)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	memset(map, 0, MAXFD);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[64], link[64];
		int fd = atoi(de->d_name);
		ssize_t r;
		if (fd <= 0 || fd >= MAXFD)
			continue;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		r = readlink(path, link, sizeof link - 1);
		if (r > 0) {
			link[r] = 0;
			map[fd] = strstr(link, "perf_event") != NULL;
		}
	}
	closedir(d);
}

/* Time CALLS calls of pmkit and of the raw read, alternating which goes
 * first; returns the per-round ratios and ns in r_pmk/r_raw. */
static void time_rounds(pmk_eventset *es, int fd, size_t want, int rounds,
			long calls, double *ratio, double *ns_pmk,
			double *ns_raw)
{
	uint64_t buf[3 + 16];
	pmk_value v[16];
	int n = es ? pmk_eventset_size(es) : 0;
	for (int r = 0; r < rounds; r++) {
		for (long i = 0; i < calls / 10; i++) { /* warm up both */
			if (read(fd, buf, want) < 0)
				abort();
			if (es)
				pmk_eventset_read(es, v, n);
		}
		for (int which = 0; which < 2; which++) {
			int pmk = (which + r) % 2;
			double t0 = now_ns(), t1;
			if (pmk)
				for (long i = 0; i < calls; i++)
					pmk_eventset_read(es, v, n);
			else
				for (long i = 0; i < calls; i++)
					if (read(fd, buf, want) < 0)
						abort();
			t1 = now_ns();
			(pmk ? ns_pmk : ns_raw)[r] = (t1 - t0) / (double)calls;
		}
		ratio[r] = ns_pmk[r] / ns_raw[r];
	}
}

static void measure(const char *label, const char *events, int rounds,
		    long calls)
{
	double ratio[64], ns_pmk[64], ns_raw[64];
	unsigned char before[MAXFD], after[MAXFD];
	uint64_t buf[3 + 16];
	pmk_eventset *es;
	pmk_diag d;
	char list[256], *tok, *save;
	int fd = -1, nfd = 0;
	ssize_t want;

	pmk_eventset_new(&es, PMK_ES_GROUP | PMK_ES_MULTIPLEX);
	snprintf(list, sizeof list, "%s", events);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		pmk_eventset_add(es, tok, &d);
	perf_fds(before);
	if (pmk_eventset_start(es) != 0) {
		printf("%-28s not measured: the events do not open here\n",
		       label);
		pmk_eventset_free(es);
		return;
	}
	perf_fds(after);
	for (int i = 0; i < MAXFD; i++)
		if (after[i] && !before[i] && nfd++ == 0)
			fd = i; /* the leader is opened first */
	want = fd < 0 ? -1 : read(fd, buf, sizeof buf);
	if (want < (ssize_t)(3 * sizeof(uint64_t))) {
		printf("%-28s not measured: pmkit's descriptor not found\n",
		       label);
		pmk_eventset_free(es);
		return;
	}
	time_rounds(es, fd, (size_t)want, rounds, calls, ratio, ns_pmk, ns_raw);
	printf("%-28s %d fd, %s format   raw read() %7.1f ns   "
	       "pmk_eventset_read %7.1f ns   ratio %.3f\n",
	       label, nfd, want == 3 * sizeof(uint64_t) ? "plain" : "group",
	       median(ns_raw, rounds), median(ns_pmk, rounds),
	       median(ratio, rounds));
	pmk_eventset_free(es);
}

static int open_raw(uint64_t config, int group_fmt)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING |
			(group_fmt ? PERF_FORMAT_GROUP : 0);
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* The kernel's side: a lone task-clock read in the group format against
 * the plain one, each on its own descriptor, interleaved as above. */
static void kernel_formats(int rounds, long calls)
{
	double ratio[64], ns_g[64], ns_p[64];
	uint64_t buf[4];
	int fg = open_raw(PERF_COUNT_SW_TASK_CLOCK, 1);
	int fp = open_raw(PERF_COUNT_SW_TASK_CLOCK, 0);
	if (fg < 0 || fp < 0) {
		printf("kernel formats: not measured (task-clock does not "
		       "open)\n");
		return;
	}
	for (int r = 0; r < rounds; r++) {
		for (int which = 0; which < 2; which++) {
			int g = (which + r) % 2;
			double t0 = now_ns(), t1;
			for (long i = 0; i < calls; i++)
				if (read(g ? fg : fp, buf, g ? 32 : 24) < 0)
					abort();
			t1 = now_ns();
			(g ? ns_g : ns_p)[r] = (t1 - t0) / (double)calls;
		}
		ratio[r] = ns_g[r] / ns_p[r];
	}
	printf("%-28s group %7.1f ns, plain %7.1f ns: the group format "
	       "costs %.3fx (why a lone event is read plain)\n",
	       "kernel, lone task-clock", median(ns_g, rounds),
	       median(ns_p, rounds), median(ratio, rounds));
	close(fg);
	close(fp);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	long calls = argc > 2 ? atol(argv[2]) : 100000;
	if (rounds < 1 || rounds > 64)
		rounds = 15;
	if (calls < 1)
		calls = 100000;
	printf("read cost: thread CPU time, median of %d rounds of %ld calls "
	       "each, raw read() of pmkit's own leader descriptor\n",
	       rounds, calls);
	measure("task-clock", "task-clock", rounds, calls);
	measure("4 software events, 1 group",
		"task-clock,page-faults,context-switches,cpu-migrations",
		rounds, calls);
	kernel_formats(rounds, calls);
	measure("instructions (hardware)", "instructions", rounds, calls);
	return 0;
}
