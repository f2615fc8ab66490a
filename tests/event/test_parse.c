/*
 * test_parse.c: the event-string grammar on targets built by hand (pure:
 * no PMU needed). Good and bad strings side by side, each with its line.
 */
#include <stdio.h>
#include <string.h>

#include "pmkit.h"
#include "tests/support/t.h"

static pmk_target *x86_target(void)
{
	pmk_target *t = pmk_target_new();
	pmk_target_add_pmu(t, "cpu", 4, 1);
	pmk_target_add_format(t, "cpu", "event", "config:0-7,32-35", NULL);
	pmk_target_add_format(t, "cpu", "umask", "config:8-15", NULL);
	pmk_target_add_format(t, "cpu", "edge", "config:18", NULL);
	pmk_target_add_format(t, "cpu", "inv", "config:23", NULL);
	pmk_target_add_format(t, "cpu", "cmask", "config:24-31", NULL);
	pmk_target_add_format(t, "cpu", "ldlat", "config1:0-15", NULL);
	pmk_target_add_alias(t, "cpu", "cpu-cycles", "event=0x3c");
	pmk_target_add_alias(t, "cpu", "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
	pmk_target_add_pmu(t, "msr", 9, 0);
	pmk_target_add_format(t, "msr", "event", "config:0-63", NULL);
	pmk_target_add_alias(t, "msr", "tsc", "event=0x00\n");
	pmk_target_add_alias(t, "msr", "aperf", "event=0x01");
	return t;
}

static pmk_target *vm_target(void) /* like this VM: no core PMU */
{
	pmk_target *t = pmk_target_new();
	pmk_target_add_pmu(t, "msr", 9, 0);
	pmk_target_add_format(t, "msr", "event", "config:0-63", NULL);
	pmk_target_add_alias(t, "msr", "tsc", "event=0x00");
	return t;
}

struct good {
	int line;
	const char *str;
	pmk_event_kind kind;
	uint32_t type;
	unsigned long long config, config1;
	int xu, xk, xh, precise;
	unsigned long long sample;
	int freq;
};

static const struct good goods[] = {
	{__LINE__, "task-clock", PMK_KIND_SOFTWARE, 1, 1, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cpu-clock", PMK_KIND_SOFTWARE, 1, 0, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "page-faults:u", PMK_KIND_SOFTWARE, 1, 2, 0, 0, 1, 1, 0, 0, 0},
	{__LINE__, "faults", PMK_KIND_SOFTWARE, 1, 2, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "minor-faults", PMK_KIND_SOFTWARE, 1, 5, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "major-faults", PMK_KIND_SOFTWARE, 1, 6, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "context-switches", PMK_KIND_SOFTWARE, 1, 3, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cs:k", PMK_KIND_SOFTWARE, 1, 3, 0, 1, 0, 1, 0, 0, 0},
	{__LINE__, "cpu-migrations", PMK_KIND_SOFTWARE, 1, 4, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "alignment-faults", PMK_KIND_SOFTWARE, 1, 7, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "emulation-faults", PMK_KIND_SOFTWARE, 1, 8, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cycles", PMK_KIND_HARDWARE, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "instructions:u", PMK_KIND_HARDWARE, 0, 1, 0, 0, 1, 1, 0, 0, 0},
	{__LINE__, "instructions:uk", PMK_KIND_HARDWARE, 0, 1, 0, 0, 0, 1, 0, 0, 0},
	{__LINE__, "instructions:ukh", PMK_KIND_HARDWARE, 0, 1, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cache-references", PMK_KIND_HARDWARE, 0, 2, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cache-misses", PMK_KIND_HARDWARE, 0, 3, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "branches", PMK_KIND_HARDWARE, 0, 4, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "branch-misses", PMK_KIND_HARDWARE, 0, 5, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "bus-cycles", PMK_KIND_HARDWARE, 0, 6, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "stalled-cycles-frontend", PMK_KIND_HARDWARE, 0, 7, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "stalled-cycles-backend", PMK_KIND_HARDWARE, 0, 8, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "ref-cycles", PMK_KIND_HARDWARE, 0, 9, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cycles:ppp", PMK_KIND_HARDWARE, 0, 0, 0, 0, 0, 0, 3, 0, 0},
	{__LINE__, "cycles:upp", PMK_KIND_HARDWARE, 0, 0, 0, 0, 1, 1, 2, 0, 0},
	{__LINE__, "cycles:period=100000", PMK_KIND_HARDWARE, 0, 0, 0, 0, 0, 0, 0, 100000, 0},
	{__LINE__, "cpu-clock:freq=999", PMK_KIND_SOFTWARE, 1, 0, 0, 0, 0, 0, 0, 999, 1},
	{__LINE__, "L1-dcache-load-misses", PMK_KIND_HWCACHE, 3, 0x10000, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "L1-dcache-loads", PMK_KIND_HWCACHE, 3, 0x0, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "L1-dcache-stores", PMK_KIND_HWCACHE, 3, 0x100, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "L1-icache-load-misses", PMK_KIND_HWCACHE, 3, 0x10001, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "LLC-loads", PMK_KIND_HWCACHE, 3, 0x2, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "LLC-load-misses", PMK_KIND_HWCACHE, 3, 0x10002, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "LLC-prefetch-misses", PMK_KIND_HWCACHE, 3, 0x10202, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "dTLB-load-misses", PMK_KIND_HWCACHE, 3, 0x10003, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "iTLB-load-misses", PMK_KIND_HWCACHE, 3, 0x10004, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "branch-load-misses", PMK_KIND_HWCACHE, 3, 0x10005, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "node-store-misses", PMK_KIND_HWCACHE, 3, 0x10106, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "r00c0", PMK_KIND_RAW, 4, 0xc0, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "r0x412e", PMK_KIND_RAW, 4, 0x412e, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "r1C0:u", PMK_KIND_RAW, 4, 0x1c0, 0, 0, 1, 1, 0, 0, 0},
	{__LINE__, "r003c:e:c=2", PMK_KIND_RAW, 4, 0x204003c, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "r00c0:i:c=1", PMK_KIND_RAW, 4, 0x18000c0, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "r00c0:umask=0x41", PMK_KIND_RAW, 4, 0x41c0, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cpu/event=0x3c,umask=0x1,edge=1,inv=1,cmask=2/", PMK_KIND_PMU, 4, 0x284013c, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cpu/event=0x3c,edge/", PMK_KIND_PMU, 4, 0x4003c, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cpu/event=0x1d4/", PMK_KIND_PMU, 4, 0x1000000d4ull, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cpu/event=0xc0/u", PMK_KIND_PMU, 4, 0xc0, 0, 0, 1, 1, 0, 0, 0},
	{__LINE__, "cpu/event=0xc0/:k", PMK_KIND_PMU, 4, 0xc0, 0, 1, 0, 1, 0, 0, 0},
	{__LINE__, "cpu/config=0x1234,config1=7/", PMK_KIND_PMU, 4, 0x1234, 7, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cpu/cpu-cycles/", PMK_KIND_PMU, 4, 0x3c, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "cpu/mem-loads/pp", PMK_KIND_PMU, 4, 0x1cd, 3, 0, 0, 0, 2, 0, 0},
	{__LINE__, "cpu/event=0xc0,period=5000/", PMK_KIND_PMU, 4, 0xc0, 0, 0, 0, 0, 0, 5000, 0},
	{__LINE__, "msr/tsc/", PMK_KIND_PMU, 9, 0, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "msr/aperf/", PMK_KIND_PMU, 9, 1, 0, 0, 0, 0, 0, 0, 0},
	{__LINE__, "software/config=1/", PMK_KIND_PMU, 1, 1, 0, 0, 0, 0, 0, 0, 0},
};

static void test_good_strings(void)
{
	pmk_target *t = x86_target();
	for (size_t i = 0; i < sizeof goods / sizeof *goods; i++) {
		const struct good *g = &goods[i];
		pmk_event ev;
		pmk_diag d;
		int rc = pmk_event_parse(t, g->str, &ev, &d);
		T_CHECKF(rc == 0, "line %d: '%s' failed: %s", g->line, g->str,
			 d.message);
		if (rc)
			continue;
		T_CHECKF(ev.kind == g->kind && ev.nleaf == 1 &&
				 ev.leaf[0].type == g->type &&
				 ev.leaf[0].config == g->config &&
				 ev.leaf[0].config1 == g->config1 &&
				 ev.leaf[0].exclude_user == (unsigned)g->xu &&
				 ev.leaf[0].exclude_kernel == (unsigned)g->xk &&
				 ev.leaf[0].exclude_hv == (unsigned)g->xh &&
				 ev.leaf[0].precise_ip == (unsigned)g->precise &&
				 ev.leaf[0].sample == g->sample &&
				 ev.leaf[0].freq == (unsigned)g->freq,
			 "line %d: '%s' -> kind %d type %u config 0x%llx "
			 "config1 0x%llx xu%u xk%u xh%u p%u sample %llu",
			 g->line, g->str, ev.kind, ev.leaf[0].type,
			 (unsigned long long)ev.leaf[0].config,
			 (unsigned long long)ev.leaf[0].config1,
			 ev.leaf[0].exclude_user, ev.leaf[0].exclude_kernel,
			 ev.leaf[0].exclude_hv, ev.leaf[0].precise_ip,
			 (unsigned long long)ev.leaf[0].sample);
		T_EQ_STR(ev.name, g->str);
	}
	pmk_target_free(t);
}

struct bad {
	int line;
	const char *str;
	int code, column;
	const char *msg;  /* substring of the message */
	const char *hint; /* substring of the hint, or NULL */
};

static const struct bad bads[] = {
	{__LINE__, "nosuch", PMK_ENOEVENT, 1, "unknown event 'nosuch'", "pmkit list"},
	{__LINE__, "task-clok", PMK_ENOEVENT, 1, "unknown event", "did you mean 'task-clock'"},
	{__LINE__, "", PMK_ESYNTAX, 1, "empty event name", NULL},
	{__LINE__, "cycles:q", PMK_ESYNTAX, 8, "unknown modifier 'q'", ":u :k :h"},
	{__LINE__, "cycles:uq", PMK_ESYNTAX, 9, "unknown modifier 'q'", NULL},
	{__LINE__, "cycles:pppp", PMK_ESYNTAX, 11, "too many 'p'", NULL},
	{__LINE__, "cycles:", PMK_ESYNTAX, 8, "empty modifier", NULL},
	{__LINE__, "cycles:c=2", PMK_EINVAL, 8, "no counter fields", "r003c:e"},
	{__LINE__, "task-clock:e", PMK_EINVAL, 12, "no counter fields", NULL},
	{__LINE__, "cycles:period=abc", PMK_ESYNTAX, 15, "bad value 'abc'", NULL},
	{__LINE__, "cycles:foo=1", PMK_ESYNTAX, 8, "unknown modifier 'foo'", NULL},
	{__LINE__, "r00c0:c=300", PMK_ERANGE, 7, "does not fit in 8 bits", NULL},
	{__LINE__, "cpu/event=0x3c,bogus=1/", PMK_ENOEVENT, 16, "no term or event 'bogus'", "terms of 'cpu': event umask"},
	{__LINE__, "cpu/umask=0x100/", PMK_ERANGE, 11, "does not fit in 8 bits", NULL},
	{__LINE__, "cpu/event=0x3c", PMK_ESYNTAX, 15, "missing '/'", NULL},
	{__LINE__, "cpu/event=zz/", PMK_ESYNTAX, 11, "bad value 'zz'", NULL},
	{__LINE__, "cpu/event=0x3c/e", PMK_ESYNTAX, 16, "inside the terms", "edge=1"},
	{__LINE__, "nopmu/event=1/", PMK_ENOPMU, 1, "no PMU 'nopmu'", "PMUs here: software"},
	{__LINE__, "cycles:period=1:freq=2", PMK_EINVAL, 7, "both period and freq", NULL},
	{__LINE__, "task clock", PMK_ESYNTAX, 5, "unexpected character", NULL},
	{__LINE__, "nosuchmodel::INST_RETIRED", PMK_ENOPMU, 1, "no PMU or event tables for 'nosuchmodel'", NULL},
};

static void test_bad_strings_name_the_column(void)
{
	pmk_target *t = x86_target();
	for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
		const struct bad *b = &bads[i];
		pmk_event ev;
		pmk_diag d;
		int rc = pmk_event_parse(t, b->str, &ev, &d);
		T_CHECKF(rc == b->code && d.code == b->code,
			 "line %d: '%s' gave %s, want %s (%s)", b->line, b->str,
			 pmk_errname(rc), pmk_errname(b->code), d.message);
		T_CHECKF(d.column == b->column,
			 "line %d: '%s' column %d, want %d (%s)", b->line,
			 b->str, d.column, b->column, d.message);
		T_CHECKF(strstr(d.message, b->msg) != NULL,
			 "line %d: '%s' message '%s' lacks '%s'", b->line,
			 b->str, d.message, b->msg);
		if (b->hint)
			T_CHECKF(strstr(d.hint, b->hint) != NULL,
				 "line %d: '%s' hint '%s' lacks '%s'", b->line,
				 b->str, d.hint, b->hint);
		T_EQ_STR(d.input, b->str);
	}
	pmk_target_free(t);
}

static void test_no_core_pmu_still_parses_software(void)
{
	pmk_target *t = vm_target();
	pmk_event ev;
	pmk_diag d;
	T_EQ_INT(pmk_event_parse(t, "task-clock", &ev, &d), 0);
	T_EQ_INT(pmk_event_parse(t, "msr/tsc/", &ev, &d), 0);
	T_EQ_INT(ev.leaf[0].type, 9);
	/* raw modifiers need a field layout: none here and no model */
	T_EQ_INT(pmk_event_parse(t, "r00c0:e", &ev, &d), PMK_ENOTSUP);
	T_CHECK(strstr(d.message, "no 'edge' field") != NULL);
	T_EQ_INT(pmk_event_parse(t, "cpu/event=0xc0/", &ev, &d), PMK_ENOPMU);
	T_CHECK(strstr(d.hint, "no hardware PMU: virtual machine?") != NULL);
	pmk_target_free(t);
}

static void test_marker_format(void)
{
	pmk_target *t = x86_target();
	pmk_event ev;
	pmk_diag d;
	char buf[1024];
	pmk_event_parse(t, "cycles:uq", &ev, &d);
	pmk_diag_format(&d, buf, sizeof buf);
	T_CHECK(strstr(buf, "    cycles:uq\n            ^") != NULL);
	pmk_target_free(t);
}

static int collect(const char *item, int col, void *arg)
{
	char *out = arg;
	char tmp[200];
	snprintf(tmp, sizeof tmp, "[%s@%d]", item, col);
	strcat(out, tmp);
	return 0;
}

static void test_list_split_keeps_terms_together(void)
{
	char out[512] = "";
	pmk_event_list_foreach("task-clock, cpu/event=0x3c,umask=1/u,msr/tsc/",
			       collect, out);
	T_EQ_STR(out, "[task-clock@1][cpu/event=0x3c,umask=1/u@13][msr/tsc/@38]");
	out[0] = 0;
	pmk_event_list_foreach("a,,b", collect, out);
	T_EQ_STR(out, "[a@1][@3][b@4]");
}

static void test_eval_and_intervals(void)
{
	pmk_event ev;
	double v[2] = {10, 4};
	memset(&ev, 0, sizeof ev);
	ev.nleaf = 2;
	/* (L0 - L1) / L1 * 100 */
	pmk_op ops[] = {{PMK_OP_LEAF, 0, 0}, {PMK_OP_LEAF, 1, 0},
			{PMK_OP_SUB, 0, 0},  {PMK_OP_LEAF, 1, 0},
			{PMK_OP_DIV, 0, 0},  {PMK_OP_CONST, 0, 100},
			{PMK_OP_MUL, 0, 0}};
	memcpy(ev.ops, ops, sizeof ops);
	ev.nops = 7;
	T_NEAR(pmk_event_eval(&ev, v), 150.0, 1e-12);
	v[1] = 0;
	T_CHECK(isnan(pmk_event_eval(&ev, v)));
	ev.nops = 2; /* leftover operand: malformed */
	T_CHECK(isnan(pmk_event_eval(&ev, v)));
}

int main(void)
{
	T_RUN(test_good_strings);
	T_RUN(test_bad_strings_name_the_column);
	T_RUN(test_no_core_pmu_still_parses_software);
	T_RUN(test_marker_format);
	T_RUN(test_list_split_keeps_terms_together);
	T_RUN(test_eval_and_intervals);
	return t_done();
}
