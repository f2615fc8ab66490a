/*
 * event.c: event strings for the sim backend: sim natives and the generic
 * perf names, encoded as pmk_event leaves of type PMK_TYPE_SIM.
 */
#include <stdio.h>
#include <string.h>

#include "pmkit/sim.h"

static const struct alias {
	const char *generic, *sim;
} aliases[] = {
    {"cycles", "cycles"},
    {"cpu-cycles", "cycles"},
    {"instructions", "inst_retired"},
    {"branches", "br_retired"},
    {"branch-instructions", "br_retired"},
    {"branch-misses", "br_misp_retired"},
    {"cache-references", "l2_access"},
    {"cache-misses", "l2_miss"},
    {"L1-dcache-loads", "l1d_access:umask=1"},
    {"L1-dcache-load-misses", "l1d_miss:umask=1"},
    {"L1-dcache-stores", "l1d_access:umask=2"},
    {"L1-icache-loads", "l1i_access"},
    {"L1-icache-load-misses", "l1i_miss"},
    {"LLC-loads", "l2_access:umask=1"},
    {"LLC-load-misses", "l2_miss:umask=1"},
    {"dTLB-load-misses", "dtlb_miss:umask=1"},
    {"iTLB-load-misses", "itlb_miss"},
    {"stalled-cycles-frontend", "fe_stall"},
    {"stalled-cycles-backend", "rob_full"},
};

int pmk_sim_event_parse(const char *str, pmk_event *ev, pmk_diag *d)
{
	char buf[PMK_EVENT_NAME_MAX + 32];
	const char *use = str;
	size_t n = strcspn(str, ":");
	pmk_sim_counter_cfg c;
	int rc;
	memset(ev, 0, sizeof *ev);
	if (strlen(str) >= PMK_EVENT_NAME_MAX) {
		if (d) {
			pmk_diag_clear(d);
			d->code = PMK_ERANGE;
			snprintf(d->message, sizeof d->message,
				 "event string too long");
		}
		return PMK_ERANGE;
	}
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strlen(aliases[i].generic) == n &&
		    !strncmp(str, aliases[i].generic, n)) {
			snprintf(buf, sizeof buf, "%s%s", aliases[i].sim,
				 str + n);
			use = buf;
			break;
		}
	rc = pmk_sim_counter_parse(use, &c, d);
	if (rc < 0) {
		if (d && use != str) {
			/* columns refer to the user's string */
			d->column =
			    d->column > (int)strlen(use) - (int)strlen(str + n)
				? d->column - (int)(strlen(use) - strlen(str))
				: 1;
			snprintf(d->input, sizeof d->input, "%s", str);
		}
		return rc;
	}
	snprintf(ev->name, sizeof ev->name, "%s", str);
	ev->kind = PMK_KIND_SIM;
	ev->nleaf = 1;
	snprintf(ev->leaf[0].pmu, sizeof ev->leaf[0].pmu, "sim");
	snprintf(ev->leaf[0].name, sizeof ev->leaf[0].name, "%s", use);
	ev->leaf[0].type = PMK_TYPE_SIM;
	ev->leaf[0].config = pmk_sim_counter_encode(&c);
	ev->leaf[0].exclude_user = !c.usr;
	ev->leaf[0].exclude_kernel = !c.os;
	ev->leaf[0].sample = c.period;
	return 0;
}
