/*
 * stat_output.h: what `pmkit stat` prints. perf's layouts by default (text,
 * -x SEP columns, -j JSON lines), pmkit's own extras behind --extended (the
 * error estimate, its interval and flags) and in --json (pmkit's schema).
 * Every field is documented in docs/man/pmkit-stat.1.
 */
#ifndef PMK_CLI_STAT_OUTPUT_H
#define PMK_CLI_STAT_OUTPUT_H

#include <stdio.h>

#include "pmkit.h"

enum stat_aggr {
	STAT_AGGR_GLOBAL = 0, /* one row per event */
	STAT_AGGR_CPU,        /* -A: per CPU, "CPU3" */
	STAT_AGGR_CORE,       /* --per-core: "S0-D0-C1" and its CPU count */
	STAT_AGGR_SOCKET,     /* --per-socket: "S0" and its CPU count */
	STAT_AGGR_THREAD,     /* --per-thread: "comm-tid" */
	STAT_AGGR_DIE,        /* --per-die: "S0-D0" and its CPU count */
	STAT_AGGR_NODE,       /* --per-node: "N0" and its CPU count */
	STAT_AGGR_CACHE,      /* --per-cache: "S0-D0-L3-ID0" and its CPU count */
};

/* Whether an aggregation's prefix carries its number of CPUs. */
#define STAT_AGGR_COUNTS(a)                                                \
	((a) == STAT_AGGR_CORE || (a) == STAT_AGGR_SOCKET ||                 \
	 (a) == STAT_AGGR_DIE || (a) == STAT_AGGR_NODE ||                    \
	 (a) == STAT_AGGR_CACHE)

/* The key perf's -j output and --metric-only -x/-j headings give an
 * aggregation ("" for none), as perf 6.5 names them. */
static inline const char *stat_aggr_key(int a)
{
	static const char *const key[] = {"",	    "cpu", "core", "socket",
					  "thread", "die", "node", "cache"};
	return a >= 0 && a < (int)(sizeof key / sizeof *key) ? key[a] : "";
}

struct stat_row {
	const char *name;
	const char *unit;   /* "msec" for clocks, a sysfs unit ("Joules"),
			       else "" */
	double value;       /* in `unit` (clocks: msec), mean over repeats */
	double err;         /* error estimate (1 sigma) of a multiplexed value */
	double lo, hi;      /* interval */
	double stddev;      /* over repeats (same unit), or 0 */
	double sem;         /* standard error of the mean over repeats, or 0 */
	double counted;     /* running fraction, 1 = always */
	unsigned long long raw, enabled_ns, running_ns;
	unsigned flags;     /* PMK_VALUE_* */
	int status;         /* 0 or PMK_E* */
	const char *reason; /* why not counted, or NULL */
	int bare;           /* reason in the note, not on the text row */
	int user_only;      /* counted in user space only */
	int derived;        /* user-defined or derived preset, or a -M metric */
	const char *aggr;   /* aggregation unit ("CPU0", "S0", ...) or NULL */
	int aggr_n;         /* CPUs in the unit (per-core/per-socket) */
	const char *cgroup; /* --for-each-cgroup: the row's, else NULL */
};

struct stat_result {
	const char *command; /* as the user typed it */
	const char *target;  /* "'CMD'", "process id '12'", "'system wide'" */
	int exit_status;
	int repeats;
	double elapsed_s, elapsed_sem_s, user_s, sys_s;
	double interval_s;   /* time stamp of an interval print, or < 0 */
	double span_s;       /* the time the counts cover (metrics), > 0 */
	int nrows;
	struct stat_row *rows;
	const char *note;    /* one line, e.g. no hardware PMU, or NULL */
	int aggr;            /* enum stat_aggr */
	int extended;        /* --extended: pmkit's error columns too */
	int first_interval;  /* the first interval print (text header line) */
	int null_run;        /* -n: no counters, only the time */
	const char *cgroup;  /* -G: printed after each event, as perf (a
				row's own, --for-each-cgroup, comes first) */
	int csv_summary;     /* --summary: CSV rows open with "summary" */
	const double *run_s; /* --table: each run's elapsed seconds, or NULL */
	int nrun_s;
	int metric_only;     /* --metric-only: a column per metric */
};

void stat_print_text(FILE *out, const struct stat_result *r);
void stat_print_csv(FILE *out, const char *sep, const struct stat_result *r);
/* perf's -j: one JSON object per line and row */
void stat_print_perf_json(FILE *out, const struct stat_result *r);
/* perf's metric of a row, as the metric column shows it: 1 with its value
 * and unit, or 0 when the row has none */
int stat_row_metric(const struct stat_result *r, const struct stat_row *w,
		    double *val, char *unit, size_t usize);
/* --metric-only (stat_metric_only.c): the heading and a line per interval
 * and aggregation unit, in text, -x SEP or -j */
void stat_mo_text(FILE *out, const struct stat_result *r);
void stat_mo_csv(FILE *out, const char *sep, const struct stat_result *r);
void stat_mo_perf_json(FILE *out, const struct stat_result *r);
/* pmkit's --json schema (pmkit-stat/1): one object */
void stat_print_json(FILE *out, const struct stat_result *r);

#endif
