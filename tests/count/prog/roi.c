/*
 * roi.c: a program that measures only its region of interest through a
 * counting tool's --control FIFOs, as perf's documentation shows.
 *
 *   roi CTL ACK BURN_MS
 *
 * Opens the two FIFOs read-write, burns BURN_MS of CPU time (counting
 * off), writes "enable", waits for the ack, burns BURN_MS, writes
 * "disable", waits for the ack, burns BURN_MS again, then "ping" and its
 * ack. Prints the CPU time of the middle burn in ms (its own CPU-time
 * clock), which a tool's task-clock should report; exits 3 when an ack
 * does not come within 10 s.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double burn(double ms)
{
	double t0 = cpu_ms(), t;
	do {
		for (int i = 0; i < 10000; i++)
			sink += i * 0.5;
		t = cpu_ms();
	} while (t - t0 < ms);
	return t - t0;
}

static void say(int ctl, int ack, const char *cmd)
{
	char buf[16];
	struct pollfd pf = {ack, POLLIN, 0};
	if (write(ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) ||
	    poll(&pf, 1, 10000) != 1 || read(ack, buf, sizeof buf) <= 0 ||
	    strncmp(buf, "ack", 3)) {
		fprintf(stderr, "roi: no ack for '%s'", cmd);
		exit(3);
	}
}

int main(int argc, char **argv)
{
	int ctl, ack;
	double ms, in;
	if (argc != 4)
		return 2;
	ms = atof(argv[3]);
	if ((ctl = open(argv[1], O_RDWR)) < 0 ||
	    (ack = open(argv[2], O_RDWR)) < 0)
		return 2;
	burn(ms);
	say(ctl, ack, "enable\n");
	in = burn(ms);
	say(ctl, ack, "disable\n");
	burn(ms);
	say(ctl, ack, "ping\n");
	printf("%.3f\n", in);
	return 0;
}
