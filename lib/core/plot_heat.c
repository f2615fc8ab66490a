/*
 * plot_heat.c: a heat map (plot.h): a grid of cells coloured by value on
 * a log scale, labels along two sides, a colour bar, a tooltip per cell.
 * For matrices such as an MPI job's bytes per rank pair (mpi/comm.c). It
 * draws what it is given: grouping rows or columns to fit is the
 * caller's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/plot.h"
#include "lib/core/textout.h"
#include "pmkit/error.h"

/* yellow -> orange -> dark red, t in [0, 1] (the lowest still clearly
 * apart from an empty, white cell) */
static void heat_color(double t, char *buf, size_t n)
{
	static const double stop[3][3] = {
	    {254, 224, 139}, {245, 140, 40}, {140, 10, 20}};
	double u = t < 0 ? 0 : t > 1 ? 1 : t;
	int k = u < 0.5 ? 0 : 1;
	double w = u < 0.5 ? u * 2 : (u - 0.5) * 2;
	int c[3];
	for (int i = 0; i < 3; i++)
		c[i] =
		    (int)(stop[k][i] + (stop[k + 1][i] - stop[k][i]) * w + 0.5);
	snprintf(buf, n, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static void label_of(const char *const *labels, int i, char *buf, size_t n)
{
	if (labels && labels[i])
		snprintf(buf, n, "%s", labels[i]);
	else
		snprintf(buf, n, "%d", i);
}

int pmk__plot_heat(FILE *f, const pmk__heat_map *m)
{
	double lo = INFINITY, hi = 0, cell, x0, y0, w, h, llo, lhi;
	int rstep, cstep;
	char col[16], a[64], b[64], tip[200];
	if (!m || m->nrows < 1 || m->ncols < 1 || !m->v)
		return PMK_EINVAL;
	for (long i = 0; i < (long)m->nrows * m->ncols; i++)
		if (isfinite(m->v[i]) && m->v[i] > 0) {
			lo = fmin(lo, m->v[i]);
			hi = fmax(hi, m->v[i]);
		}
	cell = m->cell > 0
		   ? m->cell
		   : fmax(6, fmin(40, 640.0 / fmax(m->nrows, m->ncols)));
	x0 = 90;
	y0 = 70;
	w = x0 + cell * m->ncols + 140;
	h = y0 + cell * m->nrows + 50;
	rstep = m->nrows > 32 ? (m->nrows + 31) / 32 : 1;
	cstep = m->ncols > 32 ? (m->ncols + 31) / 32 : 1;
	llo = isfinite(lo) ? log(lo) : 0;
	lhi = hi > 0 ? log(hi) : 0;
	pmk__plot_begin(f, w, h, 1);
	if (m->title)
		pmk__plot_text(f, 10, 20, 15, 1, NULL, m->title);
	if (m->xlabel)
		pmk__plot_text(f, x0, 38, 12, 0, "#555", m->xlabel);
	if (m->ylabel) {
		fprintf(f,
			"<text x=\"14\" y=\"%.1f\" font-size=\"12\" "
			"fill=\"#555\" transform=\"rotate(-90 14 %.1f)\" "
			"text-anchor=\"middle\">",
			y0 + cell * m->nrows / 2, y0 + cell * m->nrows / 2);
		pmk__xml_text(f, m->ylabel);
		fputs("</text>\n", f);
	}
	/* the cells */
	for (int r = 0; r < m->nrows; r++)
		for (int c = 0; c < m->ncols; c++) {
			double v = m->v[(long)r * m->ncols + c];
			if (!isfinite(v) || v <= 0)
				continue;
			heat_color(lhi > llo ? (log(v) - llo) / (lhi - llo) : 1,
				   col, sizeof col);
			label_of(m->row_label, r, a, sizeof a);
			label_of(m->col_label, c, b, sizeof b);
			snprintf(tip, sizeof tip, "%s -> %s: %.6g %s", a, b, v,
				 m->unit ? m->unit : "");
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\"><title>",
				x0 + c * cell, y0 + r * cell, cell, cell, col);
			pmk__xml_text(f, tip);
			fputs("</title></rect>\n", f);
		}
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"none\" stroke=\"#888\"/>\n",
		x0, y0, cell * m->ncols, cell * m->nrows);
	/* labels: rows on the left, columns along the top */
	for (int r = 0; r < m->nrows; r += rstep) {
		label_of(m->row_label, r, a, sizeof a);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"text-anchor=\"end\">",
			x0 - 4, y0 + (r + 0.5) * cell + 3.5);
		pmk__xml_text(f, a);
		fputs("</text>\n", f);
	}
	for (int c = 0; c < m->ncols; c += cstep) {
		label_of(m->col_label, c, a, sizeof a);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"text-anchor=\"middle\">",
			x0 + (c + 0.5) * cell, y0 - 5);
		pmk__xml_text(f, a);
		fputs("</text>\n", f);
	}
	/* the colour bar, low at the bottom */
	if (hi > 0) {
		double bx = x0 + cell * m->ncols + 20,
		       bh = fmax(60, cell * m->nrows);
		for (int i = 0; i < 20; i++) {
			heat_color((19 - i) / 19.0, col, sizeof col);
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
				"height=\"%.2f\" fill=\"%s\"/>\n",
				bx, y0 + bh * i / 20, bh / 20 + 0.3, col);
		}
		snprintf(a, sizeof a, "%.3g %s", hi, m->unit ? m->unit : "");
		pmk__plot_text(f, bx + 18, y0 + 9, 10, 0, NULL, a);
		snprintf(a, sizeof a, "%.3g %s", lo, m->unit ? m->unit : "");
		pmk__plot_text(f, bx + 18, y0 + bh, 10, 0, NULL, a);
		pmk__plot_text(f, bx + 18, y0 + bh / 2, 10, 0, "#555", "(log)");
	}
	pmk__plot_end(f);
	return ferror(f) ? PMK_EIO : 0;
}
