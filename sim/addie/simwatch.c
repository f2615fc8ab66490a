/*
 * simwatch.c: Addies watching the simulated core. Each committed
 * instruction feeds the 0/1 signals it takes part in into a multiplexer
 * (pmk_addie_mux): the multiplexer keeps the exact tally of every signal
 * and steps its two Addies on the ones they are switched to. Wrong-path
 * instructions never commit, so they are not counted.
 */
#include <string.h>

#include "pmkit/addie.h"
#include "pmkit/sim.h"

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
