/*
 * cmd_bench.c: `pmkit bench lat|bw|os|sched`: the microbenchmarks, with a table on
 * stdout, lmbench-compatible output on stderr where asked, CSV, JSON and SVG.
 */
/* pmkit-command: bench | latency, bandwidth and OS/IPC microbenchmarks */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/subcmd.h"
#include "cli/opt.h"
#include "lib/core/outfile.h"

int cmd_bench_sched(int argc, char **argv); /* cli/bench_sched.c */

struct common {
	pmk_bench_cfg cfg;
	int quick, csv, json, progress;
	const char *out_path, *svg_path;
	FILE *out;
};

/* The options every subcommand takes (cli/opt.h), and their parser. */
enum {
	B_QUICK = 256, B_CSV, B_JSON, B_SVG, B_SAMPLES, B_SAMPLE_MS, B_CPU,
	B_MODE, B_LMBENCH, B_HUGE, B_ALL_PAGES, B_MIN, B_MAX, B_PER_OCTAVE,
	B_WINDOW, B_SWEEP, B_FIXED_OFFSET, B_ISA,
};
#define COMMON_OPTS                                                            \
	{B_QUICK, "quick", CLI_NOARG}, {B_CSV, "csv", CLI_NOARG},              \
	    {B_JSON, "json", CLI_NOARG}, {'o', "output", CLI_ARG},             \
	    {B_SVG, "svg", CLI_ARG}, {B_SAMPLES, "samples", CLI_ARG},          \
	    {B_SAMPLE_MS, "sample-ms", CLI_ARG}, {B_CPU, "cpu", CLI_ARG}

/* 1 if `key` was a common option (handled), 0 if not, -1 on error. */
static int common_opt(struct common *c, int key, const char *val)
{
	unsigned long long v;
	switch (key) {
	case B_QUICK:
		c->quick = 1;
		c->cfg.sample_ms = 2;
		break;
	case B_CSV:
		c->csv = 1;
		break;
	case B_JSON:
		c->json = 1;
		break;
	case 'o':
		c->out_path = val;
		break;
	case B_SVG:
		c->svg_path = val;
		break;
	case B_SAMPLES:
		if (cli_opt_u64("--samples", val, &v) || v < 5 || v > 64) {
			cli_error("'--samples' must be 5 to 64");
			return -1;
		}
		c->cfg.samples = (int)v;
		break;
	case B_SAMPLE_MS:
		if (cli_opt_u64("--sample-ms", val, &v) || v < 1 || v > 10000) {
			cli_error("'--sample-ms' must be 1 to 10000");
			return -1;
		}
		c->cfg.sample_ms = (double)v;
		break;
	case B_CPU:
		if (cli_opt_u64("--cpu", val, &v))
			return -1;
		c->cfg.cpu = (int)v;
		break;
	default:
		return 0;
	}
	return 1;
}

static int common_open(struct common *c)
{
	int cpu = pmk_bench_pin(c->cfg.cpu);
	if (cpu < 0) {
		cli_error("cannot pin to CPU %d: %s", c->cfg.cpu,
			  pmk_strerror(cpu));
		return -1;
	}
	c->cfg.cpu = cpu;
	c->out = stdout;
	if (c->out_path) {
		pmk_diag d; /* a new file, renamed into place at the end */
		c->out = pmk__out_fopen(c->out_path, 0, &d);
		if (!c->out) {
			cli_diag(&d);
			return -1;
		}
	}
	c->progress = cli_isatty(2) && !c->json && !c->csv;
	return 0;
}

static int common_close(struct common *c)
{
	int bad = 0;
	if (c->out && c->out != stdout) {
		bad = pmk__out_fclose(c->out, 1, NULL) != 0;
	} else if (c->out) {
		bad = fflush(c->out) != 0;
	}
	if (bad)
		cli_error("cannot write '%s'",
			  c->out_path ? c->out_path : "stdout");
	return bad;
}

static void progress(struct common *c, const char *what, int k, int n)
{
	if (!c->progress)
		return;
	fprintf(stderr, "\r%-40s %3d%%", what, n ? 100 * k / n : 0);
	if (k == n)
		fprintf(stderr, "\r%-46s\r", "");
	fflush(stderr);
}

static void human_size(size_t b, char *buf, size_t n)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, n, "%zuM", b >> 20);
	else if (b >= (1u << 20))
		snprintf(buf, n, "%.3gM", (double)b / (1 << 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, n, "%zuK", b >> 10);
	else if (b >= 1024)
		snprintf(buf, n, "%.3gK", (double)b / 1024);
	else
		snprintf(buf, n, "%zu", b);
}

/* ---- lat ---------------------------------------------------------------- */

#define MAXPTS 400
#define MAXSER 16

struct series {
	enum pmk_lat_mode mode;
	size_t stride;
	int n;
	size_t size[MAXPTS];
	double ns[MAXPTS], ns_med[MAXPTS], x[MAXPTS];
};

static const char *mode_name(enum pmk_lat_mode m)
{
	return m == PMK_LAT_STRIDE   ? "stride"
	       : m == PMK_LAT_RANDOM ? "random"
				     : "random-all";
}

static int parse_modes(const char *s, enum pmk_lat_mode *out, int *n)
{
	char buf[128], *tok, *save;
	snprintf(buf, sizeof buf, "%s", s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok && *n < 3;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "stride"))
			out[(*n)++] = PMK_LAT_STRIDE;
		else if (!strcmp(tok, "random"))
			out[(*n)++] = PMK_LAT_RANDOM;
		else if (!strcmp(tok, "random-all"))
			out[(*n)++] = PMK_LAT_RANDOM_ALL;
		else {
			cli_error("unknown mode '%s' (stride, random, "
				  "random-all)",
				  tok);
			return -1;
		}
	}
	return *n ? 0 : -1;
}

static int lat_plot(struct common *c, struct series *se, int ns, double ghz)
{
	pmk_plot_series ps[MAXSER];
	char names[MAXSER][48], marklab[8][48];
	const char *mlab[8];
	double mx[8];
	int nm = 0;
	pmk_plot p = {0};
	FILE *f;

	for (int s = 0; s < ns; s++) {
		snprintf(names[s], sizeof names[s], "%s %zu B",
			 mode_name(se[s].mode), se[s].stride);
		for (int i = 0; i < se[s].n; i++)
			se[s].x[i] = (double)se[s].size[i];
		ps[s] = (pmk_plot_series){names[s], se[s].x, se[s].ns, se[s].n};
	}
	/* mark the levels found on the first random series (else the first) */
	int ref = 0;
	for (int s = 0; s < ns; s++)
		if (se[s].mode == PMK_LAT_RANDOM) {
			ref = s;
			break;
		}
	pmk_level lv[8];
	int nl = pmk_levels_detect(se[ref].size, se[ref].ns, se[ref].n, 1.15,
				   1.5, lv, 8);
	for (int l = 0; l + 1 < nl && nm < 8; l++) {
		double e = pmk_levels_edge(se[ref].size, se[ref].ns, se[ref].n,
					   &lv[l], &lv[l + 1]);
		char hs[24];
		human_size((size_t)e, hs, sizeof hs);
		snprintf(marklab[nm], sizeof marklab[nm], "L%d ~%s %.2g ns",
			 l + 1, hs, lv[l].latency_ns);
		mlab[nm] = marklab[nm];
		mx[nm++] = e;
	}
	char title[96];
	snprintf(title, sizeof title,
		 "load latency vs footprint (CPU %d, core %.2f GHz)",
		 c->cfg.cpu, ghz);
	p.title = title;
	p.xlabel = "bytes (log2)";
	p.ylabel = "ns per load (log10)";
	p.xlog = p.ylog = 1;
	p.series = ps;
	p.nseries = ns;
	p.marks_x = mx;
	p.marks_label = mlab;
	p.nmarks = nm;
	f = pmk__out_fopen(c->svg_path, 0, NULL);
	if (!f) {
		cli_error("cannot write '%s'", c->svg_path);
		return -1;
	}
	pmk_plot_svg(&p, f);
	if (pmk__out_fclose(f, 1, NULL)) {
		cli_error("cannot write '%s'", c->svg_path);
		return -1;
	}
	return 0;
}

struct lat_args {
	struct common *c;
	enum pmk_lat_mode *modes;
	int *nmodes, *lmb, *huge, *per_oct, *offset0;
	size_t *lo, *hi, *window;
};

static const struct cli_opt lat_opts[] = {
	COMMON_OPTS,
	{B_MODE, "mode", CLI_ARG},
	{B_LMBENCH, "lmbench", CLI_NOARG},
	{B_HUGE, "huge", CLI_NOARG},
	{B_ALL_PAGES, "all-pages", CLI_NOARG},
	{B_MIN, "min", CLI_ARG},
	{B_MAX, "max", CLI_ARG},
	{B_PER_OCTAVE, "per-octave", CLI_ARG},
	{B_WINDOW, "window", CLI_ARG},
	{B_FIXED_OFFSET, "fixed-offset", CLI_NOARG},
	{0, NULL, 0},
};

static int on_lat_opt(int key, const char *val, void *arg)
{
	struct lat_args *l = arg;
	unsigned long long v;
	size_t sz;
	int r = common_opt(l->c, key, val);
	if (r)
		return r < 0 ? EXIT_USAGE : 0;
	switch (key) {
	case B_MODE:
		if (parse_modes(val, l->modes, l->nmodes))
			return EXIT_USAGE;
		break;
	case B_LMBENCH:
		*l->lmb = 1;
		break;
	case B_HUGE:
		*l->huge = 1;
		break;
	case B_FIXED_OFFSET:
		*l->offset0 = 1;
		break;
	case B_ALL_PAGES:
		l->modes[0] = PMK_LAT_RANDOM_ALL;
		*l->nmodes = 1;
		break;
	case B_MIN:
	case B_MAX:
		if (pmk_bench_parse_size(val, &sz)) {
			cli_error("bad size '%s' for '%s'", val,
				  cli_opt_current());
			return EXIT_USAGE;
		}
		*(key == B_MIN ? l->lo : l->hi) = sz;
		break;
	case B_PER_OCTAVE:
		if (cli_opt_u64("--per-octave", val, &v) || v < 1 || v > 32) {
			cli_error("'--per-octave' must be 1 to 32");
			return EXIT_USAGE;
		}
		*l->per_oct = (int)v;
		break;
	case B_WINDOW:
		if (cli_opt_u64("--window", val, &v) || v < 1 || v > 1 << 20) {
			cli_error("'--window' needs a number of pages");
			return EXIT_USAGE;
		}
		*l->window = (size_t)v;
		break;
	}
	return 0;
}

static int cmd_lat(int argc, char **argv)
{
	struct common c = {0};
	enum pmk_lat_mode modes[3];
	int nmodes = 0, lmb = 0, huge = 0, offset0 = 0, per_oct = 8, nstr = 0,
	    ns = 0;
	size_t strides[MAXSER], lo = 0, hi = 0, window = 64;
	size_t size_mb_arg = 0;
	int have_size = 0, rc = 0;
	struct series *se;
	double ghz;

	pmk_bench_cfg_default(&c.cfg);
	{
		struct lat_args la = {&c,    modes,    &nmodes,	 &lmb,
				      &huge, &per_oct, &offset0, &lo,
				      &hi,   &window};
		int first = cli_opt_parse_mixed("bench", argc, argv, lat_opts,
						on_lat_opt, &la);
		if (first < 0)
			return -first;
		argv += first - 1;
		argc -= first - 1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long long v;
		if (!have_size) {
			if (cli_parse_u64(a, &v) || v < 1 || v > 1 << 20) {
				cli_error("SIZE_MB must be a whole number of "
					  "megabytes, not '%s'",
					  a);
				return EXIT_USAGE;
			}
			size_mb_arg = (size_t)v;
			have_size = 1;
		} else {
			size_t s;
			if (nstr == MAXSER || pmk_bench_parse_size(a, &s) ||
			    s < sizeof(void *)) {
				cli_error("bad stride '%s'", a);
				return EXIT_USAGE;
			}
			strides[nstr++] = s;
		}
	}
	if (have_size && hi) {
		/* lat_mem_rd's SIZE_MB and --max both set the largest size:
		 * one of them would be ignored */
		cli_error("SIZE_MB (%zu) and '--max' both give the largest "
			  "size; use one of them",
			  size_mb_arg);
		return EXIT_USAGE;
	}
	if (have_size) {
		hi = size_mb_arg << 20;
		if (!nmodes) {
			/* lat_mem_rd's command line: stride mode, its output */
			modes[0] = PMK_LAT_STRIDE;
			nmodes = 1;
			lmb = 1;
		}
	}
	if (!nmodes) {
		modes[0] = PMK_LAT_RANDOM;
		nmodes = 1;
	}
	if (!hi)
		hi = c.quick ? 16u << 20 : 256u << 20;
	if (!lo)
		lo = c.quick ? 4096 : 512;
	if (lo > hi) {
		cli_error("'--min' is larger than the largest size");
		return EXIT_USAGE;
	}
	if (!nstr)
		strides[nstr++] = 64;
	if (common_open(&c))
		return 1;

	se = calloc(MAXSER, sizeof *se);
	if (!se)
		return 1;
	{
		pmk_clock k;
		if (pmk_bench_clock(&c.cfg, &k) != 0) {
			cli_warn("core clock refused: %s; cycles are "
				 "shown as 0",
				 k.refused ? k.why : pmk_strerror(PMK_ESYS));
			ghz = 0;
		} else {
			ghz = k.ghz;
		}
	}
	for (int m = 0; m < nmodes; m++)
		for (int s = 0; s < nstr && ns < MAXSER; s++) {
			se[ns].mode = modes[m];
			se[ns].stride = strides[s];
			ns++;
		}
	int total = 0, done = 0;
	for (int s = 0; s < ns; s++) {
		size_t align = se[s].mode == PMK_LAT_STRIDE ? sizeof(void *)
							    : se[s].stride;
		se[s].n =
		    pmk_bench_sizes(lo, hi, per_oct, align, se[s].size, MAXPTS);
		total += se[s].n;
	}
	for (int s = 0; s < ns && rc == 0; s++) {
		pmk_lat_cfg lc;
		pmk_chase *ch;
		char what[64];
		int k = 0;
		pmk_lat_cfg_default(&lc);
		lc.mode = se[s].mode;
		lc.stride = se[s].stride;
		lc.window_pages = window;
		lc.huge = huge;
		lc.offset0 = offset0;
		if (pmk_chase_new(&ch, hi, &lc)) {
			cli_error("cannot map %zu bytes", hi);
			rc = 1;
			break;
		}
		if (lmb)
			fprintf(stderr, "\"stride=%zu\n", se[s].stride);
		snprintf(what, sizeof what, "lat %s %zu", mode_name(se[s].mode),
			 se[s].stride);
		for (int i = 0; i < se[s].n; i++) {
			pmk_bench_stat st;
			progress(&c, what, done++, total);
			if (se[s].size[i] < se[s].stride ||
			    pmk_chase_build(ch, se[s].size[i]) < 1 ||
			    pmk_chase_time(ch, &c.cfg, &st))
				continue;
			se[s].size[k] = se[s].size[i];
			se[s].ns[k] = st.min_ns;
			se[s].ns_med[k] = st.median_ns;
			if (lmb)
				fprintf(stderr, "%.5f %.3f\n",
					(double)se[s].size[k] / (1 << 20),
					se[s].ns[k]);
			k++;
		}
		se[s].n = k;
		if (lmb)
			fprintf(stderr, "\n");
		pmk_chase_free(ch);
	}
	progress(&c, "", total, total);

	if (c.json) {
		fprintf(c.out,
			"{\"benchmark\":\"lat\",\"cpu\":%d,\"core_ghz\":%.4f,"
			"\"sample_ms\":%g,\"samples\":%d,\"series\":[",
			c.cfg.cpu, ghz, c.cfg.sample_ms, c.cfg.samples);
		for (int s = 0; s < ns; s++) {
			fprintf(c.out,
				"%s{\"mode\":\"%s\",\"stride_bytes\":%zu,"
				"\"window_pages\":%zu,\"huge\":%d,\"points\":[",
				s ? "," : "", mode_name(se[s].mode),
				se[s].stride, window, huge);
			for (int i = 0; i < se[s].n; i++)
				fprintf(c.out,
					"%s{\"size_bytes\":%zu,\"ns\":%.4f,"
					"\"ns_median\":%.4f,\"cycles\":%.2f}",
					i ? "," : "", se[s].size[i],
					se[s].ns[i], se[s].ns_med[i],
					se[s].ns[i] * ghz);
			fprintf(c.out, "]}");
		}
		fprintf(c.out, "]}\n");
	} else if (c.csv) {
		fprintf(c.out, "mode,stride_bytes,size_bytes,ns_min,ns_median,"
			       "cycles\n");
		for (int s = 0; s < ns; s++)
			for (int i = 0; i < se[s].n; i++)
				fprintf(c.out, "%s,%zu,%zu,%.4f,%.4f,%.2f\n",
					mode_name(se[s].mode), se[s].stride,
					se[s].size[i], se[s].ns[i],
					se[s].ns_med[i], se[s].ns[i] * ghz);
	} else if (!lmb || c.out_path) {
		fprintf(c.out,
			"# load latency, CPU %d, core %.2f GHz (dependent "
			"adds), min of %d samples of %g ms\n",
			c.cfg.cpu, ghz, c.cfg.samples, c.cfg.sample_ms);
		for (int s = 0; s < ns; s++) {
			fprintf(c.out, "\n%s, %s %zu B\n%10s %10s %10s %8s\n",
				mode_name(se[s].mode),
				se[s].mode == PMK_LAT_STRIDE ? "stride"
							     : "element",
				se[s].stride, "size", "ns", "median", "cycles");
			for (int i = 0; i < se[s].n; i++) {
				char hs[24];
				human_size(se[s].size[i], hs, sizeof hs);
				fprintf(c.out, "%10s %10.3f %10.3f %8.1f\n", hs,
					se[s].ns[i], se[s].ns_med[i],
					se[s].ns[i] * ghz);
			}
		}
	}
	if (c.svg_path && ns && lat_plot(&c, se, ns, ghz))
		rc = 1;
	free(se);
	if (common_close(&c))
		rc = 1;
	return rc;
}

/* ---- bw ----------------------------------------------------------------- */

struct bw_args {
	struct common *c;
	int *threads, *sweep, *lmb, *isa;
	size_t *lo;
};

static const struct cli_opt bw_opts[] = {
	COMMON_OPTS,
	{'P', NULL, CLI_ARG},
	{B_SWEEP, "sweep", CLI_NOARG},
	{B_LMBENCH, "lmbench", CLI_NOARG},
	{B_MIN, "min", CLI_ARG},
	{B_ISA, "isa", CLI_ARG},
	{0, NULL, 0},
};

static int on_bw_opt(int key, const char *val, void *arg)
{
	struct bw_args *b = arg;
	unsigned long long v;
	int r = common_opt(b->c, key, val);
	if (r)
		return r < 0 ? EXIT_USAGE : 0;
	switch (key) {
	case 'P':
		if (cli_opt_u64("-P", val, &v) || v < 1 || v > 256) {
			cli_error("'-P' must be 1 to 256");
			return EXIT_USAGE;
		}
		*b->threads = (int)v;
		break;
	case B_SWEEP:
		*b->sweep = 1;
		break;
	case B_LMBENCH:
		*b->lmb = 1;
		break;
	case B_MIN:
		if (pmk_bench_parse_size(val, b->lo)) {
			cli_error("bad size '%s'", val);
			return EXIT_USAGE;
		}
		break;
	case B_ISA:
		*b->isa = pmk_bw_isa_parse(val);
		if (*b->isa < 0) {
			cli_error("unknown ISA '%s' (auto scalar sse2 avx2 "
				  "avx512 neon)",
				  val);
			return EXIT_USAGE;
		}
		if (!pmk_bw_isa_supported(*b->isa)) {
			cli_error("this CPU cannot run '%s' kernels (the "
				  "widest it has: %s)",
				  val, pmk_bw_isa_name(pmk_bw_isa_best()));
			return EXIT_USAGE;
		}
		break;
	}
	return 0;
}

static int cmd_bw(int argc, char **argv)
{
	struct common c = {0};
	int ops[PMK_BW_NOPS], nops = 0, threads = 1, sweep = 0, lmb = 0;
	int isa = PMK_BW_ISA_AUTO;
	int have_size = 0, rc = 0;
	size_t size = 0, lo = 0;

	pmk_bench_cfg_default(&c.cfg);
	{
		struct bw_args ba = {&c, &threads, &sweep, &lmb, &isa, &lo};
		int first = cli_opt_parse_mixed("bench", argc, argv, bw_opts,
						on_bw_opt, &ba);
		if (first < 0)
			return -first;
		argv += first - 1;
		argc -= first - 1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!have_size) {
			if (pmk_bench_parse_size(a, &size) || size < 512) {
				cli_error("SIZE must be at least 512 bytes "
					  "(suffixes k, m, g), not '%s'",
					  a);
				return EXIT_USAGE;
			}
			have_size = 1;
		} else {
			int op = pmk_bw_op_parse(a);
			if (op < 0 || nops == PMK_BW_NOPS) {
				cli_error(
				    "unknown operation '%s' (rd wr rdwr cp "
				    "frd fwr fcp bzero bcopy)",
				    a);
				return EXIT_USAGE;
			}
			ops[nops++] = op;
		}
	}
	if (!have_size || !nops) {
		cli_error("'bench bw' needs SIZE and OP");
		return cli_usage("bench");
	}
	if (common_open(&c))
		return 1;
	if (isa == PMK_BW_ISA_AUTO)
		isa = pmk_bw_isa_best();
	const char *isa_name = pmk_bw_isa_name(isa);

	size_t sizes[MAXPTS];
	int npts = 1;
	sizes[0] = size;
	if (sweep)
		npts = pmk_bench_sizes(lo ? lo : 4096, size, c.quick ? 2 : 4,
				       64, sizes, MAXPTS);
	double *mb = calloc((size_t)(npts * nops), sizeof *mb);
	double *mbmax = calloc((size_t)(npts * nops), sizeof *mb);
	if (!mb || !mbmax) {
		free(mb);
		free(mbmax);
		return 1;
	}
	for (int o = 0; o < nops && !rc; o++)
		for (int i = 0; i < npts; i++) {
			pmk_bw_result r;
			int e;
			progress(&c, pmk_bw_op_name(ops[o]), o * npts + i,
				 nops * npts);
			e = pmk_bw_run_isa(ops[o], isa, sizes[i], threads,
					   &c.cfg, &r);
			if (e) {
				cli_error("bw %s %zu: %s",
					  pmk_bw_op_name(ops[o]), sizes[i],
					  pmk_strerror(e));
				rc = 1;
				break;
			}
			mb[o * npts + i] = r.mb_s_median;
			mbmax[o * npts + i] = r.mb_s_max;
			if (lmb)
				fprintf(stderr, "%.2f %.2f\n", sizes[i] / 1e6,
					r.mb_s_median);
		}
	progress(&c, "", 1, 1);
	if (c.json) {
		fprintf(c.out,
			"{\"benchmark\":\"bw\",\"cpu\":%d,\"threads\":%d,"
			"\"isa\":\"%s\",\"sample_ms\":%g,\"samples\":%d,"
			"\"mb\":1000000,\"results\":[",
			c.cfg.cpu, threads, isa_name, c.cfg.sample_ms,
			c.cfg.samples);
		for (int o = 0; o < nops; o++)
			for (int i = 0; i < npts; i++)
				fprintf(c.out,
					"%s{\"op\":\"%s\",\"size_bytes\":%zu,"
					"\"mb_s\":%.2f,\"mb_s_max\":%.2f}",
					o || i ? "," : "",
					pmk_bw_op_name(ops[o]), sizes[i],
					mb[o * npts + i], mbmax[o * npts + i]);
		fprintf(c.out, "]}\n");
	} else if (c.csv) {
		fprintf(c.out,
			"op,size_bytes,threads,mb_s_median,mb_s_max,isa\n");
		for (int o = 0; o < nops; o++)
			for (int i = 0; i < npts; i++)
				fprintf(c.out, "%s,%zu,%d,%.2f,%.2f,%s\n",
					pmk_bw_op_name(ops[o]), sizes[i],
					threads, mb[o * npts + i],
					mbmax[o * npts + i],
					ops[o] == PMK_BW_BZERO ||
						ops[o] == PMK_BW_BCOPY
					    ? "libc"
					    : isa_name);
	} else if (!lmb || c.out_path) {
		fprintf(c.out,
			"# bandwidth, MB = 10^6 bytes, CPU %d, %d thread%s, "
			"%s kernels, median of %d samples of %g ms\n%-6s %10s "
			"%12s %12s\n",
			c.cfg.cpu, threads, threads > 1 ? "s" : "", isa_name,
			c.cfg.samples, c.cfg.sample_ms, "op", "size", "MB/s",
			"best MB/s");
		for (int o = 0; o < nops; o++)
			for (int i = 0; i < npts; i++) {
				char hs[24];
				human_size(sizes[i], hs, sizeof hs);
				fprintf(c.out, "%-6s %10s %12.1f %12.1f\n",
					pmk_bw_op_name(ops[o]), hs,
					mb[o * npts + i], mbmax[o * npts + i]);
			}
	}
	if (c.svg_path && rc == 0) {
		pmk_plot_series ps[PMK_BW_NOPS];
		double *xs = calloc((size_t)npts, sizeof *xs);
		FILE *f = pmk__out_fopen(c.svg_path, 0, NULL);
		if (!f || !xs) {
			cli_error("cannot write '%s'", c.svg_path);
			rc = 1;
		} else {
			for (int i = 0; i < npts; i++)
				xs[i] = (double)sizes[i];
			for (int o = 0; o < nops; o++)
				ps[o] =
				    (pmk_plot_series){pmk_bw_op_name(ops[o]),
						      xs, mb + o * npts, npts};
			pmk_plot p = {.title = "bandwidth vs size",
				      .xlabel = "bytes (log2)",
				      .ylabel = "MB/s (10^6 B/s, log10)",
				      .xlog = 1,
				      .ylog = 1,
				      .series = ps,
				      .nseries = nops};
			pmk_plot_svg(&p, f);
		}
		if (f && pmk__out_fclose(f, xs != NULL, NULL))
			rc = 1;
		free(xs);
	}
	free(mb);
	free(mbmax);
	if (common_close(&c))
		rc = 1;
	return rc;
}

static const struct cli_opt os_opts[] = {
    COMMON_OPTS,
    {0, NULL, 0},
};

static int on_os_opt(int key, const char *val, void *arg)
{
	return common_opt(arg, key, val) < 0 ? EXIT_USAGE : 0;
}

static int cmd_bench_os(int argc, char **argv)
{
	struct common c = {0};
	const char *names[64];
	int nn = 0, rc = 0, nres = 0;
	pmk_os_result res[128];

	pmk_bench_cfg_default(&c.cfg);
	{
		int first = cli_opt_parse_mixed("bench", argc, argv, os_opts,
						on_os_opt, &c);
		if (first < 0)
			return -first;
		argv += first - 1;
		argc -= first - 1;
	}
	for (int i = 1; i < argc; i++) {
		int k = 0;
		while (pmk_os_names[k] && strcmp(pmk_os_names[k], argv[i]))
			k++;
		if (!pmk_os_names[k] || nn == 64) {
			cli_error("unknown OS benchmark '%s' (see 'pmkit help "
				  "bench')",
				  argv[i]);
			return EXIT_USAGE;
		}
		names[nn++] = pmk_os_names[k];
	}
	if (!nn)
		for (int k = 0; pmk_os_names[k] && nn < 64; k++)
			names[nn++] = pmk_os_names[k];
	if (common_open(&c))
		return 1;
	for (int i = 0; i < nn && nres < 120; i++) {
		int n;
		progress(&c, names[i], i, nn);
		n = pmk_os_run(names[i], &c.cfg, res + nres, 128 - nres);
		if (n < 0) {
			cli_warn("%s: %s", names[i], pmk_strerror(n));
			rc = 1;
			continue;
		}
		nres += n;
	}
	progress(&c, "", nn, nn);
	if (c.json) {
		fprintf(c.out,
			"{\"benchmark\":\"os\",\"cpu\":%d,\"sample_ms\":%g,"
			"\"samples\":%d,\"results\":[",
			c.cfg.cpu, c.cfg.sample_ms, c.cfg.samples);
		for (int i = 0; i < nres; i++)
			fprintf(c.out,
				"%s{\"name\":\"%s\",\"unit\":\"%s\","
				"\"median\":%.4f,\"best\":%.4f}",
				i ? "," : "", res[i].name, res[i].unit,
				res[i].median, res[i].best);
		fprintf(c.out, "]}\n");
	} else if (c.csv) {
		fprintf(c.out, "name,unit,median,best\n");
		for (int i = 0; i < nres; i++)
			fprintf(c.out, "%s,%s,%.4f,%.4f\n", res[i].name,
				res[i].unit, res[i].median, res[i].best);
	} else {
		fprintf(c.out,
			"# OS and IPC, CPU %d (helpers share it), median and "
			"best of %d samples of %g ms; MB = 10^6 bytes\n"
			"%-14s %12s %12s %s\n",
			c.cfg.cpu, c.cfg.samples, c.cfg.sample_ms, "benchmark",
			"median", "best", "unit");
		for (int i = 0; i < nres; i++)
			fprintf(c.out, "%-14s %12.3f %12.3f %s\n", res[i].name,
				res[i].median, res[i].best, res[i].unit);
	}
	if (common_close(&c))
		rc = 1;
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
	    {"lat", cmd_lat},
	    {"bw", cmd_bw},
	    {"os", cmd_bench_os},
	    {"sched", cmd_bench_sched}, /* perf bench sched: bench_sched.c */
	    {NULL, NULL},
	};
	return cli_sub_run("bench", subs, argc, argv);
}
