/*
 * format.c: an encoded native as text (pmkit encode) and as JSON.
 */
#include <stdio.h>

#include "pmkit/event.h"

static const char *type_name(uint32_t type)
{
	switch (type) {
	case PMK_TYPE_HARDWARE: return "hardware";
	case PMK_TYPE_SOFTWARE: return "software";
	case PMK_TYPE_TRACEPOINT: return "tracepoint";
	case PMK_TYPE_HW_CACHE: return "hw-cache";
	case PMK_TYPE_RAW: return "raw";
	case PMK_TYPE_BREAKPOINT: return "breakpoint";
	case PMK_TYPE_SIM: return "sim";
	case PMK_TYPE_TOOL: return "tool";
	case PMK_TYPE_UNRESOLVED: return "unresolved";
	default: return "dynamic";
	}
}

int pmk_attr_format(const pmk_attr *a, char *buf, unsigned long size)
{
	int n = snprintf(buf, size,
			 "pmu=%s type=%u(%s) config=0x%llx config1=0x%llx "
			 "config2=0x%llx exclude_user=%u exclude_kernel=%u "
			 "exclude_hv=%u precise_ip=%u",
			 a->pmu, a->type, type_name(a->type),
			 (unsigned long long)a->config,
			 (unsigned long long)a->config1,
			 (unsigned long long)a->config2, a->exclude_user,
			 a->exclude_kernel, a->exclude_hv, a->precise_ip);
	if (a->sample && n >= 0 && (unsigned long)n < size)
		n += snprintf(buf + n, size - (unsigned long)n, " %s=%llu",
			      a->freq ? "freq" : "period",
			      (unsigned long long)a->sample);
	return n;
}

int pmk_attr_format_json(const pmk_attr *a, char *buf, unsigned long size)
{
	return snprintf(buf, size,
			"{\"pmu\":\"%s\",\"type\":%u,\"config\":\"0x%llx\","
			"\"config1\":\"0x%llx\",\"config2\":\"0x%llx\","
			"\"exclude_user\":%u,\"exclude_kernel\":%u,"
			"\"exclude_hv\":%u,\"precise_ip\":%u,"
			"\"sample_period\":%llu,\"sample_freq\":%llu}",
			a->pmu, a->type, (unsigned long long)a->config,
			(unsigned long long)a->config1,
			(unsigned long long)a->config2, a->exclude_user,
			a->exclude_kernel, a->exclude_hv, a->precise_ip,
			(unsigned long long)(a->freq ? 0 : a->sample),
			(unsigned long long)(a->freq ? a->sample : 0));
}
