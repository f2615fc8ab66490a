/*
 * num.c: whole numbers written in strings (num.h). Pure.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/num.h"

int pmk__parse_u64(const char *s, size_t n, uint64_t *out)
{
	char buf[40], *end;
	if (n == 0 || n >= sizeof buf || !isdigit((unsigned char)s[0]))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	*out = strtoull(buf, &end, 0);
	return (*end || errno) ? -1 : 0;
}

int pmk__cpu_range(const char **s, long *lo, long *hi)
{
	const char *p = *s;
	char *end;
	if (!p || !*p)
		return 0;
	*lo = *hi = strtol(p, &end, 10);
	if (end == p || *lo < 0)
		return -1;
	if (*end == '-') {
		p = end + 1;
		*hi = strtol(p, &end, 10);
		if (end == p || *hi < *lo)
			return -1;
	}
	if (*end == ',')
		end++;
	else if (*end)
		return -1;
	*s = end;
	return 1;
}
