# opteron8358.h: machine constants for the AMD Opteron 8358 SE, in cycles.
# Source: seed 002 (Moore & Ralph, ICCS 2011), Table 1 (from lmbench and
# vendor documentation). `pmkit probe --constants FILE` writes a file of
# the same form for this machine (Data_L1_lat, L2_lat, L3_lat, Mem_lat,
# BR_miss_lat, FP_*_lat, Data_TLB_lat where measured).
#define Data_L1_lat 3
#define Instr_L1_lat 2
#define L2_lat 17
#define L3_lat 60
#define Mem_lat 540
#define BR_lat 2
#define BR_miss_lat 12
#define FP_add_sub_mul_lat 4
#define FP_div_sqrt_lat 38
#define Data_TLB_lat 50
#define Instr_TLB_lat 50
