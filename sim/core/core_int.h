/*
 * core_int.h: internal controls of the core, for tests.
 */
#ifndef PMK_SIM_CORE_INT_H
#define PMK_SIM_CORE_INT_H

#include "pmkit/sim.h"

/* Simulate every cycle (no fast-forward over idle cycles); counts must be
 * the same either way. */
void pmk__sim_no_fast_forward(pmk_sim *s, int off);

#endif
