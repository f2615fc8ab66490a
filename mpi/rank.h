/*
 * rank.h: what libpmkit-mpi measures in one rank, between MPI_Init and
 * MPI_Finalize: the counters (an event set of the public API), time and
 * calls per MPI function, and the regions. The wrappers (pmpi.c,
 * fortran.c) feed it; at MPI_Finalize it becomes the rank's record of a
 * job (job.h). No MPI header here.
 */
#ifndef PMK_MPI_RANK_H
#define PMK_MPI_RANK_H

#include <stdint.h>
#include <time.h>

#include "mpi/clock.h"
#include "mpi/comm.h"
#include "mpi/job.h"

/* X(id, "MPI name", local): every function with its own time and call
 * count; `local` is 1 for the ones that return without waiting for
 * another rank (starting a request, testing one, probing), 0 for those
 * that may wait (mpi/timing.c: a long span after them is ambiguous). */
#define PMK__MPI_FUNCS(X)                                                      \
	X(SEND, "MPI_Send", 0) X(SSEND, "MPI_Ssend", 0)                        \
	X(BSEND, "MPI_Bsend", 1) X(RSEND, "MPI_Rsend", 0)                      \
	X(ISEND, "MPI_Isend", 1) X(ISSEND, "MPI_Issend", 1)                    \
	X(RECV, "MPI_Recv", 0) X(IRECV, "MPI_Irecv", 1)                        \
	X(SENDRECV, "MPI_Sendrecv", 0)                                         \
	X(SENDRECV_REPLACE, "MPI_Sendrecv_replace", 0)                         \
	X(WAIT, "MPI_Wait", 0) X(WAITALL, "MPI_Waitall", 0)                    \
	X(WAITANY, "MPI_Waitany", 0) X(WAITSOME, "MPI_Waitsome", 0)            \
	X(TEST, "MPI_Test", 1) X(TESTALL, "MPI_Testall", 1)                    \
	X(TESTANY, "MPI_Testany", 1) X(PROBE, "MPI_Probe", 0)                  \
	X(IPROBE, "MPI_Iprobe", 1) X(BARRIER, "MPI_Barrier", 0)                \
	X(BCAST, "MPI_Bcast", 0) X(REDUCE, "MPI_Reduce", 0)                    \
	X(ALLREDUCE, "MPI_Allreduce", 0) X(GATHER, "MPI_Gather", 0)            \
	X(GATHERV, "MPI_Gatherv", 0) X(SCATTER, "MPI_Scatter", 0)              \
	X(SCATTERV, "MPI_Scatterv", 0) X(ALLGATHER, "MPI_Allgather", 0)        \
	X(ALLGATHERV, "MPI_Allgatherv", 0) X(ALLTOALL, "MPI_Alltoall", 0)      \
	X(ALLTOALLV, "MPI_Alltoallv", 0)                                       \
	X(REDUCE_SCATTER, "MPI_Reduce_scatter", 0) X(SCAN, "MPI_Scan", 0)      \
	X(EXSCAN, "MPI_Exscan", 0) X(IBARRIER, "MPI_Ibarrier", 1)              \
	X(IBCAST, "MPI_Ibcast", 1) X(IREDUCE, "MPI_Ireduce", 1)                \
	X(IALLREDUCE, "MPI_Iallreduce", 1)                                     \
	PMK__MPI_FUNCS_EXT(X)

/* Persistent requests, one-sided communication and MPI-IO (pmpi_ext.c,
 * fortran_calls.h): starting a persistent request, a put, get or
 * accumulate and a non-blocking file access are local; the rest may
 * wait (synchronizing a window, collective or blocking file access). */
#define PMK__MPI_FUNCS_EXT(X)                                                  \
	X(SEND_INIT, "MPI_Send_init", 1) X(RECV_INIT, "MPI_Recv_init", 1)      \
	X(START, "MPI_Start", 1) X(STARTALL, "MPI_Startall", 1)                \
	X(WIN_CREATE, "MPI_Win_create", 0)                                     \
	X(WIN_ALLOCATE, "MPI_Win_allocate", 0) X(WIN_FREE, "MPI_Win_free", 0)  \
	X(PUT, "MPI_Put", 1) X(GET, "MPI_Get", 1)                              \
	X(ACCUMULATE, "MPI_Accumulate", 1) X(WIN_FENCE, "MPI_Win_fence", 0)    \
	X(WIN_LOCK, "MPI_Win_lock", 0) X(WIN_UNLOCK, "MPI_Win_unlock", 0)      \
	X(WIN_LOCK_ALL, "MPI_Win_lock_all", 0)                                 \
	X(WIN_UNLOCK_ALL, "MPI_Win_unlock_all", 0)                             \
	X(WIN_FLUSH, "MPI_Win_flush", 0) X(WIN_POST, "MPI_Win_post", 0)        \
	X(WIN_START, "MPI_Win_start", 0) X(WIN_COMPLETE, "MPI_Win_complete", 0) \
	X(WIN_WAIT, "MPI_Win_wait", 0) X(FILE_OPEN, "MPI_File_open", 0)        \
	X(FILE_CLOSE, "MPI_File_close", 0) X(FILE_READ, "MPI_File_read", 0)    \
	X(FILE_WRITE, "MPI_File_write", 0)                                     \
	X(FILE_READ_AT, "MPI_File_read_at", 0)                                 \
	X(FILE_WRITE_AT, "MPI_File_write_at", 0)                               \
	X(FILE_READ_ALL, "MPI_File_read_all", 0)                               \
	X(FILE_WRITE_ALL, "MPI_File_write_all", 0)                             \
	X(FILE_READ_AT_ALL, "MPI_File_read_at_all", 0)                         \
	X(FILE_WRITE_AT_ALL, "MPI_File_write_at_all", 0)                       \
	X(FILE_IREAD, "MPI_File_iread", 1) X(FILE_IWRITE, "MPI_File_iwrite", 1) \
	X(FILE_SET_VIEW, "MPI_File_set_view", 0)                               \
	X(FILE_SYNC, "MPI_File_sync", 0)

enum pmk__mpi_fn {
#define PMK__FN_ENUM(id, name, local) PMK__MPI_##id,
	PMK__MPI_FUNCS(PMK__FN_ENUM)
#undef PMK__FN_ENUM
	PMK__MPI_NFUNCS
};
enum {
#define PMK__FN_LOCAL(id, name, local) PMK__MPI_LOCAL_##id = local,
	PMK__MPI_FUNCS(PMK__FN_LOCAL)
#undef PMK__FN_LOCAL
};

struct pmk__mpi_fstat {
	uint64_t calls, ns, sent, recv;
	uint64_t untimed;     /* calls counted, not timed (timing.c) */
	/* its timed calls shorter than the threshold, and those of them
	 * timed at random in a burst (timing.c) */
	struct pmk__mpi_sample {
		uint64_t n, ticks;
		double sq; /* the sum of their squares */
	} all_short, sampled;
	unsigned run;         /* its last timed calls that were short, in a row */
};

/* Counted only while `pmk__mpi_on` (after MPI_Init, before MPI_Finalize)
 * and not inside another wrapper (a Fortran wrapper calling the C one, an
 * MPI function calling another): `pmk__mpi_depth`. Plain additions, one
 * thread at a time; with MPI_THREAD_MULTIPLE under a lock (timing.c).
 * Hidden, so that the wrappers reach them without the GOT, and the
 * thread's depth with the initial-exec TLS model (no __tls_get_addr). */
#define PMK__MPI_HIDDEN __attribute__((visibility("hidden")))
extern int pmk__mpi_on PMK__MPI_HIDDEN;
extern __thread int pmk__mpi_depth PMK__MPI_HIDDEN
	__attribute__((tls_model("initial-exec")));
extern struct pmk__mpi_fstat pmk__mpi_fs[PMK__MPI_NFUNCS] PMK__MPI_HIDDEN;
extern uint64_t pmk__mpi_total_ns PMK__MPI_HIDDEN; /* all MPI time so far */

/* The wrappers' clock, in ticks: the CPU's own counter where the kernel
 * lets user space keep time with it (clock.h: clocksource "tsc" or
 * kvm-clock's stable TSC on x86-64, "arch_sys_counter" on arm64), a third
 * to a half of the cost of clock_gettime; else CLOCK_MONOTONIC in ns.
 * Ticks become nanoseconds at MPI_Finalize, by the ratio of both clocks
 * over the whole run (a calibration over seconds, not a short one at
 * MPI_Init). */
extern int pmk__mpi_tsc PMK__MPI_HIDDEN;
static inline uint64_t pmk__mpi_now(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	if (pmk__mpi_tsc)
		return pmk__mpi_counter();
#endif
	return pmk__mpi_mono_ns();
}

/*
 * Timing (timing.c). `pmk__mpi_mode` says how calls are timed:
 *  - PMK__MPI_EXACT (the default): every call, two clock reads, inline in
 *    the wrappers;
 *  - PMK__MPI_SAMPLE (PMKIT_MPI_TIMING=sample, opt-in): in bursts of short
 *    calls only some are timed and the others estimated; whether a call
 *    is timed is decided at its start by `pmk__mpi_skip`, the untimed
 *    calls still to come (0: time this one); docs/mpi.md says where this
 *    goes wrong;
 *  - PMK__MPI_THREADS (MPI_THREAD_MULTIPLE): every call, under a lock; a
 *    function's time is the sum over threads, the rank's MPI time the
 *    time during which at least one thread was inside MPI (never more
 *    than the wall time).
 */
enum { PMK__MPI_EXACT, PMK__MPI_SAMPLE, PMK__MPI_THREADS };
extern int pmk__mpi_mode PMK__MPI_HIDDEN;
/* The start of the call in progress (PMK__MPI_EXACT; 0: none), for a
 * record written by a signal handler while the rank waits in MPI. */
extern volatile uint64_t pmk__mpi_in_t0 PMK__MPI_HIDDEN;
/* A tight polling loop (PMK__MPI_EXACT): the end of the last call when
 * it was a poll that found nothing (0: it was not). The time from there
 * to the next call is the loop's own, counted as MPI when it is short, or
 * when the thread lost its CPU in it while polling tightly (timing.c). */
extern uint64_t pmk__mpi_poll_end PMK__MPI_HIDDEN;
void pmk__mpi_poll_arm(void) PMK__MPI_HIDDEN; /* before the call's end */
void pmk__mpi_poll_idle(int fn, uint64_t t1) PMK__MPI_HIDDEN;
void pmk__mpi_poll_gap(int fn, uint64_t t0) PMK__MPI_HIDDEN;
extern uint32_t pmk__mpi_skip PMK__MPI_HIDDEN;
/* set by an untimed call that may have waited for another rank */
extern int pmk__mpi_waited PMK__MPI_HIDDEN;
/* short calls that may wait, timed one after the other (0 after a local
 * call); from PMK__MPI_WRUN on, such calls may be left untimed too */
extern unsigned pmk__mpi_wrun PMK__MPI_HIDDEN;
#define PMK__MPI_WRUN 16
void pmk__mpi_timed(int fn, uint64_t t0, uint64_t t1) PMK__MPI_HIDDEN;
/* The wrappers' way in and out in the modes other than PMK__MPI_EXACT:
 * enter returns 1 (timed, *t0 set) or 2 (counted only). */
int pmk__mpi_enter(int fn, int local, uint64_t *t0) PMK__MPI_HIDDEN;
void pmk__mpi_leave(int fn, int local, int on, uint64_t t0, uint64_t sent,
		    uint64_t recv) PMK__MPI_HIDDEN;
/* At MPI_Init, after choosing the clock: exact = time every call (else
 * PMKIT_MPI_TIMING decides: "sample" or its old name "auto" samples,
 * "exact" or nothing times every call). */
void pmk__mpi_timing_start(int exact);
/* What reading the clock adds to a timed call, in ticks (a small call
 * timed one by one against the same calls timed in bulk), and telling the
 * estimates of untimed calls. */
double pmk__mpi_clock_cost(void);
void pmk__mpi_timing_clock_cost(double ticks);
/* From now on, time every call, several threads at once
 * (MPI_THREAD_MULTIPLE). */
void pmk__mpi_timing_exact(void);
/* The MPI time so far, with the call or calls in progress up to `now`
 * (for a record written before MPI_Finalize; no lock, no allocation). */
uint64_t pmk__mpi_timing_so_far(uint64_t now);
/* Add the estimate of the untimed calls so far to pmk__mpi_total_ns
 * (before a region boundary reads it). */
void pmk__mpi_timing_flush(uint64_t now);
struct pmk__mpi_timing {
	uint64_t untimed;  /* calls whose time is estimated */
	double err_ticks;  /* one standard error of their estimate */
	double amb_ticks;  /* spans that held something long (see timing.c) */
};
/* At MPI_Finalize: the untimed calls' estimates into each function's
 * time (pmk__mpi_fs[].ns), and how good they are. */
void pmk__mpi_timing_finish(uint64_t now, struct pmk__mpi_timing *out);

/*
 * The communication picture (commrank.c, comm.h), fed from inside a
 * measured call: with exact timing, pmk__mpi_comm_fast, inline, after the
 * call's end was read (a send: its part before the call, its time after
 * it, pmk__mpi_exact_first and _time below) (each wrapper keeps its last call site in a static
 * cache of its own: a loop calling from one place touches nothing else);
 * in the other modes pmk__mpi_comm_call (its time in ticks, UINT64_MAX
 * when untimed; its bytes; the caller's return address);
 * pmk__mpi_comm_send with a point-to-point send's destination in
 * MPI_COMM_WORLD. pmk__mpi_comm_record puts it into the rank's record at
 * MPI_Finalize (k: ns per tick).
 */
struct pmk__mpi_cfn {
	uint64_t min, max; /* ticks */
	uint64_t hist[PMK__MPI_HBUCKETS];
};
extern struct pmk__mpi_cfn pmk__mpi_cfn[PMK__MPI_NFUNCS] PMK__MPI_HIDDEN;
struct pmk__mpi_site1 {
	const void *addr; /* NULL: none yet */
	uint64_t calls, ticks;
	int fn;
};
void pmk__mpi_site_miss(struct pmk__mpi_site1 *s, int fn, const void *addr,
			uint64_t ticks) PMK__MPI_HIDDEN;
void pmk__mpi_site_ticks(int fn, const void *addr, uint64_t ticks)
	PMK__MPI_HIDDEN;
static inline void pmk__mpi_comm_fast(int fn, uint64_t d, uint64_t sb,
				      uint64_t rb, struct pmk__mpi_site1 *s,
				      const void *addr)
{
	struct pmk__mpi_cfn *c = &pmk__mpi_cfn[fn];
	c->hist[pmk__mpi_bucket(sb ? sb : rb)]++;
	if (d < c->min)
		c->min = d;
	if (d > c->max)
		c->max = d;
	if (__builtin_expect(s->addr == addr, 1)) {
		s->calls++;
		s->ticks += d;
	} else
		pmk__mpi_site_miss(s, fn, addr, d);
}
/* Point-to-point sends by destination in MPI_COMM_WORLD, [pmk__mpi_nto]
 * (0 until MPI_Init, and when out of memory): the wrappers count a send
 * on MPI_COMM_WORLD inline with exact timing (one thread in MPI at a
 * time); any other through pmk__mpi_comm_send. */
struct pmk__mpi_tocount {
	uint64_t calls, bytes;
};
extern struct pmk__mpi_tocount *pmk__mpi_to PMK__MPI_HIDDEN;
extern int pmk__mpi_nto PMK__MPI_HIDDEN;
static inline void pmk__mpi_comm_send_fast(int dest, uint64_t bytes)
{
	if ((unsigned)dest < (unsigned)pmk__mpi_nto) {
		pmk__mpi_to[dest].calls++;
		pmk__mpi_to[dest].bytes += bytes;
	}
}
void pmk__mpi_comm_start(int size) PMK__MPI_HIDDEN;
void pmk__mpi_comm_call(int fn, uint64_t ticks, uint64_t sent, uint64_t recv,
			const void *addr) PMK__MPI_HIDDEN;
void pmk__mpi_comm_send(int dest, uint64_t bytes) PMK__MPI_HIDDEN;
int pmk__mpi_comm_record(struct pmk__mpi_rank *r, double k) PMK__MPI_HIDDEN;

/*
 * The wrappers' gate, one load on their way in: 1 while measuring with
 * exact timing on the CPU's counter (one thread in MPI at a time) and no
 * wrapper in progress, 0 while one is (a Fortran wrapper calling the C
 * one, an MPI function calling another) or when not measuring; 2 for the
 * other ways (sampling, several threads, clock_gettime), decided out of
 * line with the thread's `pmk__mpi_depth`. Set by pmk__mpi_gate_update
 * (timing.c) whenever pmk__mpi_on or pmk__mpi_mode changes; a wrapper on
 * the first way closes it on its way in and opens it again, to
 * pmk__mpi_on, on its way out (0 if a signal's record stopped counting
 * while the call ran).
 */
extern int pmk__mpi_gate PMK__MPI_HIDDEN;
void pmk__mpi_gate_update(void) PMK__MPI_HIDDEN;
/* Exact timing: what a timed call of `d` ticks adds, after its end was
 * read (inline on the first way; pmk__mpi_leave_other on clock_gettime). */
static inline void pmk__mpi_exact_add(int fn, uint64_t d, uint64_t sb,
				      uint64_t rb, struct pmk__mpi_site1 *site,
				      const void *addr)
{
	struct pmk__mpi_fstat *s = &pmk__mpi_fs[fn];
	s->calls++;
	s->sent += sb;
	s->recv += rb;
	s->ns += d;
	pmk__mpi_total_ns += d;
	pmk__mpi_comm_fast(fn, d, sb, rb, site, addr);
}
/* The same in two parts, for a send whose bytes and destination are known
 * before its call: its counts then (after its start was read), its time
 * after its end. A ping-pong's round trip on this VM grows with the work
 * between a send's return and the receive after it, and not with the work
 * between a receive's return and the next send (docs/mpi.md). */
static inline void pmk__mpi_exact_first(int fn, uint64_t sb,
					struct pmk__mpi_site1 *site,
					const void *addr)
{
	struct pmk__mpi_fstat *s = &pmk__mpi_fs[fn];
	s->calls++;
	s->sent += sb;
	pmk__mpi_cfn[fn].hist[pmk__mpi_bucket(sb)]++;
	if (__builtin_expect(site->addr == addr, 1))
		site->calls++;
	else
		pmk__mpi_site_miss(site, fn, addr, 0);
}
static inline void pmk__mpi_exact_time(int fn, uint64_t d,
				       struct pmk__mpi_site1 *site,
				       const void *addr)
{
	struct pmk__mpi_cfn *c = &pmk__mpi_cfn[fn];
	pmk__mpi_fs[fn].ns += d;
	pmk__mpi_total_ns += d;
	if (d < c->min)
		c->min = d;
	if (d > c->max)
		c->max = d;
	if (__builtin_expect(site->addr == addr, 1))
		site->ticks += d;
	else
		pmk__mpi_site_ticks(fn, addr, d);
}
/* The other ways out (0 for `on` that entered through the gate's 2) */
void pmk__mpi_leave_other(int fn, int local, int on, uint64_t t0,
			  uint64_t sent, uint64_t recv, int idle,
			  struct pmk__mpi_site1 *site, const void *addr)
	PMK__MPI_HIDDEN;

/* Enter and leave the wrapper of `fn`: `pmk_on_` is 3 for a call timed
 * inline (the gate's first way), 1 for one timed out of line, 2 for one
 * counted only, 0 when not measured (before MPI_Init, or inside another
 * wrapper). On the first way, the default, every call costs the gate's
 * load and two stores, two reads of the counter, and the counts after
 * the second; the sums of bytes are taken before it, so that the
 * wrapper's own calls (a communicator's rank or size) fall inside the
 * call's time, as they would in a program timing its own calls. */
#define PMK__MPI_ENTER(fn)                                                     \
	int pmk_on_ = 0;                                                       \
	uint64_t pmk_t0_ = 0;                                                  \
	if (__builtin_expect(pmk__mpi_gate == 1, 1)) {                         \
		pmk__mpi_gate = 0;                                             \
		pmk_on_ = 3;                                                   \
		pmk__mpi_in_t0 = pmk_t0_ = pmk__mpi_counter();                 \
		if (__builtin_expect(pmk__mpi_poll_end != 0, 0))               \
			pmk__mpi_poll_gap(PMK__MPI_##fn, pmk_t0_);             \
	} else if (pmk__mpi_gate == 2 && pmk__mpi_depth == 0)                  \
		pmk_on_ = pmk__mpi_enter(PMK__MPI_##fn, PMK__MPI_LOCAL_##fn,   \
					 &pmk_t0_);
#define PMK__MPI_LEAVE(fn, sent_bytes, recv_bytes)                             \
	PMK__MPI_LEAVE_POLL(fn, sent_bytes, recv_bytes, 0)
/* The same for a poll (MPI_Iprobe, MPI_Test...): `idle` when it found
 * nothing (timing.c: a tight loop of such polls is waiting). */
#define PMK__MPI_LEAVE_POLL(fn, sent_bytes, recv_bytes, idle)                  \
	if (pmk_on_) {                                                         \
		static struct pmk__mpi_site1 pmk_st_;                          \
		uint64_t pmk_sb_ = (uint64_t)(sent_bytes);                     \
		uint64_t pmk_rb_ = (uint64_t)(recv_bytes);                     \
		if (__builtin_expect(pmk_on_ == 3, 1)) {                       \
			uint64_t pmk_d_;                                       \
			if (idle)                                              \
				pmk__mpi_poll_arm();                           \
			pmk_d_ = pmk__mpi_counter() - pmk_t0_;                 \
			pmk__mpi_in_t0 = 0;                                    \
			__atomic_signal_fence(__ATOMIC_SEQ_CST);               \
			pmk__mpi_exact_add(PMK__MPI_##fn, pmk_d_, pmk_sb_,     \
					   pmk_rb_, &pmk_st_,                  \
					   __builtin_return_address(0));       \
			if (idle)                                              \
				pmk__mpi_poll_idle(PMK__MPI_##fn,              \
						   pmk_t0_ + pmk_d_);          \
			pmk__mpi_gate = pmk__mpi_on;                           \
		} else                                                         \
			pmk__mpi_leave_other(PMK__MPI_##fn,                    \
					     PMK__MPI_LOCAL_##fn, pmk_on_,     \
					     pmk_t0_, pmk_sb_, pmk_rb_,        \
					     idle, &pmk_st_,                   \
					     __builtin_return_address(0));     \
	}

/* A send's way out in two parts (pmpi.c: after PMK__MPI_ENTER, the first
 * before its call, the rest after it; pmk__mpi_exact_first) */
#define PMK__MPI_SEND_FIRST(fn, sent_bytes)                                    \
	static struct pmk__mpi_site1 pmk_st_;                                  \
	uint64_t pmk_sb_ = (uint64_t)(sent_bytes);                             \
	if (__builtin_expect(pmk_on_ == 3, 1))                                 \
		pmk__mpi_exact_first(PMK__MPI_##fn, pmk_sb_, &pmk_st_,         \
				     __builtin_return_address(0));
#define PMK__MPI_SEND_REST(fn)                                                 \
	if (__builtin_expect(pmk_on_ == 3, 1)) {                               \
		uint64_t pmk_d_ = pmk__mpi_counter() - pmk_t0_;                \
		pmk__mpi_in_t0 = 0;                                            \
		__atomic_signal_fence(__ATOMIC_SEQ_CST);                       \
		pmk__mpi_exact_time(PMK__MPI_##fn, pmk_d_, &pmk_st_,           \
				    __builtin_return_address(0));              \
		pmk__mpi_gate = pmk__mpi_on;                                   \
	} else if (pmk_on_)                                                    \
		pmk__mpi_leave_other(PMK__MPI_##fn, PMK__MPI_LOCAL_##fn,       \
				     pmk_on_, pmk_t0_, pmk_sb_, 0, 0,          \
				     &pmk_st_, __builtin_return_address(0));

/* After a successful PMPI_Init: start counting. */
void pmk__mpi_start(int rank, int size, const char *host);
/* MPI_Pcontrol(level, name): 1 opens region `name`, -1 closes it. */
void pmk__mpi_pcontrol(int level, const char *name);
/* At MPI_Finalize: stop, close open regions, and build this rank's
 * record as a job of `size` with only this rank present. */
int pmk__mpi_stop(struct pmk__mpi_job *job);
/* Whether MPI_Init was seen (for the note of a program that never calls
 * it), and whether rank 0 should print the banner. */
extern int pmk__mpi_init_seen;
int pmk__mpi_rank(void);
/* In pmpi.c, for the Fortran entry points too: after a successful
 * PMPI_Init or PMPI_Init_thread, with the thread level provided
 * (MPI_THREAD_MULTIPLE: every call is timed), and at MPI_Finalize before
 * PMPI_Finalize (gathers the records to rank 0, which prints the banner
 * and writes the JSON). */
void pmk__mpi_after_init(int provided);
void pmk__mpi_finish(void);
void pmk__mpi_pcontrol(int level, const char *name);
/* Copy a region name from a caller that may not have passed one (an
 * MPI_Pcontrol(1) written for another tool's convention): the bytes are
 * read through process_vm_readv, so an invalid pointer is an error, not a
 * crash; at most `max` bytes, up to a NUL. Returns 0 with a printable name
 * in `out`, or -1. */
int pmk__mpi_safe_name(const char *p, size_t max, char *out, size_t size);
/*
 * A rank that does not reach MPI_Finalize (lastword.c): on SIGTERM,
 * SIGINT, MPI_Abort or exit, its record as it stands is written, flagged
 * with what ended it, without allocating or taking a lock (a signal
 * handler may run it). pmk__mpi_buf is a bounded text in a caller's
 * array; pmk__mpi_record_now fills one with this rank's record (the JSON
 * of a one-rank job, "end":`why`), and returns its length.
 */
struct pmk__mpi_buf {
	char *p;
	size_t n, cap; /* cap - 1 at most: always NUL-terminated */
};
void pmk__mpi_buf_str(struct pmk__mpi_buf *b, const char *s);
void pmk__mpi_buf_u64(struct pmk__mpi_buf *b, uint64_t v);
void pmk__mpi_buf_json(struct pmk__mpi_buf *b, const char *s);
size_t pmk__mpi_record_now(char *out, size_t cap, const char *why);
/* At MPI_Init: where such a record goes (PMKIT_MPI_DIR, else the job's
 * default, pmkit-mpi.d in the working directory), the handlers. */
void pmk__mpi_lastword_arm(int rank);
/* Write this rank's record now, once, flagged `why`, if it is still
 * measuring (async-signal-safe). */
void pmk__mpi_lastword(const char *why);
/* During MPI_Finalize's gather: the rank's complete record, for the
 * default directory if the job dies before rank 0 wrote the job's file
 * (NULL: the gather is over, or the record is in PMKIT_MPI_DIR already). */
void pmk__mpi_lastword_final(const char *text, size_t len);

/* A note or warning line on stderr, prefixed "pmkit-mpi: ". */
void pmk__mpi_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
