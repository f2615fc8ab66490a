/*
 * test_addie.c: the Addie, bit by bit: step sequences worked by hand, the
 * fast random-number path against a naive reference model, saturation,
 * convergence on constant and random streams, the watch and the mux.
 */
#include <math.h>
#include <stdint.h>

#include "pmkit/addie.h"
#include "tests/support/t.h"

static void cfg(pmk_addie_config *c, unsigned bits, unsigned rng, uint32_t seed,
		int initial)
{
	pmk_addie_config_default(c);
	c->bits = bits;
	c->rng = rng;
	c->seed = seed;
	c->initial = initial;
}

/*
 * Worked by hand (docs/addie.md): 4 bits, one clock per sample, seed 0xB
 * (stages 31, 30 and 28 set), counter 8, inputs 1 1 0 0 1.
 * States after each clock: 0x40000005 0x60000002 0x30000001 0x18000000
 * 0x4C000000, so the random numbers (stages 28..31) are 5 2 1 0 0.
 *   SHIFT1:     comparator 1 1 1 1 1; counter 8 8 7 6 6
 *   CORRELATED: random 13 10 9 8 8 (MSB inverted);
 *               comparator 0 0 1 1 0; counter 9 10 9 8 9
 */
static void test_hand_worked_shift1(void)
{
	static const int in[5] = {1, 1, 0, 0, 1};
	static const int cmp[5] = {1, 1, 1, 1, 1};
	static const unsigned rnd[5] = {5, 2, 1, 0, 0},
			      cnt[5] = {8, 8, 7, 6, 6};
	pmk_addie_config c;
	pmk_addie a;
	cfg(&c, 4, PMK_ADDIE_RNG_SHIFT1, 0xB, 8);
	T_EQ_INT(pmk_addie_init(&a, &c), 0);
	for (int i = 0; i < 5; i++) {
		T_EQ_INT(pmk_addie_step(&a, in[i]), cmp[i]);
		T_EQ_INT(pmk_addie_last_random(&a), rnd[i]);
		T_EQ_INT(a.counter, cnt[i]);
	}
}

static void test_hand_worked_correlated(void)
{
	static const int in[5] = {1, 1, 0, 0, 1};
	static const int cmp[5] = {0, 0, 1, 1, 0};
	static const unsigned rnd[5] = {13, 10, 9, 8, 8},
			      cnt[5] = {9, 10, 9, 8, 9};
	pmk_addie_config c;
	pmk_addie a;
	unsigned prev = 0;
	cfg(&c, 4, PMK_ADDIE_RNG_CORRELATED, 0xB, 8);
	T_EQ_INT(pmk_addie_init(&a, &c), 0);
	for (int i = 0; i < 5; i++) {
		T_EQ_INT(pmk_addie_step(&a, in[i]), cmp[i]);
		T_EQ_INT(pmk_addie_last_random(&a), rnd[i]);
		T_EQ_INT(a.counter, cnt[i]);
	}
	/* The article's property: the inverted MSB of one number is the
	 * next number's next-to-MSB. */
	for (int i = 0; i < 1000; i++) {
		unsigned r;
		pmk_addie_step(&a, i & 1);
		r = pmk_addie_last_random(&a);
		if (i > 0)
			T_EQ_INT((r >> 2) & 1, !((prev >> 3) & 1));
		prev = r;
	}
}

/* Naive reference: clock a plain register `bits` times, read stages
 * 32-n..31 most significant first, compare, step. */
static void test_independent_matches_reference(void)
{
	for (unsigned bits = 4; bits <= 16; bits++) {
		pmk_addie_config c;
		pmk_addie a;
		pmk_lfsr31 l;
		uint32_t counter = 1u << (bits - 1), max = (1u << bits) - 1;
		uint64_t x = 88172645463325252ull;
		cfg(&c, bits, PMK_ADDIE_RNG_INDEPENDENT, 777 + bits, -1);
		T_EQ_INT(pmk_addie_init(&a, &c), 0);
		pmk_lfsr31_seed(&l, 777 + bits);
		for (int i = 0; i < 3000; i++) {
			uint32_t r = 0;
			int in, cmp;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in = (x >> 20) % 3 != 0;
			for (unsigned k = 0; k < bits; k++)
				pmk_lfsr31_clock(&l);
			for (unsigned k = 32 - bits; k <= 31; k++)
				r = (r << 1) | pmk_lfsr31_stage(&l, k);
			cmp = counter > r;
			if (cmp != in) {
				if (in && counter < max)
					counter++;
				else if (!in)
					counter--;
			}
			T_EQ_INT(pmk_addie_step(&a, in), cmp);
			T_EQ_INT(pmk_addie_last_random(&a), r);
			T_ASSERT(a.counter == counter);
		}
	}
}

static void test_bad_config(void)
{
	pmk_addie_config c;
	pmk_addie a;
	cfg(&c, 3, 0, 1, -1);
	T_EQ_INT(pmk_addie_init(&a, &c), PMK_EINVAL);
	cfg(&c, 17, 0, 1, -1);
	T_EQ_INT(pmk_addie_init(&a, &c), PMK_EINVAL);
	cfg(&c, 8, 9, 1, -1);
	T_EQ_INT(pmk_addie_init(&a, &c), PMK_EINVAL);
	cfg(&c, 8, 0, 1, 256);
	T_EQ_INT(pmk_addie_init(&a, &c), PMK_EINVAL);
	cfg(&c, 8, 0, 1, 255);
	T_EQ_INT(pmk_addie_init(&a, &c), 0);
	T_EQ_INT(a.counter, 255);
}

/* All ones drives the counter to full scale and holds it there; all
 * zeros to 0. Never beyond either end. */
static void test_constant_streams(void)
{
	for (unsigned rng = 0; rng <= 2; rng++) {
		for (unsigned bits = 4; bits <= 12; bits += 4) {
			pmk_addie_config c;
			pmk_addie a;
			uint32_t n = 1u << bits;
			cfg(&c, bits, rng, 99, -1);
			pmk_addie_init(&a, &c);
			for (uint32_t i = 0; i < 20 * n; i++) {
				pmk_addie_step(&a, 1);
				T_ASSERT(a.counter <= a.max);
			}
			T_CHECKF(a.counter >= a.max - 1,
				 "rng %u bits %u: %u after ones", rng, bits,
				 a.counter);
			for (uint32_t i = 0; i < 20 * n; i++) {
				pmk_addie_step(&a, 0);
				T_ASSERT(a.counter <= a.max);
			}
			T_CHECKF(a.counter == 0, "rng %u bits %u: %u", rng,
				 bits, a.counter);
			pmk_addie_step(&a, 0);
			T_EQ_INT(a.counter, 0);
		}
	}
}

/* The mean reading converges on the stream's probability. */
static void test_converges_on_random_streams(void)
{
	static const uint32_t nums[] = {26, 64, 128, 200, 240};
	for (unsigned rng = 0; rng <= 1; rng++) {
		for (size_t k = 0; k < 5; k++) {
			pmk_addie_config c;
			pmk_addie a;
			pmk_bitsource s;
			double sum = 0, p = nums[k] / 255.0;
			cfg(&c, 8, rng, 4242 + (uint32_t)k, -1);
			pmk_addie_init(&a, &c);
			pmk_bitsource_init(&s, k, nums[k], 255);
			for (int i = 0; i < 3000; i++)
				pmk_addie_step(&a, pmk_bitsource_next(&s));
			for (int i = 0; i < 40000; i++) {
				pmk_addie_step(&a, pmk_bitsource_next(&s));
				sum += pmk_addie_read(&a);
			}
			T_NEAR(sum / 40000, p, 0.015);
		}
	}
}

static void test_watch_and_mux(void)
{
	pmk_addie_config c;
	pmk_addie_watch w;
	pmk_addie_reading r;
	pmk_addie_mux m;
	cfg(&c, 8, 0, 5, -1);
	T_EQ_INT(pmk_addie_watch_init(&w, &c, "l1d-hit"), 0);
	pmk_addie_watch_read(&w, &r);
	T_CHECK(isnan(r.exact));
	T_NEAR(r.addie, 0.5, 1e-12);
	for (int i = 0; i < 4000; i++)
		pmk_addie_watch_feed(&w, i % 4 != 0);
	pmk_addie_watch_read(&w, &r);
	T_EQ_INT(r.events, 4000);
	T_EQ_INT(r.ones, 3000);
	T_NEAR(r.exact, 0.75, 1e-12);
	T_NEAR(r.addie, 0.75, 0.1);
	T_NEAR(r.mean, 0.75, 0.05);
	T_EQ_STR(w.name, "l1d-hit");

	T_EQ_INT(pmk_addie_mux_init(&m, &c), 0);
	T_EQ_INT(pmk_addie_mux_select(&m, 0, 3, "a"), 0);
	T_EQ_INT(pmk_addie_mux_select(&m, 1, 7, "b"), 0);
	T_EQ_INT(pmk_addie_mux_select(&m, 2, 7, "c"), PMK_EINVAL);
	for (int i = 0; i < 1000; i++) {
		pmk_addie_mux_feed(&m, 3, 1);
		pmk_addie_mux_feed(&m, 7, 0);
		pmk_addie_mux_feed(&m, 5, 1);
	}
	T_EQ_INT(m.unit[0].events, 1000);
	T_EQ_INT(m.unit[1].events, 1000);
	T_EQ_INT(m.events[5], 1000);
	T_CHECK(m.unit[0].addie.counter > 200);
	T_CHECK(m.unit[1].addie.counter < 50);
}

static void test_run_equals_step(void)
{
	pmk_addie_config c;
	pmk_addie a, b, d;
	uint8_t bytes[1000];
	uint64_t words[16] = {0};
	for (int i = 0; i < 1000; i++) {
		bytes[i] = (uint8_t)((i * 7919 % 13) < 5);
		words[i / 64] |= (uint64_t)bytes[i] << (i % 64);
	}
	cfg(&c, 10, 0, 31, -1);
	pmk_addie_init(&a, &c);
	pmk_addie_init(&b, &c);
	pmk_addie_init(&d, &c);
	for (int i = 0; i < 1000; i++)
		pmk_addie_step(&a, bytes[i]);
	pmk_addie_run(&b, bytes, 1000);
	pmk_addie_run_packed(&d, words, 1000);
	T_EQ_INT(a.counter, b.counter);
	T_EQ_INT(a.counter, d.counter);
	T_EQ_U64(a.lfsr, d.lfsr);
	T_EQ_U64(b.steps, 1000);
}

int main(void)
{
	T_RUN(test_hand_worked_shift1);
	T_RUN(test_hand_worked_correlated);
	T_RUN(test_independent_matches_reference);
	T_RUN(test_bad_config);
	T_RUN(test_constant_streams);
	T_RUN(test_converges_on_random_streams);
	T_RUN(test_watch_and_mux);
	T_RUN(test_run_equals_step);
	return t_done();
}
