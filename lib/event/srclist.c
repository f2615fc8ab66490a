/*
 * srclist.c: sources' listings of models, made once and kept (srclist.h).
 * One listing is an array of event infos whose strings live in one block;
 * it is built outside the lock and published under it, and never freed
 * (reachable from `kept` until the process exits), so readers iterate it
 * without holding the lock.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event/srclist.h"

enum { SRCLIST_MAX = 8 };

struct listing {
	const pmk__source *src;
	char *model;
	pmk_event_info *ev;
	size_t n;
	char *text; /* every string of ev[] */
};

static struct listing kept[SRCLIST_MAX];
static int nkept;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- building a listing: the strings first, the pointers after ---- */
struct build {
	pmk_event_info *ev;
	size_t n, cap;
	size_t *off; /* 3 offsets into text per event: name, pmu, desc */
	char *text;
	size_t len, tcap;
	int failed;
};

enum { NONE = -1 }; /* the offset of a NULL string */

static size_t put(struct build *b, const char *s)
{
	size_t n, at = b->len;
	if (!s)
		return (size_t)NONE;
	n = strlen(s) + 1;
	if (b->len + n > b->tcap) {
		size_t cap = b->tcap ? b->tcap * 2 : 16384;
		char *t;
		while (cap < b->len + n)
			cap *= 2;
		if (!(t = realloc(b->text, cap))) {
			b->failed = 1;
			return 0;
		}
		b->text = t;
		b->tcap = cap;
	}
	memcpy(b->text + at, s, n);
	b->len += n;
	return at;
}

static int collect(const pmk_event_info *info, void *arg)
{
	struct build *b = arg;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		pmk_event_info *ev = realloc(b->ev, cap * sizeof *ev);
		size_t *off;
		if (ev)
			b->ev = ev;
		off = ev ? realloc(b->off, cap * 3 * sizeof *off) : NULL;
		if (!off) {
			b->failed = 1;
			return 1; /* stop: the listing is not kept */
		}
		b->off = off;
		b->cap = cap;
	}
	b->ev[b->n] = *info;
	b->off[3 * b->n] = put(b, info->name);
	b->off[3 * b->n + 1] = put(b, info->pmu);
	b->off[3 * b->n + 2] = put(b, info->desc);
	b->n++;
	return b->failed;
}

/* A listing of `model` made now, or 0 when out of memory. */
static int build(const pmk__source *src, const char *model,
		 struct listing *out)
{
	struct build b;
	memset(&b, 0, sizeof b);
	src->foreach(model, collect, &b);
	out->model = strdup(model);
	if (b.failed || !out->model) {
		free(b.ev), free(b.off), free(b.text), free(out->model);
		return 0;
	}
	for (size_t i = 0; i < b.n; i++) {
		const char **s[3] = {&b.ev[i].name, &b.ev[i].pmu,
				     &b.ev[i].desc};
		for (int k = 0; k < 3; k++)
			*s[k] = b.off[3 * i + k] == (size_t)NONE
				    ? NULL
				    : b.text + b.off[3 * i + k];
	}
	free(b.off);
	out->src = src;
	out->ev = b.ev;
	out->n = b.n;
	out->text = b.text;
	return 1;
}

static const struct listing *find(const pmk__source *src, const char *model)
{
	for (int i = 0; i < nkept; i++)
		if (kept[i].src == src && !strcmp(kept[i].model, model))
			return &kept[i];
	return NULL;
}

int pmk__srclist_foreach(const pmk__source *src, const char *model,
			 pmk__info_fn fn, void *arg)
{
	const struct listing *l;
	struct listing made;
	int rc;
	if (!src || !model)
		return 0;
	pthread_mutex_lock(&lock);
	l = find(src, model);
	rc = nkept < SRCLIST_MAX;
	pthread_mutex_unlock(&lock);
	if (!l && !rc) /* every slot taken: no more kept */
		return src->foreach(model, fn, arg);
	if (!l) {
		if (!build(src, model, &made))
			return src->foreach(model, fn, arg);
		pthread_mutex_lock(&lock);
		l = find(src, model); /* another thread may have been first */
		if (!l && nkept < SRCLIST_MAX) {
			kept[nkept] = made;
			l = &kept[nkept++];
		} else {
			free(made.ev), free(made.text), free(made.model);
		}
		pthread_mutex_unlock(&lock);
		if (!l)
			return src->foreach(model, fn, arg);
	}
	for (size_t i = 0; i < l->n; i++)
		if ((rc = fn(&l->ev[i], arg)) != 0)
			return rc;
	return 0;
}
