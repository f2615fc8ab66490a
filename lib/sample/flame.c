/*
 * flame.c: a profile's call stacks as a flame graph (through the plot
 * module), and two profiles as a differential one: widths from the new
 * profile, colours from each path's change in share against the base.
 * Stacks merge by function name level by level, as folded stacks do
 * (consecutive [kernel] frames of a build without kernel symbols merge).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/core/plot.h"
#include "sample/profile.h"

struct ftree {
	pmk__flame_node *n;
	size_t nn, cap;
};

static int child_of(struct ftree *t, int parent, const char *name)
{
	int i;
	for (i = t->n[parent].child; i >= 0; i = t->n[i].next)
		if (t->n[i].name == name || !strcmp(t->n[i].name, name))
			return i;
	if (t->nn == t->cap) {
		size_t nc = t->cap * 2;
		pmk__flame_node *nv = realloc(t->n, nc * sizeof *nv);
		if (!nv)
			return -1;
		t->n = nv;
		t->cap = nc;
	}
	i = (int)t->nn++;
	t->n[i].name = name;
	t->n[i].value = 0;
	t->n[i].base = t->n[0].base >= 0 ? 0 : -1;
	t->n[i].child = -1;
	t->n[i].next = t->n[parent].child;
	t->n[parent].child = i;
	return i;
}

/* Add `p`'s stacks for event `ev` into `t`, into `value` or (`base`)
 * scaled by `scale`. */
static int add_profile(struct ftree *t, pmk_profile *p, int ev, int base,
		       double scale)
{
	for (size_t i = 0; i < p->nstk; i++) {
		const struct stack *s = &p->stk[i];
		double v = (double)s->samples[ev] * scale;
		int node = 0;
		const char *prev = NULL;
		if (!s->samples[ev])
			continue;
		if (base)
			t->n[0].base += v;
		else
			t->n[0].value += v;
		for (uint32_t k = s->n; k-- > 0;) {
			struct loc *l = &p->loc[p->frames[s->first + k]];
			pmk__loc_resolve(p, l, 0);
			if (prev && !strcmp(prev, "[kernel]") &&
			    !strcmp(l->func, "[kernel]"))
				continue;
			prev = l->func;
			node = child_of(t, node, l->func);
			if (node < 0)
				return PMK_ENOMEM;
			if (base)
				t->n[node].base += v;
			else
				t->n[node].value += v;
		}
	}
	return 0;
}

/* Children in name order, so that the picture does not depend on the
 * order stacks were read in. */
static int name_cmp(const void *a, const void *b)
{
	const pmk__flame_node *x = *(pmk__flame_node *const *)a,
			      *y = *(pmk__flame_node *const *)b;
	return strcmp(x->name, y->name);
}

static int sort_children(struct ftree *t, int i, int depth)
{
	pmk__flame_node **v;
	size_t n = 0, k = 0;
	if (depth > 4000)
		return 0;
	for (int c = t->n[i].child; c >= 0; c = t->n[c].next)
		n++;
	if (n > 1) {
		v = malloc(n * sizeof *v);
		if (!v)
			return PMK_ENOMEM;
		for (int c = t->n[i].child; c >= 0; c = t->n[c].next)
			v[k++] = &t->n[c];
		qsort(v, n, sizeof *v, name_cmp);
		t->n[i].child = (int)(v[0] - t->n);
		for (k = 0; k + 1 < n; k++)
			v[k]->next = (int)(v[k + 1] - t->n);
		v[n - 1]->next = -1;
		free(v);
	}
	for (int c = t->n[i].child; c >= 0; c = t->n[c].next)
		if (sort_children(t, c, depth + 1) < 0)
			return PMK_ENOMEM;
	return 0;
}

int pmk_profile_flamegraph(pmk_profile *p, pmk_profile *base,
			   const char *event, const char *title, FILE *out)
{
	struct ftree t;
	pmk__flame_opts o;
	int ev = pmk__profile_event_index(p, event), bev = 0, rc;
	if (ev < 0)
		return PMK_ENOEVENT;
	if (base) {
		bev = pmk__profile_event_index(base, event);
		if (bev < 0)
			return PMK_ENOEVENT;
	}
	t.cap = 1024;
	t.nn = 1;
	t.n = malloc(t.cap * sizeof *t.n);
	if (!t.n)
		return PMK_ENOMEM;
	t.n[0].name = "all";
	t.n[0].value = 0;
	t.n[0].base = base ? 0 : -1;
	t.n[0].child = t.n[0].next = -1;
	rc = add_profile(&t, p, ev, 0, 1.0);
	if (!rc && base) {
		double a = (double)base->st.samples[bev],
		       b = (double)p->st.samples[ev];
		rc = add_profile(&t, base, bev, 1, a > 0 ? b / a : 0);
	}
	if (!rc)
		rc = sort_children(&t, 0, 0);
	if (!rc) {
		memset(&o, 0, sizeof o);
		o.title = title ? title : base ? "Differential flame graph"
					       : "Flame graph";
		o.unit = "samples";
		o.diff = base != NULL;
		rc = pmk__plot_flame(out, &o, t.n, t.nn);
	}
	free(t.n);
	return rc;
}
