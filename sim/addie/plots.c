/*
 * plots.c: the SVG plots of `pmkit addie` (sim/addie/report.h), drawn with
 * the line chart of svg.c into a FILE the caller opened.
 */
#include <math.h>
#include <stdlib.h>

#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"

int pmk_addie_plot_figure(FILE *f, const char *title, uint32_t num,
			  const double *in, const double *ad, const double *rd,
			  size_t n)
{
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
	return pmk__svg_lines(f, &ch, s, 3);
}

int pmk_addie_plot_settle(FILE *f, uint64_t seeds,
			  const uint64_t *const sorted[4])
{
	static const char *col[4] = {"#1f77b4", "#aec7e8", "#d62728",
				     "#ff9896"};
	char lab[4][64], title[128];
	pmk__svg_series sr[4];
	double five = 500, *x[4] = {NULL}, *y = calloc(seeds, sizeof *y);
	int rc = PMK_ENOMEM;
	pmk__svg_chart ch = {.title = title,
			     .xlabel = "samples until within the band",
			     .ylabel = "fraction of runs",
			     .ymax = 1,
			     .vlines = &five,
			     .nvlines = 1,
			     .legend = 2};
	snprintf(title, sizeof title,
		 "Samples to track the input, %llu seeds (dotted: the "
		 "article's 500)",
		 (unsigned long long)seeds);
	if (!y)
		goto out;
	for (uint64_t s = 0; s < seeds; s++) /* the distribution function */
		y[s] = (double)(s + 1) / (double)seeds;
	for (int k = 0; k < 4; k++) {
		if (!(x[k] = calloc(seeds, sizeof *x[k])))
			goto out;
		for (uint64_t s = 0; s < seeds; s++)
			x[k][s] = (double)sorted[k][s];
		snprintf(lab[k], sizeof lab[k], "%u/255, %s",
			 pmk_addie_figure_nums[k / 2],
			 k % 2 ? "correlated" : "independent");
		sr[k] = (pmk__svg_series){lab[k], col[k],	 x[k],
					  y,	  (size_t)seeds, k % 2};
	}
	rc = pmk__svg_lines(f, &ch, sr, 4);
out:
	for (int k = 0; k < 4; k++)
		free(x[k]);
	free(y);
	return rc;
}

static const char *est_color[PMK_EST_COUNT] = {"#d62728", "#ff7f0e", "#1f77b4",
					       "#2ca02c", "#9467bd"};

const char *const pmk_addie_quality_plot_file[3] = {
    "addie-quality-error.svg", "addie-quality-settle.svg",
    "addie-quality-step.svg"};

int pmk_addie_plot_quality(FILE *f, int which, const pmk_quality_row *rows,
			   const unsigned *bits, int nb)
{
	static const char *titles[3] = {
	    "Steady-state RMS error vs counter width",
	    "Samples to come within 0.02 of p (from 0.5), median",
	    "Samples to track a step change, median"};
	static const char *ylabels[3] = {"RMS error (probability)", "samples",
					 "samples"};
	double x[13], y[PMK_EST_COUNT][13], lo = INFINITY, hi = 0;
	pmk__svg_series s[PMK_EST_COUNT];
	pmk__svg_chart ch = {.title = titles[which],
			     .xlabel = "counter width (bits)",
			     .ylabel = ylabels[which],
			     .ylog = 1};
	if (nb > 13)
		nb = 13;
	for (int b = 0; b < nb; b++) {
		x[b] = bits[b];
		for (int e = 0; e < PMK_EST_COUNT; e++) {
			const pmk_quality_row *r = &rows[b * PMK_EST_COUNT + e];
			y[e][b] = which == 0   ? r->rms_error
				  : which == 1 ? r->settle_median
					       : r->step_median;
		}
	}
	for (int e = 0; e < PMK_EST_COUNT; e++) {
		s[e] = (pmk__svg_series){pmk_estimator_name(e),
					 est_color[e],
					 x,
					 y[e],
					 (size_t)nb,
					 e == PMK_EST_EMA};
		for (int b = 0; b < nb; b++)
			if (y[e][b] > 0 && isfinite(y[e][b])) {
				lo = fmin(lo, y[e][b]);
				hi = fmax(hi, y[e][b]);
			}
	}
	if (!f)
		return hi > 0;
	ch.legend = which == 0 ? 1 : 0;
	ch.ymin = pow(10, floor(log10(lo)));
	ch.ymax = pow(10, ceil(log10(hi)));
	return pmk__svg_lines(f, &ch, s, PMK_EST_COUNT);
}

int pmk_addie_plot_quality_trace(FILE *f, const pmk_quality_params *qp)
{
	enum { BEFORE = 3000, AFTER = 3000 };
	static double tr[PMK_EST_COUNT][BEFORE + AFTER];
	double ref[2] = {qp->num / 255.0, qp->step_num / 255.0};
	pmk__svg_series s[PMK_EST_COUNT];
	pmk__svg_chart ch = {.title = "8-bit window: a step from "
				      "64/255 to 200/255 at sample "
				      "3000",
			     .xlabel = "samples",
			     .ylabel = "reading",
			     .ymax = 1,
			     .hlines = ref,
			     .nhlines = 2,
			     .legend = 2};
	for (int e = 0; e < PMK_EST_COUNT; e++) {
		pmk_estimator_trace(e, 8, qp->seed, qp->num, qp->step_num,
				    BEFORE, AFTER, tr[e]);
		s[e] = (pmk__svg_series){pmk_estimator_name(e),
					 est_color[e],
					 NULL,
					 tr[e],
					 BEFORE + AFTER,
					 e == PMK_EST_EMA};
	}
	return pmk__svg_lines(f, &ch, s, PMK_EST_COUNT);
}

int pmk_membuf_plot_sweep(FILE *f, const pmk_membuf_sweep *sw, size_t n)
{
	enum { NW = PMK_MEMBUF_SWEEP_NW };
	double wm[NW], st[2 * NW], rst[NW], wst[NW], hi = 0;
	pmk__svg_series s[4] = {
	    {"total, read-ahead off", "#1f77b4", wm, st, NW, 0},
	    {"read stall, read-ahead off", "#2ca02c", wm, rst, NW, 0},
	    {"write stall, read-ahead off", "#ff7f0e", wm, wst, NW, 0},
	    {"total, read-ahead on", "#d62728", wm, st + NW, NW, 1}};
	pmk__svg_chart ch = {.title = "Modelled stall cycles per request vs "
				      "watermark",
			     .xlabel = "watermark (words)",
			     .ylabel = "stall cycles per request",
			     .legend = 1};
	for (int w = 0; w < NW; w++) {
		wm[w] = pmk_membuf_sweep_watermarks[w];
		for (int ra = 0; ra < 2; ra++)
			st[ra * NW + w] =
			    (double)sw->obs[ra][w].stall / (double)n;
		rst[w] = (double)sw->obs[0][w].st.read_stall_cycles / (double)n;
		wst[w] =
		    (double)sw->obs[0][w].st.write_stall_cycles / (double)n;
	}
	for (int i = 0; i < 2 * NW; i++)
		hi = fmax(hi, st[i]);
	ch.xmin = 0;
	ch.xmax = wm[NW - 1];
	ch.ymax = hi * 1.35;
	return pmk__svg_lines(f, &ch, s, 4);
}

int pmk_addie_plot_sim(FILE *f, int nsig, const char *const names[2],
		       const pmk_addie_sim_interval *iv, size_t npts)
{
	static const char *col[2][3] = {{"#d62728", "#ff9896", "#1f77b4"},
					{"#2ca02c", "#98df8a", "#9467bd"}};
	pmk__svg_series sr[6];
	char lab[6][96];
	int ns = 0, rc = PMK_ENOMEM;
	double *x = calloc(npts ? npts : 1, sizeof *x), *y[2][2] = {{NULL}};
	pmk__svg_chart ch = {.title = "Addies on the simulated core",
			     .xlabel = "committed instructions",
			     .ylabel = "probability",
			     .ymax = 1,
			     .legend = 2};
	for (int u = 0; u < nsig && u < 2; u++)
		for (int k = 0; k < 2; k++)
			if (!(y[u][k] = calloc(npts ? npts : 1, sizeof(double))))
				goto out;
	if (!x)
		goto out;
	for (size_t i = 0; i < npts; i++) {
		x[i] = (double)iv[i].committed;
		for (int u = 0; u < nsig && u < 2; u++) {
			y[u][0][i] = iv[i].addie[u];
			y[u][1][i] = iv[i].interval[u];
		}
	}
	for (int u = 0; u < nsig && u < 2; u++) {
		snprintf(lab[ns], 96, "%s: Addie", names[u]);
		sr[ns] = (pmk__svg_series){lab[ns], col[u][0], x,
					   y[u][0], npts,     0};
		ns++;
		snprintf(lab[ns], 96, "%s: exact, per interval", names[u]);
		sr[ns] = (pmk__svg_series){lab[ns], col[u][1], x,
					   y[u][1], npts,     1};
		ns++;
	}
	rc = pmk__svg_lines(f, &ch, sr, (size_t)ns);
out:
	free(x);
	for (int u = 0; u < 2; u++)
		for (int k = 0; k < 2; k++)
			free(y[u][k]);
	return rc;
}
