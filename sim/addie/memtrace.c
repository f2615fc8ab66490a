/*
 * memtrace.c: bus requests for the DRAM interface buffer from a stream of
 * simulated instructions (a trace file or a workload, include/pmkit/sim.h).
 *
 * The buffer sits where the article put it: between the processor and
 * DRAM, with no cache in front (a microcontroller's view). Each memory
 * operand becomes one request per 32-bit word it touches; the bytes within
 * a word become a 1-, 2- or 4-byte request when they form one, else the
 * whole word. Addresses keep their low 32 bits. The processor is taken to
 * run one instruction per cycle, so a request's gap is the number of
 * instructions since the previous memory instruction.
 */
#include <stdlib.h>

#include "pmkit/addie.h"
#include "pmkit/sim.h"
#include "lib/core/diag.h"
#include "sim/addie/addie_int.h"

static int push(pmk_mem_access *out, size_t max, size_t *n, uint32_t addr,
		unsigned size, int write, uint64_t gap)
{
	pmk_mem_access *a;
	if (*n >= max)
		return 0;
	a = &out[(*n)++];
	a->addr = addr;
	a->size = (uint8_t)size;
	a->write = (uint8_t)write;
	a->gap = (uint16_t)(gap > 65535 ? 65535 : gap);
	return 1;
}

int pmk_mem_from_insns(int (*next)(void *src, struct pmk_sim_insn *out),
		       void *src, pmk_mem_access *out, size_t max,
		       size_t *count)
{
	pmk_sim_insn in;
	uint64_t since = 0;
	size_t n = 0;
	int rc = 0;
	if (!next || (!out && max) || !count)
		return PMK_EINVAL;
	while (n < max && (rc = next(src, &in)) == 1) {
		since++;
		for (unsigned k = 0; k < in.nmem && k < PMK_SIM_MAX_MEM; k++) {
			uint64_t a = in.mem[k].addr, end = a + in.mem[k].size;
			while (a < end && n < max) {
				uint32_t w = (uint32_t)a & ~3u;
				uint64_t stop =
				    ((a | 3u) + 1) < end ? ((a | 3u) + 1) : end;
				unsigned off = (unsigned)(a & 3),
					 len = (unsigned)(stop - a);
				if (!((len == 1) || (len == 2 && !(off & 1)) ||
				      (len == 4 && off == 0))) {
					off = 0;
					len = 4;
				}
				push(out, max, &n, w + off, len,
				     in.mem[k].store != 0, since);
				since = 0;
				a = stop;
			}
		}
	}
	*count = n;
	return rc < 0 ? rc : 0;
}

int pmk_mem_load(const char *what, int kind, size_t max,
		 pmk_mem_access **out, size_t *count, pmk_diag *d)
{
	pmk_sim_source *src;
	int err;
	*out = NULL;
	*count = 0;
	pmk_diag_clear(d);
	if (!(*out = calloc(max ? max : 1, sizeof **out)))
		return pmk__diag_set(d, PMK_ENOMEM, 0, 0, NULL, "out of memory");
	if ((err = pmk_sim_source_open(&src, what, kind, d)) < 0)
		goto fail;
	err = pmk_mem_from_insns(pmk_sim_source_next, src, *out, max, count);
	if (err < 0)
		*d = *pmk_sim_source_diag(src);
	pmk_sim_source_close(src);
	if (err >= 0)
		return 0;
fail:
	free(*out);
	*out = NULL;
	*count = 0;
	return err;
}
