/*
 * cmd_probe.c: `pmkit probe`: measure the memory hierarchy and penalties of
 * this machine; a short table, --json, the machine-constants file and a
 * latency plot.
 */
/* pmkit-command: probe | measure caches, TLB, memory and penalties */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "lib/core/outfile.h"

static void on_progress(void *arg, const char *what, double frac)
{
	(void)arg;
	fprintf(stderr, "\rprobe: %-28s %3.0f%%", what, frac * 100);
	if (frac >= 1 || !strcmp(what, "done"))
		fprintf(stderr, "\r%-42s\r", "");
	fflush(stderr);
}

static void hsize(size_t b, char *buf, size_t n)
{
	if (!b)
		snprintf(buf, n, "-");
	else if (b >= (1u << 20))
		snprintf(buf, n, "%.4g MiB", (double)b / (1 << 20));
	else
		snprintf(buf, n, "%.4g KiB", (double)b / 1024);
}

static void table(const pmk_probe *p, FILE *o)
{
	char s[32], d[32];
	fprintf(o, "%s: core %.2f GHz, CPU %d, probe took %.1f s\n",
		p->cpu_name, p->ghz, p->cpu, p->seconds);
	fprintf(o, "clock   %s; chains: %s %.3f GHz, %s %.3f GHz",
		p->clock.method, p->clock.chain1, p->clock.chain1_ghz,
		p->clock.chain2, p->clock.chain2_ghz);
	if (p->clock.counter_ghz > 0)
		fprintf(o, "; cycles counter %.3f GHz", p->clock.counter_ghz);
	if (p->clock.declared_ghz > 0)
		fprintf(o, "; declared %.3f GHz (%s)", p->clock.declared_ghz,
			p->clock.declared_from);
	fputc('\n', o);
	fprintf(o, "%-7s %10s %10s %-9s %5s %9s %7s %10s\n", "level", "size",
		"declared", "trusted", "line", "latency", "cycles",
		"read MB/s");
	for (int i = 0; i < p->nlevels; i++) {
		const pmk_probe_level *l = &p->lv[i];
		char name[8];
		snprintf(name, sizeof name, "L%d%s", l->level,
			 l->type[0] == 'd' ? "d" : "");
		hsize(l->size_bytes, s, sizeof s);
		hsize(l->declared_bytes, d, sizeof d);
		fprintf(o, "%-7s %10s %10s %-9s %5zu %6.2f ns %7.1f %10.0f\n",
			name, s, d, l->trusted, l->line_bytes, l->latency_ns,
			l->latency_cycles, l->bw_rd_mb_s);
	}
	hsize(p->mem_bytes, s, sizeof s);
	fprintf(o, "%-7s %10s %10s %-9s %5s %6.1f ns %7.0f %10.0f\n", "memory",
		s, "", "", "", p->mem_ns, p->mem_cycles, p->mem_bw_mb_s);
	fprintf(o,
		"        memory latency: random 256-byte elements in 64-page "
		"windows (reported); random over all lines %.1f ns\n",
		p->mem_all_ns);
	if (p->tlb_reach_bytes) {
		hsize(p->tlb_reach_bytes, s, sizeof s);
		fprintf(o,
			"TLB     first step at %s = %zu x 4 KiB pages "
			"(declared %zu entries); miss +%.2f ns = %.1f cycles "
			"(not a cache: absent from the window curve)\n",
			s, p->tlb_reach_bytes / 4096, p->tlb_entries_declared,
			p->tlb_miss_ns, p->tlb_miss_cycles);
		if (pmk_probe_tlb_unstable(p))
			fprintf(o,
				"note    TLB unstable: its two passes disagree "
				"(%s); not in the constants file\n",
				p->twice[PMK_PROBE_FIG_TLB_ENTRIES].refused
					? p->twice[PMK_PROBE_FIG_TLB_ENTRIES].why
					: p->twice[PMK_PROBE_FIG_TLB_MISS].why);
	} else {
		fprintf(o, "TLB     no step found before memory\n");
	}
	fprintf(o,
		"penalty branch misprediction %.1f cycles; FP add %.1f, mul "
		"%.1f, div %.1f, sqrt %.1f cycles\n",
		p->br_miss_cycles, p->fp_add_cycles, p->fp_mul_cycles,
		p->fp_div_cycles, p->fp_sqrt_cycles);
	fprintf(o, "line    measured %zu B (two loads per random block)\n",
		p->line_bytes);
	for (int i = 0; i < p->nlevels; i++)
		fprintf(o, "why     L%d: %s%s\n", p->lv[i].level, p->lv[i].why,
			p->lv[i].flags & PMK_LEVEL_RISING
			    ? "; latency rises along the plateau"
			    : "");
	if (p->mem_flags & PMK_PROBE_AMBIGUOUS)
		fprintf(o,
			"note    ambiguous curve: a plateau slower than half "
			"of memory was taken as the climb to memory "
			"(lmbench's rule)\n");
	if (p->mem_flags & PMK_PROBE_PREFETCH_TAIL)
		fprintf(o,
			"note    prefetch-fooled tail: the chase curve falls "
			"from %.1f ns at %zu bytes to %.1f ns\n",
			p->tail_peak_ns, p->tail_peak_bytes, p->tail_end_ns);
}

static void csv(const pmk_probe *p, FILE *o)
{
	fprintf(o,
		"level,type,size_bytes,line_bytes,latency_ns,latency_cycles,"
		"declared_size_bytes,measured_size_bytes,trusted,bw_rd_mb_s\n");
	for (int i = 0; i < p->nlevels; i++) {
		const pmk_probe_level *l = &p->lv[i];
		fprintf(o, "%d,%s,%zu,%zu,%.4f,%.2f,%zu,%zu,%s,%.1f\n",
			l->level, l->type, l->size_bytes, l->line_bytes,
			l->latency_ns, l->latency_cycles, l->declared_bytes,
			l->measured_bytes, l->trusted, l->bw_rd_mb_s);
	}
	fprintf(o, "memory,window,%zu,,%.4f,%.2f,,,measured,%.1f\n",
		p->mem_bytes, p->mem_ns, p->mem_cycles, p->mem_bw_mb_s);
	fprintf(o, "memory,all-lines,%zu,,%.4f,%.2f,,,measured,\n",
		p->mem_bytes, p->mem_all_ns, p->mem_all_ns * p->ghz);
	if (p->tlb_reach_bytes)
		fprintf(o, "tlb,data,%zu,,%.4f,%.2f,%zu,%zu,%s,\n",
			p->tlb_reach_bytes, p->tlb_miss_ns, p->tlb_miss_cycles,
			p->tlb_entries_declared * 4096, p->tlb_reach_bytes,
			pmk_probe_tlb_unstable(p) ? "unstable" : "measured");
}

static int plot(const pmk_probe *p, const char *path)
{
	double *x = calloc((size_t)p->npts, sizeof *x);
	double mx[PMK_PROBE_MAX_LEVELS + 1];
	char lab[PMK_PROBE_MAX_LEVELS + 1][48];
	const char *ml[PMK_PROBE_MAX_LEVELS + 1];
	int nm = 0, rc = 0;
	FILE *f;
	if (!x)
		return -1;
	for (int i = 0; i < p->npts; i++)
		x[i] = (double)p->sizes[i];
	for (int i = 0; i < p->nlevels; i++) {
		char s[32];
		hsize(p->lv[i].size_bytes, s, sizeof s);
		snprintf(lab[nm], sizeof lab[nm], "L%d %s", p->lv[i].level, s);
		ml[nm] = lab[nm];
		mx[nm++] = (double)p->lv[i].size_bytes;
	}
	if (p->tlb_reach_bytes) {
		snprintf(lab[nm], sizeof lab[nm], "TLB reach");
		ml[nm] = lab[nm];
		mx[nm++] = (double)p->tlb_reach_bytes;
	}
	pmk_plot_series se[2] = {
	    {"random, 64-page windows", x, p->lat_window, p->npts},
	    {"random over all pages", x, p->lat_all, p->npts}};
	pmk_plot pl = {.title = "pmkit probe: load latency vs footprint",
		       .xlabel = "bytes (log2)",
		       .ylabel = "ns per load (log10)",
		       .xlog = 1,
		       .ylog = 1,
		       .series = se,
		       .nseries = 2,
		       .marks_x = mx,
		       .marks_label = ml,
		       .nmarks = nm};
	f = pmk__out_fopen(path, 0, NULL); /* new file, renamed into place */
	if (!f || pmk_plot_svg(&pl, f))
		rc = -1;
	if (f && pmk__out_fclose(f, rc == 0, NULL))
		rc = -1;
	free(x);
	return rc;
}

enum { P_QUICK = 256, P_JSON, P_CSV, P_CONSTANTS, P_SVG, P_MAX, P_CPU, P_GHZ };
static const struct cli_opt probe_opts[] = {
    {P_QUICK, "quick", CLI_NOARG}, {P_JSON, "json", CLI_NOARG},
    {P_CSV, "csv", CLI_NOARG},	   {P_CONSTANTS, "constants", CLI_ARG},
    {P_SVG, "svg", CLI_ARG},	   {'o', "output", CLI_ARG},
    {P_MAX, "max", CLI_ARG},	   {P_CPU, "cpu", CLI_ARG},
    {P_GHZ, "ghz", CLI_ARG},	   {0, NULL, 0},
};

struct probe_opts {
	unsigned flags;
	int json, as_csv;
	long long cpu;
	size_t max;
	const char *consts, *svg, *out_path;
	double ghz; /* --ghz: the clock given, 0: measure it */
};

static int on_probe_opt(int key, const char *val, void *arg)
{
	struct probe_opts *o = arg;
	unsigned long long v;
	switch (key) {
	case P_QUICK:
		o->flags |= PMK_PROBE_QUICK;
		break;
	case P_JSON:
		o->json = 1;
		break;
	case P_CSV:
		o->as_csv = 1;
		break;
	case P_CONSTANTS:
		o->consts = val;
		break;
	case P_SVG:
		o->svg = val;
		break;
	case 'o':
		o->out_path = val;
		break;
	case P_MAX:
		if (pmk_bench_parse_size(val, &o->max) ||
		    o->max < (64u << 10)) {
			cli_error(
			    "'--max' needs a size of at least 64k, not '%s'",
			    val);
			return EXIT_USAGE;
		}
		break;
	case P_CPU:
		if (cli_opt_u64(cli_opt_current(), val, &v))
			return EXIT_USAGE;
		o->cpu = (long long)v;
		break;
	case P_GHZ: {
		char *end;
		o->ghz = strtod(val, &end);
		if (end == val || *end || !(o->ghz > 0)) {
			cli_error("'--ghz' needs a clock in GHz, not '%s'",
				  val);
			return EXIT_USAGE;
		}
		break;
	}
	}
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	unsigned flags;
	int json, as_csv, rc;
	long long cpu;
	size_t max;
	double ghz;
	const char *consts, *svg, *out_path;
	pmk_probe p;
	FILE *out = stdout;
	struct probe_opts po = {0, 0, 0, -1, 0, NULL, NULL, NULL, 0};
	pmk_diag d;

	rc = cli_opt_parse_only("probe", argc, argv, probe_opts, on_probe_opt,
				&po);
	if (rc)
		return rc;
	flags = po.flags;
	json = po.json;
	as_csv = po.as_csv;
	cpu = po.cpu;
	max = po.max;
	ghz = po.ghz;
	consts = po.consts;
	svg = po.svg;
	out_path = po.out_path;
	rc = pmk_probe_run_at(&p, flags, (int)cpu, max, ghz,
			      cli_isatty(2) ? on_progress : NULL, NULL);
	if (rc == PMK_ERANGE && p.clock.refused) {
		if (cli_isatty(2))
			on_progress(NULL, "done", 1);
		cli_error("probe: core clock refused: %s; measured by %s, "
			  "chains %.3f and %.3f GHz%s",
			  p.clock.why, p.clock.method, p.clock.chain1_ghz,
			  p.clock.chain2_ghz,
			  ghz > 0 ? "" : " (give the clock with --ghz GHZ)");
		pmk_probe_release(&p);
		return 1;
	}
	if (rc) {
		cli_error("probe failed: %s", pmk_strerror(rc));
		pmk_probe_release(&p);
		return 1;
	}
	if (out_path && !(out = pmk__out_fopen(out_path, 0, &d))) {
		cli_diag(&d);
		pmk_probe_release(&p);
		return 1;
	}
	if (json)
		pmk_probe_write_json(&p, out);
	else if (as_csv)
		csv(&p, out);
	else
		table(&p, out);
	rc = 0;
	if (consts) {
		FILE *f = pmk__out_fopen(consts, 0, &d); /* "-": stdout */
		int bad = !f || pmk_probe_write_constants(&p, f) != 0;
		if ((f && pmk__out_fclose(f, !bad, &d)) || bad) {
			if (f && !bad)
				cli_diag(&d);
			else
				cli_error("cannot write '%s'", consts);
			rc = 1;
		}
	}
	if (svg && plot(&p, svg)) {
		cli_error("cannot write '%s'", svg);
		rc = 1;
	}
	if (out != stdout ? pmk__out_fclose(out, 1, NULL) : fflush(out)) {
		cli_error("cannot write the output");
		rc = 1;
	}
	pmk_probe_release(&p);
	return rc;
}
