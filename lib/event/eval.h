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

/* What evaluating a derived event reads of its pmk_event: its program and
 * the number of its natives (an event set keeps only this, not the
 * pmk_event's fixed arrays). */
typedef struct pmk__prog {
	const pmk_op *ops;
	int nops, nleaf;
} pmk__prog;

static inline pmk__prog pmk__prog_of(const pmk_event *ev)
{
	return (pmk__prog){ev->ops, ev->nops, ev->nleaf};
}

/* Evaluate `p` over per-leaf values, errors and intervals (err, lo, hi
 * may be NULL: exact leaves). PMK_EINVAL for a malformed program. */
int pmk__prog_eval_full(const pmk__prog *p, const double *val,
			const double *err, const double *lo, const double *hi,
			pmk_eval_result *out);
/* Its value alone (pmk_event_eval). */
double pmk__prog_eval(const pmk__prog *p, const double *leaf_values);

/* Values an operation takes from the stack: 0 for LEAF and CONST, 1 for
 * NEG, 3 for SELECT, 2 for the others; -1 for a code that is none. */
int pmk__op_pops(int code);
/* The value of operation `code` over its operands x[0..pops-1], in stack
 * order (the deepest first; SELECT's are a, c, b). What every evaluator
 * computes (docs/metrics.md): x/0 is NaN, d_ratio's x/0 is 0; min, max,
 * the comparisons and SELECT give NaN for a NaN operand they read. */
double pmk__op_value(int code, const double *x);

#endif
