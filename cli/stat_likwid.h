/*
 * stat_likwid.h: `pmkit stat -g GROUP`, LIKWID's performance groups
 * (stat_likwid.c; docs/metrics.md, "LIKWID's performance groups").
 */
#ifndef PMK_CLI_STAT_LIKWID_H
#define PMK_CLI_STAT_LIKWID_H

#include <stdio.h>

#include "pmkit.h"

/* The -M token standing for `-g NAME` ("likwid:NAME", static storage),
 * or NULL after an error was printed (a name with a comma). */
const char *stat_likwid_token(const char *name);
/* Whether a -M token is one of stat_likwid_token's; its group name. */
const char *stat_likwid_name(const char *token);
/* `-g list`: the groups of the target's model, each evaluable or not
 * (with the events that do not map and why). 0, or 1 after an error. */
int stat_likwid_list(FILE *out);
/* Add group `name`'s events and metrics at ev[*nev] (at most `max`): 0,
 * or EXIT_USAGE after an error was printed. */
int stat_likwid_add(pmk_event *ev, int *nev, int max, const char *name);

#endif
