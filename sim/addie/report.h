/*
 * report.h: the experiments `pmkit addie` reports, as library functions:
 * the settle statistics over many seeds (experiments.c), the DRAM buffer
 * watched by two Addies and the article's advice from their readings
 * (advise.c), and the SVG plots of each (plots.c). They compute and
 * write to a FILE the caller opened; they print nothing else and exit
 * never. Not yet in include/pmkit/addie.h (issue 25: the library surface
 * is being settled), so the CLI includes this header by its path.
 */
#ifndef PMK_SIM_ADDIE_REPORT_H
#define PMK_SIM_ADDIE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "pmkit.h"

/* ---- samples to track the input, over many seeds (experiments.c) ---- */

typedef struct pmk_addie_settle_stats {
	uint64_t seeds;
	uint64_t min, max;		 /* samples until within tol */
	double p10, q1, median, q3, p90; /* interpolated quantiles */
	double mean;
	uint64_t never;	     /* runs that reached the limit, 200 << bits */
	double err500;	     /* mean |reading - p| after 500 samples */
	double within500;    /* fraction of runs within tol after 500 */
} pmk_addie_settle_stats;

/*
 * An Addie of c's width and random-number mode, over `seeds` LFSR seeds
 * (seed s: the mix of s; stream seed s + 1000000), on a stream num/255:
 * samples until the reading is within `tol` of p, and the reading after
 * 500 samples. `sorted`, when not NULL, receives the `seeds` settle counts
 * in ascending order (for a distribution plot). 0, PMK_EINVAL (no seeds)
 * or PMK_ENOMEM.
 */
int pmk_addie_settle_stats_run(const pmk_addie_config *c, uint32_t num,
			       uint64_t seeds, double tol, uint64_t *sorted,
			       pmk_addie_settle_stats *out);

/* ---- the DRAM buffer, its Addies and the advice (advise.c) ---- */

/* What two Addies read over one pass of the requests, each signal read in
 * one of two runs: (wb-hit, read-merge), then (wb-full, rb-hit). */
typedef struct pmk_membuf_obs {
	double addie[PMK_MEMBUF_NSIGNALS]; /* NAN: the Addie saw no event */
	double mean[PMK_MEMBUF_NSIGNALS];  /* its comparator's mean */
	double exact[PMK_MEMBUF_NSIGNALS]; /* the exact ratio */
	uint64_t events[PMK_MEMBUF_NSIGNALS];
	pmk_membuf_stats st;
	uint64_t stall; /* modelled stall cycles */
} pmk_membuf_obs;

int pmk_membuf_observe(const pmk_membuf_config *c, const pmk_mem_access *req,
		       size_t n, pmk_membuf_obs *out);

/* One step of the advice, as the article reasons (docs/addie.md). */
enum pmk_membuf_step_kind {
	PMK_ADVISE_READ_AHEAD, /* v[0], v[1]: rb-hit off, on */
	PMK_ADVISE_LOWER,      /* v[0], v[1]: wb-hit, wb-full; the buffer fills */
	PMK_ADVISE_RAISE,      /* v[2]: wb-hit at `higher`: merges more */
	PMK_ADVISE_KEEP_FILLS, /* a higher watermark fills the buffer */
	PMK_ADVISE_KEEP_LITTLE, /* a higher watermark merges little more */
	PMK_ADVISE_KEEP,	/* at the buffer's size already */
};
typedef struct pmk_membuf_step {
	int kind;
	unsigned watermark; /* where the readings were taken */
	int read_ahead;	    /* 0, 1 (READ_AHEAD: the choice made) */
	unsigned higher;    /* the watermark tried above (RAISE, KEEP_*) */
	double v[3];	    /* the readings the step looked at */
} pmk_membuf_step;
enum { PMK_MEMBUF_MAX_STEPS = 10 };

/*
 * From the Addie readings only: read-ahead on when it raises the read
 * buffer hit average by 0.05 or more; then, from half the buffer, lower
 * the watermark while the write buffer fills (wb-full above 0.01) and raise
 * it while that raises the write-buffer hit average by 0.02 or more without
 * filling it. Fills up to PMK_MEMBUF_MAX_STEPS steps, the watermark and
 * read-ahead advised; 0 or a PMK_E* code.
 */
int pmk_membuf_advise(const pmk_membuf_config *base, const pmk_mem_access *req,
		      size_t n, pmk_membuf_step *steps, int *nsteps,
		      unsigned *watermark, int *read_ahead);

/* ---- plots (plots.c): 0, or PMK_EIO ---- */

/* Figures 2 and 3: the input and Addie streams averaged, the reading. */
int pmk_addie_plot_figure(FILE *f, const char *title, uint32_t num,
			  const double *input_avg, const double *addie_avg,
			  const double *reading, size_t n);
/* The settle distributions of streams 64/255 and 200/255, independent and
 * correlated (x[k], y[k]: k = stream * 2 + correlated, `seeds` points). */
int pmk_addie_plot_settle(FILE *f, uint64_t seeds, double *const x[4],
			  double *const y[4]);
/* Quality plot `which` (0 RMS error, 1 settle, 2 step) over the widths;
 * rows as pmk_addie_quality gave them, nb widths x PMK_EST_COUNT. With
 * f == NULL: 1 if the plot has data, else 0. */
int pmk_addie_plot_quality(FILE *f, int which, const pmk_quality_row *rows,
			   const unsigned *bits, int nb);
extern const char *const pmk_addie_quality_plot_file[3];
/* The step response of each estimator at 8 bits. */
int pmk_addie_plot_quality_trace(FILE *f, const pmk_quality_params *qp);
/* Stall per request against the watermark (st: read-ahead off then on). */
int pmk_membuf_plot_sweep(FILE *f, const double *wm, const double *st,
			  const double *read_st, const double *write_st,
			  int nw);
/* Addie readings (y[u][0]) and exact interval ratios (y[u][1]) of up to
 * two signals against committed instructions. */
int pmk_addie_plot_sim(FILE *f, int nsig, const char *const names[2],
		       const double *x, double *const y[2][3], size_t n);

#endif
