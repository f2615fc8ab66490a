/*
 * target.h: the inside of a pmk_target. Internal to lib/event.
 */
#ifndef PMK_EVENT_TARGET_H
#define PMK_EVENT_TARGET_H

#include <pthread.h>

#include "lib/event/source.h"
#include "pmkit/event.h"

#define PMK__PMU_MAX 48
#define PMK__RES_MAX 8 /* models resolved per target: each core PMU's and
			  the ones named with "MODEL::" */
#define PMK__FMT_MAX 32

struct pmk__format {
	char term[32];
	int word; /* 0 config, 1 config1, 2 config2 */
	int nrange;
	struct {
		unsigned char lo, hi;
	} r[4];
};

struct pmk__alias {
	char name[64];
	char terms[192];
	/* sysfs events/NAME.scale and NAME.unit: what one count is worth,
	 * in `unit` (RAPL's energy in 2^-32 Joules); 0 and "" when absent */
	double scale;
	char unit[16];
};

struct pmk__pmu {
	char name[PMK_PMU_NAME_MAX];
	uint32_t type;
	int is_core;
	int is_uncore; /* has a cpumask: counts system-wide, per package */
	char cpumask[128]; /* that cpumask ("0,18"), or a hybrid core PMU's
			      `cpus` ("0-15"): the CPUs it counts on */
	char model[48]; /* native-event model of this PMU ("" = none) */
	int nfmt;
	struct pmk__format fmt[PMK__FMT_MAX];
	int nalias, calias;
	struct pmk__alias *alias;
};

struct pmk_target {
	int npmu;
	struct pmk__pmu pmu[PMK__PMU_MAX];
	char model[48];
	char cpu[96];	     /* "GenuineIntel family 6 model 0x8f", for messages */
	char sysfs[256];     /* the sysfs root discovery read ("" = none) */
	int captured;	     /* discovered under $PMK_SYSROOT, not this host */
	/* Each model name this target has met, resolved once to its
	 * sources (pmk__target_resolve); keyed by the name, so a model
	 * changed afterwards (pmk_target_set_model, discovery) is resolved
	 * anew. Written under `lock`: parsing with one target from several
	 * threads (the host's) is allowed. */
	pthread_mutex_t lock;
	int nres;
	struct {
		char model[64];
		int found;
		pmk__model_res r;
	} res[PMK__RES_MAX];
};

/* `model` resolved to its sources (pmk__source_resolve), once per target:
 * later calls for the same name answer from the target's cache without
 * scanning libpfm4 again. 0, or PMK_ENOENT with `r` cleared. */
int pmk__target_resolve(const pmk_target *t, const char *model,
			pmk__model_res *r);
/* The core PMU (pmk_target_core_pmu()) as a PMU, or NULL. */
const struct pmk__pmu *pmk__target_core(const pmk_target *t);
/* The native-event model of PMU `p`: its own (hybrids), else the
 * target's; "" when none. `p` may be NULL (a target without core PMU). */
const char *pmk__pmu_model(const pmk_target *t, const struct pmk__pmu *p);
/* The PMU called `name`, or NULL. */
const struct pmk__pmu *pmk__target_pmu(const pmk_target *t, const char *name);
/* On an x86 machine that exports no core PMU (a VM without one), a "cpu"
 * PMU with the kernel's format terms for the vendor (PERF_TYPE_RAW), so
 * that cpu/event=.../ strings (perf's metrics are written so) encode as
 * the natives do there, and count nothing; NULL elsewhere. */
const struct pmk__pmu *pmk__target_arch_cpu(const pmk_target *t);
/* The format term `term` of `pmu`, or NULL. */
const struct pmk__format *pmk__pmu_format(const struct pmk__pmu *p,
					  const char *term);
/* The alias `name` of `pmu`, or NULL. */
const struct pmk__alias *pmk__pmu_alias(const struct pmk__pmu *p,
					const char *name);
/* How many core PMUs the target has (two or more: a hybrid). */
int pmk__target_ncore(const pmk_target *t);
/* Whether `pmu` counts on `cpu`: 1 unless it has a cpumask (an uncore
 * or RAPL PMU, which counts a whole package on one of its CPUs) or, a
 * hybrid's core PMU, a list of `cpus` (its core type's) that leaves `cpu`
 * out; 1 also for a PMU this target does not know. */
int pmk__target_pmu_on_cpu(const pmk_target *t, const char *pmu, int cpu);
/* Set alias `event` of `pmu`'s scale (0: none) and unit (NULL: none), as
 * sysfs's NAME.scale and NAME.unit give them. */
int pmk__target_alias_meta(pmk_target *t, const char *pmu, const char *event,
			   double scale, const char *unit);
/* Width in bits of a format term. */
int pmk__format_bits(const struct pmk__format *f);
/* Scatter `value` into the attr's config words by the term's bit ranges.
 * Returns PMK_ERANGE when it does not fit. */
int pmk__format_apply(const struct pmk__format *f, uint64_t value,
		      pmk_attr *a);

#endif
