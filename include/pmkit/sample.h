/*
 * pmkit/sample.h: sampling, record files and reports (Profiles).
 *
 * Three layers, usable on their own:
 *
 *   record files   a documented, versioned stream of records (docs/record-
 *                  format.md): event descriptions, samples, memory maps with
 *                  file identity, comm/fork/exit, lost counts. Any producer
 *                  writes one through pmk_rec_writer (the kernel sampler
 *                  below, the simulated core in sim/); pmk_rec_reader reads
 *                  one back, stopping cleanly at a truncated tail.
 *   the sampler    perf_event_open in sampling mode on a task or on every
 *                  CPU, its mmap ring buffers drained into a record file.
 *   profiles       a record file loaded, symbolized through its maps (ELF
 *                  symbols and DWARF lines via elfutils, each file opened and
 *                  indexed once) and aggregated by function, line, address,
 *                  DSO or call stack, then printed as a table, JSON, folded
 *                  stacks or an annotated function.
 *
 * Nothing here prints to stderr or exits; errors come back as negative PMK_E*
 * codes with a pmk_diag.
 */
#ifndef PMKIT_SAMPLE_H
#define PMKIT_SAMPLE_H

#include <stdint.h>
#include <stdio.h>

#include "pmkit/error.h"
#include "pmkit/event.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMK_REC_VERSION	     1	 /* format version written */
#define PMK_REC_MAX_EVENTS   16	 /* events in one record file */
#define PMK_REC_MAX_CHAIN    127 /* call-chain entries kept per sample */
#define PMK_REC_DEFAULT_FILE "pmkit.rec"

/* ---- record items -------------------------------------------------- */

/* What was sampled: one per event, indexed 0..n-1 in samples. */
typedef struct pmk_rec_event {
	uint32_t index; /* 0-based; samples refer to it */
	uint32_t type;	/* perf_event_attr.type (PMK_TYPE_*) */
	uint64_t config;
	uint64_t period;  /* sampling period, or frequency when `freq` */
	uint32_t freq;	  /* 1: `period` is a frequency in Hz */
	uint32_t precise; /* precise_ip level 0..3 */
	char name[PMK_EVENT_NAME_MAX];
} pmk_rec_event;

/* Sample flags. */
#define PMK_SAMPLE_KERNEL   0x1u /* the IP is in the kernel */
#define PMK_SAMPLE_HAS_ADDR 0x2u /* `addr` is a data address */
#define PMK_SAMPLE_GUEST    0x4u /* taken in a guest */
/* the user registers and a copy of the user stack (for DWARF unwinding) */
#define PMK_SAMPLE_HAS_USTACK 0x8u
/* the event's raw record (a tracepoint's fields: PERF_SAMPLE_RAW), laid
 * out as the event's format (PMK_REC_FORMAT) says */
#define PMK_SAMPLE_HAS_RAW 0x10u
#define PMK_REC_MAX_RAW	   65528u /* raw bytes kept per sample */

#define PMK_REC_MAX_UREGS  40	  /* user registers kept per sample */
#define PMK_REC_MAX_USTACK 65528u /* user stack bytes kept per sample */

typedef struct pmk_sample {
	uint32_t event; /* index of its pmk_rec_event */
	uint32_t flags; /* PMK_SAMPLE_* */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time_ns; /* perf clock (or simulated cycles) */
	uint64_t period;  /* events this sample stands for */
	uint32_t cpu;
	uint64_t addr;	 /* data address, when PMK_SAMPLE_HAS_ADDR */
	uint32_t nchain; /* call chain, innermost first, user and kernel */
	const uint64_t *chain; /* addresses only (context markers removed) */
	/* with PMK_SAMPLE_HAS_USTACK: the user registers in the kernel's
	 * perf_regs order for `uarch` (ELF e_machine), and the bytes of the
	 * user stack from the stack pointer up */
	uint32_t uarch, nuregs, ustack_len;
	const uint64_t *uregs;
	const uint8_t *ustack;
	/* with PMK_SAMPLE_HAS_RAW */
	uint32_t raw_len;
	const uint8_t *raw;
} pmk_sample;

/* An executable mapping of a process, with the identity of its file. */
typedef struct pmk_rec_map {
	uint32_t pid;
	uint64_t start, len;   /* virtual address range */
	uint64_t pgoff;	       /* file offset of `start` */
	uint32_t prot;	       /* PROT_* */
	uint32_t build_id_len; /* 0 when unknown */
	uint8_t build_id[20];
	uint64_t dev, ino;	 /* when known, else 0 */
	uint64_t size, mtime_ns; /* of the file when the map was recorded */
	char path[4096];	 /* file path, or "[vdso]", "//anon" ... */
} pmk_rec_map;

typedef struct pmk_rec_comm {
	uint32_t pid, tid;
	uint32_t exec; /* 1: the name changed at exec */
	uint64_t time_ns;
	char comm[32];
} pmk_rec_comm;

typedef struct pmk_rec_task {
	uint32_t pid, tid;   /* the task forking or exiting */
	uint32_t ppid, ptid; /* for fork: the parent */
	uint64_t time_ns;
} pmk_rec_task;

/* End of a recording: what happened, written last (optional). */
typedef struct pmk_rec_finish {
	int32_t status; /* workload exit status (128+N for signal N) */
	uint32_t reserved;
	uint64_t samples, lost;
	uint64_t duration_ns;
} pmk_rec_finish;

typedef enum pmk_rec_kind {
	PMK_REC_EVENT = 1,
	PMK_REC_SAMPLE,
	PMK_REC_MAP,
	PMK_REC_COMM,
	PMK_REC_FORK,
	PMK_REC_EXIT,
	PMK_REC_LOST,
	PMK_REC_FINISH,
	PMK_REC_FORMAT, /* a tracepoint's format, after its EVENT */
} pmk_rec_kind;

/* One record as read; only the member of its kind is valid. Pointers in it
 * (the sample's chain) stay valid until the next pmk_rec_next(). */
typedef struct pmk_rec_item {
	pmk_rec_kind kind;
	uint64_t offset; /* of the record in the file */
	union {
		pmk_rec_event event;
		pmk_sample sample;
		pmk_rec_map map;
		pmk_rec_comm comm;
		pmk_rec_task task; /* FORK and EXIT */
		struct {
			uint32_t event;
			uint64_t count;
		} lost;
		pmk_rec_finish finish;
		struct {
			uint32_t event;	  /* index of its pmk_rec_event */
			const char *text; /* tracefs' format file, as read */
		} format;
	} u;
} pmk_rec_item;

/* ---- writer ---------------------------------------------------------- */

typedef struct pmk_rec_writer pmk_rec_writer;

/* Start a record file for `path` and write its header. `producer` names
 * the writer ("pmkit record", "pmkit sim"). The records go to a new file
 * next to `path` (never through a link, nothing existing truncated);
 * pmk_rec_writer_close puts it in place, keeping a previous `path` as
 * `path`.old, and pmk_rec_writer_abort removes it and leaves `path` as it
 * was. "-" writes to standard output. */
int pmk_rec_writer_open(pmk_rec_writer **w, const char *path,
			const char *producer, pmk_diag *d);
/* The same with flags: PMK_REC_NO_BACKUP replaces `path` without keeping
 * `path`.old. */
#define PMK_REC_NO_BACKUP 1u
int pmk_rec_writer_open_ex(pmk_rec_writer **w, const char *path,
			   const char *producer, unsigned flags, pmk_diag *d);
/* Write to an already open file descriptor instead (not closed by us). */
int pmk_rec_writer_fdopen(pmk_rec_writer **w, int fd, const char *producer,
			  pmk_diag *d);
int pmk_rec_write_event(pmk_rec_writer *w, const pmk_rec_event *e);
int pmk_rec_write_sample(pmk_rec_writer *w, const pmk_sample *s);
int pmk_rec_write_map(pmk_rec_writer *w, const pmk_rec_map *m);
int pmk_rec_write_comm(pmk_rec_writer *w, const pmk_rec_comm *c);
int pmk_rec_write_fork(pmk_rec_writer *w, const pmk_rec_task *t);
int pmk_rec_write_exit(pmk_rec_writer *w, const pmk_rec_task *t);
int pmk_rec_write_lost(pmk_rec_writer *w, uint32_t event, uint64_t count);
int pmk_rec_write_finish(pmk_rec_writer *w, const pmk_rec_finish *f);
/* The format of tracepoint event `event` (the text of tracefs'
 * events/SUB/NAME/format), so that its samples' raw records can be read
 * where the tracepoint is gone: after the event's EVENT record. */
int pmk_rec_write_format(pmk_rec_writer *w, uint32_t event, const char *text);
/* Push buffered records to the file (whole records only), so a crash after
 * this loses nothing written before it. */
int pmk_rec_writer_flush(pmk_rec_writer *w);
/* Flush, close and (for pmk_rec_writer_open) put the file in place, even
 * after a write error (its records up to the error are whole); frees `w`.
 * Returns the first error seen, if any, with errno set to its errno. */
int pmk_rec_writer_close(pmk_rec_writer *w);
/* Close without keeping anything: the new file is removed, an existing
 * file at the path is untouched; frees `w`. */
void pmk_rec_writer_abort(pmk_rec_writer *w);
/* Put the file in place now (the previous one kept as `path`.old) and go
 * on writing it, so that a writer killed later leaves a readable file;
 * pmk_rec_writer_abort then keeps it. For a recording whose run has
 * started. Returns 0 or a negative PMK_E* code with `d` filled. */
int pmk_rec_writer_publish(pmk_rec_writer *w, pmk_diag *d);
/* The errno of the first write error, or 0. */
int pmk_rec_writer_errno(const pmk_rec_writer *w);
/* Samples written so far. */
uint64_t pmk_rec_writer_samples(const pmk_rec_writer *w);

/* Fill `m`'s identity (build id from the ELF notes, size, mtime, dev, ino)
 * from the file at m->path; leaves them 0 when it cannot be read. */
void pmk_rec_map_identify(pmk_rec_map *m);
/* The running kernel's build id (/sys/kernel/notes), path
 * "[kernel.kallsyms]"; build_id_len 0 when it cannot be read. */
void pmk_rec_kernel_identify(pmk_rec_map *m);

/* ---- reader ---------------------------------------------------------- */

typedef struct pmk_rec_reader pmk_rec_reader;

int pmk_rec_reader_open(pmk_rec_reader **r, const char *path, pmk_diag *d);
/* Read from memory (not copied; must outlive the reader). */
int pmk_rec_reader_open_mem(pmk_rec_reader **r, const void *buf, size_t len,
			    pmk_diag *d);
/* Next record: 1 with `it` filled, 0 at the end (also at a truncated last
 * record: see pmk_rec_reader_truncated), or a negative PMK_E* code with `d`
 * saying what is wrong and at which offset. */
int pmk_rec_next(pmk_rec_reader *r, pmk_rec_item *it, pmk_diag *d);
/* Bytes of an incomplete last record that were ignored (0 if none). */
uint64_t pmk_rec_reader_truncated(const pmk_rec_reader *r);
/* The producer string of the header. */
const char *pmk_rec_reader_producer(const pmk_rec_reader *r);
void pmk_rec_reader_close(pmk_rec_reader *r);

/* ---- perf.data output ------------------------------------------------ */

/* Write a record file as a perf.data file that perf report and perf script
 * read (lib/sample/perfwrite.c): perf's PERFILE2 file with its attributes,
 * data section and features, or with PMK_PERFDATA_PIPE (or `out` "-", which
 * writes to standard output) perf's pipe format, as perf record -o -
 * writes it. The file is written as pmkit's output files are: a new file
 * renamed into place, never through a link, a previous `out` kept as
 * `out`.old unless PMK_PERFDATA_NO_BACKUP. Returns 0 or a negative PMK_E*
 * code with `d` filled. */
#define PMK_PERFDATA_PIPE      1u
#define PMK_PERFDATA_NO_BACKUP 2u
typedef struct pmk_perfdata_opts {
	unsigned flags;	   /* PMK_PERFDATA_* */
	int argc;	   /* the recording's command line, for perf's */
	char *const *argv; /* CMDLINE feature (NULL: "pmkit") */
	int zstd_level;	   /* 1..22: the data section zstd-compressed in
			      COMPRESSED records, as perf record -z (file
			      format only; needs libzstd.so.1); 0: not */
} pmk_perfdata_opts;
int pmk_perfdata_write(const char *rec_path, const char *out,
		       const pmk_perfdata_opts *o, pmk_diag *d);
/* The same from a record file open on `fd` (read from offset 0; not
 * closed) or in memory. */
int pmk_perfdata_write_fd(int fd, const char *out, const pmk_perfdata_opts *o,
			  pmk_diag *d);
int pmk_perfdata_write_mem(const void *rec, size_t len, const char *out,
			   const pmk_perfdata_opts *o, pmk_diag *d);
/* The other way: the perf.data file `in` (perf's file or pipe format) as
 * a pmkit record file at `out` ("-": standard output), written the same
 * safe way (flags: PMK_PERFDATA_NO_BACKUP). (lib/sample/perfconv.c) */
int pmk_perfdata_to_rec(const char *in, const char *out, unsigned flags,
			pmk_diag *d);
/* What the file at `path` is, from its first bytes: PMK_FILE_PERFDATA
 * (perf's file or pipe format), PMK_FILE_RECORD (pmkit's), 0 (neither),
 * or PMK_EIO when it cannot be read (errno set). */
#define PMK_FILE_PERFDATA 1
#define PMK_FILE_RECORD	  2
int pmk_rec_file_kind(const char *path);
/* perf buildid-list: a perf.data file's build ids (its HEADER_BUILD_ID
 * section, which perf record fills with the objects that have samples),
 * printed "HEX NAME" a line in the file's order. Returns how many, or
 * PMK_ENOENT when the file has no such section (perf record --buildid-mmap
 * puts the build ids in its MMAP2 records, -B nowhere), PMK_EFORMAT (not
 * perf's file format; its pipe format has no header section) or PMK_EIO,
 * `d` saying why. */
int pmk_perfdata_build_ids(const char *path, FILE *out, pmk_diag *d);
/* A perf.data file's make-up, for perf report --stats and --header: its
 * records by perf's record type (PERF_RECORD_*; those inside COMPRESSED
 * records counted too) and its compression (HEADER_COMPRESSED). */
#define PMK_PERFDATA_NTYPES 128
typedef struct pmk_perfdata_info {
	int pipe;				 /* perf's pipe format */
	uint32_t comp_type;			 /* 1: zstd; 0: not compressed */
	uint32_t comp_level, comp_ratio;
	uint64_t records[PMK_PERFDATA_NTYPES];
	uint64_t skipped; /* records that did not parse */
} pmk_perfdata_info;
int pmk_perfdata_info_read(const char *path, pmk_perfdata_info *info,
			   pmk_diag *d);

/* ---- the kernel sampler ---------------------------------------------- */

typedef struct pmk_sampler pmk_sampler;

typedef struct pmk_sample_opts {
	int pid;		/* task to follow (-1 with `all_cpus`) */
	unsigned all_cpus : 1;	/* every CPU (needs privilege) */
	unsigned callchain : 1; /* PERF_SAMPLE_CALLCHAIN (frame pointers) */
	/* user registers and stack, unwound with DWARF CFI at report time
	 * (kernel frames still from the kernel's call chain) */
	unsigned callchain_dwarf : 1;
	unsigned data_addr : 1;	     /* PERF_SAMPLE_ADDR */
	unsigned inherit : 1;	     /* follow children and threads */
	unsigned enable_on_exec : 1; /* start at the task's next exec */
	/* `pid` is a running process: follow every thread it has now (each
	 * with `inherit`, so their later threads and children too), as perf
	 * record -p does; otherwise only the task `pid` itself */
	unsigned threads : 1;
	unsigned ring_pages;  /* data pages per ring (power of 2); 0: 128 */
	unsigned stack_bytes; /* user stack copied per sample with
				 callchain_dwarf (multiple of 8); 0: 8192 */
	/* when ntids > 0: open these tasks (thread ids) only, each with
	 * `inherit` as set, instead of `pid` (record -t) */
	const int *tids;
	int ntids;
} pmk_sample_opts;

/* Open one sampling event per CPU (the task's, or all) for each attr, with
 * mmap ring buffers. The attrs' `sample`/`freq` give period or frequency
 * (0 means 4000 Hz). Fails with PMK_ENOTSUP (and a reason and a hint in
 * `d`) when an event cannot be sampled here. Records the events into `w`. */
int pmk_sampler_open(pmk_sampler **s, const pmk_attr *attrs, int nattr,
		     const pmk_sample_opts *o, pmk_rec_writer *w, pmk_diag *d);
/* Learn at once, before a command is started, whether `a` can be sampled
 * here: open it disabled on the calling thread (only `o->all_cpus` is
 * looked at). Returns 0 when it can. Returns 1 when kernel space was
 * refused (perf_event_paranoid 2) but user space is allowed, and `a`
 * neither excluded kernel space nor is `all_cpus` set: `a` is changed to
 * exclude kernel space (sampled as with ':u', as pmkit stat counts it)
 * and `d` holds a warning saying so (its code 0). Otherwise returns a
 * negative PMK_E* code (PMK_EPERM for a refusal of privilege) with `d`
 * saying why and what to sample instead, as pmk_sampler_open would. */
int pmk_sampler_probe(pmk_attr *a, const pmk_sample_opts *o, pmk_diag *d);
/* Write the memory maps and command name of a running process, read from
 * /proc/PID (for attaching to a process already running). */
int pmk_sampler_synthesize(pmk_sampler *s, int pid);
int pmk_sampler_enable(pmk_sampler *s);
int pmk_sampler_disable(pmk_sampler *s);
/* Wait up to `timeout_ms` for data and move every complete ring record into
 * the writer. Returns the number of records moved, or a negative code. */
int pmk_sampler_poll(pmk_sampler *s, int timeout_ms);
/* Records lost by the kernel so far (ring full). */
uint64_t pmk_sampler_lost(const pmk_sampler *s);
uint64_t pmk_sampler_samples(const pmk_sampler *s);
void pmk_sampler_close(pmk_sampler *s);
/* Whether this build can record user stacks for DWARF unwinding (x86-64
 * and arm64). */
int pmk_sampler_can_unwind(void);

/* Resolve an event name for sampling without the full event parser: the
 * software events and the generic hardware names. Fills `a` (name, type,
 * config). PMK_ENOEVENT when unknown. */
int pmk_sample_event_lookup(const char *name, pmk_attr *a, pmk_diag *d);

/* ---- profiles ---------------------------------------------------------- */

typedef enum pmk_sort {
	PMK_SORT_FUNCTION = 0,
	PMK_SORT_LINE,
	PMK_SORT_ADDRESS,
	PMK_SORT_DSO,
	PMK_SORT_DATA, /* data object of the samples' data addresses */
} pmk_sort;

typedef struct pmk_profile pmk_profile;

typedef struct pmk_profile_stats {
	int nevents;
	uint64_t samples[PMK_REC_MAX_EVENTS];
	uint64_t period[PMK_REC_MAX_EVENTS];
	uint64_t lost;
	uint64_t truncated_bytes; /* incomplete tail ignored */
	uint64_t records;
	uint64_t dsos_opened;  /* distinct files symbolized */
	uint64_t dsos_changed; /* files whose identity differs from the
				  recorded one (symbols may be wrong) */
	uint64_t unresolved;   /* samples outside every recorded map */
	int has_finish;
	pmk_rec_finish finish;
	char command[32];      /* name at the first exec seen, or "" */
	uint64_t data_samples; /* samples with a data address */
	/* damaged records skipped (the reader resynchronized after each) */
	uint64_t damaged, damaged_bytes, first_damage; /* count, bytes, offset */
	char damage_why[96]; /* what was wrong with the first */
	int perf_data;	     /* read from a perf.data file */
} pmk_profile_stats;

/* Read a whole record file and index its samples. */
int pmk_profile_load(pmk_profile **p, const char *path, pmk_diag *d);
int pmk_profile_load_mem(pmk_profile **p, const void *buf, size_t len,
			 pmk_diag *d);
void pmk_profile_stats_get(const pmk_profile *p, pmk_profile_stats *st);
/* Keep C++ and Rust names mangled (`keep` 1) or demangle them (0, the
 * default, when libstdc++'s demangler can be loaded). */
void pmk_profile_set_mangled(pmk_profile *p, int keep);
/* Name of event `i`, or NULL. */
const char *pmk_profile_event_name(const pmk_profile *p, int i);

/* A histogram row: `key` is the function, "file:line", address, DSO, or
 * data object (a data symbol, "[file]" for data of a file without one, or
 * the 4 KiB page "0x..." of an address in no file's image). */
typedef struct pmk_profile_row {
	const char *key;
	const char *function; /* the function (address and line sorts) */
	const char *dso;
	uint64_t samples[PMK_REC_MAX_EVENTS];
	uint64_t period[PMK_REC_MAX_EVENTS]; /* sum of sample periods */
	double percent[PMK_REC_MAX_EVENTS];  /* of the event's total period */
} pmk_profile_row;

/* Aggregate by `sort`; rows come sorted by the first event's samples, most
 * first. The array belongs to `p` and lives until the next call. */
int pmk_profile_histogram(pmk_profile *p, pmk_sort sort,
			  const pmk_profile_row **rows, int *nrows);
/* Print as a table (text) or JSON. */
int pmk_profile_print(pmk_profile *p, pmk_sort sort, int json, FILE *out);
/* `frame;frame;frame count` lines, outermost first, for the first event
 * (or the event named `event`, when not NULL). */
int pmk_profile_print_folded(pmk_profile *p, const char *event, FILE *out);
/* The function's source lines (or addresses) with their sample shares.
 * PMK_ENOENT when no sample fell in a function of that name. */
int pmk_profile_annotate(pmk_profile *p, const char *function, FILE *out,
			 pmk_diag *d);
/* The same function instruction by instruction (capstone; x86-64 and
 * arm64), the share of samples on each, source lines interleaved.
 * PMK_ENOTSUP without capstone. */
int pmk_profile_annotate_asm(pmk_profile *p, const char *function, FILE *out,
			     pmk_diag *d);
void pmk_profile_free(pmk_profile *p);
/* perf buildid-list on a loaded profile: the files with samples whose
 * build id is known, "HEX PATH" a line, in the order they were first
 * mapped. Returns how many were printed. */
int pmk_profile_build_ids(const pmk_profile *p, FILE *out);

/* perf-style views: rows keyed by `sort` ("comm,dso,sym": any of comm,
 * pid, tid, dso, sym, srcline, address, in that order on the line). */
typedef struct pmk_view_opts {
	const char *sort;     /* NULL: "sym" */
	const char *event;    /* NULL: the first */
	int children;	      /* Children (through the stack) and Self */
	int graph;	      /* with children: each entry's call tree */
	int callee;	      /* tree order: 0 what it calls, 1 its callers */
	double percent_limit; /* entries below this share are left out */
	double tree_limit;    /* tree branches below this share; 0: 0.5 */
	int no_inline;	      /* 1: no inlined frames in trees, and srcline
				 the line in the symbol's own function */
} pmk_view_opts;
int pmk_profile_view(pmk_profile *p, const pmk_view_opts *o, FILE *out,
		     pmk_diag *d);
/* Parse a sort-key list into `keys` (at most `max`); the count, or
 * PMK_EINVAL naming the bad key in `d`. */
int pmk_view_keys_parse(const char *sort, int *keys, int max, pmk_diag *d);

/* An interactive SVG flame graph of the call stacks of `event` (NULL: the
 * first); with `base`, a differential one: widths from `p`, colours from
 * each path's change in share against `base`. */
int pmk_profile_flamegraph(pmk_profile *p, pmk_profile *base,
			   const char *event, const char *title, FILE *out);
/* Per function: the share in `base` and in `p` and the change, most
 * changed first (text, or JSON when `json`). */
int pmk_profile_diff(pmk_profile *base, pmk_profile *p, const char *event,
		     int json, FILE *out);
/* `perf script`-style text: one block per sample (comm, pid/tid, cpu,
 * time, period, event, then each frame's address, symbol+offset and
 * file), readable by perf-script tools (FlameGraph's stackcollapse-perf). */
int pmk_profile_script(const char *path, int mangled, FILE *out,
		       pmk_diag *d);
/* speedscope's JSON file format (a "sampled" profile per event). */
int pmk_profile_speedscope(pmk_profile *p, const char *name, FILE *out);

const char *pmk_sort_name(pmk_sort s);
int pmk_sort_parse(const char *s, pmk_sort *out);
/* Whether this build can resolve symbols and lines (elfutils present). */
int pmk_profile_can_symbolize(void);

#ifdef __cplusplus
}
#endif
#endif
