/*
 * os_path.c: `bench os stat` and `bench os open`, lmbench's lat_syscall
 * stat and open: the cost of looking a path up. stat() of a regular file,
 * and open(O_RDONLY) + close() of it; the file is a new empty one in
 * $TMPDIR (or /tmp), so the path is two components deep, like lmbench's
 * default, and removed at the end. The dentries are cached after the
 * warm-up: this is the lookup of a hot path, as lmbench measures it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/os_path.h"

static uint64_t k_stat(void *a, uint64_t n)
{
	struct stat st;
	for (uint64_t i = 0; i < n; i++)
		if (stat(a, &st) != 0)
			return i ? i : 1;
	return n;
}

static uint64_t k_open(void *a, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		int fd = open(a, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return i ? i : 1;
		close(fd);
	}
	return n;
}

int pmk__os_path(const char *name, const pmk_bench_cfg *cfg,
		 pmk_os_result *out)
{
	const char *dir = getenv("TMPDIR");
	char path[256];
	pmk_bench_stat st;
	int fd, rc, is_stat = !strcmp(name, "stat");

	if (!is_stat && strcmp(name, "open"))
		return PMK_ENOENT;
	snprintf(path, sizeof path, "%s/pmkit-bench-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return PMK_ESYS;
	close(fd);
	rc = pmk_bench_run(is_stat ? k_stat : k_open, path, cfg, &st);
	unlink(path);
	if (rc)
		return rc;
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", name);
	snprintf(out->unit, sizeof out->unit, "us");
	out->median = st.median_ns * 1e-3;
	out->best = st.min_ns * 1e-3;
	out->samples = st.samples;
	return 1;
}
