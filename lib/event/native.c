/*
 * native.c: entry points of the model tables (see native.h).
 *
 * This first version knows no model: every native name is "not in a
 * table" (PMK_ENOEVENT), presets resolve only through their generic perf
 * equivalents, and nothing is listed. The model tables replace it.
 */
#include <string.h>

#include "lib/event/native.h"

int pmk__native_parse(const pmk_target *t, const char *s, int col0,
		      pmk_event *ev, pmk_diag *d)
{
	return PMK_ENOEVENT;
}

int pmk__preset_resolve(const pmk_target *t, const char *name, int col0,
			pmk_event *ev, pmk_diag *d)
{
	return PMK_ENOEVENT;
}

int pmk__native_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	return 0;
}

int pmk__preset_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg)
{
	return 0;
}

int pmk__model_known(const char *model)
{
	return 0;
}

const char *pmk__model_detect(const char *vendor, int family, int model)
{
	return NULL;
}
