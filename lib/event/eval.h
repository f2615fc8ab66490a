/*
 * eval.h: evaluating derived events with uncertainty. Internal.
 */
#ifndef PMK_EVENT_EVAL_H
#define PMK_EVENT_EVAL_H

#include "pmkit/event.h"

typedef struct pmk_eval_result {
	double value;  /* the expression at the leaves' values */
	double err;    /* first-order standard error (independent leaves) */
	double lo, hi; /* interval arithmetic over the leaves' [lo, hi] */
	int nan;       /* a division by zero happened */
} pmk_eval_result;

/* Evaluate `ev` over per-leaf values, errors and intervals (err, lo, hi
 * may be NULL: exact leaves). PMK_EINVAL for a malformed program. */
int pmk__event_eval_full(const pmk_event *ev, const double *val,
			 const double *err, const double *lo, const double *hi,
			 pmk_eval_result *out);

#endif
