/*
 * clock.c: the core clock, measured so that no core can fold it.
 *
 * Two dependent chains of different kinds, each with a fixed, documented
 * latency on every core pmkit supports (docs/bench.md, "Core clock"):
 *   x86-64   `add reg, reg` (1 cycle) and `imul reg, reg` (3 cycles: Intel
 *            since Sandy Bridge, E-cores since Gracemont, AMD Zen 1-5);
 *   arm64    `add x, x, x` (1 cycle) and `eor x, x, x` (1 cycle);
 *   others   C adds and xors behind empty asm (unverified, said so).
 * The operands are registers whose value the compiler cannot see: a core
 * that completes several immediate adds per cycle at rename (Golden Cove
 * does, which read 24.6 GHz with `add $1`) cannot fold a register add, and
 * no core folds a multiply. Where a cycles counter opens (perf_event
 * PERF_COUNT_HW_CPU_CYCLES, user mode) it is the clock, and the chains are
 * its cross-check. A clock outside a plausible range of the declared
 * maximum (cpufreq cpuinfo_max_freq, else /proc/cpuinfo "cpu MHz") or two
 * chains more than 10 % apart are refused, with a message saying why.
 */
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmkit/bench.h"

#define R10(s) s s s s s s s s s s

#if defined(__x86_64__)
#define ADD_NAME   "add reg,reg (1 cycle)"
#define MUL_NAME   "imul reg,reg (3 cycles)"
#define MUL_CYCLES 3.0
#define ADD_ASM	   R10("add %1, %0\n\t")
#define MUL_ASM	   R10("imul %1, %0\n\t")
#elif defined(__aarch64__)
#define ADD_NAME   "add x,x,x (1 cycle)"
#define MUL_NAME   "eor x,x,x (1 cycle)"
#define MUL_CYCLES 1.0
#define ADD_ASM	   R10("add %0, %0, %1\n\t")
#define MUL_ASM	   R10("eor %0, %0, %1\n\t")
#endif

/* 100 dependent operations per loop trip; the loop's own counter and
 * branch run beside the chain. */
static uint64_t add_chain(void *arg, uint64_t n)
{
	uint64_t x = (uint64_t)(uintptr_t)arg, k = 1;
	__asm__ volatile("" : "+r"(k));
	for (uint64_t i = 0; i < n; i++) {
#ifdef ADD_ASM
		__asm__(ADD_ASM ADD_ASM ADD_ASM ADD_ASM ADD_ASM ADD_ASM ADD_ASM
			    ADD_ASM ADD_ASM ADD_ASM
			: "+r"(x)
			: "r"(k));
#else
		for (int j = 0; j < 100; j++) {
			x += k;
			__asm__ volatile("" : "+r"(x));
		}
#endif
	}
	__asm__ volatile("" ::"r"(x));
	return n * 100;
}

static uint64_t mul_chain(void *arg, uint64_t n)
{
	uint64_t x = (uint64_t)(uintptr_t)arg | 1, k = 0x9e3779b97f4a7c15ull;
	__asm__ volatile("" : "+r"(k));
	for (uint64_t i = 0; i < n; i++) {
#ifdef MUL_ASM
		__asm__(MUL_ASM MUL_ASM MUL_ASM MUL_ASM MUL_ASM MUL_ASM MUL_ASM
			    MUL_ASM MUL_ASM MUL_ASM
			: "+r"(x)
			: "r"(k));
#else
		for (int j = 0; j < 100; j++) {
			x ^= k;
			__asm__ volatile("" : "+r"(x));
		}
#endif
	}
	__asm__ volatile("" ::"r"(x));
	return n * 100;
}

#ifndef MUL_CYCLES
#define ADD_NAME   "C add behind empty asm (1 cycle, unverified)"
#define MUL_NAME   "C xor behind empty asm (1 cycle, unverified)"
#define MUL_CYCLES 1.0
#endif

/* GHz from a chain: the fastest of 31 samples of 1 ms (a busy machine can
 * only slow a chain down, and a 1 ms window is often undisturbed). */
static double chain_ghz(pmk_bench_fn fn, double cycles_per_op, int cpu)
{
	pmk_bench_cfg ck;
	pmk_bench_stat st;
	pmk_bench_cfg_default(&ck);
	ck.cpu = cpu;
	ck.sample_ms = 1;
	ck.samples = 31;
	if (pmk_bench_run(fn, (void *)(uintptr_t)1, &ck, &st) != 0 ||
	    !(st.min_ns > 0))
		return 0;
	return cycles_per_op / st.min_ns;
}

/* User-mode cycles per ns over the add chain, the best of 31 windows of
 * about 1 ms; 0 when no cycles counter opens (a VM without a PMU). */
static double counter_ghz(void)
{
	struct perf_event_attr a;
	double best = 0;
	uint64_t n = 4096;
	int fd;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	for (int s = 0; s < 40; s++) {
		uint64_t c0, c1, t0, t1;
		if (read(fd, &c0, sizeof c0) != sizeof c0)
			break;
		t0 = pmk_bench_now_ns();
		add_chain((void *)1, n);
		t1 = pmk_bench_now_ns();
		if (read(fd, &c1, sizeof c1) != sizeof c1)
			break;
		if (t1 - t0 < 500000) { /* grow to about 1 ms first */
			n *= 2;
			s--;
			continue;
		}
		if (c1 > c0 && (double)(c1 - c0) / (double)(t1 - t0) > best)
			best = (double)(c1 - c0) / (double)(t1 - t0);
	}
	close(fd);
	return best;
}

/* The declared maximum clock in GHz and where it came from. */
static double declared_ghz(char *from, size_t n)
{
	char line[256];
	double best = 0;
	FILE *f =
	    fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	if (f) {
		unsigned long khz = 0;
		if (fgets(line, sizeof line, f) &&
		    sscanf(line, "%lu", &khz) == 1 && khz > 0) {
			fclose(f);
			snprintf(from, n, "cpufreq cpuinfo_max_freq");
			return (double)khz / 1e6;
		}
		fclose(f);
	}
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		double mhz;
		char *c = strchr(line, ':');
		if (c && !strncmp(line, "cpu MHz", 7) &&
		    sscanf(c + 1, "%lf", &mhz) == 1 && mhz / 1e3 > best)
			best = mhz / 1e3;
	}
	fclose(f);
	if (best > 0)
		snprintf(from, n, "/proc/cpuinfo cpu MHz");
	return best;
}

int pmk_bench_clock_check(pmk_clock *c)
{
	double f = c->ghz, d = c->declared_ghz;
	c->refused = 0;
	if (!(f >= PMK_CLOCK_MIN_GHZ && f <= PMK_CLOCK_MAX_GHZ)) {
		c->refused = 1;
		snprintf(
		    c->why, sizeof c->why,
		    "measured %.3g GHz is outside %.2g-%.2g GHz, the clock "
		    "of any core",
		    f, PMK_CLOCK_MIN_GHZ, PMK_CLOCK_MAX_GHZ);
	} else if (d > 0 && (f < PMK_CLOCK_LOW * d || f > PMK_CLOCK_HIGH * d)) {
		c->refused = 1;
		snprintf(c->why, sizeof c->why,
			 "measured %.3f GHz is %.2fx the declared %.3f GHz "
			 "(%s), outside %.2g-%.2gx",
			 f, f / d, d, c->declared_from, PMK_CLOCK_LOW,
			 PMK_CLOCK_HIGH);
	}
	return c->refused ? PMK_ERANGE : 0;
}

int pmk_bench_clock(const pmk_bench_cfg *cfg, pmk_clock *c)
{
	int cpu = cfg ? cfg->cpu : -1;
	if (!c)
		return PMK_EINVAL;
	memset(c, 0, sizeof *c);
	snprintf(c->chain1, sizeof c->chain1, "%s", ADD_NAME);
	snprintf(c->chain2, sizeof c->chain2, "%s", MUL_NAME);
	c->declared_ghz =
	    declared_ghz(c->declared_from, sizeof c->declared_from);
	/* Both chains twice, interleaved, keeping each one's best: a
	 * neighbour that slows one reading slows the other alike. Up to three
	 * rounds while they disagree (a disturbed round on a busy machine). */
	for (int round = 0; round < 3; round++) {
		for (int k = 0; k < 2; k++) {
			double a = chain_ghz(add_chain, 1.0, cpu);
			double m = chain_ghz(mul_chain, MUL_CYCLES, cpu);
			if (a > c->chain1_ghz)
				c->chain1_ghz = a;
			if (m > c->chain2_ghz)
				c->chain2_ghz = m;
		}
		if (c->chain2_ghz > 0 &&
		    fabs(c->chain1_ghz / c->chain2_ghz - 1) <= PMK_CLOCK_AGREE)
			break;
	}
	c->counter_ghz = counter_ghz();
	if (!(c->chain1_ghz > 0 && c->chain2_ghz > 0))
		return PMK_ESYS;
	c->agree = fabs(c->chain1_ghz / c->chain2_ghz - 1) <= PMK_CLOCK_AGREE;
	if (c->counter_ghz > 0) {
		c->ghz = c->counter_ghz;
		snprintf(c->method, sizeof c->method,
			 "cycles counter (perf_event cpu-cycles, user mode)");
	} else {
		c->ghz = c->chain1_ghz;
		snprintf(c->method, sizeof c->method,
			 "add chain, cross-checked by the second chain");
	}
	if (c->counter_ghz <= 0 && !c->agree) {
		c->refused = 1;
		snprintf(c->why, sizeof c->why,
			 "the %s chain reads %.3f GHz and the %s chain %.3f "
			 "GHz (%.0f %% apart; at most %.0f %% allowed)",
			 ADD_NAME, c->chain1_ghz, MUL_NAME, c->chain2_ghz,
			 100 * fabs(c->chain1_ghz / c->chain2_ghz - 1),
			 100 * PMK_CLOCK_AGREE);
		return PMK_ERANGE;
	}
	return pmk_bench_clock_check(c);
}

double pmk_bench_core_ghz(const pmk_bench_cfg *cfg, pmk_bench_stat *out)
{
	pmk_clock c;
	if (pmk_bench_clock(cfg, &c) != 0 && !(c.ghz > 0))
		return 0;
	if (out) {
		memset(out, 0, sizeof *out);
		out->min_ns = out->median_ns = out->max_ns = 1 / c.ghz;
	}
	return c.refused ? 0 : c.ghz;
}
