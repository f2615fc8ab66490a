/*
 * cli/report_stats.h: `report --stats` and the compression line of
 * `report --header`, from a perf.data file's records and features
 * (pmk_perfdata_info_read), in perf report's words.
 */
#ifndef PMK_CLI_REPORT_STATS_H
#define PMK_CLI_REPORT_STATS_H
#include <stdio.h>

/* perf's "Aggregated stats:" table of the file's records by type; 0, or 1
 * after the reason is said (a pmkit record file has no such table). */
int cli_report_stats(const char *path, FILE *out);
/* perf's "# compressed : Zstd, level = L, ratio = R" line into `line`
 * (of `size` bytes), or "" for a file that is not compressed. */
void cli_report_compressed(const char *path, char *line, size_t size);

#endif
