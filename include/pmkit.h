/*
 * pmkit.h: the public interface of libpmkit.
 *
 * Link with `pkg-config --libs pmkit`. Every name is prefixed pmk_ (types,
 * functions) or PMK_ (constants). Functions return 0 or a count on success
 * and a negative PMK_E* code on failure (pmk_strerror() explains it); they
 * never print or exit.
 *
 *   pmkit/error.h   error codes, diagnostics
 *   pmkit/event.h   event strings -> encodings (pure), PMU targets
 *   pmkit/count.h   event sets, multiplexing, error estimates, regions
 *   pmkit/derive.h  user-defined events, definition files, metrics
 *   pmkit/sample.h  sampling, record files, reports
 *   pmkit/sim.h     the simulated core (trace, model, PMU) as a backend
 *   pmkit/addie.h   the Addie stochastic monitor, DRAM buffer model
 *   pmkit/bench.h   microbenchmarks, timing harness, machine probe
 *   pmkit/cpistack.h CPI stacks (simulated core), top-down level 1
 *   pmkit/catalog.h models known, where presets come from
 */
#ifndef PMKIT_H
#define PMKIT_H

#define PMK_VERSION_STRING "0.1.0"

#include "pmkit/error.h"
#include "pmkit/event.h"
#include "pmkit/count.h"
#include "pmkit/derive.h"
#include "pmkit/sample.h"
#include "pmkit/sim.h"
#include "pmkit/addie.h"
#include "pmkit/bench.h"
#include "pmkit/cpistack.h"
#include "pmkit/catalog.h"

#endif
