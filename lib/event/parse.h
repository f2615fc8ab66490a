/*
 * parse.h: helpers the event parser shares with the model tables. Internal.
 */
#ifndef PMK_EVENT_PARSE_H
#define PMK_EVENT_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/error.h"

/* Fill a diagnostic (message printf-style) and return `code`. */
int pmk__diag_set(pmk_diag *d, int code, int column, int length,
		  const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Parse exactly `n` chars as an unsigned number (dec, 0x hex); 0 or -1. */
int pmk__parse_u64(const char *s, size_t n, uint64_t *out);

#endif
