/*
 * fuzz_cpuinfo.c: the /proc/cpuinfo reader of model detection
 * (lib/event/models.c) must survive any text: a parse that succeeds names
 * a vendor or an Arm implementer, and the model lookup and the CPU's
 * description never overrun.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event/models.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct pmk__cpu_id id;
	struct pmk__cpu_model m;
	char desc[96];
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (pmk__cpuinfo_parse(text, &id) == 0) {
		if (!id.vendor[0] && !id.implementer)
			abort();
		if (pmk__cpu_model(&id, &m) == 0 && !m.core[0])
			abort();
	}
	pmk__cpu_id_describe(&id, desc, sizeof desc);
	if (strlen(desc) >= sizeof desc)
		abort();
	free(text);
	return 0;
}
