/*
 * comm.c: the communication picture of a job (comm.h) on the record side:
 * a rank's entries, their JSON, and what the report makes of them over
 * the ranks (the top pairs, the heat map, each function's sizes and the
 * call sites merged by function and place). No MPI header.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/plot.h"
#include "lib/core/textout.h"
#include "mpi/comm.h"
#include "mpi/job.h"
#include "pmkit.h"

struct pmk__mpi_comm *pmk__mpi_comm_new(void)
{
	return calloc(1, sizeof(struct pmk__mpi_comm));
}

void pmk__mpi_comm_free(struct pmk__mpi_comm *c)
{
	if (!c)
		return;
	free(c->to);
	free(c->fs);
	free(c->sites);
	free(c);
}

static void *grow(void *p, int *cap, int n, size_t each)
{
	int nc;
	void *q;
	if (n < *cap)
		return p;
	nc = *cap ? *cap * 2 : 16;
	q = realloc(p, each * (size_t)nc);
	if (q)
		*cap = nc;
	return q;
}

struct pmk__mpi_comm *pmk__mpi_comm_dup(const struct pmk__mpi_comm *c)
{
	struct pmk__mpi_comm *d;
	if (!c || !(d = pmk__mpi_comm_new()))
		return NULL;
	*d = *c;
	d->to = d->nto ? malloc(sizeof *d->to * (size_t)d->nto) : NULL;
	d->fs = d->nfs ? malloc(sizeof *d->fs * (size_t)d->nfs) : NULL;
	d->sites =
	    d->nsites ? malloc(sizeof *d->sites * (size_t)d->nsites) : NULL;
	d->cto = d->nto;
	d->cfs = d->nfs;
	d->csites = d->nsites;
	if ((d->nto && !d->to) || (d->nfs && !d->fs) ||
	    (d->nsites && !d->sites)) {
		pmk__mpi_comm_free(d);
		return NULL;
	}
	if (d->nto)
		memcpy(d->to, c->to, sizeof *d->to * (size_t)d->nto);
	if (d->nfs)
		memcpy(d->fs, c->fs, sizeof *d->fs * (size_t)d->nfs);
	if (d->nsites)
		memcpy(d->sites, c->sites,
		       sizeof *d->sites * (size_t)d->nsites);
	return d;
}

struct pmk__mpi_peer *pmk__mpi_comm_peer(struct pmk__mpi_comm *c, int rank)
{
	void *p;
	for (int i = 0; i < c->nto; i++)
		if (c->to[i].rank == rank)
			return &c->to[i];
	if (!(p = grow(c->to, &c->cto, c->nto, sizeof *c->to)))
		return NULL;
	c->to = p;
	memset(&c->to[c->nto], 0, sizeof *c->to);
	c->to[c->nto].rank = rank;
	return &c->to[c->nto++];
}

struct pmk__mpi_fsize *pmk__mpi_comm_fsize(struct pmk__mpi_comm *c,
					   const char *name)
{
	void *p;
	for (int i = 0; i < c->nfs; i++)
		if (!strcmp(c->fs[i].name, name))
			return &c->fs[i];
	if (!(p = grow(c->fs, &c->cfs, c->nfs, sizeof *c->fs)))
		return NULL;
	c->fs = p;
	memset(&c->fs[c->nfs], 0, sizeof *c->fs);
	snprintf(c->fs[c->nfs].name, sizeof c->fs[0].name, "%s", name);
	c->fs[c->nfs].min_ns = UINT64_MAX;
	return &c->fs[c->nfs++];
}

struct pmk__mpi_site *pmk__mpi_comm_site(struct pmk__mpi_comm *c,
					 const char *fn, const char *at)
{
	void *p;
	for (int i = 0; i < c->nsites; i++)
		if (!strcmp(c->sites[i].fn, fn) && !strcmp(c->sites[i].at, at))
			return &c->sites[i];
	if (!(p = grow(c->sites, &c->csites, c->nsites, sizeof *c->sites)))
		return NULL;
	c->sites = p;
	memset(&c->sites[c->nsites], 0, sizeof *c->sites);
	snprintf(c->sites[c->nsites].fn, sizeof c->sites[0].fn, "%s", fn);
	snprintf(c->sites[c->nsites].at, sizeof c->sites[0].at, "%s", at);
	return &c->sites[c->nsites++];
}

void pmk__mpi_comm_json(FILE *f, const struct pmk__mpi_comm *c)
{
	if (!c)
		return;
	fputs(",\"comm\":{\"to\":[", f);
	for (int i = 0; i < c->nto; i++)
		fprintf(f, "%s[%d,%llu,%llu]", i ? "," : "", c->to[i].rank,
			(unsigned long long)c->to[i].calls,
			(unsigned long long)c->to[i].bytes);
	fprintf(f, "],\"coll\":[%llu,%llu],\"fn\":[",
		(unsigned long long)c->coll_calls,
		(unsigned long long)c->coll_bytes);
	for (int i = 0; i < c->nfs; i++) {
		const struct pmk__mpi_fsize *s = &c->fs[i];
		int first = 1;
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		pmk__json_str(f, s->name);
		if (s->min_ns != UINT64_MAX)
			fprintf(f, ",\"min_ns\":%llu,\"max_ns\":%llu",
				(unsigned long long)s->min_ns,
				(unsigned long long)s->max_ns);
		fputs(",\"hist\":[", f);
		for (int b = 0; b < PMK__MPI_HBUCKETS; b++)
			if (s->hist[b]) {
				fprintf(f, "%s[%d,%llu]", first ? "" : ",", b,
					(unsigned long long)s->hist[b]);
				first = 0;
			}
		fputs("]}", f);
	}
	fputs("],\"sites\":[", f);
	for (int i = 0; i < c->nsites; i++) {
		const struct pmk__mpi_site *s = &c->sites[i];
		fputs(i ? ",{\"fn\":" : "{\"fn\":", f);
		pmk__json_str(f, s->fn);
		fputs(",\"at\":", f);
		pmk__json_str(f, s->at);
		fprintf(f, ",\"calls\":%llu,\"ns\":%llu}",
			(unsigned long long)s->calls,
			(unsigned long long)s->ns);
	}
	fputs("]}", f);
}

/* ---- the job's picture ----------------------------------------------------
 */

struct pair {
	int src, dst;
	uint64_t calls, bytes;
};

static int has_comm(const struct pmk__mpi_job *job)
{
	for (int i = 0; i < job->size; i++)
		if (job->ranks[i].present && job->ranks[i].comm)
			return 1;
	return 0;
}

static int by_bytes(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return x->src != y->src ? x->src - y->src : x->dst - y->dst;
}

/* Every pair with sends, most bytes first. */
static struct pair *pairs_of(const struct pmk__mpi_job *job, int *n)
{
	struct pair *p = NULL;
	int k = 0, cap = 0;
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_comm *c = job->ranks[i].comm;
		if (!job->ranks[i].present || !c)
			continue;
		for (int j = 0; j < c->nto; j++) {
			void *q = grow(p, &cap, k, sizeof *p);
			if (!q)
				break;
			p = q;
			p[k++] = (struct pair){i, c->to[j].rank, c->to[j].calls,
					       c->to[j].bytes};
		}
	}
	if (k)
		qsort(p, (size_t)k, sizeof *p, by_bytes);
	*n = k;
	return p;
}

static void size_text(char *buf, size_t n, uint64_t v)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int u = 0;
	double d = (double)v;
	while (d >= 1024 && u < 4) {
		d /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%llu B", (unsigned long long)v);
	else
		snprintf(buf, n, "%.1f %s", d, unit[u]);
}

/* A power of two as text: 512, 4K, 256K, 2M... */
static void pow2_text(char *buf, size_t n, int e)
{
	static const char unit[] = " KMGT";
	int u = e / 10 < 4 ? e / 10 : 4;
	char suffix[2] = {u ? unit[u] : 0, 0};
	snprintf(buf, n, "%llu%s", 1ull << (e - 10 * u), suffix);
}

/* A bucket's range as text: "0", "[1,2)", "[512,1K)", "[4K,8K)"... */
static void bucket_text(char *buf, size_t n, int b)
{
	char lo[24], hi[24];
	if (b == 0) {
		snprintf(buf, n, "0");
		return;
	}
	pow2_text(lo, sizeof lo, b - 1);
	pow2_text(hi, sizeof hi, b);
	snprintf(buf, n, "[%s,%s)", lo, hi);
}

/* A function's or a site's figures over the ranks. */
struct fmerge {
	char name[32];
	uint64_t min_ns, max_ns, calls;
	uint64_t hist[PMK__MPI_HBUCKETS];
};
struct smerge {
	char fn[32], at[160];
	uint64_t calls, ns;
	int ranks;
};

static int by_site_ns(const void *a, const void *b)
{
	const struct smerge *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->at, y->at);
}

static struct fmerge *merge_fn(const struct pmk__mpi_job *job, int *n)
{
	struct fmerge *m = NULL;
	int k = 0, cap = 0;
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_comm *c = job->ranks[i].comm;
		if (!job->ranks[i].present || !c)
			continue;
		for (int j = 0; j < c->nfs; j++) {
			const struct pmk__mpi_fsize *s = &c->fs[j];
			int x;
			for (x = 0; x < k && strcmp(m[x].name, s->name); x++)
				;
			if (x == k) {
				void *q = grow(m, &cap, k, sizeof *m);
				if (!q)
					continue;
				m = q;
				memset(&m[k], 0, sizeof *m);
				snprintf(m[k].name, sizeof m[k].name, "%s",
					 s->name);
				m[k].min_ns = UINT64_MAX;
				k++;
			}
			if (s->min_ns < m[x].min_ns)
				m[x].min_ns = s->min_ns;
			if (s->min_ns != UINT64_MAX && s->max_ns > m[x].max_ns)
				m[x].max_ns = s->max_ns;
			for (int b = 0; b < PMK__MPI_HBUCKETS; b++) {
				m[x].hist[b] += s->hist[b];
				m[x].calls += s->hist[b];
			}
		}
	}
	*n = k;
	return m;
}

static struct smerge *merge_sites(const struct pmk__mpi_job *job, int *n)
{
	struct smerge *m = NULL;
	int k = 0, cap = 0;
	for (int i = 0; i < job->size; i++) {
		const struct pmk__mpi_comm *c = job->ranks[i].comm;
		if (!job->ranks[i].present || !c)
			continue;
		for (int j = 0; j < c->nsites; j++) {
			const struct pmk__mpi_site *s = &c->sites[j];
			int x;
			for (x = 0; x < k && (strcmp(m[x].fn, s->fn) ||
					      strcmp(m[x].at, s->at));
			     x++)
				;
			if (x == k) {
				void *q = grow(m, &cap, k, sizeof *m);
				if (!q)
					continue;
				m = q;
				memset(&m[k], 0, sizeof *m);
				memcpy(m[k].fn, s->fn, sizeof m[k].fn);
				memcpy(m[k].at, s->at, sizeof m[k].at);
				k++;
			}
			m[x].calls += s->calls;
			m[x].ns += s->ns;
			m[x].ranks++;
		}
	}
	if (k)
		qsort(m, (size_t)k, sizeof *m, by_site_ns);
	*n = k;
	return m;
}

void pmk__mpi_comm_report(FILE *f, const struct pmk__mpi_job *job, int top)
{
	struct pair *p;
	struct fmerge *fm;
	struct smerge *sm;
	int np, nf, ns;
	uint64_t cc = 0, cb = 0;
	char a[32], b[64];
	if (!has_comm(job))
		return;
	p = pairs_of(job, &np);
	fprintf(f, "# point-to-point, top pairs by bytes (%d pair%s sent to)\n",
		np, np == 1 ? "" : "s");
	fprintf(f, "#   %6s -> %-6s %12s %14s %12s\n", "from", "to", "calls",
		"bytes", "");
	for (int i = 0; i < np && i < top; i++) {
		size_text(a, sizeof a, p[i].bytes);
		fprintf(f, "#   %6d -> %-6d %12llu %14llu %12s\n", p[i].src,
			p[i].dst, (unsigned long long)p[i].calls,
			(unsigned long long)p[i].bytes, a);
	}
	free(p);
	for (int i = 0; i < job->size; i++)
		if (job->ranks[i].present && job->ranks[i].comm) {
			cc += job->ranks[i].comm->coll_calls;
			cb += job->ranks[i].comm->coll_bytes;
		}
	size_text(a, sizeof a, cb);
	fprintf(f,
		"# collectives (their own column): %llu calls, %s "
		"contributed over all ranks\n",
		(unsigned long long)cc, a);
	fm = merge_fn(job, &nf);
	if (nf)
		fprintf(f, "# per function: min/max call time, calls per "
			   "message size ([lo,hi) bytes: calls)\n");
	for (int i = 0; i < nf; i++) {
		int shown = 0;
		if (fm[i].min_ns != UINT64_MAX)
			fprintf(f, "#   %-22s min %10.3f us  max %12.3f us ",
				fm[i].name, fm[i].min_ns * 1e-3,
				fm[i].max_ns * 1e-3);
		else
			fprintf(f, "#   %-22s %44s", fm[i].name, "(untimed) ");
		for (int k = 0; k < PMK__MPI_HBUCKETS; k++) {
			if (!fm[i].hist[k] ||
			    (k == 0 && fm[i].hist[k] == fm[i].calls))
				continue;
			bucket_text(b, sizeof b, k);
			fprintf(f, " %s:%llu", b,
				(unsigned long long)fm[i].hist[k]);
			shown++;
		}
		fputc('\n', f);
	}
	free(fm);
	sm = merge_sites(job, &ns);
	if (ns)
		fprintf(f, "# call sites, top %d by time (%d in all)\n",
			top < ns ? top : ns, ns);
	for (int i = 0; i < ns && i < top; i++)
		fprintf(f, "#   %-18s %10llu calls %12.6f s  %3d rank%s  %s\n",
			sm[i].fn, (unsigned long long)sm[i].calls,
			sm[i].ns * 1e-9, sm[i].ranks,
			sm[i].ranks == 1 ? " " : "s", sm[i].at);
	free(sm);
}

/* Ranks to bins: at most 128 bins of consecutive ranks. */
#define HEAT_MAX 128

int pmk__mpi_comm_svg(FILE *f, const struct pmk__mpi_job *job)
{
	int n = job->size, per = (n + HEAT_MAX - 1) / HEAT_MAX, nb, rc;
	double *v;
	char **lab;
	char title[160];
	if (!has_comm(job))
		return PMK_ENOENT;
	nb = (n + per - 1) / per;
	v = calloc((size_t)nb * (size_t)nb, sizeof *v);
	lab = calloc((size_t)nb, sizeof *lab);
	if (!v || !lab) {
		free(v);
		free(lab);
		return PMK_ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		const struct pmk__mpi_comm *c = job->ranks[i].comm;
		if (!job->ranks[i].present || !c)
			continue;
		for (int j = 0; j < c->nto; j++)
			if (c->to[j].rank >= 0 && c->to[j].rank < n)
				v[(size_t)(i / per) * nb +
				  c->to[j].rank / per] +=
				    (double)c->to[j].bytes;
	}
	for (int b = 0; b < nb; b++) {
		char t[32];
		if (per == 1)
			snprintf(t, sizeof t, "%d", b);
		else
			snprintf(t, sizeof t, "%d-%d", b * per,
				 (b + 1) * per - 1 < n - 1 ? (b + 1) * per - 1
							   : n - 1);
		lab[b] = strdup(t);
	}
	snprintf(title, sizeof title,
		 "Bytes sent point to point, rank x rank%s",
		 per > 1 ? " (ranks grouped)" : "");
	rc = pmk__plot_heat(
	    f, &(pmk__heat_map){.title = title,
				.unit = "bytes",
				.nrows = nb,
				.ncols = nb,
				.v = v,
				.row_label = (const char *const *)lab,
				.col_label = (const char *const *)lab,
				.xlabel = "to rank",
				.ylabel = "from rank"});
	for (int b = 0; b < nb; b++)
		free(lab[b]);
	free(lab);
	free(v);
	return rc;
}

void pmk__mpi_comm_html(FILE *f, const struct pmk__mpi_job *job)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	if (!has_comm(job))
		return;
	fputs("<h2>Who talks to whom</h2>\n", f);
	pmk__mpi_comm_svg(f, job);
	m = open_memstream(&text, &len);
	if (m) {
		pmk__mpi_comm_report(m, job, 16);
		fclose(m);
		fputs("<pre>", f);
		if (text)
			pmk__xml_text(f, text);
		fputs("</pre>\n", f);
		free(text);
	}
}
