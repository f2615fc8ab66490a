/*
 * zstd.h: Zstandard compression for perf.data's COMPRESSED records, through
 * libzstd.so.1 loaded at run time (lib/sample/zstd.c), so that pmkit builds
 * without zstd's headers and runs without the library (then -z is refused
 * and compressed perf.data files are reported as such). Internal to
 * lib/sample.
 */
#ifndef PMK_SAMPLE_ZSTD_H
#define PMK_SAMPLE_ZSTD_H

#include <stddef.h>

/* Whether libzstd could be loaded. */
int pmk__zstd_available(void);
/* One zstd frame of `src` in `dst`: its size, or 0 when it does not fit
 * or libzstd is absent. */
size_t pmk__zstd_compress(void *dst, size_t cap, const void *src, size_t n,
			  int level);

/* A decompression stream: perf writes one zstd stream across all the
 * COMPRESSED records of a file. */
typedef struct pmk__zstd_stream pmk__zstd_stream;
pmk__zstd_stream *pmk__zstd_stream_new(void);
/* Decompress from `src` (`*used` of its `n` bytes already taken, moved
 * on) into `dst` (`*out` of its `cap` bytes already written, moved on),
 * until `src` is taken or `dst` full; 0, or -1 on a corrupt stream. */
int pmk__zstd_stream_run(pmk__zstd_stream *z, const void *src, size_t n,
			 size_t *used, void *dst, size_t cap, size_t *out);
void pmk__zstd_stream_free(pmk__zstd_stream *z);

#endif
