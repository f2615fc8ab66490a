/*
 * list.c: every event name a target knows, for `pmkit list` and for the
 * "did you mean" hint of the parser; and where a preset's definition comes
 * from (pmk__event_preset_source), for `pmkit list --details` and its
 * JSON "source" field. Presets are listed only where they resolve on the
 * target's model (preset.c: PAPI's file, pmkit's table, the generic
 * events).
 */
#include <stdio.h>
#include <string.h>

#include "lib/event/generic.h"
#include "lib/event/native.h"
#include "lib/event/papi_csv.h"
#include "lib/event/source.h"
#include "lib/event/target.h"
#include "lib/event/tbl.h"
#include "lib/event/user.h"

struct fwd {
	int (*fn)(const pmk_event_info *info, void *arg);
	void *arg;
	const pmk_target *t;
};

static int from_generic(const struct pmk__generic *g, void *arg)
{
	struct fwd *f = arg;
	const char *core = pmk_target_core_pmu(f->t);
	pmk_event_info info = {g->name, g->kind,
			       g->kind == PMK_KIND_SOFTWARE ? "software"
			       : g->kind == PMK_KIND_TOOL   ? "tool"
			       : core			    ? core
							    : "cpu",
			       g->desc ? g->desc : ""};
	return f->fn(&info, f->arg);
}

static int from_user(const pmk_event *ev, const char *def, void *arg)
{
	struct fwd *f = arg;
	pmk_event_info info = {ev->name, PMK_KIND_USER, "user", def};
	return f->fn(&info, f->arg);
}

/* The core PMU's model, its table and its sources, as the parser resolves
 * a preset (native_target.c's pmk__preset_resolve). */
struct core_model {
	const char *pmu, *model;
	uint32_t type;
	const pmk__model *m;
	pmk__model_res r;
};

static void core_model(const pmk_target *t, struct core_model *c)
{
	const struct pmk__pmu *p = t ? pmk__target_core(t) : NULL;
	memset(c, 0, sizeof *c);
	c->pmu = p ? p->name : "cpu";
	c->type = p ? p->type : PMK_TYPE_RAW;
	if (!t)
		return;
	c->model = pmk__pmu_model(t, p);
	if (pmk__target_resolve(t, c->model, &c->r) != 0)
		memset(&c->r, 0, sizeof c->r);
	c->m = pmk__preset_model_find(c->model);
	if (c->r.canon)
		c->model = c->r.canon;
}

static int preset_fwd(const pmk_event_info *info, const pmk__preset_src *src,
		      void *arg)
{
	struct fwd *f = arg;
	(void)src;
	return f->fn(info, f->arg);
}

int pmk__event_preset_source(const pmk_target *t, const char *name,
			     pmk__preset_src *src)
{
	struct core_model c;
	pmk_event ev;
	core_model(t, &c);
	return pmk__preset_encode_from(PMK__PRESET_ANY, c.model, c.m, &c.r,
				       c.pmu, c.type, name, 1, &ev, src, NULL);
}

int pmk_event_foreach(const pmk_target *t,
		      int (*fn)(const pmk_event_info *info, void *arg),
		      void *arg)
{
	struct fwd f = {fn, arg, t};
	int rc;
	char name[PMK_EVENT_NAME_MAX + PMK_PMU_NAME_MAX];

	if ((rc = pmk__generic_foreach(from_generic, &f)) != 0)
		return rc;
	{
		struct core_model c;
		core_model(t, &c);
		rc = pmk__preset_foreach_src(c.model, c.m, &c.r, c.pmu, c.type,
					     preset_fwd, &f);
		if (rc)
			return rc;
	}
	for (int i = 0; t && i < t->npmu; i++) {
		const struct pmk__pmu *p = &t->pmu[i];
		for (int k = 0; k < p->nalias; k++) {
			pmk_event_info info = {name, PMK_KIND_PMU, p->name,
					       p->alias[k].terms};
			snprintf(name, sizeof name, "%s/%s/", p->name,
				 p->alias[k].name);
			if ((rc = fn(&info, arg)) != 0)
				return rc;
		}
	}
	if ((rc = pmk__native_foreach(t, fn, arg)) != 0)
		return rc;
	return pmk__user_foreach(from_user, &f);
}
