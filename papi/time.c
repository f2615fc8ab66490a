/*
 * papi/time.c: PAPI's clocks. Real time is CLOCK_MONOTONIC; virtual time
 * is the calling thread's CPU time (PAPI's virtual timers are per thread);
 * cycles are those times at the clock rate PAPI_get_hardware_info reports.
 */
#include <time.h>

#include "papi/papi_int.h"

static long long ns_of(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

long long PAPI_get_real_nsec(void) { return ns_of(CLOCK_MONOTONIC); }
long long PAPI_get_real_usec(void) { return PAPI_get_real_nsec() / 1000; }
long long PAPI_get_virt_nsec(void) { return ns_of(CLOCK_THREAD_CPUTIME_ID); }
long long PAPI_get_virt_usec(void) { return PAPI_get_virt_nsec() / 1000; }

long long PAPI_get_real_cyc(void)
{
	return (long long)((double)PAPI_get_real_nsec() * papi__mhz() / 1000.0);
}

long long PAPI_get_virt_cyc(void)
{
	return (long long)((double)PAPI_get_virt_nsec() * papi__mhz() / 1000.0);
}
