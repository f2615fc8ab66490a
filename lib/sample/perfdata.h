/*
 * perfdata.h: perf.data files read by translation into pmkit's record
 * format. Internal to lib/sample.
 */
#ifndef PMK_SAMPLE_PERFDATA_H
#define PMK_SAMPLE_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include "pmkit/sample.h"

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
