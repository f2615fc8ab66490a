/*
 * test_structs.c: caches, TLBs and branch predictors against naive reference
 * implementations on generated sequences.
 */
#include <stdlib.h>

#include "pmkit/sim.h"
#include "sim/core/struct.h"
#include "tests/support/t.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Reference LRU: per set, an array ordered most- to least-recently used. */
typedef struct ref_cache {
	unsigned sets, assoc, shift;
	uint64_t *ways; /* sets * assoc block numbers + 1, MRU first */
} ref_cache;

static int ref_access(ref_cache *r, uint64_t addr)
{
	uint64_t blk = addr >> r->shift;
	uint64_t *w = r->ways + (blk % r->sets) * r->assoc;
	unsigned i, hit = 0;
	for (i = 0; i < r->assoc; i++)
		if (w[i] == blk + 1) {
			hit = 1;
			break;
		}
	if (!hit)
		i = r->assoc -
		    1; /* evict the LRU (or an empty slot at the end) */
	for (; i > 0; i--)
		w[i] = w[i - 1];
	w[0] = blk + 1;
	return (int)hit;
}

static void check_cache(uint64_t size, unsigned assoc, unsigned line,
			uint64_t span, int n)
{
	pmk__sa c;
	ref_cache r;
	int mism = 0, hits = 0;
	T_ASSERT(pmk__sa_init(&c, size, assoc, line) == 0);
	r.sets = c.sets;
	r.assoc = assoc;
	r.shift = c.shift;
	r.ways = calloc((size_t)r.sets * assoc, sizeof *r.ways);
	T_ASSERT(r.ways != NULL);
	for (int i = 0; i < n; i++) {
		/* mix of locality: repeats, neighbours, random far */
		uint64_t a =
		    (rnd() % 4 == 0) ? rnd() % (span * 4) : rnd() % span;
		int h = pmk__sa_lookup(&c, a, NULL);
		if (!h)
			pmk__sa_insert(&c, a, 0);
		int hr = ref_access(&r, a);
		hits += h;
		if (h != hr)
			mism++;
	}
	T_CHECKF(mism == 0, "size %llu assoc %u: %d mismatches",
		 (unsigned long long)size, assoc, mism);
	T_CHECK(hits > 0 && hits < n); /* the sequence exercised both */
	free(r.ways);
	pmk__sa_release(&c);
}

static void test_cache_vs_reference(void)
{
	check_cache(8192, 2, 64, 16384, 50000);
	check_cache(16384, 4, 64, 65536, 50000);
	check_cache(4096, 1, 32, 8192, 20000);
	check_cache(1 << 20, 8, 64, 4 << 20, 50000);
	check_cache(64 * 4096, 4, 4096, 256 * 4096, 20000); /* a TLB */
	check_cache(512, 8, 64, 4096, 20000);		    /* fully assoc */
}

static void test_cache_rejects_bad_geometry(void)
{
	pmk__sa c;
	T_EQ_INT(pmk__sa_init(&c, 3000, 2, 64), PMK_EINVAL);
	T_EQ_INT(pmk__sa_init(&c, 8192, 3, 64), PMK_EINVAL);
	T_EQ_INT(pmk__sa_init(&c, 8192, 2, 48), PMK_EINVAL);
}

/* Reference predictors written the obvious way. */
static int ref_predict(int kind, uint8_t *bim, uint8_t *gsh, uint8_t *cho,
		       uint64_t hist, unsigned bits, unsigned hb, uint64_t pc,
		       int taken)
{
	unsigned mask = (1u << bits) - 1;
	unsigned bi = (unsigned)(pc >> 2) & mask;
	unsigned gi =
	    (unsigned)((pc >> 2) ^ (hist & ((1ull << hb) - 1))) & mask;
	int pb = bim[bi] > 1, pg = gsh[gi] > 1, p;
	p = kind == PMK_SIM_BP_BIMODAL	? pb
	    : kind == PMK_SIM_BP_GSHARE ? pg
	    : cho[bi] > 1		? pg
					: pb;
	if (kind == PMK_SIM_BP_HYBRID && pb != pg) {
		if (pg == taken && cho[bi] < 3)
			cho[bi]++;
		if (pb == taken && cho[bi] > 0)
			cho[bi]--;
	}
	if (taken && bim[bi] < 3)
		bim[bi]++;
	if (!taken && bim[bi] > 0)
		bim[bi]--;
	if (taken && gsh[gi] < 3)
		gsh[gi]++;
	if (!taken && gsh[gi] > 0)
		gsh[gi]--;
	return p;
}

static void test_predictors_vs_reference(void)
{
	for (int kind = 0; kind < 3; kind++) {
		pmk__bp b;
		unsigned bits = 10, hb = 8;
		uint8_t bim[1024], gsh[1024], cho[1024];
		uint64_t hist = 0;
		int mism = 0, correct = 0, n = 40000;
		memset(bim, 1, sizeof bim);
		memset(gsh, 1, sizeof gsh);
		memset(cho, 2, sizeof cho);
		T_ASSERT(
		    pmk__bp_init(&b, (uint32_t)kind, bits, hb, 512, 4, 8) == 0);
		for (int i = 0; i < n; i++) {
			uint64_t pc = 0x1000 + 4 * (rnd() % 300);
			/* biased, patterned and random branches */
			int taken = pc % 3 == 0	  ? (i / 7) % 2
				    : pc % 3 == 1 ? rnd() % 10 != 0
						  : (int)(rnd() & 1);
			int p = pmk__bp_dir(&b, pc);
			int pr = ref_predict(kind, bim, gsh, cho, hist, bits,
					     hb, pc, taken);
			pmk__bp_update(&b, pc, taken);
			hist = hist << 1 | (uint64_t)taken;
			mism += p != pr;
			correct += p == taken;
		}
		T_CHECKF(mism == 0, "kind %d: %d mismatches", kind, mism);
		T_CHECK(correct > n / 2); /* it learns something */
		pmk__bp_release(&b);
	}
}

static void test_btb_and_ras(void)
{
	pmk__bp b;
	uint64_t t = 0;
	T_ASSERT(pmk__bp_init(&b, PMK_SIM_BP_GSHARE, 10, 8, 64, 4, 4) == 0);
	T_CHECK(!pmk__btb_lookup(&b, 0x400, &t));
	pmk__btb_update(&b, 0x400, 0x1234);
	T_CHECK(pmk__btb_lookup(&b, 0x400, &t));
	T_EQ_U64(t, 0x1234);
	pmk__btb_update(&b, 0x400, 0x5678);
	T_CHECK(pmk__btb_lookup(&b, 0x400, &t) && t == 0x5678);
	for (int i = 1; i <= 6; i++)
		pmk__ras_push(&b, (uint64_t)i);
	/* depth 4: the four most recent come back, then empty */
	T_EQ_U64(pmk__ras_pop(&b), 6);
	T_EQ_U64(pmk__ras_pop(&b), 5);
	T_EQ_U64(pmk__ras_pop(&b), 4);
	T_EQ_U64(pmk__ras_pop(&b), 3);
	T_EQ_U64(pmk__ras_pop(&b), 0);
	pmk__bp_release(&b);
}

int main(void)
{
	T_RUN(test_cache_vs_reference);
	T_RUN(test_cache_rejects_bad_geometry);
	T_RUN(test_predictors_vs_reference);
	T_RUN(test_btb_and_ras);
	return t_done();
}
