/*
 * perf_errors.h: explanations of perf_event_open failures. Internal.
 */
#ifndef PMK_BACKEND_PERF_ERRORS_H
#define PMK_BACKEND_PERF_ERRORS_H

#include "pmkit/event.h"

/* A whole number from a /proc/sys file, or `dflt` when unreadable. */
int pmk__sysctl_int(const char *path, int dflt);
/* The kernel's perf_event_paranoid level (2 when unreadable). */
int pmk__paranoid_level(void);
/* Fill `d` for errno `err` from opening `a`; returns the PMK_E* code. */
int pmk__perf_open_error(int err, const pmk_attr *a, int system_wide,
			 pmk_diag *d);

#endif
