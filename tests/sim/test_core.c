/*
 * test_core.c: the simulated core and its PMU. Determinism bit for bit;
 * seed 000's demonstrations (stall cycles and stalls with edge detect, a
 * threshold on instructions retired per cycle, speculative above
 * non-speculative counts, skid versus ProfileMe); wrong-path I-side events;
 * idealization switches; the configuration file parser.
 */
#include <stdlib.h>
#include <string.h>

#include "pmkit/sim.h"
#include "sim/core/core_int.h"
#include "tests/support/t.h"

typedef struct run {
	pmk_sim *sim;
	pmk_workload *w;
} run;

static void start(run *r, const char *spec, const pmk_sim_config *cfg_in)
{
	pmk_sim_config cfg;
	if (cfg_in)
		cfg = *cfg_in;
	else
		pmk_sim_config_default(&cfg);
	T_ASSERT(pmk_workload_new(&r->w, spec, NULL) == 0);
	T_ASSERT(pmk_sim_new(&r->sim, &cfg, pmk_workload_next, r->w, NULL) ==
		 0);
}

static void stop(run *r)
{
	pmk_sim_free(r->sim);
	pmk_workload_free(r->w);
}

static void program(run *r, int i, const char *ev)
{
	pmk_sim_counter_cfg c;
	pmk_diag d;
	T_ASSERT(pmk_sim_counter_parse(ev, &c, &d) == 0);
	T_ASSERT(pmk_sim_counter_set(r->sim, i, &c) == 0);
	T_ASSERT(pmk_sim_counter_enable(r->sim, i, 1) == 0);
}

/* An observer computing from the per-cycle signals what the counters should
 * show. */
typedef struct watch {
	uint64_t cycles, stall, stalls, ge3, prev_stall;
	uint64_t fetched_wrong_cycles;
} watch;

static void on_cycle(void *arg, const pmk_sim_cycle *c)
{
	watch *w = arg;
	int st = c->dispatched == 0;
	w->cycles++;
	w->stall += (uint64_t)st;
	w->stalls += (uint64_t)(st && !w->prev_stall);
	w->prev_stall = (uint64_t)st;
	w->ge3 += c->committed >= 3;
	w->fetched_wrong_cycles += c->fetched_wrong > 0;
}

static void test_stall_cycles_and_stalls(void)
{
	run r;
	watch w;
	pmk_sim_observer o = {on_cycle, NULL, &w};
	memset(&w, 0, sizeof w);
	start(&r, "pointer-chase:n=20000", NULL);
	pmk_sim_set_observer(r.sim, &o);
	program(&r, 0, "dispatch_stall");
	program(&r, 1, "dispatch_stall:e");
	program(&r, 2, "dispatch_stall:e:i"); /* falling edges: stalls ending */
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	uint64_t cyc = pmk_sim_counter_read(r.sim, 0),
		 n = pmk_sim_counter_read(r.sim, 1),
		 ends = pmk_sim_counter_read(r.sim, 2);
	T_EQ_U64(cyc, w.stall);
	T_EQ_U64(n, w.stalls);
	T_CHECK(n > 100 && cyc > 10 * n); /* long stalls behind misses */
	T_CHECK(ends == n || ends + 1 == n);
	/* average stall = ratio; every chased load misses to memory */
	T_CHECKF((double)cyc / (double)n > 50, "avg stall %.1f",
		 (double)cyc / (double)n);
	stop(&r);
}

static void test_threshold_counts_cycles_with_3_or_more(void)
{
	run r;
	watch w;
	pmk_sim_observer o = {on_cycle, NULL, &w};
	memset(&w, 0, sizeof w);
	start(&r, "ilp:n=30000", NULL);
	pmk_sim_set_observer(r.sim, &o);
	program(&r, 0, "inst_retired:c=2");
	program(&r, 1, "inst_retired:c=2:i"); /* cycles with <= 2 */
	program(&r, 2, "cycles");
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	T_EQ_U64(pmk_sim_counter_read(r.sim, 0), w.ge3);
	T_CHECK(w.ge3 > 1000);
	T_EQ_U64(pmk_sim_counter_read(r.sim, 0) +
		     pmk_sim_counter_read(r.sim, 1),
		 pmk_sim_counter_read(r.sim, 2));
	stop(&r);
}

static void test_speculative_exceeds_nonspeculative(void)
{
	run r;
	watch w;
	pmk_sim_observer o = {on_cycle, NULL, &w};
	memset(&w, 0, sizeof w);
	start(&r, "branchy:n=30000", NULL);
	pmk_sim_set_observer(r.sim, &o);
	program(&r, 0, "inst_dispatched");
	program(&r, 1, "inst_retired");
	program(&r, 2, "br_dispatched");
	program(&r, 3, "br_retired");
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	T_EQ_U64(pmk_sim_counter_read(r.sim, 1), 30000);
	T_CHECK(pmk_sim_counter_read(r.sim, 0) >
		pmk_sim_counter_read(r.sim, 1) * 11 / 10);
	T_CHECK(pmk_sim_counter_read(r.sim, 2) >
		pmk_sim_counter_read(r.sim, 3));
	T_CHECK(w.fetched_wrong_cycles > 0);
	stop(&r);
}

static void test_privilege_qualification_and_mask(void)
{
	run r;
	start(&r, "kernel-mix:n=20000", NULL);
	program(&r, 0, "inst_retired:u");
	program(&r, 1, "inst_retired:k");
	program(&r, 2, "inst_retired:umask=0x20"); /* loads */
	program(&r, 3, "inst_retired:umask=0x40"); /* stores */
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	uint64_t u = pmk_sim_counter_read(r.sim, 0),
		 k = pmk_sim_counter_read(r.sim, 1);
	T_CHECK(u > 0 && k > 0);
	T_EQ_U64(u + k, 20000);
	T_CHECK(pmk_sim_counter_read(r.sim, 2) >
		pmk_sim_counter_read(r.sim, 3));
	stop(&r);
}

typedef struct hist {
	uint64_t pcs[64], n[64];
	int len;
	uint64_t total;
} hist;

static void on_sample(void *arg, const pmk_sim_sample *s)
{
	hist *h = arg;
	int i;
	if (s->counter < 0 && !(s->flags & PMK_SIM_F_L2D_MISS))
		return;
	h->total++;
	for (i = 0; i < h->len; i++)
		if (h->pcs[i] == s->pc)
			break;
	if (i == h->len) {
		if (h->len == 64)
			return;
		h->pcs[h->len++] = s->pc;
	}
	h->n[i]++;
}

static void test_skid_spreads_profileme_lands(void)
{
	/* miss-load: a 200-instruction loop, the load at index 100 */
	const uint64_t load_pc = 0x400000 + 4 * 100;
	run r;
	hist ebs, pm;
	memset(&ebs, 0, sizeof ebs);
	memset(&pm, 0, sizeof pm);
	start(&r, "miss-load:n=40000", NULL);
	program(&r, 0, "l2_miss_retired:period=1");
	pmk_sim_set_sampler(r.sim, on_sample, &ebs);
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	T_CHECK(ebs.total >= 150);
	int on_load = 0;
	for (int i = 0; i < ebs.len; i++)
		if (ebs.pcs[i] == load_pc)
			on_load = (int)ebs.n[i];
	T_CHECKF(ebs.len >= 4, "EBS spread over %d PCs", ebs.len);
	T_CHECK((uint64_t)on_load * 2 < ebs.total);
	stop(&r);

	start(&r, "miss-load:n=40000", NULL);
	pmk_sim_set_sampler(r.sim, on_sample, &pm);
	pmk_sim_profileme(r.sim, 10, 0, 7);
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	T_CHECK(pm.total >= 5);
	T_EQ_INT(pm.len, 1);
	T_EQ_U64(pm.pcs[0], load_pc);
	stop(&r);
}

static uint64_t run_counts(const char *spec, const pmk_sim_config *cfg,
			   uint64_t out[6])
{
	run r;
	start(&r, spec, cfg);
	program(&r, 0, "l1i_miss");
	program(&r, 1, "l1d_miss");
	program(&r, 2, "br_misp_retired");
	program(&r, 3, "rob_full");
	pmk_sim_run(r.sim, 0);
	for (int i = 0; i < 4; i++)
		out[i] = pmk_sim_counter_read(r.sim, i);
	out[4] = pmk_sim_stats_get(r.sim)->cycles;
	out[5] = pmk_sim_stats_get(r.sim)->fetched_wrong;
	stop(&r);
	return out[4];
}

static void test_deterministic(void)
{
	const char *specs[] = {"int-mix:n=20000", "icache:n=10000",
			       "branchy:n=10000,seed=5"};
	for (int k = 0; k < 3; k++) {
		uint64_t a[6], b[6];
		run_counts(specs[k], NULL, a);
		run_counts(specs[k], NULL, b);
		T_CHECK(memcmp(a, b, sizeof a) == 0);
	}
}

static void test_idealization_switches(void)
{
	pmk_sim_config c;
	uint64_t base[6], ideal[6];
	pmk_sim_config_default(&c);
	run_counts("int-mix:n=20000", &c, base);
	T_CHECK(base[0] > 0 && base[1] > 0 && base[2] > 0);
	c.perfect =
	    PMK_SIM_PERFECT_L1I | PMK_SIM_PERFECT_L1D | PMK_SIM_PERFECT_BP;
	run_counts("int-mix:n=20000", &c, ideal);
	T_EQ_U64(ideal[0], 0);
	T_EQ_U64(ideal[1], 0);
	T_EQ_U64(ideal[2], 0);
	T_EQ_U64(ideal[5], 0); /* no wrong path without mispredictions */
	T_CHECK(ideal[4] < base[4]);
	pmk_sim_config_default(&c);
	c.perfect = PMK_SIM_PERFECT_LONGLAT;
	uint64_t fp[6], fpi[6];
	run_counts("fp-compute:n=10000", NULL, fp);
	run_counts("fp-compute:n=10000", &c, fpi);
	T_CHECK(fpi[4] < fp[4]);
}

static void test_wrong_path_icache_events(void)
{
	/* branchy code larger than the L1I: some I-misses happen on wrong
	 * paths, so the speculative count exceeds the retired one */
	run r;
	start(&r, "branchy:n=40000,code=64K", NULL);
	program(&r, 0, "l1i_miss");
	program(&r, 1, "l1i_miss_retired");
	program(&r, 2, "wrong_path_cycles");
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	T_CHECK(pmk_sim_counter_read(r.sim, 2) > 0);
	T_CHECKF(pmk_sim_counter_read(r.sim, 0) >
		     pmk_sim_counter_read(r.sim, 1),
		 "l1i_miss %llu, retired %llu",
		 (unsigned long long)pmk_sim_counter_read(r.sim, 0),
		 (unsigned long long)pmk_sim_counter_read(r.sim, 1));
	stop(&r);
}

/* Each I-side stall, as fe_cause shows it cycle by cycle: its phases in
 * order (I-TLB walk, L2 lookup, beyond L2), the walk lasting the I-TLB's
 * miss latency and the lookup the L2's latency when more follows. A miss
 * found after fetch delivered part of a group shows its first cycle as a
 * fetch cycle: the first phase seen may be one cycle short. */
typedef struct fe_runs {
	uint32_t walk_lat, l2_lat;
	int phase, len[3], bad;
	uint64_t runs, full, cycles[3];
	char why[160];
} fe_runs;

static int fe_phase_index(uint8_t cause)
{
	return cause == PMK_SIM_FE_ITLB	 ? 0
	       : cause == PMK_SIM_FE_L1I ? 1
	       : cause == PMK_SIM_FE_L2I ? 2
					 : -1;
}

static void fe_run_end(fe_runs *f, uint64_t cycle)
{
	if (f->phase < 0)
		return;
	f->runs++;
	f->full += f->len[0] && f->len[1] && f->len[2];
	if (!f->bad && f->len[0] && (f->len[1] || f->len[2]) &&
	    f->len[0] != (int)f->walk_lat &&
	    f->len[0] != (int)f->walk_lat - 1) {
		f->bad = 1;
		snprintf(f->why, sizeof f->why, "cycle %llu: walk of %d cycles",
			 (unsigned long long)cycle, f->len[0]);
	}
	if (!f->bad && f->len[2] && f->len[1] != (int)f->l2_lat &&
	    (f->len[0] || f->len[1] != (int)f->l2_lat - 1)) {
		f->bad = 1;
		snprintf(f->why, sizeof f->why,
			 "cycle %llu: L2 lookup of %d cycles before memory",
			 (unsigned long long)cycle, f->len[1]);
	}
	f->phase = -1;
	memset(f->len, 0, sizeof f->len);
}

static void on_fe_cycle(void *arg, const pmk_sim_cycle *c)
{
	fe_runs *f = arg;
	int ph = fe_phase_index(c->fe_cause);
	/* a squash restarts fetch: a wrong-path fetch's wait ends there, and
	 * the correct path's first fetch may miss at once */
	if (c->squash)
		fe_run_end(f, c->cycle);
	if (ph < 0) {
		fe_run_end(f, c->cycle);
		return;
	}
	if (ph < f->phase && !f->bad) {
		f->bad = 1;
		snprintf(f->why, sizeof f->why, "cycle %llu: phase %d after %d",
			 (unsigned long long)c->cycle, ph, f->phase);
	}
	f->phase = ph;
	f->len[ph]++;
	f->cycles[ph]++;
}

static void test_fetch_stall_phases(void)
{
	run r;
	pmk_sim_config c;
	fe_runs f = {0};
	pmk_sim_observer o = {on_fe_cycle, NULL, &f};
	pmk_sim_config_default(&c);
	f.walk_lat = c.itlb.miss_latency;
	f.l2_lat = c.l2.latency;
	f.phase = -1;
	start(&r, "icache:n=20000", &c);
	pmk_sim_set_observer(r.sim, &o);
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	T_CHECKF(!f.bad, "%s", f.why);
	/* the workload walks 2 MB of code: misses to memory, with and
	 * without a walk first */
	T_CHECKF(f.full > 0 && f.runs > f.full && f.cycles[1] > 0 &&
		     f.cycles[2] > f.cycles[1],
		 "%llu runs, %llu with all three phases",
		 (unsigned long long)f.runs, (unsigned long long)f.full);
	stop(&r);
}

typedef struct life {
	uint64_t fetch, fetch_wrong, dispatch, commit, squash, resolve;
	uint64_t last_commit_seq;
	int order_ok;
} life;

static void on_uop(void *arg, const pmk_sim_uop *u)
{
	life *l = arg;
	switch (u->what) {
	case PMK_SIM_UOP_FETCH:
		l->fetch++;
		l->fetch_wrong += (u->flags & PMK_SIM_F_WRONG) != 0;
		break;
	case PMK_SIM_UOP_DISPATCH:
		l->dispatch++;
		break;
	case PMK_SIM_UOP_COMMIT:
		l->commit++;
		if (u->seq < l->last_commit_seq ||
		    (u->flags & PMK_SIM_F_WRONG) ||
		    !(u->fetch_cycle < u->dispatch_cycle &&
		      u->dispatch_cycle < u->issue_cycle &&
		      u->issue_cycle < u->done_cycle &&
		      u->done_cycle <= u->cycle))
			l->order_ok = 0;
		l->last_commit_seq = u->seq;
		break;
	case PMK_SIM_UOP_SQUASH:
		l->squash++;
		if (!(u->flags & PMK_SIM_F_WRONG))
			l->order_ok = 0;
		break;
	case PMK_SIM_UOP_RESOLVE:
		l->resolve++;
		if (!(u->flags & PMK_SIM_F_MISPRED))
			l->order_ok = 0;
		break;
	}
}

static void test_instruction_lifetimes(void)
{
	/* every fetched instruction retires or is squashed, in order, with
	 * its stages in time order; one resolve per misprediction */
	run r;
	life l;
	pmk_sim_observer o = {NULL, on_uop, &l};
	memset(&l, 0, sizeof l);
	l.order_ok = 1;
	start(&r, "int-mix:n=20000", NULL);
	pmk_sim_set_observer(r.sim, &o);
	T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
	const pmk_sim_stats *st = pmk_sim_stats_get(r.sim);
	T_EQ_U64(l.commit, 20000);
	T_EQ_U64(l.fetch, l.commit + l.squash);
	T_EQ_U64(l.fetch_wrong, l.squash);
	T_EQ_U64(l.resolve, st->mispredicts);
	T_EQ_U64(l.dispatch, st->dispatched);
	T_CHECK(l.squash > 0);
	T_CHECK(l.order_ok);
	stop(&r);
}

typedef struct samples {
	uint64_t n, sum_pc, sum_cycle;
} samples;

static void count_sample(void *arg, const pmk_sim_sample *x)
{
	samples *s = arg;
	s->n++;
	s->sum_pc += x->pc;
	s->sum_cycle += x->cycle;
}

static void test_fast_forward_is_exact(void)
{
	const char *specs[] = {"pointer-chase:n=3000", "icache:n=5000",
			       "fp-compute:n=5000", "branchy:n=5000"};
	const char *ev[] = {"dispatch_stall:e", "rob_occupancy:c=100",
			    "mem_stall:i", "commit_stall:e:i"};
	for (int k = 0; k < 4; k++) {
		uint64_t a[8], b[8];
		samples sa, sb;
		for (int ff = 0; ff < 2; ff++) {
			run r;
			samples *sp = ff ? &sb : &sa;
			uint64_t *o = ff ? b : a;
			memset(sp, 0, sizeof *sp);
			start(&r, specs[k], NULL);
			pmk__sim_no_fast_forward(r.sim, !ff);
			for (int i = 0; i < 4; i++)
				program(&r, i, ev[i]);
			pmk_sim_set_sampler(r.sim, count_sample, sp);
			pmk_sim_profileme(r.sim, 50, 8, 3);
			T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
			for (int i = 0; i < 6; i++)
				o[i] = pmk_sim_counter_read(r.sim, i);
			o[6] = pmk_sim_stats_get(r.sim)->rob_full_cycles;
			o[7] = pmk_sim_stats_get(r.sim)->fe_stall_cycles;
			stop(&r);
		}
		T_CHECKF(memcmp(a, b, sizeof a) == 0, "%s differs", specs[k]);
		T_CHECK(sa.n == sb.n && sa.sum_pc == sb.sum_pc &&
			sa.sum_cycle == sb.sum_cycle);
	}
	/* with overflow sampling on a cycle event too */
	for (int ff = 0; ff < 2; ff++) {
		run r;
		static uint64_t n0;
		samples sp;
		memset(&sp, 0, sizeof sp);
		start(&r, "pointer-chase:n=2000", NULL);
		pmk__sim_no_fast_forward(r.sim, !ff);
		program(&r, 0, "cycles:period=997");
		pmk_sim_set_sampler(r.sim, count_sample, &sp);
		T_EQ_INT(pmk_sim_run(r.sim, 0), 0);
		if (!ff)
			n0 = sp.sum_cycle;
		else
			T_EQ_U64(sp.sum_cycle, n0);
		T_CHECK(sp.n > 10);
		stop(&r);
	}
}

/*
 * Straight-line code never run twice: 16-instruction blocks, each a load
 * from a random address of 64 MB (an L2 miss), 14 independent integer ops,
 * and a coin-flip branch on the loaded value that skips the next block when
 * taken. A mispredicted branch's wrong path is code the trace has not shown.
 */
typedef struct fresh {
	uint64_t k, rng, block;
} fresh;

static int fresh_next(void *arg, pmk_sim_insn *in)
{
	fresh *f = arg;
	uint32_t i = (uint32_t)(f->k++ % 16);
	if (f->k > 20000)
		return 0;
	memset(in, 0, sizeof *in);
	in->pc = 0x400000 + f->block * 64 + i * 4;
	in->len = 4;
	f->rng = f->rng * 6364136223846793005ull + 1442695040888963407ull;
	if (i == 0) {
		in->op = PMK_SIM_OP_LOAD;
		in->ndst = 1;
		in->dst[0] = 10;
		in->nmem = 1;
		in->mem[0].addr = 0x10000000 + ((f->rng >> 20) % (64 << 20));
		in->mem[0].size = 8;
	} else if (i < 15) {
		in->op = PMK_SIM_OP_INT;
		in->nsrc = 1;
		in->src[0] = (uint8_t)i;
		in->ndst = 1;
		in->dst[0] = (uint8_t)(20 + i);
	} else {
		in->op = PMK_SIM_OP_BCOND;
		in->nsrc = 1;
		in->src[0] = 10;
		in->taken = (f->rng >> 40) & 1;
		in->target = 0x400000 + (f->block + 2) * 64;
		f->block += in->taken ? 2 : 1;
	}
	return 1;
}

typedef struct wp_fill {
	uint64_t wrong, wrong_full, fetched_wrong;
} wp_fill;

static void on_wp_cycle(void *arg, const pmk_sim_cycle *c)
{
	wp_fill *w = arg;
	w->wrong += c->wrong_path;
	w->wrong_full += c->wrong_path && c->rob_full;
	w->fetched_wrong += c->fetched_wrong;
}

/* The wrong path goes on in code the trace has not shown (a real fetch unit
 * fetches whatever lies there), so it fills the window while the branch
 * waits for its load; it used to stop at the first unknown PC. */
static void test_wrong_path_fills_window(void)
{
	pmk_sim_config c;
	pmk_sim *sim = NULL;
	fresh f = {0, 99, 0};
	wp_fill w = {0};
	pmk_sim_observer o = {on_wp_cycle, NULL, &w};
	pmk_diag d;
	pmk_sim_config_default(&c);
	c.perfect = PMK_SIM_PERFECT_L1I | PMK_SIM_PERFECT_L2I |
		    PMK_SIM_PERFECT_ITLB;
	T_ASSERT(pmk_sim_new(&sim, &c, fresh_next, &f, &d) == 0);
	pmk_sim_set_observer(sim, &o);
	T_EQ_INT(pmk_sim_run(sim, 0), 0);
	T_CHECKF(w.wrong_full * 2 > w.wrong,
		 "%llu wrong-path cycles, %llu with the ROB full, %llu "
		 "wrong-path instructions fetched",
		 (unsigned long long)w.wrong, (unsigned long long)w.wrong_full,
		 (unsigned long long)w.fetched_wrong);
	T_CHECK(w.fetched_wrong > 10000);
	printf("# %llu wrong-path cycles, %llu with the ROB full\n",
	       (unsigned long long)w.wrong, (unsigned long long)w.wrong_full);
	pmk_sim_free(sim);
}

/* An empty source (a program traced from past its end, say) finishes at
 * once: the idle fast-forward used to run the clock to the end of time. */
static int no_insn(void *src, pmk_sim_insn *out)
{
	(void)src;
	(void)out;
	return 0;
}

static void test_empty_source_finishes(void)
{
	pmk_sim_config c;
	pmk_sim *sim = NULL;
	pmk_diag d;
	pmk_sim_config_default(&c);
	T_ASSERT(pmk_sim_new(&sim, &c, no_insn, NULL, &d) == 0);
	T_EQ_INT(pmk_sim_run(sim, 0), 0);
	T_EQ_U64(pmk_sim_stats_get(sim)->committed, 0);
	T_CHECK(pmk_sim_stats_get(sim)->cycles <= 1);
	pmk_sim_free(sim);
}

static void test_config_file(void)
{
	pmk_sim_config c;
	pmk_diag d;
	const char *good =
	    "# a 2-wide core\nfetch_width = 2\ndispatch_width=2\n"
	    "l1d.size = 32K\nbp = gshare\nperfect = l1i,bp\n";
	const char *bad_key = "rob_size = 64\nrob_sise = 64\n";
	const char *bad_val = "rob_size = 64\nl2.size = lots\n";
	const char *bad_geom = "l1d.size = 3000\n";
	pmk_sim_config_default(&c);
	T_EQ_INT(c.rob_size, 128);
	T_EQ_INT(c.dispatch_width, 4);
	T_ASSERT(pmk_sim_config_parse(&c, good, strlen(good), "g.cfg", &d) ==
		 0);
	T_EQ_INT(c.fetch_width, 2);
	T_EQ_INT(c.l1d.size_bytes, 32768);
	T_EQ_INT(c.bp_kind, PMK_SIM_BP_GSHARE);
	T_EQ_INT(c.perfect, PMK_SIM_PERFECT_L1I | PMK_SIM_PERFECT_BP);
	pmk_sim_config_default(&c);
	T_EQ_INT(
	    pmk_sim_config_parse(&c, bad_key, strlen(bad_key), "b.cfg", &d),
	    PMK_ENOENT);
	T_EQ_INT(d.line, 2);
	T_EQ_INT(d.column, 1);
	T_EQ_INT(c.rob_size, 128); /* nothing applied */
	T_EQ_INT(
	    pmk_sim_config_parse(&c, bad_val, strlen(bad_val), "b.cfg", &d),
	    PMK_EINVAL);
	T_EQ_INT(d.line, 2);
	T_EQ_INT(d.column, 11);
	T_EQ_INT(
	    pmk_sim_config_parse(&c, bad_geom, strlen(bad_geom), "b.cfg", &d),
	    PMK_EINVAL);
	/* the printed form reads back to the same configuration */
	char buf[8192];
	pmk_sim_config c2;
	c.rob_size = 96;
	c.perfect = PMK_SIM_PERFECT_DTLB;
	pmk_sim_config_format(&c, buf, sizeof buf);
	pmk_sim_config_default(&c2);
	T_ASSERT(pmk_sim_config_parse(&c2, buf, strlen(buf), "f", &d) == 0);
	T_CHECK(memcmp(&c, &c2, sizeof c) == 0);
}

static void test_counter_strings(void)
{
	pmk_sim_counter_cfg c, c2;
	pmk_diag d;
	T_ASSERT(pmk_sim_counter_parse("sim/inst_retired:c=2:e:u", &c, &d) ==
		 0);
	T_EQ_INT(c.thresh, 2);
	T_EQ_INT(c.edge, 1);
	T_EQ_INT(c.usr, 1);
	T_EQ_INT(c.os, 0);
	pmk_sim_counter_decode(pmk_sim_counter_encode(&c), &c2);
	T_EQ_INT(c2.event, c.event);
	T_EQ_INT(c2.thresh, 2);
	T_EQ_INT(c2.edge, 1);
	T_EQ_INT(pmk_sim_counter_parse("inst_retird", &c, &d), PMK_ENOEVENT);
	T_EQ_INT(d.column, 1);
	T_EQ_INT(pmk_sim_counter_parse("cycles:q", &c, &d), PMK_ENOEVENT);
	T_EQ_INT(d.column, 8);
}

int main(void)
{
	T_RUN(test_stall_cycles_and_stalls);
	T_RUN(test_threshold_counts_cycles_with_3_or_more);
	T_RUN(test_speculative_exceeds_nonspeculative);
	T_RUN(test_privilege_qualification_and_mask);
	T_RUN(test_skid_spreads_profileme_lands);
	T_RUN(test_deterministic);
	T_RUN(test_idealization_switches);
	T_RUN(test_wrong_path_icache_events);
	T_RUN(test_instruction_lifetimes);
	T_RUN(test_fast_forward_is_exact);
	T_RUN(test_fetch_stall_phases);
	T_RUN(test_wrong_path_fills_window);
	T_RUN(test_empty_source_finishes);
	T_RUN(test_config_file);
	T_RUN(test_counter_strings);
	return t_done();
}
