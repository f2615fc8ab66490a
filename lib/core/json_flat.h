/*
 * json_flat.h: a small bounded reader for JSON files that hold a top-level
 * array of flat objects whose values are strings, numbers, true, false or
 * null (perf's pmu-events files). Anything else (nesting, a file past the
 * bounds) is refused with file:line:column. Internal; pure.
 */
#ifndef PMK_CORE_JSON_FLAT_H
#define PMK_CORE_JSON_FLAT_H

#include <stddef.h>

#include "pmkit/error.h"

/* The reader's bounds. */
#define PMK__JSON_FILE_MAX   ((size_t)16 << 20) /* bytes of one file */
#define PMK__JSON_KEYS_MAX   64			/* members of one object */
#define PMK__JSON_STRING_MAX 65536		/* bytes of one string */
#define PMK__JSON_FILES_MAX  64			/* files of one directory */

/* Called for each object of the array: n members, keys[i] = vals[i]
 * (numbers, true, false and null as written; strings unescaped). A
 * non-zero return stops the walk and is returned. */
typedef int (*pmk__json_fn)(void *arg, int n, const char *const *keys,
			    const char *const *vals, int line);
/* Walk the objects of `text` (len bytes; NUL bytes refused). 0, the
 * callback's non-zero value, or a negative PMK_E* code with `d` naming
 * file:line:column. */
int pmk__json_objects(const char *text, size_t len, const char *file,
		      pmk__json_fn fn, void *arg, pmk_diag *d);

#endif
