/*
 * pmu_json.h: perf's event and metric definitions (the pmu-events JSON of
 * the kernel source, tools/perf/pmu-events/arch/ARCH/DIR/NAME.json) read
 * as a source of metrics for `pmkit stat -M`. Internal.
 *
 * Three parts:
 *  - the files read by a small bounded JSON reader (lib/core/json_flat.h:
 *    a top-level array of flat objects), from the directory of
 *    lib/event/perf_dirs.h.
 *  - a model: the metrics (MetricName, MetricExpr, MetricGroup,
 *    ScaleUnit) and events (EventName, EventCode, UMask, ...) of one
 *    perf directory, found from a pmkit/libpfm4 model name through a
 *    table of perf's mapfile.csv directory names (pmk__pmu_model_load).
 *  - translation: a metric (with the metrics it uses) written as a pmkit
 *    definition file over perf's event names, and parsed with a resolver
 *    that encodes each event as perf's JSON defines it
 *    (pmk__pmu_metric_defs): perf's operations (min, max, d_ratio, < >,
 *    `a if c else b`) pass into pmkit's infix; source_count and the
 *    #-literals become numbers from the target (its boxes, its declared
 *    topology: lib/event/topo.h); an uncore event is summed over the
 *    target's boxes of its unit. What still does not translate (a
 *    literal the target does not declare, a construct newer than perf
 *    6.1) is refused with the construct named.
 * Nothing here counts; reading makes no system call but the file reads.
 */
#ifndef PMK_DERIVE_PMU_JSON_H
#define PMK_DERIVE_PMU_JSON_H

#include <stddef.h>

#include "lib/core/json_flat.h"	 /* the reader */
#include "lib/event/perf_dirs.h" /* the directories */
#include "pmkit/derive.h"
#include "pmkit/event.h"

typedef struct pmk__pmu_model pmk__pmu_model;

/* Load the JSON of `model` from the arch directory `archdir` (NULL:
 * pmk__pmu_events_dir()). 0; PMK_ENOENT when there is no directory or no
 * mapping (d says which); another negative code for a bad file. */
int pmk__pmu_model_load(pmk__pmu_model **out, const char *archdir,
			const char *model, pmk_diag *d);
/* A model from one file's text (`path` names it, and is its
 * pmk__pmu_model_path): what the fuzz target and tests use. */
int pmk__pmu_model_parse(const char *text, size_t len, const char *path,
			 pmk__pmu_model **out, pmk_diag *d);
void pmk__pmu_model_free(pmk__pmu_model *m);
/* Event i's name (perf's EventName, or ArchStdEvent). */
const char *pmk__pmu_event_name(const pmk__pmu_model *m, int i);
/* "x86/icelakex", and the number of metrics and events read. */
const char *pmk__pmu_model_path(const pmk__pmu_model *m);
int pmk__pmu_metric_count(const pmk__pmu_model *m);
int pmk__pmu_event_count(const pmk__pmu_model *m);
/* Metric i: name, expression, groups (';'-separated, "" when none),
 * scale unit ("" when none), brief description. */
const char *pmk__pmu_metric_name(const pmk__pmu_model *m, int i);
const char *pmk__pmu_metric_expr(const pmk__pmu_model *m, int i);
const char *pmk__pmu_metric_groups(const pmk__pmu_model *m, int i);
const char *pmk__pmu_metric_unit(const pmk__pmu_model *m, int i);
const char *pmk__pmu_metric_desc(const pmk__pmu_model *m, int i);
/* Metric i's own "Unit" (the PMU it counts on: "cpu_atom"), "" when none;
 * whether it is defined inside an event's object (an uncore event with a
 * MetricName: perf 6.1 evaluates it with -M but does not list it). */
const char *pmk__pmu_metric_pmu(const pmk__pmu_model *m, int i);
int pmk__pmu_metric_in_event(const pmk__pmu_model *m, int i);
/* Whether metric i's object has a BriefDescription (pmk__pmu_metric_desc
 * is "" both for an empty one and for none). */
int pmk__pmu_metric_has_desc(const pmk__pmu_model *m, int i);
/* Index of metric `name` (case-insensitive, as perf), or -1. */
int pmk__pmu_metric_find(const pmk__pmu_model *m, const char *name);
/* Whether metric i is in group `group` (case-insensitive). */
int pmk__pmu_metric_in_group(const pmk__pmu_model *m, int i, const char *group);
/* Whether `name` is a metric group of the model. */
int pmk__pmu_group_exists(const pmk__pmu_model *m, const char *name);
/* The event string pmkit encodes for perf event `name` (as written in a
 * metric, unescaped: "INST_RETIRED.ANY", "cpu@IDQ.MITE_UOPS,cmask=4@",
 * "CPU_CLK_UNHALTED.THREAD_P:k"), on a core PMU named `core_pmu`, into
 * buf: 0; 1 when the name is not one of the model's events (buf holds it
 * in pmkit's syntax, to be tried as is); -1 with the reason in buf when
 * it cannot be written (an uncore event). */
int pmk__pmu_event_string(const pmk__pmu_model *m, const char *name,
			  const char *core_pmu, char *buf, size_t size);

/*
 * Metric i as pmkit definition text: one infix definition per metric it
 * needs (itself last), perf's events as quoted names. 0; -1 with the
 * reason in `why` when a construct does not translate (the metric, or
 * one it uses). The text is malloc'd.
 */
int pmk__pmu_metric_text(const pmk__pmu_model *m, int i, const pmk_target *t,
			 char **text, char *why, size_t size);
/*
 * Metric i parsed on target `t` (NULL: the host's): the definitions of
 * pmk__pmu_metric_text, each event encoded as perf's JSON defines it.
 * *index is the metric's user event in *out. An event the target cannot
 * encode leaves the base unresolved (pmk_defs_base_resolved 0); its
 * reason is pmk__pmu_base_why(). 0, or -1 with `why`.
 */
int pmk__pmu_metric_defs(const pmk__pmu_model *m, int i, const pmk_target *t,
			 pmk_defs **out, int *index, char *why, size_t size);
/* Why perf event `name` did not encode on the target in the last
 * pmk__pmu_metric_defs of this model ("" when it did or was not seen). */
const char *pmk__pmu_base_why(const pmk__pmu_model *m, const char *name);

#endif
