/*
 * unwind.h: user call stacks from a sample's registers and stack copy
 * (PMK_SAMPLE_HAS_USTACK), with the DWARF call-frame information of the
 * files the process had mapped. Internal to lib/sample.
 */
#ifndef PMK_SAMPLE_UNWIND_H
#define PMK_SAMPLE_UNWIND_H

#include <stdint.h>

#include "pmkit/sample.h"

struct pmk_profile;
typedef struct pmk__unwinder pmk__unwinder;

/* The frames of `s`'s user stack, innermost (the interrupted PC) first,
 * callers as return addresses: at most `max` into `out`; returns how many
 * (0 when nothing could be unwound, or in a build without elfutils). The
 * unwinder is created in `*u` on first use. */
int pmk__unwind(struct pmk_profile *p, pmk__unwinder **u, const pmk_sample *s,
		uint64_t *out, int max);
void pmk__unwinder_free(pmk__unwinder *u);

#endif
