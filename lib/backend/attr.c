/*
 * attr.c: a pmk_attr as the kernel's struct perf_event_attr. The one
 * conversion: counting, sampling and the record probe all start from it,
 * so a field added to pmk_attr is added here once (tests/backend/test_attr.c
 * checks that each field reaches its kernel field, and only that one).
 */
#include <string.h>

#include "lib/backend/kernel.h"

void pmk__attr_to_perf(const pmk_attr *a, struct perf_event_attr *pa)
{
	memset(pa, 0, sizeof *pa);
	pa->size = sizeof *pa;
	pa->type = a->type;
	pa->config = a->config;
	pa->config1 = a->config1;
	pa->config2 = a->config2;
	pa->exclude_user = a->exclude_user;
	pa->exclude_kernel = a->exclude_kernel;
	pa->exclude_hv = a->exclude_hv;
	pa->exclude_idle = a->exclude_idle;
	pa->exclude_guest = a->exclude_guest;
	pa->exclude_host = a->exclude_host;
	pa->pinned = a->pinned;
	pa->exclusive = a->exclusive;
	pa->precise_ip = a->precise_ip;
	pa->freq = a->freq;
	/* with freq, the same union is sample_freq */
	pa->sample_period = a->sample;
	pa->sample_max_stack = (uint16_t)a->max_stack;
}
