/*
 * cpistack_perf.h: `pmkit cpistack -- COMMAND` at a top-down level perf's
 * metrics define for the CPU model (cpistack_perf.c).
 */
#ifndef PMK_CLI_CPISTACK_PERF_H
#define PMK_CLI_CPISTACK_PERF_H

#include "cli/workload.h"
#include "pmkit.h"

/* Whether perf's metrics define top-down level `level` (TopdownL<level>)
 * for the target's CPU model. */
int cpistack_perf_defines(int level);
/* Count perf's TopdownL<level> for `cmd` and print each metric's value.
 * The command's exit status, or 1 (2 for usage) after an error saying why
 * the level cannot be counted here. */
int cpistack_perf_run(char **cmd, int level);
/* Count the opened set `es` over the prepared workload `wl` (started
 * here, waited for) and read its `n` values: the workload's status. */
int cpistack_count_over(pmk_eventset *es, struct workload *wl,
			pmk_value *vals, int n);

#endif
