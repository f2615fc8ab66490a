/*
 * cmd_addie.c: `pmkit addie`: seed 003's Addie. Subcommands:
 *   figures   Figures 2 and 3 and the samples-to-track distribution
 *   quality   Addie vs a two-counter ratio and an EMA, by counter width
 *   membuf    the DRAM interface buffer watched by two Addies
 * Tables print as text, --csv or --json; plots go to --svg-dir DIR.
 */
/* pmkit-command: addie | Addie stochastic monitor and DRAM buffer model */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/addie/addie_int.h"

enum { OUT_TEXT, OUT_CSV, OUT_JSON };

/* ---- a small table printer: text, CSV or JSON ---- */

typedef struct table {
	const char *name;
	int ncol;
	const char *cols[24];
	char **cells;
	int nrows, cap;
} table;

static void tbl_init(table *t, const char *name, const char *cols)
{
	static char buf[8][512];
	static int slot;
	char *p = buf[slot++ % 8];
	memset(t, 0, sizeof *t);
	t->name = name;
	snprintf(p, 512, "%s", cols);
	for (char *tok = strtok(p, ","); tok && t->ncol < 24;
	     tok = strtok(NULL, ","))
		t->cols[t->ncol++] = tok;
}

/* Append a row: `fmt` is a printf format whose fields are separated by
 * '|', one per column. */
static int tbl_row(table *t, const char *fmt, ...)
{
	char line[1024], *save = NULL;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (t->nrows == t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;
		char **c = realloc(t->cells, sizeof(char *) * (size_t)cap *
						 (size_t)t->ncol);
		if (!c)
			return -1;
		t->cells = c;
		t->cap = cap;
	}
	for (int i = 0; i < t->ncol; i++) {
		char *tok = strtok_r(i ? NULL : line, "|", &save);
		t->cells[t->nrows * t->ncol + i] = strdup(tok ? tok : "");
	}
	t->nrows++;
	return 0;
}

static int is_number(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	errno = 0;
	(void)strtod(s, &end);
	return !*end && !strchr(s, 'n') && !strchr(s, 'N') && !strchr(s, 'i') &&
	       !strchr(s, 'x');
}

static void json_str(const char *s, FILE *f)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* JSON: "name": [ {col: value, ...}, ... ] (no braces around) */
static void tbl_json(const table *t, FILE *f)
{
	json_str(t->name, f);
	fputs(": [", f);
	for (int r = 0; r < t->nrows; r++) {
		fputs(r ? ",\n  {" : "\n  {", f);
		for (int c = 0; c < t->ncol; c++) {
			const char *v = t->cells[r * t->ncol + c];
			if (c)
				fputs(", ", f);
			json_str(t->cols[c], f);
			fputs(": ", f);
			if (is_number(v))
				fputs(v, f);
			else if (!strcmp(v, "nan") || !strcmp(v, "-") ||
				 !strcmp(v, "never"))
				fputs("null", f);
			else
				json_str(v, f);
		}
		fputc('}', f);
	}
	fputs("]", f);
}

static void tbl_print(const table *t, int mode, FILE *f)
{
	if (mode == OUT_CSV) {
		for (int c = 0; c < t->ncol; c++)
			fprintf(f, "%s%s", c ? "," : "", t->cols[c]);
		fputc('\n', f);
		for (int r = 0; r < t->nrows; r++)
			for (int c = 0; c < t->ncol; c++)
				fprintf(f, "%s%s", t->cells[r * t->ncol + c],
					c + 1 < t->ncol ? "," : "\n");
		return;
	}
	{
		int w[24];
		for (int c = 0; c < t->ncol; c++) {
			w[c] = (int)strlen(t->cols[c]);
			for (int r = 0; r < t->nrows; r++) {
				int l = (int)strlen(t->cells[r * t->ncol + c]);
				if (l > w[c])
					w[c] = l;
			}
		}
		for (int c = 0; c < t->ncol; c++)
			fprintf(f, "%s%*s", c ? "  " : "", c ? w[c] : -w[c],
				t->cols[c]);
		fputc('\n', f);
		for (int r = 0; r < t->nrows; r++)
			for (int c = 0; c < t->ncol; c++)
				fprintf(f, "%s%*s%s", c ? "  " : "",
					c ? w[c] : -w[c],
					t->cells[r * t->ncol + c],
					c + 1 < t->ncol ? "" : "\n");
	}
}

static void tbl_free(table *t)
{
	for (int i = 0; i < t->nrows * t->ncol; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
}

/* Print several tables as one document. */
static void tables_out(table *ts, int n, int mode, const char **titles)
{
	if (mode == OUT_JSON) {
		fputs("{", stdout);
		for (int i = 0; i < n; i++) {
			fputs(i ? ",\n" : "\n", stdout);
			tbl_json(&ts[i], stdout);
		}
		fputs("\n}\n", stdout);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			fputc('\n', stdout);
		if (mode == OUT_TEXT && titles && titles[i])
			printf("%s\n", titles[i]);
		tbl_print(&ts[i], mode, stdout);
	}
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
		c->mode = OUT_CSV;
		return 1;
	}
	if (!strcmp(a, "--json")) {
		c->mode = OUT_JSON;
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
	snprintf(path, size, "%s/%s", c->svg_dir, name);
	f = fopen(path, "w");
	if (!f)
		cli_error("cannot write '%s': %s", path, strerror(errno));
	return f;
}

static int svg_close(FILE *f, const char *path, int rc)
{
	if (fclose(f) != 0 || rc) {
		cli_error("cannot write '%s'", path);
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
			     .nhlines = 1};
	FILE *f = svg_open(c, file, path, sizeof path);
	if (!f)
		return -1;
	return svg_close(f, path, pmk__svg_lines(f, &ch, s, 3));
}

static int addie_figures(int argc, char **argv)
{
	common cm = {OUT_TEXT, NULL};
	unsigned long long samples = 3000, window = 250, seeds = 1000, seed = 1,
			   bits = 8, stream_seed = 1;
	double tol = 0.02;
	unsigned rng = PMK_ADDIE_RNG_INDEPENDENT;
	static const uint32_t nums[2] = {64, 200};
	table t[3];
	const char *titles[3];
	char title0[160], title2[160];
	double *in, *ad, *rd;
	uint64_t *st;
	int rc = 0;
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
	in = calloc(samples, sizeof *in);
	ad = calloc(samples, sizeof *ad);
	rd = calloc(samples, sizeof *rd);
	st = calloc(seeds, sizeof *st);
	if (!in || !ad || !rd || !st) {
		cli_error("out of memory");
		free(in), free(ad), free(rd), free(st);
		return 1;
	}
	tbl_init(&t[0], "figures", "stream,sample,input_avg,addie_avg,reading");
	tbl_init(&t[1], "settle",
		 "stream,p,rng,seeds,min,p10,q1,median,q3,p90,max,mean,"
		 "never");
	tbl_init(&t[2], "at_500", "stream,p,rng,mean_abs_error,within_tol");
	for (int f = 0; f < 2; f++) {
		pmk_addie_config c;
		pmk_addie_config_default(&c);
		c.bits = (unsigned)bits;
		c.rng = rng;
		c.seed = (uint32_t)seed;
		pmk_addie_figure(&c, nums[f], stream_seed, samples, window, in,
				 ad, rd);
		for (size_t s = window; s <= samples; s += window)
			tbl_row(&t[0], "%u/255|%zu|%.4f|%.4f|%.4f", nums[f], s,
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
			tbl_row(
			    &t[1],
			    "%u/255|%.4f|%s|%llu|%llu|%.0f|%.0f|%.0f|%.0f|"
			    "%.0f|%llu|%.1f|%llu",
			    nums[f], nums[f] / 255.0, rng_name(c.rng), seeds,
			    (unsigned long long)st[0], q_of(st, seeds, 0.1),
			    q_of(st, seeds, 0.25), q_of(st, seeds, 0.5),
			    q_of(st, seeds, 0.75), q_of(st, seeds, 0.9),
			    (unsigned long long)st[seeds - 1],
			    mean / (double)seeds, (unsigned long long)never);
			tbl_row(&t[2], "%u/255|%.4f|%s|%.4f|%.3f", nums[f],
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
	for (int i = 0; i < 3; i++)
		tbl_free(&t[i]);
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
					       "#2ca02c"};

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
				     .nhlines = 2};
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
	common cm = {OUT_TEXT, NULL};
	pmk_quality_params qp;
	unsigned bits[13];
	int nb = 0, rc = 0;
	unsigned long long v;
	pmk_quality_row *rows;
	table t;
	char title[256];
	pmk_quality_params_default(&qp);
	for (unsigned b = 4; b <= 16; b++)
		bits[nb++] = b;
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
	tbl_init(&t, "quality",
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
			tbl_row(
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
	tbl_free(&t);
	free(rows);
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
	cli_error("unknown addie subcommand '%s'", argv[1]);
	fprintf(stderr, "hint: use figures, quality or membuf\n");
	return EXIT_USAGE;
}
