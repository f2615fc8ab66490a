/*
 * rdpmc.c: user-space counter reads (see rdpmc.h). The mmap page is read
 * under its sequence lock: the counter's kernel-side offset plus the live
 * hardware counter (sign-extended from pmc_width bits), and the enabled and
 * running times advanced by the time elapsed since the kernel last updated
 * them, converted from the timestamp counter with the page's mult/shift.
 */
#include "lib/backend/rdpmc.h"

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t read_pmc(uint32_t idx)
{
	uint32_t lo, hi;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}
static inline uint64_t read_clock(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define HAVE_USER_READS 1
#elif defined(__aarch64__)
static inline uint64_t read_pmc(uint32_t idx)
{
	uint64_t v;
	if (idx == 31) { /* the cycle counter */
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
		return v;
	}
	__asm__ volatile("msr pmselr_el0, %0" ::"r"((uint64_t)idx));
	__asm__ volatile("isb");
	__asm__ volatile("mrs %0, pmxevcntr_el0" : "=r"(v));
	return v;
}
static inline uint64_t read_clock(void)
{
	uint64_t v;
	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#define HAVE_USER_READS 1
#else
#define HAVE_USER_READS 0
#endif

int pmk__rdpmc_supported(void)
{
	return HAVE_USER_READS;
}

int pmk__rdpmc_read(volatile struct perf_event_mmap_page *pc, uint64_t v[3])
{
#if HAVE_USER_READS
	uint32_t seq, idx;
	uint64_t count, enabled, running;
	int tries = 0;
	do {
		if (++tries > 100)
			return -1;
		seq = pc->lock;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		enabled = pc->time_enabled;
		running = pc->time_running;
		idx = pc->index;
		if (!pc->cap_user_rdpmc || idx == 0)
			return -1;
		count = (uint64_t)pc->offset;
		{
			uint16_t width = pc->pmc_width;
			uint64_t pmc = read_pmc(idx - 1);
			if (width && width < 64) {
				pmc <<= 64 - width;
				count += (uint64_t)((int64_t)pmc >> (64 - width));
			} else {
				count += pmc;
			}
		}
		if (pc->cap_user_time) {
			uint64_t cyc = read_clock();
			uint16_t shift = pc->time_shift;
			uint32_t mult = pc->time_mult;
			uint64_t quot = cyc >> shift;
			uint64_t rem = cyc & (((uint64_t)1 << shift) - 1);
			uint64_t delta = pc->time_offset + quot * mult +
					 ((rem * mult) >> shift);
			enabled += delta;
			running += delta; /* idx != 0: it is on a counter */
		}
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} while (pc->lock != seq);
	v[0] = count;
	v[1] = enabled;
	v[2] = running;
	return 0;
#else
	(void)pc;
	(void)v;
	return -1;
#endif
}
