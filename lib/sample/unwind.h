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
struct proc;
typedef struct pmk__unwinder pmk__unwinder;
typedef struct pmk__symtab pmk__symtab;

/* What the unwinder asks of the profile that calls it, passed down so
 * that the unwinder never calls up into profile.c: a recorded process
 * (NULL when none) and a DSO's symbols (NULL when its file is unreadable). */
struct pmk__unwind_env {
	struct proc *(*proc_find)(struct pmk_profile *p, uint32_t pid);
	pmk__symtab *(*dso_symtab)(struct pmk_profile *p, int dso);
};

/* The frames of `s`'s user stack, innermost (the interrupted PC) first,
 * callers as return addresses: at most `max` into `out`; returns how many
 * (0 when nothing could be unwound, or in a build without elfutils). The
 * unwinder is created in `*u` on first use. */
int pmk__unwind(struct pmk_profile *p, const struct pmk__unwind_env *env,
		pmk__unwinder **u, const pmk_sample *s, uint64_t *out, int max);
void pmk__unwinder_free(pmk__unwinder *u);

#endif
