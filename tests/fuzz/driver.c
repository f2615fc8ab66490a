/*
 * driver.c: runs a libFuzzer entry point without libFuzzer, so that every
 * fuzz target is exercised by `make check` (and under ASan/UBSan).
 *
 *   build/fuzz/fuzz_NAME [-n ITERATIONS] [-s SEED] FILE...
 * feeds each FILE as is, then ITERATIONS mutations of them (byte flips,
 * insertions, deletions, splices, truncations) from a fixed seed, so a run
 * is reproducible. A crash is the failure; the program prints one `ok -`
 * line when every input was survived.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		size_t r = fread(buf + len, 1, cap - len, f);
		if (r == 0)
			break;
		len += r;
	}
	fclose(f);
	*n = len;
	return buf;
}

int main(int argc, char **argv)
{
	long iters = 20000;
	int nfiles = 0;
	uint8_t *files[256];
	size_t sizes[256];
	static const char *dict[] = {",", ":", "/", "=", "|", "#define ", "\n",
				     "0x", "-", "(", ")", "+", "*", "\x00",
				     "\xff\xff\xff\xff", "99999999999999999"};

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			iters = atol(argv[++i]);
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			rng = strtoull(argv[++i], NULL, 0) | 1;
		} else if (nfiles < 256) {
			files[nfiles] = slurp(argv[i], &sizes[nfiles]);
			if (files[nfiles])
				nfiles++;
		}
	}
	for (int i = 0; i < nfiles; i++)
		LLVMFuzzerTestOneInput(files[i], sizes[i]);
	for (long it = 0; it < iters; it++) {
		size_t cap = 8192, n = 0;
		uint8_t *buf = malloc(cap);
		if (!buf)
			return 2;
		if (nfiles) {
			int k = (int)(next() % (unsigned)nfiles);
			n = sizes[k] < cap ? sizes[k] : cap;
			memcpy(buf, files[k], n);
		}
		int muts = 1 + (int)(next() % 8);
		for (int m = 0; m < muts; m++) {
			size_t pos = n ? next() % (n + 1) : 0;
			switch (next() % 6) {
			case 0: /* flip a byte */
				if (n)
					buf[next() % n] ^= (uint8_t)(1u << (next() % 8));
				break;
			case 1: /* random byte in */
				if (n < cap) {
					memmove(buf + pos + 1, buf + pos, n - pos);
					buf[pos] = (uint8_t)next();
					n++;
				}
				break;
			case 2: /* delete a run */
				if (n) {
					size_t len = 1 + next() % 8;
					if (pos + len > n)
						len = n - pos;
					memmove(buf + pos, buf + pos + len, n - pos - len);
					n -= len;
				}
				break;
			case 3: { /* dictionary token in */
				const char *t = dict[next() % (sizeof dict / sizeof *dict)];
				size_t len = strlen(t) ? strlen(t) : 1;
				if (n + len <= cap) {
					memmove(buf + pos + len, buf + pos, n - pos);
					memcpy(buf + pos, t, len);
					n += len;
				}
				break;
			}
			case 4: /* truncate */
				n = pos;
				break;
			case 5: /* splice another input */
				if (nfiles) {
					int k = (int)(next() % (unsigned)nfiles);
					size_t from = sizes[k] ? next() % sizes[k] : 0;
					size_t len = sizes[k] - from;
					if (pos + len > cap)
						len = cap - pos;
					memcpy(buf + pos, files[k] + from, len);
					if (pos + len > n)
						n = pos + len;
				}
				break;
			}
		}
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	printf("ok - %s survived %d inputs and %ld mutations\n", argv[0],
	       nfiles, iters);
	for (int i = 0; i < nfiles; i++)
		free(files[i]);
	return 0;
}
