/*
 * perfdiff.c: perf diff's layout (perfout.h): per shared object and
 * symbol, its share of the event in the baseline and what changed in the
 * new recording, computed as perf's -c says:
 *  - delta-abs (the default): new share - baseline share, rows by its
 *    size, most first;
 *  - delta: the same, rows from the largest rise to the largest fall;
 *  - ratio: new period / baseline period, largest first; N/A for a row
 *    only the new recording has.
 * A row only the baseline has is left blank in the second column and
 * comes last, by its share; one only the new recording has has a blank
 * baseline. Columns as perf prints them: Baseline, the computed column,
 * Shared Object, Symbol with [k]/[.].
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/textout.h"
#include "sample/perfout.h"
#include "sample/profile.h"

/* the key of a user object's addresses without a symbol: perf's diff
 * matches them as one entry per object (their symbols are both none) */
#define NO_SYM "[.] \001"

struct prow {
	const char *dso;
	char *sym; /* "[k] name" */
	uint64_t per[2];
	uint64_t lo[2]; /* NO_SYM: the lowest address sampled, each side */
	int in[2];
	double v; /* the computed value (sorting) */
};

struct pdiff {
	struct prow *r;
	size_t n, cap;
	struct idx ix;
};

struct pd_ctx {
	struct prow *r;
	const char *dso, *sym;
};

static int pd_eq(void *c, uint32_t i)
{
	struct pd_ctx *x = c;
	return !strcmp(x->r[i].sym, x->sym) && !strcmp(x->r[i].dso, x->dso);
}

static uint64_t pd_hash(const char *a, const char *b)
{
	return pmk__str_hash(pmk__str_hash(PMK__STR_HASH0, a) ^ 0xff, b);
}

/* The sampled locations of `q` for event `ev`, by object and symbol. */
static int gather(struct pdiff *d, pmk_profile *q, int ev, int side)
{
	for (size_t li = 0; li < q->nloc; li++) {
		struct loc *l = &q->loc[li];
		char sym[600];
		struct pd_ctx c;
		int ins, k, nosym;
		if (!l->period || !l->period[ev])
			continue;
		pmk__loc_resolve(q, l, 0);
		nosym = pmk__loc_nosym(q, l);
		if (nosym)
			snprintf(sym, sizeof sym, "%s", NO_SYM);
		else
			snprintf(sym, sizeof sym, "[%c] %s",
				 pmk__dso_is_kernel(q, l->dso) ? 'k' : '.',
				 l->func ? l->func : "[unknown]");
		c.dso = pmk__dso_perf_name(q, l->dso, 0);
		c.sym = sym;
		if (d->n == d->cap) {
			size_t nc = d->cap ? d->cap * 2 : 256;
			struct prow *nv = realloc(d->r, nc * sizeof *nv);
			if (!nv)
				return PMK_ENOMEM;
			d->r = nv;
			d->cap = nc;
		}
		c.r = d->r;
		k = pmk__idx_find(&d->ix, pd_hash(c.dso, sym), pd_eq, &c,
				  (uint32_t)d->n, &ins);
		if (k < 0)
			return PMK_ENOMEM;
		if (ins) {
			memset(&d->r[k], 0, sizeof d->r[k]);
			d->r[k].dso = c.dso;
			d->r[k].sym = strdup(sym);
			if (!d->r[k].sym)
				return PMK_ENOMEM;
			d->n++;
		}
		if (nosym && (!d->r[k].in[side] || l->off < d->r[k].lo[side]))
			d->r[k].lo[side] = l->off;
		d->r[k].per[side] += l->period[ev];
		d->r[k].in[side] = 1;
	}
	return 0;
}

/* perf names an object's addresses without a symbol by the lowest one
 * sampled (the first of its entries in address order), the baseline's
 * where the baseline has them: 16 hex digits */
static int name_nosym(struct pdiff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct prow *r = &d->r[i];
		char name[40];
		if (strcmp(r->sym, NO_SYM))
			continue;
		snprintf(name, sizeof name, "[.] 0x%016llx",
			 (unsigned long long)r->lo[r->in[0] ? 0 : 1]);
		free(r->sym);
		if (!(r->sym = strdup(name)))
			return PMK_ENOMEM;
	}
	return 0;
}

/* the row's group: 0 with a value, 1 new only under ratio (N/A), 2 in the
 * baseline only */
static int group(const struct prow *r, int compute)
{
	if (!r->in[1])
		return 2;
	return !r->in[0] && compute == PMK__DIFF_RATIO;
}

static int sort_compute;
static int by_value(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;
	int gx = group(x, sort_compute), gy = group(y, sort_compute), c;
	if (gx != gy)
		return gx - gy;
	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	c = strcmp(x->dso, y->dso);
	return c ? c : strcmp(x->sym, y->sym);
}

int pmk__profile_perf_diff(pmk_profile *base, pmk_profile *p,
			   const char *event, int compute, FILE *out)
{
	static const char *const heads[] = {"Delta Abs", "Delta", "Ratio"};
	static const int widths[] = {9, 7, 14};
	int eb = pmk__profile_event_index(base, event),
	    ep = pmk__profile_event_index(p, event), rc = 0;
	struct pdiff d;
	double tb, tp;
	int wd = 13, ws = 6, wc = widths[compute];
	char dots[700];
	if (eb < 0 || ep < 0)
		return PMK_ENOEVENT;
	memset(&d, 0, sizeof d);
	rc = gather(&d, base, eb, 0);
	if (!rc)
		rc = gather(&d, p, ep, 1);
	if (!rc)
		rc = name_nosym(&d);
	tb = (double)base->st.period[eb];
	tp = (double)p->st.period[ep];
	for (size_t i = 0; i < d.n && !rc; i++) {
		struct prow *r = &d.r[i];
		double sb = tb > 0 ? 100.0 * (double)r->per[0] / tb : 0,
		       sp = tp > 0 ? 100.0 * (double)r->per[1] / tp : 0;
		if (compute == PMK__DIFF_RATIO)
			r->v = r->in[0] && r->in[1] && r->per[0]
				   ? (double)r->per[1] / (double)r->per[0]
				   : 0;
		else if (!r->in[1])
			r->v = sb; /* baseline only: by its share */
		else
			r->v = compute == PMK__DIFF_DELTA ? sp - sb
							  : fabs(sp - sb);
		if ((int)strlen(r->dso) > wd)
			wd = (int)strlen(r->dso);
		if ((int)strlen(r->sym) > ws)
			ws = (int)strlen(r->sym);
	}
	if (!rc) {
		sort_compute = compute;
		if (d.n > 1)
			qsort(d.r, d.n, sizeof *d.r, by_value);
		if (wd > 600)
			wd = 600;
		if (ws > 600)
			ws = 600;
		memset(dots, '.', sizeof dots - 1);
		dots[sizeof dots - 1] = 0;
		fprintf(out, "# Event '%s'\n#\n", pmk_profile_event_name(p, ep));
		fprintf(out, "# Baseline  %*s  %-*s  %-*s\n", wc,
			heads[compute], wd, "Shared Object", ws, "Symbol");
		fprintf(out, "# ........  %.*s  %.*s  %.*s\n#\n", wc, dots, wd,
			dots, ws, dots);
	}
	for (size_t i = 0; i < d.n && !rc; i++) {
		const struct prow *r = &d.r[i];
		double sb = tb > 0 ? 100.0 * (double)r->per[0] / tb : 0,
		       sp = tp > 0 ? 100.0 * (double)r->per[1] / tp : 0;
		char b[32] = "", c[32] = "";
		if (r->in[0])
			snprintf(b, sizeof b, "%.2f%%", sb);
		if (r->in[1]) {
			if (compute == PMK__DIFF_RATIO)
				snprintf(c, sizeof c,
					 r->in[0] ? "%.6f" : "N/A", r->v);
			else
				snprintf(c, sizeof c, "%+.2f%%", sp - sb);
		}
		fprintf(out, "  %8s  %*s  %-*s  %s\n", b, wc, c, wd, r->dso,
			r->sym);
	}
	for (size_t i = 0; i < d.n; i++)
		free(d.r[i].sym);
	free(d.r);
	pmk__idx_free(&d.ix);
	if (!rc && ferror(out))
		rc = PMK_EIO;
	return rc;
}
