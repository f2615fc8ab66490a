/*
 * pmu.h: the simulated PMU (internal). The core reports event occurrences
 * with pmk__pmu_add() as they happen; at the end of every cycle
 * pmk__pmu_tick() turns each counter's per-cycle value into its increment
 * (threshold, edge, inversion), checks overflow and delivers interrupts
 * `skid` cycles later as samples.
 */
#ifndef PMK_SIM_PMU_H
#define PMK_SIM_PMU_H

#include "pmkit/sim.h"

/* Event ids: the order of the table in events.c. */
enum pmk__ev {
	EV_CYCLES,
	EV_INST_RETIRED,
	EV_INST_DISPATCHED,
	EV_INST_FETCHED,
	EV_INST_SQUASHED,
	EV_BR_RETIRED,
	EV_BR_MISP_RETIRED,
	EV_BR_DISPATCHED,
	EV_L1D_ACCESS,
	EV_L1D_MISS,
	EV_L1D_MISS_RETIRED,
	EV_L2_ACCESS,
	EV_L2_MISS,
	EV_L2_MISS_RETIRED,
	EV_L3_ACCESS,
	EV_L3_MISS,
	EV_L1I_ACCESS,
	EV_L1I_MISS,
	EV_L1I_MISS_RETIRED,
	EV_ITLB_MISS,
	EV_ITLB_MISS_RETIRED,
	EV_DTLB_MISS,
	EV_DTLB_MISS_RETIRED,
	EV_ROB_FULL,
	EV_ROB_OCCUPANCY,
	EV_DISPATCH_STALL,
	EV_COMMIT_STALL,
	EV_FE_STALL,
	EV_MEM_STALL,
	EV_LONGLAT_STALL,
	EV_WRONG_PATH_CYCLES,
	EV_RECOVERY,
	EV_COUNT
};

/* Masks of the cache events. */
enum { UM_LOAD = 1, UM_STORE = 2, UM_IFETCH = 4 };

#define PMK__CTR_MAX 20

typedef struct pmk__ctr {
	pmk_sim_counter_cfg cfg;
	uint8_t on, fixed;
	uint64_t count;
	uint64_t cur, prev; /* this cycle's and last cycle's detector value */
	uint8_t prev_cond;  /* last cycle's threshold condition */
	uint64_t next_ovf;  /* count at which the next overflow happens */
	uint64_t fire_at;   /* cycle of a pending interrupt, 0 = none */
} pmk__ctr;

typedef struct pmk__pmu {
	int nprog, n;
	pmk__ctr c[PMK__CTR_MAX];
	uint32_t watch[EV_COUNT]; /* counters watching each event */
	uint32_t any_pending;
	uint32_t skid, jitter;
	uint64_t rng;
	pmk_sim_sample_fn fn;
	void *arg;
} pmk__pmu;

void pmk__pmu_init(pmk__pmu *p, int nprog, uint32_t skid, uint32_t jitter);
int pmk__pmu_program(pmk__pmu *p, int i, const pmk_sim_counter_cfg *cfg);
int pmk__pmu_enable(pmk__pmu *p, int i, int on);

void pmk__pmu_add_slow(pmk__pmu *p, int ev, uint32_t n, int kernel,
		       uint32_t bits);
/* Occurrence of `n` events `ev` in privilege `kernel`, with event-mask bits
 * `bits` (op class bit, or UM_*). */
static inline void pmk__pmu_add(pmk__pmu *p, int ev, uint32_t n, int kernel,
				uint32_t bits)
{
	if (p->watch[ev])
		pmk__pmu_add_slow(p, ev, n, kernel, bits);
}
/* End of cycle `now`; head_pc/head_kernel name the instruction an interrupt
 * would interrupt (the oldest not retired). */
void pmk__pmu_tick(pmk__pmu *p, uint64_t now, uint64_t head_pc,
		   int head_kernel);

/* Repeat the last tick's per-cycle values for `m` more cycles in one step;
 * PMK_ERANGE (nothing done) when a counter would overflow or an interrupt
 * is pending. */
int pmk__pmu_repeat(pmk__pmu *p, uint64_t m);

#endif
