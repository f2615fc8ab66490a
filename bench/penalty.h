/*
 * penalty.h: the probe's small kernels (internal to bench/).
 */
#ifndef PMK_BENCH_PENALTY_H
#define PMK_BENCH_PENALTY_H

#include "pmkit/bench.h"

/* ns per branch with random and with sorted (predictable) outcomes. */
int pmk__bench_branch(const pmk_bench_cfg *cfg, double *rand_ns,
		      double *sorted_ns);
/* ns per dependent FP add, mul, div and sqrt (double precision). */
int pmk__bench_fp(const pmk_bench_cfg *cfg, double ns[4]);
/* ns per load of a chase that reads two words `block` bytes apart per
 * random block (line-size test), footprint `range` bytes. */
int pmk__bench_pair(size_t block, size_t range, const pmk_bench_cfg *cfg,
		    double *ns);

#endif
