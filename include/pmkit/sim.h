/*
 * pmkit/sim.h: the simulated core, its trace format and PMU model.
 */
#ifndef PMKIT_SIM_H
#define PMKIT_SIM_H

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
