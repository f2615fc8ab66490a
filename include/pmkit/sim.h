/*
 * pmkit/sim.h: the simulated core, its trace format and PMU model.
 *
 * Four parts, usable on their own:
 *   traces     a record per executed instruction (pmk_sim_insn), read and
 *              written in pmkit's compact streamed format
 * (docs/trace-format.md) or imported from ChampSim `input_instr` files;
 *   workloads  named synthetic instruction streams generated on the fly,
 *              deterministic by seed;
 *   core       a trace-driven out-of-order core (front end with wrong-path
 *              fetch, ROB, caches, TLBs, branch predictors) configured by a
 *              small text file (docs/sim.md);
 *   PMU        seed 000's counters: event detectors with event masks and
 *              privilege qualification, threshold, edge, inversion, overflow
 *              interrupts with skid, ProfileMe and paired sampling.
 * Nothing here prints; errors come back as PMK_E* codes with a pmk_diag.
 *
 * SIMULATOR ENTRY POINTS: the simulated core is an experiment kept in
 * libpmkit (for pmkit sim, cpistack and addie), not the monitoring API;
 * its names may change between minor versions (docs/api.md).
 */
#ifndef PMKIT_SIM_H
#define PMKIT_SIM_H

#include <stdint.h>

#include "pmkit/error.h"
#include "pmkit/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- traces */

/* Operation class of an instruction. Values are part of the trace format. */
typedef enum pmk_sim_op {
	PMK_SIM_OP_OTHER = 0,
	PMK_SIM_OP_INT,	 /* integer ALU */
	PMK_SIM_OP_IMUL, /* integer multiply / divide */
	PMK_SIM_OP_FADD, /* FP add / multiply */
	PMK_SIM_OP_FDIV, /* FP divide / square root */
	PMK_SIM_OP_LOAD,
	PMK_SIM_OP_STORE,
	PMK_SIM_OP_BCOND, /* conditional branch */
	PMK_SIM_OP_JUMP,  /* unconditional direct branch */
	PMK_SIM_OP_JIND,  /* indirect branch */
	PMK_SIM_OP_CALL,
	PMK_SIM_OP_RET,
	PMK_SIM_OP_COUNT
} pmk_sim_op;

#define PMK_SIM_MAX_SRC 4
#define PMK_SIM_MAX_DST 2
#define PMK_SIM_MAX_MEM 2

typedef struct pmk_sim_mem {
	uint64_t addr;
	uint8_t size;  /* bytes, 1..255 */
	uint8_t store; /* 1 = written, 0 = read */
} pmk_sim_mem;

/* One executed instruction. Registers are 1..255 (0 is never used). */
typedef struct pmk_sim_insn {
	uint64_t pc;
	uint64_t target; /* branches: where it goes when taken */
	pmk_sim_mem mem[PMK_SIM_MAX_MEM];
	uint8_t op;	/* pmk_sim_op */
	uint8_t len;	/* bytes, 1..15 */
	uint8_t taken;	/* branches: 1 when taken */
	uint8_t kernel; /* 1 = supervisor mode */
	uint8_t nsrc, ndst, nmem;
	uint8_t src[PMK_SIM_MAX_SRC], dst[PMK_SIM_MAX_DST];
} pmk_sim_insn;

/* Whether an op class is a control transfer. */
int pmk_sim_op_is_branch(int op);
/* Short name of an op class ("load"), or "?" */
const char *pmk_sim_op_name(int op);

/* A stream of instructions: fills *out and returns 1, 0 at the end, or a
 * negative PMK_E* code (details in the source's own diag). */
typedef int (*pmk_sim_next_fn)(void *src, pmk_sim_insn *out);

#define PMK_TRACE_VERSION 1

enum pmk_trace_kind {
	PMK_TRACE_AUTO = 0, /* pmkit format by its magic, else error */
	PMK_TRACE_PMKIT,    /* pmkit's own format */
	PMK_TRACE_CHAMPSIM, /* ChampSim input_instr, 64-byte records */
};

typedef struct pmk_trace_reader pmk_trace_reader;
typedef struct pmk_trace_writer pmk_trace_writer;

/* Open a trace file ("-" = stdin). */
int pmk_trace_open(pmk_trace_reader **r, const char *path, int kind,
		   pmk_diag *d);
/* Read from memory (the buffer must outlive the reader). */
int pmk_trace_open_mem(pmk_trace_reader **r, const void *buf, uint64_t size,
		       int kind, pmk_diag *d);
/* Next record: 1, 0 at the end, negative on a malformed file (d says where:
 * the byte offset is in d->column... see docs/trace-format.md). */
int pmk_trace_read(pmk_trace_reader *r, pmk_sim_insn *out);
/* The reader's diagnostic after a failed read. */
const pmk_diag *pmk_trace_diag(const pmk_trace_reader *r);
uint64_t pmk_trace_count(const pmk_trace_reader *r); /* records read */
void pmk_trace_close(pmk_trace_reader *r);
/* pmk_sim_next_fn adapter: pass the reader as `src`. */
int pmk_trace_next(void *reader, pmk_sim_insn *out);

/* Create a trace file ("-" = stdout): a new file beside `path`, renamed
 * into place by pmk_trace_finish once a record was written (the previous
 * file kept as `path`.old); with none, an existing file is untouched. */
int pmk_trace_create(pmk_trace_writer **w, const char *path, pmk_diag *d);
/* Or into a growing memory buffer, taken with pmk_trace_writer_buffer(). */
int pmk_trace_create_mem(pmk_trace_writer **w);
/* Append one record; PMK_EINVAL when a field is out of range. */
int pmk_trace_write(pmk_trace_writer *w, const pmk_sim_insn *in);
const void *pmk_trace_writer_buffer(const pmk_trace_writer *w, uint64_t *size);
/* Flush and close; returns PMK_EIO if any write failed. */
int pmk_trace_finish(pmk_trace_writer *w);

/*
 * Real programs: valgrind lackey's log (`--tool=lackey --trace-mem=yes
 * -v -v -v`) fed line by line becomes trace records (sim/trace/lackey.c).
 * Op classes, registers and branch targets come from decoding the code
 * bytes with capstone when pmkit was built with it.
 */
typedef struct pmk_lackey pmk_lackey;
typedef struct pmk_lackey_stats {
	uint64_t instructions, decoded, branches, objects, bad_lines;
	uint64_t skipped; /* decoded but not written (pmk_lackey_skip) */
} pmk_lackey_stats;
/* Whether instruction decoding (capstone) is built in. */
int pmk_lackey_available(void);
int pmk_lackey_new(pmk_lackey **l, pmk_trace_writer *w);
/* Drop the first n instructions (a program's start-up, say): decoded, so
 * the rest is unchanged, but not written. */
void pmk_lackey_skip(pmk_lackey *l, uint64_t n);
/* One line of the log, without or with its newline. */
int pmk_lackey_line(pmk_lackey *l, const char *line);
int pmk_lackey_finish(pmk_lackey *l);
const pmk_lackey_stats *pmk_lackey_stats_get(const pmk_lackey *l);
void pmk_lackey_free(pmk_lackey *l);

/* ------------------------------------------------------------- workloads */

typedef struct pmk_workload pmk_workload;

/*
 * A workload from a spec "NAME[:KEY=VALUE,...]", e.g.
 * "pointer-chase:n=100000,footprint=64M,seed=7". Keys are listed by
 * pmk_workload_foreach's `params` and in docs/sim.md.
 */
int pmk_workload_new(pmk_workload **w, const char *spec, pmk_diag *d);
int pmk_workload_next(void *w, pmk_sim_insn *out); /* pmk_sim_next_fn */
void pmk_workload_free(pmk_workload *w);
/* Named presets: name and one-line description. */
int pmk_workload_foreach(int (*fn)(const char *name, const char *desc,
				   void *arg),
			 void *arg);

/*
 * A source of instructions for the core: `what` is a trace file when it names
 * an existing file (or `kind` is not PMK_TRACE_AUTO), else a workload spec.
 */
typedef struct pmk_sim_source pmk_sim_source;
int pmk_sim_source_open(pmk_sim_source **s, const char *what, int kind,
			pmk_diag *d);
int pmk_sim_source_next(void *s, pmk_sim_insn *out); /* pmk_sim_next_fn */
/* Why the last next() failed. */
const pmk_diag *pmk_sim_source_diag(const pmk_sim_source *s);
void pmk_sim_source_close(pmk_sim_source *s);

/* ---------------------------------------------------------------- config */

typedef struct pmk_sim_cache_cfg {
	uint32_t size_bytes; /* 0 = absent (L3 only) */
	uint32_t assoc;
	uint32_t line_bytes;
	uint32_t latency; /* cycles to hit at this level */
} pmk_sim_cache_cfg;

typedef struct pmk_sim_tlb_cfg {
	uint32_t entries, assoc;
	uint32_t miss_latency; /* cycles of a page walk */
} pmk_sim_tlb_cfg;

enum pmk_sim_bp_kind {
	PMK_SIM_BP_BIMODAL,
	PMK_SIM_BP_GSHARE,
	PMK_SIM_BP_HYBRID
};

/* Idealization switches (pmk_sim_config.perfect). */
enum {
	PMK_SIM_PERFECT_L1I = 1 << 0,
	PMK_SIM_PERFECT_L2I = 1 << 1, /* L2 always hits for instructions */
	PMK_SIM_PERFECT_ITLB = 1 << 2,
	PMK_SIM_PERFECT_L1D = 1 << 3,
	PMK_SIM_PERFECT_L2D = 1 << 4, /* L2 always hits for data */
	PMK_SIM_PERFECT_DTLB = 1 << 5,
	PMK_SIM_PERFECT_BP = 1 << 6,
	PMK_SIM_PERFECT_LONGLAT = 1 << 7, /* 1-cycle mul/div/FP units */
};

typedef struct pmk_sim_config {
	uint32_t fetch_width, dispatch_width, issue_width, commit_width;
	uint32_t rob_size;
	uint32_t fe_depth; /* front-end stages, fetch to dispatch */
	uint32_t lat[PMK_SIM_OP_COUNT]; /* execution latency per op class */
	pmk_sim_cache_cfg l1i, l1d, l2, l3;
	pmk_sim_tlb_cfg itlb, dtlb;
	uint32_t page_bytes;
	uint32_t mem_latency; /* cycles beyond the last cache level */
	uint32_t max_misses;  /* outstanding L1D misses (MSHRs) */
	uint32_t bp_kind;     /* pmk_sim_bp_kind */
	uint32_t bp_bits;     /* log2 entries of predictor tables */
	uint32_t bp_history;  /* global history bits (gshare, hybrid) */
	uint32_t btb_entries, btb_assoc, ras_depth;
	uint32_t wrong_path_loads; /* wrong-path loads access the D-side */
	uint32_t perfect;	   /* PMK_SIM_PERFECT_* */
	uint32_t pmu_counters;	   /* programmable counters */
	uint32_t pmu_skid;	   /* cycles from overflow to interrupt */
	uint32_t pmu_skid_jitter;  /* + 0..jitter more cycles, pseudo-random */
	uint32_t pmu_rotate; /* cycles between multiplexing rotations (sim
				backend), like the kernel's mux interval */
	uint32_t pcmap_max; /* entries of the static PC map (wrong path) */
	uint32_t freq_mhz;  /* for times in ns */
} pmk_sim_config;

/* The default: a 4-wide core with a 128-entry ROB (seed 001's). */
void pmk_sim_config_default(pmk_sim_config *c);
/* Set one key ("rob_size", "l1d.size", "perfect", ...) from text. */
int pmk_sim_config_set(pmk_sim_config *c, const char *key, const char *value,
		       pmk_diag *d);
/* Apply a configuration file ("key = value" lines, docs/sim.md); errors
 * name file:line:column. */
int pmk_sim_config_load(pmk_sim_config *c, const char *path, pmk_diag *d);
/* Same, from text in memory (`name` is used in diagnostics). */
int pmk_sim_config_parse(pmk_sim_config *c, const char *text, uint64_t len,
			 const char *name, pmk_diag *d);
/* Check the values are usable (powers of two, ranges). */
int pmk_sim_config_check(const pmk_sim_config *c, pmk_diag *d);
/* Write every key = value line (the file format) to a buffer. */
int pmk_sim_config_format(const pmk_sim_config *c, char *buf,
			  unsigned long size);

/* ------------------------------------------------------------ PMU events */

/* Event masks of the instruction events: bit (1 << op class). */
#define PMK_SIM_UMASK_OP(op) (1u << (op))

/* How a counter is programmed. */
typedef struct pmk_sim_counter_cfg {
	uint16_t event;	 /* index in the event table */
	uint32_t umask;	 /* event mask, 0 = all */
	uint8_t usr, os; /* count in user / supervisor mode */
	uint8_t edge, inv;
	uint16_t
	    thresh; /* 0 = add the value; else count cycles value > thresh */
	uint64_t
	    period; /* overflow interrupt every `period` counts, 0 = none */
} pmk_sim_counter_cfg;

typedef struct pmk_sim_event_desc {
	const char *name;
	const char *desc;
	const char *umask_desc; /* what the mask selects, or NULL */
	uint8_t per_cycle_max;	/* largest value in one cycle (0 = width) */
	uint8_t speculative;	/* counts wrong-path work */
} pmk_sim_event_desc;

int pmk_sim_event_count(void);
const pmk_sim_event_desc *pmk_sim_event_get(int i);
int pmk_sim_event_find(const char *name);

/*
 * Parse "[sim/]EVENT[:umask=N][:e][:i][:c=N][:u][:k][:period=N]" into a
 * counter configuration. Errors carry the column.
 */
int pmk_sim_counter_parse(const char *str, pmk_sim_counter_cfg *cfg,
			  pmk_diag *d);
/* Encode to / decode from perf-like config words (sim backend attrs):
 * config = event | umask << 16 | edge << 48 | inv << 49 | thresh << 52. */
uint64_t pmk_sim_counter_encode(const pmk_sim_counter_cfg *cfg);
void pmk_sim_counter_decode(uint64_t config, pmk_sim_counter_cfg *cfg);

/*
 * An event for the sim backend (pmu "sim", type PMK_TYPE_SIM): a sim event
 * string as above, or a generic perf name mapped to its sim equivalent
 * (cycles, instructions, branches, branch-misses, cache-references,
 * cache-misses, L1-dcache-loads, L1-dcache-load-misses,
 * L1-icache-load-misses, LLC-loads, LLC-load-misses, dTLB-load-misses,
 * iTLB-load-misses, stalled-cycles-frontend, stalled-cycles-backend),
 * optionally followed by :u or :k.
 */
int pmk_sim_event_parse(const char *str, pmk_event *ev, pmk_diag *d);

/* ------------------------------------------------------------------ core */

typedef struct pmk_sim pmk_sim;

/* Why the ROB head is not done (pmk_sim_cycle.head_cause). */
enum pmk_sim_cause {
	PMK_SIM_CAUSE_NONE = 0, /* done, or ROB empty */
	PMK_SIM_CAUSE_EXEC, /* short op still executing or waiting to issue */
	PMK_SIM_CAUSE_L1D,  /* load waits on a line from L2 */
	PMK_SIM_CAUSE_L2D,  /* load waits on a line from beyond the last
			     * cache level (its own miss, or an earlier one
			     * to the same line still under way) */
	PMK_SIM_CAUSE_DTLB, /* load missed the D-TLB */
	PMK_SIM_CAUSE_LONGLAT, /* mul/div/FP-div unit */
};

/* Why the front end delivered nothing new into its pipe this cycle. */
enum pmk_sim_fe_cause {
	PMK_SIM_FE_NONE = 0, /* fetched */
	/* A fetch that misses several levels waits on them in turn: */
	PMK_SIM_FE_L1I,	 /* an L1I miss, for the L2's latency */
	PMK_SIM_FE_L2I,	 /* then beyond L2 (a miss, or a line on its way) */
	PMK_SIM_FE_ITLB, /* first the I-TLB walk */
	PMK_SIM_FE_FULL, /* front-end queue full (back end) */
	PMK_SIM_FE_WRONG_STOP, /* wrong path left the known code (no longer
				  reported: such code is now fetched as
				  one-cycle ops; the value is kept) */
	PMK_SIM_FE_END,	       /* trace exhausted */
};

/* Per-cycle signals, for accountants watching the core (CPI stacks). */
typedef struct pmk_sim_cycle {
	uint64_t cycle;
	uint16_t fetched, fetched_wrong;
	uint16_t dispatched, dispatched_wrong;
	uint16_t committed;
	uint16_t rob_count;
	uint8_t rob_full;
	uint8_t head_cause; /* pmk_sim_cause */
	uint8_t head_kernel;
	uint8_t fe_cause;   /* pmk_sim_fe_cause */
	uint8_t wrong_path; /* fetch is on a wrong path this cycle */
	uint8_t fq_empty;   /* nothing ready to dispatch in the front end */
	uint8_t squash;	    /* a misprediction was repaired this cycle */
	uint64_t fe_pc;	    /* an I-side stall: the instruction whose fetch
			     * waits (0 otherwise) */
} pmk_sim_cycle;

/* An instruction's lifetime events (pmk_sim_uop.what). */
enum pmk_sim_uop_event {
	PMK_SIM_UOP_FETCH = 1, /* wrong-path ones too (PMK_SIM_F_WRONG) */
	PMK_SIM_UOP_DISPATCH,
	PMK_SIM_UOP_COMMIT,
	PMK_SIM_UOP_SQUASH,  /* wrong-path instruction thrown away */
	PMK_SIM_UOP_RESOLVE, /* a mispredicted branch resolved; the SQUASH
			      * events of its younger instructions follow */
};

/* Miss flags of one instruction (pmk_sim_uop.flags). */
enum {
	PMK_SIM_F_L1I_MISS = 1 << 0,
	PMK_SIM_F_L2I_MISS = 1 << 1,
	PMK_SIM_F_ITLB_MISS = 1 << 2,
	PMK_SIM_F_L1D_MISS = 1 << 3,
	PMK_SIM_F_L2D_MISS = 1 << 4,
	PMK_SIM_F_DTLB_MISS = 1 << 5,
	PMK_SIM_F_MISPRED = 1 << 6,
	PMK_SIM_F_WRONG = 1 << 7, /* on a wrong path */
};

typedef struct pmk_sim_uop {
	int what;     /* pmk_sim_uop_event */
	uint64_t seq; /* fetch order, wrong-path ones included */
	uint64_t pc;
	uint32_t rob_id; /* slot in the ROB (valid from dispatch) */
	uint8_t op, kernel;
	uint16_t flags; /* PMK_SIM_F_* */
	uint64_t fetch_cycle, dispatch_cycle, issue_cycle, done_cycle;
	uint64_t cycle; /* when this event happened */
} pmk_sim_uop;

/* Someone watching the core (all callbacks optional). */
typedef struct pmk_sim_observer {
	void (*cycle)(void *arg, const pmk_sim_cycle *c);
	void (*uop)(void *arg, const pmk_sim_uop *u);
	void *arg;
} pmk_sim_observer;

/* A sample: from a counter overflow or from ProfileMe. */
typedef struct pmk_sim_sample {
	int counter; /* counter index, or -1 for ProfileMe */
	uint64_t pc; /* interrupted PC / profiled instruction's PC */
	uint64_t cycle;
	uint8_t kernel;
	/* ProfileMe only: */
	uint8_t retired; /* 0 = squashed */
	uint16_t flags;	 /* PMK_SIM_F_* */
	uint8_t op;
	uint64_t fetch_cycle, dispatch_cycle, issue_cycle, done_cycle,
	    retire_cycle;
	/* paired: the partner, fetched within the pair window */
	uint8_t paired;
	uint64_t pair_pc;
	uint16_t pair_flags;
	uint64_t pair_fetch_cycle, pair_retire_cycle;
	uint8_t pair_retired;
	int64_t pair_distance; /* partner's fetch index - this one's */
} pmk_sim_sample;

typedef void (*pmk_sim_sample_fn)(void *arg, const pmk_sim_sample *s);

typedef struct pmk_sim_stats {
	uint64_t cycles, committed, fetched, fetched_wrong, dispatched,
	    dispatched_wrong, squashed;
	uint64_t branches, mispredicts;
	uint64_t l1i_access, l1i_miss, l2_access, l2_miss, l3_access, l3_miss,
	    l1d_access, l1d_miss, itlb_miss, dtlb_miss;
	uint64_t rob_full_cycles, fe_stall_cycles;
} pmk_sim_stats;

/* A core running `next(src)`. The config is copied. */
int pmk_sim_new(pmk_sim **s, const pmk_sim_config *cfg, pmk_sim_next_fn next,
		void *src, pmk_diag *d);
void pmk_sim_free(pmk_sim *s);
void pmk_sim_set_observer(pmk_sim *s, const pmk_sim_observer *o);

/* Program counter i (0..pmu_counters-1 programmable; the fixed ones follow:
 * pmu_counters + 0 = instructions retired, + 1 = cycles, read only). */
int pmk_sim_counter_set(pmk_sim *s, int i, const pmk_sim_counter_cfg *cfg);
int pmk_sim_counter_enable(pmk_sim *s, int i, int on);
int pmk_sim_counter_clear(pmk_sim *s, int i);
uint64_t pmk_sim_counter_read(const pmk_sim *s, int i);
int pmk_sim_counter_total(const pmk_sim *s); /* programmable + fixed */
/* Overflow samples and ProfileMe samples go here. */
void pmk_sim_set_sampler(pmk_sim *s, pmk_sim_sample_fn fn, void *arg);
/* ProfileMe: tag one fetched instruction every `interval` on average
 * (randomised by `seed`), paired with a partner up to `pair_window` fetches
 * later when pair_window > 0. interval 0 turns it off. */
int pmk_sim_profileme(pmk_sim *s, uint64_t interval, uint32_t pair_window,
		      uint64_t seed);

/* Run up to `max_insns` more committed instructions (0 = to the end).
 * Returns 1 while the stream has more, 0 at its end, negative on error. */
int pmk_sim_run(pmk_sim *s, uint64_t max_insns);
/* Run until `cycles` more cycles have passed (or the end). */
int pmk_sim_run_cycles(pmk_sim *s, uint64_t cycles);
const pmk_sim_stats *pmk_sim_stats_get(const pmk_sim *s);
const pmk_sim_config *pmk_sim_config_get(const pmk_sim *s);
/* Error of the stream, when pmk_sim_run returned < 0. */
const pmk_diag *pmk_sim_diag(const pmk_sim *s);

/* --------------------------------------------------------------- backend */

struct pmk_backend;
/*
 * The simulated core as an event-set backend: natives of type PMK_TYPE_SIM
 * (pmu "sim", config from pmk_sim_counter_encode, exclude_user/kernel for
 * privilege) open on its counters. `workload` is a workload spec or, when it
 * names an existing file, a trace. The simulation runs when the event set is
 * enabled and pmk_sim_backend_run() is called (the CLI does both).
 */
int pmk_sim_backend_new(struct pmk_backend **be, const pmk_sim_config *cfg,
			const char *workload, pmk_diag *d);
int pmk_sim_backend_run(struct pmk_backend *be, pmk_diag *d);
/* Run `cycles` more simulated cycles (0: to the end), so that the event set
 * can be read in between, as the kernel path reads every 10 ms: each read
 * closes a slice for the error model (docs/counting.md). Multiplexing
 * rotates every pmu.rotate cycles whatever the reads. Returns 1 while the
 * workload has more, 0 at its end, negative on error (d says why). */
int pmk_sim_backend_step(struct pmk_backend *be, uint64_t cycles,
			 pmk_diag *d);
/* The start sweep on the simulated core (pmk_eventset_sweep): a step every
 * pmu.rotate / PMK_SIM_SWEEP_DIV cycles, PMK_SIM_SWEEP_STEPS steps (three
 * rotations), as the kernel path sweeps every 100 us for 12 ms against
 * the kernel's 4 ms rotation (docs/counting.md). */
#define PMK_SIM_SWEEP_DIV 40
#define PMK_SIM_SWEEP_STEPS 120
/* The core behind a sim backend (for its stats). */
pmk_sim *pmk_sim_backend_core(struct pmk_backend *be);

#ifdef __cplusplus
}
#endif
#endif
