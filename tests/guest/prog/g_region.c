/*
 * g_region.c: the region API (include/pmkit/count.h) around the known loop
 * on the emulated PMU. Three calls of a region around g_loop(n) count
 * exactly 3 x 2n more than three calls around g_loop(0): the cost of
 * begin/end is fixed.
 */
#include <stdio.h>
#include <string.h>

#include "pmkit.h"
#include "tests/guest/prog/guest.h"
#include "tests/support/t.h"

struct found {
	const char *name;
	uint64_t calls;
	double v[2];
	int nevents;
};

static int find_region(const pmk_region_stats *s, void *arg)
{
	struct found *f = arg;
	if (strcmp(s->name, f->name) != 0)
		return 0;
	f->calls = s->calls;
	f->nevents = s->nevents;
	for (int i = 0; i < s->nevents && i < 2; i++)
		f->v[i] = s->values[i];
	return 1;
}

static struct found region(const char *name)
{
	struct found f = {name, 0, {-1, -1}, 0};
	pmk_region_foreach(find_region, &f);
	return f;
}

/* Loop lengths read from memory, so that the calling code is the same
 * instructions whatever the length. */
static volatile uint64_t zero = 0, len = 100000;

static void test_region_counts_loop_exactly(void)
{
	pmk_diag d;
	const uint64_t n = len;
	T_ASSERT(pmk_region_set_events("instructions:u,cycles:u", &d) == 0);
	/* "empty" holds g_loop(0): begin/end, the call, cbz and ret */
	for (int i = 0; i < 3; i++) {
		T_ASSERT(pmk_region_begin("empty") == 0);
		g_loop(zero);
		T_ASSERT(pmk_region_end("empty") == 0);
	}
	for (int i = 0; i < 3; i++) {
		T_ASSERT(pmk_region_begin("loop") == 0);
		g_loop(len);
		T_ASSERT(pmk_region_end("loop") == 0);
	}
	struct found e = region("empty"), l = region("loop");
	printf("# empty: %llu calls, %.0f instructions; loop: %llu calls, %.0f instructions, %.0f cycles\n",
	       (unsigned long long)e.calls, e.v[0], (unsigned long long)l.calls,
	       l.v[0], l.v[1]);
	T_EQ_INT(e.calls, 3);
	T_EQ_INT(l.calls, 3);
	T_EQ_INT(l.nevents, 2);
	T_CHECK(e.v[0] > 0 && e.v[0] < 3 * 2000);
	T_CHECKF(l.v[0] == 3.0 * (2 * n) + e.v[0],
		 "loop %.0f != 3 x %llu + empty %.0f", l.v[0],
		 (unsigned long long)(2 * n), e.v[0]);
	T_CHECK(l.v[1] == l.v[0] || !(e.v[1] == e.v[0]));
}

static void test_nested_regions(void)
{
	const uint64_t n = 50000, m = 20000;
	T_ASSERT(pmk_region_begin("outer") == 0);
	T_ASSERT(pmk_region_begin("inner") == 0);
	g_loop(n);
	T_ASSERT(pmk_region_end("inner") == 0);
	g_loop(m);
	T_ASSERT(pmk_region_end("outer") == 0);
	struct found o = region("outer"), i = region("inner");
	printf("# outer %.0f, inner %.0f instructions\n", o.v[0], i.v[0]);
	T_CHECK(i.v[0] >= 2.0 * n + 2 && i.v[0] < 2.0 * n + 2 + 2000);
	T_CHECK(o.v[0] >= i.v[0] + 2.0 * m + 2 && o.v[0] < i.v[0] + 2.0 * m + 2 + 4000);
}

static void test_region_json_written(void)
{
	char buf[8192];
	T_ASSERT(pmk_region_write("/tmp/regions.json") == 0);
	T_ASSERT(g_read_file("/tmp/regions.json", buf, sizeof buf) == 0);
	T_CHECK(strstr(buf, "\"loop\"") != NULL);
	T_CHECK(strstr(buf, "instructions:u") != NULL);
}

int main(void)
{
	T_RUN(test_region_counts_loop_exactly);
	T_RUN(test_nested_regions);
	T_RUN(test_region_json_written);
	return t_done();
}
