/*
 * attr.h: comparing two encoded natives. Internal, pure.
 */
#ifndef PMK_EVENT_ATTR_H
#define PMK_EVENT_ATTR_H

#include "pmkit/event.h"

/* Whether a and b count the same thing the same way: type, config,
 * config1, config2, the six exclude bits, precise_ip, sample, freq and
 * PMU name are all equal. The name, pinned and exclusive are left to the
 * caller. */
int pmk__attr_same_encoding(const pmk_attr *a, const pmk_attr *b);

#endif
