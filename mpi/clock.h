/*
 * clock.h: which clock libpmkit-mpi's wrappers read (rank.h,
 * pmk__mpi_now): the CPU's own counter where the kernel itself lets user
 * space keep time with it, else clock_gettime(CLOCK_MONOTONIC).
 *
 *  - clocksource "tsc" (x86-64) or "arch_sys_counter" (arm64): the kernel
 *    keeps time with the counter; so may we.
 *  - clocksource "kvm-clock" (x86-64, a KVM guest whose kernel does not
 *    take the TSC itself, e.g. booted with tsc=unstable for snapshots):
 *    the kernel's own clock_gettime reads the TSC in user space and
 *    scales it by the hypervisor's parameters (the pvclock page the vDSO
 *    reads), trusting it across CPUs when the hypervisor flags it stable.
 *    The counter is used when that page says so (stable flag), the CPU
 *    says its TSC keeps its rate (constant_tsc, nonstop_tsc), and the rate
 *    measured against CLOCK_MONOTONIC agrees with the page's within 1 %
 *    (a page found at the wrong place cannot pass). At MPI_Finalize the
 *    page is read again: a rate the hypervisor changed during the run
 *    (migration to another host) is reported.
 *
 * The choice is a function of facts (pmk__mpi_clock_pick), tested with
 * made-up ones; pmk__mpi_counter_usable gathers the host's. No MPI
 * header.
 */
#ifndef PMK_MPI_CLOCK_H
#define PMK_MPI_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The two clocks, read inline by the wrappers (rank.h, pmk__mpi_now) */
static inline uint64_t pmk__mpi_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline uint64_t pmk__mpi_counter(void)
{
#if defined(__x86_64__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	return pmk__mpi_mono_ns();
#endif
}

/* The counter's ticks per ns against CLOCK_MONOTONIC, measured over
 * `span_ns` */
double pmk__mpi_counter_rate(uint64_t span_ns);

/* The hypervisor's clock parameters (the pvclock ABI shared by KVM and
 * the guest kernel: 32 bytes, little-endian) */
struct pmk__mpi_pvclock {
	uint32_t version; /* odd while the hypervisor updates the page */
	uint64_t tsc_timestamp, system_time;
	uint32_t mul;  /* ns = ((tsc - tsc_timestamp) << shift) * mul >> 32 */
	int8_t shift;  /* (>> -shift when negative) */
	uint8_t flags; /* bit 0: the TSC is stable (synchronized) */
};
#define PMK__MPI_PVCLOCK_BYTES	32
#define PMK__MPI_PVCLOCK_STABLE 1u
/* Decode the page's first 32 bytes; 0 when they cannot be parameters (a
 * zero multiplier, a shift beyond +-32). */
int pmk__mpi_pvclock_parse(const unsigned char *b, size_t n,
			   struct pmk__mpi_pvclock *pv);
/* Copy and decode the parameters at `addr`: 0 when they are not mapped
 * there (no signal), being updated, or not parameters */
int pmk__mpi_pvclock_copy(uintptr_t addr, struct pmk__mpi_pvclock *pv);
/* Whether the parameters `now` (NULL: unreadable) give the TSC another
 * rate than `then`, or no longer flag it stable */
int pmk__mpi_pvclock_moved(const struct pmk__mpi_pvclock *then,
			   const struct pmk__mpi_pvclock *now);
/* The TSC ticks per ns the parameters say */
double pmk__mpi_pvclock_rate(const struct pmk__mpi_pvclock *pv);

/* What the choice is made from */
struct pmk__mpi_clock_facts {
	const char *arch;	 /* "x86_64", "aarch64", other */
	const char *clocksource; /* current_clocksource, no newline */
	const char *cpu_flags;	 /* x86-64: /proc/cpuinfo's "flags" line */
	const struct pmk__mpi_pvclock *pv; /* NULL: no page read */
	double measured; /* counter ticks per ns against CLOCK_MONOTONIC;
			  * 0: not measured */
};
enum { PMK__MPI_CLOCK_MONO, PMK__MPI_CLOCK_COUNTER, PMK__MPI_CLOCK_PVCLOCK };
/* PMK__MPI_CLOCK_COUNTER (clocksource of the counter itself),
 * _PVCLOCK (the counter, vouched for by kvm-clock's page) or _MONO */
int pmk__mpi_clock_pick(const struct pmk__mpi_clock_facts *f);

/* The host's facts, PMKIT_MPI_CLOCK=monotonic, and the choice: 1 to read
 * the counter. Remembers the pvclock page it relied on. */
int pmk__mpi_counter_usable(void);
/* After pmk__mpi_counter_usable chose kvm-clock's TSC: 1 when the page
 * now gives another rate or is no longer stable (0 otherwise, and for
 * every other clock). */
int pmk__mpi_clock_changed(void);

#endif
