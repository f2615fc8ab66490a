/*
 * test_likwid.c: LIKWID's performance groups (lib/derive/likwid.c,
 * likwid_map.c).
 *  - the reader, on a table of group texts written here: good ones with
 *    what they hold, bad ones with the line and message of the refusal;
 *  - the translation of formulas on a hand-built target: counters become
 *    their events, `time` duration_time in seconds, and what does not map
 *    names the event and why;
 *  - on the captured machines (zen3, icx, spr) with Debian's likwid
 *    groups (skipped without the package): every group counted evaluable
 *    really compiles, each event and each metric, into pmkit events on
 *    the fixture; a few mapped encodings are the event codes and unit
 *    masks Intel and AMD document; the counts are printed.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/derive/likwid.h"
#include "lib/event/perf_dirs.h"
#include "pmkit.h"
#include "tests/support/t.h"

static const struct {
	int line; /* __LINE__ */
	const char *text;
	int ok, nevent, nmetric, err_line;
	const char *what; /* the last metric's formula, or the error */
} cases[] = {
    {__LINE__,
     "SHORT s\nEVENTSET\nFIXC0 INSTR_RETIRED_ANY\nMETRICS\nIPC [x] "
     "FIXC0/time\n",
     1, 1, 1, 0, "FIXC0/time"},
    {__LINE__,
     "SHORT s\r\nEVENTSET\r\nPMC0:EDGEDETECT A_B\r\nMETRICS\r\n\r\nA  "
     "1.E-06*(PMC0 + 2)/time\r\nLONG\r\nx ( y\n",
     1, 1, 1, 0, "1.E-06*(PMC0+2)/time"},
    {__LINE__, "# c\nEVENTSET\nPMC0 A\nPMC1 B\nMETRICS\nr PMC0/PMC1\ns PMC1\n",
     1, 2, 2, 0, "PMC1"},
    {__LINE__, "EVENTSET\nPMC0 A\n", 0, 0, 0, 2, "no METRICS section"},
    {__LINE__, "METRICS\nx PMC0\n", 0, 0, 0, 2, "no EVENTSET with events"},
    {__LINE__, "EVENTSET\nPMC0\nMETRICS\n", 0, 0, 0, 2,
     "an EVENTSET line is 'COUNTER EVENT'"},
    {__LINE__, "EVENTSET\nPMC0 A\nPMC0 B\nMETRICS\n", 0, 0, 0, 3,
     "counter named twice: 'PMC0'"},
    {__LINE__, "EVENTSET\npmc0 A\nMETRICS\n", 0, 0, 0, 2,
     "bad counter name 'pmc0'"},
    {__LINE__, "EVENTSET\nPMC0 A-B\nMETRICS\n", 0, 0, 0, 2,
     "bad event name 'A-B'"},
    {__LINE__, "EVENTSET\nPMC0 A\nMETRICS\nx (PMC0\n", 0, 0, 0, 4,
     "unbalanced parentheses in the formula"},
    {__LINE__, "EVENTSET\nPMC0 A\nMETRICS\nonlyformula\n", 0, 0, 0, 4,
     "a METRICS line is 'NAME FORMULA'"},
    {__LINE__, "hello\nEVENTSET\n", 0, 0, 0, 1,
     "text outside SHORT, EVENTSET, METRICS and LONG"},
};

static void test_parse(void)
{
	static pmk__lw_group g;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pmk_diag d;
		int rc = pmk__lw_parse(cases[i].text, strlen(cases[i].text),
				       "dir/NAME.txt", &g, &d);
		T_CHECKF((rc == 0) == cases[i].ok, "line %d: rc %d (%s)",
			 cases[i].line, rc, rc ? d.message : "");
		if (rc == 0 && cases[i].ok) {
			T_EQ_INT(g.nevent, cases[i].nevent);
			T_EQ_INT(g.nmetric, cases[i].nmetric);
			T_EQ_STR(g.name, "NAME");
			if (g.nmetric)
				T_EQ_STR(g.metric[g.nmetric - 1].formula,
					 cases[i].what);
		} else if (rc != 0 && !cases[i].ok) {
			T_CHECKF(d.line == cases[i].err_line,
				 "line %d: error at line %d, not %d",
				 cases[i].line, d.line, cases[i].err_line);
			T_EQ_STR(d.message, cases[i].what);
			T_EQ_STR(d.file, "dir/NAME.txt");
		}
	}
	/* the name keeps its words, blanks collapsed; options kept apart */
	T_ASSERT(pmk__lw_parse(cases[1].text, strlen(cases[1].text), "G.txt",
			       &g, NULL) == 0);
	T_EQ_STR(g.event[0].counter, "PMC0");
	T_EQ_STR(g.event[0].opts, "EDGEDETECT");
	T_EQ_STR(g.event[0].name, "A_B");
	T_EQ_INT(g.event[0].line, 3);
	T_EQ_STR(g.metric[0].name, "A");
	T_EQ_INT(g.metric[0].line, 6);
}

/* A target with a core PMU (event, umask; an alias) and nothing else. */
static pmk_target *hand_target(void)
{
	pmk_target *t = pmk_target_new();
	pmk_diag d;
	pmk_target_add_pmu(t, "cpu", 4, 1);
	pmk_target_add_format(t, "cpu", "event", "config:0-7", &d);
	pmk_target_add_format(t, "cpu", "umask", "config:8-15", &d);
	pmk_target_add_alias(t, "cpu", "instructions", "event=0xc0");
	return t;
}

static void test_translate(void)
{
	static pmk__lw_group g;
	static pmk__lw_mapped m;
	static const char text[] =
	    "EVENTSET\nFIXC0 INSTR_RETIRED_ANY\nPMC0 NO_SUCH_EVENT\n"
	    "PMC1 MERGE\nMETRICS\nrate FIXC0/time\nbad PMC0*2\n"
	    "unknown FIXC0*frequency\nclock FIXC0*inverseClock\n";
	pmk_target *t = hand_target();
	char *s = NULL, why[300];
	T_ASSERT(pmk__lw_parse(text, sizeof text - 1, "T.txt", &g, NULL) == 0);
	pmk__lw_map(t, &g, &m);
	T_CHECK(m.ok[0]);
	T_EQ_STR(m.expr[0], "\"instructions\"");
	T_CHECK(!m.ok[1]);
	T_CHECK(m.ok[2] && m.skip[2]); /* MERGE: the kernel pairs counters */
	T_EQ_INT(m.nunmapped, 1);
	T_ASSERT(pmk__lw_metric_text(t, &g, &m, 0, &s, why, sizeof why) == 0);
	T_EQ_STR(s, "lw_0 = (\"instructions\")  /  (duration_time / 1e9) \n");
	free(s);
	T_CHECK(m.mok[0]);
	T_CHECK(!m.mok[1]);
	T_CHECKF(strstr(m.mwhy[1], "NO_SUCH_EVENT (PMC0)") != NULL, "%s",
		 m.mwhy[1]);
	T_CHECK(!m.mok[2]);
	T_CHECKF(strstr(m.mwhy[2], "'frequency' is neither a counter") != NULL,
		 "%s", m.mwhy[2]);
	/* no sysfs, no TSC, no msr PMU: the clock is refused with why */
	T_CHECK(!m.mok[3]);
	T_CHECKF(strstr(m.mwhy[3], "inverseClock") != NULL, "%s", m.mwhy[3]);
	T_EQ_INT(m.nmissing, 3);
	pmk_target_free(t);
}

static pmk_target *fixture(const char *name)
{
	char sys[256], cpu[256];
	pmk_target *t = pmk_target_new();
	snprintf(sys, sizeof sys, "tests/fixtures/%s/sys", name);
	snprintf(cpu, sizeof cpu, "tests/fixtures/%s/proc/cpuinfo", name);
	if (pmk_target_discover(t, sys, cpu) != 0) {
		pmk_target_free(t);
		return NULL;
	}
	return t;
}

static const char *groups_dir(void)
{
	const char *env = getenv("PMKIT_LIKWID_GROUPS");
	return env && *env ? env : "/usr/share/likwid/perfgroups";
}

/* Every group of `arch` on fixture `fx`: an evaluable one compiles whole.
 * Returns the groups evaluable, and the total in *total. */
static int check_arch(const char *fx, const char *arch, int *total)
{
	static pmk__lw_group g;
	static pmk__lw_mapped m;
	pmk_target *t = fixture(fx);
	char dir[512];
	DIR *dp;
	struct dirent *de;
	int ok = 0;
	*total = 0;
	if (!t)
		return -1;
	snprintf(dir, sizeof dir, "%s/%s", groups_dir(), arch);
	if ((dp = opendir(dir)) == NULL) {
		pmk_target_free(t);
		return -1;
	}
	while ((de = readdir(dp)) != NULL) {
		char path[1024];
		pmk_diag d;
		if (!strstr(de->d_name, ".txt"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		T_CHECKF(pmk__lw_read(path, &g, &d) == 0, "%s: %s", path,
			 d.message);
		(*total)++;
		pmk__lw_map(t, &g, &m);
		if (m.nunmapped || m.nmissing)
			continue;
		ok++;
		for (int i = 0; i < g.nevent; i++) {
			pmk_event ev;
			char why[300];
			if (m.skip[i])
				continue;
			T_CHECKF(pmk__lw_event_compile(t, &g, &m, i, &ev, why,
						       sizeof why) == 0 &&
				     ev.nleaf >= 1,
				 "%s %s: %s", path, g.event[i].name, why);
		}
		for (int k = 0; k < g.nmetric; k++) {
			pmk_defs *defs;
			pmk_event ev;
			int idx;
			char why[300];
			T_ASSERT(pmk__lw_metric_defs(t, &g, &m, k, &defs, &idx,
						     why, sizeof why) == 0);
			for (int b = 0; b < pmk_defs_base_count(defs, idx); b++)
				T_CHECK(pmk_defs_base_resolved(defs, idx, b));
			T_CHECKF(pmk_defs_event(defs, idx, &ev, &d) == 0,
				 "%s '%s': %s", path, g.metric[k].name,
				 d.message);
			pmk_defs_free(defs);
		}
	}
	closedir(dp);
	printf("# %s groups on %s: %d of %d evaluable\n", arch, fx, ok, *total);
	pmk_target_free(t);
	return ok;
}

static void test_fixtures(void)
{
	int total, ok, perf;
	char dir[512];
	snprintf(dir, sizeof dir, "%s/zen3", groups_dir());
	if (access(dir, R_OK) != 0)
		T_SKIP("LIKWID's groups are not installed (Debian package "
		       "likwid)");
	if (!strcmp(pmk_model_source("icx") ? "y" : "", ""))
		T_SKIP("pmkit is built without libpfm4 (Debian package "
		       "libpfm4-dev)");
	/* what -g list counts on each, at least what was measured
	 * (docs/metrics.md); Zen's names need perf's JSON for 5 of them */
	perf =
	    pmk__pmu_events_dir() && access(pmk__pmu_events_dir(), R_OK) == 0;
	ok = check_arch("amd-zen3", "zen3", &total);
	T_CHECKF(ok >= (perf ? 13 : 8) && total >= 18, "zen3 %d/%d", ok, total);
	ok = check_arch("intel-icx", "ICX", &total);
	T_CHECKF(ok >= 9 && total >= 19, "icx %d/%d", ok, total);
	/* LIKWID 5.2 has no SPR directory: ICX's groups on the spr fixture */
	T_CHECK(pmk__lw_arch("spr") == NULL);
	ok = check_arch("intel-spr", "ICX", &total);
	T_CHECKF(ok >= 7, "spr with ICX's groups %d/%d", ok, total);
	check_arch("intel-skx", "skylakeX", &total);
	check_arch("intel-clx", "CLX", &total);
	check_arch("intel-bdx", "broadwellEP", &total);
	check_arch("amd-zen2", "zen2", &total);
	check_arch("amd-zen1", "zen", &total);
}

/* Mapped encodings: LIKWID's names onto the codes the vendors document. */
static void test_encodings(void)
{
	static const struct {
		const char *fx, *counter, *name;
		uint64_t config; /* event | umask << 8 */
	} enc[] = {
	    {"intel-icx", "PMC0", "FP_ARITH_INST_RETIRED_128B_PACKED_DOUBLE",
	     0x04c7},
	    {"intel-icx", "PMC0", "FP_ARITH_INST_RETIRED_512B_PACKED_SINGLE",
	     0x80c7},
	    {"intel-icx", "PMC0", "BR_MISP_RETIRED_ALL_BRANCHES", 0x00c5},
	    {"amd-zen3", "PMC0", "RETIRED_INSTRUCTIONS", 0xc0},
	    {"amd-zen3", "PMC0", "RETIRED_SSE_AVX_FLOPS_ALL", 0x0f03},
	    /* by perf's Zen 3 name l2_request_g1.all_no_prefetch */
	    {"amd-zen3", "PMC0", "REQUESTS_TO_L2_GRP1_ALL_NO_PF", 0xf960},
	};
	char dir[512];
	snprintf(dir, sizeof dir, "%s/zen3", groups_dir());
	if (!pmk_model_source("icx"))
		T_SKIP("pmkit is built without libpfm4 (Debian package "
		       "libpfm4-dev)");
	int perf =
	    pmk__pmu_events_dir() && access(pmk__pmu_events_dir(), R_OK) == 0;
	for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
		pmk__lw_event e = {0};
		if (!perf &&
		    !strcmp(enc[i].name, "REQUESTS_TO_L2_GRP1_ALL_NO_PF"))
			continue; /* perf's name only */
		pmk_target *t = fixture(enc[i].fx);
		char expr[256], s[256];
		int skip;
		pmk_event ev;
		T_ASSERT(t != NULL);
		snprintf(e.counter, sizeof e.counter, "%s", enc[i].counter);
		snprintf(e.name, sizeof e.name, "%s", enc[i].name);
		T_CHECKF(pmk__lw_map_event(t, &e, &skip, expr, sizeof expr) ==
			     0,
			 "%s: %s", enc[i].name, expr);
		/* the expression is one quoted event string */
		snprintf(s, sizeof s, "%.*s", (int)strlen(expr) - 2, expr + 1);
		T_ASSERT(pmk_event_parse(t, s, &ev, NULL) == 0);
		T_CHECKF((ev.leaf[0].config & 0xffff) == enc[i].config,
			 "%s -> %s: config %#llx, not %#llx", enc[i].name, s,
			 (unsigned long long)ev.leaf[0].config,
			 (unsigned long long)enc[i].config);
		pmk_target_free(t);
	}
}

int main(void)
{
	T_RUN(test_parse);
	T_RUN(test_translate);
	T_RUN(test_fixtures);
	T_RUN(test_encodings);
	return t_done();
}
