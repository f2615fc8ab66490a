/*
 * topo.c: a target's topology from its sysfs and /proc/cpuinfo (topo.h).
 * Counts only: which CPUs share a core, a die or a package, as the
 * machine's files declare; nothing is guessed from a model name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/event/target.h"
#include "lib/event/topo.h"

#define TOPO_CPUS_MAX 4096

struct cpu_ids {
	int pkg, die, core;
};

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok;
	if (!f)
		return -1;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* Distinct values of (pkg[, die][, core]) among n CPUs. */
static int distinct(const struct cpu_ids *c, int n, int die, int core)
{
	int count = 0;
	for (int i = 0; i < n; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = c[j].pkg == c[i].pkg &&
			       (!die || c[j].die == c[i].die) &&
			       (!core || c[j].core == c[i].core);
		count += !seen;
	}
	return count;
}

static int from_sysfs(const char *root, struct cpu_ids *c, int *has_die)
{
	int n = 0;
	*has_die = 0;
	for (int cpu = 0; cpu < TOPO_CPUS_MAX; cpu++) {
		char path[600];
		struct cpu_ids x = {0, 0, 0};
		snprintf(path, sizeof path,
			 "%s/devices/system/cpu/cpu%d/topology/"
			 "physical_package_id",
			 root, cpu);
		if (read_int(path, &x.pkg) < 0)
			break;
		snprintf(path, sizeof path,
			 "%s/devices/system/cpu/cpu%d/topology/core_id", root,
			 cpu);
		if (read_int(path, &x.core) < 0)
			break;
		snprintf(path, sizeof path,
			 "%s/devices/system/cpu/cpu%d/topology/die_id", root,
			 cpu);
		if (read_int(path, &x.die) == 0)
			*has_die = 1;
		c[n++] = x;
	}
	return n;
}

/* "@ 2.00GHz" in a model name, in Hz; 0 when absent. */
static double name_ghz(const char *name)
{
	const char *at = strrchr(name, '@');
	char *e;
	double v;
	if (!at)
		return 0;
	v = strtod(at + 1, &e);
	while (*e == ' ')
		e++;
	return v > 0 && !strncmp(e, "GHz", 3) ? v * 1e9 : 0;
}

static int from_cpuinfo(const char *path, struct cpu_ids *c, double *tsc_hz)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		const char *v;
		if (!colon)
			continue;
		v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!strncmp(line, "processor", 9)) {
			if (n == TOPO_CPUS_MAX)
				break;
			c[n].pkg = 0;
			c[n].die = 0;
			c[n].core = n; /* each CPU its own core unless told */
			n++;
		} else if (n && !strncmp(line, "physical id", 11)) {
			c[n - 1].pkg = atoi(v);
		} else if (n && !strncmp(line, "core id", 7)) {
			c[n - 1].core = atoi(v);
		} else if (n == 1 && !strncmp(line, "model name", 10)) {
			*tsc_hz = name_ghz(v);
		}
	}
	fclose(f);
	return n;
}
/* The TSC's frequency as this machine's CPU enumerates it, as perf does for
 * #SYSTEM_TSC_FREQ: on an Intel CPU with CPUID leaf 0x15 (the TSC's ratio
 * to the core crystal clock, and the crystal's frequency), crystal x
 * ratio; 0 where the leaf is missing or does not enumerate them (then
 * cpuinfo's model name is read, as perf does too). */
static double cpuid_tsc_hz(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d, max = __get_cpuid_max(0, NULL);
	char vendor[13];
	if (max < 0x15 || !__get_cpuid(0, &a, &b, &c, &d))
		return 0;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	if (strcmp(vendor, "GenuineIntel"))
		return 0;
	__cpuid_count(0x15, 0, a, b, c, d);
	if (!a || !b || !c)
		return 0;
	return (double)c * (double)b / (double)a;
#else
	return 0;
#endif
}

int pmk__target_topo(const pmk_target *t, pmk__topo *out)
{
	struct cpu_ids *c;
	char path[600];
	int n, has_die = 0, v;
	size_t rl;
	double tsc = 0;
	memset(out, 0, sizeof *out);
	if (!t || !t->sysfs[0])
		return PMK_ENOENT;
	c = malloc(sizeof *c * TOPO_CPUS_MAX);
	if (!c)
		return PMK_ENOMEM;
	/* cpuinfo beside the sysfs root, as discovery finds it */
	rl = strlen(t->sysfs);
	if (rl >= 4 && !strcmp(t->sysfs + rl - 4, "/sys"))
		snprintf(path, sizeof path, "%.*s/proc/cpuinfo", (int)(rl - 4),
			 t->sysfs);
	else
		snprintf(path, sizeof path, "/proc/cpuinfo");
	n = from_cpuinfo(path, c, &tsc);
	/* the machine this runs on: its CPU says it first (not a fixture's) */
	if (!t->captured && cpuid_tsc_hz() > 0)
		tsc = cpuid_tsc_hz();
	out->tsc_hz = tsc;
	snprintf(out->from, sizeof out->from, "cpuinfo");
	{
		int ns = from_sysfs(t->sysfs, c, &has_die);
		if (ns > 0) {
			n = ns;
			snprintf(out->from, sizeof out->from, "sysfs");
		} else {
			has_die = 0;
		}
	}
	if (n == 0) {
		free(c);
		return PMK_ENOENT;
	}
	out->cpus = n;
	out->packages = distinct(c, n, 0, 0);
	out->dies = has_die ? distinct(c, n, 1, 0) : out->packages;
	out->cores = distinct(c, n, has_die, 1);
	out->smt_on = out->cores < n;
	snprintf(path, sizeof path, "%s/devices/system/cpu/smt/active",
		 t->sysfs);
	if (read_int(path, &v) == 0)
		out->smt_on = v != 0;
	free(c);
	return 0;
}
