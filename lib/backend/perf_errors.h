/*
 * perf_errors.h: explanations of perf_event_open failures. Internal.
 */
#ifndef PMK_BACKEND_PERF_ERRORS_H
#define PMK_BACKEND_PERF_ERRORS_H

#include "pmkit/event.h"

/* A whole number from a /proc/sys file, or `dflt` when unreadable. */
int pmk__sysctl_int(const char *path, int dflt);
/* Raise the soft limit of open files to the hard limit, as perf does when
 * many events need descriptors; 1 when it was raised (retry the open). */
int pmk__raise_nofile(void);
/* The kernel's perf_event_paranoid level (2 when unreadable). */
int pmk__paranoid_level(void);
/* Fill `d` for errno `err` from opening `a` on process `pid` (0: the
 * caller, -1: none) or every CPU; returns the PMK_E* code. */
int pmk__perf_open_error(int err, const pmk_attr *a, int pid,
			 int system_wide, pmk_diag *d);
/* The same for a sampling open (pmk_sampler_open, the record probe),
 * whose advice differs: sample time (cpu-clock) where the event cannot be
 * sampled, count tool events with stat. `d` is cleared first (NULL: only
 * the code is returned). */
int pmk__perf_sample_error(int err, const pmk_attr *a, int pid,
			   int system_wide, pmk_diag *d);
/* Fill `d` for a refusal (EACCES, EPERM) of event `ev`, naming the real
 * cause: the paranoid level (its value and what it allows) against -a or
 * kernel space, ptrace access to another process, or a level that allows
 * nothing; the hint says what would work. Returns PMK_EPERM. */
int pmk__perf_perm_error(int err, const char *ev, int exclude_kernel, int pid,
			 int system_wide, pmk_diag *d);

#endif
