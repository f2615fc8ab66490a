/*
 * plot_line.c: line charts as SVG: log2 size axes, log10 or linear axes,
 * one coloured line per series, a legend and dashed vertical markers
 * (detected cache levels, for instance).
 */
#include <math.h>
#include <string.h>

#include "lib/core/textout.h"
#include "lib/core/plot.h"
#include "pmkit/error.h"

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c",
				     "#9467bd", "#ff7f0e", "#8c564b",
				     "#e377c2", "#17becf", "#7f7f7f"};

const char *pmk__plot_color(int i)
{
	int n = (int)(sizeof colors / sizeof *colors);
	return colors[((i % n) + n) % n];
}

/* The axis value of x on an axis of kind k (0, 2 or 10). */
static double ax(int k, double x)
{
	return k == 2 ? log2(x) : k ? log10(x) : x;
}

static double unax(int k, double e)
{
	return k == 2 ? exp2(e) : k ? pow(10, e) : e;
}

static void size_label(double b, char *buf, size_t n)
{
	if (b >= 1 << 30)
		snprintf(buf, n, "%gG", b / (1 << 30));
	else if (b >= 1 << 20)
		snprintf(buf, n, "%gM", b / (1 << 20));
	else if (b >= 1 << 10)
		snprintf(buf, n, "%gK", b / (1 << 10));
	else
		snprintf(buf, n, "%g", b);
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for a span. */
static double nice_step(double span, int want)
{
	double raw = span / want, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;
	return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
}

static double sx(const pmk__line_series *se, int i)
{
	return se->x ? se->x[i] : (double)i;
}

/* Whether the point can be drawn on these axes. */
static int shown(const pmk__line_chart *p, double x, double y)
{
	if (!isfinite(x) || !isfinite(y))
		return 0;
	return !(p->xlog && !(x > 0)) && !(p->ylog && !(y > 0));
}

/* A vertical grid line at x = px from y = top to y = bottom, labelled
 * under the plot box */
static void xtick(FILE *f, double px, double top, double bottom,
		  const char *lab)
{
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" "
		"stroke=\"#ddd\"/>\n",
		px, top, px, bottom);
	fprintf(f, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n",
		px, bottom + 16, lab);
}

/* A horizontal grid line at y = py from x = left to x = right, labelled
 * left of the plot box */
static void ytick(FILE *f, double py, double left, double right,
		  const char *lab)
{
	fprintf(f,
		"<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" "
		"stroke=\"#ddd\"/>\n",
		left, py, right, py);
	fprintf(f, "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		left - 6, py + 4, lab);
}

int pmk__plot_lines(FILE *f, const pmk__line_chart *p)
{
	double W, H, L = 70, R = 220, T = 40, B = 50;
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	int fixx, fixy;
	char lab[32];

	if (!p || !f || p->nseries < 0)
		return PMK_EINVAL;
	W = p->width > 0 ? p->width : 860;
	H = p->height > 0 ? p->height : 480;
	if (p->legend)
		R = 20;
	fixx = p->xmin < p->xmax && (!p->xlog || p->xmin > 0);
	fixy = p->ymin < p->ymax && (!p->ylog || p->ymin > 0);
	for (int s = 0; s < p->nseries; s++)
		for (int i = 0; i < p->series[s].n; i++) {
			double x = sx(&p->series[s], i), y = p->series[s].y[i];
			if (!shown(p, x, y))
				continue;
			x0 = fmin(x0, x), x1 = fmax(x1, x);
			y0 = fmin(y0, y), y1 = fmax(y1, y);
		}
	if (!(x0 <= x1)) {
		x0 = 1, x1 = 2, y0 = 1, y1 = 2;
	}
	if (fixx)
		x0 = ax(p->xlog, p->xmin), x1 = ax(p->xlog, p->xmax);
	else if (p->xlog)
		x0 = floor(ax(p->xlog, x0)), x1 = ceil(ax(p->xlog, x1));
	if (fixy)
		y0 = ax(p->ylog ? 10 : 0, p->ymin),
		y1 = ax(p->ylog ? 10 : 0, p->ymax);
	else if (p->ylog) {
		y0 = floor(log10(y0)), y1 = ceil(log10(y1));
	} else {
		y0 = y0 > 0 ? 0 : y0;
		y1 = y1 * 1.05;
	}
	if (x1 <= x0)
		x1 = x0 + 1;
	if (y1 <= y0)
		y1 = y0 + 1;
#define PX(x) (L + (ax(p->xlog, x) - x0) / (x1 - x0) * (W - L - R))
#define PY(y)                                                                  \
	(H - B - ((p->ylog ? log10(y) : (y)) - y0) / (y1 - y0) * (H - T - B))

	pmk__plot_begin(f, W, H, 1);
	fprintf(f, "<text x=\"%g\" y=\"22\" font-size=\"15\">", L);
	pmk__xml_text(f, p->title);
	fprintf(f, "</text>\n");
	/* grid and ticks: powers on log axes, nice steps on linear ones */
	if (p->xlog) {
		int step = (x1 - x0) > 16 ? 2 : 1;
		for (double e = ceil(x0 - 1e-9); e <= x1 + 1e-9; e += step) {
			double px = L + (e - x0) / (x1 - x0) * (W - L - R);
			if (p->xlog == 2)
				size_label(exp2(e), lab, sizeof lab);
			else
				snprintf(lab, sizeof lab, "%g", unax(10, e));
			xtick(f, px, T, H - B, lab);
		}
	} else {
		double st = nice_step(x1 - x0, 8);
		for (double v = ceil(x0 / st) * st; v <= x1 + st * 1e-9;
		     v += st) {
			snprintf(lab, sizeof lab, "%.4g",
				 fabs(v) < st * 1e-9 ? 0 : v);
			xtick(f, PX(v), T, H - B, lab);
		}
	}
	if (p->ylog) {
		for (double e = ceil(y0 - 1e-9); e <= y1 + 1e-9; e += 1) {
			double py = H - B - (e - y0) / (y1 - y0) * (H - T - B);
			snprintf(lab, sizeof lab, "%g", pow(10, e));
			ytick(f, py, L, W - R, lab);
		}
	} else {
		double st = nice_step(y1 - y0, 6);
		for (double v = ceil(y0 / st) * st; v <= y1 + st * 1e-9;
		     v += st) {
			snprintf(lab, sizeof lab, "%.4g",
				 fabs(v) < st * 1e-9 ? 0 : v);
			ytick(f, PY(v), L, W - R, lab);
		}
	}
	fprintf(f,
		"<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
		"fill=\"none\" stroke=\"black\"/>\n",
		L, T, W - L - R, H - T - B);
	fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">",
		L + (W - L - R) / 2, H - 12);
	pmk__xml_text(f, p->xlabel);
	fprintf(f,
		"</text>\n<text transform=\"translate(16,%g) rotate(-90)\" "
		"text-anchor=\"middle\">",
		T + (H - T - B) / 2);
	pmk__xml_text(f, p->ylabel);
	fprintf(f, "</text>\n");
	/* reference lines */
	for (int k = 0; k < p->nhlines; k++) {
		double y = p->hlines[k];
		if ((p->ylog && !(y > 0)) || !isfinite(y))
			continue;
		double py = PY(y);
		if (py < T - 0.05 || py > H - B + 0.05)
			continue;
		fprintf(f,
			"<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" "
			"stroke=\"#888\" stroke-dasharray=\"2,3\"/>\n",
			L, py, W - R, py);
	}
	/* markers */
	for (int m = 0; m < p->nmarks; m++) {
		double x = p->marks_x[m];
		if (p->xlog && !(x > 0))
			continue;
		double px = PX(x);
		if (px < L - 0.05 || px > W - R + 0.05)
			continue;
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" "
			"stroke=\"#555\" stroke-dasharray=\"4,3\"/>\n",
			px, T, px, H - B);
		if (!p->marks_label || !p->marks_label[m])
			continue;
		int right = px > W - R - 110;
		fprintf(f,
			"<text x=\"%.1f\" y=\"%g\" font-size=\"11\" "
			"text-anchor=\"%s\">",
			right ? px - 3 : px + 3, T + 12 + 13 * (m % 6),
			right ? "end" : "start");
		pmk__xml_text(f, p->marks_label[m]);
		fprintf(f, "</text>\n");
	}
	/* series, clipped to the plot box; legend entries */
	fprintf(f,
		"<clipPath id=\"plotbox\"><rect x=\"%g\" y=\"%g\" "
		"width=\"%g\" height=\"%g\"/></clipPath>\n",
		L, T, W - L - R, H - T - B);
	for (int s = 0; s < p->nseries; s++) {
		const pmk__line_series *se = &p->series[s];
		const char *col = se->color ? se->color : pmk__plot_color(s);
		const char *dash =
		    se->dashed ? " stroke-dasharray=\"6,4\"" : "";
		/* at most ~1200 points per line: plenty at these widths */
		int step = se->n > 1200 ? (se->n + 1199) / 1200 : 1;
		int pen = 0;
		double lx, ly;
		fprintf(f,
			"<path class=\"series\" clip-path=\"url(#plotbox)\" "
			"fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s "
			"d=\"",
			col, dash);
		for (int i = 0; i < se->n; i += step) {
			double x = sx(se, i), y = se->y[i];
			if (!shown(p, x, y)) {
				pen = 0;
				continue;
			}
			fprintf(f, "%c%.1f,%.1f ", pen ? 'L' : 'M', PX(x),
				PY(y));
			pen = 1;
		}
		fprintf(f, "\"/>\n");
		lx = p->legend == 1 ? L + 10
		     : p->legend ? W - R - 250
				 : W - R + 10;
		ly = p->legend == 3 ? H - B - 12 - 18 * p->nseries + 18 * s
				    : T + 10 + 18 * s;
		fprintf(f,
			"<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" "
			"stroke=\"%s\" stroke-width=\"3\"%s/>\n",
			lx, ly, lx + 20, ly, col, dash);
		fprintf(f, "<text x=\"%g\" y=\"%g\">", lx + 25, ly + 4);
		pmk__xml_text(f, se->name);
		fprintf(f, "</text>\n");
	}
	pmk__plot_end(f);
#undef PX
#undef PY
	return ferror(f) ? PMK_EIO : 0;
}
