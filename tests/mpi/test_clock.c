/*
 * test_clock.c: which clock libpmkit-mpi's wrappers read (mpi/clock.c),
 * chosen from made-up facts: clocksources, CPU flags, kvm-clock's
 * parameters page. The page's bytes are ones captured on a KVM guest
 * (2-vCPU "AMD EPYC", Linux 6.18 booted with tsc=unstable, clocksource
 * kvm-clock, 2026-11-28), whose TSC ran at 2.096024 ticks per ns against
 * CLOCK_MONOTONIC. No MPI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/clock.h"
#include "tests/support/t.h"

/* version 18, tsc_timestamp 460695075574650, system_time 1333115296,
 * mul 4098202355, shift -1, flags 1 (stable) */
static const unsigned char page[32] = {
    0x12, 0,	0,    0,    0,	  0,	0,    0,    0x7a, 0x53, 0x54,
    0xee, 0xff, 0xa2, 0x01, 0x00, 0xa0, 0xb9, 0x75, 0x4f, 0,	0,
    0,	  0,	0xf3, 0x9a, 0x45, 0xf4, 0xff, 0x01, 0,	  0};

static void test_page_is_decoded(void)
{
	struct pmk__mpi_pvclock pv;
	unsigned char b[32];
	T_ASSERT(pmk__mpi_pvclock_parse(page, sizeof page, &pv));
	T_EQ_INT(pv.version, 18);
	T_EQ_U64(pv.tsc_timestamp, 460695075574650u);
	T_EQ_U64(pv.system_time, 1333115296u);
	T_EQ_U64(pv.mul, 4098202355u);
	T_EQ_INT(pv.shift, -1);
	T_EQ_INT(pv.flags, 1);
	/* 2^32 / mul x 2^-shift ticks per ns: what was measured there */
	T_NEAR(pmk__mpi_pvclock_rate(&pv), 2.096025, 0.000001);
	T_NEAR(pmk__mpi_pvclock_rate(&pv), 2.096024, 0.000002);
	T_CHECK(!pmk__mpi_pvclock_parse(page, 31, &pv));
	memcpy(b, page, sizeof b);
	memset(b + 24, 0, 4); /* multiplier 0 */
	T_CHECK(!pmk__mpi_pvclock_parse(b, sizeof b, &pv));
	memcpy(b, page, sizeof b);
	b[28] = 40; /* shift beyond 32 */
	T_CHECK(!pmk__mpi_pvclock_parse(b, sizeof b, &pv));
	memcpy(b, page, sizeof b);
	b[28] = 2;
	T_ASSERT(pmk__mpi_pvclock_parse(b, sizeof b, &pv));
	T_NEAR(pmk__mpi_pvclock_rate(&pv), 2.096025 / 8, 0.000001);
}

static const char flags[] =
    "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca "
    "cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext "
    "fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc "
    "cpuid extd_apicid tsc_known_freq pni\n";

static void test_choice_from_facts(void)
{
	struct pmk__mpi_pvclock pv, odd, unstable;
	T_ASSERT(pmk__mpi_pvclock_parse(page, sizeof page, &pv));
	odd = pv;
	odd.version = 19;
	unstable = pv;
	unstable.flags = 0;
	static const struct {
		int line;
		const char *arch, *cs, *flags;
		int pv; /* 0: none, 1: the page, 2: odd version, 3: not stable
			 */
		double measured;
		int want;
	} cases[] = {
	    {__LINE__, "x86_64", "tsc", NULL, 0, 0, PMK__MPI_CLOCK_COUNTER},
	    {__LINE__, "aarch64", "arch_sys_counter", NULL, 0, 0,
	     PMK__MPI_CLOCK_COUNTER},
	    {__LINE__, "aarch64", "tsc", NULL, 0, 0, PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "arch_sys_counter", NULL, 0, 0,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "hpet", flags, 1, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "xen", flags, 1, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "", NULL, 0, 0, PMK__MPI_CLOCK_MONO},
	    {__LINE__, "riscv64", "riscv_clocksource", NULL, 0, 0,
	     PMK__MPI_CLOCK_MONO},
	    /* kvm-clock: the TSC, when the page and the CPU vouch for it */
	    {__LINE__, "x86_64", "kvm-clock", flags, 1, 2.096024,
	     PMK__MPI_CLOCK_PVCLOCK},
	    {__LINE__, "x86_64", "kvm-clock", flags, 1, 2.096024 * 1.005,
	     PMK__MPI_CLOCK_PVCLOCK},
	    {__LINE__, "x86_64", "kvm-clock", flags, 1, 2.096024 * 1.02,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock", flags, 1, 2.096024 / 2,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock", flags, 1, 0, PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock", flags, 0, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock", flags, 2, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock", flags, 3, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock", NULL, 1, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock", "flags : tsc constant_tsc rdtscp",
	     1, 2.096024, PMK__MPI_CLOCK_MONO},
	    /* whole words only */
	    {__LINE__, "x86_64", "kvm-clock",
	     "flags : constant_tsc_x nonstop_tsc", 1, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock",
	     "flags : xconstant_tsc nonstop_tsc", 1, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	    {__LINE__, "x86_64", "kvm-clock",
	     "flags\t: constant_tsc nonstop_tsc", 1, 2.096024,
	     PMK__MPI_CLOCK_PVCLOCK},
	    {__LINE__, "aarch64", "kvm-clock", flags, 1, 2.096024,
	     PMK__MPI_CLOCK_MONO},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pmk__mpi_clock_facts f = {cases[i].arch, cases[i].cs,
						 cases[i].flags,
						 cases[i].pv == 1   ? &pv
						 : cases[i].pv == 2 ? &odd
						 : cases[i].pv == 3 ? &unstable
								    : NULL,
						 cases[i].measured};
		int got = pmk__mpi_clock_pick(&f);
		T_CHECKF(got == cases[i].want, "line %d: %s on %s: %d, want %d",
			 cases[i].line, cases[i].cs, cases[i].arch, got,
			 cases[i].want);
	}
}

static void test_rate_change_is_seen(void)
{
	/* what MPI_Finalize reads again: a new origin is the same rate; a
	 * new multiplier or shift (another host), a lost stable flag or an
	 * unreadable page is not */
	struct pmk__mpi_pvclock then, now;
	T_ASSERT(pmk__mpi_pvclock_parse(page, sizeof page, &then));
	now = then;
	now.version += 2;
	now.tsc_timestamp += 1000000;
	now.system_time += 477094;
	T_CHECK(!pmk__mpi_pvclock_moved(&then, &now));
	now.mul++;
	T_CHECK(pmk__mpi_pvclock_moved(&then, &now));
	now = then;
	now.shift = 0;
	T_CHECK(pmk__mpi_pvclock_moved(&then, &now));
	now = then;
	now.flags = 0;
	T_CHECK(pmk__mpi_pvclock_moved(&then, &now));
	T_CHECK(pmk__mpi_pvclock_moved(&then, NULL));
}

static void test_missing_page_is_an_error_not_a_signal(void)
{
	struct pmk__mpi_pvclock pv;
	unsigned char b[32];
	T_CHECK(!pmk__mpi_pvclock_copy(0, &pv));
	T_CHECK(!pmk__mpi_pvclock_copy(4096, &pv)); /* never mapped */
	/* readable memory that holds parameters is copied */
	memcpy(b, page, sizeof b);
	T_ASSERT(pmk__mpi_pvclock_copy((uintptr_t)b, &pv));
	T_EQ_U64(pv.mul, 4098202355u);
	b[0] = 19; /* being updated */
	T_CHECK(!pmk__mpi_pvclock_copy((uintptr_t)b, &pv));
}

static void test_host_choice_holds_still(void)
{
	/* whatever this host is, the choice made now has not changed its
	 * rate a moment later; PMKIT_MPI_CLOCK=monotonic always says no */
	int usable = pmk__mpi_counter_usable();
	T_CHECKF(usable == 0 || usable == 1, "%d", usable);
	T_EQ_INT(pmk__mpi_clock_changed(), 0);
	setenv("PMKIT_MPI_CLOCK", "monotonic", 1);
	T_EQ_INT(pmk__mpi_counter_usable(), 0);
	T_EQ_INT(pmk__mpi_clock_changed(), 0);
	unsetenv("PMKIT_MPI_CLOCK");
}

int main(void)
{
	T_RUN(test_page_is_decoded);
	T_RUN(test_choice_from_facts);
	T_RUN(test_rate_change_is_seen);
	T_RUN(test_missing_page_is_an_error_not_a_signal);
	T_RUN(test_host_choice_holds_still);
	return t_done();
}
