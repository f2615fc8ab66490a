/*
 * native_target.c: the native.h entry points, taking the model and the
 * core PMU's name from a pmk_target and handing over to the model-based
 * functions of native.c and preset.c.
 */
#include <stddef.h>

#include "lib/event/native.h"
#include "lib/event/tbl.h"

static const pmk__model *target_model(const pmk_target *t)
{
	return t ? pmk__model_find(pmk_target_model(t)) : NULL;
}

static const char *target_core(const pmk_target *t)
{
	const char *core = t ? pmk_target_core_pmu(t) : NULL;
	return core ? core : "cpu";
}

int pmk__native_parse(const pmk_target *t, const char *s, int col0,
		      pmk_event *ev, pmk_diag *d)
{
	return pmk__native_parse_model(target_model(t), target_core(t), s, col0,
				       ev, d);
}

int pmk__preset_resolve(const pmk_target *t, const char *name, int col0,
			pmk_event *ev, pmk_diag *d)
{
	return pmk__preset_resolve_model(target_model(t), target_core(t), name,
					 col0, ev, d);
}

int pmk__native_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	return pmk__native_foreach_model(target_model(t), fn, arg);
}

int pmk__preset_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	return pmk__preset_foreach_model(target_model(t), fn, arg);
}
