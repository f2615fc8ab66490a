/*
 * report_speed.c: how long `pmkit report` takes on a 1,000,000-sample file
 * (target: <= 2 s), and perf report on a comparable perf.data.
 *
 *   build/bench/report_speed [-n SAMPLES] [-r REPEATS] [--no-real] [--keep]
 *
 * 1. Synthetic: writes a record file of SAMPLES samples (default 1e6) of
 *    this very process, through the writer API: maps of this executable and
 *    of libc taken from /proc/self/maps, 90 % of the samples on 2,000 hot
 *    addresses and 10 % spread over the whole text (so tens of thousands of
 *    distinct addresses to symbolize), half of them with 6-frame call chains.
 *    Times `pmkit report` (by function, by line, --folded) on it.
 * 2. Real (unless --no-real): records this program's CPU-bound loop with
 *    `pmkit record -c 10000` (100 kHz cpu-clock) and, when perf is present,
 *    with `perf record -c 10000 -e cpu-clock`, for enough CPU time to reach
 *    about SAMPLES samples, and times `pmkit report` and `perf report
 *    --stdio` on the two files. Prints sample counts, so that the files can
 *    be compared.
 * Every figure is the median wall time of REPEATS runs (default 3).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmkit.h"

static volatile double sink;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cputime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spin(double seconds)
{
	double x = 0;
	while (cputime() < seconds)
		for (int i = 0; i < 100000; i++)
			x += (double)i * 0.5;
	sink = x;
}

static double last_cpu; /* CPU seconds of the last run() */

/* Run argv with stdout/stderr to /dev/null; wall seconds or -1. */
static double run(char **argv)
{
	double t0 = now();
	int st;
	struct rusage ru;
	pid_t p = fork();
	if (p == 0) {
		int dn = open("/dev/null", O_WRONLY);
		if (dn >= 0) {
			dup2(dn, 1);
			dup2(dn, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (p < 0 || wait4(p, &st, 0, &ru) != p || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return -1;
	last_cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return now() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double med_cpu; /* median CPU seconds of the last timed() */

/* Median wall seconds of `reps` runs (and their median CPU in med_cpu). */
static double timed(char **argv, int reps)
{
	double v[16], c[16];
	for (int i = 0; i < reps; i++) {
		v[i] = run(argv);
		c[i] = last_cpu;
		if (v[i] < 0)
			return -1;
	}
	qsort(v, (size_t)reps, sizeof *v, cmp);
	qsort(c, (size_t)reps, sizeof *c, cmp);
	med_cpu = c[reps / 2];
	return v[reps / 2];
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct xmap {
	uint64_t start, end, off;
	char path[512];
};

static int exec_maps(struct xmap *m, int max)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int n = 0;
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof line, f)) {
		unsigned long long a, b, o, ino;
		char perms[8], dev[16];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %15s %llu %n", &a, &b,
			   perms, &o, dev, &ino, &pos) < 6 ||
		    perms[2] != 'x' || !pos || line[pos] != '/')
			continue;
		line[strcspn(line, "\n")] = 0;
		m[n].start = a;
		m[n].end = b;
		m[n].off = o;
		snprintf(m[n].path, sizeof m[n].path, "%s", line + pos);
		n++;
	}
	fclose(f);
	return n;
}

static int synth(const char *path, long nsamples)
{
	pmk_rec_writer *w;
	pmk_diag d;
	pmk_rec_event e = {.index = 0, .type = 1, .period = 4000, .freq = 1};
	struct xmap m[32];
	int nm = exec_maps(m, 32);
	uint64_t hot[2000], chain[6];
	if (nm == 0 || pmk_rec_writer_open(&w, path, "report_speed", &d))
		return -1;
	snprintf(e.name, sizeof e.name, "cpu-clock");
	pmk_rec_write_event(w, &e);
	for (int i = 0; i < nm; i++) {
		pmk_rec_map rm;
		memset(&rm, 0, sizeof rm);
		rm.pid = 1000;
		rm.start = m[i].start;
		rm.len = m[i].end - m[i].start;
		rm.pgoff = m[i].off;
		rm.prot = 5;
		snprintf(rm.path, sizeof rm.path, "%s", m[i].path);
		pmk_rec_map_identify(&rm);
		pmk_rec_write_map(w, &rm);
	}
	for (int i = 0; i < 2000; i++) {
		const struct xmap *x = &m[next() % (uint64_t)nm];
		hot[i] = x->start + next() % (x->end - x->start);
	}
	for (long i = 0; i < nsamples; i++) {
		pmk_sample s = {.event = 0,
				.pid = 1000,
				.tid = 1000,
				.period = 250000,
				.time_ns = (uint64_t)i * 250000};
		if (next() % 10) {
			s.ip = hot[next() % 2000];
		} else {
			const struct xmap *x = &m[next() % (uint64_t)nm];
			s.ip = x->start + next() % (x->end - x->start);
		}
		if (i & 1) {
			chain[0] = s.ip;
			for (int k = 1; k < 6; k++)
				chain[k] = hot[(i / 2 + k * 7) % 2000];
			s.chain = chain;
			s.nchain = 6;
		}
		pmk_rec_write_sample(w, &s);
	}
	return pmk_rec_writer_close(w);
}

int main(int argc, char **argv)
{
	long n = 1000000;
	int reps = 3, real = 1, keep = 0;
	char self[PATH_MAX], pmkit[PATH_MAX + 16], syn[64], rec[64], pdata[64];
	ssize_t k;
	if (argc == 3 && !strcmp(argv[1], "--spin")) {
		spin(atof(argv[2]));
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atol(argv[++i]);
		else if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--no-real"))
			real = 0;
		else if (!strcmp(argv[i], "--keep"))
			keep = 1;
	}
	if (n < 1 || reps < 1 || reps > 16) {
		fprintf(stderr, "usage: report_speed [-n SAMPLES] [-r 1..16] "
				"[--no-real]\n");
		return 2;
	}
	k = readlink("/proc/self/exe", self, sizeof self - 1);
	if (k <= 0)
		return 1;
	self[k] = 0;
	if (getenv("PMKIT")) {
		snprintf(pmkit, sizeof pmkit, "%s", getenv("PMKIT"));
	} else {
		char *slash = strrchr(self, '/');
		*slash = 0;
		snprintf(pmkit, sizeof pmkit, "%s/../pmkit", self);
		*slash = '/';
	}
	snprintf(syn, sizeof syn, "/tmp/pmk_rs_%d.rec", (int)getpid());
	snprintf(rec, sizeof rec, "/tmp/pmk_rs_%d_real.rec", (int)getpid());
	snprintf(pdata, sizeof pdata, "/tmp/pmk_rs_%d.data", (int)getpid());

	if (synth(syn, n) != 0) {
		fprintf(stderr, "report_speed: cannot write %s\n", syn);
		return 1;
	}
	{
		char *a_fn[] = {pmkit, "report", "-i", syn, NULL};
		char *a_ln[] = {pmkit,	  "report", "-i", syn,
				"--sort", "line",   NULL};
		char *a_fd[] = {pmkit, "report", "-i", syn, "--folded", NULL};
		printf("report_speed: synthetic file, %ld samples (half with "
		       "6-frame chains), median of %d\n",
		       n, reps);
		double la[3] = {0, 0, 0}, t;
		getloadavg(la, 3);
		printf(
		    "  (load average %.2f; wall time suffers when the machine "
		    "is busy, CPU time much less)\n",
		    la[0]);
		t = timed(a_fn, reps);
		printf("  pmkit report             wall %7.3f s  cpu %7.3f s  "
		       "(target <= 2 s)\n",
		       t, med_cpu);
		t = timed(a_ln, reps);
		printf("  pmkit report --sort line wall %7.3f s  cpu %7.3f s\n",
		       t, med_cpu);
		t = timed(a_fd, reps);
		printf("  pmkit report --folded    wall %7.3f s  cpu %7.3f s\n",
		       t, med_cpu);
	}
	if (keep)
		printf("  kept %s\n", syn);
	else
		unlink(syn);
	if (real) {
		/* 100 kHz cpu-clock: one sample per 10 us of the task's CPU */
		char secs[32];
		char *a_pr[] = {pmkit, "record", "-q", "-c",	 "10000", "-o",
				rec,   "--",	 self, "--spin", secs,	  NULL};
		char *a_pp[] = {"perf", "record",    "-q", "-c",  "10000",
				"-e",	"cpu-clock", "-o", pdata, "--",
				self,	"--spin",    secs, NULL};
		char *a_rep[] = {pmkit, "report", "-i", rec, NULL};
		char *a_perf[] = {"perf", "report", "--stdio",
				  "-i",	  pdata,    NULL};
		pmk_profile *p;
		pmk_profile_stats st;
		pmk_diag d;
		int have_perf = system("perf --version >/dev/null 2>&1") == 0;
		/* the kernel throttles 100 kHz sampling here to about 25-30 kHz
		 * of task CPU time; ask for enough time to come near n samples
		 */
		snprintf(secs, sizeof secs, "%.3f", (double)n * 35e-6);
		printf("report_speed: real recordings of a %s s CPU-bound "
		       "loop at -c 10000 (100 kHz cpu-clock)\n",
		       secs);
		if (run(a_pr) < 0) {
			printf("  pmkit record failed\n");
		} else if (pmk_profile_load(&p, rec, &d) == 0) {
			pmk_profile_stats_get(p, &st);
			pmk_profile_free(p);
			double t = timed(a_rep, reps);
			printf("  pmkit report  wall %7.3f s  cpu %7.3f s  on "
			       "%llu samples\n",
			       t, med_cpu, (unsigned long long)st.samples[0]);
		}
		if (have_perf && run(a_pp) >= 0) {
			char cmd[PATH_MAX + 64];
			FILE *f;
			unsigned long long ns = 0;
			snprintf(cmd, sizeof cmd,
				 "perf script -F ip -i %s 2>/dev/null | wc -l",
				 pdata);
			f = popen(cmd, "r");
			if (f) {
				if (fscanf(f, "%llu", &ns) != 1)
					ns = 0;
				pclose(f);
			}
			{
				double t = timed(a_perf, reps);
				printf("  perf report   wall %7.3f s  cpu "
				       "%7.3f s  "
				       "on %llu samples\n",
				       t, med_cpu, ns);
			}
		} else {
			printf("  perf report  (perf not available)\n");
		}
		unlink(rec);
		unlink(pdata);
	}
	return 0;
}
