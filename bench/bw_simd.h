/*
 * bw_simd.h: the vector bandwidth kernels (bw_simd.c) for bw.c. Internal.
 */
#ifndef PMK_BENCH_BW_SIMD_H
#define PMK_BENCH_BW_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/bench.h"

enum pmk__bw_kind {
	PMK__BW_READ,  /* read every byte of src; XOR into *acc */
	PMK__BW_WRITE, /* write every byte of dst */
	PMK__BW_COPY,  /* copy n bytes from src to dst */
	PMK__BW_RDWR,  /* add one to every 64-bit word of dst */
};

/* One pass of `kind` over n bytes (a multiple of 64, 64-byte aligned) in
 * `isa`'s vectors. Returns 0, or -1 when isa has no kernels in this build
 * (scalar, auto, or another architecture's ISA). */
int pmk__bw_simd(enum pmk_bw_isa isa, enum pmk__bw_kind kind, char *dst,
		 const char *src, size_t n, int64_t *acc);

#endif
