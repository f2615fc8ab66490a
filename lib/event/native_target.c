/*
 * native_target.c: native strings and presets for a pmk_target. Picks the
 * PMU and its model ("cpu_core::X" and "adl_glc::X" address a hybrid's
 * PMU; a bare "X" the core PMU), asks source.c which source serves the
 * model, and hands the string down. Pure; calls only downward (sources,
 * preset.c).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/event/models.h"
#include "lib/event/native.h"
#include "lib/event/source.h"
#include "lib/event/target.h"
#include "lib/event/tbl.h"

static const struct pmk__pmu *core_pmu(const pmk_target *t)
{
	const char *name = pmk_target_core_pmu(t);
	return name ? pmk__target_pmu(t, name) : NULL;
}

static const char *pmu_model(const pmk_target *t, const struct pmk__pmu *p)
{
	if (p && p->model[0])
		return p->model;
	return t ? t->model : "";
}

/* The core PMU whose model is `canon`, else the first core PMU. */
static const struct pmk__pmu *pmu_for_model(const pmk_target *t,
					    const char *canon)
{
	for (int i = 0; t && i < t->npmu; i++) {
		const char *m, *c = NULL;
		if (!t->pmu[i].is_core)
			continue;
		m = pmu_model(t, &t->pmu[i]);
		if (pmk__source_for(m, &c) && c && !strcasecmp(c, canon))
			return &t->pmu[i];
	}
	return core_pmu(t);
}

int pmk__native_parse(const pmk_target *t, const char *s, int col0,
		      pmk_event *ev, pmk_diag *d)
{
	const char *sep = strstr(s, "::"), *rest = s, *model, *canon = NULL;
	const struct pmk__pmu *p = NULL;
	const pmk__source *src, *second;
	pmk_diag d2;
	int rc, rc2;

	if (sep) {
		char pre[64];
		size_t pl = (size_t)(sep - s);
		if (pl == 0 || pl >= sizeof pre || memchr(s, ':', pl))
			return PMK_ENOEVENT;
		memcpy(pre, s, pl);
		pre[pl] = 0;
		rest = sep + 2;
		p = pmk__target_pmu(t, pre);
		if (p) {
			model = pmu_model(t, p);
		} else {
			if (!pmk__source_for(pre, &canon))
				return PMK_ENOEVENT;
			model = canon;
			p = pmu_for_model(t, canon);
		}
	} else {
		p = core_pmu(t);
		model = pmu_model(t, p);
	}
	src = pmk__source_for(model, &canon);
	if (!src)
		return PMK_ENOEVENT;
	{
		const char *pname = p ? p->name : "cpu";
		uint32_t type = p ? p->type : PMK_TYPE_RAW;
		int c = col0 + (int)(rest - s);
		rc = src->encode(canon, pname, type, rest, c, ev, d);
		if (rc == 0)
			return 0;
		second = pmk__source_second(model, &canon);
		if (!second)
			return rc;
		pmk_diag_clear(&d2);
		if (d)
			d2 = *d;
		rc2 = second->encode(canon, pname, type, rest, c, ev,
				     d ? &d2 : NULL);
		if (rc2 == 0 || rc2 != PMK_ENOEVENT) {
			if (d && rc2)
				*d = d2;
			return rc2;
		}
	}
	return rc;
}

int pmk__preset_resolve(const pmk_target *t, const char *name, int col0,
			pmk_event *ev, pmk_diag *d)
{
	const struct pmk__pmu *p = core_pmu(t);
	return pmk__preset_resolve_model(pmk__model_find(pmu_model(t, p)),
					 p ? p->name : "cpu", name, col0, ev,
					 d);
}

static const char *target_model_name(const pmk_target *t, int i)
{
	return pmu_model(t, &t->pmu[i]);
}

int pmk__native_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	/* each distinct model of the core PMUs, once */
	for (int i = 0; t && i < t->npmu; i++) {
		const char *m, *canon = NULL;
		const pmk__source *src;
		int seen = 0, rc;
		if (!t->pmu[i].is_core)
			continue;
		m = target_model_name(t, i);
		for (int j = 0; j < i; j++)
			if (t->pmu[j].is_core &&
			    !strcmp(target_model_name(t, j), m))
				seen = 1;
		if (seen || !(src = pmk__source_for(m, &canon)))
			continue;
		if ((rc = src->foreach(canon, fn, arg)))
			return rc;
	}
	if (t && !core_pmu(t) && t->model[0]) {
		const char *canon = NULL;
		const pmk__source *src = pmk__source_for(t->model, &canon);
		if (src)
			return src->foreach(canon, fn, arg);
	}
	return 0;
}

int pmk__preset_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	return pmk__preset_foreach_model(
		pmk__model_find(pmu_model(t, core_pmu(t))), fn, arg);
}

int pmk_event_describe(const pmk_target *t, const char *str, char *buf,
		       unsigned long size)
{
	const char *sep, *rest = str, *model, *canon = NULL;
	const struct pmk__pmu *p;
	const pmk__source *src;
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
		model = p ? pmu_model(t, p) : pre;
	} else {
		model = pmu_model(t, core_pmu(t));
	}
	len = strcspn(rest, ":.");
	if (!(src = pmk__source_for(model, &canon)))
		return PMK_ENOEVENT;
	if (src->describe(canon, rest, len, buf, size) == 0)
		return 0;
	src = pmk__source_second(model, &canon);
	return src ? src->describe(canon, rest, len, buf, size) : PMK_ENOEVENT;
}
