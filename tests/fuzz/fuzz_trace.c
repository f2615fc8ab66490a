/*
 * fuzz_trace.c: the trace reader on hostile bytes. The first byte picks the
 * input: bit 1 set, valgrind lackey log lines for the converter; else bit 0
 * picks the trace format (0: auto/pmkit, 1: ChampSim). The rest is the
 * input.
 */
#include <stdlib.h>
#include <string.h>
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
	if (data[0] & 2) {
		pmk_trace_writer *w;
		pmk_lackey *l;
		char *text = malloc(size);
		size_t i = 1;
		if (!text || pmk_trace_create_mem(&w) < 0) {
			free(text);
			return 0;
		}
		if (pmk_lackey_new(&l, w) == 0) {
			while (i < size) {
				size_t n = 0;
				while (i + n < size && data[i + n] != '\n')
					n++;
				memcpy(text, data + i, n);
				text[n] = 0;
				pmk_lackey_line(l, text);
				i += n + 1;
			}
			pmk_lackey_finish(l);
			pmk_lackey_free(l);
		}
		pmk_trace_finish(w);
		free(text);
		return 0;
	}
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
