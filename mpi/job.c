/*
 * job.c: the per-rank records of an MPI job, their statistics over ranks,
 * and the banner, JSON and CSV written from them (job.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/textout.h"
#include "mpi/comm.h"
#include "mpi/job.h"
#include "pmkit.h"

int pmk__mpi_job_init(struct pmk__mpi_job *job, int size)
{
	memset(job, 0, sizeof *job);
	if (size < 1 || size > PMK__MPI_MAX_RANKS)
		return PMK_ERANGE;
	job->ranks = calloc((size_t)size, sizeof *job->ranks);
	if (!job->ranks)
		return PMK_ENOMEM;
	job->size = size;
	/* nothing written to a rank until its record is put: the pages of
	 * the ranks a file only declares are never touched (a record of 3 KB
	 * may declare 10^6 ranks), so the memory is that of the records */
	return 0;
}

/* The next run of ranks without a record at or after *from, as [*lo, *hi];
 * *from moves past it. 0 when there is none. */
static int missing_run(const struct pmk__mpi_job *job, int *from, int *lo,
		       int *hi)
{
	int i = *from;
	while (i < job->size && job->ranks[i].present)
		i++;
	if (i >= job->size) {
		*from = i;
		return 0;
	}
	*lo = i;
	while (i < job->size && !job->ranks[i].present)
		i++;
	*hi = i - 1;
	*from = i;
	return 1;
}

void pmk__mpi_job_release(struct pmk__mpi_job *job)
{
	for (int i = 0; job->ranks && i < job->size; i++) {
		free(job->ranks[i].calls);
		free(job->ranks[i].regions);
		pmk__mpi_comm_free(job->ranks[i].comm);
	}
	free(job->ranks);
	memset(job, 0, sizeof *job);
}

int pmk__mpi_job_event(struct pmk__mpi_job *job, const char *name,
		       const char *unit)
{
	for (int i = 0; i < job->nev; i++)
		if (!strcmp(job->evname[i], name))
			return i;
	if (job->nev == PMK__MPI_MAX_EVENTS)
		return -1;
	snprintf(job->evname[job->nev], PMK__MPI_NAME, "%s", name);
	snprintf(job->evunit[job->nev], sizeof job->evunit[0], "%s",
		 unit ? unit : "");
	/* ranks added earlier did not count it (a rank is given NAN for
	 * every event when it is put, so only those present are written) */
	for (int r = 0; r < job->size; r++) {
		if (!job->ranks[r].present)
			continue;
		job->ranks[r].ev[job->nev] = NAN;
		for (int g = 0; g < job->ranks[r].nregions; g++)
			job->ranks[r].regions[g].ev[job->nev] = NAN;
	}
	return job->nev++;
}

static void *grow(void *p, int *cap, int n, size_t elem)
{
	if (n < *cap)
		return p;
	int nc = *cap ? *cap * 2 : 8;
	void *np = realloc(p, elem * (size_t)nc);
	if (np)
		*cap = nc;
	return np;
}

struct pmk__mpi_call *pmk__mpi_rank_call(struct pmk__mpi_rank *r,
					 const char *name)
{
	struct pmk__mpi_call *c;
	for (int i = 0; i < r->ncalls; i++)
		if (!strcmp(r->calls[i].name, name))
			return &r->calls[i];
	c = grow(r->calls, &r->ccalls, r->ncalls, sizeof *c);
	if (!c)
		return NULL;
	r->calls = c;
	c = &r->calls[r->ncalls++];
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%s", name);
	return c;
}

struct pmk__mpi_region *pmk__mpi_rank_region(struct pmk__mpi_rank *r,
					     const char *name,
					     const char *source)
{
	struct pmk__mpi_region *g;
	for (int i = 0; i < r->nregions; i++)
		if (!strcmp(r->regions[i].name, name) &&
		    !strcmp(r->regions[i].source, source))
			return &r->regions[i];
	g = grow(r->regions, &r->cregions, r->nregions, sizeof *g);
	if (!g)
		return NULL;
	r->regions = g;
	g = &r->regions[r->nregions++];
	memset(g, 0, sizeof *g);
	snprintf(g->name, sizeof g->name, "%s", name);
	snprintf(g->source, sizeof g->source, "%s", source);
	for (int e = 0; e < PMK__MPI_MAX_EVENTS; e++)
		g->ev[e] = NAN;
	return g;
}

int pmk__mpi_job_put(struct pmk__mpi_job *to, const struct pmk__mpi_job *from,
		     const struct pmk__mpi_rank *src)
{
	struct pmk__mpi_rank *dst;
	int map[PMK__MPI_MAX_EVENTS];
	if (src->rank < 0 || src->rank >= to->size)
		return PMK_ERANGE;
	dst = &to->ranks[src->rank];
	if (dst->present)
		return PMK_EEXIST;
	for (int e = 0; e < from->nev; e++)
		map[e] = pmk__mpi_job_event(to, from->evname[e],
					    from->evunit[e]);
	dst->present = 1;
	dst->rank = src->rank;
	snprintf(dst->host, sizeof dst->host, "%s", src->host);
	dst->pid = src->pid;
	dst->wall_ns = src->wall_ns;
	dst->mpi_ns = src->mpi_ns;
	dst->mpi_err_ns = src->mpi_err_ns;
	dst->mpi_amb_ns = src->mpi_amb_ns;
	memcpy(dst->end, src->end, sizeof dst->end);
	dst->end[sizeof dst->end - 1] = 0;
	for (int e = 0; e < PMK__MPI_MAX_EVENTS; e++)
		dst->ev[e] = NAN;
	for (int e = 0; e < from->nev; e++)
		if (map[e] >= 0)
			dst->ev[map[e]] = src->ev[e];
	for (int i = 0; i < src->ncalls; i++) {
		struct pmk__mpi_call *c = pmk__mpi_rank_call(dst, src->calls[i].name);
		if (!c)
			return PMK_ENOMEM;
		*c = src->calls[i];
	}
	for (int i = 0; i < src->nregions; i++) {
		const struct pmk__mpi_region *s = &src->regions[i];
		struct pmk__mpi_region *g =
			pmk__mpi_rank_region(dst, s->name, s->source);
		if (!g)
			return PMK_ENOMEM;
		memcpy(g->parent, s->parent, sizeof g->parent);
		g->calls = s->calls;
		g->wall_ns = s->wall_ns;
		g->mpi_ns = s->mpi_ns;
		g->flags = s->flags;
		for (int e = 0; e < from->nev; e++)
			if (map[e] >= 0)
				g->ev[map[e]] = s->ev[e];
	}
	if (src->comm && !(dst->comm = pmk__mpi_comm_dup(src->comm)))
		return PMK_ENOMEM;
	return 0;
}

/* ---- statistics ------------------------------------------------------- */

void pmk__mpi_stat_of(const struct pmk__mpi_job *job, pmk__mpi_getter get,
		      void *arg, struct pmk__mpi_stat *st)
{
	memset(st, 0, sizeof *st);
	st->min = st->max = st->mean = st->imbalance = NAN;
	st->rank_min = st->rank_max = -1;
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_rank *r = &job->ranks[i];
		double v;
		if (!r->present)
			continue;
		v = get(r, arg);
		if (!isfinite(v))
			continue;
		if (st->n == 0 || v < st->min) {
			st->min = v;
			st->rank_min = i;
		}
		if (st->n == 0 || v > st->max) {
			st->max = v;
			st->rank_max = i;
		}
		st->total += v;
		st->n++;
	}
	if (st->n) {
		st->mean = st->total / st->n;
		st->imbalance = st->mean > 0 ? st->max / st->mean : NAN;
	}
}

double pmk__mpi_get_wall(const struct pmk__mpi_rank *r, void *arg)
{
	(void)arg;
	return (double)r->wall_ns;
}
double pmk__mpi_get_mpi(const struct pmk__mpi_rank *r, void *arg)
{
	(void)arg;
	return (double)r->mpi_ns;
}
double pmk__mpi_get_compute(const struct pmk__mpi_rank *r, void *arg)
{
	(void)arg;
	return r->wall_ns > r->mpi_ns ? (double)(r->wall_ns - r->mpi_ns) : 0;
}
double pmk__mpi_get_event(const struct pmk__mpi_rank *r, void *arg)
{
	return r->ev[*(int *)arg];
}

struct call_arg {
	const char *name;
	int field; /* 0 ns, 1 calls, 2 bytes sent, 3 bytes received, 4 timed */
};
static double get_call(const struct pmk__mpi_rank *r, void *arg)
{
	const struct call_arg *a = arg;
	for (int i = 0; i < r->ncalls; i++)
		if (!strcmp(r->calls[i].name, a->name)) {
			const struct pmk__mpi_call *c = &r->calls[i];
			return a->field == 0   ? (double)c->ns
			       : a->field == 1 ? (double)c->calls
			       : a->field == 2 ? (double)c->bytes_sent
			       : a->field == 3 ? (double)c->bytes_recv
					       : (double)c->timed;
		}
	return 0; /* a rank that never called it spent no time in it */
}

struct region_arg {
	const char *name, *source;
	int field; /* 0 wall, 1 mpi, 2 calls, 3+e event e */
};
static double get_region(const struct pmk__mpi_rank *r, void *arg)
{
	const struct region_arg *a = arg;
	for (int i = 0; i < r->nregions; i++) {
		const struct pmk__mpi_region *g = &r->regions[i];
		if (strcmp(g->name, a->name) || strcmp(g->source, a->source))
			continue;
		return a->field == 0   ? (double)g->wall_ns
		       : a->field == 1 ? (double)g->mpi_ns
		       : a->field == 2 ? (double)g->calls
				       : g->ev[a->field - 3];
	}
	return NAN;
}

int pmk__mpi_job_present(const struct pmk__mpi_job *job)
{
	int n = 0;
	for (int i = 0; i < job->size; i++)
		n += job->ranks[i].present;
	return n;
}

static uint64_t host_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Distinct hosts through a hash set of the names seen (linear in the
 * ranks present; comparing each rank with every rank before it was
 * quadratic in the declared size). */
int pmk__mpi_job_hosts(const struct pmk__mpi_job *job, const char **names,
		       int max)
{
	int n = 0, present = pmk__mpi_job_present(job);
	size_t cap = 16, mask;
	const char **set;
	while (cap < (size_t)present * 2)
		cap *= 2;
	mask = cap - 1;
	set = calloc(cap, sizeof *set);
	if (!set)
		return 0;
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_rank *r = &job->ranks[i];
		size_t j;
		if (!r->present)
			continue;
		j = (size_t)host_hash(r->host) & mask;
		while (set[j] && strcmp(set[j], r->host))
			j = (j + 1) & mask;
		if (set[j])
			continue;
		set[j] = r->host;
		if (n < max)
			names[n] = r->host;
		n++;
	}
	free(set);
	return n;
}

/* ---- banner ----------------------------------------------------------- */

/* How a quantity is shown: seconds for nanoseconds, else as counted. */
static double scale_of(const char *unit, const char **shown)
{
	if (!strcmp(unit, "ns")) {
		*shown = "s";
		return 1e-9;
	}
	*shown = unit;
	return 1;
}

static void fmt_num(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else if (v != 0 && (fabs(v) >= 1e9 || fabs(v) < 1e-3))
		snprintf(buf, n, "%.4g", v);
	else if (fabs(v) >= 1e5)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4f", v);
}

static void stat_row(FILE *f, const char *label, const struct pmk__mpi_stat *st,
		     double scale)
{
	char t[32], lo[32], me[32], hi[32], imb[16];
	fmt_num(t, sizeof t, st->total * scale);
	fmt_num(lo, sizeof lo, st->min * scale);
	fmt_num(me, sizeof me, st->mean * scale);
	fmt_num(hi, sizeof hi, st->max * scale);
	if (isfinite(st->imbalance))
		snprintf(imb, sizeof imb, "%.2f", st->imbalance);
	else
		snprintf(imb, sizeof imb, "-");
	fprintf(f, "# %-30.30s %12s %12s %12s %12s %5d %5d %6s\n", label, t, lo,
		me, hi, st->rank_min, st->rank_max, imb);
}

static int cmp_time_desc(const void *a, const void *b)
{
	const double *x = a, *y = b;
	return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0;
}

/* The names of every call any rank made, in `out` (caller frees). */
static int all_calls(const struct pmk__mpi_job *job, const char ***out)
{
	const char **names = NULL;
	int n = 0, cap = 0;
	for (int i = 0; i < job->size; i++)
		for (int c = 0; c < job->ranks[i].ncalls; c++) {
			const char *nm = job->ranks[i].calls[c].name;
			int seen = 0;
			for (int k = 0; k < n && !seen; k++)
				seen = !strcmp(names[k], nm);
			if (seen)
				continue;
			const char **nn = grow(names, &cap, n, sizeof *names);
			if (!nn)
				break;
			names = nn;
			names[n++] = nm;
		}
	*out = names;
	return n;
}

/* Distinct regions (name and source) in order of first appearance. */
static int all_regions(const struct pmk__mpi_job *job,
		       const struct pmk__mpi_region ***out)
{
	const struct pmk__mpi_region **g = NULL;
	int n = 0, cap = 0;
	for (int i = 0; i < job->size; i++)
		for (int k = 0; k < job->ranks[i].nregions; k++) {
			const struct pmk__mpi_region *r = &job->ranks[i].regions[k];
			int seen = 0;
			for (int j = 0; j < n && !seen; j++)
				seen = !strcmp(g[j]->name, r->name) &&
				       !strcmp(g[j]->source, r->source);
			if (seen)
				continue;
			const struct pmk__mpi_region **ng =
				grow(g, &cap, n, sizeof *g);
			if (!ng)
				break;
			g = ng;
			g[n++] = r;
		}
	*out = g;
	return n;
}

static int region_flagged(const struct pmk__mpi_job *job,
			  const struct pmk__mpi_region *g, int *nranks)
{
	int n = 0;
	for (int i = 0; i < job->size; i++)
		for (int k = 0; k < job->ranks[i].nregions; k++) {
			const struct pmk__mpi_region *r = &job->ranks[i].regions[k];
			if (!strcmp(r->name, g->name) &&
			    !strcmp(r->source, g->source) &&
			    (r->flags & PMK__MPI_REGION_OPEN))
				n++;
		}
	*nranks = n;
	return n > 0;
}

/* When some calls' time was estimated (mpi/timing.c), say how many and
 * how good the MPI time is: one standard error over all ranks, and the
 * time that may have been MPI or computation. */
static void timing_line(FILE *f, const struct pmk__mpi_job *job)
{
	double calls = 0, timed = 0, var = 0, amb = 0;
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_rank *r = &job->ranks[i];
		if (!r->present)
			continue;
		for (int c = 0; c < r->ncalls; c++) {
			calls += (double)r->calls[c].calls;
			timed += (double)r->calls[c].timed;
		}
		var += (double)r->mpi_err_ns * (double)r->mpi_err_ns;
		amb += (double)r->mpi_amb_ns;
	}
	if (timed >= calls)
		return;
	fprintf(f, "# timing  : %.0f of %.0f calls timed, the others estimated "
		   "from them in bursts of short calls (PMKIT_MPI_TIMING=sample): "
		   "MPI time +-%.6f s (1 s.e.)",
		timed, calls, sqrt(var) * 1e-9);
	if (amb > 0)
		fprintf(f, "\n#           %.6f s of pauses after calls that may "
			   "wait counted as computation, though one of them may "
			   "have waited (\"maybe MPI\" below; the default, exact "
			   "timing, times every call)",
			amb * 1e-9);
	fputc('\n', f);
}

static double get_amb(const struct pmk__mpi_rank *r, void *arg)
{
	(void)arg;
	return (double)r->mpi_amb_ns;
}

void pmk__mpi_banner(FILE *f, const struct pmk__mpi_job *job, int top)
{
	struct pmk__mpi_stat wall, mpi, comp, amb;
	const char *hosts[4];
	int nhosts = pmk__mpi_job_hosts(job, hosts, 4);
	int present = pmk__mpi_job_present(job), ended = 0;
	const char **calls;
	const struct pmk__mpi_region **regs;
	int ncalls, nregs;
	double pct;

	pmk__mpi_stat_of(job, pmk__mpi_get_wall, NULL, &wall);
	pmk__mpi_stat_of(job, pmk__mpi_get_mpi, NULL, &mpi);
	pmk__mpi_stat_of(job, pmk__mpi_get_compute, NULL, &comp);
	pmk__mpi_stat_of(job, get_amb, NULL, &amb);
	for (int i = 0; i < job->size; i++)
		ended += job->ranks[i].present && job->ranks[i].end[0];
	pct = wall.total > 0 ? 100.0 * mpi.total / wall.total : 0;

	fputs("##pmkit-mpi#################################################"
	      "###########################################\n", f);
	if (job->command[0])
		fprintf(f, "# command : %s\n", job->command);
	fprintf(f, "# ranks   : %d", job->size);
	if (present != job->size)
		fprintf(f, " (%d reported, %d missing)", present,
			job->size - present);
	if (ended)
		fprintf(f, "%s%d of them ended before MPI_Finalize: their records "
			   "are partial", present != job->size ? "; " : " (", ended);
	if (ended && present == job->size)
		fputc(')', f);
	fprintf(f, "\n# hosts   : %d (", nhosts);
	for (int i = 0; i < nhosts && i < 4; i++)
		fprintf(f, "%s%s", i ? ", " : "", hosts[i]);
	fprintf(f, "%s)\n", nhosts > 4 ? ", ..." : "");
	fprintf(f, "# wall    : %.6f s (longest rank)\n",
		wall.max * 1e-9);
	fprintf(f, "# %%mpi    : %.2f %% (time in MPI over wall time, all ranks)",
		pct);
	/* sampled timing: time that may have been MPI, beside the figure
	 * it would change (and a row and a column below) */
	if (amb.total > 0)
		fprintf(f, "; %.2f %% with the %.6f s that may have been MPI",
			wall.total > 0 ? 100.0 * (mpi.total + amb.total) / wall.total
				       : 0,
			amb.total * 1e-9);
	fputc('\n', f);
	timing_line(f, job);
	if (present != job->size) {
		/* as ranges: a file may declare 10^6 ranks and hold four */
		int from = 0, lo, hi, shown = 0;
		fputs("# missing :", f);
		while (missing_run(job, &from, &lo, &hi))
			if (shown++ < 16) {
				if (lo == hi)
					fprintf(f, " %d", lo);
				else
					fprintf(f, " %d-%d", lo, hi);
			}
		fputs(shown > 16 ? " ...\n" : "\n", f);
	}
	if (ended) {
		fputs("# ended   :", f);
		for (int i = 0, shown = 0; i < job->size; i++)
			if (job->ranks[i].present && job->ranks[i].end[0] &&
			    shown++ < 16)
				fprintf(f, " %d (%s)", i, job->ranks[i].end);
		fputs(ended > 16 ? " ...\n" : "\n", f);
	}
	fputs("#\n", f);
	fprintf(f, "# %-30s %12s %12s %12s %12s %5s %5s %6s\n", "", "total",
		"min", "mean", "max", "rmin", "rmax", "max/mean");
	stat_row(f, "wall (s)", &wall, 1e-9);
	stat_row(f, "compute (s)", &comp, 1e-9);
	stat_row(f, "MPI (s)", &mpi, 1e-9);
	if (amb.total > 0)
		stat_row(f, "maybe MPI (s)", &amb, 1e-9);
	for (int e = 0; e < job->nev; e++) {
		struct pmk__mpi_stat st;
		const char *shown;
		double sc = scale_of(job->evunit[e], &shown);
		char label[160];
		pmk__mpi_stat_of(job, pmk__mpi_get_event, &e, &st);
		if (shown[0])
			snprintf(label, sizeof label, "%s (%s)", job->evname[e],
				 shown);
		else
			snprintf(label, sizeof label, "%s", job->evname[e]);
		if (st.n == 0) {
			fprintf(f, "# %-30.30s %12s\n", label, "<not counted>");
			continue;
		}
		stat_row(f, label, &st, sc);
	}

	nregs = all_regions(job, &regs);
	if (nregs) {
		fputs("#\n# regions (wall s; [MPI s]; * left open, closed at "
		      "MPI_Finalize)\n", f);
		for (int i = 0; i < nregs; i++) {
			struct region_arg ra = {regs[i]->name, regs[i]->source, 0};
			struct pmk__mpi_stat st;
			int nopen;
			char label[160];
			int flagged = region_flagged(job, regs[i], &nopen);
			snprintf(label, sizeof label, "%s%s%s%s%s", flagged ? "*" : "",
				 regs[i]->name,
				 strcmp(regs[i]->source, "pmk") ? "" : " (pmk)",
				 regs[i]->parent[0] ? " in " : "", regs[i]->parent);
			if (strcmp(regs[i]->source, "pmk")) {
				pmk__mpi_stat_of(job, get_region, &ra, &st);
				stat_row(f, label, &st, 1e-9);
				ra.field = 1;
				pmk__mpi_stat_of(job, get_region, &ra, &st);
				snprintf(label, sizeof label, "  [MPI in %s]",
					 regs[i]->name);
				stat_row(f, label, &st, 1e-9);
			}
			for (int e = 0; e < job->nev; e++) {
				const char *shown;
				double sc = scale_of(job->evunit[e], &shown);
				ra.field = 3 + e;
				pmk__mpi_stat_of(job, get_region, &ra, &st);
				if (st.n == 0)
					continue;
				if (shown[0])
					snprintf(label, sizeof label, "  %s (%s)",
						 job->evname[e], shown);
				else
					snprintf(label, sizeof label, "  %s",
						 job->evname[e]);
				if (!strcmp(regs[i]->source, "pmk"))
					snprintf(label, sizeof label, "%s%s (pmk): %s%s%s%s",
						 flagged ? "*" : "", regs[i]->name,
						 job->evname[e], shown[0] ? " (" : "",
						 shown, shown[0] ? ")" : "");
				stat_row(f, label, &st, sc);
			}
			if (flagged)
				fprintf(f, "#   ('%s' was open at MPI_Finalize on "
					   "%d rank%s)\n",
					regs[i]->name, nopen, nopen == 1 ? "" : "s");
		}
	}
	free(regs);

	ncalls = all_calls(job, &calls);
	if (ncalls) {
		double (*order)[2] = calloc((size_t)ncalls, sizeof *order);
		if (order) {
			for (int i = 0; i < ncalls; i++) {
				struct call_arg ca = {calls[i], 0};
				struct pmk__mpi_stat st;
				pmk__mpi_stat_of(job, get_call, &ca, &st);
				order[i][0] = st.total;
				order[i][1] = i;
			}
			qsort(order, (size_t)ncalls, sizeof *order, cmp_time_desc);
			fprintf(f, "#\n# MPI calls (time s, top %d of %d by total "
				   "time)\n",
				top < ncalls ? top : ncalls, ncalls);
			for (int k = 0; k < ncalls && k < top; k++) {
				struct call_arg ca = {calls[(int)order[k][1]], 0};
				struct pmk__mpi_stat st, cnt, tm;
				pmk__mpi_stat_of(job, get_call, &ca, &st);
				ca.field = 1;
				pmk__mpi_stat_of(job, get_call, &ca, &cnt);
				stat_row(f, ca.name, &st, 1e-9);
				fprintf(f, "#   %-28s calls %.0f", "", cnt.total);
				ca.field = 4;
				pmk__mpi_stat_of(job, get_call, &ca, &tm);
				if (tm.total < cnt.total)
					fprintf(f, " (%.0f timed)", tm.total);
				fprintf(f, ", %.2f %% of MPI time",
					mpi.total > 0 ? 100 * st.total / mpi.total : 0);
				ca.field = 2;
				pmk__mpi_stat_of(job, get_call, &ca, &cnt);
				if (cnt.total > 0)
					fprintf(f, ", %.0f bytes sent", cnt.total);
				ca.field = 3;
				pmk__mpi_stat_of(job, get_call, &ca, &cnt);
				if (cnt.total > 0)
					fprintf(f, ", %.0f bytes received", cnt.total);
				fputc('\n', f);
			}
			free(order);
		}
	}
	free(calls);

	if (present <= 16) {
		fprintf(f, "#\n# %5s %-20s %12s %12s %12s %7s%s\n", "rank", "host",
			"wall s", "compute s", "MPI s", "%mpi",
			amb.total > 0 ? "  maybe MPI s" : "");
		for (int i = 0; i < job->size; i++) {
			const struct pmk__mpi_rank *r = &job->ranks[i];
			if (!r->present) { /* one line for a run of them */
				int from = i, lo, hi;
				char span[32];
				missing_run(job, &from, &lo, &hi);
				if (lo == hi)
					snprintf(span, sizeof span, "%d", lo);
				else
					snprintf(span, sizeof span, "%d-%d", lo,
						 hi);
				fprintf(f, "# %5s %-20s\n", span, "(no record)");
				i = hi;
				continue;
			}
			fprintf(f, "# %5d %-20.20s %12.6f %12.6f %12.6f %7.2f", i,
				r->host, r->wall_ns * 1e-9,
				pmk__mpi_get_compute(r, NULL) * 1e-9,
				r->mpi_ns * 1e-9,
				r->wall_ns ? 100.0 * r->mpi_ns / r->wall_ns : 0);
			if (amb.total > 0)
				fprintf(f, " %12.6f", r->mpi_amb_ns * 1e-9);
			if (r->end[0])
				fprintf(f, "  (ended: %s)", r->end);
			fputc('\n', f);
		}
	}
	fputs("#############################################################"
	      "###########################################\n", f);
}

/* ---- JSON and CSV ------------------------------------------------------ */

static void jnum(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

static void json_events(FILE *f, const struct pmk__mpi_job *job,
			const double *ev)
{
	fputs("{", f);
	for (int e = 0; e < job->nev; e++) {
		if (e)
			fputc(',', f);
		pmk__json_str(f, job->evname[e]);
		fputc(':', f);
		jnum(f, ev[e]);
	}
	fputs("}", f);
}

void pmk__mpi_json(FILE *f, const struct pmk__mpi_job *job)
{
	int first = 1;
	fprintf(f, "{\"schema\":\"pmkit-mpi/1\",\"size\":%d,\"command\":",
		job->size);
	pmk__json_str(f, job->command);
	fputs(",\"events\":[", f);
	for (int e = 0; e < job->nev; e++) {
		fputs(e ? ",{\"name\":" : "{\"name\":", f);
		pmk__json_str(f, job->evname[e]);
		fputs(",\"unit\":", f);
		pmk__json_str(f, job->evunit[e]);
		fputc('}', f);
	}
	fputs("],\"ranks\":[", f);
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_rank *r = &job->ranks[i];
		if (!r->present)
			continue;
		fprintf(f, "%s\n{\"rank\":%d,\"host\":", first ? "" : ",", i);
		first = 0;
		pmk__json_str(f, r->host);
		fprintf(f, ",\"pid\":%ld,\"wall_ns\":%llu,\"mpi_ns\":%llu,"
			   "\"mpi_err_ns\":%llu,\"mpi_ambiguous_ns\":%llu,"
			   "\"events\":",
			r->pid, (unsigned long long)r->wall_ns,
			(unsigned long long)r->mpi_ns,
			(unsigned long long)r->mpi_err_ns,
			(unsigned long long)r->mpi_amb_ns);
		json_events(f, job, r->ev);
		if (r->end[0]) {
			fputs(",\"end\":", f);
			pmk__json_str(f, r->end);
		}
		fputs(",\"calls\":[", f);
		for (int c = 0; c < r->ncalls; c++) {
			const struct pmk__mpi_call *k = &r->calls[c];
			fputs(c ? ",{\"name\":" : "{\"name\":", f);
			pmk__json_str(f, k->name);
			fprintf(f, ",\"calls\":%llu,\"timed\":%llu,\"ns\":%llu,"
				   "\"bytes_sent\":%llu,\"bytes_recv\":%llu}",
				(unsigned long long)k->calls,
				(unsigned long long)k->timed,
				(unsigned long long)k->ns,
				(unsigned long long)k->bytes_sent,
				(unsigned long long)k->bytes_recv);
		}
		fputs("],\"regions\":[", f);
		for (int g = 0; g < r->nregions; g++) {
			const struct pmk__mpi_region *k = &r->regions[g];
			fputs(g ? ",{\"name\":" : "{\"name\":", f);
			pmk__json_str(f, k->name);
			fputs(",\"parent\":", f);
			pmk__json_str(f, k->parent);
			fputs(",\"source\":", f);
			pmk__json_str(f, k->source);
			fprintf(f, ",\"calls\":%llu,\"wall_ns\":%llu,\"mpi_ns\":%llu,"
				   "\"open_at_finalize\":%s,\"events\":",
				(unsigned long long)k->calls,
				(unsigned long long)k->wall_ns,
				(unsigned long long)k->mpi_ns,
				k->flags & PMK__MPI_REGION_OPEN ? "true" : "false");
			json_events(f, job, k->ev);
			fputc('}', f);
		}
		fputc(']', f);
		pmk__mpi_comm_json(f, r->comm);
		fputc('}', f);
	}
	fputs("],\n\"missing_ranks\":[", f);
	first = 1;
	for (int i = 0; i < job->size; i++)
		if (!job->ranks[i].present) {
			fprintf(f, "%s%d", first ? "" : ",", i);
			first = 0;
		}
	fputs("]}\n", f);
}

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(FILE *f, int rank, const char *kind, const char *name,
		    const char *quantity, double v, const char *unit)
{
	fprintf(f, "%d,%s,", rank, kind);
	csv_str(f, name);
	fprintf(f, ",%s,", quantity);
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	fprintf(f, ",%s\n", unit);
}

void pmk__mpi_csv(FILE *f, const struct pmk__mpi_job *job)
{
	fputs("rank,kind,name,quantity,value,unit\n", f);
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_rank *r = &job->ranks[i];
		if (!r->present)
			continue;
		csv_row(f, i, "rank", r->host, "wall", (double)r->wall_ns, "ns");
		csv_row(f, i, "rank", r->host, "mpi", (double)r->mpi_ns, "ns");
		csv_row(f, i, "rank", r->host, "compute",
			pmk__mpi_get_compute(r, NULL), "ns");
		csv_row(f, i, "rank", r->host, "mpi_err", (double)r->mpi_err_ns,
			"ns");
		csv_row(f, i, "rank", r->host, "mpi_ambiguous",
			(double)r->mpi_amb_ns, "ns");
		for (int e = 0; e < job->nev; e++)
			csv_row(f, i, "event", job->evname[e], "value", r->ev[e],
				job->evunit[e]);
		for (int c = 0; c < r->ncalls; c++) {
			const struct pmk__mpi_call *k = &r->calls[c];
			csv_row(f, i, "call", k->name, "calls", (double)k->calls, "");
			csv_row(f, i, "call", k->name, "timed", (double)k->timed, "");
			csv_row(f, i, "call", k->name, "time", (double)k->ns, "ns");
			csv_row(f, i, "call", k->name, "bytes_sent",
				(double)k->bytes_sent, "B");
			csv_row(f, i, "call", k->name, "bytes_recv",
				(double)k->bytes_recv, "B");
		}
		for (int g = 0; g < r->nregions; g++) {
			const struct pmk__mpi_region *k = &r->regions[g];
			const char *kind = strcmp(k->source, "pmk") ? "region"
								   : "pmk-region";
			csv_row(f, i, kind, k->name, "calls", (double)k->calls, "");
			if (strcmp(k->source, "pmk")) {
				csv_row(f, i, kind, k->name, "wall",
					(double)k->wall_ns, "ns");
				csv_row(f, i, kind, k->name, "mpi",
					(double)k->mpi_ns, "ns");
			}
			csv_row(f, i, kind, k->name, "open_at_finalize",
				k->flags & PMK__MPI_REGION_OPEN ? 1 : 0, "");
			for (int e = 0; e < job->nev; e++)
				if (isfinite(k->ev[e]))
					csv_row(f, i, kind, k->name, job->evname[e],
						k->ev[e], job->evunit[e]);
		}
	}
}
