/* test_lockstat.c: perf lock contention's analysis (lib/sample/lockstat.c)
 * on a record file written here with a kallsyms file of its own, so that
 * it runs without root or lock tracepoints: begins and ends paired by task
 * and call path whatever the order in the file, waits added up (total,
 * max, min, average), the lock functions and the innermost 3 entries left
 * out of the key and the caller, a nested begin not counted twice, an end
 * without a begin counted apart, the type named from the lock function,
 * the sort keys, and a file without lock events refused; with the
 * tracepoints' fields recorded, the type from `flags` and the pairing by
 * lock address, as perf's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/sample/lockstat.h"
#include "pmkit.h"
#include "tests/support/t.h"

static char dir[64], rec[96], kall[96];

#define K(off) (0xffffffff81000000ull + (off))
#define CALLER_A  K(0x100)
#define CALLER_B  K(0x200)
#define OUTER	  K(0x300)
#define MUTEX	  K(0x1000010) /* in the sched text */
#define RAW_SPIN  K(0x1000210) /* in the lock text */
#define PV_SLOW	  K(0x1000300)
#define READ_SLOW K(0x1000400)

static void write_kallsyms(void)
{
	FILE *f = fopen(kall, "w");
	T_ASSERT(f != NULL);
	fprintf(f, "ffffffff81000000 T _stext\n"
		   "ffffffff81000100 T caller_a\n"
		   "ffffffff81000200 T caller_b\n"
		   "ffffffff81000300 T outer_fn\n"
		   "ffffffff82000000 T __sched_text_start\n"
		   "ffffffff82000010 T __mutex_lock.constprop.0\n"
		   "ffffffff82000100 T __sched_text_end\n"
		   "ffffffff82000200 T __lock_text_start\n"
		   "ffffffff82000210 T _raw_spin_lock\n"
		   "ffffffff82000300 T __pv_queued_spin_lock_slowpath\n"
		   "ffffffff82000400 T queued_read_lock_slowpath\n"
		   "ffffffff82000500 T __lock_text_end\n"
		   "ffffffff82000600 T _etext\n");
	fclose(f);
}

static void sample(pmk_rec_writer *w, int end, uint32_t tid, uint64_t t,
		   const uint64_t *chain, uint32_t n)
{
	pmk_sample s;
	memset(&s, 0, sizeof s);
	s.event = (uint32_t)end;
	s.flags = PMK_SAMPLE_KERNEL;
	s.ip = chain[0];
	s.pid = s.tid = tid;
	s.time_ns = t;
	s.period = 1;
	s.nchain = n;
	s.chain = chain;
	T_CHECK(pmk_rec_write_sample(w, &s) == 0);
}

/* spinlock from caller_b (through caller_a), twice in task 1 and 2;
 * a mutex with a nested begin; a read lock never released; an end alone */
static const uint64_t spin_b[] = {PV_SLOW + 0x10, RAW_SPIN + 5,
				  CALLER_A + 0x10, CALLER_B + 0x8,
				  OUTER + 0x20};
static const uint64_t spin_e[] = {PV_SLOW + 0x40, RAW_SPIN + 5,
				  CALLER_A + 0x10, CALLER_B + 0x8,
				  OUTER + 0x20};
static const uint64_t mutex_c[] = {MUTEX + 0x10, CALLER_A + 0x30,
				   CALLER_B + 0x40, OUTER + 0x50,
				   OUTER + 0x60};
static const uint64_t rlock[] = {READ_SLOW + 4, CALLER_A + 0x50,
				 CALLER_A + 0x54, CALLER_B + 0x70};

static void write_record(int with_lock_events)
{
	pmk_rec_writer *w;
	pmk_rec_event ev;
	pmk_diag d;
	T_ASSERT(pmk_rec_writer_open(&w, rec, "test", &d) == 0);
	for (uint32_t i = 0; i < 2; i++) {
		memset(&ev, 0, sizeof ev);
		ev.index = i;
		ev.type = 2;
		ev.period = 1;
		snprintf(ev.name, sizeof ev.name, "%s",
			 !with_lock_events ? (i ? "sched:b" : "sched:a")
			 : i		   ? "lock:contention_end"
					   : "lock:contention_begin");
		T_CHECK(pmk_rec_write_event(w, &ev) == 0);
	}
	/* out of time order, as the buffers of two CPUs are written */
	sample(w, 0, 2, 2000, spin_b, 5);
	sample(w, 1, 2, 2500, spin_e, 5);
	sample(w, 0, 1, 1000, spin_b, 5);
	sample(w, 1, 1, 3000, spin_e, 5);
	sample(w, 0, 1, 4000, mutex_c, 5);
	sample(w, 0, 1, 4100, mutex_c, 5); /* nested: not counted */
	sample(w, 1, 1, 9000, mutex_c, 5);
	sample(w, 0, 3, 5000, rlock, 4); /* never ends */
	sample(w, 1, 4, 6000, spin_e, 5); /* no begin */
	T_CHECK(pmk_rec_writer_close(w) == 0);
}

static const pmk_lock_entry *find(pmk_lockstat *ls, const char *caller)
{
	for (size_t i = 0; i < pmk_lockstat_count(ls); i++)
		if (!strcmp(pmk_lockstat_entry(ls, i)->caller, caller))
			return pmk_lockstat_entry(ls, i);
	return NULL;
}

static void test_pairing(void)
{
	pmk_lockstat_opts o = {kall, 8, 3};
	pmk_lockstat_totals t;
	const pmk_lock_entry *e;
	pmk_lockstat *ls;
	pmk_diag d;
	write_record(1);
	T_ASSERT(pmk_lockstat_load(&ls, rec, &o, &d) == 0);
	T_EQ_U64(pmk_lockstat_count(ls), 3);
	/* spin: the 3 innermost left out; caller_b is the caller */
	e = find(ls, "caller_b+0x8");
	T_ASSERT(e != NULL);
	T_EQ_STR(e->type, "spinlock");
	T_EQ_U64(e->contended, 2);
	T_EQ_U64(e->total_ns, 2500);
	T_EQ_U64(e->max_ns, 2000);
	T_EQ_U64(e->min_ns, 500);
	T_EQ_U64(e->avg_ns, 1250);
	T_EQ_INT((int)e->nchain, 2); /* caller_b, outer_fn */
	/* mutex: __mutex_lock is in the sched text; skip 3 leaves outer_fn */
	e = find(ls, "outer_fn+0x50");
	T_ASSERT(e != NULL);
	T_EQ_STR(e->type, "mutex");
	T_EQ_U64(e->contended, 1);
	T_EQ_U64(e->total_ns, 5000);
	/* the read lock: begun, never ended */
	e = find(ls, "caller_b+0x70");
	T_ASSERT(e != NULL);
	T_EQ_STR(e->type, "rwlock:R");
	T_EQ_U64(e->contended, 1);
	T_EQ_U64(e->total_ns, 0);
	pmk_lockstat_totals_get(ls, &t);
	T_EQ_U64(t.begins, 5);
	T_EQ_U64(t.ends, 4);
	T_EQ_U64(t.nested, 1);
	T_EQ_U64(t.unpaired, 1);
	/* sort keys: total wait first by default, contentions with -k */
	T_EQ_STR(pmk_lockstat_entry(ls, 0)->caller, "outer_fn+0x50");
	pmk_lockstat_sort(ls, pmk_lockstat_key("contended"));
	T_EQ_STR(pmk_lockstat_entry(ls, 0)->caller, "caller_b+0x8");
	pmk_lockstat_sort(ls, pmk_lockstat_key("wait_min"));
	T_EQ_STR(pmk_lockstat_entry(ls, 0)->caller, "outer_fn+0x50");
	T_EQ_INT(pmk_lockstat_key("nosuch"), -1);
	pmk_lockstat_free(ls);
}

static void test_skip_option(void)
{
	/* --stack-skip 0: the lock functions still drop out, caller_a is
	 * the spin's caller now */
	pmk_lockstat_opts o = {kall, 8, 0};
	pmk_lockstat *ls;
	pmk_diag d;
	write_record(1);
	T_ASSERT(pmk_lockstat_load(&ls, rec, &o, &d) == 0);
	T_CHECK(find(ls, "caller_a+0x10") != NULL);
	T_CHECK(find(ls, "caller_b+0x8") == NULL);
	pmk_lockstat_free(ls);
}

static const char fmt_begin[] =
    "name: contention_begin\nID: 408\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n";
static const char fmt_end[] =
    "name: contention_end\nID: 407\nformat:\n"
    "\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:int ret;\toffset:16;\tsize:4;\tsigned:1;\n";

static void raw_sample(pmk_rec_writer *w, int end, uint32_t tid, uint64_t t,
		       const uint64_t *chain, uint32_t n, uint64_t addr,
		       uint32_t flags)
{
	uint8_t raw[24] = {0};
	pmk_sample s;
	memcpy(raw + 8, &addr, 8);
	memcpy(raw + 16, &flags, 4);
	memset(&s, 0, sizeof s);
	s.event = (uint32_t)end;
	s.flags = PMK_SAMPLE_KERNEL | PMK_SAMPLE_HAS_RAW;
	s.ip = chain[0];
	s.pid = s.tid = tid;
	s.time_ns = t;
	s.period = 1;
	s.nchain = n;
	s.chain = chain;
	s.raw = raw;
	s.raw_len = sizeof raw;
	T_CHECK(pmk_rec_write_sample(w, &s) == 0);
}

/* With the tracepoints' fields recorded, as perf reads them: the type
 * from `flags` (32: mutex, though the chain's function is a spinlock's),
 * an end paired with its task's begin on the same lock address even on
 * another call path, and two locks on one path told apart. */
static void test_raw_fields(void)
{
	pmk_lockstat_opts o = {kall, 8, 3};
	pmk_lockstat_totals t;
	const pmk_lock_entry *e;
	pmk_rec_writer *w;
	pmk_rec_event ev;
	pmk_lockstat *ls;
	pmk_diag d;
	T_ASSERT(pmk_rec_writer_open(&w, rec, "test", &d) == 0);
	for (uint32_t i = 0; i < 2; i++) {
		memset(&ev, 0, sizeof ev);
		ev.index = i;
		ev.type = 2;
		ev.period = 1;
		snprintf(ev.name, sizeof ev.name, "%s",
			 i ? "lock:contention_end" : "lock:contention_begin");
		T_CHECK(pmk_rec_write_event(w, &ev) == 0);
		T_CHECK(pmk_rec_write_format(w, i, i ? fmt_end : fmt_begin) ==
			0);
	}
	raw_sample(w, 0, 7, 100, spin_b, 5, 0x1000, 32);
	raw_sample(w, 1, 7, 400, mutex_c, 5, 0x1000, 0); /* other path */
	/* one path, two locks, both open at once */
	raw_sample(w, 0, 8, 1000, spin_b, 5, 0x2000, 1);
	raw_sample(w, 0, 8, 1100, spin_b, 5, 0x3000, 1);
	raw_sample(w, 1, 8, 1300, spin_e, 5, 0x3000, 0);
	raw_sample(w, 1, 8, 1600, spin_e, 5, 0x2000, 0);
	T_CHECK(pmk_rec_writer_close(w) == 0);
	T_ASSERT(pmk_lockstat_load(&ls, rec, &o, &d) == 0);
	pmk_lockstat_totals_get(ls, &t);
	T_EQ_U64(t.unpaired, 0);
	T_EQ_U64(t.nested, 0);
	T_EQ_U64(pmk_lockstat_count(ls), 2);
	e = pmk_lockstat_entry(ls, 0); /* 600 + 200 on the spin path */
	T_EQ_STR(e->type, "spinlock");
	T_EQ_STR(e->caller, "caller_b+0x8");
	T_EQ_U64(e->contended, 2);
	T_EQ_U64(e->total_ns, 800);
	T_EQ_U64(e->max_ns, 600);
	e = pmk_lockstat_entry(ls, 1); /* the mutex flag on that path */
	T_EQ_STR(e->type, "mutex");
	T_EQ_U64(e->contended, 1);
	T_EQ_U64(e->total_ns, 300);
	pmk_lockstat_free(ls);
}

static void test_no_lock_events(void)
{
	pmk_lockstat_opts o = {kall, 8, 3};
	pmk_lockstat *ls;
	pmk_diag d;
	write_record(0);
	T_EQ_INT(pmk_lockstat_load(&ls, rec, &o, &d), PMK_EFORMAT);
	T_CHECK(strstr(d.message, "lock:contention_begin") != NULL);
	T_EQ_INT(pmk_lockstat_load(&ls, "/nonexistent/x.rec", &o, &d),
		 PMK_EIO);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/pmk-lockstat-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(rec, sizeof rec, "%s/r.rec", dir);
	snprintf(kall, sizeof kall, "%s/kallsyms", dir);
	write_kallsyms();
	T_RUN(test_pairing);
	T_RUN(test_skip_option);
	T_RUN(test_raw_fields);
	T_RUN(test_no_lock_events);
	unlink(rec);
	{
		char old[128];
		snprintf(old, sizeof old, "%s.old", rec);
		unlink(old);
	}
	unlink(kall);
	rmdir(dir);
	return t_done();
}
