/*
 * cmd_list.c: `pmkit list [--json] [--details] [PATTERN]`: every event this
 * machine knows (generic, software, presets, each PMU's sysfs events, the
 * model's natives from libpfm4 or pmkit's tables, user-defined events;
 * tracepoints for a SUB:NAME pattern) and whether it can be counted here,
 * decided by opening it, with the reason when it cannot. Under
 * PMK_SYSROOT (a captured machine) nothing is opened. Each preset says
 * where its definition comes from (PAPI's papi_events.csv, pmkit's table,
 * the generic events): the JSON's "source" and "defined_at", and a line
 * under the preset with --details.
 */
/* pmkit-command: list | list events and whether they count here */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "lib/event/papi_csv.h"

struct list_ctx {
	const pmk_target *t;
	const char *pattern;
	int json, first, shown, countable, details;
	pmk_event_kind last_kind;
	FILE *out;
};

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
	pmk__preset_src src;
	int ok;
	/* a pattern finds names, and vendor names given in descriptions */
	if (!matches(c->pattern, info->name) &&
	    !(info->desc && c->pattern && !strpbrk(c->pattern, "*?[") &&
	      strcasestr(info->desc, c->pattern)))
		return 0;
	if (pmk_target_captured(c->t)) {
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
		    pmk__event_preset_source(c->t, info->name, &src) == 0) {
			fprintf(c->out, ",\"source\":");
			cli_json_str(c->out, pmk__preset_from_name(src.from));
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
		if (pmk_target_captured(c->t))
			fprintf(c->out, "  %-34s %s\n", info->name, info->desc);
		else
			fprintf(c->out, "  %-34s %-13s %s\n", info->name,
				ok ? "countable" : "not countable",
				ok ? info->desc : r);
	}
	if (c->details && info->kind == PMK_KIND_PRESET &&
	    pmk__event_preset_source(c->t, info->name, &src) == 0) {
		fprintf(c->out, "      source: %s, %s\n",
			pmk__preset_from_name(src.from), src.where);
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

enum { LIST_SIM = 256, LIST_DEFS, LIST_SYSROOT, LIST_DETAILS };
static const struct cli_opt list_opts[] = {
	{'j', "json", CLI_NOARG},
	{LIST_DETAILS, "details", CLI_NOARG},
	{LIST_SYSROOT, "sysroot", CLI_ARG},
	{LIST_SIM, "sim", CLI_NOARG},
	{LIST_DEFS, "defs", CLI_ARG},
	{0, NULL, 0},
};

static int on_list_opt(int key, const char *val, void *arg)
{
	int *flags = arg;
	if (key == 'j')
		flags[0] = 1;
	else if (key == LIST_SIM)
		flags[1] = 1;
	else if (key == LIST_DETAILS)
		flags[2] = 1;
	else if (key == LIST_DEFS && cli_defs_load(val))
		return EXIT_USAGE;
	else if (key == LIST_SYSROOT)
		setenv("PMK_SYSROOT", val, 1);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_ctx c;
	const pmk_target *t;
	int sim, flags[3] = {0, 0, 0};
	int first = cli_opt_parse_mixed("list", argc, argv, list_opts, on_list_opt,
				    flags);
	if (first < 0)
		return -first;
	/* after --sysroot DIR (a captured machine, through the one place
	 * discovery reads its root, PMK_SYSROOT) */
	t = pmk_target_host();
	memset(&c, 0, sizeof c);
	c.t = t;
	c.first = 1;
	c.out = stdout;
	c.json = flags[0];
	sim = flags[1];
	c.details = flags[2];
	if (first < argc)
		c.pattern = argv[first];
	if (first + 1 < argc) {
		cli_error("one pattern at most");
		return cli_usage("list");
	}
	if (sim)
		return list_sim(&c);
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
			const pmk__papi_csv *pf = pmk__papi_events(&why);
			if (pf)
				fprintf(c.out, "\nPAPI's preset definitions: "
					       "%s (%d lines)",
					pmk__papi_csv_file(pf),
					pmk__papi_csv_count(pf));
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
	if (c.pattern && strchr(c.pattern, ':') && !strstr(c.pattern, "::"))
		pmk_tracepoint_foreach(t, c.pattern, show_tracepoint, &c);
	else
		pmk_event_foreach(t, show, &c);
	if (c.json)
		fprintf(c.out, "\n]}\n");
	else if (pmk_target_captured(t))
		fprintf(c.out, "\n%d events\n", c.shown);
	else
		fprintf(c.out, "\n%d events, %d countable here\n", c.shown,
			c.countable);
	if (c.pattern && c.shown == 0) {
		cli_error("no event matches '%s'", c.pattern);
		return 1;
	}
	return 0;
}
