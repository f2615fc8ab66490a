/*
 * fuzz_likwid.c: LIKWID's performance-group reader and its mapping
 * (lib/derive/likwid.c, likwid_map.c) from arbitrary bytes: parse a group,
 * map its events onto a target built here (a core PMU with event and umask
 * terms and aliases, a power PMU, one memory-controller box; no model, no
 * topology), translate and compile every metric, compile every mapped
 * event, and format the diagnostic of a refused input. Nothing is read
 * from the machine. Any crash, hang or sanitizer report is a bug.
 */
#include <stdint.h>
#include <stdlib.h>

#include "lib/derive/likwid.h"

static pmk_target *target(void)
{
	static pmk_target *t;
	if (!t && (t = pmk_target_new()) != NULL) {
		pmk_diag d;
		pmk_target_add_pmu(t, "cpu", 4, 1);
		pmk_target_add_pmu(t, "power", 10, 0);
		pmk_target_add_pmu(t, "uncore_imc_0", 20, 0);
		pmk_target_add_format(t, "cpu", "event", "config:0-7", &d);
		pmk_target_add_format(t, "cpu", "umask", "config:8-15", &d);
		pmk_target_add_format(t, "power", "event", "config:0-7", &d);
		pmk_target_add_format(t, "uncore_imc_0", "event", "config:0-7",
				      &d);
		pmk_target_add_alias(t, "cpu", "slots", "event=0x00,umask=0x4");
		pmk_target_add_alias(t, "cpu", "topdown-retiring",
				     "event=0x00,umask=0x80");
		pmk_target_add_alias(t, "power", "energy-pkg", "event=0x02");
		pmk_target_add_alias(t, "uncore_imc_0", "cas_count_read",
				     "event=0x04");
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static pmk__lw_group g;
	static pmk__lw_mapped m;
	pmk_diag d;
	if (pmk__lw_parse((const char *)data, size, "fuzz/GROUP.txt", &g, &d) !=
	    0) {
		char buf[1024];
		pmk_diag_format(&d, buf, sizeof buf);
		return 0;
	}
	pmk__lw_map(target(), &g, &m);
	for (int i = 0; i < g.nevent; i++) {
		pmk_event ev;
		char why[300];
		(void)pmk__lw_event_compile(target(), &g, &m, i, &ev, why,
					    sizeof why);
	}
	for (int k = 0; k < g.nmetric && k < 16; k++) {
		char *text = NULL, why[300];
		if (pmk__lw_metric_text(target(), &g, &m, k, &text, why,
					sizeof why) == 0)
			free(text);
	}
	return 0;
}
