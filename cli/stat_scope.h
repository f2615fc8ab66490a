/*
 * stat_scope.h: CPUs, topology, cgroups and tasks for `pmkit stat`
 * (stat_scope.c).
 */
#ifndef PMK_CLI_STAT_SCOPE_H
#define PMK_CLI_STAT_SCOPE_H

#include <stddef.h>
#include <sys/types.h>

/* 1 + the highest CPU number this machine can have. */
int stat_cpus_possible(void);
/* A CPU list "0-3,6" into cpus (at most max): the count, or -1. */
int stat_parse_cpus(const char *s, int *cpus, int max);
/* The name of CPU cpu's aggregation unit (enum stat_aggr), as perf's. */
void stat_cpu_label(int aggr, int cpu, char *label, size_t size);
/* --per-cache: the highest level of a data or unified cache sysfs declares
 * for CPU 0 (0 for none), and the level the labels name (0: that one). */
int stat_cache_top_level(void);
void stat_set_cache_level(int level);
/* The cgroup v2 directory NAME opened for counting, or -1 (printed). */
int stat_open_cgroup(const char *name);
/* Whether a task has ended (a zombie has). */
int stat_task_gone(pid_t pid);

#endif
