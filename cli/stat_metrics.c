/*
 * stat_metrics.c: the metrics of `pmkit stat -M` and `--topdown`, from two
 * sources (docs/metrics.md):
 *  - perf's metrics and metric groups for the target's CPU model, read
 *    from perf's pmu-events JSON (lib/derive/pmu_json.c) and translated
 *    to pmkit's evaluator; a name perf defines is perf's;
 *  - pmkit's metric library: the definition files of metrics/
 *    (docs/derive.md), found beside the program or through
 *    $PMK_METRICS_DIR, for what perf does not define. A metric is a user
 *    event of a file; a group is a whole file (TopdownL1 is topdown.def's
 *    level 1 where perf has no TopdownL1 for the model).
 * `-M list` shows what -M accepts on the target, and apart, what it would
 * refuse and why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/stat_likwid.h"
#include "cli/stat_metrics.h"
#include "lib/derive/pmu_json.h"

/* The metric library: $PMK_METRICS_DIR, else metrics/ beside the build
 * directory (a source tree) or share/pmkit/metrics beside bin/. */
int stat_metrics_dir(char *buf, size_t size)
{
	const char *env = getenv("PMK_METRICS_DIR");
	char exe[4096], *slash;
	ssize_t n;
	static const char *const rel[] = {
	    "/../metrics", "/../share/pmkit/metrics", "/../../metrics"};
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
			snprintf(why, size, "'%s' has no encoding on %s%s%s",
				 pmk_defs_base(defs, i, k),
				 *model ? "CPU model '" : "this machine", model,
				 *model ? "'" : "");
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

/* perf's definitions for the target's model, loaded once; NULL when there
 * are none (perf_why says why). */
static pmk__pmu_model *perf_defs;
static char perf_why[300];

static pmk__pmu_model *perf_model(void)
{
	static int tried;
	pmk_diag d;
	if (tried)
		return perf_defs;
	tried = 1;
	if (pmk__pmu_model_load(&perf_defs, NULL, target_model(), &d) < 0)
		snprintf(perf_why, sizeof perf_why, "%s", d.message);
	return perf_defs;
}

/* perf's metric k compiled for the target (into defs and idx): 0, or -1 with
 * the reason -M refuses it in `why`. */
static int perf_metric_usable(pmk__pmu_model *m, int k, pmk_defs **defs,
			      int *idx, char *why, size_t size)
{
	pmk_event ev;
	pmk_diag d;
	const char *model = target_model();
	*defs = NULL;
	if (pmk__pmu_metric_defs(m, k, NULL, defs, idx, why, size) < 0)
		return -1;
	for (int b = 0; b < pmk_defs_base_count(*defs, *idx); b++)
		if (!pmk_defs_base_resolved(*defs, *idx, b)) {
			const char *base = pmk_defs_base(*defs, *idx, b);
			snprintf(why, size,
				 "'%s' has no encoding on CPU model "
				 "'%s': %s",
				 base, model, pmk__pmu_base_why(m, base));
			goto refused;
		}
	if (pmk_defs_event(*defs, *idx, &ev, &d) < 0) {
		snprintf(why, size,
			 "needs more than %d natives or %d steps to count at "
			 "once",
			 PMK_LEAF_MAX, PMK_OPS_MAX);
		goto refused;
	}
	return 0;
refused:
	pmk_defs_free(*defs);
	*defs = NULL;
	return -1;
}

/* Whether pmkit's library defines metric `name` (not a group) and -M
 * can evaluate it on the target. */
static int lib_usable(const char *dir, const char *name)
{
	int ok = 0;
	for (size_t f = 0;
	     f < sizeof metric_files / sizeof metric_files[0] && !ok; f++) {
		char path[4300], why[300];
		pmk_defs *defs;
		pmk_diag d;
		int i;
		snprintf(path, sizeof path, "%s/%s.def", dir, metric_files[f]);
		if (pmk_defs_parse_file(&defs, path, NULL, &d) < 0)
			continue;
		i = pmk_defs_find(defs, name);
		ok = i >= 0 && metric_usable(defs, i, why, sizeof why) == 0;
		pmk_defs_free(defs);
	}
	return ok;
}

/* Whether perf defines metric `name` for the target and -M can evaluate
 * it: 1 yes, 0 perf defines it but -M cannot (why), -1 perf does not. */
static int perf_usable(const char *name, char *why, size_t size)
{
	pmk__pmu_model *m = perf_model();
	pmk_defs *defs;
	int k, idx;
	if (!m || (k = pmk__pmu_metric_find(m, name)) < 0)
		return -1;
	if (perf_metric_usable(m, k, &defs, &idx, why, size) < 0)
		return 0;
	pmk_defs_free(defs);
	return 1;
}

static int lib_metrics_add(pmk_event *ev, int *nev, int max, const char *dir,
			   const char *name, int *found_group_empty);

/* A metric that is a constant on this machine (`X if #smt_on else 0`
 * without SMT: its events are all in the branch ruled out) has nothing to
 * count; perf prints the constant. It is given perf's duration_time (a
 * tool event, counted everywhere) as its one native, which its program
 * does not read, so that the set counts it and stat prints the value.
 * 0, or -1 with d set. */
static int constant_carrier(pmk_event *ev, pmk_diag *d)
{
	pmk_event tool;
	if (ev->nleaf > 0)
		return 0;
	if (pmk_event_parse(pmk_target_host(), "duration_time", &tool, d) != 0)
		return -1;
	ev->leaf[0] = tool.leaf[0];
	ev->nleaf = 1;
	return 0;
}

/* -M NAME from perf's definitions: 0 added, 1 perf defines no such name
 * (or defines a metric -M cannot evaluate that pmkit's library also
 * defines: the library's is used, with a warning), EXIT_USAGE after an
 * error. */
static int perf_metrics_add(pmk_event *ev, int *nev, int max, const char *dir,
			    const char *name)
{
	pmk__pmu_model *m = perf_model();
	int k, added = 0, skipped = 0, group;
	char why[1600];
	if (!m)
		return 1;
	k = pmk__pmu_metric_find(m, name);
	group = k < 0 && pmk__pmu_group_exists(m, name);
	if (k < 0 && !group)
		return 1;
	for (int i = 0; i < pmk__pmu_metric_count(m); i++) {
		pmk_defs *defs;
		pmk_diag d;
		int idx;
		if (group ? !pmk__pmu_metric_in_group(m, i, name) : i != k)
			continue;
		if (perf_metric_usable(m, i, &defs, &idx, why, sizeof why) <
		    0) {
			if (!group && lib_usable(dir, name)) {
				cli_warn("perf's metric '%s' (%s) cannot be "
					 "evaluated here: %s; pmkit's own "
					 "definition (metrics/) is used",
					 pmk__pmu_metric_name(m, i),
					 pmk__pmu_model_path(m), why);
				return 1;
			}
			if (!group) {
				cli_error("perf's metric '%s' (%s) cannot be "
					  "evaluated here: %s",
					  pmk__pmu_metric_name(m, i),
					  pmk__pmu_model_path(m), why);
				return EXIT_USAGE;
			}
			if (lib_usable(dir, pmk__pmu_metric_name(m, i))) {
				int rc;
				cli_warn("-M %s: perf's %s cannot be evaluated "
					 "here (%s): pmkit's own definition "
					 "(metrics/) is used",
					 name, pmk__pmu_metric_name(m, i), why);
				rc = lib_metrics_add(ev, nev, max, dir,
						     pmk__pmu_metric_name(m, i),
						     NULL);
				if (rc != 0)
					return rc;
				added++;
				continue;
			}
			cli_warn("-M %s: %s left out: %s", name,
				 pmk__pmu_metric_name(m, i), why);
			skipped++;
			continue;
		}
		if (*nev == max) {
			cli_error("more than %d events", max);
			pmk_defs_free(defs);
			return EXIT_USAGE;
		}
		if (pmk_defs_event(defs, idx, &ev[*nev], &d) < 0 ||
		    constant_carrier(&ev[*nev], &d) < 0) {
			cli_diag(&d);
			pmk_defs_free(defs);
			return EXIT_USAGE;
		}
		snprintf(ev[*nev].name, sizeof ev[0].name, "%s",
			 pmk__pmu_metric_name(m, i));
		(*nev)++;
		added++;
		pmk_defs_free(defs);
	}
	if (!added) {
		cli_error("-M %s: none of perf's metrics of this group (%s) "
			  "can be evaluated here (%d left out)",
			  name, pmk__pmu_model_path(m), skipped);
		return EXIT_USAGE;
	}
	return 0;
}

/* -M NAME from pmkit's library (stat_metrics_add's values). */
static int lib_metrics_add(pmk_event *ev, int *nev, int max, const char *dir,
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
				cli_warn("-M %s: %s left out: %s", name, m,
					 why);
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

/* perf's metrics in `-M list`: those -M accepts in a table, the others
 * appended to `left` with their reasons. */
static void perf_list(FILE *out, const char *dir, char *left, size_t size,
		      size_t *used, int *nleft)
{
	pmk__pmu_model *m = perf_model();
	int n = 0;
	if (!m) {
		fprintf(out, "\nperf's metrics: none for CPU model '%s' (%s)\n",
			target_model(), perf_why);
		return;
	}
	fprintf(out, "\nperf's metrics for %s (%s, %s):\n", target_model(),
		pmk__pmu_model_path(m), pmk__pmu_events_dir());
	fprintf(out, "%-28s %-10s %s\n", "metric", "groups",
		"perf's expression");
	for (int i = 0; i < pmk__pmu_metric_count(m); i++) {
		pmk_defs *defs;
		int idx;
		char why[1600];
		if (perf_metric_usable(m, i, &defs, &idx, why, sizeof why) ==
		    0) {
			fprintf(out, "%-28s %-10s %s\n",
				pmk__pmu_metric_name(m, i),
				*pmk__pmu_metric_groups(m, i)
				    ? pmk__pmu_metric_groups(m, i)
				    : "-",
				pmk__pmu_metric_expr(m, i));
			pmk_defs_free(defs);
			n++;
			continue;
		}
		if (lib_usable(dir, pmk__pmu_metric_name(m, i)))
			continue; /* listed above: -M uses pmkit's own */
		if (*used < size)
			*used += (size_t)snprintf(
			    left + *used, size - *used, "  %-26s %s\n",
			    pmk__pmu_metric_name(m, i), why);
		(*nleft)++;
	}
	fprintf(out,
		"\n%d of perf's %d metrics for this model; groups: -M "
		"GROUP with a name of the groups column\n",
		n, pmk__pmu_metric_count(m));
}

/* `-M list`: the metrics -M accepts on the target, then those of the
 * library it would refuse here, each with its reason. A file that does
 * not load on the target (a name none of its tables knows) is checked
 * symbolically, and its metrics are listed as refused. */
void stat_metrics_list(FILE *out, const char *dir)
{
	static char left[1 << 17];
	size_t used = 0;
	int nleft = 0, nshadow = 0;
	left[0] = 0;
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
			char pwhy[1600];
			int p = perf_usable(m, pwhy, sizeof pwhy);
			if (p == 1) {
				nshadow++;
				continue; /* perf's, listed below */
			}
			if (loads &&
			    metric_usable(defs, i, why, sizeof why) == 0) {
				fprintf(out, "%-28s %-10s %s\n", m,
					metric_files[f],
					pmk_defs_text(defs, i));
				continue;
			}
			if (p == 0)
				continue; /* perf's, refused below */
			if (used < sizeof left)
				used += (size_t)snprintf(
				    left + used, sizeof left - used,
				    "  %-26s %s\n", m, why);
			nleft++;
		}
		pmk_defs_free(defs);
	}
	fprintf(out,
		"\ngroups: -M basic, -M topdown (also -M TopdownL1, --topdown);"
		" the CPU model's section of a file is used\n");
	if (nshadow)
		fprintf(out,
			"(%d names of pmkit's library are perf's metrics on "
			"this model: listed below)\n",
			nshadow);
	perf_list(out, dir, left, sizeof left, &used, &nleft);
	if (nleft)
		fprintf(out,
			"\nnot evaluable on %s%s%s (-M refuses them): %d\n%s",
			*model ? "CPU model '" : "this machine", model,
			*model ? "'" : "", nleft, left);
}

int stat_metrics_perf_defines(const char *name)
{
	pmk__pmu_model *m = perf_model();
	int k, any = 0;
	if (!m)
		return 0;
	k = pmk__pmu_metric_find(m, name);
	if (k < 0 && !pmk__pmu_group_exists(m, name))
		return 0;
	/* every metric of it evaluable as perf's, without pmkit's own
	 * definitions standing in */
	for (int i = 0; i < pmk__pmu_metric_count(m); i++) {
		pmk_defs *defs;
		int idx;
		char why[1600];
		if (k >= 0 ? i != k : !pmk__pmu_metric_in_group(m, i, name))
			continue;
		if (perf_metric_usable(m, i, &defs, &idx, why, sizeof why) < 0)
			return 0;
		pmk_defs_free(defs);
		any = 1;
	}
	return any;
}

const char *stat_metrics_perf_unit(const char *name)
{
	pmk__pmu_model *m = perf_model();
	int i = m ? pmk__pmu_metric_find(m, name) : -1;
	const char *u = i >= 0 ? pmk__pmu_metric_unit(m, i) : "";
	u += strspn(u, "0123456789.eE+-");
	return u;
}

int stat_metrics_add(pmk_event *ev, int *nev, int max, const char *dir,
		     const char *name, int *found_group_empty)
{
	int rc;
	if (stat_likwid_name(name)) /* -g: LIKWID's groups */
		return stat_likwid_add(ev, nev, max, stat_likwid_name(name));
	rc = perf_metrics_add(ev, nev, max, dir, name);
	if (rc != 1)
		return rc;
	rc = lib_metrics_add(ev, nev, max, dir, name, found_group_empty);
	if (rc == 1 && !perf_model())
		/* say which source was not there, before stat's error */
		cli_warn("perf's metrics are not available for CPU model "
			 "'%s': %s",
			 target_model(), perf_why);
	return rc;
}
