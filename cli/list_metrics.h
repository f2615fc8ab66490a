/*
 * list_metrics.h: `pmkit list metric` and `metricgroup`, and their
 * --raw-dump, from perf's metric definitions for the target's CPU model,
 * in perf 6.1's layouts (list_metrics.c).
 */
#ifndef PMK_CLI_LIST_METRICS_H
#define PMK_CLI_LIST_METRICS_H

#include <stdio.h>

/* What to print: the metrics or the metric groups, listed or dumped. */
enum { LIST_METRICS = 1, LIST_METRICGROUPS = 2 };

/* Print perf's metrics (or groups, `what`) for the model of the target
 * pmk_target_host() discovers: perf's "\nMetrics:\n\n" list (each name,
 * then its description in brackets), "\nMetric Groups:\n\n" (a name a
 * line), or with `raw` the names for --raw-dump. A model perf defines no
 * metrics for prints the heading alone, as perf does. 0. */
int list_metrics(FILE *out, int what, int raw);

#endif
