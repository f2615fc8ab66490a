/*
 * papi/unsupported.c: the rest of papi.h, exported so that any PAPI 7.0
 * program links and loads, each returning PAPI_ENOSUPP: sampling
 * (overflow, profil), writing counters, the rate calls and sysdetect.
 * docs/papi.md lists them; overflow and profil are what comes next.
 * Sampling calls first check their event as PAPI does, so that a program
 * asking to sample an event absent here is told PAPI_ENOEVNT (and PAPI's
 * tests skip) rather than PAPI_ENOSUPP.
 */
#include "papi/papi_int.h"

static int sample_check(int id, int code)
{
	PAPI__CHECK_INIT();
	papi__set *s = papi__set_get(id);
	if (!s)
		return papi__ret(PAPI_ENOEVST);
	if (!papi__event_get(code) || !papi__event_avail(code))
		return papi__ret(PAPI_ENOEVNT);
	for (int i = 0; i < s->ncode; i++)
		if (s->codes[i] == code)
			return papi__ret(PAPI_ENOSUPP);
	return papi__ret(PAPI_ENOEVNT); /* not in the set */
}

int PAPI_overflow(int id, int code, int threshold, int flags,
		  PAPI_overflow_handler_t handler)
{
	return sample_check(id, code);
}

int PAPI_get_overflow_event_index(int id, long long vector, int *array,
				  int *number)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_profil(void *buf, unsigned bufsiz, vptr_t offset, unsigned scale,
		int id, int code, int threshold, int flags)
{
	return sample_check(id, code);
}

int PAPI_sprofil(PAPI_sprofil_t *prof, int profcnt, int id, int code,
		 int threshold, int flags)
{
	return sample_check(id, code);
}

int PAPI_write(int id, long long *values)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_flips_rate(int event, float *rtime, float *ptime, long long *flpins,
		    float *mflips)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_flops_rate(int event, float *rtime, float *ptime, long long *flpops,
		    float *mflops)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_ipc(float *rtime, float *ptime, long long *ins, float *ipc)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_epc(int event, float *rtime, float *ptime, long long *ref,
	     long long *core, long long *evt, float *epc)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_rate_stop(void)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_enum_dev_type(int enum_modifier, void **handle)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_get_dev_type_attr(void *handle, PAPI_dev_type_attr_e attr, void *value)
{
	return papi__ret(PAPI_ENOSUPP);
}

int PAPI_get_dev_attr(void *handle, int id, PAPI_dev_attr_e attr, void *value)
{
	return papi__ret(PAPI_ENOSUPP);
}
