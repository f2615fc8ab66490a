/*
 * test_preset_src.c: a preset's natives are encoded by the source that
 * serves the model, exactly as the same strings parsed alone.
 *
 * For every model of pmkit's tables (which hold the preset mappings), on a
 * target with that model chosen: each mapped preset parsed by
 * pmk_event_parse() has one leaf per native of its formula, and each leaf
 * equals that native string parsed alone by pmk_event_parse() (encoding
 * and name; a native longer than an event string may be, by the native
 * parser pmk_event_parse() hands natives to). Where the installed libpfm4 knows
 * the model, each leaf that libpfm4 accepts must also equal libpfm4's own
 * encoding through the libpfm4 source (so presets are not encoded by the tables
 * behind its back), and the model's short name ("zen4") must encode every
 * preset as its canonical name does. A model only libpfm4 knows (spr) gets the
 * generic formulas. Without libpfm4 the libpfm4 checks skip, saying so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/t.h"
#include "lib/event/attr.h"
#include "lib/event/native.h"
#include "lib/event/source.h"
#include "lib/event/tbl.h"

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

#define TOK_MAX                                                                \
	512 /* a mapping's native may be longer than an event                  \
		 string (Zen 2's L2 request with all its masks) */

/* A native alone, as pmk_event_parse() takes it; one longer than an event
 * string may be by the native parser that pmk_event_parse() calls. */
static int parse_alone(const pmk_target *t, const char *s, pmk_event *ev,
		       pmk_diag *d)
{
	if (strlen(s) < PMK_EVENT_NAME_MAX)
		return pmk_event_parse(t, s, ev, d);
	memset(ev, 0, sizeof *ev);
	pmk_diag_clear(d);
	return pmk__native_parse(t, s, 1, ev, d);
}

/* The natives of a formula in order: every token but numbers and
 * operators. */
static int natives(const char *rpn, char tok[][TOK_MAX], int max)
{
	int n = 0;
	for (const char *p = rpn; *p;) {
		size_t len;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " ");
		if (!(len == 1 && strchr("+-*/", *p)) &&
		    !(*p >= '0' && *p <= '9') && n < max)
			snprintf(tok[n++], TOK_MAX, "%.*s", (int)len, p);
		p += len;
	}
	return n;
}

struct tally {
	int presets, leaves, by_pfm, behind;
};

/* Every preset of table model `m` on target `t`: leaves equal to the
 * natives alone; with `pfm_canon`, libpfm4's leaves are libpfm4's. */
static void check_model(const pmk__model *m, const pmk_target *t,
			const char *pfm_canon, struct tally *n)
{
	for (int i = 0; i < m->npreset; i++) {
		char tok[PMK_LEAF_MAX][TOK_MAX];
		int nt = natives(m->preset[i].rpn, tok, PMK_LEAF_MAX);
		pmk_event ev, alone, lib;
		pmk_diag d;
		int rc = pmk_event_parse(t, m->preset[i].preset, &ev, &d);
		T_CHECKF(rc == 0, "%s on %s: %s", m->preset[i].preset, m->name,
			 d.message);
		if (rc)
			continue;
		n->presets++;
		T_CHECKF(ev.nleaf == nt, "%s on %s: %d leaves, formula '%s'",
			 m->preset[i].preset, m->name, ev.nleaf,
			 m->preset[i].rpn);
		for (int k = 0; k < nt && k < ev.nleaf; k++) {
			rc = parse_alone(t, tok[k], &alone, &d);
			T_CHECKF(rc == 0, "%s alone on %s: %s", tok[k], m->name,
				 d.message);
			if (rc)
				continue;
			n->leaves++;
			T_CHECKF(
			    pmk__attr_same_encoding(&ev.leaf[k],
						    &alone.leaf[0]) &&
				!strcmp(ev.leaf[k].name, alone.leaf[0].name),
			    "%s on %s: leaf %d '%s' config %#llx, alone "
			    "'%s' config %#llx",
			    m->preset[i].preset, m->name, k, ev.leaf[k].name,
			    (unsigned long long)ev.leaf[k].config,
			    alone.leaf[0].name,
			    (unsigned long long)alone.leaf[0].config);
			if (!pfm_canon)
				continue;
			memset(&lib, 0, sizeof lib);
			if (pmk__source_pfm.encode(pfm_canon, "cpu",
						   PMK_TYPE_RAW, tok[k], 1,
						   &lib, NULL) == 0) {
				n->by_pfm++;
				T_CHECKF(
				    pmk__attr_same_encoding(&ev.leaf[k],
							    &lib.leaf[0]),
				    "%s on %s: '%s' is not libpfm4's "
				    "encoding (%#llx, libpfm4 %#llx)",
				    m->preset[i].preset, m->name, tok[k],
				    (unsigned long long)ev.leaf[k].config,
				    (unsigned long long)lib.leaf[0].config);
			} else {
				n->behind++; /* libpfm4 refuses it: the tables
					      */
				printf("# %s on %s: %.60s by the tables\n",
				       m->preset[i].preset, m->name, tok[k]);
			}
		}
	}
}

static void test_presets_equal_natives_alone(void)
{
	struct tally n = {0};
	int nmodels = 0;
	for (int i = 0; pmk__models[i]; i++) {
		const pmk__model *m = pmk__models[i];
		pmk_target *t = target(m->name);
		T_CHECKF(t != NULL, "no target for %s", m->name);
		if (!t)
			continue;
		check_model(m, t, NULL, &n);
		pmk_target_free(t);
		nmodels++;
	}
	T_EQ_INT(nmodels, 6);
	T_CHECKF(n.presets >= 6 * 20, "%d presets", n.presets);
	printf("# %d presets of %d table models, %d leaves, each equal to "
	       "its native alone\n",
	       n.presets, nmodels, n.leaves);
}

static void test_presets_through_libpfm4(void)
{
	struct tally n = {0};
	int nmodels = 0;
	char names[256] = "";
	for (int i = 0; pmk__models[i]; i++) {
		const pmk__model *m = pmk__models[i];
		const char *canon = pmk__source_pfm.model(m->name);
		pmk_target *t;
		if (!canon)
			continue; /* a model only the tables know (zen5) */
		T_CHECKF(pmk__source_for(m->name, NULL) == &pmk__source_pfm,
			 "%s is not served by libpfm4", m->name);
		if (!(t = target(m->name)))
			continue;
		check_model(m, t, canon, &n);
		pmk_target_free(t);
		nmodels++;
		snprintf(names + strlen(names), sizeof names - strlen(names),
			 "%s%s", nmodels > 1 ? " " : "", m->name);
	}
	if (nmodels == 0)
		T_SKIP("libpfm4 knows none of the table models (built "
		       "without libpfm4-dev, or another architecture)");
	T_CHECKF(n.by_pfm > n.behind, "%d leaves by libpfm4, %d by the tables",
		 n.by_pfm, n.behind);
	printf("# libpfm4 serves %d table models (%s): %d presets, %d leaves "
	       "encoded by libpfm4, %d that libpfm4 refuses by the tables "
	       "behind it, each equal to its native alone\n",
	       nmodels, names, n.presets, n.by_pfm, n.behind);
}

/* "zen4" and "amd64_fam19h_zen4" are one model with one encoder. */
static void test_short_name_same_encoder(void)
{
	static const char *const pairs[][2] = {
	    {"zen2", "amd64_fam17h_zen2"},
	    {"zen3", "amd64_fam19h_zen3"},
	    {"zen4", "amd64_fam19h_zen4"},
	    {"zen5", "amd64_fam1ah_zen5"},
	};
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		const pmk__model *m = pmk__model_find(pairs[i][1]);
		pmk_target *a = target(pairs[i][0]), *b = target(pairs[i][1]);
		T_CHECKF(m && a && b, "%s", pairs[i][1]);
		T_CHECK(pmk__source_for(pairs[i][0], NULL) ==
			pmk__source_for(pairs[i][1], NULL));
		for (int k = 0; m && a && b && k < m->npreset; k++) {
			pmk_event ea, eb;
			pmk_diag d;
			T_EQ_INT(
			    pmk_event_parse(a, m->preset[k].preset, &ea, &d),
			    0);
			T_EQ_INT(
			    pmk_event_parse(b, m->preset[k].preset, &eb, &d),
			    0);
			T_EQ_INT(ea.nleaf, eb.nleaf);
			for (int l = 0; l < ea.nleaf && l < eb.nleaf; l++)
				T_CHECKF(pmk__attr_same_encoding(&ea.leaf[l],
								 &eb.leaf[l]),
					 "%s: %s leaf %d", pairs[i][0],
					 m->preset[k].preset, l);
		}
		pmk_target_free(a);
		pmk_target_free(b);
	}
}

/* A model libpfm4 knows and the tables do not (PAPI's file is off here):
 * the generic formulas. */
static void test_libpfm4_only_model_generic(void)
{
	pmk_target *t;
	pmk_event ev;
	pmk_diag d;
	if (!pmk__source_pfm.model("hsw"))
		T_SKIP("libpfm4 does not know hsw here");
	T_ASSERT((t = target("hsw")) != NULL);
	T_EQ_INT(pmk_event_parse(t, "PAPI_TOT_INS", &ev, &d), 0);
	T_EQ_INT(ev.leaf[0].type, PMK_TYPE_HARDWARE);
	T_EQ_U64(ev.leaf[0].config, 1);
	T_EQ_INT(pmk_event_parse(t, "PAPI_L2_TCM", &ev, &d), PMK_ENOTSUP);
	pmk_target_free(t);
}

int main(void)
{
	/* pmkit's tables' mappings: PAPI's file, which takes precedence
	 * where it defines a preset, is checked by test_preset_papi.c */
	setenv("PMK_PAPI_EVENTS", "none", 1);
	T_RUN(test_presets_equal_natives_alone);
	T_RUN(test_presets_through_libpfm4);
	T_RUN(test_short_name_same_encoder);
	T_RUN(test_libpfm4_only_model_generic);
	return t_done();
}
