/*
 * diag.h: filling a pmk_diag from the readers of files and strings.
 * Internal; error.c and diag.c.
 */
#ifndef PMK_CORE_DIAG_H
#define PMK_CORE_DIAG_H

#include "pmkit/error.h"

/* Clear `d` and fill it: the code, where (file may be NULL; line 0 when
 * not in a file; column 1-based, 0 for none; length at least 1), the input
 * line shown under the message (NULL for none; tabs and other control
 * characters shown as spaces so that the marker stays under its column),
 * a hint (NULL for none) and a printf-style message. Returns `code`. A NULL
 * `d` is allowed and left alone. */
int pmk__diag_at(pmk_diag *d, int code, const char *file, int line,
		 const char *input, int col, int len, const char *hint,
		 const char *fmt, ...) __attribute__((format(printf, 9, 10)));
/* Clear `d` and fill it for a file that cannot be read or written: the
 * code, the errno `e` of the failed call (0 for none), the file's path,
 * a hint (NULL for none) and a printf-style message; no line, column or
 * input. Returns `code`. A NULL `d` is allowed and left alone. */
int pmk__diag_file(pmk_diag *d, int code, int e, const char *path,
		   const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Fill `d`'s code, column (1-based; 0 for none), length (at least 1),
 * printf-style message and hint (NULL for none), leaving its input line,
 * file and line as they are: for a string whose caller set the input
 * (pmk_event_parse) or will show its own. Returns `code`. A NULL `d` is
 * allowed and left alone. (diag.c) */
int pmk__diag_set(pmk_diag *d, int code, int column, int length,
		  const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#endif
