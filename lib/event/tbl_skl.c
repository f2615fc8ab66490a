/*
 * tbl_skl.c: Intel Skylake client cores (also Kaby Lake, Coffee Lake,
 * Comet Lake): the commonly used core events.
 *
 * Codes from the Intel SDM volume 3B (Skylake microarchitecture event
 * tables) and Intel's published event list. Threshold/invert/edge values
 * that a unit mask implies are the SDM's "CMask/Inv/Edge" columns.
 */
#include "lib/event/tbl.h"

#define I    PMK__MODS_INTEL
#define IP   PMK__MODS_INTEL_PEBS
#define EDGE PMK__UM_EDGE
#define INV  PMK__UM_INV
#define ANY  PMK__UM_ANY

static const pmk__umask clk[] = {
    PMK__UD("THREAD_P", 0x00, "core cycles while the thread is not halted"),
    PMK__U("REF_XCLK", 0x01, "reference cycles (100 MHz) while not halted"),
    PMK__U("ONE_THREAD_ACTIVE", 0x02,
	   "reference cycles while the other SMT thread is halted"),
    PMK__UC("RING0_TRANS", 0x00, 1, EDGE,
	    "transitions from user to kernel level"),
};

static const pmk__umask inst[] = {
    PMK__UD("ANY_P", 0x00, "instructions retired (general counter)"),
    PMK__U("PREC_DIST", 0x01,
	   "instructions retired, precise distribution (PEBS)"),
    PMK__UC("TOTAL_CYCLES", 0x01, 10, INV,
	    "cycles, counted through the retirement logic"),
};

static const pmk__umask br_inst[] = {
    PMK__UD("ALL_BRANCHES", 0x00, "branch instructions retired"),
    PMK__U("CONDITIONAL", 0x01, "conditional branches retired"),
    PMK__U("NEAR_CALL", 0x02, "direct and indirect near calls retired"),
    PMK__U("NEAR_RETURN", 0x08, "near returns retired"),
    PMK__U("NOT_TAKEN", 0x10, "not-taken conditional branches retired"),
    PMK__U("NEAR_TAKEN", 0x20, "taken near branches retired"),
    PMK__U("FAR_BRANCH", 0x40, "far branches retired"),
};

static const pmk__umask br_misp[] = {
    PMK__UD("ALL_BRANCHES", 0x00, "mispredicted branches retired"),
    PMK__U("CONDITIONAL", 0x01, "mispredicted conditional branches"),
    PMK__U("NEAR_CALL", 0x02, "mispredicted near indirect calls"),
    PMK__U("NEAR_TAKEN", 0x20, "mispredicted taken near branches"),
};

static const pmk__umask uops_issued[] = {
    PMK__UD("ANY", 0x01, "uops issued by the RAT to the reservation station"),
    PMK__U("VECTOR_WIDTH_MISMATCH", 0x02,
	   "blend uops inserted for SSE/AVX width mismatches"),
    PMK__U("SLOW_LEA", 0x20, "slow LEA (three-operand) uops issued"),
    PMK__UC("STALL_CYCLES", 0x01, 1, INV, "cycles with no uop issued"),
};

static const pmk__umask uops_retired[] = {
    PMK__UD("ALL", 0x01, "uops retired"),
    PMK__U("RETIRE_SLOTS", 0x02, "retirement slots used"),
    PMK__UC("STALL_CYCLES", 0x01, 1, INV, "cycles with no uop retired"),
    PMK__UC("TOTAL_CYCLES", 0x01, 10, INV, "cycles, via the uop retirement"),
};

static const pmk__umask idq_nd[] = {
    PMK__UD("CORE", 0x01,
	    "issue slots with no uop delivered by the front end while the "
	    "back end was not stalled"),
    PMK__UC("CYCLES_0_UOPS_DELIV_CORE", 0x01, 4, 0,
	    "cycles with no uop delivered by the front end"),
    PMK__UC("CYCLES_LE_1_UOPS_DELIV_CORE", 0x01, 3, 0,
	    "cycles with at most one uop delivered"),
    PMK__UC("CYCLES_FE_WAS_OK", 0x01, 1, INV,
	    "cycles where the front end delivered four uops or the back end "
	    "stalled"),
};

static const pmk__umask int_misc[] = {
    PMK__U("RECOVERY_CYCLES", 0x01,
	   "cycles the allocator waits after a machine clear or "
	   "misprediction"),
    PMK__UC("RECOVERY_CYCLES_ANY", 0x01, 0, ANY,
	    "recovery cycles of any thread of the core"),
    PMK__U("CLEAR_RESTEER_CYCLES", 0x80,
	   "cycles the issue is blocked after a front-end resteer"),
};

static const pmk__umask l1d[] = {
    PMK__UD("REPLACEMENT", 0x01, "lines brought into the L1 data cache"),
};

static const pmk__umask l2_rqsts[] = {
    PMK__U("DEMAND_DATA_RD_MISS", 0x21, "demand data reads that miss L2"),
    PMK__U("DEMAND_DATA_RD_HIT", 0xc1, "demand data reads that hit L2"),
    PMK__U("RFO_MISS", 0x22, "RFO requests that miss L2"),
    PMK__U("CODE_RD_MISS", 0x24, "instruction fetches that miss L2"),
    PMK__U("CODE_RD_HIT", 0xc4, "instruction fetches that hit L2"),
    PMK__U("ALL_DEMAND_MISS", 0x27, "demand requests that miss L2"),
    PMK__U("ALL_DEMAND_DATA_RD", 0xe1, "demand data reads to L2"),
    PMK__U("ALL_RFO", 0xe2, "RFO requests to L2"),
    PMK__U("ALL_CODE_RD", 0xe4, "instruction fetches to L2"),
    PMK__U("ALL_DEMAND_REFERENCES", 0xe7, "demand requests to L2"),
    PMK__U("PF_MISS", 0x38, "prefetch requests that miss L2"),
    PMK__U("ALL_PF", 0xf8, "prefetch requests to L2"),
    PMK__U("MISS", 0x3f, "all requests that miss L2"),
    PMK__UD("REFERENCES", 0xff, "all requests to L2"),
};

static const pmk__umask llc[] = {
    PMK__U("MISS", 0x41, "core requests that miss the last-level cache"),
    PMK__U("REFERENCE", 0x4f, "core requests to the last-level cache"),
};

static const pmk__umask dtlb[] = {
    PMK__U("MISS_CAUSES_A_WALK", 0x01,
	   "misses in all TLB levels that start a page walk"),
    PMK__U("WALK_COMPLETED_4K", 0x02, "completed walks to a 4K page"),
    PMK__U("WALK_COMPLETED_2M_4M", 0x04, "completed walks to a 2M/4M page"),
    PMK__U("WALK_COMPLETED_1G", 0x08, "completed walks to a 1G page"),
    PMK__U("WALK_COMPLETED", 0x0e, "completed page walks, any size"),
    PMK__U("WALK_PENDING", 0x10, "page walks outstanding, per cycle"),
    PMK__UC("WALK_ACTIVE", 0x10, 1, 0, "cycles with a page walk active"),
    PMK__U("STLB_HIT", 0x20, "first-level misses that hit the STLB"),
};

static const pmk__umask icache[] = {
    PMK__U("IFTAG_HIT", 0x01, "instruction fetch tag lookups that hit"),
    PMK__U("IFTAG_MISS", 0x02, "instruction fetch tag lookups that miss"),
    PMK__U("IFTAG_STALL", 0x04, "cycles fetch stalls on an I-TLB miss"),
};

static const pmk__umask icache16[] = {
    PMK__UD("IFDATA_STALL", 0x04,
	    "cycles fetch stalls on an instruction cache miss"),
};

static const pmk__umask mem_inst[] = {
    PMK__U("STLB_MISS_LOADS", 0x11, "loads retired that missed the STLB"),
    PMK__U("STLB_MISS_STORES", 0x12, "stores retired that missed the STLB"),
    PMK__U("LOCK_LOADS", 0x21, "locked loads retired"),
    PMK__U("SPLIT_LOADS", 0x41, "loads retired that split a cache line"),
    PMK__U("SPLIT_STORES", 0x42, "stores retired that split a cache line"),
    PMK__U("ALL_LOADS", 0x81, "load instructions retired"),
    PMK__U("ALL_STORES", 0x82, "store instructions retired"),
    PMK__UD("ANY", 0x83, "memory instructions retired"),
};

static const pmk__umask mem_load[] = {
    PMK__U("L1_HIT", 0x01, "loads retired that hit L1"),
    PMK__U("L2_HIT", 0x02, "loads retired that hit L2"),
    PMK__U("L3_HIT", 0x04, "loads retired that hit L3"),
    PMK__U("L1_MISS", 0x08, "loads retired that missed L1"),
    PMK__U("L2_MISS", 0x10, "loads retired that missed L2"),
    PMK__U("L3_MISS", 0x20, "loads retired that missed L3"),
    PMK__U("FB_HIT", 0x40,
	   "loads retired that hit a fill buffer allocated by another miss"),
};

static const pmk__umask fp_arith[] = {
    PMK__U("SCALAR_DOUBLE", 0x01, "scalar double-precision FP instructions"),
    PMK__U("SCALAR_SINGLE", 0x02, "scalar single-precision FP instructions"),
    PMK__U("128B_PACKED_DOUBLE", 0x04, "128-bit packed double (2 flops)"),
    PMK__U("128B_PACKED_SINGLE", 0x08, "128-bit packed single (4 flops)"),
    PMK__U("256B_PACKED_DOUBLE", 0x10, "256-bit packed double (4 flops)"),
    PMK__U("256B_PACKED_SINGLE", 0x20, "256-bit packed single (8 flops)"),
    PMK__U("512B_PACKED_DOUBLE", 0x40, "512-bit packed double (8 flops)"),
    PMK__U("512B_PACKED_SINGLE", 0x80, "512-bit packed single (16 flops)"),
};

static const pmk__umask cycle_act[] = {
    PMK__UC("CYCLES_L2_MISS", 0x01, 1, 0, "cycles with an L2 miss pending"),
    PMK__UC("CYCLES_L3_MISS", 0x02, 2, 0, "cycles with an L3 miss pending"),
    PMK__UC("STALLS_TOTAL", 0x04, 4, 0, "cycles with no uop executed"),
    PMK__UC("STALLS_L2_MISS", 0x05, 5, 0,
	    "execution stalls while an L2 miss is pending"),
    PMK__UC("STALLS_L3_MISS", 0x06, 6, 0,
	    "execution stalls while an L3 miss is pending"),
    PMK__UC("CYCLES_L1D_MISS", 0x08, 8, 0, "cycles with an L1D miss pending"),
    PMK__UC("STALLS_L1D_MISS", 0x0c, 12, 0,
	    "execution stalls while an L1D miss is pending"),
    PMK__UC("CYCLES_MEM_ANY", 0x10, 16, 0, "cycles with a memory load pending"),
    PMK__UC("STALLS_MEM_ANY", 0x14, 20, 0,
	    "execution stalls while a memory load is pending"),
};

static const pmk__umask res_stalls[] = {
    PMK__UD("ANY", 0x01, "cycles allocation stalls on any resource"),
    PMK__U("SB", 0x08, "cycles allocation stalls on a full store buffer"),
};

static const pmk__umask mclear[] = {
    PMK__UC("COUNT", 0x01, 1, EDGE, "machine clears of any kind"),
    PMK__U("MEMORY_ORDERING", 0x02, "machine clears for memory ordering"),
    PMK__U("SMC", 0x04, "machine clears for self-modifying code"),
};

static const pmk__umask uops_exec[] = {
    PMK__UD("THREAD", 0x01, "uops executed by this thread"),
    PMK__U("CORE", 0x02, "uops executed by the core"),
    PMK__UC("STALL_CYCLES", 0x01, 1, INV,
	    "cycles with no uop executed by this thread"),
    PMK__UC("THREAD_CYCLES_GE_1", 0x01, 1, 0,
	    "cycles with at least one uop executed"),
    PMK__UC("THREAD_CYCLES_GE_2", 0x01, 2, 0,
	    "cycles with at least two uops executed"),
    PMK__UC("THREAD_CYCLES_GE_3", 0x01, 3, 0,
	    "cycles with at least three uops executed"),
    PMK__UC("THREAD_CYCLES_GE_4", 0x01, 4, 0,
	    "cycles with at least four uops executed"),
    PMK__U("X87", 0x10, "x87 uops executed"),
};

static const pmk__umask exe_act[] = {
    PMK__U("EXE_BOUND_0_PORTS", 0x01,
	   "cycles with no uop executed and no store or memory stall"),
    PMK__U("1_PORTS_UTIL", 0x02, "cycles with one uop executed"),
    PMK__U("2_PORTS_UTIL", 0x04, "cycles with two uops executed"),
    PMK__U("BOUND_ON_STORES", 0x40,
	   "cycles stalled with the store buffer full"),
};

static const pmk__umask l1d_pend[] = {
    PMK__UD("PENDING", 0x01, "L1D misses outstanding, summed per cycle"),
    PMK__UC("PENDING_CYCLES", 0x01, 1, 0,
	    "cycles with at least one L1D miss outstanding"),
    PMK__U("FB_FULL", 0x02,
	   "cycles a demand request found the fill "
	   "buffers full"),
};

static const pmk__umask offcore[] = {
    PMK__U("DEMAND_DATA_RD", 0x01, "demand data reads sent off core"),
    PMK__U("DEMAND_CODE_RD", 0x02, "demand code reads sent off core"),
    PMK__U("DEMAND_RFO", 0x04, "demand RFOs sent off core"),
    PMK__U("ALL_DATA_RD", 0x08, "data reads sent off core"),
    PMK__U("L3_MISS_DEMAND_DATA_RD", 0x10, "demand data reads that missed L3"),
    PMK__U("ALL_REQUESTS", 0x80, "all requests sent off core"),
};

static const pmk__umask baclears[] = {
    PMK__UD("ANY", 0x01, "front-end resteers for branch address clears"),
};

static const pmk__umask arith[] = {
    PMK__UC("DIVIDER_ACTIVE", 0x01, 1, PMK__UM_DFL,
	    "cycles the divider is busy"),
};

static const pmk__umask dsb2mite[] = {
    PMK__UD("PENALTY_CYCLES", 0x02,
	    "cycles lost switching from the uop cache to legacy decode"),
};

static const pmk__umask lsd[] = {
    PMK__UD("UOPS", 0x01, "uops delivered by the loop stream detector"),
    PMK__UC("CYCLES_ACTIVE", 0x01, 1, 0,
	    "cycles the loop stream detector delivered uops"),
};

static const pmk__umask idq[] = {
    PMK__U("MITE_UOPS", 0x04, "uops delivered by legacy decode (MITE)"),
    PMK__U("DSB_UOPS", 0x08, "uops delivered by the uop cache (DSB)"),
    PMK__U("MS_UOPS", 0x30, "uops delivered by the microcode sequencer"),
    PMK__UC("MS_SWITCHES", 0x30, 1, EDGE,
	    "switches to the microcode sequencer"),
};

static const pmk__nevent ev[] = {
    PMK__EV0("UNHALTED_CORE_CYCLES", NULL, 0x3c, I,
	     "core cycles while not halted (architectural)"),
    PMK__EV0("UNHALTED_REFERENCE_CYCLES", NULL, 0x300, PMK__MODS_INTEL_FIXED,
	     "reference (TSC-rate) cycles while not halted, fixed counter"),
    PMK__EV0("INSTRUCTION_RETIRED", NULL, 0xc0, I,
	     "instructions retired (architectural)"),
    PMK__EV0("BRANCH_INSTRUCTIONS_RETIRED", NULL, 0xc4, I,
	     "branch instructions retired (architectural)"),
    PMK__EV0("MISPREDICTED_BRANCH_RETIRED", NULL, 0xc5, I,
	     "mispredicted branches retired (architectural)"),
    PMK__EV("CPU_CLK_THREAD_UNHALTED", "CPU_CLK_UNHALTED", 0x3c, I, 0, clk,
	    "unhalted cycles"),
    PMK__EV("INST_RETIRED", NULL, 0xc0, IP, 0, inst, "instructions retired"),
    PMK__EV("BR_INST_RETIRED", NULL, 0xc4, IP, 0, br_inst,
	    "branch instructions retired"),
    PMK__EV("BR_MISP_RETIRED", NULL, 0xc5, IP, 0, br_misp,
	    "mispredicted branch instructions retired"),
    PMK__EV("UOPS_ISSUED", NULL, 0x0e, I, 0, uops_issued,
	    "uops issued to the back end"),
    PMK__EV("UOPS_RETIRED", NULL, 0xc2, IP, 0, uops_retired, "uops retired"),
    PMK__EV("IDQ_UOPS_NOT_DELIVERED", NULL, 0x9c, I, 0, idq_nd,
	    "front-end delivery shortfall (top-down frontend bound)"),
    PMK__EV("INT_MISC", NULL, 0x0d, I, 0, int_misc,
	    "recovery after clears and mispredictions"),
    PMK__EV("L1D", NULL, 0x51, I, 0, l1d, "L1 data cache"),
    PMK__EV("L2_RQSTS", NULL, 0x24, I, 0, l2_rqsts, "requests to L2"),
    PMK__EV("LONGEST_LAT_CACHE", NULL, 0x2e, I, 0, llc,
	    "last-level cache requests"),
    PMK__EV("DTLB_LOAD_MISSES", NULL, 0x08, I, 0, dtlb,
	    "data TLB misses on loads"),
    PMK__EV("DTLB_STORE_MISSES", NULL, 0x49, I, 0, dtlb,
	    "data TLB misses on stores"),
    PMK__EV("ITLB_MISSES", NULL, 0x85, I, 0, dtlb, "instruction TLB misses"),
    PMK__EV("ICACHE_64B", NULL, 0x83, I, 0, icache,
	    "instruction cache tag lookups"),
    PMK__EV("ICACHE_16B", NULL, 0x80, I, 0, icache16,
	    "instruction cache data fetches"),
    PMK__EV("MEM_INST_RETIRED", NULL, 0xd0, IP, 0, mem_inst,
	    "memory instructions retired"),
    PMK__EV("MEM_LOAD_RETIRED", NULL, 0xd1, IP, 0, mem_load,
	    "retired loads by where they hit"),
    PMK__EV("FP_ARITH_INST_RETIRED", NULL, 0xc7, I, PMK__EV_COMBINE, fp_arith,
	    "floating-point arithmetic instructions retired"),
    PMK__EV("CYCLE_ACTIVITY", NULL, 0xa3, I, 0, cycle_act,
	    "cycles with misses pending and execution stalls"),
    PMK__EV("RESOURCE_STALLS", NULL, 0xa2, I, 0, res_stalls,
	    "allocation stalls on back-end resources"),
    PMK__EV("MACHINE_CLEARS", NULL, 0xc3, I, 0, mclear,
	    "pipeline flushes (machine clears)"),
    PMK__EV("UOPS_EXECUTED", NULL, 0xb1, I, 0, uops_exec, "uops executed"),
    PMK__EV("EXE_ACTIVITY", NULL, 0xa6, I, 0, exe_act,
	    "execution port utilization"),
    PMK__EV("L1D_PEND_MISS", NULL, 0x48, I, 0, l1d_pend,
	    "outstanding L1D misses"),
    PMK__EV("OFFCORE_REQUESTS", NULL, 0xb0, I, 0, offcore,
	    "requests sent to the uncore"),
    PMK__EV("BACLEARS", NULL, 0xe6, I, 0, baclears, "branch address clears"),
    PMK__EV("ARITH", NULL, 0x14, I, 0, arith, "divider activity"),
    PMK__EV("DSB2MITE_SWITCHES", NULL, 0xab, I, 0, dsb2mite,
	    "uop-cache to legacy-decode switches"),
    PMK__EV("LSD", NULL, 0xa8, I, 0, lsd, "loop stream detector"),
    PMK__EV("IDQ", NULL, 0x79, I, 0, idq, "instruction decode queue"),
};

static const pmk__preset_map presets[] = {
    {"PAPI_TOT_CYC", "UNHALTED_CORE_CYCLES"},
    {"PAPI_TOT_INS", "INSTRUCTION_RETIRED"},
    {"PAPI_REF_CYC", "UNHALTED_REFERENCE_CYCLES"},
    {"PAPI_BR_INS", "BR_INST_RETIRED:ALL_BRANCHES"},
    {"PAPI_BR_MSP", "BR_MISP_RETIRED:ALL_BRANCHES"},
    {"PAPI_BR_CN", "BR_INST_RETIRED:CONDITIONAL"},
    {"PAPI_BR_TKN", "BR_INST_RETIRED:NEAR_TAKEN"},
    {"PAPI_BR_NTK", "BR_INST_RETIRED:NOT_TAKEN"},
    {"PAPI_BR_UCN",
     "BR_INST_RETIRED:ALL_BRANCHES BR_INST_RETIRED:CONDITIONAL -"},
    {"PAPI_BR_PRC",
     "BR_INST_RETIRED:CONDITIONAL BR_MISP_RETIRED:CONDITIONAL -"},
    {"PAPI_L1_DCM", "L1D:REPLACEMENT"},
    {"PAPI_L1_ICM", "ICACHE_64B:IFTAG_MISS"},
    {"PAPI_L1_DCA", "MEM_INST_RETIRED:ALL_LOADS MEM_INST_RETIRED:ALL_STORES +"},
    {"PAPI_L2_DCA", "L2_RQSTS:ALL_DEMAND_DATA_RD L2_RQSTS:ALL_RFO +"},
    {"PAPI_L2_DCM", "L2_RQSTS:DEMAND_DATA_RD_MISS L2_RQSTS:RFO_MISS +"},
    {"PAPI_L2_DCR", "L2_RQSTS:ALL_DEMAND_DATA_RD"},
    {"PAPI_L2_ICA", "L2_RQSTS:ALL_CODE_RD"},
    {"PAPI_L2_ICM", "L2_RQSTS:CODE_RD_MISS"},
    {"PAPI_L2_TCA", "L2_RQSTS:REFERENCES"},
    {"PAPI_L2_TCM", "L2_RQSTS:MISS"},
    {"PAPI_L3_TCA", "LONGEST_LAT_CACHE:REFERENCE"},
    {"PAPI_L3_TCM", "LONGEST_LAT_CACHE:MISS"},
    {"PAPI_TLB_DM", "DTLB_LOAD_MISSES:WALK_COMPLETED "
		    "DTLB_STORE_MISSES:WALK_COMPLETED +"},
    {"PAPI_TLB_IM", "ITLB_MISSES:WALK_COMPLETED"},
    {"PAPI_LD_INS", "MEM_INST_RETIRED:ALL_LOADS"},
    {"PAPI_SR_INS", "MEM_INST_RETIRED:ALL_STORES"},
    {"PAPI_SP_OPS", "FP_ARITH_INST_RETIRED:SCALAR_SINGLE "
		    "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE 4 * + "
		    "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE 8 * +"},
    {"PAPI_DP_OPS", "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE "
		    "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE 2 * + "
		    "FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE 4 * +"},
    {"PAPI_FP_OPS",
     "FP_ARITH_INST_RETIRED:SCALAR_SINGLE:SCALAR_DOUBLE "
     "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE 2 * + "
     "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE:256B_PACKED_DOUBLE 4 * + "
     "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE 8 * +"},
    {"PAPI_FP_INS", "FP_ARITH_INST_RETIRED:SCALAR_SINGLE:SCALAR_DOUBLE:"
		    "128B_PACKED_DOUBLE:128B_PACKED_SINGLE:"
		    "256B_PACKED_DOUBLE:256B_PACKED_SINGLE"},
    {"PAPI_STL_ICY", "UOPS_ISSUED:STALL_CYCLES"},
    {"PAPI_RES_STL", "RESOURCE_STALLS:ANY"},
    {"PAPI_MEM_WCY", "CYCLE_ACTIVITY:STALLS_MEM_ANY"},
};

const pmk__model pmk__model_skl = {
    "skl",	"Intel Skylake", PMK__VENDOR_INTEL, ev,
    PMK__N(ev), presets,	 PMK__N(presets),
};
