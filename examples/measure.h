/*
 * measure.h: what the case studies share: time a piece of work with the
 * pmkit harness clock and count it with a pmkit event set (whatever this
 * machine can count: software events everywhere, hardware ones where there
 * is a PMU). Header-only; each example is one program.
 */
#ifndef PMK_EXAMPLES_MEASURE_H
#define PMK_EXAMPLES_MEASURE_H

#include <stdio.h>
#include <string.h>

#include "pmkit.h"

#define EX_MAXEV 8

typedef struct ex_counters {
	pmk_eventset *es;
	int n;
	const char *names[EX_MAXEV];
	pmk_value v[EX_MAXEV];
} ex_counters;

/* Open the event set; events the machine cannot count are simply left out
 * of the printout. Returns 0 even when nothing can be counted. */
static inline int ex_counters_open(ex_counters *c)
{
	static const char *const events[] = {
	    "task-clock",      "page-faults",  "cycles",
	    "instructions",    "cache-misses", "L1-dcache-load-misses",
	    "dTLB-load-misses"};
	pmk_diag d;
	memset(c, 0, sizeof *c);
	if (pmk_eventset_new(&c->es, PMK_ES_MULTIPLEX) != 0) {
		c->es = NULL;
		return 0;
	}
	for (size_t i = 0;
	     i < sizeof events / sizeof *events && c->n < EX_MAXEV; i++)
		if (pmk_eventset_add(c->es, events[i], &d) >= 0)
			c->names[c->n++] = events[i];
	return 0;
}

static inline void ex_counters_start(ex_counters *c)
{
	if (c->es) {
		pmk_eventset_reset(c->es);
		if (pmk_eventset_start(c->es) != 0) {
			pmk_eventset_free(c->es);
			c->es = NULL;
		}
	}
}

static inline void ex_counters_stop(ex_counters *c)
{
	if (c->es) {
		pmk_eventset_stop(c->es);
		if (pmk_eventset_read(c->es, c->v, c->n) < 0)
			memset(c->v, 0, sizeof c->v);
	}
}

/* "task-clock 12.3e6, page-faults 120; not countable here: cycles, ..." */
static inline void ex_counters_print(const ex_counters *c, FILE *f)
{
	int skipped = 0;
	if (!c->es) {
		fprintf(f, "      counters: none (event sets unavailable)\n");
		return;
	}
	fprintf(f, "      counters:");
	for (int i = 0; i < c->n; i++)
		if (!(c->v[i].flags &
		      (PMK_VALUE_UNSUPPORTED | PMK_VALUE_NOT_COUNTED)))
			fprintf(f, " %s %.4g", c->names[i], c->v[i].value);
	for (int i = 0; i < c->n; i++)
		if (c->v[i].flags &
		    (PMK_VALUE_UNSUPPORTED | PMK_VALUE_NOT_COUNTED))
			fprintf(f, "%s%s",
				skipped++ ? ", " : "; not countable here: ",
				c->names[i]);
	fprintf(f, "\n");
}

static inline void ex_counters_close(ex_counters *c)
{
	if (c->es)
		pmk_eventset_free(c->es);
	c->es = NULL;
}

#endif
