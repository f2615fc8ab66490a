/*
 * perfdata.h: perf.data files read by translation into pmkit's record
 * format. Internal to lib/sample.
 */
#ifndef PMK_SAMPLE_PERFDATA_H
#define PMK_SAMPLE_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/sample.h"

/* Where feature `bit`'s {offset, size} entry lies in a perf.data file
 * (perf's file format, `data_end` the end of its data section): the table
 * after the data section holds one entry for each feature bit set in
 * `feat0` (the header's first 64), in bit order. */
static inline uint64_t pmk__perf_feat_entry(uint64_t data_end, uint64_t feat0,
					    int bit)
{
	return data_end +
	       16ull * (uint64_t)__builtin_popcountll(feat0 &
						      ((1ull << bit) - 1));
}

/* Whether `buf` starts like a perf.data file ("PERFILE2"). */
int pmk__perfdata_is(const void *buf, size_t len);
/* Translate the perf.data file in `buf` into a pmkit record stream written
 * to `fd`; `*skipped` counts the records that did not parse. */
int pmk__perfdata_convert(const void *buf, size_t len, int fd,
			  uint64_t *skipped, pmk_diag *d);

/* What perfconv.c's pmk_perfdata_info_read says about the file in `buf`. */
int pmk__perfdata_info(const void *buf, size_t len, pmk_perfdata_info *info,
		       pmk_diag *d);

#endif
