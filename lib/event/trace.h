/*
 * trace.h: tracepoints by name (src_trace.c). Internal.
 */
#ifndef PMK_EVENT_TRACE_H
#define PMK_EVENT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/event.h"

/* The id of tracepoint SUB:NAME in the target's tracefs; 0 or
 * PMK_ENOEVENT. */
int pmk__tracepoint_id(const pmk_target *t, const char *sub, size_t sl,
		       const char *name, size_t nl, uint64_t *id);
/* Whether the target's tracefs is readable at all. */
int pmk__tracefs_present(const pmk_target *t);

#endif
