/*
 * jobsvg.c: the per-rank picture of a job (job.h): one bar per rank,
 * compute time and MPI time stacked, so the slow rank and the ranks that
 * wait show at a glance; a second panel with one event per rank; and the
 * self-contained HTML page around it. The mean is drawn as a dashed line
 * and the ranks of the maximum are marked.
 *
 * A private SVG writer for now: the shared plot module (lib/core/plot.c)
 * is not there yet; these bars should move onto it when it is.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/textout.h"
#include "mpi/job.h"

#define W 860
#define PANEL_H 260
#define LEFT 78
#define RIGHT 20
#define TOP 44

static const char *const col_compute = "#4477aa";
static const char *const col_mpi = "#ee7733";
static const char *const col_event = "#777777";

/* A round step of about max/5 for the axis. */
static double nice_step(double max)
{
	double raw = max / 5, p, m;
	if (!(raw > 0))
		return 1;
	p = pow(10, floor(log10(raw)));
	m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

struct panel {
	int y0;          /* top of the plotting area */
	double max;      /* value at the top */
	const char *title, *unit;
};

static void axis(FILE *f, const struct panel *p, int nranks, double scale)
{
	double step = nice_step(p->max);
	int x1 = W - RIGHT;
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"14\" "
		   "font-weight=\"bold\">",
		LEFT, p->y0 - 14);
	pmk__xml_text(f, p->title);
	fputs("</text>\n", f);
	for (double v = 0; v <= p->max * 1.0001; v += step) {
		double y = p->y0 + PANEL_H - v / p->max * PANEL_H;
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			   "stroke=\"#dddddd\"/>\n",
			LEFT, y, x1, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			   "text-anchor=\"end\">%.4g</text>\n",
			LEFT - 6, y + 4, v * scale);
	}
	fprintf(f, "<text x=\"14\" y=\"%d\" font-size=\"11\" "
		   "transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">",
		p->y0 + PANEL_H / 2, p->y0 + PANEL_H / 2);
	pmk__xml_text(f, p->unit);
	fputs("</text>\n", f);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		   "stroke=\"black\"/>\n",
		LEFT, p->y0 + PANEL_H, x1, p->y0 + PANEL_H);
	(void)nranks;
}

static double bar_x(int i, int n, double *w)
{
	double slot = (double)(W - LEFT - RIGHT) / n;
	*w = slot * 0.8 > 1 ? slot * 0.8 : 1;
	return LEFT + slot * i + (slot - *w) / 2;
}

static void rank_labels(FILE *f, const struct panel *p, int n)
{
	int every = n <= 32 ? 1 : (n + 31) / 32;
	for (int i = 0; i < n; i += every) {
		double w, x = bar_x(i, n, &w);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" "
			   "text-anchor=\"middle\">%d</text>\n",
			x + w / 2, p->y0 + PANEL_H + 13, i);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
		   "text-anchor=\"middle\">rank</text>\n",
		(LEFT + W - RIGHT) / 2, p->y0 + PANEL_H + 28);
}

static void mean_line(FILE *f, const struct panel *p, double mean,
		      double scale, const char *what)
{
	double y;
	if (!isfinite(mean) || !(p->max > 0))
		return;
	y = p->y0 + PANEL_H - mean / p->max * PANEL_H;
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		   "stroke=\"black\" stroke-dasharray=\"5,4\"/>\n",
		LEFT, y, W - RIGHT, y);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" "
		   "text-anchor=\"end\">mean %s %.4g</text>\n",
		W - RIGHT, y - 3, what, mean * scale);
}

void pmk__mpi_svg(FILE *f, const struct pmk__mpi_job *job, int ev)
{
	struct pmk__mpi_stat wall, comp, st;
	struct panel p1 = {TOP + 34, 0, "", "seconds"};
	struct panel p2 = {TOP + 34 + PANEL_H + 80, 0, "", ""};
	int n = job->size, panels = ev >= 0 && ev < job->nev ? 2 : 1;
	int h = TOP + 34 + panels * (PANEL_H + 80);
	char title[160], unit[40];
	double escale = 1;

	pmk__mpi_stat_of(job, pmk__mpi_get_wall, NULL, &wall);
	pmk__mpi_stat_of(job, pmk__mpi_get_compute, NULL, &comp);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"sans-serif\">\n",
		W, h, W, h);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, h);
	fputs("<text x=\"10\" y=\"22\" font-size=\"15\">", f);
	snprintf(title, sizeof title, "%d ranks: compute imbalance %.2f "
				      "(max/mean), wall %.3f s",
		 n, comp.imbalance, wall.max * 1e-9);
	pmk__xml_text(f, title);
	fputs("</text>\n", f);
	if (job->command[0]) {
		fputs("<text x=\"10\" y=\"38\" font-size=\"11\" fill=\"#555\">", f);
		pmk__xml_text(f, job->command);
		fputs("</text>\n", f);
	}

	/* panel 1: compute + MPI per rank */
	p1.max = wall.max > 0 ? wall.max : 1;
	p1.max = ceil(p1.max / nice_step(p1.max)) * nice_step(p1.max);
	p1.title = "time per rank: compute (blue) and MPI (orange)";
	axis(f, &p1, n, 1e-9);
	for (int i = 0; i < n; i++) {
		const struct pmk__mpi_rank *r = &job->ranks[i];
		double w, x = bar_x(i, n, &w), c, m, yb = p1.y0 + PANEL_H;
		if (!r->present) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
				   "text-anchor=\"middle\" fill=\"red\">?</text>\n",
				x + w / 2, yb - 4);
			continue;
		}
		c = pmk__mpi_get_compute(r, NULL) / p1.max * PANEL_H;
		m = (double)r->mpi_ns / p1.max * PANEL_H;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			   "height=\"%.1f\" fill=\"%s\"><title>rank %d compute "
			   "%.6f s</title></rect>\n",
			x, yb - c, w, c, col_compute, i,
			pmk__mpi_get_compute(r, NULL) * 1e-9);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			   "height=\"%.1f\" fill=\"%s\"><title>rank %d MPI "
			   "%.6f s</title></rect>\n",
			x, yb - c - m, w, m, col_mpi, i, r->mpi_ns * 1e-9);
		if (i == comp.rank_max)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
				   "text-anchor=\"middle\">max</text>\n",
				x + w / 2, yb - c - m - 4);
	}
	mean_line(f, &p1, comp.mean, 1e-9, "compute");
	rank_labels(f, &p1, n);

	/* panel 2: the chosen event */
	if (panels == 2) {
		int e = ev;
		pmk__mpi_stat_of(job, pmk__mpi_get_event, &e, &st);
		if (!strcmp(job->evunit[ev], "ns")) {
			escale = 1e-9;
			snprintf(unit, sizeof unit, "seconds");
		} else
			snprintf(unit, sizeof unit, "%s", job->evunit[ev]);
		snprintf(title, sizeof title, "%s per rank (imbalance %.2f)",
			 job->evname[ev], st.imbalance);
		p2.title = title;
		p2.unit = unit;
		p2.max = st.n && st.max > 0 ? st.max : 1;
		p2.max = ceil(p2.max / nice_step(p2.max)) * nice_step(p2.max);
		axis(f, &p2, n, escale);
		for (int i = 0; i < n; i++) {
			const struct pmk__mpi_rank *r = &job->ranks[i];
			double w, x = bar_x(i, n, &w), v, yb = p2.y0 + PANEL_H;
			if (!r->present || !isfinite(r->ev[ev]))
				continue;
			v = r->ev[ev] / p2.max * PANEL_H;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				   "height=\"%.1f\" fill=\"%s\"><title>rank %d "
				   "%.6g</title></rect>\n",
				x, yb - v, w, v, col_event, i, r->ev[ev] * escale);
		}
		mean_line(f, &p2, st.mean, escale, "");
		rank_labels(f, &p2, n);
	}
	fputs("</svg>\n", f);
}

void pmk__mpi_html(FILE *f, const struct pmk__mpi_job *job, int ev)
{
	char *banner = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&banner, &len);
	if (m) {
		pmk__mpi_banner(m, job, 16);
		fclose(m);
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	      "<title>pmkit mpi report</title>\n<style>"
	      "body{font-family:sans-serif;margin:1.5em}"
	      "pre{font-size:12px;background:#f6f6f6;padding:1em}"
	      "table{border-collapse:collapse;font-size:12px}"
	      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
	      "</style></head><body>\n<h1>pmkit mpi report</h1>\n", f);
	fputs("<pre>", f);
	pmk__xml_text(f, banner);
	fputs("</pre>\n", f);
	free(banner);
	pmk__mpi_svg(f, job, ev);
	fputs("<h2>Per rank</h2>\n<table><tr><th>rank</th><th>host</th>"
	      "<th>wall s</th><th>compute s</th><th>MPI s</th><th>%MPI</th>", f);
	for (int e = 0; e < job->nev; e++) {
		fputs("<th>", f);
		pmk__xml_text(f, job->evname[e]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_rank *r = &job->ranks[i];
		if (!r->present) {
			fprintf(f, "<tr><td>%d</td><td>(no record)</td></tr>\n", i);
			continue;
		}
		fprintf(f, "<tr><td>%d</td><td>", i);
		pmk__xml_text(f, r->host);
		fprintf(f, "</td><td>%.6f</td><td>%.6f</td><td>%.6f</td>"
			   "<td>%.2f</td>",
			r->wall_ns * 1e-9, pmk__mpi_get_compute(r, NULL) * 1e-9,
			r->mpi_ns * 1e-9,
			r->wall_ns ? 100.0 * r->mpi_ns / r->wall_ns : 0);
		for (int e = 0; e < job->nev; e++)
			if (isfinite(r->ev[e]))
				fprintf(f, "<td>%.6g</td>", r->ev[e]);
			else
				fputs("<td>-</td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</body></html>\n", f);
}
