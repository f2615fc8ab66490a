/*
 * acct.c: the CPI-stack accountants, watching one run of the simulated core.
 *
 * All of them listen to the same observer callbacks: per-instruction events
 * (fetch, dispatch, commit, squash) and, at the end of each cycle, the
 * cycle's signals. Each cycle is charged by each method to at most one
 * component; base is what is left.
 *
 * FMT (front-end miss event table, Eyerman et al.): a circular table with
 * one entry per branch in flight, wrong-path branches included, in fetch
 * order. The newest entry is the one at the fetch pointer: it collects the
 * I-side stall cycles (L1I, L2I, I-TLB) of the block being fetched, and the
 * branch that ends the block closes it (the fetch pointer moves to a fresh
 * entry). Dispatching a branch moves the dispatch tail over its entry and
 * records its ROB id; from that cycle on the entry's branch-penalty counter
 * counts the cycles the branch spends in the window. When a mispredicted
 * branch resolves (the core's RESOLVE event), its entry is found by ROB id,
 * the mispredict bit is set, and the dispatch tail and fetch pointer are
 * rolled back to it: the younger (wrong-path) entries and their counts are
 * discarded. Its penalty keeps counting until the first correct-path
 * instruction enters the ROB. At commit (dispatch head) the entry's I-side
 * counters go to the global ones, and its branch counter too when the
 * mispredict bit is set.
 *
 * Back end: a cycle in which the ROB is full and its head is blocked by an
 * L1D, L2D or D-TLB miss or a long-latency unit is charged to that cause.
 * In a mispredicted branch's window, a cycle with a long miss at the head
 * of a non-full ROB goes to the miss too (shadow(), docs/cpistack.md
 * choice 11).
 * Such a cycle is charged to nothing else (front-end and branch counting
 * pause), following interval analysis. A correct-path I-side stall cycle is
 * charged to the I-side only, so that a miss on the refill path after a
 * misprediction is not also counted as branch penalty.
 *
 * Branch counters are kept as a stamp of a running count of chargeable
 * cycles, which gives each entry exactly the value of a per-entry counter
 * incremented every such cycle.
 *
 * fmt-wp, an extension (docs/cpistack.md, "fmt-wp"): the wrong-path I-side
 * stall cycles of a mispredicted branch's window are kept per line at the
 * resolution instead of being dropped; when the correct path later fetches
 * that line (the wrong path brought it, or is bringing it), they move from
 * the branch to the I side. The rest of FMT is unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "pmkit/cpistack.h"

typedef struct fmt_e {
	uint64_t seq;		 /* the branch closing this entry */
	uint64_t l1i, l2i, itlb; /* local I-side stall cycles */
	uint64_t snap, snap2;	 /* chargeable-cycle stamps at dispatch */
	/* stamps of the shadowed cycles (see shadow()), per component */
	uint64_t ssh[PMK_CPI_NCOMP], ssh2[PMK_CPI_NCOMP];
	/* a mispredicted branch's penalty, once known: [BRANCH] its own,
	 * [other] the shadowed cycles going to that back-end component */
	uint64_t pen[PMK_CPI_NCOMP], pen2[PMK_CPI_NCOMP];
	uint64_t disp_cycle;
	uint32_t rob_id;
	uint8_t mispred, wrong, dispatched, bp_known;
} fmt_e;

/* fmt-wp: a run of wrong-path I-side stall cycles on one line */
typedef struct wp_run {
	uint64_t line, first, n;
	int comp;
} wp_run;

/* fmt-wp: cycles waiting for a line on a wrong path, by component */
typedef struct wp_line {
	uint64_t tag; /* line + 1; 0 free */
	uint64_t c[3];
} wp_line;

struct pmk_cpi_acct {
	pmk_sim_config cfg;
	fmt_e *t;
	uint64_t cap;		   /* power of two */
	uint64_t head, disp, open; /* absolute indices */
	uint64_t chg, chg2;	   /* chargeable cycles: FMT, sFMT */
	/* the shadowed ones among them, per back-end component */
	uint64_t sh[PMK_CPI_NCOMP], sh2[PMK_CPI_NCOMP];
	uint64_t cycles, insns, overlap;
	/* fetch is past a mispredicted branch (only for closing the run) */
	int fetch_wrong;
	/* the resolved mispredicted branch whose refill is not over: at most
	 * one (the next one enters the ROB with the refill's end at the
	 * earliest), kept apart from its entry so that a mispredicted branch
	 * dispatched in the refill's last cycle starts its own count */
	int rf, rf_committed;
	uint64_t rf_abs, rf_snap, rf_snap2;
	uint64_t rf_ssh[PMK_CPI_NCOMP], rf_ssh2[PMK_CPI_NCOMP];
	/* global counters */
	uint64_t fmt[PMK_CPI_NCOMP], sfmt[PMK_CPI_NCOMP], p5[PMK_CPI_NCOMP];
	/* shadowed cycles the overlap variant took from the branch */
	uint64_t moved[PMK_CPI_NCOMP], moved2[PMK_CPI_NCOMP];
	/* what each ROB slot holds (from dispatch), and the head's slot */
	struct slot {
		uint64_t issue;
		uint16_t flags;
	} * rob;
	uint32_t rob_head;
	/* POWER5: what an empty ROB waits on */
	int p5_reason;
	/* naive event counts [0] all, [1] committed; long-latency penalty
	 * sums in cycles */
	uint64_t ev[2][PMK_CPI_NCOMP];
	uint64_t ll_pen[2];
	int spec_override;
	uint64_t spec_ev[PMK_CPI_NCOMP];
	/* fmt-wp: the current wrong path's stall runs; lines waiting for
	 * the correct path (as many as the L1I has lines); the cycles moved
	 * from the branch to the I side */
	wp_run *wr;
	uint64_t nwr, wrcap;
	wp_line *wl;
	uint64_t nwl;
	uint32_t line_shift;
	uint64_t wp_moved[PMK_CPI_NCOMP];
};

static fmt_e *ent(pmk_cpi_acct *a, uint64_t abs)
{
	return &a->t[abs & (a->cap - 1)];
}

int pmk_cpi_acct_new(pmk_cpi_acct **out, const pmk_sim_config *cfg)
{
	pmk_cpi_acct *a = calloc(1, sizeof *a);
	uint64_t need, cap = 16;
	*out = NULL;
	if (!a)
		return PMK_ENOMEM;
	a->cfg = *cfg;
	/* every instruction in the ROB and the front-end queue could be a
	 * branch, plus the open entry */
	need = (uint64_t)cfg->rob_size +
	       (uint64_t)cfg->fe_depth * cfg->fetch_width + cfg->fetch_width +
	       8;
	while (cap < need)
		cap <<= 1;
	a->cap = cap;
	a->t = calloc(cap, sizeof *a->t);
	if (!a->t) {
		free(a);
		return PMK_ENOMEM;
	}
	a->rob = calloc(cfg->rob_size ? cfg->rob_size : 1, sizeof *a->rob);
	if (!a->rob) {
		free(a->t);
		free(a);
		return PMK_ENOMEM;
	}
	a->nwl = cfg->l1i.line_bytes ? cfg->l1i.size_bytes / cfg->l1i.line_bytes
				      : 0;
	if (!a->nwl)
		a->nwl = 1;
	while ((1u << a->line_shift) < cfg->l1i.line_bytes &&
	       a->line_shift < 20)
		a->line_shift++;
	a->wl = calloc(a->nwl, sizeof *a->wl);
	if (!a->wl) {
		free(a->rob);
		free(a->t);
		free(a);
		return PMK_ENOMEM;
	}
	a->p5_reason = PMK_CPI_BASE;
	*out = a;
	return 0;
}

void pmk_cpi_acct_free(pmk_cpi_acct *a)
{
	if (!a)
		return;
	free(a->t);
	free(a->rob);
	free(a->wr);
	free(a->wl);
	free(a);
}

/* fmt-wp: one more wrong-path I-side stall cycle, on the line of `pc` */
static void wp_note(pmk_cpi_acct *a, uint64_t pc, uint64_t cycle, int comp)
{
	uint64_t line = pc >> a->line_shift;
	wp_run *r = a->nwr ? &a->wr[a->nwr - 1] : NULL;
	if (r && r->line == line && r->comp == comp &&
	    r->first + r->n == cycle) {
		r->n++;
		return;
	}
	if (a->nwr == a->wrcap) {
		uint64_t c = a->wrcap ? a->wrcap * 2 : 64;
		wp_run *n = realloc(a->wr, c * sizeof *n);
		if (!n)
			return; /* out of memory: the cycle stays the branch's */
		a->wr = n;
		a->wrcap = c;
	}
	a->wr[a->nwr++] = (wp_run){line, cycle, 1, comp};
}

/* fmt-wp: a mispredicted branch dispatched in cycle `disp` resolved: its
 * window's wrong-path stall cycles (from the cycle after its dispatch) wait,
 * per line, for the correct path to fetch that line. */
static void wp_resolve(pmk_cpi_acct *a, uint64_t disp)
{
	for (uint64_t i = 0; i < a->nwr; i++) {
		wp_run *r = &a->wr[i];
		uint64_t last = r->first + r->n - 1, n;
		wp_line *l = &a->wl[r->line % a->nwl];
		if (last <= disp)
			continue;
		n = r->first > disp ? r->n : last - disp;
		if (l->tag != r->line + 1) {
			memset(l, 0, sizeof *l);
			l->tag = r->line + 1;
		}
		l->c[r->comp - PMK_CPI_L1I] += n;
	}
	a->nwr = 0;
}

/* fmt-wp: the correct path fetches from the line of `pc` */
static void wp_use(pmk_cpi_acct *a, uint64_t pc)
{
	uint64_t line = pc >> a->line_shift;
	wp_line *l = &a->wl[line % a->nwl];
	if (l->tag != line + 1)
		return;
	for (int k = 0; k < 3; k++)
		a->wp_moved[PMK_CPI_L1I + k] += l->c[k];
	memset(l, 0, sizeof *l);
}

static int is_longlat(int op)
{
	return op == PMK_SIM_OP_IMUL || op == PMK_SIM_OP_FDIV;
}

/* Naive counts of one instruction's events; k = 0 all, 1 committed. */
static void naive_note(pmk_cpi_acct *a, const pmk_sim_uop *u, int k)
{
	uint16_t f = u->flags;
	int load = u->op == PMK_SIM_OP_LOAD;
	if (f & PMK_SIM_F_L1I_MISS)
		a->ev[k][PMK_CPI_L1I]++;
	if (f & PMK_SIM_F_L2I_MISS)
		a->ev[k][PMK_CPI_L2I]++;
	if (f & PMK_SIM_F_ITLB_MISS)
		a->ev[k][PMK_CPI_ITLB]++;
	if (load && (f & PMK_SIM_F_L1D_MISS))
		a->ev[k][PMK_CPI_L1D]++;
	if (load && (f & PMK_SIM_F_L2D_MISS))
		a->ev[k][PMK_CPI_L2D]++;
	if (load && (f & PMK_SIM_F_DTLB_MISS))
		a->ev[k][PMK_CPI_DTLB]++;
	if (f & PMK_SIM_F_MISPRED)
		a->ev[k][PMK_CPI_BRANCH]++;
	/* a long-latency op uses its unit once dispatched */
	if (is_longlat(u->op) && u->dispatch_cycle &&
	    !(a->cfg.perfect & PMK_SIM_PERFECT_LONGLAT)) {
		a->ev[k][PMK_CPI_LONGLAT]++;
		if (a->cfg.lat[u->op] > 1)
			a->ll_pen[k] += a->cfg.lat[u->op] - 1;
	}
}

/* A mispredicted branch's penalty goes to the global counters: [BRANCH]
 * its own cycles, [k] those in a long miss's shadow (see shadow()), which
 * the overlap variant charges to the miss; `moved` keeps them apart so that
 * the seed's FMT can give them back to the branch. */
static void add_pen(pmk_cpi_acct *a, const uint64_t *pen, const uint64_t *pen2)
{
	for (int k = PMK_CPI_BRANCH; k < PMK_CPI_NCOMP; k++) {
		a->fmt[k] += pen[k];
		a->sfmt[k] += pen2[k];
		if (k != PMK_CPI_BRANCH) {
			a->moved[k] += pen[k];
			a->moved2[k] += pen2[k];
		}
	}
}

/*
 * The refill after a misprediction is over (the first correct-path
 * instruction entered the ROB this cycle; the cycle is not counted). The
 * penalty goes to the global counter at the later of the branch's commit
 * and this point (the paper's "from then on, the global counter increments
 * until new instructions enter the ROB"); before the commit it waits in
 * the branch's entry.
 */
static void refill_end(pmk_cpi_acct *a)
{
	uint64_t pen[PMK_CPI_NCOMP] = {0}, pen2[PMK_CPI_NCOMP] = {0};
	pen[PMK_CPI_BRANCH] = a->chg - a->rf_snap;
	pen2[PMK_CPI_BRANCH] = a->chg2 - a->rf_snap2;
	for (int k = PMK_CPI_BRANCH + 1; k < PMK_CPI_NCOMP; k++) {
		pen[k] = a->sh[k] - a->rf_ssh[k];
		pen2[k] = a->sh2[k] - a->rf_ssh2[k];
		pen[PMK_CPI_BRANCH] -= pen[k];
		pen2[PMK_CPI_BRANCH] -= pen2[k];
	}
	if (a->rf_committed) {
		add_pen(a, pen, pen2);
	} else {
		fmt_e *e = ent(a, a->rf_abs);
		memcpy(e->pen, pen, sizeof pen);
		memcpy(e->pen2, pen2, sizeof pen2);
		e->bp_known = 1;
	}
	a->rf = 0;
}

/* A mispredicted branch resolved: find its entry by ROB id (between the
 * dispatch head and tail), set the mispredict bit, and roll the dispatch
 * tail and the fetch pointer back to it. */
static void fmt_resolve(pmk_cpi_acct *a, const pmk_sim_uop *u)
{
	uint64_t i;
	fmt_e *e = NULL;
	for (i = a->disp; i > a->head; i--) {
		e = ent(a, i - 1);
		if (e->dispatched && e->rob_id == u->rob_id)
			break;
	}
	if (i == a->head || e->seq != u->seq)
		return; /* not in the table (cannot happen) */
	i--;
	if (a->rf)
		refill_end(a); /* cannot happen: see struct pmk_cpi_acct */
	e->mispred = 1;
	wp_resolve(a, e->disp_cycle);
	a->rf = 1;
	a->rf_abs = i;
	a->rf_snap = e->snap;
	a->rf_snap2 = e->snap2;
	memcpy(a->rf_ssh, e->ssh, sizeof a->rf_ssh);
	memcpy(a->rf_ssh2, e->ssh2, sizeof a->rf_ssh2);
	a->rf_committed = 0;
	a->disp = a->open = i + 1;
	memset(ent(a, a->open), 0, sizeof(fmt_e));
	a->fetch_wrong = 0;
}

static void on_uop(void *arg, const pmk_sim_uop *u)
{
	pmk_cpi_acct *a = arg;
	int br = pmk_sim_op_is_branch(u->op);
	int wrong = (u->flags & PMK_SIM_F_WRONG) != 0;
	fmt_e *e;
	switch (u->what) {
	case PMK_SIM_UOP_FETCH:
		if (!wrong)
			wp_use(a, u->pc);
		if (!br)
			return;
		if (a->open - a->head + 1 >= a->cap)
			return; /* cannot happen: sized for a full machine */
		e = ent(a, a->open);
		e->seq = u->seq;
		e->wrong = (uint8_t)wrong;
		if (!wrong && (u->flags & PMK_SIM_F_MISPRED))
			a->fetch_wrong = 1;
		a->open++;
		memset(ent(a, a->open), 0, sizeof(fmt_e));
		return;
	case PMK_SIM_UOP_DISPATCH:
		if (u->rob_id < a->cfg.rob_size) {
			a->rob[u->rob_id].issue = u->issue_cycle;
			a->rob[u->rob_id].flags = u->flags;
		}
		if (!br || a->disp >= a->open)
			return;
		e = ent(a, a->disp);
		if (e->seq != u->seq)
			return; /* not ours (cannot happen) */
		e->dispatched = 1;
		e->disp_cycle = u->cycle;
		e->rob_id = u->rob_id;
		/* between the dispatch head and tail from the next cycle on:
		 * the stamps are taken at this cycle's end */
		e->snap = e->snap2 = UINT64_MAX;
		a->disp++;
		return;
	case PMK_SIM_UOP_RESOLVE:
		fmt_resolve(a, u);
		return;
	case PMK_SIM_UOP_COMMIT:
		a->insns++;
		a->rob_head = (u->rob_id + 1) % a->cfg.rob_size;
		naive_note(a, u, 0);
		naive_note(a, u, 1);
		if (!br || a->head >= a->disp)
			return;
		e = ent(a, a->head);
		if (e->seq != u->seq)
			return;
		a->fmt[PMK_CPI_L1I] += e->l1i;
		a->fmt[PMK_CPI_L2I] += e->l2i;
		a->fmt[PMK_CPI_ITLB] += e->itlb;
		if (e->mispred && e->bp_known) {
			add_pen(a, e->pen, e->pen2);
		} else if (e->mispred && a->rf && a->rf_abs == a->head) {
			a->rf_committed = 1; /* the refill is not over */
		}
		a->head++;
		return;
	case PMK_SIM_UOP_SQUASH:
		/* wrong-path work thrown away: its events count for naive */
		naive_note(a, u, 0);
		return;
	}
}

static int be_comp(int cause)
{
	switch (cause) {
	case PMK_SIM_CAUSE_L1D:
		return PMK_CPI_L1D;
	case PMK_SIM_CAUSE_L2D:
		return PMK_CPI_L2D;
	case PMK_SIM_CAUSE_DTLB:
		return PMK_CPI_DTLB;
	case PMK_SIM_CAUSE_LONGLAT:
		return PMK_CPI_LONGLAT;
	}
	return PMK_CPI_BASE;
}

/*
 * Which miss the ROB head is waiting on now. The core gives one cause per
 * instruction (an L2 miss wins over a D-TLB miss); a load that missed
 * several levels waits on them one after the other: the page walk, then
 * the L2 access, then memory. The head's miss flags and issue cycle (from
 * its dispatch event) tell which phase it is in.
 */
static int be_phase(const pmk_cpi_acct *a, int comp, uint64_t now)
{
	const struct slot *h = &a->rob[a->rob_head];
	uint64_t t = h->issue, walk = 0;
	if (comp != PMK_CPI_L2D && comp != PMK_CPI_DTLB && comp != PMK_CPI_L1D)
		return comp;
	if (h->flags & PMK_SIM_F_DTLB_MISS) {
		walk = a->cfg.dtlb.miss_latency;
		if (now < t + walk)
			return PMK_CPI_DTLB;
	}
	if ((h->flags & PMK_SIM_F_L2D_MISS) &&
	    now < t + walk + a->cfg.l1d.latency + a->cfg.l2.latency)
		return PMK_CPI_L1D;
	if (comp == PMK_CPI_DTLB)
		return h->flags & PMK_SIM_F_L2D_MISS   ? PMK_CPI_L2D
		       : h->flags & PMK_SIM_F_L1D_MISS ? PMK_CPI_L1D
						       : PMK_CPI_DTLB;
	return comp;
}

static int fe_comp(int cause)
{
	switch (cause) {
	case PMK_SIM_FE_L1I:
		return PMK_CPI_L1I;
	case PMK_SIM_FE_L2I:
		return PMK_CPI_L2I;
	case PMK_SIM_FE_ITLB:
		return PMK_CPI_ITLB;
	}
	return PMK_CPI_BASE;
}

static void power5(pmk_cpi_acct *a, const pmk_sim_cycle *c, int fe)
{
	int comp = PMK_CPI_BASE;
	int good = c->dispatched - c->dispatched_wrong;
	if (c->squash)
		a->p5_reason = PMK_CPI_BRANCH;
	if (fe != PMK_CPI_BASE && !c->wrong_path)
		a->p5_reason = fe;
	if (c->committed)
		comp = PMK_CPI_BASE; /* completion cycle */
	else if (!c->rob_count)
		comp = a->p5_reason; /* completion table empty */
	else
		comp = be_comp(c->head_cause); /* completion stall */
	a->p5[comp]++;
	if (good > 0)
		a->p5_reason = PMK_CPI_BASE;
}

/*
 * A cycle the back end does not claim. An I-side stall goes to the entry at
 * the fetch pointer (a wrong-path one when fetch is on a wrong path: it is
 * discarded at the resolution) and to sFMT's shared counters. The branch
 * counters count every other cycle, and wrong-path I-side stalls (they are
 * part of the misprediction's penalty); sFMT's branch counters pause in
 * every I-side stall, since its shared counters already took the cycle.
 */
static void fmt_count_fe(pmk_cpi_acct *a, int fe, int fe_right, int sh)
{
	if (fe != PMK_CPI_BASE) {
		fmt_e *o = ent(a, a->open);
		if (fe == PMK_CPI_L1I)
			o->l1i++;
		else if (fe == PMK_CPI_L2I)
			o->l2i++;
		else
			o->itlb++;
		a->sfmt[fe]++;
	}
	if (!fe_right) {
		a->chg++;
		a->sh[sh]++;
	}
	if (fe == PMK_CPI_BASE) {
		a->chg2++;
		a->sh2[sh]++;
	}
}

/*
 * Shadowed cycles: the ROB is not full, but its head is blocked by a long
 * back-end miss (the core's cause: a load waiting on memory or on a
 * D-TLB walk, its own miss or one already under way for its line),
 * split by phase like the back-end counters. A mispredicted branch in the
 * window then waits for the data (its resolution depends on them, or the
 * refill is over before they return), and what enters the window behind it
 * is wrong-path work: no useful work enters, as when the ROB is full. In a
 * mispredicted branch's penalty such cycles go to the miss (interval
 * analysis: a misprediction in the shadow of a long miss is hidden by it);
 * a correctly predicted branch's counts are dropped anyway, and those
 * cycles stay base (the window filling with useful work under the miss).
 * Hardware: a second local counter per entry, moved at commit to the
 * back-end global counter when the mispredict bit is set. Returns the
 * component (PMK_CPI_BASE for an unshadowed cycle, whose slot sh[0] is
 * never read).
 */
static int shadow(const pmk_cpi_acct *a, const pmk_sim_cycle *c)
{
	int comp = be_comp(c->head_cause);
	if (c->rob_full || (comp != PMK_CPI_L2D && comp != PMK_CPI_DTLB))
		return PMK_CPI_BASE;
	return be_phase(a, comp, c->cycle);
}

static void on_cycle(void *arg, const pmk_sim_cycle *c)
{
	pmk_cpi_acct *a = arg;
	int be = c->rob_full ? be_phase(a, be_comp(c->head_cause), c->cycle)
			     : PMK_CPI_BASE;
	int fe = fe_comp(c->fe_cause);
	int good = c->dispatched - c->dispatched_wrong;
	int fe_right = fe != PMK_CPI_BASE && !c->wrong_path;
	a->cycles++;
	if (be != PMK_CPI_BASE && fe != PMK_CPI_BASE)
		a->overlap++;
	power5(a, c, fe);
	/* the first correct-path instruction enters the ROB: the resolved
	 * branch's window time ends (this cycle not counted) */
	if (a->rf && good > 0)
		refill_end(a);
	if (be != PMK_CPI_BASE) {
		a->fmt[be]++;
		a->sfmt[be]++;
	} else {
		fmt_count_fe(a, fe, fe_right, shadow(a, c));
		if (fe != PMK_CPI_BASE && c->wrong_path)
			wp_note(a, c->fe_pc, c->cycle, fe);
	}
	/* stamps of the branches dispatched this cycle (the youngest
	 * dispatched entries) */
	for (uint64_t i = a->disp; i > a->head; i--) {
		fmt_e *e = ent(a, i - 1);
		if (e->snap != UINT64_MAX)
			break;
		e->snap = a->chg;
		e->snap2 = a->chg2;
		memcpy(e->ssh, a->sh, sizeof e->ssh);
		memcpy(e->ssh2, a->sh2, sizeof e->ssh2);
	}
}

void pmk_cpi_acct_observer(pmk_cpi_acct *a, pmk_sim_observer *o)
{
	memset(o, 0, sizeof *o);
	o->cycle = on_cycle;
	o->uop = on_uop;
	o->arg = a;
}

/* Isolated penalty of one event, in cycles, from the configuration. */
static void penalties(const pmk_sim_config *c, double *p)
{
	double beyond_l2 =
	    (c->l3.size_bytes ? c->l3.latency : 0) + (double)c->mem_latency;
	memset(p, 0, sizeof(double) * PMK_CPI_NCOMP);
	p[PMK_CPI_BRANCH] = c->fe_depth;
	p[PMK_CPI_L1I] = c->l2.latency;
	p[PMK_CPI_L2I] = beyond_l2;
	p[PMK_CPI_ITLB] = c->itlb.miss_latency;
	p[PMK_CPI_L1D] = c->l2.latency;
	p[PMK_CPI_L2D] = beyond_l2;
	p[PMK_CPI_DTLB] = c->dtlb.miss_latency;
	p[PMK_CPI_LONGLAT] = 0; /* per op: latency - 1 */
}

void pmk__cpi_acct_spec_events(pmk_cpi_acct *a, const uint64_t *ev)
{
	a->spec_override = 1;
	memcpy(a->spec_ev, ev, sizeof a->spec_ev);
}

static void fill_base(double *comp, uint64_t cycles)
{
	double s = 0;
	for (int k = 1; k < PMK_CPI_NCOMP; k++)
		s += comp[k];
	comp[PMK_CPI_BASE] = (double)cycles - s;
}

void pmk_cpi_acct_finish(pmk_cpi_acct *a, pmk_cpi_counts *out)
{
	memset(out, 0, sizeof *out);
	/* the run stopped with branches in flight: the I-side counts of the
	 * correct-path entries (those before the fetch went down a wrong
	 * path) and the open block, if on the correct path, are kept */
	for (uint64_t i = a->head; i < a->open; i++) {
		fmt_e *e = ent(a, i);
		if (e->wrong)
			break;
		a->fmt[PMK_CPI_L1I] += e->l1i;
		a->fmt[PMK_CPI_L2I] += e->l2i;
		a->fmt[PMK_CPI_ITLB] += e->itlb;
		e->l1i = e->l2i = e->itlb = 0;
	}
	if (!a->fetch_wrong) {
		fmt_e *e = ent(a, a->open);
		a->fmt[PMK_CPI_L1I] += e->l1i;
		a->fmt[PMK_CPI_L2I] += e->l2i;
		a->fmt[PMK_CPI_ITLB] += e->itlb;
		e->l1i = e->l2i = e->itlb = 0;
	}
	/* a misprediction whose refill the run did not see end */
	if (a->rf) {
		a->rf_committed = 1; /* count it here */
		if (ent(a, a->rf_abs)->mispred)
			ent(a, a->rf_abs)->mispred = 0;
		refill_end(a);
	}
	/* mispredicted branches still in flight whose refill ended */
	for (uint64_t i = a->head; i < a->disp; i++)
		if (ent(a, i)->mispred && ent(a, i)->bp_known)
			add_pen(a, ent(a, i)->pen, ent(a, i)->pen2);
	out->cycles = a->cycles;
	out->insns = a->insns;
	out->overlap_cycles = a->overlap;
	penalties(&a->cfg, out->penalty);
	memcpy(out->events, a->ev, sizeof out->events);
	if (a->spec_override)
		for (int k = 1; k < PMK_CPI_NCOMP; k++)
			if (k != PMK_CPI_BRANCH && k != PMK_CPI_LONGLAT)
				out->events[0][k] = a->spec_ev[k];
	for (int k = 1; k < PMK_CPI_NCOMP; k++) {
		out->comp[PMK_CPI_FMT_OV][k] = (double)a->fmt[k];
		/* the seed's rule: overlap goes to the front end unless the
		 * ROB is full */
		out->comp[PMK_CPI_FMT][k] = (double)(a->fmt[k] - a->moved[k]);
		out->comp[PMK_CPI_SFMT][k] =
		    (double)(a->sfmt[k] - a->moved2[k]);
		if (k != PMK_CPI_BRANCH)
			for (int m = 0; m < 2; m++) {
				uint64_t v = m ? a->moved2[k] : a->moved[k];
				out->comp[m ? PMK_CPI_SFMT : PMK_CPI_FMT]
					 [PMK_CPI_BRANCH] += (double)v;
			}
		out->comp[PMK_CPI_POWER5][k] = (double)a->p5[k];
		for (int m = 0; m < 2; m++) {
			int meth = m ? PMK_CPI_NAIVE_NONSPEC : PMK_CPI_NAIVE;
			out->comp[meth][k] =
			    k == PMK_CPI_LONGLAT
				? (double)a->ll_pen[m]
				: (double)out->events[m][k] * out->penalty[k];
		}
	}
	/* fmt-wp: the seed's FMT, with the wrong-path I-side cycles the
	 * correct path used moved from the branch to the I side */
	for (int k = 1; k < PMK_CPI_NCOMP; k++) {
		out->comp[PMK_CPI_FMT_WP][k] =
		    out->comp[PMK_CPI_FMT][k] + (double)a->wp_moved[k];
		out->comp[PMK_CPI_FMT_WP][PMK_CPI_BRANCH] -=
		    (double)a->wp_moved[k];
	}
	if (out->events[1][PMK_CPI_LONGLAT])
		out->penalty[PMK_CPI_LONGLAT] =
		    (double)a->ll_pen[1] /
		    (double)out->events[1][PMK_CPI_LONGLAT];
	for (int m = PMK_CPI_FMT; m < PMK_CPI_NMETHOD; m++)
		fill_base(out->comp[m], a->cycles);
}
