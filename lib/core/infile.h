/*
 * infile.h: one bounded, typed reader for the files pmkit reads whole
 * (definition and measurement files, PMK_USER_EVENTS_FILE, the simulator's
 * configuration) and one typed open for the files it reads by pieces
 * (record files, traces). Internal.
 *
 * A directory, a device or a socket is refused with a message naming what
 * it is; a FIFO is refused too, except where the caller streams
 * (PMK__IN_STREAM: traces); so is a file of a kernel pseudo-file system
 * (procfs, sysfs, tracefs, debugfs, cgroupfs, securityfs: trace_pipe never
 * ends) unless PMK__IN_PSEUDO says it may be read. The open never blocks on a FIFO (O_NONBLOCK,
 * cleared afterwards). A whole-file read is capped at pmk__infile_max()
 * bytes (64 MiB unless PMK_INPUT_MAX=BYTES[K|M|G] says otherwise); a NUL
 * byte in a text file is an error naming file:offset; read errors are
 * checked, never taken for the end of the file.
 */
#ifndef PMK_CORE_INFILE_H
#define PMK_CORE_INFILE_H

#include <stddef.h>

#include "pmkit/error.h"

#define PMK__INFILE_MAX_DEFAULT ((size_t)64 << 20)

enum {
	PMK__IN_STREAM = 1, /* a FIFO or pipe may be read */
	PMK__IN_BINARY = 2, /* NUL bytes are data, not an error */
	PMK__IN_PSEUDO = 4, /* a file in procfs, sysfs, tracefs... may be read */
};

/* The size cap of whole-file reads: PMK_INPUT_MAX when it is set (read
 * with secure_getenv), else PMK__INFILE_MAX_DEFAULT; 0 when PMK_INPUT_MAX
 * is set but not a size (pmk__infile_read then refuses, naming it). */
size_t pmk__infile_max(void);

/* Open `path` read-only (close-on-exec), refusing what is not a regular
 * file (or a FIFO with PMK__IN_STREAM). Returns the descriptor, or a
 * negative PMK_E* code (PMK_ENOENT, PMK_EIO, PMK_EFORMAT) with `d` filled
 * and d->file set to `path`. */
int pmk__infile_open(const char *path, unsigned flags, pmk_diag *d);

/* Read the whole of `path` into a NUL-terminated heap buffer (*out, free()
 * it; *len, if not NULL, gets its length without the terminator). `max` is
 * the cap (0: pmk__infile_max()). Returns 0 or a negative PMK_E* code with
 * `d` filled: too large is PMK_ERANGE, a NUL byte in text PMK_EFORMAT
 * ("file:offset" in the message). */
int pmk__infile_read(const char *path, unsigned flags, size_t max, char **out,
		     size_t *len, pmk_diag *d);
/* The same from an open descriptor (closed here), for "-" (standard
 * input, a pipe the user gave on purpose): `path` names it in messages. */
int pmk__infile_read_fd(int fd, const char *path, unsigned flags, size_t max,
			char **out, size_t *len, pmk_diag *d);

#endif
