/*
 * cmd_addie.c: `pmkit addie`: seed 003's Addie. Subcommands:
 *   figures   Figures 2 and 3 and the samples-to-track distribution
 *   quality   Addie vs a two-counter ratio and an EMA, by counter width
 *   membuf    the DRAM interface buffer watched by two Addies
 *   sim       two Addies on event streams of the simulated core
 * The experiments, the sweeps, the advice and the plots are library
 * functions (pmkit/addie.h); this file reads the options, prints the tables
 * (text, --csv or --json, cli/table.h) and writes the plots to
 * --svg-dir DIR.
 */
/* pmkit-command: addie | Addie stochastic monitor and DRAM buffer model */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/subcmd.h"
#include "cli/table.h"
#include "cli/writeout.h"

/* ---- options: one table per subcommand, one callback for all ---- */

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
    ADDIE_COMMON,		    {A_SAMPLES, "samples", CLI_ARG},
    {A_WINDOW, "window", CLI_ARG},  {A_SEEDS, "seeds", CLI_ARG},
    {A_SEED, "seed", CLI_ARG},	    {A_STREAM_SEED, "stream-seed", CLI_ARG},
    {A_BITS, "bits", CLI_ARG},	    {A_TOL, "tol", CLI_ARG},
    {A_RNG, "rng", CLI_ARG},	    {0, NULL, 0},
};
static const struct cli_opt quality_opts[] = {
    ADDIE_COMMON,		    {A_BITS, "bits", CLI_ARG},
    {A_SEEDS, "seeds", CLI_ARG},    {A_SEED, "seed", CLI_ARG},
    {A_P, "p", CLI_ARG},	    {A_STEP_TO, "step-to", CLI_ARG},
    {A_TOL, "tol", CLI_ARG},	    {0, NULL, 0},
};
static const struct cli_opt membuf_opts[] = {
    ADDIE_COMMON,
    {A_WATERMARK, "watermark", CLI_ARG},
    {A_READ_AHEAD, "read-ahead", CLI_ARG},
    {A_NO_RAW, "no-read-around-write", CLI_NOARG},
    {A_PATTERN, "pattern", CLI_ARG},	{A_REQUESTS, "requests", CLI_ARG},
    {A_SEED, "seed", CLI_ARG},		{A_BITS, "bits", CLI_ARG},
    {A_RNG, "rng", CLI_ARG},		{A_SWEEP, "sweep", CLI_NOARG},
    {A_CHAMPSIM, "champsim", CLI_NOARG}, {0, NULL, 0},
};
static const struct cli_opt sim_opts[] = {
    ADDIE_COMMON,		    {A_SIGNALS, "signals", CLI_ARG},
    {A_EVERY, "every", CLI_ARG},    {A_BITS, "bits", CLI_ARG},
    {A_RNG, "rng", CLI_ARG},	    {A_CHAMPSIM, "champsim", CLI_NOARG},
    {0, NULL, 0},
};

enum { SUB_FIGURES, SUB_QUALITY, SUB_MEMBUF, SUB_SIM };

/* Every subcommand's settings, with their defaults (aopts_init). */
typedef struct aopts {
	int sub, mode;
	const char *svg_dir;
	/* figures */
	unsigned long long samples, window, seeds, seed, stream_seed;
	double tol;
	/* addie width and random numbers (figures, membuf, sim) */
	unsigned bits, rng;
	/* quality */
	pmk_quality_params qp;
	unsigned qbits[13];
	int nqbits;
	/* membuf */
	pmk_membuf_config mb;
	unsigned long long nreq;
	const char *pattern;
	int have_pattern, have_requests, sweep, kind;
	/* sim */
	const char *signals;
	unsigned long long every;
} aopts;

static void aopts_init(aopts *o, int sub)
{
	memset(o, 0, sizeof *o);
	o->sub = sub;
	o->mode = CLI_TEXT;
	o->samples = 3000;
	o->window = 250;
	o->seeds = 1000;
	o->seed = 1;
	o->stream_seed = 1;
	o->tol = 0.02;
	o->bits = 8;
	o->rng = PMK_ADDIE_RNG_INDEPENDENT;
	pmk_quality_params_default(&o->qp);
	for (unsigned b = 4; b <= 16; b++)
		o->qbits[o->nqbits++] = b;
	pmk_membuf_config_default(&o->mb);
	o->nreq = 200000;
	o->pattern = "mixed";
	o->kind = PMK_TRACE_AUTO;
	o->signals = "l1d-hit,branch-predicted";
	o->every = 10000;
}

static int parse_rng(const char *s, unsigned *rng)
{
	int r = pmk_addie_rng_find(s);
	if (r < 0) {
		cli_error("unknown random-number mode '%s'", s);
		fprintf(stderr, "hint: use independent, correlated or "
				"shift1\n");
		return EXIT_USAGE;
	}
	*rng = (unsigned)r;
	return 0;
}

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
			return EXIT_USAGE;
		}
		bits[(*n)++] = (unsigned)v;
	}
	if (!*n) {
		cli_error("'--bits' needs at least one width");
		return EXIT_USAGE;
	}
	return 0;
}

static int on_opt(int key, const char *v, void *arg)
{
	aopts *o = arg;
	unsigned long long x;
	int q = o->sub == SUB_QUALITY, rc = 0;
	switch (key) {
	case A_CSV:
		o->mode = CLI_CSV;
		break;
	case A_JSON:
		o->mode = CLI_JSON;
		break;
	case A_SVG_DIR:
		o->svg_dir = v;
		break;
	case A_SAMPLES:
		return cli_opt_u64_in(v, 10, 10000000, &o->samples);
	case A_WINDOW:
		return cli_opt_u64_in(v, 1, 1000000, &o->window);
	case A_SEEDS:
		rc = cli_opt_u64_in(v, 1, q ? 100000 : 1000000, &o->seeds);
		o->qp.seeds = (unsigned)o->seeds;
		return rc;
	case A_SEED:
		rc = cli_opt_u64_in(v, o->sub == SUB_FIGURES, o->sub == SUB_FIGURES
							? 0x7fffffff
							: ~0ull,
			 &o->seed);
		o->qp.seed = o->seed;
		return rc;
	case A_STREAM_SEED:
		return cli_opt_u64_in(v, 0, ~0ull, &o->stream_seed);
	case A_BITS:
		if (q)
			return parse_bits_list(v, o->qbits, &o->nqbits);
		rc = cli_opt_u64_in(v, 4, 16, &x);
		o->bits = o->mb.addie.bits = (unsigned)x;
		return rc;
	case A_TOL:
		rc = cli_opt_double_in(v, 1e-6, 1, &o->tol);
		o->qp.tol = o->tol;
		return rc;
	case A_RNG:
		rc = parse_rng(v, &o->rng);
		o->mb.addie.rng = o->rng;
		return rc;
	case A_P:
		rc = cli_opt_u64_in(v, 0, 255, &x);
		o->qp.num = (uint32_t)x;
		return rc;
	case A_STEP_TO:
		rc = cli_opt_u64_in(v, 0, 255, &x);
		o->qp.step_num = (uint32_t)x;
		return rc;
	case A_WATERMARK:
		rc = cli_opt_u64_in(v, 1, 32, &x);
		o->mb.watermark = (unsigned)x;
		return rc;
	case A_READ_AHEAD:
		if (strcmp(v, "on") && strcmp(v, "off")) {
			cli_error("'--read-ahead' takes on or off, not '%s'", v);
			return EXIT_USAGE;
		}
		o->mb.read_ahead = !strcmp(v, "on");
		break;
	case A_NO_RAW:
		o->mb.read_around_write = 0;
		break;
	case A_PATTERN:
		o->pattern = v;
		o->have_pattern = 1;
		break;
	case A_REQUESTS:
		o->have_requests = 1;
		return cli_opt_u64_in(v, 1, 100000000, &o->nreq);
	case A_SWEEP:
		o->sweep = 1;
		break;
	case A_CHAMPSIM:
		o->kind = PMK_TRACE_CHAMPSIM;
		break;
	case A_SIGNALS:
		o->signals = v;
		break;
	case A_EVERY:
		return cli_opt_u64_in(v, 1, 1000000000, &o->every);
	}
	return 0;
}

/* ---- output ---- */

static const char *fmt_p(double v, char *buf)
{
	if (isnan(v))
		return "-";
	snprintf(buf, 32, "%.4f", v);
	return buf;
}

/* A whole number, or "never" for INFINITY. */
static const char *num0(double v, char *buf)
{
	if (!isfinite(v))
		return "never";
	snprintf(buf, 32, "%.0f", v);
	return buf;
}

/* A plot under --svg-dir: open it (NULL after the error), then close it
 * with the plot's result; 0, or 1 after the error (cli/writeout.h). */
static char svg_path[1024];
static FILE *svg_open(const aopts *o, const char *name)
{
	snprintf(svg_path, sizeof svg_path, "%s/%s", o->svg_dir, name);
	return cli_out_open(svg_path);
}

static int svg_close(FILE *f, int rc)
{
	return cli_out_close(f, svg_path, rc == 0, "");
}

/* ---- figures ---- */

static int addie_figures(int argc, char **argv)
{
	const uint32_t *nums = pmk_addie_figure_nums;
	aopts o;
	cli_table t[3];
	char title0[160], title2[160];
	double *in, *ad, *rd;
	uint64_t *sorted[4] = {NULL};
	pmk_addie_settle_stats ss[4];
	int rc, err;
	FILE *f;
	aopts_init(&o, SUB_FIGURES);
	if ((rc = cli_opt_parse_only("addie", argc, argv, figures_opts, on_opt,
				     &o)))
		return rc;
	for (int k = 0; k < 4 && o.svg_dir; k++)
		if (!(sorted[k] = calloc(o.seeds, sizeof *sorted[k])))
			rc = 1;
	in = calloc(o.samples, sizeof *in);
	ad = calloc(o.samples, sizeof *ad);
	rd = calloc(o.samples, sizeof *rd);
	if (rc || !in || !ad || !rd) {
		cli_error("out of memory");
		rc = 1;
		goto out;
	}
	cli_table_init(&t[0], "figures",
		       "stream,sample,input_avg,addie_avg,reading");
	cli_table_init(&t[1], "settle",
		       "stream,p,rng,seeds,min,p10,q1,median,q3,p90,max,mean,"
		       "never");
	cli_table_init(&t[2], "at_500",
		       "stream,p,rng,mean_abs_error,within_tol");
	for (int k = 0; k < 2; k++) {
		pmk_addie_config c;
		pmk_addie_config_default(&c);
		c.bits = o.bits;
		c.rng = o.rng;
		c.seed = (uint32_t)o.seed;
		pmk_addie_figure(&c, nums[k], o.stream_seed, o.samples,
				 o.window, in, ad, rd);
		for (size_t s = o.window; s <= o.samples; s += o.window)
			cli_table_row(&t[0], "%u/255|%zu|%.4f|%.4f|%.4f",
				      nums[k], s, in[s - 1], ad[s - 1],
				      rd[s - 1]);
		if (o.svg_dir) {
			char file[64], title[160];
			snprintf(file, sizeof file, "addie-figure%d.svg", k + 2);
			snprintf(title, sizeof title,
				 "Figure %d: %u-bit Addie from %u, stream "
				 "%u/255 (%.0f %%)",
				 k + 2, o.bits, 1u << (o.bits - 1), nums[k],
				 100.0 * nums[k] / 255);
			f = svg_open(&o, file);
			rc |= svg_close(f, f ? pmk_addie_plot_figure(
						   f, title, nums[k], in, ad,
						   rd, o.samples)
					     : 0);
		}
	}
	/* Samples until the reading is within tol, over many LFSR seeds
	 * (each with its own input stream), both random-number modes. */
	err = pmk_addie_settle_figures(o.bits, o.seeds, o.tol, ss, sorted);
	if (err) {
		cli_error("figures: %s", pmk_strerror(err));
		rc = 1;
		goto out_tables;
	}
	for (int i = 0; i < 4; i++) {
		const char *rng = pmk_addie_rng_name(i % 2);
		uint32_t num = nums[i / 2];
		cli_table_row(&t[1],
			      "%u/255|%.4f|%s|%llu|%llu|%.0f|%.0f|%.0f|%.0f|"
			      "%.0f|%llu|%.1f|%llu",
			      num, num / 255.0, rng, o.seeds,
			      (unsigned long long)ss[i].min, ss[i].p10,
			      ss[i].q1, ss[i].median, ss[i].q3, ss[i].p90,
			      (unsigned long long)ss[i].max, ss[i].mean,
			      (unsigned long long)ss[i].never);
		cli_table_row(&t[2], "%u/255|%.4f|%s|%.4f|%.3f", num,
			      num / 255.0, rng, ss[i].err500, ss[i].within500);
	}
	snprintf(title0, sizeof title0,
		 "Figures 2 and 3: %u-bit Addie, %s random numbers, LFSR "
		 "seed %llu; averages over %llu samples",
		 o.bits, pmk_addie_rng_name(o.rng), o.seed, o.window);
	snprintf(title2, sizeof title2,
		 "Samples until the reading is within %g of p, over %llu LFSR "
		 "seeds (the article: \"about 500\")",
		 o.tol, o.seeds);
	t[0].title = title0;
	t[1].title = title2;
	t[2].title = "The reading after 500 samples: mean |error| and the "
		     "fraction within the band";
	cli_tables_print(t, 3, o.mode, stdout);
	if (o.svg_dir) {
		f = svg_open(&o, "addie-settle.svg");
		rc |= svg_close(f, f ? pmk_addie_plot_settle(
					   f, o.seeds,
					   (const uint64_t *const *)sorted)
				     : 0);
	}
out_tables:
	for (int i = 0; i < 3; i++)
		cli_table_free(&t[i]);
out:
	for (int k = 0; k < 4; k++)
		free(sorted[k]);
	free(in), free(ad), free(rd);
	return rc;
}

/* ---- quality ---- */

static int addie_quality(int argc, char **argv)
{
	aopts o;
	int nb, rc;
	pmk_quality_row *rows;
	cli_table t;
	char title[256];
	aopts_init(&o, SUB_QUALITY);
	if ((rc = cli_opt_parse_only("addie", argc, argv, quality_opts, on_opt,
				     &o)))
		return rc;
	nb = o.nqbits;
	rows = calloc((size_t)nb * PMK_EST_COUNT, sizeof *rows);
	if (!rows) {
		cli_error("out of memory");
		return 1;
	}
	cli_table_init(&t, "quality",
		       "estimator,bits,window,settle_q1,settle_median,"
		       "settle_q3,rms_error,step_median,step_rms,seeds");
	if ((rc = pmk_addie_quality_grid(&o.qp, o.qbits, nb, rows))) {
		cli_error("quality: %s", pmk_strerror(rc));
		rc = 1;
		goto out;
	}
	for (int i = 0; i < nb * PMK_EST_COUNT; i++) {
		const pmk_quality_row *r = &rows[i];
		char b0[32], b1[32], b2[32], b3[32];
		cli_table_row(&t, "%s|%u|%u|%s|%s|%s|%.5f|%s|%.5f|%u",
			      pmk_estimator_name(r->estimator), r->bits,
			      1u << r->bits, num0(r->settle_q1, b0),
			      num0(r->settle_median, b1), num0(r->settle_q3, b2),
			      r->rms_error, num0(r->step_median, b3),
			      r->step_rms, r->seeds);
	}
	snprintf(title, sizeof title,
		 "Stream %u/255, then a step to %u/255; window 2^bits; "
		 "settle = samples to come within %g of p; %u seeds",
		 o.qp.num, o.qp.step_num, o.qp.tol, o.qp.seeds);
	t.title = title;
	cli_tables_print(&t, 1, o.mode, stdout);
	for (int k = 0; o.svg_dir && k < 4; k++) {
		FILE *f;
		if (k < 3 && !pmk_addie_plot_quality(NULL, k, rows, o.qbits, nb))
			continue;
		f = svg_open(&o, k < 3 ? pmk_addie_quality_plot_file[k]
				       : "addie-quality-trace.svg");
		if (!f) {
			rc = 1;
			break;
		}
		rc |= svg_close(f, k < 3 ? pmk_addie_plot_quality(f, k, rows,
								   o.qbits, nb)
					 : pmk_addie_plot_quality_trace(f, &o.qp));
	}
out:
	cli_table_free(&t);
	free(rows);
	return rc;
}

/* ---- membuf ---- */

/* The requests: generated from --pattern, or read from a trace or a
 * workload of the simulator. NULL after an error (*rc its exit code). */
static pmk_mem_access *mb_requests(aopts *o, const char *source, int *rc)
{
	pmk_mem_access *req;
	*rc = EXIT_USAGE;
	if (source && o->have_pattern) {
		cli_error("give a trace or workload, or --pattern, not both");
		return NULL;
	}
	if (!source && pmk_mempattern_find(o->pattern) < 0) {
		cli_error("unknown access pattern '%s'", o->pattern);
		fprintf(stderr, "hint: 'pmkit addie membuf --pattern "
				"list' lists them\n");
		return NULL;
	}
	if (source) {
		pmk_diag d;
		size_t got = 0;
		/* of a trace: up to a million requests, unless --requests */
		int err = pmk_mem_load(source, o->kind,
				       o->have_requests ? o->nreq : 1000000,
				       &req, &got, &d);
		if (err < 0)
			cli_diag(&d);
		else if (got == 0)
			cli_error("'%s' has no memory accesses", source);
		if (err < 0 || got == 0) {
			*rc = err == PMK_ENOMEM ? 1 : EXIT_USAGE;
			free(req);
			return NULL;
		}
		o->nreq = got;
		o->pattern = source;
	} else if (!(req = calloc(o->nreq, sizeof *req))) {
		cli_error("out of memory");
		*rc = 1;
		return NULL;
	} else {
		pmk_mempattern_generate(pmk_mempattern_find(o->pattern),
					o->seed, req, o->nreq);
	}
	*rc = 0;
	return req;
}

/* One pass: each signal's reading beside its exact ratio, and the time. */
static int mb_once(const aopts *o, int is_source, const pmk_mem_access *req)
{
	pmk_membuf_obs r;
	cli_table t[2];
	char b0[32], b1[32], b2[32], b3[32], title[256];
	int err = pmk_membuf_observe(&o->mb, req, o->nreq, &r);
	if (err) {
		cli_error("membuf: %s", pmk_strerror(err));
		return 1;
	}
	cli_table_init(&t[0], "signals",
		       "signal,addie,addie_mean,exact,mean_minus_exact,events");
	for (int sg = 0; sg < PMK_MEMBUF_NSIGNALS; sg++)
		cli_table_row(&t[0], "%s|%s|%s|%s|%s|%llu",
			      pmk_membuf_signal_name(sg), fmt_p(r.addie[sg], b0),
			      fmt_p(r.mean[sg], b3), fmt_p(r.exact[sg], b1),
			      fmt_p(r.mean[sg] - r.exact[sg], b2),
			      (unsigned long long)r.events[sg]);
	cli_table_init(&t[1], "timing",
		       "requests,reads,writes,cycles,read_stall,write_stall,"
		       "stall,stall_per_request,dram_reads,dram_writes,"
		       "prefetches,prefetch_used,merges,collapses,"
		       "row_hit_ratio");
	cli_table_row(
	    &t[1],
	    "%llu|%llu|%llu|%llu|%llu|%llu|%llu|%.3f|%llu|%llu|%llu|%llu|%llu|"
	    "%llu|%.3f",
	    o->nreq, (unsigned long long)r.st.reads,
	    (unsigned long long)r.st.writes, (unsigned long long)r.st.cycles,
	    (unsigned long long)r.st.read_stall_cycles,
	    (unsigned long long)r.st.write_stall_cycles,
	    (unsigned long long)r.stall, (double)r.stall / (double)o->nreq,
	    (unsigned long long)r.st.dram_reads,
	    (unsigned long long)r.st.dram_writes,
	    (unsigned long long)r.st.prefetches,
	    (unsigned long long)r.st.prefetch_used,
	    (unsigned long long)r.st.wb_merges,
	    (unsigned long long)r.st.wb_collapses,
	    (double)r.st.row_hits / (double)(r.st.row_hits + r.st.row_misses
						 ? r.st.row_hits +
						       r.st.row_misses
						 : 1));
	snprintf(title, sizeof title,
		 "%s %s, %llu requests; watermark %u, read-ahead %s; two "
		 "%u-bit Addies behind a multiplexer (run 1: wb-hit, "
		 "read-merge; run 2: wb-full, rb-hit)",
		 is_source ? "source" : "pattern", o->pattern, o->nreq,
		 o->mb.watermark, o->mb.read_ahead ? "on" : "off",
		 o->mb.addie.bits);
	t[0].title = title;
	t[1].title = "modelled time (bus cycles)";
	cli_tables_print(t, 2, o->mode, stdout);
	cli_table_free(&t[0]);
	cli_table_free(&t[1]);
	return 0;
}

/* One row of the advice table from a step of pmk_membuf_advise. */
static void advice_row(cli_table *t, const pmk_membuf_step *s)
{
	char b0[32], b1[32], b2[32], v[128];
	const char *ra = s->read_ahead ? "on" : "off", *what;
	switch (s->kind) {
	case PMK_ADVISE_READ_AHEAD:
		what = "off, on|rb-hit";
		snprintf(v, sizeof v, "%s, %s", fmt_p(s->v[0], b0),
			 fmt_p(s->v[1], b1));
		break;
	case PMK_ADVISE_LOWER:
	case PMK_ADVISE_KEEP:
		what = "wb-hit, wb-full";
		snprintf(v, sizeof v, "%s, %s", fmt_p(s->v[0], b0),
			 fmt_p(s->v[1], b1));
		break;
	default:
		what = NULL;
		snprintf(v, sizeof v, "%s, %s; %s", fmt_p(s->v[0], b0),
			 fmt_p(s->v[1], b1), fmt_p(s->v[2], b2));
	}
	if (s->kind == PMK_ADVISE_READ_AHEAD)
		cli_table_row(t, "%u|%s|%s|%s", s->watermark, what, v,
			      pmk_membuf_step_conclusion(s));
	else if (what)
		cli_table_row(t, "%u|%s|%s|%s|%s", s->watermark, ra, what, v,
			      pmk_membuf_step_conclusion(s));
	else
		cli_table_row(t, "%u|%s|wb-hit, wb-full; wb-hit at %u|%s|%s",
			      s->watermark, ra, s->higher, v,
			      pmk_membuf_step_conclusion(s));
}

/* Every watermark with read-ahead off and on, the advice from the Addie
 * readings, and the two choices side by side. */
static int mb_sweep(const aopts *o, int is_source, const pmk_mem_access *req)
{
	pmk_membuf_sweep *sw = malloc(sizeof *sw);
	const pmk_membuf_obs *r;
	int err, rc = 0;
	double n = (double)o->nreq;
	cli_table t[3];
	char title[256];
	if (!sw) {
		cli_error("out of memory");
		return 1;
	}
	if ((err = pmk_membuf_sweep_run(&o->mb, req, o->nreq, sw))) {
		cli_error("membuf: %s", pmk_strerror(err));
		free(sw);
		return 1;
	}
	cli_table_init(&t[0], "sweep",
		       "watermark,read_ahead,stall,stall_per_request,"
		       "read_stall,write_stall,wb_hit,wb_hit_exact,"
		       "read_merge,read_merge_exact,wb_full,wb_full_exact,"
		       "rb_hit,rb_hit_exact");
	cli_table_init(&t[1], "advice",
		       "watermark,read_ahead,readings,value,conclusion");
	cli_table_init(&t[2], "best",
		       "choice,watermark,read_ahead,stall,stall_per_request");
	for (int ra = 0; ra < 2; ra++)
		for (int w = 0; w < PMK_MEMBUF_SWEEP_NW; w++) {
			char b[8][32];
			r = &sw->obs[ra][w];
			cli_table_row(
			    &t[0],
			    "%u|%s|%llu|%.3f|%llu|%llu|%s|%s|%s|%s|%s|%s|%s|%s",
			    pmk_membuf_sweep_watermarks[w], ra ? "on" : "off",
			    (unsigned long long)r->stall, (double)r->stall / n,
			    (unsigned long long)r->st.read_stall_cycles,
			    (unsigned long long)r->st.write_stall_cycles,
			    fmt_p(r->addie[0], b[0]), fmt_p(r->exact[0], b[1]),
			    fmt_p(r->addie[1], b[2]), fmt_p(r->exact[1], b[3]),
			    fmt_p(r->addie[2], b[4]), fmt_p(r->exact[2], b[5]),
			    fmt_p(r->addie[3], b[6]), fmt_p(r->exact[3], b[7]));
		}
	for (int i = 0; i < sw->nsteps; i++)
		advice_row(&t[1], &sw->steps[i]);
	cli_table_row(&t[2], "least stall|%u|%s|%llu|%.3f", sw->best_watermark,
		      sw->best_read_ahead ? "on" : "off",
		      (unsigned long long)sw->best_stall,
		      (double)sw->best_stall / n);
	cli_table_row(&t[2], "addie advice|%u|%s|%llu|%.3f",
		      sw->advised_watermark,
		      sw->advised_read_ahead ? "on" : "off",
		      (unsigned long long)sw->advised.stall,
		      (double)sw->advised.stall / n);
	snprintf(title, sizeof title,
		 "%s %s, %llu requests: every watermark, read-ahead off and "
		 "on (Addie readings beside the exact ratios)",
		 is_source ? "source" : "pattern", o->pattern, o->nreq);
	t[0].title = title;
	t[1].title = "what the Addie readings advise, step by step (the "
		     "article's reasoning)";
	t[2].title = "the choice";
	cli_tables_print(t, 3, o->mode, stdout);
	if (o->svg_dir) {
		FILE *f = svg_open(o, "addie-membuf-sweep.svg");
		rc |= svg_close(f, f ? pmk_membuf_plot_sweep(f, sw, o->nreq) : 0);
	}
	for (int i = 0; i < 3; i++)
		cli_table_free(&t[i]);
	free(sw);
	return rc;
}

static int addie_membuf(int argc, char **argv)
{
	aopts o;
	const char *source = NULL;
	pmk_mem_access *req;
	int i, rc;
	aopts_init(&o, SUB_MEMBUF);
	i = cli_opt_parse_mixed("addie", argc, argv, membuf_opts, on_opt, &o);
	if (i < 0)
		return -i;
	if (i < argc)
		source = argv[i];
	if (i + 1 < argc) {
		cli_error("one trace or workload at a time, not '%s'",
			  argv[i + 1]);
		return EXIT_USAGE;
	}
	if (!strcmp(o.pattern, "list")) {
		cli_table t;
		cli_table_init(&t, "patterns", "pattern,description");
		for (int p = 0; p < pmk_mempattern_count(); p++)
			cli_table_cell(&t, "%s", pmk_mempattern_name(p)),
			    cli_table_cell(&t, "%s", pmk_mempattern_desc(p));
		cli_tables_print(&t, 1, o.mode, stdout);
		cli_table_free(&t);
		return 0;
	}
	req = mb_requests(&o, source, &rc);
	if (!req)
		return rc;
	rc = o.sweep ? mb_sweep(&o, source != NULL, req)
		     : mb_once(&o, source != NULL, req);
	free(req);
	return rc;
}

/* ---- sim: Addies on the simulated core ---- */

/* The signals of --signals (one or two); their count, or -1 after the
 * error. */
static int sim_signals(const char *sigs, int sel[2])
{
	pmk_diag d;
	int n = pmk_addie_sim_signals_parse(sigs, sel, &d);
	if (n < 0)
		cli_diag(&d);
	else if (!n)
		cli_error("'--signals' needs a signal name");
	return n > 0 ? n : -1;
}

static int addie_sim(int argc, char **argv)
{
	aopts o;
	pmk_addie_config ac;
	pmk_addie_sim_interval *iv = NULL;
	pmk_diag d;
	const char *what = "int-mix:n=200000", *names[2] = {NULL, NULL};
	int sel[2] = {-1, -1}, nsel, rc = 0, err, i;
	cli_table t;
	char cols[512], title[256];
	size_t npts = 0;
	aopts_init(&o, SUB_SIM);
	i = cli_opt_parse_mixed("addie", argc, argv, sim_opts, on_opt, &o);
	if (i < 0)
		return -i;
	if (i < argc)
		what = argv[argc - 1]; /* the last one given */
	pmk_addie_config_default(&ac);
	ac.bits = o.bits;
	ac.rng = o.rng;
	if ((nsel = sim_signals(o.signals, sel)) < 0)
		return EXIT_USAGE;
	err = pmk_addie_sim_watch(what, o.kind, &ac, sel, nsel, o.every, &iv,
				  &npts, &d);
	if (err < 0) {
		cli_diag(&d);
		rc = err == PMK_ENOMEM ? 1 : EXIT_USAGE;
	}
	if (!rc) {
		int n = snprintf(cols, sizeof cols, "instructions,cycles");
		for (int u = 0; u < nsel; u++) {
			names[u] = pmk_addie_sim_signal_name(sel[u]);
			n += snprintf(cols + n, sizeof cols - (size_t)n,
				      ",%s_addie,%s_interval,%s_exact,%s_events",
				      names[u], names[u], names[u], names[u]);
		}
		cli_table_init(&t, "intervals", cols);
		for (size_t k = 0; k < npts; k++) {
			cli_table_cell(&t, "%llu",
				       (unsigned long long)iv[k].committed);
			cli_table_cell(&t, "%llu",
				       (unsigned long long)iv[k].cycles);
			for (int u = 0; u < nsel; u++) {
				char b0[32], b1[32], b2[32];
				cli_table_row(&t, "%s|%s|%s|%llu",
					      fmt_p(iv[k].addie[u], b0),
					      fmt_p(iv[k].interval[u], b1),
					      fmt_p(iv[k].exact[u], b2),
					      (unsigned long long)iv[k].events[u]);
			}
		}
		snprintf(title, sizeof title,
			 "%s on the simulated core: %u-bit %s Addies read "
			 "every %llu committed instructions, beside the exact "
			 "ratio in that interval and since the start",
			 what, ac.bits, pmk_addie_rng_name(ac.rng), o.every);
		t.title = title;
		cli_tables_print(&t, 1, o.mode, stdout);
		cli_table_free(&t);
	}
	if (!rc && o.svg_dir) {
		FILE *f = svg_open(&o, "addie-sim.svg");
		rc |= svg_close(f, f ? pmk_addie_plot_sim(f, nsel, names, iv, npts)
				     : 0);
	}
	free(iv);
	return rc;
}

int cmd_addie(int argc, char **argv)
{
	static const struct cli_sub subs[] = {
	    {"figures", addie_figures},
	    {"quality", addie_quality},
	    {"membuf", addie_membuf},
	    {"sim", addie_sim},
	    {NULL, NULL},
	};
	return cli_sub_run("addie", subs, argc, argv);
}
