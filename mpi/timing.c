/*
 * timing.c: how long the MPI calls of one rank took (rank.h). Every call
 * is counted with its bytes; its time is read from the clock before and
 * after it, except in a burst of short calls.
 *
 * By default (PMK__MPI_EXACT) every call is timed, inline in the wrappers
 * (rank.h): two reads of the clock, 7-10 ns each on the TSC. Estimating
 * calls instead gets MPI time wrong where it matters: a call left untimed
 * in a burst may be the one that waits for a late partner, and a rank
 * whose CPU is taken away during untimed calls shows that time as
 * computation (docs/mpi.md has the measurements). Sampling is therefore
 * opt-in, PMKIT_MPI_TIMING=sample (formerly the default, "auto"):
 *
 *  - Every call is timed until a burst is seen: STREAK calls in a row, each
 *    shorter than SHORT_NS with less than SHORT_NS of computation before
 *    it. Then calls are timed at random, one in SKIP_MEAN on average (the
 *    number of untimed calls before the next timed one is drawn uniformly
 *    from 1 .. 2 x SKIP_MEAN - 1), and the others are counted only.
 *  - A call that may wait for another rank (MPI_Recv, MPI_Wait, a blocking
 *    collective...) is left untimed only inside an unbroken run of such
 *    calls timed short (pmk__mpi_wrun), and when its own last timed calls
 *    were short (`run`): the first receive after polling, or the barrier
 *    after a phase of sends and receives, is timed.
 *  - The untimed calls between two timed ones lie within the span from the
 *    first one's end to the second one's start, so their time is at most
 *    that span. Each function's untimed calls are estimated at the mean of
 *    its own short timed calls, and those of a stretch of spans never at
 *    more than the spans.
 *  - A timed call longer than SHORT_NS, or a span longer than
 *    (untimed + 1) x SHORT_NS, ends the burst: every call is timed again.
 *    Such a span held something long: the program's own computation, or,
 *    if one of its untimed calls could wait for another rank (not an
 *    MPI_Isend, _Irecv, _Test or _Iprobe...), maybe that call. Which of
 *    the two cannot be told: the estimate counts the calls as short, and
 *    the rest of the span as "ambiguous" time, an upper bound on the MPI
 *    time the estimate may have missed, reported with the rank (and shown
 *    beside the headline figures, job.c).
 *  - At MPI_Finalize the estimates are made again with the means of the
 *    whole run (regions use those of the moment); one standard error comes
 *    from each function's spread: the error of its mean over its untimed
 *    calls, and their own spread around it.
 *
 * MPI_THREAD_MULTIPLE (PMK__MPI_THREADS): every call is timed under one
 * lock, so that no count is lost; each function's time is the sum over
 * the threads, and the rank's MPI time is the time during which at least
 * one thread was inside MPI, so that two threads waiting at once do not
 * make MPI time twice the wall time.
 */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/rank.h"

int pmk__mpi_on;
int pmk__mpi_gate;
__thread int pmk__mpi_depth __attribute__((tls_model("initial-exec")));
struct pmk__mpi_fstat pmk__mpi_fs[PMK__MPI_NFUNCS];
uint64_t pmk__mpi_total_ns;
int pmk__mpi_tsc;
int pmk__mpi_mode;
volatile uint64_t pmk__mpi_in_t0;
uint64_t pmk__mpi_poll_end;
uint32_t pmk__mpi_skip;
int pmk__mpi_waited;
unsigned pmk__mpi_wrun;

static const unsigned char local[] = {
#define PMK__FN_LOCAL(id, name, l) l,
    PMK__MPI_FUNCS(PMK__FN_LOCAL)
#undef PMK__FN_LOCAL
};

enum { SHORT_NS = 2000, STREAK = 16, SKIP_MEAN = 32 };

static struct {
	int sampling; /* in a burst: calls timed at random */
	int exact;    /* PMKIT_MPI_TIMING=exact, or threads */
	uint64_t short_ticks;
	uint64_t last;	 /* end of the last timed call (or settling), ticks */
	uint32_t drawn;	 /* untimed calls drawn at the last timed call */
	unsigned streak; /* short calls in a row, before a burst */
	uint64_t rng;
	/* since the last settling: the spans that held the untimed calls,
	 * and each function's untimed calls then */
	uint64_t spans;
	uint64_t settled[PMK__MPI_NFUNCS];
	uint64_t untimed;   /* calls estimated */
	uint64_t added;	    /* their estimates so far, in pmk__mpi_total_ns */
	uint64_t all_spans; /* every span that held untimed calls */
	double amb_ticks;   /* spans that held something long */
	double cost;        /* what a timed call's reading holds of the clock */
} T;

/* A tight polling loop (PMK__MPI_EXACT): the poll that found nothing,
 * the short gaps after such polls in a row, and the time counted. */
static int poll_fn;
static unsigned poll_tight;
enum { TIGHT = 8 };

/*
 * Whether the thread lost its CPU between two moments, for the price of a
 * store and a load: restartable sequences. glibc (2.35 on) registers a
 * `struct rseq` for every thread; its `rseq_cs` field points to a
 * critical section's descriptor, and the kernel, whenever it preempts the
 * thread, migrates it or delivers a signal to it, looks at that pointer
 * on the way back to user space and clears it when the thread was not
 * inside the section. The section here is a range of data, never
 * executed, so the pointer stays until the thread is switched out. The
 * kernel checks the descriptor (and the signature glibc registered, just
 * before the abort address) even then: a wrong one would be SIGSEGV.
 */
#if (defined(__x86_64__) || defined(__aarch64__)) && defined(__GLIBC__)
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
#if defined(__x86_64__)
#define RSEQ_SIG_ 0x53053053u
#else
#define RSEQ_SIG_ 0xd428bc00u
#endif
static const uint32_t rseq_blob[4] = {0, RSEQ_SIG_, 0, 0};
static struct {
	uint32_t version, flags;
	uint64_t start_ip, post_commit_offset, abort_ip;
} rseq_desc __attribute__((aligned(32)));
static int rseq_ok;
static volatile uint64_t *rseq_cs(void)
{
	return (volatile uint64_t *)((char *)__builtin_thread_pointer() +
				     __rseq_offset + 8);
}
static void rseq_init(void)
{
	rseq_ok = &__rseq_size && &__rseq_offset && __rseq_size >= 16;
	rseq_desc.start_ip = (uint64_t)(uintptr_t)&rseq_blob[0];
	rseq_desc.post_commit_offset = 1;
	rseq_desc.abort_ip = (uint64_t)(uintptr_t)&rseq_blob[2];
}
static void rseq_arm(void)
{
	if (rseq_ok)
		*rseq_cs() = (uint64_t)(uintptr_t)&rseq_desc;
}
/* 1: the CPU was (or may have been) taken away since rseq_arm() */
static int rseq_lost(void)
{
	volatile uint64_t *cs;
	if (!rseq_ok)
		return 1;
	cs = rseq_cs();
	if (*cs != (uint64_t)(uintptr_t)&rseq_desc)
		return 1;
	*cs = 0;
	return 0;
}
#else
static void rseq_init(void) {}
static void rseq_arm(void) {}
static int rseq_lost(void) { return 1; }
#endif

/* PMK__MPI_THREADS: threads inside MPI now, since when (ticks) */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned inside;
static volatile uint64_t busy_since;

void pmk__mpi_timing_start(int exact)
{
	const char *env = getenv("PMKIT_MPI_TIMING");
	memset(&T, 0, sizeof T);
	pmk__mpi_skip = 0;
	pmk__mpi_wrun = 0;
	pmk__mpi_waited = 0;
	pmk__mpi_in_t0 = 0;
	pmk__mpi_poll_end = 0;
	poll_tight = 0;
	inside = 0;
	rseq_init();
	T.exact = exact || !env ||
		  (strcmp(env, "sample") && strcmp(env, "auto"));
	pmk__mpi_mode = T.exact ? PMK__MPI_EXACT : PMK__MPI_SAMPLE;
	pmk__mpi_gate_update();
	T.short_ticks = SHORT_NS;
	if (pmk__mpi_tsc) {
		/* ticks per ns, roughly (the threshold needs no precision;
		 * the run's own ratio converts the times at the end) */
		T.short_ticks =
		    (uint64_t)(pmk__mpi_counter_rate(20000) * SHORT_NS);
	}
	T.rng = 0x9e3779b97f4a7c15u ^ (uint64_t)pmk__mpi_mono_ns();
	T.last = pmk__mpi_now();
}

static uint32_t draw(void)
{
	/* xorshift64* */
	T.rng ^= T.rng >> 12;
	T.rng ^= T.rng << 25;
	T.rng ^= T.rng >> 27;
	return 1 + (uint32_t)(((T.rng * 0x2545f4914f6cdd1du) >> 33) %
			      (2 * SKIP_MEAN - 1));
}

static void sample_add(struct pmk__mpi_sample *x, uint64_t d)
{
	x->n++;
	x->ticks += d;
	x->sq += (double)d * (double)d;
}

/* The short timed calls that stand for a function's untimed ones: those
 * timed at random in bursts (at least 2), else all its short timed calls
 * (the first calls of a burst, timed before it was one, are slower after
 * a pause: they are not a fair sample). */
static const struct pmk__mpi_sample *sample_of(const struct pmk__mpi_fstat *s)
{
	return s->sampled.n >= 2 ? &s->sampled : &s->all_short;
}

/* A function's mean untimed call, from its sample (else, or for NULL, the
 * mean of all functions' random samples, else of all short timed calls),
 * less what the clock's reading adds to a timed one (measured at
 * MPI_Init, pmk__mpi_clock_cost: about 4 ns on this VM's TSC, 21 ns with
 * clock_gettime). */
static double mean_of(const struct pmk__mpi_fstat *s)
{
	struct pmk__mpi_sample x = {0, 0, 0};
	double m;
	if (s)
		x = *sample_of(s);
	if (x.n == 0) {
		struct pmk__mpi_sample r = {0, 0, 0}, b = {0, 0, 0};
		for (int f = 0; f < PMK__MPI_NFUNCS; f++) {
			r.n += pmk__mpi_fs[f].sampled.n;
			r.ticks += pmk__mpi_fs[f].sampled.ticks;
			b.n += pmk__mpi_fs[f].all_short.n;
			b.ticks += pmk__mpi_fs[f].all_short.ticks;
		}
		x = r.n ? r : b;
	}
	m = x.n ? (double)x.ticks / (double)x.n : 0;
	/* an untimed call does not hold the clock's own reading */
	return m > T.cost ? m - T.cost : 0;
}

__attribute__((noinline)) static void probe_call(volatile unsigned *p)
{
	for (unsigned i = 0; i < 8; i++)
		*p += i;
}
static void (*volatile probe_fn)(volatile unsigned *) = probe_call;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double pmk__mpi_clock_cost(void)
{
	/* a small call timed between two reads, against the same call run
	 * 1,000 times between one pair: the difference per call is what the
	 * reading adds (back-to-back reads say too little: two TSC reads in
	 * a row overlap in the pipeline). The median of 5. */
	volatile unsigned x = 0;
	double d[5];
	for (int r = 0; r < 5; r++) {
		uint64_t a = pmk__mpi_now(), b, sum = 0;
		for (int i = 0; i < 1000; i++)
			probe_fn(&x);
		b = pmk__mpi_now();
		for (int i = 0; i < 1000; i++) {
			uint64_t t0 = pmk__mpi_now();
			probe_fn(&x);
			sum += pmk__mpi_now() - t0;
		}
		d[r] = ((double)sum - (double)(b - a)) / 1000;
	}
	qsort(d, 5, sizeof d[0], cmp_double);
	return d[2] > 0 ? d[2] : 0;
}

void pmk__mpi_timing_clock_cost(double ticks)
{
	T.cost = ticks > 0 ? ticks : 0;
}

/* The untimed calls since the last settling, which lay within T.spans:
 * each function's at its mean so far, together never more than the spans
 * (for the MPI time inside a region; the rank's total is estimated again
 * at the end, with the means of the whole run). */
static void settle(void)
{
	double est = 0;
	for (int f = 0; f < PMK__MPI_NFUNCS; f++) {
		const struct pmk__mpi_fstat *s = &pmk__mpi_fs[f];
		uint64_t u = s->untimed - T.settled[f];
		if (u) {
			est += (double)u * mean_of(s);
			T.untimed += u;
			T.settled[f] = s->untimed;
		}
	}
	if (est > (double)T.spans)
		est = (double)T.spans;
	T.added += (uint64_t)(est + 0.5);
	pmk__mpi_total_ns += (uint64_t)(est + 0.5);
	T.all_spans += T.spans;
	T.spans = 0;
}

static void end_burst(void)
{
	settle();
	T.sampling = 0;
	T.streak = 0;
	T.drawn = 0;
	pmk__mpi_skip = 0;
	pmk__mpi_wrun = 0;
}

void pmk__mpi_timing_exact(void)
{
	if (T.sampling) {
		T.spans += pmk__mpi_now() - T.last;
		end_burst();
	}
	T.exact = 1;
	pmk__mpi_mode = PMK__MPI_THREADS;
	pmk__mpi_gate_update();
}

/*
 * A tight polling loop: `while (!flag) MPI_Iprobe(..., &flag, ...)`. The
 * program's own part of each turn (the loop, the call into the wrapper,
 * the clock reads' edges) is a fifth of it on this VM; counted as
 * computation, a master that polls for most of its run would show a
 * fifth of that as compute. So the gap from a poll that found nothing to
 * the next call counts as MPI time (in that poll's function) when it is
 * short (SHORT_NS: no work of the program's own fits there), and also
 * when it is long only because the thread lost its CPU in it (rseq, above)
 * while polling tightly (the last TIGHT gaps short, the next call the
 * same poll): a loaded machine takes the CPU away in the loop's own part
 * as often as inside the calls. Any other gap is the program's.
 */
void pmk__mpi_poll_arm(void)
{
	/* before the clock read that ends the call: a switch between the
	 * two is seen, and falls in the call's time */
	rseq_arm();
}

void pmk__mpi_poll_idle(int fn, uint64_t t1)
{
	pmk__mpi_poll_end = t1;
	poll_fn = fn;
}

void pmk__mpi_poll_gap(int fn, uint64_t t0)
{
	uint64_t gap = t0 > pmk__mpi_poll_end ? t0 - pmk__mpi_poll_end : 0;
	int lost = rseq_lost();
	pmk__mpi_poll_end = 0;
	if (gap <= T.short_ticks)
		poll_tight += poll_tight < TIGHT;
	else if (!(lost && fn == poll_fn && poll_tight >= TIGHT)) {
		poll_tight = 0;
		return;
	}
	pmk__mpi_fs[poll_fn].ns += gap;
	pmk__mpi_total_ns += gap;
}

void pmk__mpi_gate_update(void)
{
	pmk__mpi_gate = !pmk__mpi_on ? 0
			: pmk__mpi_mode == PMK__MPI_EXACT && pmk__mpi_tsc ? 1
									  : 2;
}

/* The wrappers' other way in (the gate's 2): exact timing on
 * clock_gettime, sampling, or several threads. */
int pmk__mpi_enter(int fn, int is_local, uint64_t *t0)
{
	pmk__mpi_depth = 1;
	if (pmk__mpi_mode == PMK__MPI_EXACT) {
		pmk__mpi_in_t0 = *t0 = pmk__mpi_now();
		if (pmk__mpi_poll_end)
			pmk__mpi_poll_gap(fn, *t0);
		return 1;
	}
	if (pmk__mpi_mode == PMK__MPI_THREADS) {
		uint64_t t = pmk__mpi_now();
		pthread_mutex_lock(&lock);
		if (inside++ == 0)
			busy_since = t;
		pthread_mutex_unlock(&lock);
		*t0 = t;
		return 1;
	}
	if (pmk__mpi_skip &&
	    (is_local || (pmk__mpi_wrun >= PMK__MPI_WRUN &&
			  pmk__mpi_fs[fn].run >= PMK__MPI_WRUN))) {
		pmk__mpi_skip--;
		return 2;
	}
	pmk__mpi_in_t0 = *t0 = pmk__mpi_now();
	return 1;
}

void pmk__mpi_leave(int fn, int is_local, int on, uint64_t t0, uint64_t sent,
		    uint64_t recv)
{
	struct pmk__mpi_fstat *s = &pmk__mpi_fs[fn];
	if (pmk__mpi_mode == PMK__MPI_THREADS) {
		uint64_t t1 = pmk__mpi_now();
		pthread_mutex_lock(&lock);
		s->calls++;
		s->sent += sent;
		s->recv += recv;
		s->ns += t1 - t0;
		if (--inside == 0)
			pmk__mpi_total_ns += t1 - busy_since;
		pthread_mutex_unlock(&lock);
		return;
	}
	if (on == 1) {
		uint64_t t1 = pmk__mpi_now();
		pmk__mpi_in_t0 = 0;
		s->calls++;
		s->sent += sent;
		s->recv += recv;
		pmk__mpi_timed(fn, t0, t1);
	} else {
		s->calls++;
		s->sent += sent;
		s->recv += recv;
		s->untimed++;
		/* a long span after it may be MPI time: a call that waited
		 * for another rank, or (any call) the CPU taken away inside
		 * it; pollmaster's master showed 73 to 86 % of its wall time
		 * so under load, before this counted as possible MPI time */
		pmk__mpi_waited = 1;
	}
	if (is_local)
		pmk__mpi_wrun = 0;
}

uint64_t pmk__mpi_timing_so_far(uint64_t now)
{
	uint64_t t = pmk__mpi_total_ns, s;
	if (pmk__mpi_mode == PMK__MPI_THREADS) {
		s = busy_since;
		if (inside && now > s)
			t += now - s;
	} else {
		s = pmk__mpi_in_t0;
		if (s && now > s)
			t += now - s;
	}
	return t;
}

/* The span from the end of the last timed call to `now`, which held `u`
 * untimed calls: 1 when it held something long, and the burst ended. */
static int close_span(uint64_t now, uint32_t u)
{
	uint64_t span = now > T.last ? now - T.last : 0;
	T.spans += span;
	if (span <= (uint64_t)(u + 1) * T.short_ticks) {
		pmk__mpi_waited = 0;
		return 0;
	}
	/* something long among the untimed calls and the gaps between them:
	 * the program's work, or a call that waited (or lost its CPU) */
	if (pmk__mpi_waited) {
		double m = mean_of(NULL) * u;
		T.amb_ticks += (double)span > m ? (double)span - m : 0;
	}
	pmk__mpi_waited = 0;
	end_burst();
	return 1;
}

void pmk__mpi_timing_flush(uint64_t now)
{
	if (!T.sampling)
		return;
	if (!close_span(now, T.drawn - pmk__mpi_skip)) {
		T.drawn = pmk__mpi_skip;
		settle();
	}
	T.last = now;
}

void pmk__mpi_timed(int fn, uint64_t t0, uint64_t t1)
{
	struct pmk__mpi_fstat *s = &pmk__mpi_fs[fn];
	uint64_t d = t1 - t0;
	int is_short = d <= T.short_ticks, quick;
	s->ns += d;
	if (pmk__mpi_mode == PMK__MPI_THREADS) /* the union: see above */
		return;
	pmk__mpi_total_ns += d;
	if (T.exact)
		return;
	if (is_short)
		sample_add(&s->all_short, d);
	if (T.sampling) {
		/* a timed call where the schedule said so (pmk__mpi_skip 0),
		 * or one that may wait, outside a run of such calls */
		uint32_t u = T.drawn - pmk__mpi_skip;
		int drawn = pmk__mpi_skip == 0;
		if (drawn && is_short)
			sample_add(&s->sampled, d);
		quick = !close_span(t0, u);
		if (quick && !is_short)
			end_burst();
		else if (quick && drawn)
			T.drawn = pmk__mpi_skip = draw();
		else if (quick)
			T.drawn = pmk__mpi_skip;
		quick = quick && is_short;
	} else {
		quick = is_short && t0 - T.last <= T.short_ticks;
		if (!quick)
			T.streak = 0;
		else if (++T.streak >= STREAK) {
			T.sampling = 1;
			T.drawn = pmk__mpi_skip = draw();
		}
	}
	if (!local[fn])
		pmk__mpi_wrun =
		    quick ? pmk__mpi_wrun + (pmk__mpi_wrun < PMK__MPI_WRUN) : 0;
	s->run = quick ? s->run + (s->run < PMK__MPI_WRUN) : 0;
	T.last = t1;
}

void pmk__mpi_timing_finish(uint64_t now, struct pmk__mpi_timing *out)
{
	double est = 0, scale = 1, var = 0;
	pmk__mpi_timing_flush(now);
	memset(out, 0, sizeof *out);
	out->untimed = T.untimed;
	out->amb_ticks = T.amb_ticks;
	if (!T.untimed)
		return;
	/* each function's untimed calls at its mean over the whole run,
	 * together never more than all the spans that held them */
	for (int f = 0; f < PMK__MPI_NFUNCS; f++)
		est +=
		    (double)pmk__mpi_fs[f].untimed * mean_of(&pmk__mpi_fs[f]);
	if (est > (double)T.all_spans) {
		scale = (double)T.all_spans / est;
		est = (double)T.all_spans;
	}
	pmk__mpi_total_ns += (uint64_t)(est + 0.5) - T.added;
	for (int f = 0; f < PMK__MPI_NFUNCS; f++) {
		struct pmk__mpi_fstat *s = &pmk__mpi_fs[f];
		const struct pmk__mpi_sample *x = sample_of(s);
		double n = (double)x->n;
		double u = (double)s->untimed;
		if (!s->untimed)
			continue;
		s->ns += (uint64_t)(u * mean_of(s) * scale + 0.5);
		/* one standard error: the mean's error over the u calls and
		 * their own spread around it */
		if (n > 1) {
			double m = (double)x->ticks / n;
			double v = (x->sq - n * m * m) / (n - 1);
			var += (v > 0 ? v : 0) * (u * u / n + u);
		}
	}
	out->err_ticks = sqrt(var);
}
