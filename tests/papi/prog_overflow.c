/*
 * prog_overflow.c: PAPI_overflow and PAPI_profil on a software event, for
 * machines without a PMU (PAPI's own overflow and profile ctests name
 * hardware presets and skip there). Built and run by overflow.t against a
 * libpapi.so.7.0 (pmkit's, or Debian's for comparison); prints ok/not ok.
 *
 * Proves: the handler is called in the thread, with the set and the event's
 * bit, about value/threshold times (a software clock's timer fires a little
 * late each period, so a few calls fewer, never more); the vector maps back
 * through PAPI_get_overflow_event_index; threshold 0 turns it off; the
 * argument errors PAPI documents; profil's buckets (scale 65536: one per 2
 * bytes) fill where the time went: two functions burning 2:1 get about
 * 2/3 and 1/3 of the samples, with 16- and 32-bit buckets; sprofil sends
 * each PC to the region that holds it; two threads with a set each get
 * their own calls, in their own thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int failed;
#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (cond) {                                                    \
			printf("ok - ");                                       \
		} else {                                                       \
			printf("not ok - ");                                   \
			failed = 1;                                            \
		}                                                              \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
	} while (0)

static volatile double sink;
static long calls, bad_set, bad_vec, bad_tid;
static int want_set;
static long long want_vec;
static pid_t main_tid;

static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Burn `s` seconds of CPU time in each function (not inlined, so that
 * their samples land in their own text). */
__attribute__((noinline)) void hot_a(double s)
{
	double end = cpu_s() + s, x = sink;
	while (cpu_s() < end)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

__attribute__((noinline)) void hot_b(double s)
{
	double end = cpu_s() + s, x = sink;
	while (cpu_s() < end)
		for (int i = 0; i < 2000; i++)
			x = x * 0.9999999 + 1e-9;
	sink = x;
}

static void handler(int set, void *address, long long vector, void *ctx)
{
	calls++;
	if (set != want_set)
		bad_set++;
	if (vector != want_vec)
		bad_vec++;
	if ((pid_t)syscall(SYS_gettid) != main_tid)
		bad_tid++;
}

static int sum_named(const char *name, unsigned char *buf, int bytes,
		     unsigned long nb, unsigned long start, long long *total)
{
	long long in = 0;
	*total = 0;
	for (unsigned long i = 0; i < nb; i++) {
		unsigned long long v = bytes == 2 ? ((unsigned short *)buf)[i]
						  : ((unsigned int *)buf)[i];
		if (!v)
			continue;
		*total += (long long)v;
		Dl_info di;
		if (dladdr((void *)(start + i * 2), &di) && di.dli_sname &&
		    !strcmp(di.dli_sname, name))
			in += (long long)v;
	}
	return (int)in;
}

static void profile_run(int set, int code, int bucket, const char *what)
{
	const PAPI_exe_info_t *exe = PAPI_get_executable_info();
	unsigned long start = (unsigned long)exe->address_info.text_start;
	unsigned long end = (unsigned long)exe->address_info.text_end;
	unsigned long nb = (end - start) / 2; /* scale 65536: 2 bytes each */
	int bytes = bucket == PAPI_PROFIL_BUCKET_32 ? 4 : 2;
	unsigned char *buf = calloc(nb, (size_t)bytes);
	int thr = 1000000; /* 1 ms of task clock */
	int r = PAPI_profil(buf, (unsigned)(nb * (unsigned long)bytes),
			    (vptr_t)start, 65536, set, code, thr, bucket);
	CHECK(r == PAPI_OK, "%s: PAPI_profil (%d)", what, r);
	int st = 0;
	PAPI_state(set, &st);
	CHECK(st & PAPI_PROFILING, "%s: PAPI_state has PAPI_PROFILING", what);
	long long v[2];
	PAPI_start(set);
	hot_a(0.2);
	hot_b(0.1);
	PAPI_stop(set, v);
	long long ta, tb;
	long long a = sum_named("hot_a", buf, bytes, nb, start, &ta);
	long long b = sum_named("hot_b", buf, bytes, nb, start, &tb);
	long long expect = v[1] / thr;
	printf("# %s: task-clock %lld ns, %lld samples in the buffer (about "
	       "%lld expected), hot_a %lld, hot_b %lld\n",
	       what, v[1], ta, expect, a, b);
	CHECK(ta > 0 && ta <= expect && ta >= expect * 8 / 10,
	      "%s: %lld samples binned, %lld periods counted", what, ta,
	      expect);
	CHECK(ta > 0 && (a + b) * 10 >= ta * 9,
	      "%s: at least 90%% of the samples in hot_a and hot_b (%lld of "
	      "%lld)",
	      what, a + b, ta);
	CHECK(b > 0 && a > b * 3 / 2 && a < b * 3,
	      "%s: hot_a burnt twice hot_b's time: %lld against %lld samples",
	      what, a, b);
	r = PAPI_profil(buf, (unsigned)(nb * (unsigned long)bytes),
			(vptr_t)start, 65536, set, code, 0, bucket);
	CHECK(r == PAPI_OK, "%s: PAPI_profil with threshold 0 turns it off",
	      what);
	free(buf);
}

/* Two regions split at hot_b: hot_a's samples in the first (the
 * compiler keeps the two functions in source order), hot_b's in the second
 * (and what follows it in the text). */
static void sprofile_run(int set, int code)
{
	const PAPI_exe_info_t *exe = PAPI_get_executable_info();
	unsigned long start = (unsigned long)exe->address_info.text_start;
	unsigned long end = (unsigned long)exe->address_info.text_end;
	unsigned long mid = (unsigned long)(void *)hot_b;
	if ((unsigned long)(void *)hot_a >= mid) {
		printf(
		    "skip - sprofil: hot_a is not before hot_b in the text\n");
		return;
	}
	unsigned long n1 = (mid - start) / 2, n2 = (end - mid) / 2;
	unsigned short *b1 = calloc(n1, 2), *b2 = calloc(n2, 2);
	PAPI_sprofil_t p[2] = {{.pr_base = b1,
				.pr_size = (unsigned)(n1 * 2),
				.pr_off = (vptr_t)start,
				.pr_scale = 65536},
			       {.pr_base = b2,
				.pr_size = (unsigned)(n2 * 2),
				.pr_off = (vptr_t)mid,
				.pr_scale = 65536}};
	int r = PAPI_sprofil(p, 2, set, code, 1000000, PAPI_PROFIL_POSIX);
	CHECK(r == PAPI_OK, "PAPI_sprofil with two regions (%d)", r);
	long long v[2], s1 = 0, s2 = 0;
	PAPI_start(set);
	hot_a(0.2);
	hot_b(0.1);
	PAPI_stop(set, v);
	for (unsigned long i = 0; i < n1; i++)
		s1 += b1[i];
	for (unsigned long i = 0; i < n2; i++)
		s2 += b2[i];
	CHECK(s2 > 0 && s1 > s2 * 3 / 2 && s1 < s2 * 3,
	      "sprofil: region of hot_a %lld samples, of hot_b %lld", s1, s2);
	PAPI_sprofil(p, 2, set, code, 0, PAPI_PROFIL_POSIX);
	free(b1);
	free(b2);
}

/* Each thread: its own set, overflow every 1 ms of its task clock. */
struct thr {
	pid_t tid;
	long calls, foreign;
	long long value;
	int ok;
};
static struct thr thr[2];

static void thr_handler(int set, void *address, long long vector, void *ctx)
{
	pid_t me = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < 2; i++)
		if (thr[i].tid == me) {
			thr[i].calls++;
			return;
		}
	thr[0].foreign++;
}

static void *thr_main(void *arg)
{
	struct thr *t = arg;
	int set = PAPI_NULL;
	long long v;
	t->tid = (pid_t)syscall(SYS_gettid);
	PAPI_register_thread();
	int code;
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) == PAPI_OK &&
	    PAPI_create_eventset(&set) == PAPI_OK &&
	    PAPI_add_event(set, code) == PAPI_OK) {
		if (PAPI_overflow(set, code, 1000000, 0, thr_handler) ==
			PAPI_OK &&
		    PAPI_start(set) == PAPI_OK) {
			hot_a(t == &thr[0] ? 0.1 : 0.2);
			PAPI_stop(set, &v);
			t->value = v;
			t->ok = 1;
		}
		PAPI_overflow(set, code, 0, 0, thr_handler);
		PAPI_cleanup_eventset(set);
		PAPI_destroy_eventset(&set);
	}
	PAPI_unregister_thread();
	return NULL;
}

static void threads_run(void)
{
	pthread_t th[2];
	PAPI_thread_init((unsigned long (*)(void))pthread_self);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, thr_main, &thr[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		long long expect = thr[i].value / 1000000;
		CHECK(thr[i].ok && thr[i].calls > 0 && thr[i].calls <= expect &&
			  thr[i].calls >= expect * 8 / 10,
		      "thread %d: %ld calls in the thread for %lld periods of "
		      "its own clock",
		      i, thr[i].calls, expect);
	}
	CHECK(thr[0].foreign == 0, "no call in a thread that set none (%ld)",
	      thr[0].foreign);
}

int main(void)
{
	int set = PAPI_NULL, clk, pf, r;
	main_tid = (pid_t)syscall(SYS_gettid);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		printf("not ok - PAPI_library_init\n");
		return 1;
	}
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &clk) != PAPI_OK ||
	    PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf) != PAPI_OK ||
	    PAPI_create_eventset(&set) != PAPI_OK ||
	    PAPI_add_event(set, pf) != PAPI_OK ||
	    PAPI_add_event(set, clk) != PAPI_OK) {
		printf("skip - perf::TASK-CLOCK and perf::PAGE-FAULTS cannot "
		       "be counted here\n");
		return 0;
	}
	/* argument errors */
	r = PAPI_overflow(set, clk, 1000000, 0, NULL);
	CHECK(r == PAPI_EINVAL, "no handler: PAPI_EINVAL (%d)", r);
	r = PAPI_overflow(set, clk, -1, 0, handler);
	CHECK(r == PAPI_EINVAL, "negative threshold: PAPI_EINVAL (%d)", r);
	r = PAPI_overflow(set, PAPI_TOT_CYC, 1000000, 0, handler);
	CHECK(r == PAPI_ENOEVNT, "event not in the set: PAPI_ENOEVNT (%d)", r);
	r = PAPI_overflow(set + 100, clk, 1000000, 0, handler);
	CHECK(r == PAPI_ENOEVST, "no such set: PAPI_ENOEVST (%d)", r);

	/* every 1 ms of task clock, over 300 ms */
	int thr = 1000000;
	want_set = set;
	want_vec = 1LL << 1; /* task-clock is the set's event 1 */
	r = PAPI_overflow(set, clk, thr, 0, handler);
	CHECK(r == PAPI_OK, "PAPI_overflow(perf::TASK-CLOCK, 1 ms) (%d)", r);
	int st = 0;
	PAPI_state(set, &st);
	CHECK(st & PAPI_OVERFLOWING, "PAPI_state has PAPI_OVERFLOWING");
	long long v[2];
	PAPI_start(set);
	r = PAPI_overflow(set, clk, thr, 0, handler);
	CHECK(r == PAPI_EISRUN, "while running: PAPI_EISRUN (%d)", r);
	hot_a(0.3);
	PAPI_stop(set, v);
	long long expect = v[1] / thr;
	printf("# task-clock %lld ns, threshold %d: %ld calls, %lld periods\n",
	       v[1], thr, calls, expect);
	CHECK(calls > 0 && calls <= expect && calls >= expect * 8 / 10,
	      "handler called %ld times for %lld periods (0.8 to 1)", calls,
	      expect);
	CHECK(!bad_set && !bad_vec,
	      "handler given its set and the event's bit (%ld, %ld wrong)",
	      bad_set, bad_vec);
	CHECK(!bad_tid, "handler runs in the thread that started the set");
	int idx[4], n = 4;
	r = PAPI_get_overflow_event_index(set, want_vec, idx, &n);
	CHECK(r == PAPI_OK && n == 1 && idx[0] == 1,
	      "PAPI_get_overflow_event_index: event 1 (%d, n %d)", r, n);

	/* a tenth of the threshold: ten times the calls */
	long first = calls;
	calls = 0;
	PAPI_overflow(set, clk, thr / 10, 0, handler);
	PAPI_start(set);
	hot_a(0.3);
	PAPI_stop(set, v);
	expect = v[1] / (thr / 10);
	CHECK(calls > first * 5 && calls <= expect && calls >= expect * 7 / 10,
	      "threshold 100 us: %ld calls for %lld periods", calls, expect);

	/* off */
	r = PAPI_overflow(set, clk, 0, 0, handler);
	calls = 0;
	PAPI_start(set);
	hot_a(0.05);
	PAPI_stop(set, v);
	CHECK(r == PAPI_OK && calls == 0,
	      "threshold 0 turns it off (%ld calls after)", calls);

	profile_run(set, clk, PAPI_PROFIL_BUCKET_16, "16-bit buckets");
	profile_run(set, clk, PAPI_PROFIL_BUCKET_32, "32-bit buckets");
	sprofile_run(set, clk);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	threads_run();
	PAPI_shutdown();
	return failed;
}
