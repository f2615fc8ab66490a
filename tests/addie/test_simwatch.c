/*
 * test_simwatch.c: Addies on the simulated core's event streams. The exact
 * tallies the multiplexer keeps must equal the core's own statistics, and
 * the Addies must be readable mid-run and close to the truth.
 */
#include <math.h>

#include "pmkit/addie.h"
#include "pmkit/sim.h"
#include "tests/support/t.h"

static void test_tallies_match_core_stats(void)
{
	pmk_sim_config cfg;
	pmk_sim_source *src;
	pmk_sim *sim;
	pmk_sim_observer obs;
	pmk_addie_mux m;
	pmk_addie_config ac;
	pmk_diag d;
	const pmk_sim_stats *st;
	int more, reads = 0;
	pmk_diag_clear(&d);
	T_ASSERT(pmk_sim_source_open(&src, "int-mix:n=30000", PMK_TRACE_AUTO,
				     &d) == 0);
	pmk_sim_config_default(&cfg);
	T_ASSERT(pmk_sim_new(&sim, &cfg, pmk_sim_source_next, src, &d) == 0);
	pmk_addie_config_default(&ac);
	T_EQ_INT(pmk_addie_mux_init(&m, &ac), 0);
	pmk_addie_mux_select(&m, 0, PMK_ADDIE_SIM_L1D_HIT, "l1d-hit");
	pmk_addie_mux_select(&m, 1, PMK_ADDIE_SIM_BRANCH_OK, "br");
	pmk_addie_sim_observer(&obs, &m);
	pmk_sim_set_observer(sim, &obs);
	do {
		pmk_addie_reading r;
		more = pmk_sim_run(sim, 5000);
		T_ASSERT(more >= 0);
		pmk_addie_watch_read(&m.unit[1], &r); /* mid-run */
		T_CHECK(r.addie >= 0 && r.addie < 1);
		reads++;
	} while (more == 1);
	st = pmk_sim_stats_get(sim);
	T_CHECK(reads >= 6);
	T_EQ_U64(m.events[PMK_ADDIE_SIM_L1I_HIT], st->committed);
	T_EQ_U64(m.events[PMK_ADDIE_SIM_BRANCH_OK], st->branches);
	T_EQ_U64(m.ones[PMK_ADDIE_SIM_BRANCH_OK],
		 st->branches - st->mispredicts);
	T_EQ_U64(m.unit[1].events, st->branches);
	T_CHECK(m.events[PMK_ADDIE_SIM_L1D_HIT] > 1000);
	T_CHECK(m.events[PMK_ADDIE_SIM_L2_HIT] ==
		m.events[PMK_ADDIE_SIM_L1D_HIT] -
		    m.ones[PMK_ADDIE_SIM_L1D_HIT]);
	{
		pmk_addie_reading r;
		pmk_addie_watch_read(&m.unit[0], &r);
		T_NEAR(r.mean, r.exact, 0.05);
	}
	pmk_sim_free(sim);
	pmk_sim_source_close(src);
}

static void test_signal_names(void)
{
	for (int i = 0; i < PMK_ADDIE_SIM_NSIGNALS; i++) {
		T_EQ_INT(
		    pmk_addie_sim_signal_find(pmk_addie_sim_signal_name(i)), i);
		T_CHECK(pmk_addie_sim_signal_desc(i) != NULL);
	}
	T_EQ_INT(pmk_addie_sim_signal_find("nosuch"), PMK_ENOENT);
	T_CHECK(pmk_addie_sim_signal_name(PMK_ADDIE_SIM_NSIGNALS) == NULL);
}

int main(void)
{
	T_RUN(test_tallies_match_core_stats);
	T_RUN(test_signal_names);
	return t_done();
}
