/*
 * rec_switch.h: record's --switch-output[=signal|SIZE|TIME] (perf's
 * option): the recording is cut into files named OUTPUT.YYYYMMDDHHMMSScc
 * (the local time of the cut, to the hundredth of a second), one at each
 * SIGUSR2 (signal, the default), each time the data reach SIZE (B/K/M/G)
 * or each TIME (s/m/h/d), and one more at the end. --switch-max-files=N
 * keeps the newest N of them.
 *
 * The records go to an unnamed temporary file, as with --format perf; a
 * cut writes its head (file header, events, the maps known at the start)
 * and the records since the previous cut as one whole file, through the
 * safe writer (lib/core/outfile.c), in record's format (pmkit's record
 * file or perf.data), then frees the disk space of the records it took.
 */
#ifndef PMK_CLI_REC_SWITCH_H
#define PMK_CLI_REC_SWITCH_H

#include <stdint.h>

#include "pmkit.h"

#define REC_SWITCH_MAX_FILES 1024

struct rec_switch {
	int on;		     /* --switch-output given */
	uint64_t size_bytes; /* SIZE mode, or 0 */
	uint64_t time_ns;    /* TIME mode, or 0 */
	int max_files;	     /* --switch-max-files, 0: keep all */
	/* the temporary file */
	int fd;
	uint64_t head_end;  /* end of the head every file starts with */
	uint64_t seg_start; /* records not yet written out start here */
	uint64_t seg_t0_ns; /* CLOCK_MONOTONIC of the last cut */
	char last[64];	    /* timestamp of the last file, to stay unique */
	int nfiles;
	char **files; /* the files written, oldest first (max_files) */
};

/* Parse --switch-output's value (NULL: signal). 0, or an exit code after
 * an error naming `opt` was printed. */
int rec_switch_parse(struct rec_switch *sw, const char *opt, const char *val);
/* Parse --switch-max-files. */
int rec_switch_max_files(struct rec_switch *sw, const char *opt,
			 const char *val);
/* Start cutting the temporary file `fd`, whose head ends at `head_end`
 * (flushed). */
void rec_switch_start(struct rec_switch *sw, int fd, uint64_t head_end);
/* Whether SIZE or TIME says it is time for a cut (the file flushed). */
int rec_switch_due(const struct rec_switch *sw);
/* Write the head and the records from the last cut to the end of the
 * (flushed) temporary file as OUT.TIMESTAMP; `name` gets that name.
 * perf: as perf.data (`po`), else as a pmkit record file. 0, or a negative
 * PMK_E* code with `d` filled. */
int rec_switch_cut(struct rec_switch *sw, const char *out, int perf,
		   const pmk_perfdata_opts *po, char *name, size_t size,
		   pmk_diag *d);
void rec_switch_release(struct rec_switch *sw);

#endif
