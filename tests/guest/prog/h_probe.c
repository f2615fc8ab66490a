/*
 * h_probe.c: `h_probe TYPE CONFIG` exits 0 when perf_event_open accepts
 * {type, config} for the calling thread, else 1 and prints the errno. The
 * independent reference for `pmkit list` in the guest (no pmkit code).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	if (argc != 3) {
		fprintf(stderr, "usage: h_probe TYPE CONFIG\n");
		return 2;
	}
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = (unsigned)strtoul(argv[1], NULL, 0);
	a.config = strtoull(argv[2], NULL, 0);
	a.disabled = 1;
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("%s\n", strerror(errno));
		return 1;
	}
	close((int)fd);
	return 0;
}
