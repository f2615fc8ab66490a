/* A tiny JIT: copies a counting loop into fresh executable memory, says so
 * in /tmp/perf-PID.map, and runs it for about argv[1] seconds of CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	/* mov rax, rdi; 1: dec rax; jnz 1b; ret */
	static const unsigned char code[] = {0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8,
					     0x75, 0xfb, 0xc3};
	double want = argc > 1 ? atof(argv[1]) : 0.3;
	unsigned char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;
	struct timespec ts;
	long (*fn)(long);
	if (m == MAP_FAILED)
		return 1;
	memcpy(m + 64, code, sizeof code);
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jitted_loop\n", (unsigned long)(m + 64), sizeof code);
	fclose(f);
	fn = (long (*)(long))(void *)(m + 64);
	do {
		fn(1000000);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < want);
	printf("%d\n", (int)getpid());
	return 0;
}
