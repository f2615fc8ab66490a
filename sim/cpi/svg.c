/*
 * svg.c: the CPI-stack pictures, drawn by the plot module
 * (lib/core/plot_bar.c). Stacked bars, one group per workload and one bar
 * per method, each normalized to its total CPI (seed 001's Figures 1 and
 * 7; a negative base below the axis; bars clipped to -100 %..+200 %, their
 * total printed where they were), and grouped bars of the largest
 * component error of each method against a reference (Figure 8). Writes
 * to a stream the caller opened.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/plot.h"
#include "pmkit/cpistack.h"

static const char *const colors[PMK_CPI_NCOMP] = {
    "#9e9e9e", "#e15759", "#4e79a7", "#1f3b73", "#76b7b2",
    "#f28e2b", "#b04a00", "#edc948", "#59a14f",
};
static const char *const mcolors[PMK_CPI_NMETHOD] = {
    "#4e4e4e", "#8c8c8c", "#4e79a7", "#76b7b2", "#b07aa1",
    "#9c755f", "#e15759", "#f28e2b", "#59a14f",
};

static int nmeth(const pmk_cpistack *s, int n, unsigned mask, int *list)
{
	int k = 0;
	for (int m = 0; m < PMK_CPI_NMETHOD; m++) {
		int any = 0;
		if (!(mask & (1u << m)))
			continue;
		for (int w = 0; w < n; w++)
			any |= s[w].have[m];
		if (any)
			list[k++] = m;
	}
	return k;
}

struct tipctx {
	const pmk_cpistack *s;
	const char *const *names;
	const int *list;
	const double *v;
	int nm, ref, band;
};

static void stack_tip(void *p, int g, int b, int k, char *buf, size_t n)
{
	const struct tipctx *t = p;
	int m = t->list[b];
	snprintf(buf, n, "%s %s %s: %.3f CPI (%.1f%%)", t->names[g],
		 pmk_cpi_method_name(m), pmk_cpi_comp_name(k),
		 t->s[g].stack[m][k],
		 t->v[((size_t)g * t->nm + b) * PMK_CPI_NCOMP + k]);
}

static void error_tip(void *p, int g, int b, int k, char *buf, size_t n)
{
	const struct tipctx *t = p;
	snprintf(buf, n, "%s %s: %.2f%%", t->names[g],
		 pmk_cpi_method_name(t->list[b]),
		 t->v[(size_t)g * t->nm + b]);
}

int pmk_cpistack_svg_stacks(FILE *f, const pmk_cpistack *s,
			    const char *const *names, int n, unsigned mask)
{
	int list[PMK_CPI_NMETHOD], nm = nmeth(s, n, mask, list), rc;
	const char *blab[PMK_CPI_NMETHOD], *leg[PMK_CPI_NCOMP];
	struct tipctx t = {s, names, list, NULL, nm, 0, 0};
	double *v;
	if (n <= 0 || nm <= 0)
		return PMK_EINVAL;
	v = malloc((size_t)n * nm * PMK_CPI_NCOMP * sizeof *v);
	if (!v)
		return PMK_ENOMEM;
	for (int w = 0; w < n; w++)
		for (int i = 0; i < nm; i++) {
			int m = list[i];
			double tot = 0, *o = v + ((size_t)w * nm + i) *
						     PMK_CPI_NCOMP;
			for (int k = 0; k < PMK_CPI_NCOMP; k++)
				tot += s[w].stack[m][k];
			for (int k = 0; k < PMK_CPI_NCOMP; k++)
				o[k] = s[w].have[m] && tot > 0
					   ? 100 * s[w].stack[m][k] / tot
					   : NAN;
		}
	for (int i = 0; i < nm; i++)
		blab[i] = pmk_cpi_method_name(list[i]);
	for (int k = 0; k < PMK_CPI_NCOMP; k++)
		leg[k] = pmk_cpi_comp_name(k);
	t.v = v;
	rc = pmk__plot_bars(
	    f, &(pmk__bar_chart){
		   .title = "Normalized CPI stacks per method (% of total "
			    "CPI; base below 0 is negative; bars clipped at "
			    "-100% and +200%, their total printed)",
		   .unit = "%",
		   .ngroups = n,
		   .nbars = nm,
		   .nseg = PMK_CPI_NCOMP,
		   .v = v,
		   .group_label = names,
		   .bar_label = blab,
		   .color = colors,
		   .legend = leg,
		   .ymin = -100,
		   .ymax = 200,
		   .tick = 50,
		   .tip = stack_tip,
		   .ctx = &t});
	free(v);
	return rc;
}

int pmk_cpistack_svg_errors(FILE *f, const pmk_cpistack *s,
			    const char *const *names, int n, unsigned mask,
			    int ref)
{
	int list[PMK_CPI_NMETHOD], nm, rc;
	const char *col[PMK_CPI_NMETHOD], *leg[PMK_CPI_NMETHOD];
	char title[160];
	double four = 4, *v;
	int band = ref == PMK_CPI_SVG_BAND;
	struct tipctx t = {s, names, list, NULL, 0, ref, band};
	if (band)
		mask &= ~(1u << PMK_CPI_SIM | 1u << PMK_CPI_SIM_INV);
	else
		mask &= ~(1u << ref);
	nm = nmeth(s, n, mask, list);
	if (n <= 0 || nm <= 0)
		return PMK_EINVAL;
	v = malloc((size_t)n * nm * sizeof *v);
	if (!v)
		return PMK_ENOMEM;
	for (int w = 0; w < n; w++)
		for (int i = 0; i < nm; i++)
			v[(size_t)w * nm + i] =
			    band ? pmk_cpistack_error_band(&s[w], list[i], NULL)
				 : pmk_cpistack_error(&s[w], list[i], ref,
						      NULL);
	for (int i = 0; i < nm; i++) {
		col[i] = mcolors[list[i]];
		leg[i] = pmk_cpi_method_name(list[i]);
	}
	snprintf(title, sizeof title,
		 "Maximum CPI component error against %s (%% of total CPI; "
		 "bars clipped at 20%%)",
		 band ? "the band between sim and sim-inv"
		      : pmk_cpi_method_name(ref));
	t.v = v;
	t.nm = nm;
	/* the 4 % line of seed 001 */
	rc = pmk__plot_bars(f, &(pmk__bar_chart){.title = title,
						  .unit = "%",
						  .ngroups = n,
						  .nbars = nm,
						  .nseg = 1,
						  .v = v,
						  .group_label = names,
						  .color = col,
						  .legend = leg,
						  .ymin = 0,
						  .ymax = 20,
						  .tick = 5,
						  .hlines = &four,
						  .nhlines = 1,
						  .barw = 14,
						  .tip = error_tip,
						  .ctx = &t});
	free(v);
	return rc;
}
