/*
 * levels.h: curve arithmetic internal to bench/ (and its tests).
 */
#ifndef PMK_BENCH_LEVELS_H
#define PMK_BENCH_LEVELS_H

#include <stddef.h>

/* The points of a latency curve, at footprints up to `limit` bytes, that
 * are more than `tol` times slower than some larger footprint: a larger
 * footprint cannot be faster, so they were slowed by something else (a
 * neighbour's burst) and are worth measuring again. Their indexes go to
 * `idx` (at most `max`), largest footprint first; returns how many. */
int pmk__levels_disturbed(const size_t *size, const double *lat, int n,
			  size_t limit, double tol, int *idx, int max);

#endif
