/*
 * strdist.h: edit distance for "did you mean" hints. Internal.
 */
#ifndef PMK_CORE_STRDIST_H
#define PMK_CORE_STRDIST_H

/* Levenshtein distance, ignoring case; 99 for names over 78 chars. */
int pmk__edit_distance(const char *a, const char *b);
/* The same distance when it is at most `max` (0 to 98), else max + 1
 * (names over 78 chars too): only a band of 2*max+1 cells per row is
 * computed, names whose lengths differ by more than `max` cost nothing,
 * and the scan stops at the first row past `max`. For a search over many
 * names with a best-so-far bound. */
int pmk__edit_distance_max(const char *a, const char *b, int max);

#endif
