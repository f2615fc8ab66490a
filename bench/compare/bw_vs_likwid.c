/*
 * bw_vs_likwid.c: `pmkit bench bw SIZE rd` in the widest vector ISA beside
 * likwid-bench's best load kernel for the same ISA (Debian package likwid,
 * installed when missing and we are root), at three footprints: 16 KiB (in
 * L1), 512 KiB (in L2) and 256 MiB (memory), alternating in one run, on CPU
 * 0 (where likwid's N:SIZE:1 workgroup runs).
 *   build/bench/bw_vs_likwid [ROUNDS] [ISA]
 * "Best kernel for the same ISA": the fastest of likwid's load kernels
 * whose vectors are no wider than pmkit's (avx512: load_avx512, load_avx,
 * load_sse, load; avx2: load_avx, load_sse, load; sse2: load_sse, load;
 * scalar: load); likwid's non-temporal load_mem is left out. likwid times
 * one run of a few ms, so pmkit's figure per round is its fastest sample
 * of 1 ms (likewise one short, undisturbed interval); the figures are the
 * medians over the rounds. Bar: pmkit >= 0.9 x likwid at every footprint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit.h"

static double likwid(const char *kernel, size_t bytes, long iters)
{
	char cmd[256], line[512];
	double mb = -1;
	FILE *f;
	snprintf(cmd, sizeof cmd,
		 "likwid-bench -t %s -w N:%zuB:1 -i %ld 2>/dev/null", kernel,
		 bytes, iters);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "MByte/s:", 8))
			mb = strtod(line + 8, NULL);
	pclose(f);
	return mb;
}

int main(int argc, char **argv)
{
	static const char *const kern[] = {"load_avx512", "load_avx",
					   "load_sse", "load"};
	static const struct {
		size_t bytes;
		long iters;
		const char *where;
	} at[] = {{16u << 10, 20000, "L1"},
		  {512u << 10, 2000, "L2"},
		  {256u << 20, 4, "memory"}};
	int rounds = argc > 1 ? atoi(argv[1]) : 5, fail = 0, first = 0;
	int isa = argc > 2 ? pmk_bw_isa_parse(argv[2]) : PMK_BW_ISA_AUTO;
	int have = 1;
	pmk_bench_cfg cfg;
	if (rounds < 1 || rounds > 64)
		rounds = 5;
	if (isa < 0 || !pmk_bw_isa_supported(isa)) {
		fprintf(stderr, "bw_vs_likwid: unknown or unsupported ISA\n");
		return 2;
	}
	if (isa == PMK_BW_ISA_AUTO)
		isa = pmk_bw_isa_best();
	/* likwid kernels no wider than ours */
	first = isa == PMK_BW_ISA_AVX512 ? 0
		: isa == PMK_BW_ISA_AVX2 ? 1
		: isa == PMK_BW_ISA_SSE2 ? 2
					 : 3;
	if (system("command -v likwid-bench >/dev/null 2>&1") != 0) {
		if (geteuid() == 0) {
			fprintf(stderr, "bw_vs_likwid: installing likwid from "
					"Debian\n");
			if (system("DEBIAN_FRONTEND=noninteractive apt-get "
				   "install -y -qq likwid >/dev/null 2>&1"))
				fprintf(stderr,
					"bw_vs_likwid: apt-get failed\n");
		}
		have = system("command -v likwid-bench >/dev/null 2>&1") == 0;
		if (!have)
			printf("likwid-bench not available: pmkit only\n");
	}
	pmk_bench_cfg_default(&cfg);
	cfg.cpu = pmk_bench_pin(0);
	cfg.sample_ms = 1;
	cfg.samples = 15;
	printf("pmkit bw rd with %s kernels vs likwid-bench's best load kernel "
	       "no wider; CPU %d, MB = 10^6 B, %d rounds\n",
	       pmk_bw_isa_name(isa), cfg.cpu, rounds);
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
		double us[64], them[64];
		char best[16] = "";
		for (int r = 0; r < rounds; r++) {
			pmk_bw_result res;
			if (pmk_bw_run_isa(PMK_BW_RD, isa, at[k].bytes, 1, &cfg,
					   &res))
				return 1;
			us[r] = res.mb_s_max;
			them[r] = -1;
			for (int j = first; have && j < 4; j++) {
				double m =
				    likwid(kern[j], at[k].bytes, at[k].iters);
				if (m > them[r]) {
					them[r] = m;
					snprintf(best, sizeof best, "%s",
						 kern[j]);
				}
			}
		}
		double mu = pmk_bench_median(us, rounds),
		       mt = pmk_bench_median(them, rounds);
		printf("%-6s %6zu KiB: pmkit %9.0f MB/s", at[k].where,
		       at[k].bytes >> 10, mu);
		if (mt <= 0) {
			printf("  (no likwid figure)\n");
			continue;
		}
		printf("  likwid %9.0f MB/s (best last round: %s)  ratio %.3f "
		       "%s\n",
		       mt, best, mu / mt, mu / mt >= 0.9 ? "PASS" : "FAIL");
		if (mu / mt < 0.9)
			fail = 1;
	}
	return fail;
}
