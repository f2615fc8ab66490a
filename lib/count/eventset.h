/*
 * eventset.h: event-set internals shared inside libpmkit.
 */
#ifndef PMK_COUNT_EVENTSET_H
#define PMK_COUNT_EVENTSET_H

#include "pmkit/count.h"

/* Counters of the host's core PMU (PMK_COUNTERS overrides). */
int pmk__core_counters(void);
/* Add b into a: values, bounds, raw counts and times summed, errors in
 * quadrature, flags or-ed. The caller decides a->running (which depends on
 * what is being summed: CPUs or threads, or successive intervals). */
void pmk__value_add(pmk_value *a, const pmk_value *b);
/* The set-wide floor on relative rate variability: the median of `rel`
 * (n values, sorted in place); 0 when n < 2. */
double pmk__mpx_common_rel_sd(double *rel, int n);
/* What the set knows of one native's count (mpx.c, docs/counting.md). */
typedef struct pmk__mpx_in {
	uint64_t raw, enabled_ns, running_ns, edge_ns;
	double rate_sd;       /* sd of the program's rate between its windows
				 (per ns), less counting noise (eventset.c) */
	double common_rel_sd; /* the set's floor on sd / mean rate */
	int nslices;          /* reads that saw it count */
	int nwin, ngap;       /* runs of slices counted, and missed */
	double start_rel;     /* the set's start phase: relative rate change */
	uint64_t start_len_ns; /* the extent over which start_rel was seen */
	uint64_t first_run_ns; /* its running time within that extent */
	double own_start_rel; /* its own |k - 1| when it counted all of the
				 start, else -1 (the set's stands in) */
} pmk__mpx_in;
/* The error estimate of a multiplexed native's scaled count; 0 when it was
 * counted all the time. */
double pmk__mpx_estimate(const pmk__mpx_in *in);
/* The value of a native counted in a start sweep (s_raw in s_run of the
 * sweep's s_en, over `passes` passes) and after it (`rest`, its start
 * terms 0) into *val; returns its error (mpx.c). */
double pmk__mpx_swept(uint64_t s_raw, uint64_t s_run, uint64_t s_en,
		      int passes, const pmk__mpx_in *rest, double *val);
/* Whether event i fell back to user-space counting (paranoid level). */
int pmk_eventset_user_only(const pmk_eventset *es, int i);

#endif
