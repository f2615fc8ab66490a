/*
 * test_topdown.c: top-down level 1 through the built-in definitions, with
 * hand-made counts for each model family (no hardware needed), and the
 * built-in copy equal to metrics/topdown.def.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"
#include "tests/support/t.h"

struct kv {
	const char *name;
	double v;
};

/* Evaluate the four parts for `model` from named counts. */
static int parts_for(const char *model, const struct kv *in, double *p)
{
	pmk_topdown *t;
	pmk_diag d = {0};
	double v[16];
	int n, rc;
	if (pmk_topdown_new(&t, model, 1, &d) < 0)
		return -1;
	n = pmk_topdown_event_count(t);
	for (int i = 0; i < n && i < 16; i++) {
		const char *name = pmk_topdown_event(t, i, NULL, NULL);
		v[i] = NAN;
		for (const struct kv *k = in; k->name; k++)
			if (!strcmp(k->name, name))
				v[i] = k->v;
	}
	rc = pmk_topdown_eval(t, v, p);
	pmk_topdown_free(t);
	return rc;
}

static void test_skylake(void)
{
	/* 1000 cycles = 4000 slots; 800 undelivered, 2000 retired, 2400
	 * issued, 50 recovery cycles (200 slots) */
	static const struct kv in[] = {{"r003c", 1000}, {"r019c", 800},
				       {"r010e", 2400}, {"r02c2", 2000},
				       {"r010d", 50},	{NULL, 0}};
	double p[PMK_TD_NPART];
	T_ASSERT(parts_for("skl", in, p) == 0);
	T_NEAR(p[PMK_TD_FRONTEND], 0.2, 1e-12);
	T_NEAR(p[PMK_TD_BAD_SPEC], (400.0 + 200) / 4000, 1e-12);
	T_NEAR(p[PMK_TD_RETIRING], 0.5, 1e-12);
	T_NEAR(p[PMK_TD_BACKEND], 1 - 0.2 - 2600.0 / 4000, 1e-12);
	T_NEAR(p[0] + p[1] + p[2] + p[3], 1, 1e-12);
}

static void test_icelake(void)
{
	/* PERF_METRICS slot counts: retiring, bad spec, FE, BE */
	static const struct kv in[] = {{"r0400", 4000}, {"r8000", 1000},
				       {"r8100", 500},	{"r8200", 1500},
				       {"r8300", 1000}, {NULL, 0}};
	double p[PMK_TD_NPART];
	T_ASSERT(parts_for("icl", in, p) == 0);
	T_NEAR(p[PMK_TD_RETIRING], 0.25, 1e-12);
	T_NEAR(p[PMK_TD_BAD_SPEC], 0.125, 1e-12);
	T_NEAR(p[PMK_TD_FRONTEND], 0.375, 1e-12);
	T_NEAR(p[PMK_TD_BACKEND], 0.25, 1e-12);
}

static void test_zen(void)
{
	/* 1000 cycles; Zen 4: 6000 slots, Zen 5: 8000 */
	static const struct kv in[] = {
	    {"r76", 1000},  {"r1000001a0", 1200}, {"r100001ea0", 2400},
	    {"r7aa", 3000}, {"rc1", 2400},	  {"r1000060a0", 0},
	    {NULL, 0}};
	double p[PMK_TD_NPART];
	T_ASSERT(parts_for("amd64_fam19h_zen4", in, p) == 0);
	T_NEAR(p[PMK_TD_FRONTEND], 0.2, 1e-12);
	T_NEAR(p[PMK_TD_BACKEND], 0.4, 1e-12);
	T_NEAR(p[PMK_TD_BAD_SPEC], 0.1, 1e-12);
	T_NEAR(p[PMK_TD_RETIRING], 0.4, 1e-12);
	T_ASSERT(parts_for("amd64_fam1ah_zen5", in, p) == 0);
	T_NEAR(p[PMK_TD_FRONTEND], 0.15, 1e-12);
	T_NEAR(p[PMK_TD_RETIRING], 0.3, 1e-12);
}

static void test_missing_and_unknown(void)
{
	static const struct kv none[] = {{NULL, 0}};
	double p[PMK_TD_NPART];
	pmk_topdown *t;
	pmk_diag d = {0};
	/* no counts: NaN parts, reported */
	T_CHECK(parts_for("skl", none, p) == PMK_EINVAL);
	T_CHECK(isnan(p[PMK_TD_FRONTEND]));
	T_CHECK(pmk_topdown_new(&t, "nosuchmodel", 1, &d) < 0);
	T_CHECK(pmk_topdown_new(&t, "", 1, &d) == PMK_ENOTSUP);
	T_EQ_STR(pmk_td_part_name(PMK_TD_BAD_SPEC), "bad_speculation");
	T_EQ_STR(pmk_td_metric_name(PMK_TD_BACKEND), "tma_backend_bound");
}

static void test_builtin_copy(void)
{
	char path[1024], *buf;
	const char *src = getenv("PMK_SRC");
	FILE *f;
	long n;
	snprintf(path, sizeof path, "%s/metrics/topdown.def", src ? src : ".");
	f = fopen(path, "rb");
	if (!f)
		T_SKIP("cannot read metrics/topdown.def");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	T_ASSERT(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	T_CHECKF(!strcmp(buf, pmk_topdown_text()),
		 "sim/cpi/topdown.c's copy differs from metrics/topdown.def");
	free(buf);
}

int main(void)
{
	T_RUN(test_skylake);
	T_RUN(test_icelake);
	T_RUN(test_zen);
	T_RUN(test_missing_and_unknown);
	T_RUN(test_builtin_copy);
	return t_done();
}
