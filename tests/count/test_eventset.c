/*
 * test_eventset.c: event sets on the kernel backend with software events
 * (these count on any Linux machine, PMU or not), and the multiplexing
 * error model on synthetic figures.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "pmkit.h"
#include "tests/support/t.h"

static volatile double sink;

/* Burn `ms` of this thread's CPU time (not wall time: the machine may be
 * busy) and return the CPU time used, in ns. */
static double spin(int ms)
{
	struct timespec a, b;
	double used;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 1000; i++)
			sink += i * 0.5;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
		used = (double)(b.tv_sec - a.tv_sec) * 1e9 +
		       (double)(b.tv_nsec - a.tv_nsec);
	} while (used < ms * 1e6);
	return used;
}

static void touch_pages(int n)
{
	char *p = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < n; i++)
		p[i * 4096] = 1;
	munmap(p, (size_t)n * 4096);
}

static void test_software_events_count_here(void)
{
	pmk_eventset *es;
	pmk_diag d;
	pmk_value v[2];
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	T_EQ_INT(pmk_eventset_add(es, "task-clock", &d), 0);
	T_EQ_INT(pmk_eventset_add(es, "page-faults", &d), 1);
	double cpu;
	T_EQ_INT(pmk_eventset_start(es), 0);
	cpu = spin(20);
	touch_pages(100);
	T_EQ_INT(pmk_eventset_stop(es), 0);
	T_EQ_INT(pmk_eventset_read(es, v, 2), 2);
	/* task-clock covers at least the CPU time the thread measured */
	T_CHECKF(v[0].value >= cpu * 0.95 && v[0].value < cpu + 1e9,
		 "task-clock %g ns, thread CPU time %g ns", v[0].value, cpu);
	T_CHECKF(v[1].value >= 100, "page-faults %g", v[1].value);
	T_EQ_INT(v[0].status, 0);
	T_CHECK(!(v[0].flags & PMK_VALUE_MULTIPLEXED));
	T_NEAR(v[0].running, 1.0, 0);
	T_NEAR(v[0].err, 0, 0);
	pmk_eventset_free(es);
}

static void test_reset_and_accum(void)
{
	pmk_eventset *es;
	pmk_diag d;
	pmk_value v, acc;
	memset(&acc, 0, sizeof acc);
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	pmk_eventset_add(es, "page-faults", &d);
	pmk_eventset_start(es);
	touch_pages(50);
	pmk_eventset_reset(es);
	pmk_eventset_read(es, &v, 1);
	T_CHECKF(v.value < 10, "after reset %g", v.value);
	touch_pages(40);
	T_EQ_INT(pmk_eventset_accum(es, &acc, 1), 1);
	T_CHECKF(acc.value >= 40 && acc.value < 60, "accum %g", acc.value);
	touch_pages(30);
	pmk_eventset_accum(es, &acc, 1);
	T_CHECKF(acc.value >= 70 && acc.value < 100, "accum twice %g", acc.value);
	pmk_eventset_free(es);
}

static void test_derived_event_over_software(void)
{
	/* page faults per millisecond of task-clock, built by hand */
	pmk_event ev;
	pmk_diag d;
	pmk_eventset *es;
	pmk_value v;
	T_ASSERT(pmk_event_parse(pmk_target_host(), "page-faults", &ev, &d) == 0);
	{
		pmk_event tc;
		pmk_event_parse(pmk_target_host(), "task-clock", &tc, &d);
		ev.leaf[1] = tc.leaf[0];
	}
	ev.nleaf = 2;
	strcpy(ev.name, "faults_per_ms");
	pmk_op ops[] = {{PMK_OP_LEAF, 0, 0}, {PMK_OP_LEAF, 1, 0},
			{PMK_OP_CONST, 0, 1e6}, {PMK_OP_DIV, 0, 0},
			{PMK_OP_DIV, 0, 0}};
	memcpy(ev.ops, ops, sizeof ops);
	ev.nops = 5;
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	T_EQ_INT(pmk_eventset_add_event(es, &ev, &d), 0);
	pmk_eventset_start(es);
	touch_pages(200);
	spin(5);
	pmk_eventset_stop(es);
	pmk_eventset_read(es, &v, 1);
	T_CHECKF(v.value > 0 && isfinite(v.value), "faults/ms %g", v.value);
	T_EQ_INT(pmk_eventset_groups(es, NULL), 1);
	pmk_eventset_free(es);
}

static void test_unsupported_event_is_kept_with_reason(void)
{
	pmk_eventset *es;
	pmk_diag d;
	pmk_value v[2];
	const pmk_diag *why;
	T_ASSERT(pmk_eventset_new(&es, PMK_ES_MULTIPLEX) == 0);
	pmk_eventset_add(es, "task-clock", &d);
	pmk_eventset_add(es, "instructions", &d);
	T_EQ_INT(pmk_eventset_open(es, &d), 0);
	why = pmk_eventset_event_diag(es, 1);
	if (!why)
		T_SKIP("this machine counts instructions (hardware PMU present)");
	T_EQ_INT(why->code, PMK_ENOTSUP);
	/* the reason says why: no hardware PMU, or the core PMU lacks it */
	T_CHECKF(strstr(why->message, "virtual machine?") != NULL ||
			 strstr(why->message, "does not have this event") != NULL,
		 "reason: %s", why->message);
	pmk_eventset_start(es);
	spin(2);
	pmk_eventset_read(es, v, 2);
	T_CHECK(v[0].value > 0);
	T_CHECK(v[1].flags & PMK_VALUE_UNSUPPORTED);
	pmk_eventset_free(es);
}

static void test_user_groups(void)
{
	pmk_eventset *es;
	pmk_diag d;
	pmk_value v[3];
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	pmk_eventset_add(es, "task-clock", &d);
	pmk_eventset_add(es, "page-faults", &d);
	pmk_eventset_add(es, "context-switches", &d);
	T_EQ_INT(pmk_eventset_group(es, 0, 1), 0);
	T_EQ_INT(pmk_eventset_group(es, 1, 2), PMK_EINVAL); /* overlaps */
	T_EQ_INT(pmk_eventset_group(es, 2, 3), PMK_EINVAL); /* no event 3 */
	T_EQ_INT(pmk_eventset_start(es), 0);
	touch_pages(10);
	T_EQ_INT(pmk_eventset_read(es, v, 3), 3);
	/* {task-clock,page-faults} and context-switches: two kernel groups,
	 * and the grouped events share their enabled time exactly */
	T_EQ_INT(pmk_eventset_groups(es, NULL), 2);
	T_EQ_U64(v[0].enabled_ns, v[1].enabled_ns);
	T_CHECK(v[1].value >= 10);
	T_EQ_INT(pmk_eventset_group(es, 2, 2), PMK_ESTATE); /* opened */
	pmk_eventset_free(es);
}

static void test_mpx_error_model(void)
{
	/* never multiplexed: exact */
	T_NEAR(pmk_mpx_error(1000, 100, 100, 5, 10, 50), 0, 0);
	/* half the time, constant rate, Poisson part only:
	 * sqrt(raw * (1 - f)) / f = sqrt(10000 * 0.5) / 0.5 */
	T_NEAR(pmk_mpx_error(10000, 200, 100, 0, 0, 0), sqrt(5000.0) / 0.5, 1e-9);
	/* variability adds in quadrature: 100 ns unseen * sd 2 / sqrt(4) */
	T_NEAR(pmk_mpx_error(10000, 200, 100, 2, 4, 0),
	       sqrt(20000.0 + 100.0 * 100.0), 1e-9);
	/* edges: rate 100/ns seen, 3 ns of edges; f = 1/2 gives a = r * edge
	 * (the event may have missed them all), f = 1/4 gives a = r * edge * 3
	 * (it may have carried them, scaled by 4, in place of the 3/4 unseen) */
	T_NEAR(pmk_mpx_error(10000, 200, 100, 0, 0, 3),
	       sqrt(20000.0 + 300.0 * 300.0 / 3), 1e-9);
	T_NEAR(pmk_mpx_error(10000, 400, 100, 0, 0, 3),
	       sqrt(10000.0 * 0.75 / 0.0625 + 900.0 * 900.0 / 3), 1e-9);
}

/* A set counting the calling thread knows how long its own start, reads and
 * stop took while it counted; one whose counting starts at exec does not. */
static void test_edges_are_the_library_calls(void)
{
	static const char *const names[] = {"task-clock", "page-faults"};
	pmk_eventset *es;
	pmk_diag d;
	pmk_value v[2];
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	for (int i = 0; i < 2; i++)
		T_ASSERT(pmk_eventset_add(es, names[i], &d) >= 0);
	T_ASSERT(pmk_eventset_start(es) == 0);
	for (int i = 0; i < 5; i++)
		T_EQ_INT(pmk_eventset_read(es, v, 2), 2);
	T_ASSERT(pmk_eventset_stop(es) == 0);
	T_EQ_INT(pmk_eventset_read(es, v, 2), 2);
	/* each event (its own group here) was enabled from its enable to its
	 * disable, nearly all of it in those calls: only the loop lies between */
	for (int i = 0; i < 2; i++) {
		printf("# %s: edges %llu ns of %llu ns enabled\n", names[i],
		       (unsigned long long)v[i].edge_ns,
		       (unsigned long long)v[i].enabled_ns);
		T_CHECK(v[i].edge_ns > 0);
		T_CHECK(v[i].enabled_ns <= v[i].edge_ns + 1000000);
		T_CHECK(v[i].edge_ns <= v[i].enabled_ns + 1000000);
	}
	T_EQ_INT(pmk_eventset_reset(es), 0);
	T_EQ_INT(pmk_eventset_read(es, v, 2), 2);
	T_EQ_U64(v[0].edge_ns, 0); /* stopped: the reset's reads are no edge */
	pmk_eventset_free(es);
}

int main(void)
{
	T_RUN(test_software_events_count_here);
	T_RUN(test_reset_and_accum);
	T_RUN(test_derived_event_over_software);
	T_RUN(test_unsupported_event_is_kept_with_reason);
	T_RUN(test_user_groups);
	T_RUN(test_edges_are_the_library_calls);
	T_RUN(test_mpx_error_model);
	return t_done();
}
