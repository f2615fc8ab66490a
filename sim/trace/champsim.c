/*
 * champsim.c: import of ChampSim `input_instr` traces (uncompressed).
 *
 * A record is 64 bytes, little-endian: ip (u64), is_branch (u8),
 * branch_taken (u8), destination_registers[2] (u8), source_registers[4]
 * (u8), destination_memory[2] (u64), source_memory[4] (u64). The format has
 * no op class, instruction length or branch kind, so they are inferred:
 *   - branch kind from the registers read and written, using ChampSim's
 *     convention that register 6 is the stack pointer, 25 the flags and 26
 *     the instruction pointer (conditional: reads flags and writes IP;
 *     call: reads and writes SP and IP; return: reads and writes SP, writes
 *     IP without reading it; otherwise a jump, indirect when it reads another
 *     register);
 *   - non-branches with a source memory operand are loads, with only a
 *     destination memory operand stores, else integer ALU ops;
 *   - the length is the distance to the next record's ip when control falls
 *     through (1..15 bytes), else 4; a taken branch's target is the next
 *     record's ip;
 *   - privilege from the address (kernel half of the x86-64 address space);
 *   - memory sizes are not recorded: 8 bytes.
 * One record of lookahead is kept for the length and target.
 */
#include <string.h>

#include "sim/trace/trace_int.h"

enum { REG_SP = 6, REG_FLAGS = 25, REG_IP = 26 };

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Next raw record into buf: 1, 0 at a clean end, <0 when truncated. */
static int raw_next(pmk_trace_reader *r, uint8_t *buf)
{
	size_t n = pmk__trace_fill(r, PMK__CHAMPSIM_REC);
	if (n == 0)
		return 0;
	if (n < PMK__CHAMPSIM_REC)
		return pmk__trace_fail(
		    r, PMK_EFORMAT,
		    "truncated ChampSim record at byte %llu (%zu of 64 bytes)",
		    (unsigned long long)r->offset, n);
	memcpy(buf, pmk__trace_ptr(r), PMK__CHAMPSIM_REC);
	r->pos += PMK__CHAMPSIM_REC;
	r->offset += PMK__CHAMPSIM_REC;
	if (buf[8] > 1 || buf[9] > 1 || (!buf[8] && buf[9]))
		return pmk__trace_fail(
		    r, PMK_EFORMAT,
		    "malformed ChampSim record at byte %llu: branch flags "
		    "%u,%u",
		    (unsigned long long)(r->offset - PMK__CHAMPSIM_REC), buf[8],
		    buf[9]);
	return 1;
}

static int classify_branch(const uint8_t *rec)
{
	int rsp = 0, rfl = 0, rip = 0, rother = 0, wsp = 0, wip = 0;
	for (int k = 0; k < 4; k++) {
		uint8_t g = rec[12 + k];
		if (g == REG_SP)
			rsp = 1;
		else if (g == REG_FLAGS)
			rfl = 1;
		else if (g == REG_IP)
			rip = 1;
		else if (g)
			rother = 1;
	}
	for (int k = 0; k < 2; k++) {
		uint8_t g = rec[10 + k];
		if (g == REG_SP)
			wsp = 1;
		else if (g == REG_IP)
			wip = 1;
	}
	if (rfl && wip && !wsp)
		return PMK_SIM_OP_BCOND;
	if (rsp && wsp && wip && rip)
		return PMK_SIM_OP_CALL;
	if (rsp && wsp && wip && !rip)
		return PMK_SIM_OP_RET;
	if (wip && !rsp && !wsp)
		return rother ? PMK_SIM_OP_JIND : PMK_SIM_OP_JUMP;
	return PMK_SIM_OP_JIND; /* a branch of unknown kind */
}

int pmk__champsim_read(pmk_trace_reader *r, pmk_sim_insn *o)
{
	uint8_t cur[PMK__CHAMPSIM_REC];
	int rc, have_next;
	if (!r->have_ahead) {
		rc = raw_next(r, r->ahead);
		if (rc <= 0)
			return rc;
		r->have_ahead = 1;
	}
	memcpy(cur, r->ahead, sizeof cur);
	rc = raw_next(r, r->ahead);
	if (rc < 0)
		return rc;
	have_next = rc;
	r->have_ahead = have_next;

	memset(o, 0, sizeof *o);
	o->pc = le64(cur);
	o->kernel = o->pc >= 0xffff800000000000ull;
	for (int k = 0; k < 4; k++)
		if (cur[12 + k] && o->nsrc < PMK_SIM_MAX_SRC)
			o->src[o->nsrc++] = cur[12 + k];
	for (int k = 0; k < 2; k++)
		if (cur[10 + k] && o->ndst < PMK_SIM_MAX_DST)
			o->dst[o->ndst++] = cur[10 + k];
	for (int k = 0; k < 4 && o->nmem < 1; k++) {
		uint64_t a = le64(cur + 32 + 8 * k);
		if (a) {
			o->mem[o->nmem].addr = a;
			o->mem[o->nmem].size = 8;
			o->nmem++;
		}
	}
	for (int k = 0; k < 2; k++) {
		uint64_t a = le64(cur + 16 + 8 * k);
		if (a) {
			o->mem[o->nmem].addr = a;
			o->mem[o->nmem].size = 8;
			o->mem[o->nmem].store = 1;
			o->nmem++;
			break;
		}
	}
	if (cur[8]) {
		o->op = (uint8_t)classify_branch(cur);
		o->taken = cur[9];
		if (o->op != PMK_SIM_OP_BCOND)
			o->taken = 1; /* unconditional kinds always go */
	} else if (o->nmem && !o->mem[0].store) {
		o->op = PMK_SIM_OP_LOAD;
	} else if (o->nmem) {
		o->op = PMK_SIM_OP_STORE;
	} else {
		o->op = PMK_SIM_OP_INT;
	}
	o->len = 4;
	if (have_next) {
		uint64_t nip = le64(r->ahead);
		if (o->taken)
			o->target = nip;
		else if (nip > o->pc && nip - o->pc <= 15)
			o->len = (uint8_t)(nip - o->pc);
	}
	r->count++;
	return 1;
}
