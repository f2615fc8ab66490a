/*
 * perf_dirs.h: where perf's pmu-events JSON lies (the arch directory of
 * the kernel source: tools/perf/pmu-events/arch) and which of its
 * directories describes a pmkit/libpfm4 model. Internal; pure but for
 * getenv. Read by lib/derive/pmu_json.c (metrics) and src_perf.c (perf's
 * event names).
 */
#ifndef PMK_EVENT_PERF_DIRS_H
#define PMK_EVENT_PERF_DIRS_H

/* The arch directory in use: $PMKIT_PMU_EVENTS ("none": none), else the
 * one configure extracted (PMK_PMU_EVENTS_DIR), else NULL. */
const char *pmk__pmu_events_dir(void);
/* perf's directory for a pmkit/libpfm4 model name ("x86/icelakex"), or
 * NULL when perf's mapfile has none that pmkit maps. */
const char *pmk__pmu_model_dir(const char *model);
/* On a hybrid's model, the core PMU whose events in perf's shared
 * directory are the model's ("cpu_core" for adl_glc, "cpu_atom" for
 * adl_grt: perf's "Unit"), else NULL (every core event). */
const char *pmk__pmu_model_unit(const char *model);

#endif
