/*
 * src_pfm.c: libpfm4 at run time as a source of native events: every core
 * PMU model the installed libpfm4 knows (386 PMUs in Debian 12's 4.13,
 * core and uncore), in its own grammar
 *
 *   EVENT[:UMASK...][:MOD[=VAL]...]      (the caller strips "MODEL::")
 *
 * encoded by pfm_get_os_event_encoding() with PFM_OS_PERF_EVENT_EXT, so
 * the privilege, precise, period and freq modifiers land in the attr as
 * libpfm4 puts them. pmkit's `p`/`pp`/`ppp` are accepted as precise=1..3.
 *
 * libpfm4 is initialised once, with LIBPFM_ENCODE_INACTIVE=1 (unless the
 * environment already sets it) so that any model encodes on any machine,
 * as `pmkit encode --model` promises. That setenv() and libpfm4's own
 * initialisation (4.13's pfm_initialize() reads /proc/mounts) are this
 * source's only touches of the system; encoding makes no system call.
 *
 * Without libpfm4 (a build without libpfm4-dev) the source knows no model.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/core/diag.h"
#include "lib/core/num.h"
#include "lib/event/source.h"

#if PMK_HAVE_PFM
#include <perfmon/pfmlib_perf_event.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready;

static void pfm_init(void)
{
	if (!getenv("LIBPFM_ENCODE_INACTIVE"))
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 0);
	ready = pfm_initialize() == PFM_SUCCESS;
}

static int pfm_ready(void)
{
	pthread_once(&once, pfm_init);
	return ready;
}

/* The libpfm4 PMU of a core model, with its info; -1 when none. */
static int find_pmu(const char *model, pfm_pmu_info_t *info)
{
	pfm_pmu_t p;
	if (!model || !*model || !pfm_ready())
		return -1;
	pfm_for_all_pmus(p)
	{
		memset(info, 0, sizeof *info);
		info->size = sizeof *info;
		if (pfm_get_pmu_info(p, info) != PFM_SUCCESS)
			continue;
		if (info->type != PFM_PMU_TYPE_CORE || info->nevents <= 0)
			continue;
		if (!strcasecmp(info->name, model))
			return (int)p;
	}
	return -1;
}

static const char *pfm_model(const char *model)
{
	pfm_pmu_info_t info;
	return find_pmu(model, &info) >= 0 ? info.name : NULL;
}

/* libpfm4's perf-OS info on event `idx`, and on its attribute `i`
 * (a unit mask or a modifier); 1 when libpfm4 gives it. */
static int event_info(int idx, pfm_event_info_t *e)
{
	memset(e, 0, sizeof *e);
	e->size = sizeof *e;
	return pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, e) ==
	       PFM_SUCCESS;
}

static int attr_info(int idx, int i, pfm_event_attr_info_t *ai)
{
	memset(ai, 0, sizeof *ai);
	ai->size = sizeof *ai;
	return pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT_EXT, ai) ==
	       PFM_SUCCESS;
}

struct attrs {
	int n;
	struct {
		char name[64];
		int type; /* PFM_ATTR_* */
	} a[96];
};

static void load_attrs(int idx, struct attrs *at)
{
	pfm_event_info_t e;
	at->n = 0;
	if (!event_info(idx, &e))
		return;
	for (int i = 0; i < e.nattrs && at->n < 96; i++) {
		pfm_event_attr_info_t ai;
		if (!attr_info(idx, i, &ai))
			continue;
		snprintf(at->a[at->n].name, sizeof at->a[at->n].name, "%s",
			 ai.name);
		at->a[at->n].type = ai.type;
		at->n++;
	}
}

/* "A, B, C" of the unit masks (type UMASK) or of the modifiers. */
static void attr_list(const struct attrs *at, int umasks, char *buf,
		      size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < at->n && n + 1 < size; i++) {
		if ((at->a[i].type == PFM_ATTR_UMASK) != umasks)
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s%s",
				      n ? ", " : "", at->a[i].name,
				      at->a[i].type == PFM_ATTR_MOD_INTEGER
					  ? "=N"
					  : "");
	}
}

/* Explain why libpfm4 refused a string whose event it knows: the first
 * token that is not one of the event's unit masks or modifiers, or whose
 * value is out of range; else libpfm4's own message. */
static int diagnose(int idx, const char *ename, const char *s, int col0,
		    int pfm_rc, pmk_diag *d)
{
	struct attrs at;
	char um[200], mods[160], hint[400];
	const char *p = strchr(s, ':');
	load_attrs(idx, &at);
	attr_list(&at, 1, um, sizeof um);
	attr_list(&at, 0, mods, sizeof mods);
	while (p && *p == ':') {
		const char *tok = p + 1, *eq;
		size_t len = strcspn(tok, ":"), kl;
		int col = col0 + (int)(tok - s), found = -1;
		eq = memchr(tok, '=', len);
		kl = eq ? (size_t)(eq - tok) : len;
		if (len == 0)
			return pmk__diag_set(d, PMK_ESYNTAX, col, 1,
					     "remove the extra ':' or name a unit mask",
					     "empty unit mask or modifier");
		for (int i = 0; i < at.n; i++)
			if (strlen(at.a[i].name) == kl &&
			    !strncasecmp(at.a[i].name, tok, kl))
				found = i;
		if (!(kl >= 1 && kl <= 3 && !eq &&
		      strspn(tok, "p") == len) && found < 0) {
			snprintf(hint, sizeof hint,
				 "unit masks of %s: %.200s; modifiers: %.150s",
				 ename, um[0] ? um : "none", mods);
			return pmk__diag_set(
				d, PMK_EINVAL, col, (int)kl, hint,
				"unknown unit mask or modifier '%.*s' for %s",
				(int)kl, tok, ename);
		}
		if (found >= 0 && eq) {
			uint64_t v;
			size_t vl = len - kl - 1;
			int bool_ = at.a[found].type == PFM_ATTR_MOD_BOOL;
			if (pmk__parse_u64(eq + 1, vl, &v) != 0)
				return pmk__diag_set(
					d, PMK_ESYNTAX, col + (int)kl + 1,
					vl ? (int)vl : 1,
					"write a number, e.g. c=2 or c=0x10",
					"bad value for modifier '%s'",
					at.a[found].name);
			if ((bool_ && v > 1) ||
			    (!strcmp(at.a[found].name, "c") && v > 255)) {
				snprintf(hint, sizeof hint, "%s takes 0..%d",
					 at.a[found].name, bool_ ? 1 : 255);
				return pmk__diag_set(
					d, PMK_ERANGE, col, (int)len, hint,
					"value %llu out of range for modifier "
					"'%s'",
					(unsigned long long)v,
					at.a[found].name);
			}
		}
		p = tok + len;
	}
	snprintf(hint, sizeof hint, "unit masks of %s: %.200s; modifiers: %.150s",
		 ename, um[0] ? um : "none", mods);
	return pmk__diag_set(d, pfm_rc == PFM_ERR_UMASK ? PMK_EINVAL
			     : pfm_rc == PFM_ERR_ATTR_VAL ? PMK_ERANGE
							  : PMK_EINVAL,
			     col0, (int)strcspn(s, ":"), hint,
			     "libpfm4 rejects '%s': %s", s,
			     pfm_strerror(pfm_rc));
}

static int pfm_encode(const char *model, const char *pmu, uint32_t type,
		      const char *s, int col0, pmk_event *ev, pmk_diag *d)
{
	pfm_pmu_info_t info;
	char full[PMK_EVENT_NAME_MAX * 2 + 64], ename[PMK_EVENT_NAME_MAX];
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;
	size_t elen = strcspn(s, ":"), n;
	const char *p;
	int idx, rc;
	pmk_attr *leaf = &ev->leaf[0];

	if (find_pmu(model, &info) < 0 || elen == 0 ||
	    elen >= sizeof ename || strstr(s, "::"))
		return PMK_ENOEVENT;
	memcpy(ename, s, elen);
	ename[elen] = 0;
	snprintf(full, sizeof full, "%s::%s", info.name, ename);
	idx = pfm_find_event(full);
	if (idx < 0)
		return PMK_ENOEVENT;
	/* rebuild the string, turning p/pp/ppp into precise=N */
	n = strlen(full);
	for (p = s + elen; *p == ':';) {
		const char *tok = p + 1;
		size_t len = strcspn(tok, ":");
		if (len >= 1 && len <= 3 && strspn(tok, "p") == len)
			n += (size_t)snprintf(full + n, sizeof full - n,
					      ":precise=%zu", len);
		else
			n += (size_t)snprintf(full + n, sizeof full - n,
					      ":%.*s", (int)len, tok);
		if (n >= sizeof full)
			return pmk__diag_set(d, PMK_ERANGE, col0, 1, NULL,
					     "event string too long");
		p = tok + len;
	}
	memset(&a, 0, sizeof a);
	memset(&arg, 0, sizeof arg);
	arg.attr = &a;
	arg.size = sizeof arg;
	rc = pfm_get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3 | PFM_PLMH,
				       PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS)
		return diagnose(idx, ename, s, col0, rc, d);
	memset(leaf, 0, sizeof *leaf);
	snprintf(leaf->pmu, sizeof leaf->pmu, "%s", pmu ? pmu : "cpu");
	snprintf(leaf->name, sizeof leaf->name, "%s::%s", info.name, s);
	leaf->type = a.type;
	if (a.type == PMK_TYPE_RAW && type != PMK_TYPE_UNRESOLVED)
		leaf->type = type; /* hybrid and Arm core PMUs: their own */
	leaf->config = a.config;
	leaf->config1 = a.config1;
	leaf->config2 = a.config2;
	leaf->exclude_user = a.exclude_user;
	leaf->exclude_kernel = a.exclude_kernel;
	leaf->exclude_hv = a.exclude_hv;
	leaf->exclude_guest = a.exclude_guest;
	leaf->exclude_host = a.exclude_host;
	leaf->precise_ip = a.precise_ip;
	leaf->pinned = a.pinned;
	leaf->exclusive = a.exclusive;
	if (a.sample_period) {
		leaf->sample = a.sample_period;
		leaf->freq = a.freq;
	}
	ev->kind = PMK_KIND_NATIVE;
	ev->nleaf = 1;
	ev->nops = 0;
	ev->unit[0] = 0;
	if (!ev->name[0])
		snprintf(ev->name, sizeof ev->name, "%s", leaf->name);
	return 0;
}

static int pfm_has_event(const char *model, const char *name, size_t len)
{
	char full[PMK_EVENT_NAME_MAX + 64];
	if (!len || len >= PMK_EVENT_NAME_MAX || memchr(name, ':', len) ||
	    !pfm_ready())
		return 0;
	snprintf(full, sizeof full, "%s::%.*s", model, (int)len, name);
	return pfm_find_event(full) >= 0;
}

static int pfm_describe(const char *model, const char *name, size_t len,
			char *buf, size_t size)
{
	char full[PMK_EVENT_NAME_MAX + 64];
	pfm_event_info_t e;
	size_t n;
	int idx, k = 0;
	if (!len || len >= PMK_EVENT_NAME_MAX || memchr(name, ':', len) ||
	    !pfm_ready())
		return PMK_ENOEVENT;
	snprintf(full, sizeof full, "%s::%.*s", model, (int)len, name);
	if ((idx = pfm_find_event(full)) < 0)
		return PMK_ENOEVENT;
	if (!event_info(idx, &e))
		return PMK_ENOEVENT;
	n = (size_t)snprintf(buf, size, "%s::%s: %s", model, e.name,
			     e.desc ? e.desc : "");
	for (int pass = 0; pass < 2; pass++) {
		k = 0;
		for (int i = 0; i < e.nattrs && n < size; i++) {
			pfm_event_attr_info_t ai;
			if (!attr_info(idx, i, &ai) ||
			    (ai.type == PFM_ATTR_UMASK) != (pass == 0))
				continue;
			n += (size_t)snprintf(
				buf + n, size - n, "%s%s%s",
				k++ ? ", "
				: pass == 0 ? "; unit masks: "
					    : "; modifiers: ",
				ai.name,
				pass == 0 && ai.is_dfl ? " [default]"
				: ai.type == PFM_ATTR_MOD_INTEGER ? "=N"
								  : "");
		}
	}
	return 0;
}

static int pfm_foreach(const char *model, pmk__info_fn fn, void *arg)
{
	pfm_pmu_info_t info;
	char name[PMK_EVENT_NAME_MAX], desc[512];
	pmk_event_info ei;
	int rc;
	if (find_pmu(model, &info) < 0)
		return 0;
	ei.kind = PMK_KIND_NATIVE;
	ei.pmu = info.name;
	ei.name = name;
	ei.desc = desc;
	for (int idx = info.first_event; idx != -1;
	     idx = pfm_get_event_next(idx)) {
		pfm_event_info_t e;
		int numask = 0;
		if (!event_info(idx, &e))
			continue;
		for (int i = 0; i < e.nattrs; i++) {
			pfm_event_attr_info_t ai;
			if (!attr_info(idx, i, &ai) || ai.type != PFM_ATTR_UMASK)
				continue;
			numask++;
			snprintf(name, sizeof name, "%s:%s", e.name, ai.name);
			snprintf(desc, sizeof desc, "%s%s",
				 ai.desc ? ai.desc : "",
				 ai.is_dfl ? " [default]" : "");
			if ((rc = fn(&ei, arg)))
				return rc;
		}
		if (numask == 0) {
			snprintf(name, sizeof name, "%s", e.name);
			snprintf(desc, sizeof desc, "%s", e.desc ? e.desc : "");
			if ((rc = fn(&ei, arg)))
				return rc;
		}
	}
	return 0;
}

static int pfm_models(int (*fn)(const char *model, const char *desc,
				void *arg),
		      void *arg)
{
	pfm_pmu_t p;
	if (!pfm_ready())
		return 0;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t info;
		int rc;
		memset(&info, 0, sizeof info);
		info.size = sizeof info;
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS ||
		    info.type != PFM_PMU_TYPE_CORE || info.nevents <= 0)
			continue;
		if ((rc = fn(info.name, info.desc, arg)))
			return rc;
	}
	return 0;
}
#else
static const char *pfm_model(const char *model)
{
	(void)model;
	return NULL;
}
static int pfm_encode(const char *model, const char *pmu, uint32_t type,
		      const char *s, int col0, pmk_event *ev, pmk_diag *d)
{
	return PMK_ENOEVENT;
}
static int pfm_has_event(const char *model, const char *name, size_t len)
{
	return 0;
}
static int pfm_describe(const char *model, const char *name, size_t len,
			char *buf, size_t size)
{
	return PMK_ENOEVENT;
}
static int pfm_foreach(const char *model, pmk__info_fn fn, void *arg)
{
	return 0;
}
static int pfm_models(int (*fn)(const char *model, const char *desc,
				void *arg),
		      void *arg)
{
	return 0;
}
#endif

const pmk__source pmk__source_pfm = {
    "libpfm4", pfm_model, pfm_encode, pfm_has_event, pfm_describe,
    pfm_foreach, pfm_models,
};
