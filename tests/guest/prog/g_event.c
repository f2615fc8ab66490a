/*
 * g_event.c: pmkit's event strings on a real arm64 kernel with a PMU. The
 * host's target is discovered from the guest's sysfs (armv8_pmuv3), each
 * string is parsed and encoded by pmkit, and the encoding is opened with
 * perf_event_open and counted around the known loop of loop.S: it must
 * count exactly 2n + 1 + 5 (docs/guest.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pmkit.h"
#include "tests/guest/prog/guest.h"
#include "tests/support/t.h"

#define LOOP_N 100000u
#define EXPECT (2u * LOOP_N + 1u + 5u)

static void to_perf_attr(const pmk_attr *p, struct perf_event_attr *a)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = p->type;
	a->config = p->config;
	a->config1 = p->config1;
	a->config2 = p->config2;
	a->exclude_user = p->exclude_user;
	a->exclude_kernel = p->exclude_kernel;
	a->exclude_hv = p->exclude_hv;
	a->disabled = 1;
}

/* Parse STR, open its one leaf, count the loop; -errno when not opened. */
static long long count_string(const char *str, pmk_event *ev)
{
	pmk_diag d;
	struct perf_event_attr a;
	uint64_t v = 0;
	int rc = pmk_event_parse(pmk_target_host(), str, ev, &d);
	if (rc < 0) {
		printf("# %s: %s (%s)\n", str, d.message, pmk_strerror(rc));
		return -1000 + rc;
	}
	to_perf_attr(&ev->leaf[0], &a);
	int fd = g_perf_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	g_count_loop(fd, LOOP_N);
	if (read(fd, &v, sizeof v) != sizeof v)
		v = 0;
	close(fd);
	printf("# %-28s type %u config 0x%llx: %llu\n", str, ev->leaf[0].type,
	       (unsigned long long)ev->leaf[0].config, (unsigned long long)v);
	return (long long)v;
}

static void test_core_pmu_discovered(void)
{
	const pmk_target *t = pmk_target_host();
	const char *core = pmk_target_core_pmu(t);
	T_ASSERT(core != NULL);
	T_EQ_STR(core, g_core_pmu());
	int found = 0;
	for (int i = 0; i < pmk_target_pmu_count(t); i++) {
		uint32_t type;
		int is_core;
		const char *name = pmk_target_pmu_name(t, i, &type, &is_core);
		if (strcmp(name, core) == 0) {
			found = 1;
			T_EQ_INT(type, g_core_type());
			T_CHECK(is_core);
		}
	}
	T_CHECK(found);
}

/* Every spelling of "user instructions" counts the loop exactly. */
static void test_instruction_spellings_exact(void)
{
	char pmu_alias[96], pmu_event[96];
	const char *core = g_core_pmu();
	T_ASSERT(core != NULL);
	snprintf(pmu_alias, sizeof pmu_alias, "%s/inst_retired/u", core);
	snprintf(pmu_event, sizeof pmu_event, "%s/event=0x08/u", core);
	const char *names[] = {"instructions:u", "r8:u", "r0x08:u", pmu_alias,
			       pmu_event};
	pmk_event ev;
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		long long v = count_string(names[i], &ev);
		T_CHECKF(v == EXPECT, "%s: %lld, expected %u", names[i], v, EXPECT);
		T_CHECK(ev.leaf[0].exclude_kernel && !ev.leaf[0].exclude_user);
	}
}

/* At -icount shift=0 each instruction is one cycle: cycles count the same. */
static void test_cycle_spellings_exact(void)
{
	char pmu_alias[96], pmu_event[96];
	const char *core = g_core_pmu();
	T_ASSERT(core != NULL);
	snprintf(pmu_alias, sizeof pmu_alias, "%s/cpu_cycles/u", core);
	snprintf(pmu_event, sizeof pmu_event, "%s/event=0x11/u", core);
	const char *names[] = {"cycles:u", "cpu-cycles:u", "r11:u", pmu_alias,
			       pmu_event};
	pmk_event ev;
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		long long v = count_string(names[i], &ev);
		T_CHECKF(v == EXPECT, "%s: %lld, expected %u", names[i], v, EXPECT);
	}
}

/* Generic events the emulated PMU lacks encode fine and the kernel refuses
 * them with ENOENT. */
static void test_unsupported_generic_enoent(void)
{
	const char *names[] = {"cache-references", "cache-misses", "branches",
			       "branch-misses", "bus-cycles", "ref-cycles",
			       "L1-dcache-load-misses", "LLC-loads"};
	pmk_event ev;
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		long long v = count_string(names[i], &ev);
		T_CHECKF(v == -ENOENT, "%s: %lld", names[i], v);
	}
}

int main(void)
{
	T_RUN(test_core_pmu_discovered);
	T_RUN(test_instruction_spellings_exact);
	T_RUN(test_cycle_spellings_exact);
	T_RUN(test_unsupported_generic_enoent);
	return t_done();
}
