/*
 * core.c: the trace-driven out-of-order core.
 *
 * Every cycle, in this order: repair a misprediction whose branch resolved
 * this cycle (squash), commit, dispatch, fetch; then the per-cycle signals
 * go to the PMU and to observers.
 *
 * Fetch takes up to fetch_width instructions a cycle from the trace (or,
 * after a mispredicted branch, from the static PC map down the predicted
 * path), stops at a predicted-taken branch, and waits on I-TLB and I-cache
 * misses. Fetched instructions reach dispatch fe_depth cycles later.
 * Dispatch renames (register ready times), finds the first cycle from
 * operand readiness with a free issue slot (at most issue_width a cycle),
 * and computes the completion cycle: op latency, or for loads address
 * generation plus the D-TLB and cache hierarchy with fills in flight and at
 * most max_misses outstanding L1D misses. Caches are updated in dispatch
 * order. A mispredicted branch's completion is its resolution: that cycle the
 * younger (wrong-path) instructions are squashed and fetch restarts on the
 * correct path. Commit retires up to commit_width completed instructions a
 * cycle in order. Predictors are trained at fetch with the trace's outcome
 * (wrong-path branches are predicted, never trained).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/sim.h"
#include "sim/core/core_int.h"
#include "sim/core/struct.h"
#include "sim/pmu/pmu.h"

#define ISSUE_H (1u << 16)

typedef struct fq_e {
	pmk_sim_insn in;
	uint64_t seq, fetch_cycle, ready;
	uint16_t flags;
	uint8_t wrong, pm;
} fq_e;

typedef struct rob_e {
	uint64_t pc, seq, fetch_cycle, dispatch_cycle, issue_cycle, done;
	uint16_t flags;
	uint8_t op, kernel, wrong, cause, pm, is_load;
} rob_e;

typedef struct pcm_e {
	uint64_t key; /* pc + 1; 0 = empty */
	uint64_t target, addr;
	uint8_t op, len, kernel, nsrc, ndst, size;
	uint8_t src[PMK_SIM_MAX_SRC], dst[PMK_SIM_MAX_DST];
} pcm_e;

typedef struct pm_rec {
	uint8_t valid, finished, retired, op, kernel;
	uint16_t flags;
	uint64_t pc, seq, fetch, dispatch, issue, done, retire;
} pm_rec;

#define PM_SLOTS 8
typedef struct pm_slot {
	int busy;
	uint32_t pair_countdown;
	int64_t dist;
	uint64_t primary_index;
	pm_rec rec[2];
} pm_slot;

struct pmk_sim {
	pmk_sim_config cfg;
	pmk_sim_next_fn next;
	void *src;
	pmk_diag diag;
	int error;
	pmk__sa l1i, l1d, l2, l3, itlb, dtlb;
	int has_l3;
	pmk__bp bp;
	uint64_t *mshr;
	uint8_t *issue_used;
	uint64_t reg_ready[256];
	fq_e *fq;
	uint32_t fq_cap, fq_head, fq_n;
	rob_e *rob;
	uint32_t rob_head, rob_n;
	pmk_sim_insn pend;
	int have_pend, src_end;
	uint16_t pend_flags;
	int wrong, wp_kernel; /* on a wrong path; its privilege mode */
	uint64_t wp_pc;
	uint64_t squash_at;
	uint32_t misp_rob;
	uint64_t fetch_block_until;
	uint64_t fetch_block_pc; /* the instruction whose fetch waits */
	/* the phases of the wait (fe_phase): I-TLB walk until walk_end, the
	 * L2's latency until l1_end, beyond L2 after */
	uint64_t fetch_walk_end, fetch_l1_end;
	uint64_t cur_line, cur_page;
	uint64_t now, seq;
	pmk__pmu pmu;
	pmk_sim_stats st;
	pmk_sim_observer obs;
	pcm_e *pcm;
	uint32_t pcm_cap, pcm_n;
	/* ProfileMe */
	uint64_t pm_interval, pm_rng, pm_countdown, pm_dropped;
	uint32_t pm_window;
	uint64_t pm_fetch_index;
	pm_slot pm[PM_SLOTS];
	pmk_sim_sample_fn sample_fn;
	void *sample_arg;
	pmk_sim_cycle cyc;
	int no_ff; /* testing: simulate every cycle */
};

/* -------------------------------------------------------------- PC map */

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static pcm_e *pcm_find(pmk_sim *s, uint64_t pc)
{
	uint32_t m = s->pcm_cap - 1, i = (uint32_t)hash64(pc) & m;
	for (;;) {
		pcm_e *e = &s->pcm[i];
		if (e->key == pc + 1)
			return e;
		if (!e->key)
			return NULL;
		i = (i + 1) & m;
	}
}

static int pcm_grow(pmk_sim *s)
{
	uint32_t ncap = s->pcm_cap * 2;
	pcm_e *n = calloc(ncap, sizeof *n), *old = s->pcm;
	if (!n)
		return -1;
	for (uint32_t i = 0; i < s->pcm_cap; i++)
		if (old[i].key) {
			uint32_t j =
			    (uint32_t)hash64(old[i].key - 1) & (ncap - 1);
			while (n[j].key)
				j = (j + 1) & (ncap - 1);
			n[j] = old[i];
		}
	free(old);
	s->pcm = n;
	s->pcm_cap = ncap;
	return 0;
}

static void pcm_note(pmk_sim *s, const pmk_sim_insn *in)
{
	uint32_t m, i;
	pcm_e *e;
	if (s->pcm_n * 4 >= s->pcm_cap * 3) {
		if (s->pcm_cap * 2 > s->cfg.pcmap_max || pcm_grow(s) < 0) {
			e = pcm_find(s, in->pc);
			if (!e)
				return; /* full: new PCs are not mapped */
			goto update;
		}
	}
	m = s->pcm_cap - 1;
	i = (uint32_t)hash64(in->pc) & m;
	while (s->pcm[i].key && s->pcm[i].key != in->pc + 1)
		i = (i + 1) & m;
	e = &s->pcm[i];
	if (!e->key) {
		s->pcm_n++;
		e->key = in->pc + 1;
	}
update:
	e->op = in->op;
	e->len = in->len;
	e->kernel = in->kernel;
	e->nsrc = in->nsrc;
	e->ndst = in->ndst;
	memcpy(e->src, in->src, sizeof e->src);
	memcpy(e->dst, in->dst, sizeof e->dst);
	if (in->taken || (in->target && !e->target))
		e->target = in->target;
	if (in->nmem) {
		e->addr = in->mem[0].addr;
		e->size = in->mem[0].store ? 0 : in->mem[0].size;
	}
}

/* ---------------------------------------------------------- memory side */

/* Latency from cycle t of a block access missing L1 (L2, L3, memory);
 * inserts the block where it missed. */
static uint64_t outer(pmk_sim *s, uint64_t addr, uint64_t t, int ifetch,
		      int store, int kernel, uint16_t *flags, int *l2miss)
{
	uint64_t lat = s->cfg.l2.latency, rdy;
	uint32_t bits = ifetch ? UM_IFETCH : store ? UM_STORE : UM_LOAD;
	int perfect = s->cfg.perfect &
		      (ifetch ? PMK_SIM_PERFECT_L2I : PMK_SIM_PERFECT_L2D);
	*l2miss = 0;
	if (perfect)
		return lat;
	s->st.l2_access++;
	pmk__pmu_add(&s->pmu, EV_L2_ACCESS, 1, kernel, bits);
	if (pmk__sa_lookup(&s->l2, addr, &rdy))
		return rdy > t + lat ? rdy - t : lat;
	*l2miss = 1;
	*flags |= ifetch ? PMK_SIM_F_L2I_MISS : PMK_SIM_F_L2D_MISS;
	s->st.l2_miss++;
	pmk__pmu_add(&s->pmu, EV_L2_MISS, 1, kernel, bits);
	if (s->has_l3) {
		lat += s->cfg.l3.latency;
		s->st.l3_access++;
		pmk__pmu_add(&s->pmu, EV_L3_ACCESS, 1, kernel, bits);
		if (pmk__sa_lookup(&s->l3, addr, &rdy)) {
			if (rdy > t + lat)
				lat = rdy - t;
			pmk__sa_insert(&s->l2, addr, t + lat);
			return lat;
		}
		s->st.l3_miss++;
		pmk__pmu_add(&s->pmu, EV_L3_MISS, 1, kernel, bits);
	}
	lat += s->cfg.mem_latency;
	if (s->has_l3)
		pmk__sa_insert(&s->l3, addr, t + lat);
	pmk__sa_insert(&s->l2, addr, t + lat);
	return lat;
}

/* A data access at cycle t: returns its latency, sets flags and the cause
 * a waiting ROB head would be charged to. */
static uint64_t data_access(pmk_sim *s, uint64_t addr, int store, uint64_t t,
			    int kernel, uint16_t *flags, uint8_t *cause)
{
	uint64_t lat = 0, rdy, start, fill;
	uint32_t bits = store ? UM_STORE : UM_LOAD, k, best = 0;
	int l2miss = 0, tlbmiss = 0;
	if (!(s->cfg.perfect & PMK_SIM_PERFECT_DTLB) &&
	    !pmk__sa_lookup(&s->dtlb, addr, NULL)) {
		pmk__sa_insert(&s->dtlb, addr, 0);
		lat += s->cfg.dtlb.miss_latency;
		*flags |= PMK_SIM_F_DTLB_MISS;
		tlbmiss = 1;
		s->st.dtlb_miss++;
		pmk__pmu_add(&s->pmu, EV_DTLB_MISS, 1, kernel, bits);
	}
	s->st.l1d_access++;
	pmk__pmu_add(&s->pmu, EV_L1D_ACCESS, 1, kernel, bits);
	if (s->cfg.perfect & PMK_SIM_PERFECT_L1D) {
		*cause = tlbmiss ? PMK_SIM_CAUSE_DTLB : PMK_SIM_CAUSE_EXEC;
		return lat + s->cfg.l1d.latency;
	}
	if (pmk__sa_lookup(&s->l1d, addr, &rdy)) {
		uint64_t at = t + lat;
		lat += s->cfg.l1d.latency;
		if (rdy > t + lat)
			lat = rdy - t; /* the line is still on its way */
		/* waiting for a line on its way: from L2 if it arrives no
		 * later than an L2 hit started now would, else from beyond
		 * (a long miss, like the one that brought it) */
		*cause = tlbmiss ? PMK_SIM_CAUSE_DTLB
			 : rdy > at + s->cfg.l1d.latency + s->cfg.l2.latency
			     ? PMK_SIM_CAUSE_L2D
			 : rdy > at ? PMK_SIM_CAUSE_L1D
				    : PMK_SIM_CAUSE_EXEC;
		return lat;
	}
	*flags |= PMK_SIM_F_L1D_MISS;
	s->st.l1d_miss++;
	pmk__pmu_add(&s->pmu, EV_L1D_MISS, 1, kernel, bits);
	start = t + lat;
	if (!store) {
		for (k = 1; k < s->cfg.max_misses; k++)
			if (s->mshr[k] < s->mshr[best])
				best = k;
		if (s->mshr[best] > start)
			start = s->mshr[best];
	}
	fill = start + s->cfg.l1d.latency +
	       outer(s, addr, start, 0, store, kernel, flags, &l2miss);
	if (!store)
		s->mshr[best] = fill;
	pmk__sa_insert(&s->l1d, addr, fill);
	*cause = l2miss	   ? PMK_SIM_CAUSE_L2D
		 : tlbmiss ? PMK_SIM_CAUSE_DTLB
			   : PMK_SIM_CAUSE_L1D;
	return fill - t;
}

/* Instruction-side access for the block of pc at the current cycle.
 * Returns the cycles fetch must wait (0 = go on); *walk is the part of
 * them spent on an I-TLB walk. */
static uint64_t inst_access(pmk_sim *s, uint64_t pc, int kernel,
			    uint16_t *flags, uint64_t *walk)
{
	uint64_t lat = 0, line = (pc >> s->l1i.shift) + 1,
		 page = pc / s->cfg.page_bytes + 1, rdy;
	int l2miss = 0;
	if (page != s->cur_page) {
		s->cur_page = page;
		if (!(s->cfg.perfect & PMK_SIM_PERFECT_ITLB) &&
		    !pmk__sa_lookup(&s->itlb, pc, NULL)) {
			pmk__sa_insert(&s->itlb, pc, 0);
			lat += s->cfg.itlb.miss_latency;
			*flags |= PMK_SIM_F_ITLB_MISS;
			s->st.itlb_miss++;
			pmk__pmu_add(&s->pmu, EV_ITLB_MISS, 1, kernel, 0);
		}
	}
	*walk = lat;
	if (line != s->cur_line) {
		s->cur_line = line;
		s->st.l1i_access++;
		pmk__pmu_add(&s->pmu, EV_L1I_ACCESS, 1, kernel, 0);
		if (s->cfg.perfect & PMK_SIM_PERFECT_L1I)
			return lat;
		if (pmk__sa_lookup(&s->l1i, pc, &rdy)) {
			if (rdy > s->now + lat)
				lat = rdy - s->now; /* the line is on its way */
			return lat;
		}
		*flags |= PMK_SIM_F_L1I_MISS;
		s->st.l1i_miss++;
		pmk__pmu_add(&s->pmu, EV_L1I_MISS, 1, kernel, 0);
		lat += outer(s, pc, s->now + lat, 1, 0, kernel, flags, &l2miss);
		pmk__sa_insert(&s->l1i, pc, s->now + lat);
	}
	return lat;
}

/* Fetch is blocked for `wait` cycles from now, `walk` of them on an I-TLB
 * walk. */
static void fetch_block(pmk_sim *s, uint64_t wait, uint64_t walk,
			uint64_t pc)
{
	s->fetch_block_pc = pc;
	s->fetch_block_until = s->now + wait;
	s->fetch_walk_end = s->now + walk;
	s->fetch_l1_end = s->fetch_walk_end + s->cfg.l2.latency;
}

/*
 * What a blocked fetch waits on this cycle. A fetch that misses several
 * levels waits on them one after the other: the I-TLB walk, then the L2
 * lookup (the L2's latency: an L1I miss), then what lies beyond (an L2
 * miss, or a line already on its way from there). The same phases as the
 * back-end counters' (docs/cpistack.md, choices 5 and 13).
 */
static uint8_t fe_phase(const pmk_sim *s)
{
	if (s->now < s->fetch_walk_end)
		return PMK_SIM_FE_ITLB;
	if (s->now < s->fetch_l1_end)
		return PMK_SIM_FE_L1I;
	return PMK_SIM_FE_L2I;
}

/* ------------------------------------------------------------- ProfileMe */

/* Up to PM_SLOTS tagged instructions (each with its partner) are in flight
 * at once, like a set of ProfileMe registers; a selection that finds every
 * slot busy is dropped (counted in pm_dropped). Tags: slot * 2 + 1 for the
 * primary, + 2 for the partner. */

static uint64_t pm_rand(pmk_sim *s)
{
	uint64_t x = s->pm_rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	s->pm_rng = x;
	return x;
}

static void pm_arm(pmk_sim *s)
{
	s->pm_countdown =
	    s->pm_interval > 1 ? 1 + pm_rand(s) % (2 * s->pm_interval - 1) : 1;
}

static void pm_emit(pmk_sim *s, pm_slot *sl)
{
	pmk_sim_sample x;
	pm_rec *a = &sl->rec[0], *b = &sl->rec[1];
	memset(&x, 0, sizeof x);
	x.counter = -1;
	x.pc = a->pc;
	x.cycle = s->now;
	x.kernel = a->kernel;
	x.retired = a->retired;
	x.flags = a->flags;
	x.op = a->op;
	x.fetch_cycle = a->fetch;
	x.dispatch_cycle = a->dispatch;
	x.issue_cycle = a->issue;
	x.done_cycle = a->done;
	x.retire_cycle = a->retire;
	if (b->valid && b->finished) {
		x.paired = 1;
		x.pair_pc = b->pc;
		x.pair_flags = b->flags;
		x.pair_fetch_cycle = b->fetch;
		x.pair_retire_cycle = b->retire;
		x.pair_retired = b->retired;
		x.pair_distance = sl->dist;
	}
	memset(sl, 0, sizeof *sl);
	if (s->sample_fn)
		s->sample_fn(s->sample_arg, &x);
}

/* A tagged instruction left the machine (retired or squashed). */
static void pm_finish(pmk_sim *s, int tag, const rob_e *r, const fq_e *f,
		      int retired)
{
	pm_slot *sl = &s->pm[(tag - 1) / 2];
	pm_rec *p = &sl->rec[(tag - 1) % 2];
	p->finished = 1;
	p->retired = (uint8_t)retired;
	if (r) {
		p->flags = r->flags;
		p->dispatch = r->dispatch_cycle;
		p->issue = r->issue_cycle;
		p->done = r->done;
	} else {
		p->flags = f->flags;
	}
	p->retire = retired ? s->now : 0;
	if (sl->rec[0].finished && !sl->pair_countdown &&
	    (!sl->rec[1].valid || sl->rec[1].finished))
		pm_emit(s, sl);
}

static uint8_t pm_tag(pmk_sim *s, const fq_e *f)
{
	int tag = 0;
	if (!s->pm_interval)
		return 0;
	s->pm_fetch_index++;
	for (int i = 0; i < PM_SLOTS; i++) {
		pm_slot *sl = &s->pm[i];
		if (!sl->busy || !sl->pair_countdown)
			continue;
		if (--sl->pair_countdown)
			continue;
		if (tag) {
			sl->pair_countdown = 1; /* this one is taken: next */
			continue;
		}
		tag = i * 2 + 2;
		sl->dist = (int64_t)(s->pm_fetch_index - sl->primary_index);
	}
	if (!--s->pm_countdown) {
		pm_arm(s);
		if (!tag) {
			int i;
			for (i = 0; i < PM_SLOTS && s->pm[i].busy; i++)
				;
			if (i == PM_SLOTS) {
				s->pm_dropped++;
			} else {
				pm_slot *sl = &s->pm[i];
				memset(sl, 0, sizeof *sl);
				sl->busy = 1;
				sl->primary_index = s->pm_fetch_index;
				sl->pair_countdown =
				    s->pm_window ? 1 + (uint32_t)(pm_rand(s) %
								  s->pm_window)
						 : 0;
				sl->rec[1].valid = s->pm_window ? 1 : 0;
				tag = i * 2 + 1;
			}
		}
	}
	if (!tag)
		return 0;
	pm_rec *p = &s->pm[(tag - 1) / 2].rec[(tag - 1) % 2];
	p->valid = 1;
	p->pc = f->in.pc;
	p->seq = f->seq;
	p->op = f->in.op;
	p->kernel = f->in.kernel;
	p->fetch = f->fetch_cycle;
	return (uint8_t)tag;
}

/* ---------------------------------------------------------------- stages */

static void emit_uop(pmk_sim *s, int what, const rob_e *r, const fq_e *f,
		     uint32_t rob_id)
{
	pmk_sim_uop u;
	if (!s->obs.uop)
		return;
	memset(&u, 0, sizeof u);
	u.what = what;
	u.cycle = s->now;
	u.rob_id = rob_id;
	if (r) {
		u.seq = r->seq;
		u.pc = r->pc;
		u.op = r->op;
		u.kernel = r->kernel;
		u.flags = r->flags;
		u.fetch_cycle = r->fetch_cycle;
		u.dispatch_cycle = r->dispatch_cycle;
		u.issue_cycle = r->issue_cycle;
		u.done_cycle = r->done;
	} else {
		u.seq = f->seq;
		u.pc = f->in.pc;
		u.op = f->in.op;
		u.kernel = f->in.kernel;
		u.flags = f->flags;
		u.fetch_cycle = f->fetch_cycle;
	}
	s->obs.uop(s->obs.arg, &u);
}

static void squash(pmk_sim *s)
{
	uint32_t kept =
	    (s->misp_rob + s->cfg.rob_size - s->rob_head) % s->cfg.rob_size + 1;
	emit_uop(s, PMK_SIM_UOP_RESOLVE, &s->rob[s->misp_rob], NULL,
		 s->misp_rob);
	for (uint32_t k = kept; k < s->rob_n; k++) {
		uint32_t i = (s->rob_head + k) % s->cfg.rob_size;
		rob_e *r = &s->rob[i];
		s->st.squashed++;
		pmk__pmu_add(&s->pmu, EV_INST_SQUASHED, 1, r->kernel,
			     1u << r->op);
		emit_uop(s, PMK_SIM_UOP_SQUASH, r, NULL, i);
		if (r->pm)
			pm_finish(s, r->pm, r, NULL, 0);
	}
	if (kept < s->rob_n)
		s->rob_n = kept;
	for (uint32_t k = 0; k < s->fq_n; k++) {
		fq_e *f = &s->fq[(s->fq_head + k) % s->fq_cap];
		s->st.squashed++;
		pmk__pmu_add(&s->pmu, EV_INST_SQUASHED, 1, f->in.kernel,
			     1u << f->in.op);
		emit_uop(s, PMK_SIM_UOP_SQUASH, NULL, f, 0);
		if (f->pm)
			pm_finish(s, f->pm, NULL, f, 0);
	}
	s->fq_n = 0;
	s->wrong = 0;
	s->squash_at = 0;
	s->fetch_block_until = 0;
	s->cur_line = s->cur_page = 0;
	s->pend_flags = 0;
	s->cyc.squash = 1;
	pmk__pmu_add(&s->pmu, EV_RECOVERY, 1,
		     s->rob_n ? s->rob[s->rob_head].kernel : 0, 0);
}

static void commit(pmk_sim *s)
{
	uint32_t n = 0;
	while (n < s->cfg.commit_width && s->rob_n &&
	       s->rob[s->rob_head].done <= s->now) {
		rob_e *r = &s->rob[s->rob_head];
		uint32_t bit = 1u << r->op;
		int k = r->kernel;
		pmk__pmu_add(&s->pmu, EV_INST_RETIRED, 1, k, bit);
		if (pmk_sim_op_is_branch(r->op)) {
			s->st.branches++;
			pmk__pmu_add(&s->pmu, EV_BR_RETIRED, 1, k, bit);
			if (r->flags & PMK_SIM_F_MISPRED) {
				s->st.mispredicts++;
				pmk__pmu_add(&s->pmu, EV_BR_MISP_RETIRED, 1, k,
					     bit);
			}
		}
		if (r->flags) {
			if (r->is_load && (r->flags & PMK_SIM_F_L1D_MISS))
				pmk__pmu_add(&s->pmu, EV_L1D_MISS_RETIRED, 1, k,
					     0);
			if (r->is_load && (r->flags & PMK_SIM_F_L2D_MISS))
				pmk__pmu_add(&s->pmu, EV_L2_MISS_RETIRED, 1, k,
					     0);
			if (r->is_load && (r->flags & PMK_SIM_F_DTLB_MISS))
				pmk__pmu_add(&s->pmu, EV_DTLB_MISS_RETIRED, 1,
					     k, 0);
			if (r->flags & PMK_SIM_F_L1I_MISS)
				pmk__pmu_add(&s->pmu, EV_L1I_MISS_RETIRED, 1, k,
					     0);
			if (r->flags & PMK_SIM_F_ITLB_MISS)
				pmk__pmu_add(&s->pmu, EV_ITLB_MISS_RETIRED, 1,
					     k, 0);
		}
		s->st.committed++;
		emit_uop(s, PMK_SIM_UOP_COMMIT, r, NULL, s->rob_head);
		if (r->pm)
			pm_finish(s, r->pm, r, NULL, 1);
		s->rob_head = (s->rob_head + 1) % s->cfg.rob_size;
		s->rob_n--;
		n++;
	}
	s->cyc.committed = (uint16_t)n;
}

static uint64_t issue_slot(pmk_sim *s, uint64_t rdy)
{
	for (uint64_t t = rdy; t < s->now + ISSUE_H - 1; t++) {
		uint8_t *u = &s->issue_used[t & (ISSUE_H - 1)];
		if (*u < s->cfg.issue_width) {
			(*u)++;
			return t;
		}
	}
	return rdy;
}

static void dispatch(pmk_sim *s)
{
	uint32_t n = 0, nw = 0;
	while (n < s->cfg.dispatch_width && s->fq_n &&
	       s->fq[s->fq_head].ready <= s->now &&
	       s->rob_n < s->cfg.rob_size) {
		fq_e *f = &s->fq[s->fq_head];
		const pmk_sim_insn *in = &f->in;
		uint32_t ri = (s->rob_head + s->rob_n) % s->cfg.rob_size;
		rob_e *r = &s->rob[ri];
		uint64_t rdy = s->now + 1, t, lat;
		uint8_t cause = PMK_SIM_CAUSE_EXEC;
		int op = in->op;
		for (int k = 0; k < in->nsrc; k++)
			if (s->reg_ready[in->src[k]] > rdy)
				rdy = s->reg_ready[in->src[k]];
		t = issue_slot(s, rdy);
		lat = s->cfg.lat[op];
		if (op == PMK_SIM_OP_IMUL || op == PMK_SIM_OP_FDIV) {
			if (s->cfg.perfect & PMK_SIM_PERFECT_LONGLAT)
				lat = 1;
			else
				cause = PMK_SIM_CAUSE_LONGLAT;
		}
		r->is_load = 0;
		r->flags = f->flags;
		for (int k = 0; k < in->nmem; k++) {
			const pmk_sim_mem *m = &in->mem[k];
			uint8_t c = PMK_SIM_CAUSE_EXEC;
			uint64_t l;
			if (f->wrong && !s->cfg.wrong_path_loads)
				continue;
			if (f->wrong && m->store)
				continue; /* wrong-path stores never write */
			l = data_access(s, m->addr, m->store, t + 1, in->kernel,
					&r->flags, &c);
			if (!m->store) {
				r->is_load = 1;
				if (1 + l > lat)
					lat = 1 + l;
				if (c != PMK_SIM_CAUSE_EXEC)
					cause = c;
			}
		}
		r->pc = in->pc;
		r->seq = f->seq;
		r->fetch_cycle = f->fetch_cycle;
		r->dispatch_cycle = s->now;
		r->issue_cycle = t;
		r->done = t + lat;
		r->op = (uint8_t)op;
		r->kernel = in->kernel;
		r->wrong = f->wrong;
		r->cause = cause;
		r->pm = f->pm;
		if (!f->wrong)
			for (int k = 0; k < in->ndst; k++)
				s->reg_ready[in->dst[k]] = r->done;
		if ((f->flags & PMK_SIM_F_MISPRED) && !f->wrong) {
			s->squash_at = r->done;
			s->misp_rob = ri;
		}
		pmk__pmu_add(&s->pmu, EV_INST_DISPATCHED, 1, in->kernel,
			     1u << op);
		if (pmk_sim_op_is_branch(op))
			pmk__pmu_add(&s->pmu, EV_BR_DISPATCHED, 1, in->kernel,
				     1u << op);
		s->rob_n++;
		s->st.dispatched++;
		if (f->wrong) {
			s->st.dispatched_wrong++;
			nw++;
		}
		emit_uop(s, PMK_SIM_UOP_DISPATCH, r, NULL, ri);
		s->fq_head = (s->fq_head + 1) % s->fq_cap;
		s->fq_n--;
		n++;
	}
	s->cyc.dispatched = (uint16_t)n;
	s->cyc.dispatched_wrong = (uint16_t)nw;
}

/* Predict the next fetch address after a correct-path branch, training the
 * predictor with the real outcome. */
static uint64_t predict_train(pmk_sim *s, const pmk_sim_insn *in)
{
	uint64_t fall = in->pc + in->len, tgt = 0, pred = fall;
	int known;
	switch (in->op) {
	case PMK_SIM_OP_BCOND:
		known = pmk__btb_lookup(&s->bp, in->pc, &tgt);
		if (pmk__bp_dir(&s->bp, in->pc) && known)
			pred = tgt;
		pmk__bp_update(&s->bp, in->pc, in->taken);
		break;
	case PMK_SIM_OP_JUMP:
	case PMK_SIM_OP_CALL:
	case PMK_SIM_OP_JIND:
		if (pmk__btb_lookup(&s->bp, in->pc, &tgt))
			pred = tgt;
		if (in->op == PMK_SIM_OP_CALL)
			pmk__ras_push(&s->bp, fall);
		break;
	case PMK_SIM_OP_RET:
		tgt = pmk__ras_pop(&s->bp);
		if (tgt)
			pred = tgt;
		break;
	}
	if (in->taken && in->op != PMK_SIM_OP_RET)
		pmk__btb_update(&s->bp, in->pc, in->target);
	if (s->cfg.perfect & PMK_SIM_PERFECT_BP)
		pred = in->taken ? in->target : fall;
	return pred;
}

/*
 * The next wrong-path instruction, from the PC map. Code the trace has not
 * shown yet (or that the full map left out) is fetched all the same, as a
 * real fetch unit fetches whatever lies at the predicted address: 4-byte
 * one-cycle operations without registers or memory, in sequence, until a
 * known PC; so the wrong path fills the window and misses in the I-TLB and
 * L1I like any other fetch. (It used to stop there until the branch
 * resolved, which left the ROB nearly empty behind a mispredicted branch
 * in code not yet run: docs/cpistack.md, choice 14.)
 */
static void wrong_next(pmk_sim *s, pmk_sim_insn *in)
{
	pcm_e *e = pcm_find(s, s->wp_pc);
	uint64_t fall, nx;
	memset(in, 0, sizeof *in);
	if (!e) {
		in->pc = s->wp_pc;
		in->op = PMK_SIM_OP_OTHER;
		in->len = 4;
		in->kernel = (uint8_t)s->wp_kernel;
		s->wp_pc += 4;
		return;
	}
	in->pc = s->wp_pc;
	in->op = e->op;
	in->len = e->len;
	in->kernel = e->kernel;
	in->nsrc = e->nsrc;
	in->ndst = e->ndst;
	memcpy(in->src, e->src, sizeof in->src);
	memcpy(in->dst, e->dst, sizeof in->dst);
	in->target = e->target;
	if (e->addr && e->size) {
		in->nmem = 1;
		in->mem[0].addr = e->addr;
		in->mem[0].size = e->size;
	}
	fall = in->pc + in->len;
	nx = fall;
	switch (in->op) {
	case PMK_SIM_OP_BCOND:
		if (pmk__bp_dir(&s->bp, in->pc) && e->target)
			nx = e->target;
		break;
	case PMK_SIM_OP_JUMP:
	case PMK_SIM_OP_CALL:
	case PMK_SIM_OP_JIND:
	case PMK_SIM_OP_RET:
		if (e->target)
			nx = e->target;
		break;
	}
	in->taken = nx != fall;
	s->wp_pc = nx;
	s->wp_kernel = e->kernel;
}

static void fetch(pmk_sim *s)
{
	uint32_t n = 0, nw = 0;
	s->cyc.fe_cause = PMK_SIM_FE_NONE;
	if (s->fetch_block_until > s->now) {
		s->cyc.fe_cause = fe_phase(s);
		goto out;
	}
	while (n < s->cfg.fetch_width) {
		fq_e *f;
		pmk_sim_insn tmp, *in;
		uint16_t fl = 0;
		uint64_t wait, walk, pred = 0;
		if (s->fq_n == s->fq_cap) {
			if (!n)
				s->cyc.fe_cause = PMK_SIM_FE_FULL;
			break;
		}
		if (s->wrong) {
			uint64_t save = s->wp_pc;
			int save_k = s->wp_kernel;
			wrong_next(s, &tmp);
			in = &tmp;
			wait = inst_access(s, in->pc, in->kernel, &fl, &walk);
			if (wait) {
				/* fetch it when the line comes */
				s->wp_pc = save;
				s->wp_kernel = save_k;
				s->pend_flags |= fl;
				fetch_block(s, wait, walk, in->pc);
				if (!n)
					s->cyc.fe_cause = fe_phase(s);
				break;
			}
		} else {
			if (!s->have_pend) {
				int rc =
				    s->src_end ? 0 : s->next(s->src, &s->pend);
				if (rc < 0) {
					s->error = rc;
					s->src_end = 1;
				}
				if (rc <= 0) {
					s->src_end = 1;
					if (!n)
						s->cyc.fe_cause =
						    PMK_SIM_FE_END;
					break;
				}
				if (s->pend.op >= PMK_SIM_OP_COUNT ||
				    !s->pend.len)
					s->pend.op = PMK_SIM_OP_OTHER,
					s->pend.len =
					    s->pend.len ? s->pend.len : 4;
				s->have_pend = 1;
				pcm_note(s, &s->pend);
			}
			in = &s->pend;
			wait = inst_access(s, in->pc, in->kernel, &fl, &walk);
			if (wait) {
				s->pend_flags |= fl;
				fetch_block(s, wait, walk, in->pc);
				if (!n)
					s->cyc.fe_cause = fe_phase(s);
				break;
			}
			if (pmk_sim_op_is_branch(in->op))
				pred = predict_train(s, in);
		}
		f = &s->fq[(s->fq_head + s->fq_n) % s->fq_cap];
		f->in = *in;
		f->seq = s->seq++;
		f->fetch_cycle = s->now;
		f->ready = s->now + s->cfg.fe_depth;
		f->flags = (uint16_t)(fl | s->pend_flags);
		s->pend_flags = 0;
		f->wrong = (uint8_t)s->wrong;
		if (s->wrong)
			f->flags |= PMK_SIM_F_WRONG;
		s->fq_n++;
		n++;
		pmk__pmu_add(&s->pmu, EV_INST_FETCHED, 1, in->kernel,
			     1u << in->op);
		if (s->wrong) {
			nw++;
			f->pm = pm_tag(s, f);
			emit_uop(s, PMK_SIM_UOP_FETCH, NULL, f, 0);
			if (in->taken)
				break;
			continue;
		}
		s->have_pend = 0;
		if (pmk_sim_op_is_branch(in->op)) {
			uint64_t actual =
			    in->taken ? in->target : in->pc + in->len;
			if (pred != actual) {
				f->flags |= PMK_SIM_F_MISPRED;
				s->wrong = 1;
				s->wp_pc = pred;
				s->wp_kernel = in->kernel;
			}
			f->pm = pm_tag(s, f);
			emit_uop(s, PMK_SIM_UOP_FETCH, NULL, f, 0);
			if (pred != in->pc + in->len)
				break;
			continue;
		}
		f->pm = pm_tag(s, f);
		emit_uop(s, PMK_SIM_UOP_FETCH, NULL, f, 0);
	}
out:
	s->cyc.fe_pc = s->cyc.fe_cause >= PMK_SIM_FE_L1I &&
			       s->cyc.fe_cause <= PMK_SIM_FE_ITLB
			   ? s->fetch_block_pc
			   : 0;
	s->cyc.fetched = (uint16_t)n;
	s->cyc.fetched_wrong = (uint16_t)nw;
	s->st.fetched += n;
	s->st.fetched_wrong += nw;
}

/* ----------------------------------------------------------------- cycle */

/* The per-cycle signals, PMU and observers, after the stages ran. */
static void cycle_end(pmk_sim *s)
{
	pmk_sim_cycle *c = &s->cyc;
	uint64_t head_pc;
	int hk;
	c->rob_count = (uint16_t)s->rob_n;
	c->rob_full = s->rob_n == s->cfg.rob_size;
	c->fq_empty = !s->fq_n || s->fq[s->fq_head].ready > s->now + 1;
	if (s->rob_n) {
		rob_e *h = &s->rob[s->rob_head];
		head_pc = h->pc;
		hk = h->kernel;
		if (h->done > s->now)
			c->head_cause = s->now >= h->issue_cycle
					    ? h->cause
					    : PMK_SIM_CAUSE_EXEC;
	} else {
		head_pc = s->fq_n    ? s->fq[s->fq_head].in.pc
			  : s->wrong ? s->wp_pc
				     : s->pend.pc;
		hk = s->fq_n ? s->fq[s->fq_head].in.kernel : s->pend.kernel;
	}
	c->head_kernel = (uint8_t)hk;
	pmk__pmu *p = &s->pmu;
	pmk__pmu_add(p, EV_CYCLES, 1, hk, 0);
	if (c->rob_full) {
		s->st.rob_full_cycles++;
		pmk__pmu_add(p, EV_ROB_FULL, 1, hk, 0);
	}
	pmk__pmu_add(p, EV_ROB_OCCUPANCY, s->rob_n, hk, 0);
	if (!c->dispatched)
		pmk__pmu_add(p, EV_DISPATCH_STALL, 1, hk, 0);
	if (!c->committed)
		pmk__pmu_add(p, EV_COMMIT_STALL, 1, hk, 0);
	if (c->fe_cause >= PMK_SIM_FE_L1I && c->fe_cause <= PMK_SIM_FE_ITLB) {
		s->st.fe_stall_cycles++;
		pmk__pmu_add(p, EV_FE_STALL, 1, hk, 0);
	}
	if (c->head_cause >= PMK_SIM_CAUSE_L1D &&
	    c->head_cause <= PMK_SIM_CAUSE_DTLB)
		pmk__pmu_add(p, EV_MEM_STALL, 1, hk, 0);
	else if (c->head_cause == PMK_SIM_CAUSE_LONGLAT)
		pmk__pmu_add(p, EV_LONGLAT_STALL, 1, hk, 0);
	if (c->wrong_path)
		pmk__pmu_add(p, EV_WRONG_PATH_CYCLES, 1, hk, 0);
	pmk__pmu_tick(p, s->now, head_pc, hk);
	if (s->obs.cycle)
		s->obs.cycle(s->obs.arg, c);
	s->issue_used[s->now & (ISSUE_H - 1)] = 0;
	s->now++;
	s->st.cycles = s->now;
}

static void cycle(pmk_sim *s)
{
	pmk_sim_cycle *c = &s->cyc;
	memset(c, 0, sizeof *c);
	c->cycle = s->now;
	if (s->squash_at && s->now >= s->squash_at)
		squash(s);
	commit(s);
	dispatch(s);
	c->wrong_path = (uint8_t)s->wrong;
	fetch(s);
	cycle_end(s);
}

/*
 * Fast-forward. After a cycle in which nothing was fetched, dispatched,
 * committed or squashed, nothing can happen before the earliest of: the
 * ROB head completing (or starting to execute), the front-end head becoming
 * dispatchable, the I-miss fetch waits on, the resolution of a
 * mispredicted branch, a pending PMU interrupt. Until then every cycle is
 * the same idle cycle, so it is computed once and repeated: observers still
 * see each cycle; counters without an overflow in the window add the
 * repeated per-cycle increment in one step. Counts are identical to
 * cycle-by-cycle simulation (tested).
 */
static uint64_t next_event(const pmk_sim *s)
{
	uint64_t t = UINT64_MAX, now = s->now;
#define AT(x)                                                                  \
	do {                                                                   \
		uint64_t x_ = (x);                                             \
		if (x_ < t)                                                    \
			t = x_;                                                \
	} while (0)
	if (s->squash_at)
		AT(s->squash_at);
	if (s->rob_n) {
		const rob_e *h = &s->rob[s->rob_head];
		AT(h->done);
		if (h->issue_cycle > now)
			AT(h->issue_cycle);
	}
	if (s->fq_n) {
		uint64_t r = s->fq[s->fq_head].ready;
		if (r > now)
			AT(r - 1);
		else if (s->rob_n < s->cfg.rob_size)
			AT(now); /* dispatch would go on */
	}
	if (s->fetch_block_until > now)
		AT(s->fetch_block_until);
	else if (s->fq_n < s->fq_cap &&
		 (s->wrong || !s->src_end || s->have_pend))
		AT(now); /* fetch would try this cycle */
	for (int i = 0; i < s->pmu.n; i++)
		if (s->pmu.c[i].on && s->pmu.c[i].fire_at)
			AT(s->pmu.c[i].fire_at);
#undef AT
	return t;
}

static void idle_cycles(pmk_sim *s, uint64_t k)
{
	pmk_sim_cycle *c = &s->cyc;
	while (k) {
		uint8_t fe = c->fe_cause;
		uint64_t m;
		int bulk = !s->obs.cycle;
		memset(c, 0, sizeof *c);
		c->cycle = s->now;
		c->wrong_path = (uint8_t)s->wrong;
		c->fe_cause = fe >= PMK_SIM_FE_L1I && fe <= PMK_SIM_FE_ITLB &&
				      s->fetch_block_until > s->now
				  ? fe_phase(s)
				  : fe;
		if (c->fe_cause >= PMK_SIM_FE_L1I &&
		    c->fe_cause <= PMK_SIM_FE_ITLB)
			c->fe_pc = s->fetch_block_pc;
		cycle_end(s);
		k--;
		if (!k || !bulk)
			continue;
		/* the remaining k cycles repeat this one exactly */
		m = k;
		if (pmk__pmu_repeat(&s->pmu, m) < 0)
			continue; /* an overflow inside: cycle by cycle */
		if (c->rob_full)
			s->st.rob_full_cycles += m;
		if (c->fe_cause >= PMK_SIM_FE_L1I &&
		    c->fe_cause <= PMK_SIM_FE_ITLB)
			s->st.fe_stall_cycles += m;
		if (m >= ISSUE_H)
			memset(s->issue_used, 0, ISSUE_H);
		else
			for (uint64_t i = 0; i < m; i++)
				s->issue_used[(s->now + i) & (ISSUE_H - 1)] = 0;
		s->now += m;
		s->st.cycles = s->now;
		k = 0;
	}
}

static int finished(const pmk_sim *s)
{
	return s->src_end && !s->have_pend && !s->fq_n && !s->rob_n;
}

static void step(pmk_sim *s, uint64_t limit)
{
	const pmk_sim_cycle *c = &s->cyc;
	uint64_t t;
	cycle(s);
	if (c->fetched || c->dispatched || c->committed || c->squash ||
	    s->no_ff || finished(s))
		return; /* finished: nothing left to wait for (an empty source)
			 */
	t = next_event(s);
	if (t > limit)
		t = limit;
	if (t > s->now + 1)
		idle_cycles(s, t - s->now);
}

int pmk_sim_run(pmk_sim *s, uint64_t max_insns)
{
	uint64_t goal = max_insns ? s->st.committed + max_insns : UINT64_MAX;
	while (!finished(s) && s->st.committed < goal)
		step(s, UINT64_MAX);
	if (finished(s))
		for (int i = 0; i < PM_SLOTS; i++)
			if (s->pm[i].busy && s->pm[i].rec[0].finished)
				pm_emit(s, &s->pm[i]); /* partner never came */
	if (s->error)
		return s->error;
	return !finished(s);
}

int pmk_sim_run_cycles(pmk_sim *s, uint64_t cycles)
{
	uint64_t goal = s->now + cycles;
	while (!finished(s) && s->now < goal)
		step(s, goal);
	if (s->error)
		return s->error;
	return !finished(s);
}

void pmk__sim_no_fast_forward(pmk_sim *s, int off)
{
	s->no_ff = off;
}

/* ------------------------------------------------------------ life cycle */

int pmk_sim_new(pmk_sim **out, const pmk_sim_config *cfg, pmk_sim_next_fn next,
		void *src, pmk_diag *d)
{
	pmk_sim *s;
	int rc;
	*out = NULL;
	rc = pmk_sim_config_check(cfg, d);
	if (rc < 0)
		return rc;
	s = calloc(1, sizeof *s);
	if (!s)
		return PMK_ENOMEM;
	s->cfg = *cfg;
	s->next = next;
	s->src = src;
	if ((rc = pmk__sa_init(&s->l1i, cfg->l1i.size_bytes, cfg->l1i.assoc,
			       cfg->l1i.line_bytes)) ||
	    (rc = pmk__sa_init(&s->l1d, cfg->l1d.size_bytes, cfg->l1d.assoc,
			       cfg->l1d.line_bytes)) ||
	    (rc = pmk__sa_init(&s->l2, cfg->l2.size_bytes, cfg->l2.assoc,
			       cfg->l2.line_bytes)) ||
	    (rc = pmk__sa_init(&s->itlb,
			       (uint64_t)cfg->itlb.entries * cfg->page_bytes,
			       cfg->itlb.assoc, cfg->page_bytes)) ||
	    (rc = pmk__sa_init(&s->dtlb,
			       (uint64_t)cfg->dtlb.entries * cfg->page_bytes,
			       cfg->dtlb.assoc, cfg->page_bytes)) ||
	    (rc = pmk__bp_init(&s->bp, cfg->bp_kind, cfg->bp_bits,
			       cfg->bp_history, cfg->btb_entries,
			       cfg->btb_assoc, cfg->ras_depth)))
		goto fail;
	if (cfg->l3.size_bytes) {
		rc = pmk__sa_init(&s->l3, cfg->l3.size_bytes, cfg->l3.assoc,
				  cfg->l3.line_bytes);
		if (rc)
			goto fail;
		s->has_l3 = 1;
	}
	rc = PMK_ENOMEM;
	s->mshr = calloc(cfg->max_misses, sizeof *s->mshr);
	s->issue_used = calloc(ISSUE_H, 1);
	s->fq_cap = cfg->fe_depth * cfg->fetch_width + cfg->fetch_width;
	s->fq = calloc(s->fq_cap, sizeof *s->fq);
	s->rob = calloc(cfg->rob_size, sizeof *s->rob);
	s->pcm_cap = 4096;
	s->pcm = calloc(s->pcm_cap, sizeof *s->pcm);
	if (!s->mshr || !s->issue_used || !s->fq || !s->rob || !s->pcm)
		goto fail;
	pmk__pmu_init(&s->pmu, (int)cfg->pmu_counters, cfg->pmu_skid,
		      cfg->pmu_skid_jitter);
	*out = s;
	return 0;
fail:
	pmk_sim_free(s);
	if (d) {
		pmk_diag_clear(d);
		d->code = rc;
		snprintf(d->message, sizeof d->message,
			 "cannot build the core: %s", pmk_strerror(rc));
	}
	return rc;
}

void pmk_sim_free(pmk_sim *s)
{
	if (!s)
		return;
	pmk__sa_release(&s->l1i);
	pmk__sa_release(&s->l1d);
	pmk__sa_release(&s->l2);
	pmk__sa_release(&s->l3);
	pmk__sa_release(&s->itlb);
	pmk__sa_release(&s->dtlb);
	pmk__bp_release(&s->bp);
	free(s->mshr);
	free(s->issue_used);
	free(s->fq);
	free(s->rob);
	free(s->pcm);
	free(s);
}

void pmk_sim_set_observer(pmk_sim *s, const pmk_sim_observer *o)
{
	if (o)
		s->obs = *o;
	else
		memset(&s->obs, 0, sizeof s->obs);
}

int pmk_sim_counter_set(pmk_sim *s, int i, const pmk_sim_counter_cfg *cfg)
{
	return pmk__pmu_program(&s->pmu, i, cfg);
}

int pmk_sim_counter_enable(pmk_sim *s, int i, int on)
{
	return pmk__pmu_enable(&s->pmu, i, on);
}

int pmk_sim_counter_clear(pmk_sim *s, int i)
{
	if (i < 0 || i >= s->pmu.n)
		return PMK_EINVAL;
	s->pmu.c[i].count = 0;
	s->pmu.c[i].next_ovf = s->pmu.c[i].cfg.period;
	return 0;
}

uint64_t pmk_sim_counter_read(const pmk_sim *s, int i)
{
	return i >= 0 && i < s->pmu.n ? s->pmu.c[i].count : 0;
}

int pmk_sim_counter_total(const pmk_sim *s)
{
	return s->pmu.n;
}

void pmk_sim_set_sampler(pmk_sim *s, pmk_sim_sample_fn fn, void *arg)
{
	s->sample_fn = fn;
	s->sample_arg = arg;
	s->pmu.fn = fn;
	s->pmu.arg = arg;
}

int pmk_sim_profileme(pmk_sim *s, uint64_t interval, uint32_t pair_window,
		      uint64_t seed)
{
	s->pm_interval = interval;
	s->pm_window = pair_window;
	s->pm_rng = seed * 0x9E3779B97F4A7C15ull + 1;
	if (!s->pm_rng)
		s->pm_rng = 1;
	memset(s->pm, 0, sizeof s->pm);
	if (interval)
		pm_arm(s);
	return 0;
}

const pmk_sim_stats *pmk_sim_stats_get(const pmk_sim *s)
{
	return &s->st;
}

const pmk_sim_config *pmk_sim_config_get(const pmk_sim *s)
{
	return &s->cfg;
}

const pmk_diag *pmk_sim_diag(const pmk_sim *s)
{
	return &s->diag;
}
