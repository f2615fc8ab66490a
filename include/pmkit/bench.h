/*
 * pmkit/bench.h: microbenchmarks, the timing harness and the machine probe.
 *
 * The harness times a kernel in fixed-length samples with CLOCK_MONOTONIC on
 * a pinned CPU and reports the minimum and the median over the samples. The
 * core clock comes from two dependent chains of different kinds (or a cycles
 * counter), so cycles never come from the TSC rate. Latency, bandwidth and
 * OS/IPC suites, level detection on latency curves, the machine probe (cache
 * levels, TLB, penalties) and SVG plots are built on it. docs/bench.md explains
 * the methods and every choice.
 *
 * BENCH ENTRY POINTS: the microbenchmarks and the machine probe (for pmkit
 * bench and probe), kept in libpmkit beside the monitoring API; their
 * names may change between minor versions (docs/api.md).
 */
#ifndef PMKIT_BENCH_H
#define PMKIT_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- timing harness ---------------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t pmk_bench_now_ns(void);

typedef struct pmk_bench_cfg {
	double sample_ms; /* length of one sample (default 10 ms) */
	int samples;	  /* samples kept (default 5, at least 5) */
	int cpu;	  /* CPU to pin to; -1: the CPU we are on now */
} pmk_bench_cfg;

/* Defaults: 10 ms samples, 5 samples, pin to the current CPU. */
void pmk_bench_cfg_default(pmk_bench_cfg *cfg);

typedef struct pmk_bench_stat {
	double min_ns;	  /* fastest sample, ns per operation */
	double median_ns; /* median sample, ns per operation */
	double max_ns;	  /* slowest sample */
	int samples;	  /* samples taken */
	uint64_t ops;	  /* operations timed over all samples */
	int cpu;	  /* CPU the samples ran on (-1 unknown) */
} pmk_bench_stat;

/*
 * A kernel: do `n` operations and return how many were done (at least 1).
 * The harness calls it repeatedly, reading the clock between calls, until a
 * sample has lasted cfg->sample_ms; ns per operation = elapsed / operations.
 * `n` grows (doubling) during warm-up until one call lasts >= 20 us, so the
 * clock's cost is negligible; the warm-up also runs one whole sample.
 */
typedef uint64_t (*pmk_bench_fn)(void *arg, uint64_t n);
int pmk_bench_run(pmk_bench_fn fn, void *arg, const pmk_bench_cfg *cfg,
		  pmk_bench_stat *out);

/* Pin the calling thread to `cpu` (-1: the CPU it is on). Returns the CPU
 * pinned to, or a negative PMK_E* code. */
int pmk_bench_pin(int cpu);

/*
 * The core clock (bench/clock.c, docs/bench.md). Two dependent chains of
 * different kinds with documented latencies (x86-64: `add reg,reg`, 1 cycle,
 * and `imul reg,reg`, 3 cycles; arm64: `add` and `eor`, 1 cycle each), each
 * the fastest of 31 samples of 1 ms, interleaved; where a cycles counter
 * opens (perf_event cpu-cycles) it is the clock and the chains cross-check
 * it. Refused (PMK_ERANGE, `refused` set and `why` filled) when the chains
 * are more than PMK_CLOCK_AGREE apart without a counter, when the clock is
 * outside PMK_CLOCK_MIN_GHZ..PMK_CLOCK_MAX_GHZ, or outside PMK_CLOCK_LOW..
 * PMK_CLOCK_HIGH times the declared maximum (cpufreq cpuinfo_max_freq, else
 * the largest /proc/cpuinfo "cpu MHz").
 */
#define PMK_CLOCK_AGREE	  0.10
#define PMK_CLOCK_MIN_GHZ 0.1
#define PMK_CLOCK_MAX_GHZ 8.0
#define PMK_CLOCK_LOW	  0.15
#define PMK_CLOCK_HIGH	  2.5
typedef struct pmk_clock {
	double ghz;	     /* the clock pmkit uses */
	double chain1_ghz;   /* add chain */
	double chain2_ghz;   /* imul chain (x86-64), eor chain (arm64) */
	double counter_ghz;  /* cycles counter; 0: none opened */
	double declared_ghz; /* declared maximum; 0: none */
	int agree;	     /* the chains within PMK_CLOCK_AGREE */
	int refused;	     /* see above; `why` says why */
	char method[64];     /* where `ghz` comes from */
	char chain1[48], chain2[48];
	char declared_from[32]; /* "cpufreq cpuinfo_max_freq", ... */
	char why[256];
} pmk_clock;
int pmk_bench_clock(const pmk_bench_cfg *cfg, pmk_clock *c);
/* Check c->ghz (set by the caller, e.g. from --ghz) against the absolute
 * and declared ranges; fills `refused` and `why`; 0 or PMK_ERANGE. */
int pmk_bench_clock_check(pmk_clock *c);
/* pmk_bench_clock's clock, 0 when it was refused; `out` (optional)
 * receives ns per cycle as its min/median/max. */
double pmk_bench_core_ghz(const pmk_bench_cfg *cfg, pmk_bench_stat *out);

/* Median and minimum of an array (sorted in place). */
double pmk_bench_median(double *v, int n);

/* ---- sizes ------------------------------------------------------------- */

/*
 * The size points from `lo` to `hi` bytes: `per_octave` points per octave
 * (2^k * (1 + j/per_octave)), which includes every exact power of two, each
 * rounded down to a multiple of `align`. Returns the number of points
 * written to `out` (at most `max`).
 */
int pmk_bench_sizes(size_t lo, size_t hi, int per_octave, size_t align,
		    size_t *out, int max);

/* Parse "64", "32k", "4m", "1g" (binary multipliers, case-insensitive) into
 * bytes. Returns 0 or PMK_EINVAL. */
int pmk_bench_parse_size(const char *s, size_t *out);

/* ---- memory latency (pointer chasing) ---------------------------------- */

enum pmk_lat_mode {
	PMK_LAT_STRIDE = 0, /* forward ring at a fixed stride (lat_mem_rd) */
	PMK_LAT_RANDOM = 1, /* random lines in random pages of a TLB window */
	PMK_LAT_RANDOM_ALL = 2, /* random lines over the whole range */
};

typedef struct pmk_lat_cfg {
	enum pmk_lat_mode mode;
	size_t stride;	     /* bytes between chained words (stride mode),
				or element size (random modes; default 64) */
	size_t window_pages; /* random mode: pages per window (default 64) */
	int huge;	     /* ask for transparent huge pages */
	int offset0;	     /* random modes: every pointer at offset 0 of its
				element (default 0: at a random word of each
				element; stride mode always at offset 0) */
	uint64_t seed;	     /* random chains: seed (default fixed) */
} pmk_lat_cfg;

void pmk_lat_cfg_default(pmk_lat_cfg *cfg);

/* A buffer for chains up to `max_bytes`, reused for every size. */
typedef struct pmk_chase pmk_chase;
int pmk_chase_new(pmk_chase **out, size_t max_bytes, const pmk_lat_cfg *cfg);
void pmk_chase_free(pmk_chase *c);
/* Build the chain over the first `range` bytes. Returns the number of
 * elements in the chain, or a negative PMK_E* code. */
long pmk_chase_build(pmk_chase *c, size_t range);
/* Time the chain built last: ns per dependent load. */
int pmk_chase_time(pmk_chase *c, const pmk_bench_cfg *cfg, pmk_bench_stat *out);
/* Walk the whole chain once and return how many loads closed the ring
 * (for tests: must equal the element count). */
long pmk_chase_verify(pmk_chase *c);

/* ---- memory bandwidth -------------------------------------------------- */

enum pmk_bw_op {
	PMK_BW_RD,    /* read one 4-byte word per 16 bytes; credits all */
	PMK_BW_WR,    /* write one 4-byte word per 16 bytes; credits all */
	PMK_BW_RDWR,  /* read-modify-write of those words; credits size once */
	PMK_BW_CP,    /* copy those words to a second buffer; credits size */
	PMK_BW_FRD,   /* read every byte (8-byte words) */
	PMK_BW_FWR,   /* write every byte */
	PMK_BW_FCP,   /* copy every byte, word by word */
	PMK_BW_BZERO, /* memset(0) */
	PMK_BW_BCOPY, /* memcpy */
	PMK_BW_TRIAD, /* STREAM's a = b + s*c over three arrays of size/3;
			 credits the three arrays' bytes */
	PMK_BW_NTWR,  /* write every byte with non-temporal stores */
	PMK_BW_NTCP,  /* copy every byte, non-temporal stores */
	PMK_BW_NOPS
};
/* "rd" ... "bcopy", "triad", "ntwr", "ntcp"; NULL for a bad op. */
const char *pmk_bw_op_name(enum pmk_bw_op op);
/* Parse an op name; returns the op or -1. */
int pmk_bw_op_parse(const char *name);

/*
 * The instruction set of the kernels. With a vector ISA, rd and frd read
 * every byte with the ISA's widest aligned loads (8 independent XOR
 * accumulators), wr and fwr write every byte, cp and fcp copy, rdwr adds
 * one to every 64-bit word; bzero and bcopy are always libc's. SCALAR keeps
 * the lmbench kernels above. AUTO is the widest the CPU and OS support
 * (CPUID through __builtin_cpu_supports on x86-64, HWCAP on arm64).
 */
enum pmk_bw_isa {
	PMK_BW_ISA_AUTO = 0,
	PMK_BW_ISA_SCALAR,
	PMK_BW_ISA_SSE2,
	PMK_BW_ISA_AVX2,
	PMK_BW_ISA_AVX512,
	PMK_BW_ISA_NEON,
	PMK_BW_ISA_N
};
/* "auto", "scalar", "sse2", "avx2", "avx512", "neon"; NULL for a bad one */
const char *pmk_bw_isa_name(enum pmk_bw_isa isa);
int pmk_bw_isa_parse(const char *name); /* the ISA or -1 */
int pmk_bw_isa_supported(enum pmk_bw_isa isa);
enum pmk_bw_isa pmk_bw_isa_best(void);

typedef struct pmk_bw_result {
	double mb_s_median; /* bytes credited per second / 10^6, median */
	double mb_s_max;    /* from the fastest sample */
	int threads;
	int cpu;	     /* CPU of thread 0 */
	enum pmk_bw_isa isa; /* the kernels that ran (never AUTO) */
} pmk_bw_result;

/* Bandwidth of `op` over `size` bytes per thread with `threads` threads
 * (each its own buffers, pinned to CPUs cfg->cpu + i modulo the CPUs),
 * with the widest vector ISA (pmk_bw_run_isa with PMK_BW_ISA_AUTO). */
int pmk_bw_run(enum pmk_bw_op op, size_t size, int threads,
	       const pmk_bench_cfg *cfg, pmk_bw_result *out);
/* The same in a given ISA; PMK_ENOTSUP when the CPU lacks it. */
int pmk_bw_run_isa(enum pmk_bw_op op, enum pmk_bw_isa isa, size_t size,
		   int threads, const pmk_bench_cfg *cfg, pmk_bw_result *out);

/* ---- level detection --------------------------------------------------- */

typedef struct pmk_level {
	size_t size_bytes; /* capacity (last size of the plateau) */
	double latency_ns; /* plateau latency (median of its points) */
	int first, last;   /* indexes of the plateau's points */
	unsigned flags;	   /* PMK_LEVEL_* */
} pmk_level;
/* The latency rises by 30 % or more along the plateau (a creeping level:
 * its capacity comes from the crossing, not from the plateau's end). */
#define PMK_LEVEL_RISING 1u
/* On memory (the last level): a plateau of at least 3 points and an octave
 * was slower than half of memory and taken as the climb to memory
 * (lmbench's rule); it may have been a slow cache. */
#define PMK_LEVEL_AMBIGUOUS 2u

/*
 * Find the plateaus of a latency curve (sizes increasing). A level ends
 * where latency leaves the plateau by more than `rise` (e.g. 1.15) and the
 * next plateau is at least `jump` (e.g. 1.3) times slower. The last plateau
 * (memory) is returned too, with size_bytes = 0. Returns the number of
 * levels (<= max), or a negative code.
 */
int pmk_levels_detect(const size_t *size, const double *lat_ns, int n,
		      double rise, double jump, pmk_level *out, int max);
/*
 * The curve the probe detects levels on: a running median of 3, then the
 * lower envelope from the right (each point at most every point after it).
 * A larger footprint cannot be faster than a smaller one, so a point slower
 * than a later one was slowed by something else (a neighbour evicting our
 * lines, an interrupt); only a prefetcher makes a chase faster, and that is
 * checked on the raw curve by pmk_levels_tail first.
 */
void pmk_levels_envelope(const double *lat_ns, int n, double *out);
/*
 * A prefetch-fooled tail: the curve falls by more than 15 % after its peak
 * (in the second half of the sizes, through a running median of 3): each
 * of its last 3 points is below peak / 1.15 (`end_ns` is the slowest of
 * them), the peak at least half an octave before the end. A prefetcher is
 * serving part of the chase there: the memory latency is read at the peak.
 * Returns 1 when fooled, 0 when not (peak and end filled either way), or a
 * negative code.
 */
int pmk_levels_tail(const size_t *size, const double *lat_ns, int n,
		    double *peak_ns, size_t *peak_bytes, double *end_ns);
/* Capacity estimate between plateau `a` and the next one `b`: the size at
 * which the curve crosses the mean of the two latencies (half of the loads
 * miss `a` there). */
double pmk_levels_edge(const size_t *size, const double *lat_ns, int n,
		       const pmk_level *a, const pmk_level *b);

/*
 * Tell a TLB step from a cache step: on the plateau `lv` of the TLB-friendly
 * curve `win`, fit the gap to the random-over-all-pages curve `all` with
 * gap(P) = m * max(0, 1 - E / P), P = size / 4096 pages (a TLB of E entries
 * hit with probability E / P under random page order, m the miss cost).
 * Returns 1 and E (entries) and m (ns) when there is a step (m above a
 * quarter of the plateau latency), 0 when not, or a negative code.
 */
int pmk_tlb_fit(const size_t *size, const double *win, const double *all, int n,
		const pmk_level *lv, double *entries, double *miss_ns);

/* ---- SVG plots --------------------------------------------------------- */

typedef struct pmk_plot_series {
	const char *name;
	const double *x, *y;
	int n;
} pmk_plot_series;

typedef struct pmk_plot {
	const char *title, *xlabel, *ylabel;
	int xlog, ylog; /* log2 axis for x, log10 for y */
	const pmk_plot_series *series;
	int nseries;
	const double *marks_x; /* vertical markers (e.g. detected levels) */
	const char *const *marks_label;
	int nmarks;
} pmk_plot;

/* Write an SVG picture to `f`. Returns 0 or a negative code. */
int pmk_plot_svg(const pmk_plot *p, FILE *f);

/* ---- OS and IPC -------------------------------------------------------- */

typedef struct pmk_os_result {
	char name[48]; /* "null_syscall", "ctx_2p_0k", ... */
	char unit[16]; /* "us" or "MB/s" */
	double median;
	double best; /* min for times, max for bandwidths */
	int samples;
} pmk_os_result;

/* Names of the OS/IPC benchmarks, NULL-terminated. */
extern const char *const pmk_os_names[];
/* Run one benchmark by name (or its prefix family). Writes up to `max`
 * results (context switch gives several). Returns the count or a negative
 * code (PMK_ENOENT for an unknown name). */
int pmk_os_run(const char *name, const pmk_bench_cfg *cfg, pmk_os_result *out,
	       int max);

/* ---- machine probe ----------------------------------------------------- */

#define PMK_PROBE_MAX_LEVELS 6

typedef struct pmk_probe_level {
	int level;	       /* 1, 2, 3 */
	char type[16];	       /* "data", "unified" */
	size_t size_bytes;     /* the size pmkit trusts */
	size_t measured_bytes; /* from the latency curve */
	size_t declared_bytes; /* CPUID or sysfs, 0 if none */
	char trusted[16];      /* "declared", "measured" */
	char why[128];	       /* why that one */
	size_t line_bytes;
	double latency_ns, latency_cycles;
	double bw_rd_mb_s; /* read bandwidth at half the size */
	double edge_bytes; /* the curve's edge before snapping */
	unsigned flags;	   /* PMK_LEVEL_RISING, PMK_PROBE_LEVEL_FALLBACK */
} pmk_probe_level;
/* A level the curve did not show, filled by the documented fallback rule
 * (the declared size; the latency on the curve at half of it). */
#define PMK_PROBE_LEVEL_FALLBACK 0x100u
/* pmk_probe.mem_flags */
#define PMK_PROBE_AMBIGUOUS	1u /* see PMK_LEVEL_AMBIGUOUS */
#define PMK_PROBE_PREFETCH_TAIL 2u /* see pmk_levels_tail */

/* The figures of the constants file, each measured twice by the probe. */
enum {
	PMK_PROBE_FIG_L1,	  /* L1_lat, Data_L1_lat */
	PMK_PROBE_FIG_L2,	  /* L2_lat */
	PMK_PROBE_FIG_L3,	  /* L3_lat */
	PMK_PROBE_FIG_MEM,	  /* Mem_lat */
	PMK_PROBE_FIG_BR,	  /* BR_miss_lat */
	PMK_PROBE_FIG_FP_ADDMUL,  /* FP_add_sub_mul_lat */
	PMK_PROBE_FIG_FP_DIVSQRT, /* FP_div_sqrt_lat */
	PMK_PROBE_FIG_TLB_MISS,	  /* Data_TLB_lat */
	PMK_PROBE_FIG_TLB_ENTRIES, /* the TLB reach, in 4 KiB entries */
	PMK_PROBE_NFIG
};
/* Two readings of one figure, taken at different moments of the probe
 * (ns; fitted entries for the TLB reach). A figure whose readings disagree
 * is refused: left out of the constants file, with `why` as its note. */
typedef struct pmk_probe_twice {
	double first, second;
	int measured; /* 0: not measured (no such level, no TLB step) */
	int refused;
	char why[160];
} pmk_probe_twice;

typedef struct pmk_probe {
	double ghz;	 /* core clock used for every cycle figure */
	pmk_clock clock; /* how it was measured: method, both chains */
	int cpu;	 /* CPU pinned to */
	int nlevels;
	pmk_probe_level lv[PMK_PROBE_MAX_LEVELS];
	size_t line_bytes;	   /* measured line size */
	double mem_ns, mem_cycles; /* memory: 256 B elements, 64-page windows */
	double mem_all_ns;	   /* memory: random over all lines (TLB too) */
	double mem_window64_ns;	   /* the window curve's last point (64 B) */
	size_t mem_bytes;	   /* footprint of the memory measurement */
	unsigned mem_flags;	   /* PMK_PROBE_AMBIGUOUS, _PREFETCH_TAIL */
	double tail_peak_ns, tail_end_ns; /* pmk_levels_tail's figures */
	size_t tail_peak_bytes;
	size_t declared_l3_bytes; /* 0: none declared */
	double mem_bw_mb_s;	  /* read bandwidth at that footprint */
	size_t tlb_reach_bytes;	  /* first TLB step on the random curve */
	size_t tlb_entries_declared;
	double tlb_miss_ns, tlb_miss_cycles;
	double br_miss_cycles; /* branch misprediction penalty */
	double fp_add_cycles, fp_mul_cycles, fp_div_cycles, fp_sqrt_cycles;
	char cpu_name[64];
	double seconds; /* time the probe took */
	/* the curves it measured (owned; freed by pmk_probe_release) */
	int npts;
	size_t *sizes;
	double *lat_window, *lat_all;
	/* every constants-file figure, measured twice (PMK_PROBE_FIG_*) */
	pmk_probe_twice twice[PMK_PROBE_NFIG];
	double tlb_entries_fit; /* the fit on both all-pages passes' minimum */
} pmk_probe;

enum { PMK_PROBE_QUICK = 1 << 0 };
/* Progress callback: what is running now, fraction done (0..1). */
typedef void (*pmk_probe_progress)(void *arg, const char *what, double frac);
/* Run the probe pinned to `cpu` (-1: the current one). `max_bytes` is the
 * largest footprint (the memory measurement; 0: 256 MiB, 128 MiB quick).
 * Call pmk_probe_release() afterwards, also after a failure. */
int pmk_probe_run(pmk_probe *p, unsigned flags, int cpu, size_t max_bytes,
		  pmk_probe_progress cb, void *cb_arg);
/* The same with the core clock given (`ghz` > 0, e.g. `probe --ghz`)
 * instead of measured; still checked against the plausible range. A clock
 * refused by either returns PMK_ERANGE with p->clock.why filled. */
int pmk_probe_run_at(pmk_probe *p, unsigned flags, int cpu, size_t max_bytes,
		     double ghz, pmk_probe_progress cb, void *cb_arg);
void pmk_probe_release(pmk_probe *p);
/* The machine-constants file (seed 002's `#define NAME value`, cycles). */
int pmk_probe_write_constants(const pmk_probe *p, FILE *f);
int pmk_probe_write_json(const pmk_probe *p, FILE *f);
/* Whether the TLB step's reach or miss cost was refused (its two passes
 * disagree): flagged in every output, kept out of the constants file. */
int pmk_probe_tlb_unstable(const pmk_probe *p);

/* Declared caches from CPUID (x86) or sysfs: level i (1-based) data/unified
 * size in bytes and line size; 0 if unknown. */
typedef struct pmk_declared {
	size_t l1d, l2, l3, line;
	size_t dtlb_entries;
	char source[32]; /* "sysfs", "cpuid", "" */
} pmk_declared;
void pmk_declared_caches(pmk_declared *d);

#ifdef __cplusplus
}
#endif
#endif
