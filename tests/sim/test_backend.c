/*
 * test_backend.c: event sets on the sim backend. With as many events as
 * counters the counts are exact and equal the core's own statistics; with
 * more, the backend multiplexes and the scaled values land near the exact
 * ones, inside the error estimate's reach.
 */
#include <math.h>
#include <string.h>

#include "lib/backend/backend.h"
#include "pmkit/count.h"
#include "pmkit/sim.h"
#include "tests/support/t.h"

static const char *evs[] = {"instructions",	"cycles",
			    "branch-misses",	"L1-dcache-load-misses",
			    "l2_miss",		"dispatch_stall",
			    "inst_retired:c=2", "l1i_miss",
			    "br_dispatched",	"rob_full"};

static int count(const char *wl, int n, pmk_value *v, uint64_t *cycles)
{
	pmk_sim_config cfg;
	pmk_backend *be;
	pmk_eventset *es;
	pmk_diag d;
	pmk_sim_config_default(&cfg);
	if (pmk_sim_backend_new(&be, &cfg, wl, &d) < 0)
		return -1;
	pmk_eventset_new(&es, PMK_ES_MULTIPLEX);
	pmk_eventset_set_backend(es, be);
	for (int i = 0; i < n; i++) {
		pmk_event ev;
		if (pmk_sim_event_parse(evs[i], &ev, &d) < 0 ||
		    pmk_eventset_add_event(es, &ev, &d) < 0)
			return -1;
	}
	if (pmk_eventset_open(es, &d) || pmk_eventset_start(es) ||
	    pmk_sim_backend_run(be, &d))
		return -1;
	pmk_eventset_stop(es);
	pmk_eventset_read(es, v, n);
	*cycles = pmk_sim_stats_get(pmk_sim_backend_core(be))->cycles;
	pmk_eventset_free(es);
	be->ops->free(be);
	return 0;
}

static void test_exact_when_counters_suffice(void)
{
	pmk_value v[4];
	uint64_t cyc;
	T_ASSERT(count("int-mix:n=30000", 4, v, &cyc) == 0);
	T_EQ_U64(v[0].raw, 30000);
	T_EQ_U64(v[1].raw, cyc);
	T_CHECK(!(v[2].flags & PMK_VALUE_MULTIPLEXED));
	T_CHECK(v[2].running == 1.0);
	T_CHECK(v[2].raw > 0 && v[3].raw > 0);
}

static void test_multiplexed_estimates(void)
{
	pmk_value exact[10], mpx[10];
	uint64_t cyc;
	/* exact: each event alone on its own run (deterministic core) */
	for (int i = 0; i < 10; i++) {
		pmk_value one[1];
		const char *save = evs[0];
		evs[0] = evs[i];
		T_ASSERT(count("int-mix:n=400000", 1, one, &cyc) == 0);
		evs[0] = save;
		exact[i] = one[0];
	}
	T_ASSERT(count("int-mix:n=400000", 10, mpx, &cyc) == 0);
	int multiplexed = 0;
	for (int i = 0; i < 10; i++) {
		double e = (double)exact[i].raw, m = mpx[i].value;
		if (mpx[i].flags & PMK_VALUE_MULTIPLEXED)
			multiplexed++;
		T_CHECKF(fabs(m - e) <= 0.10 * e + 4 * mpx[i].err + 10,
			 "%s: exact %.0f, multiplexed %.0f +- %.0f", evs[i], e,
			 m, mpx[i].err);
	}
	T_CHECK(multiplexed >= 6);
}

static void test_rejects_kernel_events(void)
{
	pmk_sim_config cfg;
	pmk_backend *be;
	pmk_diag d;
	pmk_attr a;
	pmk_open_opts o;
	pmk_sim_config_default(&cfg);
	T_ASSERT(pmk_sim_backend_new(&be, &cfg, "ilp:n=10", &d) == 0);
	memset(&a, 0, sizeof a);
	memset(&o, 0, sizeof o);
	o.leader = -1;
	a.type = PMK_TYPE_SOFTWARE;
	T_EQ_INT(be->ops->open(be, &a, &o, &d), PMK_ENOTSUP);
	be->ops->free(be);
	T_EQ_INT(pmk_sim_backend_new(&be, &cfg, "nosuch-workload", &d),
		 PMK_ENOENT);
}

int main(void)
{
	T_RUN(test_exact_when_counters_suffice);
	T_RUN(test_multiplexed_estimates);
	T_RUN(test_rejects_kernel_events);
	return t_done();
}
