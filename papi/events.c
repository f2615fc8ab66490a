/*
 * papi/events.c: PAPI event codes over pmkit's event names.
 *
 * Presets keep PAPI's fixed codes (PAPI_PRESET_MASK | index); their names
 * and index come from Debian's papiStdEventDefs.h through a table
 * generated at build time (mk/papi.mk), and each is counted as the pmkit
 * preset of the same name. Natives get codes PAPI_NATIVE_MASK | n in the
 * order they are first seen: the events pmk_event_foreach() lists (kernel
 * software events under PAPI's perf:: spelling, generic hardware events,
 * the model's natives, sysfs aliases, user events from definition files),
 * then any other string pmk_event_parse() accepts, registered when a
 * caller names it. An event is "available" only when an event set can
 * open it here; that is probed once per code and kept.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi/papi_int.h"

static papi__event presets[] = {
#include "papi_presets.h"
};
#define NPRESET ((int)(sizeof presets / sizeof presets[0]))

#define NATIVE_MAX 8192
static papi__event *natives[NATIVE_MAX];
static int nnative;		/* written under lock */
static int natives_listed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static papi__event *preset_of(int code)
{
	for (int i = 0; i < NPRESET; i++)
		if (presets[i].code == code)
			return &presets[i];
	return NULL;
}

/* under lock */
static papi__event *native_add(const char *name, const char *pmk,
			       const char *desc)
{
	for (int i = 0; i < nnative; i++)
		if (!strcasecmp(natives[i]->name, name))
			return natives[i];
	if (nnative >= NATIVE_MAX || strlen(name) >= PAPI_MAX_STR_LEN ||
	    strlen(pmk) >= PAPI_MAX_STR_LEN)
		return NULL;
	papi__event *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->code = PAPI_NATIVE_MASK | nnative;
	e->type = PAPI__NATIVE;
	e->avail = -1;
	snprintf(e->name, sizeof e->name, "%s", name);
	snprintf(e->pmk, sizeof e->pmk, "%s", pmk);
	snprintf(e->desc, sizeof e->desc, "%s", desc ? desc : "");
	natives[nnative] = e;
	__atomic_store_n(&nnative, nnative + 1, __ATOMIC_RELEASE);
	return e;
}

static int list_one(const pmk_event_info *info, void *arg)
{
	char name[PAPI_MAX_STR_LEN];
	(void)arg;
	switch (info->kind) {
	case PMK_KIND_PRESET: case PMK_KIND_TOOL: case PMK_KIND_NONE:
		return 0;
	case PMK_KIND_SOFTWARE: /* PAPI's spelling: perf::TASK-CLOCK */
		snprintf(name, sizeof name, "perf::%s", info->name);
		for (char *p = name + 6; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		native_add(name, name, info->desc);
		return 0;
	default:
		native_add(info->name, info->name, info->desc);
		return 0;
	}
}

/* The listing, once: what papi_native_avail and PAPI_enum_cmp_event see. */
static void natives_list(void)
{
	pthread_mutex_lock(&lock);
	if (!natives_listed) {
		natives_listed = 1;
		pmk_event_foreach(pmk_target_host(), list_one, NULL);
	}
	pthread_mutex_unlock(&lock);
}

int papi__native_count(void)
{
	natives_list();
	return __atomic_load_n(&nnative, __ATOMIC_ACQUIRE);
}

int papi__native_code(int i)
{
	return i >= 0 && i < papi__native_count() ? natives[i]->code : 0;
}

const papi__event *papi__event_get(int code)
{
	if (IS_PRESET(code))
		return preset_of(code);
	if (IS_NATIVE(code)) {
		int i = code & ~PAPI_NATIVE_MASK;
		natives_list();
		if (i >= 0 && i < __atomic_load_n(&nnative, __ATOMIC_ACQUIRE))
			return natives[i];
	}
	return NULL;
}

int papi__event_lookup(const char *name, int *code)
{
	if (!name || !*name)
		return PAPI_EINVAL;
	for (int i = 0; i < NPRESET; i++)
		if (!strcmp(presets[i].name, name)) {
			*code = presets[i].code;
			return PAPI_OK;
		}
	natives_list();
	pthread_mutex_lock(&lock);
	papi__event *e = NULL;
	for (int i = 0; i < nnative && !e; i++)
		if (!strcasecmp(natives[i]->name, name))
			e = natives[i];
	if (!e) { /* any other event string pmkit knows */
		pmk_event ev;
		pmk_diag d;
		if (pmk_event_parse(pmk_target_host(), name, &ev, &d) == 0)
			e = native_add(name, name, pmk_event_kind_name(ev.kind));
	}
	pthread_mutex_unlock(&lock);
	if (!e)
		return PAPI_ENOEVNT;
	*code = e->code;
	return PAPI_OK;
}

int papi__event_encode(int code, int domain, pmk_event *ev, pmk_diag *d)
{
	const papi__event *e = papi__event_get(code);
	if (!e)
		return PAPI_ENOEVNT;
	int r = pmk_event_parse(pmk_target_host(), e->pmk, ev, d);
	if (r < 0)
		return papi__from_pmk(r);
	/* PAPI counts where the domain says (user only by default): the
	 * privilege bits of every native, whatever the string said */
	for (int i = 0; i < ev->nleaf; i++) {
		pmk_attr *a = &ev->leaf[i];
		if (a->type == PMK_TYPE_TOOL)
			continue;
		a->exclude_user = !(domain & PAPI_DOM_USER);
		a->exclude_kernel = !(domain & PAPI_DOM_KERNEL);
		a->exclude_hv = !(domain & PAPI_DOM_SUPERVISOR);
	}
	return PAPI_OK;
}

int papi__event_avail(int code)
{
	papi__event *e = (papi__event *)papi__event_get(code);
	if (!e)
		return 0;
	int a = __atomic_load_n(&e->avail, __ATOMIC_ACQUIRE);
	if (a >= 0)
		return a;
	pmk_event ev;
	pmk_diag d;
	pmk_eventset *es = NULL;
	a = 0;
	if (papi__event_encode(code, PAPI_DOM_USER, &ev, &d) == PAPI_OK &&
	    pmk_eventset_new(&es, PMK_ES_MULTIPLEX) == 0 &&
	    pmk_eventset_add_event(es, &ev, &d) >= 0 &&
	    pmk_eventset_open(es, &d) >= 0 && !pmk_eventset_event_diag(es, 0))
		a = 1;
	pmk_eventset_free(es);
	e->nleaf = a ? ev.nleaf : 0;
	__atomic_store_n(&e->avail, a, __ATOMIC_RELEASE);
	return a;
}

void papi__events_release(void)
{
}

int PAPI_event_name_to_code(const char *in, int *out)
{
	PAPI__CHECK_INIT();
	if (!in || !out)
		return papi__ret(PAPI_EINVAL);
	return papi__ret(papi__event_lookup(in, out));
}

int PAPI_event_code_to_name(int code, char *out)
{
	PAPI__CHECK_INIT();
	const papi__event *e = papi__event_get(code);
	if (!out)
		return papi__ret(PAPI_EINVAL);
	if (!e)
		return papi__ret(IS_PRESET(code) ? PAPI_ENOTPRESET : PAPI_ENOEVNT);
	snprintf(out, PAPI_MAX_STR_LEN, "%s", e->name);
	return PAPI_OK;
}

int PAPI_query_event(int code)
{
	PAPI__CHECK_INIT();
	if (!papi__event_get(code))
		return papi__ret(IS_PRESET(code) ? PAPI_ENOTPRESET : PAPI_ENOEVNT);
	return papi__event_avail(code) ? PAPI_OK : PAPI_ENOEVNT;
}

int PAPI_query_named_event(const char *name)
{
	int code;
	PAPI__CHECK_INIT();
	if (papi__event_lookup(name, &code) != PAPI_OK)
		return PAPI_ENOEVNT;
	return papi__event_avail(code) ? PAPI_OK : PAPI_ENOEVNT;
}

/* The category bits of a preset, from the words of its name. */
static unsigned preset_type(const char *n)
{
	unsigned t = 0;
	if (strstr(n, "_L1_")) t |= PAPI_PRESET_BIT_L1 | PAPI_PRESET_BIT_CACH;
	if (strstr(n, "_L2_")) t |= PAPI_PRESET_BIT_L2 | PAPI_PRESET_BIT_CACH;
	if (strstr(n, "_L3_")) t |= PAPI_PRESET_BIT_L3 | PAPI_PRESET_BIT_CACH;
	if (strstr(n, "TLB")) t |= PAPI_PRESET_BIT_TLB;
	if (strstr(n, "_BR_")) t |= PAPI_PRESET_BIT_BR;
	if (strstr(n, "_BR_C") || strstr(n, "_BR_T") || strstr(n, "_BR_NTK"))
		t |= PAPI_PRESET_BIT_CND;
	if (strstr(n, "_FP") || strstr(n, "_FD") || strstr(n, "_FML") ||
	    strstr(n, "_FAD") || strstr(n, "_FSQ") || strstr(n, "_FNV") ||
	    strstr(n, "_SP_") || strstr(n, "_DP_") || strstr(n, "VEC"))
		t |= PAPI_PRESET_BIT_FP;
	if (strstr(n, "_INS")) t |= PAPI_PRESET_BIT_INS;
	if (strstr(n, "STL") || strstr(n, "_CY") || strstr(n, "_CYC"))
		t |= PAPI_PRESET_BIT_IDL;
	if (strstr(n, "_LD_") || strstr(n, "_SR_") || strstr(n, "LST") ||
	    strstr(n, "MEM"))
		t |= PAPI_PRESET_BIT_MEM;
	return t ? t : PAPI_PRESET_BIT_MSC;
}

int PAPI_get_event_info(int code, PAPI_event_info_t *info)
{
	PAPI__CHECK_INIT();
	const papi__event *e = papi__event_get(code);
	if (!info)
		return papi__ret(PAPI_EINVAL);
	if (!e)
		return papi__ret(IS_PRESET(code) ? PAPI_ENOTPRESET : PAPI_ENOEVNT);
	memset(info, 0, sizeof *info);
	info->event_code = (unsigned)code;
	snprintf(info->symbol, sizeof info->symbol, "%s", e->name);
	snprintf(info->short_descr, sizeof info->short_descr, "%.63s", e->desc);
	snprintf(info->long_descr, sizeof info->long_descr, "%s", e->desc);
	info->component_index = 0;
	info->data_type = PAPI_DATATYPE_INT64;
	info->value_type = PAPI_VALUETYPE_RUNNING_SUM;
	info->timescope = PAPI_TIMESCOPE_SINCE_START;
	info->location = PAPI_LOCATION_CORE;
	int avail = papi__event_avail(code);
	pmk_event ev;
	pmk_diag d;
	int parsed = papi__event_encode(code, PAPI_DOM_USER, &ev, &d) == PAPI_OK;
	if (parsed && ev.unit[0])
		snprintf(info->units, sizeof info->units, "%s", ev.unit);
	if (e->type == PAPI__PRESET) {
		info->event_type = preset_type(e->name);
		/* count: the natives it takes here; 0 when it cannot be added
		 * here (PAPI's tools read that as "not available") */
		snprintf(info->derived, sizeof info->derived, "%s",
			 parsed && ev.nops > 0 ? "DERIVED_POSTFIX" : "NOT_DERIVED");
		if (avail && parsed) {
			info->count = (unsigned)ev.nleaf;
			for (int i = 0; i < ev.nleaf && i < PAPI_MAX_INFO_TERMS; i++) {
				int nc = 0;
				snprintf(info->name[i], sizeof info->name[i], "%s",
					 ev.leaf[i].name);
				if (papi__event_lookup(ev.leaf[i].name, &nc) == PAPI_OK)
					info->code[i] = (unsigned)nc;
			}
		}
	} else {
		/* natives: count 1 when it can be added here, else 0 */
		info->count = avail ? 1 : 0;
		if (parsed && ev.kind == PMK_KIND_USER)
			snprintf(info->note, sizeof info->note,
				 "user-defined event from a pmkit definition file");
	}
	return PAPI_OK;
}

static int preset_index(int code)
{
	for (int i = 0; i < NPRESET; i++)
		if (presets[i].code == code)
			return i;
	return -1;
}

int PAPI_enum_event(int *code, int modifier)
{
	PAPI__CHECK_INIT();
	if (!code)
		return papi__ret(PAPI_EINVAL);
	if (IS_NATIVE(*code))
		return PAPI_enum_cmp_event(code, modifier, 0);
	if (!IS_PRESET(*code))
		return PAPI_ENOEVNT;
	if (modifier == PAPI_ENUM_FIRST) {
		*code = presets[0].code;
		return PAPI_OK;
	}
	int i = preset_index(*code);
	if (i < 0)
		return PAPI_ENOEVNT;
	while (++i < NPRESET) {
		if (modifier == PAPI_ENUM_EVENTS)
			break;
		if (modifier == PAPI_PRESET_ENUM_AVAIL) {
			if (papi__event_avail(presets[i].code))
				break;
		} else if (modifier >= PAPI_PRESET_ENUM_MSC &&
			   modifier <= PAPI_PRESET_ENUM_FP) {
			if (preset_type(presets[i].name) & (1u << modifier))
				break;
		} else {
			return PAPI_EINVAL;
		}
	}
	if (i >= NPRESET)
		return PAPI_ENOEVNT;
	*code = presets[i].code;
	return PAPI_OK;
}

int PAPI_enum_cmp_event(int *code, int modifier, int cidx)
{
	PAPI__CHECK_INIT();
	if (!code)
		return papi__ret(PAPI_EINVAL);
	if (cidx != 0)
		return papi__ret(PAPI_ENOCMP);
	int n = papi__native_count();
	if (modifier == PAPI_ENUM_FIRST) {
		if (IS_PRESET(*code)) {
			*code = presets[0].code;
			return PAPI_OK;
		}
		if (n == 0)
			return PAPI_ENOEVNT;
		*code = papi__native_code(0);
		return PAPI_OK;
	}
	if (IS_PRESET(*code))
		return PAPI_enum_event(code, modifier);
	if (!IS_NATIVE(*code))
		return PAPI_ENOEVNT;
	if (modifier != PAPI_ENUM_EVENTS)
		return PAPI_ENOEVNT; /* no unit masks or groups listed apart */
	int i = *code & ~PAPI_NATIVE_MASK;
	if (i + 1 >= n)
		return PAPI_ENOEVNT;
	*code = papi__native_code(i + 1);
	return PAPI_OK;
}

int PAPI_get_event_component(int code)
{
	PAPI__CHECK_INIT();
	return papi__event_get(code) ? 0 : papi__ret(PAPI_ENOEVNT);
}
