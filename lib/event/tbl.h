/*
 * tbl.h: the shape of a PMU model table. Internal.
 *
 * One file per model (tbl_skl.c, tbl_zen4.c, ...) defines a pmk__model: the
 * model's commonly used core events, each with its event-select code, its
 * unit masks (code, default flag, and any threshold, edge, invert or
 * any-thread bit the unit mask implies), the modifiers it accepts, and the
 * model's PAPI preset mapping. native.c turns a string and a table into a
 * perf_event_attr encoding; preset.c resolves presets through the tables.
 * Facts come from the vendors' manuals (Intel SDM volume 3B, AMD PPRs) and
 * their published event lists; the descriptions are ours.
 */
#ifndef PMK_EVENT_TBL_H
#define PMK_EVENT_TBL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/event/source.h"
#include "pmkit/event.h"

/* Modifiers an event accepts (pmk__nevent.mods). */
enum {
	PMK__M_U = 1 << 0,	 /* u: count at user level */
	PMK__M_K = 1 << 1,	 /* k: count at kernel level */
	PMK__M_H = 1 << 2,	 /* h: count in the hypervisor (AMD) */
	PMK__M_E = 1 << 3,	 /* e: edge detect */
	PMK__M_I = 1 << 4,	 /* i: invert the threshold comparison */
	PMK__M_C = 1 << 5,	 /* c=N: threshold (counter mask), 0..255 */
	PMK__M_T = 1 << 6,	 /* t: any thread of the core (Intel) */
	PMK__M_INTX = 1 << 7,	 /* intx: only inside TSX transactions */
	PMK__M_INTXCP = 1 << 8,	 /* intxcp: exclude aborted transactions */
	PMK__M_PRECISE = 1 << 9, /* precise=N, p, pp, ppp: PEBS/IBS level */
};

#define PMK__MODS_INTEL                                                        \
	(PMK__M_U | PMK__M_K | PMK__M_E | PMK__M_I | PMK__M_C | PMK__M_T |     \
	 PMK__M_INTX | PMK__M_INTXCP)
#define PMK__MODS_INTEL_PEBS (PMK__MODS_INTEL | PMK__M_PRECISE)
#define PMK__MODS_INTEL_ICL                                                    \
	(PMK__M_U | PMK__M_K | PMK__M_E | PMK__M_I | PMK__M_C | PMK__M_INTX |  \
	 PMK__M_INTXCP)
#define PMK__MODS_INTEL_ICL_PEBS (PMK__MODS_INTEL_ICL | PMK__M_PRECISE)
/* Fixed-counter pseudo events (event 0x00): privilege and any-thread only. */
#define PMK__MODS_INTEL_FIXED	  (PMK__M_U | PMK__M_K | PMK__M_T)
#define PMK__MODS_INTEL_FIXED_ICL (PMK__M_U | PMK__M_K)
#define PMK__MODS_AMD                                                          \
	(PMK__M_U | PMK__M_K | PMK__M_H | PMK__M_E | PMK__M_I | PMK__M_C)

/* Unit-mask flags (pmk__umask.flags). */
enum {
	PMK__UM_DFL = 1 << 0,	/* used when the event is given no unit mask */
	PMK__UM_EDGE = 1 << 1,	/* implies edge detect */
	PMK__UM_INV = 1 << 2,	/* implies invert */
	PMK__UM_ANY = 1 << 3,	/* implies any-thread */
	PMK__UM_EVSEL = 1 << 4, /* replaces the event select with `evsel` */
	PMK__UM_ALONE = 1 << 5, /* an aggregate: never combined with others */
};

typedef struct pmk__umask {
	const char *name;
	uint8_t code;	   /* unit-mask bits, config[15:8] */
	uint8_t cmask;	   /* threshold this unit mask implies, 0 for none */
	uint8_t flags;	   /* PMK__UM_* */
	uint8_t evsel;	   /* event select when flags has PMK__UM_EVSEL */
	const char *alias; /* vendor/perf lower-case name, or NULL */
	const char *desc;
} pmk__umask;

/* Event flags (pmk__nevent.flags). */
enum {
	PMK__EV_COMBINE = 1 << 0, /* several unit masks may be OR-ed */
};

typedef struct pmk__nevent {
	const char *name;  /* upper case, as in libpfm4 where it exists */
	const char *alias; /* the vendor's / perf's lower-case name, or NULL */
	uint16_t code;	   /* event select (AMD: up to 12 bits) */
	uint16_t mods;	   /* PMK__M_* accepted */
	uint16_t flags;	   /* PMK__EV_* */
	uint16_t numask;
	const pmk__umask *umask;
	const char *desc;
} pmk__nevent;

enum { PMK__VENDOR_INTEL = 1, PMK__VENDOR_AMD = 2 };

/*
 * A preset's mapping on one model, in reverse Polish: space-separated
 * native strings (of this model), numbers, and + - * /. One native alone
 * is the common case: "INST_RETIRED:ANY_P".
 */
typedef struct pmk__preset_map {
	const char *preset;
	const char *rpn;
} pmk__preset_map;

typedef struct pmk__model {
	const char *name; /* libpfm4's PMU name: "skl", "amd64_fam19h_zen4" */
	const char *desc; /* "Intel Skylake" */
	int vendor;	  /* PMK__VENDOR_* */
	const pmk__nevent *ev;
	int nev;
	const pmk__preset_map *preset;
	int npreset;
} pmk__model;

#define PMK__N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Shorthands for the table files. */
#define PMK__U(n, c, d)                                                        \
	{                                                                      \
		n, c, 0, 0, 0, NULL, d                                         \
	}
#define PMK__UD(n, c, d)                                                       \
	{                                                                      \
		n, c, 0, PMK__UM_DFL, 0, NULL, d                               \
	}
#define PMK__UC(n, c, cm, fl, d)                                               \
	{                                                                      \
		n, c, cm, fl, 0, NULL, d                                       \
	}
#define PMK__UA(n, c, al, d)                                                   \
	{                                                                      \
		n, c, 0, 0, 0, al, d                                           \
	}
#define PMK__UX(n, c, cm, fl, evs, d)                                          \
	{                                                                      \
		n, c, cm, (fl) | PMK__UM_EVSEL, evs, NULL, d                   \
	}
#define PMK__EV(n, al, code, mods, fl, um, d)                                  \
	{                                                                      \
		n, al, code, mods, fl, PMK__N(um), um, d                       \
	}
#define PMK__EV0(n, al, code, mods, d)                                         \
	{                                                                      \
		n, al, code, mods, 0, 0, NULL, d                               \
	}

extern const pmk__model pmk__model_skl;
extern const pmk__model pmk__model_icl;
extern const pmk__model pmk__model_zen2;
extern const pmk__model pmk__model_zen3;
extern const pmk__model pmk__model_zen4;
extern const pmk__model pmk__model_zen5;
/* presets only, over the natives of the source that serves the model */
extern const pmk__model pmk__model_spr;
extern const pmk__model pmk__model_adl_glc;

/* The model named `name` (case-insensitive), or NULL. */
const pmk__model *pmk__model_find(const char *name);
/* Every model, NULL-terminated. */
extern const pmk__model *const pmk__models[];
/* The table of presets for model `name`: a model's above, else one of the
 * preset-only tables (nev 0: their presets name the natives of the source
 * that serves the model, libpfm4's spr, perf's adl_glc), or NULL. */
const pmk__model *pmk__preset_model_find(const char *name);

/*
 * Parse a native string for `model` (NULL: the model must be named with a
 * "MODEL::" prefix). `core_pmu` names the PMU put into the attr ("cpu").
 * Pure; same contract as pmk__native_parse().
 */
int pmk__native_parse_model(const pmk__model *model, const char *core_pmu,
			    const char *s, int col0, pmk_event *ev,
			    pmk_diag *d);

/*
 * Resolve a PAPI preset by the mapping of table `model` (NULL: the generic
 * perf events where the preset has a generic equivalent), the mapping's
 * natives encoded through the sources `r` (pmk__source_encode; NULL or
 * unresolved: pmkit's tables) for PMU `core_pmu` of perf type `type`.
 * Same contract as pmk__preset_resolve(), which calls it with the
 * target's resolved model. (preset.c)
 */
int pmk__preset_encode(const pmk__model *model, const pmk__model_res *r,
		       const char *core_pmu, uint32_t type, const char *name,
		       int col0, pmk_event *ev, pmk_diag *d);
/*
 * The same through pmkit's tables alone (type PERF_TYPE_RAW): the tables'
 * own mapping and encoder, for their tests.
 */
int pmk__preset_resolve_model(const pmk__model *model, const char *core_pmu,
			      const char *name, int col0, pmk_event *ev,
			      pmk_diag *d);
/* Enumerate a model's natives (each EVENT or EVENT:UMASK) / its presets. */
int pmk__native_foreach_model(const pmk__model *model,
			      int (*fn)(const pmk_event_info *info, void *arg),
			      void *arg);
int pmk__preset_foreach_model(const pmk__model *model,
			      int (*fn)(const pmk_event_info *info, void *arg),
			      void *arg);

#endif
