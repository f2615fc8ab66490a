/*
 * es_struct.h: an event set's own records, shared by eventset.c (open,
 * read, values) and sweep.c (the start sweep) only.
 */
#ifndef PMK_COUNT_ES_STRUCT_H
#define PMK_COUNT_ES_STRUCT_H

#include <pthread.h>
#include <sys/resource.h>

#include "lib/backend/backend.h"
#include "lib/event/eval.h"
#include "pmkit/count.h"

struct leaf {
	pmk_attr attr;
	int event;           /* owning event */
	int handle;          /* backend handle, -1 when not open */
	int group;           /* index into groups, -1 when not open */
	int alias;           /* leaf whose counter this one reads, or -1 */
	uint64_t raw, enabled, running;       /* last read (since base) */
	uint64_t base_raw, base_en, base_run; /* reset point */
	uint64_t slice_raw, slice_run, slice_en; /* previous read, for slices */
	double w, mean, m2;  /* weighted rate statistics */
	uint64_t win_raw, win_run; /* the current window (run of slices it
				      counted in), so far */
	double nwr;          /* windows closed, and their rates' mean, sum */
	double wr_mean, wr_m2, wr_inv; /* of squares, sum of 1/running */
	int nslices;
	int nwin, ngap;      /* runs of slices counted, and not (mpx.c) */
	int last_seen, last_part; /* the previous slice: counted some, and
				     missed some of it (-1: none yet) */
	uint64_t start_raw, start_ns; /* the first slice, when it counted all
					 of it or it was a sweep (its count
					 and running time there); start_ns 0
					 otherwise */
	uint64_t start_len;  /* the first slice's length, when start_ns is */
	uint64_t first_run_ns; /* its running time in the first slice */
	int first_done;      /* the first slice has been folded in */
	int tool;            /* perf's tool events: 1 + config, else 0 */
	int no_slices;       /* never multiplexed: no rate statistics (open) */
	int off_cpu;         /* its PMU does not count on the set's CPU (a
				cpumask, a hybrid's cpus): never opened,
				reads 0 (open, PMK_ES_PMU_CPUMASK) */
};

/* An event as the set keeps it: its name and program, the steps it uses
 * only (a pmk_event's fixed arrays are 46 KB, and `stat -a` has a set per
 * CPU); its natives are the set's leaves from first_leaf. */
struct event {
	char name[PMK_EVENT_NAME_MAX];
	pmk_event_kind kind;
	char unit[sizeof ((pmk_event *)0)->unit];
	pmk__prog prog;      /* prog.ops: its prog.nops steps (owned), or NULL */
	pmk_event *full;     /* pmk_eventset_event's, made when asked */
	int first_leaf;
	int group_last;      /* last event of a user group starting here, or -1 */
	int status;          /* 0 or PMK_E* why not counted */
	pmk_diag *diag;      /* why not counted (keep_diag), or NULL */
	int user_only;       /* fell back to user space only (paranoid) */
	int off_cpu;         /* every native off_cpu: PMK_VALUE_OFF_CPU */
};

struct group {
	int leader;          /* backend handle */
	int nleaf;
	int leaf[PMK_GROUP_MAX];
	uint64_t edge_ns;    /* time in our own calls while enabled (mpx.c) */
	uint64_t mark;       /* control_all: when its enable began */
	int batch;           /* its batch in the start sweep, -1: none */
	uint64_t sweep_on;   /* its enabled time at the sweep's start */
	uint64_t held_ns;    /* time the sweep held it disabled (added to
				its enabled time: scaling is over the run) */
};

struct pmk_eventset {
	pthread_mutex_t lock;
	unsigned flags;
	pmk_scope scope;
	pmk_backend *be;
	int own_be;
	int opened, started, split;
	int nev, cev;
	struct event *ev;
	int nleaf, cleaf;
	struct leaf *leaf;
	int ngroup, cgroup;
	struct group *grp;
	double common_rel_sd; /* the set's phases (mpx.c), at the last read */
	double start_rel;     /* the set's start phase (mpx.c), same */
	uint64_t start_len_ns; /* and the time over which it was seen */
	int may_mpx;          /* more counter-limited natives than counters */
	/* perf's tool events (duration_time, user_time, system_time): the
	 * clock and the CPU times at start and at stop, measured here */
	uint64_t tool_t0, tool_t1;
	struct rusage ru0, ru1;
	int time_edges;       /* may_mpx and counting the calling thread */
	int any_tool, any_alias; /* set at open: what a read must also do */
	int sweep_step, nbatch; /* the start sweep: steps taken, batches */
	int swept;            /* the first slice is a finished sweep */
	int sweep_sw;         /* PMK_SWEEP_SOFTWARE: software natives too */
	int sweep_passes;     /* passes over the batches */
	uint64_t sweep_mark;  /* without a reference: the enabled time of the
				 batch on, at its enable */
	uint64_t sweep_ns;    /* the sweep's length (task time; its reference's
				 enabled time at the start, until the end) */
	int sweep_ref;        /* the sweep's clock on the kernel, or -1 */
};

/* Read every group and fold the slice since the last read into the rate
 * statistics; the set's lock held (eventset.c). */
int pmk__es_read(pmk_eventset *es);
/* How the set's natives are opened: its scope, flags, `leader` (-1: a
 * group of its own), disabled until enabled (eventset.c). */
void pmk__es_open_opts(const pmk_eventset *es, int leader, pmk_open_opts *o);
/* Whether a native needs one of the core PMU's counters (eventset.c). */
int pmk__es_counter_limited(const pmk_attr *a);

#endif
