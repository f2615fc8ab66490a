/*
 * record_overhead.c: what sampling at 1 kHz costs a CPU-bound program.
 *
 *   build/bench/record_overhead [-r REPEATS] [-s SECONDS] [-F HZ]
 *
 * Calibrates a fixed amount of floating-point work that takes about SECONDS
 * of CPU time (default 1) on this machine, then runs it REPEATS times (default 7) in
 * each of three ways, interleaved so that load from other processes hits
 * all three alike: plain, under `pmkit record -F HZ` (default 1000), and
 * under `perf record -F HZ -e cpu-clock` when perf is installed. Prints the
 * median wall time of each and its overhead in percent of the plain median
 * (target: pmkit <= 3 % at 1 kHz). The workload is this program itself
 * (`--work N`). pmkit is found next to build/bench/ or through $PMKIT.
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

static volatile double sink;

static void work(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall time of a command (stdout/stderr to /dev/null), or -1; its CPU time
 * (user+system of it and its children) in *cpu. */
static double run(char **argv, double *cpu)
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
	*cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return now() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	int reps = 7;
	double secs = 1.0;
	long hz = 1000, n;
	char self[PATH_MAX], pmkit[PATH_MAX + 16], nbuf[32], hzbuf[32];
	char recf[64], perff[64];
	double plain[64], pm[64], pf[64], cplain[64], cpm[64], cpf[64], t;
	int have_perf;
	ssize_t k;

	if (argc == 3 && !strcmp(argv[1], "--work")) {
		work(atol(argv[2]));
		return 0;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-r"))
			reps = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-s"))
			secs = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-F"))
			hz = atol(argv[i + 1]);
	}
	if (reps < 1 || reps > 64 || secs <= 0 || hz <= 0) {
		fprintf(stderr,
			"usage: record_overhead [-r 1..64] [-s SECONDS] "
			"[-F HZ]\n");
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
	/* calibrate on CPU time (wall time lies when the machine is busy) */
	{
		struct timespec a, b;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		work(20000000);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		t = (double)(b.tv_sec - a.tv_sec) +
		    (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	}
	n = (long)(20000000 * secs / (t > 1e-3 ? t : 1e-3));
	snprintf(nbuf, sizeof nbuf, "%ld", n);
	snprintf(hzbuf, sizeof hzbuf, "%ld", hz);
	snprintf(recf, sizeof recf, "/tmp/pmk_bench_%d.rec", (int)getpid());
	snprintf(perff, sizeof perff, "/tmp/pmk_bench_%d.data", (int)getpid());
	have_perf = system("perf --version >/dev/null 2>&1") == 0;
	{
		char *a_plain[] = {self, "--work", nbuf, NULL};
		char *a_pm[] = {pmkit, "record", "-q", "-F",	 hzbuf, "-o",
				recf,  "--",	 self, "--work", nbuf,	NULL};
		char *a_pf[] = {"perf", "record",    "-q", "-F",  hzbuf,
				"-e",	"cpu-clock", "-o", perff, "--",
				self,	"--work",    nbuf, NULL};
		for (int r = 0; r < reps; r++) {
			plain[r] = run(a_plain, &cplain[r]);
			pm[r] = run(a_pm, &cpm[r]);
			pf[r] = have_perf ? run(a_pf, &cpf[r]) : -1;
			if (plain[r] < 0 || pm[r] < 0) {
				fprintf(stderr,
					"record_overhead: a run failed "
					"(is %s built?)\n",
					pmkit);
				return 1;
			}
			if (pf[r] < 0)
				have_perf = 0;
		}
	}
	unlink(recf);
	unlink(perff);
	{
		double mp = median(plain, reps), mm = median(pm, reps);
		double cp = median(cplain, reps), cm = median(cpm, reps);
		double la[3] = {0, 0, 0};
		getloadavg(la, 3);
		printf(
		    "record_overhead: %ld iterations, %d interleaved repeats, "
		    "%ld Hz cpu-clock, medians (load average %.2f)\n",
		    n, reps, hz, la[0]);
		printf("                 wall        overhead   cpu (incl. "
		       "recorder)  overhead\n");
		printf("  plain          %8.4f s             %8.4f s\n", mp,
		       cp);
		printf("  pmkit record   %8.4f s  %+7.2f %%  %8.4f s  %+7.2f %%"
		       "   (target: wall <= 3 %%)\n",
		       mm, 100 * (mm - mp) / mp, cm, 100 * (cm - cp) / cp);
		if (have_perf) {
			double mf = median(pf, reps), cf = median(cpf, reps);
			printf("  perf record    %8.4f s  %+7.2f %%  %8.4f s  "
			       "%+7.2f %%\n",
			       mf, 100 * (mf - mp) / mp, cf,
			       100 * (cf - cp) / cp);
		} else {
			printf("  perf record    (not available)\n");
		}
	}
	return 0;
}
