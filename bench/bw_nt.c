/*
 * bw_nt.c: STREAM's triad (a[i] = b[i] + s * c[i] over doubles) and stores
 * that bypass the caches (non-temporal: MOVNT* on x86-64, STNP on arm64),
 * in each ISA bw_simd.c knows and in scalar code.
 *
 * triad: the three arrays lie one after the other in the buffer, n/3 bytes
 * each (whole 64-byte lines), and a pass credits the bytes of the three
 * (STREAM's count: two read, one written; the write-allocate read of a is
 * not counted). A multiply and an add, not a fused multiply-add, so every
 * ISA does the same arithmetic. Scalar means scalar: the loop is kept from
 * being vectorized.
 * ntwr and ntcp: write, or copy, every byte with non-temporal stores, then
 * a store fence (x86), so the pass ends when the data is on its way to
 * memory. Non-temporal stores skip the write-allocate read: at sizes
 * beyond the caches ntwr should beat fwr; inside them it is slower, since
 * every line goes to memory.
 */
#include <string.h>

#include "bench/bw_nt.h"

size_t pmk__bw_triad_bytes(size_t n)
{
	return 3 * (n / 3 / 64 * 64);
}

#define SCALE 3.0

#if defined(__clang__)
#define NOVEC _Pragma("clang loop vectorize(disable) interleave(disable)")
#define NOVEC_FN
#elif defined(__GNUC__)
#define NOVEC
#define NOVEC_FN __attribute__((optimize("no-tree-vectorize")))
#else
#define NOVEC
#define NOVEC_FN
#endif

NOVEC_FN static void triad_scalar(double *a, const double *b, const double *c,
				  size_t m)
{
	NOVEC
	for (size_t i = 0; i < m; i++)
		a[i] = b[i] + SCALE * c[i];
}

#if defined(__x86_64__)
#include <immintrin.h>

#define T512 __attribute__((target("avx512f")))
#define T256 __attribute__((target("avx")))

T512 static void triad_avx512(double *a, const double *b, const double *c,
			      size_t m)
{
	__m512d s = _mm512_set1_pd(SCALE);
	for (size_t i = 0; i + 8 <= m; i += 8)
		_mm512_store_pd(a + i, _mm512_add_pd(_mm512_load_pd(b + i),
						     _mm512_mul_pd(s, _mm512_load_pd(c + i))));
}
T256 static void triad_avx2(double *a, const double *b, const double *c,
			    size_t m)
{
	__m256d s = _mm256_set1_pd(SCALE);
	for (size_t i = 0; i + 4 <= m; i += 4)
		_mm256_store_pd(a + i, _mm256_add_pd(_mm256_load_pd(b + i),
						     _mm256_mul_pd(s, _mm256_load_pd(c + i))));
}
static void triad_sse2(double *a, const double *b, const double *c, size_t m)
{
	__m128d s = _mm_set1_pd(SCALE);
	for (size_t i = 0; i + 2 <= m; i += 2)
		_mm_store_pd(a + i, _mm_add_pd(_mm_load_pd(b + i),
					       _mm_mul_pd(s, _mm_load_pd(c + i))));
}

T512 static void ntwr_avx512(char *d, size_t n)
{
	__m512i v = _mm512_set1_epi64(1);
	for (size_t i = 0; i + 64 <= n; i += 64)
		_mm512_stream_si512((void *)(d + i), v);
}
T256 static void ntwr_avx2(char *d, size_t n)
{
	__m256i v = _mm256_set1_epi64x(1);
	for (size_t i = 0; i + 32 <= n; i += 32)
		_mm256_stream_si256((__m256i *)(d + i), v);
}
static void ntwr_sse2(char *d, size_t n)
{
	__m128i v = _mm_set1_epi64x(1);
	for (size_t i = 0; i + 16 <= n; i += 16)
		_mm_stream_si128((__m128i *)(d + i), v);
}
static void ntwr_scalar(char *d, size_t n)
{
	for (size_t i = 0; i + 8 <= n; i += 8)
		_mm_stream_si64((long long *)(void *)(d + i), 1);
}

T512 static void ntcp_avx512(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 64 <= n; i += 64)
		_mm512_stream_si512((void *)(d + i),
				    _mm512_load_si512((const void *)(s + i)));
}
T256 static void ntcp_avx2(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 32 <= n; i += 32)
		_mm256_stream_si256((__m256i *)(d + i),
				    _mm256_load_si256((const __m256i *)(s + i)));
}
static void ntcp_sse2(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 16 <= n; i += 16)
		_mm_stream_si128((__m128i *)(d + i),
				 _mm_load_si128((const __m128i *)(s + i)));
}
static void ntcp_scalar(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 8 <= n; i += 8) {
		long long v;
		memcpy(&v, s + i, sizeof v);
		_mm_stream_si64((long long *)(void *)(d + i), v);
	}
}
#define FENCE() _mm_sfence()

#elif defined(__aarch64__)
#include <arm_neon.h>

static void triad_neon(double *a, const double *b, const double *c, size_t m)
{
	float64x2_t s = vdupq_n_f64(SCALE);
	for (size_t i = 0; i + 2 <= m; i += 2)
		vst1q_f64(a + i, vaddq_f64(vld1q_f64(b + i),
					   vmulq_f64(s, vld1q_f64(c + i))));
}
/* STNP of two q registers (32 bytes), or of two x registers (scalar) */
static void ntwr_neon(char *d, size_t n)
{
	uint64x2_t v = vdupq_n_u64(1);
	for (size_t i = 0; i + 32 <= n; i += 32)
		__asm__ volatile("stnp %q1, %q1, [%0]" ::"r"(d + i), "w"(v)
				 : "memory");
}
static void ntwr_scalar(char *d, size_t n)
{
	for (size_t i = 0; i + 16 <= n; i += 16)
		__asm__ volatile("stnp %1, %1, [%0]" ::"r"(d + i), "r"(1UL)
				 : "memory");
}
static void ntcp_neon(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 32 <= n; i += 32) {
		uint64x2_t x0 = vld1q_u64((const uint64_t *)(s + i)),
			   x1 = vld1q_u64((const uint64_t *)(s + i + 16));
		__asm__ volatile("stnp %q1, %q2, [%0]" ::"r"(d + i), "w"(x0),
				 "w"(x1)
				 : "memory");
	}
}
static void ntcp_scalar(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 16 <= n; i += 16) {
		uint64_t x0, x1;
		memcpy(&x0, s + i, 8);
		memcpy(&x1, s + i + 8, 8);
		__asm__ volatile("stnp %1, %2, [%0]" ::"r"(d + i), "r"(x0),
				 "r"(x1)
				 : "memory");
	}
}
#define FENCE() __asm__ volatile("dmb ishst" ::: "memory")
#endif

int pmk__bw_nt(enum pmk_bw_op op, enum pmk_bw_isa isa, char *dst,
	       const char *src, size_t n, int64_t *acc)
{
	if (op == PMK_BW_TRIAD) {
		size_t third = n / 3 / 64 * 64, m = third / sizeof(double);
		double *a = (double *)(void *)dst;
		double *b = (double *)(void *)(dst + third);
		double *c = (double *)(void *)(dst + 2 * third);
		switch (isa) {
		case PMK_BW_ISA_SCALAR: triad_scalar(a, b, c, m); break;
#if defined(__x86_64__)
		case PMK_BW_ISA_AVX512: triad_avx512(a, b, c, m); break;
		case PMK_BW_ISA_AVX2: triad_avx2(a, b, c, m); break;
		case PMK_BW_ISA_SSE2: triad_sse2(a, b, c, m); break;
#elif defined(__aarch64__)
		case PMK_BW_ISA_NEON: triad_neon(a, b, c, m); break;
#endif
		default: return -1;
		}
		__asm__ volatile("" ::"r"(a) : "memory");
		*acc = (int64_t)a[m / 2];
		return 0;
	}
#if defined(__x86_64__) || defined(__aarch64__)
	if (op == PMK_BW_NTWR || op == PMK_BW_NTCP) {
		int cp = op == PMK_BW_NTCP;
		switch (isa) {
		case PMK_BW_ISA_SCALAR:
			cp ? ntcp_scalar(dst, src, n) : ntwr_scalar(dst, n);
			break;
#if defined(__x86_64__)
		case PMK_BW_ISA_AVX512:
			cp ? ntcp_avx512(dst, src, n) : ntwr_avx512(dst, n);
			break;
		case PMK_BW_ISA_AVX2:
			cp ? ntcp_avx2(dst, src, n) : ntwr_avx2(dst, n);
			break;
		case PMK_BW_ISA_SSE2:
			cp ? ntcp_sse2(dst, src, n) : ntwr_sse2(dst, n);
			break;
#else
		case PMK_BW_ISA_NEON:
			cp ? ntcp_neon(dst, src, n) : ntwr_neon(dst, n);
			break;
#endif
		default:
			return -1;
		}
		FENCE();
		*acc = 0;
		return 0;
	}
#endif
	(void)src;
	(void)acc;
	return -1;
}
