/*
 * job.h: an MPI job's measurements, rank by rank, and what is made of them.
 * Internal to libpmkit-mpi and `pmkit mpi`; no MPI header is needed here.
 *
 * A job holds one record per rank: wall time from MPI_Init to MPI_Finalize,
 * time inside MPI, the counted events, time, calls and bytes per MPI
 * function, and the regions. The same record is what a rank sends to rank 0
 * at MPI_Finalize (as the JSON of a one-rank job), what rank 0 writes for
 * the whole job, what `pmkit mpi report` reads back and what the merge of
 * per-rank files puts together. Statistics over ranks (total, min, mean,
 * max, ranks of min and max, imbalance = max / mean) are computed here, and
 * the banner, CSV, SVG and HTML are written from them.
 *
 * JSON schema "pmkit-mpi/1" (docs/mpi.md):
 *   {"schema":"pmkit-mpi/1","size":N,"command":"...",
 *    "events":[{"name":"task-clock","unit":"ns"},...],
 *    "ranks":[{"rank":0,"host":"...","pid":1,"wall_ns":...,"mpi_ns":...,
 *              "end":"SIGTERM",                 (only when not MPI_Finalize)
 *              "events":{"task-clock":...},           (null: not counted)
 *              "calls":[{"name":"MPI_Send","calls":..,"ns":..,
 *                        "bytes_sent":..,"bytes_recv":..}],
 *              "regions":[{"name":"..","parent":"..","source":"pcontrol",
 *                          "calls":..,"wall_ns":..,"mpi_ns":..,
 *                          "open_at_finalize":false,"events":{...}}]}],
 *    "missing_ranks":[...]}
 */
#ifndef PMK_MPI_JOB_H
#define PMK_MPI_JOB_H

#include <stdint.h>
#include <stdio.h>

#define PMK__MPI_MAX_EVENTS 32
#define PMK__MPI_NAME 64
#define PMK__MPI_MAX_RANKS (1 << 20)

struct pmk__mpi_call {
	char name[PMK__MPI_NAME];
	uint64_t calls, ns, bytes_sent, bytes_recv;
	uint64_t timed; /* calls whose time was measured; the rest estimated */
};

enum { PMK__MPI_REGION_OPEN = 1 }; /* left open, closed at MPI_Finalize */

struct pmk__mpi_region {
	char name[PMK__MPI_NAME];
	char parent[PMK__MPI_NAME]; /* innermost enclosing region at first entry */
	char source[16];            /* "pcontrol" or "pmk" */
	uint64_t calls, wall_ns, mpi_ns;
	unsigned flags;
	double ev[PMK__MPI_MAX_EVENTS]; /* per job event; NAN: not counted */
};

struct pmk__mpi_rank {
	int present; /* 0: no record for this rank (it died, or no file) */
	int rank;
	char host[PMK__MPI_NAME];
	long pid;
	uint64_t wall_ns, mpi_ns;
	/* when some calls' time is estimated (mpi/timing.c): one standard
	 * error of mpi_ns, and time that may have been MPI or computation */
	uint64_t mpi_err_ns, mpi_amb_ns;
	/* "" when the rank reached MPI_Finalize; else what ended it first
	 * ("SIGTERM", "SIGINT", "MPI_Abort", "exit"): the record is what it
	 * had measured then (mpi/lastword.c) */
	char end[16];
	double ev[PMK__MPI_MAX_EVENTS]; /* per job event; NAN: not counted */
	struct pmk__mpi_call *calls;
	int ncalls, ccalls;
	struct pmk__mpi_region *regions;
	int nregions, cregions;
	/* who talks to whom, sizes, call sites (mpi/comm.h); NULL: none */
	struct pmk__mpi_comm *comm;
};

struct pmk__mpi_job {
	int size; /* ranks in MPI_COMM_WORLD */
	char command[256];
	int nev;
	char evname[PMK__MPI_MAX_EVENTS][PMK__MPI_NAME];
	char evunit[PMK__MPI_MAX_EVENTS][16];
	struct pmk__mpi_rank *ranks; /* [size], indexed by rank */
};

/* Statistics of one quantity over the ranks that have it. */
struct pmk__mpi_stat {
	int n;             /* ranks with a value */
	double total, min, mean, max;
	int rank_min, rank_max;
	double imbalance;  /* max / mean; NAN when the mean is 0 */
};

/* A job of `size` ranks, none present. 0 or a negative PMK_E* code. */
int pmk__mpi_job_init(struct pmk__mpi_job *job, int size);
void pmk__mpi_job_release(struct pmk__mpi_job *job);
/* The index of event `name` in the job, added when new; -1 when full. */
int pmk__mpi_job_event(struct pmk__mpi_job *job, const char *name,
		       const char *unit);
/* A rank's call or region entry by name, added when new (NULL: no memory). */
struct pmk__mpi_call *pmk__mpi_rank_call(struct pmk__mpi_rank *r,
					 const char *name);
struct pmk__mpi_region *pmk__mpi_rank_region(struct pmk__mpi_rank *r,
					     const char *name,
					     const char *source);
/* Copy rank `src` (of job `from`) into `to`, mapping events by name.
 * PMK_EEXIST when that rank is already present in `to`. */
int pmk__mpi_job_put(struct pmk__mpi_job *to, const struct pmk__mpi_job *from,
		     const struct pmk__mpi_rank *src);

/* Statistics over present ranks of a value chosen by `get` (NAN: skip). */
typedef double (*pmk__mpi_getter)(const struct pmk__mpi_rank *r, void *arg);
void pmk__mpi_stat_of(const struct pmk__mpi_job *job, pmk__mpi_getter get,
		      void *arg, struct pmk__mpi_stat *st);
double pmk__mpi_get_wall(const struct pmk__mpi_rank *r, void *arg);
double pmk__mpi_get_mpi(const struct pmk__mpi_rank *r, void *arg);
double pmk__mpi_get_compute(const struct pmk__mpi_rank *r, void *arg);
/* arg: (int *) event index */
double pmk__mpi_get_event(const struct pmk__mpi_rank *r, void *arg);

/* Ranks present; hosts (distinct names, the first `max` into `names`). */
int pmk__mpi_job_present(const struct pmk__mpi_job *job);
int pmk__mpi_job_hosts(const struct pmk__mpi_job *job, const char **names,
		       int max);

/* Writers. The banner is for people (also what rank 0 prints); JSON is the
 * schema above; CSV has one row per rank and quantity. `top` limits the
 * MPI calls listed in the banner. */
void pmk__mpi_banner(FILE *f, const struct pmk__mpi_job *job, int top);
void pmk__mpi_json(FILE *f, const struct pmk__mpi_job *job);
void pmk__mpi_csv(FILE *f, const struct pmk__mpi_job *job);
/* Per-rank bars: compute and MPI time stacked, and event `ev` (-1: none)
 * as a second panel. Past PMK__MPI_BARS_MAX bars (ranks with a record and
 * runs of ranks without), the aggregated picture instead (jobagg.c): the
 * slowest, fastest and outlying ranks named, the ranks sorted by compute
 * time, a histogram of them, and the ranks sorted by the event. */
#define PMK__MPI_BARS_MAX 128
void pmk__mpi_svg(FILE *f, const struct pmk__mpi_job *job, int ev);
void pmk__mpi_svg_agg(FILE *f, const struct pmk__mpi_job *job, int ev);
/* The pictures' title lines: ranks, records present, compute imbalance,
 * wall time, the command (jobagg.c). */
void pmk__mpi_svg_title(FILE *f, const struct pmk__mpi_job *job, int present);
/* A round step of about max/5 for an axis (jobagg.c). */
double pmk__mpi_axis_step(double max);
/* One panel of per-rank bars, as both pictures draw them (jobagg.c):
 * `nseg` values a bar (1: one quantity, grey; 2: compute and MPI; 3:
 * compute, time that may have been MPI, MPI), the axis from 0 up to `max`
 * rounded to a step, `mean` a dashed line labelled "MEAN_LABEL VALUE"
 * (none when not finite). `tip` and `notes` as the plot module's. */
struct pmk__bar_note;
struct pmk__mpi_bars {
	const char *title, *xlabel, *ylabel, *mean_label;
	int n, nseg;
	const double *v;
	const char *const *labels;
	double max, mean;
	const struct pmk__bar_note *notes;
	int nnotes;
	void (*tip)(void *ctx, int g, int b, int k, char *buf, size_t n);
	void *ctx;
};
void pmk__mpi_bars_draw(FILE *f, const struct pmk__mpi_bars *b, double y,
			double h);
/* One self-contained page: the picture first, then the banner and the
 * per-rank table. */
void pmk__mpi_html(FILE *f, const struct pmk__mpi_job *job, int ev);

/*
 * Reading (jread.c). Parse JSON text of schema pmkit-mpi/1 and add its
 * ranks to `job` (initialised by the caller, or by this call when
 * job->ranks is NULL, sized from the text's "size"). Errors fill `err`
 * ("offset N: what") and return a negative PMK_E* code; ranks already
 * present are PMK_EEXIST.
 */
int pmk__mpi_json_read(struct pmk__mpi_job *job, const char *text,
		       unsigned long len, char *err, unsigned long errsize);

/* Write `len` bytes to `path` safely (lib/core/outfile.h): a new file next
 * to it, renamed into place, the previous one kept as PATH.old; never
 * through a symlink. 0 or a negative PMK_E* code with `d` (may be NULL)
 * saying why ("cannot write 'PATH': ..."). */
struct pmk_diag;
int pmk__mpi_write_file(const char *path, const char *data,
			unsigned long len, struct pmk_diag *d);

#endif
