/*
 * cgraph.h: the call chains under one entry of perf report's --stdio
 * layout, built and drawn as perf draws them (`-g TYPE,MIN,LIMIT,ORDER,
 * KEY,VALUE`): a tree of the entry's chains in which a run of frames that
 * no chain leaves or ends in is one node, drawn as a graph with absolute
 * (graph) or relative (fractal) percentages, one chain a block (flat), or
 * one chain a line (folded). Names are compared as strings and must
 * outlive the tree.
 */
#ifndef PMK_SAMPLE_CGRAPH_H
#define PMK_SAMPLE_CGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { PMK_CG_GRAPH, PMK_CG_FRACTAL, PMK_CG_FLAT, PMK_CG_FOLDED, PMK_CG_NONE };
enum { PMK_CGV_PERCENT, PMK_CGV_PERIOD, PMK_CGV_COUNT };

typedef struct pmk__cg_opts {
	int mode;	    /* PMK_CG_* (graph) */
	int value;	    /* PMK_CGV_* (percent) */
	int order;	    /* -1 not given, 0 caller, 1 callee */
	double min_percent; /* chains under it are left out (0.5) */
	unsigned limit;	    /* chains drawn at most per level, 0 all */
	const char *sep;    /* folded's frame separator (NULL: ";"; perf
			       uses report's -t SEP) */
	int skip_first;	    /* the entries are sorted by symbol first:
			       a chain's first frame is the entry's own
			       and is not drawn (perf's --sort sym...) */
} pmk__cg_opts;

/* perf's defaults: graph, 0.5, no limit, order not given, percent */
void pmk__cg_opts_init(pmk__cg_opts *o);

/* Parse perf's comma-separated -g argument into `o` (its defaults kept
 * for what is not named): graph|fractal|flat|folded|none, a minimum
 * percentage and then a print limit, caller|callee, function,
 * percent|period|count. 0, or -1 with `err` naming the item. */
int pmk__cg_parse(const char *arg, pmk__cg_opts *o, char *err, size_t n);

typedef struct pmk__cg pmk__cg;

pmk__cg *pmk__cg_new(void);
void pmk__cg_free(pmk__cg *t);

/* A frame of a chain: its function's name, and where the function lies
 * (the DSO's number in the order the DSOs were met, the function's start),
 * which orders siblings of equal period as perf does (the later DSO and
 * the higher address first; inlined frames by name, the later first). */
typedef struct pmk__cg_frame {
	const char *name;
	int dso;
	uint64_t start;
	int inlined;
} pmk__cg_frame;

/* Add one chain, f[0] first as drawn (the root for caller order), with
 * its period and sample count. 0, or -1 out of memory. */
int pmk__cg_add(pmk__cg *t, const pmk__cg_frame *f, size_t n,
		uint64_t period, uint64_t count);

/* Draw the tree under an entry. `total` is the event's total period,
 * `entry` the entry's own (its Children, or Self without children). */
void pmk__cg_print(const pmk__cg *t, const pmk__cg_opts *o, uint64_t total,
		   uint64_t entry, FILE *out);

#endif
