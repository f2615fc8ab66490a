/*
 * bw_vs_likwid.c: `pmkit bench bw 256m rd` beside `likwid-bench -t load`
 * (Debian package likwid, installed here when missing and we are root) at
 * the same footprint, alternating in one run, 5 rounds; prints both
 * medians and the ratio. Bar: pmkit >= 95 % of likwid.
 *   build/bench/bw_vs_likwid [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit.h"

static double likwid_load(int cpu)
{
	char cmd[256], line[512];
	double mb = -1;
	FILE *f;
	/* one thread on CPU 0, 256 MiB in total (likwid's "B" = bytes) */
	snprintf(cmd, sizeof cmd,
		 "likwid-bench -t load -w N:%luB:1:1:1 -i 50 2>/dev/null",
		 256ul << 20);
	(void)cpu;
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
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	double us[64], them[64];
	pmk_bench_cfg cfg;
	if (rounds < 1 || rounds > 64)
		rounds = 5;
	if (system("command -v likwid-bench >/dev/null 2>&1") != 0) {
		if (geteuid() == 0) {
			fprintf(stderr, "bw_vs_likwid: installing likwid from "
					"Debian\n");
			if (system("DEBIAN_FRONTEND=noninteractive apt-get "
				   "install -y -qq likwid >/dev/null 2>&1"))
				fprintf(stderr,
					"bw_vs_likwid: apt-get failed\n");
		}
		if (system("command -v likwid-bench >/dev/null 2>&1") != 0) {
			printf("likwid-bench not available: pmkit only\n");
		}
	}
	pmk_bench_cfg_default(&cfg);
	/* likwid's N:...:1 workgroup runs on the domain's first CPU, 0 */
	cfg.cpu = pmk_bench_pin(0);
	for (int r = 0; r < rounds; r++) {
		pmk_bw_result res;
		if (pmk_bw_run(PMK_BW_RD, 256u << 20, 1, &cfg, &res))
			return 1;
		us[r] = res.mb_s_median;
		them[r] = likwid_load(cfg.cpu);
		printf("round %d: pmkit bw rd %.0f MB/s, likwid-bench load "
		       "%.0f MB/s\n",
		       r + 1, us[r], them[r]);
	}
	double mu = pmk_bench_median(us, rounds),
	       mt = pmk_bench_median(them, rounds);
	printf("median over %d rounds, 256 MiB, one thread on CPU %d, MB = "
	       "10^6 B:\n  pmkit bw rd        %.0f MB/s\n  likwid-bench load  "
	       "%.0f MB/s\n",
	       rounds, cfg.cpu, mu, mt);
	if (mt <= 0) {
		printf("  no likwid figure: bar not checked\n");
		return 0;
	}
	printf("  ratio %.3f: %s (bar: >= 0.95)\n", mu / mt,
	       mu / mt >= 0.95 ? "PASS" : "FAIL");
	return mu / mt >= 0.95 ? 0 : 1;
}
