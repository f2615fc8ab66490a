/*
 * stat_metrics.h: the metric library of `pmkit stat -M` (stat_metrics.c).
 */
#ifndef PMK_CLI_STAT_METRICS_H
#define PMK_CLI_STAT_METRICS_H

#include <stdio.h>

#include "pmkit.h"

/* The library's directory into buf: 0, or -1 when it cannot be found. */
int stat_metrics_dir(char *buf, size_t size);
/* Add metric NAME, or every metric of group NAME, as derived events at
 * ev[*nev] (at most `max` in all). 0; 1 when there is no such metric or
 * group; EXIT_USAGE after an error was printed. A group with no metric
 * for this machine's model sets *found_group_empty. */
int stat_metrics_add(pmk_event *ev, int *nev, int max, const char *dir,
		     const char *name, int *found_group_empty);
/* `-M list`: every metric with its group and definition. */
void stat_metrics_list(FILE *out, const char *dir);
/* Whether perf's metrics for the target's model define a metric or a
 * metric group named `name` (TopdownL2), each of its metrics evaluable as
 * perf's: then -M takes perf's, which run (and print <not supported>
 * rows) wherever perf's do. */
int stat_metrics_perf_defines(const char *name);
/* The unit perf shows perf's metric `name` in (its ScaleUnit less the
 * number: "%" for "100%"), "" when none or not perf's. */
const char *stat_metrics_perf_unit(const char *name);

#endif
