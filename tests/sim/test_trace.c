/*
 * test_trace.c: the trace format round-trips every field, rejects malformed
 * input with an error (never a crash), and ChampSim records are imported
 * with the right op classes, lengths and targets.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit/sim.h"
#include "tests/support/t.h"

static int same(const pmk_sim_insn *a, const pmk_sim_insn *b)
{
	if (a->pc != b->pc || a->op != b->op || a->len != b->len ||
	    a->taken != b->taken || a->kernel != b->kernel ||
	    a->nsrc != b->nsrc || a->ndst != b->ndst || a->nmem != b->nmem)
		return 0;
	if (pmk_sim_op_is_branch(a->op) && a->target != b->target)
		return 0;
	for (int i = 0; i < a->nsrc; i++)
		if (a->src[i] != b->src[i])
			return 0;
	for (int i = 0; i < a->ndst; i++)
		if (a->dst[i] != b->dst[i])
			return 0;
	for (int i = 0; i < a->nmem; i++)
		if (a->mem[i].addr != b->mem[i].addr ||
		    a->mem[i].size != b->mem[i].size ||
		    a->mem[i].store != b->mem[i].store)
			return 0;
	return 1;
}

static void test_roundtrip_workloads(void)
{
	const char *specs[] = {"int-mix:n=20000", "kernel-mix:n=20000",
			       "stream:n=5000", "pointer-chase:n=5000"};
	for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
		pmk_workload *w, *w2;
		pmk_trace_writer *tw;
		pmk_trace_reader *tr;
		pmk_sim_insn a, b;
		uint64_t size, n = 0;
		const void *buf;
		int rc, bad = 0;
		T_ASSERT(pmk_workload_new(&w, specs[k], NULL) == 0);
		T_ASSERT(pmk_trace_create_mem(&tw) == 0);
		while (pmk_workload_next(w, &a) == 1) {
			T_ASSERT(pmk_trace_write(tw, &a) == 0);
			n++;
		}
		buf = pmk_trace_writer_buffer(tw, &size);
		/* compact: well under the 64 bytes of a ChampSim record */
		T_CHECKF((double)size / (double)n < 12, "%s: %.1f bytes/insn",
			 specs[k], (double)size / (double)n);
		T_ASSERT(pmk_trace_open_mem(&tr, buf, size, PMK_TRACE_AUTO,
					    NULL) == 0);
		T_ASSERT(pmk_workload_new(&w2, specs[k], NULL) == 0);
		while ((rc = pmk_trace_read(tr, &b)) == 1) {
			T_ASSERT(pmk_workload_next(w2, &a) == 1);
			bad += !same(&a, &b);
		}
		T_EQ_INT(rc, 0);
		T_EQ_INT(bad, 0);
		T_EQ_U64(pmk_trace_count(tr), n);
		pmk_trace_close(tr);
		pmk_trace_finish(tw);
		pmk_workload_free(w);
		pmk_workload_free(w2);
	}
}

static void test_file_roundtrip_and_truncation(void)
{
	char path[] = "/tmp/pmk_trace_XXXXXX";
	int fd = mkstemp(path);
	pmk_trace_writer *tw;
	pmk_trace_reader *tr;
	pmk_workload *w;
	pmk_sim_insn a;
	pmk_diag d;
	long n = 0;
	FILE *f;
	T_ASSERT(fd >= 0);
	T_ASSERT(pmk_trace_create(&tw, path, &d) == 0);
	T_ASSERT(pmk_workload_new(&w, "branchy:n=30000", NULL) == 0);
	while (pmk_workload_next(w, &a) == 1)
		T_ASSERT(pmk_trace_write(tw, &a) == 0);
	T_EQ_INT(pmk_trace_finish(tw), 0);
	T_ASSERT(pmk_trace_open(&tr, path, PMK_TRACE_AUTO, &d) == 0);
	while (pmk_trace_read(tr, &a) == 1)
		n++;
	T_EQ_INT(n, 30000);
	pmk_trace_close(tr);
	/* cut the file in the middle of a record */
	f = fopen(path, "rb+");
	T_ASSERT(f != NULL);
	fseek(f, 0, SEEK_END);
	/* by name: the trace replaced the mkstemp file (kept as .old) */
	T_ASSERT(ftruncate(fileno(f), ftell(f) - 3) == 0);
	fclose(f);
	T_ASSERT(pmk_trace_open(&tr, path, PMK_TRACE_AUTO, &d) == 0);
	int rc;
	while ((rc = pmk_trace_read(tr, &a)) == 1)
		;
	T_EQ_INT(rc, PMK_EFORMAT);
	T_CHECK(strstr(pmk_trace_diag(tr)->message, "truncated") != NULL);
	pmk_trace_close(tr);
	close(fd);
	unlink(path);
	{
		char old[sizeof path + 4];
		snprintf(old, sizeof old, "%s.old", path);
		unlink(old);
	}
	pmk_workload_free(w);
}

static void test_rejects_bad_headers_and_fields(void)
{
	pmk_trace_reader *tr;
	pmk_trace_writer *tw;
	pmk_diag d;
	pmk_sim_insn a;
	uint8_t hdr[16] = "PMKTRACE";
	T_EQ_INT(pmk_trace_open_mem(&tr, "hello", 5, PMK_TRACE_AUTO, &d),
		 PMK_EFORMAT);
	hdr[8] = 9; /* version 9 */
	T_EQ_INT(pmk_trace_open_mem(&tr, hdr, 16, PMK_TRACE_AUTO, &d),
		 PMK_EVERSION);
	T_CHECK(strstr(d.message, "version 9") != NULL);
	/* a record with op class 15 */
	uint8_t bad[20] = "PMKTRACE\1\0\0\0\0\0\0\0";
	bad[16] = 0x4f;
	bad[17] = 4;
	bad[18] = 0;
	T_ASSERT(pmk_trace_open_mem(&tr, bad, 19, PMK_TRACE_AUTO, &d) == 0);
	T_EQ_INT(pmk_trace_read(tr, &a), PMK_EFORMAT);
	pmk_trace_close(tr);
	/* the writer refuses out-of-range fields */
	T_ASSERT(pmk_trace_create_mem(&tw) == 0);
	memset(&a, 0, sizeof a);
	a.op = PMK_SIM_OP_INT;
	a.len = 0;
	T_EQ_INT(pmk_trace_write(tw, &a), PMK_EINVAL);
	a.len = 4;
	a.nsrc = 1; /* register 0 */
	T_EQ_INT(pmk_trace_write(tw, &a), PMK_EINVAL);
	a.nsrc = 0;
	a.taken = 1; /* taken non-branch */
	T_EQ_INT(pmk_trace_write(tw, &a), PMK_EINVAL);
	pmk_trace_finish(tw);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void test_champsim_import(void)
{
	uint8_t recs[6][64];
	pmk_trace_reader *tr;
	pmk_sim_insn o[6];
	memset(recs, 0, sizeof recs);
	/* 0: load at 0x1000 (3 bytes), reads r1 and [0x8000] */
	put64(recs[0], 0x1000);
	recs[0][12] = 1;
	recs[0][10] = 2;
	put64(recs[0] + 32, 0x8000);
	/* 1: store at 0x1003 (4 bytes) */
	put64(recs[1], 0x1003);
	put64(recs[1] + 16, 0x9000);
	/* 2: conditional branch taken to 0x2000: reads flags+ip, writes ip */
	put64(recs[2], 0x1007);
	recs[2][8] = 1;
	recs[2][9] = 1;
	recs[2][12] = 25;
	recs[2][13] = 26;
	recs[2][10] = 26;
	/* 3: call at 0x2000 to 0x3000: reads sp, ip; writes sp, ip */
	put64(recs[3], 0x2000);
	recs[3][8] = 1;
	recs[3][9] = 1;
	recs[3][12] = 6;
	recs[3][13] = 26;
	recs[3][10] = 6;
	recs[3][11] = 26;
	/* 4: return at 0x3000 to 0x2005: reads sp, writes sp and ip */
	put64(recs[4], 0x3000);
	recs[4][8] = 1;
	recs[4][9] = 1;
	recs[4][12] = 6;
	recs[4][10] = 6;
	recs[4][11] = 26;
	/* 5: ALU at 0x2005 */
	put64(recs[5], 0x2005);
	recs[5][12] = 3;
	T_ASSERT(pmk_trace_open_mem(&tr, recs, sizeof recs, PMK_TRACE_CHAMPSIM,
				    NULL) == 0);
	for (int i = 0; i < 6; i++)
		T_ASSERT(pmk_trace_read(tr, &o[i]) == 1);
	T_EQ_INT(pmk_trace_read(tr, &o[0]), 0);
	T_EQ_INT(o[0].op, PMK_SIM_OP_LOAD);
	T_EQ_INT(o[0].len, 3);
	T_EQ_U64(o[0].mem[0].addr, 0x8000);
	T_EQ_INT(o[1].op, PMK_SIM_OP_STORE);
	T_EQ_INT(o[1].mem[0].store, 1);
	T_EQ_INT(o[2].op, PMK_SIM_OP_BCOND);
	T_EQ_INT(o[2].taken, 1);
	T_EQ_U64(o[2].target, 0x2000);
	T_EQ_INT(o[3].op, PMK_SIM_OP_CALL);
	T_EQ_U64(o[3].target, 0x3000);
	T_EQ_INT(o[4].op, PMK_SIM_OP_RET);
	T_EQ_U64(o[4].target, 0x2005);
	T_EQ_INT(o[5].op, PMK_SIM_OP_INT);
	pmk_trace_close(tr);
	/* 100 bytes: one record then a truncated one */
	T_ASSERT(pmk_trace_open_mem(&tr, recs, 100, PMK_TRACE_CHAMPSIM, NULL) ==
		 0);
	T_EQ_INT(pmk_trace_read(tr, &o[0]), PMK_EFORMAT);
	pmk_trace_close(tr);
}

static void test_workload_specs(void)
{
	pmk_workload *w;
	pmk_diag d;
	T_EQ_INT(pmk_workload_new(&w, "nosuch", &d), PMK_ENOENT);
	T_EQ_INT(pmk_workload_new(&w, "int-mix:n=5,bogus=1", &d), PMK_ESYNTAX);
	T_EQ_INT(d.column, 13);
	T_EQ_INT(pmk_workload_new(&w, "int-mix:n=x", &d), PMK_ESYNTAX);
	T_EQ_INT(pmk_workload_new(&w, "int-mix:predict=2", &d), PMK_ERANGE);
	T_ASSERT(pmk_workload_new(&w, "icache:n=1000,seed=3", &d) == 0);
	pmk_workload_free(w);
}

int main(void)
{
	T_RUN(test_roundtrip_workloads);
	T_RUN(test_file_roundtrip_and_truncation);
	T_RUN(test_rejects_bad_headers_and_fields);
	T_RUN(test_champsim_import);
	T_RUN(test_workload_specs);
	return t_done();
}
