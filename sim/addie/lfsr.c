/*
 * lfsr.c: the 31-stage maximal-length shift register of seed 003 (feedback
 * from stages 3 and 31) and small analogues of it for property tests.
 *
 * Layout (include/pmkit/addie.h): bit j of the state word holds stage
 * len - j, so a clock is a right shift with the feedback entering at the
 * top bit, and the stages nearest the output are the low bits.
 */
#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"

void pmk_lfsr31_seed(pmk_lfsr31 *l, uint32_t seed)
{
	seed &= 0x7fffffffu;
	l->state = seed ? seed : 1;
}

unsigned pmk_lfsr31_clock(pmk_lfsr31 *l)
{
	l->state = pmk__lfsr31_next(l->state);
	return (l->state >> 30) & 1;
}

unsigned pmk_lfsr31_stage(const pmk_lfsr31 *l, unsigned k)
{
	if (k < 1 || k > 31)
		return 0;
	return (l->state >> (31 - k)) & 1;
}

uint64_t pmk_lfsr_period(unsigned len, unsigned tap, uint32_t start,
			 uint64_t limit)
{
	uint32_t mask, s;
	uint64_t n = 0;
	if (len < 2 || len > 31 || tap < 1 || tap >= len)
		return 0;
	mask = (len == 32) ? 0xffffffffu : ((1u << len) - 1);
	s = start & mask;
	if (!s)
		return 0;
	do {
		uint32_t fb = ((s >> (len - tap)) ^ s) & 1;
		s = (s >> 1) | (fb << (len - 1));
		if (++n > limit)
			return 0;
	} while (s != (start & mask));
	return n;
}

void pmk__lfsr31_jump_tables(uint32_t jump[4][256], unsigned clocks)
{
	uint32_t image[32];
	for (unsigned j = 0; j < 31; j++) {
		uint32_t s = 1u << j;
		for (unsigned k = 0; k < clocks; k++)
			s = pmk__lfsr31_next(s);
		image[j] = s;
	}
	image[31] = 0;
	for (unsigned b = 0; b < 4; b++) {
		for (unsigned v = 0; v < 256; v++) {
			uint32_t x = 0;
			for (unsigned i = 0; i < 8; i++)
				if (v >> i & 1)
					x ^= image[8 * b + i];
			jump[b][v] = x;
		}
	}
}
