/*
 * fuzz_measure.c: measurement files for `pmkit metric eval` (JSON, CSV,
 * plain text) from arbitrary bytes.
 */
#include <stdint.h>

#include "pmkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pmk_measure *m;
	pmk_diag d;
	double v;
	if (pmk_measure_parse(&m, "fuzz", (const char *)data, size, &d) == 0) {
		for (int i = 0; i < pmk_measure_count(m); i++)
			(void)pmk_measure_get(m, pmk_measure_name(m, i, &v),
					      &v);
		pmk_measure_free(m);
	}
	return 0;
}
