/*
 * discover.c: fill a pmk_target from the machine: every PMU under
 * SYSFS/bus/event_source/devices (its type, format/ terms, events/
 * aliases, caps/pmu_name, cpus or cpumask), which of them are core PMUs,
 * and the CPU model from /proc/cpuinfo (Arm: the MIDR, from cpuinfo's
 * implementer and part or from sysfs's midr_el1). Each PMU is taken on its
 * own: a machine with no core PMU (a VM) still gets software, tracepoint,
 * msr and the rest.
 *
 * The machine's root is read in one place, pmk__sysroot(): the environment
 * variable PMK_SYSROOT (a directory holding proc/cpuinfo and sys/...) or
 * "/" — so tests point discovery at captured machines (tests/fixtures/).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event/models.h"
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

static const char *pmk__sysroot(void)
{
	const char *r = getenv("PMK_SYSROOT");
	return r && *r ? r : "";
}

static int is_core_name(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") ||
	       !strcmp(name, "cpu_atom") || !strncmp(name, "armv8", 5) ||
	       !strncmp(name, "armv7", 5) || !strcmp(name, "riscv_pmu") ||
	       !strcmp(name, "cpum_cf");
}

/* The CPUs a PMU counts on (its `cpumask` or a hybrid core PMU's `cpus`:
 * "0", "0-15"), for pmk__target_pmu_on_cpu; left empty when too long. */
static void keep_cpus(struct pmk__pmu *p, const char *list)
{
	size_t n = strcspn(list, " \t\n");
	if (n < sizeof p->cpumask)
		snprintf(p->cpumask, sizeof p->cpumask, "%.*s", (int)n, list);
}

/* events/NAME.scale and NAME.unit (after the aliases: a directory lists
 * them in any order), as perf applies them: a count times the scale, in
 * the unit (RAPL's energy-pkg: 2^-32 Joules). */
static void load_meta(pmk_target *t, const char *pmu, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024], val[64], name[64];
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		const char *dot = strrchr(e->d_name, '.');
		int scale;
		if (!dot || dot == e->d_name ||
		    (size_t)(dot - e->d_name) >= sizeof name)
			continue;
		scale = !strcmp(dot, ".scale");
		if (!scale && strcmp(dot, ".unit"))
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(dot - e->d_name),
			 e->d_name);
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (read_small(path, val, sizeof val) != 0)
			continue;
		if (scale) {
			char *end;
			double v = strtod(val, &end);
			if (end != val)
				pmk__target_alias_meta(t, pmu, name, v, NULL);
		} else
			pmk__target_alias_meta(t, pmu, name, 0, val);
	}
	closedir(d);
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
		if (e->d_name[0] == '.')
			continue;
		/* events/X.scale, .unit, .snapshot, .per-pkg describe X */
		if (!formats && strchr(e->d_name, '.'))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (read_small(path, val, sizeof val) != 0)
			continue;
		if (formats)
			pmk_target_add_format(t, pmu, e->d_name, val, NULL);
		else
			pmk_target_add_alias(t, pmu, e->d_name, val);
	}
	closedir(d);
	if (!formats)
		load_meta(t, pmu, dir);
}

/* The CPU's identity: /proc/cpuinfo, and on Arm the MIDR register when
 * cpuinfo lacks it. */
static void detect_model(pmk_target *t, const char *root, const char *cpuinfo)
{
	char text[8192], path[1024], midr[64];
	struct pmk__cpu_id id;
	struct pmk__cpu_model m;
	FILE *f = fopen(cpuinfo, "r");
	size_t n = 0;
	if (f) {
		n = fread(text, 1, sizeof text - 1, f);
		fclose(f);
	}
	text[n] = 0;
	pmk__cpuinfo_parse(text, &id);
	if (!id.vendor[0] && !id.implementer) {
		snprintf(path, sizeof path,
			 "%s/devices/system/cpu/cpu0/regs/identification/midr_el1",
			 root);
		if (read_small(path, midr, sizeof midr) == 0)
			pmk__cpu_id_from_midr(&id, strtoull(midr, NULL, 0));
	}
	pmk__cpu_id_describe(&id, t->cpu, sizeof t->cpu);
	if (pmk__cpu_model(&id, &m) != 0)
		return;
	snprintf(t->model, sizeof t->model, "%s", m.core);
	for (int i = 0; i < t->npmu; i++) {
		struct pmk__pmu *p = &t->pmu[i];
		if (!p->is_core)
			continue;
		snprintf(p->model, sizeof p->model, "%s",
			 !strcmp(p->name, "cpu_atom") && m.atom[0] ? m.atom
								   : m.core);
	}
}

int pmk_target_discover(pmk_target *t, const char *root, const char *cpuinfo)
{
	char base[512], path[1024], val[64], cpus[64];
	char cpuinfo_path[1024];
	DIR *d;
	struct dirent *e;

	if (!t)
		return PMK_EINVAL;
	if (!root)
		root = "/sys";
	snprintf(t->sysfs, sizeof t->sysfs, "%s", root);
	snprintf(base, sizeof base, "%s/bus/event_source/devices", root);
	d = opendir(base);
	if (d) {
		while ((e = readdir(d)) != NULL) {
			char *end;
			unsigned long type;
			struct pmk__pmu *p;
			int core, has_cpus;
			if (e->d_name[0] == '.' ||
			    strlen(e->d_name) >= PMK_PMU_NAME_MAX)
				continue;
			snprintf(path, sizeof path, "%s/%s/type", base,
				 e->d_name);
			if (read_small(path, val, sizeof val) != 0)
				continue;
			type = strtoul(val, &end, 10);
			if (*end || end == val)
				continue;
			/* a CPU PMU of another name (Arm's big.LITTLE
			 * "arm_cortex_a53"...) lists its `cpus`; uncore ones
			 * a `cpumask` */
			snprintf(path, sizeof path, "%s/%s/cpus", base,
				 e->d_name);
			has_cpus = read_small(path, cpus, sizeof cpus) == 0;
			core = is_core_name(e->d_name) ||
			       (!strncmp(e->d_name, "arm", 3) && has_cpus);
			if (pmk_target_add_pmu(t, e->d_name, (uint32_t)type,
					       core) != 0)
				continue;
			p = (struct pmk__pmu *)pmk__target_pmu(t, e->d_name);
			/* a hybrid's core PMU counts on its `cpus` only */
			if (p && p->is_core && has_cpus)
				keep_cpus(p, cpus);
			snprintf(path, sizeof path, "%s/%s/cpumask", base,
				 e->d_name);
			/* a PMU with a cpumask counts per package (uncore);
			 * a hybrid core PMU has `cpus` instead */
			if (p && !p->is_core &&
			    read_small(path, cpus, sizeof cpus) == 0) {
				p->is_uncore = 1;
				keep_cpus(p, cpus);
			}
			snprintf(path, sizeof path, "%s/%s/format", base,
				 e->d_name);
			load_dir(t, e->d_name, path, 1);
			snprintf(path, sizeof path, "%s/%s/events", base,
				 e->d_name);
			load_dir(t, e->d_name, path, 0);
		}
		closedir(d);
	}
	if (!cpuinfo) {
		/* "ROOT/../proc/cpuinfo" when root is "SYSROOT/sys" */
		size_t rl = strlen(root);
		if (rl >= 4 && !strcmp(root + rl - 4, "/sys"))
			snprintf(cpuinfo_path, sizeof cpuinfo_path,
				 "%.*s/proc/cpuinfo", (int)(rl - 4), root);
		else
			snprintf(cpuinfo_path, sizeof cpuinfo_path,
				 "/proc/cpuinfo");
		cpuinfo = cpuinfo_path;
	}
	detect_model(t, root, cpuinfo);
	return d ? 0 : PMK_ENOENT;
}

static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static pmk_target *host;

static void host_init(void)
{
	char sys[1024];
	host = pmk_target_new();
	if (!host)
		return;
	snprintf(sys, sizeof sys, "%s/sys", pmk__sysroot());
	pmk_target_discover(host, sys, NULL);
	host->captured = pmk__sysroot()[0] != 0;
}

const pmk_target *pmk_target_host(void)
{
	static pmk_target empty; /* if even calloc failed: no PMUs at all */
	pthread_once(&host_once, host_init);
	return host ? host : &empty;
}
