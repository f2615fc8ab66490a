/*
 * cmd_list.c: `pmkit list [--json] [--all] [PATTERN]`: every event this
 * machine knows (generic, software, presets, each PMU's sysfs events, the
 * model's natives, user-defined events) and whether it can be counted
 * here, decided by opening it, with the reason when it cannot.
 */
/* pmkit-command: list | list events and whether they count here */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"

struct list_ctx {
	const char *pattern;
	int json, first, shown, countable;
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

static int show(const pmk_event_info *info, void *arg)
{
	struct list_ctx *c = arg;
	char why[256];
	int ok;
	/* a pattern finds names, and vendor names given in descriptions */
	if (!matches(c->pattern, info->name) &&
	    !(info->desc && c->pattern && !strpbrk(c->pattern, "*?[") &&
	      strcasestr(info->desc, c->pattern)))
		return 0;
	ok = try_count(info->name, why, sizeof why);
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
		fprintf(c->out, ",\"countable\":%s", ok ? "true" : "false");
		if (!ok) {
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
		fprintf(c->out, "  %-34s %-13s %s\n", info->name,
			ok ? "countable" : "not countable", ok ? info->desc : r);
	}
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

enum { LIST_SIM = 256, LIST_DEFS };
static const struct cli_opt list_opts[] = {
	{'j', "json", CLI_NOARG},
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
	else if (key == LIST_DEFS && cli_defs_load(val))
		return EXIT_USAGE;
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_ctx c;
	const pmk_target *t = pmk_target_host();
	int sim, flags[2] = {0, 0};
	int first = cli_opt_parse_mixed("list", argc, argv, list_opts, on_list_opt,
				    flags);
	if (first < 0)
		return -first;
	memset(&c, 0, sizeof c);
	c.first = 1;
	c.out = stdout;
	c.json = flags[0];
	sim = flags[1];
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
		fprintf(c.out, ",\"hardware_pmu\":%s,\"pmus\":[",
			pmk_target_core_pmu(t) ? "true" : "false");
		for (int i = 0; i < pmk_target_pmu_count(t); i++) {
			uint32_t type;
			const char *n = pmk_target_pmu_name(t, i, &type, NULL);
			fprintf(c.out, "%s{\"name\":", i ? "," : "");
			cli_json_str(c.out, n);
			fprintf(c.out, ",\"type\":%u}", type);
		}
		fprintf(c.out, "],\"events\":[");
	} else {
		fprintf(c.out, "PMUs here:");
		for (int i = 0; i < pmk_target_pmu_count(t); i++)
			fprintf(c.out, " %s", pmk_target_pmu_name(t, i, NULL, NULL));
		if (!pmk_target_core_pmu(t))
			fprintf(c.out, " (no hardware PMU: virtual machine?)");
		if (pmk_target_model(t)[0])
			fprintf(c.out, "\nCPU model tables: %s", pmk_target_model(t));
		fprintf(c.out, "\n\n");
	}
	pmk_event_foreach(t, show, &c);
	if (c.json)
		fprintf(c.out, "\n]}\n");
	else
		fprintf(c.out, "\n%d events, %d countable here\n", c.shown,
			c.countable);
	if (c.pattern && c.shown == 0) {
		cli_error("no event matches '%s'", c.pattern);
		return 1;
	}
	return 0;
}
