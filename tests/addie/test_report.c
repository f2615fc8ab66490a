/*
 * test_report.c: the experiments `pmkit addie` reports, as library
 * functions (sim/addie/report.h): the settle statistics against a naive
 * reference built from pmk_addie_settle, and the membuf observation and
 * advice on patterns whose answer is known.
 */
#include <math.h>
#include <stdlib.h>

#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"
#include "tests/support/t.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The statistics equal those of the settle counts computed one by one,
 * sorted, with the quantiles interpolated by hand. */
static void test_settle_stats_reference(void)
{
	enum { N = 40 };
	pmk_addie_config c;
	pmk_addie_settle_stats s;
	uint64_t got[N], ref[N], limit;
	double mean = 0;
	uint64_t never = 0;
	pmk_addie_config_default(&c);
	c.bits = 6;
	limit = 200ull << c.bits;
	for (int i = 0; i < N; i++) {
		pmk_addie_config ci = c;
		ci.seed = (uint32_t)(pmk__seed_mix((uint64_t)i) & 0x7fffffffu);
		ref[i] = pmk_addie_settle(&ci, 64, (uint64_t)i + 1000000, 0.05,
					  limit);
		mean += (double)ref[i];
		never += ref[i] == limit;
	}
	qsort(ref, N, sizeof *ref, cmp);
	T_EQ_INT(pmk_addie_settle_stats_run(&c, 64, N, 0.05, got, &s), 0);
	for (int i = 0; i < N; i++)
		T_EQ_U64(got[i], ref[i]);
	T_EQ_U64(s.min, ref[0]);
	T_EQ_U64(s.max, ref[N - 1]);
	T_EQ_U64(s.never, never);
	T_NEAR(s.mean, mean / N, 1e-9);
	/* median of 40: halfway between the 20th and 21st */
	T_NEAR(s.median, (ref[19] + ref[20]) / 2.0, 1e-9);
	/* q1 at 9.75: three quarters of the way from ref[9] to ref[10] */
	T_NEAR(s.q1, ref[9] * 0.25 + ref[10] * 0.75, 1e-9);
	T_CHECK(s.p10 <= s.q1 && s.q1 <= s.median && s.median <= s.q3 &&
		s.q3 <= s.p90);
	T_CHECK(s.within500 >= 0 && s.within500 <= 1);
	T_CHECK(s.err500 >= 0 && s.err500 < 1);
	/* without a buffer for the counts: the same statistics */
	{
		pmk_addie_settle_stats s2;
		T_EQ_INT(pmk_addie_settle_stats_run(&c, 64, N, 0.05, NULL, &s2),
			 0);
		T_NEAR(s2.median, s.median, 0);
		T_NEAR(s2.err500, s.err500, 0);
	}
	T_EQ_INT(pmk_addie_settle_stats_run(&c, 64, 0, 0.05, NULL, &s),
		 PMK_EINVAL);
}

/* A sequential read pattern: read-ahead is advised on, the first step says
 * so, every step lowers, raises or keeps the watermark as it says, and the
 * advice ends on a "keep". */
static void test_advise_seqread(void)
{
	enum { N = 20000 };
	pmk_mem_access *req = calloc(N, sizeof *req);
	pmk_membuf_config c;
	pmk_membuf_step st[PMK_MEMBUF_MAX_STEPS];
	pmk_membuf_obs off, on;
	unsigned wm;
	int ra, n, p = pmk_mempattern_find("seqread");
	T_ASSERT(req && p >= 0);
	pmk_mempattern_generate(p, 1, req, N);
	pmk_membuf_config_default(&c);
	c.read_ahead = 0;
	T_EQ_INT(pmk_membuf_observe(&c, req, N, &off), 0);
	c.read_ahead = 1;
	T_EQ_INT(pmk_membuf_observe(&c, req, N, &on), 0);
	T_CHECK(on.exact[PMK_MEMBUF_RB_HIT] > off.exact[PMK_MEMBUF_RB_HIT]);
	T_EQ_U64(off.events[PMK_MEMBUF_WB_HIT], 0); /* no writes: no reading */
	T_CHECK(isnan(off.addie[PMK_MEMBUF_WB_HIT]));
	pmk_membuf_config_default(&c);
	T_EQ_INT(pmk_membuf_advise(&c, req, N, st, &n, &wm, &ra), 0);
	T_EQ_INT(ra, 1);
	T_ASSERT(n >= 2);
	T_EQ_INT(st[0].kind, PMK_ADVISE_READ_AHEAD);
	T_EQ_INT(st[0].read_ahead, 1);
	T_CHECK(st[0].v[1] - st[0].v[0] >= 0.05);
	for (int i = 1; i + 1 < n; i++) {
		unsigned next = st[i + 1].watermark;
		if (st[i].kind == PMK_ADVISE_LOWER)
			T_EQ_INT(next, st[i].watermark / 2);
		else
			T_EQ_INT(st[i].kind, PMK_ADVISE_RAISE);
		if (st[i].kind == PMK_ADVISE_RAISE)
			T_EQ_INT(next, st[i].higher);
	}
	T_CHECK(st[n - 1].kind == PMK_ADVISE_KEEP ||
		st[n - 1].kind == PMK_ADVISE_KEEP_FILLS ||
		st[n - 1].kind == PMK_ADVISE_KEEP_LITTLE);
	T_EQ_INT(wm, st[n - 1].watermark);
	T_CHECK(wm >= 1 && wm <= c.wb_words);
	free(req);
}

/* A pattern of writes that fill the buffer: the watermark is lowered. */
static void test_advise_lowers_when_full(void)
{
	enum { N = 20000 };
	pmk_mem_access *req = calloc(N, sizeof *req);
	pmk_membuf_config c;
	pmk_membuf_step st[PMK_MEMBUF_MAX_STEPS];
	unsigned wm;
	int ra, n, lowered = 0;
	T_ASSERT(req);
	for (int i = 0; i < N; i++) { /* writes to new lines, back to back */
		req[i].addr = (uint32_t)i * 64u;
		req[i].size = 4;
		req[i].write = 1;
		req[i].gap = 0;
	}
	pmk_membuf_config_default(&c);
	T_EQ_INT(pmk_membuf_advise(&c, req, N, st, &n, &wm, &ra), 0);
	for (int i = 0; i < n; i++)
		lowered |= st[i].kind == PMK_ADVISE_LOWER;
	T_CHECKF(lowered || st[n - 1].kind == PMK_ADVISE_KEEP_FILLS,
		 "%d steps, last kind %d", n, st[n - 1].kind);
	T_CHECK(wm <= c.wb_words / 2);
	free(req);
}

int main(void)
{
	T_RUN(test_settle_stats_reference);
	T_RUN(test_advise_seqread);
	T_RUN(test_advise_lowers_when_full);
	return t_done();
}
