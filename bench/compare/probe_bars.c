/*
 * probe_bars.c: the probe's bars (issue 19), from runs of `pmk_probe_run`:
 *   - the clock: core_ghz within 10 % of the second, independent chain
 *     (imul on x86-64), both printed with the declared maximum;
 *   - probe time: quick and full each under 10 s of wall time (the CPU
 *     time is printed beside it: on a shared machine the wall time is
 *     mostly other jobs');
 *   - L1D and L2 as detected on the latency curve beside the CPUID/sysfs
 *     declaration;
 *   - stable levels: the L3 (the third level) is found with the same size
 *     in every one of N quick probes (default 10); the sizes are printed,
 *     and the bar counts the most common one;
 *   - memory latency by both chases (printed, no bar: see
 *     lat_vs_multichase.sh for the peer).
 * Prints each figure and PASS/FAIL per bar; exits 1 if a bar fails.
 *   build/bench/probe_bars [--skip-full] [N]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pmkit.h"

static int bar(const char *what, int ok)
{
	printf("  %-64s %s\n", what, ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* One probe; *l3 gets the L3's size (0: none). */
static int one(unsigned flags, double limit_s, int verbose, size_t *l3)
{
	pmk_probe p;
	char buf[200];
	int fail = 0;
	double c0 = cpu_s();
	int rc = pmk_probe_run(&p, flags, -1, 0, NULL, NULL);
	double cpu = cpu_s() - c0;
	*l3 = 0;
	if (rc) {
		printf("probe failed: %s%s%s\n", pmk_strerror(rc),
		       p.clock.refused ? ": " : "", p.clock.why);
		pmk_probe_release(&p);
		return 1;
	}
	for (int i = 0; i < p.nlevels; i++)
		if (p.lv[i].level == 3)
			*l3 = p.lv[i].size_bytes;
	if (!verbose) {
		printf("    quick probe %.1f s (CPU %.1f s): L3 %zu B%s\n",
		       p.seconds, cpu, *l3,
		       p.mem_flags & PMK_PROBE_AMBIGUOUS ? " (ambiguous)" : "");
		pmk_probe_release(&p);
		return 0;
	}
	printf("%s probe: %.1f s wall, %.1f s CPU, CPU %d\n",
	       flags & PMK_PROBE_QUICK ? "quick" : "full", p.seconds, cpu,
	       p.cpu);
	snprintf(buf, sizeof buf,
		 "clock %.3f GHz (%s) vs %s %.3f GHz within 10 %%", p.ghz,
		 p.clock.method, p.clock.chain2, p.clock.chain2_ghz);
	fail |= bar(buf, fabs(p.ghz / p.clock.chain2_ghz - 1) <= 0.10);
	if (p.clock.declared_ghz > 0)
		printf("    declared %.3f GHz (%s): measured/declared %.2f\n",
		       p.clock.declared_ghz, p.clock.declared_from,
		       p.ghz / p.clock.declared_ghz);
	snprintf(buf, sizeof buf, "probe time %.1f s <= %.0f s", p.seconds,
		 limit_s);
	fail |= bar(buf, p.seconds <= limit_s);
	for (int i = 0; i < p.nlevels && i < 2; i++) {
		const pmk_probe_level *l = &p.lv[i];
		snprintf(buf, sizeof buf,
			 "L%d detected %zu B vs declared %zu B (%.2f ns)",
			 l->level, l->measured_bytes, l->declared_bytes,
			 l->latency_ns);
		fail |= bar(buf, l->declared_bytes &&
				     l->measured_bytes == l->declared_bytes);
	}
	for (int i = p.nlevels; i < 2; i++)
		fail |= bar("a second cache level was found", 0);
	printf("    L3: %zu B; memory at %zu MiB: %.1f ns (256-byte elements, "
	       "random word, 64-page windows), %.1f ns (random over all "
	       "lines), 64-byte elements in the windows %.1f ns\n",
	       *l3, p.mem_bytes >> 20, p.mem_ns, p.mem_all_ns,
	       p.mem_window64_ns);
	pmk_probe_release(&p);
	return fail;
}

int main(int argc, char **argv)
{
	int skip_full = 0, n = 10, fail = 0;
	size_t l3[64], first;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--skip-full"))
			skip_full = 1;
		else
			n = atoi(argv[i]);
	if (n < 1 || n > 64)
		n = 10;
	fail |= one(PMK_PROBE_QUICK, 10, 1, &l3[0]);
	if (!skip_full)
		fail |= one(0, 10, 1, &first);
	printf("stable levels: %d quick probes\n", n);
	int same = 0, found = 0;
	for (int i = 1; i < n; i++)
		fail |= one(PMK_PROBE_QUICK, 10, 0, &l3[i]);
	/* the most common L3 size (0: none) and how many probes found it */
	first = 0;
	for (int i = 0; i < n; i++) {
		int k = 0;
		found += l3[i] != 0;
		for (int j = 0; j < n; j++)
			k += l3[i] && l3[j] == l3[i];
		if (k > same)
			same = k, first = l3[i];
	}
	printf("    L3 sizes:");
	for (int i = 0; i < n; i++)
		printf(" %.4g MiB", (double)l3[i] / (1 << 20));
	printf("\n    L3 found in %d of %d\n", found, n);
	char buf[160];
	snprintf(buf, sizeof buf,
		 "L3 found with the same size (%zu B) in %d of %d", first, same,
		 n);
	fail |= bar(buf, same == n);
	return fail;
}
