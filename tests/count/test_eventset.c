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

#include "lib/count/eventset.h"
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

/* page faults per millisecond of task-clock, built by hand */
static void faults_per_ms(pmk_event *ev)
{
	pmk_diag d;
	pmk_event tc;
	T_ASSERT(pmk_event_parse(pmk_target_host(), "page-faults", ev, &d) == 0);
	T_ASSERT(pmk_event_parse(pmk_target_host(), "task-clock", &tc, &d) == 0);
	ev->leaf[1] = tc.leaf[0];
	ev->nleaf = 2;
	strcpy(ev->name, "faults_per_ms");
	pmk_op ops[] = {{PMK_OP_LEAF, 0, 0}, {PMK_OP_LEAF, 1, 0},
			{PMK_OP_CONST, 0, 1e6}, {PMK_OP_DIV, 0, 0},
			{PMK_OP_DIV, 0, 0}};
	memcpy(ev->ops, ops, sizeof ops);
	ev->nops = 5;
}

static void test_derived_event_over_software(void)
{
	pmk_event ev;
	pmk_diag d;
	pmk_eventset *es;
	pmk_value v;
	faults_per_ms(&ev);
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	T_EQ_INT(pmk_eventset_add_event(es, &ev, &d), 0);
	pmk_eventset_start(es);
	touch_pages(200);
	spin(5);
	pmk_eventset_stop(es);
	pmk_eventset_read(es, &v, 1);
	T_CHECKF(v.value > 0 && isfinite(v.value), "faults/ms %g", v.value);
	T_EQ_INT(pmk_eventset_groups(es, NULL), 1);
	T_CHECK(pmk_eventset_event_diag(es, 0) == NULL);
	{
		/* the set keeps the program only; the whole event comes
		 * back as it was added */
		const pmk_event *back = pmk_eventset_event(es, 0);
		T_ASSERT(back != NULL);
		T_EQ_STR(back->name, ev.name);
		T_EQ_STR(back->unit, ev.unit);
		T_EQ_INT(back->kind, ev.kind);
		T_EQ_INT(back->nleaf, ev.nleaf);
		T_EQ_INT(back->nops, ev.nops);
		for (int i = 0; i < ev.nleaf; i++) {
			T_EQ_STR(back->leaf[i].name, ev.leaf[i].name);
			T_CHECK(back->leaf[i].type == ev.leaf[i].type &&
				back->leaf[i].config == ev.leaf[i].config);
		}
		T_CHECK(!memcmp(back->ops, ev.ops,
				sizeof ev.ops[0] * (size_t)ev.nops));
		T_CHECK(pmk_eventset_event(es, 0) == back);
		T_CHECK(pmk_eventset_event(es, 1) == NULL);
	}
	/* a program longer than a pmk_event holds is refused, not copied */
	ev.nops = PMK_OPS_MAX + 1;
	T_EQ_INT(pmk_eventset_add_event(es, &ev, &d), PMK_EINVAL);
	T_EQ_INT(pmk_eventset_size(es), 1);
	pmk_eventset_free(es);
}

/* An event of one native identical to a native of a derived event reads
 * that native's counter: the derived value and the counts beside it come
 * from the same counters, over the same time (eventset.c, "shared
 * natives"). Other events keep their own groups. */
static void test_shared_natives(void)
{
	pmk_event fpm;
	pmk_diag d;
	pmk_eventset *es;
	pmk_value v[5];
	faults_per_ms(&fpm);
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	T_EQ_INT(pmk_eventset_add(es, "page-faults", &d), 0); /* before it */
	T_EQ_INT(pmk_eventset_add_event(es, &fpm, &d), 1);
	T_EQ_INT(pmk_eventset_add(es, "task-clock", &d), 2);  /* after it */
	T_EQ_INT(pmk_eventset_add(es, "task-clock:u", &d), 3); /* not the same */
	T_EQ_INT(pmk_eventset_add(es, "context-switches", &d), 4);
	T_EQ_INT(pmk_eventset_start(es), 0);
	/* {page-faults, task-clock}, task-clock:u, context-switches */
	T_EQ_INT(pmk_eventset_groups(es, NULL), 3);
	touch_pages(100);
	T_EQ_INT(pmk_eventset_stop(es), 0);
	T_EQ_INT(pmk_eventset_read(es, v, 5), 5);
	T_CHECKF(v[0].value >= 100, "page-faults %g", v[0].value);
	T_EQ_U64(v[0].raw, v[1].raw);
	T_EQ_U64(v[0].enabled_ns, v[1].enabled_ns);
	T_EQ_U64(v[2].enabled_ns, v[1].enabled_ns);
	T_CHECKF(v[1].value == v[0].value / (v[2].value / 1e6),
		 "faults_per_ms %.17g, page-faults / task-clock ms %.17g",
		 v[1].value, v[0].value / (v[2].value / 1e6));
	T_CHECK(v[3].value > 0 && v[4].status == 0);
	/* a reset and an accumulation keep them together */
	T_EQ_INT(pmk_eventset_start(es), 0);
	T_EQ_INT(pmk_eventset_reset(es), 0);
	touch_pages(30);
	memset(v, 0, sizeof v);
	T_EQ_INT(pmk_eventset_accum(es, v, 5), 5);
	T_CHECKF(v[0].value >= 30 && v[0].value < 100, "page-faults %g", v[0].value);
	T_EQ_U64(v[0].raw, v[1].raw);
	T_EQ_U64(v[0].enabled_ns, v[2].enabled_ns);
	pmk_eventset_free(es);

	/* a single native inside a user group keeps its own counter */
	T_ASSERT(pmk_eventset_new(&es, 0) == 0);
	T_EQ_INT(pmk_eventset_add(es, "page-faults", &d), 0);
	T_EQ_INT(pmk_eventset_add(es, "context-switches", &d), 1);
	T_EQ_INT(pmk_eventset_add_event(es, &fpm, &d), 2);
	T_EQ_INT(pmk_eventset_group(es, 0, 1), 0);
	T_EQ_INT(pmk_eventset_start(es), 0);
	T_EQ_INT(pmk_eventset_groups(es, NULL), 2);
	pmk_eventset_free(es);

	/* perf's --metric-no-merge: nothing shared, each its own counter;
	 * --metric-no-group: the derived event's natives apart, and still
	 * shared; the user group above stays one group under both */
	{
		static const struct {
			unsigned flags;
			int groups;
		} want[] = {{PMK_ES_NO_SHARE, 4},
			    {PMK_ES_NO_EVENT_GROUP, 3},
			    {PMK_ES_NO_SHARE | PMK_ES_NO_EVENT_GROUP, 5}};
		for (int k = 0; k < 3; k++) {
			T_ASSERT(pmk_eventset_new(&es, want[k].flags) == 0);
			pmk_eventset_add(es, "page-faults", &d);
			pmk_eventset_add_event(es, &fpm, &d);
			pmk_eventset_add(es, "task-clock", &d);
			pmk_eventset_add(es, "context-switches", &d);
			T_EQ_INT(pmk_eventset_start(es), 0);
			T_EQ_INT(pmk_eventset_groups(es, NULL), want[k].groups);
			touch_pages(50);
			pmk_eventset_stop(es);
			T_EQ_INT(pmk_eventset_read(es, v, 4), 4);
			T_CHECKF(v[1].value > 0 && isfinite(v[1].value),
				 "faults_per_ms %g (flags %u)", v[1].value,
				 want[k].flags);
			pmk_eventset_free(es);
		}
	}
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
	/* the set's common variability: a median, so one bursty native
	 * (100) does not set it; none from fewer than two natives */
	double a[] = {0.03, 0.01, 0.02}, b[] = {0.01, 100, 0.02, 0.03}, c[] = {5};
	T_NEAR(pmk__mpx_common_rel_sd(a, 3), 0.02, 0);
	T_NEAR(pmk__mpx_common_rel_sd(b, 4), 0.025, 1e-12);
	T_NEAR(pmk__mpx_common_rel_sd(c, 1), 0, 0);
}

/* Edges are timed only in a set that multiplexes (the emulated tier checks
 * them, tests/guest/prog/g_count.c): one that cannot, like these software
 * events, makes no clock reads and reports none. */
static void test_no_edges_without_multiplexing(void)
{
	static const char *const names[] = {"task-clock", "page-faults"};
	pmk_eventset *es;
	pmk_diag d;
	pmk_value v[2];
	T_ASSERT(pmk_eventset_new(&es, PMK_ES_MULTIPLEX) == 0);
	for (int i = 0; i < 2; i++)
		T_ASSERT(pmk_eventset_add(es, names[i], &d) >= 0);
	T_ASSERT(pmk_eventset_start(es) == 0);
	for (int i = 0; i < 5; i++)
		T_EQ_INT(pmk_eventset_read(es, v, 2), 2);
	T_ASSERT(pmk_eventset_stop(es) == 0);
	T_EQ_INT(pmk_eventset_read(es, v, 2), 2);
	for (int i = 0; i < 2; i++) {
		T_CHECK(v[i].enabled_ns > 0);
		T_EQ_U64(v[i].edge_ns, 0);
		T_CHECK(!(v[i].flags & PMK_VALUE_MULTIPLEXED));
	}
	pmk_eventset_free(es);
}

int main(void)
{
	T_RUN(test_software_events_count_here);
	T_RUN(test_reset_and_accum);
	T_RUN(test_derived_event_over_software);
	T_RUN(test_shared_natives);
	T_RUN(test_unsupported_event_is_kept_with_reason);
	T_RUN(test_user_groups);
	T_RUN(test_no_edges_without_multiplexing);
	T_RUN(test_mpx_error_model);
	return t_done();
}
