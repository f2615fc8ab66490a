/*
 * test_native.c: native event strings, presets and model detection, on
 * pmkit's own tables (no libpfm4 needed; test_pfm_compare.c checks the
 * encodings against libpfm4).
 */
#include <string.h>

#include "tests/support/t.h"
#include "lib/event/native.h"
#include "lib/event/models.h"
#include "lib/event/tbl.h"

static int parse(const char *s, pmk_event *ev, pmk_diag *d)
{
	memset(ev, 0, sizeof *ev);
	pmk_diag_clear(d);
	return pmk__native_parse_model(NULL, "cpu", s, 1, ev, d);
}

/* Zen 5 (this machine's CPU; libpfm4 4.13 lacks it): the dispatch-slot
 * events of the top-down analysis encode as the PPR gives them. */
static void test_zen5_slots(void)
{
	pmk_event ev;
	pmk_diag d;
	T_EQ_INT(parse("amd64_fam1ah_zen5::de_no_dispatch_per_slot."
		       "no_ops_from_frontend",
		       &ev, &d),
		 0);
	T_EQ_INT(ev.kind, PMK_KIND_NATIVE);
	T_EQ_INT(ev.nleaf, 1);
	T_EQ_INT(ev.leaf[0].type, PMK_TYPE_RAW);
	/* PMCx1A0: event[7:0]=0xa0, event[11:8]=1 in config[35:32] */
	T_EQ_U64(ev.leaf[0].config, 0x1000000a0ull | (0x01 << 8));
	T_EQ_INT(parse("zen5::DISPATCH_STALLS_1:BE_STALLS:c=8:u", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x1000000a0ull | (0x1e << 8) | (8u << 24));
	T_EQ_INT(ev.leaf[0].exclude_kernel, 1);
	T_EQ_INT(ev.leaf[0].exclude_user, 0);
	T_EQ_INT(ev.leaf[0].exclude_hv, 1);
	T_EQ_INT(parse("amd64_fam1ah_zen5::ex_ret_ops", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0xc1);
	T_EQ_INT(parse("amd64_fam1ah_zen5::ls_not_halted_cyc", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x76);
	T_EQ_INT(parse("amd64_fam1ah_zen5::de_src_op_disp.all", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x07aa);
	T_EQ_INT(parse("amd64_fam1ah_zen5::bp_redirects.resync", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x019f);
	T_EQ_INT(
	    parse("amd64_fam1ah_zen5::ex_no_retire.load_not_complete", &ev, &d),
	    0);
	T_EQ_U64(ev.leaf[0].config, 0xa2d6);
	T_EQ_STR(ev.leaf[0].pmu, "cpu");
	/* Zen 5's PMCx003 differs from Zen 4's: "all" is 0x0f */
	T_EQ_INT(parse("zen5::fp_ret_sse_avx_ops", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x0f03);
	T_EQ_INT(parse("zen4::fp_ret_sse_avx_ops", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x1f03);
	T_EQ_INT(parse("zen5::bp_redirects.ex_redir", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x029f);
}

/* The Intel top-down events on Ice Lake and the SDM-style dotted names. */
static void test_intel_names(void)
{
	pmk_event ev;
	pmk_diag d;
	T_EQ_INT(parse("icl::TOPDOWN.SLOTS", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x0400);
	T_EQ_INT(parse("icl::TOPDOWN:BACKEND_BOUND_SLOTS", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x02a4);
	T_EQ_INT(parse("skl::IDQ_UOPS_NOT_DELIVERED.CORE", &ev, &d), 0);
	T_EQ_U64(ev.leaf[0].config, 0x019c);
	T_EQ_INT(parse("skl::UOPS_RETIRED:RETIRE_SLOTS:period=100003", &ev, &d),
		 0);
	T_EQ_U64(ev.leaf[0].sample, 100003);
	T_EQ_INT(parse("skl::INST_RETIRED:PREC_DIST:pp", &ev, &d), 0);
	T_EQ_INT(ev.leaf[0].precise_ip, 2);
	T_EQ_STR(ev.leaf[0].name, "skl::INST_RETIRED:PREC_DIST:pp");
}

/* Bad strings: the error code, the column of the failing token and a
 * hint naming what would be valid. */
static void test_errors(void)
{
	static const struct {
		const char *s;
		int rc, col, len;
		const char *in_msg, *in_hint;
	} bad[] = {
	    {"skl::INST_RETIRED:ANY_Q", PMK_EINVAL, 19, 5, "ANY_Q", "ANY_P"},
	    {"skl::INST_RETIRED:ANY_P:c=300", PMK_ERANGE, 25, 5, "300",
	     "0..255"},
	    {"skl::INST_RETIRED:ANY_P:zz=1", PMK_EINVAL, 25, 2,
	     "unknown modifier 'zz'", "c=N"},
	    {"skl::INST_RETIRED:ANY_P:h", PMK_EINVAL, 25, 1, "'h'", "accepts"},
	    {"skl::INST_RETIRED:ANY_P:e", PMK_EINVAL, 25, 1, "threshold",
	     "c=1"},
	    {"skl::INST_RETIRED:ANY_P:c=1:c=2", PMK_EINVAL, 29, 3, "twice", ""},
	    {"skl::INST_RETIRED:ANY_P:c=x", PMK_ESYNTAX, 27, 1, "bad value",
	     "number"},
	    {"skl::INST_RETIRED:ANY_P:c", PMK_ESYNTAX, 25, 1, "needs a value",
	     "c=2"},
	    {"skl::INST_RETIRED:ANY_P:", PMK_ESYNTAX, 25, 1, "empty", ""},
	    {"skl::UOPS_ISSUED:STALL_CYCLES:c=2", PMK_EINVAL, 31, 1,
	     "conflicts with unit mask STALL_CYCLES", "c=1"},
	    {"skl::L2_RQSTS:RFO_MISS:CODE_RD_MISS", PMK_EINVAL, 24, 12,
	     "cannot be combined", "one unit mask"},
	    {"amd64_fam19h_zen4::DISPATCH_STALLS_1", PMK_EINVAL, 20, 17,
	     "needs a unit mask", "FE_NO_OPS"},
	    {"zen5::DISPATCH_STALLS_1:FE_NO_OPS:u=2", PMK_ERANGE, 35, 3, "'u'",
	     "0..1"},
	    {"zen4::de_no_dispatch_per_slot.nope", PMK_EINVAL, 31, 4, "'nope'",
	     "BE_STALLS"},
	};
	for (int i = 0; i < PMK__N(bad); i++) {
		pmk_event ev;
		pmk_diag d;
		int rc = parse(bad[i].s, &ev, &d);
		T_CHECKF(rc == bad[i].rc, "%s: rc %s, want %s", bad[i].s,
			 pmk_errname(rc), pmk_errname(bad[i].rc));
		T_CHECKF(d.code == rc, "%s: diag code %d", bad[i].s, d.code);
		T_CHECKF(d.column == bad[i].col && d.length == bad[i].len,
			 "%s: column %d length %d, want %d %d", bad[i].s,
			 d.column, d.length, bad[i].col, bad[i].len);
		T_CHECKF(strstr(d.message, bad[i].in_msg) != NULL,
			 "%s: message '%s' lacks '%s'", bad[i].s, d.message,
			 bad[i].in_msg);
		T_CHECKF(strstr(d.hint, bad[i].in_hint) != NULL,
			 "%s: hint '%s' lacks '%s'", bad[i].s, d.hint,
			 bad[i].in_hint);
	}
}

/* Names that are not natives are left to the caller, untouched. */
static void test_not_native(void)
{
	static const char *const s[] = {
	    "cycles",	       "skl::NOPE", "sched:sched_switch", "", "r1c0",
	    "cpu/event=0x3c/", "::x",	    "nosuchmodel::CYCLES"};
	for (int i = 0; i < PMK__N(s); i++) {
		pmk_event ev;
		pmk_diag d;
		int rc = parse(s[i], &ev, &d);
		T_CHECKF(rc == PMK_ENOEVENT, "'%s': %s", s[i], pmk_errname(rc));
		T_CHECKF(d.message[0] == 0, "'%s': diag touched", s[i]);
	}
	/* and the column offset of the caller is honoured */
	{
		pmk_event ev;
		pmk_diag d;
		pmk_diag_clear(&d);
		T_EQ_INT(pmk__native_parse_model(pmk__model_find("skl"), "cpu",
						 "L1D:NOPE", 11, &ev, &d),
			 PMK_EINVAL);
		T_EQ_INT(d.column, 15);
	}
}

/* Every preset of every model resolves, and derived ones evaluate. */
static int count_cb(const pmk_event_info *info, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static void test_presets(void)
{
	int nmodels = 0;
	for (int m = 0; pmk__models[m]; m++, nmodels++) {
		const pmk__model *mod = pmk__models[m];
		int listed = 0;
		for (int i = 0; i < mod->npreset; i++) {
			pmk_event ev;
			pmk_diag d;
			memset(&ev, 0, sizeof ev);
			pmk_diag_clear(&d);
			int rc = pmk__preset_resolve_model(
			    mod, "cpu", mod->preset[i].preset, 1, &ev, &d);
			T_CHECKF(rc == 0, "%s on %s: %s (%s)",
				 mod->preset[i].preset, mod->name,
				 pmk_errname(rc), d.message);
			T_CHECK(ev.kind == PMK_KIND_PRESET);
			T_CHECK(ev.nleaf >= 1);
		}
		/* its own mappings, and the generic ones where it has none */
		pmk__preset_foreach_model(mod, count_cb, &listed);
		T_CHECKF(listed >= mod->npreset, "%s: %d listed, %d mapped",
			 mod->name, listed, mod->npreset);
		T_CHECKF(mod->npreset >= 20, "%s: %d presets", mod->name,
			 mod->npreset);
	}
	T_EQ_INT(nmodels, 6);

	/* a derived preset: PAPI_FP_OPS on Skylake weights packed widths */
	{
		pmk_event ev;
		pmk_diag d;
		double v[PMK_LEAF_MAX] = {10, 1, 1, 1};
		memset(&ev, 0, sizeof ev);
		T_EQ_INT(pmk__preset_resolve_model(pmk__model_find("skl"),
						   "cpu", "PAPI_FP_OPS", 1, &ev,
						   &d),
			 0);
		T_EQ_INT(ev.nleaf, 4);
		T_CHECK(ev.nops > 0);
		/* scalar 10 + 2*1 + 4*1 + 8*1, evaluated by hand */
		double st[16];
		int sp = 0;
		for (int i = 0; i < ev.nops; i++) {
			const pmk_op *o = &ev.ops[i];
			if (o->code == PMK_OP_LEAF)
				st[sp++] = v[o->arg];
			else if (o->code == PMK_OP_CONST)
				st[sp++] = o->value;
			else {
				double b = st[--sp], a = st[--sp];
				st[sp++] = o->code == PMK_OP_ADD   ? a + b
					   : o->code == PMK_OP_SUB ? a - b
					   : o->code == PMK_OP_MUL ? a * b
								   : a / b;
			}
		}
		T_EQ_INT(sp, 1);
		T_NEAR(st[0], 24.0, 1e-9);
	}
}

/* Without a model: generic perf equivalents, or a clear "not here". */
static void test_presets_generic(void)
{
	pmk_event ev;
	pmk_diag d;
	memset(&ev, 0, sizeof ev);
	T_EQ_INT(
	    pmk__preset_resolve_model(NULL, "cpu", "PAPI_TOT_INS", 1, &ev, &d),
	    0);
	T_EQ_INT(ev.leaf[0].type, PMK_TYPE_HARDWARE);
	T_EQ_U64(ev.leaf[0].config, 1);
	T_EQ_INT(ev.nops, 0);
	memset(&ev, 0, sizeof ev);
	T_EQ_INT(
	    pmk__preset_resolve_model(NULL, "cpu", "PAPI_TLB_DM", 1, &ev, &d),
	    0);
	T_EQ_INT(ev.nleaf, 2);
	T_EQ_INT(ev.leaf[1].type, PMK_TYPE_HW_CACHE);
	T_EQ_U64(ev.leaf[1].config, 0x10103);
	pmk_diag_clear(&d);
	T_EQ_INT(
	    pmk__preset_resolve_model(NULL, "cpu", "PAPI_LD_INS", 5, &ev, &d),
	    PMK_ENOTSUP);
	T_EQ_INT(d.column, 5);
	T_CHECK(strstr(d.message, "model") != NULL);
	T_EQ_INT(
	    pmk__preset_resolve_model(NULL, "cpu", "PAPI_NOPE", 1, &ev, &d),
	    PMK_ENOEVENT);
	T_EQ_INT(pmk__preset_resolve_model(NULL, "cpu", "cycles", 1, &ev, &d),
		 PMK_ENOEVENT);
}

static const char *detect(const char *vendor, int family, int model)
{
	static struct pmk__cpu_model m;
	struct pmk__cpu_id id;
	memset(&id, 0, sizeof id);
	snprintf(id.vendor, sizeof id.vendor, "%s", vendor);
	id.family = family;
	id.model = model;
	return pmk__cpu_model(&id, &m) == 0 ? m.core : NULL;
}

static void test_detect(void)
{
	T_EQ_STR(detect("AuthenticAMD", 0x1a, 0x02), "amd64_fam1ah_zen5");
	T_EQ_STR(detect("AuthenticAMD", 0x19, 0x11), "amd64_fam19h_zen4");
	T_EQ_STR(detect("AuthenticAMD", 0x19, 0x61), "amd64_fam19h_zen4");
	T_EQ_STR(detect("AuthenticAMD", 0x19, 0x01), "amd64_fam19h_zen3");
	T_EQ_STR(detect("AuthenticAMD", 0x19, 0x21), "amd64_fam19h_zen3");
	T_EQ_STR(detect("AuthenticAMD", 0x17, 0x31), "amd64_fam17h_zen2");
	T_EQ_STR(detect("AuthenticAMD", 0x17, 0x01), "amd64_fam17h_zen1");
	T_EQ_STR(detect("GenuineIntel", 6, 0x5e), "skl");
	T_EQ_STR(detect("GenuineIntel", 6, 0x9e), "skl");
	T_EQ_STR(detect("GenuineIntel", 6, 0x7e), "icl");
	T_EQ_STR(detect("GenuineIntel", 6, 0x8f), "spr");
	T_EQ_STR(detect("GenuineIntel", 6, 0x6a), "icx");
	T_EQ_STR(detect("GenuineIntel", 6, 0x3c), "hsw");
	T_EQ_STR(detect("GenuineIntel", 6, 0x97), "adl_glc");
	T_CHECK(detect("GenuineIntel", 6, 0x01) == NULL);
	T_CHECK(detect("CentaurHauls", 6, 0x0f) == NULL);
	T_CHECK(pmk__model_known("amd64_fam1ah_zen5"));
	T_CHECK(pmk__model_known("zen4"));
	T_CHECK(pmk__model_known("arm_n1"));
	T_CHECK(!pmk__model_known("amd64_fam99h"));
	T_CHECK(!pmk__model_known(""));
}

/* Every listed native parses back to an encoding. */
static int reparse_cb(const pmk_event_info *info, void *arg)
{
	const pmk__model *m = arg;
	pmk_event ev;
	pmk_diag d;
	char s[256];
	snprintf(s, sizeof s, "%s::%s", m->name, info->name);
	memset(&ev, 0, sizeof ev);
	int rc = pmk__native_parse_model(NULL, "cpu", s, 1, &ev, &d);
	T_CHECKF(rc == 0, "%s: %s", s, pmk_errname(rc));
	T_CHECK(info->desc && info->desc[0]);
	return 0;
}

static void test_foreach(void)
{
	for (int m = 0; pmk__models[m]; m++) {
		int n = 0;
		pmk__native_foreach_model(pmk__models[m], count_cb, &n);
		T_CHECKF(n >= 60, "%s: %d natives", pmk__models[m]->name, n);
		pmk__native_foreach_model(pmk__models[m], reparse_cb,
					  (void *)pmk__models[m]);
	}
}

int main(void)
{
	T_RUN(test_zen5_slots);
	T_RUN(test_intel_names);
	T_RUN(test_errors);
	T_RUN(test_not_native);
	T_RUN(test_presets);
	T_RUN(test_presets_generic);
	T_RUN(test_detect);
	T_RUN(test_foreach);
	return t_done();
}
