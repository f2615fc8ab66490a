/*
 * regions.c: a small program annotated with Caliper's C API, the client
 * of tests/caliper/caliper.t. Two regions: "busy" does a fixed amount of
 * arithmetic (about 10^8 dependent additions: tens of milliseconds of CPU
 * on any machine, however loaded), "idle" sleeps 50 ms and does nothing.
 * Counting is Caliper's business (CALI_* in the environment); this program
 * only marks the regions. It then prints the path of the libpapi it runs
 * on (from /proc/self/maps), so that the test can see which library
 * Caliper reached.
 */
#include <caliper/cali.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile double sink;

int main(void)
{
	struct timespec idle = {0, 50000000};
	cali_begin_region("busy");
	for (long i = 0; i < 100000000; i++)
		sink += 0.5;
	cali_end_region("busy");
	cali_begin_region("idle");
	nanosleep(&idle, NULL);
	cali_end_region("idle");

	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	while (f && fgets(line, sizeof line, f)) {
		char *p = strchr(line, '/');
		if (p && strstr(p, "/libpapi.so")) {
			printf("libpapi: %s", p);
			break;
		}
	}
	if (f)
		fclose(f);
	return 0;
}
