/*
 * test_mpijob.c: the job records of libpmkit-mpi without MPI: statistics
 * over ranks against a direct computation, the JSON written and read back,
 * the reader's refusals, and the careful copy of region names.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mpi/job.h"
#include "mpi/rank.h"
#include "pmkit.h"
#include "tests/support/t.h"

/* A job of 5 ranks, rank 3 missing, with one event and calls. */
static void make_job(struct pmk__mpi_job *job)
{
	static const uint64_t wall[5] = {100, 200, 300, 0, 500};
	static const uint64_t mpi[5] = {50, 20, 30, 0, 10};
	T_ASSERT(pmk__mpi_job_init(job, 5) == 0);
	snprintf(job->command, sizeof job->command, "./app \"x\"");
	T_ASSERT(pmk__mpi_job_event(job, "task-clock", "ns") == 0);
	for (int i = 0; i < 5; i++) {
		struct pmk__mpi_rank *r = &job->ranks[i];
		struct pmk__mpi_call *c;
		struct pmk__mpi_region *g;
		if (i == 3)
			continue;
		r->present = 1;
		snprintf(r->host, sizeof r->host, "h%d", i % 2);
		r->wall_ns = wall[i];
		r->mpi_ns = mpi[i];
		r->mpi_err_ns = i == 4 ? 3 : 0;
		r->mpi_amb_ns = i == 4 ? 4 : 0;
		r->ev[0] = 10.0 * (i + 1);
		c = pmk__mpi_rank_call(r, "MPI_Send");
		T_ASSERT(c);
		c->calls = (uint64_t)i + 1;
		c->timed = i == 4 ? 2 : c->calls; /* rank 4: 3 of 5 estimated */
		c->ns = 7;
		c->bytes_sent = 1024 * ((uint64_t)i + 1);
		g = pmk__mpi_rank_region(r, "work", "pcontrol");
		T_ASSERT(g);
		g->calls = 2;
		g->wall_ns = wall[i] / 2;
		g->ev[0] = 1.5;
		g->flags = i == 4 ? PMK__MPI_REGION_OPEN : 0;
	}
}

static void test_stats(void)
{
	struct pmk__mpi_job job;
	struct pmk__mpi_stat st;
	int e = 0;
	double sum = 0, max = 0;
	make_job(&job);
	pmk__mpi_stat_of(&job, pmk__mpi_get_compute, NULL, &st);
	/* compute = wall - mpi: 50, 180, 270, -, 490 */
	T_EQ_INT(st.n, 4);
	T_NEAR(st.total, 990, 1e-9);
	T_NEAR(st.min, 50, 1e-9);
	T_NEAR(st.max, 490, 1e-9);
	T_EQ_INT(st.rank_min, 0);
	T_EQ_INT(st.rank_max, 4);
	T_NEAR(st.imbalance, 490 / (990 / 4.0), 1e-12);
	for (int i = 0; i < 5; i++)
		if (job.ranks[i].present) {
			sum += job.ranks[i].ev[0];
			max = fmax(max, job.ranks[i].ev[0]);
		}
	pmk__mpi_stat_of(&job, pmk__mpi_get_event, &e, &st);
	T_NEAR(st.mean, sum / 4, 1e-12);
	T_NEAR(st.imbalance, max / (sum / 4), 1e-12);
	T_EQ_INT(pmk__mpi_job_present(&job), 4);
	{
		const char *h[4];
		T_EQ_INT(pmk__mpi_job_hosts(&job, h, 4), 2);
	}
	pmk__mpi_job_release(&job);
}

static void test_roundtrip(void)
{
	struct pmk__mpi_job a, b = {0};
	char *t1 = NULL, *t2 = NULL, err[128];
	size_t n1 = 0, n2 = 0;
	FILE *m;
	make_job(&a);
	m = open_memstream(&t1, &n1);
	pmk__mpi_json(m, &a);
	fclose(m);
	T_EQ_INT(pmk__mpi_json_read(&b, t1, n1, err, sizeof err), 0);
	T_EQ_INT(b.size, 5);
	T_EQ_STR(b.command, "./app \"x\"");
	T_CHECK(!b.ranks[3].present);
	T_EQ_U64(b.ranks[4].calls[0].bytes_sent, 5120);
	T_CHECK(b.ranks[4].regions[0].flags & PMK__MPI_REGION_OPEN);
	T_CHECK(!(b.ranks[2].regions[0].flags & PMK__MPI_REGION_OPEN));
	T_EQ_U64(b.ranks[4].calls[0].timed, 2);
	T_EQ_U64(b.ranks[2].calls[0].timed, 3);
	T_EQ_U64(b.ranks[4].mpi_err_ns, 3);
	T_EQ_U64(b.ranks[4].mpi_amb_ns, 4);
	/* written again, the same text */
	m = open_memstream(&t2, &n2);
	pmk__mpi_json(m, &b);
	fclose(m);
	T_EQ_STR(t1, t2);
	/* the same ranks again: refused, rank by rank */
	T_EQ_INT(pmk__mpi_json_read(&b, t1, n1, err, sizeof err), PMK_EEXIST);
	T_CHECK(strstr(err, "appears twice") != NULL);
	/* the banner says that some calls' time was estimated */
	{
		char *bt = NULL;
		size_t bn = 0;
		m = open_memstream(&bt, &bn);
		pmk__mpi_banner(m, &b, 8);
		fclose(m);
		T_CHECKF(strstr(bt, "# timing  : 8 of 11 calls timed") != NULL,
			 "%s", bt);
		T_CHECK(strstr(bt, "calls 11 (8 timed)") != NULL);
		free(bt);
	}
	free(t1);
	free(t2);
	pmk__mpi_job_release(&a);
	pmk__mpi_job_release(&b);
}

static void test_reader_older_files(void)
{
	/* a file of before "timed": every call counts as timed */
	static const char text[] =
		"{\"schema\":\"pmkit-mpi/1\",\"size\":1,\"ranks\":[{\"rank\":0,"
		"\"wall_ns\":10,\"mpi_ns\":5,\"calls\":[{\"name\":\"MPI_Send\","
		"\"calls\":4,\"ns\":5}]}]}";
	struct pmk__mpi_job job = {0};
	char err[160];
	T_EQ_INT(pmk__mpi_json_read(&job, text, sizeof text - 1, err, sizeof err),
		 0);
	T_EQ_U64(job.ranks[0].calls[0].timed, 4);
	T_EQ_U64(job.ranks[0].mpi_err_ns, 0);
	pmk__mpi_job_release(&job);
}

static void test_reader_refuses(void)
{
	static const struct {
		int line;
		const char *text, *why;
	} cases[] = {
		{__LINE__, "", "unexpected end"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/2\",\"size\":1,\"ranks\":[]}", "newer"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":0,\"ranks\":[]}", "out of range"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":2}", "missing \"ranks\""},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":2,\"ranks\":[{\"rank\":2,\"wall_ns\":1,\"mpi_ns\":0}]}", "outside a job"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":2,\"ranks\":[{\"rank\":0,\"wall_ns\":-1,\"mpi_ns\":0}]}", "whole non-negative"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":2,\"ranks\":[{\"rank\":0,\"wall_ns\":1,\"mpi_ns\":2}]}", "larger than"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":1,\"ranks\":[]} x", "text after"},
		{__LINE__, "[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]", "nested deeper"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":1,\"ranks\":[{\"rank\":0,\"wall_ns\":1,\"mpi_ns\":0,\"calls\":[{\"calls\":1}]}]}", "without a name"},
		{__LINE__, "{\"schema\":\"pmkit-mpi/1\",\"size\":1,\"ranks\":[{\"rank\":0,\"wall_ns\":1,\"mpi_ns\":0,\"calls\":[{\"name\":\"MPI_Send\",\"calls\":1,\"timed\":2}]}]}", "\"timed\" larger than"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pmk__mpi_job job = {0};
		char err[160];
		int rc = pmk__mpi_json_read(&job, cases[i].text,
					    strlen(cases[i].text), err, sizeof err);
		T_CHECKF(rc < 0 && strstr(err, cases[i].why),
			 "line %d: rc %d, '%s'", cases[i].line, rc, err);
		pmk__mpi_job_release(&job);
	}
}

static void test_safe_name(void)
{
	char out[64];
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T_ASSERT(page != MAP_FAILED);
	T_EQ_INT(pmk__mpi_safe_name("work", 63, out, sizeof out), 0);
	T_EQ_STR(out, "work");
	T_EQ_INT(pmk__mpi_safe_name(NULL, 63, out, sizeof out), -1);
	T_EQ_INT(pmk__mpi_safe_name((const char *)16, 63, out, sizeof out), -1);
	T_EQ_INT(pmk__mpi_safe_name("a\tb", 63, out, sizeof out), -1);
	/* a name that ends at the end of a readable page */
	T_ASSERT(munmap(page + 4096, 4096) == 0);
	memcpy(page + 4096 - 4, "end", 4);
	T_EQ_INT(pmk__mpi_safe_name(page + 4096 - 4, 63, out, sizeof out), 0);
	T_EQ_STR(out, "end");
	/* Fortran: no NUL, the length says where it stops */
	T_EQ_INT(pmk__mpi_safe_name("ringXXXX", 4, out, sizeof out), 0);
	T_EQ_STR(out, "ring");
	munmap(page, 4096);
}

int main(void)
{
	T_RUN(test_stats);
	T_RUN(test_roundtrip);
	T_RUN(test_reader_older_files);
	T_RUN(test_reader_refuses);
	T_RUN(test_safe_name);
	return t_done();
}
