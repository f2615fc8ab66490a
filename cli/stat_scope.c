/*
 * stat_scope.c: what `pmkit stat` counts on: the machine's CPUs and their
 * topology (for -C, -A, --per-core, --per-socket), cgroups (-G) and
 * whether an attached task still runs. Reads /proc and /sys only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/stat_output.h"
#include "cli/stat_scope.h"
#include "lib/core/num.h"

/* The CPUs of this machine that exist: 1 + the highest possible CPU. */
int stat_cpus_possible(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int a = 0, b = -1;
	char c;
	if (f) {
		if (fscanf(f, "%d%c%d", &a, &c, &b) < 3)
			b = a;
		fclose(f);
	}
	if (b < 0) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		b = (int)(n > 0 ? n - 1 : 0);
	}
	return b + 1;
}

int stat_parse_cpus(const char *s, int *cpus, int max)
{
	long a, b;
	int n = 0, rc;
	while ((rc = pmk__cpu_range(&s, &a, &b)) > 0)
		for (long c = a; c <= b && n < max; c++)
			cpus[n++] = (int)c;
	return rc < 0 ? -1 : n;
}


/* An integer of /sys/devices/system/cpu/cpuCPU/topology/NAME. */
static int read_int_file(const char *name, int cpu, int dflt)
{
	char path[128];
	FILE *f;
	int v = dflt;
	snprintf(path, sizeof path,
		 "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	if ((f = fopen(path, "r")) != NULL) {
		if (fscanf(f, "%d", &v) != 1)
			v = dflt;
		fclose(f);
	}
	return v;
}

/* The NUMA node of CPU `cpu` (its nodeN entry in sysfs), or 0. */
static int cpu_node(int cpu)
{
	char path[96];
	for (int n = 0; n < 1024; n++) {
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/node%d",
			 cpu, n);
		if (access(path, F_OK) == 0)
			return n;
	}
	return 0;
}

/* A number in the file NAME of CPU `cpu`'s cache index `idx`
 * (/sys/devices/system/cpu/cpuN/cache/indexI/NAME), or -1. */
static int cache_file(int cpu, int idx, const char *name)
{
	char path[128], buf[64];
	FILE *f;
	int v = -1;
	snprintf(path, sizeof path,
		 "/sys/devices/system/cpu/cpu%d/cache/index%d/%s", cpu, idx,
		 name);
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(buf, sizeof buf, f))
			v = !strncmp(buf, "Instruction", 11) ? -2 : atoi(buf);
		fclose(f);
	}
	return v;
}

int stat_cache_top_level(void)
{
	int top = 0;
	for (int i = 0; i < 16; i++) {
		int l = cache_file(0, i, "level");
		if (l > top && cache_file(0, i, "type") != -2)
			top = l;
	}
	return top;
}

static int cache_level = 0; /* --per-cache's: 0 the highest */

void stat_set_cache_level(int level)
{
	cache_level = level;
}

/* Which instance of the data or unified cache of `level` serves `cpu`:
 * its sysfs id, else the first CPU that shares it, as perf; -1 when the
 * CPU has no such cache. */
static int cache_id(int cpu, int level)
{
	for (int i = 0; i < 16; i++) {
		char path[128], buf[256];
		FILE *f;
		int id;
		if (cache_file(cpu, i, "level") != level ||
		    cache_file(cpu, i, "type") == -2)
			continue;
		if ((id = cache_file(cpu, i, "id")) >= 0)
			return id;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/"
			 "shared_cpu_list",
			 cpu, i);
		if ((f = fopen(path, "r")) != NULL) {
			id = fgets(buf, sizeof buf, f) ? atoi(buf) : cpu;
			fclose(f);
			return id;
		}
		return cpu;
	}
	return -1;
}

/* The aggregation unit's name of CPU `cpu` as perf writes it: "CPU3"
 * (-A), "S0-D0-C1" (--per-core), "S0-D0" (--per-die), "S0"
 * (--per-socket), "N0" (--per-node), "S0-D0-L3-ID0" (--per-cache), or
 * "". */
void stat_cpu_label(int aggr, int cpu, char *label, size_t size)
{
	int sock = read_int_file("physical_package_id", cpu, 0);
	int die = read_int_file("die_id", cpu, 0);
	int core = read_int_file("core_id", cpu, cpu);
	if (aggr == STAT_AGGR_CPU)
		snprintf(label, size, "CPU%d", cpu);
	else if (aggr == STAT_AGGR_CORE)
		snprintf(label, size, "S%d-D%d-C%d", sock < 0 ? 0 : sock,
			 die < 0 ? 0 : die, core);
	else if (aggr == STAT_AGGR_SOCKET)
		snprintf(label, size, "S%d", sock < 0 ? 0 : sock);
	else if (aggr == STAT_AGGR_DIE)
		snprintf(label, size, "S%d-D%d", sock < 0 ? 0 : sock,
			 die < 0 ? 0 : die);
	else if (aggr == STAT_AGGR_NODE)
		snprintf(label, size, "N%d", cpu_node(cpu));
	else if (aggr == STAT_AGGR_CACHE) {
		int lvl = cache_level ? cache_level : stat_cache_top_level();
		snprintf(label, size, "S%d-D%d-L%d-ID%d", sock < 0 ? 0 : sock,
			 die < 0 ? 0 : die, lvl, cache_id(cpu, lvl));
	}
	else
		label[0] = 0;
}

/* The cgroup directory of -G NAME (relative to the cgroup v2 mount), open
 * for PERF_FLAG_PID_CGROUP, or -1 after an error. */
int stat_open_cgroup(const char *name)
{
	char mnt[512] = "/sys/fs/cgroup", path[1100], line[1024];
	FILE *f = fopen("/proc/mounts", "r");
	int fd;
	if (f) {
		while (fgets(line, sizeof line, f)) {
			char dev[256], dir[512], type[64];
			if (sscanf(line, "%255s %511s %63s", dev, dir, type) == 3 &&
			    !strcmp(type, "cgroup2")) {
				snprintf(mnt, sizeof mnt, "%s", dir);
				break;
			}
		}
		fclose(f);
	}
	snprintf(path, sizeof path, "%s/%s", mnt, name[0] == '/' ? name + 1 : name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		cli_error("no cgroup '%s' (%s: %s)", name, path, strerror(errno));
	return fd;
}

/* Whether an attached process or thread is gone (a zombie counts as gone:
 * it runs no more, and its parent may never reap it). */
int stat_task_gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return 1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
}
