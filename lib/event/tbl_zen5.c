/*
 * tbl_zen5.c: AMD family 1Ah (Zen 5): the commonly used core events, with
 * the dispatch-slot events of AMD's pipeline-utilization (top-down)
 * analysis: 8 slots per cycle.
 *
 * Codes from AMD's Processor Programming Reference for family 1Ah model
 * 02h (PPR 57238, "Core Performance Monitor Counters") and AMD's published
 * Zen 5 event list (as carried in Linux's tools/perf amdzen5 tables, read
 * for the facts). libpfm4 4.13 has no Zen 5 table, so these are not
 * checked against it; the event names follow the Zen 4 table's style.
 * Differences from Zen 4 that matter: PMCx003's unit mask (bfloat16 is
 * 0x20, bits 7:5 select precision, "all" is 0x0f), PMCx09F bp_redirects
 * replaces PMCx096, and op-source has no loop-buffer bit in the list.
 */
#include "lib/event/tbl.h"

#define A PMK__MODS_AMD
#define C PMK__EV_COMBINE

static const pmk__umask flops[] = {
    PMK__U("ADD_SUB_FLOPS", 0x01, "add and subtract flops"),
    PMK__U("MULT_FLOPS", 0x02, "multiply flops"),
    PMK__U("DIV_FLOPS", 0x04, "divide and square-root flops"),
    PMK__U("MAC_FLOPS", 0x08, "multiply-accumulate flops (two each)"),
    PMK__UC("BFLOAT16_FLOPS", 0x20, 0, PMK__UM_ALONE, "bfloat16 flops"),
    PMK__UC("SCALAR_SINGLE_FLOPS", 0x40, 0, PMK__UM_ALONE,
	    "scalar single-precision flops"),
    PMK__UC("PACKED_SINGLE_FLOPS", 0x60, 0, PMK__UM_ALONE,
	    "packed single-precision flops"),
    PMK__UC("SCALAR_DOUBLE_FLOPS", 0x80, 0, PMK__UM_ALONE,
	    "scalar double-precision flops"),
    PMK__UC("PACKED_DOUBLE_FLOPS", 0xa0, 0, PMK__UM_ALONE,
	    "packed double-precision flops"),
    PMK__UD("ANY", 0x0f, "all SSE/AVX flops"),
};

static const pmk__umask fp_width[] = {
    PMK__U("X87_UOPS_RETIRED", 0x01, "x87 ops retired"),
    PMK__U("MMX_UOPS_RETIRED", 0x02, "MMX ops retired"),
    PMK__U("SCALAR_UOPS_RETIRED", 0x04, "scalar FP ops retired"),
    PMK__U("PACK128_UOPS_RETIRED", 0x08, "128-bit packed FP ops retired"),
    PMK__U("PACK256_UOPS_RETIRED", 0x10, "256-bit packed FP ops retired"),
    PMK__U("PACK512_UOPS_RETIRED", 0x20, "512-bit packed FP ops retired"),
};

static const pmk__umask ls_disp[] = {
    PMK__UA("LD_DISPATCH", 0x01, "ld_dispatch", "load ops dispatched"),
    PMK__UA("STORE_DISPATCH", 0x02, "store_dispatch", "store ops dispatched"),
    PMK__UA("LD_ST_DISPATCH", 0x04, "ld_st_dispatch",
	    "load-op-store ops dispatched"),
};

static const pmk__umask dtlb[] = {
    PMK__U("TLB_RELOAD_4K_L2_HIT", 0x01, "L1 DTLB misses that hit L2, 4K"),
    PMK__U("TLB_RELOAD_COALESCED_PAGE_HIT", 0x02,
	   "L1 DTLB misses that hit L2, coalesced page"),
    PMK__U("TLB_RELOAD_2M_L2_HIT", 0x04, "L1 DTLB misses that hit L2, 2M"),
    PMK__U("TLB_RELOAD_1G_L2_HIT", 0x08, "L1 DTLB misses that hit L2, 1G"),
    PMK__U("TLB_RELOAD_4K_L2_MISS", 0x10, "DTLB misses needing a walk, 4K"),
    PMK__U("TLB_RELOAD_COALESCED_PAGE_MISS", 0x20,
	   "DTLB misses needing a walk, coalesced page"),
    PMK__U("TLB_RELOAD_2M_L2_MISS", 0x40, "DTLB misses needing a walk, 2M"),
    PMK__U("TLB_RELOAD_1G_L2_MISS", 0x80, "DTLB misses needing a walk, 1G"),
};

static const pmk__umask itlb_miss[] = {
    PMK__U("IF4K", 0x01, "instruction fetches to a 4K page"),
    PMK__U("IF2M", 0x02, "instruction fetches to a 2M page"),
    PMK__U("IF1G", 0x04, "instruction fetches to a 1G page"),
    PMK__U("COALESCED4K", 0x08, "instruction fetches to a coalesced page"),
};

static const pmk__umask dc_fill[] = {
    PMK__U("LCL_L2", 0x01, "filled from the local L2"),
    PMK__U("LOCAL_CCX", 0x02, "filled from L3 or another L2 of the CCX"),
    PMK__U("NEAR_CACHE_NEAR_FAR", 0x04, "filled from a cache of another CCX"),
    PMK__U("DRAM_IO_NEAR", 0x08, "filled from DRAM or I/O, same node"),
    PMK__U("FAR_CACHE_NEAR_FAR", 0x10, "filled from a cache of another node"),
    PMK__U("DRAM_IO_FAR", 0x40, "filled from DRAM or I/O of another node"),
    PMK__U("ALT_MEM_NEAR_FAR", 0x80, "filled from extension memory"),
};

static const pmk__umask misal[] = {
    PMK__U("MA64", 0x01, "loads crossing a 64-byte line"),
    PMK__U("MA4K", 0x02, "loads crossing a 4K page"),
};

static const pmk__umask l2_stat[] = {
    PMK__U("IC_FILL_MISS", 0x01, "instruction fills that miss L2"),
    PMK__U("IC_FILL_HIT_S", 0x02, "instruction fills that hit L2, shared"),
    PMK__U("IC_FILL_HIT_X", 0x04, "instruction fills that hit L2, modifiable"),
    PMK__U("LS_RD_BLK_C", 0x08, "data reads that miss L2"),
    PMK__U("LS_RD_BLK_X", 0x10, "data stores that hit L2"),
    PMK__U("LS_RD_BLK_L_HIT_S", 0x20, "data reads that hit L2, shared"),
    PMK__U("LS_RD_BLK_L_HIT_X", 0x40, "data reads that hit L2, modifiable"),
    PMK__U("LS_RD_BLK_C_S", 0x80, "data change-to-shared requests that hit"),
};

static const pmk__umask l2_g1[] = {
    PMK__U("L2_HW_PF", 0x02, "L2 hardware prefetch requests"),
    PMK__UA("GROUP2", 0x01, "group2",
	    "non-cacheable requests (second request group)"),
    PMK__U("PREFETCH_L2_CMD", 0x04, "software prefetches to L2"),
    PMK__U("CACHEABLE_IC_READ", 0x10, "instruction cache reads"),
    PMK__U("LS_RD_BLK_C_S", 0x20, "data reads to shared lines"),
    PMK__U("RD_BLK_X", 0x40, "data store requests"),
    PMK__U("RD_BLK_L", 0x80, "data read requests"),
};

static const pmk__umask tlb_flush[] = {
    PMK__UD("ALL", 0xff, "all TLB flushes"),
};

static const pmk__umask uops_src[] = {
    PMK__UA("DECODER", 0x01, "x86_decoder", "ops from the x86 decoder"),
    PMK__UA("OPCACHE", 0x02, "op_cache", "ops from the op cache"),
    PMK__UA("ALL", 0x07, "all", "ops dispatched from any source"),
};

static const pmk__umask redirects[] = {
    PMK__UA("RESYNC", 0x01, "resync", "redirects for pipeline resyncs"),
    PMK__UA("EX_REDIR", 0x02, "ex_redir",
	    "redirects for mispredictions found at execution"),
};

static const pmk__umask slots[] = {
    PMK__UA("FE_NO_OPS", 0x01, "no_ops_from_frontend",
	    "slots empty because the front end supplied no op"),
    PMK__UA("BE_STALLS", 0x1e, "backend_stalls",
	    "slots empty because the back end could not accept ops"),
    PMK__UA("SMT_CONTENTION", 0x60, "smt_contention",
	    "slots given to the other SMT thread"),
    PMK__U("FE_OR_BE_STALLS", 0x1f,
	   "slots empty for the front end or the back end (pmkit's name)"),
};

static const pmk__umask no_retire[] = {
    PMK__UA("EMPTY", 0x01, "empty", "cycles the retire queue is empty"),
    PMK__UA("NOT_COMPLETE_LOAD_AND_ALU", 0x02, "not_complete",
	    "cycles the oldest op is not complete"),
    PMK__U("OTHER", 0x08, "cycles retire is blocked for other reasons"),
    PMK__U("THREAD_NOT_SELECTED", 0x10,
	   "cycles the other thread was selected to retire"),
    PMK__UA("NOT_COMPLETE_MISSING_LOAD", 0xa2, "load_not_complete",
	    "cycles the oldest op waits on a load"),
};

static const pmk__umask ic_tag[] = {
    PMK__U("IC_HIT", 0x07, "instruction cache hits"),
    PMK__U("IC_MISS", 0x18, "instruction cache misses"),
    PMK__UD("ALL_IC_ACCESS", 0x1f, "instruction cache accesses"),
};

static const pmk__umask oc[] = {
    PMK__U("OC_HIT", 0x03, "op cache hits"),
    PMK__U("OC_MISS", 0x04, "op cache misses"),
    PMK__UD("ALL_OC_ACCESS", 0x07, "op cache accesses"),
};

static const pmk__nevent ev[] = {
    PMK__EV0("CYCLES_NOT_IN_HALT", "ls_not_halted_cyc", 0x76, A,
	     "core cycles while not halted"),
    PMK__EV0("RETIRED_INSTRUCTIONS", "ex_ret_instr", 0xc0, A,
	     "instructions retired"),
    PMK__EV0("RETIRED_OPS", "ex_ret_ops", 0xc1, A, "macro-ops retired"),
    PMK__EV0("RETIRED_BRANCH_INSTRUCTIONS", "ex_ret_brn", 0xc2, A,
	     "branch instructions retired"),
    PMK__EV0("RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "ex_ret_brn_misp",
	     0xc3, A, "mispredicted branches retired"),
    PMK__EV0("RETIRED_TAKEN_BRANCH_INSTRUCTIONS", "ex_ret_brn_tkn", 0xc4, A,
	     "taken branches retired"),
    PMK__EV0("RETIRED_TAKEN_BRANCH_INSTRUCTIONS_MISPREDICTED",
	     "ex_ret_brn_tkn_misp", 0xc5, A,
	     "mispredicted taken branches retired"),
    PMK__EV0("RETIRED_FAR_CONTROL_TRANSFERS", "ex_ret_brn_far", 0xc6, A,
	     "far control transfers retired"),
    PMK__EV0("RETIRED_NEAR_RETURNS", "ex_ret_near_ret", 0xc8, A,
	     "near returns retired"),
    PMK__EV0("RETIRED_NEAR_RETURNS_MISPREDICTED", "ex_ret_near_ret_mispred",
	     0xc9, A, "mispredicted near returns retired"),
    PMK__EV0("RETIRED_INDIRECT_BRANCH_INSTRUCTIONS_MISPREDICTED",
	     "ex_ret_brn_ind_misp", 0xca, A,
	     "mispredicted indirect branches retired"),
    PMK__EV0("RETIRED_INDIRECT_BRANCH_INSTRUCTIONS", "ex_ret_ind_brch_instr",
	     0xcc, A, "indirect branches retired"),
    PMK__EV0("RETIRED_CONDITIONAL_BRANCH_INSTRUCTIONS", "ex_ret_cond", 0xd1, A,
	     "conditional branches retired"),
    PMK__EV0("RETIRED_FUSED_INSTRUCTIONS", "ex_ret_fus_brnch_inst", 0x1d0, A,
	     "fused compare-and-branch instructions retired"),
    PMK__EV0("DIV_CYCLES_BUSY_COUNT", "ex_div_busy", 0xd3, A,
	     "cycles the divider is busy"),
    PMK__EV0("DIV_OP_COUNT", "ex_div_count", 0xd4, A, "divide ops"),
    PMK__EV("RETIRED_SSE_AVX_FLOPS", "fp_ret_sse_avx_ops", 0x03, A, C, flops,
	    "SSE/AVX floating-point operations retired"),
    PMK__EV("LS_DISPATCH", "ls_dispatch", 0x29, A, C, ls_disp,
	    "load/store ops dispatched"),
    PMK__EV0("STORE_TO_LOAD_FORWARD", "ls_stlf", 0x35, A,
	     "loads forwarded from a store"),
    PMK__EV("MISALIGNED_LOADS", "ls_misal_loads", 0x47, A, C, misal,
	    "misaligned loads"),
    PMK__EV("L1_DTLB_MISS", "ls_l1_d_tlb_miss", 0x45, A, C, dtlb,
	    "L1 data TLB misses"),
    PMK__EV0("L1_ITLB_MISS_L2_ITLB_HIT", "bp_l1_tlb_miss_l2_tlb_hit", 0x84, A,
	     "L1 instruction TLB misses that hit the L2 ITLB"),
    PMK__EV("L1_ITLB_MISS_L2_ITLB_MISS", "bp_l1_tlb_miss_l2_tlb_miss", 0x85, A,
	    C, itlb_miss, "instruction TLB misses needing a walk"),
    PMK__EV0("INSTRUCTION_CACHE_REFILLS_FROM_L2", "ic_fill_l2", 0x82, A,
	     "instruction cache lines filled from L2"),
    PMK__EV0("INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM", "ic_fill_sys", 0x83, A,
	     "instruction cache lines filled from beyond L2"),
    PMK__EV("DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM", "ls_dmnd_fills_from_sys",
	    0x43, A, C, dc_fill, "demand data cache fills by source"),
    PMK__EV("ANY_DATA_CACHE_FILLS_FROM_SYSTEM", "ls_any_fills_from_sys", 0x44,
	    A, C, dc_fill, "data cache fills of any kind by source"),
    PMK__EV("CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS", "l2_cache_req_stat",
	    0x64, A, C, l2_stat, "L2 cache requests by outcome"),
    PMK__EV("REQUESTS_TO_L2_GROUP1", "l2_request_g1", 0x60, A, C, l2_g1,
	    "requests to L2 by kind"),
    PMK__EV("TLB_FLUSHES", "ls_tlb_flush", 0x78, A, C, tlb_flush,
	    "TLB flushes"),
    PMK__EV0("OPS_QUEUE_EMPTY", "de_op_queue_empty", 0xa9, A,
	     "cycles the op queue is empty"),
    PMK__EV("OPS_SOURCE_DISPATCHED_FROM_DECODER", "de_src_op_disp", 0xaa, A, C,
	    uops_src, "ops dispatched by source"),
    PMK__EV("RETIRED_FP_OPS_BY_WIDTH", "fp_ops_retired_by_width", 0x08, A, C,
	    fp_width, "FP ops retired by width"),
    PMK__EV("DISPATCH_STALLS_1", "de_no_dispatch_per_slot", 0x1a0, A, 0, slots,
	    "dispatch slots left empty, by reason (8 per cycle)"),
    PMK__EV("CYCLES_NO_RETIRE", "ex_no_retire", 0xd6, A, 0, no_retire,
	    "cycles with no retirement, by reason"),
    PMK__EV0("RETIRED_UCODE_INSTRUCTIONS", "ex_ret_ucode_instr", 0x1c1, A,
	     "microcoded instructions retired"),
    PMK__EV0("RETIRED_UCODE_OPS", "ex_ret_ucode_ops", 0x1c2, A,
	     "microcode ops retired"),
    PMK__EV("BP_REDIRECTS", "bp_redirects", 0x9f, A, C, redirects,
	    "front-end redirects by cause"),
    PMK__EV("IC_TAG_HIT_MISS", "ic_tag_hit_miss", 0x18e, A, 0, ic_tag,
	    "instruction cache tag lookups"),
    PMK__EV("OP_CACHE_HIT_MISS", "op_cache_hit_miss", 0x28f, A, 0, oc,
	    "op cache lookups"),
};

static const pmk__preset_map presets[] = {
    {"PAPI_TOT_CYC", "CYCLES_NOT_IN_HALT"},
    {"PAPI_TOT_INS", "RETIRED_INSTRUCTIONS"},
    {"PAPI_BR_INS", "RETIRED_BRANCH_INSTRUCTIONS"},
    {"PAPI_BR_MSP", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED"},
    {"PAPI_BR_CN", "RETIRED_CONDITIONAL_BRANCH_INSTRUCTIONS"},
    {"PAPI_BR_TKN", "RETIRED_TAKEN_BRANCH_INSTRUCTIONS"},
    {"PAPI_BR_UCN", "RETIRED_BRANCH_INSTRUCTIONS "
		    "RETIRED_CONDITIONAL_BRANCH_INSTRUCTIONS -"},
    {"PAPI_L1_DCA", "LS_DISPATCH:LD_DISPATCH:STORE_DISPATCH:LD_ST_DISPATCH"},
    {"PAPI_L1_DCM", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:LOCAL_CCX:"
		    "NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:"
		    "DRAM_IO_FAR:ALT_MEM_NEAR_FAR"},
    {"PAPI_L1_ICM", "INSTRUCTION_CACHE_REFILLS_FROM_L2 "
		    "INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM +"},
    {"PAPI_L2_DCA",
     "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C:LS_RD_BLK_X:"
     "LS_RD_BLK_L_HIT_S:LS_RD_BLK_L_HIT_X:LS_RD_BLK_C_S"},
    {"PAPI_L2_DCM", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C"},
    {"PAPI_L2_ICA", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:"
		    "IC_FILL_HIT_S:IC_FILL_HIT_X"},
    {"PAPI_L2_ICM", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS"},
    {"PAPI_L2_TCA",
     "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:IC_FILL_HIT_S:"
     "IC_FILL_HIT_X:LS_RD_BLK_C:LS_RD_BLK_X:LS_RD_BLK_L_HIT_S:"
     "LS_RD_BLK_L_HIT_X:LS_RD_BLK_C_S"},
    {"PAPI_L2_TCM",
     "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:LS_RD_BLK_C"},
    {"PAPI_TLB_DM", "L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:"
		    "TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_2M_L2_MISS:"
		    "TLB_RELOAD_1G_L2_MISS"},
    {"PAPI_TLB_IM", "L1_ITLB_MISS_L2_ITLB_MISS:IF4K:IF2M:IF1G:COALESCED4K"},
    {"PAPI_LD_INS", "LS_DISPATCH:LD_DISPATCH"},
    {"PAPI_SR_INS", "LS_DISPATCH:STORE_DISPATCH"},
    {"PAPI_FP_OPS", "RETIRED_SSE_AVX_FLOPS:ANY"},
    {"PAPI_STL_ICY", "DISPATCH_STALLS_1:FE_OR_BE_STALLS:c=8"},
    {"PAPI_RES_STL", "DISPATCH_STALLS_1:BE_STALLS:c=8"},
};

const pmk__model pmk__model_zen5 = {
    "amd64_fam1ah_zen5", "AMD Zen 5", PMK__VENDOR_AMD, ev,
    PMK__N(ev),		 presets,     PMK__N(presets),
};
