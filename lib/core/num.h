/*
 * num.h: whole numbers written in strings (event terms, modifiers,
 * definition files). Internal, pure.
 */
#ifndef PMK_CORE_NUM_H
#define PMK_CORE_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Parse exactly the `n` chars at `s` as an unsigned number: decimal, 0x
 * hex or 0 octal, starting with a digit (no sign, no spaces). 0, or -1
 * when the text is not such a number or does not fit in 64 bits. */
int pmk__parse_u64(const char *s, size_t n, uint64_t *out);

/* The next range of a CPU list as the kernel and perf write one ("0-3,8"):
 * its first and last CPU into *lo and *hi, *s moved past it and its comma.
 * 1 with a range, 0 at the end (or s NULL), -1 when the text is not such
 * a list (a negative CPU, a range that runs backwards, another mark). */
int pmk__cpu_range(const char **s, long *lo, long *hi);

#endif
