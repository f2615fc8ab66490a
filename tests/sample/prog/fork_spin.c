/*
 * fork_spin.c: a process that forks two children without exec, each
 * spinning in child_work() while the parent spins in parent_work(), for
 * forks.t (children sampled under -p and -a are named as perf names them).
 * Arguments: a file to write the children's pids to (one a line), a file
 * whose existence says the recorder is attached (it forks when that file
 * appears, or after 20 s), and the seconds each spins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline __attribute__((always_inline)) void spin(double secs)
{
	volatile unsigned long x = 0;
	double t0 = now();
	do
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
	while (now() - t0 < secs);
}

__attribute__((noinline)) void child_work(double secs) { spin(secs); }
__attribute__((noinline)) void parent_work(double secs) { spin(secs); }

int main(int argc, char **argv)
{
	FILE *f;
	double secs;
	if (argc != 4 || !(f = fopen(argv[1], "w")))
		return 2;
	secs = atof(argv[3]);
	for (int i = 0; i < 2000 && access(argv[2], F_OK) != 0; i++)
		usleep(10000);
	for (int i = 0; i < 2; i++) {
		pid_t c = fork();
		if (c < 0)
			return 1;
		if (c == 0) {
			child_work(secs);
			_exit(0);
		}
		fprintf(f, "%d\n", (int)c);
	}
	fclose(f);
	parent_work(secs);
	while (wait(NULL) > 0)
		;
	return 0;
}
