/*
 * papi/init.c: library state and errors: PAPI_library_init (only PAPI 7.0's
 * version word is accepted, as PAPI's own library does), shutdown, the
 * debug level, and the error texts. The messages are pmkit's wording of
 * what each PAPI_E* code means.
 */
#include <stdio.h>
#include <stdlib.h>

#include "papi/papi_int.h"

int papi__inited;
int papi__debug = PAPI_QUIET;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const messages[PAPI_NUM_ERRORS] = {
    [0] = "no error",
    [-PAPI_EINVAL] = "invalid argument",
    [-PAPI_ENOMEM] = "out of memory",
    [-PAPI_ESYS] = "a system or C library call failed",
    [-PAPI_ECMP] = "not supported by the component",
    [-PAPI_ECLOST] = "access to the counters was lost or interrupted",
    [-PAPI_EBUG] = "internal error in pmkit's libpapi",
    [-PAPI_ENOEVNT] = "event does not exist or cannot be counted here",
    [-PAPI_ECNFLCT] = "event exists but cannot be counted with the others",
    [-PAPI_ENOTRUN] = "event set is not running",
    [-PAPI_EISRUN] = "event set is running",
    [-PAPI_ENOEVST] = "no such event set",
    [-PAPI_ENOTPRESET] = "not a preset event",
    [-PAPI_ENOCNTR] = "no hardware counters here",
    [-PAPI_EMISC] = "unknown error",
    [-PAPI_EPERM] = "permission denied (see perf_event_paranoid)",
    [-PAPI_ENOINIT] = "PAPI_library_init has not been called",
    [-PAPI_ENOCMP] = "no such component",
    [-PAPI_ENOSUPP] = "not supported by pmkit's libpapi",
    [-PAPI_ENOIMPL] = "not implemented",
    [-PAPI_EBUF] = "buffer too small",
    [-PAPI_EINVAL_DOM] = "domain not supported for this event set",
    [-PAPI_EATTR] = "invalid or missing event attributes",
    [-PAPI_ECOUNT] = "too many events or attributes",
    [-PAPI_ECOMBO] = "bad combination of features",
    [-PAPI_ECMP_DISABLED] = "the event's component is disabled",
    [-PAPI_EDELAY_INIT] = "component initialised on first use",
    [-PAPI_EMULPASS] = "event needs more than one pass",
};

int papi__from_pmk(int e)
{
	switch (e) {
	case PMK_OK: return PAPI_OK;
	case PMK_EINVAL: case PMK_ESYNTAX: case PMK_ERANGE: return PAPI_EINVAL;
	case PMK_ENOMEM: return PAPI_ENOMEM;
	case PMK_ENOEVENT: case PMK_ENOPMU: case PMK_ENOTSUP: case PMK_ENOENT:
		return PAPI_ENOEVNT;
	case PMK_EPERM: return PAPI_EPERM;
	case PMK_ECONFLICT: case PMK_ENEEDMPX: case PMK_EBUSY:
		return PAPI_ECNFLCT;
	case PMK_ESYS: case PMK_EIO: return PAPI_ESYS;
	case PMK_ESTATE: return PAPI_EISRUN;
	case PMK_ETOOMANY: return PAPI_ECOUNT;
	default: return e < 0 ? PAPI_EMISC : PAPI_OK;
	}
}

int papi__ret(int err)
{
	if (err < 0 && papi__debug != PAPI_QUIET) {
		fprintf(stderr, "PAPI Error: %s\n", PAPI_strerror(err));
		if (papi__debug == PAPI_VERB_ESTOP)
			exit(1);
	}
	return err;
}

int papi__init(void)
{
	pthread_mutex_lock(&init_lock);
	if (!papi__inited) {
		/* PMK_USER_EVENTS_FILE is read by libpmkit itself; PAPI's
		 * variable names a pmkit definition file too. A bad file
		 * leaves its events undefined, as PAPI does. */
		const char *f = getenv("PAPI_USER_EVENTS_FILE");
		pmk_diag d;
		(void)pmk_defs_env_status(&d);
		if (f && *f)
			(void)pmk_defs_load(f, &d);
		papi__inited = PAPI_LOW_LEVEL_INITED;
	}
	pthread_mutex_unlock(&init_lock);
	return PAPI_OK;
}

int PAPI_library_init(int version)
{
	if (version != PAPI_VER_CURRENT)
		return papi__ret(PAPI_EINVAL);
	papi__init();
	return PAPI_VER_CURRENT;
}

int PAPI_is_initialized(void)
{
	return papi__inited;
}

void PAPI_shutdown(void)
{
	if (!papi__inited)
		return;
	papi__hl_release();
	papi__sets_release();
	papi__inited = PAPI_NOT_INITED;
}

int PAPI_set_debug(int level)
{
	if (level != PAPI_QUIET && level != PAPI_VERB_ECONT &&
	    level != PAPI_VERB_ESTOP)
		return papi__ret(PAPI_EINVAL);
	papi__debug = level;
	return PAPI_OK;
}

char *PAPI_strerror(int err)
{
	if (err > 0 || err <= -PAPI_NUM_ERRORS)
		return NULL;
	return (char *)messages[-err];
}

#undef PAPI_descr_error
/* papi.h makes it a macro for PAPI_strerror; exported for old binaries. */
char *PAPI_descr_error(int err);
char *PAPI_descr_error(int err)
{
	return PAPI_strerror(err);
}

void PAPI_perror(const char *msg)
{
	/* PAPI 7 prints the caller's text only (it keeps no last error) */
	if (msg && *msg)
		fprintf(stderr, "%s\n", msg);
}
