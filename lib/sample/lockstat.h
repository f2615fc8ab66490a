/*
 * lockstat.h: kernel lock contention from a recording of the
 * lock:contention_begin and lock:contention_end tracepoints with call
 * chains (perf lock record), aggregated as perf lock contention does:
 * by caller, each entry one call path above the lock functions, with its
 * contention count and wait times. (lockstat.c)
 *
 * The tracepoints' fields are read as perf reads them where the recording
 * has them (raw records and the events' formats): a contention is paired
 * with its end by task and lock address, and the lock's type is named from
 * the `flags` field. A recording without them (pmkit's record files before
 * raw records) is read from the call chain instead: pairs by task and call
 * path, the type from the kernel's lock function in the chain
 * (__pv_queued_spin_lock_slowpath: spinlock, rwsem_down_read_slowpath:
 * rwsem:R, ...).
 */
#ifndef PMK_SAMPLE_LOCKSTAT_H
#define PMK_SAMPLE_LOCKSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/error.h"

typedef struct pmk_lockstat pmk_lockstat;

typedef struct pmk_lockstat_opts {
	const char *kallsyms; /* NULL: /proc/kallsyms */
	int max_stack;	      /* chain entries looked at (perf: 8) */
	int stack_skip;	      /* innermost entries skipped (perf: 3) */
} pmk_lockstat_opts;

typedef struct pmk_lock_entry {
	uint64_t contended;
	uint64_t total_ns, max_ns, min_ns, avg_ns; /* min_ns 0 when none */
	const char *type;	 /* "spinlock", "mutex", ..., "unknown" */
	char caller[160];	 /* "function+0xOFF", or "Unknown" */
	uint32_t nchain;	 /* the call path the entry stands for */
	const uint64_t *chain;	 /* (after the skipped and lock entries) */
} pmk_lock_entry;

typedef struct pmk_lockstat_totals {
	uint64_t begins, ends; /* tracepoint samples read */
	uint64_t nested;       /* begins inside an open one (not counted) */
	uint64_t unpaired;     /* ends with no open begin */
	uint64_t lost;	       /* samples the recording lost */
} pmk_lockstat_totals;

/* Read the recording at `path` (a pmkit record file or perf.data).
 * PMK_EFORMAT with `d` filled when it holds no lock:contention_begin and
 * lock:contention_end events. */
int pmk_lockstat_load(pmk_lockstat **out, const char *path,
		      const pmk_lockstat_opts *o, pmk_diag *d);

/* Sort keys, as perf lock contention -k names them; each sorts the
 * biggest first. */
enum {
	PMK_LOCK_KEY_WAIT_TOTAL,
	PMK_LOCK_KEY_CONTENDED,
	PMK_LOCK_KEY_WAIT_MAX,
	PMK_LOCK_KEY_WAIT_MIN,
	PMK_LOCK_KEY_AVG_WAIT,
};
/* The key for a perf name ("wait_total", "contended", ...), or -1. */
int pmk_lockstat_key(const char *name);
void pmk_lockstat_sort(pmk_lockstat *ls, int key);

size_t pmk_lockstat_count(const pmk_lockstat *ls);
const pmk_lock_entry *pmk_lockstat_entry(const pmk_lockstat *ls, size_t i);
void pmk_lockstat_totals_get(const pmk_lockstat *ls, pmk_lockstat_totals *t);
/* The kernel symbol of `addr` as "function+0xOFF" into buf (or the
 * address in hex when unknown). */
const char *pmk_lockstat_sym(const pmk_lockstat *ls, uint64_t addr,
			     char *buf, size_t size);
void pmk_lockstat_free(pmk_lockstat *ls);

#endif
