/*
 * outfile.h: writing a user's output file without ever losing the one
 * already there. Internal.
 *
 * pmk__outfile_open creates a new file next to the target, named
 * "NAME.tmp-XXXXXX" in the same directory (O_CREAT|O_EXCL|O_NOFOLLOW, mode
 * 0644 under the umask, 0600 with PMK__OUT_PRIVATE), checks with fstat that
 * it is a plain file, so nothing at NAME is opened, followed or truncated.
 * pmk__outfile_commit flushes it (fsync with PMK__OUT_SYNC), renames an
 * existing NAME to NAME.old (unless PMK__OUT_NO_BACKUP) and renames the new
 * file to NAME; pmk__outfile_abort removes the new file and leaves NAME as
 * it was (pmk__outfile_publish puts it in place early). A symbolic link at
 * NAME, whatever it points to, is itself replaced (and kept as NAME.old):
 * it is never followed.
 *
 * Before anything is created, the target is checked (pmk__outfile_check,
 * which commands call before they start a workload, so that a refusal
 * costs no run): a FIFO, a device (but the null device), a socket or a
 * directory at NAME is refused; so are a directory that is not writable, a
 * NAME that cannot be replaced (another user's file in a sticky directory
 * such as /tmp) and a NAME.old that cannot take the previous file (a
 * directory, another user's file in a sticky directory).
 *
 * Written in place, as streams: "-" (standard output, with PMK__OUT_DASH),
 * a descriptor named as a file (/dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N: through a dup of it) and the null device (/dev/null,
 * opened with O_NOFOLLOW and checked with fstat).
 */
#ifndef PMK_CORE_OUTFILE_H
#define PMK_CORE_OUTFILE_H

#include <limits.h>
#include <stdio.h>

#include "pmkit/error.h"

enum {
	PMK__OUT_SYNC = 1,	/* fsync the data before it replaces NAME */
	PMK__OUT_NO_BACKUP = 2, /* an existing NAME is replaced, no NAME.old */
	PMK__OUT_DASH = 4,	/* "-" writes to standard output */
	PMK__OUT_PRIVATE = 8,	/* mode 0600: record files, as perf.data */
};

typedef struct pmk__outfile {
	char path[PATH_MAX]; /* the target, as given */
	char tmp[PATH_MAX];  /* the new file while it is written, or "" */
	int fd;		     /* the descriptor being written, -1 when closed */
	int in_place;	     /* writing the target itself (stdout, a device) */
	unsigned flags;
	FILE *fp; /* from pmk__outfile_stream(), or NULL */
} pmk__outfile;

/* Whether `path` can be written with `flags`, as pmk__outfile_open and
 * pmk__outfile_commit will do it, without creating anything: 0, or a
 * negative PMK_E* code with `d` filled. For commands, before the workload
 * starts. */
int pmk__outfile_check(const char *path, unsigned flags, pmk_diag *d);
/* Start writing `path`. Returns 0, or a negative PMK_E* code with `d`
 * filled ("cannot write 'PATH': ...") and nothing created. */
int pmk__outfile_open(pmk__outfile *of, const char *path, unsigned flags,
		      pmk_diag *d);
/* A stdio stream on the file (made once; owned by `of`), or NULL. */
FILE *pmk__outfile_stream(pmk__outfile *of);
/* Finish: flush, close, and rename into place. Returns 0, or a negative
 * PMK_E* code with `d` filled; on failure the new file is removed and NAME
 * is as it was. */
int pmk__outfile_commit(pmk__outfile *of, pmk_diag *d);
/* Put the new file in place now (NAME.old kept) and go on writing it: for
 * a recording, once the run has started, so that a pmkit killed later
 * leaves a readable NAME. Commit then only flushes and closes, and abort
 * leaves the file in place. Returns 0 or a negative PMK_E* code. */
int pmk__outfile_publish(pmk__outfile *of, pmk_diag *d);
/* Give up: close and remove the new file; NAME is untouched. Safe to call
 * after a commit (does nothing) and on a zeroed struct with fd -1. */
void pmk__outfile_abort(pmk__outfile *of);

/* The CLI's shorthand: open `path` (with PMK__OUT_DASH) and return its
 * stream, or NULL with `d` filled. */
FILE *pmk__outfile_fopen(pmk__outfile *of, const char *path, unsigned flags,
			 pmk_diag *d);
/* The CLI's shorthand: commit, or abort when `ok` is 0; returns 0 when the
 * file is in place. */
int pmk__outfile_fclose(pmk__outfile *of, int ok, pmk_diag *d);

/* An --append's start: the text of the file at `path` now (a plain file,
 * opened without following a link; nothing when there is none) copied to
 * `to`, the new file that will replace it. 0, or PMK_EIO with `d` saying
 * why (a link, a directory, a read error). */
int pmk__outfile_copy_old(const char *path, FILE *to, pmk_diag *d);

/* For writers that only hold a FILE *: fopen(path, "w") and fclose(f)
 * with the same guarantees ("-" is standard output). pmk__out_fclose
 * commits when `ok`, else discards, and returns 0 when the file is in
 * place (`d` says why not). At most 16 such files are open at once. */
FILE *pmk__out_fopen(const char *path, unsigned flags, pmk_diag *d);
int pmk__out_fclose(FILE *f, int ok, pmk_diag *d);

#endif
