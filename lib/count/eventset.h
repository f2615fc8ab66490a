/*
 * eventset.h: event-set internals shared inside libpmkit.
 */
#ifndef PMK_COUNT_EVENTSET_H
#define PMK_COUNT_EVENTSET_H

#include "pmkit/count.h"

/* Counters of the host's core PMU (PMK_COUNTERS overrides). */
int pmk__core_counters(void);
/* Whether event i fell back to user-space counting (paranoid level). */
int pmk_eventset_user_only(const pmk_eventset *es, int i);

#endif
