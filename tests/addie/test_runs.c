/*
 * test_runs.c: the runs `pmkit addie` used to drive itself, now library
 * functions (pmkit/addie.h): the membuf sweep against observations made one
 * by one, the intervals of Addies on the simulated core against the
 * multiplexer stepped by hand, requests loaded from a workload against
 * pmk_mem_from_insns on the same source, the settle figures and quality
 * grid against their single-case functions, and the name tables.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/addie.h"
#include "pmkit/sim.h"
#include "tests/support/t.h"

/* Each point of the sweep is pmk_membuf_observe at that setting; the best
 * is the least stall (first found); the advice is pmk_membuf_advise's. */
static void test_sweep_matches_observe(void)
{
	enum { N = 3000 };
	pmk_mem_access *req = calloc(N, sizeof *req);
	pmk_membuf_sweep *sw = calloc(1, sizeof *sw);
	pmk_membuf_config c;
	pmk_membuf_step st[PMK_MEMBUF_MAX_STEPS];
	uint64_t least = ~0ull;
	unsigned wm;
	int ra, n;
	T_ASSERT(req && sw);
	pmk_mempattern_generate(pmk_mempattern_find("mixed"), 1, req, N);
	pmk_membuf_config_default(&c);
	T_EQ_INT(pmk_membuf_sweep_run(&c, req, N, sw), 0);
	for (int r = 0; r < 2; r++)
		for (int w = 0; w < PMK_MEMBUF_SWEEP_NW; w++) {
			pmk_membuf_config c2 = c;
			pmk_membuf_obs o;
			c2.watermark = pmk_membuf_sweep_watermarks[w];
			c2.read_ahead = r;
			T_EQ_INT(pmk_membuf_observe(&c2, req, N, &o), 0);
			T_EQ_U64(o.stall, sw->obs[r][w].stall);
			T_EQ_U64(o.st.cycles, sw->obs[r][w].st.cycles);
			if (o.stall < least)
				least = o.stall;
		}
	T_EQ_U64(sw->best_stall, least);
	T_EQ_INT(pmk_membuf_advise(&c, req, N, st, &n, &wm, &ra), 0);
	T_EQ_INT(sw->nsteps, n);
	T_EQ_INT(sw->advised_watermark, wm);
	T_EQ_INT(sw->advised_read_ahead, ra);
	T_CHECK(sw->advised.stall >= sw->best_stall);
	for (int i = 0; i < n; i++)
		T_CHECK(strlen(pmk_membuf_step_conclusion(&sw->steps[i])) > 0);
	free(req);
	free(sw);
}

/* The intervals add up: the events of each signal grow by the events of
 * the interval, the last exact ratio equals the whole run's, and the core
 * ran to the end of the workload. */
static void test_sim_intervals(void)
{
	pmk_addie_config ac;
	pmk_addie_sim_interval *iv;
	pmk_diag d;
	size_t n;
	int sel[2] = {PMK_ADDIE_SIM_L1D_HIT, PMK_ADDIE_SIM_BRANCH_OK};
	pmk_addie_config_default(&ac);
	T_EQ_INT(pmk_addie_sim_watch("int-mix:n=30000", PMK_TRACE_AUTO, &ac,
				     sel, 2, 7000, &iv, &n, &d),
		 0);
	T_ASSERT(iv && n >= 4);
	for (size_t k = 0; k < n; k++) {
		T_CHECK(k == 0 || iv[k].committed > iv[k - 1].committed);
		T_CHECK(k == 0 || iv[k].events[0] >= iv[k - 1].events[0]);
		for (int u = 0; u < 2; u++) {
			T_CHECK(isnan(iv[k].addie[u]) ||
				(iv[k].addie[u] >= 0 && iv[k].addie[u] <= 1));
			T_CHECK(isnan(iv[k].interval[u]) ||
				(iv[k].interval[u] >= 0 &&
				 iv[k].interval[u] <= 1));
		}
	}
	T_EQ_U64(iv[n - 1].committed, 30000);
	free(iv);
	/* bad input: a workload that does not exist, a third signal */
	T_CHECK(pmk_addie_sim_watch("nosuchworkload", PMK_TRACE_AUTO, &ac, sel,
				    2, 1000, &iv, &n, &d) < 0);
	T_CHECK(iv == NULL && d.message[0]);
	T_EQ_INT(pmk_addie_sim_signals_parse("l1d-hit,l2-hit", sel, &d), 2);
	T_EQ_INT(sel[1], PMK_ADDIE_SIM_L2_HIT);
	T_EQ_INT(pmk_addie_sim_signals_parse("", sel, &d), 0);
	T_EQ_INT(pmk_addie_sim_signals_parse("nosuch", sel, &d), PMK_ENOENT);
	T_CHECK(strstr(d.hint, "branch-predicted") != NULL);
	T_CHECK(pmk_addie_sim_signals_parse("l1d-hit,l2-hit,dtlb-hit", sel,
					    &d) < 0);
}

/* Requests loaded from a workload are those of pmk_mem_from_insns on the
 * same source; a missing trace is an error with a message. */
static void test_mem_load(void)
{
	enum { MAX = 5000 };
	pmk_mem_access *a, *b = calloc(MAX, sizeof *b);
	pmk_sim_source *src;
	pmk_diag d;
	size_t na, nb;
	T_ASSERT(b);
	T_EQ_INT(pmk_mem_load("int-mix:n=20000", PMK_TRACE_AUTO, MAX, &a, &na,
			      &d),
		 0);
	T_EQ_INT(pmk_sim_source_open(&src, "int-mix:n=20000", PMK_TRACE_AUTO,
				     &d),
		 0);
	T_EQ_INT(pmk_mem_from_insns(pmk_sim_source_next, src, b, MAX, &nb), 0);
	pmk_sim_source_close(src);
	T_EQ_U64(na, nb);
	T_CHECK(na > 0 && memcmp(a, b, na * sizeof *a) == 0);
	free(a);
	free(b);
	T_CHECK(pmk_mem_load("/nonexistent.trace", PMK_TRACE_AUTO, MAX, &a,
			     &na, &d) < 0);
	T_CHECK(a == NULL && na == 0 && d.message[0]);
}

/* The figures' settle statistics are pmk_addie_settle_stats_run's for
 * each stream and mode; the quality grid is pmk_addie_quality's. */
static void test_settle_figures_and_grid(void)
{
	pmk_addie_settle_stats all[4], one;
	pmk_quality_params qp;
	pmk_quality_row rows[2 * PMK_EST_COUNT], r;
	unsigned bits[2] = {4, 6};
	T_EQ_INT(pmk_addie_settle_figures(6, 20, 0.02, all, NULL), 0);
	for (int k = 0; k < 4; k++) {
		pmk_addie_config c;
		pmk_addie_config_default(&c);
		c.bits = 6;
		c.rng = k % 2 ? PMK_ADDIE_RNG_CORRELATED
			      : PMK_ADDIE_RNG_INDEPENDENT;
		T_EQ_INT(pmk_addie_settle_stats_run(
			     &c, pmk_addie_figure_nums[k / 2], 20, 0.02, NULL,
			     &one),
			 0);
		T_EQ_U64(one.min, all[k].min);
		T_NEAR(one.mean, all[k].mean, 1e-12);
	}
	pmk_quality_params_default(&qp);
	qp.seeds = 2;
	T_EQ_INT(pmk_addie_quality_grid(&qp, bits, 2, rows), 0);
	T_EQ_INT(pmk_addie_quality(&qp, PMK_EST_EMA, 6, &r), 0);
	T_NEAR(rows[PMK_EST_COUNT + PMK_EST_EMA].rms_error, r.rms_error, 1e-12);
	T_EQ_INT(rows[PMK_EST_COUNT + PMK_EST_EMA].bits, 6);
}

static void test_rng_names(void)
{
	for (unsigned m = 0; m < 3; m++)
		T_EQ_INT(pmk_addie_rng_find(pmk_addie_rng_name(m)), (int)m);
	T_CHECK(pmk_addie_rng_name(3) == NULL);
	T_EQ_INT(pmk_addie_rng_find("nosuch"), PMK_ENOENT);
}

int main(void)
{
	T_RUN(test_sweep_matches_observe);
	T_RUN(test_sim_intervals);
	T_RUN(test_mem_load);
	T_RUN(test_settle_figures_and_grid);
	T_RUN(test_rng_names);
	return t_done();
}
