/*
 * addrmemo.h: answers kept by address, for lookups that cost a walk of a
 * file's DWARF each time (symtab.c's lines and inline chains): a hash table
 * from a 64-bit key to a small fixed-size record. Bounded: when it holds
 * its most entries it is emptied and starts again, so memory stays within
 * a known size whatever the addresses asked. Not thread-safe (one owner).
 * Internal to lib/sample.
 */
#ifndef PMK_SAMPLE_ADDRMEMO_H
#define PMK_SAMPLE_ADDRMEMO_H

#include <stddef.h>
#include <stdint.h>

typedef struct pmk__addrmemo pmk__addrmemo;

/* A table of records of `rec_size` bytes, at most `max` of them; `release`
 * (or NULL) is called on each record as it is dropped. NULL when out of
 * memory. */
pmk__addrmemo *pmk__addrmemo_new(size_t rec_size, size_t max,
				 void (*release)(void *rec));
/* The record of `key`: *fresh is 1 (and the record zeroed) when it was not
 * there. The pointer holds until the next call. NULL when out of memory. */
void *pmk__addrmemo_get(pmk__addrmemo *m, uint64_t key, int *fresh);
/* Entries held now. */
size_t pmk__addrmemo_count(const pmk__addrmemo *m);
void pmk__addrmemo_free(pmk__addrmemo *m);

#endif
