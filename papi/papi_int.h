/*
 * papi/papi_int.h: what the files of libpapi.so.7.0 share (docs/papi.md).
 *
 * libpapi is PAPI 7.0's C API over libpmkit's public API: event sets are
 * pmk_eventsets, events are strings pmk_event_parse() accepts, and user
 * events come from pmkit's definition files. Only papi/ includes papi.h,
 * and only Debian's (the interface, never re-typed). Internal names are
 * papi__*; every exported name is PAPI's own.
 */
#ifndef PAPI_PAPI_INT_H
#define PAPI_PAPI_INT_H

#include <papi.h>
#include <pthread.h>

#include "pmkit.h"

/* What an event code stands for (events.c). */
enum { PAPI__PRESET = 1, PAPI__NATIVE };

typedef struct papi__event {
	int code;
	int type;		      /* PAPI__PRESET, PAPI__NATIVE */
	char name[PAPI_MAX_STR_LEN];  /* PAPI's symbol */
	char pmk[PAPI_MAX_STR_LEN];   /* the string pmkit parses */
	char desc[PAPI_2MAX_STR_LEN]; /* one line */
	int avail;		      /* -1 not probed, 0 no, 1 can be added */
	int nleaf;		      /* natives (derived: > 1) once probed */
} papi__event;

/* init.c */
extern int papi__inited;	       /* PAPI_is_initialized() state bits */
extern int papi__debug;		       /* PAPI_set_debug() level */
int papi__init(void);		       /* idempotent; 0 or PAPI_E* */
int papi__ret(int err);		       /* reports per papi__debug, returns err */
int papi__from_pmk(int pmk_err);       /* PMK_E* -> PAPI_E* */
#define PAPI__CHECK_INIT()                                                     \
	do {                                                                   \
		if (!papi__inited)                                             \
			return papi__ret(PAPI_ENOINIT);                        \
	} while (0)

/* events.c: the code <-> name table, availability (probed once) */
const papi__event *papi__event_get(int code);
int papi__event_lookup(const char *name, int *code); /* registers natives */
int papi__event_avail(int code);
/* Parse code's event for counting in `domain` (PAPI_DOM_*). */
int papi__event_encode(int code, int domain, pmk_event *ev, pmk_diag *d);
int papi__native_count(void);
int papi__native_code(int i); /* i-th native in listing order, or 0 */
void papi__events_release(void);

/* overflow.c: one overflowing (or profiled) event of a set */
#define PAPI__OVF_MAX 8 /* overflowing events one set holds */
typedef struct papi__ovf {
	int code;
	int pos;	   /* its index in the set's codes (its vector bit) */
	int threshold;	   /* events per signal */
	int fd;		   /* its sampling descriptor while running, or -1 */
	long long last;	   /* its count when last stopped */
	PAPI_overflow_handler_t handler; /* NULL: profiling into `prof` */
	int nprof;
	PAPI_sprofil_t *prof; /* the caller's regions, copied */
	int prof_flags;	      /* PAPI_PROFIL_* */
	unsigned rnd;	      /* PAPI_PROFIL_RANDOM's generator */
} papi__ovf;

/* eventset.c: PAPI's int handles over pmk_eventsets */
#define PAPI__SET_EVENTS 256 /* events one set holds */
typedef struct papi__set {
	int id;
	int ncode;
	int codes[PAPI__SET_EVENTS];
	int state;	    /* PAPI_STOPPED or PAPI_RUNNING */
	int domain;	    /* PAPI_DOM_* */
	int granularity;    /* PAPI_GRN_* */
	int multiplex;
	int inherit;
	int cidx;	    /* assigned component, -1 none */
	int attached;	    /* counting `tid`, not the caller */
	unsigned long tid;
	int cpu;	    /* PAPI_CPU_ATTACH, -1 none */
	pmk_eventset *es;   /* opened for `codes`, or NULL */
	int novf;	    /* overflowing or profiled events */
	papi__ovf ovf[PAPI__OVF_MAX];
} papi__set;
papi__set *papi__set_get(int id);
/* Re-open a stopped set after its options changed: 0 or PAPI_E* */
int papi__set_rebuild(papi__set *s);
void papi__sets_release(void);
extern int papi__def_domain, papi__def_granularity;

/* overflow.c: the set's sampling descriptors follow its start and stop;
 * an overflowing event's value is its own descriptor's count */
int papi__ovf_start(papi__set *s);
void papi__ovf_stop(papi__set *s);
void papi__ovf_value(const papi__set *s, int i, long long *v);
void papi__ovf_reset(papi__set *s);
void papi__ovf_forget(papi__set *s, int code); /* 0: every event */

/* info.c */
extern int papi__disabled; /* PAPI_disable_component(0) before init */
int papi__num_cntrs(void);
double papi__mhz(void);

/* hl.c */
void papi__hl_release(void);

/* thread.c */
unsigned long papi__thread_id(void);

#endif
