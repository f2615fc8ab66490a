/*
 * test_preset_papi.c: PAPI's own preset definitions (Debian's
 * papi_events.csv) resolve in pmkit to the natives they name.
 *
 * 1. The whole file: for every CPU of the file that the installed libpfm4
 *    knows, every preset PAPI defines there, resolved from PAPI's
 *    definition alone on a target of that model, has one leaf per native
 *    of its formula, each equal to that native parsed alone by
 *    pmk_event_parse(). A definition that does not resolve must name a
 *    native that pmkit refuses alone too (libpfm4 4.13 lacks it, so PAPI
 *    itself drops the preset with Debian's libpfm4), or be one PAPI marks
 *    unusable (a derived type pmkit does not read); each is printed.
 * 2. Where pmkit's own table and PAPI both define a preset for a model,
 *    the two encode the same natives and compute the same value from
 *    them; each difference is listed below with its reason (PAPI's wins:
 *    docs/metrics.md).
 * 3. Every machine fixture (tests/fixtures/NAME): the presets `pmkit list`
 *    would show, by source, each resolving through pmk_event_parse().
 * Skips, saying why, without libpfm4 or without the file.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tests/support/t.h"
#include "lib/event/attr.h"
#include "lib/event/native.h"
#include "lib/event/papi_csv.h"
#include "lib/event/source.h"
#include "lib/event/tbl.h"
#include "pmkit/derive.h"

static pmk_target *target(const char *model)
{
	pmk_target *t = pmk_target_new();
	if (!t)
		return NULL;
	pmk_target_add_pmu(t, "cpu", PMK_TYPE_RAW, 1);
	if (pmk_target_set_model(t, model) != 0) {
		pmk_target_free(t);
		return NULL;
	}
	return t;
}

static int parse_alone(const pmk_target *t, const char *s, pmk_event *ev,
		       pmk_diag *d)
{
	if (strlen(s) < PMK_EVENT_NAME_MAX)
		return pmk_event_parse(t, s, ev, d);
	memset(ev, 0, sizeof *ev);
	pmk_diag_clear(d);
	return pmk__native_parse(t, s, 1, ev, d);
}

#define TOK_MAX 512
static int natives(const char *rpn, char tok[][TOK_MAX], int max)
{
	int n = 0;
	for (const char *p = rpn; *p;) {
		size_t len;
		char *end;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " ");
		snprintf(tok[n < max ? n : max - 1], TOK_MAX, "%.*s", (int)len,
			 p);
		if (!(len == 1 && strchr("+-*/", *p))) {
			(void)strtod(tok[n < max ? n : max - 1], &end);
			if (*end || !(*p >= '0' && *p <= '9'))
				n += n < max;
		}
		p += len;
	}
	return n;
}

/* Resolve from one source on a target of `model`. */
static int resolve_from(int from, const pmk_target *t, const char *model,
			const char *name, pmk_event *ev, pmk__preset_src *src)
{
	pmk__model_res r;
	pmk_diag d;
	if (pmk__source_resolve(model, &r) != 0)
		return PMK_ENOENT;
	(void)t;
	return pmk__preset_encode_from(from, r.canon, pmk__model_find(r.canon),
				       &r, "cpu", PMK_TYPE_RAW, name, 1, ev,
				       src, &d);
}

struct whole {
	const pmk_target *t;
	const char *model;
	int defs, ok, leaves, lacking, unusable;
};

static int check_def(const pmk__papi_def *def, void *arg)
{
	struct whole *w = arg;
	char tok[PMK__PAPI_NATIVES_MAX][TOK_MAX];
	pmk_event ev, alone;
	pmk_diag d;
	int nt, rc;
	w->defs++;
	if (!def->rpn) {
		w->unusable++;
		printf("# %s %s (line %d): not read: %s\n", w->model,
		       def->preset, def->line, def->why);
		return 0;
	}
	nt = natives(def->rpn, tok, PMK__PAPI_NATIVES_MAX);
	rc = resolve_from(PMK__PRESET_PAPI, w->t, w->model, def->preset, &ev,
			  NULL);
	if (rc) {
		/* then one of its natives must be refused alone */
		int refused = 0;
		for (int k = 0; k < nt && !refused; k++)
			if (parse_alone(w->t, tok[k], &alone, &d) != 0) {
				refused = 1;
				printf(
				    "# %s %s (line %d): '%s' is refused alone "
				    "too: %s\n",
				    w->model, def->preset, def->line, tok[k],
				    d.message);
			}
		T_CHECKF(refused,
			 "%s %s (line %d) does not resolve, though each of "
			 "its natives does alone",
			 w->model, def->preset, def->line);
		w->lacking++;
		return 0;
	}
	w->ok++;
	T_CHECKF(ev.nleaf == nt, "%s %s: %d leaves for '%s'", w->model,
		 def->preset, ev.nleaf, def->rpn);
	for (int k = 0; k < nt && k < ev.nleaf; k++) {
		rc = parse_alone(w->t, tok[k], &alone, &d);
		T_CHECKF(rc == 0, "%s %s: '%s' alone: %s", w->model,
			 def->preset, tok[k], d.message);
		if (rc)
			continue;
		w->leaves++;
		T_CHECKF(pmk__attr_same_encoding(&ev.leaf[k], &alone.leaf[0]),
			 "%s %s: leaf %d '%s' %#llx, alone %#llx", w->model,
			 def->preset, k, tok[k],
			 (unsigned long long)ev.leaf[k].config,
			 (unsigned long long)alone.leaf[0].config);
	}
	return 0;
}

struct models {
	char name[64][64];
	int n, skipped;
	char skipped_names[1024];
};

static int each_cpu(const char *cpu, void *arg)
{
	struct models *m = arg;
	if (!pmk__source_pfm.model(cpu)) {
		m->skipped++;
		snprintf(m->skipped_names + strlen(m->skipped_names),
			 sizeof m->skipped_names - strlen(m->skipped_names),
			 " %s", cpu);
		return 0;
	}
	if (m->n < 64)
		snprintf(m->name[m->n++], 64, "%s", cpu);
	return 0;
}

static const pmk__papi_csv *papi_file(void)
{
	const char *why;
	const pmk__papi_csv *c = pmk__papi_events(&why);
	if (!c && why[0])
		T_CHECKF(0, "PAPI's file does not read: %s", why);
	return c;
}

static void test_whole_file(void)
{
	const pmk__papi_csv *c = papi_file();
	struct models m;
	int defs = 0, ok = 0, leaves = 0, lacking = 0, unusable = 0;
	if (!c)
		T_SKIP("no papi_events.csv (Debian package libpapi7.0; or "
		       "PMK_PAPI_EVENTS=FILE)");
	if (!pmk__source_pfm.model("skx"))
		T_SKIP("libpfm4 knows no x86 model here (built without "
		       "libpfm4-dev, or another architecture)");
	memset(&m, 0, sizeof m);
	pmk__papi_csv_cpus(c, each_cpu, &m);
	for (int i = 0; i < m.n; i++) {
		pmk_target *t = target(m.name[i]);
		struct whole w = {t, m.name[i], 0, 0, 0, 0, 0};
		T_CHECKF(t != NULL, "no target for %s", m.name[i]);
		if (!t)
			continue;
		pmk__papi_csv_foreach(c, m.name[i], check_def, &w);
		printf("# %-24s %3d presets in PAPI's file: %3d resolve, %d "
		       "name a native libpfm4 lacks, %d not read\n",
		       m.name[i], w.defs, w.ok, w.lacking, w.unusable);
		defs += w.defs;
		ok += w.ok;
		leaves += w.leaves;
		lacking += w.lacking;
		unusable += w.unusable;
		pmk_target_free(t);
	}
	printf("# %d CPUs of PAPI's file known to libpfm4 (%d others:%s); "
	       "%d definitions: %d resolve (%d leaves, each equal to its "
	       "native alone), %d name a native refused alone, %d not read\n",
	       m.n, m.skipped, m.skipped_names, defs, ok, leaves, lacking,
	       unusable);
	T_CHECKF(m.n >= 40, "%d models", m.n);
	T_CHECKF(ok * 10 >= defs * 9, "%d of %d resolve", ok, defs);
}

/* pmkit's table and PAPI both define a preset: the differences known,
 * each with its reason. PAPI's definition is the one used. */
static const struct diff {
	const char *model, *preset, *why;
} known_diffs[] = {
    {"skl", "PAPI_BR_MSP",
     "PAPI counts conditional branches mispredicted (:CONDITIONAL), "
     "pmkit's table every mispredicted branch (:ALL_BRANCHES)"},
    {"skl", "PAPI_BR_TKN",
     "PAPI: conditional - not taken (taken conditional branches), "
     "pmkit's table every taken branch (BR_INST_RETIRED:NEAR_TAKEN)"},
    {"skl", "PAPI_L1_ICM",
     "PAPI: L2 code reads (L2_RQSTS:ALL_CODE_RD), pmkit's table the "
     "instruction cache's tag misses (ICACHE_64B:IFTAG_MISS)"},
    {"skl", "PAPI_L2_DCA",
     "PAPI: L2_RQSTS:ALL_DEMAND_REFERENCES, pmkit's table demand data "
     "reads + RFOs"},
    {"skl", "PAPI_L2_DCM",
     "PAPI's LLC_REFERENCES is no libpfm4 4.13 skl event (PAPI drops it "
     "too): pmkit's table's demand data read + RFO misses are used"},
    {"skl", "PAPI_L2_TCA",
     "PAPI: demand references + code reads, pmkit's table "
     "L2_RQSTS:REFERENCES"},
    {"skl", "PAPI_L2_TCM",
     "PAPI's LLC_REFERENCES: as PAPI_L2_DCM; pmkit's table's "
     "L2_RQSTS:MISS is used"},
    {"skl", "PAPI_L3_TCA",
     "PAPI's LLC_REFERENCES: as PAPI_L2_DCM; pmkit's table's "
     "LONGEST_LAT_CACHE:REFERENCE (the same event code) is used"},
    {"skl", "PAPI_L3_TCM",
     "PAPI's LLC_MISSES is no libpfm4 4.13 skl event; pmkit's table's "
     "LONGEST_LAT_CACHE:MISS (the same event code) is used"},
    {"skl", "PAPI_TLB_DM",
     "PAPI: page walks started (MISS_CAUSES_A_WALK), pmkit's table walks "
     "completed"},
    {"skl", "PAPI_TLB_IM", "as PAPI_TLB_DM, for the instruction TLB"},
    {"skl", "PAPI_SP_OPS",
     "PAPI's skl section (shared with skx) adds 16 x 512-bit packed "
     "single, which a Skylake client never counts; pmkit's table stops "
     "at 256 bits"},
    {"skl", "PAPI_DP_OPS", "as PAPI_SP_OPS: 8 x 512-bit packed double"},
    {"skl", "PAPI_STL_ICY",
     "PAPI: cycles the front end delivered no uop "
     "(IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE), pmkit's table "
     "cycles with no uop issued (UOPS_ISSUED:STALL_CYCLES)"},
    {"skl", "PAPI_MEM_WCY",
     "PAPI: cycles stalled on a full store buffer (RESOURCE_STALLS:SB), "
     "pmkit's table cycles stalled with a memory load pending "
     "(CYCLE_ACTIVITY:STALLS_MEM_ANY)"},
    {"amd64_fam17h_zen2", "PAPI_L1_DCA",
     "PAPI's perf::PERF_COUNT_HW_CACHE_L1D:ACCESS (libpfm4's perf PMU "
     "with a unit mask) is refused by pmkit's parser alone too; pmkit's "
     "table's LS_DISPATCH is used"},
    {"amd64_fam17h_zen2", "PAPI_L1_ICM",
     "PAPI: L2 requests for instruction cache reads, pmkit's table the "
     "instruction cache refills from L2 + from the system"},
    {"amd64_fam17h_zen2", "PAPI_TLB_DM",
     "PAPI counts L1 DTLB misses that hit the L2 TLB too, pmkit's table "
     "those that miss it only"},
    {"amd64_fam17h_zen2", "PAPI_TLB_IM",
     "PAPI adds the L1 ITLB misses that hit the L2 TLB, pmkit's table "
     "counts those that miss it only"},
    {"amd64_fam19h_zen3", "PAPI_L1_DCM",
     "PAPI: L2 data read requests (REQUESTS_TO_L2_GROUP1), pmkit's table "
     "the L1 data cache fills from anywhere "
     "(ANY_DATA_CACHE_FILLS_FROM_SYSTEM)"},
    {"amd64_fam19h_zen3", "PAPI_L2_ICA",
     "PAPI: L2 requests for instruction cache reads "
     "(REQUESTS_TO_L2_GROUP1), pmkit's table their access status "
     "(CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS: fill hit + miss)"},
    {"amd64_fam19h_zen3", "PAPI_TLB_DM", "as on Zen 2"},
    {"amd64_fam19h_zen3", "PAPI_TLB_IM", "as on Zen 2"},
};

/* A value for a leaf: a function of its encoding, so that equal natives
 * get equal values in both formulas. */
static double leaf_value(const pmk_attr *a)
{
	unsigned long long h = a->config * 1000003ull ^ a->config1 ^
			       ((unsigned long long)a->type << 40);
	return (double)(h % 9973 + 17);
}

static double value(const pmk_event *ev)
{
	double v[PMK_LEAF_MAX];
	for (int i = 0; i < ev->nleaf; i++)
		v[i] = leaf_value(&ev->leaf[i]);
	return pmk_ops_eval(ev->ops, ev->nops, v, NULL);
}

static void test_table_and_papi(void)
{
	const pmk__papi_csv *c = papi_file();
	int both = 0, same = 0, found[sizeof known_diffs / sizeof *known_diffs];
	memset(found, 0, sizeof found);
	if (!c)
		T_SKIP("no papi_events.csv (Debian package libpapi7.0)");
	for (int i = 0; pmk__models[i]; i++) {
		const pmk__model *m = pmk__models[i];
		for (int k = 0; k < m->npreset; k++) {
			const char *name = m->preset[k].preset;
			pmk_event a, b;
			pmk__preset_src sa, sb;
			int ra, rb, known = -1;
			if (!pmk__papi_csv_find(c, m->name, name))
				continue;
			both++;
			ra = resolve_from(PMK__PRESET_PAPI, NULL, m->name, name,
					  &a, &sa);
			rb = resolve_from(PMK__PRESET_TABLE, NULL, m->name,
					  name, &b, &sb);
			T_CHECKF(rb == 0,
				 "%s %s: pmkit's table does not "
				 "resolve",
				 m->name, name);
			if (ra == 0 && rb == 0 &&
			    fabs(value(&a) - value(&b)) <
				1e-9 * fabs(value(&a))) {
				same++;
				continue;
			}
			for (size_t j = 0;
			     j < sizeof known_diffs / sizeof *known_diffs; j++)
				if (!strcmp(known_diffs[j].model, m->name) &&
				    !strcmp(known_diffs[j].preset, name))
					known = (int)j;
			T_CHECKF(known >= 0,
				 "%s %s: PAPI's and pmkit's definitions "
				 "differ, with no reason listed",
				 m->name, name);
			if (getenv("PMK_SHOW_DIFFS") || known < 0)
				printf(
				    "# UNLISTED %s %s: PAPI '%s'%s | pmkit "
				    "'%s'\n",
				    m->name, name,
				    pmk__papi_csv_find(c, m->name, name)->rpn,
				    ra ? " (does not resolve)" : "",
				    sb.rpn ? sb.rpn : "");
			if (known >= 0) {
				found[known] = 1;
				printf("# differs: %s %s%s: %s\n", m->name,
				       name,
				       ra ? " (PAPI's does not resolve)" : "",
				       known_diffs[known].why);
			}
		}
	}
	for (size_t j = 0; j < sizeof known_diffs / sizeof *known_diffs; j++)
		T_CHECKF(found[j],
			 "%s %s: listed as a difference, but the "
			 "two agree (or one is gone)",
			 known_diffs[j].model, known_diffs[j].preset);
	printf("# %d presets defined by both pmkit's tables and PAPI: %d "
	       "encode the same natives and formula, %d differ (PAPI's "
	       "used)\n",
	       both, same, both - same);
}

struct fx_count {
	const pmk_target *t;
	int n[4], bad;
};

static int fx_each(const pmk_event_info *info, void *arg)
{
	struct fx_count *f = arg;
	pmk__preset_src src;
	pmk_event ev;
	pmk_diag d;
	if (info->kind != PMK_KIND_PRESET)
		return 0;
	if (pmk__event_preset_source(f->t, info->name, &src) != 0 ||
	    pmk_event_parse(f->t, info->name, &ev, &d) != 0) {
		f->bad++;
		T_CHECKF(0, "%s is listed but does not resolve: %s", info->name,
			 d.message);
		return 0;
	}
	f->n[src.from & 3]++;
	return 0;
}

static void test_fixtures(void)
{
	static const struct {
		const char *fx;
		int papi_min; /* presets from PAPI's file at least */
	} expect[] = {
	    {"intel-icx", 30}, {"intel-skx", 50}, {"intel-clx", 50},
	    {"intel-bdx", 50}, {"amd-zen1", 20},  {"amd-zen2", 12},
	    {"amd-zen3", 20},  {"intel-spr", 0},  {"amd-zen4", 0},
	    {"amd-zen5", 0},   {"intel-adl", 0},  {"arm-n1", 0},
	};
	const pmk__papi_csv *c = papi_file();
	const char *src = getenv("PMK_SRC") ? getenv("PMK_SRC") : ".";
	char dir[480];
	DIR *dd;
	struct dirent *e;
	int nfx = 0;
	snprintf(dir, sizeof dir, "%s/tests/fixtures", src);
	if (!(dd = opendir(dir)))
		T_SKIP("no %s", dir);
	while ((e = readdir(dd))) {
		char root[1400];
		pmk_target *t;
		struct fx_count f;
		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;
		snprintf(root, sizeof root, "%s/%s/sys", dir, e->d_name);
		if (!(t = pmk_target_new()))
			continue;
		if (pmk_target_discover(t, root, NULL) != 0) {
			pmk_target_free(t);
			continue;
		}
		memset(&f, 0, sizeof f);
		f.t = t;
		pmk_event_foreach(t, fx_each, &f);
		printf("# %-10s %-18s %2d presets: %2d from PAPI's file, %2d "
		       "from pmkit's table, %2d generic\n",
		       e->d_name, pmk_target_model(t), f.n[1] + f.n[2] + f.n[3],
		       f.n[PMK__PRESET_PAPI], f.n[PMK__PRESET_TABLE],
		       f.n[PMK__PRESET_GENERIC]);
		for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
			if (strcmp(expect[i].fx, e->d_name))
				continue;
			if (expect[i].papi_min == 0)
				T_CHECKF(f.n[PMK__PRESET_PAPI] == 0,
					 "%s: %d from PAPI, which has no such "
					 "model",
					 e->d_name, f.n[PMK__PRESET_PAPI]);
			else if (c && pmk__source_pfm.model("skx"))
				T_CHECKF(f.n[PMK__PRESET_PAPI] >=
					     expect[i].papi_min,
					 "%s: %d from PAPI, want %d or more",
					 e->d_name, f.n[PMK__PRESET_PAPI],
					 expect[i].papi_min);
		}
		pmk_target_free(t);
		nfx++;
	}
	closedir(dd);
	T_CHECKF(nfx >= 12, "%d fixtures", nfx);
}

int main(void)
{
	T_RUN(test_whole_file);
	T_RUN(test_table_and_papi);
	T_RUN(test_fixtures);
	return t_done();
}
