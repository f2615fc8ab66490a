/*
 * stat_file.h: `pmkit stat record` and `pmkit stat report`: the counts of a
 * stat run kept in a file and printed again later, as perf's `stat record`
 * and `stat report` do (perf's stat.sh: `stat record -o - CMD | stat report
 * -i -`).
 *
 * The file is pmkit's own text format, not perf's: a first line
 * "pmkit-stat-record/1", then for each print of the run (one at the end,
 * or one per -I interval) a block of tab-separated lines:
 *
 *   result  TARGET COMMAND EXIT REPEATS ELAPSED ELAPSED_SEM USER SYS
 *           INTERVAL SPAN AGGR NULL_RUN NOTE CGROUP
 *   row     NAME UNIT VALUE ERR LO HI STDDEV SEM COUNTED RAW ENABLED
 *           RUNNING FLAGS STATUS REASON BARE USER_ONLY DERIVED AGGR AGGR_N
 *   end
 *
 * Text fields escape tab, newline and backslash as \t, \n and \\; an
 * absent string is "\N"; numbers are C's (%.17g: they read back exactly).
 * Every field is checked when read; errors name the line and the field.
 */
#ifndef PMK_CLI_STAT_FILE_H
#define PMK_CLI_STAT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "cli/stat_output.h"
#include "pmkit/error.h"

#define STAT_FILE_MAGIC "pmkit-stat-record/1"

/* Append one print's counts. 0, or -1 when the stream failed. */
int stat_file_write_header(FILE *f);
int stat_file_write(FILE *f, const struct stat_result *r);

/* A file read back: its prints in order, the strings owned by it. */
struct stat_file {
	int n;
	struct stat_result *res;
	char **strs; /* every string the results point to */
	int nstr, capstr;
	int truncated; /* the last print had no 'end' and was left out */
};

/* Parse `len` bytes of `text`; `file` names it in errors. 0, or
 * PMK_EFORMAT with `d` saying which line and field. A last print without
 * its 'end' (a run killed while writing) is left out, `truncated` set. */
int stat_file_parse(const char *text, size_t len, const char *file,
		    struct stat_file *sf, pmk_diag *d);
void stat_file_free(struct stat_file *sf);

#endif
