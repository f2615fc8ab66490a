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
#include "lib/event/native.h"
#include "lib/event/source.h"
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
								      : "neg");
		}
	}
}

static void print_event(const pmk_event *ev, int json)
{
	char buf[1024], f[2048];
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
		printf("}\n");
		return;
	}
	if (ev->nleaf == 1 && ev->nops == 0) {
		pmk_attr_format(&ev->leaf[0], buf, sizeof buf);
		printf("%s: %s\n", ev->name, buf);
		return;
	}
	printf("%s: derived (%s) = %s\n", ev->name,
	       pmk_event_kind_name(ev->kind), f);
	for (int i = 0; i < ev->nleaf; i++) {
		pmk_attr_format(&ev->leaf[i], buf, sizeof buf);
		printf("  %s: %s\n", ev->leaf[i].name, buf);
	}
}

int cmd_encode(int argc, char **argv)
{
	const char *model = NULL;
	int json = 0, describe = 0, i, rc = 0;
	pmk_target *own = NULL;
	const pmk_target *t;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--describe")) {
			describe = 1;
		} else if (!strcmp(argv[i], "--sysroot") && i + 1 < argc) {
			/* a captured machine: discovery reads PMK_SYSROOT */
			setenv("PMK_SYSROOT", argv[++i], 1);
		} else if (!strcmp(argv[i], "--model") && i + 1 < argc) {
			model = argv[++i];
		} else if (!strncmp(argv[i], "--model=", 8)) {
			model = argv[i] + 8;
		} else if (!strcmp(argv[i], "--models")) {
			/* every model, with the source of its events */
			pmk__source_models(print_model, NULL);
			return 0;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			return cli_usage("encode");
		} else {
			cli_error("unknown option '%s'", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		cli_error("no event given");
		fprintf(stderr, "usage: pmkit encode [--model M] [--json] "
				"[--describe] EVENT...\n");
		return 2;
	}
	if (model) {
		if (!pmk__model_known(model)) {
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
