/*
 * late.c: a process that starts work after a tool has attached to it.
 *
 *   late [DELAY_MS [BURN_MS [early]]]     (defaults 200, 50)
 *
 * Waits DELAY_MS (time for `pmkit stat -p` or `perf stat -p` to attach),
 * then starts 2 threads and forks 1 child; each of the three burns BURN_MS
 * of CPU time (measured on its own CPU-time clock) and ends. The main
 * thread only waits. With `early` the 2 threads exist from the start and
 * wait as well: then a tool must attach to every thread that exists, not
 * only the main one. A tool that counts only the threads that existed when
 * it attached sees almost nothing; one that follows threads and children
 * sees about 3 * BURN_MS of task-clock.
 *
 * DELAY_MS 0 waits for SIGUSR1 instead of a time: a test sends it once the
 * tool has opened its events, so that a loaded machine, where the tool may
 * take longer than any delay to attach, changes nothing.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long burn_ms = 50;
static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;

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
	if (arg) { /* an early thread: wait for the start */
		pthread_mutex_lock(&go_lock);
		while (!go)
			pthread_cond_wait(&go_cond, &go_lock);
		pthread_mutex_unlock(&go_lock);
	}
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
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* blocked before any thread exists, so only sigwait takes it */
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	if (argc > 2)
		burn_ms = atol(argv[2]);
	if (early)
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, burn, &go);
	if (delay_ms > 0) {
		struct timespec delay = {delay_ms / 1000,
					 (delay_ms % 1000) * 1000000L};
		nanosleep(&delay, NULL);
	} else {
		int sig;
		sigwait(&usr1, &sig);
	}
	pthread_mutex_lock(&go_lock);
	go = 1;
	pthread_cond_broadcast(&go_cond);
	pthread_mutex_unlock(&go_lock);
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
