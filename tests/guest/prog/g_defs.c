/*
 * g_defs.c: user-defined events (include/pmkit/derive.h) over hardware
 * events in a library event set, on the emulated PMU. In one kernel group
 * every leaf counts the same instructions, so the derived values are exact.
 */
#include <stdio.h>

#include "pmkit.h"
#include "tests/guest/prog/guest.h"
#include "tests/support/t.h"

static const char defs[] = "#define TWO 2\n"
			   "DOUBLE_INS, instructions:u|TWO|*\n"
			   "IPC_U = instructions:u / cycles:u\n"
			   "LOOP_PART = (instructions:u - 2) / TWO\n";

static void test_user_events_in_a_set(void)
{
	pmk_diag d;
	pmk_eventset *es = NULL;
	/* 4 natives: pmkit assumes 4 counters on this PMU (it has 6 + cycles) */
	const char *names[] = {"instructions:u", "DOUBLE_INS", "IPC_U"};
	pmk_value v[3];
	T_ASSERT(pmk_defs_load_string("guest.def", defs, &d) == 0);
	T_ASSERT(pmk_eventset_new(&es, PMK_ES_GROUP) == 0);
	for (int i = 0; i < 3; i++) {
		int rc = pmk_eventset_add(es, names[i], &d);
		T_CHECKF(rc >= 0, "add %s: %s (%s)", names[i], d.message, pmk_strerror(rc));
		if (rc < 0)
			return;
	}
	T_ASSERT(pmk_eventset_open(es, &d) == 0);
	int split = -1;
	T_EQ_INT(pmk_eventset_groups(es, &split), 1);
	T_ASSERT(pmk_eventset_start(es) == 0);
	g_loop(1000000);
	T_ASSERT(pmk_eventset_stop(es) == 0);
	T_EQ_INT(pmk_eventset_read(es, v, 3), 3);
	printf("# instructions:u %.0f DOUBLE_INS %.0f IPC_U %g\n", v[0].value,
	       v[1].value, v[2].value);
	T_CHECK(v[0].value >= 2000002 && v[0].value < 2000002 + 1000);
	T_CHECK(v[1].value == 2 * v[0].value);
	T_CHECK(v[2].value == 1.0);
	for (int i = 0; i < 3; i++)
		T_CHECK(v[i].err == 0 && !(v[i].flags & PMK_VALUE_MULTIPLEXED));
	pmk_eventset_free(es);

	/* infix with parentheses and a constant, beside its base event */
	const char *two[] = {"instructions:u", "LOOP_PART"};
	T_ASSERT(pmk_eventset_new(&es, PMK_ES_GROUP) == 0);
	for (int i = 0; i < 2; i++)
		T_ASSERT(pmk_eventset_add(es, two[i], &d) >= 0);
	T_ASSERT(pmk_eventset_start(es) == 0);
	g_loop(1000000);
	T_ASSERT(pmk_eventset_stop(es) == 0);
	T_EQ_INT(pmk_eventset_read(es, v, 2), 2);
	printf("# instructions:u %.0f LOOP_PART %.1f\n", v[0].value, v[1].value);
	T_CHECK(v[1].value == (v[0].value - 2) / 2);
	pmk_eventset_free(es);
}

int main(void)
{
	T_RUN(test_user_events_in_a_set);
	return t_done();
}
