/*
 * fuzz_perfdata.c: the perf.data reader must survive any bytes: a buffer
 * that starts with perf's magic is translated and loaded as a profile,
 * then every view and export is printed (to /dev/null). Seeds: files that
 * perf record wrote here (tests/fuzz/corpus/perfdata/), with and without
 * call chains. Inputs without the magic get it, so mutations go deep.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	pmk_profile *p;
	pmk_diag d;
	uint8_t *buf = malloc(size + 8);
	if (!buf)
		return 0;
	if (!null)
		null = fopen("/dev/null", "w");
	memcpy(buf, "PERFILE2", 8);
	if (size >= 8 && !memcmp(data, "PERFILE2", 8))
		memcpy(buf, data, size);
	else
		memcpy(buf + 8, data, size), size += 8;
	if (pmk_profile_load_mem(&p, buf, size, &d) == 0) {
		if (null) {
			pmk_view_opts o;
			memset(&o, 0, sizeof o);
			o.sort = "comm,pid,dso,sym";
			pmk_profile_view(p, &o, null, &d);
			o.sort = NULL;
			o.children = o.graph = 1;
			pmk_profile_view(p, &o, null, &d);
			pmk_profile_print(p, PMK_SORT_FUNCTION, 1, null);
			pmk_profile_print_folded(p, NULL, null);
			pmk_profile_flamegraph(p, p, NULL, NULL, null);
			pmk_profile_speedscope(p, NULL, null);
		}
		pmk_profile_free(p);
	}
	free(buf);
	return 0;
}
