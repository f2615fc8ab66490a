/*
 * evlist.c: the grammar of an event list, as `-e` takes it
 * (pmkit/event.h, docs/events.md):
 *
 *   list  := item ( ',' item )*        commas inside pmu/.../ terms belong
 *   item  := event | '{' event | event '}' [ ':' mods ] | '{' event '}' ...
 *
 * `{a,b}` is one kernel group; `{a,b}:u` gives every member the group's
 * modifiers, as perf does; a tracepoint glob ("syscalls:sys_enter_*",
 * "sched:sched_*:u") becomes one event per matching tracepoint, in name
 * order, inside its group if it is in one. On a hybrid (two or more core
 * PMUs), a generic hardware or cache event outside a group ("cycles",
 * "instructions:u") becomes one event per core PMU, "cpu_core/cycles/" and
 * "cpu_atom/cycles/", as perf counts it there (the kernel would give the
 * bare name to one core type only). Every column, of a grammar
 * error or of an error of one event, is counted over the whole list.
 *
 * The walker encodes nothing itself: it hands each event string to the
 * caller (stat and record parse with pmk_event_parse, stat --sim with the
 * simulator's parser); pmk_event_list_parse() is the walker with
 * pmk_event_parse() behind it. Reads the target's tracefs for globs only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/diag.h"
#include "lib/event/generic.h"
#include "lib/event/target.h"
#include "pmkit/event.h"

#define ITEM_MAX (PMK_EVENT_NAME_MAX * 2)

struct walk {
	const pmk_target *t;
	const char *list;
	int (*fn)(const pmk_event_item *item, void *arg, pmk_diag *d);
	void *arg;
	pmk_diag *d;
	int group; /* index of the open group, -1 for none */
	int ngroups;
	int group_col;	   /* column of the open group's '{' */
	int group_started; /* an event of the open group was given */
	char gmods[64];	   /* the open group's modifiers, "" for none */
	int gmods_col;	   /* their column (after "}:") */
};

/* End of one item of list[start..]: the next ',' outside pmu/.../ terms
 * (the '/' toggles), or the end. */
static size_t item_end(const char *list, size_t i)
{
	int in_terms = 0;
	for (; list[i] && (in_terms || list[i] != ','); i++)
		if (list[i] == '/')
			in_terms = !in_terms;
	return i;
}

/* The '}' of an item (outside terms), or NULL. */
static const char *item_close(const char *s, size_t n)
{
	int in_terms = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '/')
			in_terms = !in_terms;
		else if (s[i] == '}' && !in_terms)
			return s + i;
	}
	return NULL;
}

/* Map an event's own diagnostic (columns of `item->str`) onto the list:
 * the text written in the list keeps its place; a column in the
 * modifiers appended from the group points at them after the '}'. */
static void map_column(const struct walk *w, const pmk_event_item *it,
		       int textlen, pmk_diag *d)
{
	if (d->column < 1)
		d->column = 1;
	if (d->column <= textlen + 1 || !it->mods_column)
		d->column += it->column - 1;
	else
		d->column = it->mods_column + (d->column - textlen - 2);
	snprintf(d->input, sizeof d->input, "%s", w->list);
}

static int emit(struct walk *w, pmk_event_item *it, int textlen)
{
	pmk_diag mine;
	pmk_diag *d = w->d ? w->d : &mine;
	int rc;
	pmk_diag_clear(d);
	rc = w->fn(it, w->arg, d);
	if (rc && d->code)
		map_column(w, it, textlen, d);
	if (w->group >= 0)
		w->group_started = 1;
	return rc;
}

static int fail(struct walk *w, int code, int col, const char *hint,
		const char *msg)
{
	if (w->d) {
		pmk_diag_clear(w->d);
		pmk__diag_set(w->d, code, col, 1, hint, "%s", msg);
		snprintf(w->d->input, sizeof w->d->input, "%s", w->list);
	}
	return code;
}

struct tp_names {
	char (*name)[PMK_EVENT_NAME_MAX];
	int n, cap;
};

static int tp_add(const char *name, uint64_t id, void *arg)
{
	struct tp_names *g = arg;
	(void)id;
	if (g->n < g->cap)
		snprintf(g->name[g->n], sizeof g->name[0], "%s", name);
	g->n++;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The event string of `text` (n chars) with the group's modifiers. */
static int compose(const struct walk *w, const char *text, size_t n,
		   const char *rest, char *out, size_t size)
{
	int len = snprintf(out, size, "%.*s%s%s%s", (int)n, text, rest,
			   w->gmods[0] ? ":" : "", w->gmods);
	return len < 0 || (size_t)len >= size ? -1 : 0;
}

/* One item of an expansion (a glob's match, a hybrid's core PMU) of the
 * `n` chars written at `col`: an error points at them as written. */
static int emit_expanded(struct walk *w, pmk_event_item *it, int len, int col,
			 size_t n)
{
	int rc = emit(w, it, len);
	if (rc && w->d && w->d->code) {
		w->d->column = col;
		w->d->length = (int)n;
	}
	return rc;
}

/* A hybrid's generic hardware or cache event outside a group: one item
 * per core PMU, "PMU/NAME/MODS" (perf's names on a hybrid). 1 when it
 * was expanded (`*rc` its result), 0 when it is not such an event. */
static int hybrid(struct walk *w, const char *text, size_t n, int col,
		  int *rc)
{
	char base[PMK_EVENT_NAME_MAX], buf[ITEM_MAX];
	const char *colon = memchr(text, ':', n);
	size_t bl = colon ? (size_t)(colon - text) : n;
	struct pmk__generic g;
	pmk_event_item it;
	if (!w->t || w->group >= 0 || bl == 0 || bl >= sizeof base ||
	    pmk__target_ncore(w->t) < 2)
		return 0;
	memcpy(base, text, bl);
	base[bl] = 0;
	if (pmk__generic_find_hw(base, &g) != 0)
		return 0;
	*rc = 0;
	for (int i = 0; i < w->t->npmu && !*rc; i++) {
		const struct pmk__pmu *p = &w->t->pmu[i];
		int len;
		if (!p->is_core)
			continue;
		len = snprintf(buf, sizeof buf, "%s/%s/%.*s", p->name, base,
			       (int)(colon ? n - bl - 1 : 0),
			       colon ? colon + 1 : "");
		if (len < 0 || (size_t)len >= sizeof buf)
			return *rc = fail(w, PMK_ERANGE, col, NULL,
					  "event string too long"),
			       1;
		memset(&it, 0, sizeof it);
		it.str = buf;
		it.column = col;
		it.group = -1;
		*rc = emit_expanded(w, &it, len, col, n);
	}
	return 1;
}

/* One event of the list: `text` (n chars, braces gone) at `col`. A
 * tracepoint glob becomes each match; `last` marks the group's end. */
static int event(struct walk *w, const char *text, size_t n, int col, int last)
{
	char buf[ITEM_MAX], pat[PMK_EVENT_NAME_MAX];
	pmk_event_item it;
	const char *colon = memchr(text, ':', n), *end;
	struct tp_names g = {NULL, 0, 0};
	int rc = 0;

	memset(&it, 0, sizeof it);
	it.str = buf;
	it.column = col;
	it.group = w->group;
	it.group_first = w->group >= 0 && !w->group_started;
	it.mods_column = w->gmods[0] ? w->gmods_col : 0;
	if (n == 0)
		return fail(w, PMK_ESYNTAX, col,
			    "remove the extra ',' or name an event",
			    "empty event name");
	end = colon ? memchr(colon + 1, ':', n - (size_t)(colon + 1 - text))
		    : NULL;
	if (!end)
		end = text + n;
	if (w->t && colon && colon > text &&
	    (size_t)(end - text) < sizeof pat &&
	    (memchr(text, '*', (size_t)(end - text)) ||
	     memchr(text, '?', (size_t)(end - text)) ||
	     memchr(text, '[', (size_t)(end - text)))) {
		snprintf(pat, sizeof pat, "%.*s", (int)(end - text), text);
		pmk_tracepoint_foreach(w->t, pat, tp_add, &g);
	}
	if (g.n == 0 && hybrid(w, text, n, col, &rc))
		return rc;
	if (g.n == 0) { /* not a glob, or one matching nothing: the
			   event's parser names the error */
		if (compose(w, text, n, "", buf, sizeof buf) != 0)
			return fail(w, PMK_ERANGE, col, NULL,
				    "event string too long");
		it.group_last = last;
		return emit(w, &it, (int)n);
	}
	g.cap = g.n;
	g.n = 0;
	if (!(g.name = calloc((size_t)g.cap, sizeof *g.name)))
		return fail(w, PMK_ENOMEM, col, NULL,
			    "out of memory expanding a tracepoint glob");
	pmk_tracepoint_foreach(w->t, pat, tp_add, &g);
	if (g.n > g.cap)
		g.n = g.cap; /* tracefs grew between the two walks */
	qsort(g.name, (size_t)g.n, sizeof *g.name, name_cmp);
	for (int i = 0; i < g.n && !rc; i++) {
		char rest[ITEM_MAX];
		snprintf(rest, sizeof rest, "%.*s",
			 (int)(n - (size_t)(end - text)), end);
		if (compose(w, g.name[i], strlen(g.name[i]), rest, buf,
			    sizeof buf) != 0) {
			rc = fail(w, PMK_ERANGE, col, NULL,
				  "event string too long");
			break;
		}
		it.group_last = last && i == g.n - 1;
		it.group_first = w->group >= 0 && !w->group_started;
		rc = emit_expanded(w, &it, (int)strlen(buf), col, n);
	}
	free(g.name);
	return rc;
}

/* The group opened by the '{' at list[at]: its modifiers ("}:u" gives
 * "u") and their column. 0, or -1 when the modifiers are too long. */
static int group_mods(struct walk *w, size_t at)
{
	int in_terms = 0;
	size_t k, e;
	w->gmods[0] = 0;
	w->gmods_col = 0;
	for (k = at; w->list[k] && (in_terms || w->list[k] != '}'); k++)
		if (w->list[k] == '/')
			in_terms = !in_terms;
	if (w->list[k] != '}' || w->list[k + 1] != ':')
		return 0;
	k += 2;
	e = item_end(w->list, k);
	while (e > k && w->list[e - 1] == ' ')
		e--;
	if (e - k >= sizeof w->gmods)
		return -1;
	/* perf's weak-group flag W (at either end): pmkit's groups are weak
	 * already (a group the kernel refuses is split into its events,
	 * counted in pmk_eventset_groups), so it is taken and dropped */
	while (e > k && w->list[k] == 'W')
		k++;
	while (e > k && w->list[e - 1] == 'W')
		e--;
	snprintf(w->gmods, sizeof w->gmods, "%.*s", (int)(e - k), w->list + k);
	w->gmods_col = (int)k + 1;
	return 0;
}

int pmk_event_list_walk(const pmk_target *t, const char *list,
			int (*fn)(const pmk_event_item *item, void *arg,
				  pmk_diag *d),
			void *arg, pmk_diag *d)
{
	struct walk w;
	size_t i = 0, n;
	int rc;

	if (d)
		pmk_diag_clear(d);
	if (!list || !fn)
		return fail(&(struct walk){.d = d, .list = ""}, PMK_EINVAL, 0,
			    NULL, "no event list");
	memset(&w, 0, sizeof w);
	w.t = t;
	w.list = list;
	w.fn = fn;
	w.arg = arg;
	w.d = d;
	w.group = -1;
	n = strlen(list);
	for (;;) {
		size_t start, end;
		const char *text, *close;
		int col, last = 0;
		while (list[i] == ' ')
			i++;
		start = i;
		end = item_end(list, i);
		i = end;
		while (end > start && list[end - 1] == ' ')
			end--;
		text = list + start;
		col = (int)start + 1;
		if (*text == '{' && end > start) {
			if (w.group >= 0)
				return fail(
				    &w, PMK_ESYNTAX, col,
				    "close the group first: {a,b},{c,d}",
				    "groups do not nest");
			w.group = w.ngroups++;
			w.group_col = col;
			w.group_started = 0;
			if (group_mods(&w, start) != 0)
				return fail(&w, PMK_ERANGE, col, NULL,
					    "the group's modifiers are too "
					    "long");
			text++;
			col++;
		}
		close = item_close(text, (size_t)(list + end - text));
		if (close) {
			const char *after = close + 1;
			int acol = col + (int)(after - text);
			if (w.group < 0)
				return fail(&w, PMK_ESYNTAX,
					    col + (int)(close - text),
					    "open the group with '{': {a,b}",
					    "'}' without '{'");
			if (after < list + end && *after != ':')
				return fail(
				    &w, PMK_ESYNTAX, acol,
				    "modifiers follow the group: {a,b}:u",
				    "unexpected text after '}'");
			if (after < list + end && after + 1 == list + end)
				return fail(
				    &w, PMK_ESYNTAX, acol + 1,
				    "modifiers follow the group: {a,b}:u",
				    "empty modifier");
			last = 1;
		}
		rc = event(&w, text,
			   (size_t)((close ? close : list + end) - text), col,
			   last);
		if (rc)
			return rc;
		if (last) {
			w.group = -1;
			w.gmods[0] = 0;
			w.gmods_col = 0;
		}
		if (i >= n)
			break;
		i++; /* the comma */
	}
	if (w.group >= 0)
		return fail(&w, PMK_ESYNTAX, w.group_col,
			    "close the group: {a,b}", "'{' without '}'");
	return 0;
}

/* ---- pmk_event_list: the walker with pmk_event_parse() behind it ---- */

struct pmk_event_list {
	const pmk_target *t;
	int n, cap;
	pmk_event *ev;
	int *group; /* each event's group, -1 for none */
	int ngroups;
};

static int add_parsed(const pmk_event_item *it, void *arg, pmk_diag *d)
{
	struct pmk_event_list *l = arg;
	int rc;
	if (l->n == l->cap) {
		int nc = l->cap ? l->cap * 2 : 16;
		pmk_event *ev = realloc(l->ev, sizeof *ev * (size_t)nc);
		int *g;
		if (!ev)
			return pmk__diag_set(d, PMK_ENOMEM, 1, 1, NULL,
					     "out of memory");
		l->ev = ev;
		if (!(g = realloc(l->group, sizeof *g * (size_t)nc)))
			return pmk__diag_set(d, PMK_ENOMEM, 1, 1, NULL,
					     "out of memory");
		l->group = g;
		l->cap = nc;
	}
	if ((rc = pmk_event_parse(l->t, it->str, &l->ev[l->n], d)) != 0)
		return rc;
	l->group[l->n++] = it->group;
	if (it->group >= l->ngroups)
		l->ngroups = it->group + 1;
	return 0;
}

int pmk_event_list_parse(const pmk_target *t, const char *list,
			 pmk_event_list **out, pmk_diag *d)
{
	pmk_event_list *l;
	int rc;
	if (!out)
		return PMK_EINVAL;
	*out = NULL;
	if (!t)
		return fail(&(struct walk){.d = d, .list = list ? list : ""},
			    PMK_EINVAL, 0, NULL, "no target");
	if (!(l = calloc(1, sizeof *l)))
		return PMK_ENOMEM;
	l->t = t;
	rc = pmk_event_list_walk(t, list, add_parsed, l, d);
	if (rc) {
		pmk_event_list_free(l);
		return rc < 0 ? rc : PMK_EINVAL;
	}
	*out = l;
	return 0;
}

int pmk_event_list_count(const pmk_event_list *l)
{
	return l ? l->n : 0;
}

const pmk_event *pmk_event_list_event(const pmk_event_list *l, int i,
				      int *group)
{
	if (!l || i < 0 || i >= l->n)
		return NULL;
	if (group)
		*group = l->group[i];
	return &l->ev[i];
}

int pmk_event_list_groups(const pmk_event_list *l)
{
	return l ? l->ngroups : 0;
}

void pmk_event_list_free(pmk_event_list *l)
{
	if (!l)
		return;
	free(l->ev);
	free(l->group);
	free(l);
}
