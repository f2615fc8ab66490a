/*
 * simwatch.c: Addies watching the simulated core. Each committed
 * instruction feeds the 0/1 signals it takes part in into a multiplexer
 * (pmk_addie_mux): the multiplexer keeps the exact tally of every signal
 * and steps its two Addies on the ones they are switched to. Wrong-path
 * instructions never commit, so they are not counted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/addie.h"
#include "pmkit/sim.h"
#include "lib/core/diag.h"

static const char *const names[PMK_ADDIE_SIM_NSIGNALS] = {
    "l1d-hit", "l2-hit", "dtlb-hit", "l1i-hit", "branch-predicted"};
static const char *const descs[PMK_ADDIE_SIM_NSIGNALS] = {
    "per committed load: it hit the L1 data cache",
    "per committed load that missed L1D: it hit L2",
    "per committed load or store: it hit the data TLB",
    "per committed instruction: its fetch hit the L1 instruction cache",
    "per committed branch: it was predicted right"};

const char *pmk_addie_sim_signal_name(int signal)
{
	return signal >= 0 && signal < PMK_ADDIE_SIM_NSIGNALS ? names[signal]
							      : NULL;
}

const char *pmk_addie_sim_signal_desc(int signal)
{
	return signal >= 0 && signal < PMK_ADDIE_SIM_NSIGNALS ? descs[signal]
							      : NULL;
}

int pmk_addie_sim_signal_find(const char *name)
{
	for (int i = 0; name && i < PMK_ADDIE_SIM_NSIGNALS; i++)
		if (!strcmp(name, names[i]))
			return i;
	return PMK_ENOENT;
}

int pmk_addie_sim_signals_parse(const char *list, int sel[2], pmk_diag *d)
{
	char tmp[256], hint[256], *save = NULL;
	int n = 0, len = snprintf(hint, sizeof hint, "signals are");
	pmk_diag_clear(d);
	for (int k = 0; k < PMK_ADDIE_SIM_NSIGNALS; k++)
		len += snprintf(hint + len, sizeof hint - (size_t)len, " %s",
				names[k]);
	snprintf(tmp, sizeof tmp, "%s", list ? list : "");
	for (char *tok = strtok_r(tmp, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int sg = pmk_addie_sim_signal_find(tok);
		if (sg < 0)
			return pmk__diag_set(d, PMK_ENOENT, 0, 0, hint,
					     "unknown signal '%s'", tok);
		if (n == 2)
			return pmk__diag_set(d, PMK_EINVAL, 0, 0, hint,
					     "two signals at most, not '%s'",
					     list);
		sel[n++] = sg;
	}
	return n;
}

void pmk_addie_sim_feed(pmk_addie_mux *m, const pmk_sim_uop *u)
{
	int f;
	if (!m || !u || u->what != PMK_SIM_UOP_COMMIT)
		return;
	f = u->flags;
	pmk_addie_mux_feed(m, PMK_ADDIE_SIM_L1I_HIT, !(f & PMK_SIM_F_L1I_MISS));
	if (u->op == PMK_SIM_OP_LOAD) {
		pmk_addie_mux_feed(m, PMK_ADDIE_SIM_L1D_HIT,
				   !(f & PMK_SIM_F_L1D_MISS));
		if (f & PMK_SIM_F_L1D_MISS)
			pmk_addie_mux_feed(m, PMK_ADDIE_SIM_L2_HIT,
					   !(f & PMK_SIM_F_L2D_MISS));
	}
	if (u->op == PMK_SIM_OP_LOAD || u->op == PMK_SIM_OP_STORE)
		pmk_addie_mux_feed(m, PMK_ADDIE_SIM_DTLB_HIT,
				   !(f & PMK_SIM_F_DTLB_MISS));
	if (pmk_sim_op_is_branch(u->op))
		pmk_addie_mux_feed(m, PMK_ADDIE_SIM_BRANCH_OK,
				   !(f & PMK_SIM_F_MISPRED));
}

static void on_uop(void *arg, const pmk_sim_uop *u)
{
	pmk_addie_sim_feed(arg, u);
}

void pmk_addie_sim_observer(pmk_sim_observer *o, pmk_addie_mux *m)
{
	memset(o, 0, sizeof *o);
	o->uop = on_uop;
	o->arg = m;
}

int pmk_addie_sim_intervals(pmk_sim *sim, const pmk_addie_config *c,
			    const int *signals, int nsig, uint64_t every,
			    pmk_addie_sim_interval **out, size_t *n)
{
	pmk_addie_mux mux;
	pmk_sim_observer obs;
	pmk_addie_sim_interval *iv = NULL;
	uint64_t prev_ev[2] = {0, 0}, prev_one[2] = {0, 0};
	size_t cap = 0;
	int more, rc = 0;
	*out = NULL;
	*n = 0;
	if (!sim || nsig < 1 || nsig > 2 || !every)
		return PMK_EINVAL;
	if ((rc = pmk_addie_mux_init(&mux, c)) < 0)
		return rc;
	for (int u = 0; u < nsig; u++)
		if ((rc = pmk_addie_mux_select(
			 &mux, u, signals[u],
			 pmk_addie_sim_signal_name(signals[u]))) < 0)
			return rc;
	pmk_addie_sim_observer(&obs, &mux);
	pmk_sim_set_observer(sim, &obs);
	do {
		const pmk_sim_stats *st;
		pmk_addie_sim_interval *p;
		more = pmk_sim_run(sim, every);
		if (more < 0) {
			rc = more;
			break;
		}
		if (*n == cap) {
			size_t nc = cap ? 2 * cap : 256;
			if (!(p = realloc(iv, nc * sizeof *p))) {
				rc = PMK_ENOMEM;
				break;
			}
			iv = p;
			cap = nc;
		}
		st = pmk_sim_stats_get(sim);
		p = &iv[(*n)++];
		memset(p, 0, sizeof *p);
		p->committed = st->committed;
		p->cycles = st->cycles;
		for (int u = 0; u < nsig; u++) {
			pmk_addie_reading r;
			uint64_t de, d1;
			pmk_addie_watch_read(&mux.unit[u], &r);
			de = r.events - prev_ev[u];
			d1 = r.ones - prev_one[u];
			prev_ev[u] = r.events;
			prev_one[u] = r.ones;
			p->addie[u] = r.events ? r.addie : NAN;
			p->interval[u] = de ? (double)d1 / (double)de : NAN;
			p->exact[u] = r.exact;
			p->events[u] = r.events;
		}
	} while (more == 1);
	pmk_sim_set_observer(sim, NULL); /* the multiplexer ends here */
	if (rc < 0) {
		free(iv);
		*n = 0;
		return rc;
	}
	*out = iv;
	return 0;
}

int pmk_addie_sim_watch(const char *what, int kind, const pmk_addie_config *c,
			const int *signals, int nsig, uint64_t every,
			pmk_addie_sim_interval **out, size_t *n, pmk_diag *d)
{
	pmk_sim_config scfg;
	pmk_sim_source *src;
	pmk_sim *sim;
	int rc;
	*out = NULL;
	*n = 0;
	pmk_diag_clear(d);
	if ((rc = pmk_sim_source_open(&src, what, kind, d)) < 0)
		return rc;
	pmk_sim_config_default(&scfg);
	if ((rc = pmk_sim_new(&sim, &scfg, pmk_sim_source_next, src, d)) < 0) {
		pmk_sim_source_close(src);
		return rc;
	}
	rc = pmk_addie_sim_intervals(sim, c, signals, nsig, every, out, n);
	if (rc == PMK_ENOMEM)
		pmk__diag_set(d, rc, 0, 0, NULL, "out of memory");
	else if (rc < 0)
		*d = *pmk_sim_diag(sim);
	pmk_sim_free(sim);
	pmk_sim_source_close(src);
	return rc;
}
