/*
 * test_lfsr.c: the 31-stage register of seed 003 (feedback from stages 3
 * and 31) and its maximal-length property, checked on smaller analogues by
 * brute force and on the 31-stage register itself algebraically.
 */
#include <stdint.h>
#include <stdlib.h>

#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"
#include "tests/support/t.h"

/* Stage shifting and the feedback rule, stage by stage. */
static void test_clock_moves_stages_and_feeds_back(void)
{
	pmk_lfsr31 l;
	pmk_lfsr31_seed(&l, 0x5a5a1234u);
	for (int i = 0; i < 2000; i++) {
		unsigned old[32], nb;
		for (unsigned k = 1; k <= 31; k++)
			old[k] = pmk_lfsr31_stage(&l, k);
		nb = pmk_lfsr31_clock(&l);
		T_EQ_INT(nb, old[3] ^ old[31]);
		T_EQ_INT(pmk_lfsr31_stage(&l, 1), old[3] ^ old[31]);
		for (unsigned k = 1; k < 31; k++)
			T_EQ_INT(pmk_lfsr31_stage(&l, k + 1), old[k]);
	}
}

/* The output bits obey a(t) = a(t-3) XOR a(t-31). */
static void test_recurrence_31(void)
{
	static uint8_t a[20000];
	pmk_lfsr31 l;
	pmk_lfsr31_seed(&l, 12345);
	for (int t = 0; t < 20000; t++)
		a[t] = (uint8_t)pmk_lfsr31_clock(&l);
	for (int t = 31; t < 20000; t++)
		T_EQ_INT(a[t], a[t - 3] ^ a[t - 31]);
}

static void test_seed_zero_is_not_stuck(void)
{
	pmk_lfsr31 l;
	pmk_lfsr31_seed(&l, 0);
	T_EQ_U64(l.state, 1);
	pmk_lfsr31_seed(&l, 0x80000000u); /* low 31 bits are 0 */
	T_EQ_U64(l.state, 1);
	for (int i = 0; i < 100; i++)
		pmk_lfsr31_clock(&l);
	T_CHECK(l.state != 0);
}

/* Smaller analogues: primitive trinomials have period 2^n - 1 from every
 * nonzero state; reducible ones do not. */
static void test_small_analogues_maximal(void)
{
	static const struct {
		unsigned len, tap;
	} prim[] = {{3, 1},   {3, 2},  {4, 1},	 {4, 3},   {5, 2},
		    {5, 3},   {6, 1},  {6, 5},	 {7, 1},   {7, 3},
		    {7, 6},   {9, 4},  {9, 5},	 {10, 3},  {10, 7},
		    {11, 2},  {11, 9}, {15, 1},	 {15, 14}, {17, 3},
		    {17, 14}, {18, 7}, {18, 11}, {20, 3},  {20, 17}};
	for (size_t i = 0; i < sizeof prim / sizeof prim[0]; i++) {
		unsigned n = prim[i].len;
		uint64_t want = (1ull << n) - 1;
		uint32_t starts[] = {1, (uint32_t)want, 0x5u & (uint32_t)want,
				     (uint32_t)(want >> 1)};
		for (int s = 0; s < 4; s++) {
			if (!starts[s])
				continue;
			T_CHECKF(pmk_lfsr_period(n, prim[i].tap, starts[s],
						 want + 1) == want,
				 "len %u tap %u start %u: not maximal", n,
				 prim[i].tap, starts[s]);
		}
	}
	/* x^4 + x^2 + 1 = (x^2 + x + 1)^2: short cycles */
	T_CHECK(pmk_lfsr_period(4, 2, 1, 100) < 15);
	/* x^8 + x^4 + 1 is not primitive either */
	T_CHECK(pmk_lfsr_period(8, 4, 1, 1000) < 255);
	T_EQ_INT(pmk_lfsr_period(5, 2, 0, 100), 0); /* zero stays zero */
}

/* m-sequence properties on a 10-stage analogue (stages 3 and 10, the same
 * shape as 3 and 31): balance, every nonzero 10-bit window exactly once,
 * and the run-length distribution. */
static void test_msequence_properties(void)
{
	enum { N = 10, P = (1 << N) - 1 };
	static uint8_t seen[1 << N];
	static uint8_t bit[2 * P];
	uint32_t s = 1;
	int ones = 0, runs[N + 2] = {0};
	for (int t = 0; t < 2 * P; t++) {
		uint32_t fb = ((s >> (N - 3)) ^ s) & 1;
		bit[t] = (uint8_t)(s & 1); /* output stage */
		s = (s >> 1) | (fb << (N - 1));
	}
	for (int t = 0; t < P; t++)
		ones += bit[t];
	T_EQ_INT(ones, 1 << (N - 1));
	for (int t = 0; t < P; t++) {
		uint32_t w = 0;
		for (int k = 0; k < N; k++)
			w = (w << 1) | bit[t + k];
		T_CHECKF(!seen[w], "window %u twice", w);
		seen[w] = 1;
	}
	T_CHECK(!seen[0]);
	/* runs over one period, counted cyclically from a run boundary */
	{
		int start = 0, len = 1;
		while (bit[start] == bit[start + P - 1])
			start++;
		for (int t = start + 1; t <= start + P; t++) {
			if (t < start + P && bit[t] == bit[t - 1]) {
				len++;
			} else {
				runs[len <= N ? len : N + 1]++;
				len = 1;
			}
		}
	}
	/* 2^(n-k-2) runs of each kind of length k < n-1: 2^(n-k-1) in all */
	for (int k = 1; k <= N - 2; k++)
		T_EQ_INT(runs[k], 1 << (N - k - 1));
	T_EQ_INT(runs[N - 1], 1); /* one run of n-1 zeros */
	T_EQ_INT(runs[N], 1);	  /* one run of n ones */
}

/* GF(2) 31x31 matrices as columns: col[j] = image of state bit j. */
typedef struct {
	uint32_t col[31];
} mat;
static uint32_t apply(const mat *m, uint32_t v)
{
	uint32_t r = 0;
	for (int j = 0; j < 31; j++)
		if (v >> j & 1)
			r ^= m->col[j];
	return r;
}
static mat mul(const mat *a, const mat *b)
{
	mat c;
	for (int j = 0; j < 31; j++)
		c.col[j] = apply(a, b->col[j]);
	return c;
}

/* The full register: its one-clock matrix M satisfies M^(2^31-1) = I and
 * M != I. 2^31 - 1 is prime, so every nonzero state lies on a cycle whose
 * length divides a prime and is not 1: the period is exactly 2^31 - 1. */
static void test_period_31_is_maximal(void)
{
	mat m, r, id;
	uint64_t e = PMK_LFSR31_PERIOD;
	int is_id = 1;
	for (int j = 0; j < 31; j++) {
		m.col[j] = pmk__lfsr31_next(1u << j);
		id.col[j] = 1u << j;
		if (m.col[j] != id.col[j])
			is_id = 0;
	}
	T_CHECK(!is_id);
	r = id;
	while (e) {
		if (e & 1)
			r = mul(&r, &m);
		m = mul(&m, &m);
		e >>= 1;
	}
	for (int j = 0; j < 31; j++)
		T_EQ_U64(r.col[j], id.col[j]);
	/* no nonzero fixed point: a fixed state would be constant, and the
	 * all-ones state moves */
	T_CHECK(pmk__lfsr31_next(0x7fffffffu) != 0x7fffffffu);
}

/* The jump tables equal k single clocks. */
static void test_jump_tables(void)
{
	static uint32_t jump[4][256];
	for (unsigned k = 1; k <= 16; k += 5) {
		uint32_t s = 0x1234567u, r = s;
		pmk__lfsr31_jump_tables(jump, k);
		for (int i = 0; i < 500; i++) {
			for (unsigned c = 0; c < k; c++)
				r = pmk__lfsr31_next(r);
			s = jump[0][s & 255] ^ jump[1][(s >> 8) & 255] ^
			    jump[2][(s >> 16) & 255] ^ jump[3][s >> 24];
			T_EQ_U64(s, r);
		}
	}
}

int main(void)
{
	T_RUN(test_clock_moves_stages_and_feeds_back);
	T_RUN(test_recurrence_31);
	T_RUN(test_seed_zero_is_not_stuck);
	T_RUN(test_small_analogues_maximal);
	T_RUN(test_msequence_properties);
	T_RUN(test_period_31_is_maximal);
	T_RUN(test_jump_tables);
	return t_done();
}
