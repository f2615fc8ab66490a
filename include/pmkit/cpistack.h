/*
 * pmkit/cpistack.h: CPI stacks on the simulated core (seed 001) and
 * top-down level 1 from real counters.
 *
 * On the simulated core, one run of a workload feeds several accountants at
 * once through the core's observer (pmk_sim_set_observer):
 *   FMT      Eyerman et al.'s front-end miss event table plus ROB-head
 *            back-end counters;
 *   sFMT     its space-efficient variant (one shared set of I-side
 *            counters instead of one per branch);
 *   naive    miss events (wrong path included) x isolated penalties;
 *   naive-nonspec  the same, committed instructions only;
 *   POWER5   completion-stall accounting (a cycle that commits nothing is
 *            charged to what the ROB head, or an empty ROB, waits on).
 * The references Sim and Sim inv rerun the workload with the idealization
 * switches (pmk_sim_config.perfect), enabling miss-event types one at a
 * time in opposite orders and charging each CPI increase to the type just
 * enabled. docs/cpistack.md describes every rule and choice.
 *
 * Nothing here prints; errors come back as PMK_E* codes with a pmk_diag.
 *
 * SIMULATOR ENTRY POINTS (the CPI stacks) and top-down level 1: an
 * experiment kept in libpmkit (for pmkit cpistack), not the monitoring
 * API; its names may change between minor versions (docs/api.md).
 */
#ifndef PMKIT_CPISTACK_H
#define PMKIT_CPISTACK_H

#include <stdint.h>
#include <stdio.h>

#include "pmkit/error.h"
#include "pmkit/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CPI components, base first. */
enum pmk_cpi_comp {
	PMK_CPI_BASE = 0,
	PMK_CPI_BRANCH,	 /* branch mispredictions */
	PMK_CPI_L1I,	 /* L1 I-cache misses that hit L2 */
	PMK_CPI_L2I,	 /* I-side misses beyond L2 */
	PMK_CPI_ITLB,	 /* I-TLB misses */
	PMK_CPI_L1D,	 /* L1 D-cache misses that hit L2 */
	PMK_CPI_L2D,	 /* D-side misses beyond L2 */
	PMK_CPI_DTLB,	 /* D-TLB misses */
	PMK_CPI_LONGLAT, /* long-latency units (mul/div, FP div/sqrt) */
	PMK_CPI_NCOMP
};

/* Methods (accountants and references). */
enum pmk_cpi_method {
	PMK_CPI_SIM = 0, /* reference: types enabled front end first */
	PMK_CPI_SIM_INV, /* reference: the opposite order */
	PMK_CPI_FMT,	 /* the seed's FMT and back-end counters */
	PMK_CPI_SFMT,	 /* its space-efficient (shared) variant */
	PMK_CPI_FMT_OV,	 /* FMT, a misprediction in a long miss's shadow
			  * charged to the miss (docs/cpistack.md) */
	PMK_CPI_FMT_WP,	 /* FMT, wrong-path I-misses whose lines the
			  * correct path then fetches charged to the I side
			  * (docs/cpistack.md) */
	PMK_CPI_NAIVE,
	PMK_CPI_NAIVE_NONSPEC,
	PMK_CPI_POWER5,
	PMK_CPI_NMETHOD
};

/* Short names: "base", "branch", "l1i", ...; "sim", "sim-inv", "fmt", ... */
const char *pmk_cpi_comp_name(int comp);
const char *pmk_cpi_method_name(int method);
/* A method by name, or PMK_ENOENT. */
int pmk_cpi_method_find(const char *name);

/* The idealization switch of a component (0 for base). */
uint32_t pmk_cpi_comp_perfect(int comp);
/* The order in which the references enable the miss-event types:
 * `inv` 0 for Sim, 1 for Sim inv. Fills PMK_CPI_NCOMP - 1 components. */
void pmk_cpi_ref_order(int inv, int *order);

/* Raw counts of one accountant run (cycles per component). */
typedef struct pmk_cpi_counts {
	uint64_t cycles, insns;
	/* [method][component] cycles for FMT, sFMT and POWER5; the naive
	 * methods as event counts x penalty (may exceed cycles). Base is
	 * cycles - sum of the others (it can be negative). */
	double comp[PMK_CPI_NMETHOD][PMK_CPI_NCOMP];
	/* Event counts the naive methods used: [0] all (wrong path
	 * included), [1] committed only; indexed by component (base unused). */
	uint64_t events[2][PMK_CPI_NCOMP];
	/* Isolated penalties, cycles per event, by component. */
	double penalty[PMK_CPI_NCOMP];
	/* Cycles a front-end and a back-end cause coincided (information). */
	uint64_t overlap_cycles;
} pmk_cpi_counts;

/* The accountants as an observer of a core. */
typedef struct pmk_cpi_acct pmk_cpi_acct;
/* For a core with configuration `cfg` (copied). */
int pmk_cpi_acct_new(pmk_cpi_acct **a, const pmk_sim_config *cfg);
void pmk_cpi_acct_free(pmk_cpi_acct *a);
/* The observer to give pmk_sim_set_observer(). */
void pmk_cpi_acct_observer(pmk_cpi_acct *a, pmk_sim_observer *o);
/* Close the run (the last open FMT entry) and fill `out`. */
void pmk_cpi_acct_finish(pmk_cpi_acct *a, pmk_cpi_counts *out);

/* A whole study of one workload. */
typedef struct pmk_cpistack {
	uint64_t insns, cycles; /* of the real (non-idealized) run */
	double cpi;
	/* [method][component] in CPI (cycles per committed instruction). */
	double stack[PMK_CPI_NMETHOD][PMK_CPI_NCOMP];
	int have[PMK_CPI_NMETHOD]; /* 1 when computed */
	/* The references' runs: CPI with everything perfect, then after
	 * each step of each order. */
	double ideal_cpi;
	pmk_cpi_counts counts; /* of the observed run */
	int runs;	       /* simulations made */
} pmk_cpistack;

/*
 * Run the study on `what` (a workload spec or trace file, as
 * pmk_sim_source_open takes it; the source is opened once per simulation,
 * so it cannot be "-"). `refs` 0 skips Sim and Sim inv (one simulation).
 * `max_insns` 0 runs the source to its end.
 */
int pmk_cpistack_run(const pmk_sim_config *cfg, const char *what, int kind,
		     int refs, uint64_t max_insns, pmk_cpistack *out,
		     pmk_diag *d);

/*
 * Error of `method` against reference `ref`, per component, in percent of
 * the reference's total CPI: the largest absolute component error
 * (returned) and the average over the components (`*avg`, may be NULL).
 * Base counts as a component. NaN when either is missing.
 */
double pmk_cpistack_error(const pmk_cpistack *s, int method, int ref,
			  double *avg);

/*
 * The same against the band between the two references: a component
 * between Sim's and Sim inv's value has no error, else the distance to the
 * nearer one (where the references disagree, both readings are defensible).
 */
double pmk_cpistack_error_band(const pmk_cpistack *s, int method, double *avg);

/* Where a component puts a bound on the gain of removing it: component /
 * total CPI of that method (0..1, or more for a broken stack). */
double pmk_cpistack_bound(const pmk_cpistack *s, int method, int comp);

/*
 * SVG pictures of n studies (names[i] labels study i), for the methods in
 * `mask` (bit 1 << pmk_cpi_method): normalized stacked bars (seed 001's
 * Figures 1 and 7), and the largest component error against `ref`
 * (Figure 8): PMK_CPI_SIM, PMK_CPI_SIM_INV, or PMK_CPI_SVG_BAND for the
 * band between them. PMK_EIO when writing failed.
 */
#define PMK_CPI_SVG_BAND (-1)
int pmk_cpistack_svg_stacks(FILE *f, const pmk_cpistack *s,
			    const char *const *names, int n, unsigned mask);
int pmk_cpistack_svg_errors(FILE *f, const pmk_cpistack *s,
			    const char *const *names, int n, unsigned mask,
			    int ref);

/* ------------------------------------------------------- real hardware */

/* Top-down level 1 parts, in this order. */
enum pmk_td_part {
	PMK_TD_FRONTEND = 0,
	PMK_TD_BAD_SPEC,
	PMK_TD_RETIRING,
	PMK_TD_BACKEND,
	PMK_TD_NPART
};
const char *pmk_td_part_name(int part); /* "frontend_bound", ... */
/* The definition-file name of a part ("tma_frontend_bound"). */
const char *pmk_td_metric_name(int part);

/* The built-in copy of metrics/topdown.def. */
const char *pmk_topdown_text(void);

/*
 * Top-down level 1 for a PMU model ("skl", "icl", "amd64_fam19h_zen4",
 * "amd64_fam1ah_zen5", ... as pmk_target_model() names them), from the
 * built-in definitions. `symbolic` accepts the events without resolving
 * them on this machine (to evaluate recorded counts). PMK_ENOTSUP when the
 * model has no definitions.
 */
typedef struct pmk_topdown pmk_topdown;
int pmk_topdown_new(pmk_topdown **t, const char *model, int symbolic,
		    pmk_diag *d);
void pmk_topdown_free(pmk_topdown *t);
/* The base events the four parts need (union, in order of first use):
 * name, whether it has an encoding here, and its event (NULL if not). */
int pmk_topdown_event_count(const pmk_topdown *t);
const char *pmk_topdown_event(const pmk_topdown *t, int i, int *resolved,
			      const pmk_event **ev);
/* The four parts (fractions of slots) from the events' values, in the
 * order above. PMK_EINVAL when a value is missing or a division by zero
 * made a part NaN. */
int pmk_topdown_eval(const pmk_topdown *t, const double *values, double *parts);

#ifdef __cplusplus
}
#endif
#endif
