/*
 * source.h: one interface for a source of native events. Internal; pure
 * but for libpfm4's one-time initialisation (src_pfm.c).
 *
 * A source knows the native events of some PMU models and can look a
 * string up, encode it, list its events and describe one. Implementations:
 *   src_pfm.c     libpfm4 at run time (every model the installed libpfm4
 *                 knows; built only with libpfm4-dev)
 *   src_tables.c  pmkit's own tables (tbl_*.c): what libpfm4 lacks (Zen 5
 *                 with libpfm4 4.13) and every table model in builds
 *                 without libpfm4
 *   src_perf.c    perf's event names, read from perf's pmu-events JSON:
 *                 aliases asked after the two above
 * The kernel's own names are sources of another shape, per PMU rather than
 * per model: sysfs event aliases (parse.c's pmu/terms/ and bare alias
 * names) and tracepoints (src_trace.c).
 *
 * source.c is the one place that decides which source serves a model
 * (pmk__source_resolve; a target caches the answer). Native strings
 * (native_target.c) and the natives of presets (preset.c) are encoded
 * through pmk__source_encode; the sources call only lib/core and libpfm4,
 * never the parser.
 */
#ifndef PMK_EVENT_SOURCE_H
#define PMK_EVENT_SOURCE_H

#include <stddef.h>

#include "pmkit/event.h"

typedef int (*pmk__info_fn)(const pmk_event_info *info, void *arg);

typedef struct pmk__source {
	const char *name; /* "libpfm4", "pmkit tables" */
	/* The canonical model name for `model` ("zen4" -> the full name),
	 * or NULL when this source does not know it. */
	const char *(*model)(const char *model);
	/*
	 * Encode native string `s` ("EVENT[:UMASK...][:MOD=VAL...]", no
	 * "MODEL::") of `model` for the PMU `pmu` of perf type `type`.
	 * `col0` is s's 1-based column in the user's string. Returns 0,
	 * PMK_ENOEVENT (event name unknown, `d` untouched) or an error with
	 * `d` filled.
	 */
	int (*encode)(const char *model, const char *pmu, uint32_t type,
		      const char *s, int col0, pmk_event *ev, pmk_diag *d);
	/* Whether the model has an event called `name` (`len` chars, no
	 * unit mask), without case. */
	int (*has_event)(const char *model, const char *name, size_t len);
	/* One event described: its description, unit masks (defaults
	 * marked) and modifiers, as text. 0, or PMK_ENOEVENT. */
	int (*describe)(const char *model, const char *name, size_t len,
			char *buf, size_t size);
	/* Every EVENT[:UMASK] of the model (info->pmu = the model). */
	int (*foreach)(const char *model, pmk__info_fn fn, void *arg);
	/* Every model this source knows, by canonical name. */
	int (*models)(int (*fn)(const char *model, const char *desc, void *arg),
		      void *arg);
} pmk__source;

extern const pmk__source pmk__source_pfm;
extern const pmk__source pmk__source_tables;
/* perf's event names from perf's pmu-events JSON (src_perf.c): asked
 * last, for the names the first two do not know. */
extern const pmk__source pmk__source_perf;

/* A model resolved: the source that serves it, the model's canonical name
 * there, and the source standing behind it (the tables behind libpfm4)
 * with its name for the model. */
typedef struct pmk__model_res {
	const pmk__source *src; /* NULL when no source knows the model */
	const char *canon;
	const pmk__source *second; /* NULL when none */
	const char *canon2;
	const pmk__source *third; /* perf's names for the model, or NULL */
	const char *canon3;
} pmk__model_res;

/* Resolve `model`: the first source (libpfm4, then the tables) that knows
 * its canonical name, so that "zen4" and "amd64_fam19h_zen4" get the same
 * encoder. 0, or PMK_ENOENT (`r` cleared) when no source knows it. Scans
 * libpfm4's PMU list: a target caches the answer (pmk__target_resolve). */
int pmk__source_resolve(const char *model, pmk__model_res *r);
/* Encode native string `s` (no "MODEL::") through r->src, and through
 * r->second when the first refuses it: the second's answer when it knows
 * the event, else the first's; then through r->third (perf's names) when
 * neither knows the event. The source contract's returns. */
int pmk__source_encode(const pmk__model_res *r, const char *pmu, uint32_t type,
		       const char *s, int col0, pmk_event *ev, pmk_diag *d);
/* pmk__source_resolve()'s source and canonical name (`canon` may be
 * NULL); NULL when no source knows the model. */
const pmk__source *pmk__source_for(const char *model, const char **canon);
/* pmk__source_resolve()'s second source and its name for the model, or
 * NULL. */
const pmk__source *pmk__source_second(const char *model, const char **canon);
/* Every model any source knows, each once. */
int pmk__source_models(int (*fn)(const char *model, const char *desc,
				 const char *source, void *arg),
		       void *arg);
/* A model (other than `except`) whose source knows event `name`
 * (EVENT part only, case-insensitive); written to `model`. 0 or
 * PMK_ENOENT. */
int pmk__source_event_elsewhere(const char *name, size_t len,
				const char *except, char *model, size_t size);
/* Whether `model` names a model some source knows, or one the detection
 * table (models.c) names: a model with no native events here, generic
 * and sysfs names only. */
int pmk__model_known(const char *model);

#endif
