/*
 * list.c: every event name a target knows, for `pmkit list` and for the
 * "did you mean" hint of the parser.
 */
#include <stdio.h>

#include "lib/event/generic.h"
#include "lib/event/native.h"
#include "lib/event/target.h"
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
			       : core                       ? core
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

int pmk_event_foreach(const pmk_target *t,
		      int (*fn)(const pmk_event_info *info, void *arg),
		      void *arg)
{
	struct fwd f = {fn, arg, t};
	int rc;
	char name[PMK_EVENT_NAME_MAX + PMK_PMU_NAME_MAX];

	if ((rc = pmk__generic_foreach(from_generic, &f)) != 0)
		return rc;
	if ((rc = pmk__preset_foreach(t, fn, arg)) != 0)
		return rc;
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
