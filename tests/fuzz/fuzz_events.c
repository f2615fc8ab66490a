/*
 * fuzz_events.c: the event-string parser, the list splitter and the sysfs
 * format parser must survive any input. The first byte picks the target
 * (a hand-built x86 machine, none, or a model served by libpfm4 or by
 * pmkit's tables: spr, zen5); the rest is the string.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"

static pmk_target *make_target(int kind)
{
	pmk_target *t = pmk_target_new();
	if (kind & 1) {
		pmk_target_add_pmu(t, "cpu", 4, 1);
		pmk_target_add_format(t, "cpu", "event", "config:0-7,32-35", NULL);
		pmk_target_add_format(t, "cpu", "umask", "config:8-15", NULL);
		pmk_target_add_format(t, "cpu", "edge", "config:18", NULL);
		pmk_target_add_format(t, "cpu", "cmask", "config:24-31", NULL);
		pmk_target_add_format(t, "cpu", "ldlat", "config1:0-15", NULL);
		pmk_target_add_alias(t, "cpu", "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
		pmk_target_add_alias(t, "cpu", "loop", "loop");
	}
	pmk_target_add_pmu(t, "msr", 9, 0);
	pmk_target_add_format(t, "msr", "event", "config:0-63", NULL);
	pmk_target_add_alias(t, "msr", "tsc", "event=0x00");
	return t;
}

static int count_items(const char *item, int column, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static pmk_target *targets[4];
	char *s;
	pmk_event ev;
	pmk_diag d;
	int n = 0;
	if (!targets[0]) {
		targets[0] = make_target(0);
		targets[1] = make_target(1);
		targets[2] = make_target(1);
		pmk_target_set_model(targets[2], "spr");
		targets[3] = make_target(1);
		pmk_target_set_model(targets[3], "amd64_fam1ah_zen5");
	}
	if (size == 0)
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	pmk_event_parse(targets[data[0] & 3], s, &ev, &d);
	{
		char buf[2048];
		pmk_diag_format(&d, buf, sizeof buf);
	}
	pmk_event_list_foreach(s, count_items, &n);
	{
		pmk_target *t = pmk_target_new();
		pmk_target_add_pmu(t, "x", 99, 0);
		pmk_target_add_format(t, "x", "f", s, &d);
		pmk_target_add_alias(t, "x", "a", s);
		pmk_event_parse(t, "x/a/", &ev, &d);
		pmk_target_free(t);
	}
	free(s);
	return 0;
}
