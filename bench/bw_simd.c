/*
 * bw_simd.c: the bandwidth kernels in vector instructions (AVX-512, AVX2,
 * SSE2 on x86-64; NEON on arm64), chosen at run time from CPUID (through
 * the compiler's __builtin_cpu_supports, which also checks that the OS
 * saves the registers) or the auxiliary vector's HWCAP.
 *
 * Every kernel touches every byte with the ISA's widest aligned loads or
 * stores, 8 vectors per loop trip. Reads fold each load into one of 8
 * independent XOR accumulators (one-cycle operations, so the loads, not
 * a dependency, set the pace; the result is returned so nothing is dead
 * code); writes store a constant; copies load and store; read-modify-write
 * adds one to every 64-bit word. Buffers are page aligned and a multiple of
 * 64 bytes (bw.c), so every vector is aligned and there is no remainder
 * beyond whole vectors.
 */
#include <stdint.h>
#include <string.h>

#include "bench/bw_simd.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define KERNELS(SUF, TGT, VT, LOAD, STORE, XOR, ADD, SET1, ZERO, FOLD)         \
	TGT static int64_t rd_##SUF(const char *p, size_t n)                   \
	{                                                                      \
		VT a0 = ZERO, a1 = ZERO, a2 = ZERO, a3 = ZERO, a4 = ZERO,      \
		   a5 = ZERO, a6 = ZERO, a7 = ZERO;                            \
		const size_t w = sizeof(VT);                                   \
		size_t i = 0;                                                  \
		for (; i + 8 * w <= n; i += 8 * w) {                           \
			a0 = XOR(a0, LOAD((const VT *)(p + i)));               \
			a1 = XOR(a1, LOAD((const VT *)(p + i + w)));           \
			a2 = XOR(a2, LOAD((const VT *)(p + i + 2 * w)));       \
			a3 = XOR(a3, LOAD((const VT *)(p + i + 3 * w)));       \
			a4 = XOR(a4, LOAD((const VT *)(p + i + 4 * w)));       \
			a5 = XOR(a5, LOAD((const VT *)(p + i + 5 * w)));       \
			a6 = XOR(a6, LOAD((const VT *)(p + i + 6 * w)));       \
			a7 = XOR(a7, LOAD((const VT *)(p + i + 7 * w)));       \
		}                                                              \
		for (; i + w <= n; i += w)                                     \
			a0 = XOR(a0, LOAD((const VT *)(p + i)));               \
		a0 = XOR(XOR(XOR(a0, a1), XOR(a2, a3)),                        \
			 XOR(XOR(a4, a5), XOR(a6, a7)));                       \
		return FOLD(a0);                                               \
	}                                                                      \
	TGT static void wr_##SUF(char *p, size_t n)                            \
	{                                                                      \
		VT v = SET1(1);                                                \
		const size_t w = sizeof(VT);                                   \
		size_t i = 0;                                                  \
		for (; i + 8 * w <= n; i += 8 * w) {                           \
			STORE((VT *)(p + i), v);                               \
			STORE((VT *)(p + i + w), v);                           \
			STORE((VT *)(p + i + 2 * w), v);                       \
			STORE((VT *)(p + i + 3 * w), v);                       \
			STORE((VT *)(p + i + 4 * w), v);                       \
			STORE((VT *)(p + i + 5 * w), v);                       \
			STORE((VT *)(p + i + 6 * w), v);                       \
			STORE((VT *)(p + i + 7 * w), v);                       \
		}                                                              \
		for (; i + w <= n; i += w)                                     \
			STORE((VT *)(p + i), v);                               \
	}                                                                      \
	TGT static void cp_##SUF(char *d, const char *s, size_t n)             \
	{                                                                      \
		const size_t w = sizeof(VT);                                   \
		size_t i = 0;                                                  \
		for (; i + 4 * w <= n; i += 4 * w) {                           \
			VT x0 = LOAD((const VT *)(s + i)),                     \
			   x1 = LOAD((const VT *)(s + i + w)),                 \
			   x2 = LOAD((const VT *)(s + i + 2 * w)),             \
			   x3 = LOAD((const VT *)(s + i + 3 * w));             \
			STORE((VT *)(d + i), x0);                              \
			STORE((VT *)(d + i + w), x1);                          \
			STORE((VT *)(d + i + 2 * w), x2);                      \
			STORE((VT *)(d + i + 3 * w), x3);                      \
		}                                                              \
		for (; i + w <= n; i += w)                                     \
			STORE((VT *)(d + i), LOAD((const VT *)(s + i)));       \
	}                                                                      \
	TGT static void rdwr_##SUF(char *p, size_t n)                          \
	{                                                                      \
		VT one = SET1(1);                                              \
		const size_t w = sizeof(VT);                                   \
		size_t i = 0;                                                  \
		for (; i + 4 * w <= n; i += 4 * w) {                           \
			VT x0 = ADD(LOAD((const VT *)(p + i)), one),           \
			   x1 = ADD(LOAD((const VT *)(p + i + w)), one),       \
			   x2 = ADD(LOAD((const VT *)(p + i + 2 * w)), one),   \
			   x3 = ADD(LOAD((const VT *)(p + i + 3 * w)), one);   \
			STORE((VT *)(p + i), x0);                              \
			STORE((VT *)(p + i + w), x1);                          \
			STORE((VT *)(p + i + 2 * w), x2);                      \
			STORE((VT *)(p + i + 3 * w), x3);                      \
		}                                                              \
		for (; i + w <= n; i += w)                                     \
			STORE((VT *)(p + i),                                   \
			      ADD(LOAD((const VT *)(p + i)), one));            \
	}

#define T512 __attribute__((target("avx512f")))
#define T256 __attribute__((target("avx2")))
#define T128

/* XOR of the lanes (not a sum: no signed overflow) */
T512 static int64_t fold512(__m512i v)
{
	int64_t t[8], x = 0;
	_mm512_storeu_si512(t, v);
	for (int k = 0; k < 8; k++)
		x ^= t[k];
	return x;
}
T256 static int64_t fold256(__m256i v)
{
	int64_t t[4], x = 0;
	_mm256_storeu_si256((__m256i *)t, v);
	for (int k = 0; k < 4; k++)
		x ^= t[k];
	return x;
}
static int64_t fold128(__m128i v)
{
	return _mm_cvtsi128_si64(v);
}

KERNELS(avx512, T512, __m512i, _mm512_load_si512, _mm512_store_si512,
	_mm512_xor_si512, _mm512_add_epi64, _mm512_set1_epi64,
	_mm512_setzero_si512(), fold512)
KERNELS(avx2, T256, __m256i, _mm256_load_si256, _mm256_store_si256,
	_mm256_xor_si256, _mm256_add_epi64, _mm256_set1_epi64x,
	_mm256_setzero_si256(), fold256)
KERNELS(sse2, T128, __m128i, _mm_load_si128, _mm_store_si128, _mm_xor_si128,
	_mm_add_epi64, _mm_set1_epi64x, _mm_setzero_si128(), fold128)

#elif defined(__aarch64__)
#include <arm_neon.h>
#include <sys/auxv.h>

static int64_t rd_neon(const char *p, size_t n)
{
	uint64x2_t a[8];
	size_t i = 0;
	for (int k = 0; k < 8; k++)
		a[k] = vdupq_n_u64(0);
	for (; i + 128 <= n; i += 128)
		for (int k = 0; k < 8; k++)
			a[k] = veorq_u64(
			    a[k],
			    vld1q_u64((const uint64_t *)(p + i + 16 * k)));
	for (; i + 16 <= n; i += 16)
		a[0] = veorq_u64(a[0], vld1q_u64((const uint64_t *)(p + i)));
	for (int k = 1; k < 8; k++)
		a[0] = veorq_u64(a[0], a[k]);
	return (int64_t)(vgetq_lane_u64(a[0], 0) ^ vgetq_lane_u64(a[0], 1));
}

static void wr_neon(char *p, size_t n)
{
	uint64x2_t v = vdupq_n_u64(1);
	for (size_t i = 0; i + 16 <= n; i += 16)
		vst1q_u64((uint64_t *)(p + i), v);
}

static void cp_neon(char *d, const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 64 <= n; i += 64) {
		uint64x2_t x0 = vld1q_u64((const uint64_t *)(s + i)),
			   x1 = vld1q_u64((const uint64_t *)(s + i + 16)),
			   x2 = vld1q_u64((const uint64_t *)(s + i + 32)),
			   x3 = vld1q_u64((const uint64_t *)(s + i + 48));
		vst1q_u64((uint64_t *)(d + i), x0);
		vst1q_u64((uint64_t *)(d + i + 16), x1);
		vst1q_u64((uint64_t *)(d + i + 32), x2);
		vst1q_u64((uint64_t *)(d + i + 48), x3);
	}
	for (; i + 16 <= n; i += 16)
		vst1q_u64((uint64_t *)(d + i),
			  vld1q_u64((const uint64_t *)(s + i)));
}

static void rdwr_neon(char *p, size_t n)
{
	uint64x2_t one = vdupq_n_u64(1);
	for (size_t i = 0; i + 16 <= n; i += 16)
		vst1q_u64((uint64_t *)(p + i),
			  vaddq_u64(vld1q_u64((const uint64_t *)(p + i)), one));
}
#endif

static const char *const names[PMK_BW_ISA_N] = {"auto", "scalar", "sse2",
						"avx2", "avx512", "neon"};

const char *pmk_bw_isa_name(enum pmk_bw_isa isa)
{
	return (unsigned)isa < PMK_BW_ISA_N ? names[isa] : NULL;
}

int pmk_bw_isa_parse(const char *name)
{
	for (int i = 0; name && i < PMK_BW_ISA_N; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

int pmk_bw_isa_supported(enum pmk_bw_isa isa)
{
	switch (isa) {
	case PMK_BW_ISA_AUTO:
	case PMK_BW_ISA_SCALAR:
		return 1;
#if defined(__x86_64__)
	case PMK_BW_ISA_SSE2:
		return 1;
	case PMK_BW_ISA_AVX2:
		return __builtin_cpu_supports("avx2");
	case PMK_BW_ISA_AVX512:
		return __builtin_cpu_supports("avx512f");
#elif defined(__aarch64__)
	case PMK_BW_ISA_NEON:
		return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#endif
	default:
		return 0;
	}
}

enum pmk_bw_isa pmk_bw_isa_best(void)
{
	static const enum pmk_bw_isa order[] = {
	    PMK_BW_ISA_AVX512, PMK_BW_ISA_AVX2, PMK_BW_ISA_SSE2,
	    PMK_BW_ISA_NEON};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (pmk_bw_isa_supported(order[i]))
			return order[i];
	return PMK_BW_ISA_SCALAR;
}

int pmk__bw_simd(enum pmk_bw_isa isa, enum pmk__bw_kind kind, char *dst,
		 const char *src, size_t n, int64_t *acc)
{
#define DISPATCH(SUF)                                                          \
	switch (kind) {                                                        \
	case PMK__BW_READ:                                                     \
		*acc = rd_##SUF(src, n);                                       \
		return 0;                                                      \
	case PMK__BW_WRITE:                                                    \
		wr_##SUF(dst, n);                                              \
		return 0;                                                      \
	case PMK__BW_COPY:                                                     \
		cp_##SUF(dst, src, n);                                         \
		return 0;                                                      \
	case PMK__BW_RDWR:                                                     \
		rdwr_##SUF(dst, n);                                            \
		return 0;                                                      \
	}                                                                      \
	return -1
	switch (isa) {
#if defined(__x86_64__)
	case PMK_BW_ISA_AVX512:
		DISPATCH(avx512);
	case PMK_BW_ISA_AVX2:
		DISPATCH(avx2);
	case PMK_BW_ISA_SSE2:
		DISPATCH(sse2);
#elif defined(__aarch64__)
	case PMK_BW_ISA_NEON:
		DISPATCH(neon);
#endif
	default:
		return -1;
	}
}
