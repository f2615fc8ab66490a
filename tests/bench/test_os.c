/*
 * test_os.c: every OS/IPC benchmark runs, returns named results with a
 * unit and positive, ordered figures, and reaps its helper processes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/wait.h>

#include "pmkit/bench.h"
#include "tests/support/t.h"

static void test_every_benchmark_runs(void)
{
	pmk_bench_cfg c;
	pmk_bench_cfg_default(&c);
	c.sample_ms = 1;
	for (int i = 0; pmk_os_names[i]; i++) {
		pmk_os_result r[8];
		int n = pmk_os_run(pmk_os_names[i], &c, r, 8);
		T_CHECKF(n >= 1, "%s: %d", pmk_os_names[i], n);
		for (int k = 0; k < n; k++) {
			int bw = !strcmp(r[k].unit, "MB/s");
			T_CHECKF(bw || !strcmp(r[k].unit, "us"), "%s unit %s",
				 r[k].name, r[k].unit);
			T_CHECKF(strncmp(r[k].name, pmk_os_names[i],
					 strcspn(pmk_os_names[i], "_")) == 0,
				 "%s named %s", pmk_os_names[i], r[k].name);
			T_EQ_INT(r[k].samples, 5);
			if (strncmp(r[k].name, "ctx_", 4)) {
				/* best is the fastest: smallest time or
				 * largest bandwidth */
				T_CHECKF(r[k].median > 0, "%s", r[k].name);
				T_CHECKF(bw ? r[k].best >= r[k].median
					    : r[k].best <= r[k].median,
					 "%s best %g median %g", r[k].name,
					 r[k].best, r[k].median);
			}
		}
	}
	/* no helper left behind */
	T_CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
}

static void test_ctx_gives_four_settings(void)
{
	pmk_bench_cfg c;
	pmk_os_result r[8];
	pmk_bench_cfg_default(&c);
	c.sample_ms = 1;
	T_EQ_INT(pmk_os_run("ctx", &c, r, 8), 4);
	T_EQ_STR(r[0].name, "ctx_2p_0k");
	T_EQ_STR(r[3].name, "ctx_8p_16k");
}

/* stat and open look a path up in $TMPDIR and remove their file */
static void test_path_calls_clean_up(void)
{
	char dir[] = "/tmp/pmkit-test-os-XXXXXX";
	pmk_bench_cfg c;
	pmk_os_result r[1];
	const char *old = getenv("TMPDIR");
	char *keep = old ? strdup(old) : NULL;
	DIR *dp;
	struct dirent *e;
	int left = 0;
	T_CHECK(mkdtemp(dir) != NULL);
	setenv("TMPDIR", dir, 1);
	pmk_bench_cfg_default(&c);
	c.sample_ms = 1;
	T_EQ_INT(pmk_os_run("stat", &c, r, 1), 1);
	T_EQ_STR(r[0].name, "stat");
	T_EQ_INT(pmk_os_run("open", &c, r, 1), 1);
	T_EQ_STR(r[0].unit, "us");
	if (keep)
		setenv("TMPDIR", keep, 1);
	else
		unsetenv("TMPDIR");
	free(keep);
	dp = opendir(dir);
	T_CHECK(dp != NULL);
	while (dp && (e = readdir(dp)) != NULL)
		left += e->d_name[0] != '.';
	if (dp)
		closedir(dp);
	T_EQ_INT(left, 0);
	rmdir(dir);
}

static void test_unknown_names(void)
{
	pmk_os_result r[1];
	T_EQ_INT(pmk_os_run("nosuch", NULL, r, 1), PMK_ENOENT);
	T_EQ_INT(pmk_os_run("fork_nosuch", NULL, r, 1), PMK_ENOENT);
	T_EQ_INT(pmk_os_run(NULL, NULL, r, 1), PMK_EINVAL);
}

int main(void)
{
	T_RUN(test_every_benchmark_runs);
	T_RUN(test_ctx_gives_four_settings);
	T_RUN(test_path_calls_clean_up);
	T_RUN(test_unknown_names);
	return t_done();
}
