/*
 * pmkit/catalog.h: what pmkit knows about, for listings: the models with
 * native-event tables, and where each preset's definition comes from.
 *
 * `pmkit encode --models` and `pmkit list --details` print these; a tool
 * that wants the same listing calls them instead of pmkit's internals.
 */
#ifndef PMKIT_CATALOG_H
#define PMKIT_CATALOG_H

#include <stddef.h>

#include "pmkit/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every model some source of native events knows, each once: its name, a
 * description and the source ("libpfm4", "pmkit tables"). A nonzero return
 * of `fn` stops the walk and is returned. */
int pmk_model_foreach(int (*fn)(const char *model, const char *desc,
				const char *source, void *arg),
		      void *arg);
/* Whether `model` names a model pmkit knows: one a source serves, or one
 * the detection table names (generic and sysfs events only). */
int pmk_model_known(const char *model);

/* Where a preset's definition comes from on a target. */
typedef struct pmk_preset_origin {
	size_t size;        /* the caller's sizeof(pmk_preset_origin); 0: this one */
	const char *source; /* "papi", "pmkit" or "generic" */
	char where[320];    /* "FILE:LINE" (PAPI's file) or pmkit's table */
	char passed[320];   /* an earlier source passed over, and why, or "" */
} pmk_preset_origin;

/* The origin of preset `name` (PAPI_TOT_INS) on target `t`'s core PMU
 * model: 0, or the preset's resolution error (PMK_ENOENT and others);
 * PMK_EINVAL when o->size is neither 0 nor a size this library knows. */
int pmk_preset_origin_get(const pmk_target *t, const char *name,
			  pmk_preset_origin *o);

/* PAPI's preset definitions in use (papi_events.csv, or $PMK_PAPI_EVENTS):
 * the file's name, with its number of preset lines in `*count`; NULL when
 * there is none, `*why` (may be NULL) then saying why ("" when none was
 * configured). */
const char *pmk_papi_events_file(int *count, const char **why);

#ifdef __cplusplus
}
#endif

#endif
