/*
 * test_counts.c: the per-event counts of locations and stacks, now that a
 * location that is only ever a caller keeps no counts and the counts of
 * the others are as wide as the file's events (issue 31: 385 bytes per
 * distinct address). Proves that callers have no self samples, that the
 * sampled locations and the stacks count every event apart, and that a
 * sample of an event the file does not describe, arriving after others,
 * widens the counts without losing those already made.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit.h"
#include "tests/support/t.h"

static char path[256];

enum { BASE = 0x400000 };

static void write_file(int nevents, int stray)
{
	pmk_rec_writer *w;
	pmk_diag d;
	pmk_rec_map m;
	pmk_rec_comm c;
	/* leaf first: A called from B called from C; D called from B */
	static const uint64_t abc[] = {BASE + 0x100, BASE + 0x201,
				       BASE + 0x301};
	static const uint64_t db[] = {BASE + 0x400, BASE + 0x201};
	snprintf(path, sizeof path, "/tmp/pmk_test_counts_%d", (int)getpid());
	T_ASSERT(pmk_rec_writer_open_ex(&w, path, "test", PMK_REC_NO_BACKUP,
					&d) == 0);
	for (int e = 0; e < nevents; e++) {
		pmk_rec_event ev;
		memset(&ev, 0, sizeof ev);
		ev.index = (uint32_t)e;
		ev.type = 1;
		ev.period = 1000;
		snprintf(ev.name, sizeof ev.name, "ev%d", e);
		T_ASSERT(pmk_rec_write_event(w, &ev) == 0);
	}
	memset(&c, 0, sizeof c);
	c.pid = c.tid = 77;
	c.exec = 1;
	snprintf(c.comm, sizeof c.comm, "counts");
	T_ASSERT(pmk_rec_write_comm(w, &c) == 0);
	memset(&m, 0, sizeof m);
	m.pid = 77;
	m.start = BASE;
	m.len = 0x10000;
	m.prot = 5;
	snprintf(m.path, sizeof m.path, "/nonexistent/counts.bin");
	T_ASSERT(pmk_rec_write_map(w, &m) == 0);
	for (int i = 0; i < 6; i++) {
		pmk_sample s;
		memset(&s, 0, sizeof s);
		s.pid = s.tid = 77;
		s.time_ns = (uint64_t)i;
		if (i < 3) { /* event 0: A<-B<-C three times, period 10 */
			s.event = 0;
			s.period = 10;
			s.chain = abc;
			s.nchain = 3;
		} else if (i < 5) { /* event 1 (or stray): A<-B<-C twice */
			s.event = (uint32_t)(stray ? stray : 1);
			s.period = 7;
			s.chain = abc;
			s.nchain = 3;
		} else { /* event 0: D<-B once, period 5 */
			s.event = 0;
			s.period = 5;
			s.chain = db;
			s.nchain = 2;
		}
		s.ip = s.chain[0];
		T_ASSERT(pmk_rec_write_sample(w, &s) == 0);
	}
	T_ASSERT(pmk_rec_writer_close(w) == 0);
}

/* The address row `key` of the last histogram, or NULL. */
static const pmk_profile_row *row_of(const pmk_profile_row *rows, int n,
				     const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].key, key))
			return &rows[i];
	return NULL;
}

static void check_profile(int ev1)
{
	pmk_profile *p;
	pmk_diag d;
	const pmk_profile_row *rows, *a, *dd;
	int n;
	char *text = NULL;
	size_t tlen = 0;
	FILE *out;
	char name[16];
	T_ASSERT(pmk_profile_load(&p, path, &d) == 0);
	T_ASSERT(pmk_profile_histogram(p, PMK_SORT_ADDRESS, &rows, &n) == 0);
	/* only the sampled IPs are rows: the callers (0x200, 0x300) are not */
	T_EQ_INT(n, 2);
	a = row_of(rows, n, "0x100");
	dd = row_of(rows, n, "0x400");
	T_ASSERT(a && dd);
	T_EQ_U64(a->samples[0], 3);
	T_EQ_U64(a->period[0], 30);
	T_EQ_U64(a->samples[ev1], 2);
	T_EQ_U64(a->period[ev1], 14);
	T_EQ_U64(dd->samples[0], 1);
	T_EQ_U64(dd->period[0], 5);
	T_EQ_U64(dd->samples[ev1], 0);
	/* the stacks, per event */
	out = open_memstream(&text, &tlen);
	T_ASSERT(out);
	T_EQ_INT(pmk_profile_print_folded(p, "ev0", out), 0);
	fclose(out);
	T_CHECKF(strstr(text, "[counts.bin];[counts.bin];[counts.bin] 3\n") &&
		     strstr(text, "[counts.bin];[counts.bin] 1\n"),
		 "folded ev0: %s", text);
	free(text);
	text = NULL;
	out = open_memstream(&text, &tlen);
	T_ASSERT(out);
	snprintf(name, sizeof name, "%s", pmk_profile_event_name(p, ev1));
	T_EQ_INT(pmk_profile_print_folded(p, name, out), 0);
	fclose(out);
	T_CHECKF(!strcmp(text, "[counts.bin];[counts.bin];[counts.bin] 2\n"),
		 "folded %s: %s", name, text);
	free(text);
	pmk_profile_free(p);
	unlink(path);
}

static void test_callers_keep_no_counts(void)
{
	write_file(2, 0);
	check_profile(1);
}

static void test_undescribed_event_widens_counts(void)
{
	pmk_profile *p;
	pmk_diag d;
	pmk_profile_stats st;
	/* one EVENT record; samples of event 5 come after event 0's */
	write_file(1, 5);
	T_ASSERT(pmk_profile_load(&p, path, &d) == 0);
	pmk_profile_stats_get(p, &st);
	T_EQ_INT(st.nevents, 6);
	T_EQ_STR(pmk_profile_event_name(p, 5), "event5");
	pmk_profile_free(p);
	check_profile(5);
}

int main(void)
{
	T_RUN(test_callers_keep_no_counts);
	T_RUN(test_undescribed_event_widens_counts);
	return t_done();
}
