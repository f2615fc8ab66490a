/*
 * test_pfm_compare.c: pmkit's native encodings against libpfm4's.
 *
 * For each model libpfm4 knows, libpfm4 is forced onto that model
 * (LIBPFM_FORCE_PMU, then pfm_initialize) and asked for the perf encoding
 * (PFM_OS_PERF_EVENT_EXT) of each string; pmkit parses the same string
 * with the same "MODEL::" prefix. type, config, config1, the three
 * exclude bits and precise_ip must be equal, and a string libpfm4 rejects
 * must be rejected by pmkit too.
 *
 * Three passes: a hand-written table of strings exercising unit masks,
 * several unit masks, u/k/h, e, i, c=N, t and their combinations; every
 * EVENT:UMASK of pmkit's own tables (each checked fact by fact); and the
 * hand table again through the public pmk_event_parse() on a target with
 * the model chosen (the path of `pmkit encode --model`).
 * Table entries libpfm4 4.13 does not have are listed in `divergent`.
 * Without libpfm4 the test skips. On arm64, whose libpfm4 has no x86 PMU,
 * only the public-parser pass runs, with Arm strings (ARM_CASES) over
 * libpfm4's Arm models.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/support/t.h"
#include "lib/event/tbl.h"

#if PMK_HAVE_PFM
#include "tests/event/pfm_util.h"
#endif

#if defined(__aarch64__)
/* libpfm4 is built with its own architecture's PMUs only: on arm64 it has
 * none of the x86 models pmkit's tables cover, so only the public-parser
 * pass runs, over libpfm4's Arm models (which pmkit serves through
 * libpfm4; pmkit has no Arm tables). */
static const char *const models[] = {"arm_ac57", "arm_ac53", "arm_n1",
				     "arm_v1", "arm_n2"};
#define ARM_CASES(m)                                                           \
	{m, "INST_RETIRED"}, {m, "INST_RETIRED:u"}, {m, "INST_RETIRED:k"},     \
	    {m, "INST_RETIRED:h"}, {m, "INST_RETIRED:u:k"},                    \
	    {m, "INST_RETIRED:k:h"}, {m, "INST_RETIRED:u=1:k=0"},              \
	    {m, "INST_RETIRED:u:u"}, {m, "inst_retired"},                      \
	    {m, "Cpu_Cycles:u"}, {m, "CPU_CYCLES:k"},                          \
	    {m, "L1D_CACHE_REFILL"}, {m, "L1D_CACHE_REFILL:u"},                \
	    {m, "L1D_CACHE:k"}, {m, "L2D_CACHE_REFILL:u:k"},                   \
	    {m, "BR_MIS_PRED:u"}, {m, "BR_PRED"}, {m, "MEM_ACCESS:u"},         \
	    {m, "STALL_FRONTEND"}, {m, "STALL_BACKEND:u"},                     \
	    {m, "INST_SPEC"}, {m, "EXC_TAKEN:k"}, {m, "L1I_TLB_REFILL"},       \
	    /* refused by both: Arm events take no threshold, edge, invert or \
	     * unit mask */                                                    \
	    {m, "INST_RETIRED:c=2"}, {m, "INST_RETIRED:e"},                    \
	    {m, "INST_RETIRED:i"}, {m, "INST_RETIRED:ANY"},                    \
	    {m, "INST_RETIRED:u=2"}, {m, "INST_RETIRED:"},                     \
	    {m, "NO_SUCH_EVENT"}, {m, "INST_RETIRED::u"}
static const struct {
	const char *model, *s;
} cases[] = {
    ARM_CASES("arm_ac57"), ARM_CASES("arm_ac53"), ARM_CASES("arm_n1"),
    ARM_CASES("arm_v1"),   ARM_CASES("arm_n2"),
};
static const char *const divergent[] = {NULL};
#else
static const char *const models[] = {
    "skl", "icl", "amd64_fam17h_zen2", "amd64_fam19h_zen3", "amd64_fam19h_zen4",
};

/* Strings, by model, as a user would write them. */
static const struct {
	const char *model, *s;
} cases[] = {
    /* Skylake */
    {"skl", "INST_RETIRED:ANY_P"},
    {"skl", "INST_RETIRED"},
    {"skl", "INST_RETIRED:ANY_P:u"},
    {"skl", "INST_RETIRED:ANY_P:k"},
    {"skl", "INST_RETIRED:ANY_P:u:k"},
    {"skl", "INST_RETIRED:ANY_P:u=0"},
    {"skl", "INST_RETIRED:ANY_P:u=1:k=0"},
    {"skl", "INST_RETIRED:ANY_P:c=1"},
    {"skl", "INST_RETIRED:ANY_P:c=1:i"},
    {"skl", "INST_RETIRED:ANY_P:c=1:e"},
    {"skl", "INST_RETIRED:ANY_P:c=255"},
    {"skl", "INST_RETIRED:ANY_P:c=0x10"},
    {"skl", "INST_RETIRED:ANY_P:t"},
    {"skl", "INST_RETIRED:ANY_P:t=1:intx=1:intxcp=1"},
    {"skl", "INST_RETIRED:ANY_P:i"},
    {"skl", "INST_RETIRED:ANY_P:ANY_P"},
    {"skl", "INST_RETIRED:PREC_DIST:precise=2"},
    {"skl", "INST_RETIRED:TOTAL_CYCLES"},
    {"skl", "INST_RETIRED:TOTAL_CYCLES:e"},
    {"skl", "inst_retired:any_p"},
    {"skl", "UNHALTED_CORE_CYCLES"},
    {"skl", "UNHALTED_CORE_CYCLES:u:c=2:i"},
    {"skl", "UNHALTED_REFERENCE_CYCLES"},
    {"skl", "UNHALTED_REFERENCE_CYCLES:u"},
    {"skl", "UNHALTED_REFERENCE_CYCLES:c=1"},
    {"skl", "INSTRUCTION_RETIRED:k"},
    {"skl", "CPU_CLK_UNHALTED"},
    {"skl", "CPU_CLK_THREAD_UNHALTED:REF_XCLK"},
    {"skl", "CPU_CLK_THREAD_UNHALTED:THREAD_P:REF_XCLK"},
    {"skl", "CPU_CLK_THREAD_UNHALTED:RING0_TRANS"},
    {"skl", "BR_INST_RETIRED"},
    {"skl", "BR_INST_RETIRED:CONDITIONAL:u"},
    {"skl", "BR_INST_RETIRED:CONDITIONAL:NEAR_CALL"},
    {"skl", "BR_MISP_RETIRED:ALL_BRANCHES:k:c=3:i:e"},
    {"skl", "BR_MISP_RETIRED:precise=3"},
    {"skl", "UOPS_ISSUED:ANY:c=2:e:i"},
    {"skl", "UOPS_ISSUED:ANY:e"},
    {"skl", "UOPS_ISSUED:STALL_CYCLES"},
    {"skl", "UOPS_ISSUED:STALL_CYCLES:c=1"},
    {"skl", "UOPS_ISSUED:STALL_CYCLES:c=2"},
    {"skl", "UOPS_ISSUED:STALL_CYCLES:i=1:u"},
    {"skl", "UOPS_ISSUED:STALL_CYCLES:e"},
    {"skl", "UOPS_RETIRED:RETIRE_SLOTS"},
    {"skl", "UOPS_RETIRED:RETIRE_SLOTS:c=4:i"},
    {"skl", "IDQ_UOPS_NOT_DELIVERED:CORE"},
    {"skl", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE:u"},
    {"skl", "INT_MISC:RECOVERY_CYCLES"},
    {"skl", "INT_MISC:RECOVERY_CYCLES_ANY"},
    {"skl", "INT_MISC:RECOVERY_CYCLES:t"},
    {"skl", "L1D:REPLACEMENT"},
    {"skl", "L1D:REPLACEMENT:e"},
    {"skl", "L1D:REPLACEMENT:precise=1"},
    {"skl", "L2_RQSTS:MISS:k"},
    {"skl", "L2_RQSTS:DEMAND_DATA_RD_MISS:CODE_RD_MISS"},
    {"skl", "L2_RQSTS"},
    {"skl", "LONGEST_LAT_CACHE:MISS:u:k"},
    {"skl", "DTLB_LOAD_MISSES:WALK_ACTIVE"},
    {"skl", "DTLB_LOAD_MISSES:WALK_PENDING:c=1"},
    {"skl", "DTLB_LOAD_MISSES:WALK_ACTIVE:c=1"},
    {"skl", "MEM_LOAD_RETIRED:L3_MISS:precise=2"},
    {"skl", "MEM_LOAD_RETIRED:L1_HIT:L2_HIT"},
    {"skl", "MEM_INST_RETIRED"},
    {"skl", "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE:SCALAR_SINGLE"},
    {"skl", "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE:256B_PACKED_DOUBLE:u"},
    {"skl", "FP_ARITH_INST_RETIRED"},
    {"skl", "CYCLE_ACTIVITY:STALLS_MEM_ANY"},
    {"skl", "CYCLE_ACTIVITY:STALLS_L2_MISS:k"},
    {"skl", "MACHINE_CLEARS:COUNT"},
    {"skl", "MACHINE_CLEARS:COUNT:e=0"},
    {"skl", "UOPS_EXECUTED:THREAD_CYCLES_GE_2"},
    {"skl", "UOPS_EXECUTED:X87:CORE"},
    {"skl", "UOPS_DISPATCHED"},
    {"skl", "ARITH"},
    {"skl", "ARITH:DIVIDER_ACTIVE:e"},
    {"skl", "RESOURCE_STALLS"},
    {"skl", "RESOURCE_STALLS:SB:c=1:i:e"},
    {"skl", "ICACHE_64B:IFTAG_MISS:u"},
    {"skl", "IDQ:MS_SWITCHES"},
    {"skl", "INST_RETIRED:ANY_P:h"},
    {"skl", "INST_RETIRED:ANY_P:c=256"},
    {"skl", "INST_RETIRED:ANY_P:c"},
    {"skl", "INST_RETIRED:ANY_P:u=2"},
    {"skl", "INST_RETIRED:ANY_P:zz"},
    {"skl", "INST_RETIRED:ANY_P:c=1:c=2"},
    {"skl", "INST_RETIRED:ANY_P:u:u"},
    {"skl", "INST_RETIRED:ALL:ANY_P"},
    {"skl", "NO_SUCH_EVENT"},
    /* Ice Lake */
    {"icl", "INST_RETIRED:ANY"},
    {"icl", "INST_RETIRED:ANY:u"},
    {"icl", "INST_RETIRED:ANY_P:k:c=1:i"},
    {"icl", "INST_RETIRED"},
    {"icl", "INST_RETIRED:STALL_CYCLES"},
    {"icl", "INST_RETIRED:NOP:precise=1"},
    {"icl", "CPU_CLK_UNHALTED:THREAD_P"},
    {"icl", "CPU_CLK_UNHALTED:REF_TSC"},
    {"icl", "CPU_CLK_UNHALTED:REF_TSC:k"},
    {"icl", "CPU_CLK_UNHALTED:DISTRIBUTED"},
    {"icl", "CPU_CLK_UNHALTED"},
    {"icl", "TOPDOWN:SLOTS"},
    {"icl", "TOPDOWN:SLOTS:u"},
    {"icl", "TOPDOWN:SLOTS:c=1"},
    {"icl", "TOPDOWN:SLOTS_P"},
    {"icl", "UNHALTED_CORE_CYCLES:t"},
    {"icl", "UNHALTED_CORE_CYCLES:e:c=1"},
    {"icl", "UNHALTED_REFERENCE_CYCLES:t"},
    {"icl", "BR_INST_RETIRED:COND"},
    {"icl", "BR_INST_RETIRED:COND_TAKEN:u"},
    {"icl", "BR_INST_RETIRED:INDIRECT:k:precise=2"},
    {"icl", "BR_MISP_RETIRED:INDIRECT_CALL"},
    {"icl", "BR_MISP_RETIRED:COND_NTAKEN:c=1:e"},
    {"icl", "UOPS_ISSUED:ANY"},
    {"icl", "UOPS_ISSUED:STALL_CYCLES:u"},
    {"icl", "UOPS_RETIRED:SLOTS"},
    {"icl", "UOPS_RETIRED:TOTAL_CYCLES"},
    {"icl", "IDQ_UOPS_NOT_DELIVERED:CORE"},
    {"icl", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE"},
    {"icl", "INT_MISC:UOP_DROPPING"},
    {"icl", "INT_MISC:CLEARS_COUNT"},
    {"icl", "L2_RQSTS:SWPF_MISS:u"},
    {"icl", "LONGEST_LAT_CACHE:REFERENCES"},
    {"icl", "FP_ARITH_INST_RETIRED:SCALAR:VECTOR"},
    {"icl", "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE:k"},
    {"icl", "CYCLE_ACTIVITY:STALLS_TOTAL"},
    {"icl", "EXE_ACTIVITY:EXE_BOUND_0_PORTS"},
    {"icl", "ARITH"},
    {"icl", "ASSISTS:ANY:c=1"},
    {"icl", "OFFCORE_REQUESTS"},
    {"icl", "MEM_LOAD_RETIRED:L3_MISS:precise=3"},
    {"icl", "L1D_PEND_MISS:L2_STALL:i:c=1"},
    {"icl", "UOPS_EXECUTED:CYCLES_GE_3"},
    {"icl", "INST_RETIRED:ANY:zz"},
    {"icl", "TOPDOWN:SLOTS:c=300"},
    {"icl", "TOPDOWN"},
    /* Zen 2 */
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:u"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:k"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:h"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:u:h"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:h=0"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:e"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:i:c=3"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:e=1:i=1:c=1:k"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:t"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:precise=1"},
    {"amd64_fam17h_zen2", "CYCLES_NOT_IN_HALT"},
    {"amd64_fam17h_zen2", "CYCLES_NOT_IN_HALT:c=255"},
    {"amd64_fam17h_zen2", "CYCLES_NOT_IN_HALT:c=256"},
    {"amd64_fam17h_zen2", "RETIRED_UOPS:u"},
    {"amd64_fam17h_zen2", "RETIRED_FUSED_INSTRUCTIONS"},
    {"amd64_fam17h_zen2", "RETIRED_FUSED_INSTRUCTIONS:k:c=1"},
    {"amd64_fam17h_zen2", "RETIRED_SSE_AVX_FLOPS"},
    {"amd64_fam17h_zen2", "RETIRED_SSE_AVX_FLOPS:MULT_FLOPS:MAC_FLOPS"},
    {"amd64_fam17h_zen2", "RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS:c=2"},
    {"amd64_fam17h_zen2", "LS_DISPATCH:LD_DISPATCH:STORE_DISPATCH"},
    {"amd64_fam17h_zen2", "LS_DISPATCH"},
    {"amd64_fam17h_zen2", "LS_DISPATCH:LD_DISPATCH:LD_DISPATCH"},
    {"amd64_fam17h_zen2", "L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:u"},
    {"amd64_fam17h_zen2",
     "L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:TLB_RELOAD_2M_L2_MISS:"
     "TLB_RELOAD_1G_L2_MISS"},
    {"amd64_fam17h_zen2", "L1_ITLB_MISS_L2_ITLB_MISS:IF4K:IF2M:IF1G"},
    {"amd64_fam17h_zen2", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:"
			  "IC_FILL_MISS:LS_RD_BLK_C"},
    {"amd64_fam17h_zen2", "REQUESTS_TO_L2_GROUP1:RD_BLK_L:RD_BLK_X"},
    {"amd64_fam17h_zen2", "TLB_FLUSHES"},
    {"amd64_fam17h_zen2", "DISPATCH_RESOURCE_STALL_CYCLES_0"},
    {"amd64_fam17h_zen2", "DISPATCH_RESOURCE_STALL_CYCLES_1:"
			  "LOAD_QUEUE_RSRC_STALL:STORE_QUEUE_RSRC_STALL:k"},
    {"amd64_fam17h_zen2", "RETIRED_MMX_FP_INSTRUCTIONS:SSE_INSTR:X87_INSTR"},
    {"amd64_fam17h_zen2", "UOPS_QUEUE_EMPTY:c=1:i"},
    {"amd64_fam17h_zen2", "LS_DISPATCH:NOPE"},
    {"amd64_fam17h_zen2", "RETIRED_INSTRUCTIONS:q"},
    /* Zen 3 */
    {"amd64_fam19h_zen3", "RETIRED_OPS"},
    {"amd64_fam19h_zen3", "RETIRED_OPS:u:k"},
    {"amd64_fam19h_zen3", "RETIRED_INDIRECT_BRANCH_INSTRUCTIONS"},
    {"amd64_fam19h_zen3", "IC_TAG_HIT_MISS:IC_MISS"},
    {"amd64_fam19h_zen3", "IC_TAG_HIT_MISS:IC_HIT:IC_MISS"},
    {"amd64_fam19h_zen3", "IC_TAG_HIT_MISS"},
    {"amd64_fam19h_zen3", "OP_CACHE_HIT_MISS:OC_MISS:u"},
    {"amd64_fam19h_zen3", "OPS_SOURCE_DISPATCHED_FROM_DECODER:"
			  "X86DECODER_DISPATCHED:OPCACHE_DISPATCHED"},
    {"amd64_fam19h_zen3", "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:"
			  "MEM_IO_RMT"},
    {"amd64_fam19h_zen3", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:k"},
    {"amd64_fam19h_zen3", "MISALIGNED_LOADS:MA4K"},
    {"amd64_fam19h_zen3", "MISALIGNED_LOADS:MA64:MA4K:e"},
    {"amd64_fam19h_zen3", "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K"},
    {"amd64_fam19h_zen3", "DISPATCH_RESOURCE_STALL_CYCLES_2:"
			  "RETIRE_TOKEN_STALL:c=1"},
    {"amd64_fam19h_zen3", "UOPS_QUEUE_EMPTY:h"},
    {"amd64_fam19h_zen3", "RETIRED_SSE_AVX_FLOPS:DIV_FLOPS:u:k:h"},
    {"amd64_fam19h_zen3", "DIV_CYCLES_BUSY_COUNT:e:c=1"},
    {"amd64_fam19h_zen3", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED:i=1"},
    {"amd64_fam19h_zen3", "RETIRED_INSTRUCTIONS:c=1:c=2"},
    {"amd64_fam19h_zen3", "RETIRED_INSTRUCTIONS:c=0x1ff"},
    /* Zen 4 */
    {"amd64_fam19h_zen4", "RETIRED_INSTRUCTIONS"},
    {"amd64_fam19h_zen4", "CYCLES_NOT_IN_HALT:u"},
    {"amd64_fam19h_zen4", "CYCLES_NOT_IN_HALT:h"},
    {"amd64_fam19h_zen4", "CYCLES_NOT_IN_HALT:k:h"},
    {"amd64_fam19h_zen4", "CYCLES_NOT_IN_HALT:e=1:i=1:c=1"},
    {"amd64_fam19h_zen4", "DISPATCH_STALLS_1:FE_NO_OPS"},
    {"amd64_fam19h_zen4", "DISPATCH_STALLS_1:FE_NO_OPS:c=6"},
    {"amd64_fam19h_zen4", "DISPATCH_STALLS_1:BE_STALLS:u"},
    {"amd64_fam19h_zen4", "DISPATCH_STALLS_1:SMT_CONTENTION:k"},
    {"amd64_fam19h_zen4", "DISPATCH_STALLS_1:FE_NO_OPS:BE_STALLS:c=6"},
    {"amd64_fam19h_zen4", "DISPATCH_STALLS_1"},
    {"amd64_fam19h_zen4", "OPS_QUEUE_EMPTY:u"},
    {"amd64_fam19h_zen4", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:"
			  "OPCACHE:LOOP_BUFFER"},
    {"amd64_fam19h_zen4", "RETIRED_OPS:u"},
    {"amd64_fam19h_zen4", "RETIRED_UCODE_OPS"},
    {"amd64_fam19h_zen4", "RETIRED_UCODE_INSTRUCTIONS:k"},
    {"amd64_fam19h_zen4", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD"},
    {"amd64_fam19h_zen4", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU:u"},
    {"amd64_fam19h_zen4", "CYCLES_NO_RETIRE:EMPTY:NOT_COMPLETE_MISSING_LOAD"},
    {"amd64_fam19h_zen4", "RESYNCS"},
    {"amd64_fam19h_zen4", "RETIRED_SSE_AVX_FLOPS"},
    {"amd64_fam19h_zen4", "RETIRED_SSE_AVX_FLOPS:BFLOAT_MAC_FLOPS"},
    {"amd64_fam19h_zen4", "IC_TAG_HIT_MISS"},
    {"amd64_fam19h_zen4", "OP_CACHE_HIT_MISS"},
    {"amd64_fam19h_zen4", "REQUESTS_TO_L2_GROUP1:MISC:PREFETCH_L2_CMD"},
    {"amd64_fam19h_zen4", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR:"
			  "DRAM_IO_FAR:ALT_MEM_NEAR_FAR"},
    {"amd64_fam19h_zen4", "LS_DISPATCH:LD_ST_DISPATCH:u:c=1"},
    {"amd64_fam19h_zen4", "L1_DTLB_MISS:TLB_RELOAD_COALESCED_PAGE_HIT:e"},
    {"amd64_fam19h_zen4", "RETIRED_TAKEN_BRANCH_INSTRUCTIONS_MISPREDICTED"},
    {"amd64_fam19h_zen4", "RETIRED_NEAR_RETURNS:k:h"},
    {"amd64_fam19h_zen4", "RETIRED_FP_OPS_BY_WIDTH:PACK256_UOPS_RETIRED"},
    {"amd64_fam19h_zen4", "DISPATCH_STALLS_1:NOPE"},
    {"amd64_fam19h_zen4", "CYCLES_NOT_IN_HALT:precise=1"},
};

/* pmkit table entries libpfm4 4.13 does not have (EVENT:UMASK). */
static const char *const divergent[] = {
    /* SDM: TOPDOWN.BACKEND_BOUND_SLOTS is EventSel A4H UMask 02H;
     * libpfm4 4.13 encodes it as 0x0200 (event 0x00) */
    "icl::TOPDOWN:BACKEND_BOUND_SLOTS",
    /* our name for "all sources" (0x07) of the op-source event */
    "amd64_fam19h_zen4::OPS_SOURCE_DISPATCHED_FROM_DECODER:ALL",
    /* our name for front-end-or-back-end empty slots (0x1f) */
    "amd64_fam19h_zen4::DISPATCH_STALLS_1:FE_OR_BE_STALLS",
};
#endif

#if PMK_HAVE_PFM
static struct enc pmk_enc(const char *s)
{
	pmk_event ev;
	pmk_diag d;
	memset(&ev, 0, sizeof ev);
	pmk_diag_clear(&d);
	return pmk_enc_of(
	    pmk__native_parse_model(NULL, "cpu", s, 1, &ev, &d), &ev);
}

/* The same through the public parser (what `pmkit encode --model M`
 * does): a target with a core PMU "cpu" and the model chosen, and the
 * string without its MODEL:: prefix. */
static pmk_target *public_target;

static struct enc pub_enc(const char *s)
{
	pmk_event ev;
	pmk_diag d;
	memset(&ev, 0, sizeof ev);
	pmk_diag_clear(&d);
	return pmk_enc_of(pmk_event_parse(public_target, s, &ev, &d), &ev);
}

static int n_equal, n_both_reject, n_models_done;

/* Compare one string; returns 1 when it agrees. */
static int compare(const char *full)
{
	struct enc p = pfm_enc(full), k = pmk_enc(full);
	if ((p.rc != PFM_SUCCESS) != (k.rc != 0) ||
	    (!p.rc && !k.rc &&
	     (p.type != k.type || p.config != k.config ||
	      p.config1 != k.config1 || p.xu != k.xu || p.xk != k.xk ||
	      p.xh != k.xh || p.precise != k.precise)))
		printf("# differs: %s: libpfm4 %s config=%#llx u/k/h=%d%d%d "
		       "p=%d; pmkit %s config=%#llx u/k/h=%d%d%d p=%d\n",
		       full, p.rc ? pfm_strerror(p.rc) : "ok",
		       (unsigned long long)p.config, p.xu, p.xk, p.xh,
		       p.precise, k.rc ? pmk_strerror(k.rc) : "ok",
		       (unsigned long long)k.config, k.xu, k.xk, k.xh,
		       k.precise);
	if (p.rc != PFM_SUCCESS || k.rc != 0) {
		T_CHECKF(p.rc != PFM_SUCCESS && k.rc != 0,
			 "%s: libpfm4 %s, pmkit %s", full,
			 p.rc ? pfm_strerror(p.rc) : "accepts",
			 k.rc ? pmk_strerror(k.rc) : "accepts");
		if (p.rc != PFM_SUCCESS && k.rc != 0)
			n_both_reject++;
		return p.rc != PFM_SUCCESS && k.rc != 0;
	}
	T_CHECKF(p.type == k.type && p.config == k.config &&
		     p.config1 == k.config1 && p.xu == k.xu && p.xk == k.xk &&
		     p.xh == k.xh && p.precise == k.precise,
		 "%s: libpfm4 type=%u config=%#llx c1=%#llx u/k/h=%d%d%d p=%d, "
		 "pmkit type=%u config=%#llx c1=%#llx u/k/h=%d%d%d p=%d",
		 full, p.type, (unsigned long long)p.config,
		 (unsigned long long)p.config1, p.xu, p.xk, p.xh, p.precise,
		 k.type, (unsigned long long)k.config,
		 (unsigned long long)k.config1, k.xu, k.xk, k.xh, k.precise);
	n_equal++;
	return 1;
}

static int force(const char *model)
{
	pfm_terminate();
	setenv("LIBPFM_FORCE_PMU", model, 1);
	return pfm_initialize() == PFM_SUCCESS && pfm_has_pmu(model);
}

static int is_divergent(const char *s)
{
	for (int i = 0; i < PMK__N(divergent); i++)
		if (divergent[i] && !strcmp(s, divergent[i]))
			return 1;
	return 0;
}

#if defined(__aarch64__)
#define NO_ARM_TABLES                                                          \
	T_SKIP("pmkit's tables are x86 models and libpfm4 for arm64 has none " \
	       "of them; on arm64 the Arm strings are compared through "      \
	       "pmk_event_parse (public_parser) and test_pfm_sample")
#else
#define NO_ARM_TABLES (void)0
#endif

static void test_hand_table(void)
{
	char full[256];
	NO_ARM_TABLES;
	n_equal = n_both_reject = n_models_done = 0;
	for (int m = 0; m < PMK__N(models); m++) {
		if (!force(models[m]))
			T_SKIP("libpfm4 here has no %s PMU (it carries its own "
			       "architecture's PMUs only; pmkit's tables are "
			       "x86 models)",
			       models[m]);
		n_models_done++;
		for (int i = 0; i < PMK__N(cases); i++) {
			if (strcmp(cases[i].model, models[m]))
				continue;
			snprintf(full, sizeof full, "%s::%s", models[m],
				 cases[i].s);
			compare(full);
		}
	}
	printf("# hand table: %d strings encode equal, %d rejected by both, "
	       "%d models\n",
	       n_equal, n_both_reject, n_models_done);
	T_CHECK(n_models_done >= 4);
	T_CHECKF(n_equal + n_both_reject >= 200, "only %d strings compared",
		 n_equal + n_both_reject);
}

static void test_public_parser(void)
{
	char full[256];
	int equal = 0, rejected = 0;
	for (int m = 0; m < PMK__N(models); m++) {
		if (!force(models[m]))
			T_SKIP("libpfm4 here has no %s PMU (it carries its own "
			       "architecture's PMUs only; pmkit's tables are "
			       "x86 models)",
			       models[m]);
		public_target = pmk_target_new();
		T_ASSERT(public_target != NULL);
		T_ASSERT(pmk_target_add_pmu(public_target, "cpu", PMK_TYPE_RAW,
					    1) == 0);
		T_ASSERT(pmk_target_set_model(public_target, models[m]) == 0);
		for (int i = 0; i < PMK__N(cases); i++) {
			struct enc p, k;
			if (strcmp(cases[i].model, models[m]))
				continue;
			snprintf(full, sizeof full, "%s::%s", models[m],
				 cases[i].s);
			p = pfm_enc(full);
			k = pub_enc(cases[i].s);
			if (p.rc != PFM_SUCCESS || k.rc != 0) {
				T_CHECKF(p.rc != PFM_SUCCESS && k.rc != 0,
					 "%s: libpfm4 %s, pmk_event_parse %s",
					 full, p.rc ? "rejects" : "accepts",
					 k.rc ? pmk_strerror(k.rc) : "accepts");
				rejected++;
				continue;
			}
			T_CHECKF(p.type == k.type && p.config == k.config &&
				     p.config1 == k.config1 && p.xu == k.xu &&
				     p.xk == k.xk && p.xh == k.xh &&
				     p.precise == k.precise,
				 "%s: libpfm4 config=%#llx u/k/h=%d%d%d, "
				 "pmk_event_parse config=%#llx u/k/h=%d%d%d",
				 full, (unsigned long long)p.config, p.xu, p.xk,
				 p.xh, (unsigned long long)k.config, k.xu, k.xk,
				 k.xh);
			equal++;
		}
		pmk_target_free(public_target);
		public_target = NULL;
	}
	printf("# pmk_event_parse: %d strings encode equal, %d rejected by "
	       "both\n",
	       equal, rejected);
	T_CHECK(equal + rejected == PMK__N(cases));
}

/* Every event and unit mask of pmkit's tables, plain and with :u. */
static void test_every_table_entry(void)
{
	char full[256];
	int total = 0, skipped = 0;
	NO_ARM_TABLES;
	n_equal = n_both_reject = 0;
	for (int m = 0; m < PMK__N(models); m++) {
		const pmk__model *mod = pmk__model_find(models[m]);
		T_ASSERT(mod != NULL);
		if (!force(models[m]))
			T_SKIP("libpfm4 here has no %s PMU (it carries its own "
			       "architecture's PMUs only; pmkit's tables are "
			       "x86 models)",
			       models[m]);
		for (int i = 0; i < mod->nev; i++) {
			const pmk__nevent *e = &mod->ev[i];
			for (int j = 0; j < (e->numask ? e->numask : 1); j++) {
				if (e->numask)
					snprintf(full, sizeof full, "%s::%s:%s",
						 models[m], e->name,
						 e->umask[j].name);
				else
					snprintf(full, sizeof full, "%s::%s",
						 models[m], e->name);
				total++;
				if (is_divergent(full)) {
					skipped++;
					continue;
				}
				if (pfm_enc(full).rc != PFM_SUCCESS) {
					printf("# libpfm4 does not know %s\n",
					       full);
					T_CHECKF(0, "libpfm4 does not know %s",
						 full);
					continue;
				}
				compare(full);
				strcat(full, ":u");
				compare(full);
			}
		}
	}
	printf("# table entries: %d checked, %d equal encodings, %d known "
	       "divergences\n",
	       total, n_equal, skipped);
	T_CHECK(n_equal >= 2 * (total - skipped));
}
#else
static void test_hand_table(void)
{
	(void)cases;
	(void)models;
	(void)divergent;
	T_SKIP("built without libpfm4 (libpfm4-dev): nothing to compare "
	       "against");
}
static void test_every_table_entry(void)
{
	T_SKIP("built without libpfm4 (libpfm4-dev)");
}
static void test_public_parser(void)
{
	T_SKIP("built without libpfm4 (libpfm4-dev)");
}
#endif

int main(void)
{
	T_RUN(test_hand_table);
	T_RUN(test_every_table_entry);
	T_RUN(test_public_parser);
#if PMK_HAVE_PFM
	pfm_terminate();
#endif
	return t_done();
}
