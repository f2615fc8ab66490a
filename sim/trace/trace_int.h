/*
 * trace_int.h: internals shared by the trace reader's two formats.
 */
#ifndef PMK_SIM_TRACE_INT_H
#define PMK_SIM_TRACE_INT_H

#include <stdio.h>

#include "pmkit/sim.h"

#define PMK__TRACE_MAGIC   "PMKTRACE"
#define PMK__TRACE_HDR	   16
#define PMK__TRACE_REC_MAX 64 /* no record is longer (pmkit: 51 bytes) */
#define PMK__CHAMPSIM_REC  64

struct pmk_trace_reader {
	int kind;
	FILE *f; /* NULL when reading memory */
	int own_f;
	const uint8_t *mem; /* memory input, or NULL */
	uint64_t mem_size;
	uint8_t *buf; /* file input buffer */
	size_t cap, pos, len;
	int eof;
	uint64_t offset; /* file offset of buf[pos] */
	uint64_t count;
	/* pmkit format: delta state */
	uint64_t next_pc, last_addr;
	/* champsim: one record of lookahead */
	int have_ahead;
	uint8_t ahead[PMK__CHAMPSIM_REC];
	pmk_diag diag;
};

/* Make at least `want` bytes available at buf+pos (fewer at end of input);
 * returns the number available. */
size_t pmk__trace_fill(pmk_trace_reader *r, size_t want);
const uint8_t *pmk__trace_ptr(pmk_trace_reader *r);
int pmk__trace_fail(pmk_trace_reader *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int pmk__champsim_read(pmk_trace_reader *r, pmk_sim_insn *out);

#endif
