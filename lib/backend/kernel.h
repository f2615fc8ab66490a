/*
 * kernel.h: the one path from a pmk_attr to a perf_event_open file
 * descriptor. Internal to libpmkit.
 *
 * Counting (perf_event.c), sampling (lib/sample/sampler.c) and the record
 * probe (pmk_sampler_probe) all build their struct perf_event_attr with
 * pmk__attr_to_perf() and open it with pmk__perf_open(): no other file of
 * lib/ or cli/ makes the system call (tests/cli/layering.t checks it).
 * What a path adds on top (read format and groups for counting; sample
 * type, rings and side-band records for sampling) stays with that path.
 */
#ifndef PMK_BACKEND_KERNEL_H
#define PMK_BACKEND_KERNEL_H

#include <errno.h>
#include <linux/perf_event.h>

#include "pmkit/event.h"

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)
#endif
#ifndef PERF_FLAG_PID_CGROUP
#define PERF_FLAG_PID_CGROUP (1UL << 2)
#endif

/* Fill `pa` from `a`, every field of pmk_attr that the kernel has: type,
 * config, config1, config2, the six exclude bits, pinned, exclusive,
 * precise_ip, freq and sample (sample_period, or sample_freq when freq is
 * set: one union). `size` is set and everything else is zero. The name and
 * PMU name have no kernel field (the PMU is in `type`). */
void pmk__attr_to_perf(const pmk_attr *a, struct perf_event_attr *pa);

/*
 * perf_event_open(pa, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC).
 * On EMFILE the soft limit of open files is raised to the hard one and the
 * open tried once more with the same flags (PERF_FLAG_PID_CGROUP kept).
 * Returns the descriptor, or a negative PMK_E* code with `d` explaining
 * the failure for `a` (its name and PMU; sys_errno holds the errno): as a
 * sampling event when `pa` has a period or frequency (perf_errors.c,
 * pmk__perf_sample_error), as a counter otherwise (pmk__perf_open_error).
 * With PERF_FLAG_PID_CGROUP, `pid` is a cgroup directory and the open is
 * explained as one on every CPU, which is what the kernel checks.
 * A thread that ended between its listing and the open fails with ESRCH:
 * pmk__perf_task_ended() tells, so a caller opening every thread of a
 * process (pmk_task_threads) skips it.
 */
int pmk__perf_open(struct perf_event_attr *pa, const pmk_attr *a, int pid,
		   int cpu, int group_fd, unsigned long flags, pmk_diag *d);

/* The counting path's attr (perf_event.c): `a` as pmk__attr_to_perf
 * builds it, without its sampling fields (a counter is read, never
 * interrupted: sample and freq are ignored), pinned and exclusive on a
 * group leader only (the kernel refuses them on members), with the read
 * format, inherit, disabled and enable_on_exec of the open options. */
struct pmk_open_opts;
void pmk__perf_count_attr(const pmk_attr *a, const struct pmk_open_opts *o,
			  int leader, struct perf_event_attr *pa);

/* Whether pmk__perf_open's result `rc` (and `d`) says the task is gone. */
static inline int pmk__perf_task_ended(int rc, const pmk_diag *d)
{
	return rc < 0 && d->sys_errno == ESRCH;
}

#endif
