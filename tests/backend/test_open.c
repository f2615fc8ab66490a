/*
 * test_open.c: the one open helper, the thread walker and the record probe,
 * on this machine's kernel. Software events open everywhere (no PMU
 * needed); what needs more (a cgroup, a hardware PMU, a paranoid level a
 * user is held to) is checked where it is here and skipped with the reason
 * where it is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/backend/kernel.h"
#include "lib/backend/perf_errors.h"
#include "lib/backend/task.h"
#include "pmkit.h"
#include "tests/support/t.h"

static pmk_attr sw_attr(const char *name, uint64_t config)
{
	pmk_attr a;
	memset(&a, 0, sizeof a);
	snprintf(a.name, sizeof a.name, "%s", name);
	snprintf(a.pmu, sizeof a.pmu, "software");
	a.type = PMK_TYPE_SOFTWARE;
	a.config = config;
	a.exclude_kernel = 1; /* user space: allowed at every paranoid level */
	return a;
}

static void test_open_software_event(void)
{
	pmk_attr a = sw_attr("task-clock", PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr pa;
	pmk_diag d;
	int fd;
	pmk__attr_to_perf(&a, &pa);
	fd = pmk__perf_open(&pa, &a, 0, -1, -1, 0, &d);
	T_ASSERT(fd >= 0);
	/* the descriptor is close-on-exec whatever the caller passed */
	T_CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

static void test_open_failure_is_explained(void)
{
	pmk_attr a = sw_attr("nonesuch", 0x7fff);
	struct perf_event_attr pa;
	pmk_diag d;
	int rc;
	a.type = 0x7ffffff0u; /* no PMU has this type */
	pmk__attr_to_perf(&a, &pa);
	pmk_diag_clear(&d);
	rc = pmk__perf_open(&pa, &a, 0, -1, -1, 0, &d);
	T_CHECK(rc < 0);
	T_EQ_INT(d.code, rc);
	T_CHECK(d.sys_errno != 0);
	T_CHECKF(strstr(d.message, "nonesuch") != NULL, "message: %s",
		 d.message);
	/* the same refusal, asked as a sampling open, gets the sampler's
	 * advice */
	pa.sample_period = 1000;
	pmk_diag_clear(&d);
	rc = pmk__perf_open(&pa, &a, 0, -1, -1, 0, &d);
	T_CHECK(rc < 0);
	T_CHECKF(strstr(d.message, "sample") != NULL, "message: %s", d.message);
}

/* A process that has ended: ESRCH, told apart for callers that skip it. */
static void test_ended_task_is_told(void)
{
	pmk_attr a = sw_attr("task-clock", PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr pa;
	pmk_diag d;
	int rc, st;
	pid_t pid = fork();
	T_ASSERT(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, &st, 0);
	pmk__attr_to_perf(&a, &pa);
	rc = pmk__perf_open(&pa, &a, pid, -1, -1, 0, &d);
	T_CHECK(rc < 0);
	T_EQ_INT(d.sys_errno, ESRCH);
	T_CHECK(pmk__perf_task_ended(rc, &d));
	T_CHECK(!pmk__perf_task_ended(0, &d));
}

/*
 * EMFILE: the limit of open files is raised and the open tried again with
 * the caller's flags. Were PERF_FLAG_PID_CGROUP dropped on that retry (as
 * it once was), the kernel would take the cgroup's descriptor for a
 * process id: the descriptor is given a number that no process has, so
 * that open would fail (ESRCH) instead of counting some other process.
 * Needs a cgroup v2 directory and the right to count on a CPU (root, or
 * perf_event_paranoid 0).
 */
static int cgroup2_root(void)
{
	char line[1024], dir[512], type[64];
	int fd = -1;
	FILE *f = fopen("/proc/mounts", "re");
	if (!f)
		return -1;
	while (fd < 0 && fgets(line, sizeof line, f))
		if (sscanf(line, "%*s %511s %63s", dir, type) == 2 &&
		    !strcmp(type, "cgroup2"))
			fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fclose(f);
	return fd;
}

/* A descriptor number above the ones in use that is no process's id. */
static int no_pid_fd(int lo, int hi)
{
	for (int n = hi - 1; n > lo; n--) {
		char path[32];
		snprintf(path, sizeof path, "/proc/%d", n);
		if (access(path, F_OK) != 0 && fcntl(n, F_GETFD) < 0)
			return n;
	}
	return -1;
}

static void test_emfile_retry_keeps_the_flags(void)
{
	pmk_attr a = sw_attr("cpu-clock", PERF_COUNT_SW_CPU_CLOCK);
	struct perf_event_attr pa;
	struct rlimit old, low;
	pmk_diag d;
	int root, cg, fd, spare[64], nspare = 0;
	root = cgroup2_root();
	if (root < 0)
		T_SKIP("no cgroup2 file system mounted");
	T_ASSERT(getrlimit(RLIMIT_NOFILE, &old) == 0);
	if (old.rlim_cur < 256) {
		close(root);
		T_SKIP("open files limited to %llu",
		       (unsigned long long)old.rlim_cur);
	}
	cg = no_pid_fd(root + 16, (int)old.rlim_cur);
	T_ASSERT(cg > 0 && dup3(root, cg, O_CLOEXEC) == cg);
	close(root);
	pmk__attr_to_perf(&a, &pa);
	fd = pmk__perf_open(&pa, &a, cg, 0, -1, PERF_FLAG_PID_CGROUP, &d);
	if (fd < 0) {
		close(cg);
		T_SKIP("cannot count a cgroup here: %s", d.message);
	}
	close(fd);
	/* every descriptor below a low soft limit in use: the next open
	 * fails with EMFILE */
	low = old;
	low.rlim_cur = (rlim_t)root + 8;
	T_ASSERT(setrlimit(RLIMIT_NOFILE, &low) == 0);
	while (nspare < 64 && (spare[nspare] = dup(cg)) >= 0)
		nspare++;
	T_CHECK(nspare > 0 && errno == EMFILE);
	fd = pmk__perf_open(&pa, &a, cg, 0, -1, PERF_FLAG_PID_CGROUP, &d);
	T_CHECKF(fd >= 0, "after EMFILE: %s (errno %d)", d.message,
		 d.sys_errno);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < nspare; i++)
		close(spare[i]);
	close(cg);
	setrlimit(RLIMIT_NOFILE, &old);
}

/* ---- the thread walker ------------------------------------------------ */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go_home, tid_of[2];

static void *idle_thread(void *arg)
{
	int i = (int)(intptr_t)arg;
	pthread_mutex_lock(&mu);
	tid_of[i] = (int)syscall(SYS_gettid);
	pthread_cond_broadcast(&cv);
	while (!go_home)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int listed(const int *tids, int n, int t)
{
	for (int i = 0; i < n; i++)
		if (tids[i] == t)
			return 1;
	return 0;
}

static void test_thread_walker(void)
{
	pthread_t th[2];
	int tids[64], n, me = (int)getpid(), st;
	pid_t gone;
	for (int i = 0; i < 2; i++)
		T_ASSERT(pthread_create(&th[i], NULL, idle_thread,
					(void *)(intptr_t)i) == 0);
	pthread_mutex_lock(&mu);
	while (!tid_of[0] || !tid_of[1])
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);

	n = pmk_task_threads(me, tids, 64);
	T_CHECKF(n >= 3, "%d threads listed", n);
	T_EQ_INT(tids[0], me); /* the process first */
	T_CHECK(listed(tids, n, tid_of[0]) && listed(tids, n, tid_of[1]));
	T_EQ_INT(pmk_task_threads(me, tids, 2), 2); /* at most max */
	T_EQ_INT(tids[0], me);
	T_EQ_INT(pmk_task_tgid(tid_of[1]), me);
	T_EQ_INT(pmk_task_tgid(me), me);
	T_CHECK(pmk_task_alive(tid_of[1]));

	pthread_mutex_lock(&mu);
	go_home = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	/* a joined thread leaves /proc once the kernel has released it */
	for (int k = 0; k < 200 && pmk_task_alive(tid_of[1]); k++)
		usleep(5000);
	T_CHECK(!pmk_task_alive(tid_of[1]));

	gone = fork();
	T_ASSERT(gone >= 0);
	if (gone == 0)
		_exit(0);
	waitpid(gone, &st, 0);
	T_EQ_INT(pmk_task_threads(gone, tids, 64), PMK_ENOENT);
	T_CHECK(!pmk_task_alive(gone));
}

/* ---- the record probe -------------------------------------------------- */

static void test_probe_software_event(void)
{
	pmk_attr a = sw_attr("cpu-clock", PERF_COUNT_SW_CPU_CLOCK);
	pmk_sample_opts o;
	pmk_diag d;
	memset(&o, 0, sizeof o);
	T_EQ_INT(pmk_sampler_probe(&a, &o, &d), 0);
	T_EQ_INT(a.exclude_kernel, 1); /* unchanged */
}

/* A hardware event samples where a PMU has it; elsewhere (a VM) the probe
 * refuses it with the sampler's reason and advice. */
static void test_probe_hardware_event(void)
{
	pmk_event ev;
	pmk_sample_opts o;
	pmk_diag d;
	int rc;
	memset(&o, 0, sizeof o);
	T_ASSERT(pmk_event_parse(pmk_target_host(), "cycles:u", &ev, &d) == 0);
	rc = pmk_sampler_probe(&ev.leaf[0], &o, &d);
	if (rc == 0) {
		T_CHECK(1);
		return;
	}
	T_CHECK(rc < 0);
	T_EQ_INT(d.code, rc);
	T_CHECKF(strstr(d.message, "cycles") != NULL, "message: %s", d.message);
	T_CHECKF(d.hint[0] != 0, "no hint for: %s", d.message);
}

/*
 * perf_event_paranoid 2 refuses kernel space to a user: the probe then
 * samples user space only, changes the attr so and says why. Checked as
 * an unprivileged user (a child that drops root), where the level is 2.
 */
static void test_probe_paranoid_fallback(void)
{
	int level = pmk__paranoid_level(), p[2], st;
	char buf[320];
	ssize_t k;
	pid_t pid;
	if (level != 2)
		T_SKIP("perf_event_paranoid is %d, not 2", level);
	if (geteuid() != 0) {
		/* a user already: run it here */
		pmk_attr a = sw_attr("cpu-clock", PERF_COUNT_SW_CPU_CLOCK);
		pmk_sample_opts o;
		pmk_diag d;
		memset(&o, 0, sizeof o);
		a.exclude_kernel = 0;
		T_EQ_INT(pmk_sampler_probe(&a, &o, &d), 1);
		T_EQ_INT(a.exclude_kernel, 1);
		T_CHECKF(strstr(d.message, "kernel space is not allowed"),
			 "message: %s", d.message);
		return;
	}
	T_ASSERT(pipe(p) == 0);
	pid = fork();
	T_ASSERT(pid >= 0);
	if (pid == 0) {
		pmk_attr a = sw_attr("cpu-clock", PERF_COUNT_SW_CPU_CLOCK);
		pmk_sample_opts o;
		pmk_diag d;
		int rc;
		close(p[0]);
		if (setgid(65534) || setuid(65534))
			_exit(2);
		memset(&o, 0, sizeof o);
		a.exclude_kernel = 0;
		rc = pmk_sampler_probe(&a, &o, &d);
		snprintf(buf, sizeof buf, "%d %u %s", rc, a.exclude_kernel,
			 d.message);
		if (write(p[1], buf, strlen(buf) + 1) < 0)
			_exit(3);
		/* with -a, kernel space is never dropped: a refusal */
		memset(&a, 0, sizeof a);
		a = sw_attr("cpu-clock", PERF_COUNT_SW_CPU_CLOCK);
		a.exclude_kernel = 0;
		o.all_cpus = 1;
		rc = pmk_sampler_probe(&a, &o, &d);
		_exit(rc == PMK_EPERM && a.exclude_kernel == 0 ? 0 : 4);
	}
	close(p[1]);
	k = read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	waitpid(pid, &st, 0);
	T_ASSERT(k > 0);
	buf[k] = 0;
	{
		const char *want = "1 1 'cpu-clock': kernel space is not "
				   "allowed here (perf_event_paranoid is 2)";
		T_CHECKF(!strncmp(buf, want, strlen(want)), "as a user: %s",
			 buf);
	}
	T_CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "as a user with all_cpus: exit status %d", WEXITSTATUS(st));
}

int main(void)
{
	T_RUN(test_open_software_event);
	T_RUN(test_open_failure_is_explained);
	T_RUN(test_ended_task_is_told);
	T_RUN(test_emfile_retry_keeps_the_flags);
	T_RUN(test_thread_walker);
	T_RUN(test_probe_software_event);
	T_RUN(test_probe_hardware_event);
	T_RUN(test_probe_paranoid_fallback);
	return t_done();
}
