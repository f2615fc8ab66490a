/*
 * generic.h: the kernel's generic event names (perf's spelling). Internal.
 */
#ifndef PMK_EVENT_GENERIC_H
#define PMK_EVENT_GENERIC_H

#include "pmkit/event.h"

struct pmk__generic {
	const char *name;
	pmk_event_kind kind; /* HARDWARE, SOFTWARE or HWCACHE */
	uint32_t type;
	uint64_t config;
	const char *unit;
	const char *desc;
};

/* Look a generic name up (case-sensitive, perf's spelling and aliases).
 * Hardware-cache names are composed: CACHE-OP(s|-misses). */
int pmk__generic_find(const char *name, struct pmk__generic *out);
/* Every generic name, aliases excluded. */
int pmk__generic_foreach(int (*fn)(const struct pmk__generic *g, void *arg),
			 void *arg);

#endif
