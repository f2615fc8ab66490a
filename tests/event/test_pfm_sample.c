/*
 * test_pfm_sample.c: a held-out sample of libpfm4's own event strings over
 * skl, icl, spr, icx, hsw, zen3 and zen4 (on arm64, whose libpfm4 has no
 * x86 PMU: arm_ac57, arm_ac53, arm_n1, arm_n2, arm_v1, arm_v2 and
 * arm_a64fx, with the modifiers none, :u, :k, :u:k, :h, :k:h, :c=2 and
 * :u:h), encoded by pmkit's public parser
 * (pmk_event_parse on a target whose model is chosen: the path of `pmkit
 * encode --model`) and by libpfm4 directly; type, config, config1 and the
 * user/kernel exclusions must be identical for at least 98 % of the strings
 * libpfm4 accepts, and pmkit must reject what libpfm4 rejects.
 *
 * The sample: every EVENT and EVENT:UMASK libpfm4 lists for the model
 * (walked by pmkit's libpfm4 source, pmk__source_pfm.foreach),
 * kept when a fixed hash of the string falls in one sixth of its range
 * (the strings are not chosen by hand, and none of them is in pmkit's
 * tables' test), each with one modifier set from a fixed rotation (none,
 * :u, :k, :u:k, :c=2, :c=1:i, :e:c=1, :c=3:u). Without libpfm4 the test
 * skips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"
#include "tests/support/t.h"

#if PMK_HAVE_PFM
#include "lib/event/source.h"
#include "tests/event/pfm_util.h"

/* libpfm4 carries its own architecture's PMUs only: the sample is over
 * the x86 models on x86 and over the Arm models on arm64 (the guest tier's
 * build, tests/guest), each with its architecture's modifiers. */
#if defined(__aarch64__)
static const char *const models[] = {"arm_ac57", "arm_ac53", "arm_n1",
				     "arm_n2", "arm_v1", "arm_v2",
				     "arm_a64fx"};
static const char *const mods[] = {"",	 ":u",	":k",	":u:k",
				   ":h", ":k:h", ":c=2", ":u:h"};
#define DESCRIBED "arm_ac57::INST_RETIRED"
#define UMASK_WORD NULL /* Arm events have no unit masks */
#define MIN_SAMPLED 100 /* Arm models have fewer events than x86 ones */
#else
static const char *const models[] = {"skl", "icl", "spr", "icx", "hsw",
				     "amd64_fam19h_zen3", "amd64_fam19h_zen4"};
static const char *const mods[] = {"",	   ":u",    ":k",    ":u:k",
				   ":c=2", ":c=1:i", ":e:c=1", ":c=3:u"};
#define DESCRIBED "spr::INST_RETIRED"
#define UMASK_WORD "ANY"
#define MIN_SAMPLED 300
#endif
#define NMODELS ((int)(sizeof models / sizeof *models))

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct enc pmk_enc(const pmk_target *t, const char *s)
{
	pmk_event ev;
	pmk_diag d;
	memset(&ev, 0, sizeof ev);
	return pmk_enc_of(pmk_event_parse(t, s, &ev, &d), &ev);
}

static int total, accepted, identical, both_reject, pmk_only;

static void sample_one(const pmk_target *t, const char *model,
		       const char *base)
{
	char s[512], full[600];
	unsigned h = hash(base);
	struct enc p, k;
	if (h % 6 != 0)
		return;
	snprintf(s, sizeof s, "%s%s", base, mods[(h / 6) % 8]);
	snprintf(full, sizeof full, "%s::%s", model, s);
	total++;
	p = pfm_enc(full);
	k = pmk_enc(t, s);
	if (p.rc != PFM_SUCCESS) {
		if (k.rc != 0)
			both_reject++;
		else
			pmk_only++;
		T_CHECKF(k.rc != 0, "%s: libpfm4 rejects (%s), pmkit accepts",
			 full, pfm_strerror(p.rc));
		return;
	}
	accepted++;
	if (k.rc == 0 && p.type == k.type && p.config == k.config &&
	    p.config1 == k.config1 && p.xu == k.xu && p.xk == k.xk) {
		identical++;
		return;
	}
	printf("# differs: %s: libpfm4 type=%u config=%#llx c1=%#llx u/k=%d%d;"
	       " pmkit %s type=%u config=%#llx c1=%#llx u/k=%d%d\n",
	       full, p.type, (unsigned long long)p.config,
	       (unsigned long long)p.config1, p.xu, p.xk,
	       k.rc ? pmk_strerror(k.rc) : "ok", k.type,
	       (unsigned long long)k.config, (unsigned long long)k.config1,
	       k.xu, k.xk);
}

/* The strings: every EVENT and EVENT:UMASK of the model, as pmkit's
 * libpfm4 source lists them (the list is only the input here; each string
 * is then encoded by libpfm4 itself and by pmk_event_parse). */
struct walk {
	const pmk_target *t;
	const char *model;
};

static int sample_cb(const pmk_event_info *info, void *arg)
{
	const struct walk *w = arg;
	sample_one(w->t, w->model, info->name);
	return 0;
}

static void test_sample(void)
{
	int nmodels = 0;
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	T_ASSERT(pfm_initialize() == PFM_SUCCESS);
	for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
		pfm_pmu_t p;
		int known = 0;
		struct walk w;
		pmk_target *t = pmk_target_new();
		T_ASSERT(t != NULL);
		T_ASSERT(pmk_target_add_pmu(t, "cpu", PMK_TYPE_RAW, 1) == 0);
		if (pmk_target_set_model(t, models[m]) != 0) {
			printf("# pmkit knows no model %s\n", models[m]);
			T_CHECKF(0, "pmkit knows no model %s", models[m]);
			pmk_target_free(t);
			continue;
		}
		pfm_for_all_pmus(p)
		{
			pfm_pmu_info_t info;
			memset(&info, 0, sizeof info);
			info.size = sizeof info;
			if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS &&
			    !strcmp(info.name, models[m]))
				known = 1;
		}
		if (!known) {
			printf("# libpfm4 here has no %s\n", models[m]);
			pmk_target_free(t);
			continue;
		}
		nmodels++;
		w.t = t;
		w.model = models[m];
		T_CHECKF(pmk__source_pfm.foreach(models[m], sample_cb, &w) == 0,
			 "%s: listing its events failed", models[m]);
		pmk_target_free(t);
	}
	printf("# held-out sample: %d strings over %d models; libpfm4 accepts "
	       "%d, pmkit encodes %d of them identically (%.1f %%); %d "
	       "rejected by both, %d accepted by pmkit only\n",
	       total, nmodels, accepted, identical,
	       accepted ? 100.0 * identical / accepted : 0.0, both_reject,
	       pmk_only);
	T_CHECKF(nmodels == NMODELS, "libpfm4 knows %d of the %d models",
		 nmodels, NMODELS);
	T_CHECKF(accepted >= MIN_SAMPLED, "only %d strings sampled", accepted);
	T_CHECKF(identical * 100 >= accepted * 98,
		 "%d of %d identical: below 98 %%", identical, accepted);
}
/* The seven models are served by libpfm4, and describe their events. */
static void test_served_by_libpfm4(void)
{
	char buf[2048];
	pmk_target *t = pmk_target_new();
	T_ASSERT(t != NULL);
	for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
		const char *src = pmk_model_source(models[m]);
		T_CHECKF(src && !strcmp(src, "libpfm4"), "%s served by %s",
			 models[m], src ? src : "nothing");
	}
	T_CHECK(pmk_event_describe(t, DESCRIBED, buf, sizeof buf) == 0);
	if (UMASK_WORD)
		T_CHECKF(strstr(buf, "unit masks: ") &&
			     strstr(buf, UMASK_WORD) &&
			     strstr(buf, "modifiers: ") && strstr(buf, "c=N"),
			 "%s", buf);
	else
		T_CHECKF(!strstr(buf, "unit masks: ") &&
			     strstr(buf, "modifiers: u, k") &&
			     strstr(buf, "architecturally executed"),
			 "%s", buf);
	/* pmkit's own tables serve Zen 5 on every architecture */
	T_CHECK(pmk_event_describe(t, "amd64_fam1ah_zen5::RETIRED_OPS", buf,
				   sizeof buf) == 0);
	snprintf(buf, sizeof buf, "%s::NO_SUCH", models[0]);
	T_CHECK(pmk_event_describe(t, buf, buf, sizeof buf) == PMK_ENOEVENT);
	pmk_target_free(t);
}
#else
static void test_served_by_libpfm4(void)
{
	T_SKIP("built without libpfm4 (libpfm4-dev)");
}
static void test_sample(void)
{
	T_SKIP("built without libpfm4 (libpfm4-dev): nothing to compare "
	       "against");
}
#endif

int main(void)
{
	T_RUN(test_sample);
	T_RUN(test_served_by_libpfm4);
	return t_done();
}
