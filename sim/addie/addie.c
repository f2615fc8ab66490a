/*
 * addie.c: the Addie itself, an Addie watching any 0/1 stream, and two
 * Addies behind a multiplexer.
 *
 * One sample, in this order (docs/addie.md, "Choices"):
 *   1. advance the LFSR: `bits` clocks (INDEPENDENT) or one (CORRELATED,
 *      SHIFT1);
 *   2. random number r = stages 32-n .. 31 (MSB first), with the MSB
 *      inverted in CORRELATED mode;
 *   3. comparator c = counter > r;
 *   4. if c != input, the counter moves one step toward the input: up for
 *      a 1, down for a 0, saturating at 2^n - 1 (the only edge it can
 *      reach: c = 0 with counter = max needs r = max).
 */
#include <math.h>
#include <string.h>

#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"

void pmk_addie_config_default(pmk_addie_config *c)
{
	c->bits = 8;
	c->rng = PMK_ADDIE_RNG_INDEPENDENT;
	c->seed = 1;
	c->initial = -1;
}

int pmk_addie_init(pmk_addie *a, const pmk_addie_config *c)
{
	uint32_t max;
	if (!a || !c || c->bits < PMK_ADDIE_MIN_BITS ||
	    c->bits > PMK_ADDIE_MAX_BITS || c->rng > PMK_ADDIE_RNG_SHIFT1)
		return PMK_EINVAL;
	max = (1u << c->bits) - 1;
	if (c->initial < -1 || (c->initial >= 0 && (uint32_t)c->initial > max))
		return PMK_EINVAL;
	memset(a, 0, sizeof *a);
	a->bits = c->bits;
	a->rng = c->rng;
	a->max = max;
	a->msb = 1u << (c->bits - 1);
	a->counter = c->initial < 0 ? a->msb : (uint32_t)c->initial;
	a->lfsr = c->seed & 0x7fffffffu;
	if (!a->lfsr)
		a->lfsr = 1;
	if (a->rng == PMK_ADDIE_RNG_INDEPENDENT)
		pmk__lfsr31_jump_tables(a->jump, a->bits);
	return 0;
}

static inline uint32_t next_random(pmk_addie *a)
{
	uint32_t s = a->lfsr;
	if (a->rng == PMK_ADDIE_RNG_INDEPENDENT) {
		s = a->jump[0][s & 255] ^ a->jump[1][(s >> 8) & 255] ^
		    a->jump[2][(s >> 16) & 255] ^ a->jump[3][s >> 24];
		a->lfsr = s;
		return s & a->max;
	}
	s = pmk__lfsr31_next(s);
	a->lfsr = s;
	if (a->rng == PMK_ADDIE_RNG_CORRELATED)
		return (s & a->max) ^ a->msb;
	return s & a->max;
}

static inline int step1(pmk_addie *a, uint32_t x)
{
	uint32_t r = next_random(a);
	uint32_t c = a->counter > r;
	uint32_t d = c ^ x;
	/* x = 1 and c = 0: up (not past max); x = 0 and c = 1: down. */
	a->counter += d & x & (a->counter != a->max);
	a->counter -= d & c;
	a->steps++;
	return (int)c;
}

int pmk_addie_step(pmk_addie *a, int bit)
{
	return step1(a, bit != 0);
}

/*
 * The bulk loops keep the state in locals (a byte pointer may alias the
 * Addie, which would force a reload per sample) and are specialised per
 * random-number mode; they are bit-for-bit the same as step1().
 */
static inline __attribute__((always_inline)) void
run_mode(pmk_addie *a, const uint8_t *bytes, const uint64_t *words, size_t n,
	 const unsigned mode, const int packed)
{
	uint32_t s = a->lfsr, cnt = a->counter;
	const uint32_t max = a->max, msb = a->msb;
	const uint32_t(*j)[256] = (const uint32_t(*)[256])a->jump;
	for (size_t i = 0; i < n; i++) {
		uint32_t x, r, c, d;
		if (packed)
			x = (uint32_t)(words[i >> 6] >> (i & 63)) & 1u;
		else
			x = bytes[i] != 0;
		if (mode == PMK_ADDIE_RNG_INDEPENDENT) {
			s = j[0][s & 255] ^ j[1][(s >> 8) & 255] ^
			    j[2][(s >> 16) & 255] ^ j[3][s >> 24];
			r = s & max;
		} else {
			s = pmk__lfsr31_next(s);
			r = s & max;
			if (mode == PMK_ADDIE_RNG_CORRELATED)
				r ^= msb;
		}
		c = cnt > r;
		d = c ^ x;
		cnt += d & x & (cnt != max);
		cnt -= d & c;
	}
	a->lfsr = s;
	a->counter = cnt;
	a->steps += n;
}

static void run_any(pmk_addie *a, const uint8_t *bytes, const uint64_t *words,
		    size_t n, int packed)
{
	switch (a->rng) {
	case PMK_ADDIE_RNG_INDEPENDENT:
		if (packed)
			run_mode(a, NULL, words, n, PMK_ADDIE_RNG_INDEPENDENT,
				 1);
		else
			run_mode(a, bytes, NULL, n, PMK_ADDIE_RNG_INDEPENDENT,
				 0);
		break;
	case PMK_ADDIE_RNG_CORRELATED:
		if (packed)
			run_mode(a, NULL, words, n, PMK_ADDIE_RNG_CORRELATED,
				 1);
		else
			run_mode(a, bytes, NULL, n, PMK_ADDIE_RNG_CORRELATED,
				 0);
		break;
	default:
		if (packed)
			run_mode(a, NULL, words, n, PMK_ADDIE_RNG_SHIFT1, 1);
		else
			run_mode(a, bytes, NULL, n, PMK_ADDIE_RNG_SHIFT1, 0);
		break;
	}
}

void pmk_addie_run(pmk_addie *a, const uint8_t *bits, size_t n)
{
	run_any(a, bits, NULL, n, 0);
}

void pmk_addie_run_packed(pmk_addie *a, const uint64_t *words, size_t n)
{
	run_any(a, NULL, words, n, 1);
}

uint32_t pmk_addie_last_random(const pmk_addie *a)
{
	uint32_t r = a->lfsr & a->max;
	if (a->rng == PMK_ADDIE_RNG_CORRELATED)
		r ^= a->msb;
	return r;
}

double pmk_addie_read(const pmk_addie *a)
{
	return (double)a->counter / (double)(a->max + 1);
}

/* ---- watch ---- */

int pmk_addie_watch_init(pmk_addie_watch *w, const pmk_addie_config *c,
			 const char *name)
{
	int rc;
	if (!w)
		return PMK_EINVAL;
	rc = pmk_addie_init(&w->addie, c);
	if (rc)
		return rc;
	w->events = w->ones = w->counter_sum = 0;
	w->name[0] = 0;
	if (name) {
		strncpy(w->name, name, sizeof w->name - 1);
		w->name[sizeof w->name - 1] = 0;
	}
	return 0;
}

void pmk_addie_watch_feed(pmk_addie_watch *w, int bit)
{
	uint32_t x = bit != 0;
	w->events++;
	w->ones += x;
	step1(&w->addie, x);
	w->counter_sum += w->addie.counter;
}

void pmk_addie_watch_read(const pmk_addie_watch *w, pmk_addie_reading *r)
{
	r->addie = pmk_addie_read(&w->addie);
	r->exact = w->events ? (double)w->ones / (double)w->events : NAN;
	r->mean = w->events ? (double)w->counter_sum / (double)w->events /
				  (double)(w->addie.max + 1)
			    : NAN;
	r->events = w->events;
	r->ones = w->ones;
	r->counter = w->addie.counter;
	r->bits = w->addie.bits;
}

/* ---- multiplexer ---- */

int pmk_addie_mux_init(pmk_addie_mux *m, const pmk_addie_config *c)
{
	int rc;
	if (!m)
		return PMK_EINVAL;
	memset(m, 0, sizeof *m);
	for (int i = 0; i < PMK_ADDIE_MUX_UNITS; i++) {
		pmk_addie_config ci = *c;
		/* distinct sequences for the two units */
		ci.seed = (c->seed ? c->seed : 1) + 0x2545f491u * (uint32_t)i;
		rc = pmk_addie_watch_init(&m->unit[i], &ci, "");
		if (rc)
			return rc;
		m->select[i] = -1;
	}
	return 0;
}

int pmk_addie_mux_select(pmk_addie_mux *m, int unit, int signal,
			 const char *name)
{
	pmk_addie_config c;
	pmk_addie *a;
	if (!m || unit < 0 || unit >= PMK_ADDIE_MUX_UNITS || signal < -1 ||
	    signal >= PMK_ADDIE_MUX_SIGNALS)
		return PMK_EINVAL;
	a = &m->unit[unit].addie;
	c.bits = a->bits;
	c.rng = a->rng;
	c.seed = a->lfsr;
	c.initial = -1;
	m->select[unit] = signal;
	return pmk_addie_watch_init(&m->unit[unit], &c, name);
}

void pmk_addie_mux_feed(pmk_addie_mux *m, int signal, int bit)
{
	if (signal < 0 || signal >= PMK_ADDIE_MUX_SIGNALS)
		return;
	m->events[signal]++;
	m->ones[signal] += bit != 0;
	for (int i = 0; i < PMK_ADDIE_MUX_UNITS; i++)
		if (m->select[i] == signal)
			pmk_addie_watch_feed(&m->unit[i], bit);
}

static const char *const rng_names[] = {"independent", "correlated",
					"shift1"};

const char *pmk_addie_rng_name(unsigned rng)
{
	return rng < sizeof rng_names / sizeof *rng_names ? rng_names[rng]
							   : NULL;
}

int pmk_addie_rng_find(const char *name)
{
	for (unsigned i = 0; name && i < sizeof rng_names / sizeof *rng_names;
	     i++)
		if (!strcmp(name, rng_names[i]))
			return (int)i;
	return PMK_ENOENT;
}
