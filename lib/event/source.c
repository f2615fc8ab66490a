/*
 * source.c: the one place that decides which source of native events
 * serves a model: libpfm4 when the installed libpfm4 knows the model,
 * else pmkit's own tables (source.h). Where both know a model, the tables
 * stand behind libpfm4 (pmk__source_second): the parser tries them when
 * libpfm4 refuses a string, for the vendors' dotted names
 * (INST_RETIRED.ANY_P) libpfm4 does not accept. perf's event names
 * (src_perf.c) come last, for the names neither knows. Pure but for the
 * reading of perf's files there.
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

/* The first source (in `order`) that knows `model`, from index `from`. */
static int first_knowing(const char *model, int from, const char **canon)
{
	for (int i = from; model && *model && i < NSRC; i++) {
		const char *c = order[i]->model(model);
		if (c) {
			*canon = c;
			return i;
		}
	}
	return -1;
}

int pmk__source_resolve(const char *model, pmk__model_res *r)
{
	const char *canon = NULL, *c2 = NULL;
	int i, j;
	memset(r, 0, sizeof *r);
	/* a name one source knows ("zen4": the tables' short name) is
	 * resolved by its canonical name ("amd64_fam19h_zen4"), so that one
	 * model has one encoder whatever it is called */
	if ((i = first_knowing(model, 0, &canon)) < 0) {
		/* a model only perf's pmu-events describe (Alder Lake's
		 * cores: libpfm4 4.13 has no table for them): perf's names
		 * are its natives */
		if (!model || !pmk__source_perf.model(model))
			return PMK_ENOENT;
		r->src = &pmk__source_perf;
		r->canon = model;
		return 0;
	}
	if ((j = first_knowing(canon, 0, &c2)) >= 0 && j < i) {
		i = j;
		canon = c2;
	}
	r->src = order[i];
	r->canon = canon;
	if ((r->canon3 = pmk__source_perf.model(canon)) != NULL)
		r->third = &pmk__source_perf;
	for (j = 0; j < NSRC; j++) {
		const char *c = NULL;
		if (j == i)
			continue;
		if ((c = order[j]->model(canon)) ||
		    (c = order[j]->model(model))) {
			r->second = order[j];
			r->canon2 = c;
			break;
		}
	}
	return 0;
}

const pmk__source *pmk__source_for(const char *model, const char **canon)
{
	pmk__model_res r;
	if (pmk__source_resolve(model, &r) != 0)
		return NULL;
	if (canon)
		*canon = r.canon;
	return r.src;
}

const pmk__source *pmk__source_second(const char *model, const char **canon)
{
	pmk__model_res r;
	if (pmk__source_resolve(model, &r) != 0 || !r.second)
		return NULL;
	if (canon)
		*canon = r.canon2;
	return r.second;
}

/* perf's names for the model, after the others: tried when neither knew
 * the event, or when perf's JSON has this very name (the tables split
 * "l2_request_g1.all_no_prefetch" at its dot and refuse the unit mask,
 * where the whole is perf's event). PMK_ENOEVENT when it is not perf's. */
static int perf_names(const pmk__model_res *r, int others, const char *pmu,
		      uint32_t type, const char *s, int col0, pmk_event *ev,
		      pmk_diag *d)
{
	pmk_diag d3;
	int rc;
	if (!r->third)
		return PMK_ENOEVENT;
	if (others != PMK_ENOEVENT &&
	    !r->third->has_event(r->canon3, s, strcspn(s, ":")))
		return PMK_ENOEVENT;
	pmk_diag_clear(&d3);
	rc =
	    r->third->encode(r->canon3, pmu, type, s, col0, ev, d ? &d3 : NULL);
	if (rc != 0 && rc != PMK_ENOEVENT && d)
		*d = d3;
	return rc;
}

int pmk__source_encode(const pmk__model_res *r, const char *pmu, uint32_t type,
		       const char *s, int col0, pmk_event *ev, pmk_diag *d)
{
	pmk_diag d2;
	int rc, rc3;
	if (!r || !r->src)
		return PMK_ENOEVENT;
	rc = r->src->encode(r->canon, pmu, type, s, col0, ev, d);
	if (rc == 0)
		return rc;
	if (r->second) {
		/* the tables behind libpfm4: the vendors' dotted names,
		 * pmkit's own unit masks; their diagnostic only when they
		 * know the event */
		int rc2;
		pmk_diag_clear(&d2);
		if (d)
			d2 = *d;
		rc2 = r->second->encode(r->canon2, pmu, type, s, col0, ev,
					d ? &d2 : NULL);
		if (rc2 == 0)
			return 0;
		if (rc2 != PMK_ENOEVENT) {
			if (d)
				*d = d2;
			rc = rc2;
		}
	}
	rc3 = perf_names(r, rc, pmu, type, s, col0, ev, d);
	return rc3 == PMK_ENOEVENT ? rc : rc3;
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
		/* the common models first: on x86 the tables', then libpfm4's.
		 * A libpfm4 build knows only its own architecture's PMUs and
		 * the tables are x86 models, so elsewhere (arm64) libpfm4's
		 * come first: an Arm machine is told of arm_ac57, not skl. */
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
