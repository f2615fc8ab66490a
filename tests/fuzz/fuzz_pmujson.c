/*
 * fuzz_pmujson.c: perf's pmu-events JSON reader and metric translation
 * (lib/derive/pmu_json.c) from arbitrary bytes: read a model, translate
 * every metric (with the metrics it uses) into pmkit's definitions, write
 * every event's encoding string, compile every metric on a target built
 * here (a core PMU and two boxes of an uncore one, no topology: the
 * #-literals are refused), and format the diagnostic of a refused input.
 * Nothing is read from the machine. Any crash, hang or sanitizer
 * report is a bug; refusals are the expected outcome for most inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/derive/pmu_json.h"

static pmk_target *target(void)
{
	static pmk_target *t;
	if (!t && (t = pmk_target_new()) != NULL) {
		pmk_diag d;
		pmk_target_add_pmu(t, "cpu", 4, 1);
		pmk_target_add_pmu(t, "uncore_imc_0", 20, 0);
		pmk_target_add_pmu(t, "uncore_imc_1", 21, 0);
		pmk_target_add_format(t, "cpu", "event", "config:0-7", &d);
		pmk_target_add_format(t, "cpu", "umask", "config:8-15", &d);
		pmk_target_add_format(t, "cpu", "cmask", "config:24-31", &d);
		pmk_target_add_format(t, "uncore_imc_0", "event", "config:0-7",
				      &d);
		pmk_target_add_format(t, "uncore_imc_1", "event", "config:0-7",
				      &d);
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pmk__pmu_model *m = NULL;
	pmk_diag d;
	if (pmk__pmu_model_parse((const char *)data, size, "fuzz.json", &m,
				 &d) != 0) {
		char buf[1024];
		pmk_diag_format(&d, buf, sizeof buf);
		return 0;
	}
	for (int i = 0; i < pmk__pmu_metric_count(m) && i < 256; i++) {
		char *text = NULL, why[512], buf[512];
		pmk_defs *defs = NULL;
		int idx;
		(void)pmk__pmu_metric_text(m, i, target(), &text, why,
					   sizeof why);
		free(text);
		if (i < 16 && pmk__pmu_metric_defs(m, i, target(), &defs, &idx,
						   why, sizeof why) == 0)
			pmk_defs_free(defs);
		(void)pmk__pmu_metric_in_group(m, i, "TopdownL1");
		(void)pmk__pmu_event_string(m, pmk__pmu_metric_name(m, i),
					    "cpu", buf, sizeof buf);
	}
	for (int i = 0; i < pmk__pmu_event_count(m) && i < 256; i++) {
		char buf[512];
		(void)pmk__pmu_event_string(m, pmk__pmu_event_name(m, i), "cpu",
					    buf, sizeof buf);
	}
	pmk__pmu_model_free(m);
	return 0;
}
