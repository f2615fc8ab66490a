/*
 * fuzz_perfdata.c: the perf.data reader must survive any bytes: a buffer
 * that starts with perf's magic is translated and loaded as a profile,
 * then every view and export is printed (to /dev/null), and its header's
 * build ids are listed as buildid-list does. Seeds: files that
 * perf record wrote here (tests/fuzz/corpus/perfdata/), with and without
 * call chains. Inputs without the magic get it, so mutations go deep.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
			pmk_profile_build_ids(p, null);
		}
		pmk_profile_free(p);
	}
	/* buildid-list's header section, read from a file descriptor */
	if (null) {
		int fd = memfd_create("fuzz", MFD_CLOEXEC);
		char path[64];
		if (fd >= 0 && write(fd, buf, size) == (ssize_t)size) {
			snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
			pmk_perfdata_build_ids(path, null, &d);
		}
		if (fd >= 0)
			close(fd);
	}
	free(buf);
	return 0;
}
