/*
 * late.c: a process that starts work after a tool has attached to it.
 *
 *   late [DELAY_MS [BURN_MS [early]]]     (defaults 200, 50)
 *
 * Sleeps DELAY_MS (time for `pmkit stat -p` or `perf stat -p` to attach),
 * then starts 2 threads and forks 1 child; each of the three burns BURN_MS
 * of CPU time (measured on its own CPU-time clock) and ends. The main
 * thread only waits. With `early` the 2 threads exist from the start and
 * sleep DELAY_MS themselves: then a tool must attach to every thread
 * that exists, not only the main one. A tool that counts only the threads that existed
 * when it attached sees almost nothing; one that follows threads and
 * children sees about 3 * BURN_MS of task-clock.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long burn_ms = 50;
static struct timespec delay;

static double cpu_s(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *burn(void *arg)
{
	volatile unsigned long x = 0;
	double t0;
	if (arg)
		nanosleep(&delay, NULL);
	t0 = cpu_s(CLOCK_THREAD_CPUTIME_ID);
	while (cpu_s(CLOCK_THREAD_CPUTIME_ID) - t0 < (double)burn_ms / 1e3)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i * 7;
	return NULL;
}

int main(int argc, char **argv)
{
	long delay_ms = argc > 1 ? atol(argv[1]) : 200;
	int early = argc > 3;
	pthread_t t[2];
	pid_t child;
	delay.tv_sec = delay_ms / 1000;
	delay.tv_nsec = (delay_ms % 1000) * 1000000L;
	if (argc > 2)
		burn_ms = atol(argv[2]);
	if (early)
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, burn, &delay);
	nanosleep(&delay, NULL);
	if (!early)
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, burn, NULL);
	child = fork();
	if (child == 0) {
		burn(NULL);
		_exit(0);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
