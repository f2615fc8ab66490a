/*
 * stat_output.h: what `pmkit stat` prints, in text, CSV and JSON
 * (the schemas are documented in docs/man/pmkit-stat.1).
 */
#ifndef PMK_CLI_STAT_OUTPUT_H
#define PMK_CLI_STAT_OUTPUT_H

#include <stdio.h>

#include "pmkit.h"

struct stat_row {
	const char *name;
	const char *unit;   /* "msec" for clocks, else "" */
	double value;       /* in `unit` (clocks: msec), mean over repeats */
	double err;         /* error estimate (1 sigma) of a multiplexed value */
	double lo, hi;      /* interval */
	double stddev;      /* over repeats (same unit), or 0 */
	double counted;     /* running fraction, 1 = always */
	unsigned long long raw, enabled_ns, running_ns;
	unsigned flags;     /* PMK_VALUE_* */
	int status;         /* 0 or PMK_E* */
	const char *reason; /* why not counted, or NULL */
	int user_only;      /* counted in user space only */
	int derived;        /* user-defined or derived preset */
};

struct stat_result {
	const char *command; /* as the user typed it */
	int exit_status;
	int repeats;
	double elapsed_s, user_s, sys_s;
	double interval_s;   /* time stamp of an interval print, or < 0 */
	int nrows;
	struct stat_row *rows;
	const char *note;    /* one line, e.g. no hardware PMU, or NULL */
};

void stat_print_text(FILE *out, const struct stat_result *r);
void stat_print_csv(FILE *out, const char *sep, const struct stat_result *r);
void stat_print_json(FILE *out, const struct stat_result *r);

#endif
