/*
 * test_topo.c: the topology a target declares (lib/event/topo.c), which
 * gives perf's metrics #smt_on, #num_cores, #num_packages, #num_dies,
 * #num_cpus and #SYSTEM_TSC_FREQ. Table-driven over machine fixtures:
 * their /proc/cpuinfo is all they declare (no sys/devices/system/cpu).
 * A target built by hand declares nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lib/event/topo.h"
#include "tests/support/t.h"

static pmk_target *fixture(const char *name)
{
	const char *src = getenv("PMK_SRC");
	char root[1024];
	pmk_target *t = pmk_target_new();
	snprintf(root, sizeof root, "%s/tests/fixtures/%s/sys",
		 src && *src ? src : ".", name);
	if (t && pmk_target_discover(t, root, NULL) < 0) {
		pmk_target_free(t);
		return NULL;
	}
	return t;
}

static void test_fixtures(void)
{
	static const struct {
		int src_line;
		const char *fixture;
		int cpus, cores, packages, dies, smt;
		double tsc_hz;
	} cases[] = {
	    /* Xeon Gold 6338 @ 2.00GHz: core ids 0-3, one package */
	    {__LINE__, "intel-icx", 4, 4, 1, 1, 0, 2.0e9},
	    /* Xeon Platinum 8480+ (no "@ GHz" in the name): core ids 0-3 */
	    {__LINE__, "intel-spr", 4, 4, 1, 1, 0, 0},
	    /* EPYC 7763: core ids 0-3 (AMD writes no clock in the name) */
	    {__LINE__, "amd-zen3", 4, 4, 1, 1, 0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pmk_target *t = fixture(cases[i].fixture);
		pmk__topo tp;
		T_ASSERT(t);
		T_CHECKF(
		    pmk__target_topo(t, &tp) == 0 && tp.cpus == cases[i].cpus &&
			tp.cores == cases[i].cores &&
			tp.packages == cases[i].packages &&
			tp.dies == cases[i].dies && tp.smt_on == cases[i].smt &&
			tp.tsc_hz == cases[i].tsc_hz,
		    "line %d: %s: cpus %d cores %d packages %d dies %d "
		    "smt %d tsc %g (from %s)",
		    cases[i].src_line, cases[i].fixture, tp.cpus, tp.cores,
		    tp.packages, tp.dies, tp.smt_on, tp.tsc_hz, tp.from);
		pmk_target_free(t);
	}
	{
		pmk_target *t = pmk_target_new();
		pmk__topo tp;
		T_ASSERT(t);
		T_EQ_INT(pmk__target_topo(t, &tp), PMK_ENOENT);
		pmk_target_free(t);
	}
}

int main(void)
{
	T_RUN(test_fixtures);
	return t_done();
}
