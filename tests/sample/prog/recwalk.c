/* recwalk.c: print "offset size" of each record of a pmkit record file
 * (header size at byte 12; each record starts with u32 kind, u32 size),
 * for tests that damage chosen records. Little-endian hosts only. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	static unsigned char buf[1 << 26];
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	size_t n, off;
	uint32_t h, size;
	if (!f)
		return 2;
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	if (n < 16)
		return 2;
	memcpy(&h, buf + 12, 4);
	for (off = h; off + 8 <= n; off += size) {
		memcpy(&size, buf + off + 4, 4);
		if (size < 8 || size % 8)
			break;
		printf("%zu %u\n", off, size);
	}
	return 0;
}
