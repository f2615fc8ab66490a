/*
 * sched_msg.h: the scheduler benchmarks of perf bench sched (sched_msg.c):
 * messaging (hackbench's shape: groups of senders and receivers, every
 * sender of a group writing to every receiver of it) and pipe (two tasks
 * passing a token back and forth through two pipes). Internal to bench/
 * and the CLI; they return error codes and print nothing.
 */
#ifndef PMK_BENCH_SCHED_MSG_H
#define PMK_BENCH_SCHED_MSG_H

#include <stdint.h>

#include "pmkit/error.h"

typedef struct pmk__sched_msg_cfg {
	int groups;   /* of senders and receivers (perf: 10) */
	int fds;      /* senders, and receivers, per group (perf: 20) */
	int loops;    /* messages each sender sends each receiver (100) */
	int datasize; /* bytes a message (100) */
	int threads;  /* 1: threads of this process; 0: processes */
	int pipes;    /* 1: pipe(); 0: socketpair(AF_UNIX, SOCK_STREAM) */
} pmk__sched_msg_cfg;

/* Run the messaging benchmark: every task is created and waits; the clock
 * starts when all are ready and stops when all have finished. 0 with
 * `*ns` the time between, or PMK_EINVAL (a bad configuration, `d` says
 * which field), PMK_ESYS (a task, pipe or socket could not be made, or a
 * task failed; `d` has the errno). */
int pmk__sched_messaging(const pmk__sched_msg_cfg *c, uint64_t *ns,
			 pmk_diag *d);

/* Pass a token `loops` times there and back between this task and a
 * second one (a thread when `threaded`, else a process) through two pipes;
 * `*ns` the whole time. 0, PMK_EINVAL or PMK_ESYS as above. */
int pmk__sched_pipe(long loops, int threaded, uint64_t *ns, pmk_diag *d);

#endif
