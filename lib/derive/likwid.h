/*
 * likwid.h: LIKWID's performance groups (likwid-perfctr -g GROUP) as a
 * third source of metric definitions for `pmkit stat -g`. Internal.
 *
 * Two parts:
 *  - likwid.c reads one group file (Debian's likwid installs them as
 *    /usr/share/likwid/perfgroups/ARCH/GROUP.txt): its SHORT line, the
 *    EVENTSET lines (`COUNTER[:OPTION...] EVENT`) and the METRICS lines
 *    (`name words  formula`, the formula being the last blank-separated
 *    word). Pure: no system call; bad input is refused with file:line.
 *  - likwid_map.c maps each LIKWID event to an expression over events
 *    pmkit encodes on a target (libpfm4's natives, perf's JSON names,
 *    sysfs aliases, generic events) and writes the metrics as pmkit
 *    definitions for the one evaluator (lib/derive): what cannot be
 *    mapped is left out with its reason.
 */
#ifndef PMK_DERIVE_LIKWID_H
#define PMK_DERIVE_LIKWID_H

#include <stddef.h>

#include "pmkit/derive.h"
#include "pmkit/event.h"

#define PMK__LW_EVENTS_MAX  128
#define PMK__LW_METRICS_MAX 64

typedef struct pmk__lw_event {
	char counter[24]; /* PMC0, FIXC1, MBOX0C0, PWR0 */
	char opts[96];	  /* "EDGEDETECT", "STATE=0x3F" ("" when none) */
	char name[96];	  /* LIKWID's event name */
	int line;
} pmk__lw_event;

typedef struct pmk__lw_metric {
	char name[128];	    /* "DP [MFLOP/s]" */
	char formula[1024]; /* "1.0E-06*(PMC0*2.0+PMC1)/time" */
	int line;
} pmk__lw_metric;

typedef struct pmk__lw_group {
	char name[64];	  /* the file's name without .txt */
	char path[512];	  /* as given, for messages */
	char short_[256]; /* the SHORT line's text */
	char require[32]; /* "NOHT" of a REQUIRE_NOHT line, else "" */
	int nevent, nmetric;
	pmk__lw_event event[PMK__LW_EVENTS_MAX];
	pmk__lw_metric metric[PMK__LW_METRICS_MAX];
} pmk__lw_group;

/* Parse a group from `text` (`len` bytes, not necessarily terminated);
 * `path` names it in diagnostics and gives its name (basename without
 * .txt). 0, or PMK_EFORMAT with d's file and line set. */
int pmk__lw_parse(const char *text, size_t len, const char *path,
		  pmk__lw_group *g, pmk_diag *d);
/* Read and parse the file `path` (bounded read). */
int pmk__lw_read(const char *path, pmk__lw_group *g, pmk_diag *d);

/* The LIKWID arch directory name for a pmkit/libpfm4 model ("icx" ->
 * "ICX", "amd64_fam19h_zen3" -> "zen3"), or NULL when LIKWID 5.2 has
 * none (Sapphire Rapids, Zen 4). */
const char *pmk__lw_arch(const char *model);

/*
 * One LIKWID event on target `t` as a pmkit infix expression over quoted
 * event strings, into expr: 0; -1 with the reason in expr. `*skip` is set
 * when the event is not one to count (LIKWID's MERGE, which pairs
 * counters: the kernel pairs them itself); expr is then "0".
 */
int pmk__lw_map_event(const pmk_target *t, const pmk__lw_event *e, int *skip,
		      char *expr, size_t size);

/* A group mapped onto a target: each event's expression or the reason it
 * has none, and each metric's definition text or the reason it has none. */
typedef struct pmk__lw_mapped {
	int ok[PMK__LW_EVENTS_MAX];	    /* 1 mapped, 0 not */
	int skip[PMK__LW_EVENTS_MAX];	    /* not an event to count */
	char expr[PMK__LW_EVENTS_MAX][256]; /* expression, or why not */
	int mok[PMK__LW_METRICS_MAX];
	char mwhy[PMK__LW_METRICS_MAX][256]; /* why a metric is left out */
	int nunmapped;			     /* events not mapped */
	int nmissing;			     /* metrics left out */
} pmk__lw_mapped;

/* Map every event of `g` on `t` and translate every metric (formulas are
 * checked even where an event is missing). */
void pmk__lw_map(const pmk_target *t, const pmk__lw_group *g,
		 pmk__lw_mapped *m);

/*
 * Metric k of `g` as pmkit definition text ("lw_k = ...", with LIKWID's
 * counters replaced by the mapped expressions, `time` by duration_time in
 * seconds, inverseClock by the target's TSC period): 0, or -1 with the
 * reason in `why`. The text is malloc'd.
 */
int pmk__lw_metric_text(const pmk_target *t, const pmk__lw_group *g,
			const pmk__lw_mapped *m, int k, char **text, char *why,
			size_t size);
/* Metric k compiled on `t` (pmk_defs_parse_string over the text above);
 * *index is its user event in *out. 0, or -1 with `why`. */
int pmk__lw_metric_defs(const pmk_target *t, const pmk__lw_group *g,
			const pmk__lw_mapped *m, int k, pmk_defs **out,
			int *index, char *why, size_t size);

/* Mapped event i of `g` compiled into one pmk_event (its expression as a
 * definition): 0, or -1 with `why` (an event not mapped or skipped). */
int pmk__lw_event_compile(const pmk_target *t, const pmk__lw_group *g,
			  const pmk__lw_mapped *m, int i, pmk_event *ev,
			  char *why, size_t size);

#endif
