/*
 * cpistack_perf.c: top-down at any level perf defines, for a command on
 * the machine itself: perf's TopdownL1..L6 metrics for the CPU model (from
 * perf's pmu-events JSON, through the metric layer `pmkit stat -M` uses,
 * cli/stat_metrics.c), counted on one multiplexed set over the command
 * and printed a metric a line, each with perf's scale (tma_ metrics in %).
 * A captured machine (PMK_SYSROOT) and a machine whose PMU cannot count
 * the events are told apart, with the events named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cpistack_perf.h"
#include "cli/stat_metrics.h"
#include "cli/workload.h"
#include "pmkit.h"

#define MAX_METRICS 256

int cpistack_count_over(pmk_eventset *es, struct workload *wl,
			pmk_value *vals, int n)
{
	pmk_scope sc = {wl->pid, -1};
	int status;
	pmk_eventset_set_scope(es, sc);
	pmk_eventset_start(es);
	workload_start(wl);
	status = workload_wait(wl);
	pmk_eventset_stop(es);
	pmk_eventset_read(es, vals, n);
	return status;
}

int cpistack_perf_defines(int level)
{
	char g[16];
	snprintf(g, sizeof g, "TopdownL%d", level);
	return stat_metrics_perf_defines(g);
}

/* The events perf's level needs that the machine cannot count, listed;
 * 1 when there is one. */
static int cannot_count(const pmk_eventset *es, const pmk_event *ev, int n,
			const char *model, int level)
{
	int missing = 0;
	for (int i = 0; i < n; i++)
		if (pmk_eventset_event_diag(es, i)->code) {
			if (!missing++)
				cli_error("top-down level %d (perf's TopdownL%d) "
					  "for CPU model '%s' needs events this "
					  "machine cannot count:",
					  level, level, model);
			fprintf(stderr, "  %s: %s\n", ev[i].name,
				pmk_eventset_event_diag(es, i)->message);
		}
	if (missing)
		fprintf(stderr, "hint: %s`pmkit cpistack --sim` works "
				"anywhere\n",
			pmk_target_core_pmu(pmk_target_host())
			    ? ""
			    : "no hardware PMU: virtual machine? ");
	return missing != 0;
}

int cpistack_perf_run(char **cmd, int level)
{
	const pmk_target *t = pmk_target_host();
	const char *model = t ? pmk_target_model(t) : "";
	char dir[4096], grp[16];
	pmk_event *ev = calloc(MAX_METRICS, sizeof *ev);
	pmk_value *vals = calloc(MAX_METRICS, sizeof *vals);
	pmk_eventset *es = NULL;
	struct workload wl;
	pmk_diag d;
	int n = 0, empty = 0, rc = 1, status;
	if (!ev || !vals) {
		cli_error("out of memory");
		goto out;
	}
	snprintf(grp, sizeof grp, "TopdownL%d", level);
	if (stat_metrics_dir(dir, sizeof dir) != 0)
		dir[0] = 0;
	rc = stat_metrics_add(ev, &n, MAX_METRICS, dir, grp, &empty);
	if (rc != 0 || n == 0) {
		if (rc == 1 || n == 0)
			cli_error("top-down level %d: perf's metrics define no "
				  "TopdownL%d for CPU model '%s'",
				  level, level, model);
		rc = rc == EXIT_USAGE ? rc : 1;
		goto out;
	}
	rc = 1;
	if (t && pmk_target_captured(t)) {
		cli_error("top-down level %d for CPU model '%s' is defined "
			  "(perf's TopdownL%d, %d metrics), but PMK_SYSROOT "
			  "names a captured machine: it is described, not "
			  "counted",
			  level, model, level, n);
		fprintf(stderr, "hint: `pmkit encode -M TopdownL%d` shows its "
				"events; run `pmkit cpistack` on that machine\n",
			level);
		goto out;
	}
	if (pmk_eventset_new(&es, PMK_ES_MULTIPLEX | PMK_ES_INHERIT |
				      PMK_ES_ENABLE_ON_EXEC) < 0) {
		cli_error("cannot create an event set");
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (pmk_eventset_add_event(es, &ev[i], &d) < 0) {
			cli_diag(&d);
			goto out;
		}
	if (pmk_eventset_open(es, &d) < 0 &&
	    !cannot_count(es, ev, n, model, level)) {
		cli_diag(&d);
		goto out;
	}
	if (cannot_count(es, ev, n, model, level))
		goto out;
	if (workload_prepare(&wl, cmd) < 0) {
		cli_error("cannot start '%s': %s", cmd[0], strerror(errno));
		goto out;
	}
	status = cpistack_count_over(es, &wl, vals, n);
	printf("# top-down level %d, CPU model %s (perf's TopdownL%d)\n",
	       level, model, level);
	for (int i = 0; i < n; i++)
		if (vals[i].status || (vals[i].flags & PMK_VALUE_NAN))
			printf("%-36s %10s\n", ev[i].name,
			       vals[i].status ? "<not counted>" : "nan");
		else
			printf("%-36s %10.1f%s\n", ev[i].name, vals[i].value,
			       stat_metrics_perf_unit(ev[i].name));
	rc = status;
out:
	pmk_eventset_free(es);
	free(ev);
	free(vals);
	return rc;
}
