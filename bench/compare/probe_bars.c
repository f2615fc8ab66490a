/*
 * probe_bars.c: the probe's bars, from one run of `pmk_probe_run`:
 *   - probe time: full <= 60 s, --quick <= 15 s;
 *   - L1D and L2 as detected on the latency curve beside the CPUID/sysfs
 *     declaration (equal on this VM: 48 KiB and 1 MiB);
 *   - memory latency: the 64-page-window random chase (reported) and the
 *     random chase over all lines of 256 MiB (beside it).
 * Prints each figure and PASS/FAIL per bar; exits 1 if a bar fails.
 *   build/bench/probe_bars [--skip-full]
 */
#include <stdio.h>
#include <string.h>

#include "pmkit.h"

static int bar(const char *what, int ok)
{
	printf("  %-58s %s\n", what, ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}

static int one(unsigned flags, double limit_s)
{
	pmk_probe p;
	pmk_declared d;
	char buf[160];
	int fail = 0;
	int rc = pmk_probe_run(&p, flags, -1, 0, NULL, NULL);
	if (rc) {
		printf("probe failed: %s\n", pmk_strerror(rc));
		pmk_probe_release(&p);
		return 1;
	}
	pmk_declared_caches(&d);
	printf("%s probe: %.1f s, core %.3f GHz, CPU %d (declared by %s)\n",
	       flags & PMK_PROBE_QUICK ? "quick" : "full", p.seconds, p.ghz,
	       p.cpu, d.source[0] ? d.source : "nothing");
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
	printf("  memory at %zu MiB: %.1f ns (64-page windows, reported), "
	       "%.1f ns (random over all lines); %.0f / %.0f cycles\n",
	       p.mem_bytes >> 20, p.mem_ns, p.mem_all_ns, p.mem_cycles,
	       p.mem_all_ns * p.ghz);
	for (int i = p.nlevels; i < 2; i++)
		fail |= bar("a second cache level was found", 0);
	pmk_probe_release(&p);
	return fail;
}

int main(int argc, char **argv)
{
	int fail = one(PMK_PROBE_QUICK, 15);
	if (!(argc > 1 && !strcmp(argv[1], "--skip-full")))
		fail |= one(0, 60);
	return fail;
}
