/*
 * cli/report_tasks.h: `report --task`: the recording's processes and
 * threads as perf report --task prints them (pid, tid, parent pid and
 * command, each child indented under its parent).
 */
#ifndef PMK_CLI_REPORT_TASKS_H
#define PMK_CLI_REPORT_TASKS_H
#include <stdio.h>

/* Print the tasks of the recording at `path` (pmkit's record file or a
 * perf.data file) to `out`; 0, or 1 after the reason is said. */
int cli_report_tasks(const char *path, FILE *out);

#endif
