/*
 * task.h: the threads of a process, from /proc. Internal to libpmkit.
 *
 * The one walk of /proc/PID/task: the sampler opens every thread of an
 * attached process (record -p), the counting side builds one event set per
 * thread (stat -p), and record -t follows threads by id. A thread may end
 * between its listing and its open: pmk__perf_open fails with ESRCH then
 * (pmk__perf_task_ended), and the caller drops it.
 */
#ifndef PMK_BACKEND_TASK_H
#define PMK_BACKEND_TASK_H

/* The threads process `pid` has now: `pid` itself first, then the others
 * in /proc's order (ascending ids, usually). At most `max` are written;
 * returns how many, or PMK_ENOENT when there is no process `pid`. */
int pmk__task_threads(int pid, int *tids, int max);
/* The process (thread group) thread `tid` belongs to: Tgid in
 * /proc/TID/status; `tid` itself when that cannot be read. */
int pmk__task_tgid(int tid);
/* Whether thread `tid` still exists: its /proc/TGID/task/TID entry, which
 * goes once the thread is reaped (a zombie thread still counts). */
int pmk__task_alive(int tid);

#endif
