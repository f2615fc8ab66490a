/*
 * svg.c: a small SVG line chart for the Addie figures (axes, ticks, a
 * legend, optional log x axis and horizontal reference lines). It writes
 * to a stream the caller opened; nothing else.
 */
#include <math.h>
#include <stdio.h>

#include "lib/core/textout.h"
#include "sim/addie/addie_int.h"

enum { W = 720, H = 420, ML = 70, MR = 20, MT = 40, MB = 55 };

static double tx(const pmk__svg_chart *c, double x)
{
	double a = c->xmin, b = c->xmax;
	if (c->xlog) {
		x = log10(x);
		a = log10(a);
		b = log10(b);
	}
	return ML + (x - a) / (b - a) * (W - ML - MR);
}

static double ty(const pmk__svg_chart *c, double y)
{
	double a = c->ymin, b = c->ymax;
	if (c->ylog) {
		y = log10(y);
		a = log10(a);
		b = log10(b);
	}
	return H - MB - (y - a) / (b - a) * (H - MT - MB);
}

/* A "nice" tick step for a range. */
static double nice_step(double span, int want)
{
	double raw = span / want, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;
	return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
}

int pmk__svg_lines(FILE *f, const pmk__svg_chart *in, const pmk__svg_series *s,
		   size_t ns)
{
	pmk__svg_chart c = *in;
	if (c.xmin == c.xmax) {
		c.xmin = INFINITY;
		c.xmax = -INFINITY;
		for (size_t k = 0; k < ns; k++)
			for (size_t i = 0; i < s[k].n; i++) {
				double x = s[k].x ? s[k].x[i] : (double)i;
				c.xmin = fmin(c.xmin, x);
				c.xmax = fmax(c.xmax, x);
			}
		if (!(c.xmax > c.xmin))
			c.xmax = c.xmin + 1;
	}
	if (!(c.ymax > c.ymin))
		c.ymax = c.ymin + 1;
	fprintf(
	    f,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"white\"/>\n",
	    W, H, W, H);
	fputs("<text x=\"360\" y=\"22\" text-anchor=\"middle\" "
	      "font-size=\"15\">",
	      f);
	pmk__xml_text(f, c.title);
	fputs("</text>\n", f);
	/* grid and ticks */
	if (c.ylog) {
		for (double y = pow(10, floor(log10(c.ymin))); y <= c.ymax;
		     y *= 10) {
			if (y < c.ymin)
				continue;
			fprintf(f,
				"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#ddd\"/>\n<text x=\"%d\" "
				"y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
				ML, W - MR, ty(&c, y), ty(&c, y), ML - 6,
				ty(&c, y) + 4, y);
		}
	} else {
		double st = nice_step(c.ymax - c.ymin, 6);
		for (double y = ceil(c.ymin / st) * st; y <= c.ymax + 1e-9;
		     y += st) {
			fprintf(f,
				"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#ddd\"/>\n<text x=\"%d\" "
				"y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
				ML, W - MR, ty(&c, y), ty(&c, y), ML - 6,
				ty(&c, y) + 4, fabs(y) < 1e-12 ? 0 : y);
		}
	}
	if (c.xlog) {
		for (double x = pow(10, floor(log10(c.xmin))); x <= c.xmax;
		     x *= 10) {
			if (x < c.xmin)
				continue;
			fprintf(f,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
				"y2=\"%d\" stroke=\"#ddd\"/>\n<text x=\"%.1f\" "
				"y=\"%d\" text-anchor=\"middle\">%g</text>\n",
				tx(&c, x), tx(&c, x), MT, H - MB, tx(&c, x),
				H - MB + 16, x);
		}
	} else {
		double st = nice_step(c.xmax - c.xmin, 8);
		for (double x = ceil(c.xmin / st) * st; x <= c.xmax + 1e-9;
		     x += st) {
			fprintf(f,
				"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
				"y2=\"%d\" stroke=\"#ddd\"/>\n<text x=\"%.1f\" "
				"y=\"%d\" text-anchor=\"middle\">%g</text>\n",
				tx(&c, x), tx(&c, x), MT, H - MB, tx(&c, x),
				H - MB + 16, x);
		}
	}
	fprintf(f,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"#333\"/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(ML + W - MR) / 2, H - 14);
	pmk__xml_text(f, c.xlabel);
	fprintf(f,
		"</text>\n<text transform=\"translate(16 %d) rotate(-90)\" "
		"text-anchor=\"middle\">",
		(MT + H - MB) / 2);
	pmk__xml_text(f, c.ylabel);
	fputs("</text>\n", f);
	for (size_t k = 0; k < c.nhlines; k++)
		fprintf(f,
			"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#888\" stroke-dasharray=\"2 3\"/>\n",
			ML, W - MR, ty(&c, c.hlines[k]), ty(&c, c.hlines[k]));
	for (size_t k = 0; k < c.nvlines; k++)
		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
			"stroke=\"#888\" stroke-dasharray=\"2 3\"/>\n",
			tx(&c, c.vlines[k]), tx(&c, c.vlines[k]), MT, H - MB);
	/* series, clipped to the plot box */
	fprintf(f,
		"<clipPath id=\"plot\"><rect x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\"/></clipPath>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	for (size_t k = 0; k < ns; k++) {
		int pen = 0;
		fprintf(f,
			"<path clip-path=\"url(#plot)\" fill=\"none\" "
			"stroke=\"%s\" stroke-width=\"1.5\"%s d=\"",
			s[k].color ? s[k].color : "black",
			s[k].dashed ? " stroke-dasharray=\"6 4\"" : "");
		/* at most ~1200 points per line: plenty at this width */
		size_t step = s[k].n > 1200 ? (s[k].n + 1199) / 1200 : 1;
		for (size_t i = 0; i < s[k].n; i += step) {
			double x = s[k].x ? s[k].x[i] : (double)i,
			       y = s[k].y[i];
			if (!isfinite(y) || (c.xlog && x <= 0) ||
			    (c.ylog && y <= 0)) {
				pen = 0;
				continue;
			}
			fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', tx(&c, x),
				ty(&c, y));
			pen = 1;
		}
		fputs("\"/>\n", f);
		/* legend: a box in the chosen corner */
		int lx = c.legend ? W - MR - 250 : ML + 10;
		int ly = c.legend == 2 ? H - MB - 10 - 16 * (int)ns : MT + 6;
		fprintf(f,
			"<line x1=\"%d\" x2=\"%d\" y1=\"%zu\" y2=\"%zu\" "
			"stroke=\"%s\" stroke-width=\"2\"%s/>\n<text x=\"%d\" "
			"y=\"%zu\">",
			lx, lx + 24, (size_t)ly + 8 + 16 * k,
			(size_t)ly + 8 + 16 * k,
			s[k].color ? s[k].color : "black",
			s[k].dashed ? " stroke-dasharray=\"6 4\"" : "", lx + 30,
			(size_t)ly + 12 + 16 * k);
		pmk__xml_text(f, s[k].label);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? PMK_EIO : 0;
}
