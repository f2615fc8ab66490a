/*
 * tbl_zen2.c: AMD family 17h models 30h and later (Zen 2): the commonly
 * used core events.
 *
 * Codes from AMD's Processor Programming Reference for family 17h model
 * 31h (PPR 55803, "Core Performance Monitor Counters"). Aliases are the
 * PPR's mnemonic names in lower case (e.g. PMCx076 ls_not_halted_cyc).
 */
#include "lib/event/tbl.h"

/* Zen 2 has no host/guest (h) qualifier in perf's encoding here */
#define A (PMK__MODS_AMD & ~PMK__M_H)
#define C PMK__EV_COMBINE

static const pmk__umask flops[] = {
    PMK__U("ADD_SUB_FLOPS", 0x01, "add and subtract flops"),
    PMK__U("MULT_FLOPS", 0x02, "multiply flops"),
    PMK__U("DIV_FLOPS", 0x04, "divide and square-root flops"),
    PMK__U("MAC_FLOPS", 0x08, "multiply-accumulate flops (two each)"),
    PMK__UD("ANY", 0x0f, "all SSE/AVX flops"),
};

static const pmk__umask mmx_fp[] = {
    PMK__U("X87_INSTR", 0x01, "x87 instructions"),
    PMK__U("MMX_INSTR", 0x02, "MMX instructions"),
    PMK__U("SSE_INSTR", 0x04, "SSE and AVX instructions"),
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
};

static const pmk__umask dc_refill[] = {
    PMK__U("MABRESP_LCL_L2", 0x01, "filled from the local L2"),
    PMK__U("LS_MABRESP_LCL_CACHE", 0x02,
	   "filled from another cache of the same CCX or die"),
    PMK__U("LS_MABRESP_LCL_DRAM", 0x08, "filled from local DRAM or I/O"),
    PMK__U("LS_MABRESP_RMT_CACHE", 0x10, "filled from a remote cache"),
    PMK__U("LS_MABRESP_RMT_DRAM", 0x40, "filled from remote DRAM or I/O"),
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
    PMK__U("GROUP2", 0x01, "requests of the second group (miscellaneous)"),
    PMK__U("L2_HW_PF", 0x02, "L2 hardware prefetch requests"),
    PMK__U("PREFETCH_L2", 0x04, "software prefetches to L2"),
    PMK__U("CHANGE_TO_X", 0x08, "data requests to make a line modifiable"),
    PMK__U("CACHEABLE_IC_READ", 0x10, "instruction cache reads"),
    PMK__U("LS_RD_BLK_C_S", 0x20, "data reads to shared lines"),
    PMK__U("RD_BLK_X", 0x40, "data store requests"),
    PMK__U("RD_BLK_L", 0x80, "data read requests"),
};

static const pmk__umask tlb_flush[] = {
    PMK__UD("ALL", 0xff, "all TLB flushes"),
};

static const pmk__umask stall1[] = {
    PMK__U("INT_PHY_REG_FILE_RSRC_STALL", 0x01,
	   "integer physical register file full"),
    PMK__U("LOAD_QUEUE_RSRC_STALL", 0x02, "load queue full"),
    PMK__U("STORE_QUEUE_RSRC_STALL", 0x04, "store queue full"),
    PMK__U("INT_SCHEDULER_MISC_RSRC_STALL", 0x08,
	   "integer scheduler miscellaneous resource full"),
    PMK__U("TAKEN_BRANCH_BUFFER_RSRC_STALL", 0x10, "taken branch buffer full"),
    PMK__U("FP_REG_FILE_RSRC_STALL", 0x20, "FP register file full"),
    PMK__U("FP_SCHEDULER_FILE_RSRC_STALL", 0x40, "FP scheduler full"),
    PMK__U("FP_MISC_FILE_RSRC_STALL", 0x80, "FP miscellaneous resource full"),
};

static const pmk__umask stall0[] = {
    PMK__UD("ALU_TOKEN_STALL", 0x08, "ALU tokens exhausted"),
};

static const pmk__umask uops_src[] = {
    PMK__U("DECODER_DISPATCHED", 0x01, "ops dispatched from the decoder"),
    PMK__U("OPCACHE_DISPATCHED", 0x02, "ops dispatched from the op cache"),
};

static const pmk__nevent ev[] = {
    PMK__EV0("CYCLES_NOT_IN_HALT", "ls_not_halted_cyc", 0x76, A,
	     "core cycles while not halted"),
    PMK__EV0("RETIRED_INSTRUCTIONS", "ex_ret_instr", 0xc0, A,
	     "instructions retired"),
    PMK__EV0("RETIRED_UOPS", "ex_ret_cops", 0xc1, A, "macro-ops retired"),
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
    PMK__EV0("RETIRED_CONDITIONAL_BRANCH_INSTRUCTIONS", "ex_ret_cond", 0xd1, A,
	     "conditional branches retired"),
    PMK__EV0("RETIRED_FUSED_INSTRUCTIONS", "ex_ret_fus_brnch_inst", 0x1d0, A,
	     "fused compare-and-branch instructions retired"),
    PMK__EV0("DIV_CYCLES_BUSY_COUNT", "ex_div_busy", 0xd3, A,
	     "cycles the divider is busy"),
    PMK__EV0("DIV_OP_COUNT", "ex_div_count", 0xd4, A, "divide ops"),
    PMK__EV("RETIRED_SSE_AVX_FLOPS", "fp_ret_sse_avx_ops", 0x03, A, C, flops,
	    "SSE/AVX floating-point operations retired"),
    PMK__EV("RETIRED_MMX_FP_INSTRUCTIONS", "fp_ret_x87_fp_ops", 0xcb, A, C,
	    mmx_fp, "MMX, x87 and SSE instructions retired"),
    PMK__EV("LS_DISPATCH", "ls_dispatch", 0x29, A, C, ls_disp,
	    "load/store ops dispatched"),
    PMK__EV0("STORE_TO_LOAD_FORWARD", "ls_stlf", 0x35, A,
	     "loads forwarded from a store"),
    PMK__EV0("MISALIGNED_LOADS", "ls_misal_accesses", 0x47, A,
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
    PMK__EV("DATA_CACHE_REFILLS_FROM_SYSTEM", "ls_refills_from_sys", 0x43, A, C,
	    dc_refill, "demand data cache fills by source"),
    PMK__EV("CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS", "l2_cache_req_stat",
	    0x64, A, C, l2_stat, "L2 cache requests by outcome"),
    PMK__EV("REQUESTS_TO_L2_GROUP1", "l2_request_g1", 0x60, A, C, l2_g1,
	    "requests to L2 by kind"),
    PMK__EV("TLB_FLUSHES", "ls_tlb_flush", 0x78, A, C, tlb_flush,
	    "TLB flushes"),
    PMK__EV0("UOPS_QUEUE_EMPTY", "de_dis_uop_queue_empty_di0", 0xa9, A,
	     "cycles the op queue is empty"),
    PMK__EV("UOPS_DISPATCHED_FROM_DECODER", "de_dis_uops_from_decoder", 0xaa, A,
	    C, uops_src, "ops dispatched by source"),
    PMK__EV("DISPATCH_RESOURCE_STALL_CYCLES_1", "de_dis_dispatch_token_stalls1",
	    0xae, A, C, stall1,
	    "cycles dispatch stalls on a back-end resource"),
    PMK__EV("DISPATCH_RESOURCE_STALL_CYCLES_0", "de_dis_dispatch_token_stalls0",
	    0xaf, A, C, stall0, "cycles dispatch stalls on ALU tokens"),
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
    {"PAPI_L1_DCM",
     "DATA_CACHE_REFILLS_FROM_SYSTEM:MABRESP_LCL_L2:LS_MABRESP_LCL_CACHE:"
     "LS_MABRESP_LCL_DRAM:LS_MABRESP_RMT_CACHE:LS_MABRESP_RMT_DRAM"},
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
    {"PAPI_TLB_IM", "L1_ITLB_MISS_L2_ITLB_MISS:IF4K:IF2M:IF1G"},
    {"PAPI_LD_INS", "LS_DISPATCH:LD_DISPATCH"},
    {"PAPI_SR_INS", "LS_DISPATCH:STORE_DISPATCH"},
    {"PAPI_FP_OPS", "RETIRED_SSE_AVX_FLOPS:ANY"},
    {"PAPI_STL_ICY", "UOPS_QUEUE_EMPTY"},
    {"PAPI_RES_STL", "DISPATCH_RESOURCE_STALL_CYCLES_1:"
		     "INT_PHY_REG_FILE_RSRC_STALL:LOAD_QUEUE_RSRC_STALL:"
		     "STORE_QUEUE_RSRC_STALL:INT_SCHEDULER_MISC_RSRC_STALL:"
		     "TAKEN_BRANCH_BUFFER_RSRC_STALL:FP_REG_FILE_RSRC_STALL:"
		     "FP_SCHEDULER_FILE_RSRC_STALL:FP_MISC_FILE_RSRC_STALL"},
};

const pmk__model pmk__model_zen2 = {
    "amd64_fam17h_zen2", "AMD Zen 2", PMK__VENDOR_AMD, ev,
    PMK__N(ev),		 presets,     PMK__N(presets),
};
