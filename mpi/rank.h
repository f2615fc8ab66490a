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

#include "mpi/job.h"

/* X(id, "MPI name"): every function with its own time and call count. */
#define PMK__MPI_FUNCS(X)                                                      \
	X(SEND, "MPI_Send") X(SSEND, "MPI_Ssend") X(BSEND, "MPI_Bsend")        \
	X(RSEND, "MPI_Rsend") X(ISEND, "MPI_Isend") X(ISSEND, "MPI_Issend")    \
	X(RECV, "MPI_Recv") X(IRECV, "MPI_Irecv")                              \
	X(SENDRECV, "MPI_Sendrecv") X(SENDRECV_REPLACE, "MPI_Sendrecv_replace") \
	X(WAIT, "MPI_Wait") X(WAITALL, "MPI_Waitall")                          \
	X(WAITANY, "MPI_Waitany") X(WAITSOME, "MPI_Waitsome")                  \
	X(TEST, "MPI_Test") X(TESTALL, "MPI_Testall")                          \
	X(TESTANY, "MPI_Testany") X(PROBE, "MPI_Probe")                        \
	X(IPROBE, "MPI_Iprobe") X(BARRIER, "MPI_Barrier")                      \
	X(BCAST, "MPI_Bcast") X(REDUCE, "MPI_Reduce")                          \
	X(ALLREDUCE, "MPI_Allreduce") X(GATHER, "MPI_Gather")                  \
	X(GATHERV, "MPI_Gatherv") X(SCATTER, "MPI_Scatter")                    \
	X(SCATTERV, "MPI_Scatterv") X(ALLGATHER, "MPI_Allgather")              \
	X(ALLGATHERV, "MPI_Allgatherv") X(ALLTOALL, "MPI_Alltoall")            \
	X(ALLTOALLV, "MPI_Alltoallv") X(REDUCE_SCATTER, "MPI_Reduce_scatter")  \
	X(SCAN, "MPI_Scan") X(EXSCAN, "MPI_Exscan")                            \
	X(IBARRIER, "MPI_Ibarrier") X(IBCAST, "MPI_Ibcast")                    \
	X(IREDUCE, "MPI_Ireduce") X(IALLREDUCE, "MPI_Iallreduce")

enum pmk__mpi_fn {
#define PMK__FN_ENUM(id, name) PMK__MPI_##id,
	PMK__MPI_FUNCS(PMK__FN_ENUM)
#undef PMK__FN_ENUM
	PMK__MPI_NFUNCS
};

struct pmk__mpi_fstat {
	uint64_t calls, ns, sent, recv;
};

/* Counted only while `pmk__mpi_on` (after MPI_Init, before MPI_Finalize)
 * and not inside another wrapper (a Fortran wrapper calling the C one, an
 * MPI function calling another): `pmk__mpi_depth`. Plain additions: with
 * MPI_THREAD_MULTIPLE, concurrent calls may lose counts (docs/mpi.md).
 * Hidden, so that the wrappers reach them without the GOT, and the
 * thread's depth with the initial-exec TLS model (no __tls_get_addr). */
#define PMK__MPI_HIDDEN __attribute__((visibility("hidden")))
extern int pmk__mpi_on PMK__MPI_HIDDEN;
extern __thread int pmk__mpi_depth PMK__MPI_HIDDEN
	__attribute__((tls_model("initial-exec")));
extern struct pmk__mpi_fstat pmk__mpi_fs[PMK__MPI_NFUNCS] PMK__MPI_HIDDEN;
extern uint64_t pmk__mpi_total_ns PMK__MPI_HIDDEN; /* all MPI time so far */

/* The wrappers' clock, in ticks: the CPU's own counter where the kernel
 * itself keeps time with it (clocksource "tsc" on x86-64: constant and
 * synchronized across CPUs; "arch_sys_counter" on arm64: cntvct_el0), a
 * third of the cost of clock_gettime; else CLOCK_MONOTONIC in ns. Ticks
 * become nanoseconds at MPI_Finalize, by the ratio of both clocks over the
 * whole run (a calibration over seconds, not a short one at MPI_Init). */
extern int pmk__mpi_tsc PMK__MPI_HIDDEN;
static inline uint64_t pmk__mpi_now(void)
{
	struct timespec ts;
#if defined(__x86_64__)
	if (pmk__mpi_tsc)
		return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	if (pmk__mpi_tsc) {
		uint64_t v;
		__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
		return v;
	}
#endif
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Enter and leave a wrapper: `on` says whether this call is timed. */
#define PMK__MPI_ENTER                                                         \
	int pmk_on_ = pmk__mpi_on && pmk__mpi_depth == 0;                      \
	uint64_t pmk_t0_ = 0;                                                  \
	if (pmk_on_) {                                                         \
		pmk__mpi_depth = 1;                                            \
		pmk_t0_ = pmk__mpi_now();                                      \
	}
#define PMK__MPI_LEAVE(fn, sent_bytes, recv_bytes)                             \
	if (pmk_on_) {                                                         \
		uint64_t pmk_d_ = pmk__mpi_now() - pmk_t0_;                    \
		struct pmk__mpi_fstat *pmk_s_ = &pmk__mpi_fs[PMK__MPI_##fn];   \
		pmk_s_->calls++;                                               \
		pmk_s_->ns += pmk_d_;                                          \
		pmk_s_->sent += (uint64_t)(sent_bytes);                        \
		pmk_s_->recv += (uint64_t)(recv_bytes);                        \
		pmk__mpi_total_ns += pmk_d_;                                   \
		pmk__mpi_depth = 0;                                            \
	}

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
 * PMPI_Init, and at MPI_Finalize before PMPI_Finalize (gathers the
 * records to rank 0, which prints the banner and writes the JSON). */
void pmk__mpi_after_init(void);
void pmk__mpi_finish(void);
void pmk__mpi_pcontrol(int level, const char *name);
/* Copy a region name from a caller that may not have passed one (an
 * MPI_Pcontrol(1) written for another tool's convention): the bytes are
 * read through process_vm_readv, so an invalid pointer is an error, not a
 * crash; at most `max` bytes, up to a NUL. Returns 0 with a printable name
 * in `out`, or -1. */
int pmk__mpi_safe_name(const char *p, size_t max, char *out, size_t size);
/* A note or warning line on stderr, prefixed "pmkit-mpi: ". */
void pmk__mpi_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
