/*
 * cpistack_trace.c: per-cycle evidence for the CPI-stack study
 * (docs/cpistack.md): where the FMT accountant and the references Sim and
 * Sim inv charge a workload's cycles differently.
 *
 *   build/bench/cpistack_trace [-n N] WORKLOAD
 *   build/bench/cpistack_trace [-n N] WORKLOAD ORDER COMPONENT [FROM TO]
 *
 * ORDER is sim or sim-inv (a step of that reference), last (the component
 * idealized in the real run: its cost with every other event real) or
 * alone (the component added to the ideal machine, an L2 with its L1).
 *
 * It watches the real run with the signals the accountants see and puts
 * every cycle in one class: `full:C` (ROB full, head blocked by C, by
 * phase as the back-end counters split it), `fe:C` (a correct-path I-side
 * stall), `win:branch` (a mispredicted branch's window: from the cycle
 * after its dispatch to the first correct-path dispatch after its
 * resolution), `win:shadow:C` (in such a window, a long miss C at the head
 * of a non-full ROB: fmt-ov's shadow), `shadow:C` (the same outside any
 * mispredicted window) and `base`. FMT charges full:C to C, fe:C to C,
 * win:* to the branch; fmt-ov charges win:shadow:C to C; the rest
 * (`full:exec`: ROB full, a short op at the head) is base. Per class it
 * prints the cycles, the cycles in which at least one correct-path
 * instruction issues, and those instructions (all in CPI too).
 *
 * With a step (say `sim l2d`: the two runs of Sim around the enabling of
 * L2D misses; the classes are then those of the step's "after" run), it
 * also runs the step's "before" configuration and aligns the two runs on
 * the committed instructions: the h-th instruction's commit gap (cycles
 * since the previous commit) in the "after" run minus its gap in the
 * "before" run is spread evenly over the "after" run's cycles of that gap
 * (or put on its commit cycle when the gap is empty). A stall cycle
 * charges about one; an instruction that commits sooner after the
 * previous one than it did in the other run gives some back. The charges
 * add up exactly to the step's cycles, which the reference charges to the
 * component; the column `ref` says in which classes of cycles the
 * reference finds them. FROM TO
 * prints the cycles in between, one line each, with both runs' progress.
 * It also prints what fetch does in the mispredicted windows' cycles
 * (win:*): fetching, waiting on an I-side miss (on the wrong path, before
 * the resolution, or on the correct path), queue full.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/cpistack.h"
#include "pmkit/sim.h"

enum { K_BASE, K_SHADOW, K_WIN, K_WINSH, K_FE, K_FULL, K_FULLX, K_N };
static const char *const kname[K_N] = {"base",	      "shadow:", "win:branch",
				       "win:shadow:", "fe:",	 "full:",
				       "full:exec"};

#define ISSUE_RING 65536

struct slot {
	uint64_t issue;
	uint16_t flags;
};

struct tr {
	pmk_sim_config cfg;
	struct slot *rob;
	uint32_t rob_head;
	/* correct-path instructions issuing in a cycle (ring by cycle) */
	uint16_t issue_ring[ISSUE_RING];
	int win, new_win; /* mispredicted window: 0 none, 1 open, 2 resolved */
	/* per cycle: class, correct-path issues, commits, ROB full, ROB count
	 */
	struct cyc {
		uint8_t cls, iss, com, full, robn;
	} * cy;
	uint64_t ncyc, cap;
	/* mispredicted windows' cycles by fetch state: [fe_cause][wrong] */
	uint64_t winfe[8][2];
	/* per committed instruction: its commit cycle */
	uint64_t *commit;
	uint64_t ncom, ccap;
};

static int grow(void **p, uint64_t *cap, uint64_t need, size_t elt)
{
	uint64_t c = *cap ? *cap : 1024;
	void *n;
	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * elt);
	if (!n)
		return -1;
	memset((char *)n + *cap * elt, 0, (c - *cap) * elt);
	*p = n;
	*cap = c;
	return 0;
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

/* The phase split of sim/cpi/acct.c (docs/cpistack.md choice 5). */
static int be_phase(const struct tr *t, int comp, uint64_t now)
{
	const struct slot *h = &t->rob[t->rob_head];
	uint64_t walk = 0;
	if (comp != PMK_CPI_L2D && comp != PMK_CPI_DTLB && comp != PMK_CPI_L1D)
		return comp;
	if (h->flags & PMK_SIM_F_DTLB_MISS) {
		walk = t->cfg.dtlb.miss_latency;
		if (now < h->issue + walk)
			return PMK_CPI_DTLB;
	}
	if ((h->flags & PMK_SIM_F_L2D_MISS) &&
	    now < h->issue + walk + t->cfg.l1d.latency + t->cfg.l2.latency)
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

static void on_uop(void *arg, const pmk_sim_uop *u)
{
	struct tr *t = arg;
	int wrong = (u->flags & PMK_SIM_F_WRONG) != 0;
	switch (u->what) {
	case PMK_SIM_UOP_DISPATCH:
		t->rob[u->rob_id].issue = u->issue_cycle;
		t->rob[u->rob_id].flags = u->flags;
		if (!wrong && u->issue_cycle >= u->cycle &&
		    u->issue_cycle - u->cycle < ISSUE_RING)
			t->issue_ring[u->issue_cycle % ISSUE_RING]++;
		if (!wrong && (u->flags & PMK_SIM_F_MISPRED))
			t->new_win = 1;
		return;
	case PMK_SIM_UOP_RESOLVE:
		t->win = 2;
		return;
	case PMK_SIM_UOP_COMMIT:
		t->rob_head = (u->rob_id + 1) % t->cfg.rob_size;
		if (grow((void **)&t->commit, &t->ccap, t->ncom + 1, 8) == 0)
			t->commit[t->ncom++] = u->cycle;
		return;
	}
}

static void on_cycle(void *arg, const pmk_sim_cycle *c)
{
	struct tr *t = arg;
	int good = c->dispatched - c->dispatched_wrong;
	int be = c->rob_full ? be_phase(t, be_comp(c->head_cause), c->cycle)
			     : PMK_CPI_BASE;
	int fe = c->wrong_path ? PMK_CPI_BASE : fe_comp(c->fe_cause);
	int sh = PMK_CPI_BASE, k, comp = 0;
	uint64_t i = c->cycle;
	if (!c->rob_full && (c->head_cause == PMK_SIM_CAUSE_L2D ||
			     c->head_cause == PMK_SIM_CAUSE_DTLB))
		sh = be_phase(t, be_comp(c->head_cause), c->cycle);
	if (t->win == 2 && good > 0)
		t->win = 0;
	if (be != PMK_CPI_BASE)
		k = K_FULL, comp = be;
	else if (fe != PMK_CPI_BASE)
		k = K_FE, comp = fe;
	else if (t->win && sh != PMK_CPI_BASE)
		k = K_WINSH, comp = sh;
	else if (t->win)
		k = K_WIN;
	else if (sh != PMK_CPI_BASE)
		k = K_SHADOW, comp = sh;
	else if (c->rob_full && c->head_cause == PMK_SIM_CAUSE_EXEC)
		k = K_FULLX;
	else
		k = K_BASE;
	if (k == K_WIN || k == K_WINSH)
		t->winfe[c->fe_cause & 7][c->wrong_path != 0]++;
	if (t->new_win) {
		t->win = 1;
		t->new_win = 0;
	}
	if (grow((void **)&t->cy, &t->cap, i + 1, sizeof *t->cy) < 0)
		return;
	if (t->ncyc < i + 1)
		t->ncyc = i + 1;
	t->cy[i].cls = (uint8_t)(k * 16 + comp);
	t->cy[i].iss = (uint8_t)t->issue_ring[i % ISSUE_RING];
	t->issue_ring[i % ISSUE_RING] = 0;
	t->cy[i].com = (uint8_t)c->committed;
	t->cy[i].full = c->rob_full;
	t->cy[i].robn = (uint8_t)(c->rob_count > 255 ? 255 : c->rob_count);
}

static void tr_free(struct tr *t)
{
	if (!t)
		return;
	free(t->rob);
	free(t->cy);
	free(t->commit);
	free(t);
}

static int run(const char *what, uint32_t perfect, uint64_t n, struct tr *t)
{
	pmk_sim_source *src = NULL;
	pmk_sim *s = NULL;
	pmk_sim_observer o = {on_cycle, on_uop, t};
	pmk_diag d;
	int rc;
	pmk_sim_config_default(&t->cfg);
	t->cfg.perfect = perfect;
	t->rob = calloc(t->cfg.rob_size, sizeof *t->rob);
	if (!t->rob)
		return -1;
	rc = pmk_sim_source_open(&src, what, PMK_TRACE_AUTO, &d);
	if (rc < 0) {
		fprintf(stderr, "error: %s\n", d.message);
		return rc;
	}
	rc = pmk_sim_new(&s, &t->cfg, pmk_sim_source_next, src, &d);
	if (rc >= 0) {
		pmk_sim_set_observer(s, &o);
		rc = pmk_sim_run(s, n);
	}
	pmk_sim_free(s);
	pmk_sim_source_close(src);
	return rc < 0 ? rc : 0;
}

static const char *cls_name(int c, char *buf, size_t len)
{
	int k = c / 16, comp = c % 16;
	if (k == K_BASE || k == K_WIN || k == K_FULLX)
		snprintf(buf, len, "%s", kname[k]);
	else
		snprintf(buf, len, "%s%s", kname[k], pmk_cpi_comp_name(comp));
	return buf;
}

int main(int argc, char **argv)
{
	uint64_t n = 200000, from = 0, to = 0;
	struct tr *b = calloc(1, sizeof *b), *a = NULL;
	uint32_t pb = 0, pa = 0;
	int ai = 1, step = -1;
	static double ref[256];
	static uint64_t cyc[256], icyc[256], ins[256];
	char nb[64];
	if (argc > 2 && !strcmp(argv[1], "-n")) {
		n = strtoull(argv[2], NULL, 10);
		ai = 3;
	}
	if (argc - ai != 1 && argc - ai != 3 && argc - ai != 5) {
		fprintf(stderr,
			"usage: cpistack_trace [-n N] WORKLOAD "
			"[sim|sim-inv|last|alone COMPONENT [FROM TO]]\n");
		return 2;
	}
	if (argc - ai >= 3) {
		int order[PMK_CPI_NCOMP - 1],
		    inv = !strcmp(argv[ai + 1], "sim-inv");
		uint32_t all = 0;
		for (int k = 1; k < PMK_CPI_NCOMP; k++) {
			all |= pmk_cpi_comp_perfect(k);
			if (!strcmp(argv[ai + 2], pmk_cpi_comp_name(k)))
				step = k;
		}
		if (step < 0) {
			fprintf(stderr, "error: unknown component '%s'\n",
				argv[ai + 2]);
			return 2;
		}
		pmk_cpi_ref_order(inv, order);
		pb = all;
		for (int i = 0; i < PMK_CPI_NCOMP - 1; i++) {
			pa = pb;
			pb &= ~pmk_cpi_comp_perfect(order[i]);
			if (order[i] == step)
				break;
		}
		if (!strcmp(argv[ai + 1], "last")) {
			/* the component added last: real run against the
			 * real run without it */
			pb = 0;
			pa = pmk_cpi_comp_perfect(step);
		} else if (!strcmp(argv[ai + 1], "alone")) {
			/* added to the ideal machine alone (an L2 with its
			 * L1, which it needs) */
			pa = all & ~(step == PMK_CPI_L2D   ? PMK_SIM_PERFECT_L1D
				     : step == PMK_CPI_L2I ? PMK_SIM_PERFECT_L1I
							   : 0);
			pb = pa & ~pmk_cpi_comp_perfect(step);
		} else if (strcmp(argv[ai + 1], "sim") && !inv) {
			fprintf(stderr, "error: unknown order '%s'\n",
				argv[ai + 1]);
			return 2;
		}
		if (argc - ai == 5) {
			from = strtoull(argv[ai + 3], NULL, 10);
			to = strtoull(argv[ai + 4], NULL, 10);
		}
		a = calloc(1, sizeof *a);
		if (run(argv[ai], pa, n, a) < 0)
			return 1;
	}
	if (run(argv[ai], pb, n, b) < 0)
		return 1;
	/* per class: cycles, cycles with a correct-path issue, issues */
	for (uint64_t t = 0; t < b->ncyc; t++) {
		int c = b->cy[t].cls;
		cyc[c]++;
		if (b->cy[t].iss)
			icyc[c]++;
		ins[c] += b->cy[t].iss;
	}
	/* the reference step's charge, instruction by instruction: the
	 * difference of the two runs' commit gaps, spread over the real
	 * run's cycles of that gap (or on its commit cycle when it has
	 * none) */
	if (a) {
		uint64_t m = a->ncom < b->ncom ? a->ncom : b->ncom;
		for (uint64_t h = 0; h < m; h++) {
			uint64_t b0 = h ? b->commit[h - 1] : 0,
				 a0 = h ? a->commit[h - 1] : 0;
			double lb = (double)(b->commit[h] - b0),
			       d = lb - (double)(a->commit[h] - a0);
			if (b->commit[h] == b0) {
				ref[b->cy[b0].cls] += d;
				continue;
			}
			for (uint64_t t = b0 + 1; t <= b->commit[h]; t++)
				ref[b->cy[t].cls] += d / lb;
		}
		for (uint64_t t = from; t < to && t < b->ncyc; t++) {
			uint64_t k = 0;
			while (k < b->ncom && b->commit[k] <= t)
				k++;
			printf("%8llu %-18s rob %3u full %u issued %u "
			       "committed %u k %7llu B(k) - A(k) %+lld\n",
			       (unsigned long long)t,
			       cls_name(b->cy[t].cls, nb, sizeof nb),
			       b->cy[t].robn, b->cy[t].full, b->cy[t].iss,
			       b->cy[t].com, (unsigned long long)k,
			       k ? (long long)b->commit[k - 1] -
				       (long long)a->commit[k - 1]
				 : 0);
		}
	}
	printf("# %s: %llu instructions, %llu cycles, CPI %.4f", argv[ai],
	       (unsigned long long)b->ncom, (unsigned long long)b->ncyc,
	       (double)b->ncyc / (double)b->ncom);
	if (a)
		printf("; %s step %s: before %llu cycles, charge %.4f CPI",
		       argv[ai + 1], argv[ai + 2], (unsigned long long)a->ncyc,
		       ((double)b->ncyc - (double)a->ncyc) / (double)b->ncom);
	printf("\n%-22s %9s %8s %9s %8s %9s%s\n", "class", "cycles", "CPI",
	       "issuecyc", "CPI", "issued", a ? "      ref  refCPI" : "");
	for (int c = 0; c < 256; c++) {
		if (!cyc[c])
			continue;
		printf("%-22s %9llu %8.4f %9llu %8.4f %9llu",
		       cls_name(c, nb, sizeof nb), (unsigned long long)cyc[c],
		       (double)cyc[c] / (double)b->ncom,
		       (unsigned long long)icyc[c],
		       (double)icyc[c] / (double)b->ncom,
		       (unsigned long long)ins[c]);
		if (a)
			printf(" %9.0f %7.4f", ref[c],
			       ref[c] / (double)b->ncom);
		printf("\n");
	}
	{
		static const char *const fen[8] = {
		    "fetching", "l1i", "l2i", "itlb", "queue-full",
		    "stopped", "end", "?"};
		printf("# mispredicted windows' cycles by fetch state:");
		for (int f = 0; f < 8; f++)
			for (int w = 0; w < 2; w++)
				if (b->winfe[f][w])
					printf(" %s%s %llu", w ? "wrong:" : "",
					       fen[f],
					       (unsigned long long)b->winfe[f][w]);
		printf("\n");
	}
	tr_free(a);
	tr_free(b);
	return 0;
}
