/*
 * topo.h: the topology a target declares (CPUs, cores, packages, dies,
 * SMT, the TSC's frequency), for the machine properties perf's metrics
 * name (#smt_on, #num_cores, #num_packages, #num_dies, #num_cpus,
 * #SYSTEM_TSC_FREQ). Internal.
 */
#ifndef PMK_EVENT_TOPO_H
#define PMK_EVENT_TOPO_H

#include "pmkit/event.h"

typedef struct pmk__topo {
	int cpus;      /* logical CPUs */
	int cores;     /* distinct (package, core) */
	int packages;  /* distinct packages */
	int dies;      /* distinct (package, die); the packages where the
			  target names no dies */
	int smt_on;    /* 1 when a core runs more than one CPU (or sysfs's
			  smt/active says so), else 0 */
	double tsc_hz; /* the TSC's frequency, 0 when not declared */
	char from[16]; /* "sysfs" or "cpuinfo": where the counts came from */
} pmk__topo;

/*
 * Read the topology of the machine `t` was discovered from: its sysfs's
 * devices/system/cpu/cpuN/topology (package, die, core ids) and
 * smt/active where present, else its /proc/cpuinfo's processor, physical
 * id and core id (the captured fixtures have only these). The TSC's
 * frequency, on the machine itself, is the one CPUID leaf 0x15 enumerates
 * on an Intel CPU (as perf reads it), else the "@ N.NNGHz" of cpuinfo's
 * model name (Intel writes it there); 0 when neither says. 0, or PMK_ENOENT when the target was
 * built by hand (no sysfs root) or declares no CPU at all. Reads files.
 */
int pmk__target_topo(const pmk_target *t, pmk__topo *out);

#endif
