/*
 * native_target.c: native strings and presets for a pmk_target. Picks the
 * PMU and its model ("cpu_core::X" and "adl_glc::X" address a hybrid's
 * PMU; a bare "X" the core PMU), has the model resolved to its sources
 * once per target (pmk__target_resolve), and hands the string down to the
 * source (pmk__source_encode). A preset's natives take the same way
 * (preset.c). Pure; calls only downward.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/event/models.h"
#include "lib/event/native.h"
#include "lib/event/source.h"
#include "lib/event/srclist.h"
#include "lib/event/target.h"
#include "lib/event/tbl.h"

/* The core PMU whose model resolves to `canon`, else the core PMU. */
static const struct pmk__pmu *pmu_for_model(const pmk_target *t,
					    const char *canon)
{
	for (int i = 0; t && i < t->npmu; i++) {
		const char *m = pmk__pmu_model(t, &t->pmu[i]);
		pmk__model_res r;
		if (!t->pmu[i].is_core)
			continue;
		if (pmk__target_resolve(t, m, &r) == 0 &&
		    !strcasecmp(r.canon, canon))
			return &t->pmu[i];
	}
	return pmk__target_core(t);
}

int pmk__native_parse(const pmk_target *t, const char *s, int col0,
		      pmk_event *ev, pmk_diag *d)
{
	const char *sep = strstr(s, "::"), *rest = s, *model;
	const struct pmk__pmu *p = NULL;
	pmk__model_res r;
	/* the model named before "::": r may point into it until the
	 * encoding below, so it lives as long as r */
	char pre[64];

	if (sep) {
		size_t pl = (size_t)(sep - s);
		if (pl == 0 || pl >= sizeof pre || memchr(s, ':', pl))
			return PMK_ENOEVENT;
		memcpy(pre, s, pl);
		pre[pl] = 0;
		rest = sep + 2;
		if ((p = pmk__target_pmu(t, pre)) != NULL) {
			model = pmk__pmu_model(t, p);
			if (pmk__target_resolve(t, model, &r) != 0)
				return PMK_ENOEVENT;
		} else {
			if (pmk__target_resolve(t, pre, &r) != 0)
				return PMK_ENOEVENT;
			p = pmu_for_model(t, r.canon);
		}
	} else {
		p = pmk__target_core(t);
		model = pmk__pmu_model(t, p);
		if (pmk__target_resolve(t, model, &r) != 0)
			return PMK_ENOEVENT;
	}
	return pmk__source_encode(&r, p ? p->name : "cpu",
				  p ? p->type : PMK_TYPE_RAW, rest,
				  col0 + (int)(rest - s), ev, d);
}

int pmk__preset_resolve(const pmk_target *t, const char *name, int col0,
			pmk_event *ev, pmk_diag *d)
{
	const struct pmk__pmu *p = pmk__target_core(t);
	const char *model = pmk__pmu_model(t, p);
	pmk__model_res r;
	/* the model's mapping (pmkit's tables hold them), its natives
	 * encoded by the source that serves the model, as the same strings
	 * would be alone */
	pmk__target_resolve(t, model, &r);
	return pmk__preset_encode(pmk__preset_model_find(model), &r,
				  p ? p->name : "cpu",
				  p ? p->type : PMK_TYPE_RAW, name, col0, ev, d);
}

int pmk__native_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	pmk__model_res r;
	/* each distinct model of the core PMUs, once */
	for (int i = 0; t && i < t->npmu; i++) {
		const char *m;
		int seen = 0, rc;
		if (!t->pmu[i].is_core)
			continue;
		m = pmk__pmu_model(t, &t->pmu[i]);
		for (int j = 0; j < i; j++)
			if (t->pmu[j].is_core &&
			    !strcmp(pmk__pmu_model(t, &t->pmu[j]), m))
				seen = 1;
		if (seen || pmk__target_resolve(t, m, &r) != 0)
			continue;
		if ((rc = pmk__srclist_foreach(r.src, r.canon, fn, arg)))
			return rc;
	}
	if (t && !pmk__target_core(t) && t->model[0] &&
	    pmk__target_resolve(t, t->model, &r) == 0)
		return pmk__srclist_foreach(r.src, r.canon, fn, arg);
	return 0;
}

int pmk__preset_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	return pmk__preset_foreach_model(
		pmk__preset_model_find(pmk__pmu_model(t, pmk__target_core(t))),
		fn, arg);
}

int pmk_event_describe(const pmk_target *t, const char *str, char *buf,
		       unsigned long size)
{
	const char *sep, *rest = str, *model;
	const struct pmk__pmu *p;
	pmk__model_res r;
	char pre[64];
	size_t len;
	if (!t || !str || !buf || !size)
		return PMK_EINVAL;
	sep = strstr(str, "::");
	if (sep) {
		size_t pl = (size_t)(sep - str);
		if (pl == 0 || pl >= sizeof pre)
			return PMK_ENOEVENT;
		memcpy(pre, str, pl);
		pre[pl] = 0;
		rest = sep + 2;
		p = pmk__target_pmu(t, pre);
		model = p ? pmk__pmu_model(t, p) : pre;
	} else {
		model = pmk__pmu_model(t, pmk__target_core(t));
	}
	len = strcspn(rest, ":.");
	if (pmk__target_resolve(t, model, &r) != 0)
		return PMK_ENOEVENT;
	if (r.src->describe(r.canon, rest, len, buf, size) == 0)
		return 0;
	return r.second ? r.second->describe(r.canon2, rest, len, buf, size)
			: PMK_ENOEVENT;
}
