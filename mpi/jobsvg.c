/*
 * jobsvg.c: the per-rank picture of a job (job.h): one bar per rank,
 * compute time and MPI time stacked, so the slow rank and the ranks that
 * wait show at a glance; a second panel with one event per rank; and the
 * self-contained HTML page around it, the picture first. The mean is
 * drawn as a dashed line and the rank of the maximum is marked. The panels
 * are bar charts of the plot module (lib/core/plot_bar.c). Past
 * PMK__MPI_BARS_MAX bars the picture aggregates instead (jobagg.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/plot.h"
#include "lib/core/textout.h"
#include "mpi/comm.h"
#include "mpi/job.h"

enum { W = 860, TOP = 44, PANEL = 350 };

/* The bars of the picture: one group per rank with a record, and one per
 * run of ranks without (a file of four records may declare 10^6 ranks:
 * the picture, like the work, follows the records). */
struct groups {
	int n;
	int *rank;  /* group -> its rank, or -1 - the first of a missing run */
	char *lab;  /* LAB bytes a label */
	const char **labs;
	int nmissing_runs;
};
enum { LAB = 24 };

static int groups_make(const struct pmk__mpi_job *job, struct groups *gr)
{
	int n = 0, cap = 64;
	memset(gr, 0, sizeof *gr);
	gr->rank = malloc((size_t)cap * sizeof *gr->rank);
	if (!gr->rank)
		return -1;
	for (int i = 0; i < job->size; i++) {
		int lo = i, hi = i;
		if (!job->ranks[i].present) {
			while (hi + 1 < job->size && !job->ranks[hi + 1].present)
				hi++;
			gr->nmissing_runs++;
		}
		if (n == cap) {
			int *nr = realloc(gr->rank, (size_t)cap * 2 * sizeof *nr);
			if (!nr)
				return -1;
			gr->rank = nr;
			cap *= 2;
		}
		gr->rank[n++] = job->ranks[i].present ? i : -1 - lo;
		i = hi;
	}
	gr->n = n;
	gr->lab = malloc((size_t)n * LAB);
	gr->labs = malloc((size_t)n * sizeof *gr->labs);
	if (!gr->lab || !gr->labs)
		return -1;
	for (int g = 0; g < n; g++) {
		char *l = gr->lab + (size_t)g * LAB;
		int r = gr->rank[g];
		if (r >= 0) {
			snprintf(l, LAB, "%d", r);
		} else {
			int lo = -1 - r, hi = lo;
			while (hi + 1 < job->size && !job->ranks[hi + 1].present)
				hi++;
			if (lo == hi)
				snprintf(l, LAB, "%d", lo);
			else
				snprintf(l, LAB, "%d-%d", lo, hi);
		}
		gr->labs[g] = l;
	}
	return 0;
}

static void groups_free(struct groups *gr)
{
	free(gr->rank);
	free(gr->lab);
	free(gr->labs);
}

struct tips {
	const double *v;
	const int *rank;
	int nseg;
};

static void time_tip(void *p, int g, int b, int k, char *buf, size_t n)
{
	const struct tips *t = p;
	const char *what = k == t->nseg - 1 ? "MPI"
			   : k == 0	     ? "compute"
					     : "maybe-MPI";
	snprintf(buf, n, "rank %d %s %.6f s", t->rank[g], what,
		 t->v[(size_t)g * (size_t)t->nseg + (size_t)k]);
}

static void event_tip(void *p, int g, int b, int k, char *buf, size_t n)
{
	const struct tips *t = p;
	snprintf(buf, n, "rank %d %.6g", t->rank[g], t->v[g]);
}

void pmk__mpi_svg(FILE *f, const struct pmk__mpi_job *job, int ev)
{
	struct pmk__mpi_stat wall, comp, st;
	int n, panels = ev >= 0 && ev < job->nev ? 2 : 1;
	char title[200], unit[40];
	pmk__bar_note *notes = NULL;
	double *v = NULL, escale = 1;
	int nn = 0, nseg = 2, present;
	struct tips tp;
	struct groups gr;

	if (job->size <= 0)
		return;
	if (groups_make(job, &gr))
		goto out;
	n = gr.n;
	if (n > PMK__MPI_BARS_MAX) {
		pmk__mpi_svg_agg(f, job, ev);
		goto out;
	}
	present = n - gr.nmissing_runs;
	/* sampled timing: the time that may have been MPI, shown as its own
	 * segment between compute (less it) and MPI, so that the bar's
	 * height stays the wall time */
	for (int g = 0; g < n; g++)
		if (gr.rank[g] >= 0 && job->ranks[gr.rank[g]].mpi_amb_ns)
			nseg = 3;
	v = malloc((size_t)n * 3 * sizeof *v);
	notes = malloc(((size_t)n + 1) * sizeof *notes);
	if (!v || !notes)
		goto out;
	pmk__mpi_stat_of(job, pmk__mpi_get_wall, NULL, &wall);
	pmk__mpi_stat_of(job, pmk__mpi_get_compute, NULL, &comp);
	pmk__plot_begin(f, W, TOP + panels * PANEL, 1);
	pmk__mpi_svg_title(f, job, present);

	/* panel 1: compute + MPI per rank, in seconds; a run of ranks
	 * without a record is one empty group, marked "?" while there are
	 * few such runs (the chart looks notes up group by group) */
	for (int g = 0; g < n; g++) {
		double c, a;
		const struct pmk__mpi_rank *r;
		if (gr.rank[g] < 0) {
			for (int k = 0; k < nseg; k++)
				v[nseg * g + k] = NAN;
			if (gr.nmissing_runs <= 64)
				notes[nn++] = (pmk__bar_note){g, 0, "?"};
			continue;
		}
		r = &job->ranks[gr.rank[g]];
		c = pmk__mpi_get_compute(r, NULL) * 1e-9;
		a = nseg == 3 ? fmin((double)r->mpi_amb_ns * 1e-9, c) : 0;
		v[nseg * g] = c - a;
		if (nseg == 3)
			v[nseg * g + 1] = a;
		v[nseg * g + nseg - 1] = r->mpi_ns * 1e-9;
		if (gr.rank[g] == comp.rank_max)
			notes[nn++] = (pmk__bar_note){g, 0, "max"};
	}
	tp = (struct tips){v, gr.rank, nseg};
	pmk__mpi_bars_draw(
	    f,
	    &(struct pmk__mpi_bars){
		.title = nseg == 3 ? "time per rank: compute (blue), may have "
				     "been MPI (light orange) and MPI (orange)"
				   : "time per rank: compute (blue) and MPI "
				     "(orange)",
		.xlabel = "rank",
		.ylabel = "seconds",
		.mean_label = "mean compute",
		.n = n,
		.nseg = nseg,
		.v = v,
		.labels = gr.labs,
		.max = wall.max * 1e-9,
		.mean = comp.mean * 1e-9,
		.notes = notes,
		.nnotes = nn,
		.tip = time_tip,
		.ctx = &tp},
	    TOP, PANEL);

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
		for (int g = 0; g < n; g++) {
			const struct pmk__mpi_rank *r =
			    gr.rank[g] >= 0 ? &job->ranks[gr.rank[g]] : NULL;
			v[g] = r && isfinite(r->ev[ev]) ? r->ev[ev] * escale
							: NAN;
		}
		tp = (struct tips){v, gr.rank, 1};
		pmk__mpi_bars_draw(f,
				   &(struct pmk__mpi_bars){
				       .title = title,
				       .xlabel = "rank",
				       .ylabel = unit,
				       .mean_label = "mean",
				       .n = n,
				       .nseg = 1,
				       .v = v,
				       .labels = gr.labs,
				       .max = st.n ? st.max * escale : 0,
				       .mean = st.mean * escale,
				       .tip = event_tip,
				       .ctx = &tp},
				   TOP + PANEL, PANEL);
	}
	pmk__plot_end(f);
out:
	free(v);
	free(notes);
	groups_free(&gr);
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
	/* the picture first: at 1,024 ranks the banner's table is longer
	 * than a screen */
	pmk__mpi_svg(f, job, ev);
	fputs("\n<pre>", f);
	pmk__xml_text(f, banner);
	fputs("</pre>\n", f);
	free(banner);
	pmk__mpi_comm_html(f, job);
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
		if (!r->present) { /* one row for a run of them */
			int hi = i;
			while (hi + 1 < job->size && !job->ranks[hi + 1].present)
				hi++;
			if (hi == i)
				fprintf(f, "<tr><td>%d</td><td>(no record)</td>"
					   "</tr>\n", i);
			else
				fprintf(f, "<tr><td>%d-%d</td><td>(no record: "
					   "%d ranks)</td></tr>\n", i, hi,
					hi - i + 1);
			i = hi;
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
