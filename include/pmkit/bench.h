/*
 * pmkit/bench.h: microbenchmarks, the timing harness and the machine probe.
 */
#ifndef PMKIT_BENCH_H
#define PMKIT_BENCH_H

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
