/*
 * test_harness.c: the timing harness, pointer chains, bandwidth kernels,
 * SVG and the probe's writers. Timing tests check structure only (positive,
 * ordered statistics), never a figure of this machine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bw_simd.h"
#include "pmkit/bench.h"
#include "tests/support/t.h"

static pmk_bench_cfg quick(void)
{
	pmk_bench_cfg c;
	pmk_bench_cfg_default(&c);
	c.sample_ms = 1;
	return c;
}

static uint64_t count_fn(void *arg, uint64_t n)
{
	uint64_t *calls = arg;
	volatile uint64_t x = 0;
	for (uint64_t i = 0; i < n; i++)
		x += i;
	(*calls)++;
	return n;
}

static void test_run_statistics(void)
{
	pmk_bench_cfg c = quick();
	pmk_bench_stat st;
	uint64_t calls = 0;
	c.samples = 3; /* raised to the minimum of 5 */
	T_EQ_INT(pmk_bench_run(count_fn, &calls, &c, &st), 0);
	T_EQ_INT(st.samples, 5);
	T_CHECK(st.min_ns > 0);
	T_CHECK(st.min_ns <= st.median_ns);
	T_CHECK(st.median_ns <= st.max_ns);
	T_CHECK(st.ops > 0);
	T_CHECK(calls >= 6); /* warm-up plus five samples */
	T_EQ_INT(pmk_bench_run(NULL, NULL, &c, &st), PMK_EINVAL);
}

static void test_median(void)
{
	double a[] = {5, 1, 3}, b[] = {4, 1, 3, 2};
	T_NEAR(pmk_bench_median(a, 3), 3, 0);
	T_NEAR(pmk_bench_median(b, 4), 2.5, 0);
	T_NEAR(pmk_bench_median(a, 0), 0, 0);
}

static void test_pin_and_clock(void)
{
	int cpu = pmk_bench_pin(-1);
	uint64_t t0 = pmk_bench_now_ns(), t1 = pmk_bench_now_ns();
	T_CHECK(cpu >= 0);
	T_CHECK(t1 >= t0);
	T_CHECK(pmk_bench_pin(1 << 20) < 0);
	pmk_bench_cfg c = quick();
	T_CHECK(pmk_bench_core_ghz(&c, NULL) > 0);
}

/* The two chains are different operations with documented latencies: on
 * any host they must agree within 10 %, or one of them is being folded
 * (an immediate-add chain read 5.87x the real clock on Golden Cove). */
static void test_clock_chains_agree(void)
{
	pmk_bench_cfg c = quick();
	pmk_clock k;
	int rc = pmk_bench_clock(&c, &k);
	T_CHECKF(k.chain1_ghz > 0 && k.chain2_ghz > 0, "chains %g %g",
		 k.chain1_ghz, k.chain2_ghz);
	T_CHECKF(fabs(k.chain1_ghz / k.chain2_ghz - 1) <= 0.10,
		 "%s %.3f GHz vs %s %.3f GHz", k.chain1, k.chain1_ghz, k.chain2,
		 k.chain2_ghz);
	T_CHECK(k.agree);
	T_CHECKF(rc == 0 && !k.refused, "refused: %s", k.why);
	T_CHECK(k.method[0] != 0);
	if (k.counter_ghz <= 0)
		T_NEAR(k.ghz, k.chain1_ghz, 1e-9);
}

/* The plausibility rule, on made-up readings. */
static void test_clock_range(void)
{
	pmk_clock k;
	memset(&k, 0, sizeof k);
	snprintf(k.declared_from, sizeof k.declared_from, "test");
	k.declared_ghz = 2.6;
	k.ghz = 24.6; /* the folded immediate-add chain */
	T_EQ_INT(pmk_bench_clock_check(&k), PMK_ERANGE);
	T_CHECK(k.refused && strstr(k.why, "24.6 GHz"));
	k.ghz = 7.0; /* a folded chain within the absolute range */
	T_EQ_INT(pmk_bench_clock_check(&k), PMK_ERANGE);
	T_CHECKF(strstr(k.why, "2.69x") && strstr(k.why, "(test)"), "%s",
		 k.why);
	k.ghz = 4.19; /* Golden Cove under load, nominal 2.6 */
	T_EQ_INT(pmk_bench_clock_check(&k), 0);
	T_CHECK(!k.refused);
	k.ghz = 0.2; /* 0.077x */
	T_EQ_INT(pmk_bench_clock_check(&k), PMK_ERANGE);
	k.declared_ghz = 0; /* nothing declared: the absolute range only */
	k.ghz = 6.5;
	T_EQ_INT(pmk_bench_clock_check(&k), 0);
	k.ghz = 12;
	T_EQ_INT(pmk_bench_clock_check(&k), PMK_ERANGE);
	T_CHECK(strstr(k.why, "12 GHz") != NULL);
}

static void check_chain(enum pmk_lat_mode mode, size_t stride, size_t range)
{
	pmk_lat_cfg lc;
	pmk_chase *ch;
	pmk_lat_cfg_default(&lc);
	lc.mode = mode;
	lc.stride = stride;
	lc.window_pages = 2;
	T_EQ_INT(pmk_chase_new(&ch, 1u << 20, &lc), 0);
	long n = pmk_chase_build(ch, range);
	long expect = mode == PMK_LAT_STRIDE
			  ? (long)((range - sizeof(void *)) / stride + 1)
			  : (long)(range / stride);
	T_EQ_INT(n, expect);
	/* one cycle through every element: a permutation, not a shorter loop */
	T_EQ_INT(pmk_chase_verify(ch), n);
	pmk_chase_free(ch);
}

static void test_chains_visit_every_element_once(void)
{
	check_chain(PMK_LAT_STRIDE, 64, 4096);
	check_chain(PMK_LAT_STRIDE, 24, 1000);
	check_chain(PMK_LAT_STRIDE, 8, 8);
	check_chain(PMK_LAT_RANDOM, 64, 65536);
	check_chain(PMK_LAT_RANDOM, 64, 65536 + 4096 + 64); /* partial window */
	check_chain(PMK_LAT_RANDOM, 256, 1u << 20);
	check_chain(PMK_LAT_RANDOM_ALL, 64, 300 * 64);
	check_chain(PMK_LAT_RANDOM_ALL, 128, 1u << 20);
}

static void test_chase_times_and_rejects(void)
{
	pmk_chase *ch;
	pmk_bench_cfg c = quick();
	pmk_bench_stat st;
	T_EQ_INT(pmk_chase_new(&ch, 1u << 16, NULL), 0);
	T_EQ_INT(pmk_chase_time(ch, &c, &st), PMK_ESTATE); /* nothing built */
	T_CHECK(pmk_chase_build(ch, 1u << 17) < 0);	   /* beyond the max */
	T_CHECK(pmk_chase_build(ch, 1u << 14) > 0);
	T_EQ_INT(pmk_chase_time(ch, &c, &st), 0);
	T_CHECK(st.min_ns > 0 && st.min_ns <= st.median_ns);
	pmk_chase_free(ch);
	T_CHECK(pmk_chase_new(&ch, 8, NULL) < 0);
}

static void test_bw_ops(void)
{
	pmk_bench_cfg c = quick();
	for (int op = 0; op < PMK_BW_NOPS; op++) {
		pmk_bw_result r;
		const char *name = pmk_bw_op_name(op);
		T_CHECK(name != NULL);
		T_EQ_INT(pmk_bw_op_parse(name), op);
		T_EQ_INT(pmk_bw_run(op, 32768, 1, &c, &r), 0);
		T_CHECK(r.mb_s_median > 0);
		T_CHECK(r.mb_s_max >= r.mb_s_median);
	}
	pmk_bw_result r;
	T_EQ_INT(pmk_bw_run(PMK_BW_RD, 65536, 2, &c, &r), 0);
	T_EQ_INT(r.threads, 2);
	T_CHECK(r.mb_s_median > 0);
	T_EQ_INT(pmk_bw_op_parse("nosuch"), -1);
	T_CHECK(pmk_bw_op_name(PMK_BW_NOPS) == NULL);
	T_EQ_INT(pmk_bw_run(PMK_BW_RD, 100, 1, &c, &r), PMK_EINVAL);
	T_EQ_INT(pmk_bw_run(PMK_BW_NOPS, 4096, 1, &c, &r), PMK_EINVAL);
	T_EQ_INT(pmk_bw_run(PMK_BW_RD, 4096, 0, &c, &r), PMK_EINVAL);
	T_EQ_INT(
	    pmk_bw_run_isa(PMK_BW_RDWR, PMK_BW_ISA_SCALAR, 32768, 1, &c, &r),
	    0);
	T_EQ_INT(r.isa, PMK_BW_ISA_SCALAR);
	T_EQ_INT(pmk_bw_run_isa(PMK_BW_RD, PMK_BW_ISA_N, 4096, 1, &c, &r),
		 PMK_EINVAL);
}

/* Every vector kernel the CPU can run touches every byte: a copy copies
 * all of them, a write writes all of them, a read-modify-write adds one to
 * every 64-bit word (odd sizes of whole 64-byte lines included). */
static void test_bw_vector_kernels_touch_every_byte(void)
{
	static uint64_t src[4160 / 8] __attribute__((aligned(64))),
	    dst[4160 / 8] __attribute__((aligned(64)));
	int ran = 0;
	for (int isa = PMK_BW_ISA_SSE2; isa < PMK_BW_ISA_N; isa++) {
		int64_t acc = 0;
		if (!pmk_bw_isa_supported(isa))
			continue;
		ran++;
		for (size_t i = 0; i < 4160 / 8; i++)
			src[i] = i * 0x9e3779b97f4a7c15ull, dst[i] = 0;
		T_EQ_INT(pmk__bw_simd(isa, PMK__BW_COPY, (char *)dst,
				      (const char *)src, 4160, &acc),
			 0);
		T_CHECKF(memcmp(src, dst, 4160) == 0, "%s copy",
			 pmk_bw_isa_name(isa));
		T_EQ_INT(pmk__bw_simd(isa, PMK__BW_RDWR, (char *)dst, NULL,
				      4160, &acc),
			 0);
		int bad = 0;
		for (size_t i = 0; i < 4160 / 8; i++)
			bad += dst[i] != src[i] + 1;
		T_CHECKF(bad == 0, "%s rdwr: %d words", pmk_bw_isa_name(isa),
			 bad);
		memset(dst, 0, sizeof dst);
		T_EQ_INT(pmk__bw_simd(isa, PMK__BW_WRITE, (char *)dst, NULL,
				      4160, &acc),
			 0);
		bad = 0;
		for (size_t i = 0; i < 4160 / 8; i++)
			bad += dst[i] == 0;
		T_CHECKF(bad == 0, "%s write: %d words", pmk_bw_isa_name(isa),
			 bad);
		T_EQ_INT(pmk__bw_simd(isa, PMK__BW_READ, NULL,
				      (const char *)src, 4160, &acc),
			 0);
	}
	T_CHECK(pmk__bw_simd(PMK_BW_ISA_SCALAR, PMK__BW_READ, NULL,
			     (const char *)src, 64, NULL) < 0);
	T_CHECK(pmk_bw_isa_best() != PMK_BW_ISA_AUTO);
	T_EQ_INT(pmk_bw_isa_parse("avx512"), PMK_BW_ISA_AVX512);
	T_EQ_INT(pmk_bw_isa_parse("mmx"), -1);
	if (!ran)
		T_SKIP("no vector ISA on this CPU");
}

static char *slurp(FILE *f)
{
	long n;
	char *s;
	fflush(f);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = 0;
	return s;
}

static void test_svg(void)
{
	double x[] = {1024, 2048, 4096}, y[] = {1, 2, 100}, y2[] = {1, -1, 3};
	pmk_plot_series se[] = {{"a<b", x, y, 3}, {"neg", x, y2, 3}};
	double mx[] = {2048};
	const char *ml[] = {"L1 & co"};
	pmk_plot p = {"t", "x", "y", 1, 1, se, 2, mx, ml, 1};
	FILE *f = tmpfile();
	T_ASSERT(f != NULL);
	T_EQ_INT(pmk_plot_svg(&p, f), 0);
	char *s = slurp(f);
	T_ASSERT(s != NULL);
	T_CHECK(strncmp(s, "<svg", 4) == 0);
	T_CHECK(strstr(s, "</svg>") != NULL);
	T_CHECK(strstr(s, "a&lt;b") != NULL);	   /* escaped legend */
	T_CHECK(strstr(s, "L1 &amp; co") != NULL); /* escaped marker */
	T_CHECK(strstr(s, "stroke-dasharray") != NULL);
	T_CHECK(strstr(s, "nan") == NULL && strstr(s, "inf") == NULL);
	free(s);
	fclose(f);
}

static void test_probe_writers(void)
{
	pmk_probe p;
	FILE *f = tmpfile();
	size_t sizes[] = {4096, 8192};
	double w[] = {1, 2}, a[] = {1, 3};
	memset(&p, 0, sizeof p);
	T_ASSERT(f != NULL);
	p.ghz = 2;
	p.nlevels = 2;
	p.lv[0] = (pmk_probe_level){.level = 1,
				    .type = "data",
				    .size_bytes = 32768,
				    .line_bytes = 64,
				    .latency_ns = 2,
				    .latency_cycles = 4};
	p.lv[1] = (pmk_probe_level){.level = 2,
				    .type = "unified",
				    .size_bytes = 1 << 20,
				    .line_bytes = 64,
				    .latency_ns = 7,
				    .latency_cycles = 14};
	p.mem_cycles = 400.4;
	p.br_miss_cycles = 15;
	p.fp_add_cycles = 3, p.fp_mul_cycles = 4;
	p.fp_div_cycles = 13, p.fp_sqrt_cycles = 20;
	p.tlb_reach_bytes = 4096 * 64, p.tlb_miss_cycles = 7;
	snprintf(p.cpu_name, sizeof p.cpu_name, "test \"cpu\"");
	p.npts = 2, p.sizes = sizes, p.lat_window = w, p.lat_all = a;
	T_EQ_INT(pmk_probe_write_constants(&p, f), 0);
	char *s = slurp(f);
	T_ASSERT(s != NULL);
	T_CHECK(strstr(s, "\n#define L1_lat 4\n") != NULL);
	T_CHECK(strstr(s, "\n#define L2_lat 14\n") != NULL);
	T_CHECK(strstr(s, "L3_lat") == NULL); /* none found, none declared */
	T_CHECK(strstr(s, "\n#define Mem_lat 400\n") != NULL);
	T_CHECK(strstr(s, "\n#define BR_miss_lat 15\n") != NULL);
	T_CHECK(strstr(s, "\n#define FP_add_sub_mul_lat 4\n") != NULL);
	T_CHECK(strstr(s, "\n#define FP_div_sqrt_lat 20\n") != NULL);
	T_CHECK(strstr(s, "\n#define Data_TLB_lat 7\n") != NULL);
	/* every line is a comment or `#define NAME value` */
	for (char *l = strtok(s, "\n"); l; l = strtok(NULL, "\n")) {
		char name[64];
		double v;
		T_CHECKF(strncmp(l, "# ", 2) == 0 ||
			     sscanf(l, "#define %63s %lf", name, &v) == 2,
			 "bad line '%s'", l);
	}
	free(s);
	fclose(f);

	/* an L3 declared but not found: the file says why L3_lat is missing,
	 * and flags the ambiguous and prefetch-fooled curves */
	f = tmpfile();
	T_ASSERT(f != NULL);
	p.declared_l3_bytes = 32u << 20;
	p.mem_flags = PMK_PROBE_AMBIGUOUS | PMK_PROBE_PREFETCH_TAIL;
	T_EQ_INT(pmk_probe_write_constants(&p, f), 0);
	s = slurp(f);
	T_ASSERT(s != NULL);
	T_CHECK(strstr(s, "\n# L3_lat: not written: ") != NULL);
	T_CHECK(strstr(s, "\n#define L3_lat") == NULL);
	T_CHECK(strstr(s, "\n# Ambiguous curve: ") != NULL);
	T_CHECK(strstr(s, "\n# Prefetch-fooled tail: ") != NULL);
	free(s);
	fclose(f);
	/* a fallback L3 is written, with the rule in a comment */
	f = tmpfile();
	T_ASSERT(f != NULL);
	p.lv[2] = p.lv[1];
	p.lv[2].level = 3;
	p.lv[2].latency_cycles = 40;
	p.lv[2].flags = PMK_PROBE_LEVEL_FALLBACK;
	snprintf(p.lv[2].why, sizeof p.lv[2].why, "fallback rule");
	p.nlevels = 3;
	T_EQ_INT(pmk_probe_write_constants(&p, f), 0);
	s = slurp(f);
	T_ASSERT(s != NULL);
	T_CHECK(strstr(s, "\n# L3_lat: fallback rule.\n#define L3_lat 40\n"));
	free(s);
	fclose(f);
	p.nlevels = 2;

	f = tmpfile();
	T_ASSERT(f != NULL);
	T_EQ_INT(pmk_probe_write_json(&p, f), 0);
	s = slurp(f);
	T_ASSERT(s != NULL);
	T_CHECK(strstr(s, "\"levels\":[{\"level\":1,\"type\":\"data\","
			  "\"size_bytes\":32768,\"line_bytes\":64,"
			  "\"latency_ns\":2.0000,\"latency_cycles\":4.00,"
			  "\"declared_size_bytes\":0") != NULL);
	T_CHECK(strstr(s, "test \\\"cpu\\\"") != NULL);
	free(s);
	fclose(f);
}

int main(void)
{
	T_RUN(test_run_statistics);
	T_RUN(test_median);
	T_RUN(test_pin_and_clock);
	T_RUN(test_clock_chains_agree);
	T_RUN(test_clock_range);
	T_RUN(test_chains_visit_every_element_once);
	T_RUN(test_chase_times_and_rejects);
	T_RUN(test_bw_ops);
	T_RUN(test_bw_vector_kernels_touch_every_byte);
	T_RUN(test_svg);
	T_RUN(test_probe_writers);
	return t_done();
}
