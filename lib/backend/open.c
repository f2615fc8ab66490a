/*
 * open.c: the one perf_event_open call of libpmkit, with its retries and
 * the explanation of a failure (perf_errors.c).
 */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/backend/kernel.h"
#include "lib/backend/perf_errors.h"

static int sys_open(struct perf_event_attr *pa, int pid, int cpu, int group_fd,
		    unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, pa, pid, cpu, group_fd, flags);
}

int pmk__perf_open(struct perf_event_attr *pa, const pmk_attr *a, int pid,
		   int cpu, int group_fd, unsigned long flags, pmk_diag *d)
{
	int fd, err, cgroup = (flags & PERF_FLAG_PID_CGROUP) != 0;
	flags |= PERF_FLAG_FD_CLOEXEC;
	fd = sys_open(pa, pid, cpu, group_fd, flags);
	/* one descriptor per event, CPU and thread: many events on many CPUs
	 * reach the usual soft limit of 1024 (perf raises it too) */
	if (fd < 0 && errno == EMFILE && pmk__raise_nofile())
		fd = sys_open(pa, pid, cpu, group_fd, flags);
	if (fd >= 0)
		return fd;
	err = errno;
	/* a cgroup is counted on its CPUs: the kernel checks what it checks
	 * for every CPU (-a), and `pid` is a directory, not a process */
	if (cgroup)
		pid = -1;
	if (pa->sample_period) /* sample_freq too: a sampling open */
		return pmk__perf_sample_error(err, a, pid, pid == -1, d);
	return pmk__perf_open_error(err, a, pid, pid == -1, d);
}
