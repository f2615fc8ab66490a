/*
 * catalog.c: the public listings of pmkit/catalog.h over the event layer's
 * internals (source.c's models, list.c's preset origins, preset.c's PAPI
 * file). Nothing in lib/event calls back into this file.
 */
#include <string.h>

#include "pmkit/catalog.h"
#include "pmkit/error.h"
#include "lib/event/papi_csv.h"
#include "lib/event/source.h"

int pmk_model_foreach(int (*fn)(const char *model, const char *desc,
				const char *source, void *arg),
		      void *arg)
{
	return pmk__source_models(fn, arg);
}

int pmk_model_known(const char *model)
{
	return model && pmk__model_known(model);
}

int pmk_preset_origin_get(const pmk_target *t, const char *name,
			  pmk_preset_origin *o)
{
	pmk__preset_src src;
	int rc;

	if (o->size && o->size != sizeof *o)
		return PMK_EINVAL;
	rc = pmk__event_preset_source(t, name, &src);
	if (rc)
		return rc;
	o->size = sizeof *o;
	o->source = pmk__preset_from_name(src.from);
	_Static_assert(sizeof o->where == sizeof src.where, "where");
	_Static_assert(sizeof o->passed == sizeof src.passed, "passed");
	memcpy(o->where, src.where, sizeof o->where);
	memcpy(o->passed, src.passed, sizeof o->passed);
	return 0;
}

const char *pmk_papi_events_file(int *count, const char **why)
{
	const pmk__papi_csv *pf = pmk__papi_events(why);

	if (!pf)
		return NULL;
	if (count)
		*count = pmk__papi_csv_count(pf);
	return pmk__papi_csv_file(pf);
}
