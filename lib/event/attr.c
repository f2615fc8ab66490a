/*
 * attr.c: comparing two encoded natives (attr.h).
 */
#include <string.h>

#include "lib/event/attr.h"

int pmk__attr_same_encoding(const pmk_attr *a, const pmk_attr *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2 &&
	       a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv &&
	       a->exclude_idle == b->exclude_idle &&
	       a->exclude_guest == b->exclude_guest &&
	       a->exclude_host == b->exclude_host &&
	       a->precise_ip == b->precise_ip && a->sample == b->sample &&
	       a->freq == b->freq && strcmp(a->pmu, b->pmu) == 0;
}
