/*
 * experiments.c: synthetic streams, seed 003's Figures 2 and 3, the time an
 * Addie takes to track its input, and the comparison with ordinary
 * estimators (`pmkit addie figures` and `pmkit addie quality`).
 */
#include <math.h>
#include <stdlib.h>

#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"

void pmk_bitsource_init(pmk_bitsource *b, uint64_t seed, uint32_t num,
			uint32_t den)
{
	b->s = pmk__seed_mix(seed);
	b->num = num;
	b->den = den ? den : 1;
}

int pmk_bitsource_next(pmk_bitsource *b)
{
	uint64_t u = pmk__xs64(&b->s) >> 32;
	return (uint32_t)((u * b->den) >> 32) < b->num;
}

int pmk_addie_figure(const pmk_addie_config *c, uint32_t num,
		     uint64_t stream_seed, size_t n, size_t window,
		     double *input_avg, double *addie_avg, double *reading)
{
	pmk_addie a;
	pmk_bitsource src;
	uint8_t *hist_in, *hist_out;
	size_t sum_in = 0, sum_out = 0;
	int rc = pmk_addie_init(&a, c);
	if (rc)
		return rc;
	if (window == 0 || num > 255)
		return PMK_EINVAL;
	hist_in = calloc(window, 1);
	hist_out = calloc(window, 1);
	if (!hist_in || !hist_out) {
		free(hist_in);
		free(hist_out);
		return PMK_ENOMEM;
	}
	pmk_bitsource_init(&src, stream_seed, num, 255);
	for (size_t t = 0; t < n; t++) {
		int x = pmk_bitsource_next(&src);
		int y = pmk_addie_step(&a, x);
		size_t slot = t % window,
		       have = t + 1 < window ? t + 1 : window;
		if (t >= window) {
			sum_in -= hist_in[slot];
			sum_out -= hist_out[slot];
		}
		hist_in[slot] = (uint8_t)x;
		hist_out[slot] = (uint8_t)y;
		sum_in += (size_t)x;
		sum_out += (size_t)y;
		if (input_avg)
			input_avg[t] = (double)sum_in / (double)have;
		if (addie_avg)
			addie_avg[t] = (double)sum_out / (double)have;
		if (reading)
			reading[t] = pmk_addie_read(&a);
	}
	free(hist_in);
	free(hist_out);
	return 0;
}

uint64_t pmk_addie_settle(const pmk_addie_config *c, uint32_t num,
			  uint64_t stream_seed, double tol, uint64_t limit)
{
	pmk_addie a;
	pmk_bitsource src;
	double p = num / 255.0;
	if (pmk_addie_init(&a, c))
		return limit;
	pmk_bitsource_init(&src, stream_seed, num, 255);
	for (uint64_t t = 0; t < limit; t++) {
		if (fabs(pmk_addie_read(&a) - p) <= tol)
			return t;
		pmk_addie_step(&a, pmk_bitsource_next(&src));
	}
	return limit;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile of sorted v[0..n-1], interpolated between neighbours. */
static double q_of(const uint64_t *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;
	if (i + 1 >= n)
		return (double)v[n - 1];
	return (double)v[i] * (1 - f) + (double)v[i + 1] * f;
}

int pmk_addie_settle_stats_run(const pmk_addie_config *base, uint32_t num,
			       uint64_t seeds, double tol, uint64_t *sorted,
			       pmk_addie_settle_stats *out)
{
	pmk_addie_config c = *base;
	uint64_t *st = sorted, limit = 200ull << base->bits;
	double mean = 0, err500 = 0, p = num / 255.0;
	uint64_t never = 0, within = 0;
	if (seeds == 0 || num > 255)
		return PMK_EINVAL;
	if (!st && !(st = calloc(seeds, sizeof *st)))
		return PMK_ENOMEM;
	for (uint64_t s = 0; s < seeds; s++) {
		pmk_addie a;
		pmk_bitsource b;
		c.seed = (uint32_t)(pmk__seed_mix(s) & 0x7fffffffu);
		st[s] = pmk_addie_settle(&c, num, s + 1000000, tol, limit);
		never += st[s] == limit;
		mean += (double)st[s];
		/* the reading after 500 samples */
		pmk_addie_init(&a, &c);
		pmk_bitsource_init(&b, s + 1000000, num, 255);
		for (int k = 0; k < 500; k++)
			pmk_addie_step(&a, pmk_bitsource_next(&b));
		err500 += fabs(pmk_addie_read(&a) - p);
		within += fabs(pmk_addie_read(&a) - p) <= tol;
	}
	qsort(st, seeds, sizeof *st, cmp_u64);
	out->seeds = seeds;
	out->min = st[0];
	out->max = st[seeds - 1];
	out->p10 = q_of(st, seeds, 0.1);
	out->q1 = q_of(st, seeds, 0.25);
	out->median = q_of(st, seeds, 0.5);
	out->q3 = q_of(st, seeds, 0.75);
	out->p90 = q_of(st, seeds, 0.9);
	out->mean = mean / (double)seeds;
	out->never = never;
	out->err500 = err500 / (double)seeds;
	out->within500 = (double)within / (double)seeds;
	if (st != sorted)
		free(st);
	return 0;
}

const uint32_t pmk_addie_figure_nums[2] = {64, 200};

int pmk_addie_settle_figures(unsigned bits, uint64_t seeds, double tol,
			     pmk_addie_settle_stats out[4],
			     uint64_t *const sorted[4])
{
	for (int k = 0; k < 4; k++) {
		pmk_addie_config c;
		int err;
		pmk_addie_config_default(&c);
		c.bits = bits;
		c.rng = k % 2 ? PMK_ADDIE_RNG_CORRELATED
			      : PMK_ADDIE_RNG_INDEPENDENT;
		err = pmk_addie_settle_stats_run(&c, pmk_addie_figure_nums[k / 2],
						 seeds, tol,
						 sorted ? sorted[k] : NULL,
						 &out[k]);
		if (err)
			return err;
	}
	return 0;
}

/* ---- how good is it ---- */

const char *pmk_estimator_name(int est)
{
	switch (est) {
	case PMK_EST_ADDIE:
		return "addie";
	case PMK_EST_ADDIE_CORR:
		return "addie-corr";
	case PMK_EST_RATIO:
		return "ratio";
	case PMK_EST_EMA:
		return "ema";
	case PMK_EST_ADDIE_SHIFT1:
		return "addie-shift1";
	}
	return "?";
}

void pmk_quality_params_default(pmk_quality_params *p)
{
	p->num = 64;
	p->step_num = 200;
	p->tol = 0.02;
	p->seeds = 16;
	p->seed = 1;
}

/* One estimator of window 2^bits, fed one sample at a time. */
typedef struct est {
	int kind;
	pmk_addie a;
	double ema, alpha, ratio;
	uint64_t n, ones, block;
} est;

static int est_init(est *e, int kind, unsigned bits, uint32_t seed)
{
	pmk_addie_config c;
	e->kind = kind;
	e->block = 1ull << bits;
	e->alpha = 1.0 / (double)e->block;
	e->ema = e->ratio = 0.5;
	e->n = e->ones = 0;
	pmk_addie_config_default(&c);
	c.bits = bits;
	c.seed = seed;
	c.rng = kind == PMK_EST_ADDIE_CORR     ? PMK_ADDIE_RNG_CORRELATED
		: kind == PMK_EST_ADDIE_SHIFT1 ? PMK_ADDIE_RNG_SHIFT1
					       : PMK_ADDIE_RNG_INDEPENDENT;
	if (kind == PMK_EST_ADDIE || kind == PMK_EST_ADDIE_CORR ||
	    kind == PMK_EST_ADDIE_SHIFT1)
		return pmk_addie_init(&e->a, &c);
	return 0;
}

static double est_step(est *e, int x)
{
	switch (e->kind) {
	case PMK_EST_RATIO:
		/* Two counters, events and ones, read and cleared every
		 * `block` events; the reading is the last block's ratio. */
		e->ones += (uint64_t)x;
		if (++e->n == e->block) {
			e->ratio = (double)e->ones / (double)e->n;
			e->n = e->ones = 0;
		}
		return e->ratio;
	case PMK_EST_EMA:
		e->ema += ((double)x - e->ema) * e->alpha;
		return e->ema;
	default:
		pmk_addie_step(&e->a, x);
		return pmk_addie_read(&e->a);
	}
}

int pmk_estimator_trace(int estimator, unsigned bits, uint64_t seed,
			uint32_t num, uint32_t step_num, size_t before,
			size_t after, double *out)
{
	est e;
	pmk_bitsource src;
	uint64_t mix = pmk__seed_mix(seed);
	int rc;
	if (estimator < 0 || estimator >= PMK_EST_COUNT || !out ||
	    bits < PMK_ADDIE_MIN_BITS || bits > PMK_ADDIE_MAX_BITS ||
	    num > 255 || step_num > 255)
		return PMK_EINVAL;
	rc = est_init(&e, estimator, bits, (uint32_t)mix);
	if (rc)
		return rc;
	pmk_bitsource_init(&src, mix >> 1, num, 255);
	for (size_t t = 0; t < before + after; t++) {
		if (t == before)
			pmk_bitsource_init(&src, mix >> 2, step_num, 255);
		out[t] = est_step(&e, pmk_bitsource_next(&src));
	}
	return 0;
}

/* Quantile of a sorted array, linear interpolation; INFINITY when it
 * involves a run that never got there (value `never`). */
static double quantile(const uint64_t *v, unsigned n, double q, uint64_t never)
{
	double pos = q * (double)(n - 1);
	unsigned i = (unsigned)pos;
	double f = pos - i;
	if (i + 1 >= n || f == 0)
		return v[i < n ? i : n - 1] >= never
			   ? INFINITY
			   : (double)v[i < n ? i : n - 1];
	if (v[i + 1] >= never)
		return INFINITY;
	return (double)v[i] * (1 - f) + (double)v[i + 1] * f;
}

int pmk_addie_quality(const pmk_quality_params *p, int estimator, unsigned bits,
		      pmk_quality_row *out)
{
	uint64_t *settle, *step;
	double sq = 0, sq_step = 0;
	uint64_t nsq = 0, nsq_step = 0;
	uint64_t N;
	double p1, p2;
	if (!p || !out || estimator < 0 || estimator >= PMK_EST_COUNT ||
	    bits < PMK_ADDIE_MIN_BITS || bits > PMK_ADDIE_MAX_BITS ||
	    p->seeds == 0 || p->num > 255 || p->step_num > 255)
		return PMK_EINVAL;
	N = 1ull << bits;
	p1 = p->num / 255.0;
	p2 = p->step_num / 255.0;
	settle = calloc(p->seeds, sizeof *settle);
	step = calloc(p->seeds, sizeof *step);
	if (!settle || !step) {
		free(settle);
		free(step);
		return PMK_ENOMEM;
	}
	for (unsigned r = 0; r < p->seeds; r++) {
		est e;
		pmk_bitsource src;
		uint64_t mix = pmk__seed_mix(p->seed * 1000003u + r);
		int rc = est_init(&e, estimator, bits, (uint32_t)mix);
		double v = 0.5;
		if (rc) {
			free(settle);
			free(step);
			return rc;
		}
		/* Stationary: 20 windows; settle from 0.5; RMS over the last
		 * 10 windows. */
		pmk_bitsource_init(&src, mix >> 1, p->num, 255);
		settle[r] = 20 * N;
		for (uint64_t t = 0; t < 20 * N; t++) {
			if (settle[r] == 20 * N && fabs(v - p1) <= p->tol)
				settle[r] = t;
			v = est_step(&e, pmk_bitsource_next(&src));
			if (t >= 10 * N) {
				sq += (v - p1) * (v - p1);
				nsq++;
			}
		}
		/* Step change to p2: samples to come within tol, RMS over
		 * the first 4 windows after the step. */
		pmk_bitsource_init(&src, mix >> 2, p->step_num, 255);
		step[r] = 20 * N;
		for (uint64_t t = 0; t < 20 * N; t++) {
			if (step[r] == 20 * N && fabs(v - p2) <= p->tol)
				step[r] = t;
			if (t < 4 * N) {
				sq_step += (v - p2) * (v - p2);
				nsq_step++;
			} else if (step[r] != 20 * N) {
				break;
			}
			v = est_step(&e, pmk_bitsource_next(&src));
		}
	}
	qsort(settle, p->seeds, sizeof *settle, cmp_u64);
	qsort(step, p->seeds, sizeof *step, cmp_u64);
	out->estimator = estimator;
	out->bits = bits;
	out->seeds = p->seeds;
	out->settle_median = quantile(settle, p->seeds, 0.5, 20 * N);
	out->settle_q1 = quantile(settle, p->seeds, 0.25, 20 * N);
	out->settle_q3 = quantile(settle, p->seeds, 0.75, 20 * N);
	out->step_median = quantile(step, p->seeds, 0.5, 20 * N);
	out->rms_error = sqrt(sq / (double)nsq);
	out->step_rms = sqrt(sq_step / (double)nsq_step);
	free(settle);
	free(step);
	return 0;
}

int pmk_addie_quality_grid(const pmk_quality_params *p, const unsigned *bits,
			   int nb, pmk_quality_row *rows)
{
	for (int b = 0; b < nb; b++)
		for (int e = 0; e < PMK_EST_COUNT; e++) {
			int err = pmk_addie_quality(p, e, bits[b],
						    &rows[b * PMK_EST_COUNT + e]);
			if (err)
				return err;
		}
	return 0;
}
