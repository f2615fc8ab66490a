/*
 * backend.h: where counts come from. Internal to libpmkit (and sim/).
 *
 * A backend opens natives (pmk_attr) as counters, optionally in groups that
 * are scheduled together, and reads them with their enabled/running times.
 * Two implementations: the kernel (perf_event.c) and the simulated core
 * (sim/). The event-set layer (lib/count) is written against this interface
 * only, so both feed the same scaling, error estimates and output.
 *
 * Handles are small non-negative integers chosen by the backend.
 */
#ifndef PMK_BACKEND_H
#define PMK_BACKEND_H

#include <stdint.h>

#include "pmkit/count.h"
#include "pmkit/event.h"

typedef struct pmk_backend pmk_backend;

enum pmk_backend_op { PMK_BE_ENABLE = 1, PMK_BE_DISABLE, PMK_BE_RESET };

/* Options of one open. */
typedef struct pmk_open_opts {
	pmk_scope scope;
	int leader;         /* handle of the group leader, or -1: new group */
	unsigned inherit : 1;
	unsigned start_disabled : 1; /* leaders start disabled (usual) */
	unsigned enable_on_exec : 1; /* count from the next exec (pmkit stat) */
	unsigned no_user_reads : 1;  /* never read from user space (rdpmc) */
	unsigned cgroup : 1;         /* scope.pid is a cgroup directory fd */
} pmk_open_opts;

/* One read of a group: members in the order they were opened. */
typedef struct pmk_group_read {
	int n;
	uint64_t enabled_ns, running_ns;
	uint64_t value[PMK_GROUP_MAX];
	int handle[PMK_GROUP_MAX];
} pmk_group_read;

struct pmk_backend_ops {
	const char *name;
	/* Open one native. Returns a handle >= 0, or a negative PMK_E* with
	 * `d` explaining it (sys_errno set for kernel failures). */
	int (*open)(pmk_backend *be, const pmk_attr *a, const pmk_open_opts *o,
		    pmk_diag *d);
	int (*close)(pmk_backend *be, int h);
	/* ENABLE/DISABLE/RESET one handle, or its whole group. */
	int (*control)(pmk_backend *be, int h, int op, int whole_group);
	/* Read a group by its leader's handle. */
	int (*read_group)(pmk_backend *be, int leader, pmk_group_read *r);
	/* Read one handle alone (value, enabled, running). */
	int (*read_one)(pmk_backend *be, int h, uint64_t v[3]);
	void (*free)(pmk_backend *be);
};

struct pmk_backend {
	const struct pmk_backend_ops *ops;
	void *priv;
};

/* The kernel backend (perf_event_open); a new instance per event set. */
pmk_backend *pmk__backend_kernel_new(void);

#endif
