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

int pmk__plot_lines(FILE *f, const pmk__line_chart *p)
{
	const double W = 860, H = 480, L = 70, R = 220, T = 40, B = 50;
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	char lab[32];

	if (!p || !f || p->nseries < 0)
		return PMK_EINVAL;
	for (int s = 0; s < p->nseries; s++)
		for (int i = 0; i < p->series[s].n; i++) {
			double x = p->series[s].x[i], y = p->series[s].y[i];
			if (!(x > 0) && p->xlog)
				continue;
			if (!(y > 0) && p->ylog)
				continue;
			if (!isfinite(x) || !isfinite(y))
				continue;
			x0 = fmin(x0, x), x1 = fmax(x1, x);
			y0 = fmin(y0, y), y1 = fmax(y1, y);
		}
	if (!(x0 <= x1)) {
		x0 = 1, x1 = 2, y0 = 1, y1 = 2;
	}
	if (p->xlog) {
		x0 = floor(ax(p->xlog, x0)), x1 = ceil(ax(p->xlog, x1));
	}
	if (p->ylog) {
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

	pmk__plot_begin(f, W, H, 0);
	fprintf(f, "<text x=\"%g\" y=\"22\" font-size=\"15\">", L);
	pmk__xml_text(f, p->title);
	fprintf(f, "</text>\n");
	/* grid and ticks */
	if (p->xlog) {
		int step = (x1 - x0) > 16 ? 2 : 1;
		for (double e = x0; e <= x1; e += step) {
			double px = L + (e - x0) / (x1 - x0) * (W - L - R);
			if (p->xlog == 2)
				size_label(exp2(e), lab, sizeof lab);
			else
				snprintf(lab, sizeof lab, "%g", unax(10, e));
			fprintf(f,
				"<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" "
				"y2=\"%g\" stroke=\"#ddd\"/>\n",
				px, T, px, H - B);
			fprintf(f,
				"<text x=\"%.1f\" y=\"%g\" "
				"text-anchor=\"middle\">%s</text>\n",
				px, H - B + 16, lab);
		}
	} else {
		for (int k = 0; k <= 5; k++) {
			double v = x0 + (x1 - x0) * k / 5;
			double px = L + (double)k / 5 * (W - L - R);
			fprintf(f,
				"<text x=\"%.1f\" y=\"%g\" "
				"text-anchor=\"middle\">%.4g</text>\n",
				px, H - B + 16, v);
		}
	}
	if (p->ylog) {
		for (double e = y0; e <= y1; e += 1) {
			double py = H - B - (e - y0) / (y1 - y0) * (H - T - B);
			fprintf(f,
				"<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" "
				"y2=\"%.1f\" stroke=\"#ddd\"/>\n",
				L, py, W - R, py);
			fprintf(f,
				"<text x=\"%g\" y=\"%.1f\" "
				"text-anchor=\"end\">%g</text>\n",
				L - 6, py + 4, pow(10, e));
		}
	} else {
		for (int k = 0; k <= 5; k++) {
			double v = y0 + (y1 - y0) * k / 5;
			double py = H - B - (double)k / 5 * (H - T - B);
			fprintf(f,
				"<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" "
				"y2=\"%.1f\" stroke=\"#ddd\"/>\n",
				L, py, W - R, py);
			fprintf(f,
				"<text x=\"%g\" y=\"%.1f\" "
				"text-anchor=\"end\">%.4g</text>\n",
				L - 6, py + 4, v);
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
	/* markers */
	for (int m = 0; m < p->nmarks; m++) {
		double x = p->marks_x[m];
		if (p->xlog && !(x > 0))
			continue;
		double px = PX(x);
		if (px < L || px > W - R)
			continue;
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" "
			"stroke=\"#555\" stroke-dasharray=\"4,3\"/>\n",
			px, T, px, H - B);
		int right = px > W - R - 110;
		fprintf(f,
			"<text x=\"%.1f\" y=\"%g\" font-size=\"11\" "
			"text-anchor=\"%s\">",
			right ? px - 3 : px + 3, T + 12 + 13 * (m % 6),
			right ? "end" : "start");
		pmk__xml_text(f, p->marks_label ? p->marks_label[m] : "");
		fprintf(f, "</text>\n");
	}
	/* series */
	for (int s = 0; s < p->nseries; s++) {
		const pmk__line_series *se = &p->series[s];
		const char *col = pmk__plot_color(s);
		int pen = 0;
		fprintf(
		    f,
		    "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" "
		    "d=\"",
		    col);
		for (int i = 0; i < se->n; i++) {
			double x = se->x[i], y = se->y[i];
			if ((p->xlog && !(x > 0)) || (p->ylog && !(y > 0)) ||
			    !isfinite(x) || !isfinite(y)) {
				pen = 0;
				continue;
			}
			fprintf(f, "%c%.1f,%.1f ", pen ? 'L' : 'M', PX(x),
				PY(y));
			pen = 1;
		}
		fprintf(f, "\"/>\n");
		fprintf(f,
			"<line x1=\"%g\" y1=\"%d\" x2=\"%g\" y2=\"%d\" "
			"stroke=\"%s\" stroke-width=\"3\"/>\n",
			W - R + 10, (int)T + 10 + 18 * s, W - R + 30,
			(int)T + 10 + 18 * s, col);
		fprintf(f, "<text x=\"%g\" y=\"%d\">", W - R + 35,
			(int)T + 14 + 18 * s);
		pmk__xml_text(f, se->name);
		fprintf(f, "</text>\n");
	}
	pmk__plot_end(f);
#undef PX
#undef PY
	return ferror(f) ? PMK_EIO : 0;
}
