/*
 * generic.h: the kernel's generic event names (perf's spelling). Internal.
 */
#ifndef PMK_EVENT_GENERIC_H
#define PMK_EVENT_GENERIC_H

#include <stddef.h>

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
/* pmk__generic_find for a hardware or hardware-cache name only (those a
 * core PMU counts): 0 or PMK_ENOEVENT. */
int pmk__generic_find_hw(const char *name, struct pmk__generic *out);
/* Every generic name, aliases excluded. */
int pmk__generic_foreach(int (*fn)(const struct pmk__generic *g, void *arg),
			 void *arg);
/* PAPI's perf:: spelling of a generic name (the `len` chars at `s`,
 * after "perf::"): any case, '_' for '-', PERF_COUNT_HW_, PERF_COUNT_SW_
 * and PERF_COUNT_HW_CACHE_ prefixes, REF_CPU_CYCLES, PAGE_FAULTS_MIN/MAJ.
 * The name in perf's spelling is written to `name`; 0 or PMK_ENOEVENT. */
int pmk__generic_papi_name(const char *s, size_t len, char *name,
			   size_t size);

#endif
