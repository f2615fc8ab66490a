/*
 * struct.h: the core's storage structures (internal): set-associative LRU
 * arrays (caches and TLBs) and branch predictors (bimodal, gshare, hybrid,
 * BTB, return stack). Each is small, deterministic and tested against a
 * naive reference (tests/sim/test_structs.c).
 */
#ifndef PMK_SIM_STRUCT_H
#define PMK_SIM_STRUCT_H

#include <stdint.h>

/* A set-associative array with true LRU. A block is `1 << shift` bytes
 * (a cache line, or a page for TLBs). Each block carries the cycle its data
 * is ready (fills in flight). */
typedef struct pmk__sa {
	uint32_t sets, assoc, shift;
	uint64_t *tag;	 /* block number + 1; 0 = invalid */
	uint64_t *stamp; /* last use, for LRU */
	uint64_t *ready; /* cycle the block's data arrives */
	uint64_t clock;
} pmk__sa;

/* size_bytes / (1 << shift) blocks in `assoc` ways; sets must come out a
 * power of two. Returns 0 or PMK_EINVAL / PMK_ENOMEM. */
int pmk__sa_init(pmk__sa *c, uint64_t size_bytes, uint32_t assoc,
		 uint32_t block_bytes);
void pmk__sa_release(pmk__sa *c);
/* Look `addr` up. On a hit updates LRU and returns 1 with *ready set; on a
 * miss returns 0 (nothing changes). */
int pmk__sa_lookup(pmk__sa *c, uint64_t addr, uint64_t *ready);
/* Insert the block of `addr` (after a miss), evicting the LRU way. */
void pmk__sa_insert(pmk__sa *c, uint64_t addr, uint64_t ready);

/* Branch predictor with BTB and return stack. */
typedef struct pmk__bp {
	uint32_t kind, bits, hbits;
	uint8_t *bim, *gsh, *cho; /* 2-bit counters */
	uint64_t ghist;
	pmk__sa btb;
	uint64_t *btb_target;
	uint64_t *ras;
	uint32_t ras_n, ras_top, ras_depth;
} pmk__bp;

int pmk__bp_init(pmk__bp *b, uint32_t kind, uint32_t bits, uint32_t hbits,
		 uint32_t btb_entries, uint32_t btb_assoc, uint32_t ras_depth);
void pmk__bp_release(pmk__bp *b);
/* Direction prediction for a conditional branch (no update). */
int pmk__bp_dir(const pmk__bp *b, uint64_t pc);
/* Train with the outcome (and shift the global history). */
void pmk__bp_update(pmk__bp *b, uint64_t pc, int taken);
/* BTB: target of a taken branch at pc, 1 if known. */
int pmk__btb_lookup(pmk__bp *b, uint64_t pc, uint64_t *target);
void pmk__btb_update(pmk__bp *b, uint64_t pc, uint64_t target);
void pmk__ras_push(pmk__bp *b, uint64_t ret);
/* Pop (0 if empty). */
uint64_t pmk__ras_pop(pmk__bp *b);
uint64_t pmk__ras_peek(const pmk__bp *b);

#endif
