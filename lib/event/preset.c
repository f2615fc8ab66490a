/*
 * preset.c: PAPI preset names, resolved per PMU model.
 *
 * Each model table maps presets to one native or to a small reverse-Polish
 * formula over natives (tbl.h). The natives are encoded by the source that
 * serves the model (pmk__source_encode: libpfm4 where it knows the model,
 * pmkit's tables otherwise or behind it), so a preset's native encodes
 * exactly as the same string alone. Every other model (the Arm cores, the
 * models only libpfm4 knows, a machine with no model) gets the presets
 * that have a generic perf equivalent, encoded from generic.c's table,
 * which the kernel maps per model; the others are "not supported on this
 * target", with the reason. Pure.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/event/generic.h"
#include "lib/event/source.h"
#include "lib/event/tbl.h"

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

/* Compile a reverse-Polish formula into ev: natives through the sources
 * `r` (NULL: the formula is over generic names). */
static int compile(const pmk__model_res *r, const char *core_pmu,
		   uint32_t type, const char *rpn, const char *preset, int col0,
		   pmk_event *ev, pmk_diag *d)
{
	char tok[512];
	const char *p = rpn;
	int depth = 0, rc;

	ev->nleaf = 0;
	ev->nops = 0;
	while (*p) {
		size_t len;
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
		} else if (isdigit((unsigned char)tok[0])) {
			op.code = PMK_OP_CONST;
			op.value = strtod(tok, NULL);
			depth++;
		} else {
			pmk_event tmp;
			if (ev->nleaf == PMK_LEAF_MAX)
				return PMK_ETOOMANY;
			memset(&tmp, 0, sizeof tmp);
			rc = r ? pmk__source_encode(r, core_pmu, type, tok, col0,
						    &tmp, d)
			       : leaf_generic(tok, core_pmu, &tmp.leaf[0]);
			if (rc) {
				/* a table error, not the user's */
				char msg[200];
				snprintf(
				    msg, sizeof msg,
				    "preset %s: its mapping '%.100s' does not "
				    "encode",
				    preset, tok);
				if (d) {
					d->code = PMK_ENOTSUP;
					d->column = col0;
					d->length = (int)strlen(preset);
					snprintf(d->message, sizeof d->message,
						 "%s", msg);
					snprintf(d->hint, sizeof d->hint,
						 "report this as a pmkit bug");
				}
				return PMK_ENOTSUP;
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

int pmk__preset_encode(const pmk__model *m, const pmk__model_res *r,
		       const char *core_pmu, uint32_t type, const char *name,
		       int col0, pmk_event *ev, pmk_diag *d)
{
	pmk__model_res tables;
	const struct preset *pr;
	const pmk__preset_map *map;
	const char *rpn;
	int rc;

	if (!name || !ev)
		return PMK_EINVAL;
	if (!core_pmu)
		core_pmu = "cpu";
	pr = find_preset(name);
	map = find_map(m, name);
	if (!pr && !map)
		return PMK_ENOEVENT;
	rpn = map ? map->rpn : pr->generic;
	if (!rpn) {
		if (d) {
			d->code = PMK_ENOTSUP;
			d->column = col0;
			d->length = (int)strlen(name);
			if (m)
				snprintf(d->message, sizeof d->message,
					 "preset %s has no mapping on %s",
					 pr->name, m->desc);
			else
				snprintf(
				    d->message, sizeof d->message,
				    "preset %s needs a PMU model table, and "
				    "this target has none",
				    pr->name);
			snprintf(d->hint, sizeof d->hint, "%s",
				 m ? "count the native events it needs "
				     "instead (pmkit list)"
				   : "choose a model (e.g. --model "
				     "amd64_fam19h_zen4) or count a "
				     "native or generic event");
		}
		return PMK_ENOTSUP;
	}
	if (map && (!r || !r->src)) {
		/* no source resolved: the tables that hold the mapping */
		memset(&tables, 0, sizeof tables);
		tables.src = &pmk__source_tables;
		tables.canon = m->name;
		r = &tables;
	}
	rc = compile(map ? r : NULL, core_pmu, type, rpn, pr ? pr->name : name,
		     col0, ev, d);
	if (rc)
		return rc;
	snprintf(ev->name, sizeof ev->name, "%s", pr ? pr->name : map->preset);
	ev->kind = PMK_KIND_PRESET;
	ev->unit[0] = 0;
	return 0;
}

int pmk__preset_resolve_model(const pmk__model *m, const char *core_pmu,
			      const char *name, int col0, pmk_event *ev,
			      pmk_diag *d)
{
	pmk__model_res tables = {&pmk__source_tables, m ? m->name : NULL,
				 NULL, NULL};
	return pmk__preset_encode(m, m ? &tables : NULL, core_pmu,
				  PMK_TYPE_RAW, name, col0, ev, d);
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
