/*
 * addie_int.h: names shared between the files of sim/addie.
 */
#ifndef PMK_SIM_ADDIE_INT_H
#define PMK_SIM_ADDIE_INT_H

#include <stdint.h>
#include <stdio.h>

#include "pmkit/addie.h"

/* One clock of the 31-stage register: stage 1 (bit 30) receives
 * stage 3 (bit 28) XOR stage 31 (bit 0); everything else moves one stage
 * toward the output. */
static inline uint32_t pmk__lfsr31_next(uint32_t s)
{
	uint32_t fb = ((s >> 28) ^ s) & 1u;
	return (s >> 1) | (fb << 30);
}

/* Fill the byte-indexed tables of the register advanced `clocks` times. */
void pmk__lfsr31_jump_tables(uint32_t jump[4][256], unsigned clocks);

/* xorshift64* for stream generation (independent of the LFSR). */
static inline uint64_t pmk__xs64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}
static inline uint64_t pmk__seed_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x ? x : 0x9e3779b97f4a7c15ull;
}

/* A minimal SVG line chart. */
typedef struct pmk__svg_series {
	const char *label;
	const char *color;
	const double *x; /* NULL: 0, 1, 2, ... */
	const double *y;
	size_t n;
	int dashed;
} pmk__svg_series;
typedef struct pmk__svg_chart {
	const char *title, *xlabel, *ylabel;
	double xmin, xmax, ymin, ymax; /* xmin == xmax: from the data */
	int xlog, ylog;		       /* log10 axes */
	int legend;	      /* 0 top left, 1 top right, 2 bottom right */
	const double *hlines; /* horizontal reference lines */
	size_t nhlines;
	const double *vlines; /* vertical reference lines */
	size_t nvlines;
} pmk__svg_chart;
/* Write the chart to `f`; 0, or PMK_EIO. */
int pmk__svg_lines(FILE *f, const pmk__svg_chart *c, const pmk__svg_series *s,
		   size_t ns);

#endif
