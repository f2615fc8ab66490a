/*
 * test_pmu_json.c: perf's pmu-events JSON as a source of metrics
 * (lib/derive/pmu_json.c).
 *  - the reader, on good and bad inputs (errors with line and column);
 *  - the translation of perf's expression syntax, on a small model written
 *    here: d_ratio, metric references, escaped and pmu@...@ names,
 *    modifiers, ScaleUnit, and the constructs refused by name;
 *  - perf 6.1's own files (skipped when they are not installed: Debian's
 *    linux-source-6.1, scripts/deps.d/pmu_events.sh) on the icx, spr and
 *    zen3 fixtures: every metric parses and resolves to events pmkit
 *    encodes, or is listed (`#` lines) with a reason of a known kind; and
 *    TopdownL1..L4 on icx and spr: every metric of the level translates
 *    and compiles into one event (what `-M TopdownLn` counts), each with
 *    the events perf's definitions name, and the level's union of events
 *    is perf's (a naive scan of the expressions is the reference).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmkit.h"
#include "lib/derive/pmu_json.h"
#include "tests/support/t.h"

static int count_cb(void *arg, int n, const char *const *k,
		    const char *const *v, int line)
{
	(void)k, (void)v, (void)line;
	*(int *)arg += n;
	return 0;
}

static void test_reader(void)
{
	static const struct {
		int src_line;
		const char *text;
		int ok, members, line, col;
		const char *msg;
	} cases[] = {
	    {__LINE__, "[]", 1, 0, 0, 0, NULL},
	    {__LINE__, " [ {} , {\"a\": \"b\"} ] \n", 1, 1, 0, 0, NULL},
	    {__LINE__, "[{\"a\": 1, \"b\": -2.5e3, \"c\": true, \"d\": null}]",
	     1, 4, 0, 0, NULL},
	    {__LINE__, "[{\"a\": \"x\\\"y\\u0041\\u00e9\"}]", 1, 1, 0, 0, NULL},
	    {__LINE__, "", 0, 0, 1, 1, "expected '['"},
	    {__LINE__, "{}", 0, 0, 1, 1, "expected '['"},
	    {__LINE__, "[\n{\"a\": [1]}]", 0, 0, 2, 7, "nested value"},
	    {__LINE__, "[{\"a\": {}}]", 0, 0, 1, 8, "nested value"},
	    {__LINE__, "[{\"a\" \"b\"}]", 0, 0, 1, 7, "expected ':'"},
	    {__LINE__, "[{\"a\": \"b}]", 0, 0, 1, 12, "unterminated string"},
	    {__LINE__, "[{\"a\": \"b\"} {}]", 0, 0, 1, 13,
	     "expected ',' or ']'"},
	    {__LINE__, "[{\"a\": \"\\q\"}]", 0, 0, 1, 9, "bad escape"},
	    {__LINE__, "[{\"a\": tru}]", 0, 0, 1, 8, "expected a value"},
	    {__LINE__, "[] x", 0, 0, 1, 4, "text after the array"},
	    {__LINE__, "[{\"a\": \"\n\"}]", 0, 0, 1, 9, "control character"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pmk_diag d;
		int n = 0;
		int rc = pmk__json_objects(cases[i].text, strlen(cases[i].text),
					   "t.json", count_cb, &n, &d);
		T_CHECKF((rc == 0) == cases[i].ok, "line %d: rc %d (%s)",
			 cases[i].src_line, rc, d.message);
		if (cases[i].ok) {
			T_CHECKF(n == cases[i].members, "line %d: %d members",
				 cases[i].src_line, n);
		} else {
			T_CHECKF(d.line == cases[i].line &&
				     d.column == cases[i].col &&
				     strstr(d.message, cases[i].msg),
				 "line %d: %d:%d %s", cases[i].src_line, d.line,
				 d.column, d.message);
		}
	}
	/* a NUL byte and a string past the bound are refused */
	{
		pmk_diag d;
		size_t big = PMK__JSON_STRING_MAX + 64;
		char *s = malloc(big + 32);
		T_ASSERT(s);
		T_CHECK(pmk__json_objects("[\0]", 3, "t", NULL, NULL, &d) < 0);
		strcpy(s, "[{\"a\": \"");
		memset(s + 8, 'x', big);
		strcpy(s + 8 + big, "\"}]");
		T_CHECK(pmk__json_objects(s, strlen(s), "t", NULL, NULL, &d) <
			    0 &&
			strstr(d.message, "bound"));
		free(s);
	}
}

/* A small model of perf's form, written to a directory as perf lays it
 * out (x86/icelakex), read back as CPU model "icx". */
static const char small_json[] =
    "[\n"
    "{\"EventName\": \"INST_RETIRED.ANY\", \"EventCode\": \"0x00\", \"UMask\": "
    "\"0x01\"},\n"
    "{\"EventName\": \"CPU_CLK_UNHALTED.THREAD\", \"EventCode\": \"0x00\", "
    "\"UMask\": \"0x02\"},\n"
    "{\"EventName\": \"IDQ.MITE_UOPS\", \"EventCode\": \"0x79\", \"UMask\": "
    "\"0x04\", \"CounterMask\": \"0\"},\n"
    "{\"EventName\": \"INT_MISC.RECOVERY_CYCLES\", \"EventCode\": \"0x0d\", "
    "\"UMask\": \"0x01\", \"CounterMask\": \"1\", \"EdgeDetect\": \"1\"},\n"
    "{\"EventName\": \"OCR.DEMAND\", \"EventCode\": \"0xB7, 0xBB\", \"UMask\": "
    "\"0x01\", \"MSRIndex\": \"0x1a6,0x1a7\", \"MSRValue\": \"0x10001\"},\n"
    "{\"EventName\": \"UNC_M_CAS_COUNT.RD\", \"EventCode\": \"0x04\", "
    "\"UMask\": \"0x0f\", \"Unit\": \"iMC\"},\n"
    "{\"MetricName\": \"CLKS\", \"MetricExpr\": \"CPU_CLK_UNHALTED.THREAD\"},\n"
    "{\"MetricName\": \"IPC\", \"MetricExpr\": \"INST_RETIRED.ANY / CLKS\", "
    "\"MetricGroup\": \"Ret;Summary\"},\n"
    "{\"MetricName\": \"ratio\", \"MetricExpr\": \"d_ratio(INST_RETIRED.ANY, "
    "CLKS)\", \"ScaleUnit\": \"100%\"},\n"
    "{\"MetricName\": \"mods\", \"MetricExpr\": "
    "\"cpu@IDQ.MITE_UOPS\\\\,cmask\\\\=4@ + INT_MISC.RECOVERY_CYCLES:k + "
    "topdown\\\\-fe\\\\-bound\"},\n"
    "{\"MetricName\": \"ocr\", \"MetricExpr\": \"OCR.DEMAND / IPC\"},\n"
    "{\"MetricName\": \"clamp\", \"MetricExpr\": \"max(0, IPC - 1)\"},\n"
    "{\"MetricName\": \"cond\", \"MetricExpr\": \"1 if #SMT_on else 2\"},\n"
    "{\"MetricName\": \"uses_clamp\", \"MetricExpr\": \"2 * clamp\"},\n"
    "{\"MetricName\": \"pkg\", \"MetricExpr\": \"IPC / #num_packages\"},\n"
    "{\"MetricName\": \"cmp\", \"MetricExpr\": \"IPC < 1\"},\n"
    "{\"MetricName\": \"mem\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD * 64 / "
    "duration_time\"},\n"
    "{\"MetricName\": \"unk\", \"MetricExpr\": \"IPC * #no_such_literal\"},\n"
    "{\"MetricName\": \"boxes\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD / "
    "source_count(UNC_M_CAS_COUNT.RD)\"},\n"
    "{\"MetricName\": \"newer\", \"MetricExpr\": \"IPC if "
    "has_event(INST_RETIRED.ANY) else 0\"},\n"
    "{\"MetricName\": \"smt\", \"MetricExpr\": \"(CLKS / 2 if #SMT_on else "
    "CLKS) * #num_cores / #core_wide\"}\n"
    "]\n";

static char tmpdir[256];

static pmk__pmu_model *small_model(void)
{
	char path[512];
	FILE *f;
	pmk__pmu_model *m = NULL;
	pmk_diag d;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/pmkit-pmujson-XXXXXX");
	if (!mkdtemp(tmpdir))
		return NULL;
	snprintf(path, sizeof path, "%s/x86", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/x86/icelakex", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/x86/icelakex/small.json", tmpdir);
	if (!(f = fopen(path, "w")))
		return NULL;
	fputs(small_json, f);
	fclose(f);
	if (pmk__pmu_model_load(&m, tmpdir, "icx", &d) < 0)
		printf("# load: %s\n", d.message);
	return m;
}

static void small_model_remove(void)
{
	char path[600];
	snprintf(path, sizeof path, "%s/x86/icelakex/small.json", tmpdir);
	unlink(path);
	snprintf(path, sizeof path, "%s/x86/icelakex", tmpdir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/x86", tmpdir);
	rmdir(path);
	rmdir(tmpdir);
}

static pmk_target *fixture(const char *name);

static void test_translate(void)
{
	static const struct {
		int src_line;
		const char *metric;
		const char *text; /* the translation, or NULL: refused */
		const char *why;  /* part of the refusal */
	} cases[] = {
	    {__LINE__, "IPC",
	     "CLKS = \"CPU_CLK_UNHALTED.THREAD\" \nIPC = \"INST_RETIRED.ANY\" "
	     "/ CLKS \n",
	     NULL},
	    {__LINE__, "ratio",
	     "CLKS = \"CPU_CLK_UNHALTED.THREAD\" \nratio = 100 * "
	     "(d_ratio(\"INST_RETIRED.ANY\" , CLKS ))\n",
	     NULL},
	    {__LINE__, "mods",
	     "mods = \"cpu@IDQ.MITE_UOPS,cmask=4@\" + "
	     "\"INT_MISC.RECOVERY_CYCLES:k\" + \"topdown-fe-bound\" \n",
	     NULL},
	    /* perf's operations pass into pmkit's infix as they are */
	    {__LINE__, "clamp",
	     "CLKS = \"CPU_CLK_UNHALTED.THREAD\" \nIPC = \"INST_RETIRED.ANY\" "
	     "/ CLKS \nclamp = max(0 , IPC - 1 )\n",
	     NULL},
	    {__LINE__, "uses_clamp",
	     "CLKS = \"CPU_CLK_UNHALTED.THREAD\" \nIPC = \"INST_RETIRED.ANY\" "
	     "/ CLKS \nclamp = max(0 , IPC - 1 )\nuses_clamp = 2 * clamp \n",
	     NULL},
	    {__LINE__, "cmp",
	     "CLKS = \"CPU_CLK_UNHALTED.THREAD\" \nIPC = \"INST_RETIRED.ANY\" "
	     "/ CLKS \ncmp = IPC < 1 \n",
	     NULL},
	    /* the #-literals from the icx fixture's topology: one package of
	     * four cores, one CPU each (no SMT); source_count from its two
	     * uncore_imc boxes */
	    {__LINE__, "cond", "cond = 1 if 0 else 2 \n", NULL},
	    {__LINE__, "pkg",
	     "CLKS = \"CPU_CLK_UNHALTED.THREAD\" \nIPC = \"INST_RETIRED.ANY\" "
	     "/ CLKS \npkg = IPC / 1 \n",
	     NULL},
	    {__LINE__, "smt",
	     "CLKS = \"CPU_CLK_UNHALTED.THREAD\" \nsmt = (CLKS / 2 if 0 else "
	     "CLKS )* 4 / 1 \n",
	     NULL},
	    {__LINE__, "boxes", "boxes = \"UNC_M_CAS_COUNT.RD\" / 2 \n", NULL},
	    {__LINE__, "unk", NULL,
	     "'#no_such_literal', a machine property pmkit does not supply"},
	    {__LINE__, "newer", NULL, "'has_event' (newer than perf 6.1"},
	};
	pmk__pmu_model *m = small_model();
	pmk_target *icx = fixture("intel-icx");
	T_ASSERT(m && icx);
	T_EQ_INT(pmk__pmu_metric_count(m), 15);
	T_EQ_INT(pmk__pmu_event_count(m), 6);
	T_CHECK(pmk__pmu_metric_in_group(m, pmk__pmu_metric_find(m, "ipc"),
					 "summary"));
	T_CHECK(pmk__pmu_group_exists(m, "Ret") &&
		!pmk__pmu_group_exists(m, "Re"));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = NULL, why[600];
		int k = pmk__pmu_metric_find(m, cases[i].metric);
		int rc =
		    pmk__pmu_metric_text(m, k, icx, &text, why, sizeof why);
		if (cases[i].text)
			T_CHECKF(rc == 0 && !strcmp(text, cases[i].text),
				 "line %d: rc %d [%s] %s", cases[i].src_line,
				 rc, text ? text : "", why);
		else
			T_CHECKF(rc < 0 && strstr(why, cases[i].why),
				 "line %d: rc %d why '%s'", cases[i].src_line,
				 rc, why);
		free(text);
	}
	/* the event strings perf's fields give */
	{
		static const struct {
			const char *name, *want;
			int rc;
		} ev[] = {
		    {"INST_RETIRED.ANY", "cpu/event=0x0,umask=0x1/", 0},
		    {"inst_retired.any", "cpu/event=0x0,umask=0x1/", 0},
		    {"INT_MISC.RECOVERY_CYCLES:k",
		     "cpu/event=0xd,umask=0x1,cmask=1,edge=1/k", 0},
		    {"cpu@IDQ.MITE_UOPS,cmask=4@",
		     "cpu/event=0x79,umask=0x4,cmask=4/", 0},
		    {"OCR.DEMAND",
		     "cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", 0},
		    {"msr@tsc@", "msr/tsc/", 1},
		    {"duration_time", "duration_time", 1},
		    /* an uncore event: its family of boxes */
		    {"UNC_M_CAS_COUNT.RD", "imc/event=0x4,umask=0xf/", 2},
		    {"UNC_M_CAS_COUNT.RD:u",
		     "uncore event of perf's unit 'iMC' "
		     "with modifiers",
		     -1},
		};
		for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
			char buf[300];
			int rc = pmk__pmu_event_string(m, ev[i].name, "cpu",
						       buf, sizeof buf);
			T_CHECKF(rc == ev[i].rc && !strncmp(buf, ev[i].want,
							    strlen(ev[i].want)),
				 "%s: %d '%s'", ev[i].name, rc, buf);
		}
	}
	pmk__pmu_model_free(m);
	pmk_target_free(icx);
	small_model_remove();
}

static pmk_target *fixture(const char *name)
{
	const char *src = getenv("PMK_SRC");
	char root[1024];
	pmk_target *t = pmk_target_new();
	snprintf(root, sizeof root, "%s/tests/fixtures/%s/sys",
		 src && *src ? src : ".", name);
	if (t && pmk_target_discover(t, root, NULL) < 0) {
		pmk_target_free(t);
		return NULL;
	}
	return t;
}

/* Kinds of reasons a metric of perf's may not be evaluable; anything else
 * is a failure. */
static const char *const known_why[] = {
    "the target has no PMU", /* a PMU the fixture lacks (cstate_pkg, upi) */
    "does not declare its TSC frequency", /* spr: no '@ GHz' in cpuinfo */
    "the target's PMUs do not export it", /* an alias the fixture lacks */
    "has no term or event", /* an alias of a PMU the fixture has */
    "is not a name pmkit's definitions accept", /* "power_channel_ppd %" */
};

static int known(const char *why)
{
	for (size_t i = 0; i < sizeof known_why / sizeof known_why[0]; i++)
		if (strstr(why, known_why[i]))
			return 1;
	return 0;
}

static const struct {
	const char *fixture, *model;
} models[] = {
    {"intel-icx", "icx"},
    {"intel-spr", "spr"},
    {"amd-zen3", "amd64_fam19h_zen3"},
    /* the other fixtures perf 6.1 has metrics for */
    {"intel-skx", "skx"},
    {"intel-clx", "clx"},
    {"intel-bdx", "bdw_ep"},
    {"intel-adl", "adl_glc"},
    {"amd-zen1", "amd64_fam17h_zen1"},
    {"amd-zen2", "amd64_fam17h_zen2"},
};

static void test_perf_metrics(void)
{
	if (!pmk__pmu_events_dir())
		T_SKIP("perf's pmu-events are not installed (Debian's "
		       "linux-source-6.1; PMKIT_PMU_EVENTS=DIR)");
	for (size_t f = 0; f < sizeof models / sizeof models[0]; f++) {
		pmk_target *t = fixture(models[f].fixture);
		pmk__pmu_model *m;
		pmk_diag d;
		int ok = 0, refused = 0, unres = 0, once = 0;
		T_ASSERT(t);
		T_EQ_STR(pmk_target_model(t), models[f].model);
		T_CHECKF(pmk__pmu_model_load(&m, NULL, models[f].model, &d) ==
			     0,
			 "%s: %s", models[f].model, d.message);
		if (!m) {
			pmk_target_free(t);
			continue;
		}
		for (int i = 0; i < pmk__pmu_metric_count(m); i++) {
			pmk_defs *defs;
			int idx, bad = 0;
			char why[1600];
			if (pmk__pmu_metric_defs(m, i, t, &defs, &idx, why,
						 sizeof why) < 0) {
				printf("# %s %s: refused: %s\n",
				       models[f].model,
				       pmk__pmu_metric_name(m, i), why);
				T_CHECKF(known(why), "%s: %s", models[f].model,
					 why);
				refused++;
				continue;
			}
			for (int b = 0; b < pmk_defs_base_count(defs, idx);
			     b++) {
				const char *base = pmk_defs_base(defs, idx, b);
				const char *w = pmk__pmu_base_why(m, base);
				if (pmk_defs_base_resolved(defs, idx, b))
					continue;
				if (!bad)
					printf("# %s %s: unresolved: %s: %s\n",
					       models[f].model,
					       pmk__pmu_metric_name(m, i), base,
					       w);
				T_CHECKF(known(w), "%s %s: %s: %s",
					 models[f].model,
					 pmk__pmu_metric_name(m, i), base, w);
				bad = 1;
			}
			bad ? unres++ : ok++;
			if (!bad) {
				pmk_event ev;
				pmk_diag ed;
				if (pmk_defs_event(defs, idx, &ev, &ed) == 0)
					once++;
				else
					printf("# %s %s: not at once: %s\n",
					       models[f].model,
					       pmk__pmu_metric_name(m, i),
					       ed.message);
			}
			pmk_defs_free(defs);
		}
		printf("# %s (%s): %d metrics, %d events: %d resolve (%d of "
		       "them within one event's %d natives and %d steps), %d "
		       "with an event pmkit cannot count from perf's JSON "
		       "here, %d refused\n",
		       models[f].model, pmk__pmu_model_path(m),
		       pmk__pmu_metric_count(m), pmk__pmu_event_count(m), ok,
		       once, PMK_LEAF_MAX, PMK_OPS_MAX, unres, refused);
		T_CHECK(ok > 0);
		/* perf's language is read whole: on icx and zen3 nothing is
		 * refused, and every Zen 3 metric resolves (what icx and spr
		 * leave are PMUs, terms and aliases the fixtures lack, and on
		 * spr the TSC frequency its cpuinfo does not give) */
		if (!strcmp(models[f].model, "icx") ||
		    !strcmp(models[f].model, "amd64_fam19h_zen3"))
			T_EQ_INT(refused, 0);
		if (!strcmp(models[f].model, "amd64_fam19h_zen3"))
			T_EQ_INT(ok, pmk__pmu_metric_count(m));
		pmk__pmu_model_free(m);
		pmk_target_free(t);
	}
}

/* The reference: the events a metric's expression names, with the
 * metrics it uses expanded, by a plain scan of perf's text (perf's lexer:
 * a symbol is [0-9A-Za-z_.:@?#] and backslash escapes). */
static void scan(const pmk__pmu_model *m, int i, char (*set)[256], int *n,
		 int max, int depth)
{
	const char *s = pmk__pmu_metric_expr(m, i);
	if (depth > 20)
		return;
	while (*s) {
		char sym[256];
		size_t l = 0;
		int k;
		if (!(isalnum((unsigned char)*s) || strchr("_.:@?#\\", *s))) {
			s++;
			continue;
		}
		while (*s &&
		       (isalnum((unsigned char)*s) || strchr("_.:@?#\\", *s))) {
			if (*s == '\\' && s[1])
				s++;
			if (l + 1 < sizeof sym)
				sym[l++] = *s;
			s++;
		}
		sym[l] = 0;
		if (isdigit((unsigned char)sym[0]) || sym[0] == '.' ||
		    sym[0] == '#' || !strcmp(sym, "if") ||
		    !strcmp(sym, "else") || !strcmp(sym, "d_ratio") ||
		    !strcmp(sym, "min") || !strcmp(sym, "max") ||
		    !strcmp(sym, "source_count"))
			continue;
		if ((k = pmk__pmu_metric_find(m, sym)) >= 0) {
			scan(m, k, set, n, max, depth + 1);
			continue;
		}
		for (k = 0; k < *n; k++)
			if (!strcmp(set[k], sym))
				break;
		if (k == *n && *n < max)
			snprintf(set[(*n)++], 256, "%s", sym);
	}
}

static void test_topdown_events(void)
{
	if (!pmk__pmu_events_dir())
		T_SKIP("perf's pmu-events are not installed");
	for (size_t f = 0; f < 2; f++) {
		pmk_target *t = fixture(models[f].fixture);
		pmk__pmu_model *m;
		pmk_diag d;
		T_ASSERT(t);
		T_ASSERT(pmk__pmu_model_load(&m, NULL, models[f].model, &d) ==
			 0);
		for (int level = 1; level <= 4; level++) {
			char group[16];
			int n = 0, translated = 0, same = 0, encoded = 0;
			int once = 0, nperf = 0, npmk = 0;
			static char perf_set[512][256], pmk_set[512][256];
			snprintf(group, sizeof group, "TopdownL%d", level);
			for (int i = 0; i < pmk__pmu_metric_count(m); i++) {
				static char want[64][256];
				int nwant = 0, idx, match = 1;
				pmk_defs *defs;
				char why[1600];
				if (!pmk__pmu_metric_in_group(m, i, group))
					continue;
				n++;
				if (pmk__pmu_metric_defs(m, i, t, &defs, &idx,
							 why, sizeof why) < 0) {
					printf("# %s %s %s: %s\n",
					       models[f].model, group,
					       pmk__pmu_metric_name(m, i), why);
					continue;
				}
				translated++;
				scan(m, i, want, &nwant, 64, 0);
				/* the group's union, both ways */
				scan(m, i, perf_set, &nperf, 512, 0);
				for (int b = 0;
				     b < pmk_defs_base_count(defs, idx); b++) {
					const char *bn =
					    pmk_defs_base(defs, idx, b);
					int k;
					for (k = 0; k < npmk; k++)
						if (!strcmp(pmk_set[k], bn))
							break;
					if (k == npmk && npmk < 512)
						snprintf(pmk_set[npmk++], 256,
							 "%s", bn);
				}
				{
					/* what -M counts: the metric as one
					 * event */
					pmk_event ev;
					pmk_diag ed;
					once += pmk_defs_event(defs, idx, &ev,
							       &ed) == 0;
				}
				match = nwant == pmk_defs_base_count(defs, idx);
				for (int w = 0; w < nwant && match; w++) {
					int found = 0;
					for (int b = 0;
					     b < pmk_defs_base_count(defs, idx);
					     b++)
						found |= !strcmp(
						    want[w], pmk_defs_base(
								 defs, idx, b));
					match = found;
				}
				T_CHECKF(
				    match, "%s %s: %d events, perf names %d",
				    models[f].model, pmk__pmu_metric_name(m, i),
				    pmk_defs_base_count(defs, idx), nwant);
				same += match;
				{
					int all = 1;
					for (int b = 0;
					     b < pmk_defs_base_count(defs, idx);
					     b++)
						all &= pmk_defs_base_resolved(
						    defs, idx, b);
					encoded += all;
				}
				pmk_defs_free(defs);
			}
			printf("# %s %s: %d metrics, %d translated, %d with "
			       "perf's event list, %d of them encoded on the "
			       "fixture, %d countable as one event each; the "
			       "group's events: perf %d, pmkit %d\n",
			       models[f].model, group, n, translated, same,
			       encoded, once, nperf, npmk);
			/* every metric of the level translates, with perf's
			 * events, and the level's union is perf's */
			T_CHECK(n > 0 && translated == n && same == n &&
				once == n);
			T_CHECKF(nperf == npmk,
				 "%s %s: perf %d events, pmkit %d",
				 models[f].model, group, nperf, npmk);
			for (int a = 0; a < nperf; a++) {
				int found = 0;
				for (int b = 0; b < npmk && !found; b++)
					found =
					    !strcmp(perf_set[a], pmk_set[b]);
				T_CHECKF(found,
					 "%s %s: perf's %s is not counted",
					 models[f].model, group, perf_set[a]);
			}
			/* on icx every event of levels 1-4 encodes; the spr
			 * fixture's core PMU lacks the kernel's level-2
			 * topdown aliases (topdown-fetch-lat, ...) */
			if (!strcmp(models[f].model, "icx"))
				T_CHECK(encoded == n);
		}
		pmk__pmu_model_free(m);
		pmk_target_free(t);
	}
}

int main(void)
{
	T_RUN(test_reader);
	T_RUN(test_translate);
	T_RUN(test_perf_metrics);
	T_RUN(test_topdown_events);
	return t_done();
}
