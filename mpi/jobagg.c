/*
 * jobagg.c: the picture of a job with too many ranks for one labelled bar
 * each (job.h, PMK__MPI_BARS_MAX; jobsvg.c draws the smaller ones). At
 * 1,024 ranks a bar per rank in rank order is a comb a pixel wide in
 * which no rank can be named, so the picture aggregates:
 *  - the ranks named in words at the top: the slowest (most compute: the
 *    ones the others wait for), the fastest (they wait the most), the
 *    outliers, the ranks without a record;
 *  - the 32 slowest ranks, a labelled bar each, compute and MPI stacked;
 *  - every rank sorted by compute time, slowest first, stacked the same
 *    way: the shape of the imbalance (a few slow ranks, a slope, two
 *    populations);
 *  - a histogram of the ranks by compute time, over the median +- 5
 *    robust standard deviations, the ranks beyond in a bin at each end
 *    (named above it), so that a few outliers do not squeeze the rest
 *    into two bins;
 *  - with an event, the ranks sorted by it.
 * An outlier is a rank whose compute time lies further from the median
 * than 3 x 1.4826 x the median absolute deviation (3 standard deviations
 * of a normal spread, robust to the outliers themselves), and at least 1 %
 * of the median (so that ranks all alike name none). Nothing here reads
 * files or knows MPI; the panels are bar charts of the plot module.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/plot.h"
#include "mpi/job.h"

enum { W = 860, TOP = 44, LINE = 16 };
enum { SLOW_H = 280, SORTED_H = 260, HIST_H = 260 }; /* the panels' heights */
enum { NAMED = 5, SLOWEST = 32, OUTLIERS = 8, BINS = 24 };

static const char *const col_time[2] = {"#4477aa", "#ee7733"};
static const char *const col_time3[3] = {"#4477aa", "#f4c09a", "#ee7733"};
static const char *const col_one[1] = {"#777777"};

double pmk__mpi_axis_step(double max)
{
	double raw = max / 5, p, m;
	if (!(raw > 0))
		return 1;
	p = pow(10, floor(log10(raw)));
	m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static double axis_max(double max)
{
	double s;
	if (!(max > 0))
		max = 1;
	s = pmk__mpi_axis_step(max);
	return ceil(max / s) * s;
}

void pmk__mpi_bars_draw(FILE *f, const struct pmk__mpi_bars *b, double y,
			double h)
{
	double max = axis_max(b->max), line = b->mean;
	char mean[64];
	const char *ml[1] = {mean};
	snprintf(mean, sizeof mean, "%s %.4g", b->mean_label, line);
	pmk__plot_bars_in(
	    f,
	    &(pmk__bar_chart){.title = b->title,
			      .ngroups = b->n,
			      .nbars = 1,
			      .nseg = b->nseg,
			      .v = b->v,
			      .group_label = b->labels,
			      .color = b->nseg == 3   ? col_time3
				       : b->nseg == 2 ? col_time
						      : col_one,
			      .ymin = 0,
			      .ymax = max,
			      .tick = pmk__mpi_axis_step(max),
			      .hlines = &line,
			      .nhlines = isfinite(line) ? 1 : 0,
			      .hline_label = ml,
			      .hline_color = "black",
			      .xlabel = b->xlabel,
			      .ylabel = b->ylabel,
			      .notes = b->notes,
			      .nnotes = b->nnotes,
			      .tip = b->tip,
			      .ctx = b->ctx},
	    0, y, W, h);
}

/* The present ranks and one value of each, sorted by it. */
struct ranked {
	int rank;
	double v;
};

static int by_value_desc(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The present ranks with a finite value of `get`, slowest first; *n. */
static struct ranked *rank_by(const struct pmk__mpi_job *job,
			      pmk__mpi_getter get, void *arg, int *n)
{
	struct ranked *r = malloc(((size_t)job->size + 1) * sizeof *r);
	*n = 0;
	if (!r)
		return NULL;
	for (int i = 0; i < job->size; i++) {
		double v;
		if (!job->ranks[i].present)
			continue;
		v = get(&job->ranks[i], arg);
		if (isfinite(v))
			r[(*n)++] = (struct ranked){i, v};
	}
	qsort(r, (size_t)*n, sizeof *r, by_value_desc);
	return r;
}

/* The median of v[0..n-1] (sorted here, a copy). */
static double median_of(const double *v, int n, double *tmp)
{
	if (n <= 0)
		return NAN;
	memcpy(tmp, v, (size_t)n * sizeof *tmp);
	qsort(tmp, (size_t)n, sizeof *tmp, by_value);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Append to a line of text, cut short at its end. */
struct line {
	char s[512];
	size_t n;
};
static void add(struct line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (l->n >= sizeof l->s - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(l->s + l->n, sizeof l->s - l->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n += (size_t)k < sizeof l->s - l->n ? (size_t)k
						       : sizeof l->s - 1 - l->n;
}

/* The spread of the compute times: their median and a robust standard
 * deviation (1.4826 x the median absolute deviation), and the limit
 * past which a rank is an outlier. */
struct spread {
	double med, sd, lim;
};

static int spread_of(const struct ranked *r, int n, struct spread *sp)
{
	double *v = malloc(2 * ((size_t)n + 1) * sizeof *v);
	if (!v)
		return -1;
	for (int i = 0; i < n; i++)
		v[i] = r[i].v;
	sp->med = median_of(v, n, v + n);
	for (int i = 0; i < n; i++)
		v[i] = fabs(r[i].v - sp->med);
	sp->sd = 1.4826 * median_of(v, n, v + n);
	sp->lim = fmax(3 * sp->sd, 0.01 * fabs(sp->med));
	free(v);
	return 0;
}

/* The outliers of `r` (n ranks, slowest first): their indexes into r,
 * furthest from the median first, at most `max`; returns how many there
 * are in all. */
static int outliers(const struct ranked *r, int n, const struct spread *sp,
		    int *out, int max)
{
	int k = 0, m = 0;
	if (n < 3)
		return 0;
	for (int lo = 0, hi = n - 1; lo <= hi;) {
		double a = fabs(r[lo].v - sp->med), b = fabs(r[hi].v - sp->med);
		int i = a >= b ? lo++ : hi--;
		if (fabs(r[i].v - sp->med) <= sp->lim)
			break;
		if (m < max)
			out[m++] = i;
		k++;
	}
	return k;
}

struct tips {
	const struct ranked *r;
	const double *v;
	int nseg;
	const char *unit;
	const double *edge; /* histogram: its bins' edges, in seconds */
	const int *count;
	int nbins, under, over; /* the first and last bin hold the rest */
};

static void time_tip(void *p, int g, int b, int k, char *buf, size_t n)
{
	const struct tips *t = p;
	const char *what = k == t->nseg - 1 ? "MPI"
			   : k == 0	    ? "compute"
					    : "maybe-MPI";
	(void)b;
	snprintf(buf, n, "rank %d %s %.6f s (#%d by compute)", t->r[g].rank,
		 what, t->v[(size_t)g * (size_t)t->nseg + (size_t)k], g + 1);
}

static void event_tip(void *p, int g, int b, int k, char *buf, size_t n)
{
	const struct tips *t = p;
	(void)b;
	(void)k;
	snprintf(buf, n, "rank %d %.6g %s", t->r[g].rank, t->r[g].v, t->unit);
}

static void hist_tip(void *p, int g, int b, int k, char *buf, size_t n)
{
	const struct tips *t = p;
	(void)b;
	(void)k;
	if (g == 0 && t->under)
		snprintf(buf, n, "%d ranks with compute under %.4g s",
			 t->count[g], t->edge[1]);
	else if (g == t->nbins - 1 && t->over)
		snprintf(buf, n, "%d ranks with compute over %.4g s",
			 t->count[g], t->edge[g]);
	else
		snprintf(buf, n, "%d ranks with compute %.4g to %.4g s",
			 t->count[g], t->edge[g], t->edge[g + 1]);
}

/* The lines naming ranks at y; returns how many were written. */
static int name_ranks(FILE *f, const struct pmk__mpi_job *job,
		      const struct ranked *r, int n, const struct spread *sp,
		      double y)
{
	struct line l = {.n = 0};
	int out[OUTLIERS], nout, lines = 0, missing = 0, runs = 0;
	add(&l, "slowest (most compute):");
	for (int i = 0; i < n && i < NAMED; i++)
		add(&l, "%s rank %d %.4g s", i ? "," : "", r[i].rank,
		    r[i].v * 1e-9);
	pmk__plot_text(f, 10, y + LINE * lines++, 12, 1, "#a00", l.s);
	l.n = 0;
	add(&l, "fastest (wait the most):");
	for (int i = 0; i < n && i < 3; i++)
		add(&l, "%s rank %d %.4g s", i ? "," : "", r[n - 1 - i].rank,
		    r[n - 1 - i].v * 1e-9);
	pmk__plot_text(f, 10, y + LINE * lines++, 12, 0, NULL, l.s);
	l.n = 0;
	nout = outliers(r, n, sp, out, OUTLIERS);
	if (!nout)
		add(&l,
		    "outliers: none (compute within 3 robust standard "
		    "deviations of the median, %.4g s)",
		    sp->med * 1e-9);
	else {
		add(&l,
		    "outliers: %d rank%s beyond 3 robust standard "
		    "deviations of the median (%.4g s):",
		    nout, nout == 1 ? "" : "s", sp->med * 1e-9);
		for (int i = 0; i < nout && i < OUTLIERS; i++)
			add(&l, "%s %d (%.4g s)", i ? "," : "", r[out[i]].rank,
			    r[out[i]].v * 1e-9);
		if (nout > OUTLIERS)
			add(&l, ", ...");
	}
	pmk__plot_text(f, 10, y + LINE * lines++, 12, 0, NULL, l.s);
	for (int i = 0; i < job->size; i++)
		missing += !job->ranks[i].present;
	if (!missing)
		return lines;
	l.n = 0;
	add(&l, "no record: %d rank%s:", missing, missing == 1 ? "" : "s");
	for (int i = 0; i < job->size; i++) {
		int hi = i;
		if (job->ranks[i].present)
			continue;
		while (hi + 1 < job->size && !job->ranks[hi + 1].present)
			hi++;
		if (runs++ == 8) {
			add(&l, " ...");
			break;
		}
		if (hi == i)
			add(&l, " %d", i);
		else
			add(&l, " %d-%d", i, hi);
		i = hi;
	}
	pmk__plot_text(f, 10, y + LINE * lines++, 12, 1, "#a00", l.s);
	return lines;
}

/* Compute and MPI (and maybe-MPI) of the ranks r[0..n-1], stacked. */
static void time_panel(FILE *f, const struct pmk__mpi_job *job,
		       const struct ranked *r, int n, int nseg,
		       const char *const *labels, const char *title,
		       const char *xlabel, double y, double h)
{
	struct pmk__mpi_stat wall, comp;
	double *v = malloc(((size_t)n * 3 + 1) * sizeof *v);
	struct tips tp;
	if (!v)
		return;
	pmk__mpi_stat_of(job, pmk__mpi_get_wall, NULL, &wall);
	pmk__mpi_stat_of(job, pmk__mpi_get_compute, NULL, &comp);
	for (int i = 0; i < n; i++) {
		const struct pmk__mpi_rank *k = &job->ranks[r[i].rank];
		double c = r[i].v * 1e-9;
		double a =
		    nseg == 3 ? fmin((double)k->mpi_amb_ns * 1e-9, c) : 0;
		v[nseg * i] = c - a;
		if (nseg == 3)
			v[nseg * i + 1] = a;
		v[nseg * i + nseg - 1] = k->mpi_ns * 1e-9;
	}
	tp = (struct tips){.r = r, .v = v, .nseg = nseg};
	pmk__mpi_bars_draw(f,
			   &(struct pmk__mpi_bars){.title = title,
						   .xlabel = xlabel,
						   .ylabel = "seconds",
						   .mean_label = "mean compute",
						   .n = n,
						   .nseg = nseg,
						   .v = v,
						   .labels = labels,
						   .max = wall.max * 1e-9,
						   .mean = comp.mean * 1e-9,
						   .tip = time_tip,
						   .ctx = &tp},
			   y, h);
	free(v);
}

/* The histogram of the compute times: BINS bins over the median +- 5
 * robust standard deviations (within the range of the times), the ranks
 * beyond in a first and a last bin of their own, named. */
static void hist_panel(FILE *f, const struct ranked *r, int n,
		       const struct spread *sp, double y, double h)
{
	double lo = r[n - 1].v, hi = r[0].v, edge[BINS + 3], hv[BINS + 2];
	double max = 0, step;
	int count[BINS + 2] = {0}, under, over, nb, nn = 0;
	char lab[BINS + 2][24];
	struct line note[2] = {{.n = 0}, {.n = 0}};
	const char *hl[BINS + 2];
	pmk__bar_note notes[2];
	struct tips tp;
	if (sp->sd > 0) {
		lo = fmax(lo, sp->med - 5 * sp->sd);
		hi = fmin(hi, sp->med + 5 * sp->sd);
	}
	if (!(hi > lo))
		hi = lo + fmax(fabs(lo) * 0.01, 1);
	under = r[n - 1].v < lo;
	over = r[0].v > hi;
	nb = BINS + under + over;
	step = (hi - lo) / BINS;
	for (int b = 0; b <= BINS; b++)
		edge[under + b] = (lo + step * b) * 1e-9;
	if (under)
		edge[0] = r[n - 1].v * 1e-9;
	if (over)
		edge[nb] = r[0].v * 1e-9;
	for (int i = 0; i < n; i++) {
		int b = (int)((r[i].v - lo) / step);
		count[r[i].v < lo   ? 0
		      : r[i].v > hi ? nb - 1
				    : under + (b < BINS ? b : BINS - 1)]++;
	}
	for (int b = 0; b < nb; b++) {
		hv[b] = count[b] ? count[b] : NAN;
		max = fmax(max, count[b]);
		if (b == 0 && under)
			snprintf(lab[b], sizeof lab[b], "<%.3g", edge[1]);
		else if (b == nb - 1 && over)
			snprintf(lab[b], sizeof lab[b], ">%.3g", edge[b]);
		else
			snprintf(lab[b], sizeof lab[b], "%.3g", edge[b]);
		hl[b] = lab[b];
	}
	/* the ranks in the end bins, named (at most 3 each) */
	if (over) {
		for (int i = 0; i < count[nb - 1] && i < 3; i++)
			add(&note[nn], "%s%d", i ? "," : "", r[i].rank);
		if (count[nb - 1] > 3)
			add(&note[nn], ",...");
		notes[nn] = (pmk__bar_note){nb - 1, 0, note[nn].s};
		nn++;
	}
	if (under) {
		for (int i = 0; i < count[0] && i < 3; i++)
			add(&note[nn], "%s%d", i ? "," : "", r[n - 1 - i].rank);
		if (count[0] > 3)
			add(&note[nn], ",...");
		notes[nn] = (pmk__bar_note){0, 0, note[nn].s};
		nn++;
	}
	max = axis_max(max);
	tp = (struct tips){.edge = edge,
			   .count = count,
			   .nbins = nb,
			   .under = under,
			   .over = over};
	pmk__plot_bars_in(
	    f,
	    &(pmk__bar_chart){.title = "ranks by compute time (a histogram; "
				       "beyond 5 robust standard deviations "
				       "at the ends)",
			      .ngroups = nb,
			      .nbars = 1,
			      .nseg = 1,
			      .v = hv,
			      .group_label = hl,
			      .color = col_one,
			      .ymin = 0,
			      .ymax = max,
			      .tick = fmax(1, pmk__mpi_axis_step(max)),
			      .xlabel = "compute time (s), from",
			      .ylabel = "ranks",
			      .notes = notes,
			      .nnotes = nn,
			      .tip = hist_tip,
			      .ctx = &tp},
	    0, y, W, h);
}

/* The ranks sorted by event `ev`, highest first. */
static void event_panel(FILE *f, const struct pmk__mpi_job *job, int ev,
			const struct ranked *re, int ne, double y, double h)
{
	struct pmk__mpi_stat st;
	double *v = malloc(((size_t)ne + 1) * sizeof *v), escale = 1;
	char unit[40], title[200];
	struct tips tp;
	int e = ev;
	if (!v)
		return;
	pmk__mpi_stat_of(job, pmk__mpi_get_event, &e, &st);
	if (!strcmp(job->evunit[ev], "ns")) {
		escale = 1e-9;
		snprintf(unit, sizeof unit, "seconds");
	} else
		snprintf(unit, sizeof unit, "%s", job->evunit[ev]);
	for (int i = 0; i < ne; i++)
		v[i] = re[i].v * escale;
	snprintf(title, sizeof title,
		 "%s per rank, highest first (imbalance %.2f; highest: "
		 "rank %d)",
		 job->evname[ev], st.imbalance, re[0].rank);
	tp = (struct tips){.r = re, .unit = job->evunit[ev]};
	pmk__mpi_bars_draw(f,
			   &(struct pmk__mpi_bars){.title = title,
						   .xlabel =
						       "ranks, highest first",
						   .ylabel = unit,
						   .mean_label = "mean",
						   .n = ne,
						   .nseg = 1,
						   .v = v,
						   .max = st.max * escale,
						   .mean = st.mean * escale,
						   .tip = event_tip,
						   .ctx = &tp},
			   y, h);
	free(v);
}

void pmk__mpi_svg_title(FILE *f, const struct pmk__mpi_job *job, int present)
{
	struct pmk__mpi_stat wall, comp;
	char title[200];
	pmk__mpi_stat_of(job, pmk__mpi_get_wall, NULL, &wall);
	pmk__mpi_stat_of(job, pmk__mpi_get_compute, NULL, &comp);
	if (present == job->size)
		snprintf(title, sizeof title,
			 "%d ranks: compute imbalance %.2f (max/mean), wall "
			 "%.3f s",
			 job->size, comp.imbalance, wall.max * 1e-9);
	else
		snprintf(title, sizeof title,
			 "%d ranks (%d with a record): compute imbalance %.2f "
			 "(max/mean), wall %.3f s",
			 job->size, present, comp.imbalance, wall.max * 1e-9);
	pmk__plot_text(f, 10, 22, 15, 0, NULL, title);
	if (job->command[0])
		pmk__plot_text(f, 10, 38, 11, 0, "#555", job->command);
}

void pmk__mpi_svg_agg(FILE *f, const struct pmk__mpi_job *job, int ev)
{
	struct ranked *r = NULL, *re = NULL;
	struct spread sp;
	int n = 0, ne = 0, nseg = 2, nslow, missing = 0;
	double y, height;
	char title[200], lab[SLOWEST][16];
	const char *labels[SLOWEST];

	r = rank_by(job, pmk__mpi_get_compute, NULL, &n);
	if (!r || n == 0 || spread_of(r, n, &sp))
		goto out;
	for (int i = 0; i < n; i++)
		if (job->ranks[r[i].rank].mpi_amb_ns)
			nseg = 3;
	for (int i = 0; i < job->size; i++)
		missing += !job->ranks[i].present;
	if (ev >= 0 && ev < job->nev) {
		int e = ev;
		re = rank_by(job, pmk__mpi_get_event, &e, &ne);
	}
	y = TOP + 14 + LINE * (3 + (missing > 0));
	height = y + SLOW_H + SORTED_H + HIST_H + (ne > 0 ? SORTED_H : 0);
	pmk__plot_begin(f, W, height, 1);
	pmk__mpi_svg_title(f, job, n);
	name_ranks(f, job, r, n, &sp, TOP + 16);

	/* the slowest ranks, one labelled bar each */
	nslow = n < SLOWEST ? n : SLOWEST;
	for (int i = 0; i < nslow; i++) {
		snprintf(lab[i], sizeof lab[i], "%d", r[i].rank);
		labels[i] = lab[i];
	}
	snprintf(title, sizeof title,
		 "the %d slowest ranks: compute (blue)%s and MPI (orange)",
		 nslow, nseg == 3 ? ", may have been MPI (light orange)" : "");
	time_panel(f, job, r, nslow, nseg, labels, title, "rank", y, SLOW_H);
	y += SLOW_H;
	snprintf(title, sizeof title,
		 "all %d ranks with a record, sorted by compute time", n);
	time_panel(f, job, r, n, nseg, NULL, title,
		   "ranks, slowest (left) to fastest (right)", y, SORTED_H);
	y += SORTED_H;
	hist_panel(f, r, n, &sp, y, HIST_H);
	y += HIST_H;
	if (ne > 0)
		event_panel(f, job, ev, re, ne, y, SORTED_H);
	pmk__plot_end(f);
out:
	free(r);
	free(re);
}
