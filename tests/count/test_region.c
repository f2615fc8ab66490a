/*
 * test_region.c: the region API: nesting, per-thread totals, the JSON file,
 * and misuse (ending a region that is not the innermost).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pmkit.h"
#include "tests/support/t.h"

static void touch_pages(int n)
{
	char *p = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < n; i++)
		p[i * 4096] = 1;
	munmap(p, (size_t)n * 4096);
}

struct seen {
	double outer_faults, inner_faults, worker_faults;
	unsigned long long outer_calls, inner_calls;
};

static int collect(const pmk_region_stats *s, void *arg)
{
	struct seen *w = arg;
	int fi = -1;
	for (int e = 0; e < s->nevents; e++)
		if (!strcmp(s->event_names[e], "page-faults"))
			fi = e;
	if (fi < 0)
		return 0;
	if (!strcmp(s->name, "outer")) {
		w->outer_faults = s->values[fi];
		w->outer_calls = s->calls;
	} else if (!strcmp(s->name, "inner")) {
		w->inner_faults = s->values[fi];
		w->inner_calls = s->calls;
	} else if (!strcmp(s->name, "worker")) {
		w->worker_faults = s->values[fi];
	}
	return 0;
}

static void *worker(void *arg)
{
	for (int i = 0; i < 3; i++) {
		pmk_region_begin("worker");
		touch_pages(20);
		pmk_region_end("worker");
	}
	return arg;
}

static void test_nested_regions_and_threads(void)
{
	pmk_diag d;
	struct seen w;
	pthread_t th;
	char path[] = "/tmp/pmkit-regions-XXXXXX";
	int fd;
	T_EQ_INT(pmk_region_set_events("task-clock,page-faults", &d), 0);
	for (int i = 0; i < 2; i++) {
		T_EQ_INT(pmk_region_begin("outer"), 0);
		touch_pages(50);
		T_EQ_INT(pmk_region_begin("inner"), 0);
		touch_pages(100);
		T_EQ_INT(pmk_region_end("outer"), PMK_ESTATE); /* not innermost */
		T_EQ_INT(pmk_region_end("inner"), 0);
		T_EQ_INT(pmk_region_end("outer"), 0);
	}
	pthread_create(&th, NULL, worker, NULL);
	pthread_join(th, NULL);
	memset(&w, 0, sizeof w);
	pmk_region_foreach(collect, &w);
	T_EQ_INT(w.outer_calls, 2);
	T_EQ_INT(w.inner_calls, 2);
	T_CHECKF(w.inner_faults >= 200 && w.inner_faults < 260, "inner %g", w.inner_faults);
	/* nested: the outer region includes the inner one */
	T_CHECKF(w.outer_faults >= w.inner_faults + 100, "outer %g inner %g",
		 w.outer_faults, w.inner_faults);
	T_CHECKF(w.worker_faults >= 60 && w.worker_faults < 100, "worker %g", w.worker_faults);
	/* the JSON file */
	fd = mkstemp(path);
	T_ASSERT(fd >= 0);
	close(fd);
	T_EQ_INT(pmk_region_write(path), 0);
	{
		/* read it back: no python in minimal systems (the arm64 guest) */
		char buf[8192];
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
		if (f)
			fclose(f);
		buf[n] = 0;
		T_CHECK(strstr(buf, "{\"schema\":\"pmkit-regions/1\"") == buf);
		T_CHECK(strstr(buf, "{\"name\":\"outer\",\"calls\":2,") != NULL);
		T_CHECK(strstr(buf, "{\"name\":\"worker\",\"calls\":3,") != NULL);
		T_CHECK(strstr(buf, "\"threads\":[{\"tid\":") != NULL);
		T_CHECK(buf[n - 1] == '\n' && buf[n - 2] == '}');
	}
	unlink(path);
	{
		/* the mkstemp file it replaced, kept as .old */
		char old[sizeof path + 4];
		snprintf(old, sizeof old, "%s.old", path);
		unlink(old);
	}
	/* events cannot change once regions have counted */
	T_EQ_INT(pmk_region_set_events("task-clock", &d), PMK_ESTATE);
	setenv("PMK_REGION_OUTPUT", "/dev/null", 1);
}

static void test_bad_event_list(void)
{
	pmk_diag d;
	/* runs before any region: the list is parsed, the error located */
	T_EQ_INT(pmk_region_set_events("task-clock,nosuch", &d), PMK_ENOEVENT);
	T_EQ_INT(d.column, 12);
	T_EQ_STR(d.input, "task-clock,nosuch");
}

int main(void)
{
	T_RUN(test_bad_event_list);
	T_RUN(test_nested_regions_and_threads);
	return t_done();
}
