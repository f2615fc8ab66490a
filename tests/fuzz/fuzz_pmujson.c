/*
 * fuzz_pmujson.c: perf's pmu-events JSON reader and metric translation
 * (lib/derive/pmu_json.c) from arbitrary bytes: read a model, translate
 * every metric (with the metrics it uses) into pmkit's definitions, write
 * every event's encoding string, and format the diagnostic of a refused
 * input. Nothing is encoded on a machine. Any crash, hang or sanitizer
 * report is a bug; refusals are the expected outcome for most inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/derive/pmu_json.h"

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
		(void)pmk__pmu_metric_text(m, i, NULL, &text, why, sizeof why);
		free(text);
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
