/*
 * cmd_list.c: `pmkit list [--json] [--details] [--raw-dump] [-o FILE]
 * [CATEGORY...] [PATTERN]`: every event this
 * machine knows (generic, software, presets, each PMU's sysfs events, the
 * model's natives from libpfm4 or pmkit's tables, user-defined events;
 * tracepoints for a SUB:NAME pattern, and every one, unopened, when pmkit
 * runs as perf, as perf list lists them) and whether it can be counted here,
 * decided by opening it, with the reason when it cannot. Under
 * PMK_SYSROOT (a captured machine) nothing is opened. Each preset says
 * where its definition comes from (PAPI's papi_events.csv, pmkit's table,
 * the generic events): the JSON's "source" and "defined_at", and a line
 * under the preset with --details. perf's categories (hw, sw, cache,
 * tracepoint, pmu) select kinds of events, not substrings, and
 * --raw-dump prints what perf list --raw-dump prints: the names of the
 * events that count here, each followed by a space, on one line with no
 * newline (scripts, and perf's own tests, iterate over it).
 */
/* pmkit-command: list | list events and whether they count here */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/list_metrics.h"
#include "cli/opt.h"
#include "cli/personality.h"
#include "lib/core/outfile.h"

/* perf list's categories, as bits of list_ctx.cats */
enum {
	CAT_HW = 1,
	CAT_SW = 2,
	CAT_CACHE = 4,
	CAT_TRACEPOINT = 8,
	CAT_PMU = 16,
	CAT_METRIC = 32, /* perf's metrics: pmkit's are `stat -M list` */
	CAT_METRICGROUP = 64, /* perf's metric groups */
};

static const struct {
	const char *word; /* perf's word and its synonym */
	int cat;
} categories[] = {
	{"hw", CAT_HW},		{"hardware", CAT_HW},
	{"sw", CAT_SW},		{"software", CAT_SW},
	{"cache", CAT_CACHE},	{"hwcache", CAT_CACHE},
	{"tracepoint", CAT_TRACEPOINT},
	{"pmu", CAT_PMU},
	{"metric", CAT_METRIC},	{"metrics", CAT_METRIC},
	{"metricgroup", CAT_METRICGROUP}, {"metricgroups", CAT_METRICGROUP},
};

/* The names --raw-dump collects, per category, to print in perf's order. */
struct names {
	char **v;
	int n, cap;
};

struct list_ctx {
	const pmk_target *t;
	const char *pattern;
	int json, first, shown, countable, details;
	int cats;     /* CAT_* bits; 0: every kind */
	int no_try;   /* list without opening (tracepoints of a category) */
	int raw;      /* --raw-dump: collect the names that count */
	struct names hw, sw, tool, cache, pmu, tp;
	pmk_event_kind last_kind;
	FILE *out;
};

static int cat_of(pmk_event_kind k)
{
	switch (k) {
	case PMK_KIND_HARDWARE:
		return CAT_HW;
	case PMK_KIND_SOFTWARE:
	case PMK_KIND_TOOL: /* perf lists its tool events with the software */
		return CAT_SW;
	case PMK_KIND_HWCACHE:
		return CAT_CACHE;
	case PMK_KIND_TRACEPOINT:
		return CAT_TRACEPOINT;
	case PMK_KIND_PMU:
	case PMK_KIND_NATIVE:
		return CAT_PMU;
	default:
		return 0;
	}
}

static void names_add(struct names *l, const char *name)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		char **v = realloc(l->v, sizeof *v * (size_t)cap);
		if (!v)
			return;
		l->v = v;
		l->cap = cap;
	}
	if ((l->v[l->n] = strdup(name)))
		l->n++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print and free one category's names: sorted as perf sorts them, or
 * in the order found (perf's tool events). */
static void names_dump(FILE *out, struct names *l, int sort)
{
	if (sort && l->n > 1)
		qsort(l->v, (size_t)l->n, sizeof *l->v, by_name);
	for (int i = 0; i < l->n; i++) {
		fprintf(out, "%s ", l->v[i]);
		free(l->v[i]);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* perf's name of a generic hardware event where pmkit's first name is
 * the alias (perf prints "cpu-cycles OR cycles"; raw dumps the first) */
static const char *perf_hw_name(const char *name)
{
	if (!strcmp(name, "cycles"))
		return "cpu-cycles";
	if (!strcmp(name, "branches"))
		return "branch-instructions";
	return name;
}

static int matches(const char *pattern, const char *name)
{
	if (!pattern)
		return 1;
	if (strpbrk(pattern, "*?["))
		return fnmatch(pattern, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, pattern) != NULL;
}

/* Open the event on ourselves: the honest answer to "does it count?". */
static int try_count(const char *name, char *why, size_t size)
{
	pmk_eventset *es;
	pmk_diag d;
	int ok = 0;
	why[0] = 0;
	if (pmk_eventset_new(&es, PMK_ES_MULTIPLEX) != 0)
		return 0;
	if (pmk_eventset_add(es, name, &d) < 0) {
		snprintf(why, size, "%s", d.message);
	} else if (pmk_eventset_open(es, &d) != 0) {
		snprintf(why, size, "%s", d.message);
	} else if (pmk_eventset_event_diag(es, 0)) {
		snprintf(why, size, "%s", pmk_eventset_event_diag(es, 0)->message);
	} else {
		ok = 1;
	}
	pmk_eventset_free(es);
	return ok;
}

/* Whether the PMU called `name` counts per package (uncore). */
static int pmu_is_uncore(const pmk_target *t, const char *name)
{
	for (int i = 0; i < pmk_target_pmu_count(t); i++) {
		int unc = 0;
		if (strcmp(pmk_target_pmu_name(t, i, NULL, NULL), name))
			continue;
		pmk_target_pmu_model(t, i, &unc);
		return unc;
	}
	return 0;
}

static int show(const pmk_event_info *info, void *arg)
{
	struct list_ctx *c = arg;
	char why[256];
	pmk_preset_origin src = {.size = sizeof src};
	int ok;
	/* a pattern finds names, and vendor names given in descriptions */
	if (!matches(c->pattern, info->name) &&
	    !(info->desc && c->pattern && !strpbrk(c->pattern, "*?[") &&
	      strcasestr(info->desc, c->pattern)))
		return 0;
	if (c->cats && !(cat_of(info->kind) & c->cats))
		return 0;
	if (c->raw) {
		/* perf's raw dump: what counts here; tracepoints unopened */
		if (!cat_of(info->kind))
			return 0;
		if (info->kind != PMK_KIND_TRACEPOINT &&
		    (pmk_target_captured(c->t) ||
		     !try_count(info->name, why, sizeof why)))
			return 0;
		c->shown++;
		switch (info->kind) {
		case PMK_KIND_HARDWARE:
			names_add(&c->hw, perf_hw_name(info->name));
			break;
		case PMK_KIND_SOFTWARE:
			names_add(&c->sw, info->name);
			break;
		case PMK_KIND_TOOL:
			names_add(&c->tool, info->name);
			break;
		case PMK_KIND_HWCACHE:
			names_add(&c->cache, info->name);
			break;
		case PMK_KIND_TRACEPOINT:
			names_add(&c->tp, info->name);
			break;
		default:
			names_add(&c->pmu, info->name);
			break;
		}
		return 0;
	}
	if (c->no_try) {
		ok = 0;
		why[0] = 0;
	} else if (pmk_target_captured(c->t)) {
		/* a captured machine (PMK_SYSROOT): nothing can be opened */
		ok = 0;
		snprintf(why, sizeof why,
			 "not tried: a captured machine (PMK_SYSROOT)");
	} else {
		ok = try_count(info->name, why, sizeof why);
		if (!ok && info->kind == PMK_KIND_PMU &&
		    pmu_is_uncore(c->t, info->pmu))
			snprintf(why, sizeof why,
				 "uncore PMU '%s': counts system-wide only "
				 "(pmkit stat -a)",
				 info->pmu);
	}
	c->shown++;
	c->countable += ok;
	if (c->json) {
		fprintf(c->out, "%s\n  {\"name\":", c->first ? "" : ",");
		cli_json_str(c->out, info->name);
		fprintf(c->out, ",\"kind\":");
		cli_json_str(c->out, pmk_event_kind_name(info->kind));
		fprintf(c->out, ",\"pmu\":");
		cli_json_str(c->out, info->pmu);
		fprintf(c->out, ",\"description\":");
		cli_json_str(c->out, info->desc);
		if (info->kind == PMK_KIND_PRESET &&
		    pmk_preset_origin_get(c->t, info->name, &src) == 0) {
			fprintf(c->out, ",\"source\":");
			cli_json_str(c->out, src.source);
			fprintf(c->out, ",\"defined_at\":");
			cli_json_str(c->out, src.where);
			if (src.passed[0]) {
				fprintf(c->out, ",\"passed_over\":");
				cli_json_str(c->out, src.passed);
			}
		}
		fprintf(c->out, ",\"countable\":%s",
			pmk_target_captured(c->t) ? "null"
			: ok			   ? "true"
						   : "false");
		if (!ok && !pmk_target_captured(c->t)) {
			fprintf(c->out, ",\"reason\":");
			cli_json_str(c->out, why);
		}
		fputc('}', c->out);
		c->first = 0;
		return 0;
	}
	if (c->first || info->kind != c->last_kind)
		fprintf(c->out, "%s%s events:\n", c->first ? "" : "\n",
			pmk_event_kind_name(info->kind));
	c->first = 0;
	c->last_kind = info->kind;
	{
		/* the reason names the event: that is the row's name already */
		const char *r = why;
		if (r[0] == '\'' && strstr(r, "': "))
			r = strstr(r, "': ") + 3;
		if (pmk_target_captured(c->t) || c->no_try)
			fprintf(c->out, "  %-34s %s\n", info->name, info->desc);
		else
			fprintf(c->out, "  %-34s %-13s %s\n", info->name,
				ok ? "countable" : "not countable",
				ok ? info->desc : r);
	}
	if (c->details && info->kind == PMK_KIND_PRESET &&
	    pmk_preset_origin_get(c->t, info->name, &src) == 0) {
		fprintf(c->out, "      source: %s, %s\n",
			src.source, src.where);
		if (src.passed[0])
			fprintf(c->out, "      passed over: %s\n", src.passed);
	}
	return 0;
}

/* Tracepoints matching a "SUB:NAME" pattern (globs allowed). */
static int show_tracepoint(const char *name, uint64_t id, void *arg)
{
	struct list_ctx *c = arg;
	char desc[64];
	pmk_event_info info = {name, PMK_KIND_TRACEPOINT, "tracepoint", desc};
	const char *pat = c->pattern;
	snprintf(desc, sizeof desc, "tracepoint id %llu",
		 (unsigned long long)id);
	c->pattern = NULL; /* the tracefs walk matched it already */
	show(&info, c);
	c->pattern = pat;
	return 0;
}

/* The simulated PMU's events: every one counts on the simulated core. */
static int list_sim(struct list_ctx *c)
{
	if (c->json)
		fprintf(c->out, "{\"schema\":\"pmkit-list/1\",\"model\":\"sim\","
				"\"hardware_pmu\":true,\"pmus\":[{\"name\":\"sim\"}],"
				"\"events\":[");
	else
		fprintf(c->out, "events of the simulated PMU (pmkit stat --sim, "
				"pmkit sim run); modifiers :u :k :e :i :c=N "
				":umask=N :period=N\n\n");
	for (int i = 0; i < pmk_sim_event_count(); i++) {
		const pmk_sim_event_desc *e = pmk_sim_event_get(i);
		char desc[512];
		if (!matches(c->pattern, e->name))
			continue;
		snprintf(desc, sizeof desc, "%s%s%s%s", e->desc,
			 e->umask_desc ? " [umask: " : "",
			 e->umask_desc ? e->umask_desc : "",
			 e->umask_desc ? "]" : "");
		c->shown++;
		if (c->json) {
			fprintf(c->out, "%s\n  {\"name\":", c->first ? "" : ",");
			cli_json_str(c->out, e->name);
			fprintf(c->out, ",\"kind\":\"simulated\",\"pmu\":\"sim\","
					"\"description\":");
			cli_json_str(c->out, desc);
			fprintf(c->out, ",\"countable\":true}");
		} else {
			fprintf(c->out, "  %-24s %s\n", e->name, desc);
		}
		c->first = 0;
	}
	if (c->json)
		fprintf(c->out, "\n]}\n");
	else
		fprintf(c->out, "\n%d events\n", c->shown);
	if (c->pattern && c->shown == 0) {
		cli_error("no simulated event matches '%s'", c->pattern);
		return 1;
	}
	return 0;
}

enum { LIST_SIM = 256, LIST_DEFS, LIST_SYSROOT, LIST_DETAILS, LIST_RAW };
static const struct cli_opt list_opts[] = {
	{'j', "json", CLI_NOARG},
	{LIST_DETAILS, "details", CLI_NOARG},
	{LIST_RAW, "raw-dump", CLI_NOARG},
	{'o', "output", CLI_ARG},
	{LIST_SYSROOT, "sysroot", CLI_ARG},
	{LIST_SIM, "sim", CLI_NOARG},
	{LIST_DEFS, "defs", CLI_ARG},
	{0, NULL, 0},
};

struct list_flags {
	int json, sim, details, raw;
	const char *output; /* -o FILE, or NULL */
};

static int on_list_opt(int key, const char *val, void *arg)
{
	struct list_flags *f = arg;
	if (key == 'j')
		f->json = 1;
	else if (key == LIST_SIM)
		f->sim = 1;
	else if (key == LIST_DETAILS)
		f->details = 1;
	else if (key == LIST_RAW)
		f->raw = 1;
	else if (key == 'o')
		f->output = val;
	else if (key == LIST_DEFS && cli_defs_load(val))
		return EXIT_USAGE;
	else if (key == LIST_SYSROOT)
		setenv("PMK_SYSROOT", val, 1);
	return 0;
}

/* A tracepoint of the raw dump, kept when it matches the pattern. */
static int raw_tracepoint(const char *name, uint64_t id, void *arg)
{
	struct list_ctx *c = arg;
	if (!matches(c->pattern, name))
		return 0;
	return show_tracepoint(name, id, arg);
}

/* --raw-dump: the names in perf's order (hardware, software and perf's
 * tool events, cache, PMU, tracepoints), one space after each, no
 * newline, as perf 6.1 prints them. */
static int list_raw(struct list_ctx *c)
{
	const pmk_target *t = c->t;
	/* perf's metric names for the model (pmkit's metric library is not
	 * an event list: pmkit stat -M list) */
	if (c->cats & (CAT_METRIC | CAT_METRICGROUP)) {
		if (c->cats & CAT_METRIC)
			list_metrics(c->out, LIST_METRICS, 1);
		if (c->cats & CAT_METRICGROUP)
			list_metrics(c->out, LIST_METRICGROUPS, 1);
		if (!(c->cats & ~(CAT_METRIC | CAT_METRICGROUP)))
			return 0;
	}
	if (!c->cats ||
	    (c->cats & ~(CAT_TRACEPOINT | CAT_METRIC | CAT_METRICGROUP)))
		pmk_event_foreach(t, show, c);
	if (!c->cats || (c->cats & CAT_TRACEPOINT)) {
		if (c->pattern && strchr(c->pattern, ':'))
			pmk_tracepoint_foreach(t, c->pattern, show_tracepoint, c);
		else
			pmk_tracepoint_foreach(t, "*:*", raw_tracepoint, c);
	}
	names_dump(c->out, &c->hw, 1);
	names_dump(c->out, &c->sw, 1);
	names_dump(c->out, &c->tool, 0);
	names_dump(c->out, &c->cache, 1);
	names_dump(c->out, &c->pmu, 1);
	names_dump(c->out, &c->tp, 1);
	return 0;
}

static int list_run(struct list_ctx *c, int sim);

int cmd_list(int argc, char **argv)
{
	struct list_ctx c;
	struct list_flags f = {0};
	pmk__outfile of;
	pmk_diag d;
	int rc;
	int first = cli_opt_parse_mixed("list", argc, argv, list_opts, on_list_opt,
				    &f);
	if (first < 0)
		return -first;
	memset(&c, 0, sizeof c);
	c.first = 1;
	c.out = stdout;
	c.json = f.json;
	c.details = f.details;
	c.raw = f.raw;
	/* perf's category words, then at most one pattern */
	for (int i = first; i < argc; i++) {
		int cat = 0;
		for (size_t k = 0; k < sizeof categories / sizeof *categories; k++)
			if (!strcmp(argv[i], categories[k].word))
				cat = categories[k].cat;
		if (cat) {
			c.cats |= cat;
		} else if (c.pattern) {
			cli_error("one pattern at most");
			return cli_usage("list");
		} else {
			c.pattern = argv[i];
		}
	}
	if (c.raw && (c.json || f.sim || c.details)) {
		cli_error("--raw-dump prints names only: not with --json, "
			  "--sim or --details");
		return EXIT_USAGE;
	}
	if (f.output && !(c.out = pmk__outfile_fopen(&of, f.output, 0, &d))) {
		cli_diag(&d);
		return 1;
	}
	rc = list_run(&c, f.sim);
	if (f.output && pmk__outfile_fclose(&of, rc == 0, &d) && rc == 0) {
		cli_diag(&d);
		rc = 1;
	}
	return rc;
}

static int list_run(struct list_ctx *c_, int sim)
{
	struct list_ctx c = *c_;
	/* after --sysroot DIR (a captured machine, through the one place
	 * discovery reads its root, PMK_SYSROOT) */
	const pmk_target *t = pmk_target_host();
	c.t = t;
	if (sim)
		return list_sim(&c);
	if (c.raw)
		return list_raw(&c);
	if (c.cats && !(c.cats & ~(CAT_METRIC | CAT_METRICGROUP)) && !c.json) {
		/* perf's words, perf's layouts (list_metrics.c) */
		if (c.cats & CAT_METRIC)
			list_metrics(c.out, LIST_METRICS, 0);
		if (c.cats & CAT_METRICGROUP)
			list_metrics(c.out, LIST_METRICGROUPS, 0);
		return 0;
	}
	if (c.json) {
		fprintf(c.out, "{\"schema\":\"pmkit-list/1\",\"model\":");
		cli_json_str(c.out, pmk_target_model(t));
		fprintf(c.out, ",\"cpu\":");
		cli_json_str(c.out, pmk_target_cpu(t));
		fprintf(c.out, ",\"captured\":%s",
			pmk_target_captured(t) ? "true" : "false");
		fprintf(c.out, ",\"hardware_pmu\":%s,\"pmus\":[",
			pmk_target_core_pmu(t) ? "true" : "false");
		for (int i = 0; i < pmk_target_pmu_count(t); i++) {
			uint32_t type;
			int core = 0, unc = 0;
			const char *n = pmk_target_pmu_name(t, i, &type, &core);
			const char *m = pmk_target_pmu_model(t, i, &unc);
			const char *src = m[0] ? pmk_model_source(m) : NULL;
			fprintf(c.out, "%s{\"name\":", i ? "," : "");
			cli_json_str(c.out, n);
			fprintf(c.out, ",\"type\":%u,\"core\":%s,\"uncore\":%s",
				type, core ? "true" : "false",
				unc ? "true" : "false");
			if (core) {
				fprintf(c.out, ",\"model\":");
				cli_json_str(c.out, m);
				fprintf(c.out, ",\"events_from\":");
				cli_json_str(c.out, src ? src : "");
			}
			fputc('}', c.out);
		}
		fprintf(c.out, "],\"events\":[");
	} else {
		fprintf(c.out, "PMUs here:");
		for (int i = 0; i < pmk_target_pmu_count(t); i++)
			fprintf(c.out, " %s", pmk_target_pmu_name(t, i, NULL, NULL));
		if (!pmk_target_core_pmu(t))
			fprintf(c.out, " (no hardware PMU: virtual machine?)");
		if (pmk_target_cpu(t)[0])
			fprintf(c.out, "\nCPU: %s", pmk_target_cpu(t));
		for (int i = 0; i < pmk_target_pmu_count(t); i++) {
			int core = 0;
			const char *n = pmk_target_pmu_name(t, i, NULL, &core);
			const char *m = pmk_target_pmu_model(t, i, NULL);
			const char *src = m[0] ? pmk_model_source(m) : NULL;
			if (!core)
				continue;
			fprintf(c.out, "\n%s: model %s, native events from %s", n,
				m[0] ? m : "unknown",
				src ? src : "nowhere here (generic and sysfs events only)");
		}
		if (!pmk_target_core_pmu(t) && pmk_target_model(t)[0]) {
			const char *src = pmk_model_source(pmk_target_model(t));
			fprintf(c.out, "\nmodel %s, native events from %s",
				pmk_target_model(t),
				src ? src : "nowhere here");
		}
		if (pmk_target_captured(t))
			fprintf(c.out, "\ncaptured machine (PMK_SYSROOT): "
				       "events are listed, not opened here");
		if (c.details) {
			const char *why;
			int nlines = 0;
			const char *pf = pmk_papi_events_file(&nlines, &why);
			if (pf)
				fprintf(c.out, "\nPAPI's preset definitions: "
					       "%s (%d lines)",
					pf, nlines);
			else
				fprintf(c.out, "\nPAPI's preset definitions: "
					       "none (%s)",
					why[0] ? why
					       : "no papi_events.csv: Debian "
						 "package libpapi7.0, or "
						 "PMK_PAPI_EVENTS=FILE");
		}
		fprintf(c.out, "\n\n");
	}
	if (c.pattern && strchr(c.pattern, ':') && !strstr(c.pattern, "::")) {
		pmk_tracepoint_foreach(t, c.pattern, show_tracepoint, &c);
	} else {
		if (c.cats & (CAT_METRIC | CAT_METRICGROUP))
			fprintf(c.out, "metrics and metric groups: 'pmkit list "
				       "metric', 'pmkit list metricgroup' list "
				       "perf's, 'pmkit stat -M list' pmkit's "
				       "library too\n\n");
		if (!c.cats || (c.cats & ~(CAT_TRACEPOINT | CAT_METRIC |
					   CAT_METRICGROUP)))
			pmk_event_foreach(t, show, &c);
		if (c.cats & CAT_TRACEPOINT) {
			/* every tracepoint (perf's list tracepoint), listed
			 * without opening each: SUB:NAME opens them */
			c.no_try = 1;
			pmk_tracepoint_foreach(t, "*:*", show_tracepoint, &c);
			c.no_try = 0;
		} else if (!c.cats && cli_as_perf) {
			/* perf list lists every tracepoint too (unopened) */
			c.no_try = 1;
			pmk_tracepoint_foreach(t, "*:*", raw_tracepoint, &c);
			c.no_try = 0;
		}
	}
	if (c.json)
		fprintf(c.out, "\n]}\n");
	else if (pmk_target_captured(t) ||
		 (c.countable == 0 && c.cats == CAT_TRACEPOINT))
		fprintf(c.out, "\n%d events%s\n", c.shown,
			pmk_target_captured(t)
				? ""
				: " (not opened: 'pmkit list SUB:NAME' says "
				  "which count)");
	else
		fprintf(c.out, "\n%d events, %d countable here\n", c.shown,
			c.countable);
	if (c.pattern && c.shown == 0) {
		cli_error("no event matches '%s'", c.pattern);
		return 1;
	}
	return 0;
}
