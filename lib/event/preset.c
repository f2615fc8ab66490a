/*
 * preset.c: PAPI preset names, resolved per PMU model, from three sources
 * of definitions, in this order (papi_csv.h):
 *
 *   1. PAPI's own, read from papi_events.csv (Debian's libpapi7.0) for
 *      every model its CPU lines name (papi_csv.c reads it);
 *   2. pmkit's table of the model (tbl_*.c), for what PAPI does not
 *      define there: Zen 4, Zen 5, Ice Lake client, and presets PAPI
 *      leaves out on the models it covers;
 *   3. the kernel's generic events, for the presets that have one
 *      (`presets` below), on every model, which the kernel maps per model.
 *
 * A definition is one native or a reverse-Polish formula over natives
 * (tbl.h's form). Its natives are encoded by the source that serves the
 * model (pmk__source_encode: libpfm4 where it knows the model, pmkit's
 * tables otherwise or behind it), so a preset's native encodes exactly as
 * the same string alone; a definition whose natives do not encode is
 * passed over for the next source, and a preset none defines is "not
 * supported on this target", with the reason. Pure but for the one read
 * of PAPI's file (pmk__papi_events).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/event/generic.h"
#include "lib/event/papi_csv.h"
#include "lib/event/source.h"
#include "lib/event/tbl.h"

#ifndef PMK_PAPI_EVENTS_CSV
#define PMK_PAPI_EVENTS_CSV "" /* none found at configure time */
#endif

/* Every preset this layer knows, with its meaning and, when there is one,
 * its generic perf formula. */
static const struct preset {
	const char *name;
	const char *desc;
	const char *generic; /* reverse Polish over generic names, or NULL */
} presets[] = {
    {"PAPI_TOT_CYC", "total cycles", "cycles"},
    {"PAPI_TOT_INS", "instructions completed", "instructions"},
    {"PAPI_REF_CYC", "reference clock cycles", "ref-cycles"},
    {"PAPI_BR_INS", "branch instructions", "branches"},
    {"PAPI_BR_MSP", "conditional branches mispredicted", "branch-misses"},
    {"PAPI_BR_CN", "conditional branch instructions", NULL},
    {"PAPI_BR_TKN", "conditional branches taken", NULL},
    {"PAPI_BR_NTK", "conditional branches not taken", NULL},
    {"PAPI_BR_UCN", "unconditional branch instructions", NULL},
    {"PAPI_BR_PRC", "conditional branches correctly predicted", NULL},
    {"PAPI_L1_DCM", "level 1 data cache misses", "L1-dcache-load-misses"},
    {"PAPI_L1_ICM", "level 1 instruction cache misses",
     "L1-icache-load-misses"},
    {"PAPI_L1_DCA", "level 1 data cache accesses",
     "L1-dcache-loads L1-dcache-stores +"},
    {"PAPI_L1_LDM", "level 1 load misses", "L1-dcache-load-misses"},
    {"PAPI_L2_DCA", "level 2 data cache accesses", NULL},
    {"PAPI_L2_DCM", "level 2 data cache misses", NULL},
    {"PAPI_L2_DCR", "level 2 data cache reads", NULL},
    {"PAPI_L2_ICA", "level 2 instruction cache accesses", NULL},
    {"PAPI_L2_ICM", "level 2 instruction cache misses", NULL},
    {"PAPI_L2_TCA", "level 2 total cache accesses", NULL},
    {"PAPI_L2_TCM", "level 2 total cache misses", NULL},
    {"PAPI_L3_TCA", "level 3 (last-level) cache accesses", "cache-references"},
    {"PAPI_L3_TCM", "level 3 (last-level) cache misses", "cache-misses"},
    {"PAPI_L3_LDM", "level 3 load misses", "LLC-load-misses"},
    {"PAPI_TLB_DM", "data TLB misses", "dTLB-load-misses dTLB-store-misses +"},
    {"PAPI_TLB_IM", "instruction TLB misses", "iTLB-load-misses"},
    {"PAPI_LD_INS", "load instructions", NULL},
    {"PAPI_SR_INS", "store instructions", NULL},
    {"PAPI_FP_INS", "floating-point instructions", NULL},
    {"PAPI_FP_OPS", "floating-point operations", NULL},
    {"PAPI_SP_OPS", "single-precision floating-point operations", NULL},
    {"PAPI_DP_OPS", "double-precision floating-point operations", NULL},
    {"PAPI_STL_ICY", "cycles with no instruction issue",
     "stalled-cycles-frontend"},
    {"PAPI_RES_STL", "cycles stalled on any resource",
     "stalled-cycles-backend"},
    {"PAPI_MEM_WCY", "cycles stalled waiting for memory", NULL},
};

static const struct preset *find_preset(const char *name)
{
	for (int i = 0; i < PMK__N(presets); i++)
		if (!strcasecmp(name, presets[i].name))
			return &presets[i];
	return NULL;
}

static const pmk__preset_map *find_map(const pmk__model *m, const char *name)
{
	for (int i = 0; m && i < m->npreset; i++)
		if (!strcasecmp(name, m->preset[i].preset))
			return &m->preset[i];
	return NULL;
}

/* ---- PAPI's file, read once per process ------------------------------ */

static pthread_once_t papi_once = PTHREAD_ONCE_INIT;
static pmk__papi_csv *papi_file;
static char papi_why[400];

static void papi_load(void)
{
	const char *path = secure_getenv("PMK_PAPI_EVENTS");
	pmk_diag d;
	if (!path)
		path = PMK_PAPI_EVENTS_CSV;
	if (!*path || !strcmp(path, "none"))
		return; /* none configured: papi_why stays "" */
	if (pmk__papi_csv_load(path, &papi_file, &d) != 0) {
		char buf[300];
		pmk_diag_format(&d, buf, sizeof buf);
		buf[strcspn(buf, "\n")] = 0;
		snprintf(papi_why, sizeof papi_why, "%s: %s", path, buf);
		papi_file = NULL;
	}
}

const pmk__papi_csv *pmk__papi_events(const char **why)
{
	pthread_once(&papi_once, papi_load);
	if (why)
		*why = papi_why;
	return papi_file;
}

const char *pmk__preset_from_name(int from)
{
	return from == PMK__PRESET_PAPI	     ? "papi"
	       : from == PMK__PRESET_TABLE   ? "pmkit"
	       : from == PMK__PRESET_GENERIC ? "generic"
					     : "none";
}

/* ---- compiling a formula ------------------------------------------- */

/* A generic name of a fallback formula as a leaf on the core PMU: the
 * kernel's encoding, from generic.c's table. */
static int leaf_generic(const char *tok, const char *core_pmu, pmk_attr *a)
{
	struct pmk__generic g;
	if (pmk__generic_find(tok, &g) != 0)
		return PMK_ENOEVENT;
	memset(a, 0, sizeof *a);
	snprintf(a->pmu, sizeof a->pmu, "%s", core_pmu);
	snprintf(a->name, sizeof a->name, "%.120s", tok);
	a->type = g.type;
	a->config = g.config;
	return 0;
}

/* A whole token that is a number (PAPI's natives may start with a digit:
 * Zen 1's 32_BYTE_INSTRUCTION_CACHE_FETCH). */
static int is_const(const char *tok, double *v)
{
	char *end;
	if (!isdigit((unsigned char)tok[0]) && tok[0] != '.')
		return 0;
	*v = strtod(tok, &end);
	return *end == 0;
}

/* One native of a formula: PAPI's perf::NAME (a kernel generic event, as
 * the parser reads it) or a native of the model through its sources. */
static int leaf_native(const pmk__model_res *r, const char *core_pmu,
		       uint32_t type, const char *tok, int col0, pmk_event *tmp,
		       pmk_diag *d)
{
	if (!strncasecmp(tok, "perf::", 6)) {
		char name[PMK_EVENT_NAME_MAX];
		const char *b = tok + 6;
		if (strchr(b, ':') ||
		    pmk__generic_papi_name(b, strlen(b), name, sizeof name))
			return PMK_ENOEVENT;
		return leaf_generic(name, core_pmu, &tmp->leaf[0]);
	}
	return pmk__source_encode(r, core_pmu, type, tok, col0, tmp, d);
}

/* Compile a reverse-Polish formula into ev: natives through the sources
 * `r` (NULL: the formula is over generic names). On a native that does
 * not encode, `bad` (may be NULL) gets it and its error. */
static int compile(const pmk__model_res *r, const char *core_pmu, uint32_t type,
		   const char *rpn, int col0, pmk_event *ev, char *bad,
		   size_t badsize)
{
	char tok[512];
	const char *p = rpn;
	int depth = 0, rc;

	ev->nleaf = 0;
	ev->nops = 0;
	if (bad && badsize)
		bad[0] = 0;
	while (*p) {
		size_t len;
		double v;
		pmk_op op = {0};
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " ");
		if (len >= sizeof tok)
			return PMK_EINVAL;
		memcpy(tok, p, len);
		tok[len] = 0;
		p += len;
		if (ev->nops == PMK_OPS_MAX)
			return PMK_ETOOMANY;
		if (len == 1 && strchr("+-*/", tok[0])) {
			if (depth < 2)
				return PMK_EINVAL;
			op.code = tok[0] == '+'	  ? PMK_OP_ADD
				  : tok[0] == '-' ? PMK_OP_SUB
				  : tok[0] == '*' ? PMK_OP_MUL
						  : PMK_OP_DIV;
			depth--;
		} else if (is_const(tok, &v)) {
			op.code = PMK_OP_CONST;
			op.value = v;
			depth++;
		} else {
			pmk_event tmp;
			pmk_diag d;
			if (ev->nleaf == PMK_LEAF_MAX) {
				if (bad)
					snprintf(bad, badsize,
						 "more than %d natives",
						 PMK_LEAF_MAX);
				return PMK_ETOOMANY;
			}
			memset(&tmp, 0, sizeof tmp);
			pmk_diag_clear(&d);
			rc = r ? leaf_native(r, core_pmu, type, tok, col0, &tmp,
					     &d)
			       : leaf_generic(tok, core_pmu, &tmp.leaf[0]);
			if (rc) {
				if (bad)
					snprintf(bad, badsize, "'%.60s'%s%.90s",
						 tok, d.message[0] ? ": " : "",
						 d.message[0] ? d.message
							      : " is unknown");
				return rc;
			}
			ev->leaf[ev->nleaf] = tmp.leaf[0];
			op.code = PMK_OP_LEAF;
			op.arg = (uint8_t)ev->nleaf++;
			depth++;
		}
		ev->ops[ev->nops++] = op;
	}
	if (depth != 1 || ev->nleaf == 0)
		return PMK_EINVAL;
	if (ev->nops == 1)
		ev->nops = 0; /* a single native: its count is the value */
	return 0;
}

/* ---- the three sources ---------------------------------------------- */

static int not_supported(pmk_diag *d, int col0, const char *name,
			 const char *msg, const char *hint)
{
	if (d) {
		pmk_diag_clear(d);
		d->code = PMK_ENOTSUP;
		d->column = col0;
		d->length = (int)strlen(name);
		snprintf(d->message, sizeof d->message, "%.255s", msg);
		snprintf(d->hint, sizeof d->hint, "%s", hint);
	}
	return PMK_ENOTSUP;
}

/* The PAPI file's location of a definition, "FILE:LINE". */
static void papi_where(const pmk__papi_def *def, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%d", pmk__papi_csv_file(pmk__papi_events(NULL)),
		 def->line);
}

int pmk__preset_encode_from(int from, const char *model, const pmk__model *m,
			    const pmk__model_res *r, const char *core_pmu,
			    uint32_t type, const char *name, int col0,
			    pmk_event *ev, pmk__preset_src *src, pmk_diag *d)
{
	const pmk__papi_csv *papi = pmk__papi_events(NULL);
	const struct preset *pr;
	const pmk__preset_map *map;
	const pmk__papi_def *def = NULL;
	pmk__model_res tables;
	pmk__preset_src local;
	char bad[160] = "";
	int rc = PMK_ENOTSUP, defined = 0;

	if (!name || !ev)
		return PMK_EINVAL;
	if (!src)
		src = &local;
	memset(src, 0, sizeof *src);
	if (!core_pmu)
		core_pmu = "cpu";
	if (!model || !*model)
		model = m ? m->name : NULL;
	pr = find_preset(name);
	map = find_map(m, name);
	if (model && papi)
		def = pmk__papi_csv_find(papi, model, name);
	if (!pr && !map && !pmk__papi_csv_defines(papi, name))
		return PMK_ENOEVENT;
	if (m && (!r || !r->src)) {
		/* no source resolved: the tables that hold the model */
		memset(&tables, 0, sizeof tables);
		tables.src = &pmk__source_tables;
		tables.canon = m->name;
		r = &tables;
	}
	src->desc = pr ? pr->desc : def && def->note ? def->note : "";

	/* 1. PAPI's definition for the model */
	if (def && (from == PMK__PRESET_ANY || from == PMK__PRESET_PAPI)) {
		defined = 1;
		papi_where(def, src->where, sizeof src->where);
		if (!def->rpn) {
			snprintf(bad, sizeof bad, "%s", def->why);
			rc = PMK_ENOTSUP;
		} else if (!r || !r->src) {
			snprintf(bad, sizeof bad, "no source of natives for %s",
				 model);
			rc = PMK_ENOTSUP;
		} else {
			rc = compile(r, core_pmu, type, def->rpn, col0, ev, bad,
				     sizeof bad);
		}
		if (rc == 0) {
			src->from = PMK__PRESET_PAPI;
			src->rpn = def->rpn;
			goto done;
		}
		snprintf(src->passed, sizeof src->passed,
			 "PAPI's definition (%.120s) does not encode: %.150s",
			 src->where, bad);
	}
	/* 2. pmkit's table of the model */
	if (map && (from == PMK__PRESET_ANY || from == PMK__PRESET_TABLE)) {
		defined = 1;
		rc = compile(r, core_pmu, type, map->rpn, col0, ev, bad,
			     sizeof bad);
		if (rc == 0) {
			src->from = PMK__PRESET_TABLE;
			src->rpn = map->rpn;
			snprintf(src->where, sizeof src->where,
				 "pmkit's table of %s (lib/event/tbl_*.c)",
				 m->name);
			goto done;
		}
		if (!src->passed[0])
			snprintf(
			    src->passed, sizeof src->passed,
			    "pmkit's table of %.60s does not encode: %.150s",
			    m->name, bad);
	}
	/* 3. the kernel's generic events */
	if (pr && pr->generic &&
	    (from == PMK__PRESET_ANY || from == PMK__PRESET_GENERIC)) {
		defined = 1;
		rc = compile(NULL, core_pmu, type, pr->generic, col0, ev, NULL,
			     0);
		if (rc == 0) {
			src->from = PMK__PRESET_GENERIC;
			src->rpn = pr->generic;
			snprintf(src->where, sizeof src->where,
				 "the kernel's generic events "
				 "(lib/event/preset.c)");
			goto done;
		}
	}
	{
		char msg[600];
		if (defined && src->passed[0])
			/* defined, but its natives do not encode here */
			snprintf(msg, sizeof msg, "preset %s: %s", name,
				 src->passed);
		else if (model)
			snprintf(msg, sizeof msg,
				 "preset %s has no mapping on %s",
				 pr ? pr->name : name, m ? m->desc : model);
		else
			snprintf(msg, sizeof msg,
				 "preset %s needs a PMU model table, and this "
				 "target has none",
				 pr ? pr->name : name);
		return not_supported(
		    d, col0, name, msg,
		    model ? "count the native events it needs instead "
			    "(pmkit list)"
			  : "choose a model (e.g. --model amd64_fam19h_zen4) "
			    "or count a native or generic event");
	}
done:
	snprintf(ev->name, sizeof ev->name, "%s",
		 pr    ? pr->name
		 : def ? def->preset
		       : map->preset);
	ev->kind = PMK_KIND_PRESET;
	ev->unit[0] = 0;
	return 0;
}

int pmk__preset_encode(const pmk__model *m, const pmk__model_res *r,
		       const char *core_pmu, uint32_t type, const char *name,
		       int col0, pmk_event *ev, pmk_diag *d)
{
	return pmk__preset_encode_from(PMK__PRESET_ANY,
				       r && r->canon ? r->canon : NULL, m, r,
				       core_pmu, type, name, col0, ev, NULL, d);
}

/* The tables' own mapping, then the generic formula: PAPI's file is not
 * read (tbl.h: for the tables' tests). */
int pmk__preset_resolve_model(const pmk__model *m, const char *core_pmu,
			      const char *name, int col0, pmk_event *ev,
			      pmk_diag *d)
{
	pmk__model_res tables = {&pmk__source_tables, m ? m->name : NULL, NULL,
				 NULL, NULL, NULL};
	int rc;
	if (find_map(m, name))
		return pmk__preset_encode_from(PMK__PRESET_TABLE, NULL, m,
					       &tables, core_pmu, PMK_TYPE_RAW,
					       name, col0, ev, NULL, d);
	if (!find_preset(name))
		return PMK_ENOEVENT;
	rc = pmk__preset_encode_from(PMK__PRESET_GENERIC, NULL, m,
				     m ? &tables : NULL, core_pmu, PMK_TYPE_RAW,
				     name, col0, ev, NULL, d);
	return rc;
}

int pmk__preset_foreach_model(const pmk__model *m,
			      int (*fn)(const pmk_event_info *info, void *arg),
			      void *arg)
{
	for (int i = 0; i < PMK__N(presets); i++) {
		const pmk__preset_map *map = find_map(m, presets[i].name);
		char desc[320];
		pmk_event_info info;
		int rc;
		if (!map && !presets[i].generic)
			continue;
		snprintf(desc, sizeof desc, "%s = %s", presets[i].desc,
			 map ? map->rpn : presets[i].generic);
		info.name = presets[i].name;
		info.kind = PMK_KIND_PRESET;
		info.pmu = map ? m->name : "cpu";
		info.desc = desc;
		if ((rc = fn(&info, arg)))
			return rc;
	}
	return 0;
}

struct each_src {
	const char *model;
	const pmk__model *m;
	const pmk__model_res *r;
	const char *core_pmu;
	uint32_t type;
	int (*fn)(const pmk_event_info *info, const pmk__preset_src *src,
		  void *arg);
	void *arg;
};

static int one_src(const char *name, struct each_src *e)
{
	pmk_event ev;
	pmk__preset_src src;
	pmk_event_info info;
	char desc[400];
	if (pmk__preset_encode_from(PMK__PRESET_ANY, e->model, e->m, e->r,
				    e->core_pmu, e->type, name, 1, &ev, &src,
				    NULL) != 0)
		return 0; /* listed only where it resolves */
	snprintf(desc, sizeof desc, "%s%s%s", src.desc,
		 src.desc[0] ? " = " : "= ", src.rpn);
	info.name = ev.name;
	info.kind = PMK_KIND_PRESET;
	info.pmu = src.from == PMK__PRESET_GENERIC || !e->model ? e->core_pmu
								: e->model;
	info.desc = desc;
	return e->fn(&info, &src, e->arg);
}

static int papi_only(const pmk__papi_def *def, void *arg)
{
	struct each_src *e = arg;
	if (find_preset(def->preset))
		return 0; /* listed in pmkit's order */
	return one_src(def->preset, e);
}

int pmk__preset_foreach_src(const char *model, const pmk__model *m,
			    const pmk__model_res *r, const char *core_pmu,
			    uint32_t type,
			    int (*fn)(const pmk_event_info *info,
				      const pmk__preset_src *src, void *arg),
			    void *arg)
{
	struct each_src e = {model && *model ? model
			     : m	     ? m->name
					     : NULL,
			     m,
			     r,
			     core_pmu ? core_pmu : "cpu",
			     type,
			     fn,
			     arg};
	int rc;
	for (int i = 0; i < PMK__N(presets); i++)
		if ((rc = one_src(presets[i].name, &e)))
			return rc;
	for (int i = 0; m && i < m->npreset; i++)
		if (!find_preset(m->preset[i].preset) &&
		    (rc = one_src(m->preset[i].preset, &e)))
			return rc;
	if (e.model)
		return pmk__papi_csv_foreach(pmk__papi_events(NULL), e.model,
					     papi_only, &e);
	return 0;
}
