/*
 * stat_shadow.c: perf's metric of a count, as `pmkit stat` shows it after
 * '#' (stat_output.c) and in --metric-only's columns (stat_metric_only.c):
 * CPUs utilized, rates per second, GHz, insn per cycle, % of all branches.
 */
#include <string.h>

#include "cli/stat_output.h"

static int countable(const struct stat_row *w)
{
	return w->status == 0 && !(w->flags & PMK_VALUE_NOT_COUNTED);
}

/* A hybrid's event as perf names it there, "cpu_core/cycles/u": the
 * length of its PMU ("cpu_core"), else 0 (an event of its own name). */
static size_t pmu_len(const char *name)
{
	const char *s = strchr(name, '/'), *e;
	if (!s || !(e = strchr(s + 1, '/')) || e == s + 1)
		return 0;
	for (const char *c = s + 1; c < e; c++)
		if (*c == '=' || *c == ',')
			return 0; /* terms, not a name */
	return (size_t)(s - name);
}

/* Whether event name `name` is `base`, with or without modifiers
 * (task-clock, task-clock:u), or on a hybrid's core PMU
 * (cpu_atom/cycles/, cpu_atom/cycles/u): perf's metrics follow modified
 * events, and each core type's its own. */
static int is(const char *name, const char *base)
{
	size_t n = strlen(base), p = pmu_len(name);
	if (p)
		return !strncmp(name + p + 1, base, n) && name[p + 1 + n] == '/';
	return !strncmp(name, base, n) && (name[n] == 0 || name[n] == ':');
}

/* The modifiers of an event name (":u", or "u" after a PMU's terms),
 * or "". */
static const char *mods(const char *name)
{
	size_t p = pmu_len(name);
	const char *c;
	if (p)
		return strchr(name + p + 1, '/') + 1;
	c = strchr(name, ':');
	return c ? c : "";
}

/* Whether row w may serve row like's metric: a clock always; a hardware
 * event only of like's core PMU on a hybrid (cpu_atom/instructions/ takes
 * cpu_atom/cycles/, as perf), or both of their own names. */
static int same_pmu(const struct stat_row *w, const struct stat_row *like,
		    const char *base)
{
	size_t n = pmu_len(like->name);
	if (!strcmp(base, "task-clock") || !strcmp(base, "cpu-clock"))
		return 1;
	return pmu_len(w->name) == n && !strncmp(w->name, like->name, n);
}

/* A counted row of the same aggregation unit named `base`, preferring
 * one with the modifiers of `like` (page-faults:u takes task-clock:u). */
static const struct stat_row *find(const struct stat_result *r,
				   const struct stat_row *like,
				   const char *base)
{
	const struct stat_row *any = NULL;
	for (int i = 0; i < r->nrows; i++) {
		const struct stat_row *w = &r->rows[i];
		if (is(w->name, base) && countable(w) &&
		    w->cgroup == like->cgroup &&
		    same_pmu(w, like, base) &&
		    (w->aggr == like->aggr ||
		     (w->aggr && like->aggr && !strcmp(w->aggr, like->aggr)))) {
			if (!strcmp(mods(w->name), mods(like->name)))
				return w;
			if (!any)
				any = w;
		}
	}
	return any;
}

/* perf's metric of a row: 1 and value/unit, or 0 when it has none. */
int stat_row_metric(const struct stat_result *r, const struct stat_row *w,
		    double *val, char *unit, size_t usize)
{
	const struct stat_row *clk;
	unit[0] = 0;
	if (!countable(w) || w->derived)
		return 0;
	if (is(w->name, "task-clock") || is(w->name, "cpu-clock")) {
		if (r->span_s <= 0)
			return 0;
		*val = w->value / 1e3 / r->span_s;
		snprintf(unit, usize, "CPUs utilized");
		return 1;
	}
	if (w->unit[0])
		return 0;
	clk = find(r, w, "task-clock");
	if (!clk)
		clk = find(r, w, "cpu-clock");
	if (is(w->name, "cycles") && clk) {
		*val = clk->value > 0 ? w->value / (clk->value * 1e6) : 0;
		snprintf(unit, usize, "GHz");
		return 1;
	}
	if (is(w->name, "instructions")) {
		const struct stat_row *cyc = find(r, w, "cycles");
		if (!cyc)
			return 0;
		*val = cyc->value > 0 ? w->value / cyc->value : 0;
		snprintf(unit, usize, "insn per cycle");
		return 1;
	}
	if (is(w->name, "branch-misses")) {
		const struct stat_row *br = find(r, w, "branches");
		if (br) {
			*val = br->value > 0 ? w->value / br->value * 100 : 0;
			snprintf(unit, usize, "of all branches");
			return 1;
		}
	}
	if (clk) { /* events per second of task-clock, scaled K/M/G */
		double rate = clk->value > 0 ? w->value / (clk->value / 1e3) : 0;
		const char *pre = "";
		if (rate >= 1e9)
			rate /= 1e9, pre = "G";
		else if (rate >= 1e6)
			rate /= 1e6, pre = "M";
		else if (rate >= 1e3)
			rate /= 1e3, pre = "K";
		*val = rate;
		snprintf(unit, usize, "%s/sec", pre);
		return 1;
	}
	return 0;
}
