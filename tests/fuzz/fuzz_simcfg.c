/*
 * fuzz_simcfg.c: the simulator's text parsers on hostile input: the
 * configuration file, counter strings and workload specs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pmk_sim_config c;
	pmk_sim_counter_cfg cc;
	pmk_workload *w;
	pmk_diag d;
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	pmk_sim_config_default(&c);
	pmk_sim_config_parse(&c, s, size, "fuzz", &d);
	pmk_sim_counter_parse(s, &cc, &d);
	if (size < 200 && pmk_workload_new(&w, s, &d) == 0) {
		pmk_sim_insn in;
		for (int i = 0; i < 100 && pmk_workload_next(w, &in) == 1; i++)
			;
		pmk_workload_free(w);
	}
	free(s);
	return 0;
}
