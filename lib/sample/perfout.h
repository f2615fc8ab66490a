/*
 * perfout.h: perf's text layouts over pmkit profiles, for the commands that
 * print them (cli/cmd_script.c, cli/cmd_report.c): `perf script`'s sample
 * text with its -F fields (script.c) and `perf report --stdio`'s table
 * (views.c). Internal to pmkit: the CLI includes it as lib/sample/perfout.h;
 * the public API keeps pmk_profile_script() and pmk_profile_view().
 */
#ifndef PMK_SAMPLE_PERFOUT_H
#define PMK_SAMPLE_PERFOUT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/sample.h"
#include "sample/cgraph.h"

/* perf script's -F fields, by perf's names */
enum {
	PMK__SF_COMM = 1u << 0,
	PMK__SF_TID = 1u << 1,
	PMK__SF_PID = 1u << 2,
	PMK__SF_TIME = 1u << 3,
	PMK__SF_CPU = 1u << 4,
	PMK__SF_EVENT = 1u << 5,
	PMK__SF_IP = 1u << 6,
	PMK__SF_SYM = 1u << 7,
	PMK__SF_SYMOFF = 1u << 8,
	PMK__SF_DSO = 1u << 9,
	PMK__SF_PERIOD = 1u << 10,
	PMK__SF_ADDR = 1u << 11,
	PMK__SF_TRACE = 1u << 12, /* a tracepoint's fields */
};
/* perf's default for a sampled event: comm,tid,cpu,time,event,ip,sym,
 * symoff,dso,period (cpu only where the file has it) */
#define PMK__SF_DEFAULT                                                        \
	(PMK__SF_COMM | PMK__SF_TID | PMK__SF_CPU | PMK__SF_TIME |             \
	 PMK__SF_EVENT | PMK__SF_IP | PMK__SF_SYM | PMK__SF_SYMOFF |           \
	 PMK__SF_DSO | PMK__SF_PERIOD)
/* perf's default for a tracepoint: comm,tid,cpu,time,event,trace, and
 * ip,sym,symoff,dso as a stack when it has a call chain */
#define PMK__SF_TP_DEFAULT                                                     \
	(PMK__SF_COMM | PMK__SF_TID | PMK__SF_CPU | PMK__SF_TIME |             \
	 PMK__SF_EVENT | PMK__SF_TRACE)

typedef struct pmk__script_opts {
	unsigned fields;  /* PMK__SF_*: the set printed */
	int fields_set;	  /* -F given: `fields` for every event type */
	int explicit_cpu; /* cpu asked for by -F (else: when recorded) */
	int mangled;	  /* --no-demangle */
	int ns;		  /* --ns: time in nanoseconds */
	int hide_graph;	  /* -G: no call stacks */
	const char *comms, *pids, *tids; /* comma-separated filters, or NULL */
} pmk__script_opts;

/* perf's defaults (fields PMK__SF_DEFAULT, no filter). */
void pmk__script_opts_init(pmk__script_opts *o);
/* Apply a -F argument: "f,f,..." (that set), "+f,..." or "-f,..." (added
 * to or taken from the current set), each optionally after a "TYPE:"
 * (hw, sw, trace: accepted, one set for all). PMK_EINVAL naming the field
 * in `d` when one is unknown. */
int pmk__script_fields_parse(const char *spec, pmk__script_opts *o,
			     pmk_diag *d);
/* Print every sample of the file at `path` as perf script does. */
int pmk__profile_script(const char *path, const pmk__script_opts *o,
			FILE *out, pmk_diag *d);

/* perf report --stdio */
typedef struct pmk__perf_report_opts {
	const char *sort;  /* perf's keys: comm,pid,tid,dso,sym,srcline...;
			      NULL: comm,dso,sym */
	const char *event; /* NULL: every event, one section each */
	int samples;	   /* -n: the Samples column */
	int quiet;	   /* -q: rows only */
	int header_only;   /* --header-only: the file's description */
	int children;	   /* 1 Children and Self, 0 Self only, -1 perf's
			      default (Children for call-graph files) */
	int graph;	   /* call trees under entries (-1 default: with
			      call-graph files) */
	int callee;	   /* tree order */
	int no_inline;
	pmk__cg_opts cg;   /* -g's drawing: graph, 0.5, ... (cgraph.h);
			      its order is `callee` above */
	unsigned max_stack; /* --max-stack: frames of a chain used, 0 all */
	const char *field_sep; /* -t: columns joined by it, or NULL */
	double percent_limit;
	int hierarchy;	   /* --hierarchy: the keys as levels (hier.c) */
	const char *comms, *pids, *tids, *dsos, *symbols; /* filters */
} pmk__perf_report_opts;

int pmk__profile_perf_report(pmk_profile *p, const pmk__perf_report_opts *o,
			     FILE *out, pmk_diag *d);

/* perf diff's layout (perfdiff.c): BASE against P for `event` (NULL: the
 * first), the second column computed as perf's -c: */
enum { PMK__DIFF_ABS, PMK__DIFF_DELTA, PMK__DIFF_RATIO };
int pmk__profile_perf_diff(pmk_profile *base, pmk_profile *p,
			   const char *event, int compute, FILE *out);

/* Whether `name` is one of the comma-separated items of `list` (NULL: no
 * filter, everything matches). */
static inline int pmk__list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	if (!list)
		return 1;
	while (*list) {
		size_t l = strcspn(list, ",");
		if (l == n && !strncmp(list, name, n))
			return 1;
		list += l;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* The same for a number (a pid or tid). */
static inline int pmk__list_has_u(const char *list, unsigned v)
{
	char b[16];
	if (!list)
		return 1;
	snprintf(b, sizeof b, "%u", v);
	return pmk__list_has(list, b);
}

#endif
