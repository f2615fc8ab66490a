/*
 * strdist.h: edit distance for "did you mean" hints. Internal.
 */
#ifndef PMK_CORE_STRDIST_H
#define PMK_CORE_STRDIST_H

/* Levenshtein distance, ignoring case; 99 for names over 78 chars. */
int pmk__edit_distance(const char *a, const char *b);

#endif
