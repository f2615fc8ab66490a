/*
 * generic.c: the kernel's generic hardware, hardware-cache and software
 * events, with the names perf uses for them (the kernel ABI's
 * PERF_COUNT_HW_*, PERF_COUNT_HW_CACHE_* and PERF_COUNT_SW_* values).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/event/generic.h"

#define HW(n, c, d) {n, PMK_KIND_HARDWARE, PMK_TYPE_HARDWARE, c, "", d}
#define SW(n, c, u, d) {n, PMK_KIND_SOFTWARE, PMK_TYPE_SOFTWARE, c, u, d}

/* First spelling of each config is the canonical one. */
static const struct pmk__generic plain[] = {
	HW("cycles", 0, "CPU core cycles"),
	HW("cpu-cycles", 0, NULL),
	HW("instructions", 1, "instructions retired"),
	HW("cache-references", 2, "cache accesses (usually last-level cache)"),
	HW("cache-misses", 3, "cache misses (usually last-level cache)"),
	HW("branches", 4, "branch instructions retired"),
	HW("branch-instructions", 4, NULL),
	HW("branch-misses", 5, "mispredicted branches retired"),
	HW("bus-cycles", 6, "bus cycles"),
	HW("stalled-cycles-frontend", 7, "cycles the front end delivered nothing"),
	HW("idle-cycles-frontend", 7, NULL),
	HW("stalled-cycles-backend", 8, "cycles the back end could not accept work"),
	HW("idle-cycles-backend", 8, NULL),
	HW("ref-cycles", 9, "reference cycles (constant rate)"),
	SW("cpu-clock", 0, "ns", "CPU time by the per-CPU high-resolution timer"),
	SW("task-clock", 1, "ns", "CPU time of the task"),
	SW("page-faults", 2, "", "page faults"),
	SW("faults", 2, "", NULL),
	SW("context-switches", 3, "", "context switches"),
	SW("cs", 3, "", NULL),
	SW("cpu-migrations", 4, "", "migrations to another CPU"),
	SW("migrations", 4, "", NULL),
	SW("minor-faults", 5, "", "page faults served without I/O"),
	SW("major-faults", 6, "", "page faults that needed I/O"),
	SW("alignment-faults", 7, "", "alignment faults fixed by the kernel"),
	SW("emulation-faults", 8, "", "instructions emulated by the kernel"),
	SW("dummy", 9, "", "counts nothing (placeholder)"),
	SW("bpf-output", 10, "", "BPF output"),
	SW("cgroup-switches", 11, "", "context switches to another cgroup"),
	/* perf's tool events: the event set measures them itself */
	{"duration_time", PMK_KIND_TOOL, PMK_TYPE_TOOL, 0, "ns",
	 "wall-clock time of the measurement (perf's tool event)"},
	{"user_time", PMK_KIND_TOOL, PMK_TYPE_TOOL, 1, "ns",
	 "user CPU time of the workload (getrusage of the reaped children)"},
	{"system_time", PMK_KIND_TOOL, PMK_TYPE_TOOL, 2, "ns",
	 "system CPU time of the workload (getrusage of the reaped children)"},
};

static const char *const caches[] = {"L1-dcache", "L1-icache", "LLC",
				     "dTLB",      "iTLB",      "branch",
				     "node"};
static const char *const cache_desc[] = {
	"level 1 data cache", "level 1 instruction cache",
	"last-level cache",   "data TLB",
	"instruction TLB",    "branch prediction unit",
	"local memory node"};
static const char *const ops[] = {"load", "store", "prefetch"};
static const char *const ops_plural[] = {"loads", "stores", "prefetches"};

static int find_cache(const char *name, struct pmk__generic *out)
{
	static __thread char desc[96];
	for (int c = 0; c < 7; c++) {
		size_t lc = strlen(caches[c]);
		const char *rest;
		if (strncmp(name, caches[c], lc) || name[lc] != '-')
			continue;
		rest = name + lc + 1;
		for (int o = 0; o < 3; o++) {
			size_t lo = strlen(ops[o]);
			int result = -1;
			if (!strcmp(rest, ops_plural[o]))
				result = 0;
			else if (!strncmp(rest, ops[o], lo) &&
				 !strcmp(rest + lo, "-misses"))
				result = 1;
			if (result < 0)
				continue;
			snprintf(desc, sizeof desc, "%s %s %s", cache_desc[c],
				 ops_plural[o], result ? "that missed" : "");
			out->name = name;
			out->kind = PMK_KIND_HWCACHE;
			out->type = PMK_TYPE_HW_CACHE;
			out->config = (uint64_t)c | (uint64_t)o << 8 |
				      (uint64_t)result << 16;
			out->unit = "";
			out->desc = desc;
			return 0;
		}
	}
	return PMK_ENOEVENT;
}

int pmk__generic_find(const char *name, struct pmk__generic *out)
{
	for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
		if (strcmp(plain[i].name, name))
			continue;
		*out = plain[i];
		if (!out->desc) /* an alias: describe as the canonical one */
			for (size_t j = 0; j < i; j++)
				if (plain[j].type == out->type &&
				    plain[j].config == out->config)
					out->desc = plain[j].desc;
		return 0;
	}
	return find_cache(name, out);
}

int pmk__generic_foreach(int (*fn)(const struct pmk__generic *g, void *arg),
			 void *arg)
{
	int rc;
	char name[64];
	for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
		if (plain[i].desc && (rc = fn(&plain[i], arg)) != 0)
			return rc;
	for (int c = 0; c < 7; c++)
		for (int o = 0; o < 3; o++)
			for (int r = 0; r < 2; r++) {
				struct pmk__generic g;
				if (r)
					snprintf(name, sizeof name,
						 "%s-%s-misses", caches[c],
						 ops[o]);
				else
					snprintf(name, sizeof name, "%s-%s",
						 caches[c], ops_plural[o]);
				find_cache(name, &g);
				if ((rc = fn(&g, arg)) != 0)
					return rc;
			}
	return 0;
}

/* PAPI's perf:: spellings that are not perf's names with another case */
static const char *const papi_special[][2] = {
	{"ref-cpu-cycles", "ref-cycles"},
	{"page-faults-min", "minor-faults"},
	{"page-faults-maj", "major-faults"},
};

struct ci_find {
	const char *want;
	char *found;
	size_t size;
};

static int ci_cb(const struct pmk__generic *g, void *arg)
{
	struct ci_find *f = arg;
	if (strcasecmp(g->name, f->want))
		return 0;
	snprintf(f->found, f->size, "%s", g->name);
	return 1;
}

int pmk__generic_papi_name(const char *s, size_t len, char *name, size_t size)
{
	char want[128];
	struct pmk__generic g;
	struct ci_find f = {want, name, size};
	if (len == 0 || len >= sizeof want || size == 0)
		return PMK_ENOEVENT;
	for (size_t i = 0; i <= len; i++)
		want[i] = i == len      ? 0
			  : s[i] == '_' ? '-'
					: (char)tolower((unsigned char)s[i]);
	if (!strncmp(want, "perf-count-hw-cache-", 20))
		memmove(want, want + 20, strlen(want + 20) + 1);
	else if (!strncmp(want, "perf-count-hw-", 14) ||
		 !strncmp(want, "perf-count-sw-", 14))
		memmove(want, want + 14, strlen(want + 14) + 1);
	for (size_t i = 0; i < sizeof papi_special / sizeof *papi_special; i++)
		if (!strcmp(want, papi_special[i][0]))
			snprintf(want, sizeof want, "%s", papi_special[i][1]);
	if (pmk__generic_find(want, &g) == 0) {
		snprintf(name, size, "%s", want);
		return 0;
	}
	name[0] = 0;
	pmk__generic_foreach(ci_cb, &f);
	return name[0] ? 0 : PMK_ENOEVENT;
}

int pmk__generic_find_hw(const char *name, struct pmk__generic *out)
{
	if (pmk__generic_find(name, out) != 0 ||
	    (out->kind != PMK_KIND_HARDWARE && out->kind != PMK_KIND_HWCACHE))
		return PMK_ENOEVENT;
	return 0;
}
