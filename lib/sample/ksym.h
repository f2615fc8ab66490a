/*
 * ksym.h: address -> name tables read from text files: the kernel's
 * /proc/kallsyms (modules tagged) and JIT perf maps (/tmp/perf-PID.map).
 * Internal to lib/sample.
 */
#ifndef PMK_SAMPLE_KSYM_H
#define PMK_SAMPLE_KSYM_H

#include <stdint.h>

typedef struct pmk__ksyms pmk__ksyms;

/* The kernel's functions from a kallsyms file; NULL when it cannot be read
 * or its addresses are hidden (kptr_restrict shows them as 0). */
pmk__ksyms *pmk__ksyms_kallsyms(const char *path);
/* A JIT's "START SIZE name" map; NULL when absent or empty. */
pmk__ksyms *pmk__ksyms_perfmap(const char *path);
/* The function holding `addr` (NULL when none); `*mod` is "[module]" for a
 * module's function, NULL for the kernel's own (or a JIT map's). */
const char *pmk__ksyms_lookup(const pmk__ksyms *k, uint64_t addr,
			      uint64_t *start, const char **mod);
void pmk__ksyms_free(pmk__ksyms *k);

#endif
