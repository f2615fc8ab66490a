/*
 * hier.h: perf report --stdio --hierarchy's layout (hier.c) over the rows
 * of perf's table (views.c): the sort keys become the levels of a tree,
 * each entry indented under its parent with the samples taken under it,
 * and the call chains drawn under the last level. Internal to pmkit.
 */
#ifndef PMK_SAMPLE_HIER_H
#define PMK_SAMPLE_HIER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PMK__HIER_MAXKEYS 8

/* One row of the table: one entry of the last level */
typedef struct pmk__hier_row {
	const char *key; /* its columns joined by '\x1f' */
	uint64_t self, samples;
	int shown; /* --dsos/--symbols name a sample taken in it */
	uint64_t sym_start; /* its symbol's address (perf's order of rows) */
} pmk__hier_row;

typedef struct pmk__hier {
	int nkeys;
	const char *heads[PMK__HIER_MAXKEYS]; /* the columns' headings */
	int unpadded[PMK__HIER_MAXKEYS];      /* a symbol: never padded, and
						 ordered by its address */
	const pmk__hier_row *row;
	size_t nrow;
	uint64_t total; /* the event's period: 100 % */
	int samples;	/* -n */
	int quiet;	/* -q: no headings */
	const char *sep; /* -t SEP, or NULL */
	double percent_limit;
	/* the call chains under row `r` (an entry of the last level whose
	 * period is `entry`), or NULL for none */
	int (*chain)(void *ctx, size_t r, uint64_t entry, FILE *out);
	void *ctx;
} pmk__hier;

/* The column headings (unless quiet) and the tree. 0, or -1 out of
 * memory (or what `chain` returned). */
int pmk__hier_print(const pmk__hier *h, FILE *out);

#endif
