/*
 * fuzz_trace.c: the trace reader on hostile bytes. The first byte picks the
 * format (even: auto/pmkit, odd: ChampSim); the rest is the file.
 */
#include <stdint.h>
#include <stddef.h>

#include "pmkit/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pmk_trace_reader *r;
	pmk_sim_insn in;
	int kind;
	if (size < 1)
		return 0;
	kind = data[0] & 1 ? PMK_TRACE_CHAMPSIM : PMK_TRACE_AUTO;
	if (pmk_trace_open_mem(&r, data + 1, size - 1, kind, NULL) < 0)
		return 0;
	for (int i = 0; i < 100000 && pmk_trace_read(r, &in) == 1; i++)
		if (in.nsrc > PMK_SIM_MAX_SRC || in.ndst > PMK_SIM_MAX_DST ||
		    in.nmem > PMK_SIM_MAX_MEM || in.op >= PMK_SIM_OP_COUNT)
			__builtin_trap();
	pmk_trace_close(r);
	return 0;
}
