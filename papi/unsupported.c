/*
 * papi/unsupported.c: the rest of papi.h, exported so that any PAPI 7.0
 * program links and loads, each returning PAPI_ENOSUPP: writing
 * counters, the rate calls and sysdetect (docs/papi.md lists them).
 */
#include "papi/papi_int.h"

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
