/*
 * discover.c: fill a pmk_target from the machine: every PMU under
 * ROOT/bus/event_source/devices (its type, format/ terms and events/
 * aliases), which of them is the core PMU, and the CPU model from
 * /proc/cpuinfo. Each PMU is taken on its own: a machine with no core PMU
 * (a VM) still gets software, tracepoint, msr and the rest.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event/native.h"
#include "lib/event/target.h"

static int read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

static int is_core_name(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") ||
	       !strcmp(name, "cpu_atom") || !strncmp(name, "armv8", 5) ||
	       !strncmp(name, "armv7", 5) || !strncmp(name, "arm_", 4) ||
	       !strcmp(name, "riscv_pmu") || !strcmp(name, "cpum_cf");
}

static void load_dir(pmk_target *t, const char *pmu, const char *dir,
		     int formats)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024], val[256];
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		/* events/X.scale, .unit, .snapshot, .per-pkg describe X */
		if (!formats && strchr(e->d_name, '.'))
			continue;
		(void)n;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (read_small(path, val, sizeof val) != 0)
			continue;
		if (formats)
			pmk_target_add_format(t, pmu, e->d_name, val, NULL);
		else
			pmk_target_add_alias(t, pmu, e->d_name, val);
	}
	closedir(d);
}

static void detect_model(pmk_target *t, const char *cpuinfo)
{
	FILE *f = fopen(cpuinfo ? cpuinfo : "/proc/cpuinfo", "r");
	char line[512], vendor[64] = "";
	int family = -1, model = -1;
	const char *m;
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		if (!strncmp(line, "vendor_id", 9))
			sscanf(colon + 1, " %63s", vendor);
		else if (!strncmp(line, "cpu family", 10))
			family = atoi(colon + 1);
		else if (!strncmp(line, "model", 5) &&
			 (line[5] == '\t' || line[5] == ' ') &&
			 strncmp(line, "model name", 10))
			model = atoi(colon + 1);
		if (line[0] == '\n' && family >= 0)
			break; /* first processor is enough */
	}
	fclose(f);
	m = vendor[0] ? pmk__model_detect(vendor, family, model) : NULL;
	if (m)
		pmk_target_set_model(t, m);
}

int pmk_target_discover(pmk_target *t, const char *root, const char *cpuinfo)
{
	char base[512], path[1024], val[64];
	DIR *d;
	struct dirent *e;

	if (!t)
		return PMK_EINVAL;
	snprintf(base, sizeof base, "%s/bus/event_source/devices",
		 root ? root : "/sys");
	d = opendir(base);
	if (!d)
		return PMK_ENOENT;
	while ((e = readdir(d)) != NULL) {
		char *end;
		unsigned long type;
		if (e->d_name[0] == '.' ||
		    strlen(e->d_name) >= PMK_PMU_NAME_MAX)
			continue;
		snprintf(path, sizeof path, "%s/%s/type", base, e->d_name);
		if (read_small(path, val, sizeof val) != 0)
			continue;
		type = strtoul(val, &end, 10);
		if (*end)
			continue;
		if (pmk_target_add_pmu(t, e->d_name, (uint32_t)type,
				       is_core_name(e->d_name)) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s/format", base, e->d_name);
		load_dir(t, e->d_name, path, 1);
		snprintf(path, sizeof path, "%s/%s/events", base, e->d_name);
		load_dir(t, e->d_name, path, 0);
	}
	closedir(d);
	detect_model(t, cpuinfo);
	return 0;
}

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static pmk_target *host;

static void host_init(void)
{
	host = pmk_target_new();
	if (host)
		pmk_target_discover(host, NULL, NULL);
}

const pmk_target *pmk_target_host(void)
{
	static pmk_target empty; /* if even calloc failed: no PMUs at all */
	pthread_once(&host_once, host_init);
	return host ? host : &empty;
}
