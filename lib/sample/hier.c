/*
 * hier.c: perf report --stdio --hierarchy's layout. The table's rows (one
 * per combination of the sort keys) are grouped by their first column,
 * each group by the second, and so on: an entry per group, with the
 * period of the samples taken in its rows, indented three spaces a level
 * under its parent; siblings by period, the largest first. The headings
 * join the keys' names with " / ". Every column but a symbol is padded to
 * the width of its longest value (or heading) among the entries shown.
 */
#include <stdlib.h>
#include <string.h>

#include "sample/hier.h"

#define INDENT 3 /* spaces a level */

struct grp {
	size_t lo, hi; /* its rows: ix[lo, hi) */
	uint64_t self, samples;
	int shown;
	const char *name;
	size_t len;
};

struct hctx {
	const pmk__hier *h;
	size_t *ix;
	int w[PMK__HIER_MAXKEYS];
	int col; /* the column qsort compares */
	FILE *out;
};

/* Column `c` of a key: its start, and its length in *len */
static const char *column(const char *key, int c, size_t *len)
{
	for (; c > 0; c--) {
		key += strcspn(key, "\x1f");
		if (*key)
			key++;
	}
	*len = strcspn(key, "\x1f");
	return key;
}

static int text_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int r = memcmp(a, b, la < lb ? la : lb);
	return r ? r : la < lb ? -1 : la > lb;
}

static struct hctx *cmp_ctx;
static int row_cmp(const void *a, const void *b)
{
	const pmk__hier_row *r = cmp_ctx->h->row;
	size_t la, lb;
	const char *x = column(r[*(const size_t *)a].key, cmp_ctx->col, &la),
		   *y = column(r[*(const size_t *)b].key, cmp_ctx->col, &lb);
	return text_cmp(x, la, y, lb);
}

/* Rows `a` and `b` by their values from column `from` on */
static int keys_cmp(const pmk__hier *h, size_t a, size_t b, int from)
{
	for (int k = from; k < h->nkeys; k++) {
		size_t la, lb;
		const char *x = column(h->row[a].key, k, &la),
			   *y = column(h->row[b].key, k, &lb);
		uint64_t sa = h->row[a].sym_start, sb = h->row[b].sym_start;
		int r = text_cmp(x, la, y, lb);
		if (r && h->unpadded[k] && sa != sb)
			return sa < sb ? -1 : 1; /* symbols by address */
		if (r)
			return r;
	}
	return 0;
}

static int grp_cmp(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return text_cmp(x->name, x->len, y->name, y->len);
}

static double pct(const pmk__hier *h, uint64_t v)
{
	return h->total ? 100.0 * (double)v / (double)h->total : 0;
}

/* One entry's line: its indent, Overhead (and Samples), then its value
 * as perf pads it, leading spaces dropped */
static void entry_line(struct hctx *c, int d, const struct grp *g)
{
	const pmk__hier *h = c->h;
	double pc = pct(h, g->self);
	int pad = h->unpadded[d] || (int)g->len >= c->w[d]
		      ? 0
		      : c->w[d] - (int)g->len;
	size_t skip = 0;
	while (skip < g->len && g->name[skip] == ' ')
		skip++;
	fprintf(c->out, "%*s", d * INDENT, "");
	if (h->sep) {
		char num[32];
		snprintf(num, sizeof num, "%.2f%%", pc);
		fprintf(c->out, " %-7s", num);
		if (h->samples)
			fprintf(c->out, "%s %-11llu", h->sep,
				(unsigned long long)g->samples);
		fputs(h->sep, c->out);
	} else {
		fprintf(c->out, "  %7.2f%%", pc);
		if (h->samples)
			fprintf(c->out, "  %12llu", (unsigned long long)g->samples);
		fprintf(c->out, "%*s  ", (h->nkeys - 1) * INDENT, "");
	}
	fprintf(c->out, "%.*s%*s\n", (int)(g->len - skip), g->name + skip, pad,
		"");
}

/* Whether an entry of level `d` over rows ix[lo, hi) is shown and at the
 * percentage limit or above */
static int any_child(struct hctx *c, int d, size_t lo, size_t hi)
{
	const pmk__hier *h = c->h;
	cmp_ctx = c;
	c->col = d;
	qsort(c->ix + lo, hi - lo, sizeof *c->ix, row_cmp);
	for (size_t i = lo; i < hi;) {
		size_t l0, l, j = i;
		const char *nm = column(h->row[c->ix[i]].key, d, &l0);
		uint64_t self = 0;
		int shown = 0;
		for (; j < hi; j++) {
			const pmk__hier_row *r = &h->row[c->ix[j]];
			const char *x = column(r->key, d, &l);
			if (text_cmp(x, l, nm, l0))
				break;
			self += r->self;
			shown |= r->shown;
		}
		if (shown && pct(h, self) >= h->percent_limit)
			return 1;
		i = j;
	}
	return 0;
}

/* An entry whose children are all under --percent-limit: perf's line in
 * their place, as far in as their names would begin (the indent, "  "
 * and Overhead's 8 and "  ", and "  " and Samples' 12) */
static void no_entry(struct hctx *c, int d)
{
	const pmk__hier *h = c->h;
	int n = (h->sep ? 0 : (h->nkeys + d) * INDENT) + 12 +
		(h->samples ? 14 : 0);
	fprintf(c->out, "%*sno entry >= %.2f%%\n", n, "", h->percent_limit);
}

/* The entries of level `d` over rows ix[lo, hi), which share the columns
 * before `d`, each followed by its own level or its chains */
static int level(struct hctx *c, int d, size_t lo, size_t hi)
{
	const pmk__hier *h = c->h;
	struct grp *g;
	size_t ng = 0;
	int rc = 0;
	if (hi <= lo)
		return 0;
	g = malloc((hi - lo) * sizeof *g);
	if (!g)
		return -1;
	cmp_ctx = c;
	c->col = d;
	qsort(c->ix + lo, hi - lo, sizeof *c->ix, row_cmp);
	for (size_t i = lo; i < hi; i++) {
		const pmk__hier_row *r = &h->row[c->ix[i]];
		size_t len;
		const char *nm = column(r->key, d, &len);
		if (!ng || text_cmp(nm, len, g[ng - 1].name, g[ng - 1].len)) {
			g[ng] = (struct grp){i, i, 0, 0, 0, nm, len};
			ng++;
		}
		g[ng - 1].hi = i + 1;
		g[ng - 1].self += r->self;
		g[ng - 1].samples += r->samples;
		g[ng - 1].shown |= r->shown;
	}
	qsort(g, ng, sizeof *g, grp_cmp);
	for (size_t k = 0; k < ng && !rc; k++) {
		/* as perf: an entry of a sample --dsos or --symbols names,
		 * at the percentage of all its samples */
		if (!g[k].shown || pct(h, g[k].self) < h->percent_limit)
			continue;
		entry_line(c, d, &g[k]);
		if (d + 1 < h->nkeys) {
			if (!any_child(c, d + 1, g[k].lo, g[k].hi))
				no_entry(c, d);
			else
				rc = level(c, d + 1, g[k].lo, g[k].hi);
		} else if (h->chain)
			rc = h->chain(h->ctx, c->ix[g[k].lo], g[k].self, c->out);
	}
	free(g);
	return rc;
}

/* Widen the columns to row `r`'s values */
static void widen(struct hctx *c, size_t r)
{
	for (int k = 0; k < c->h->nkeys; k++) {
		size_t l;
		column(c->h->row[r].key, k, &l);
		if ((int)l > c->w[k])
			c->w[k] = l > 200 ? 200 : (int)l;
	}
}

/* The widths, as perf sets them: from every entry shown, at every level
 * (those under --percent-limit too), an entry above the last level
 * standing for the first of its rows in the order of their values (perf
 * keeps the fields of the first row it met there, and meets them in that
 * order) */
static void measure(struct hctx *c, int d, size_t lo, size_t hi)
{
	const pmk__hier *h = c->h;
	cmp_ctx = c;
	c->col = d;
	qsort(c->ix + lo, hi - lo, sizeof *c->ix, row_cmp);
	for (size_t i = lo; i < hi;) {
		size_t l0, l, j = i, first = c->ix[i];
		const char *nm = column(h->row[c->ix[i]].key, d, &l0);
		int shown = 0;
		for (; j < hi; j++) {
			const pmk__hier_row *r = &h->row[c->ix[j]];
			const char *x = column(r->key, d, &l);
			if (text_cmp(x, l, nm, l0))
				break;
			shown |= r->shown;
			if (keys_cmp(h, c->ix[j], first, d + 1) < 0)
				first = c->ix[j];
		}
		if (shown)
			widen(c, first);
		if (d + 1 < h->nkeys)
			measure(c, d + 1, i, j);
		i = j;
	}
}

static void headings(struct hctx *c, FILE *out)
{
	const pmk__hier *h = c->h;
	int ind = (h->nkeys - 1) * INDENT, hw = 0, n = 0;
	char dots[256];
	const char *sep = h->sep;
	memset(dots, '.', sizeof dots - 1);
	dots[sizeof dots - 1] = 0;
	/* the keys' names joined; the dots as wide as that or as the widest
	 * level with its indent */
	fprintf(out, "# %*s%s%s", sep ? 0 : ind, "", "Overhead", sep ? sep : "  ");
	if (h->samples)
		fprintf(out, "%12s%s", "Samples", sep ? sep : "  ");
	for (int i = 0; i < h->nkeys; i++)
		n += fprintf(out, "%s%s", i ? " / " : "", h->heads[i]);
	hw = n;
	for (int i = 0; i < h->nkeys; i++)
		if (i * INDENT + c->w[i] > hw)
			hw = i * INDENT + c->w[i];
	fprintf(out, "\n# %.*s%.8s", sep ? 0 : ind, dots, dots);
	if (h->samples)
		fprintf(out, "%s%.12s", sep ? sep : "..", dots);
	fprintf(out, "%s", sep ? sep : "  ");
	for (; hw > 0; hw -= 200)
		fprintf(out, "%.*s", hw > 200 ? 200 : hw, dots);
	fputs("\n#\n", out);
}

int pmk__hier_print(const pmk__hier *h, FILE *out)
{
	struct hctx c;
	size_t n = 0;
	int rc;
	memset(&c, 0, sizeof c);
	c.h = h;
	c.out = out;
	c.ix = malloc((h->nrow ? h->nrow : 1) * sizeof *c.ix);
	if (!c.ix)
		return -1;
	/* the entries perf has: where samples were taken */
	for (size_t i = 0; i < h->nrow; i++)
		if (h->row[i].self)
			c.ix[n++] = i;
	for (int k = 0; k < h->nkeys; k++)
		c.w[k] = (int)strlen(h->heads[k]);
	measure(&c, 0, 0, n);
	if (!h->quiet)
		headings(&c, out);
	rc = level(&c, 0, 0, n);
	free(c.ix);
	return rc;
}
