/*
 * plot_bar.c: stacked and grouped bar charts as SVG: groups along x, bars
 * in each group, segments stacked in each bar (up from 0 when positive,
 * down when negative), an axis with a fixed range where bars beyond it are
 * clipped and their total printed, reference lines, notes above bars, a
 * legend on the right and a tooltip on every segment. A chart is a
 * picture of its own or one panel of a larger one.
 */
#include <math.h>
#include <string.h>

#include "lib/core/plot.h"
#include "lib/core/textout.h"
#include "pmkit/error.h"

enum { ML = 70, MT = 50, MR = 20, LEGEND = 150 };

void pmk__plot_text(FILE *f, double x, double y, int size, int bold,
		    const char *color, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\"%s", x, y,
		size, bold ? " font-weight=\"bold\"" : "");
	if (color)
		fprintf(f, " fill=\"%s\"", color);
	fputc('>', f);
	pmk__xml_text(f, text ? text : "");
	fputs("</text>\n", f);
}

static int valid(const pmk__bar_chart *c)
{
	return c && c->ngroups > 0 && c->nbars > 0 && c->nseg > 0 && c->v &&
	       c->ymax > c->ymin && c->tick > 0 &&
	       (c->ymax - c->ymin) / c->tick <= 1000 &&
	       (size_t)c->ngroups * c->nbars * c->nseg < (1u << 30);
}

static double mbottom(const pmk__bar_chart *c)
{
	return c->bar_label ? 120 : 90;
}

/* The chart in the box (ox, oy, W, H) with bars `bw` wide. */
static void draw(FILE *f, const pmk__bar_chart *c, double ox, double oy,
		 double W, double H, double bw)
{
	double ml = ox + ML, mt = oy + MT, ph = H - MT - mbottom(c);
	double gw = c->nbars * bw / 0.8, gap = gw - c->nbars * bw;
	double x1 = ml + c->ngroups * gw, sc = ph / (c->ymax - c->ymin);
	int nleg = c->legend ? (c->nseg > 1 ? c->nseg : c->nbars) : 0;
	int every = c->ngroups <= 32 ? 1 : (c->ngroups + 31) / 32, fits = 1;
	char tip[512];
#define PY(y) (mt + (c->ymax - (y)) * sc)
#define COL(i) (c->color ? c->color[i] : pmk__plot_color(i))

	(void)W;
	pmk__plot_text(f, ml, oy + 20, 14, 1, NULL, c->title);
	for (double t = ceil(c->ymin / c->tick - 1e-9) * c->tick;
	     t <= c->ymax + c->tick * 1e-9; t += c->tick) {
		int zero = fabs(t) < c->tick * 1e-9;
		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" "
			"font-size=\"11\" text-anchor=\"end\">%.4g",
			ml, x1, PY(t), PY(t), zero ? "#000" : "#e5e5e5",
			ml - 4, PY(t) + 4, zero ? 0 : t);
		pmk__xml_text(f, c->unit ? c->unit : "");
		fputs("</text>\n", f);
	}
	if (c->ylabel) {
		fprintf(f,
			"<text transform=\"translate(%.1f,%.1f) rotate(-90)\" "
			"font-size=\"11\" text-anchor=\"middle\">",
			ox + 14, mt + ph / 2);
		pmk__xml_text(f, c->ylabel);
		fputs("</text>\n", f);
	}
	for (int g = 0; g < c->ngroups; g++)
		if (c->group_label && c->group_label[g] &&
		    strlen(c->group_label[g]) * 6.5 > gw * every)
			fits = 0;
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
					x, PY(y1), bw > 3 ? bw - 2 : bw,
					(y1 - y0) * sc,
					COL(c->nseg > 1 ? k : b));
				if (c->tip)
					c->tip(c->ctx, g, b, k, tip,
					       sizeof tip);
				else
					snprintf(tip, sizeof tip, "%g", v[k]);
				pmk__xml_text(f, tip);
				fputs("</title></rect>\n", f);
			}
			for (int n = 0; n < c->nnotes; n++)
				if (c->notes[n].group == g &&
				    c->notes[n].bar == b) {
					double top = fmin(up, c->ymax);
					fprintf(f,
						"<text x=\"%.1f\" y=\"%.1f\" "
						"font-size=\"10\" "
						"text-anchor=\"middle\">",
						x + bw / 2 - 1,
						PY(top > 0 ? top : 0) - 4);
					pmk__xml_text(f, c->notes[n].text);
					fputs("</text>\n", f);
				}
			if (!any)
				continue;
			if (up > c->ymax)
				fprintf(f,
					"<text x=\"%.1f\" y=\"%.1f\" "
					"font-size=\"8\" text-anchor=\"middle\">"
					"%.4g</text>\n",
					x + bw / 2 - 1, mt - 2, up);
			if (down < c->ymin)
				fprintf(f,
					"<text x=\"%.1f\" y=\"%.1f\" "
					"font-size=\"8\" text-anchor=\"middle\">"
					"%.4g</text>\n",
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
		if (!c->group_label || g % every)
			continue;
		if (c->bar_label)
			fprintf(f,
				"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
				"text-anchor=\"middle\">",
				gx + c->nbars * bw / 2, mt + ph + 100);
		else if (fits)
			fprintf(f,
				"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
				"text-anchor=\"middle\">",
				gx + c->nbars * bw / 2, mt + ph + 13);
		else
			fprintf(f,
				"<text transform=\"translate(%.1f,%.1f) "
				"rotate(40)\" font-size=\"11\">",
				gx + 4, mt + ph + 14);
		pmk__xml_text(f, c->group_label[g]);
		fputs("</text>\n", f);
	}
	if (c->xlabel) {
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"middle\">",
			(ml + x1) / 2,
			fits && !c->bar_label ? mt + ph + 28 : oy + H - 6);
		pmk__xml_text(f, c->xlabel);
		fputs("</text>\n", f);
	}
	for (int k = 0; k < c->nhlines; k++) {
		double y = c->hlines[k];
		if (!(y >= c->ymin && y <= c->ymax))
			continue;
		fprintf(f,
			"<line class=\"ref\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-dasharray=\"4,3\"/>\n",
			ml, x1, PY(y), PY(y),
			c->hline_color ? c->hline_color : "#c00");
		if (c->hline_label && c->hline_label[k]) {
			fprintf(f,
				"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
				"text-anchor=\"end\">",
				x1, PY(y) - 3);
			pmk__xml_text(f, c->hline_label[k]);
			fputs("</text>\n", f);
		}
	}
	for (int k = 0; k < nleg; k++) {
		double y = mt + 10 + k * 18, x = x1 + 20;
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
			"height=\"12\" fill=\"%s\"/>",
			x, y, COL(k));
		pmk__plot_text(f, x + 18, y + 10, 12, 0, NULL, c->legend[k]);
	}
#undef PY
#undef COL
}

int pmk__plot_bars(FILE *f, const pmk__bar_chart *c)
{
	double bw, W, H;
	if (!f || !valid(c))
		return PMK_EINVAL;
	bw = c->barw > 0 ? c->barw : 16;
	/* groups: bars and a gap of a fifth of the group */
	W = ML + c->ngroups * c->nbars * bw / 0.8 + (c->legend ? LEGEND : 0) +
	    MR;
	if (c->title && W < ML + 20 + 7.5 * strlen(c->title))
		W = ML + 20 + 7.5 * strlen(c->title); /* room for the title */
	H = MT + 340 + mbottom(c);
	pmk__plot_begin(f, ceil(W), H, 1);
	draw(f, c, 0, 0, W, H, bw);
	pmk__plot_end(f);
	return ferror(f) ? PMK_EIO : 0;
}

int pmk__plot_bars_in(FILE *f, const pmk__bar_chart *c, double x, double y,
		      double w, double h)
{
	double room;
	if (!f || !valid(c))
		return PMK_EINVAL;
	room = w - ML - MR - (c->legend ? LEGEND : 0);
	if (!(room > 0) || !(h > MT + mbottom(c) + 20))
		return PMK_EINVAL;
	draw(f, c, x, y, w, h, room * 0.8 / ((double)c->ngroups * c->nbars));
	return ferror(f) ? PMK_EIO : 0;
}
