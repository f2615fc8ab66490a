/*
 * papi_csv.h: PAPI's preset definition file (papi_events.csv, installed by
 * Debian's libpapi7.0) read as a source of preset definitions. Internal.
 *
 * The file is a list of sections: one or more lines `CPU,NAME` (a libpfm4
 * PMU name: "skx", "amd64_fam19h_zen3"), then `PRESET,PAPI_X,TYPE,...`
 * lines that apply to every CPU named above them. A later definition of
 * the same preset for the same CPU replaces the earlier one, as PAPI
 * loads them. papi_csv.c reads the file into definitions with their line
 * numbers, each turned into pmkit's reverse Polish over natives (tbl.h's
 * form): NOT_DERIVED "A", DERIVED_ADD "A B +", DERIVED_SUB "A B -",
 * DERIVED_POSTFIX's N0|N1|+| with N<k> replaced by the k-th native.
 * Nothing is encoded here: preset.c does that, through the model's
 * source. Reading makes no system call but the file read
 * (pmk__papi_csv_load).
 */
#ifndef PMK_EVENT_PAPI_CSV_H
#define PMK_EVENT_PAPI_CSV_H

#include <stddef.h>

#include "pmkit/event.h"

/* The reader's bounds: a file past them is refused with file:line. */
#define PMK__PAPI_FILE_MAX    ((size_t)4 << 20) /* bytes */
#define PMK__PAPI_LINE_MAX    4096		/* bytes in one line */
#define PMK__PAPI_FIELDS_MAX  64		/* fields in one line */
#define PMK__PAPI_NATIVES_MAX 16		/* natives of one preset */
#define PMK__PAPI_NAME_MAX    128		/* a CPU or preset name */
#define PMK__PAPI_DEFS_MAX    65536		/* PRESET lines */
#define PMK__PAPI_CPUS_MAX    8192		/* CPU lines */

/* One PRESET line. */
typedef struct pmk__papi_def {
	const char *preset; /* "PAPI_TOT_CYC" */
	const char *type;   /* "NOT_DERIVED", as written */
	/* pmkit's reverse Polish over the natives ("A B +"), or NULL when
	 * the line cannot be used (`why` says what is wrong with it) */
	const char *rpn;
	const char *why;
	const char *note; /* NOTE, LDESC or SDESC text, or NULL */
	int line;	  /* 1-based line in the file */
} pmk__papi_def;

typedef struct pmk__papi_csv pmk__papi_csv;

/*
 * Read `len` bytes of `text` (NUL bytes refused) named `file` in
 * diagnostics. Lines it cannot read (a CPU line with no name, a PRESET
 * line with no name or type, an unterminated quote, a line of another
 * kind, a line or file past the bounds) fail the whole file with `d`
 * naming file:line and column; lines it can read but not use (an unknown
 * derived type, a malformed postfix formula) are kept with their `why`.
 * 0 with *out set (pmk__papi_csv_free it), or a negative PMK_E* code.
 */
int pmk__papi_csv_parse(const char *text, size_t len, const char *file,
			pmk__papi_csv **out, pmk_diag *d);
/* Read the file at `path` (bounded by PMK__PAPI_FILE_MAX) and parse it. */
int pmk__papi_csv_load(const char *path, pmk__papi_csv **out, pmk_diag *d);
void pmk__papi_csv_free(pmk__papi_csv *c);
/* The file name given to parse/load. */
const char *pmk__papi_csv_file(const pmk__papi_csv *c);
/* How many PRESET lines were read. */
int pmk__papi_csv_count(const pmk__papi_csv *c);

/* Whether any CPU of the file defines `preset`. */
int pmk__papi_csv_defines(const pmk__papi_csv *c, const char *preset);
/* The definition of `preset` in force for pmkit's model `model` (the last
 * one in the file of a section naming the model, pmk__papi_cpu_is; names
 * without regard to case), or NULL. */
const pmk__papi_def *pmk__papi_csv_find(const pmk__papi_csv *c,
					const char *model, const char *preset);
/* Each preset defined for `model`, once, in the order of its first
 * definition, with the definition in force. Stops on non-zero and returns
 * it. */
int pmk__papi_csv_foreach(const pmk__papi_csv *c, const char *model,
			  int (*fn)(const pmk__papi_def *def, void *arg),
			  void *arg);
/* Each CPU name of the file, once, in file order. */
int pmk__papi_csv_cpus(const pmk__papi_csv *c,
		       int (*fn)(const char *cpu, void *arg), void *arg);

/*
 * The PAPI file pmkit reads presets from, loaded once per process: the
 * file named by $PMK_PAPI_EVENTS when it is set ("" or "none": no file),
 * else the one found at configure time (PMK_PAPI_EVENTS_CSV, from
 * scripts/deps.d/papi_events.sh). NULL when there is none or it cannot be
 * read; `why` (may be NULL) then gets the reason, "" when none was
 * configured. Thread-safe. (preset.c)
 */
const pmk__papi_csv *pmk__papi_events(const char **why);

/* PAPI's name for pmkit's model `model` in papi_events.csv's CPU lines:
 * libpfm4's PMU names, the same as pmkit's, and "kbl" for skl (PAPI
 * lists it; libpfm4 treats Kaby Lake as Skylake). 1 when `cpu` names
 * `model`. (papi_csv.c) */
int pmk__papi_cpu_is(const char *cpu, const char *model);

/*
 * Presets by where their definitions come from (preset.c). For a model,
 * each preset is taken from the first of these that defines it and whose
 * natives encode on the model:
 *   PMK__PRESET_PAPI     PAPI's papi_events.csv (pmk__papi_events)
 *   PMK__PRESET_TABLE    pmkit's own table of the model (tbl_*.c)
 *   PMK__PRESET_GENERIC  the kernel's generic events (preset.c's list)
 */
enum {
	PMK__PRESET_ANY = 0,
	PMK__PRESET_PAPI = 1,
	PMK__PRESET_TABLE = 2,
	PMK__PRESET_GENERIC = 3,
};

typedef struct pmk__preset_src {
	int from;	  /* PMK__PRESET_*; 0 when none defines it */
	const char *rpn;  /* the formula used (reverse Polish) */
	const char *desc; /* what the preset counts */
	char where[320];  /* "FILE:LINE" (PAPI), "lib/event/tbl_skl.c" */
	char passed[320]; /* an earlier source passed over, and why, or "" */
} pmk__preset_src;

/* pmkit's name for the source kinds: "papi", "pmkit", "generic". */
const char *pmk__preset_from_name(int from);

struct pmk__model;
struct pmk__model_res;
/*
 * Resolve preset `name` on `model` (its canonical name; NULL or "": no
 * model) whose table is `m` (NULL: none) through the sources `r`, for PMU
 * `core_pmu` of perf type `type`: from the source `from` alone, or
 * (PMK__PRESET_ANY) from the first that defines it and encodes. `src` (may
 * be NULL) says where the definition came from. The contract of
 * pmk__preset_resolve (native.h).
 */
int pmk__preset_encode_from(int from, const char *model,
			    const struct pmk__model *m,
			    const struct pmk__model_res *r,
			    const char *core_pmu, uint32_t type,
			    const char *name, int col0, pmk_event *ev,
			    pmk__preset_src *src, pmk_diag *d);
/* Each preset that resolves on `model` (as pmk__preset_encode_from with
 * PMK__PRESET_ANY), with its source: pmkit's presets first, then the
 * others PAPI defines for the model. */
int pmk__preset_foreach_src(const char *model, const struct pmk__model *m,
			    const struct pmk__model_res *r,
			    const char *core_pmu, uint32_t type,
			    int (*fn)(const pmk_event_info *info,
				      const pmk__preset_src *src, void *arg),
			    void *arg);
/* Where preset `name` on target `t` (its core PMU's model) comes from.
 * 0, or the resolution's error. (list.c) */
int pmk__event_preset_source(const pmk_target *t, const char *name,
			     pmk__preset_src *src);

#endif
