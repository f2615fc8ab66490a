/*
 * tbl_adl.c: Intel Alder Lake and Raptor Lake's performance cores (Golden
 * Cove, the cpu_core PMU of the hybrid): PAPI presets only. Neither PAPI
 * 7.0's file nor libpfm4 4.13 has these cores; their natives are perf's
 * event names (perf's x86/alderlake JSON, the cpu_core events,
 * src_perf.c), so this table names those.
 *
 * Golden Cove is Sapphire Rapids' core: the presets are tbl_spr.c's, event
 * for event (the same codes in perf's alderlake and sapphirerapids
 * files), less what the client part does not have: no 512-bit FP (AVX-512
 * is off on these parts; perf's file has no such FP_ARITH_INST_RETIRED
 * masks), no L2_RQSTS.ALL_DEMAND_REFERENCES (so no PAPI_L2_DCA and
 * PAPI_L2_TCA), and CPU_CLK_UNHALTED.REF_TSC is a fixed-counter event
 * perf's file gives no code for (PAPI_REF_CYC stays the kernel's
 * ref-cycles). tests/event/preset_spr.t checks the table against
 * tbl_spr.c's.
 */
#include "lib/event/tbl.h"

#define FPD(w) "FP_ARITH_INST_RETIRED." w "_DOUBLE"
#define FPS(w) "FP_ARITH_INST_RETIRED." w "_SINGLE"

static const pmk__preset_map presets[] = {
    {"PAPI_TOT_CYC", "CPU_CLK_UNHALTED.THREAD_P"},
    {"PAPI_TOT_INS", "INST_RETIRED.ANY_P"},
    {"PAPI_LD_INS", "MEM_INST_RETIRED.ALL_LOADS"},
    {"PAPI_SR_INS", "MEM_INST_RETIRED.ALL_STORES"},
    {"PAPI_LST_INS", "MEM_INST_RETIRED.ALL_LOADS MEM_INST_RETIRED.ALL_STORES +"},
    {"PAPI_L1_ICM", "L2_RQSTS.ALL_CODE_RD"},
    {"PAPI_L1_DCM", "L1D.REPLACEMENT"},
    {"PAPI_L1_TCM", "L1D.REPLACEMENT L2_RQSTS.ALL_CODE_RD +"},
    {"PAPI_L2_DCR", "L2_RQSTS.ALL_DEMAND_DATA_RD"},
    {"PAPI_L2_ICH", "L2_RQSTS.CODE_RD_HIT"},
    {"PAPI_L2_ICM", "L2_RQSTS.CODE_RD_MISS"},
    {"PAPI_L2_ICR", "L2_RQSTS.ALL_CODE_RD"},
    {"PAPI_L2_DCM", "LONGEST_LAT_CACHE.REFERENCE L2_RQSTS.CODE_RD_MISS -"},
    {"PAPI_L2_ICA", "L2_RQSTS.ALL_CODE_RD"},
    {"PAPI_L2_LDM", "L2_RQSTS.DEMAND_DATA_RD_MISS"},
    {"PAPI_L2_TCM", "LONGEST_LAT_CACHE.REFERENCE"},
    {"PAPI_L2_TCR", "L2_RQSTS.ALL_DEMAND_DATA_RD L2_RQSTS.ALL_CODE_RD +"},
    {"PAPI_L3_DCA", "LONGEST_LAT_CACHE.REFERENCE L2_RQSTS.CODE_RD_MISS -"},
    {"PAPI_L3_DCR", "OFFCORE_REQUESTS.DEMAND_DATA_RD"},
    {"PAPI_L3_ICA", "L2_RQSTS.CODE_RD_MISS"},
    {"PAPI_L3_ICR", "L2_RQSTS.CODE_RD_MISS"},
    {"PAPI_L3_LDM", "MEM_LOAD_RETIRED.L3_MISS"},
    {"PAPI_L3_TCA", "LONGEST_LAT_CACHE.REFERENCE"},
    {"PAPI_L3_TCM", "LONGEST_LAT_CACHE.MISS"},
    {"PAPI_CA_SHR", "OFFCORE_REQUESTS.DATA_RD"},
    {"PAPI_BR_UCN", "BR_INST_RETIRED.ALL_BRANCHES BR_INST_RETIRED.COND -"},
    {"PAPI_BR_CN", "BR_INST_RETIRED.COND"},
    {"PAPI_BR_TKN", "BR_INST_RETIRED.COND_TAKEN"},
    {"PAPI_BR_NTK", "BR_INST_RETIRED.COND_NTAKEN"},
    {"PAPI_BR_MSP", "BR_MISP_RETIRED.COND"},
    {"PAPI_BR_PRC", "BR_INST_RETIRED.COND BR_MISP_RETIRED.COND -"},
    {"PAPI_BR_INS", "BR_INST_RETIRED.ALL_BRANCHES"},
    {"PAPI_DP_OPS", FPD("SCALAR") " " FPD("128B_PACKED") " 2 * + " FPD(
			"256B_PACKED") " 4 * +"},
    {"PAPI_SP_OPS", FPS("SCALAR") " " FPS("128B_PACKED") " 4 * + " FPS(
			"256B_PACKED") " 8 * +"},
    {"PAPI_VEC_DP", FPD("SCALAR") " " FPD("128B_PACKED") " " FPD(
			"256B_PACKED") " + +"},
    {"PAPI_VEC_SP", FPS("SCALAR") " " FPS("128B_PACKED") " " FPS(
			"256B_PACKED") " + +"},
};

const pmk__model pmk__model_adl_glc = {
    "adl_glc", "Intel Alder Lake P-core", PMK__VENDOR_INTEL, NULL, 0,
    presets, PMK__N(presets),
};
