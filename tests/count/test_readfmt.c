/*
 * test_readfmt.c: the kernel read format of an event set. A lone event
 * (a set of one, or an event alone in its kernel group) is read in the
 * plain format (value, enabled, running: 24 bytes), as perf reads it; a
 * group of several is read in the group format (one read for all), which
 * its leader gets when its first member is opened. Checked on the set's
 * own descriptors (found in /proc/self/fd), with software events, which
 * count on any Linux machine. It does not time anything: the cost is
 * bench/compare/read_cost's.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit.h"
#include "tests/support/t.h"

#define MAXFD 1024

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

/* Start a set of the events in `names` with `flags`; return how many bytes
 * a read() of each of its new descriptors returns, in `sizes` (fd order,
 * the first leader first), and the number of descriptors. */
static int start_and_probe(pmk_eventset **es, unsigned flags,
			   const char *const *names, int n, ssize_t *sizes)
{
	unsigned char before[MAXFD], after[MAXFD];
	pmk_diag d;
	int nfd = 0;
	T_ASSERT(pmk_eventset_new(es, flags) == 0);
	for (int i = 0; i < n; i++)
		T_ASSERT(pmk_eventset_add(*es, names[i], &d) >= 0);
	perf_fds(before);
	T_ASSERT(pmk_eventset_start(*es) == 0);
	perf_fds(after);
	for (int fd = 0; fd < MAXFD; fd++)
		if (after[fd] && !before[fd]) {
			uint64_t buf[16];
			sizes[nfd++] = read(fd, buf, sizeof buf);
		}
	return nfd;
}

static void check_values(pmk_eventset *es, int n)
{
	pmk_value v[8];
	T_EQ_INT(pmk_eventset_read(es, v, n), n);
	for (int i = 0; i < n; i++) {
		/* the times scaling needs are read in either format */
		T_CHECK(v[i].enabled_ns > 0);
		T_CHECK(v[i].running_ns > 0);
		T_CHECK(v[i].running_ns <= v[i].enabled_ns);
		T_CHECK(!(v[i].flags & PMK_VALUE_UNSUPPORTED));
	}
	T_CHECKF(v[0].value > 0, "task-clock %g", v[0].value);
}

static void test_lone_event_reads_plain(void)
{
	static const char *const one[] = {"task-clock"};
	pmk_eventset *es;
	ssize_t sz[8];
	T_EQ_INT(start_and_probe(&es, 0, one, 1, sz), 1);
	T_EQ_INT((int)sz[0], 3 * 8); /* value, enabled, running */
	check_values(es, 1);
	pmk_eventset_free(es);
}

static void test_group_reads_grouped(void)
{
	static const char *const four[] = {
	    "task-clock", "page-faults", "context-switches", "cpu-migrations"};
	pmk_eventset *es;
	ssize_t sz[8];
	/* one kernel group: the leader (opened first) answers for all four */
	T_EQ_INT(start_and_probe(&es, PMK_ES_GROUP, four, 4, sz), 4);
	T_EQ_INT((int)sz[0], (3 + 4) * 8); /* nr, enabled, running, values */
	check_values(es, 4);
	pmk_eventset_free(es);
}

static void test_events_not_grouped_read_plain(void)
{
	static const char *const two[] = {"task-clock", "page-faults"};
	pmk_eventset *es;
	ssize_t sz[8];
	/* one kernel group per event by default: each a lone leader */
	T_EQ_INT(start_and_probe(&es, 0, two, 2, sz), 2);
	T_EQ_INT((int)sz[0], 3 * 8);
	T_EQ_INT((int)sz[1], 3 * 8);
	check_values(es, 2);
	pmk_eventset_free(es);
}

static void test_user_group_reads_grouped(void)
{
	pmk_eventset *es;
	pmk_diag d;
	unsigned char before[MAXFD], after[MAXFD];
	ssize_t sz[8];
	int nfd = 0;
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	pmk_eventset_add(es, "task-clock", &d);
	pmk_eventset_add(es, "page-faults", &d);
	pmk_eventset_add(es, "context-switches", &d);
	T_EQ_INT(pmk_eventset_group(es, 0, 1), 0);
	perf_fds(before);
	T_ASSERT(pmk_eventset_start(es) == 0);
	perf_fds(after);
	for (int fd = 0; fd < MAXFD; fd++)
		if (after[fd] && !before[fd]) {
			uint64_t buf[16];
			sz[nfd++] = read(fd, buf, sizeof buf);
		}
	/* {task-clock,page-faults} grouped (its leader kept its descriptor
	 * number when it was opened again in the group format), then
	 * context-switches alone */
	T_EQ_INT(nfd, 3);
	T_EQ_INT((int)sz[0], (3 + 2) * 8);
	T_EQ_INT((int)sz[2], 3 * 8);
	check_values(es, 3);
	pmk_eventset_free(es);
}

int main(void)
{
	T_RUN(test_lone_event_reads_plain);
	T_RUN(test_group_reads_grouped);
	T_RUN(test_events_not_grouped_read_plain);
	T_RUN(test_user_group_reads_grouped);
	return t_done();
}
