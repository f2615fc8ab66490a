/*
 * source.c: the one place that decides which source of native events
 * serves a model: libpfm4 when the installed libpfm4 knows the model,
 * else pmkit's own tables (source.h). Where both know a model, the tables
 * stand behind libpfm4 (pmk__source_second): the parser tries them when
 * libpfm4 refuses a string, for the vendors' dotted names
 * (INST_RETIRED.ANY_P) libpfm4 does not accept. Pure.
 */
#include <string.h>
#include <strings.h>

#include "lib/event/models.h"
#include "lib/event/source.h"

static const pmk__source *const order[] = {
    &pmk__source_pfm,
    &pmk__source_tables,
};
#define NSRC ((int)(sizeof order / sizeof *order))

const pmk__source *pmk__source_for(const char *model, const char **canon)
{
	for (int i = 0; model && *model && i < NSRC; i++) {
		const char *c = order[i]->model(model);
		if (c) {
			if (canon)
				*canon = c;
			return order[i];
		}
	}
	return NULL;
}

const pmk__source *pmk__source_second(const char *model, const char **canon)
{
	int first = 1;
	for (int i = 0; model && *model && i < NSRC; i++) {
		const char *c = order[i]->model(model);
		if (!c)
			continue;
		if (first) {
			first = 0;
			continue;
		}
		if (canon)
			*canon = c;
		return order[i];
	}
	return NULL;
}

struct each {
	int (*fn)(const char *model, const char *desc, const char *source,
		  void *arg);
	void *arg;
	int src;
};

static int each_model(const char *model, const char *desc, void *arg)
{
	struct each *e = arg;
	/* a model an earlier source serves is listed there */
	for (int i = 0; i < e->src; i++)
		if (order[i]->model(model))
			return 0;
	return e->fn(model, desc, order[e->src]->name, e->arg);
}

int pmk__source_models(int (*fn)(const char *model, const char *desc,
				 const char *source, void *arg),
		       void *arg)
{
	struct each e = {fn, arg, 0};
	for (e.src = 0; e.src < NSRC; e.src++) {
		int rc = order[e.src]->models(each_model, &e);
		if (rc)
			return rc;
	}
	return 0;
}

struct find {
	const char *name;
	size_t len;
	const char *except;
	const pmk__source *src;
	char *model;
	size_t size;
	int found;
};

static int find_model(const char *model, const char *desc, void *arg)
{
	struct find *f = arg;
	(void)desc;
	if (f->except && !strcasecmp(model, f->except))
		return 0;
	if (f->src->has_event(model, f->name, f->len)) {
		size_t n = strlen(model);
		if (n >= f->size)
			n = f->size - 1;
		memcpy(f->model, model, n);
		f->model[n] = 0;
		return 1;
	}
	return 0;
}

int pmk__source_event_elsewhere(const char *name, size_t len,
				const char *except, char *model, size_t size)
{
	struct find f = {name, len, except, NULL, model, size, 0};
	if (!size || !len)
		return PMK_ENOENT;
	/* the common models first: on x86 the tables', then libpfm4's. A
	 * libpfm4 build knows only its own architecture's PMUs and the
	 * tables are x86 models, so elsewhere (arm64) libpfm4's come first:
	 * an Arm machine is told of arm_ac57, not skl. */
#if defined(__x86_64__) || defined(__i386__)
	for (int i = NSRC - 1; i >= 0; i--) {
#else
	for (int i = 0; i < NSRC; i++) {
#endif
		f.src = order[i];
		if (order[i]->models(find_model, &f))
			return 0;
	}
	return PMK_ENOENT;
}

int pmk__model_known(const char *model)
{
	return pmk__source_for(model, NULL) != NULL ||
	       pmk__model_name_known(model);
}
