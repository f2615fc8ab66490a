/*
 * test_bwnt.c: the triad and non-temporal kernels (bench/bw_nt.c) compute
 * what they say in every ISA this CPU runs: a = b + 3c element by element,
 * ntwr leaves every 64-bit word 1, ntcp an exact copy; and the bytes a
 * triad pass credits.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bw_nt.h"
#include "tests/support/t.h"

#define N (3 * 4096 + 192) /* not a multiple of 3 lines: the rounding */

static void test_triad_bytes(void)
{
	T_EQ_INT((long long)pmk__bw_triad_bytes(3 * 64), 3 * 64);
	T_EQ_INT((long long)pmk__bw_triad_bytes(3 * 64 + 100), 3 * 64);
	T_EQ_INT((long long)pmk__bw_triad_bytes(100), 0);
	T_EQ_INT((long long)pmk__bw_triad_bytes(N), 3 * (N / 3 / 64 * 64));
}

static void test_kernels_every_isa(void)
{
	void *pd = NULL, *ps = NULL;
	char *dst, *src;
	/* page aligned, as bw.c's buffers (aligned_alloc wants a size that
	 * is a multiple of the alignment; N is not) */
	if (posix_memalign(&pd, 4096, N) || posix_memalign(&ps, 4096, N))
		pd = ps = NULL;
	dst = pd;
	src = ps;
	T_CHECK(dst && src);
	for (int isa = PMK_BW_ISA_SCALAR; dst && src && isa < PMK_BW_ISA_N;
	     isa++) {
		size_t third = N / 3 / 64 * 64, m = third / sizeof(double);
		double *a = (double *)(void *)dst, *b = a + m, *c = b + m;
		int64_t acc;
		int bad = 0;
		if (!pmk_bw_isa_supported(isa))
			continue;
		for (size_t i = 0; i < m; i++) {
			a[i] = -1;
			b[i] = (double)i;
			c[i] = 0.5 * (double)(i % 7);
		}
		T_EQ_INT(pmk__bw_nt(PMK_BW_TRIAD, isa, dst, NULL, N, &acc), 0);
		for (size_t i = 0; i < m; i++)
			bad += a[i] != (double)i + 3.0 * (0.5 * (double)(i % 7));
		T_CHECKF(bad == 0, "triad in %s: %d wrong", pmk_bw_isa_name(isa),
			 bad);
		memset(dst, 0, N);
		T_EQ_INT(pmk__bw_nt(PMK_BW_NTWR, isa, dst, NULL, N, &acc), 0);
		bad = 0;
		for (size_t i = 0; i + 8 <= N / 64 * 64; i += 8) {
			uint64_t w;
			memcpy(&w, dst + i, 8);
			bad += w != 1;
		}
		T_CHECKF(bad == 0, "ntwr in %s: %d words not 1",
			 pmk_bw_isa_name(isa), bad);
		for (size_t i = 0; i < N; i++)
			src[i] = (char)(i * 31 + 7);
		memset(dst, 0, N);
		T_EQ_INT(pmk__bw_nt(PMK_BW_NTCP, isa, dst, src, N / 64 * 64, &acc), 0);
		T_CHECKF(memcmp(dst, src, N / 64 * 64) == 0, "ntcp in %s",
			 pmk_bw_isa_name(isa));
	}
	T_EQ_INT(pmk__bw_nt(PMK_BW_RD, PMK_BW_ISA_SCALAR, dst, src, 64, &(int64_t){0}), -1);
	free(dst);
	free(src);
}

int main(void)
{
	T_RUN(test_triad_bytes);
	T_RUN(test_kernels_every_isa);
	return t_done();
}
