/*
 * parse.h: what the event parser once shared with the rest of the library.
 * Internal. The helpers live in lib/core now (pmk__diag_set in diag.h,
 * pmk__parse_u64 in num.h); this header only forwards to them for the
 * callers outside lib/event that still include it. New code includes the
 * lib/core headers.
 */
#ifndef PMK_EVENT_PARSE_H
#define PMK_EVENT_PARSE_H

#include "lib/core/diag.h"
#include "lib/core/num.h"

#endif
