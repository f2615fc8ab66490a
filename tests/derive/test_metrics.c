/*
 * test_metrics.c: the metric library (the metrics directory) parses for each
 * model it names, and its formulas give hand-computed values: top-down level 1
 * (Skylake, Zen 5), PerfExpert with Table 1's constants, the POWER7 power
 * model (equation 2, Table 4), Core 2 cycle accounting (equation 1).
 * Files are read symbolically (names as written), as `pmkit metric eval`
 * does, so no event tables are needed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"
#include "tests/support/t.h"

static pmk_defs *load(const char *file, const char *model)
{
	pmk_defs_opts o = {.symbolic = 1, .model = model};
	pmk_defs *defs = NULL;
	pmk_diag d;
	char path[512];
	const char *src = getenv("PMK_SRC");
	snprintf(path, sizeof path, "%s/metrics/%s", src ? src : ".", file);
	if (pmk_defs_parse_file(&defs, path, &o, &d)) {
		char buf[1024];
		pmk_diag_format(&d, buf, sizeof buf);
		printf("# %s\n", buf);
	}
	return defs;
}

struct kv {
	const char *name;
	double v;
};

static double ev(const pmk_defs *defs, const char *name, const struct kv *in)
{
	double vals[64];
	unsigned fl;
	int i = pmk_defs_find(defs, name);
	if (i < 0)
		return -999;
	for (int k = 0; k < pmk_defs_base_count(defs, i) && k < 64; k++) {
		vals[k] = NAN;
		for (const struct kv *p = in; p->name; p++)
			if (!strcmp(p->name, pmk_defs_base(defs, i, k)))
				vals[k] = p->v;
	}
	return pmk_defs_eval(defs, i, vals, &fl);
}

static void test_all_files_parse_for_their_models(void)
{
	static const struct {
		const char *file, *model;
		int n;
	} cases[] = {
	    {"basic.def", NULL, 16},
	    {"seed002-figure1.def", NULL, 2},
	    {"perfexpert.def", NULL, 7},
		{"perfexpert-2level.def", NULL, 7},
	    {"topdown.def", "skl", 5},
	    {"topdown.def", "icl", 6},
	    {"topdown.def", "amd64_fam19h_zen4", 6},
	    {"topdown.def", "amd64_fam1ah_zen5", 6},
	    {"topdown.def", NULL, 0},
	    {"core2.def", "core", 7},
	    {"amd10h.def", "amd64_fam10h_barcelona", 3},
	    {"power.def", "nhm", 3},
	    {"power.def", "power7", 7},
	    {"roofline.def", "core", 3},
	    {"roofline.def", NULL, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pmk_defs *defs = load(cases[i].file, cases[i].model);
		T_CHECKF(defs && pmk_defs_count(defs) == cases[i].n,
			 "%s for %s: %d definitions, want %d", cases[i].file,
			 cases[i].model ? cases[i].model : "none",
			 defs ? pmk_defs_count(defs) : -1, cases[i].n);
		pmk_defs_free(defs);
	}
}

static void test_topdown_skylake(void)
{
	pmk_defs *defs = load("topdown.def", "skl");
	const struct kv in[] = {{"r003c", 1000}, {"r019c", 1000},
				{"r010e", 1600}, {"r02c2", 1400},
				{"r010d", 25},	 {NULL, 0}};
	double fe, bs, re, be;
	T_ASSERT(defs);
	fe = ev(defs, "tma_frontend_bound", in);
	bs = ev(defs, "tma_bad_speculation", in);
	re = ev(defs, "tma_retiring", in);
	be = ev(defs, "tma_backend_bound", in);
	T_NEAR(fe, 0.25, 1e-12);	     /* 1000 / 4000 */
	T_NEAR(bs, 0.075, 1e-12);	     /* (1600-1400+100) / 4000 */
	T_NEAR(re, 0.35, 1e-12);	     /* 1400 / 4000 */
	T_NEAR(be, 0.325, 1e-12);	     /* 1 - .25 - 1700/4000 */
	T_NEAR(fe + bs + re + be, 1, 1e-12); /* Intel's level 1 sums to 1 */
	pmk_defs_free(defs);
}

static void test_topdown_zen5(void)
{
	pmk_defs *defs = load("topdown.def", "amd64_fam1ah_zen5");
	const struct kv in[] = {
	    {"r76", 1000},  {"r1000001a0", 2000}, {"r100001ea0", 3000},
	    {"r7aa", 2600}, {"rc1", 2400},	  {"r1000060a0", 0},
	    {NULL, 0}};
	T_ASSERT(defs);
	T_NEAR(ev(defs, "tma_frontend_bound", in), 0.25, 1e-12);
	T_NEAR(ev(defs, "tma_backend_bound", in), 0.375, 1e-12);
	T_NEAR(ev(defs, "tma_bad_speculation", in), 0.025, 1e-12);
	T_NEAR(ev(defs, "tma_retiring", in), 0.3, 1e-12);
	pmk_defs_free(defs);
	/* Zen 4 has 6 slots per cycle. */
	defs = load("topdown.def", "amd64_fam19h_zen4");
	T_ASSERT(defs);
	T_NEAR(ev(defs, "tma_retiring", in), 2400.0 / 6000, 1e-12);
	pmk_defs_free(defs);
}

static void test_perfexpert_table1(void)
{
	pmk_defs *defs = load("perfexpert.def", NULL);
	const struct kv in[] = {{"PAPI_BR_INS", 1000},
				{"PAPI_BR_MSP", 50},
				{"PAPI_TOT_INS", 10000},
				{"PAPI_TLB_DM", 20},
				{NULL, 0}};
	double v;
	T_ASSERT(defs);
	T_CHECK(pmk_defs_constant(defs, "Mem_lat", &v) == 0 && v == 540);
	/* (1000*2 + 50*12) / 10000 */
	T_NEAR(ev(defs, "LCPI_branch", in), 0.26, 1e-12);
	/* 20 * 50 / 10000 */
	T_NEAR(ev(defs, "LCPI_data_TLB", in), 0.1, 1e-12);
	pmk_defs_free(defs);
}

static void test_power7(void)
{
	pmk_defs *defs = load("power.def", "power7");
	const struct kv in[] = {
	    {"PM_RUN_CYC", 3.55e9},   {"PM_RUN_INST_CMPL", 1.775e9},
	    {"PM_CYC", 3.55e9},	      {"PM_MEM0_RQ_DISP", 1e8},
	    {"PM_MEM0_SR_DISP", 5e7}, {NULL, 0}};
	T_ASSERT(defs);
	T_NEAR(ev(defs, "P7_CPI", in), 2, 1e-12);
	T_NEAR(ev(defs, "P7_GIPS", in), 56.8, 1e-9); /* 32*3.55/2 */
	T_NEAR(ev(defs, "P7_GBS", in), 9.6, 1e-9);   /* 6.4 + 3.2 */
	/* 22.3*56.8 + 4.3*9.6 + 877.1 and 8.4*56.8 + 4.3*9.6 + 666.3 */
	T_NEAR(ev(defs, "P7_power_3_55GHz_W", in), 2185.02, 1e-6);
	T_NEAR(ev(defs, "P7_power_2_5GHz_W", in), 1184.7, 1e-6);
	pmk_defs_free(defs);
}

static void test_core2_equation1(void)
{
	pmk_defs *defs = load("core2.def", "core");
	const struct kv in[] = {
	    {"UOPS_RETIRED:ANY", 800},	       {"UOPS_RETIRED:FUSED", 200},
	    {"RS_UOPS_DISPATCHED", 1200},      {"RS_UOPS_DISPATCHED:c=1", 600},
	    {"CPU_CLK_UNHALTED:CORE_P", 1000}, {NULL, 0}};
	T_ASSERT(defs);
	/* rate = 2 uops/cycle: Retired = 1000/2, Non_Retired = 200/2 */
	T_NEAR(ev(defs, "Retired", in), 500, 1e-9);
	T_NEAR(ev(defs, "Non_Retired", in), 100, 1e-9);
	T_NEAR(ev(defs, "Stalls", in), 400, 1e-9);
	pmk_defs_free(defs);
}

int main(void)
{
	T_RUN(test_all_files_parse_for_their_models);
	T_RUN(test_topdown_skylake);
	T_RUN(test_topdown_zen5);
	T_RUN(test_perfexpert_table1);
	T_RUN(test_power7);
	T_RUN(test_core2_equation1);
	return t_done();
}
