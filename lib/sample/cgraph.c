/*
 * cgraph.c: one entry's call chains as perf report --stdio draws them
 * (cgraph.h). The chains go into a tree of single frames; a node of the
 * drawing is a run of frames from one that a chain reaches down to the
 * first that ends a chain or has more than one child (the tree perf
 * builds, whatever order the chains came in). Siblings are drawn by
 * their period, most first (ties as perf meets them: cgraph.h); a sibling
 * under the minimum is left out:
 *  - graph: percentages of the event's total, minimum a share of it;
 *  - fractal: percentages of the parent's, minimum a share of that; what
 *    the kept siblings leave of it is a last line "[...]";
 *  - flat: each chain that ends somewhere, most first, its period above
 *    its frames from the root, a frame a line;
 *  - folded: the same chains, one line each, "VALUE a;b;c".
 * A level's lines: a '|' for each open level above (one whose later
 * siblings are still to come), "--P%--" before the first frame of a
 * node, and a line of the open levels alone before each node.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sample/cgraph.h"

struct cgn {
	pmk__cg_frame f;
	uint64_t cumul, hit;   /* period through it, ending in it */
	uint64_t ccount, hcount; /* the same in samples */
	int child, next, parent;
};

struct pmk__cg {
	struct cgn *n;
	size_t nn, cap;
};

void pmk__cg_opts_init(pmk__cg_opts *o)
{
	memset(o, 0, sizeof *o);
	o->mode = PMK_CG_GRAPH;
	o->value = PMK_CGV_PERCENT;
	o->order = -1;
	o->min_percent = 0.5;
}

int pmk__cg_parse(const char *arg, pmk__cg_opts *o, char *err, size_t n)
{
	static const char *const modes[] = {"graph", "fractal", "flat",
					    "folded", "none"};
	static const char *const values[] = {"percent", "period", "count"};
	int nums = 0;
	const char *p = arg;
	while (*p) {
		size_t l = strcspn(p, ",");
		char tok[32];
		int done = 0;
		if (l == 0 || l >= sizeof tok) {
			snprintf(err, n, "empty or overlong item in '%s'", arg);
			return -1;
		}
		memcpy(tok, p, l);
		tok[l] = 0;
		for (int i = 0; i < 5 && !done; i++)
			if (!strcmp(tok, modes[i]))
				o->mode = i, done = 1;
		for (int i = 0; i < 3 && !done; i++)
			if (!strcmp(tok, values[i]))
				o->value = i, done = 1;
		if (!done && (!strcmp(tok, "caller") || !strcmp(tok, "callee")))
			o->order = !strcmp(tok, "callee"), done = 1;
		/* the chains are keyed by function (perf's `address` key and
		 * its `branch` counts are not offered) */
		if (!done && !strcmp(tok, "function"))
			done = 1;
		if (!done && strchr("0123456789.", tok[0])) {
			char *end;
			double v = strtod(tok, &end);
			if (*end || v < 0 || (nums == 0 && v > 100) || nums > 1) {
				snprintf(err, n,
					 "'%s' in '%s': a minimum percentage "
					 "0-100, then a print limit",
					 tok, arg);
				return -1;
			}
			if (nums++ == 0)
				o->min_percent = v;
			else
				o->limit = (unsigned)v;
			done = 1;
		}
		if (!done) {
			snprintf(err, n,
				 "'%s' in '%s' is not a call-graph item (graph, "
				 "fractal, flat, folded, none; caller, callee; "
				 "function; percent, period, count; a minimum "
				 "percentage and a print limit)",
				 tok, arg);
			return -1;
		}
		p += l + (p[l] == ',');
	}
	return 0;
}

pmk__cg *pmk__cg_new(void)
{
	pmk__cg *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->cap = 64;
	t->n = calloc(t->cap, sizeof *t->n);
	if (!t->n) {
		free(t);
		return NULL;
	}
	t->nn = 1; /* the root: no frame */
	t->n[0].child = t->n[0].next = t->n[0].parent = -1;
	return t;
}

void pmk__cg_free(pmk__cg *t)
{
	if (t) {
		free(t->n);
		free(t);
	}
}

static int child_of(pmk__cg *t, int parent, const pmk__cg_frame *f)
{
	int i;
	for (i = t->n[parent].child; i >= 0; i = t->n[i].next)
		if (t->n[i].f.name == f->name || !strcmp(t->n[i].f.name, f->name))
			return i;
	if (t->nn == t->cap) {
		struct cgn *nv = realloc(t->n, t->cap * 2 * sizeof *nv);
		if (!nv)
			return -1;
		t->n = nv;
		t->cap *= 2;
	}
	i = (int)t->nn++;
	memset(&t->n[i], 0, sizeof t->n[i]);
	t->n[i].f = *f;
	t->n[i].child = -1;
	t->n[i].parent = parent;
	t->n[i].next = t->n[parent].child;
	t->n[parent].child = i;
	return i;
}

int pmk__cg_add(pmk__cg *t, const pmk__cg_frame *f, size_t n,
		uint64_t period, uint64_t count)
{
	int at = 0;
	if (!n)
		return 0;
	t->n[0].cumul += period;
	t->n[0].ccount += count;
	for (size_t k = 0; k < n; k++) {
		at = child_of(t, at, &f[k]);
		if (at < 0)
			return -1;
		t->n[at].cumul += period;
		t->n[at].ccount += count;
	}
	t->n[at].hit += period;
	t->n[at].hcount += count;
	return 0;
}

/* ---- drawing ---- */

struct draw {
	const pmk__cg *t;
	const pmk__cg_opts *o;
	FILE *out;
	int lm;		  /* left margin past perf's 12 columns */
	uint64_t min_abs; /* graph and flat: the minimum period */
};

/* the last frame of the node that starts at trie node `a` */
static int run_end(const pmk__cg *t, int a)
{
	while (t->n[a].hit == 0 && t->n[a].child >= 0 &&
	       t->n[t->n[a].child].next < 0)
		a = t->n[a].child;
	return a;
}

/* the order perf meets siblings in: the later DSO, the higher start
 * first; inlined frames by name, the later first */
static int met(const struct cgn *x, const struct cgn *y)
{
	int c;
	if (!x->f.inlined && !y->f.inlined) {
		if (x->f.dso != y->f.dso)
			return x->f.dso > y->f.dso ? -1 : 1;
		if (x->f.start != y->f.start)
			return x->f.start > y->f.start ? -1 : 1;
	}
	c = strcmp(x->f.name, y->f.name);
	return c > 0 ? -1 : c < 0;
}

static const pmk__cg *sort_t;
static int by_cumul(const void *a, const void *b)
{
	const struct cgn *x = &sort_t->n[*(const int *)a],
			 *y = &sort_t->n[*(const int *)b];
	if (x->cumul != y->cumul)
		return x->cumul > y->cumul ? -1 : 1;
	return met(x, y);
}

static int by_met(const void *a, const void *b)
{
	return met(&sort_t->n[*(const int *)a], &sort_t->n[*(const int *)b]);
}

/* The kept children of trie node `at` (the last frame of a node, or the
 * root), most first; a new array in *out, or NULL. */
static int kids(struct draw *d, int at, int **out)
{
	const pmk__cg *t = d->t;
	int nk = 0, cap = 0, *k = NULL;
	uint64_t min = d->min_abs;
	if (d->o->mode == PMK_CG_FRACTAL)
		min = (uint64_t)ceil((double)(t->n[at].cumul - t->n[at].hit) *
				     d->o->min_percent / 100.0);
	for (int i = t->n[at].child; i >= 0; i = t->n[i].next) {
		if (t->n[i].cumul < min)
			continue;
		if (nk == cap) {
			int *nv = realloc(k, (size_t)(cap = cap ? cap * 2 : 8) *
						 sizeof *nv);
			if (!nv) {
				free(k);
				*out = NULL;
				return 0;
			}
			k = nv;
		}
		k[nk++] = i;
	}
	sort_t = t;
	if (nk > 1)
		qsort(k, (size_t)nk, sizeof *k, by_cumul);
	*out = k;
	return nk;
}

static void margin(struct draw *d)
{
	fprintf(d->out, "            %*s", d->lm, "");
}

static void value(struct draw *d, uint64_t period, uint64_t count,
		  uint64_t total)
{
	switch (d->o->value) {
	case PMK_CGV_PERIOD:
		fprintf(d->out, "%llu", (unsigned long long)period);
		break;
	case PMK_CGV_COUNT:
		fprintf(d->out, "%llu", (unsigned long long)count);
		break;
	default:
		fprintf(d->out, "%.2f%%",
			total ? (double)period * 100.0 / (double)total : 0.0);
	}
}

static int bit(uint64_t mask, int i)
{
	return i < 64 && (mask >> i & 1);
}

static void graph_line(struct draw *d, int depth, uint64_t mask)
{
	margin(d);
	for (int i = 0; i < depth; i++)
		fputs(bit(mask, i) ? "|          " : "           ", d->out);
	fputc('\n', d->out);
}

static void frame_line(struct draw *d, const char *name, int depth,
		       uint64_t mask, int first, uint64_t period,
		       uint64_t count, uint64_t total)
{
	margin(d);
	for (int i = 0; i < depth; i++) {
		fputc(bit(mask, i) ? '|' : ' ', d->out);
		if (first && i == depth - 1) {
			fputs("--", d->out);
			value(d, period, count, total);
			fputs("--", d->out);
		} else
			fputs("          ", d->out);
	}
	fprintf(d->out, "%s\n", name);
}

static uint64_t clear(uint64_t mask, int i)
{
	return i < 64 ? mask & ~((uint64_t)1 << i) : mask;
}

/* The children of trie node `at` at `depth`; returns lines printed. */
static int graph(struct draw *d, int at, uint64_t total, int depth,
		 uint64_t mask)
{
	const pmk__cg *t = d->t;
	int *k, nk = kids(d, at, &k), lines = 0;
	uint64_t remaining = total, nmask = mask, ccum = 0;
	unsigned printed = 0;
	for (int j = 0; j < nk; j++) {
		int a = k[j], e = run_end(t, a), i = 0;
		remaining -= t->n[a].cumul < remaining ? t->n[a].cumul
						       : remaining;
		ccum += t->n[a].ccount;
		if (j == nk - 1 && (d->o->mode != PMK_CG_FRACTAL || !remaining))
			nmask = clear(nmask, depth - 1);
		graph_line(d, depth, mask);
		lines++;
		for (int f = a;; f = t->n[f].child) {
			frame_line(d, t->n[f].f.name, depth, nmask, i++ == 0,
				   t->n[a].cumul, t->n[a].ccount, total);
			lines++;
			if (f == e)
				break;
		}
		lines += graph(d, e,
			       d->o->mode == PMK_CG_FRACTAL
				   ? t->n[e].cumul - t->n[e].hit
				   : total,
			       depth + 1,
			       depth < 64 ? nmask | (uint64_t)1 << depth
					  : nmask);
		if (++printed == d->o->limit)
			break;
	}
	if (d->o->mode == PMK_CG_FRACTAL && remaining && remaining != total) {
		uint64_t ccount = t->n[at].ccount - t->n[at].hcount;
		nmask = clear(nmask, depth - 1);
		frame_line(d, "[...]", depth, nmask, 1, remaining,
			   ccount > ccum ? ccount - ccum : 0, total);
		lines++;
	}
	free(k);
	return lines;
}

static void draw_graph(struct draw *d, uint64_t total, uint64_t entry)
{
	const pmk__cg *t = d->t;
	int *k, nk = kids(d, 0, &k), at = 0, lines = 0;
	if (nk == 1 && t->n[k[0]].cumul == entry) {
		/* one chain start holding all of the entry: its first node's
		 * frames under "---", without a percentage */
		int a = k[0], e = run_end(t, a), printed = 0;
		unsigned n = 0;
		for (int f = a;; f = t->n[f].child) {
			if (f == a && d->o->skip_first) {
				if (f == e)
					break;
				continue;
			}
			if (!printed++) {
				margin(d);
				fputs("|\n", d->out);
				margin(d);
				fputs("---", d->out);
				d->lm += 3;
			} else
				margin(d);
			fprintf(d->out, "%s\n", t->n[f].f.name);
			lines++;
			if (++n == d->o->limit || f == e)
				break;
		}
		at = e;
	}
	free(k);
	if (d->o->mode == PMK_CG_FRACTAL)
		total = entry;
	lines += graph(d, at, total, 1, 1);
	if (lines)
		fputc('\n', d->out);
}

/* flat and folded: the frames that end chains, by their period ending
 * there, most first (ties: the order a depth-first walk meets them) */
struct ends {
	int *v;
	int n, cap;
};

static int collect(const pmk__cg *t, int at, uint64_t min, struct ends *e)
{
	int *k = NULL, nk = 0;
	for (int i = t->n[at].child; i >= 0; i = t->n[i].next)
		nk++;
	if (nk) {
		int j = 0;
		if (!(k = malloc((size_t)nk * sizeof *k)))
			return -1;
		for (int i = t->n[at].child; i >= 0; i = t->n[i].next)
			k[j++] = i;
		sort_t = t;
		qsort(k, (size_t)nk, sizeof *k, by_met);
		for (j = 0; j < nk; j++)
			if (collect(t, k[j], min, e) < 0) {
				free(k);
				return -1;
			}
		free(k);
	}
	if (at && t->n[at].hit && t->n[at].hit >= min) {
		if (e->n == e->cap) {
			int *nv = realloc(e->v, (size_t)(e->cap = e->cap
								 ? e->cap * 2
								 : 16) *
						    sizeof *nv);
			if (!nv)
				return -1;
			e->v = nv;
		}
		e->v[e->n++] = at;
	}
	return 0;
}

static const int *sort_ends;
static int by_hit(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	const struct cgn *x = &sort_t->n[sort_ends[i]],
			 *y = &sort_t->n[sort_ends[j]];
	if (x->hit != y->hit)
		return x->hit > y->hit ? -1 : 1;
	return i - j; /* the walk's order */
}

/* the frames from the root to trie node `at` (at most `max`, the
 * innermost kept) */
static int path(const pmk__cg *t, int at, int *buf, int max)
{
	int n = 0;
	for (int x = at; x > 0; x = t->n[x].parent)
		n++;
	if (n > max)
		n = max;
	for (int x = at, i = n; x > 0; x = t->n[x].parent)
		if (--i < n && i >= 0)
			buf[i] = x;
	return n;
}

static void draw_ends(struct draw *d, uint64_t total)
{
	const pmk__cg *t = d->t;
	struct ends e = {0};
	int buf[512];
	unsigned printed = 0;
	if (collect(t, 0, d->min_abs, &e) < 0) {
		free(e.v);
		return;
	}
	int *pos = malloc((size_t)(e.n ? e.n : 1) * sizeof *pos);
	if (!pos) {
		free(e.v);
		return;
	}
	for (int i = 0; i < e.n; i++)
		pos[i] = i;
	sort_t = t;
	sort_ends = e.v;
	if (e.n > 1)
		qsort(pos, (size_t)e.n, sizeof *pos, by_hit);
	for (int i = 0; i < e.n; i++) {
		int at = e.v[pos[i]], n = path(t, at, buf, 512);
		const struct cgn *x = &t->n[at];
		if (d->o->mode == PMK_CG_FLAT) {
			fputs("           ", d->out);
			value(d, x->cumul, x->ccount, total);
			fputc('\n', d->out);
			for (int j = 0; j < n; j++)
				fprintf(d->out, "                %s\n",
					t->n[buf[j]].f.name);
			fputc('\n', d->out);
		} else {
			value(d, x->hit, x->hcount, total);
			fputc(' ', d->out);
			for (int j = 0; j < n; j++)
				fprintf(d->out, "%s%s",
					j ? (d->o->sep ? d->o->sep : ";") : "",
					t->n[buf[j]].f.name);
			fputc('\n', d->out);
		}
		if (++printed == d->o->limit)
			break;
	}
	free(pos);
	free(e.v);
}

void pmk__cg_print(const pmk__cg *t, const pmk__cg_opts *o, uint64_t total,
		   uint64_t entry, FILE *out)
{
	struct draw d = {t, o, out, 0, 0};
	if (o->mode == PMK_CG_NONE)
		return;
	d.min_abs = (uint64_t)((double)total * (o->min_percent / 100.0));
	if (o->mode == PMK_CG_FLAT || o->mode == PMK_CG_FOLDED)
		draw_ends(&d, total);
	else
		draw_graph(&d, total, entry);
}
