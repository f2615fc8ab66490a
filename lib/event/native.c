/*
 * native.c: native event strings against a PMU model table.
 *
 * The syntax is libpfm4's, so that the same string can be checked against
 * libpfm4 wherever it knows the model:
 *
 *   [MODEL::]EVENT[:UMASK...][:MOD[=VALUE]...]
 *
 * EVENT and UMASK are matched without regard to case, by their table name
 * ("INST_RETIRED:ANY_P") or the vendor's dotted name
 * ("de_no_dispatch_per_slot.no_ops_from_frontend", "INST_RETIRED.ANY_P").
 * Modifiers: u, k, h (privilege levels; once any is given, only the levels
 * given with value 1 count), e (edge), i (invert), c=N (threshold 0..255),
 * t (any thread), intx, intxcp, precise=N or p/pp/ppp, period=N, freq=N.
 * A bare flag means =1. Each event lists the modifiers it accepts.
 *
 * Encoding for perf (type PERF_TYPE_RAW on the core PMU):
 *   Intel: event[7:0] umask[15:8] edge[18] any[21] inv[23] cmask[31:24]
 *          intx[32] intxcp[33]; events 0x00xx are fixed-counter pseudo
 *          events whose table code already holds the umask.
 *   AMD:   event[7:0] umask[15:8] edge[18] inv[23] cmask[31:24]
 *          event[11:8] in config[35:32].
 * Intel cores have no hypervisor level: exclude_hv is left clear there.
 *
 * Pure: no system calls, no globals written.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/core/diag.h"
#include "lib/core/num.h"
#include "lib/event/models.h"
#include "lib/event/native.h"
#include "lib/event/tbl.h"

const pmk__model *const pmk__models[] = {
    &pmk__model_skl,
    &pmk__model_icl,
    &pmk__model_zen2,
    &pmk__model_zen3,
    &pmk__model_zen4,
    &pmk__model_zen5,
    NULL,
};

const pmk__model *pmk__model_find(const char *name)
{
	if (!name || !name[0])
		return NULL;
	for (int i = 0; pmk__models[i]; i++) {
		const char *full = pmk__models[i]->name;
		const char *tail = strrchr(full, '_');
		if (!strcasecmp(name, full) ||
		    (tail && !strcasecmp(name, tail + 1)))
			return pmk__models[i];
	}
	return NULL;
}

/* Preset tables without natives of their own: not in pmk__models, whose
 * members are sources of natives (src_tables.c). */
static const pmk__model *const preset_only[] = {
    &pmk__model_spr,
    &pmk__model_adl_glc,
    NULL,
};

const pmk__model *pmk__preset_model_find(const char *name)
{
	const pmk__model *m = pmk__model_find(name);
	if (m || !name)
		return m;
	for (int i = 0; preset_only[i]; i++)
		if (!strcasecmp(name, preset_only[i]->name))
			return preset_only[i];
	return NULL;
}

/* Modifier ids: index into the parse state. */
enum {
	MU,
	MK,
	MH,
	ME,
	MI,
	MC,
	MT,
	MINTX,
	MINTXCP,
	MPRECISE,
	MPERIOD,
	MFREQ,
	NMOD
};

static const struct modinfo {
	const char *name;
	unsigned bit; /* PMK__M_*; 0 = always accepted */
	uint64_t max; /* largest value */
	int bare;     /* may be written without "=value" */
} modtab[NMOD] = {
    [MU] = {"u", PMK__M_U, 1, 1},
    [MK] = {"k", PMK__M_K, 1, 1},
    [MH] = {"h", PMK__M_H, 1, 1},
    [ME] = {"e", PMK__M_E, 1, 1},
    [MI] = {"i", PMK__M_I, 1, 1},
    [MC] = {"c", PMK__M_C, 255, 0},
    [MT] = {"t", PMK__M_T, 1, 1},
    [MINTX] = {"intx", PMK__M_INTX, 1, 1},
    [MINTXCP] = {"intxcp", PMK__M_INTXCP, 1, 1},
    [MPRECISE] = {"precise", PMK__M_PRECISE, 3, 0},
    [MPERIOD] = {"period", 0, UINT64_MAX, 0},
    [MFREQ] = {"freq", 0, UINT64_MAX, 0},
};

#define UMASK_MAX 8

struct state {
	const pmk__model *m;
	const pmk__nevent *ev;
	int nu;
	const pmk__umask *um[UMASK_MAX];
	int um_col[UMASK_MAX];
	int set[NMOD];
	uint64_t val[NMOD];
	int col[NMOD]; /* column where the modifier was given */
	char mods_text[PMK_EVENT_NAME_MAX];
};

/* "A, B, C" of an event's unit masks, for hints. */
static void umask_list(const pmk__nevent *e, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < e->numask && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				      e->umask[i].name);
}

/* "u, k, e, ..." of the modifiers an event accepts, for hints. */
static void mod_list(const pmk__nevent *e, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < NMOD && n < size; i++) {
		if (modtab[i].bit && !(e->mods & modtab[i].bit))
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s%s",
				      n ? ", " : "", modtab[i].name,
				      modtab[i].bare ? "" : "=N");
	}
}

static int name_eq(const char *a, size_t alen, const char *b)
{
	return b && strlen(b) == alen && !strncasecmp(a, b, alen);
}

static const pmk__nevent *find_event(const pmk__model *m, const char *s,
				     size_t len)
{
	for (int i = 0; i < m->nev; i++)
		if (name_eq(s, len, m->ev[i].name) ||
		    name_eq(s, len, m->ev[i].alias))
			return &m->ev[i];
	return NULL;
}

static const pmk__umask *find_umask(const pmk__nevent *e, const char *s,
				    size_t len)
{
	for (int i = 0; i < e->numask; i++)
		if (name_eq(s, len, e->umask[i].name) ||
		    name_eq(s, len, e->umask[i].alias))
			return &e->umask[i];
	return NULL;
}

static int add_umask(struct state *st, const pmk__umask *u, int col, size_t len,
		     pmk_diag *d)
{
	for (int i = 0; i < st->nu; i++)
		if (st->um[i] == u)
			return 0; /* the same unit mask twice is harmless */
	if (st->nu == UMASK_MAX)
		return pmk__diag_set(d, PMK_ETOOMANY, col, (int)len, NULL,
			    "too many unit masks (at most %d)", UMASK_MAX);
	if (st->nu > 0 &&
	    (!(st->ev->flags & PMK__EV_COMBINE) || (u->flags & PMK__UM_ALONE) ||
	     (st->um[0]->flags & PMK__UM_ALONE)))
		return pmk__diag_set(
		    d, PMK_EINVAL, col, (int)len,
		    "give one unit mask, or count each in its own event",
		    "unit masks '%s' and '%s' of %s cannot be combined",
		    st->um[0]->name, u->name, st->ev->name);
	st->um[st->nu] = u;
	st->um_col[st->nu] = col;
	st->nu++;
	return 0;
}

/* One ":token" after the event name. */
static int parse_token(struct state *st, const char *tok, size_t len, int col,
		       pmk_diag *d)
{
	const char *eq = memchr(tok, '=', len);
	size_t nlen = eq ? (size_t)(eq - tok) : len;
	const pmk__umask *u;
	char buf[256], mods[160];
	int id = -1;
	uint64_t v = 1;

	if (len == 0)
		return pmk__diag_set(d, PMK_ESYNTAX, col, 1,
			    "remove the extra ':' or name a unit mask",
			    "empty unit mask or modifier");
	if (!eq && (u = find_umask(st->ev, tok, len)))
		return add_umask(st, u, col, len, d);

	if (!eq && (name_eq(tok, len, "p") || name_eq(tok, len, "pp") ||
		    name_eq(tok, len, "ppp"))) {
		id = MPRECISE;
		v = len;
	} else {
		for (int i = 0; i < NMOD; i++)
			if (name_eq(tok, nlen, modtab[i].name))
				id = i;
	}
	if (id < 0) {
		umask_list(st->ev, buf, sizeof buf);
		mod_list(st->ev, mods, sizeof mods);
		if (eq || !st->ev->numask) {
			char h[300];
			snprintf(h, sizeof h, "modifiers of %s: %s",
				 st->ev->name, mods);
			return pmk__diag_set(d, PMK_EINVAL, col, (int)nlen, h,
				    "unknown modifier '%.*s'", (int)nlen, tok);
		}
		char h[400];
		snprintf(h, sizeof h,
			 "unit masks of %s: %.150s; modifiers: %.80s",
			 st->ev->name, buf, mods);
		return pmk__diag_set(d, PMK_EINVAL, col, (int)len, h,
			    "unknown unit mask or modifier '%.*s' for %s",
			    (int)len, tok, st->ev->name);
	}
	if (modtab[id].bit && !(st->ev->mods & modtab[id].bit)) {
		char h[300];
		mod_list(st->ev, mods, sizeof mods);
		snprintf(h, sizeof h, "%s on %s accepts: %s", st->ev->name,
			 st->m->desc, mods);
		return pmk__diag_set(d, PMK_EINVAL, col, (int)nlen, h,
			    "modifier '%s' is not supported by %s",
			    modtab[id].name, st->ev->name);
	}
	if (eq) {
		if (pmk__parse_u64(eq + 1, len - nlen - 1, &v) != 0)
			return pmk__diag_set(
			    d, PMK_ESYNTAX, col + (int)nlen + 1,
			    (int)(len - nlen - 1) ? (int)(len - nlen - 1) : 1,
			    "write a number, e.g. c=2 or c=0x10",
			    "bad value for modifier '%s'", modtab[id].name);
	} else if (!modtab[id].bare && id != MPRECISE) {
		return pmk__diag_set(d, PMK_ESYNTAX, col, (int)len,
			    "write it with a value, e.g. c=2",
			    "modifier '%s' needs a value", modtab[id].name);
	}
	if (v > modtab[id].max) {
		char h[64];
		snprintf(h, sizeof h, "%s takes 0..%llu", modtab[id].name,
			 (unsigned long long)modtab[id].max);
		return pmk__diag_set(d, PMK_ERANGE, col, (int)len, h,
			    "value %llu out of range for modifier '%s'",
			    (unsigned long long)v, modtab[id].name);
	}
	if (st->set[id] && st->val[id] != v)
		return pmk__diag_set(d, PMK_EINVAL, col, (int)len,
			    "give each modifier once",
			    "modifier '%s' given twice with different values",
			    modtab[id].name);
	st->set[id] = 1;
	st->val[id] = v;
	st->col[id] = col;
	{
		size_t n = strlen(st->mods_text);
		if (n + len + 2 < sizeof st->mods_text) {
			st->mods_text[n] = ':';
			for (size_t i = 0; i < len; i++)
				st->mods_text[n + 1 + i] =
				    (char)tolower((unsigned char)tok[i]);
			st->mods_text[n + 1 + len] = 0;
		}
	}
	return 0;
}

/* Apply a value implied by a unit mask; a different explicit one is an
 * error (a same one is accepted). */
static int implied(struct state *st, int id, uint64_t v, const pmk__umask *u,
		   int ucol, pmk_diag *d)
{
	if (st->set[id] && st->val[id] != v) {
		char h[160];
		snprintf(h, sizeof h,
			 "unit mask %s already sets %s=%llu; drop the modifier",
			 u->name, modtab[id].name, (unsigned long long)v);
		return pmk__diag_set(d, PMK_EINVAL, st->col[id], 1, h,
			    "modifier '%s' conflicts with unit mask %s",
			    modtab[id].name, u->name);
	}
	st->set[id] = 1;
	st->val[id] = v;
	if (!st->col[id])
		st->col[id] = ucol;
	return 0;
}

static int encode(struct state *st, const char *core_pmu, pmk_event *ev,
		  int col_event, pmk_diag *d)
{
	const pmk__nevent *e = st->ev;
	const int intel = st->m->vendor == PMK__VENDOR_INTEL;
	uint64_t evsel = e->code, umask = 0, config;
	pmk_attr *a = &ev->leaf[0];
	int rc;

	if (st->nu == 0) {
		for (int i = 0; i < e->numask; i++)
			if (e->umask[i].flags & PMK__UM_DFL)
				if ((rc = add_umask(st, &e->umask[i], col_event,
						    strlen(e->name), d)))
					return rc;
		if (e->numask && st->nu == 0) {
			char buf[256], h[300];
			umask_list(e, buf, sizeof buf);
			snprintf(h, sizeof h, "add one of: %.240s", buf);
			return pmk__diag_set(d, PMK_EINVAL, col_event,
				    (int)strlen(e->name), h,
				    "%s needs a unit mask", e->name);
		}
	}
	for (int i = 0; i < st->nu; i++) {
		const pmk__umask *u = st->um[i];
		umask |= u->code;
		if (u->flags & PMK__UM_EVSEL)
			evsel = u->evsel;
		if (u->cmask &&
		    (rc = implied(st, MC, u->cmask, u, st->um_col[i], d)))
			return rc;
		if ((u->flags & PMK__UM_EDGE) &&
		    (rc = implied(st, ME, 1, u, st->um_col[i], d)))
			return rc;
		if ((u->flags & PMK__UM_INV) &&
		    (rc = implied(st, MI, 1, u, st->um_col[i], d)))
			return rc;
		if ((u->flags & PMK__UM_ANY) &&
		    (rc = implied(st, MT, 1, u, st->um_col[i], d)))
			return rc;
	}
	if (intel && st->val[ME] && st->set[ME] && !st->val[MC])
		return pmk__diag_set(d, PMK_EINVAL, st->col[ME], 1,
			    "add a threshold, e.g. :c=1:e to count the cycles "
			    "where the event starts",
			    "edge detect on Intel needs a threshold (c=N)");

	if (intel) {
		/* events 0x0100..0xffff in the table are fixed-counter
		 * pseudo events carrying their own umask */
		config = (evsel & 0xffff) | (umask << 8);
		if (st->val[MT])
			config |= 1ull << 21;
		if (st->val[MINTX])
			config |= 1ull << 32;
		if (st->val[MINTXCP])
			config |= 1ull << 33;
	} else {
		config = (evsel & 0xff) | (umask << 8) |
			 (((evsel >> 8) & 0xf) << 32);
	}
	if (st->val[ME])
		config |= 1ull << 18;
	if (st->val[MI])
		config |= 1ull << 23;
	config |= (st->val[MC] & 0xff) << 24;

	memset(a, 0, sizeof *a);
	snprintf(a->pmu, sizeof a->pmu, "%s", core_pmu ? core_pmu : "cpu");
	a->type = PMK_TYPE_RAW;
	a->config = config;
	if (st->set[MU] || st->set[MK] || st->set[MH]) {
		a->exclude_user = !(st->set[MU] && st->val[MU]);
		a->exclude_kernel = !(st->set[MK] && st->val[MK]);
		a->exclude_hv = intel ? 0 : !(st->set[MH] && st->val[MH]);
	}
	a->precise_ip = (unsigned)st->val[MPRECISE] & 3;
	if (st->set[MPERIOD])
		a->sample = st->val[MPERIOD];
	if (st->set[MFREQ]) {
		a->sample = st->val[MFREQ];
		a->freq = 1;
	}
	{
		size_t n = (size_t)snprintf(a->name, sizeof a->name, "%s::%s",
					    st->m->name, e->name);
		for (int i = 0; i < st->nu && n < sizeof a->name; i++)
			n += (size_t)snprintf(a->name + n, sizeof a->name - n,
					      ":%s", st->um[i]->name);
		if (n < sizeof a->name)
			snprintf(a->name + n, sizeof a->name - n, "%s",
				 st->mods_text);
	}
	ev->kind = PMK_KIND_NATIVE;
	ev->nleaf = 1;
	ev->nops = 0;
	ev->unit[0] = 0;
	if (!ev->name[0])
		snprintf(ev->name, sizeof ev->name, "%s", a->name);
	return 0;
}

int pmk__native_parse_model(const pmk__model *model, const char *core_pmu,
			    const char *s, int col0, pmk_event *ev, pmk_diag *d)
{
	struct state st;
	const char *p = s, *sep = strstr(s, "::"), *name, *dot;
	size_t nlen;
	int col_event;

	if (!s || !ev)
		return PMK_EINVAL;
	memset(&st, 0, sizeof st);
	if (sep) {
		size_t mlen = (size_t)(sep - s);
		char mname[64];
		if (mlen == 0 || mlen >= sizeof mname || memchr(s, ':', mlen))
			return PMK_ENOEVENT;
		memcpy(mname, s, mlen);
		mname[mlen] = 0;
		model = pmk__model_find(mname);
		if (!model)
			return PMK_ENOEVENT; /* the caller names the model */
		p = sep + 2;
	}
	if (!model)
		return PMK_ENOEVENT;
	st.m = model;
	name = p;
	col_event = col0 + (int)(p - s);
	nlen = strcspn(name, ":");
	st.ev = find_event(model, name, nlen);
	if (!st.ev && (dot = memchr(name, '.', nlen))) {
		/* vendor style EVENT.UMASK */
		size_t elen = (size_t)(dot - name);
		st.ev = find_event(model, name, elen);
		if (st.ev) {
			const pmk__umask *u =
			    find_umask(st.ev, dot + 1, nlen - elen - 1);
			if (!u) {
				char buf[256], h[300];
				umask_list(st.ev, buf, sizeof buf);
				snprintf(h, sizeof h,
					 "unit masks of %s: %.240s",
					 st.ev->name, buf);
				return pmk__diag_set(d, PMK_EINVAL,
					    col_event + (int)elen + 1,
					    (int)(nlen - elen - 1), h,
					    "unknown unit mask '%.*s' for %s",
					    (int)(nlen - elen - 1), dot + 1,
					    st.ev->name);
			}
			int rc = add_umask(&st, u, col_event + (int)elen + 1,
					   nlen - elen - 1, d);
			if (rc)
				return rc;
		}
	}
	if (!st.ev)
		return PMK_ENOEVENT;
	p = name + nlen;
	while (*p == ':') {
		const char *tok = p + 1;
		size_t len = strcspn(tok, ":");
		int rc = parse_token(&st, tok, len, col0 + (int)(tok - s), d);
		if (rc)
			return rc;
		p = tok + len;
	}
	return encode(&st, core_pmu, ev, col_event, d);
}

int pmk__native_foreach_model(const pmk__model *m,
			      int (*fn)(const pmk_event_info *info, void *arg),
			      void *arg)
{
	char name[PMK_EVENT_NAME_MAX], desc[320];
	pmk_event_info info;
	int rc;

	if (!m)
		return 0;
	info.kind = PMK_KIND_NATIVE;
	info.pmu = m->name;
	info.name = name;
	for (int i = 0; i < m->nev; i++) {
		const pmk__nevent *e = &m->ev[i];
		if (!e->numask) {
			snprintf(name, sizeof name, "%s", e->name);
			info.desc = e->desc;
			if (e->alias) {
				snprintf(desc, sizeof desc, "%s (also %s)",
					 e->desc, e->alias);
				info.desc = desc;
			}
			if ((rc = fn(&info, arg)))
				return rc;
			continue;
		}
		for (int j = 0; j < e->numask; j++) {
			snprintf(name, sizeof name, "%s:%s", e->name,
				 e->umask[j].name);
			info.desc = e->umask[j].desc;
			if (e->alias && e->umask[j].alias) {
				snprintf(desc, sizeof desc, "%s (also %s.%s)",
					 e->umask[j].desc, e->alias,
					 e->umask[j].alias);
				info.desc = desc;
			}
			if ((rc = fn(&info, arg)))
				return rc;
		}
	}
	return 0;
}
