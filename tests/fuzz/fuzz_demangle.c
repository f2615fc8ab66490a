/*
 * fuzz_demangle.c: symbol names as they come out of an ELF file or a perf
 * map (any bytes up to a NUL) through pmk__demangle (lib/sample/demangle.c):
 * C++ and Rust legacy through __cxa_demangle, Rust v0 through libiberty when
 * built with it. A name it reads gives a string of bounded length; the
 * input is also tried with "_R" and "_Z" in front, so that mutations stay
 * mostly inside the demanglers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sample/demangle.h"

static void one(const char *name)
{
	char *d = pmk__demangle(name);
	/* 64 KiB is demangle.c's cap on v0 output; __cxa_demangle has none,
	 * but its output is polynomial in an input of at most 64 KiB */
	if (d && name[0] == '_' && name[1] == 'R' && strlen(d) > 65536)
		abort();
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 3);
	if (!s)
		return 0;
	memcpy(s + 2, data, size);
	s[size + 2] = 0;
	one(s + 2);
	s[0] = '_';
	s[1] = 'R';
	one(s);
	s[1] = 'Z';
	one(s);
	free(s);
	return 0;
}
