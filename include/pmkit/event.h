/*
 * pmkit/event.h: event strings and their encodings.
 *
 * Encoding makes no system call, so any machine can test any encoding,
 * with these exceptions: pmk_target_discover() and pmk_target_host() read
 * the machine (sysfs, /proc/cpuinfo); tracepoint names and globs read the
 * target's tracefs (pmk_event_parse of "SUB:NAME", pmk_tracepoint_foreach,
 * pmk_event_list_walk's globs); libpfm4 is initialised once per process
 * (LIBPFM_ENCODE_INACTIVE=1 set unless set; libpfm4 reads /proc/mounts);
 * perf's event names read the model's pmu-events JSON once per process, on
 * the first name no other source knows (docs/metrics.md); user-defined
 * events are one process-wide registry (docs/events.md).
 *
 * One grammar covers every event string (docs/events.md has the full text):
 *   generic perf names     cycles, instructions, L1-dcache-load-misses, ...
 *   software events        task-clock, page-faults, context-switches, ...
 *   PAPI presets           PAPI_TOT_INS, PAPI_L1_DCM, ... (mapped per model)
 *   raw                    r1c0, r0x412e
 *   sysfs PMU terms        cpu/event=0x3c,umask=0x1,edge=1,cmask=2/  msr/tsc/
 *   native (model tables)  [PMU::]EVENT[:UMASK...][:MOD[=VAL]...]
 *   user-defined events    names loaded from definition files (derive layer)
 * followed by modifiers: `:u` `:k` `:h` (privilege), `:p`/`:pp`/`:ppp`
 * (precise level), and for raw/sysfs/native events `e`, `i`, `c=N` (edge,
 * invert, threshold) as terms or modifiers; `period=N`, `freq=N`.
 */
#ifndef PMKIT_EVENT_H
#define PMKIT_EVENT_H

#include <stdint.h>

#include "pmkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMK_PMU_NAME_MAX 32
#define PMK_EVENT_NAME_MAX 128
#define PMK_LEAF_MAX 64 /* natives one event may need */
#define PMK_OPS_MAX 2048 /* reverse-Polish steps of a derived event */

/* perf_event_attr.type values this layer knows without the kernel. */
#define PMK_TYPE_HARDWARE 0u
#define PMK_TYPE_SOFTWARE 1u
#define PMK_TYPE_TRACEPOINT 2u
#define PMK_TYPE_HW_CACHE 3u
#define PMK_TYPE_RAW 4u
#define PMK_TYPE_BREAKPOINT 5u
#define PMK_TYPE_SIM 0x7fff0001u   /* the simulated PMU (sim backend) */
#define PMK_TYPE_TOOL 0x7fff0002u  /* perf's tool events, measured by the
				      event set: config 0 duration_time,
				      1 user_time, 2 system_time (ns) */
#define PMK_TYPE_UNRESOLVED 0xffffffffu /* PMU named but its type not known */

typedef enum pmk_event_kind {
	PMK_KIND_NONE = 0,
	PMK_KIND_HARDWARE,   /* generic perf hardware event */
	PMK_KIND_HWCACHE,    /* generic perf hardware-cache event */
	PMK_KIND_SOFTWARE,   /* kernel software event */
	PMK_KIND_RAW,        /* rNNNN */
	PMK_KIND_PMU,        /* pmu/term=value,.../ through sysfs formats */
	PMK_KIND_NATIVE,     /* a named event of a PMU model table */
	PMK_KIND_TRACEPOINT, /* subsystem:name */
	PMK_KIND_PRESET,     /* PAPI preset, one native or derived */
	PMK_KIND_USER,       /* user-defined event from a definition file */
	PMK_KIND_SIM,        /* event of the simulated PMU */
	PMK_KIND_TOOL,       /* duration_time, user_time, system_time */
} pmk_event_kind;

/* What is programmed into one counter: a perf_event_attr's worth. */
typedef struct pmk_attr {
	char pmu[PMK_PMU_NAME_MAX];   /* "cpu", "software", "msr", "sim", ... */
	char name[PMK_EVENT_NAME_MAX]; /* this native as a string */
	uint32_t type;                 /* perf_event_attr.type */
	uint64_t config, config1, config2;
	unsigned exclude_user : 1, exclude_kernel : 1, exclude_hv : 1;
	unsigned exclude_idle : 1, exclude_guest : 1, exclude_host : 1;
	unsigned pinned : 1, exclusive : 1;
	unsigned precise_ip : 2;       /* 0..3: :p, :pp, :ppp */
	unsigned freq : 1;             /* `sample` is a frequency in Hz */
	/* sampling with a call chain of at most this many frames (perf's
	 * max-stack=N and call-graph=fp event terms; sample_max_stack), or
	 * 0: as the sampler's options say */
	unsigned max_stack : 16;
	uint64_t sample;               /* sampling period (or Hz), 0 = counting */
} pmk_attr;

/* One step of a derived event's reverse-Polish program. */
typedef enum pmk_op_code {
	PMK_OP_LEAF = 1, /* push the value of leaf[arg] */
	PMK_OP_CONST,    /* push `value` */
	PMK_OP_ADD,
	PMK_OP_SUB,
	PMK_OP_MUL,
	PMK_OP_DIV,      /* x/0 gives NaN, never a trap */
	PMK_OP_NEG,
	/* perf's metric language (docs/metrics.md); a NaN operand gives NaN */
	PMK_OP_MIN,      /* the smaller of two values */
	PMK_OP_MAX,      /* the larger */
	PMK_OP_LT,       /* 1 when a < b, else 0 */
	PMK_OP_GT,       /* 1 when a > b, else 0 */
	PMK_OP_SELECT,   /* over (a, c, b): a when c != 0, else b (perf's
			    `a if c else b`) */
	PMK_OP_DRATIO,   /* a / b, 0 when b is 0 (perf's d_ratio) */
} pmk_op_code;

typedef struct pmk_op {
	uint8_t code; /* pmk_op_code */
	uint8_t arg;  /* leaf index for PMK_OP_LEAF */
	double value; /* constant for PMK_OP_CONST */
} pmk_op;

/*
 * A parsed event: one or more natives (leaves) and, when derived, a
 * reverse-Polish program combining their counts. nops == 0 means the
 * event's value is leaf[0]'s count.
 */
typedef struct pmk_event {
	char name[PMK_EVENT_NAME_MAX]; /* as written by the user */
	pmk_event_kind kind;
	char unit[16];                 /* "ns" for clocks, else "" */
	int nleaf;
	pmk_attr leaf[PMK_LEAF_MAX];
	int nops;
	pmk_op ops[PMK_OPS_MAX];
} pmk_event;

/*
 * A target describes the PMUs events are encoded for: the sysfs PMUs (name,
 * type, format terms, event aliases) and, optionally, a model whose native
 * tables and preset mappings apply (e.g. "skl", "icl", "amd64_fam19h_zen4").
 * Tests build targets by hand; pmk_target_discover() fills one from sysfs.
 */
typedef struct pmk_target pmk_target;

pmk_target *pmk_target_new(void);
void pmk_target_free(pmk_target *t);
/* Declare a PMU. `is_core` marks the CPU's core PMU (where raw and native
 * events go). Adding an existing name updates its type. */
int pmk_target_add_pmu(pmk_target *t, const char *pmu, uint32_t type,
		       int is_core);
/* A format term as in sysfs `format/TERM`: "config:0-7,32-35", "config1:0". */
int pmk_target_add_format(pmk_target *t, const char *pmu, const char *term,
			  const char *spec, pmk_diag *d);
/* An event alias as in sysfs `events/NAME`: "event=0x3c,umask=0x1". */
int pmk_target_add_alias(pmk_target *t, const char *pmu, const char *event,
			 const char *terms);
/* Choose the model for native tables and presets; PMK_ENOENT if unknown. */
int pmk_target_set_model(pmk_target *t, const char *model);
/* The chosen model, or "" when none. */
const char *pmk_target_model(const pmk_target *t);
/* Number of PMUs, and each one's name/type/core flag by index. */
int pmk_target_pmu_count(const pmk_target *t);
const char *pmk_target_pmu_name(const pmk_target *t, int i, uint32_t *type,
				int *is_core);
/* The core PMU's name, or NULL when the machine has none. */
const char *pmk_target_core_pmu(const pmk_target *t);
/* PMU i's native-event model ("" when none; hybrids have one per core
 * PMU) and whether it is an uncore PMU (counts system-wide only). */
const char *pmk_target_pmu_model(const pmk_target *t, int i, int *is_uncore);
/* The CPU as discovery saw it ("GenuineIntel family 6 model 143 (0x8f)"),
 * or "" for a target built by hand. */
const char *pmk_target_cpu(const pmk_target *t);
/* The source that serves a model's native events ("libpfm4", "pmkit
 * tables"), or NULL when none does. */
const char *pmk_model_source(const char *model);

/*
 * Fill a target from a sysfs tree (`root` = "/sys" normally; tests point it
 * at a fixture) and detect the model from /proc/cpuinfo-style `cpuinfo`
 * (NULL: ROOT/../proc/cpuinfo when root ends in "/sys", else
 * /proc/cpuinfo). Reads files. pmk_target_host() discovers the machine
 * under $PMK_SYSROOT (a directory holding proc/ and sys/) when it is set.
 */
int pmk_target_discover(pmk_target *t, const char *root, const char *cpuinfo);
/* The host's target, discovered once; thread-safe; never NULL. */
const pmk_target *pmk_target_host(void);

/*
 * Parse and encode one event string for a target. On error returns a
 * negative code and fills `d` (column of the failing token, message, hint).
 */
int pmk_event_parse(const pmk_target *t, const char *str, pmk_event *ev,
		    pmk_diag *d);

/*
 * Split a comma-separated event list into its items, keeping commas inside
 * `pmu/.../` terms together. Calls `fn` for each item with its text and its
 * 1-based column in `list`. Stops at the first non-zero return and returns
 * it. Group braces are left in the items ("{a:MODS", "b:MODS}") and globs
 * unexpanded: pmk_event_list_walk() below is the whole grammar.
 */
int pmk_event_list_foreach(const char *list,
			   int (*fn)(const char *item, int column, void *arg),
			   void *arg);

/*
 * The event-list grammar of `-e` (docs/events.md), for every caller: stat,
 * record, the region API, the MPI and PAPI libraries. Items are separated
 * by commas (those inside `pmu/.../` terms belong to the terms);
 * `{a,b}` is one kernel group and `{a,b}:MODS` gives MODS to each member,
 * as perf does; groups do not nest; a tracepoint glob
 * ("syscalls:sys_enter_*", "sched:sched_*:u") becomes one event per
 * matching tracepoint of the target's tracefs, in name order, in its group
 * if it is in one (a glob matching nothing is left to the event's parser,
 * which names the error). Spaces around items are ignored.
 */
typedef struct pmk_event_item {
	const char *str;  /* the event string: braces gone, the group's
			     modifiers appended, a glob expanded */
	int column;	  /* 1-based column in the list of the text str comes
			     from (after a '{') */
	int mods_column;  /* column of the group's modifiers after "}:", or 0 */
	int group;	  /* 0-based index of its {group} in the list, -1 for
			     an event outside any */
	int group_first;  /* 1 for the first event of its group */
	int group_last;	  /* 1 for the last event of its group */
} pmk_event_item;

/*
 * Walk `list`, calling `fn` for each event in order. `fn` encodes the
 * string as it likes (pmk_event_parse, a simulator's parser) and returns
 * 0 to go on; anything else stops the walk and is returned. When `fn`
 * fills its `d` (columns of item->str; `d` is cleared for it), the
 * columns are moved onto the whole list and d->input becomes the list, so
 * the caller prints one marker under the whole `-e` argument; `d` is the
 * caller's `d`, or a scratch one when that is NULL. A grammar error
 * ("groups do not nest", "'}' without '{'", "'{' without '}'", an empty
 * event) returns PMK_ESYNTAX with `d` filled likewise. `t` may be NULL:
 * then no glob is expanded. Reads the target's tracefs for globs only.
 */
int pmk_event_list_walk(const pmk_target *t, const char *list,
			int (*fn)(const pmk_event_item *item, void *arg,
				  pmk_diag *d),
			void *arg, pmk_diag *d);

/* A parsed event list: each event by pmk_event_parse() for one target,
 * with its group. */
typedef struct pmk_event_list pmk_event_list;
/* Parse a whole list (pmk_event_list_walk + pmk_event_parse). 0 with
 * `*out` set (free it with pmk_event_list_free), or an error code with
 * `d` filled, its column counted over the whole list, and `*out` NULL. */
int pmk_event_list_parse(const pmk_target *t, const char *list,
			 pmk_event_list **out, pmk_diag *d);
/* Number of events (globs expanded). */
int pmk_event_list_count(const pmk_event_list *l);
/* Event `i` and its group (-1: none; `group` may be NULL), or NULL. */
const pmk_event *pmk_event_list_event(const pmk_event_list *l, int i,
				      int *group);
/* Number of {groups}; a group's events are consecutive. */
int pmk_event_list_groups(const pmk_event_list *l);
void pmk_event_list_free(pmk_event_list *l);

/* Evaluate a derived event's program over its leaves' values. Division by
 * zero and empty stacks give NaN. */
double pmk_event_eval(const pmk_event *ev, const double *leaf_values);

/* One line describing what would be programmed (pmkit encode). */
int pmk_attr_format(const pmk_attr *a, char *buf, unsigned long size);
/* The same as a JSON object. */
int pmk_attr_format_json(const pmk_attr *a, char *buf, unsigned long size);

/* What `pmkit list` shows about one event name. */
typedef struct pmk_event_info {
	const char *name;
	pmk_event_kind kind;
	const char *pmu;  /* "software", "cpu", the model, ... */
	const char *desc; /* one line */
} pmk_event_info;

/* Every event name the target knows: generic, software, presets, the PMUs'
 * sysfs aliases, the model's natives, user events. Stops when `fn` returns
 * non-zero and returns that. */
int pmk_event_foreach(const pmk_target *t,
		      int (*fn)(const pmk_event_info *info, void *arg),
		      void *arg);

/* Every tracepoint "SUB:NAME" matching `pattern` (globs in either part,
 * "syscalls:sys_enter_*"; NULL: all) in the target's tracefs, with its id.
 * Reads the tracefs of the machine the target was discovered from. */
int pmk_tracepoint_foreach(const pmk_target *t, const char *pattern,
			   int (*fn)(const char *name, uint64_t id, void *arg),
			   void *arg);
/* Whether the target was discovered from a captured machine ($PMK_SYSROOT)
 * rather than the one this process runs on: nothing about it can be
 * opened here. */
int pmk_target_captured(const pmk_target *t);

/* One native event described for the target's model (or "MODEL::EVENT"):
 * its description, unit masks (defaults marked) and modifiers, from the
 * source that serves the model. 0, or PMK_ENOEVENT. */
int pmk_event_describe(const pmk_target *t, const char *event, char *buf,
		       unsigned long size);

/* Name of an event kind ("software", "preset", ...). */
const char *pmk_event_kind_name(pmk_event_kind k);

#ifdef __cplusplus
}
#endif
#endif
