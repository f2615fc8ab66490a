/*
 * test_membuf.c: the DRAM interface buffer model, request by request:
 * write merge and collapse, read merge, the read buffer and read-ahead,
 * the watermark, a full buffer, read-around-write, the DRAM timing, bad
 * input; and the generated patterns with the Addies beside exact ratios.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/addie.h"
#include "pmkit/sim.h"
#include "tests/support/t.h"

static pmk_membuf *mk(unsigned wm, int ra, int raw)
{
	pmk_membuf_config c;
	pmk_membuf_config_default(&c);
	c.watermark = wm;
	c.read_ahead = ra;
	c.read_around_write = raw;
	return pmk_membuf_new(&c, NULL);
}

static int acc(pmk_membuf *m, uint32_t addr, unsigned size, int write,
	       unsigned gap)
{
	pmk_mem_access a = {addr, (uint8_t)size, (uint8_t)write, (uint16_t)gap};
	return pmk_membuf_access(m, &a);
}

static void test_write_merge_and_collapse(void)
{
	pmk_membuf *m = mk(16, 0, 1);
	const pmk_membuf_stats *s;
	T_ASSERT(m != NULL);
	s = pmk_membuf_stats_get(m);
	T_EQ_INT(acc(m, 0x100, 1, 1, 1), 0); /* new entry */
	T_EQ_INT(acc(m, 0x101, 1, 1, 1), 0); /* same word, new byte: merge */
	T_EQ_INT(acc(m, 0x100, 2, 1, 1), 0); /* bytes again: collapse */
	T_EQ_INT(acc(m, 0x104, 4, 1, 1), 0); /* next word: new entry */
	T_EQ_INT(s->writes, 4);
	T_EQ_INT(s->wb_hits, 2);
	T_EQ_INT(s->wb_merges, 1);
	T_EQ_INT(s->wb_collapses, 1);
	T_EQ_INT(s->dram_writes, 0); /* below the watermark: nothing goes */
	T_NEAR(pmk_membuf_exact(m, PMK_MEMBUF_WB_HIT), 0.5, 1e-12);
	T_CHECK(isnan(pmk_membuf_exact(m, PMK_MEMBUF_RB_HIT)));
	pmk_membuf_flush(m);
	T_EQ_INT(s->dram_writes, 2);
	pmk_membuf_free(m);
}

static void test_read_merge(void)
{
	pmk_membuf *m = mk(16, 0, 1);
	const pmk_membuf_stats *s = pmk_membuf_stats_get(m);
	acc(m, 0x202, 2, 1, 1); /* bytes 2-3 of word 0x200 */
	acc(m, 0x200, 1, 0, 1); /* byte 0: no overlap */
	T_EQ_INT(s->read_merges, 0);
	acc(m, 0x203, 1, 0, 1); /* byte 3: merged from the buffer */
	T_EQ_INT(s->read_merges, 1);
	acc(m, 0x200, 16, 0, 1); /* the whole line */
	T_EQ_INT(s->read_merges, 2);
	T_NEAR(pmk_membuf_exact(m, PMK_MEMBUF_READ_MERGE), 2.0 / 3, 1e-12);
	pmk_membuf_free(m);
}

/* Exact DRAM timing: a closed row costs t_row_miss + 4 words, an open
 * one t_row_hit + 4 words; read-buffer hits cost nothing. */
static void test_read_buffer_and_timing(void)
{
	pmk_membuf *m = mk(16, 0, 1);
	const pmk_membuf_stats *s = pmk_membuf_stats_get(m);
	acc(m, 0x1000, 4, 0, 1); /* miss, row closed: 6 + 4 */
	T_EQ_INT(s->read_stall_cycles, 10);
	acc(m, 0x1004, 4, 0, 1); /* hit */
	T_EQ_INT(s->read_stall_cycles, 10);
	acc(m, 0x1010, 4, 0, 1); /* miss, same row: 2 + 4 */
	T_EQ_INT(s->read_stall_cycles, 16);
	acc(m, 0x100c, 4, 0, 1); /* hit: both lines held */
	acc(m, 0x1020, 4, 0, 1); /* miss: evicts 0x1010 (LRU) */
	acc(m, 0x1000, 4, 0, 1); /* still there */
	acc(m, 0x1014, 4, 0, 1); /* evicted: miss */
	T_EQ_INT(s->reads, 7);
	T_EQ_INT(s->rb_hits, 3);
	T_EQ_INT(s->dram_reads, 4);
	T_EQ_INT(s->row_misses, 1);
	T_EQ_INT(s->row_hits, 3);
	T_EQ_INT(s->cycles, 7 + 10 + 6 + 6 + 6);
	pmk_membuf_free(m);
}

static void test_read_ahead(void)
{
	pmk_membuf *m = mk(16, 1, 1);
	const pmk_membuf_stats *s = pmk_membuf_stats_get(m);
	acc(m, 0x1000, 4, 0, 1);    /* miss; prefetch 0x1010 */
	acc(m, 0x1010, 4, 0, 50);   /* hit on the prefetched line */
	T_EQ_INT(s->prefetches, 2); /* and 0x1020 is fetched */
	T_EQ_INT(s->prefetch_used, 1);
	T_EQ_INT(s->rb_hits, 1);
	T_EQ_INT(s->dram_reads, 1);
	T_EQ_INT(s->read_stall_cycles, 10); /* the hit did not wait */
	/* a hit on a line still in flight waits for it */
	acc(m, 0x1020, 4, 0, 0);
	T_EQ_INT(s->rb_hits, 2);
	T_CHECK(s->read_stall_cycles > 10);
	pmk_membuf_free(m);
}

/* At the watermark, the buffer drains (in the background) until below. */
static void test_watermark(void)
{
	pmk_membuf *m = mk(4, 0, 1);
	const pmk_membuf_stats *s = pmk_membuf_stats_get(m);
	for (uint32_t i = 0; i < 3; i++)
		acc(m, 0x100 + 4 * i, 4, 1, 0);
	acc(m, 0x2000, 4, 0, 100); /* an unrelated read much later */
	T_EQ_INT(s->dram_writes, 0);
	acc(m, 0x10c, 4, 1, 0); /* the 4th entry reaches the watermark */
	acc(m, 0x2004, 4, 0, 100);
	T_EQ_INT(s->dram_writes, 1); /* drained to 3 entries, then stop */
	T_EQ_INT(s->write_stall_cycles, 0);
	pmk_membuf_free(m);
}

static void test_full_buffer(void)
{
	pmk_membuf *m = mk(32, 0, 1);
	const pmk_membuf_stats *s = pmk_membuf_stats_get(m);
	for (uint32_t i = 0; i < 32; i++)
		acc(m, 0x400 + 4 * i, 4, 1, 0);
	T_EQ_INT(s->wb_full, 0);
	/* the 32nd write reached the watermark: the drain runs from then on,
	 * so a 33rd write at once finds the buffer full and waits */
	acc(m, 0x800, 4, 1, 0);
	T_EQ_INT(s->wb_full, 1);
	T_CHECK(s->write_stall_cycles > 0);
	T_NEAR(pmk_membuf_exact(m, PMK_MEMBUF_WB_FULL), 1.0 / 33, 1e-12);
	pmk_membuf_free(m);
}

/* Reads pass queued writes below the watermark; without
 * read-around-write a read miss first drains the buffer. */
static void test_read_around_write(void)
{
	pmk_membuf *a = mk(32, 0, 1), *b = mk(32, 0, 0);
	for (uint32_t i = 0; i < 10; i++) {
		acc(a, 0x800 + 4 * i, 4, 1, 0);
		acc(b, 0x800 + 4 * i, 4, 1, 0);
	}
	acc(a, 0x9000, 4, 0, 1);
	acc(b, 0x9000, 4, 0, 1);
	T_EQ_INT(pmk_membuf_stats_get(a)->dram_writes, 0);
	T_EQ_INT(pmk_membuf_stats_get(a)->read_stall_cycles, 10);
	T_EQ_INT(pmk_membuf_stats_get(b)->dram_writes, 10);
	/* 10 writes (row miss + 9 row hits) then the read */
	T_EQ_INT(pmk_membuf_stats_get(b)->read_stall_cycles,
		 (6 + 1) + 9 * (2 + 1) + (6 + 4));
	pmk_membuf_free(a);
	pmk_membuf_free(b);
}

static void test_bad_input(void)
{
	pmk_membuf_config c;
	int err = 0;
	pmk_membuf *m = mk(16, 0, 1);
	T_EQ_INT(acc(m, 0x100, 3, 0, 1), PMK_EINVAL);
	T_EQ_INT(acc(m, 0x101, 2, 0, 1), PMK_EINVAL);
	T_EQ_INT(acc(m, 0x102, 4, 1, 1), PMK_EINVAL);
	T_EQ_INT(acc(m, 0x108, 16, 0, 1), PMK_EINVAL);
	T_EQ_INT(pmk_membuf_stats_get(m)->reads, 0);
	pmk_membuf_free(m);
	pmk_membuf_config_default(&c);
	c.watermark = 0;
	T_CHECK(pmk_membuf_new(&c, &err) == NULL);
	T_EQ_INT(err, PMK_EINVAL);
	c.watermark = 33;
	T_CHECK(pmk_membuf_new(&c, &err) == NULL);
	pmk_membuf_config_default(&c);
	c.select[1] = 9;
	T_CHECK(pmk_membuf_new(&c, &err) == NULL);
	pmk_membuf_config_default(&c);
	c.addie.bits = 20;
	T_CHECK(pmk_membuf_new(&c, &err) == NULL);
}

static void test_patterns(void)
{
	enum { N = 20000 };
	static pmk_mem_access a[N], b[N];
	int n = pmk_mempattern_count();
	T_CHECK(n >= 5);
	T_EQ_INT(pmk_mempattern_find("mixed"), 0);
	T_EQ_INT(pmk_mempattern_find("nosuch"), PMK_ENOENT);
	T_EQ_INT(pmk_mempattern_generate(n, 1, a, N), PMK_EINVAL);
	for (int p = 0; p < n; p++) {
		pmk_membuf *m = mk(16, p & 1, 1);
		int bad = 0;
		T_EQ_INT(pmk_mempattern_find(pmk_mempattern_name(p)), p);
		pmk_mempattern_generate(p, 7, a, N);
		pmk_mempattern_generate(p, 7, b, N);
		T_CHECK(memcmp(a, b, sizeof a) == 0);
		for (int i = 0; i < N; i++)
			bad += pmk_membuf_access(m, &a[i]) != 0;
		T_EQ_INT(bad, 0);
		pmk_membuf_free(m);
	}
}

/* The two Addies behind the multiplexer read close to the exact ratios. */
static void test_addies_track_exact(void)
{
	enum { N = 100000 };
	static pmk_mem_access a[N];
	pmk_membuf_config c;
	pmk_membuf *m;
	pmk_mempattern_generate(pmk_mempattern_find("stack"), 3, a, N);
	pmk_membuf_config_default(&c);
	c.select[0] = PMK_MEMBUF_WB_HIT;
	c.select[1] = PMK_MEMBUF_READ_MERGE;
	m = pmk_membuf_new(&c, NULL);
	T_ASSERT(m != NULL);
	for (int i = 0; i < N; i++)
		pmk_membuf_access(m, &a[i]);
	for (int u = 0; u < 2; u++) {
		pmk_addie_reading r;
		pmk_addie_watch_read(&pmk_membuf_mux(m)->unit[u], &r);
		T_CHECK(r.events > 10000);
		T_NEAR(r.exact, pmk_membuf_exact(m, c.select[u]), 1e-12);
		T_NEAR(r.addie, r.exact, 0.08);
	}
	pmk_membuf_free(m);
}

/* Instructions -> bus requests: one per word touched, sub-word pieces as
 * 1/2/4-byte requests when they form one, gaps of one per instruction. */
static void test_requests_from_trace(void)
{
	pmk_trace_writer *w;
	pmk_trace_reader *r;
	pmk_diag d;
	pmk_sim_insn in[4];
	pmk_mem_access req[16];
	const void *buf;
	uint64_t size;
	size_t n = 0;
	memset(in, 0, sizeof in);
	for (int i = 0; i < 4; i++) {
		in[i].pc = 0x1000 + 4 * (uint64_t)i;
		in[i].len = 4;
		in[i].op = PMK_SIM_OP_INT;
	}
	in[1].op = PMK_SIM_OP_LOAD; /* 8 bytes at 0x102: 2 + 4 + 2 */
	in[1].nmem = 1;
	in[1].mem[0] = (pmk_sim_mem){0x100000102ull, 8, 0};
	in[3].op = PMK_SIM_OP_STORE; /* 3 bytes at 0x201: whole word */
	in[3].nmem = 1;
	in[3].mem[0] = (pmk_sim_mem){0x201, 3, 1};
	pmk_diag_clear(&d);
	T_ASSERT(pmk_trace_create_mem(&w) == 0);
	for (int i = 0; i < 4; i++)
		T_ASSERT(pmk_trace_write(w, &in[i]) == 0);
	buf = pmk_trace_writer_buffer(w, &size);
	T_CHECKF(pmk_trace_open_mem(&r, buf, size, PMK_TRACE_AUTO, &d) == 0,
		 "%s", d.message);
	T_ASSERT(r != NULL);
	T_EQ_INT(pmk_mem_from_insns(pmk_trace_next, r, req, 16, &n), 0);
	T_EQ_INT(n, 4);
	T_EQ_U64(req[0].addr, 0x102);
	T_EQ_INT(req[0].size, 2);
	T_EQ_INT(req[0].gap, 2);
	T_EQ_U64(req[1].addr, 0x104);
	T_EQ_INT(req[1].size, 4);
	T_EQ_INT(req[1].gap, 0);
	T_EQ_U64(req[2].addr, 0x108);
	T_EQ_INT(req[2].size, 2);
	T_EQ_U64(req[3].addr, 0x200);
	T_EQ_INT(req[3].size, 4);
	T_EQ_INT(req[3].write, 1);
	T_EQ_INT(req[3].gap, 2);
	for (size_t i = 0; i < n; i++) {
		pmk_membuf *m = mk(16, 0, 1);
		T_EQ_INT(pmk_membuf_access(m, &req[i]), 0);
		pmk_membuf_free(m);
	}
	pmk_trace_close(r);
	/* a cap stops early */
	T_ASSERT(pmk_trace_open_mem(&r, buf, size, PMK_TRACE_AUTO, &d) == 0);
	T_EQ_INT(pmk_mem_from_insns(pmk_trace_next, r, req, 2, &n), 0);
	T_EQ_INT(n, 2);
	pmk_trace_close(r);
	/* a truncated trace: the reader's error comes back */
	T_ASSERT(pmk_trace_open_mem(&r, buf, size - 3, PMK_TRACE_AUTO, &d) ==
		 0);
	T_CHECK(pmk_mem_from_insns(pmk_trace_next, r, req, 16, &n) < 0);
	pmk_trace_close(r);
	pmk_trace_finish(w);
}

/* Random requests and configurations: every request is taken or refused
 * with PMK_EINVAL, and the tallies add up. */
static void test_random_requests(void)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	for (int round = 0; round < 20; round++) {
		pmk_membuf_config c;
		pmk_membuf *m;
		uint64_t taken = 0;
		pmk_membuf_config_default(&c);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		c.wb_words = 1 + (unsigned)(x % 64);
		c.watermark = 1 + (unsigned)((x >> 8) % c.wb_words);
		c.read_ahead = (x >> 20) & 1;
		c.read_around_write = (x >> 21) & 1;
		c.banks = 1 + (unsigned)((x >> 24) % 16);
		c.row_bytes = 16u << ((x >> 30) % 8);
		m = pmk_membuf_new(&c, NULL);
		T_ASSERT(m != NULL);
		for (int i = 0; i < 5000; i++) {
			pmk_mem_access a;
			int rc;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			a.addr = (uint32_t)x & (i & 1 ? 0xfffu : 0xffffffffu);
			a.size = (uint8_t)((x >> 32) % 20);
			a.write = (uint8_t)((x >> 40) & 1);
			a.gap = (uint16_t)((x >> 48) % 12);
			rc = pmk_membuf_access(m, &a);
			T_ASSERT(rc == 0 || rc == PMK_EINVAL);
			taken += rc == 0;
		}
		{
			const pmk_membuf_stats *st = pmk_membuf_stats_get(m);
			T_EQ_U64(st->reads + st->writes, taken);
			T_CHECK(st->rb_hits <= st->reads);
			T_CHECK(st->wb_hits <= st->writes);
			T_CHECK(st->wb_full <= st->writes);
			pmk_membuf_flush(m);
			T_CHECK(st->dram_writes <= 4 * st->writes);
		}
		pmk_membuf_free(m);
	}
}

int main(void)
{
	T_RUN(test_write_merge_and_collapse);
	T_RUN(test_read_merge);
	T_RUN(test_read_buffer_and_timing);
	T_RUN(test_read_ahead);
	T_RUN(test_watermark);
	T_RUN(test_full_buffer);
	T_RUN(test_read_around_write);
	T_RUN(test_bad_input);
	T_RUN(test_patterns);
	T_RUN(test_addies_track_exact);
	T_RUN(test_requests_from_trace);
	T_RUN(test_random_requests);
	return t_done();
}
