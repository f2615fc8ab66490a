/*
 * list_metrics.c: perf's metrics and metric groups for the target's CPU
 * model (lib/derive/pmu_json.c reads perf's pmu-events JSON), listed as
 * perf 6.1's `perf list metric`, `perf list metricgroup` and their
 * --raw-dump print them, so that scripts written for perf (its
 * stat_all_metrics.sh and stat_all_metricgroups.sh) get the same names.
 * pmkit's own metric library is `pmkit stat -M list`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/list_metrics.h"
#include "cli/personality.h"
#include "lib/derive/pmu_json.h"
#include "pmkit.h"

static const pmk__pmu_model *sort_m;
static int describe(const pmk__pmu_model *m, int i, char *buf, size_t size);

/* metrics by name, then (a hybrid's two CPU_Utilization) by what perf
 * shows of them, then in the files' order */
static int cmp_metric(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	int c = strcmp(pmk__pmu_metric_name(sort_m, i),
		       pmk__pmu_metric_name(sort_m, j));
	if (!c) {
		char di[1200] = "", dj[1200] = "";
		describe(sort_m, i, di, sizeof di);
		describe(sort_m, j, dj, sizeof dj);
		c = strcmp(di, dj);
	}
	return c ? c : (i > j) - (i < j);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The metrics perf lists (not an event's own), sorted: their indices. */
static int metrics_sorted(const pmk__pmu_model *m, int **out)
{
	int n = pmk__pmu_metric_count(m), k = 0;
	int *v = malloc(sizeof *v * (size_t)(n + 1));
	if (!v)
		return -1;
	for (int i = 0; i < n; i++)
		if (!pmk__pmu_metric_in_event(m, i))
			v[k++] = i;
	sort_m = m;
	qsort(v, (size_t)k, sizeof *v, cmp_metric);
	*out = v;
	return k;
}

/* The distinct groups named in those metrics' ';'-separated MetricGroup
 * fields ("No_group" for a metric of none, as perf files it), sorted. */
static int groups_sorted(const pmk__pmu_model *m, char ***out)
{
	int n = pmk__pmu_metric_count(m), k = 0, cap = 64;
	char **v = malloc(sizeof *v * (size_t)cap);
	if (!v)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *s = pmk__pmu_metric_groups(m, i);
		if (pmk__pmu_metric_in_event(m, i))
			continue;
		if (!*s)
			s = "No_group";
		while (*s) {
			size_t l = strcspn(s, ";");
			int seen = 0;
			for (int j = 0; j < k && !seen; j++)
				seen = strlen(v[j]) == l && !strncmp(v[j], s, l);
			if (l && !seen) {
				if (k == cap) {
					char **nv = realloc(
					    v, sizeof *v * (size_t)(cap *= 2));
					if (!nv)
						goto fail;
					v = nv;
				}
				if (!(v[k] = strndup(s, l)))
					goto fail;
				k++;
			}
			s += l;
			s += *s == ';';
		}
	}
	qsort(v, (size_t)k, sizeof *v, cmp_name);
	*out = v;
	return k;
fail:
	for (int i = 0; i < k; i++)
		free(v[i]);
	free(v);
	return -1;
}

/* Metric i's description as perf 6.1 shows it: its BriefDescription less
 * a closing ".  ", ". " or "." (what perf's jevents takes off), with ". Unit:
 * PMU " after it for a metric of a hybrid's core type ("Unit: PMU " alone
 * when the description is empty); a metric with an empty description or
 * none shows perf's "(null)" under the perf personality and no line
 * under pmkit's. 0 when there is no line to show. */
static int describe(const pmk__pmu_model *m, int i, char *buf, size_t size)
{
	const char *ds = pmk__pmu_metric_desc(m, i);
	const char *pmu = pmk__pmu_metric_pmu(m, i);
	size_t l = strlen(ds);
	static const char *const tail[] = {".  ", ". ", "."};
	for (int k = 0; k < 3; k++) {
		size_t t = strlen(tail[k]);
		if (l >= t && !strncmp(ds + l - t, tail[k], t))
			l -= t;
	}
	if (*pmu)
		snprintf(buf, size, "%.*s%sUnit: %s ", (int)l, ds,
			 l ? ". " : "", pmu);
	else if (*ds)
		snprintf(buf, size, "%.*s", (int)l, ds);
	else if (cli_as_perf) /* perf's reader keeps "" as none */
		snprintf(buf, size, "(null)");
	else
		return 0;
	return 1;
}

int list_metrics(FILE *out, int what, int raw)
{
	const pmk_target *t = pmk_target_host();
	const char *model = t ? pmk_target_model(t) : NULL;
	pmk__pmu_model *m = NULL;
	char **g = NULL;
	int *mi = NULL, n = 0;
	pmk_diag d;
	if (model && *model && pmk__pmu_model_load(&m, NULL, model, &d) == 0)
		n = what == LIST_METRICS ? metrics_sorted(m, &mi)
					 : groups_sorted(m, &g);
	if (n < 0)
		n = 0;
	if (!raw)
		fprintf(out, "\n%s:\n\n",
			what == LIST_METRICS ? "Metrics" : "Metric Groups");
	for (int i = 0; i < n; i++) {
		const char *name =
		    what == LIST_METRICS ? pmk__pmu_metric_name(m, mi[i]) : g[i];
		char ds[1200];
		if (raw && what == LIST_METRICS) { /* once, space-separated */
			if (!i || strcmp(name, pmk__pmu_metric_name(m, mi[i - 1])))
				fprintf(out, "%s%s", i ? " " : "", name);
		} else if (raw) { /* each followed by a space */
			fprintf(out, "%s ", name);
		} else if (what == LIST_METRICGROUPS) {
			fprintf(out, "%s\n", name);
		} else {
			fprintf(out, "  %s\n", name);
			if (describe(m, mi[i], ds, sizeof ds))
				fprintf(out, "       [%s]\n", ds);
		}
	}
	if (raw && what == LIST_METRICS) /* perf ends the dump so, even empty */
		fputc('\n', out);
	for (int i = 0; g && i < n; i++)
		free(g[i]);
	free(g);
	free(mi);
	pmk__pmu_model_free(m);
	return 0;
}
