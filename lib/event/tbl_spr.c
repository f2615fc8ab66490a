/*
 * tbl_spr.c: Intel Sapphire Rapids (and its core, Golden Cove): PAPI
 * presets only. PAPI 7.0's papi_events.csv has no Sapphire Rapids section
 * and libpfm4 knows its natives, so this table maps presets and names
 * libpfm4's spr events; it has no natives of its own (the source that
 * serves "spr" encodes them, as it encodes the same strings typed alone).
 *
 * The choices follow PAPI's own Ice Lake-SP section (the core before) event
 * for event, with the names Sapphire Rapids' event list gives where they
 * changed: FP_ARITH_INST_RETIRED for Ice Lake's FP_ARITH (same unit masks:
 * scalar 0x01/0x02, 128-bit 0x04/0x08, 256-bit 0x10/0x20, 512-bit
 * 0x40/0x80), LONGEST_LAT_CACHE for libpfm4's LLC_REFERENCES and
 * LLC_MISSES aliases (which its spr table does not carry),
 * OFFCORE_REQUESTS:DATA_RD (umask 0x08, demand and prefetch data reads)
 * for Ice Lake's ALL_DATA_RD (umask 0x08; the event itself moved from
 * 0xB0 to 0x21). Facts from Intel's Sapphire Rapids event list;
 * tests/event/preset_spr.t checks the table against PAPI's icx section and
 * that every string encodes with libpfm4's spr table.
 */
#include "lib/event/tbl.h"

#define FPD(w) "FP_ARITH_INST_RETIRED:" w "_DOUBLE"
#define FPS(w) "FP_ARITH_INST_RETIRED:" w "_SINGLE"

static const pmk__preset_map presets[] = {
    {"PAPI_TOT_CYC", "CPU_CLK_UNHALTED:THREAD_P"},
    {"PAPI_TOT_INS", "INST_RETIRED:ANY_P"},
    {"PAPI_REF_CYC", "UNHALTED_REFERENCE_CYCLES"},
    {"PAPI_LD_INS", "MEM_INST_RETIRED:ALL_LOADS"},
    {"PAPI_SR_INS", "MEM_INST_RETIRED:ALL_STORES"},
    {"PAPI_LST_INS", "MEM_INST_RETIRED:ALL_LOADS MEM_INST_RETIRED:ALL_STORES +"},
    {"PAPI_L1_ICM", "L2_RQSTS:ALL_CODE_RD"},
    {"PAPI_L1_DCM", "L1D:REPLACEMENT"},
    {"PAPI_L1_TCM", "L1D:REPLACEMENT L2_RQSTS:ALL_CODE_RD +"},
    {"PAPI_L2_DCA", "L2_RQSTS:ALL_DEMAND_REFERENCES"},
    {"PAPI_L2_DCR", "L2_RQSTS:ALL_DEMAND_DATA_RD"},
    {"PAPI_L2_ICH", "L2_RQSTS:CODE_RD_HIT"},
    {"PAPI_L2_ICM", "L2_RQSTS:CODE_RD_MISS"},
    {"PAPI_L2_ICR", "L2_RQSTS:ALL_CODE_RD"},
    {"PAPI_L2_DCM", "LONGEST_LAT_CACHE:REFERENCE L2_RQSTS:CODE_RD_MISS -"},
    {"PAPI_L2_ICA", "L2_RQSTS:ALL_CODE_RD"},
    {"PAPI_L2_LDM", "L2_RQSTS:DEMAND_DATA_RD_MISS"},
    {"PAPI_L2_TCA", "L2_RQSTS:ALL_DEMAND_REFERENCES L2_RQSTS:ALL_CODE_RD +"},
    {"PAPI_L2_TCM", "LONGEST_LAT_CACHE:REFERENCE"},
    {"PAPI_L2_TCR", "L2_RQSTS:ALL_DEMAND_DATA_RD L2_RQSTS:ALL_CODE_RD +"},
    {"PAPI_L3_DCA", "LONGEST_LAT_CACHE:REFERENCE L2_RQSTS:CODE_RD_MISS -"},
    {"PAPI_L3_DCR", "OFFCORE_REQUESTS:DEMAND_DATA_RD"},
    {"PAPI_L3_ICA", "L2_RQSTS:CODE_RD_MISS"},
    {"PAPI_L3_ICR", "L2_RQSTS:CODE_RD_MISS"},
    {"PAPI_L3_LDM", "MEM_LOAD_RETIRED:L3_MISS"},
    {"PAPI_L3_TCA", "LONGEST_LAT_CACHE:REFERENCE"},
    {"PAPI_L3_TCM", "LONGEST_LAT_CACHE:MISS"},
    {"PAPI_CA_SHR", "OFFCORE_REQUESTS:DATA_RD"},
    {"PAPI_BR_UCN", "BR_INST_RETIRED:ALL_BRANCHES BR_INST_RETIRED:COND -"},
    {"PAPI_BR_CN", "BR_INST_RETIRED:COND"},
    {"PAPI_BR_TKN", "BR_INST_RETIRED:COND_TAKEN"},
    {"PAPI_BR_NTK", "BR_INST_RETIRED:COND_NTAKEN"},
    {"PAPI_BR_MSP", "BR_MISP_RETIRED:COND"},
    {"PAPI_BR_PRC", "BR_INST_RETIRED:COND BR_MISP_RETIRED:COND -"},
    {"PAPI_BR_INS", "BR_INST_RETIRED:ALL_BRANCHES"},
    {"PAPI_DP_OPS", FPD("SCALAR") " " FPD("128B_PACKED") " 2 * + " FPD(
			"256B_PACKED") " 4 * + " FPD("512B_PACKED") " 8 * +"},
    {"PAPI_SP_OPS", FPS("SCALAR") " " FPS("128B_PACKED") " 4 * + " FPS(
			"256B_PACKED") " 8 * + " FPS("512B_PACKED") " 16 * +"},
    {"PAPI_VEC_DP", FPD("SCALAR") " " FPD("128B_PACKED") " " FPD(
			"256B_PACKED") " " FPD("512B_PACKED") " + + +"},
    {"PAPI_VEC_SP", FPS("SCALAR") " " FPS("128B_PACKED") " " FPS(
			"256B_PACKED") " " FPS("512B_PACKED") " + + +"},
};

const pmk__model pmk__model_spr = {
    "spr", "Intel Sapphire Rapids", PMK__VENDOR_INTEL, NULL, 0,
    presets, PMK__N(presets),
};
