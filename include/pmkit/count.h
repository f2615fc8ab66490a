/*
 * pmkit/count.h: event sets (counting) and the region API.
 *
 * An event set holds events added by name; when started it opens them on a
 * backend (the kernel's perf_event by default, or the simulated core), packs
 * their natives into kernel groups that fit the counters, and multiplexes
 * when they do not. Every read returns, per event, the scaled value, the
 * fraction of time it was counted and an error estimate (docs/counting.md
 * explains the method).
 */
#ifndef PMKIT_COUNT_H
#define PMKIT_COUNT_H

#include <stdint.h>
#include <sys/types.h>

#include "pmkit/event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmk_eventset pmk_eventset;
struct pmk_backend;

/* Flags of pmk_eventset_new(). */
enum {
	PMK_ES_MULTIPLEX = 1 << 0, /* allow events beyond the counters */
	PMK_ES_INHERIT = 1 << 1,   /* count children created after start */
	PMK_ES_GROUP = 1 << 2,     /* one kernel group per PMU, not per event */
	PMK_ES_NO_RDPMC = 1 << 3,  /* always read() even where rdpmc works */
	PMK_ES_ENABLE_ON_EXEC = 1 << 4, /* start counting at the next exec */
	PMK_ES_CGROUP = 1 << 5, /* the scope's pid is an open cgroup directory
				   fd: count that cgroup's tasks on scope.cpu */
	/* a derived event's natives each in a kernel group of its own, not
	 * together (perf's --metric-no-group); user groups stay groups */
	PMK_ES_NO_EVENT_GROUP = 1 << 6,
	/* an event never reads the identical native of another event's
	 * counter (perf's --metric-no-merge): each opens its own */
	PMK_ES_NO_SHARE = 1 << 7,
	/* one of a run's sets, one per CPU, over CPUs that include every
	 * CPU a PMU's cpumask lists (perf's -a): a native of such a PMU
	 * (uncore, RAPL: it counts a whole package on one of its CPUs, and
	 * the kernel takes it on any CPU of the package) is opened only on
	 * the listed CPUs, PMK_VALUE_OFF_CPU on the others; so is a hybrid
	 * core PMU's on its `cpus`. Without this flag a set opens it on its
	 * own CPU (perf 6.1's -C), where it counts the package. */
	PMK_ES_PMU_CPUMASK = 1 << 8,
};

/* Flags of a pmk_value. */
enum {
	PMK_VALUE_MULTIPLEXED = 1 << 0, /* counted part of the time, scaled */
	PMK_VALUE_NAN = 1 << 1,         /* derived value divided by zero */
	PMK_VALUE_NOT_COUNTED = 1 << 2, /* opened but never ran */
	PMK_VALUE_UNSUPPORTED = 1 << 3, /* could not be opened here */
	/* multiplexed, counted nothing while on, and was off counters through
	 * the set's start, where the other events' rates changed by half or
	 * more: what it missed there is unknown, and err does not cover it */
	PMK_VALUE_START_UNSEEN = 1 << 4,
	/* PMK_ES_PMU_CPUMASK: every native of the event is on a PMU whose
	 * cpumask leaves the set's CPU out: not opened, value 0, so that a
	 * sum over the CPUs counts the package once, as perf does */
	PMK_VALUE_OFF_CPU = 1 << 5,
};

typedef struct pmk_value {
	double value;            /* best estimate: scaled, or derived */
	double err;              /* error estimate (1 sigma, same unit), 0 if exact */
	double lo, hi;           /* interval value +- 2 err, lo at least the raw
				    count (derived: propagated) */
	uint64_t raw;            /* raw count of leaf 0 (unscaled) */
	uint64_t enabled_ns;     /* time enabled (leaf 0) */
	uint64_t running_ns;     /* time running (leaf 0) */
	uint64_t edge_ns;        /* of enabled: in pmkit's own calls (self sets) */
	double running;          /* min over leaves of running/enabled; 1 = always */
	unsigned flags;          /* PMK_VALUE_* */
	int status;              /* 0, or the PMK_E* code why it was not counted */
} pmk_value;

/* Whom to count. Default: the calling thread on any CPU. */
typedef struct pmk_scope {
	pid_t pid;    /* 0 = calling thread/process, >0 = that pid/tid, -1 = all */
	int cpu;      /* -1 = any CPU, else that CPU (required when pid == -1) */
} pmk_scope;

int pmk_eventset_new(pmk_eventset **out, unsigned flags);
void pmk_eventset_free(pmk_eventset *es);
/* Use another backend (NULL: the kernel). Only before the first start. */
int pmk_eventset_set_backend(pmk_eventset *es, struct pmk_backend *be);
/* Frees a backend made by a constructor such as pmk_sim_backend_new(), once
 * no event set uses it; NULL is ignored. */
void pmk_backend_free(struct pmk_backend *be);

/* The threads of a process, from /proc (what `stat -p`/`record -p` attach
 * to): `pid` itself first, then the others in /proc's order. At most `max`
 * are written; returns how many, or PMK_ENOENT when there is no process. */
int pmk_task_threads(int pid, int *tids, int max);
/* The process (thread group) thread `tid` belongs to; `tid` itself when
 * /proc/TID/status cannot be read. */
int pmk_task_tgid(int tid);
/* Whether thread `tid` still exists (a zombie thread still counts). */
int pmk_task_alive(int tid);
int pmk_eventset_set_scope(pmk_eventset *es, pmk_scope scope);
int pmk_eventset_set_flags(pmk_eventset *es, unsigned flags);
unsigned pmk_eventset_flags(const pmk_eventset *es);

/* Add an event by name (any grammar of pmkit/event.h) or parsed. Returns its
 * index. A derived event whose natives cannot share the counters needs
 * PMK_ES_MULTIPLEX, else PMK_ENEEDMPX. */
int pmk_eventset_add(pmk_eventset *es, const char *name, pmk_diag *d);
int pmk_eventset_add_event(pmk_eventset *es, const pmk_event *ev,
			   pmk_diag *d);
int pmk_eventset_size(const pmk_eventset *es);
/* Event i as a whole pmk_event (its natives as counted: one that fell back
 * to user space says so), valid until the set is freed; NULL for no such
 * event or out of memory. The set keeps only what it counts with (the
 * pmk_event's fixed arrays are 46 KB), and makes this copy when asked. */
const pmk_event *pmk_eventset_event(const pmk_eventset *es, int i);

/*
 * Open the events now (start does it when needed). Events that cannot be
 * opened here are kept, marked PMK_VALUE_UNSUPPORTED with their reason in
 * their diag, unless every event failed (then the first error is returned).
 */
int pmk_eventset_open(pmk_eventset *es, pmk_diag *d);
/* Why event i could not be opened (NULL if it was). */
const pmk_diag *pmk_eventset_event_diag(const pmk_eventset *es, int i);
/* Schedule events first..last (indexes, already added) as one kernel
 * group, like perf's {a,b}: counted over exactly the same time. Before
 * the set is opened; groups may not overlap; PMK_ETOOMANY beyond
 * PMK_GROUP_MAX natives. */
#define PMK_GROUP_MAX 16
int pmk_eventset_group(pmk_eventset *es, int first, int last);
/* How the natives were packed: number of kernel groups, and whether a group
 * had to be split because the kernel could not schedule it. */
int pmk_eventset_groups(const pmk_eventset *es, int *split);

int pmk_eventset_start(pmk_eventset *es);
/* The start sweep (docs/counting.md): in a set that multiplexes, called
 * right after the start and then every fraction of a rotation, each call
 * puts the next batch of groups that fit `counters` (<= 0: the core
 * PMU's) on and the others off, so that every group sees a share of the
 * program's start; after `steps` calls (rounded up to whole passes over
 * the batches) it turns them all on again and reads the set. Time a group
 * was held off counts as enabled, so its value scales over the whole run.
 * No reads in between. `steps` 0 ends a sweep under way at once (the
 * workload ended, say). Returns 1 while sweeping (call again), 0 when done
 * or when the set needs no sweep, or an error. */
int pmk_eventset_sweep(pmk_eventset *es, int counters, int steps);
int pmk_eventset_stop(pmk_eventset *es);
int pmk_eventset_reset(pmk_eventset *es);
/* Read every event's value since start (or reset). `n` is the size of
 * `vals`; returns the number of events. */
int pmk_eventset_read(pmk_eventset *es, pmk_value *vals, int n);
/* Add every event's value since start to `vals` and reset the counters. */
int pmk_eventset_accum(pmk_eventset *es, pmk_value *vals, int n);
/* The counts of event `e`'s natives as of the last pmk_eventset_read
 * (each scaled to its enabled time; NAN for one that never ran), into
 * `leaf` (room for `n`): what a derived event is computed from, so that a
 * caller can add sets or take differences of them and evaluate the event
 * itself (pmk_event_eval). Returns the number of natives, or a negative
 * PMK_E* code. */
int pmk_eventset_leaf_values(pmk_eventset *es, int e, double *leaf, int n);

/*
 * The error estimate of a multiplexed count (docs/counting.md): a count
 * `raw` seen while running `running_ns` of `enabled_ns`, scaled to
 * raw * enabled / running. Three independent parts, added in quadrature:
 *  - counting noise, events taken as a Poisson process of constant rate:
 *      sqrt(raw * (1 - f)) / f, with f = running / enabled;
 *  - rate variability: the unobserved time (enabled - running) times the
 *    standard error of the mean rate over the `nslices` observed slices,
 *    rate_sd / sqrt(nslices) (omitted when nslices < 2);
 *  - edges: `edge_ns` of the enabled time spent outside the measured code
 *    (an event set counting the calling thread: the library's own enable,
 *    disable and read calls), at a rate differing from the observed one by
 *    up to that rate: r * edge * max(1, (1 - f) / f) / sqrt(3), with
 *    r = raw / running.
 * Returns 0 for a count that was never multiplexed (f = 1).
 */
double pmk_mpx_error(uint64_t raw, uint64_t enabled_ns, uint64_t running_ns,
		     double rate_sd, int nslices, uint64_t edge_ns);

/*
 * Regions. pmk_region_begin/end count the region's events (chosen by
 * pmk_region_set_events() or the PMK_REGION_EVENTS environment variable,
 * default "task-clock,page-faults" plus hardware events where countable)
 * per thread, nested, accumulated over calls. Results go to the JSON file
 * named by PMK_REGION_OUTPUT (default pmkit-regions.json) at exit, or now
 * with pmk_region_write().
 */
int pmk_region_set_events(const char *list, pmk_diag *d);
int pmk_region_begin(const char *name);
int pmk_region_end(const char *name);
int pmk_region_write(const char *path);

/* Region results, for programs that want them without a file. */
typedef struct pmk_region_stats {
	const char *name;
	uint64_t calls;
	int nevents;
	const char *const *event_names;
	const double *values; /* per event, summed over calls and threads */
} pmk_region_stats;
int pmk_region_foreach(int (*fn)(const pmk_region_stats *s, void *arg),
		       void *arg);

#ifdef __cplusplus
}
#endif
#endif
