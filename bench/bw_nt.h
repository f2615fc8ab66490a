/*
 * bw_nt.h: the bandwidth kernels beyond lmbench's (bw_nt.c) for bw.c:
 * STREAM's triad and stores that bypass the caches. Internal.
 */
#ifndef PMK_BENCH_BW_NT_H
#define PMK_BENCH_BW_NT_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/bench.h"

/* The bytes one triad pass over an n-byte buffer credits: three arrays of
 * doubles, each n/3 rounded down to whole 64-byte lines. */
size_t pmk__bw_triad_bytes(size_t n);

/* One pass of op (PMK_BW_TRIAD, PMK_BW_NTWR or PMK_BW_NTCP) in `isa`
 * (SCALAR, or a vector ISA this build has kernels for), over n bytes (a
 * multiple of 64, page aligned): triad works inside `dst` (a = b + s*c, the
 * three arrays one after the other), ntwr writes dst, ntcp copies src to
 * dst. 0, or -1 for an op or ISA it has no kernel for. */
int pmk__bw_nt(enum pmk_bw_op op, enum pmk_bw_isa isa, char *dst,
	       const char *src, size_t n, int64_t *acc);

#endif
