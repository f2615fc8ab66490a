/*
 * perf_dirs.c: perf's pmu-events directories (perf_dirs.h). The only
 * table here maps pmkit's model names to perf's directory names
 * (mapfile.csv's third column), which perf itself finds from the CPUID
 * instead; what the directories hold is read, never re-typed.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/event/perf_dirs.h"

/* pmkit/libpfm4 model -> perf's directory (mapfile.csv's third column). */
static const struct {
	const char *model, *dir;
} model_dirs[] = {
    {"nhm", "x86/nehalemep"},
    {"nhm_ex", "x86/nehalemex"},
    {"wsm", "x86/westmereep-sp"},
    {"wsm_dp", "x86/westmereep-dp"},
    {"snb", "x86/sandybridge"},
    {"snb_ep", "x86/jaketown"},
    {"ivb", "x86/ivybridge"},
    {"ivb_ep", "x86/ivytown"},
    {"hsw", "x86/haswell"},
    {"hsw_ep", "x86/haswellx"},
    {"bdw", "x86/broadwell"},
    {"bdw_ep", "x86/broadwellx"},
    {"skl", "x86/skylake"},
    {"skx", "x86/skylakex"},
    {"clx", "x86/cascadelakex"},
    {"icl", "x86/icelake"},
    {"icx", "x86/icelakex"},
    {"tgl", "x86/tigerlake"},
    {"spr", "x86/sapphirerapids"},
    {"emr", "x86/emeraldrapids"},
    {"gnr", "x86/graniterapids"},
    {"adl_glc", "x86/alderlake"},
    {"adl_grt", "x86/alderlake"},
    {"mtl_rwc", "x86/meteorlake"},
    {"mtl_cmt", "x86/meteorlake"},
    {"glm", "x86/goldmont"},
    {"tmt", "x86/snowridgex"},
    {"knl", "x86/knightslanding"},
    {"knm", "x86/knightslanding"},
    {"slm", "x86/silvermont"},
    {"atom", "x86/bonnell"},
    {"amd64_fam17h_zen1", "x86/amdzen1"},
    {"amd64_fam17h_zen2", "x86/amdzen2"},
    {"amd64_fam19h_zen3", "x86/amdzen3"},
    {"amd64_fam19h_zen4", "x86/amdzen4"},
    {"amd64_fam1ah_zen5", "x86/amdzen5"},
    {"arm_ac53", "arm64/arm/cortex-a53"},
    {"arm_ac55", "arm64/arm/cortex-a55"},
    {"arm_ac57", "arm64/arm/cortex-a57-a72"},
    {"arm_ac72", "arm64/arm/cortex-a57-a72"},
    {"arm_ac76", "arm64/arm/cortex-a76-n1"},
    {"arm_n1", "arm64/arm/cortex-a76-n1"},
    {"arm_n2", "arm64/arm/neoverse-n2"},
    {"arm_v1", "arm64/arm/neoverse-v1"},
};

const char *pmk__pmu_model_dir(const char *model)
{
	if (!model)
		return NULL;
	for (size_t i = 0; i < sizeof model_dirs / sizeof model_dirs[0]; i++)
		if (!strcmp(model_dirs[i].model, model))
			return model_dirs[i].dir;
	return NULL;
}

const char *pmk__pmu_model_unit(const char *model)
{
	/* hybrids: the P-core models (Golden Cove, Redwood Cove) and the
	 * E-core ones (Gracemont, Crestmont) share perf's directory, each
	 * event marked with the core PMU it belongs to */
	static const char *const core[] = {"adl_glc", "mtl_rwc"};
	static const char *const atom[] = {"adl_grt", "mtl_cmt"};
	for (size_t i = 0; model && i < 2; i++) {
		if (!strcmp(model, core[i]))
			return "cpu_core";
		if (!strcmp(model, atom[i]))
			return "cpu_atom";
	}
	return NULL;
}

const char *pmk__pmu_events_dir(void)
{
	const char *e = getenv("PMKIT_PMU_EVENTS");
	if (e && *e)
		return strcmp(e, "none") ? e : NULL;
#ifdef PMK_PMU_EVENTS_DIR
	return PMK_PMU_EVENTS_DIR;
#else
	return NULL;
#endif
}
