/*
 * cmd_encode.c: `pmkit encode [--model M] [--json] EVENT...`: what each
 * event string would program (type, config, config1, config2, the exclude
 * bits, precise_ip, the PMU), one event per line. Pure: nothing is
 * opened, so any model can be encoded on any machine. `--models` lists the
 * models with native events and where each model's events come from;
 * `--describe EVENT` prints an event's description, unit masks (defaults
 * marked) and modifiers from the source that serves the model.
 */
/* pmkit-command: encode | show what event strings would program */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/stat_metrics.h"
#include <strings.h>

/* A target for a named model: a core PMU "cpu" (PERF_TYPE_RAW) with the
 * format terms of its architecture, so sysfs-style strings encode too. */
static pmk_target *model_target(const char *model)
{
	pmk_target *t = pmk_target_new();
	int amd = !strncasecmp(model, "amd64", 5) || strstr(model, "zen"),
	    arm = !strncasecmp(model, "arm", 3);
	pmk_diag d;
	if (!t)
		return t;
	pmk_target_add_pmu(t, "cpu", PMK_TYPE_RAW, 1);
	if (arm) {
		pmk_target_add_format(t, "cpu", "event", "config:0-15", &d);
	} else {
		pmk_target_add_format(t, "cpu", "event",
				      amd ? "config:0-7,32-35" : "config:0-7",
				      &d);
		pmk_target_add_format(t, "cpu", "umask", "config:8-15", &d);
		pmk_target_add_format(t, "cpu", "edge", "config:18", &d);
		pmk_target_add_format(t, "cpu", "inv", "config:23", &d);
		pmk_target_add_format(t, "cpu", "cmask", "config:24-31", &d);
		if (!amd)
			pmk_target_add_format(t, "cpu", "any", "config:21", &d);
	}
	pmk_target_set_model(t, model);
	return t;
}

static int print_model(const char *model, const char *desc,
		       const char *source, void *arg)
{
	(void)arg;
	printf("%-26s %-34s %s\n", model, desc, source);
	return 0;
}

/* The derived formula in reverse Polish, with leaf names. */
static void formula(const pmk_event *ev, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < ev->nops && n < size; i++) {
		const pmk_op *o = &ev->ops[i];
		const char *sep = i ? " " : "";
		switch (o->code) {
		case PMK_OP_LEAF:
			n += (size_t)snprintf(buf + n, size - n, "%s%s", sep,
					      ev->leaf[o->arg].name);
			break;
		case PMK_OP_CONST:
			n += (size_t)snprintf(buf + n, size - n, "%s%g", sep,
					      o->value);
			break;
		default:
			n += (size_t)snprintf(buf + n, size - n, "%s%s", sep,
					      o->code == PMK_OP_ADD   ? "+"
					      : o->code == PMK_OP_SUB ? "-"
					      : o->code == PMK_OP_MUL ? "*"
					      : o->code == PMK_OP_DIV ? "/"
					      : o->code == PMK_OP_NEG ? "neg"
					      : o->code == PMK_OP_MIN ? "min"
					      : o->code == PMK_OP_MAX ? "max"
					      : o->code == PMK_OP_LT  ? "<"
					      : o->code == PMK_OP_GT  ? ">"
					      : o->code == PMK_OP_SELECT
						  ? "if-else"
						  : "d_ratio");
		}
	}
}

static void print_event(const pmk_event *ev, int json)
{
	static char f[16384]; /* a metric's formula: up to PMK_OPS_MAX steps */
	char buf[1024];
	formula(ev, f, sizeof f);
	if (json) {
		printf("{\"event\":");
		cli_json_str(stdout, ev->name);
		printf(",\"kind\":\"%s\",\"leaves\":[",
		       pmk_event_kind_name(ev->kind));
		for (int i = 0; i < ev->nleaf; i++) {
			pmk_attr_format_json(&ev->leaf[i], buf, sizeof buf);
			/* add the native's name inside its object */
			printf("%s{\"name\":", i ? "," : "");
			cli_json_str(stdout, ev->leaf[i].name);
			printf(",%s", buf + 1);
		}
		printf("]");
		if (ev->nops) {
			printf(",\"formula\":");
			cli_json_str(stdout, f);
		}
		if (ev->unit[0]) {
			printf(",\"unit\":");
			cli_json_str(stdout, ev->unit);
		}
		printf("}\n");
		return;
	}
	if (ev->nleaf == 1 && ev->nops == 0) {
		pmk_attr_format(&ev->leaf[0], buf, sizeof buf);
		printf("%s: %s\n", ev->name, buf);
		return;
	}
	printf("%s: derived (%s) = %s%s%s\n", ev->name,
	       pmk_event_kind_name(ev->kind), f, ev->unit[0] ? ", in " : "",
	       ev->unit);
	for (int i = 0; i < ev->nleaf; i++) {
		pmk_attr_format(&ev->leaf[i], buf, sizeof buf);
		printf("  %s: %s\n", ev->leaf[i].name, buf);
	}
}

enum { ENC_JSON = 256, ENC_MODEL, ENC_MODELS, ENC_DESCRIBE, ENC_SYSROOT };
static const struct cli_opt encode_opts[] = {
	{'M', "metrics", CLI_NOARG},
	{ENC_JSON, "json", CLI_NOARG},
	{ENC_DESCRIBE, "describe", CLI_NOARG},
	{ENC_SYSROOT, "sysroot", CLI_ARG},
	{ENC_MODEL, "model", CLI_ARG},
	{ENC_MODELS, "models", CLI_NOARG},
	{'h', "help", CLI_NOARG},
	{0, NULL, 0},
};

struct enc_opts {
	int json, models, help, describe, metrics;
	const char *model;
};

static int on_encode_opt(int key, const char *val, void *arg)
{
	struct enc_opts *o = arg;
	if (key == ENC_JSON)
		o->json = 1;
	else if (key == ENC_MODEL)
		o->model = val;
	else if (key == ENC_MODELS)
		o->models = 1;
	else if (key == ENC_DESCRIBE)
		o->describe = 1;
	else if (key == ENC_SYSROOT) /* a captured machine: discovery reads PMK_SYSROOT */
		setenv("PMK_SYSROOT", val, 1);
	else if (key == 'M')
		o->metrics = 1;
	else if (key == 'h')
		o->help = 1;
	return 0;
}

/* -M NAME...: each metric or metric group as `pmkit stat -M` takes it
 * (perf's definitions for the target's model first, then pmkit's
 * library), one derived event per metric with its natives. */
static int encode_metrics(char **names, int n, int json)
{
	enum { MAX_METRICS = 1024 };
	char dir[4096];
	pmk_event *ev = calloc(MAX_METRICS, sizeof *ev);
	int rc = 0;
	if (!ev) {
		cli_error("out of memory");
		return 1;
	}
	if (stat_metrics_dir(dir, sizeof dir) < 0)
		dir[0] = 0;
	for (int k = 0; k < n && rc == 0; k++) {
		int nev = 0, empty = 0;
		int r = stat_metrics_add(ev, &nev, MAX_METRICS, dir, names[k],
					 &empty);
		if (r == 1) {
			cli_error("no metric or metric group '%s'%s", names[k],
				  empty ? " for this machine's CPU model" : "");
			fprintf(stderr, "hint: 'pmkit stat -M list' lists "
					"them\n");
			rc = 2;
		} else if (r != 0) {
			rc = r;
		}
		for (int e = 0; e < nev; e++)
			print_event(&ev[e], json);
	}
	free(ev);
	return rc;
}

int cmd_encode(int argc, char **argv)
{
	struct enc_opts eo = {0, 0, 0, 0, 0, NULL};
	const char *model;
	int json, describe, i, rc = 0;
	pmk_target *own = NULL;
	const pmk_target *t;

	i = cli_opt_parse_mixed("encode", argc, argv, encode_opts,
				on_encode_opt, &eo);
	if (i < 0)
		return -i;
	if (eo.help)
		return cli_usage("encode");
	if (eo.models) {
		/* every model, with the source of its events */
		pmk_model_foreach(print_model, NULL);
		return 0;
	}
	describe = eo.describe;
	json = eo.json;
	if (eo.metrics) {
		if (i >= argc) {
			cli_error("-M: no metric or metric group given");
			return 2;
		}
		return encode_metrics(argv + i, argc - i, json);
	}
	model = eo.model;
	if (i >= argc) {
		cli_error("no event given");
		fprintf(stderr, "usage: pmkit encode [--model M] [--json] "
				"[--describe] EVENT...\n");
		return 2;
	}
	if (model) {
		if (!pmk_model_known(model)) {
			cli_error("no event tables for model '%s'", model);
			fprintf(stderr, "hint: 'pmkit encode --models' lists "
					"them\n");
			return 2;
		}
		own = model_target(model);
		if (!own) {
			cli_error("out of memory");
			return 1;
		}
		t = own;
	} else {
		t = pmk_target_host();
	}
	for (; i < argc; i++) {
		pmk_event ev;
		pmk_diag d;
		memset(&ev, 0, sizeof ev);
		pmk_diag_clear(&d);
		if (describe) {
			char buf[4096];
			if (pmk_event_describe(t, argv[i], buf, sizeof buf) != 0) {
				cli_error("no native event '%s' for this model",
					  argv[i]);
				rc = 2;
				break;
			}
			printf("%s\n", buf);
			continue;
		}
		if (pmk_event_parse(t, argv[i], &ev, &d) != 0) {
			cli_diag(&d);
			rc = 2;
			break;
		}
		print_event(&ev, json);
	}
	pmk_target_free(own);
	return rc;
}
