/*
 * stat_metrics.c: pmkit's metric library for `pmkit stat -M` and
 * `--topdown`: the definition files of metrics/ (docs/derive.md), found
 * beside the program or through $PMK_METRICS_DIR. A metric is a user event
 * of a file; a group is a whole file (TopdownL1 is topdown.def's level 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/stat_metrics.h"

/* The metric library: $PMK_METRICS_DIR, else metrics/ beside the build
 * directory (a source tree) or share/pmkit/metrics beside bin/. */
int stat_metrics_dir(char *buf, size_t size)
{
	const char *env = getenv("PMK_METRICS_DIR");
	char exe[4096], *slash;
	ssize_t n;
	static const char *const rel[] = {"/../metrics", "/../share/pmkit/metrics",
					  "/../../metrics"};
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	if ((slash = strrchr(exe, '/')) != NULL)
		*slash = 0;
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		char probe[4200];
		snprintf(probe, sizeof probe, "%s%s/basic.def", exe, rel[i]);
		if (access(probe, R_OK) == 0) {
			snprintf(buf, size, "%s%s", exe, rel[i]);
			return 0;
		}
	}
	return -1;
}

/* The library's files, in the order -M searches them. */
static const char *const metric_files[] = {"basic", "topdown", "power",
					   "roofline", "perfexpert"};

int stat_metrics_add(pmk_event *ev, int *nev, int max, const char *dir,
		     const char *name, int *found_group_empty)
{
	int group = !strcasecmp(name, "TopdownL1") ? 1 : 0;
	for (size_t f = 0; f < sizeof metric_files / sizeof metric_files[0];
	     f++) {
		char path[4300];
		pmk_defs *defs;
		pmk_diag d;
		int in_group = group ? !strcmp(metric_files[f], "topdown")
				     : !strcmp(metric_files[f], name);
		snprintf(path, sizeof path, "%s/%s.def", dir, metric_files[f]);
		if (pmk_defs_parse_file(&defs, path, NULL, &d) < 0)
			continue;
		for (int i = 0; i < pmk_defs_count(defs); i++) {
			const char *m = pmk_defs_name(defs, i);
			if (!in_group && strcmp(m, name))
				continue;
			if (group && !strcmp(m, "tma_slots"))
				continue;
			if (in_group && !strncmp(m, "tma_metric", 10))
				continue;
			if (*nev == max) {
				cli_error("more than %d events", max);
				pmk_defs_free(defs);
				return EXIT_USAGE;
			}
			if (pmk_defs_event(defs, i, &ev[*nev], &d) < 0) {
				cli_diag(&d);
				pmk_defs_free(defs);
				return EXIT_USAGE;
			}
			snprintf(ev[*nev].name, sizeof ev[0].name, "%s", m);
			(*nev)++;
			if (!in_group) {
				pmk_defs_free(defs);
				return 0;
			}
		}
		pmk_defs_free(defs);
		if (in_group) {
			if (found_group_empty)
				*found_group_empty = 1;
			return 0;
		}
	}
	return 1;
}

void stat_metrics_list(FILE *out, const char *dir)
{
	fprintf(out, "%-28s %-10s %s\n", "metric", "group", "definition");
	for (size_t f = 0; f < sizeof metric_files / sizeof metric_files[0];
	     f++) {
		char path[4300];
		pmk_defs *defs;
		pmk_diag d;
		pmk_defs_opts op = {0};
		op.symbolic = 1; /* every metric, countable here or not */
		snprintf(path, sizeof path, "%s/%s.def", dir, metric_files[f]);
		if (pmk_defs_parse_file(&defs, path, &op, &d) < 0)
			continue;
		for (int i = 0; i < pmk_defs_count(defs); i++)
			fprintf(out, "%-28s %-10s %s\n", pmk_defs_name(defs, i),
			       metric_files[f], pmk_defs_text(defs, i));
		pmk_defs_free(defs);
	}
	fprintf(out, "\ngroups: -M basic, -M topdown (also -M TopdownL1, --topdown);"
	       " the CPU model's section of a file is used\n");
}
