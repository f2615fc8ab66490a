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

/* The target's CPU model ("" when it has none). */
static const char *target_model(void)
{
	const pmk_target *t = pmk_target_host();
	const char *m = t ? pmk_target_model(t) : NULL;
	return m ? m : "";
}

/* Whether user event i of `defs` can be counted live on the target: 0, or
 * -1 with the reason in `why` (what -M would refuse it for). A base with
 * no encoding on the model (a preset the model's tables do not define) and
 * a metric too large for one event (PMK_LEAF_MAX natives) are told apart. */
static int metric_usable(const pmk_defs *defs, int i, char *why, size_t size)
{
	pmk_event ev;
	pmk_diag d;
	const char *model = target_model();
	for (int k = 0; k < pmk_defs_base_count(defs, i); k++)
		if (!pmk_defs_base_resolved(defs, i, k)) {
			snprintf(why, size,
				 "'%s' has no encoding on %s%s%s",
				 pmk_defs_base(defs, i, k),
				 *model ? "CPU model '" : "this machine",
				 model, *model ? "'" : "");
			return -1;
		}
	if (pmk_defs_event(defs, i, &ev, &d) < 0) {
		snprintf(why, size,
			 "needs more than %d natives or %d steps to count at "
			 "once (`pmkit metric eval` computes it from recorded "
			 "counts)",
			 PMK_LEAF_MAX, PMK_OPS_MAX);
		return -1;
	}
	return 0;
}

int stat_metrics_add(pmk_event *ev, int *nev, int max, const char *dir,
		     const char *name, int *found_group_empty)
{
	int group = !strcasecmp(name, "TopdownL1") ? 1 : 0;
	for (size_t f = 0; f < sizeof metric_files / sizeof metric_files[0];
	     f++) {
		char path[4300], why[300];
		pmk_defs *defs;
		pmk_diag d;
		int in_group = group ? !strcmp(metric_files[f], "topdown")
				     : !strcmp(metric_files[f], name);
		int added = 0, skipped = 0;
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
			if (metric_usable(defs, i, why, sizeof why) < 0) {
				if (!in_group) {
					cli_error("metric '%s' (%s.def) cannot "
						  "be evaluated here: %s",
						  m, metric_files[f], why);
					pmk_defs_free(defs);
					return EXIT_USAGE;
				}
				cli_warn("-M %s: %s left out: %s", name, m, why);
				skipped++;
				continue;
			}
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
			added++;
			if (!in_group) {
				pmk_defs_free(defs);
				return 0;
			}
		}
		pmk_defs_free(defs);
		if (in_group) {
			if (!added && skipped) {
				cli_error("-M %s: none of its metrics can be "
					  "evaluated here",
					  name);
				return EXIT_USAGE;
			}
			if (found_group_empty)
				*found_group_empty = 1;
			return 0;
		}
	}
	return 1;
}

/* `-M list`: the metrics -M accepts on the target, then those of the
 * library it would refuse here, each with its reason. A file that does
 * not load on the target (a name none of its tables knows) is checked
 * symbolically, and its metrics are listed as refused. */
void stat_metrics_list(FILE *out, const char *dir)
{
	char left[8192] = "";
	size_t used = 0;
	int nleft = 0;
	const char *model = target_model();
	fprintf(out, "%-28s %-10s %s\n", "metric", "group", "definition");
	for (size_t f = 0; f < sizeof metric_files / sizeof metric_files[0];
	     f++) {
		char path[4300], why[300];
		pmk_defs *defs;
		pmk_diag d;
		int loads;
		snprintf(path, sizeof path, "%s/%s.def", dir, metric_files[f]);
		loads = pmk_defs_parse_file(&defs, path, NULL, &d) == 0;
		if (!loads) {
			pmk_defs_opts op = {0};
			op.symbolic = 1;
			snprintf(why, sizeof why, "%s", d.message);
			if (pmk_defs_parse_file(&defs, path, &op, &d) < 0)
				continue;
		}
		for (int i = 0; i < pmk_defs_count(defs); i++) {
			const char *m = pmk_defs_name(defs, i);
			if (loads && metric_usable(defs, i, why, sizeof why) == 0) {
				fprintf(out, "%-28s %-10s %s\n", m,
					metric_files[f], pmk_defs_text(defs, i));
				continue;
			}
			if (used < sizeof left)
				used += (size_t)snprintf(left + used,
							 sizeof left - used,
							 "  %-26s %s\n", m, why);
			nleft++;
		}
		pmk_defs_free(defs);
	}
	fprintf(out, "\ngroups: -M basic, -M topdown (also -M TopdownL1, --topdown);"
	       " the CPU model's section of a file is used\n");
	if (nleft)
		fprintf(out,
			"\nnot evaluable on %s%s%s (-M refuses them): %d\n%s",
			*model ? "CPU model '" : "this machine", model,
			*model ? "'" : "", nleft, left);
}
