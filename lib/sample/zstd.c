/*
 * zstd.c: libzstd.so.1 loaded with dlopen on first use (zstd.h). The few
 * functions used are zstd's stable API (ZSTD_compress, the DStream
 * functions); their types are written here because the build machine need
 * not have zstd's headers.
 */
#include <dlfcn.h>
#include <stdlib.h>

#include "lib/sample/zstd.h"

typedef struct {
	const void *src;
	size_t size, pos;
} zin;
typedef struct {
	void *dst;
	size_t size, pos;
} zout;

static struct {
	int tried, ok;
	size_t (*compress)(void *, size_t, const void *, size_t, int);
	unsigned (*is_error)(size_t);
	void *(*dstream_new)(void);
	size_t (*dstream_free)(void *);
	size_t (*dstream_init)(void *);
	size_t (*decompress_stream)(void *, zout *, zin *);
} z;

static int load(void)
{
	void *h;
	if (z.tried)
		return z.ok;
	z.tried = 1;
	h = dlopen("libzstd.so.1", RTLD_LAZY | RTLD_LOCAL);
	if (!h)
		return 0;
	*(void **)&z.compress = dlsym(h, "ZSTD_compress");
	*(void **)&z.is_error = dlsym(h, "ZSTD_isError");
	*(void **)&z.dstream_new = dlsym(h, "ZSTD_createDStream");
	*(void **)&z.dstream_free = dlsym(h, "ZSTD_freeDStream");
	*(void **)&z.dstream_init = dlsym(h, "ZSTD_initDStream");
	*(void **)&z.decompress_stream = dlsym(h, "ZSTD_decompressStream");
	z.ok = z.compress && z.is_error && z.dstream_new && z.dstream_free &&
	       z.dstream_init && z.decompress_stream;
	return z.ok;
}

int pmk__zstd_available(void)
{
	return load();
}

size_t pmk__zstd_compress(void *dst, size_t cap, const void *src, size_t n,
			  int level)
{
	size_t r;
	if (!load())
		return 0;
	r = z.compress(dst, cap, src, n, level);
	return z.is_error(r) ? 0 : r;
}

struct pmk__zstd_stream {
	void *ds;
};

pmk__zstd_stream *pmk__zstd_stream_new(void)
{
	pmk__zstd_stream *s;
	if (!load() || !(s = calloc(1, sizeof *s)))
		return NULL;
	s->ds = z.dstream_new();
	if (!s->ds || z.is_error(z.dstream_init(s->ds))) {
		if (s->ds)
			z.dstream_free(s->ds);
		free(s);
		return NULL;
	}
	return s;
}

int pmk__zstd_stream_run(pmk__zstd_stream *s, const void *src, size_t n,
			 size_t *used, void *dst, size_t cap, size_t *out)
{
	zin in = {src, n, *used};
	zout o = {dst, cap, *out};
	while (in.pos < in.size && o.pos < o.size) {
		size_t r = z.decompress_stream(s->ds, &o, &in);
		if (z.is_error(r))
			return -1;
		if (!r && in.pos == in.size)
			break; /* a frame ended with the input */
	}
	*used = in.pos;
	*out = o.pos;
	return 0;
}

void pmk__zstd_stream_free(pmk__zstd_stream *s)
{
	if (!s)
		return;
	z.dstream_free(s->ds);
	free(s);
}
