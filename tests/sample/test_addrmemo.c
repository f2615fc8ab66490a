/*
 * test_addrmemo.c: the bounded address memo (lib/sample/addrmemo.c) against
 * a naive reference (an array searched from end to end). Proves that a key
 * asked again finds the record it was given, fresh and zeroed only the
 * first time; that the table never holds more than its bound and forgets
 * everything at once when it is reached (as the reference does); that the
 * key 0 and keys that collide in the hash are kept apart; and that every
 * record dropped, by a reset or by the free, is released exactly once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sample/addrmemo.h"
#include "tests/support/t.h"

struct rec {
	uint64_t key, tag;
};

static long released;
static void release(void *r)
{
	T_CHECK(((struct rec *)r)->tag == ~((struct rec *)r)->key);
	released++;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

enum { MAX = 300, ASKS = 20000 };

static void test_matches_reference(void)
{
	pmk__addrmemo *m = pmk__addrmemo_new(sizeof(struct rec), MAX, release);
	uint64_t ref[MAX];
	size_t nref = 0;
	long made = 0;
	T_ASSERT(m != NULL);
	released = 0;
	for (int i = 0; i < ASKS; i++) {
		/* keys from a small pool, so most are asked again; 0 and
		 * multiples of 2^40 (equal low bits) among them */
		uint64_t r = next() % 400, key = r < 5 ? 0 : (r % 7) << 40 | r;
		int fresh, in_ref = 0;
		struct rec *x = pmk__addrmemo_get(m, key, &fresh);
		T_ASSERT(x != NULL);
		for (size_t j = 0; j < nref && !in_ref; j++)
			in_ref = ref[j] == key;
		if (!in_ref) {
			if (nref == MAX)
				nref = 0; /* the reference forgets all too */
			ref[nref++] = key;
		}
		T_CHECKF(fresh == !in_ref, "key %llx: fresh %d, expected %d",
			 (unsigned long long)key, fresh, !in_ref);
		if (fresh) {
			T_CHECK(x->key == 0 && x->tag == 0);
			x->key = key;
			x->tag = ~key;
			made++;
		} else {
			T_CHECK(x->key == key && x->tag == ~key);
		}
		T_CHECK(pmk__addrmemo_count(m) == nref);
		T_CHECK(pmk__addrmemo_count(m) <= MAX);
	}
	T_CHECKF(made > MAX, "only %ld records made: no reset exercised", made);
	pmk__addrmemo_free(m);
	T_CHECKF(released == made, "%ld released of %ld made", released, made);
}

int main(void)
{
	T_RUN(test_matches_reference);
	return t_done();
}
