/*
 * test_cpistack.c: the CPI-stack accountants and references on small,
 * deterministic runs of the simulated core.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmkit.h"
#include "tests/support/t.h"

static char path[64];

/*
 * A trace with only branch mispredictions: 16 blocks of 7 independent
 * integer ops and a conditional branch whose outcome is a coin flip (taken
 * skips the next block). The code fits in one I-cache way; no memory ops.
 */
static int write_branch_trace(const char *p, int n)
{
	pmk_trace_writer *w;
	pmk_diag d = {0};
	uint64_t base = 0x400000, rng = 12345;
	int blk = 0, k = 0;
	if (pmk_trace_create(&w, p, &d) < 0)
		return -1;
	while (k < n) {
		for (int i = 0; i < 8 && k < n; i++, k++) {
			pmk_sim_insn in;
			memset(&in, 0, sizeof in);
			in.pc = base + (uint64_t)blk * 32 + (uint64_t)i * 4;
			in.len = 4;
			if (i < 7) {
				in.op = PMK_SIM_OP_INT;
				in.nsrc = 1;
				in.src[0] = (uint8_t)(10 + i);
				in.ndst = 1;
				in.dst[0] = (uint8_t)(20 + i);
				pmk_trace_write(w, &in);
				continue;
			}
			rng = rng * 6364136223846793005ull +
			      1442695040888963407ull;
			in.op = PMK_SIM_OP_BCOND;
			in.taken = (rng >> 40) & 1;
			in.target = base + (uint64_t)((blk + 2) % 16) * 32;
			pmk_trace_write(w, &in);
			blk = in.taken ? (blk + 2) % 16 : blk + 1;
			if (blk == 16) {
				blk = 0;
				/* wrap: the fall-through of block 15 is block
				 * 16; make it a jump back instead */
			}
		}
	}
	return pmk_trace_finish(w);
}

static double sum(const double *v)
{
	double s = 0;
	for (int k = 0; k < PMK_CPI_NCOMP; k++)
		s += v[k];
	return s;
}

static void test_branch_only(void)
{
	pmk_sim_config c;
	pmk_cpistack s;
	pmk_diag d = {0};
	int rc;
	pmk_sim_config_default(&c);
	T_ASSERT(write_branch_trace(path, 40000) == 0);
	rc = pmk_cpistack_run(&c, path, PMK_TRACE_PMKIT, 1, 0, &s, &d);
	T_ASSERT(rc == 0);
	T_CHECK(s.insns >= 40000);
	/* the branch component is the largest miss component, by far */
	for (int k = PMK_CPI_L1I; k < PMK_CPI_NCOMP; k++)
		T_CHECKF(s.stack[PMK_CPI_FMT][PMK_CPI_BRANCH] >
			     5 * s.stack[PMK_CPI_FMT][k],
			 "branch %g vs %s %g",
			 s.stack[PMK_CPI_FMT][PMK_CPI_BRANCH],
			 pmk_cpi_comp_name(k), s.stack[PMK_CPI_FMT][k]);
	/* it explains most of the gap from the ideal CPI */
	T_CHECKF(s.stack[PMK_CPI_FMT][PMK_CPI_BRANCH] >
		     0.6 * (s.cpi - s.ideal_cpi),
		 "branch %g, cpi %g, ideal %g",
		 s.stack[PMK_CPI_FMT][PMK_CPI_BRANCH], s.cpi, s.ideal_cpi);
	/* and base stays near the ideal CPI (within 25 % of it) */
	T_NEAR(s.stack[PMK_CPI_FMT][PMK_CPI_BASE], s.ideal_cpi,
	       0.25 * s.ideal_cpi);
	/* branch penalty is more than the front-end depth (resolution time
	 * counts): FMT's branch part exceeds naive's */
	T_CHECK(s.stack[PMK_CPI_FMT][PMK_CPI_BRANCH] >
		s.stack[PMK_CPI_NAIVE_NONSPEC][PMK_CPI_BRANCH]);
	/* every misprediction costs at least the front-end refill */
	T_CHECKF(s.counts.comp[PMK_CPI_FMT][PMK_CPI_BRANCH] >=
		     (double)s.counts.events[1][PMK_CPI_BRANCH] * c.fe_depth,
		 "%g branch cycles for %llu mispredictions",
		 s.counts.comp[PMK_CPI_FMT][PMK_CPI_BRANCH],
		 (unsigned long long)s.counts.events[1][PMK_CPI_BRANCH]);
	T_CHECK(s.counts.events[1][PMK_CPI_BRANCH] > 1000);
	/* POWER5 sees only the zero-issue refill: it undercounts */
	T_CHECK(s.stack[PMK_CPI_POWER5][PMK_CPI_BRANCH] <
		s.stack[PMK_CPI_FMT][PMK_CPI_BRANCH]);
	unlink(path);
}

/*
 * An observer beside the accountants: it forwards every event to them and
 * measures, independently, what the FMT rules say they must count.
 */
typedef struct watch {
	pmk_sim_observer acct;
	/* mispredicted correct-path branches in the window: dispatch cycle,
	 * resolved yet */
	uint64_t win_d[8];
	int win_res[8], nwin;
	uint64_t penalty;   /* sum of (first correct dispatch - dispatch - 1) */
	uint64_t back2back; /* a misprediction dispatched in the cycle the
			     * previous one's refill ended */
	uint64_t resolves, resolve_late, squash_early, last_resolve_cycle;
	uint64_t fe_right, fe_all; /* I-side stall cycles the back end leaves */
	/* cycles inside the windows: back-end (ROB full, head blocked), in a
	 * long miss's shadow (ROB not full, head waiting on an L2 or D-TLB
	 * miss), the rest; and all back-end cycles of the D side */
	uint64_t win_be, win_shadow, win_plain, be_dside;
} watch;

static void watch_uop(void *arg, const pmk_sim_uop *u)
{
	watch *w = arg;
	w->acct.uop(w->acct.arg, u);
	switch (u->what) {
	case PMK_SIM_UOP_DISPATCH:
		if ((u->flags & PMK_SIM_F_MISPRED) &&
		    !(u->flags & PMK_SIM_F_WRONG) && w->nwin < 8) {
			w->win_d[w->nwin] = u->cycle;
			w->win_res[w->nwin++] = 0;
		}
		break;
	case PMK_SIM_UOP_RESOLVE:
		w->resolves++;
		w->last_resolve_cycle = u->cycle;
		/* resolution is the branch's completion cycle */
		if (u->cycle != u->done_cycle || !w->nwin)
			w->resolve_late++;
		else
			w->win_res[0] = 1;
		break;
	case PMK_SIM_UOP_SQUASH:
		/* the squashes follow their resolution, in its cycle */
		if (w->last_resolve_cycle != u->cycle)
			w->squash_early++;
		break;
	}
}

static void watch_cycle(void *arg, const pmk_sim_cycle *c)
{
	watch *w = arg;
	int good = c->dispatched - c->dispatched_wrong;
	int hc = c->head_cause;
	int be = c->rob_full && hc >= PMK_SIM_CAUSE_L1D;
	int fe =
	    c->fe_cause >= PMK_SIM_FE_L1I && c->fe_cause <= PMK_SIM_FE_ITLB;
	w->acct.cycle(w->acct.arg, c);
	if (be && hc != PMK_SIM_CAUSE_LONGLAT)
		w->be_dside++;
	if (w->nwin && c->cycle > w->win_d[0] && !(w->win_res[0] && good > 0)) {
		if (be)
			w->win_be++;
		else if (hc == PMK_SIM_CAUSE_L2D || hc == PMK_SIM_CAUSE_DTLB)
			w->win_shadow++;
		else
			w->win_plain++;
	}
	if (w->nwin && w->win_res[0] && good > 0) {
		w->penalty += c->cycle - w->win_d[0] - 1;
		if (w->nwin > 1 && w->win_d[1] == c->cycle)
			w->back2back++;
		memmove(w->win_d, w->win_d + 1, sizeof w->win_d[0] * 7);
		memmove(w->win_res, w->win_res + 1, sizeof w->win_res[0] * 7);
		w->nwin--;
	}
	if (fe && !be) {
		w->fe_all++;
		w->fe_right += !c->wrong_path;
	}
}

/* Run `what` to its end under the accountants and the watch. */
static int watch_run(const pmk_sim_config *c, const char *what, watch *w,
		     pmk_cpi_counts *out)
{
	pmk_sim_source *src = NULL;
	pmk_sim *sim = NULL;
	pmk_cpi_acct *a = NULL;
	pmk_sim_observer o = {watch_cycle, watch_uop, w};
	pmk_diag d = {0};
	int rc;
	memset(w, 0, sizeof *w);
	if ((rc = pmk_sim_source_open(&src, what, 0, &d)) < 0)
		return rc;
	if ((rc = pmk_sim_new(&sim, c, pmk_sim_source_next, src, &d)) < 0 ||
	    (rc = pmk_cpi_acct_new(&a, c)) < 0)
		goto out;
	pmk_cpi_acct_observer(a, &w->acct);
	pmk_sim_set_observer(sim, &o);
	rc = pmk_sim_run(sim, 0);
	if (rc == 0)
		pmk_cpi_acct_finish(a, out);
out:
	pmk_cpi_acct_free(a);
	pmk_sim_free(sim);
	pmk_sim_source_close(src);
	return rc;
}

/*
 * Only mispredictions (everything else idealized): every cycle is
 * chargeable, so the FMT's branch cycles are exactly the sum, over the
 * mispredictions, of the cycles from the one after the branch entered the
 * ROB to the one before the first correct-path instruction entered it,
 * including the mispredictions dispatched in the very cycle the previous
 * one's refill ended (their penalties once went missing). The core resolves
 * a misprediction in the branch's completion cycle, before the squashes.
 */
static void test_fmt_branch_windows(void)
{
	pmk_sim_config c;
	pmk_cpi_counts k;
	watch w;
	pmk_sim_config_default(&c);
	for (int i = 1; i < PMK_CPI_NCOMP; i++)
		if (i != PMK_CPI_BRANCH)
			c.perfect |= pmk_cpi_comp_perfect(i);
	T_ASSERT(watch_run(&c, "branchy:n=20000", &w, &k) == 0);
	T_CHECK(w.resolves > 500);
	T_EQ_U64(w.resolve_late, 0);
	T_EQ_U64(w.squash_early, 0);
	T_CHECKF(w.back2back > 0, "back-to-back mispredictions: %llu",
		 (unsigned long long)w.back2back);
	T_EQ_U64(w.nwin, 0);
	T_NEAR(k.comp[PMK_CPI_FMT][PMK_CPI_BRANCH], (double)w.penalty, 0.5);
	T_NEAR(k.comp[PMK_CPI_SFMT][PMK_CPI_BRANCH], (double)w.penalty, 0.5);
}

/*
 * Mispredictions and D-side misses real, the rest idealized. A window
 * cycle in which the ROB is not full but its head waits on a long miss (L2
 * or D-TLB) is in the miss's shadow. The seed's FMT charges it to the
 * branch (overlap goes to the front end unless the ROB is full): its branch
 * cycles are all the window cycles that are not back-end ones, its D side
 * exactly the back-end cycles. The overlap variant charges it to the miss:
 * its branch cycles are the window cycles neither back-end nor shadowed,
 * its D side the back-end plus the shadowed cycles.
 */
static void test_fmt_shadow_of_long_misses(void)
{
	pmk_sim_config c;
	pmk_cpi_counts k;
	watch w;
	pmk_sim_config_default(&c);
	for (int i = 1; i < PMK_CPI_NCOMP; i++)
		if (i != PMK_CPI_BRANCH && i != PMK_CPI_L1D &&
		    i != PMK_CPI_L2D && i != PMK_CPI_DTLB)
			c.perfect |= pmk_cpi_comp_perfect(i);
	T_ASSERT(watch_run(&c, "int-mix:n=20000", &w, &k) == 0);
	printf("# window cycles: %llu back end, %llu shadowed, %llu branch\n",
	       (unsigned long long)w.win_be, (unsigned long long)w.win_shadow,
	       (unsigned long long)w.win_plain);
	T_CHECK(w.win_shadow > 1000);
	T_NEAR(k.comp[PMK_CPI_FMT][PMK_CPI_BRANCH],
	       (double)(w.win_plain + w.win_shadow), 0.5);
	T_NEAR(k.comp[PMK_CPI_FMT][PMK_CPI_L1D] +
		   k.comp[PMK_CPI_FMT][PMK_CPI_L2D] +
		   k.comp[PMK_CPI_FMT][PMK_CPI_DTLB],
	       (double)w.be_dside, 0.5);
	T_NEAR(k.comp[PMK_CPI_FMT_OV][PMK_CPI_BRANCH], (double)w.win_plain, 0.5);
	T_NEAR(k.comp[PMK_CPI_FMT_OV][PMK_CPI_L1D] +
		   k.comp[PMK_CPI_FMT_OV][PMK_CPI_L2D] +
		   k.comp[PMK_CPI_FMT_OV][PMK_CPI_DTLB],
	       (double)(w.be_dside + w.win_shadow), 0.5);
}

/*
 * I-side stalls on a wrong path land in wrong-path FMT entries, which the
 * resolution discards: the FMT's I-side components are exactly the
 * correct-path stall cycles the back end does not claim; the shared FMT,
 * which cannot discard, counts the wrong-path ones too.
 */
static void test_fmt_discards_wrong_path(void)
{
	pmk_sim_config c;
	pmk_cpi_counts k;
	watch w;
	double fmt_i, sfmt_i;
	pmk_sim_config_default(&c);
	T_ASSERT(watch_run(&c, "branchy:n=20000", &w, &k) == 0);
	fmt_i = k.comp[PMK_CPI_FMT][PMK_CPI_L1I] +
		k.comp[PMK_CPI_FMT][PMK_CPI_L2I] +
		k.comp[PMK_CPI_FMT][PMK_CPI_ITLB];
	sfmt_i = k.comp[PMK_CPI_SFMT][PMK_CPI_L1I] +
		 k.comp[PMK_CPI_SFMT][PMK_CPI_L2I] +
		 k.comp[PMK_CPI_SFMT][PMK_CPI_ITLB];
	T_CHECKF(w.fe_all > w.fe_right,
		 "I-side stall cycles: %llu, %llu "
		 "on the correct path",
		 (unsigned long long)w.fe_all, (unsigned long long)w.fe_right);
	T_NEAR(fmt_i, (double)w.fe_right, 0.5);
	T_NEAR(sfmt_i, (double)w.fe_all, 0.5);
}

/*
 * fmt-wp, the extension for a wrong path that fetches the correct path's
 * code: the seed's FMT with some of the branch's cycles moved to the I
 * side, no more than the wrong-path I-side stall cycles the back end left,
 * and everything else the same. On branchy (whose two paths out of a
 * branch are a few instructions apart) some do move.
 */
static void test_fmt_wp_moves_wrong_path_stalls(void)
{
	pmk_sim_config c;
	pmk_cpi_counts k;
	watch w;
	double moved = 0;
	pmk_sim_config_default(&c);
	T_ASSERT(watch_run(&c, "branchy:n=20000", &w, &k) == 0);
	for (int i = PMK_CPI_L1I; i <= PMK_CPI_ITLB; i++) {
		double d = k.comp[PMK_CPI_FMT_WP][i] - k.comp[PMK_CPI_FMT][i];
		T_CHECK(d >= 0);
		moved += d;
	}
	printf("# %.0f wrong-path I-side stall cycles of %llu moved\n", moved,
	       (unsigned long long)(w.fe_all - w.fe_right));
	T_CHECK(moved > 0);
	T_CHECK(moved <= (double)(w.fe_all - w.fe_right));
	T_NEAR(k.comp[PMK_CPI_FMT][PMK_CPI_BRANCH] -
		   k.comp[PMK_CPI_FMT_WP][PMK_CPI_BRANCH],
	       moved, 1e-9);
	for (int i = 0; i < PMK_CPI_NCOMP; i++)
		if (i == PMK_CPI_BASE || i >= PMK_CPI_L1D)
			T_NEAR(k.comp[PMK_CPI_FMT_WP][i], k.comp[PMK_CPI_FMT][i],
			       1e-9);
}

static void test_stacks_add_up(void)
{
	pmk_sim_config c;
	pmk_cpistack s;
	pmk_diag d = {0};
	pmk_sim_config_default(&c);
	T_ASSERT(pmk_cpistack_run(&c, "int-mix:n=20000,seed=3", 0, 1, 0, &s,
				  &d) == 0);
	T_EQ_INT(s.runs, 16);
	for (int m = 0; m < PMK_CPI_NMETHOD; m++) {
		T_CHECK(s.have[m]);
		T_NEAR(sum(s.stack[m]), s.cpi, 1e-9 * s.cpi);
	}
	/* the references share the ideal base and the real total */
	T_NEAR(s.stack[PMK_CPI_SIM][PMK_CPI_BASE], s.ideal_cpi, 1e-12);
	T_NEAR(s.stack[PMK_CPI_SIM_INV][PMK_CPI_BASE], s.ideal_cpi, 1e-12);
	/* counted cycles: FMT and POWER5 components never exceed the run */
	for (int k = 1; k < PMK_CPI_NCOMP; k++) {
		T_CHECK(s.counts.comp[PMK_CPI_FMT][k] >= 0);
		T_CHECK(s.counts.comp[PMK_CPI_POWER5][k] >= 0);
	}
	T_CHECK(s.counts.comp[PMK_CPI_FMT][PMK_CPI_BASE] >= 0);
	/* naive counts wrong-path events too */
	for (int k = 1; k < PMK_CPI_NCOMP; k++)
		T_CHECK(s.counts.events[0][k] >= s.counts.events[1][k]);
	T_CHECK(s.counts.cycles == s.cycles);
}

/* Two kinds of miss that hardly overlap (long-latency units and branch
 * mispredictions, the memory side idealized): both orders agree closely. */
static void test_sim_inv_consistent(void)
{
	pmk_sim_config c;
	pmk_cpistack s;
	pmk_diag d = {0};
	double avg, mx;
	pmk_sim_config_default(&c);
	c.perfect = PMK_SIM_PERFECT_DTLB | PMK_SIM_PERFECT_L1I |
		    PMK_SIM_PERFECT_L2I | PMK_SIM_PERFECT_ITLB |
		    PMK_SIM_PERFECT_L1D | PMK_SIM_PERFECT_L2D;
	T_ASSERT(pmk_cpistack_run(&c, "fp-compute:n=20000", 0, 1, 0, &s, &d) ==
		 0);
	mx = pmk_cpistack_error(&s, PMK_CPI_SIM_INV, PMK_CPI_SIM, &avg);
	T_CHECKF(mx < 3, "sim vs sim-inv %g %%", mx);
	T_CHECK(avg <= mx);
	/* what the user idealized stays out of every stack */
	T_NEAR(s.stack[PMK_CPI_SIM][PMK_CPI_ITLB], 0, 1e-12);
	T_NEAR(s.stack[PMK_CPI_FMT][PMK_CPI_L1I], 0, 1e-12);
	/* long latency dominates this workload in every reference */
	T_CHECK(s.stack[PMK_CPI_SIM][PMK_CPI_LONGLAT] > 0.3 * s.cpi);
	T_CHECK(s.stack[PMK_CPI_FMT][PMK_CPI_LONGLAT] > 0.3 * s.cpi);
}

/*
 * Seed 001's bar (4 % maximum, 2.5 % average component error, in % of total
 * CPI) against the band between Sim and Sim inv, on the 12 presets as
 * docs/cpistack.md reports them (200,000 instructions, default core). The
 * floors are what is met today: the seed's FMT on 10 presets (not stream,
 * branchy; docs/cpistack.md says why), sFMT on 10 (not stream, kernel-mix),
 * fmt-ov on 8, the extension fmt-wp on 11 (not stream).
 */
static void test_presets_within_bar(void)
{
	static const char *const presets[] = {
	    "pointer-chase", "random-load", "stream",	  "branchy",
	    "fp-compute",    "icache",	    "int-mix",	  "int-memory",
	    "int-compress",  "kernel-mix",  "miss-load", "ilp"};
	static const int method[] = {PMK_CPI_FMT, PMK_CPI_SFMT, PMK_CPI_FMT_OV,
				     PMK_CPI_FMT_WP},
			 floor[] = {10, 10, 8, 11};
	int met[4] = {0};
	char out[4][200] = {"", "", "", ""};
	for (int i = 0; i < 12; i++) {
		pmk_sim_config c;
		pmk_cpistack s;
		pmk_diag d = {0};
		pmk_sim_config_default(&c);
		T_ASSERT(pmk_cpistack_run(&c, presets[i], 0, 1, 200000, &s,
					  &d) == 0);
		for (int m = 0; m < 4; m++) {
			double avg, mx = pmk_cpistack_error_band(&s, method[m],
								  &avg);
			size_t l = strlen(out[m]);
			if (mx <= 4 && avg <= 2.5)
				met[m]++;
			else
				snprintf(out[m] + l, sizeof out[m] - l,
					 " %s %.1f/%.1f", presets[i], mx, avg);
		}
	}
	for (int m = 0; m < 4; m++) {
		printf("# %s within the bar of the band on %d of 12; over:%s\n",
		       pmk_cpi_method_name(method[m]), met[m], out[m]);
		T_CHECKF(met[m] >= floor[m], "%s: %d presets within the bar",
			 pmk_cpi_method_name(method[m]), met[m]);
	}
}

static void test_deterministic(void)
{
	pmk_sim_config c;
	pmk_cpistack a, b;
	pmk_diag d = {0};
	pmk_sim_config_default(&c);
	T_ASSERT(pmk_cpistack_run(&c, "branchy:n=10000", 0, 0, 0, &a, &d) == 0);
	T_ASSERT(pmk_cpistack_run(&c, "branchy:n=10000", 0, 0, 0, &b, &d) == 0);
	T_EQ_INT(a.runs, 1);
	T_CHECK(!a.have[PMK_CPI_SIM]);
	T_CHECK(memcmp(a.stack, b.stack, sizeof a.stack) == 0);
	T_CHECK(isnan(pmk_cpistack_error(&a, PMK_CPI_FMT, PMK_CPI_SIM, NULL)));
}

static void test_error_math(void)
{
	pmk_cpistack s;
	double avg;
	memset(&s, 0, sizeof s);
	s.have[PMK_CPI_SIM] = s.have[PMK_CPI_FMT] = 1;
	s.stack[PMK_CPI_SIM][PMK_CPI_BASE] = 1.0;
	s.stack[PMK_CPI_SIM][PMK_CPI_L2D] = 1.0;
	s.stack[PMK_CPI_FMT][PMK_CPI_BASE] = 0.9;
	s.stack[PMK_CPI_FMT][PMK_CPI_L2D] = 1.1;
	/* 0.1 of 2.0 = 5 % on two components of nine */
	T_NEAR(pmk_cpistack_error(&s, PMK_CPI_FMT, PMK_CPI_SIM, &avg), 5.0,
	       1e-9);
	T_NEAR(avg, 10.0 / 9, 1e-9);
	T_NEAR(pmk_cpistack_bound(&s, PMK_CPI_FMT, PMK_CPI_L2D), 0.55, 1e-12);
	T_EQ_INT(pmk_cpi_method_find("naive-nonspec"), PMK_CPI_NAIVE_NONSPEC);
	T_EQ_INT(pmk_cpi_method_find("nope"), PMK_ENOENT);
	T_EQ_STR(pmk_cpi_comp_name(PMK_CPI_DTLB), "dtlb");
}

static void test_orders(void)
{
	int a[PMK_CPI_NCOMP - 1], b[PMK_CPI_NCOMP - 1];
	uint32_t seen = 0;
	pmk_cpi_ref_order(0, a);
	pmk_cpi_ref_order(1, b);
	T_EQ_INT(a[0], PMK_CPI_BRANCH);
	T_EQ_INT(b[PMK_CPI_NCOMP - 2], PMK_CPI_BRANCH);
	for (int i = 0; i < PMK_CPI_NCOMP - 1; i++)
		seen |= pmk_cpi_comp_perfect(a[i]);
	T_EQ_INT(__builtin_popcount(seen), PMK_CPI_NCOMP - 1);
}

static void test_bad_source(void)
{
	pmk_sim_config c;
	pmk_cpistack s;
	pmk_diag d = {0};
	pmk_sim_config_default(&c);
	T_CHECK(pmk_cpistack_run(&c, "no-such-workload", 0, 1, 0, &s, &d) < 0);
	T_CHECK(pmk_cpistack_run(&c, "-", 0, 1, 0, &s, &d) == PMK_EINVAL);
	T_CHECK(strstr(d.message, "stdin") != NULL);
}

int main(void)
{
	snprintf(path, sizeof path, "/tmp/pmk_cpi_%d.trace", (int)getpid());
	T_RUN(test_branch_only);
	T_RUN(test_fmt_branch_windows);
	T_RUN(test_fmt_discards_wrong_path);
	T_RUN(test_fmt_shadow_of_long_misses);
	T_RUN(test_fmt_wp_moves_wrong_path_stalls);
	T_RUN(test_stacks_add_up);
	T_RUN(test_sim_inv_consistent);
	T_RUN(test_presets_within_bar);
	T_RUN(test_deterministic);
	T_RUN(test_error_math);
	T_RUN(test_orders);
	T_RUN(test_bad_source);
	return t_done();
}
