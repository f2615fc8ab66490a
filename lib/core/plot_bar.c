/*
 * plot_bar.c: stacked and grouped bar charts as SVG: groups along x, bars
 * in each group, segments stacked in each bar (up from 0 when positive,
 * down when negative), an axis with a fixed range where bars beyond it are
 * clipped and their total printed, a legend on the right and a tooltip on
 * every segment.
 */
#include <math.h>
#include <string.h>

#include "lib/core/plot.h"
#include "lib/core/textout.h"
#include "pmkit/error.h"

int pmk__plot_bars(FILE *f, const pmk__bar_chart *c)
{
	double bw, gap = 18, ml = 60, mt = 50, ph = 340, mb, gw, W, H, sc;
	int nleg;
	char tip[512];

	if (!f || !c || c->ngroups <= 0 || c->nbars <= 0 || c->nseg <= 0 ||
	    !c->v || !(c->ymax > c->ymin) || !(c->tick > 0) ||
	    (c->ymax - c->ymin) / c->tick > 1000)
		return PMK_EINVAL;
	bw = c->barw > 0 ? c->barw : 16;
	mb = c->bar_label ? 120 : 90;
	gw = c->nbars * bw + gap;
	W = ml + c->ngroups * gw + 170;
	if (c->title && W < ml + 20 + 7.5 * strlen(c->title))
		W = ml + 20 + 7.5 * strlen(c->title); /* room for the title */
	H = mt + ph + mb;
	sc = ph / (c->ymax - c->ymin);
#define PY(y) (mt + (c->ymax - (y)) * sc)
	nleg = c->nseg > 1 ? c->nseg : c->nbars;

	pmk__plot_begin(f, W, H, 1);
	fprintf(f, "<text x=\"%.0f\" y=\"20\" font-size=\"14\">", ml);
	pmk__xml_text(f, c->title);
	fputs("</text>\n", f);
	for (double t = ceil(c->ymin / c->tick - 1e-9) * c->tick;
	     t <= c->ymax + c->tick * 1e-9; t += c->tick) {
		int zero = fabs(t) < c->tick * 1e-9;
		fprintf(f,
			"<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\"/><text x=\"%.0f\" y=\"%.1f\" "
			"text-anchor=\"end\">%g",
			ml, ml + c->ngroups * gw, PY(t), PY(t),
			zero ? "#000" : "#e5e5e5", ml - 4, PY(t) + 4,
			zero ? 0 : t);
		pmk__xml_text(f, c->unit ? c->unit : "");
		fputs("</text>\n", f);
	}
	for (int k = 0; k < c->nhlines; k++)
		if (c->hlines[k] >= c->ymin && c->hlines[k] <= c->ymax)
			fprintf(f,
				"<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#c00\" "
				"stroke-dasharray=\"4,3\"/>\n",
				ml, ml + c->ngroups * gw, PY(c->hlines[k]),
				PY(c->hlines[k]));
	for (int g = 0; g < c->ngroups; g++) {
		double gx = ml + g * gw + gap / 2;
		for (int b = 0; b < c->nbars; b++) {
			const double *v = c->v + ((size_t)g * c->nbars + b) *
						     (size_t)c->nseg;
			double up = 0, down = 0, x = gx + b * bw;
			int any = 0;
			for (int k = 0; k < c->nseg; k++) {
				double a, z, y0, y1;
				if (isnan(v[k]))
					continue;
				any = 1;
				if (v[k] >= 0)
					a = up, z = up += v[k];
				else
					a = down, z = down += v[k];
				/* the segment's ends, clipped to the axis */
				y0 = fmax(fmin(a, z), c->ymin);
				y1 = fmin(fmax(a, z), c->ymax);
				if (!(y1 > y0))
					continue;
				fprintf(f,
					"<rect class=\"bar\" x=\"%.1f\" "
					"y=\"%.1f\" width=\"%.1f\" "
					"height=\"%.2f\" fill=\"%s\"><title>",
					x, PY(y1), bw - 2, (y1 - y0) * sc,
					c->color ? c->color[c->nseg > 1 ? k : b]
						 : pmk__plot_color(
						       c->nseg > 1 ? k : b));
				if (c->tip)
					c->tip(c->ctx, g, b, k, tip,
					       sizeof tip);
				else
					snprintf(tip, sizeof tip, "%g", v[k]);
				pmk__xml_text(f, tip);
				fputs("</title></rect>\n", f);
			}
			if (!any)
				continue;
			if (up > c->ymax)
				fprintf(f,
					"<text x=\"%.1f\" y=\"%.1f\" "
					"font-size=\"8\" text-anchor=\"middle\">"
					"%.0f</text>\n",
					x + bw / 2 - 1, mt - 2, up);
			if (down < c->ymin)
				fprintf(f,
					"<text x=\"%.1f\" y=\"%.1f\" "
					"font-size=\"8\" text-anchor=\"middle\">"
					"%.0f</text>\n",
					x + bw / 2 - 1, mt + ph + 9, down);
			if (c->bar_label) {
				fprintf(f,
					"<text transform=\"translate(%.1f,%.1f) "
					"rotate(90)\" font-size=\"9\">",
					x + 3, mt + ph + 12);
				pmk__xml_text(f, c->bar_label[b]);
				fputs("</text>\n", f);
			}
		}
		if (c->bar_label)
			fprintf(f,
				"<text x=\"%.1f\" y=\"%.0f\" "
				"text-anchor=\"middle\">",
				gx + c->nbars * bw / 2, mt + ph + 100);
		else
			fprintf(f,
				"<text transform=\"translate(%.1f,%.1f) "
				"rotate(40)\">",
				gx + 4, mt + ph + 14);
		pmk__xml_text(f, c->group_label ? c->group_label[g] : "");
		fputs("</text>\n", f);
	}
	for (int k = 0; k < nleg; k++) {
		double y = mt + 10 + k * 18, x = ml + c->ngroups * gw + 20;
		fprintf(f,
			"<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" "
			"height=\"12\" fill=\"%s\"/><text x=\"%.0f\" "
			"y=\"%.0f\">",
			x, y, c->color ? c->color[k] : pmk__plot_color(k),
			x + 18, y + 10);
		pmk__xml_text(f, c->legend ? c->legend[k] : "");
		fputs("</text>\n", f);
	}
	pmk__plot_end(f);
#undef PY
	return ferror(f) ? PMK_EIO : 0;
}
