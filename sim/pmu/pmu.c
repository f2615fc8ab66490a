/*
 * pmu.c: seed 000's counters on the simulated core.
 *
 * Each cycle a counter's event detector reports a value v (the number of
 * qualifying occurrences this cycle: event mask and privilege applied).
 * The counter then adds:
 *   no threshold, no edge, no inversion:  v
 *   edge (no threshold):                   1 when v > last cycle's v (rising);
 *                                          with inversion, when v < last
 * (falling) threshold t > 0, or inversion:         the condition c = (v > t),
 * or (v <= t) inverted, counted each cycle it holds, or with edge only when it
 * starts to hold. So a 0/1 stall event counts stall cycles, with edge the
 * number of stalls; `inst_retired` with threshold 2 counts cycles retiring 3 or
 * more. A counter with a period raises an overflow interrupt each `period`
 * counts; the interrupt is taken `skid` (+ 0..jitter) cycles later and samples
 * the instruction it interrupts (the oldest not yet retired).
 */
#include <string.h>

#include "sim/pmu/pmu.h"

void pmk__pmu_init(pmk__pmu *p, int nprog, uint32_t skid, uint32_t jitter)
{
	memset(p, 0, sizeof *p);
	p->nprog = nprog;
	p->n = nprog + 2;
	p->skid = skid;
	p->jitter = jitter;
	p->rng = 0x853c49e6748fea9bull;
	/* fixed counters: instructions retired, cycles; always on */
	p->c[nprog].cfg.event = EV_INST_RETIRED;
	p->c[nprog + 1].cfg.event = EV_CYCLES;
	for (int i = nprog; i < nprog + 2; i++) {
		p->c[i].cfg.usr = p->c[i].cfg.os = 1;
		p->c[i].fixed = 1;
		pmk__pmu_enable(p, i, 1);
	}
}

static void rewatch(pmk__pmu *p)
{
	memset(p->watch, 0, sizeof p->watch);
	for (int i = 0; i < p->n; i++)
		if (p->c[i].on)
			p->watch[p->c[i].cfg.event] |= 1u << i;
}

int pmk__pmu_program(pmk__pmu *p, int i, const pmk_sim_counter_cfg *cfg)
{
	if (i < 0 || i >= p->n)
		return PMK_EINVAL;
	if (cfg->event >= EV_COUNT)
		return PMK_ENOEVENT;
	if (p->c[i].fixed) {
		/* fixed counters take only privilege and a period */
		if (cfg->event != p->c[i].cfg.event || cfg->umask ||
		    cfg->edge || cfg->inv || cfg->thresh)
			return PMK_ECONFLICT;
	}
	p->c[i].cfg = *cfg;
	p->c[i].count = 0;
	p->c[i].cur = p->c[i].prev = 0;
	p->c[i].prev_cond = 0;
	p->c[i].fire_at = 0;
	p->c[i].next_ovf = cfg->period;
	rewatch(p);
	return 0;
}

int pmk__pmu_enable(pmk__pmu *p, int i, int on)
{
	if (i < 0 || i >= p->n)
		return PMK_EINVAL;
	p->c[i].on = on ? 1 : 0;
	rewatch(p);
	return 0;
}

void pmk__pmu_add_slow(pmk__pmu *p, int ev, uint32_t n, int kernel,
		       uint32_t bits)
{
	uint32_t w = p->watch[ev];
	while (w) {
		int i = __builtin_ctz(w);
		pmk__ctr *c = &p->c[i];
		w &= w - 1;
		if (!(kernel ? c->cfg.os : c->cfg.usr))
			continue;
		if (c->cfg.umask && !(c->cfg.umask & bits))
			continue;
		c->cur += n;
	}
}

void pmk__pmu_tick(pmk__pmu *p, uint64_t now, uint64_t head_pc, int head_kernel)
{
	for (int i = 0; i < p->n; i++) {
		pmk__ctr *c = &p->c[i];
		uint64_t v, inc;
		int cond;
		if (!c->on)
			continue;
		v = c->cur;
		cond = c->cfg.inv ? v <= c->cfg.thresh : v > c->cfg.thresh;
		if (!c->cfg.thresh && !c->cfg.inv)
			inc = c->cfg.edge ? (v > c->prev) : v;
		else if (!c->cfg.thresh && c->cfg.edge)
			inc = v < c->prev; /* inverted edge: falling */
		else
			inc = c->cfg.edge ? (cond && !c->prev_cond) : cond;
		c->prev = v;
		c->prev_cond = (uint8_t)cond;
		c->cur = 0;
		c->count += inc;
		if (c->cfg.period && c->count >= c->next_ovf) {
			while (c->next_ovf <= c->count)
				c->next_ovf += c->cfg.period;
			if (!c->fire_at) {
				uint64_t j = 0;
				if (p->jitter) {
					p->rng ^= p->rng << 13;
					p->rng ^= p->rng >> 7;
					p->rng ^= p->rng << 17;
					j = p->rng % (p->jitter + 1ull);
				}
				c->fire_at = now + p->skid + j;
			}
		}
		if (c->fire_at && now >= c->fire_at) {
			c->fire_at = 0;
			if (p->fn) {
				pmk_sim_sample s;
				memset(&s, 0, sizeof s);
				s.counter = i;
				s.pc = head_pc;
				s.cycle = now;
				s.kernel = (uint8_t)head_kernel;
				p->fn(p->arg, &s);
			}
		}
	}
}

/* After a tick, a counter's next cycles with the same detector value v add
 * a constant: v (plain), the condition (threshold/inversion without edge),
 * or 0 (edge: no new transition while the value holds). */
static uint64_t repeat_inc(const pmk__ctr *c)
{
	if (c->cfg.edge)
		return 0;
	if (!c->cfg.thresh && !c->cfg.inv)
		return c->prev;
	return c->prev_cond;
}

int pmk__pmu_repeat(pmk__pmu *p, uint64_t m)
{
	for (int i = 0; i < p->n; i++) {
		const pmk__ctr *c = &p->c[i];
		if (!c->on)
			continue;
		if (c->fire_at || c->cur)
			return PMK_ERANGE;
		if (c->cfg.period &&
		    c->count + repeat_inc(c) * m >= c->next_ovf)
			return PMK_ERANGE;
	}
	for (int i = 0; i < p->n; i++) {
		pmk__ctr *c = &p->c[i];
		if (c->on)
			c->count += repeat_inc(c) * m;
	}
	return 0;
}
