/*
 * test_perf_names.c: perf's event names as aliases (lib/event/src_perf.c).
 *
 * perf 6.1's Zen 3 files core.json and cache.json name 84 core events (the
 * six of cache.json with Unit L3PMC count on the amd_l3 PMU and are not
 * core events). Every one is parsed by name on the amd-zen3 fixture, through
 * the public pmk_event_parse, whichever source serves it (libpfm4, pmkit's
 * tables, or perf's JSON read at run time); its config must be what the
 * JSON's EventCode and UMask say in the x86 event-select layout of AMD's
 * PPR (select[7:0] at config 0-7, select[11:8] at 32-35, unit mask at
 * 8-15). The reference is computed here from the JSON's fields, not from
 * pmkit's table. Where libpfm4 has an event of the same event-select code
 * whose unit masks make up the JSON's UMask, libpfm4's encoding of that
 * event must be the same config too.
 * Skips without perf's pmu-events (Debian's linux-source-6.1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/core/infile.h"
#include "lib/core/json_flat.h"
#include "lib/event/perf_dirs.h"
#include "tests/support/t.h"

#if PMK_HAVE_PFM
#include "tests/event/pfm_util.h"
#endif

#define NAMES_MAX 256

struct pev {
	char name[128];
	unsigned long long code, umask;
	int has_umask, plain; /* plain: no CounterMask/Edge/Invert terms */
};

static struct pev evs[NAMES_MAX];
static int nevs;

static const char *get(int n, const char *const *k, const char *const *v,
		       const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(k[i], key))
			return v[i];
	return NULL;
}

static int on_obj(void *arg, int n, const char *const *k, const char *const *v,
		  int line)
{
	const char *name = get(n, k, v, "EventName"),
		   *unit = get(n, k, v, "Unit");
	const char *um = get(n, k, v, "UMask");
	(void)arg, (void)line;
	if (!name || (unit && *unit) || nevs == NAMES_MAX)
		return 0;
	snprintf(evs[nevs].name, sizeof evs[nevs].name, "%s", name);
	evs[nevs].code = strtoull(get(n, k, v, "EventCode"), NULL, 0);
	evs[nevs].umask = um ? strtoull(um, NULL, 0) : 0;
	evs[nevs].has_umask = um != NULL;
	evs[nevs].plain = !get(n, k, v, "CounterMask") &&
			  !get(n, k, v, "EdgeDetect") &&
			  !get(n, k, v, "Invert");
	nevs++;
	return 0;
}

static pmk_target *zen3(void)
{
	const char *src = getenv("PMK_SRC");
	char root[1024];
	pmk_target *t = pmk_target_new();
	snprintf(root, sizeof root, "%s/tests/fixtures/amd-zen3/sys",
		 src && *src ? src : ".");
	if (t && pmk_target_discover(t, root, NULL) < 0) {
		pmk_target_free(t);
		return NULL;
	}
	return t;
}

#if PMK_HAVE_PFM
/* libpfm4's encoding of the event with code `code` whose unit masks OR
 * to `umask` (each taken whole when its bits lie within): 1 and *config
 * when libpfm4 has such an event, 0 when not. */
static int pfm_same(unsigned long long code, unsigned long long umask,
		    char *str, size_t size, unsigned long long *config)
{
	pfm_pmu_info_t pinfo;
	memset(&pinfo, 0, sizeof pinfo);
	pinfo.size = sizeof pinfo;
	if (pfm_get_pmu_info(PFM_PMU_AMD64_FAM19H_ZEN3, &pinfo) != PFM_SUCCESS)
		return 0;
	for (int i = pinfo.first_event; i != -1; i = pfm_get_event_next(i)) {
		pfm_event_info_t info;
		unsigned long long got = 0;
		size_t n;
		memset(&info, 0, sizeof info);
		info.size = sizeof info;
		if (pfm_get_event_info(i, PFM_OS_NONE, &info) != PFM_SUCCESS ||
		    info.code != code)
			continue;
		n = (size_t)snprintf(str, size, "amd64_fam19h_zen3::%s",
				     info.name);
		for (int a = 0; a < info.nattrs && n < size; a++) {
			pfm_event_attr_info_t ai;
			memset(&ai, 0, sizeof ai);
			ai.size = sizeof ai;
			if (pfm_get_event_attr_info(i, a, PFM_OS_NONE, &ai) !=
				PFM_SUCCESS ||
			    ai.type != PFM_ATTR_UMASK || !ai.code ||
			    (ai.code & ~umask) || (ai.code & got))
				continue;
			got |= ai.code;
			n +=
			    (size_t)snprintf(str + n, size - n, ":%s", ai.name);
		}
		if (got != umask)
			continue;
		{
			struct enc e = pfm_enc(str);
			if (e.rc != PFM_SUCCESS)
				continue;
			*config = e.config;
			return 1;
		}
	}
	return 0;
}
#endif

static void test_zen3_names(void)
{
	static const char *const files[] = {"core.json", "cache.json"};
	const char *arch = pmk__pmu_events_dir();
	pmk_target *t;
	int ok = 0, in_pfm = 0, pfm_equal = 0;
	if (!arch)
		T_SKIP("perf's pmu-events are not installed (Debian's "
		       "linux-source-6.1; PMKIT_PMU_EVENTS=DIR)");
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char path[1200], *text = NULL;
		size_t len;
		pmk_diag d;
		snprintf(path, sizeof path, "%s/x86/amdzen3/%s", arch,
			 files[f]);
		T_ASSERT(pmk__infile_read(path, 0, 0, &text, &len, &d) == 0);
		T_ASSERT(pmk__json_objects(text, len, path, on_obj, NULL, &d) ==
			 0);
		free(text);
	}
	T_EQ_INT(nevs, 84);
	T_ASSERT((t = zen3()) != NULL);
	T_EQ_STR(pmk_target_model(t), "amd64_fam19h_zen3");
#if PMK_HAVE_PFM
	/* as pmkit initialises it: encodings for a PMU not on this host */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 0);
	pfm_initialize();
#endif
	for (int i = 0; i < nevs; i++) {
		pmk_event ev;
		pmk_diag d;
		unsigned long long want = (evs[i].code & 0xff) |
					  (evs[i].umask << 8) |
					  (((evs[i].code >> 8) & 0xf) << 32);
		int rc = pmk_event_parse(t, evs[i].name, &ev, &d);
		T_CHECKF(evs[i].plain, "%s: terms this test does not model",
			 evs[i].name);
		T_CHECKF(rc == 0, "%s: %s", evs[i].name, d.message);
		T_CHECKF(ev.nleaf == 1 && ev.leaf[0].type == PMK_TYPE_RAW &&
			     ev.leaf[0].config == want,
			 "%s: config %#llx, perf's JSON gives %#llx (%s)",
			 evs[i].name, (unsigned long long)ev.leaf[0].config,
			 want, ev.leaf[0].name);
		ok++;
#if PMK_HAVE_PFM
		{
			char str[512];
			unsigned long long pc;
			if (pfm_same(evs[i].code, evs[i].umask, str, sizeof str,
				     &pc)) {
				in_pfm++;
				T_CHECKF(pc == want,
					 "%s: libpfm4's %s is %#llx, perf's "
					 "JSON %#llx",
					 evs[i].name, str, pc, want);
				pfm_equal++;
			}
		}
#endif
	}
	printf("# %d of perf's %d Zen 3 core and cache names encode as the "
	       "JSON defines them; libpfm4 has %d of them (same code and unit "
	       "mask bits), all %d the same\n",
	       ok, nevs, in_pfm, pfm_equal);
	pmk_target_free(t);
}

int main(void)
{
	T_RUN(test_zen3_names);
	return t_done();
}
