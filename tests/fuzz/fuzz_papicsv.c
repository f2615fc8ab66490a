/*
 * fuzz_papicsv.c: PAPI's papi_events.csv reader (lib/event/papi_csv.c)
 * from arbitrary bytes: parse, then look every CPU's presets up and walk
 * them, and format the diagnostic of a refused input. Any crash, hang or
 * sanitizer report is a bug; errors are the expected outcome for most
 * inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/event/papi_csv.h"

static int walk(const pmk__papi_def *def, void *arg)
{
	size_t *n = arg;
	*n += strlen(def->preset) + (def->rpn ? strlen(def->rpn) : 0) +
	      (def->why ? strlen(def->why) : 0) +
	      (def->note ? strlen(def->note) : 0);
	return 0;
}

static int each_cpu(const char *cpu, void *arg)
{
	const pmk__papi_csv *c = *(const pmk__papi_csv **)arg;
	size_t n = 0;
	pmk__papi_csv_foreach(c, cpu, walk, &n);
	(void)pmk__papi_csv_find(c, cpu, "PAPI_TOT_INS");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pmk__papi_csv *c = NULL;
	pmk_diag d;
	if (pmk__papi_csv_parse((const char *)data, size, "fuzz.csv", &c, &d) ==
	    0) {
		const pmk__papi_csv *cc = c;
		pmk__papi_csv_cpus(c, each_cpu, &cc);
		(void)pmk__papi_csv_defines(c, "PAPI_L1_DCM");
		pmk__papi_csv_free(c);
	} else {
		char buf[1024];
		pmk_diag_format(&d, buf, sizeof buf);
	}
	return 0;
}
