/*
 * pmkit/addie.h: the Addie stochastic monitor (seed 003, D. Mann, "Monitoring
 * Your Micro") and the DRAM interface buffer model it was built to watch.
 *
 * An Addie measures the probability that a 0/1 event stream is 1 (a cache
 * hit rate, a buffer hit rate) with an n-bit up/down counter, a
 * pseudo-random number from a 31-bit LFSR (feedback from stages 3 and 31),
 * a comparator (counter > random gives 1) and an XOR of the comparator
 * stream with the input stream: when they differ, the counter moves one
 * step toward the input. It never overflows and can be read at any time.
 * Every choice the article leaves open is written down in docs/addie.md.
 *
 * Nothing here prints, except the plots into the FILE given them; what
 * allocates says so (pmk_membuf_new, pmk_addie_sim_intervals, the
 * experiments' working memory).
 *
 * ADDIE ENTRY POINTS: seed 003's experiment kept in libpmkit (for pmkit
 * addie), not the monitoring API; its names may change between minor
 * versions (docs/api.md).
 */
#ifndef PMKIT_ADDIE_H
#define PMKIT_ADDIE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The 31-bit LFSR --------------------------------------------------- */

/*
 * A Fibonacci shift register of 31 stages numbered 1..31 in the direction of
 * shift: each clock, stage k moves to stage k+1 and stage 1 receives
 * (stage 3 XOR stage 31), polynomial x^31 + x^3 + 1 (primitive, so every
 * nonzero state lies on one cycle of 2^31 - 1 states).
 *
 * In `state`, bit j holds stage 31 - j: bit 0 is stage 31 (the output end),
 * bit 30 is stage 1. So the n stages nearest the output (32-n .. 31), read
 * with stage 32-n as the most significant bit, are simply `state & (2^n-1)`.
 */
typedef struct pmk_lfsr31 {
	uint32_t state; /* 31 bits, never 0 */
} pmk_lfsr31;

#define PMK_LFSR31_PERIOD 2147483647u /* 2^31 - 1 */

/* Set the state from a seed: the seed's low 31 bits, or 1 if they are 0. */
void pmk_lfsr31_seed(pmk_lfsr31 *l, uint32_t seed);
/* Clock once; returns the new stage-1 bit. */
unsigned pmk_lfsr31_clock(pmk_lfsr31 *l);
/* The value of stage k (1..31). */
unsigned pmk_lfsr31_stage(const pmk_lfsr31 *l, unsigned k);

/*
 * A generic small Fibonacci LFSR of `len` stages (2..31) with feedback from
 * stages `tap` and `len`, in the same layout: used to check the m-sequence
 * properties on smaller analogues. Returns the period of the cycle through
 * `start`, or 0 if it exceeds `limit` clocks.
 */
uint64_t pmk_lfsr_period(unsigned len, unsigned tap, uint32_t start,
			 uint64_t limit);

/* ---- The Addie --------------------------------------------------------- */

/* How the random number is formed each sample (docs/addie.md). */
enum pmk_addie_rng {
	/* The LFSR clocks n times per sample, so every sample gets n fresh
	 * bits: the top n stages (32-n .. 31). The default. */
	PMK_ADDIE_RNG_INDEPENDENT = 0,
	/* The article's correlated variant: the LFSR clocks once per sample
	 * and the same n consecutive stages are read with the MSB inverted,
	 * so the inverse of this number's MSB becomes the next number's
	 * next-to-MSB. */
	PMK_ADDIE_RNG_CORRELATED = 1,
	/* Ablation: clock once per sample, no inversion. */
	PMK_ADDIE_RNG_SHIFT1 = 2,
};

#define PMK_ADDIE_MIN_BITS 4
#define PMK_ADDIE_MAX_BITS 16

typedef struct pmk_addie_config {
	unsigned bits;	 /* counter and random-number width, 4..16 (8) */
	unsigned rng;	 /* enum pmk_addie_rng (INDEPENDENT) */
	uint32_t seed;	 /* LFSR seed, low 31 bits; 0 means 1 (1) */
	int32_t initial; /* counter start; -1 = half scale 2^(bits-1) (-1) */
} pmk_addie_config;

/*
 * The Addie's state. Public so that it can be embedded and stepped without
 * a call per sample being opaque; treat the fields as read-only.
 */
typedef struct pmk_addie {
	uint32_t counter; /* 0 .. 2^bits - 1 */
	uint32_t max;	  /* 2^bits - 1 */
	uint32_t lfsr;	  /* pmk_lfsr31 layout */
	uint32_t msb;	  /* 2^(bits-1) */
	unsigned bits, rng;
	uint64_t steps; /* samples taken */
	/* The LFSR advanced `bits` clocks, as four byte-indexed tables of the
	 * GF(2) jump matrix (INDEPENDENT mode only). */
	uint32_t jump[4][256];
} pmk_addie;

/* 8 bits, independent random numbers, seed 1, start at half scale. */
void pmk_addie_config_default(pmk_addie_config *c);
/* PMK_EINVAL for a width outside 4..16, an unknown rng or an initial value
 * outside the counter's range. */
int pmk_addie_init(pmk_addie *a, const pmk_addie_config *c);
/*
 * Take one sample of the input stream (`bit` 0 or nonzero): form the random
 * number, compare, and step the counter toward the input when the
 * comparator output and the input differ. Returns the comparator output
 * (the Addie's own stochastic stream) for this sample.
 */
int pmk_addie_step(pmk_addie *a, int bit);
/* Step over `n` samples given one per byte (0 or nonzero). */
void pmk_addie_run(pmk_addie *a, const uint8_t *bits, size_t n);
/* Step over `n` samples packed 64 per word, least significant bit first. */
void pmk_addie_run_packed(pmk_addie *a, const uint64_t *words, size_t n);
/* The random number the next sample would use is not exposed; this returns
 * the one the last sample used (for tests and the docs' worked examples). */
uint32_t pmk_addie_last_random(const pmk_addie *a);
/* The probability: counter / 2^bits, the comparator's mean output. */
double pmk_addie_read(const pmk_addie *a);

/* ---- An Addie attached to any 0/1 event stream ------------------------- */

/* An Addie with an exact tally beside it, readable mid-run. */
typedef struct pmk_addie_watch {
	pmk_addie addie;
	uint64_t events;      /* samples fed */
	uint64_t ones;	      /* of which 1 */
	uint64_t counter_sum; /* sum of the counter after each event */
	char name[32];
} pmk_addie_watch;

typedef struct pmk_addie_reading {
	double addie; /* the Addie's probability */
	double exact; /* ones / events (NaN before the first event) */
	double mean;  /* the reading averaged over the events (NaN before the
			 first event) */
	uint64_t events, ones;
	uint32_t counter;
	unsigned bits;
} pmk_addie_reading;

int pmk_addie_watch_init(pmk_addie_watch *w, const pmk_addie_config *c,
			 const char *name);
void pmk_addie_watch_feed(pmk_addie_watch *w, int bit);
void pmk_addie_watch_read(const pmk_addie_watch *w, pmk_addie_reading *r);

/*
 * Two Addies behind a multiplexer, as on the article's memory interface:
 * a source of events calls pmk_addie_mux_feed(m, SIGNAL, bit) for each of
 * its signals; each Addie steps only on the signal it is switched to.
 * A signal is a small number chosen by the source (0 .. 63); -1 switches an
 * Addie off. The exact tally of every signal is kept too.
 */
#define PMK_ADDIE_MUX_UNITS   2
#define PMK_ADDIE_MUX_SIGNALS 64
typedef struct pmk_addie_mux {
	pmk_addie_watch unit[PMK_ADDIE_MUX_UNITS];
	int select[PMK_ADDIE_MUX_UNITS];
	uint64_t events[PMK_ADDIE_MUX_SIGNALS], ones[PMK_ADDIE_MUX_SIGNALS];
} pmk_addie_mux;

int pmk_addie_mux_init(pmk_addie_mux *m, const pmk_addie_config *c);
/* Switch unit 0 or 1 to `signal` (or -1 for off); restarts its Addie. */
int pmk_addie_mux_select(pmk_addie_mux *m, int unit, int signal,
			 const char *name);
void pmk_addie_mux_feed(pmk_addie_mux *m, int signal, int bit);

/* ---- Experiments: the article's figures, and how good an Addie is ------ */

/* A synthetic stream: bit = 1 with probability num/255, from a generator
 * independent of the Addie's LFSR (xorshift64*, seeded). */
typedef struct pmk_bitsource {
	uint64_t s;
	uint32_t num, den; /* P(1) = num/den */
} pmk_bitsource;
void pmk_bitsource_init(pmk_bitsource *b, uint64_t seed, uint32_t num,
			uint32_t den);
int pmk_bitsource_next(pmk_bitsource *b);

/*
 * Seed 003's Figures 2 and 3: an Addie of config `c` on a stream of
 * probability num/255 for `n` samples. Fills, per sample, the input and the
 * Addie comparator streams averaged over the last `window` samples (fewer
 * at the start) and the counter's reading; any output pointer may be NULL.
 */
int pmk_addie_figure(const pmk_addie_config *c, uint32_t num,
		     uint64_t stream_seed, size_t n, size_t window,
		     double *input_avg, double *addie_avg, double *reading);

/*
 * Samples until an Addie "tracks" the input: the first sample at which its
 * reading is within `tol` of the stream's probability (num/255). Returns
 * the count, or `limit` if it never got there.
 */
uint64_t pmk_addie_settle(const pmk_addie_config *c, uint32_t num,
			  uint64_t stream_seed, double tol, uint64_t limit);

/* The estimators compared in `pmkit addie quality`. */
enum pmk_estimator {
	PMK_EST_ADDIE = 0,	/* independent random numbers */
	PMK_EST_ADDIE_CORR = 1, /* correlated random numbers */
	PMK_EST_RATIO = 2,	/* two counters, ratio over blocks of 2^bits */
	PMK_EST_EMA = 3,	/* exponential moving average, alpha 2^-bits */
	PMK_EST_ADDIE_SHIFT1 = 4, /* ablation: one clock, no inversion */
	PMK_EST_COUNT
};
const char *pmk_estimator_name(int est);

typedef struct pmk_quality_row {
	int estimator;
	unsigned bits;
	double settle_median, settle_q1,
	    settle_q3;	    /* samples, 0.5 -> p;
			     INFINITY: not within 20 windows */
	double rms_error;   /* steady state, probability units */
	double step_median; /* samples to track a step change */
	double step_rms;    /* RMS error over the 4 * 2^bits after a step */
	unsigned seeds;
} pmk_quality_row;

typedef struct pmk_quality_params {
	uint32_t num;	   /* stationary probability num/255 (64) */
	uint32_t step_num; /* after the step (200) */
	double tol;	   /* "tracking" band (0.02) */
	unsigned seeds;	   /* repetitions (16) */
	uint64_t seed;	   /* base seed (1) */
} pmk_quality_params;
void pmk_quality_params_default(pmk_quality_params *p);
/*
 * One estimator's reading over time on a stream that changes from num/255
 * to step_num/255 after `before` samples: fills out[0 .. before+after-1].
 */
int pmk_estimator_trace(int estimator, unsigned bits, uint64_t seed,
			uint32_t num, uint32_t step_num, size_t before,
			size_t after, double *out);
/* Measure one estimator at one width. */
int pmk_addie_quality(const pmk_quality_params *p, int estimator, unsigned bits,
		      pmk_quality_row *out);
/* Every estimator at each of the nb widths of `bits`, into
 * rows[b * PMK_EST_COUNT + estimator]; 0 or the first error. */
int pmk_addie_quality_grid(const pmk_quality_params *p, const unsigned *bits,
			   int nb, pmk_quality_row *rows);

/* ---- The DRAM interface buffer ---------------------------------------- */

/* One memory request from the processor. */
typedef struct pmk_mem_access {
	uint32_t addr; /* byte address */
	uint8_t size;  /* 1, 2 or 4 bytes within one word, or 16: a burst of
			  the 4 words of an aligned line */
	uint8_t write; /* 1 for a write */
	uint16_t gap;  /* processor cycles since the previous request */
} pmk_mem_access;

/* The signals an Addie can be switched to. */
enum pmk_membuf_signal {
	PMK_MEMBUF_WB_HIT = 0,	   /* per write: snoop found its word */
	PMK_MEMBUF_READ_MERGE = 1, /* per read: >= 1 byte from the buffer */
	PMK_MEMBUF_WB_FULL = 2,	   /* per write: found the buffer full */
	PMK_MEMBUF_RB_HIT = 3,	   /* per read: served by the read buffer */
	PMK_MEMBUF_NSIGNALS
};
const char *pmk_membuf_signal_name(int signal);

typedef struct pmk_membuf_config {
	unsigned wb_words;     /* write buffer entries, 1..64 (32) */
	unsigned watermark;    /* 1..wb_words (16) */
	int read_ahead;	       /* prefetch the next line (0) */
	int read_around_write; /* reads pass queued writes (1) */
	/* DRAM timing in bus cycles (docs/addie.md) */
	unsigned t_row_hit;	/* column access, open row (2) */
	unsigned t_row_miss;	/* precharge + activate + column (6) */
	unsigned t_word;	/* per word transferred (1) */
	unsigned row_bytes;	/* DRAM page size (2048) */
	unsigned banks;		/* banks, one open row each (4) */
	pmk_addie_config addie; /* the two monitoring Addies */
	int select[2];		/* their signals (WB_HIT, RB_HIT) */
} pmk_membuf_config;

typedef struct pmk_membuf_stats {
	uint64_t reads, writes;
	uint64_t wb_hits, wb_merges, wb_collapses, wb_full;
	uint64_t read_merges, rb_hits;
	uint64_t dram_reads, dram_writes, prefetches, prefetch_used;
	uint64_t row_hits, row_misses;
	uint64_t cycles;	     /* processor time at the last request */
	uint64_t read_stall_cycles;  /* waiting for read data */
	uint64_t write_stall_cycles; /* waiting for a full write buffer */
	uint64_t dram_busy_cycles;
} pmk_membuf_stats;

typedef struct pmk_membuf pmk_membuf;

void pmk_membuf_config_default(pmk_membuf_config *c);
/* NULL on a bad config (*err says why) or no memory. */
pmk_membuf *pmk_membuf_new(const pmk_membuf_config *c, int *err);
void pmk_membuf_free(pmk_membuf *m);
/* Present one request; PMK_EINVAL for a bad size or alignment. */
int pmk_membuf_access(pmk_membuf *m, const pmk_mem_access *a);
/* Drain the write buffer (end of run; not counted as stall). */
void pmk_membuf_flush(pmk_membuf *m);
const pmk_membuf_stats *pmk_membuf_stats_get(const pmk_membuf *m);
/* The Addies and the exact tallies behind them. */
const pmk_addie_mux *pmk_membuf_mux(const pmk_membuf *m);
/* Exact ratio of a signal (NaN when it had no events). */
double pmk_membuf_exact(const pmk_membuf *m, int signal);
/* Modelled stall time: read + write stall cycles. */
uint64_t pmk_membuf_stall(const pmk_membuf *m);

/* Named generated access patterns. */
int pmk_mempattern_count(void);
const char *pmk_mempattern_name(int id);
const char *pmk_mempattern_desc(int id);
/* The id of a name, or PMK_ENOENT. */
int pmk_mempattern_find(const char *name);
/* Generate `n` requests of pattern `id` from `seed`; PMK_EINVAL for a bad
 * id. The same (id, seed, n) always gives the same requests. */
int pmk_mempattern_generate(int id, uint64_t seed, pmk_mem_access *out,
			    size_t n);

/*
 * Bus requests from a stream of simulated instructions (pmkit/sim.h: a
 * trace reader with pmk_trace_next, a pmk_sim_source, a workload): one
 * request per word each memory operand touches, a gap of one cycle per
 * instruction (docs/addie.md). Stops after `max` requests or at the end of
 * the stream; returns 0, or the stream's negative error (its diag says
 * where), with *count set either way.
 */
struct pmk_sim_insn;
int pmk_mem_from_insns(int (*next)(void *src, struct pmk_sim_insn *out),
		       void *src, pmk_mem_access *out, size_t max,
		       size_t *count);

/* The random-number mode's name ("independent", "correlated", "shift1"),
 * or NULL; and the mode of a name, or PMK_ENOENT. */
const char *pmk_addie_rng_name(unsigned rng);
int pmk_addie_rng_find(const char *name);

/*
 * Requests from a trace file or a workload of the simulator (`what` and
 * `kind` as pmk_sim_source_open takes them): pmk_mem_from_insns over the
 * source, at most `max`, into a new array *out (free() it). 0 with *count
 * set (0 when the source has no memory access), or a negative PMK_E* code
 * with `d` saying why (*out NULL).
 */
int pmk_mem_load(const char *what, int kind, size_t max,
		 pmk_mem_access **out, size_t *count, pmk_diag *d);

/* ---- Addies on the simulated core's event streams ---------------------- */

/* 0/1 signals of committed instructions an Addie can watch. */
enum pmk_addie_sim_signal {
	PMK_ADDIE_SIM_L1D_HIT = 0,   /* per committed load */
	PMK_ADDIE_SIM_L2_HIT = 1,    /* per committed load that missed L1D */
	PMK_ADDIE_SIM_DTLB_HIT = 2,  /* per committed load or store */
	PMK_ADDIE_SIM_L1I_HIT = 3,   /* per committed instruction */
	PMK_ADDIE_SIM_BRANCH_OK = 4, /* per committed branch: predicted */
	PMK_ADDIE_SIM_NSIGNALS
};
const char *pmk_addie_sim_signal_name(int signal);
const char *pmk_addie_sim_signal_desc(int signal);
int pmk_addie_sim_signal_find(const char *name); /* or PMK_ENOENT */
/* The signals of a comma-separated list of names, two at most, into
 * sel[]: their count (0 for none), or PMK_ENOENT for an unknown name or
 * PMK_EINVAL for a third, `d` saying which and listing the signals. */
int pmk_addie_sim_signals_parse(const char *list, int sel[2], pmk_diag *d);

struct pmk_sim_uop;
struct pmk_sim_observer;
/* Feed the signals of one instruction event (only commits count) into a
 * multiplexer whose units are switched to PMK_ADDIE_SIM_* signals. For an
 * observer of one's own, call this from its `uop` callback. */
void pmk_addie_sim_feed(pmk_addie_mux *m, const struct pmk_sim_uop *u);
/* Or fill an observer that does only that, for pmk_sim_set_observer(); run
 * the core in steps (pmk_sim_run(s, N)) and read the Addies in between. */
void pmk_addie_sim_observer(struct pmk_sim_observer *o, pmk_addie_mux *m);

/* What two Addies on the simulated core read at the end of an interval. */
typedef struct pmk_addie_sim_interval {
	uint64_t committed, cycles; /* the core's totals so far */
	double addie[2];    /* the reading; NAN before the signal's first
			       event */
	double interval[2]; /* the exact ratio within the interval; NAN: no
			       event in it */
	double exact[2];    /* the exact ratio since the start */
	uint64_t events[2]; /* the signal's events since the start */
} pmk_addie_sim_interval;

/*
 * Run the core `sim` (pmkit/sim.h, its observer replaced for the run and
 * cleared after) to the end of its stream in steps of `every` committed
 * instructions, Addies of config `c` switched to the nsig (1 or 2)
 * PMK_ADDIE_SIM_* signals of `signals`, and read them after each step.
 * *out: a new array of *n intervals (free() it). 0, PMK_EINVAL,
 * PMK_ENOMEM, or the stream's negative error (pmk_sim_diag says where);
 * *out is NULL after an error.
 */
struct pmk_sim;
int pmk_addie_sim_intervals(struct pmk_sim *sim, const pmk_addie_config *c,
			    const int *signals, int nsig, uint64_t every,
			    pmk_addie_sim_interval **out, size_t *n);
/* The same on a core of the default configuration (pmk_sim_config_default)
 * fed by the trace or workload `what` (as pmk_sim_source_open takes it and
 * `kind`); `d` says why after an error (the source, the core, the stream
 * or PMK_ENOMEM). */
int pmk_addie_sim_watch(const char *what, int kind, const pmk_addie_config *c,
			const int *signals, int nsig, uint64_t every,
			pmk_addie_sim_interval **out, size_t *n, pmk_diag *d);

/* ---- Samples to track the input, over many seeds --------------------- */

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

/* The streams of Figures 2 and 3: 64/255 and 200/255. */
extern const uint32_t pmk_addie_figure_nums[2];
/*
 * pmk_addie_settle_stats_run for each stream of the figures (k) in both
 * random-number modes (m: independent, correlated) at width `bits`, into
 * out[k * 2 + m]; `sorted` NULL, or four arrays of `seeds` counts.
 */
int pmk_addie_settle_figures(unsigned bits, uint64_t seeds, double tol,
			     pmk_addie_settle_stats out[4],
			     uint64_t *const sorted[4]);

/* ---- The DRAM buffer watched by two Addies, and the advice ----------- */

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
/* What a step concludes, in words ("keep", "read-ahead on: ..."). */
const char *pmk_membuf_step_conclusion(const pmk_membuf_step *s);

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

/* Every watermark of pmk_membuf_sweep_watermarks with read-ahead off and
 * on, the least stall among them, and the choice the Addie readings
 * advise (pmk_membuf_advise) observed beside it. */
#define PMK_MEMBUF_SWEEP_NW 12
extern const unsigned pmk_membuf_sweep_watermarks[PMK_MEMBUF_SWEEP_NW];
typedef struct pmk_membuf_sweep {
	pmk_membuf_obs obs[2][PMK_MEMBUF_SWEEP_NW]; /* [read-ahead][watermark] */
	unsigned best_watermark; /* the least stall: the first one found, */
	int best_read_ahead;	 /* read-ahead off before on, watermarks */
	uint64_t best_stall;	 /* ascending */
	pmk_membuf_step steps[PMK_MEMBUF_MAX_STEPS]; /* the advice */
	int nsteps;
	unsigned advised_watermark;
	int advised_read_ahead;
	pmk_membuf_obs advised; /* the requests under the advised choice */
} pmk_membuf_sweep;
/* 0 or a PMK_E* code (a request the buffer refuses, no memory). */
int pmk_membuf_sweep_run(const pmk_membuf_config *base,
			 const pmk_mem_access *req, size_t n,
			 pmk_membuf_sweep *out);

/* ---- SVG plots of the experiments: 0, or PMK_EIO ---------------------- */

/* Figures 2 and 3: the input and Addie streams averaged, the reading. */
int pmk_addie_plot_figure(FILE *f, const char *title, uint32_t num,
			  const double *input_avg, const double *addie_avg,
			  const double *reading, size_t n);
/* The settle distributions of pmk_addie_settle_figures (its `sorted`
 * counts, `seeds` each). */
int pmk_addie_plot_settle(FILE *f, uint64_t seeds,
			  const uint64_t *const sorted[4]);
/* Quality plot `which` (0 RMS error, 1 settle, 2 step) over the widths;
 * rows as pmk_addie_quality gave them, nb widths x PMK_EST_COUNT. With
 * f == NULL: 1 if the plot has data, else 0. */
int pmk_addie_plot_quality(FILE *f, int which, const pmk_quality_row *rows,
			   const unsigned *bits, int nb);
extern const char *const pmk_addie_quality_plot_file[3];
/* The step response of each estimator at 8 bits. */
int pmk_addie_plot_quality_trace(FILE *f, const pmk_quality_params *qp);
/* Stall per request against the watermark, read-ahead off and on, from a
 * sweep over `n` requests. */
int pmk_membuf_plot_sweep(FILE *f, const pmk_membuf_sweep *s, size_t n);
/* The Addie readings and the exact interval ratios of up to two signals
 * against committed instructions, from pmk_addie_sim_intervals. */
int pmk_addie_plot_sim(FILE *f, int nsig, const char *const names[2],
		       const pmk_addie_sim_interval *iv, size_t n);

#ifdef __cplusplus
}
#endif
#endif
