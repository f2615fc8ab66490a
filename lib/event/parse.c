/*
 * parse.c: the one grammar of event strings (see pmkit/event.h and
 * docs/events.md). The order names are tried in: PAPI's perf:: names,
 * sysfs `pmu/terms/`, user-defined events, PAPI presets, generic perf
 * names (generic.c), raw rNNNN, then the native events of the model
 * (native_target.c hands `[PMU::]EVENT:UMASK:MOD=VAL` to the source that
 * serves the model), a tracepoint (src_trace.c: reads the tracefs), and a
 * core PMU's sysfs event by its bare name. The list grammar is evlist.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/core/diag.h"
#include "lib/core/num.h"
#include "lib/core/strdist.h"
#include "lib/event/generic.h"
#include "lib/event/native.h"
#include "lib/event/source.h"
#include "lib/event/trace.h"
#include "lib/event/target.h"
#include "lib/event/user.h"

/* Does `s` (n chars) look like a raw event: r followed by hex digits? */
static int parse_raw(const char *s, size_t n, uint64_t *config)
{
	size_t i = 1;
	uint64_t v = 0;
	if (n < 2 || s[0] != 'r')
		return -1;
	if (n > 3 && s[1] == '0' && (s[2] == 'x' || s[2] == 'X'))
		i = 3;
	if (n - i > 16)
		return -1;
	for (; i < n; i++) {
		int c = s[i];
		if (!isxdigit(c))
			return -1;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0'
						   : (tolower(c) - 'a' + 10));
	}
	*config = v;
	return 0;
}

/* x86 core PMU layout, used for raw modifiers when the target has no sysfs
 * formats for its core PMU (the Intel SDM / AMD PPR PERF_CTL layout). */
static const struct pmk__format x86_fmt[] = {
	{"event", 0, 2, {{0, 7}, {32, 35}}},
	{"umask", 0, 1, {{8, 15}}},
	{"edge", 0, 1, {{18, 18}}},
	{"inv", 0, 1, {{23, 23}}},
	{"cmask", 0, 1, {{24, 31}}},
};

static const struct pmk__format *core_format(const pmk_target *t,
					     const char *term)
{
	const char *core = pmk_target_core_pmu(t);
	const struct pmk__pmu *p = core ? pmk__target_pmu(t, core) : NULL;
	const struct pmk__format *f = pmk__pmu_format(p, term);
	if (f)
		return f;
	if (p && p->nfmt) /* the PMU has formats, just not this one */
		return NULL;
	if (t->model[0] && strncmp(t->model, "arm", 3) != 0)
		for (size_t i = 0; i < sizeof x86_fmt / sizeof *x86_fmt; i++)
			if (!strcmp(x86_fmt[i].term, term))
				return &x86_fmt[i];
	return NULL;
}

struct mods {
	int u, k, h, G, H, p, e, i;
	int have_c, have_umask, have_period, have_freq;
	uint64_t c, umask, period, freq;
	int col_field; /* column of the first counter-field modifier */
	const struct pmk__alias *alias; /* a PMU event's sysfs alias */
};

static const char mod_hint[] =
	"modifiers are :u :k :h (privilege), :p :pp :ppp (precise), :G :H, "
	"and for raw, sysfs and native events :e :i :c=N :umask=N; "
	":period=N and :freq=N sample";

/* Parse ":mods[:mods...]" starting at s[0] == ':'; `col` is s's column. */
static int parse_mods(const char *s, int col, struct mods *m, pmk_diag *d)
{
	size_t i = 0, n = strlen(s);
	while (i < n) {
		size_t start, end;
		const char *eq;
		if (s[i] != ':')
			return pmk__diag_set(d, PMK_ESYNTAX, col + (int)i, 1,
					     mod_hint,
					     "expected ':' before a modifier");
		start = ++i;
		while (i < n && s[i] != ':')
			i++;
		end = i;
		if (end == start)
			return pmk__diag_set(d, PMK_ESYNTAX, col + (int)start,
					     1, mod_hint, "empty modifier");
		eq = memchr(s + start, '=', end - start);
		if (eq) {
			size_t kl = (size_t)(eq - (s + start));
			const char *v = eq + 1;
			size_t vl = end - (size_t)(v - s);
			uint64_t val;
			int vcol = col + (int)(v - s);
			if (pmk__parse_u64(v, vl, &val) != 0)
				return pmk__diag_set(
					d, PMK_ESYNTAX, vcol, (int)vl,
					"values are whole numbers: 2, 0x1f",
					"bad value '%.*s'", (int)vl, v);
#define KEY(str) (kl == strlen(str) && !strncmp(s + start, str, kl))
			if (KEY("c") || KEY("cmask")) {
				m->have_c = 1;
				m->c = val;
			} else if (KEY("umask")) {
				m->have_umask = 1;
				m->umask = val;
			} else if (KEY("period")) {
				m->have_period = 1;
				m->period = val;
			} else if (KEY("freq")) {
				m->have_freq = 1;
				m->freq = val;
			} else if (KEY("e") || KEY("edge")) {
				m->e = val != 0;
			} else if (KEY("i") || KEY("inv")) {
				m->i = val != 0;
			} else {
				return pmk__diag_set(
					d, PMK_ESYNTAX, col + (int)start,
					(int)kl, mod_hint,
					"unknown modifier '%.*s'", (int)kl,
					s + start);
			}
#undef KEY
			if ((m->have_c || m->have_umask || m->e || m->i) &&
			    !m->col_field)
				m->col_field = col + (int)start;
			continue;
		}
		for (size_t j = start; j < end; j++) {
			int *flag = NULL;
			switch (s[j]) {
			case 'u': flag = &m->u; break;
			case 'k': flag = &m->k; break;
			case 'h': flag = &m->h; break;
			case 'G': flag = &m->G; break;
			case 'H': flag = &m->H; break;
			case 'e': flag = &m->e; break;
			case 'i': flag = &m->i; break;
			case 'p':
				if (++m->p > 3)
					return pmk__diag_set(
						d, PMK_ESYNTAX, col + (int)j,
						1, "the precise levels are :p, :pp and :ppp",
						"too many 'p' modifiers");
				continue;
			default:
				return pmk__diag_set(
					d, PMK_ESYNTAX, col + (int)j, 1,
					mod_hint, "unknown modifier '%c'",
					s[j]);
			}
			*flag = 1;
			if ((s[j] == 'e' || s[j] == 'i') && !m->col_field)
				m->col_field = col + (int)j;
		}
	}
	return 0;
}

/* Apply privilege, precise and sampling modifiers to every leaf. */
static int apply_common_mods(pmk_event *ev, const struct mods *m, int col,
			     pmk_diag *d)
{
	if ((m->have_period || m->have_freq) && ev->nops)
		return pmk__diag_set(d, PMK_EINVAL, col, 1,
				     "sample one of its natives instead",
				     "a derived event cannot be sampled");
	if (m->have_period && m->have_freq)
		return pmk__diag_set(d, PMK_EINVAL, col, 1,
				     "give either a period or a frequency",
				     "both period and freq given");
	for (int l = 0; l < ev->nleaf; l++) {
		pmk_attr *a = &ev->leaf[l];
		if (m->u || m->k || m->h) {
			a->exclude_user = !m->u;
			a->exclude_kernel = !m->k;
			a->exclude_hv = !m->h;
		}
		if (m->G || m->H) {
			a->exclude_host = !m->H;
			a->exclude_guest = !m->G;
		}
		if (m->p)
			a->precise_ip = (unsigned)m->p;
		if (m->have_period) {
			a->sample = m->period;
			a->freq = 0;
		}
		if (m->have_freq) {
			a->sample = m->freq;
			a->freq = 1;
		}
	}
	return 0;
}

/* Apply e/i/c/umask to a raw event through the core PMU's formats. */
static int apply_field_mods(const pmk_target *t, pmk_attr *a,
			    const struct mods *m, pmk_diag *d)
{
	struct {
		const char *term;
		int on;
		uint64_t v;
	} f[] = {{"edge", m->e, 1},
		 {"inv", m->i, 1},
		 {"cmask", m->have_c, m->c},
		 {"umask", m->have_umask, m->umask}};
	for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
		const struct pmk__format *fmt;
		if (!f[i].on)
			continue;
		fmt = core_format(t, f[i].term);
		if (!fmt)
			return pmk__diag_set(
				d, PMK_ENOTSUP, m->col_field, 1,
				"write the bits into the raw code, or name a model (pmkit encode --model)",
				"the core PMU here has no '%s' field", f[i].term);
		if (pmk__format_apply(fmt, f[i].v, a) != 0)
			return pmk__diag_set(
				d, PMK_ERANGE, m->col_field, 1, NULL,
				"%s=%llu does not fit in %d bits", f[i].term,
				(unsigned long long)f[i].v,
				pmk__format_bits(fmt));
	}
	return 0;
}

static void leaf_init(pmk_attr *a, const char *pmu, uint32_t type,
		      uint64_t config, const char *name)
{
	memset(a, 0, sizeof *a);
	snprintf(a->pmu, sizeof a->pmu, "%s", pmu);
	snprintf(a->name, sizeof a->name, "%s", name);
	a->type = type;
	a->config = config;
}

/* One term of a list "k=v,k,...": where it starts in the list, its
 * length, its key and its value (NULL when it has none). */
struct term {
	size_t start, len, kl, vl;
	const char *key, *val;
};

/* The term at terms[*i], *i moved past it and its comma; 0 at the end. */
static int term_next(const char *terms, size_t n, size_t *i, struct term *t)
{
	const char *eq;
	if (*i >= n)
		return 0;
	t->start = *i;
	t->key = terms + *i;
	while (*i < n && terms[*i] != ',')
		(*i)++;
	t->len = *i - t->start;
	eq = memchr(t->key, '=', t->len);
	t->kl = eq ? (size_t)(eq - t->key) : t->len;
	t->val = eq ? eq + 1 : NULL;
	t->vl = eq ? (size_t)(terms + *i - t->val) : 0;
	if (*i < n)
		(*i)++; /* the comma */
	return 1;
}

/* A generic hardware or cache name as a term of a core PMU, as perf takes
 * it (`cpu_atom/cycles/`, `cpu/cache-misses/`, where sysfs has no such
 * alias): the generic event, on a hybrid with the PMU's type in config's
 * upper 32 bits (the kernel's extended type), so that it counts on that
 * core type. 1 when `term` was one. */
static int legacy_term(const pmk_target *t, const struct pmk__pmu *p,
		       const char *term, pmk_attr *a)
{
	struct pmk__generic g;
	if (!p->is_core || pmk__generic_find_hw(term, &g) != 0)
		return 0;
	a->type = g.type;
	a->config = g.config |
		    (pmk__target_ncore(t) > 1 ? (uint64_t)p->type << 32 : 0);
	return 1;
}

/* Parse the terms of pmu/terms/ into `a`. `col` is the column of terms[0]. */
static int parse_terms(const pmk_target *t, const struct pmk__pmu *p,
		       const char *terms, size_t n, int col, pmk_attr *a,
		       struct mods *m, int depth, pmk_diag *d)
{
	size_t i = 0;
	struct term tm;
	while (term_next(terms, n, &i, &tm)) {
		size_t start = tm.start, kl = tm.kl, vl = tm.vl;
		const char *key = tm.key, *val = tm.val;
		uint64_t v = 1;
		if (kl == 0)
			return pmk__diag_set(d, PMK_ESYNTAX, col + (int)start,
					     1, "terms look like event=0x3c,umask=1",
					     "empty term");
		if (val && pmk__parse_u64(val, vl, &v) != 0)
			return pmk__diag_set(
				d, PMK_ESYNTAX, col + (int)(val - terms),
				(int)(vl ? vl : 1),
				"values are whole numbers: 2, 0x1f",
				"bad value '%.*s' for '%.*s'", (int)vl, val,
				(int)kl, key);
#define IS(str) (kl == strlen(str) && !strncmp(key, str, kl))
		if (IS("config") || IS("config1") || IS("config2")) {
			uint64_t *w = IS("config")    ? &a->config
				      : IS("config1") ? &a->config1
						      : &a->config2;
			*w = v;
		} else if (IS("period")) {
			m->have_period = 1;
			m->period = v;
		} else if (IS("freq")) {
			m->have_freq = 1;
			m->freq = v;
		} else if (IS("name")) {
			/* a label only */
		} else {
			char term[64];
			const struct pmk__format *f;
			const struct pmk__alias *al;
			snprintf(term, sizeof term, "%.*s", (int)kl, key);
			f = pmk__pmu_format(p, term);
			al = f ? NULL : pmk__pmu_alias(p, term);
			if (f) {
				if (pmk__format_apply(f, v, a) != 0)
					return pmk__diag_set(
						d, PMK_ERANGE,
						col + (int)(val ? val - terms
								: (long)start),
						(int)(vl ? vl : kl), NULL,
						"%s=%.*s does not fit in %d bits",
						term, (int)vl, val ? val : "",
						pmk__format_bits(f));
			} else if (!al && !val && legacy_term(t, p, term, a)) {
				/* perf's generic name on a core PMU */
			} else if (al && !val && depth < 4) {
				int rc;
				if (!m->alias)
					m->alias = al;
				rc = parse_terms(t, p, al->terms,
						     strlen(al->terms),
						     col + (int)start, a, m,
						     depth + 1, d);
				if (rc)
					return rc;
			} else {
				char hint[200];
				int len = snprintf(hint, sizeof hint,
						   "terms of '%s':", p->name);
				for (int k = 0; k < p->nfmt && len < 180; k++)
					len += snprintf(hint + len,
							sizeof hint - (size_t)len,
							" %s", p->fmt[k].term);
				if (p->nalias)
					snprintf(hint + len,
						 sizeof hint - (size_t)len,
						 "; 'pmkit list %s/' shows its events",
						 p->name);
				return pmk__diag_set(
					d, PMK_ENOEVENT, col + (int)start,
					(int)kl, hint,
					"PMU '%s' has no term or event '%s'",
					p->name, term);
			}
		}
#undef IS
	}
	return 0;
}

static int pmu_hint(const pmk_target *t, char *hint, size_t size)
{
	int len = snprintf(hint, size, "PMUs here:");
	for (int i = 0; i < t->npmu && (size_t)len < size - 40; i++)
		len += snprintf(hint + len, size - (size_t)len, " %s",
				t->pmu[i].name);
	if (!pmk_target_core_pmu(t))
		snprintf(hint + len, size - (size_t)len,
			 " (no hardware PMU: virtual machine?)");
	return 0;
}

/* A sysfs alias's unit and scale, as perf shows its counts: the value is
 * the count times the scale (a one-step program), in the unit (RAPL's
 * power/energy-pkg/ in Joules). */
static void apply_alias_scale(pmk_event *ev, const struct pmk__alias *al)
{
	if (al->unit[0])
		snprintf(ev->unit, sizeof ev->unit, "%s", al->unit);
	if (al->scale > 0 && al->scale != 1) {
		ev->ops[0] = (pmk_op){PMK_OP_LEAF, 0, 0};
		ev->ops[1] = (pmk_op){PMK_OP_CONST, 0, al->scale};
		ev->ops[2] = (pmk_op){PMK_OP_MUL, 0, 0};
		ev->nops = 3;
	}
}

static int parse_pmu_form(const pmk_target *t, const char *s, const char *slash,
			  pmk_event *ev, pmk_diag *d)
{
	const char *close = strchr(slash + 1, '/');
	const struct pmk__pmu *p;
	char pmu[PMK_PMU_NAME_MAX];
	struct mods m;
	size_t pl = (size_t)(slash - s);
	int rc;

	memset(&m, 0, sizeof m);
	if (!close)
		return pmk__diag_set(d, PMK_ESYNTAX, (int)strlen(s) + 1, 1,
				     "close the terms: cpu/event=0x3c/",
				     "missing '/' after the terms");
	if (pl == 0 || pl >= sizeof pmu)
		return pmk__diag_set(d, PMK_ESYNTAX, 1, 1, NULL,
				     "missing PMU name before '/'");
	memcpy(pmu, s, pl);
	pmu[pl] = 0;
	p = pmk__target_pmu(t, pmu);
	if (!p && !strcmp(pmu, "cpu"))
		p = pmk__target_arch_cpu(t);
	if (!p) {
		char hint[256];
		pmu_hint(t, hint, sizeof hint);
		return pmk__diag_set(d, PMK_ENOPMU, 1, (int)pl, hint,
				     "no PMU '%s' on this machine", pmu);
	}
	ev->kind = PMK_KIND_PMU;
	ev->nleaf = 1;
	leaf_init(&ev->leaf[0], pmu, p->type, 0, s);
	rc = parse_terms(t, p, slash + 1, (size_t)(close - slash - 1),
			 (int)(slash - s) + 2, &ev->leaf[0], &m, 0, d);
	if (rc)
		return rc;
	if (close[1]) {
		/* perf writes cpu/.../u; accept that and cpu/.../:u */
		const char *mods = close + 1;
		char buf[64];
		if (*mods != ':') {
			snprintf(buf, sizeof buf, ":%s", mods);
			mods = buf;
		}
		rc = parse_mods(mods, (int)(close - s) + (mods == buf ? 1 : 2),
				&m, d);
		if (rc)
			return rc;
		if (m.e || m.i || m.have_c || m.have_umask)
			return pmk__diag_set(
				d, PMK_ESYNTAX, m.col_field, 1,
				"write them as terms: cpu/event=0x3c,edge=1,cmask=2/",
				"field modifiers go inside the terms of a PMU event");
	}
	rc = apply_common_mods(ev, &m, (int)(close - s) + 2, d);
	if (rc == 0 && m.alias)
		apply_alias_scale(ev, m.alias);
	return rc;
}

/* Length of the base name: up to the first ':' (or all). */
static size_t base_len(const char *s)
{
	const char *c = strchr(s, ':');
	return c ? (size_t)(c - s) : strlen(s);
}

struct nearest {
	const char *want;
	char best[PMK_EVENT_NAME_MAX];
	int bestd;
};

static int nearest_cb(const pmk_event_info *info, void *arg)
{
	struct nearest *n = arg;
	/* only a name nearer than the best so far matters: the bound lets
	 * the distance skip most of libpfm4's thousands of names at once */
	int dd = pmk__edit_distance_max(n->want, info->name, n->bestd - 1);
	if (dd < n->bestd) {
		n->bestd = dd;
		snprintf(n->best, sizeof n->best, "%s", info->name);
	}
	return 0;
}

static int unknown_event(const pmk_target *t, const char *name, size_t n,
			 pmk_diag *d)
{
	struct nearest near;
	char want[PMK_EVENT_NAME_MAX], hint[256], other[64];
	const char *canon = NULL;
	if (!d) /* nobody will read the hint: skip the search for it */
		return PMK_ENOEVENT;
	snprintf(want, sizeof want, "%.*s", (int)n, name);
	/* an event of another model says so */
	pmk__source_for(t->model, &canon);
	if (strcspn(want, ".") == strlen(want) &&
	    pmk__source_event_elsewhere(want, strlen(want),
					canon ? canon : t->model, other,
					sizeof other) == 0) {
		snprintf(hint, sizeof hint,
			 "'pmkit encode --model %s %s' encodes it for that "
			 "model; 'pmkit list' shows this machine's events",
			 other, want);
		return pmk__diag_set(d, PMK_ENOEVENT, 1, (int)n, hint,
				     "%s is a%s %s event; this machine is %s",
				     want, strchr("aefhilmnorsx", other[0]) ? "n" : "",
				     other,
				     t->model[0] ? t->model
				     : t->cpu[0] ? t->cpu
						 : "of no known model");
	}
	near.want = want;
	near.best[0] = 0;
	near.bestd = (int)(n / 3) + 1;
	if (near.bestd > 4)
		near.bestd = 4;
	pmk_event_foreach(t, nearest_cb, &near);
	if (near.best[0])
		snprintf(hint, sizeof hint,
			 "did you mean '%s'? ('pmkit list' shows the events)",
			 near.best);
	else if (t->model[0] && !pmk__source_for(t->model, NULL))
		snprintf(hint, sizeof hint,
			 "no source here has native events for %s: use "
			 "perf's generic names or the PMU's sysfs events "
			 "('pmkit list')",
			 t->model);
	else
		snprintf(hint, sizeof hint, "'pmkit list' shows the events");
	return pmk__diag_set(d, PMK_ENOEVENT, 1, (int)n, hint,
			     "unknown event '%s'", want);
}

/* PAPI's names for the kernel's generic events: perf::TASK-CLOCK,
 * perf::PERF_COUNT_HW_CPU_CYCLES, perf::L1-DCACHE-LOAD-MISSES (generic.c
 * knows the spellings). */
static int parse_perf_ns(const pmk_target *t, const char *str, pmk_event *ev,
			 pmk_diag *d)
{
	const char *b = str + 6;
	size_t bl = base_len(b);
	char name[PMK_EVENT_NAME_MAX], buf[PMK_EVENT_NAME_MAX * 2];
	int rc;
	if (bl == 0 || bl >= sizeof name)
		return pmk__diag_set(d, PMK_ESYNTAX, 7, 1,
				     "perf::TASK-CLOCK, perf::CYCLES",
				     "missing event name after 'perf::'");
	if (pmk__generic_papi_name(b, bl, name, sizeof name) != 0) {
		rc = unknown_event(t, b, bl, d);
		if (d)
			d->column += 6;
		return rc;
	}
	snprintf(buf, sizeof buf, "%s%s", name, b + bl);
	if (strlen(buf) >= PMK_EVENT_NAME_MAX)
		return pmk__diag_set(d, PMK_ERANGE, 1, (int)strlen(str), NULL,
				     "event string too long");
	rc = pmk_event_parse(t, buf, ev, d);
	if (d) {
		snprintf(d->input, sizeof d->input, "%s", str);
		if (rc)
			d->column += 6 + (d->column > (int)strlen(name)
						  ? (int)bl - (int)strlen(name)
						  : 0);
	}
	if (rc == 0)
		snprintf(ev->name, sizeof ev->name, "%s", str);
	return rc;
}

/* The terms of a tracepoint, perf's "SUB:NAME/terms/": period=N, freq=N,
 * name=LABEL, and for sampling max-stack=N (a call chain of at most N
 * frames) and call-graph=fp (a call chain). `col` is terms[0]'s column. */
static int parse_tp_terms(const char *terms, size_t n, int col, pmk_attr *a,
			  struct mods *m, pmk_diag *d)
{
	static const char hint[] =
	    "a tracepoint takes period=N, freq=N, max-stack=N, "
	    "call-graph=fp and name=LABEL";
	size_t i = 0;
	struct term tm;
	while (term_next(terms, n, &i, &tm)) {
		size_t kl = tm.kl, vl = tm.vl;
		const char *key = tm.key, *val = tm.val;
		uint64_t v = 0;
#define IS(str) (kl == strlen(str) && !strncmp(key, str, kl))
		if (IS("name")) {
			/* a label only */
		} else if (IS("call-graph") && vl == 2 &&
			   !strncmp(val, "fp", 2)) {
			if (!a->max_stack)
				a->max_stack = 127; /* the kernel's default */
		} else if (!val || pmk__parse_u64(val, vl, &v) != 0 ||
			   !(IS("period") || IS("freq") || IS("max-stack"))) {
			return pmk__diag_set(d, PMK_ESYNTAX,
					     col + (int)tm.start, (int)tm.len,
					     hint,
					     "unknown or bad tracepoint term "
					     "'%.*s'",
					     (int)tm.len, key);
		} else if (IS("max-stack")) {
			if (v == 0 || v > 65535)
				return pmk__diag_set(
				    d, PMK_ERANGE, col + (int)(val - terms),
				    (int)vl, NULL,
				    "max-stack is 1 to 65535 frames");
			a->max_stack = (unsigned)v;
		} else if (IS("period")) {
			m->have_period = 1;
			m->period = v;
		} else {
			m->have_freq = 1;
			m->freq = v;
		}
#undef IS
	}
	return 0;
}

/* "SUB:NAME[/terms/][:mods]": a tracepoint of the target's tracefs. */
struct tp_count {
	int n;
	char first[160];
	uint64_t id;
};

static int tp_count_cb(const char *name, uint64_t id, void *arg)
{
	struct tp_count *c = arg;
	if (c->n++ == 0) {
		snprintf(c->first, sizeof c->first, "%s", name);
		c->id = id;
	}
	return 0;
}

static int parse_tracepoint(const pmk_target *t, const char *str,
			    pmk_event *ev, pmk_diag *d)
{
	size_t sl = base_len(str), nl;
	const char *name;
	uint64_t id;
	struct mods m;
	int rc;
	if (!str[sl])
		return PMK_ENOEVENT;
	name = str + sl + 1;
	nl = base_len(name);
	if (memchr(name, '/', nl)) /* SUB:NAME/terms/ */
		nl = (size_t)((const char *)memchr(name, '/', nl) - name);
	if (memchr(name, '*', nl) || memchr(name, '?', nl) ||
	    memchr(str, '*', sl) || memchr(str, '?', sl)) {
		struct tp_count c = {0, "", 0};
		char pat[PMK_EVENT_NAME_MAX];
		snprintf(pat, sizeof pat, "%.*s", (int)(sl + 1 + nl), str);
		pmk_tracepoint_foreach(t, pat, tp_count_cb, &c);
		if (c.n == 0)
			return PMK_ENOEVENT;
		if (c.n > 1) {
			char hint[200];
			snprintf(hint, sizeof hint,
				 "'pmkit list %s' lists them; name each one "
				 "(first: %s)",
				 pat, c.first);
			return pmk__diag_set(d, PMK_EINVAL, 1,
					     (int)(sl + 1 + nl), hint,
					     "'%s' matches %d tracepoints", pat,
					     c.n);
		}
		id = c.id;
	} else if (pmk__tracepoint_id(t, str, sl, name, nl, &id) != 0) {
		return PMK_ENOEVENT;
	}
	ev->kind = PMK_KIND_TRACEPOINT;
	ev->nleaf = 1;
	leaf_init(&ev->leaf[0], "tracepoint", PMK_TYPE_TRACEPOINT, id, str);
	ev->leaf[0].name[sl + 1 + nl < sizeof ev->leaf[0].name
			     ? sl + 1 + nl
			     : sizeof ev->leaf[0].name - 1] = 0;
	memset(&m, 0, sizeof m);
	if (name[nl] == '/') {
		const char *close = strchr(name + nl + 1, '/');
		if (!close)
			return pmk__diag_set(d, PMK_ESYNTAX, (int)strlen(str) + 1,
					     1, "close the terms: "
						"sched:sched_switch/max-stack=4/",
					     "missing '/' after the terms");
		if ((rc = parse_tp_terms(name + nl + 1,
					 (size_t)(close - name - nl - 1),
					 (int)(sl + nl) + 3, &ev->leaf[0], &m,
					 d)) != 0)
			return rc;
		nl = (size_t)(close + 1 - name);
		/* perf writes SUB:NAME/terms/u; take :u too */
		if (name[nl] && name[nl] != ':') {
			char buf[64];
			snprintf(buf, sizeof buf, ":%s", name + nl);
			if ((rc = parse_mods(buf, (int)(sl + nl) + 1, &m, d)))
				return rc;
			nl = strlen(name);
		}
	}
	if (name[nl] &&
	    (rc = parse_mods(name + nl, (int)(sl + nl) + 2, &m, d)) != 0)
		return rc;
	if (m.e || m.i || m.have_c || m.have_umask)
		return pmk__diag_set(d, PMK_EINVAL, m.col_field, 1, NULL,
				     "a tracepoint has no counter fields");
	return apply_common_mods(ev, &m, (int)(sl + nl) + 2, d);
}

/* A bare event name of a core PMU's sysfs events (perf accepts
 * "inst_retired" on Arm, "topdown-retiring" on Intel). */
static int parse_core_alias(const pmk_target *t, const char *str,
			    pmk_event *ev, pmk_diag *d)
{
	size_t bl = base_len(str);
	char name[PMK_EVENT_NAME_MAX], buf[PMK_EVENT_NAME_MAX * 2];
	snprintf(name, sizeof name, "%.*s", (int)bl, str);
	for (int i = 0; i < t->npmu; i++) {
		const struct pmk__pmu *p = &t->pmu[i];
		int rc, pl;
		if (!p->is_core || !pmk__pmu_alias(p, name))
			continue;
		pl = snprintf(buf, sizeof buf, "%s/%s/%s", p->name, name,
			      str + bl);
		if (pl >= (int)sizeof buf)
			return PMK_ENOEVENT;
		rc = parse_pmu_form(t, buf, buf + strlen(p->name), ev, d);
		if (d && rc) {
			snprintf(d->input, sizeof d->input, "%s", str);
			d->column -= (int)strlen(p->name) + 1;
			if (d->column > (int)bl)
				d->column -= 1;
			if (d->column < 1)
				d->column = 1;
		}
		if (rc == 0)
			snprintf(ev->name, sizeof ev->name, "%s", str);
		return rc;
	}
	return PMK_ENOEVENT;
}

int pmk_event_parse(const pmk_target *t, const char *str, pmk_event *ev,
		    pmk_diag *d)
{
	size_t n, bl;
	char base[PMK_EVENT_NAME_MAX];
	struct mods m;
	const char *slash;
	struct pmk__generic g;
	uint64_t raw;
	int rc;

	if (d) {
		pmk_diag_clear(d);
		snprintf(d->input, sizeof d->input, "%s", str ? str : "");
	}
	if (!t || !str || !ev)
		return pmk__diag_set(d, PMK_EINVAL, 0, 0, NULL,
				     "no event string");
	memset(ev, 0, sizeof *ev);
	n = strlen(str);
	if (n == 0)
		return pmk__diag_set(d, PMK_ESYNTAX, 1, 1,
				     "'pmkit list' shows the events",
				     "empty event name");
	if (n >= sizeof ev->name)
		return pmk__diag_set(d, PMK_ERANGE, (int)sizeof ev->name,
				     (int)(n - sizeof ev->name + 1), NULL,
				     "event string longer than %d characters",
				     (int)sizeof ev->name - 1);
	for (size_t i = 0; i < n; i++)
		if (isspace((unsigned char)str[i]) || !isprint((unsigned char)str[i]))
			return pmk__diag_set(d, PMK_ESYNTAX, (int)i + 1, 1,
					     "event strings have no spaces",
					     "unexpected character");
	strcpy(ev->name, str);

	/* PAPI's perf::NAME for the kernel's generic events */
	if (!strncasecmp(str, "perf::", 6))
		return parse_perf_ns(t, str, ev, d);

	/* pmu/terms/[mods] */
	slash = strchr(str, '/');
	if (slash && !memchr(str, ':', (size_t)(slash - str)))
		return parse_pmu_form(t, str, slash, ev, d);

	/* libpfm4-style PMU::EVENT goes to the tables */
	if (strstr(str, "::"))
		goto native;

	bl = base_len(str);
	memcpy(base, str, bl);
	base[bl] = 0;
	memset(&m, 0, sizeof m);

	if (pmk__user_find(base, ev) == 0) {
		strcpy(ev->name, str);
		ev->kind = PMK_KIND_USER;
	} else if (!strncmp(base, "PAPI_", 5)) {
		rc = pmk__preset_resolve(t, base, 1, ev, d);
		if (rc == PMK_ENOEVENT)
			return unknown_event(t, base, bl, d);
		if (rc)
			return rc;
		strcpy(ev->name, str);
		ev->kind = PMK_KIND_PRESET;
	} else if (pmk__generic_find(base, &g) == 0) {
		const char *core = pmk_target_core_pmu(t);
		ev->kind = g.kind;
		ev->nleaf = 1;
		snprintf(ev->unit, sizeof ev->unit, "%s", g.unit);
		leaf_init(&ev->leaf[0],
			  g.kind == PMK_KIND_SOFTWARE ? "software"
			  : g.kind == PMK_KIND_TOOL   ? "tool"
			  : core		      ? core
						      : "cpu",
			  g.type, g.config, base);
	} else if (parse_raw(base, bl, &raw) == 0) {
		const char *core = pmk_target_core_pmu(t);
		ev->kind = PMK_KIND_RAW;
		ev->nleaf = 1;
		leaf_init(&ev->leaf[0], core ? core : "cpu", PMK_TYPE_RAW, raw,
			  base);
	} else {
		goto native;
	}

	if (str[bl] && (rc = parse_mods(str + bl, (int)bl + 1, &m, d)) != 0)
		return rc;
	if (m.e || m.i || m.have_c || m.have_umask) {
		if (ev->kind != PMK_KIND_RAW)
			return pmk__diag_set(
				d, PMK_EINVAL, m.col_field, 1,
				"edge, invert, threshold and unit mask need a raw, sysfs or native event: r003c:e:c=1 or cpu/event=0x3c,edge=1,cmask=1/",
				"'%s' is a %s event: it has no counter fields",
				base, pmk_event_kind_name(ev->kind));
		if ((rc = apply_field_mods(t, &ev->leaf[0], &m, d)) != 0)
			return rc;
	}
	return apply_common_mods(ev, &m, (int)bl + 1, d);

native:
	rc = pmk__native_parse(t, str, 1, ev, d);
	if (rc == PMK_ENOEVENT && !strstr(str, "::")) {
		pmk_diag keep;
		if (d)
			keep = *d;
		rc = parse_tracepoint(t, str, ev, d);
		if (rc == PMK_ENOEVENT)
			rc = parse_core_alias(t, str, ev, d);
		if (rc == PMK_ENOEVENT && d)
			*d = keep;
		if (rc == 0 && !ev->name[0])
			strcpy(ev->name, str);
		if (rc != PMK_ENOEVENT)
			return rc;
	}
	if (rc == PMK_ENOEVENT) {
		const char *sep = strstr(str, "::");
		if (sep) {
			size_t pl = (size_t)(sep - str);
			char model[64];
			snprintf(model, sizeof model, "%.*s", (int)pl, str);
			if (!pmk__model_known(model) &&
			    !pmk__target_pmu(t, model))
				return pmk__diag_set(
					d, PMK_ENOPMU, 1, (int)pl,
					"'pmkit encode --models' lists the models and where their events come from",
					"no PMU or event tables for '%s'", model);
			rc = unknown_event(t, sep + 2, base_len(sep + 2), d);
			if (d)
				d->column = (int)pl + 3;
			return rc;
		}
		return unknown_event(t, str, base_len(str), d);
	}
	if (rc == 0 && !ev->name[0])
		strcpy(ev->name, str);
	return rc;
}

/* The modifiers after the '}' that closes the group opened at list[at]
 * ("{a,b}:u" gives "u"), copied to `mods`; "" when there are none. */
static void group_mods(const char *list, size_t at, char *mods, size_t size)
{
	int in_terms = 0;
	size_t k, e;
	mods[0] = 0;
	for (k = at; list[k] && (in_terms || list[k] != '}'); k++)
		if (list[k] == '/')
			in_terms = !in_terms;
	if (list[k] != '}' || list[k + 1] != ':')
		return;
	k += 2;
	for (e = k; list[e] && list[e] != ','; e++)
		;
	while (e > k && list[e - 1] == ' ')
		e--;
	if (e - k < size)
		snprintf(mods, size, "%.*s", (int)(e - k), list + k);
}

int pmk_event_list_foreach(const char *list,
			   int (*fn)(const char *item, int column, void *arg),
			   void *arg)
{
	char item[PMK_EVENT_NAME_MAX * 2], mods[64] = "";
	size_t i = 0, n = strlen(list);
	while (i <= n) {
		size_t start, end;
		int in_terms = 0, rc;
		char *close;
		while (i < n && list[i] == ' ')
			i++;
		start = i;
		while (i < n && (in_terms || list[i] != ',')) {
			if (list[i] == '/')
				in_terms = !in_terms;
			i++;
		}
		end = i;
		while (end > start && list[end - 1] == ' ')
			end--;
		if (end - start >= sizeof item)
			end = start + sizeof item - 1;
		memcpy(item, list + start, end - start);
		item[end - start] = 0;
		/* {a,b}:MODS applies MODS to every member, as in perf: the
		 * items become "{a:MODS" and "b:MODS}" */
		if (item[0] == '{')
			group_mods(list, start, mods, sizeof mods);
		close = strrchr(item, '}');
		if (mods[0] && close && close[1] == ':') {
			*close = 0;
			if (strlen(item) + strlen(mods) + 3 < sizeof item)
				snprintf(close, sizeof item - (size_t)(close - item),
					 ":%s}", mods);
		} else if (mods[0] && strlen(item) + strlen(mods) + 2 < sizeof item) {
			strcat(item, ":");
			strcat(item, mods);
		}
		if (close)
			mods[0] = 0; /* the group ends here */
		rc = fn(item, (int)start + 1, arg);
		if (rc)
			return rc;
		i++;
	}
	return 0;
}

const char *pmk_event_kind_name(pmk_event_kind k)
{
	switch (k) {
	case PMK_KIND_HARDWARE: return "hardware";
	case PMK_KIND_HWCACHE: return "hardware cache";
	case PMK_KIND_SOFTWARE: return "software";
	case PMK_KIND_RAW: return "raw";
	case PMK_KIND_PMU: return "PMU";
	case PMK_KIND_NATIVE: return "native";
	case PMK_KIND_TRACEPOINT: return "tracepoint";
	case PMK_KIND_PRESET: return "preset";
	case PMK_KIND_USER: return "user-defined";
	case PMK_KIND_SIM: return "simulated";
	case PMK_KIND_TOOL: return "tool";
	default: return "unknown";
	}
}
