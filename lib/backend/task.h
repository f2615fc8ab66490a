/*
 * task.h: the threads of a process, from /proc. The functions are public (pmkit/count.h).
 *
 * The one walk of /proc/PID/task: the sampler opens every thread of an
 * attached process (record -p), the counting side builds one event set per
 * thread (stat -p), and record -t follows threads by id. A thread may end
 * between its listing and its open: pmk__perf_open fails with ESRCH then
 * (pmk__perf_task_ended), and the caller drops it.
 */
#ifndef PMK_BACKEND_TASK_H
#define PMK_BACKEND_TASK_H

/* pmk_task_threads, pmk_task_tgid, pmk_task_alive: public, declared in
 * pmkit/count.h (the CLI attaches to processes through them). */
#include "pmkit/count.h"

#endif
