/*
 * native.h: native strings and PAPI presets for a target
 * (native_target.c). Internal.
 *
 * The generic parser (parse.c) handles perf's generic names, software
 * events, raw `rNNNN` and sysfs `pmu/terms/` itself, and asks this layer for
 * native strings and presets, which it encodes through the source that
 * serves the target's model (source.h). Pure: no system call but
 * libpfm4's one-time initialisation (src_pfm.c).
 *
 * Model names follow libpfm4's PMU names where one exists ("skl", "icl",
 * "amd64_fam17h_zen2", "amd64_fam19h_zen3", "amd64_fam19h_zen4",
 * "amd64_fam1ah_zen5", ...), so that the same string can be checked
 * against libpfm4.
 */
#ifndef PMK_EVENT_NATIVE_H
#define PMK_EVENT_NATIVE_H

#include "lib/event/source.h"
#include "pmkit/event.h"

/*
 * Parse a native event string "[MODEL::]EVENT[:UMASK...][:MOD[=VAL]...]"
 * for the target's model (or the model named before "::"), filling
 * ev->leaf[0] (and ev->nleaf = 1, ev->kind = PMK_KIND_NATIVE).
 * `col0` is the 1-based column of `s` within the user's whole string, for
 * diagnostics. Returns 0; PMK_ENOEVENT without touching `d` when the event
 * name is not in any table (the caller then reports "unknown event"); or
 * another error with `d` filled (bad unit mask, bad modifier, ...).
 */
int pmk__native_parse(const pmk_target *t, const char *s, int col0,
		      pmk_event *ev, pmk_diag *d);

/*
 * Resolve a PAPI preset name ("PAPI_TOT_INS") for the target: one native,
 * or several combined by ev->ops. Uses the model's mapping when the target
 * has a model; otherwise the generic perf events where the preset has a
 * generic equivalent. Returns 0, PMK_ENOEVENT if the name is not a preset,
 * PMK_ENOTSUP (with `d`) if it is a preset with no mapping on this target.
 */
int pmk__preset_resolve(const pmk_target *t, const char *name, int col0,
			pmk_event *ev, pmk_diag *d);

/* Enumerate the model's natives and the presets for `pmkit list`. */
int pmk__native_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg);
int pmk__preset_foreach(const pmk_target *t,
			int (*fn)(const pmk_event_info *info, void *arg),
			void *arg);

/* pmk__model_known() is source.c's (source.h, included above). */

#endif
