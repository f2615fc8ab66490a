/*
 * pfm_util.h: what the libpfm4 comparison tests (test_pfm_compare.c,
 * test_pfm_sample.c) share: one encoding reduced to the fields they
 * compare, as libpfm4 gives it and as a parsed pmk_event holds it.
 * Included only where PMK_HAVE_PFM is set.
 */
#ifndef PMK_TESTS_EVENT_PFM_UTIL_H
#define PMK_TESTS_EVENT_PFM_UTIL_H

#include <stdint.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

#include "pmkit.h"

struct enc {
	int rc;
	uint32_t type;
	uint64_t config, config1;
	int xu, xk, xh, precise;
};

/* libpfm4's perf encoding of `s` ("MODEL::EVENT..."); rc is libpfm4's. */
static inline struct enc pfm_enc(const char *s)
{
	struct enc e = {0};
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;
	memset(&a, 0, sizeof a);
	memset(&arg, 0, sizeof arg);
	arg.attr = &a;
	arg.size = sizeof arg;
	e.rc = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3 | PFM_PLMH,
					 PFM_OS_PERF_EVENT_EXT, &arg);
	e.type = a.type;
	e.config = a.config;
	e.config1 = a.config1;
	e.xu = a.exclude_user;
	e.xk = a.exclude_kernel;
	e.xh = a.exclude_hv;
	e.precise = a.precise_ip;
	return e;
}

/* Whether the installed libpfm4 has a PMU called `model`. libpfm4 is
 * built with its own architecture's PMUs only: an x86 libpfm4 has skl but
 * no arm_ac57, an arm64 one the reverse. Call after pfm_initialize(). */
static inline int pfm_has_pmu(const char *model)
{
	pfm_pmu_t p;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t info;
		memset(&info, 0, sizeof info);
		info.size = sizeof info;
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.name &&
		    !strcmp(info.name, model))
			return 1;
	}
	return 0;
}

/* pmkit's result `rc` with its event `ev`: the first leaf's fields when
 * rc is 0. */
static inline struct enc pmk_enc_of(int rc, const pmk_event *ev)
{
	struct enc e = {0};
	e.rc = rc;
	if (rc == 0) {
		e.type = ev->leaf[0].type;
		e.config = ev->leaf[0].config;
		e.config1 = ev->leaf[0].config1;
		e.xu = ev->leaf[0].exclude_user;
		e.xk = ev->leaf[0].exclude_kernel;
		e.xh = ev->leaf[0].exclude_hv;
		e.precise = ev->leaf[0].precise_ip;
	}
	return e;
}

#endif
