/*
 * levels.h: curve arithmetic internal to bench/ (and its tests).
 */
#ifndef PMK_BENCH_LEVELS_H
#define PMK_BENCH_LEVELS_H

#include <stddef.h>

#include "pmkit/bench.h"

/* The points of a latency curve, at footprints up to `limit` bytes, that
 * are more than `tol` times slower than some larger footprint: a larger
 * footprint cannot be faster, so they were slowed by something else (a
 * neighbour's burst) and are worth measuring again. Their indexes go to
 * `idx` (at most `max`), largest footprint first; returns how many. */
int pmk__levels_disturbed(const size_t *size, const double *lat, int n,
			  size_t limit, double tol, int *idx, int max);

/* The TLB miss cost for a given reach of `entries` 4 KiB pages, on the
 * plateau `lv` (as pmk_tlb_fit chooses its points: within 5 % of the
 * plateau's latency): the median of gap / (1 - entries / pages) over the
 * points clearly past the reach (that fraction at least 0.15), the gap
 * being all - win. 0 when fewer than 2 points qualify. With the reach
 * held, two passes of the all-pages curve give comparable costs (a free
 * fit trades entries against cost). */
double pmk__tlb_cost_at(const size_t *size, const double *win,
			const double *all, int n, const pmk_level *lv,
			double entries);

#endif
