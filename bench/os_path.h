/*
 * os_path.h: the path-name system calls of the OS suite (lmbench's
 * lat_syscall stat and open): internal to bench/os.c.
 */
#ifndef PMK_BENCH_OS_PATH_H
#define PMK_BENCH_OS_PATH_H

#include "pmkit/bench.h"

/* Run "stat" or "open" into *out: 1, or a negative PMK_E* code
 * (PMK_ENOENT for another name). */
int pmk__os_path(const char *name, const pmk_bench_cfg *cfg,
		 pmk_os_result *out);

#endif
