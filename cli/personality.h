/*
 * personality.h: whether pmkit runs as perf. Installed or linked as `perf`
 * (argv[0]'s basename) or run as `pmkit perf ARGS`, pmkit takes perf's
 * defaults where the two differ, so that `alias perf=pmkit` and scripts
 * that call perf work: record writes perf.data (the old one kept as
 * perf.data.old) with perf's two-line banner, report and script read
 * perf.data, report prints perf's --stdio layout, --version is perf's
 * line. Run as `pmkit`, every command keeps pmkit's own defaults.
 * Set once by main.c before a command runs; read by the commands.
 */
#ifndef PMK_CLI_PERSONALITY_H
#define PMK_CLI_PERSONALITY_H

/* perf's default file for record, report and script */
#define CLI_PERF_DATA "perf.data"

/* nonzero when pmkit runs as perf */
extern int cli_as_perf;

#endif
