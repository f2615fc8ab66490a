/*
 * svg.c: the CPI-stack pictures. Stacked bars, one group per workload and
 * one bar per method, each normalized to its total CPI (seed 001's Figures
 * 1 and 7; a negative base below the axis; bars clipped to -100 %..+200 %,
 * with a mark where they were), and grouped
 * bars of the largest component error of each method against a reference
 * (Figure 8). Writes to a stream the caller opened.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/textout.h"
#include "pmkit/cpistack.h"

static const char *const colors[PMK_CPI_NCOMP] = {
    "#9e9e9e", "#e15759", "#4e79a7", "#1f3b73", "#76b7b2",
    "#f28e2b", "#b04a00", "#edc948", "#59a14f",
};
static const char *const mcolors[PMK_CPI_NMETHOD] = {
    "#4e4e4e", "#8c8c8c", "#4e79a7", "#76b7b2",
    "#b07aa1", "#e15759", "#f28e2b", "#59a14f",
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

int pmk_cpistack_svg_stacks(FILE *f, const pmk_cpistack *s,
			    const char *const *names, int n, unsigned mask)
{
	int list[PMK_CPI_NMETHOD], nm = nmeth(s, n, mask, list);
	double bw = 16, gap = 18, ml = 60, mt = 50, ph = 360, mb = 120;
	double gw = nm * bw + gap, W = ml + n * gw + 170, H = mt + ph + mb;
	double sc = ph / 3;	 /* pixels per 100 % */
	double y0 = mt + 2 * sc; /* 0 %; +200 % at mt, -100 % at mt+ph */
	if (n <= 0 || nm <= 0)
		return PMK_EINVAL;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"%.0f\" y=\"20\" font-size=\"14\">Normalized CPI "
		"stacks per method (fraction of total CPI; base below 0 "
		"is negative; bars clipped at -100%% and +200%%, marked "
		"^)</text>\n",
		W, H, ml);
	for (int t = -2; t <= 4; t++) {
		double y = y0 - t * 0.5 * sc;
		fprintf(f,
			"<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\"/><text x=\"%.0f\" y=\"%.1f\" "
			"text-anchor=\"end\">%d%%</text>\n",
			ml, ml + n * gw, y, y, t ? "#e5e5e5" : "#000", ml - 4,
			y + 4, t * 50);
	}
	for (int w = 0; w < n; w++) {
		double gx = ml + w * gw + gap / 2;
		for (int i = 0; i < nm; i++) {
			int m = list[i];
			double tot = 0, up = 0, x = gx + i * bw;
			if (!s[w].have[m])
				continue;
			for (int k = 0; k < PMK_CPI_NCOMP; k++)
				tot += s[w].stack[m][k];
			if (!(tot > 0))
				continue;
			for (int k = 0; k < PMK_CPI_NCOMP; k++) {
				double v = s[w].stack[m][k] / tot, y, h;
				if (v >= 0) {
					double top = up + v > 2 ? 2 : up + v;
					y = y0 - top * sc;
					h = (top - (up > 2 ? 2 : up)) * sc;
					up += v;
				} else {
					if (v < -1)
						v = -1;
					y = y0;
					h = -v * sc;
				}
				if (h <= 0)
					continue;
				fprintf(f,
					"<rect x=\"%.1f\" y=\"%.1f\" "
					"width=\"%.1f\" height=\"%.2f\" "
					"fill=\"%s\"><title>",
					x, y, bw - 2, h, colors[k]);
				pmk__xml_text(f, names[w]);
				fprintf(f,
					" %s %s: %.3f CPI (%.1f%%)</title>"
					"</rect>\n",
					pmk_cpi_method_name(m),
					pmk_cpi_comp_name(k), s[w].stack[m][k],
					100 * s[w].stack[m][k] / tot);
			}
			if (up > 2)
				fprintf(f,
					"<text x=\"%.1f\" y=\"%.1f\" "
					"font-size=\"10\">^</text>\n",
					x + 2, mt - 2);
			fprintf(f,
				"<text transform=\"translate(%.1f,%.1f) "
				"rotate(90)\" font-size=\"9\">%s</text>\n",
				x + 3, mt + ph + 4, pmk_cpi_method_name(m));
		}
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" "
			"font-size=\"11\">",
			gx + nm * bw / 2, mt + ph + 95);
		pmk__xml_text(f, names[w]);
		fputs("</text>\n", f);
	}
	for (int k = 0; k < PMK_CPI_NCOMP; k++) {
		double y = mt + 10 + k * 18, x = ml + n * gw + 20;
		fprintf(
		    f,
		    "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" "
		    "fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
		    x, y, colors[k], x + 18, y + 10, pmk_cpi_comp_name(k));
	}
	fputs("</svg>\n", f);
	return ferror(f) ? PMK_EIO : 0;
}

int pmk_cpistack_svg_errors(FILE *f, const pmk_cpistack *s,
			    const char *const *names, int n, unsigned mask,
			    int ref)
{
	int list[PMK_CPI_NMETHOD], nm;
	double bw = 14, gap = 18, ml = 60, mt = 40, ph = 300, mb = 90;
	double ymax = 20, gw, W, H;
	int band = ref == PMK_CPI_SVG_BAND;
	if (band)
		mask &= ~(1u << PMK_CPI_SIM | 1u << PMK_CPI_SIM_INV);
	else
		mask &= ~(1u << ref);
	nm = nmeth(s, n, mask, list);
	if (n <= 0 || nm <= 0)
		return PMK_EINVAL;
	gw = nm * bw + gap;
	W = ml + n * gw + 170;
	H = mt + ph + mb;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"%.0f\" y=\"20\" font-size=\"14\">Maximum CPI "
		"component error against %s (%% of total CPI; bars clipped "
		"at %.0f%%)</text>\n",
		W, H, ml,
		band ? "the band between sim and sim-inv"
		     : pmk_cpi_method_name(ref),
		ymax);
	for (int t = 0; t <= 4; t++) {
		double y = mt + ph - t * ph / 4;
		fprintf(f,
			"<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\"/><text x=\"%.0f\" y=\"%.1f\" "
			"text-anchor=\"end\">%.0f%%</text>\n",
			ml, ml + n * gw, y, y, t ? "#e5e5e5" : "#000", ml - 4,
			y + 4, t * ymax / 4);
	}
	/* the 4 % line of seed 001 */
	fprintf(f,
		"<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#c00\" stroke-dasharray=\"4,3\"/>\n",
		ml, ml + n * gw, mt + ph - 4 / ymax * ph,
		mt + ph - 4 / ymax * ph);
	for (int w = 0; w < n; w++) {
		double gx = ml + w * gw + gap / 2;
		for (int i = 0; i < nm; i++) {
			int m = list[i];
			double e =
			    band ? pmk_cpistack_error_band(&s[w], m, NULL)
				 : pmk_cpistack_error(&s[w], m, ref, NULL);
			double h, x = gx + i * bw;
			if (isnan(e))
				continue;
			h = (e > ymax ? ymax : e) / ymax * ph;
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.2f\" fill=\"%s\"><title>",
				x, mt + ph - h, bw - 2, h, mcolors[m]);
			pmk__xml_text(f, names[w]);
			fprintf(f, " %s: %.2f%%</title></rect>\n",
				pmk_cpi_method_name(m), e);
			if (e > ymax)
				fprintf(
				    f,
				    "<text x=\"%.1f\" y=\"%.1f\" "
				    "font-size=\"8\" text-anchor=\"middle\">"
				    "%.0f</text>\n",
				    x + bw / 2 - 1, mt + ph - h - 2, e);
		}
		fprintf(f,
			"<text transform=\"translate(%.1f,%.1f) rotate(40)\">",
			gx + 4, mt + ph + 14);
		pmk__xml_text(f, names[w]);
		fputs("</text>\n", f);
	}
	for (int i = 0; i < nm; i++) {
		double y = mt + 10 + i * 18, x = ml + n * gw + 20;
		fprintf(
		    f,
		    "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" "
		    "fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
		    x, y, mcolors[list[i]], x + 18, y + 10,
		    pmk_cpi_method_name(list[i]));
	}
	fputs("</svg>\n", f);
	return ferror(f) ? PMK_EIO : 0;
}
