/*
 * stat_control.h: stat's --control (perf's): `enable` and `disable` turn
 * every event set on and off while the workload runs (with -D -1 they
 * start off), `ping` is only answered; each command carried out is
 * answered "ack\n" (cli/rec_control.h has the protocol).
 */
#ifndef PMK_CLI_STAT_CONTROL_H
#define PMK_CLI_STAT_CONTROL_H

#include "cli/rec_control.h"
#include "pmkit.h"

/* Carry out the commands waiting on `c` over the sets; `*enabled` says
 * whether they count now, `*ever` becomes 1 at an enable. "Events
 * enabled" / "Events disabled" go to stderr, as perf prints them. */
void stat_control(struct rec_ctl *c, pmk_eventset *const *set, int nset,
		  int *enabled, int *ever);

#endif
