/*
 * cmd_addie.c: `pmkit addie`: seed 003's Addie. Subcommands:
 *   figures   Figures 2 and 3 and the samples-to-track distribution
 *   quality   Addie vs a two-counter ratio and an EMA, by counter width
 *   membuf    the DRAM interface buffer watched by two Addies
 *   sim       two Addies on event streams of the simulated core
 * Tables print as text, --csv or --json; plots go to --svg-dir DIR.
 */
/* pmkit-command: addie | Addie stochastic monitor and DRAM buffer model */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/table.h"
#include "lib/core/outfile.h"
#include "sim/addie/addie_int.h"

/* Print the tables with their titles (text only) as one document. */
static void tables_out(cli_table *t, int n, int mode, const char **titles)
{
	for (int i = 0; i < n; i++)
		t[i].title = titles ? titles[i] : NULL;
	cli_tables_print(t, n, mode, stdout);
}

/* ---- option helpers ---- */

typedef struct common {
	int mode;
	const char *svg_dir;
} common;

/* Handle --csv, --json, --svg-dir; 1 if consumed (with *i advanced), 0 if
 * not an option of ours, -1 on error. */
static int common_opt(common *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	if (!strcmp(a, "--csv")) {
		c->mode = CLI_CSV;
		return 1;
	}
	if (!strcmp(a, "--json")) {
		c->mode = CLI_JSON;
		return 1;
	}
	if (!strcmp(a, "--svg-dir")) {
		if (*i + 1 >= argc) {
			cli_error("option '--svg-dir' needs a directory");
			return -1;
		}
		c->svg_dir = argv[++*i];
		return 1;
	}
	return 0;
}

/* The options of each subcommand (cli/opt.h): argv is checked against its
 * table and made canonical before the loops below walk it. */
enum {
	A_CSV = 256, A_JSON, A_SVG_DIR, A_SAMPLES, A_WINDOW, A_SEEDS, A_SEED,
	A_STREAM_SEED, A_BITS, A_TOL, A_RNG, A_P, A_STEP_TO, A_WATERMARK,
	A_READ_AHEAD, A_NO_RAW, A_PATTERN, A_REQUESTS, A_SWEEP, A_CHAMPSIM,
	A_SIGNALS, A_EVERY,
};
#define ADDIE_COMMON                                                           \
	{A_CSV, "csv", CLI_NOARG}, {A_JSON, "json", CLI_NOARG},                \
	    {A_SVG_DIR, "svg-dir", CLI_ARG}
static const struct cli_opt figures_opts[] = {
	ADDIE_COMMON,
	{A_SAMPLES, "samples", CLI_ARG},
	{A_WINDOW, "window", CLI_ARG},
	{A_SEEDS, "seeds", CLI_ARG},
	{A_SEED, "seed", CLI_ARG},
	{A_STREAM_SEED, "stream-seed", CLI_ARG},
	{A_BITS, "bits", CLI_ARG},
	{A_TOL, "tol", CLI_ARG},
	{A_RNG, "rng", CLI_ARG},
	{0, NULL, 0},
};
static const struct cli_opt quality_opts[] = {
	ADDIE_COMMON,
	{A_BITS, "bits", CLI_ARG},
	{A_SEEDS, "seeds", CLI_ARG},
	{A_SEED, "seed", CLI_ARG},
	{A_P, "p", CLI_ARG},
	{A_STEP_TO, "step-to", CLI_ARG},
	{A_TOL, "tol", CLI_ARG},
	{0, NULL, 0},
};
static const struct cli_opt membuf_opts[] = {
	ADDIE_COMMON,
	{A_WATERMARK, "watermark", CLI_ARG},
	{A_READ_AHEAD, "read-ahead", CLI_ARG},
	{A_NO_RAW, "no-read-around-write", CLI_NOARG},
	{A_PATTERN, "pattern", CLI_ARG},
	{A_REQUESTS, "requests", CLI_ARG},
	{A_SEED, "seed", CLI_ARG},
	{A_BITS, "bits", CLI_ARG},
	{A_RNG, "rng", CLI_ARG},
	{A_SWEEP, "sweep", CLI_NOARG},
	{A_CHAMPSIM, "champsim", CLI_NOARG},
	{0, NULL, 0},
};
static const struct cli_opt sim_opts[] = {
	ADDIE_COMMON,
	{A_SIGNALS, "signals", CLI_ARG},
	{A_EVERY, "every", CLI_ARG},
	{A_BITS, "bits", CLI_ARG},
	{A_RNG, "rng", CLI_ARG},
	{A_CHAMPSIM, "champsim", CLI_NOARG},
	{0, NULL, 0},
};

static int opt_value(int argc, char **argv, int *i, const char **v)
{
	if (*i + 1 >= argc) {
		cli_error("option '%s' needs a value", argv[*i]);
		return -1;
	}
	*v = argv[++*i];
	return 0;
}

static int opt_num(int argc, char **argv, int *i, unsigned long long lo,
		   unsigned long long hi, unsigned long long *out)
{
	const char *opt = argv[*i], *v;
	if (opt_value(argc, argv, i, &v) || cli_opt_u64(opt, v, out))
		return -1;
	if (*out < lo || *out > hi) {
		cli_error("option '%s' must be between %llu and %llu, not '%s'",
			  opt, lo, hi, v);
		return -1;
	}
	return 0;
}

static int opt_double(int argc, char **argv, int *i, double lo, double hi,
		      double *out)
{
	const char *opt = argv[*i], *v;
	char *end;
	if (opt_value(argc, argv, i, &v))
		return -1;
	*out = strtod(v, &end);
	if (!*v || *end || !(*out >= lo && *out <= hi)) {
		cli_error("option '%s' needs a number between %g and %g, not "
			  "'%s'",
			  opt, lo, hi, v);
		return -1;
	}
	return 0;
}

static int parse_rng(const char *s, unsigned *rng)
{
	if (!strcmp(s, "independent"))
		*rng = PMK_ADDIE_RNG_INDEPENDENT;
	else if (!strcmp(s, "correlated"))
		*rng = PMK_ADDIE_RNG_CORRELATED;
	else if (!strcmp(s, "shift1"))
		*rng = PMK_ADDIE_RNG_SHIFT1;
	else {
		cli_error("unknown random-number mode '%s'", s);
		fprintf(stderr, "hint: use independent, correlated or "
				"shift1\n");
		return -1;
	}
	return 0;
}

static const char *rng_name(unsigned rng)
{
	return rng == PMK_ADDIE_RNG_CORRELATED ? "correlated"
	       : rng == PMK_ADDIE_RNG_SHIFT1   ? "shift1"
					       : "independent";
}

static FILE *svg_open(const common *c, const char *name, char *path,
		      size_t size)
{
	FILE *f;
	pmk_diag d;
	snprintf(path, size, "%s/%s", c->svg_dir, name);
	f = pmk__out_fopen(path, 0, &d); /* new file, renamed into place */
	if (!f)
		cli_diag(&d);
	return f;
}

static int svg_close(FILE *f, const char *path, int rc)
{
	pmk_diag d;
	if (pmk__out_fclose(f, rc == 0, &d) != 0 || rc) {
		if (rc)
			cli_error("cannot write '%s'", path);
		else
			cli_diag(&d);
		return -1;
	}
	fprintf(stderr, "wrote %s\n", path);
	return 0;
}

/* ---- figures ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double q_of(const uint64_t *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;
	if (i + 1 >= n)
		return (double)v[n - 1];
	return (double)v[i] * (1 - f) + (double)v[i + 1] * f;
}

static int figure_svg(const common *c, const char *file, const char *title,
		      uint32_t num, const double *in, const double *ad,
		      const double *rd, size_t n)
{
	char path[1024];
	double p = num / 255.0;
	pmk__svg_series s[3] = {
	    {"input stream, 250-sample average", "#1f77b4", NULL, in, n, 0},
	    {"Addie stream, 250-sample average", "#d62728", NULL, ad, n, 0},
	    {"Addie counter / 256", "#999999", NULL, rd, n, 1},
	};
	pmk__svg_chart ch = {.title = title,
			     .xlabel = "samples",
			     .ylabel = "probability",
			     .xmax = (double)n,
			     .ymax = 1,
			     .hlines = &p,
			     .nhlines = 1,
			     .legend = 1};
	FILE *f = svg_open(c, file, path, sizeof path);
	if (!f)
		return -1;
	return svg_close(f, path, pmk__svg_lines(f, &ch, s, 3));
}

static int addie_figures(int argc, char **argv)
{
	common cm = {CLI_TEXT, NULL};
	unsigned long long samples = 3000, window = 250, seeds = 1000, seed = 1,
			   bits = 8, stream_seed = 1;
	double tol = 0.02;
	unsigned rng = PMK_ADDIE_RNG_INDEPENDENT;
	static const uint32_t nums[2] = {64, 200};
	cli_table t[3];
	const char *titles[3];
	char title0[160], title2[160];
	double *in, *ad, *rd;
	uint64_t *st;
	double *cdf_x[4] = {NULL}, *cdf_y[4] = {NULL};
	int rc = 0;
	{
		int orc = cli_opt_canon("addie", &argc, &argv, figures_opts);
		if (orc)
			return orc;
	}
	for (int i = 1; i < argc; i++) {
		int k = common_opt(&cm, argc, argv, &i);
		const char *v;
		if (k < 0)
			return EXIT_USAGE;
		if (k)
			continue;
		if (!strcmp(argv[i], "--samples")) {
			if (opt_num(argc, argv, &i, 10, 10000000, &samples))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--window")) {
			if (opt_num(argc, argv, &i, 1, 1000000, &window))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--seeds")) {
			if (opt_num(argc, argv, &i, 1, 1000000, &seeds))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--seed")) {
			if (opt_num(argc, argv, &i, 1, 0x7fffffff, &seed))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--stream-seed")) {
			if (opt_num(argc, argv, &i, 0, ~0ull, &stream_seed))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--bits")) {
			if (opt_num(argc, argv, &i, 4, 16, &bits))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--tol")) {
			if (opt_double(argc, argv, &i, 1e-6, 1, &tol))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--rng")) {
			if (opt_value(argc, argv, &i, &v) || parse_rng(v, &rng))
				return EXIT_USAGE;
		} else {
			cli_error("unknown option '%s'", argv[i]);
			return cli_usage("addie");
		}
	}
	for (int k = 0; k < 4; k++) {
		cdf_x[k] = cm.svg_dir ? calloc(seeds, sizeof(double)) : NULL;
		cdf_y[k] = cm.svg_dir ? calloc(seeds, sizeof(double)) : NULL;
		if (cm.svg_dir && (!cdf_x[k] || !cdf_y[k])) {
			cli_error("out of memory");
			return 1;
		}
	}
	in = calloc(samples, sizeof *in);
	ad = calloc(samples, sizeof *ad);
	rd = calloc(samples, sizeof *rd);
	st = calloc(seeds, sizeof *st);
	if (!in || !ad || !rd || !st) {
		cli_error("out of memory");
		free(in), free(ad), free(rd), free(st);
		return 1;
	}
	cli_table_init(&t[0], "figures", "stream,sample,input_avg,addie_avg,reading");
	cli_table_init(&t[1], "settle",
		 "stream,p,rng,seeds,min,p10,q1,median,q3,p90,max,mean,"
		 "never");
	cli_table_init(&t[2], "at_500", "stream,p,rng,mean_abs_error,within_tol");
	for (int f = 0; f < 2; f++) {
		pmk_addie_config c;
		pmk_addie_config_default(&c);
		c.bits = (unsigned)bits;
		c.rng = rng;
		c.seed = (uint32_t)seed;
		pmk_addie_figure(&c, nums[f], stream_seed, samples, window, in,
				 ad, rd);
		for (size_t s = window; s <= samples; s += window)
			cli_table_row(&t[0], "%u/255|%zu|%.4f|%.4f|%.4f", nums[f], s,
				in[s - 1], ad[s - 1], rd[s - 1]);
		if (cm.svg_dir) {
			char file[64], title[160];
			snprintf(file, sizeof file, "addie-figure%d.svg",
				 f + 2);
			snprintf(
			    title, sizeof title,
			    "Figure %d: %u-bit Addie from %u, stream %u/255 "
			    "(%.0f %%)",
			    f + 2, (unsigned)bits, 1u << (bits - 1), nums[f],
			    100.0 * nums[f] / 255);
			if (figure_svg(&cm, file, title, nums[f], in, ad, rd,
				       samples))
				rc = 1;
		}
	}
	/* Samples until the reading is within tol, over many LFSR seeds
	 * (each with its own input stream), both random-number modes. */
	for (int f = 0; f < 2; f++) {
		for (unsigned m = 0; m < 2; m++) {
			pmk_addie_config c;
			uint64_t never = 0, limit = 200ull << bits;
			double mean = 0, err500 = 0;
			unsigned within = 0;
			pmk_addie_config_default(&c);
			c.bits = (unsigned)bits;
			c.rng = m ? PMK_ADDIE_RNG_CORRELATED
				  : PMK_ADDIE_RNG_INDEPENDENT;
			for (uint64_t s = 0; s < seeds; s++) {
				pmk_addie a;
				pmk_bitsource b;
				c.seed =
				    (uint32_t)(pmk__seed_mix(s) & 0x7fffffffu);
				st[s] = pmk_addie_settle(
				    &c, nums[f], s + 1000000, tol, limit);
				never += st[s] == limit;
				mean += (double)st[s];
				/* the reading after 500 samples */
				pmk_addie_init(&a, &c);
				pmk_bitsource_init(&b, s + 1000000, nums[f],
						   255);
				for (int k = 0; k < 500; k++)
					pmk_addie_step(&a,
						       pmk_bitsource_next(&b));
				err500 +=
				    fabs(pmk_addie_read(&a) - nums[f] / 255.0);
				within += fabs(pmk_addie_read(&a) -
					       nums[f] / 255.0) <= tol;
			}
			qsort(st, seeds, sizeof *st, cmp_u64);
			if (cdf_x[f * 2 + m])
				for (uint64_t s = 0; s < seeds; s++) {
					cdf_x[f * 2 + m][s] = (double)st[s];
					cdf_y[f * 2 + m][s] =
					    (double)(s + 1) / (double)seeds;
				}
			cli_table_row(
			    &t[1],
			    "%u/255|%.4f|%s|%llu|%llu|%.0f|%.0f|%.0f|%.0f|"
			    "%.0f|%llu|%.1f|%llu",
			    nums[f], nums[f] / 255.0, rng_name(c.rng), seeds,
			    (unsigned long long)st[0], q_of(st, seeds, 0.1),
			    q_of(st, seeds, 0.25), q_of(st, seeds, 0.5),
			    q_of(st, seeds, 0.75), q_of(st, seeds, 0.9),
			    (unsigned long long)st[seeds - 1],
			    mean / (double)seeds, (unsigned long long)never);
			cli_table_row(&t[2], "%u/255|%.4f|%s|%.4f|%.3f", nums[f],
				nums[f] / 255.0, rng_name(c.rng),
				err500 / (double)seeds,
				(double)within / (double)seeds);
		}
	}
	snprintf(title0, sizeof title0,
		 "Figures 2 and 3: %llu-bit Addie, %s random numbers, LFSR "
		 "seed %llu; averages over %llu samples",
		 bits, rng_name(rng), seed, window);
	snprintf(title2, sizeof title2,
		 "Samples until the reading is within %g of p, over %llu LFSR "
		 "seeds (the article: \"about 500\")",
		 tol, seeds);
	titles[0] = title0;
	titles[1] = title2;
	titles[2] = "The reading after 500 samples: mean |error| and the "
		    "fraction within the band";
	tables_out(t, 3, cm.mode, titles);
	if (cm.svg_dir) {
		static const char *col[4] = {"#1f77b4", "#aec7e8", "#d62728",
					     "#ff9896"};
		char lab[4][64], path[1024], title[128];
		pmk__svg_series sr[4];
		double five = 500;
		pmk__svg_chart ch = {.title = title,
				     .xlabel = "samples until within the band",
				     .ylabel = "fraction of runs",
				     .ymax = 1,
				     .vlines = &five,
				     .nvlines = 1,
				     .legend = 2};
		FILE *fp;
		snprintf(title, sizeof title,
			 "Samples to track the input, %llu seeds (dotted: the "
			 "article's 500)",
			 seeds);
		for (int k = 0; k < 4; k++) {
			snprintf(lab[k], sizeof lab[k], "%u/255, %s",
				 nums[k / 2],
				 k % 2 ? "correlated" : "independent");
			sr[k] = (pmk__svg_series){lab[k],   col[k], cdf_x[k],
						  cdf_y[k], seeds,  k % 2};
		}
		fp = svg_open(&cm, "addie-settle.svg", path, sizeof path);
		if (!fp || svg_close(fp, path, pmk__svg_lines(fp, &ch, sr, 4)))
			rc = 1;
	}
	for (int k = 0; k < 4; k++) {
		free(cdf_x[k]);
		free(cdf_y[k]);
	}
	for (int i = 0; i < 3; i++)
		cli_table_free(&t[i]);
	free(in), free(ad), free(rd), free(st);
	return rc;
}

/* ---- quality ---- */

static int parse_bits_list(const char *s, unsigned *bits, int *n)
{
	char buf[256], *save = NULL;
	snprintf(buf, sizeof buf, "%s", s);
	*n = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long long v;
		if (cli_parse_u64(tok, &v) || v < 4 || v > 16 || *n >= 13) {
			cli_error("'--bits' needs widths from 4 to 16 "
				  "separated by commas, not '%s'",
				  s);
			return -1;
		}
		bits[(*n)++] = (unsigned)v;
	}
	if (!*n) {
		cli_error("'--bits' needs at least one width");
		return -1;
	}
	return 0;
}

static const char *est_color[PMK_EST_COUNT] = {"#d62728", "#ff7f0e", "#1f77b4",
					       "#2ca02c", "#9467bd"};

static int quality_svgs(const common *cm, const pmk_quality_row *rows,
			const unsigned *bits, int nb,
			const pmk_quality_params *qp)
{
	double x[13], y[3][PMK_EST_COUNT][13];
	pmk__svg_series s[PMK_EST_COUNT];
	static const char *files[3] = {"addie-quality-error.svg",
				       "addie-quality-settle.svg",
				       "addie-quality-step.svg"};
	static const char *titles[3] = {
	    "Steady-state RMS error vs counter width",
	    "Samples to come within 0.02 of p (from 0.5), median",
	    "Samples to track a step change, median"};
	static const char *ylabels[3] = {"RMS error (probability)", "samples",
					 "samples"};
	int rc = 0;
	for (int b = 0; b < nb; b++) {
		x[b] = bits[b];
		for (int e = 0; e < PMK_EST_COUNT; e++) {
			const pmk_quality_row *r = &rows[b * PMK_EST_COUNT + e];
			y[0][e][b] = r->rms_error;
			y[1][e][b] = r->settle_median;
			y[2][e][b] = r->step_median;
		}
	}
	for (int k = 0; k < 3; k++) {
		char path[1024];
		double lo = INFINITY, hi = 0;
		pmk__svg_chart ch = {.title = titles[k],
				     .xlabel = "counter width (bits)",
				     .ylabel = ylabels[k],
				     .ylog = 1};
		FILE *f;
		for (int e = 0; e < PMK_EST_COUNT; e++) {
			s[e] = (pmk__svg_series){pmk_estimator_name(e),
						 est_color[e],
						 x,
						 y[k][e],
						 (size_t)nb,
						 e == PMK_EST_EMA};
			for (int b = 0; b < nb; b++)
				if (y[k][e][b] > 0 && isfinite(y[k][e][b])) {
					lo = fmin(lo, y[k][e][b]);
					hi = fmax(hi, y[k][e][b]);
				}
		}
		if (!(hi > 0))
			continue;
		ch.legend = k == 0 ? 1 : 0;
		ch.ymin = pow(10, floor(log10(lo)));
		ch.ymax = pow(10, ceil(log10(hi)));
		f = svg_open(cm, files[k], path, sizeof path);
		if (!f)
			return -1;
		if (svg_close(f, path,
			      pmk__svg_lines(f, &ch, s, PMK_EST_COUNT)))
			rc = -1;
	}
	/* a step response at 8 bits */
	{
		enum { BEFORE = 3000, AFTER = 3000 };
		static double tr[PMK_EST_COUNT][BEFORE + AFTER];
		double ref[2] = {qp->num / 255.0, qp->step_num / 255.0};
		char path[1024];
		pmk__svg_chart ch = {.title = "8-bit window: a step from "
					      "64/255 to 200/255 at sample "
					      "3000",
				     .xlabel = "samples",
				     .ylabel = "reading",
				     .ymax = 1,
				     .hlines = ref,
				     .nhlines = 2,
				     .legend = 2};
		FILE *f;
		for (int e = 0; e < PMK_EST_COUNT; e++) {
			pmk_estimator_trace(e, 8, qp->seed, qp->num,
					    qp->step_num, BEFORE, AFTER, tr[e]);
			s[e] = (pmk__svg_series){
			    pmk_estimator_name(e), est_color[e],    NULL, tr[e],
			    BEFORE + AFTER,	   e == PMK_EST_EMA};
		}
		f = svg_open(cm, "addie-quality-trace.svg", path, sizeof path);
		if (!f)
			return -1;
		if (svg_close(f, path,
			      pmk__svg_lines(f, &ch, s, PMK_EST_COUNT)))
			rc = -1;
	}
	return rc;
}

/* A whole number, or "never" for INFINITY. */
static const char *num0(double v, char *buf)
{
	if (!isfinite(v))
		return "never";
	snprintf(buf, 32, "%.0f", v);
	return buf;
}

static int addie_quality(int argc, char **argv)
{
	common cm = {CLI_TEXT, NULL};
	pmk_quality_params qp;
	unsigned bits[13];
	int nb = 0, rc = 0;
	unsigned long long v;
	pmk_quality_row *rows;
	cli_table t;
	char title[256];
	pmk_quality_params_default(&qp);
	for (unsigned b = 4; b <= 16; b++)
		bits[nb++] = b;
	{
		int orc = cli_opt_canon("addie", &argc, &argv, quality_opts);
		if (orc)
			return orc;
	}
	for (int i = 1; i < argc; i++) {
		int k = common_opt(&cm, argc, argv, &i);
		const char *s;
		if (k < 0)
			return EXIT_USAGE;
		if (k)
			continue;
		if (!strcmp(argv[i], "--bits")) {
			if (opt_value(argc, argv, &i, &s) ||
			    parse_bits_list(s, bits, &nb))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--seeds")) {
			if (opt_num(argc, argv, &i, 1, 100000, &v))
				return EXIT_USAGE;
			qp.seeds = (unsigned)v;
		} else if (!strcmp(argv[i], "--seed")) {
			if (opt_num(argc, argv, &i, 0, ~0ull, &v))
				return EXIT_USAGE;
			qp.seed = v;
		} else if (!strcmp(argv[i], "--p")) {
			if (opt_num(argc, argv, &i, 0, 255, &v))
				return EXIT_USAGE;
			qp.num = (uint32_t)v;
		} else if (!strcmp(argv[i], "--step-to")) {
			if (opt_num(argc, argv, &i, 0, 255, &v))
				return EXIT_USAGE;
			qp.step_num = (uint32_t)v;
		} else if (!strcmp(argv[i], "--tol")) {
			if (opt_double(argc, argv, &i, 1e-6, 1, &qp.tol))
				return EXIT_USAGE;
		} else {
			cli_error("unknown option '%s'", argv[i]);
			return cli_usage("addie");
		}
	}
	rows = calloc((size_t)nb * PMK_EST_COUNT, sizeof *rows);
	if (!rows) {
		cli_error("out of memory");
		return 1;
	}
	cli_table_init(&t, "quality",
		 "estimator,bits,window,settle_q1,settle_median,settle_q3,"
		 "rms_error,step_median,step_rms,seeds");
	for (int b = 0; b < nb; b++) {
		for (int e = 0; e < PMK_EST_COUNT; e++) {
			pmk_quality_row *r = &rows[b * PMK_EST_COUNT + e];
			char b0[32], b1[32], b2[32], b3[32];
			int err = pmk_addie_quality(&qp, e, bits[b], r);
			if (err) {
				cli_error("quality: %s", pmk_strerror(err));
				rc = 1;
				goto out;
			}
			cli_table_row(
			    &t, "%s|%u|%u|%s|%s|%s|%.5f|%s|%.5f|%u",
			    pmk_estimator_name(e), bits[b], 1u << bits[b],
			    num0(r->settle_q1, b0), num0(r->settle_median, b1),
			    num0(r->settle_q3, b2), r->rms_error,
			    num0(r->step_median, b3), r->step_rms, r->seeds);
		}
	}
	snprintf(title, sizeof title,
		 "Stream %u/255, then a step to %u/255; window 2^bits; "
		 "settle = samples to come within %g of p; %u seeds",
		 qp.num, qp.step_num, qp.tol, qp.seeds);
	{
		const char *titles[1] = {title};
		tables_out(&t, 1, cm.mode, titles);
	}
	if (cm.svg_dir && quality_svgs(&cm, rows, bits, nb, &qp))
		rc = 1;
out:
	cli_table_free(&t);
	free(rows);
	return rc;
}

/* ---- membuf ---- */

typedef struct mb_result {
	double addie[PMK_MEMBUF_NSIGNALS], exact[PMK_MEMBUF_NSIGNALS];
	double mean[PMK_MEMBUF_NSIGNALS];
	uint64_t events[PMK_MEMBUF_NSIGNALS];
	pmk_membuf_stats st;
	uint64_t stall;
} mb_result;

/* Run the requests through the buffer twice, the multiplexer switched to
 * (wb-hit, read-merge) and then (wb-full, rb-hit). */
static int mb_run(const pmk_membuf_config *base, const pmk_mem_access *req,
		  size_t n, mb_result *r)
{
	static const int sel[2][2] = {
	    {PMK_MEMBUF_WB_HIT, PMK_MEMBUF_READ_MERGE},
	    {PMK_MEMBUF_WB_FULL, PMK_MEMBUF_RB_HIT}};
	for (int pass = 0; pass < 2; pass++) {
		pmk_membuf_config c = *base;
		pmk_membuf *m;
		int err;
		c.select[0] = sel[pass][0];
		c.select[1] = sel[pass][1];
		m = pmk_membuf_new(&c, &err);
		if (!m)
			return err;
		for (size_t i = 0; i < n; i++) {
			err = pmk_membuf_access(m, &req[i]);
			if (err) {
				pmk_membuf_free(m);
				return err;
			}
		}
		for (int u = 0; u < 2; u++) {
			pmk_addie_reading rd;
			pmk_addie_watch_read(&pmk_membuf_mux(m)->unit[u], &rd);
			/* an Addie that saw no event reads nothing */
			r->addie[sel[pass][u]] = rd.events ? rd.addie : NAN;
			r->mean[sel[pass][u]] = rd.mean;
		}
		for (int sg = 0; sg < PMK_MEMBUF_NSIGNALS; sg++) {
			r->exact[sg] = pmk_membuf_exact(m, sg);
			r->events[sg] = pmk_membuf_mux(m)->events[sg];
		}
		r->st = *pmk_membuf_stats_get(m);
		r->stall = pmk_membuf_stall(m);
		pmk_membuf_free(m);
	}
	return 0;
}

static const char *fmt_p(double v, char *buf)
{
	if (isnan(v))
		return "-";
	snprintf(buf, 32, "%.4f", v);
	return buf;
}

/* The article's reasoning, with the Addie readings as the only input
 * (thresholds in docs/addie.md). Read-ahead: on when it raises the read
 * buffer hit average by 0.05 or more ("the prefetched data is used").
 * Watermark: from half the buffer, lower it while the write buffer fills
 * (wb-full above 0.01); raise it while doing so raises the write-buffer hit
 * average by 0.02 or more without the buffer filling (more merging and
 * collapsing). */
static int mb_advise(const pmk_membuf_config *base, const pmk_mem_access *req,
		     size_t n, cli_table *steps, unsigned *wm_out, int *ra_out)
{
	pmk_membuf_config c = *base;
	mb_result r, up;
	char b0[32], b1[32], b2[32];
	double off;
	int err;
	c.watermark = c.wb_words / 2 ? c.wb_words / 2 : 1;
	c.read_ahead = 0;
	if ((err = mb_run(&c, req, n, &r)))
		return err;
	off = r.addie[PMK_MEMBUF_RB_HIT];
	c.read_ahead = 1;
	if ((err = mb_run(&c, req, n, &up)))
		return err;
	*ra_out = up.addie[PMK_MEMBUF_RB_HIT] - off >= 0.05;
	cli_table_row(steps, "%u|off, on|rb-hit|%s, %s|read-ahead %s", c.watermark,
		fmt_p(off, b0), fmt_p(up.addie[PMK_MEMBUF_RB_HIT], b1),
		*ra_out ? "on: the prefetched lines are used"
			: "off: prefetching does not raise the hit average");
	c.read_ahead = *ra_out;
	if ((err = mb_run(&c, req, n, &r)))
		return err;
	for (int step = 0; step < 8; step++) {
		double h = r.addie[PMK_MEMBUF_WB_HIT],
		       f = r.addie[PMK_MEMBUF_WB_FULL];
		unsigned hi =
		    c.watermark * 2 > c.wb_words ? c.wb_words : c.watermark * 2;
		if (isnan(h))
			h = 0;
		if (isnan(f))
			f = 0;
		if (f > 0.01 && c.watermark > 1) {
			cli_table_row(
			    steps,
			    "%u|%s|wb-hit, wb-full|%s, %s|the buffer fills: "
			    "lower the watermark",
			    c.watermark, c.read_ahead ? "on" : "off",
			    fmt_p(h, b0), fmt_p(f, b1));
			c.watermark /= 2;
			if ((err = mb_run(&c, req, n, &r)))
				return err;
			continue;
		}
		if (hi > c.watermark) {
			pmk_membuf_config c2 = c;
			double h2, f2;
			c2.watermark = hi;
			if ((err = mb_run(&c2, req, n, &up)))
				return err;
			h2 = isnan(up.addie[PMK_MEMBUF_WB_HIT])
				 ? 0
				 : up.addie[PMK_MEMBUF_WB_HIT];
			f2 = isnan(up.addie[PMK_MEMBUF_WB_FULL])
				 ? 0
				 : up.addie[PMK_MEMBUF_WB_FULL];
			if (h2 - h >= 0.02 && f2 <= 0.01) {
				cli_table_row(
				    steps,
				    "%u|%s|wb-hit, wb-full; wb-hit at %u|%s, "
				    "%s; %s|writes merge more with a higher "
				    "watermark: raise it",
				    c.watermark, c.read_ahead ? "on" : "off",
				    hi, fmt_p(h, b0), fmt_p(f, b1),
				    fmt_p(h2, b2));
				c = c2;
				r = up;
				continue;
			}
			cli_table_row(steps,
				"%u|%s|wb-hit, wb-full; wb-hit at %u|%s, %s; "
				"%s|keep: %s",
				c.watermark, c.read_ahead ? "on" : "off", hi,
				fmt_p(h, b0), fmt_p(f, b1), fmt_p(h2, b2),
				f2 > 0.01
				    ? "a higher watermark fills the buffer"
				    : "a higher watermark merges little "
				      "more");
			break;
		}
		cli_table_row(steps, "%u|%s|wb-hit, wb-full|%s, %s|keep", c.watermark,
			c.read_ahead ? "on" : "off", fmt_p(h, b0),
			fmt_p(f, b1));
		break;
	}
	*wm_out = c.watermark;
	return 0;
}

static int mb_sweep_svg(const common *cm, const double *wm, const double *st,
			const double *rst, const double *wst, int nw)
{
	char path[1024];
	pmk__svg_series s[4] = {
	    {"total, read-ahead off", "#1f77b4", wm, st, (size_t)nw, 0},
	    {"read stall, read-ahead off", "#2ca02c", wm, rst, (size_t)nw, 0},
	    {"write stall, read-ahead off", "#ff7f0e", wm, wst, (size_t)nw, 0},
	    {"total, read-ahead on", "#d62728", wm, st + nw, (size_t)nw, 1}};
	double hi = 0;
	pmk__svg_chart ch = {.title = "Modelled stall cycles per request vs "
				      "watermark",
			     .xlabel = "watermark (words)",
			     .ylabel = "stall cycles per request",
			     .legend = 1};
	FILE *f;
	for (int i = 0; i < 2 * nw; i++)
		hi = fmax(hi, st[i]);
	ch.xmin = 0;
	ch.xmax = wm[nw - 1];
	ch.ymax = hi * 1.35;
	f = svg_open(cm, "addie-membuf-sweep.svg", path, sizeof path);
	if (!f)
		return -1;
	return svg_close(f, path, pmk__svg_lines(f, &ch, s, 4));
}

static int addie_membuf(int argc, char **argv)
{
	common cm = {CLI_TEXT, NULL};
	pmk_membuf_config cfg;
	unsigned long long v, nreq = 200000, seed = 1;
	const char *pattern = "mixed", *s, *source = NULL;
	int sweep = 0, pid = 0, err, rc = 0, kind = PMK_TRACE_AUTO,
	    have_pattern = 0, have_requests = 0;
	pmk_mem_access *req;
	cli_table t[3];
	char title[3][256];
	const char *titles[3];
	pmk_membuf_config_default(&cfg);
	{
		int orc = cli_opt_canon("addie", &argc, &argv, membuf_opts);
		if (orc)
			return orc;
	}
	for (int i = 1; i < argc; i++) {
		int k = common_opt(&cm, argc, argv, &i);
		if (k < 0)
			return EXIT_USAGE;
		if (k)
			continue;
		if (!strcmp(argv[i], "--watermark")) {
			if (opt_num(argc, argv, &i, 1, 32, &v))
				return EXIT_USAGE;
			cfg.watermark = (unsigned)v;
		} else if (!strcmp(argv[i], "--read-ahead")) {
			if (opt_value(argc, argv, &i, &s))
				return EXIT_USAGE;
			if (!strcmp(s, "on"))
				cfg.read_ahead = 1;
			else if (!strcmp(s, "off"))
				cfg.read_ahead = 0;
			else {
				cli_error("'--read-ahead' takes on or off, not "
					  "'%s'",
					  s);
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--no-read-around-write")) {
			cfg.read_around_write = 0;
		} else if (!strcmp(argv[i], "--pattern")) {
			if (opt_value(argc, argv, &i, &pattern))
				return EXIT_USAGE;
			have_pattern = 1;
		} else if (!strcmp(argv[i], "--requests")) {
			if (opt_num(argc, argv, &i, 1, 100000000, &nreq))
				return EXIT_USAGE;
			have_requests = 1;
		} else if (!strcmp(argv[i], "--seed")) {
			if (opt_num(argc, argv, &i, 0, ~0ull, &seed))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--bits")) {
			if (opt_num(argc, argv, &i, 4, 16, &v))
				return EXIT_USAGE;
			cfg.addie.bits = (unsigned)v;
		} else if (!strcmp(argv[i], "--rng")) {
			if (opt_value(argc, argv, &i, &s) ||
			    parse_rng(s, &cfg.addie.rng))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--sweep")) {
			sweep = 1;
		} else if (!strcmp(argv[i], "--champsim")) {
			kind = PMK_TRACE_CHAMPSIM;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cli_error("unknown option '%s'", argv[i]);
			return cli_usage("addie");
		} else if (source) {
			cli_error("one trace or workload at a time, not '%s'",
				  argv[i]);
			return EXIT_USAGE;
		} else {
			source = argv[i];
		}
	}
	if (!strcmp(pattern, "list")) {
		cli_table_init(&t[0], "patterns", "pattern,description");
		for (int p = 0; p < pmk_mempattern_count(); p++)
			cli_table_row(&t[0], "%s|%s", pmk_mempattern_name(p),
				pmk_mempattern_desc(p));
		tables_out(t, 1, cm.mode, NULL);
		cli_table_free(&t[0]);
		return 0;
	}
	if (source && have_pattern) {
		cli_error("give a trace or workload, or --pattern, not both");
		return EXIT_USAGE;
	}
	if (!source) {
		pid = pmk_mempattern_find(pattern);
		if (pid < 0) {
			cli_error("unknown access pattern '%s'", pattern);
			fprintf(stderr, "hint: 'pmkit addie membuf --pattern "
					"list' lists them\n");
			return EXIT_USAGE;
		}
	} else if (!have_requests) {
		nreq = 1000000; /* of a trace: up to a million requests */
	}
	req = calloc(nreq, sizeof *req);
	if (!req) {
		cli_error("out of memory");
		return 1;
	}
	if (source) {
		pmk_sim_source *src;
		pmk_diag d;
		size_t got = 0;
		pmk_diag_clear(&d);
		if (pmk_sim_source_open(&src, source, kind, &d) < 0) {
			cli_diag(&d);
			free(req);
			return EXIT_USAGE;
		}
		err = pmk_mem_from_insns(pmk_sim_source_next, src, req, nreq,
					 &got);
		if (err < 0) {
			cli_diag(pmk_sim_source_diag(src));
			pmk_sim_source_close(src);
			free(req);
			return EXIT_USAGE;
		}
		pmk_sim_source_close(src);
		if (got == 0) {
			cli_error("'%s' has no memory accesses", source);
			free(req);
			return EXIT_USAGE;
		}
		nreq = got;
		pattern = source;
	} else {
		pmk_mempattern_generate(pid, seed, req, nreq);
	}
	if (!sweep) {
		mb_result r;
		char b0[32], b1[32], b2[32], b3[32];
		if ((err = mb_run(&cfg, req, nreq, &r))) {
			cli_error("membuf: %s", pmk_strerror(err));
			free(req);
			return 1;
		}
		cli_table_init(&t[0], "signals",
			 "signal,addie,addie_mean,exact,mean_minus_exact,"
			 "events");
		for (int sg = 0; sg < PMK_MEMBUF_NSIGNALS; sg++)
			cli_table_row(&t[0], "%s|%s|%s|%s|%s|%llu",
				pmk_membuf_signal_name(sg),
				fmt_p(r.addie[sg], b0), fmt_p(r.mean[sg], b3),
				fmt_p(r.exact[sg], b1),
				fmt_p(r.mean[sg] - r.exact[sg], b2),
				(unsigned long long)r.events[sg]);
		cli_table_init(&t[1], "timing",
			 "requests,reads,writes,cycles,read_stall,write_stall,"
			 "stall,stall_per_request,dram_reads,dram_writes,"
			 "prefetches,prefetch_used,merges,collapses,"
			 "row_hit_ratio");
		cli_table_row(&t[1],
			"%llu|%llu|%llu|%llu|%llu|%llu|%llu|%.3f|%llu|%llu|"
			"%llu|%llu|%llu|%llu|%.3f",
			nreq, (unsigned long long)r.st.reads,
			(unsigned long long)r.st.writes,
			(unsigned long long)r.st.cycles,
			(unsigned long long)r.st.read_stall_cycles,
			(unsigned long long)r.st.write_stall_cycles,
			(unsigned long long)r.stall,
			(double)r.stall / (double)nreq,
			(unsigned long long)r.st.dram_reads,
			(unsigned long long)r.st.dram_writes,
			(unsigned long long)r.st.prefetches,
			(unsigned long long)r.st.prefetch_used,
			(unsigned long long)r.st.wb_merges,
			(unsigned long long)r.st.wb_collapses,
			(double)r.st.row_hits /
			    (double)(r.st.row_hits + r.st.row_misses
					 ? r.st.row_hits + r.st.row_misses
					 : 1));
		snprintf(title[0], sizeof title[0],
			 "%s %s, %llu requests; watermark %u, read-ahead "
			 "%s; two %u-bit Addies behind a multiplexer (run 1: "
			 "wb-hit, read-merge; run 2: wb-full, rb-hit)",
			 source ? "source" : "pattern", pattern, nreq,
			 cfg.watermark, cfg.read_ahead ? "on" : "off",
			 cfg.addie.bits);
		titles[0] = title[0];
		titles[1] = "modelled time (bus cycles)";
		tables_out(t, 2, cm.mode, titles);
		cli_table_free(&t[0]);
		cli_table_free(&t[1]);
		free(req);
		return 0;
	}
	{
		static const unsigned wms[] = {1,  2,  4,  6,  8,  12,
					       16, 20, 24, 28, 30, 32};
		enum { NW = sizeof wms / sizeof wms[0] };
		double xw[NW], st[2 * NW], rst[NW], wst[NW];
		uint64_t best = ~0ull;
		unsigned best_wm = 0, adv_wm = 0;
		int best_ra = 0, adv_ra = 0;
		cli_table_init(&t[0], "sweep",
			 "watermark,read_ahead,stall,stall_per_request,"
			 "read_stall,write_stall,wb_hit,wb_hit_exact,"
			 "read_merge,read_merge_exact,wb_full,wb_full_exact,"
			 "rb_hit,rb_hit_exact");
		for (int ra = 0; ra < 2; ra++) {
			for (int w = 0; w < NW; w++) {
				pmk_membuf_config c = cfg;
				mb_result r;
				char b[8][32];
				c.watermark = wms[w];
				c.read_ahead = ra;
				if ((err = mb_run(&c, req, nreq, &r))) {
					cli_error("membuf: %s",
						  pmk_strerror(err));
					rc = 1;
					goto out;
				}
				xw[w] = wms[w];
				st[ra * NW + w] =
				    (double)r.stall / (double)nreq;
				if (!ra) {
					rst[w] =
					    (double)r.st.read_stall_cycles /
					    (double)nreq;
					wst[w] =
					    (double)r.st.write_stall_cycles /
					    (double)nreq;
				}
				if (r.stall < best) {
					best = r.stall;
					best_wm = wms[w];
					best_ra = ra;
				}
				cli_table_row(
				    &t[0],
				    "%u|%s|%llu|%.3f|%llu|%llu|%s|%s|%s|%s|%s|"
				    "%s|%s|%s",
				    wms[w], ra ? "on" : "off",
				    (unsigned long long)r.stall,
				    (double)r.stall / (double)nreq,
				    (unsigned long long)r.st.read_stall_cycles,
				    (unsigned long long)r.st.write_stall_cycles,
				    fmt_p(r.addie[0], b[0]),
				    fmt_p(r.exact[0], b[1]),
				    fmt_p(r.addie[1], b[2]),
				    fmt_p(r.exact[1], b[3]),
				    fmt_p(r.addie[2], b[4]),
				    fmt_p(r.exact[2], b[5]),
				    fmt_p(r.addie[3], b[6]),
				    fmt_p(r.exact[3], b[7]));
			}
		}
		cli_table_init(&t[1], "advice",
			 "watermark,read_ahead,readings,value,conclusion");
		if ((err =
			 mb_advise(&cfg, req, nreq, &t[1], &adv_wm, &adv_ra))) {
			cli_error("membuf: %s", pmk_strerror(err));
			rc = 1;
			goto out;
		}
		cli_table_init(&t[2], "best",
			 "choice,watermark,read_ahead,stall,stall_per_request");
		cli_table_row(&t[2], "least stall|%u|%s|%llu|%.3f", best_wm,
			best_ra ? "on" : "off", (unsigned long long)best,
			(double)best / (double)nreq);
		{
			pmk_membuf_config c = cfg;
			mb_result r;
			c.watermark = adv_wm;
			c.read_ahead = adv_ra;
			if ((err = mb_run(&c, req, nreq, &r))) {
				cli_error("membuf: %s", pmk_strerror(err));
				rc = 1;
				goto out;
			}
			cli_table_row(&t[2], "addie advice|%u|%s|%llu|%.3f", adv_wm,
				adv_ra ? "on" : "off",
				(unsigned long long)r.stall,
				(double)r.stall / (double)nreq);
		}
		snprintf(title[0], sizeof title[0],
			 "%s %s, %llu requests: every watermark, "
			 "read-ahead off and on (Addie readings beside the "
			 "exact ratios)",
			 source ? "source" : "pattern", pattern, nreq);
		titles[0] = title[0];
		titles[1] = "what the Addie readings advise, step by step "
			    "(the article's reasoning)";
		titles[2] = "the choice";
		tables_out(t, 3, cm.mode, titles);
		if (cm.svg_dir && mb_sweep_svg(&cm, xw, st, rst, wst, NW))
			rc = 1;
	out:
		for (int i = 0; i < 3; i++)
			cli_table_free(&t[i]);
	}
	free(req);
	return rc;
}

/* ---- sim: Addies on the simulated core ---- */

static int addie_sim(int argc, char **argv)
{
	common cm = {CLI_TEXT, NULL};
	pmk_addie_config ac;
	pmk_sim_config scfg;
	pmk_sim_source *src = NULL;
	pmk_sim *sim = NULL;
	pmk_sim_observer obs;
	pmk_addie_mux mux;
	pmk_diag d;
	const char *what = "int-mix:n=200000",
		   *sigs = "l1d-hit,branch-predicted", *v;
	unsigned long long every = 10000, x;
	int kind = PMK_TRACE_AUTO, sel[2] = {-1, -1}, nsel = 0, rc = 0, more;
	uint64_t prev_ev[2] = {0, 0}, prev_one[2] = {0, 0};
	cli_table t;
	char cols[512], title[256], buf[128];
	size_t npts = 0, cap = 0;
	double *px = NULL, *py[2][3] = {{NULL}};
	pmk_addie_config_default(&ac);
	{
		int orc = cli_opt_canon("addie", &argc, &argv, sim_opts);
		if (orc)
			return orc;
	}
	for (int i = 1; i < argc; i++) {
		int k = common_opt(&cm, argc, argv, &i);
		if (k < 0)
			return EXIT_USAGE;
		if (k)
			continue;
		if (!strcmp(argv[i], "--signals")) {
			if (opt_value(argc, argv, &i, &sigs))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--every")) {
			if (opt_num(argc, argv, &i, 1, 1000000000, &every))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--bits")) {
			if (opt_num(argc, argv, &i, 4, 16, &x))
				return EXIT_USAGE;
			ac.bits = (unsigned)x;
		} else if (!strcmp(argv[i], "--rng")) {
			if (opt_value(argc, argv, &i, &v) ||
			    parse_rng(v, &ac.rng))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--champsim")) {
			kind = PMK_TRACE_CHAMPSIM;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cli_error("unknown option '%s'", argv[i]);
			return cli_usage("addie");
		} else {
			what = argv[i];
		}
	}
	{
		char tmp[256], *save = NULL;
		snprintf(tmp, sizeof tmp, "%s", sigs);
		for (char *tok = strtok_r(tmp, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int sg = pmk_addie_sim_signal_find(tok);
			if (sg < 0 || nsel == 2) {
				cli_error(sg < 0 ? "unknown signal '%s'"
						 : "two signals at most, not "
						   "'%s'",
					  sg < 0 ? tok : sigs);
				fputs("hint: signals are", stderr);
				for (int k = 0; k < PMK_ADDIE_SIM_NSIGNALS; k++)
					fprintf(stderr, " %s",
						pmk_addie_sim_signal_name(k));
				fputc('\n', stderr);
				return EXIT_USAGE;
			}
			sel[nsel++] = sg;
		}
		if (!nsel) {
			cli_error("'--signals' needs a signal name");
			return EXIT_USAGE;
		}
	}
	pmk_diag_clear(&d);
	if (pmk_sim_source_open(&src, what, kind, &d) < 0) {
		cli_diag(&d);
		return EXIT_USAGE;
	}
	pmk_sim_config_default(&scfg);
	if (pmk_sim_new(&sim, &scfg, pmk_sim_source_next, src, &d) < 0) {
		cli_diag(&d);
		pmk_sim_source_close(src);
		return 1;
	}
	pmk_addie_mux_init(&mux, &ac);
	for (int u = 0; u < nsel; u++)
		pmk_addie_mux_select(&mux, u, sel[u],
				     pmk_addie_sim_signal_name(sel[u]));
	pmk_addie_sim_observer(&obs, &mux);
	pmk_sim_set_observer(sim, &obs);
	{
		int n = snprintf(cols, sizeof cols, "instructions,cycles");
		for (int u = 0; u < nsel; u++) {
			const char *nm = pmk_addie_sim_signal_name(sel[u]);
			n +=
			    snprintf(cols + n, sizeof cols - (size_t)n,
				     ",%s_addie,%s_interval,%s_exact,%s_events",
				     nm, nm, nm, nm);
		}
	}
	cli_table_init(&t, "intervals", cols);
	do {
		const pmk_sim_stats *st;
		int n;
		more = pmk_sim_run(sim, every);
		if (more < 0) {
			cli_diag(pmk_sim_diag(sim));
			rc = EXIT_USAGE;
			break;
		}
		st = pmk_sim_stats_get(sim);
		if (npts == cap) {
			size_t nc = cap ? 2 * cap : 256;
			double *q = realloc(px, nc * sizeof *q);
			if (!q) {
				rc = 1;
				break;
			}
			px = q;
			for (int u = 0; u < 2; u++)
				for (int k = 0; k < 3; k++) {
					q = realloc(py[u][k], nc * sizeof *q);
					if (!q) {
						rc = 1;
						break;
					}
					py[u][k] = q;
				}
			if (rc)
				break;
			cap = nc;
		}
		px[npts] = (double)st->committed;
		n = snprintf(buf, sizeof buf, "%llu|%llu",
			     (unsigned long long)st->committed,
			     (unsigned long long)st->cycles);
		{
			char row[1024];
			int m = snprintf(row, sizeof row, "%s", buf);
			(void)n;
			for (int u = 0; u < nsel; u++) {
				pmk_addie_reading r;
				uint64_t de, d1;
				char b0[32], b1[32], b2[32];
				double iv;
				pmk_addie_watch_read(&mux.unit[u], &r);
				de = r.events - prev_ev[u];
				d1 = r.ones - prev_one[u];
				iv = de ? (double)d1 / (double)de : NAN;
				prev_ev[u] = r.events;
				prev_one[u] = r.ones;
				py[u][0][npts] = r.events ? r.addie : NAN;
				py[u][1][npts] = iv;
				py[u][2][npts] = r.exact;
				m += snprintf(row + m, sizeof row - (size_t)m,
					      "|%s|%s|%s|%llu",
					      fmt_p(py[u][0][npts], b0),
					      fmt_p(iv, b1), fmt_p(r.exact, b2),
					      (unsigned long long)r.events);
			}
			cli_table_row(&t, "%s", row);
		}
		npts++;
	} while (more == 1);
	if (!rc) {
		snprintf(
		    title, sizeof title,
		    "%s on the simulated core: %u-bit %s Addies read every "
		    "%llu committed instructions, beside the exact ratio "
		    "in that interval and since the start",
		    what, ac.bits, rng_name(ac.rng), every);
		{
			const char *titles[1] = {title};
			tables_out(&t, 1, cm.mode, titles);
		}
	}
	if (!rc && cm.svg_dir) {
		static const char *col[2][3] = {
		    {"#d62728", "#ff9896", "#1f77b4"},
		    {"#2ca02c", "#98df8a", "#9467bd"}};
		pmk__svg_series sr[6];
		char lab[6][96], path[1024];
		int ns = 0;
		FILE *f;
		pmk__svg_chart ch = {.title = "Addies on the simulated core",
				     .xlabel = "committed instructions",
				     .ylabel = "probability",
				     .ymax = 1,
				     .legend = 2};
		for (int u = 0; u < nsel; u++) {
			const char *nm = pmk_addie_sim_signal_name(sel[u]);
			snprintf(lab[ns], 96, "%s: Addie", nm);
			sr[ns] = (pmk__svg_series){lab[ns],  col[u][0], px,
						   py[u][0], npts,	0};
			ns++;
			snprintf(lab[ns], 96, "%s: exact, per interval", nm);
			sr[ns] = (pmk__svg_series){lab[ns],  col[u][1], px,
						   py[u][1], npts,	1};
			ns++;
		}
		f = svg_open(&cm, "addie-sim.svg", path, sizeof path);
		if (!f ||
		    svg_close(f, path, pmk__svg_lines(f, &ch, sr, (size_t)ns)))
			rc = 1;
	}
	cli_table_free(&t);
	free(px);
	for (int u = 0; u < 2; u++)
		for (int k = 0; k < 3; k++)
			free(py[u][k]);
	pmk_sim_free(sim);
	pmk_sim_source_close(src);
	return rc;
}

int cmd_addie(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc >= 2)
			return cli_man_render("pmkit-addie", stdout) ? 1 : 0;
		return cli_usage("addie");
	}
	if (!strcmp(argv[1], "figures"))
		return addie_figures(argc - 1, argv + 1);
	if (!strcmp(argv[1], "quality"))
		return addie_quality(argc - 1, argv + 1);
	if (!strcmp(argv[1], "membuf"))
		return addie_membuf(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sim"))
		return addie_sim(argc - 1, argv + 1);
	cli_error("unknown addie subcommand '%s'", argv[1]);
	fprintf(stderr, "hint: use figures, quality, membuf or sim\n");
	return EXIT_USAGE;
}
