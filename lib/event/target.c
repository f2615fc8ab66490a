/*
 * target.c: PMU descriptions events are encoded for (pure). The sysfs
 * reader that fills a target from a live machine is lib/backend/discover.c.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/num.h"
#include "lib/event/source.h"
#include "lib/event/target.h"

pmk_target *pmk_target_new(void)
{
	pmk_target *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	if (pthread_mutex_init(&t->lock, NULL) != 0) {
		free(t);
		return NULL;
	}
	/* The kernel's fixed PMUs exist on every Linux machine. */
	pmk_target_add_pmu(t, "software", PMK_TYPE_SOFTWARE, 0);
	pmk_target_add_pmu(t, "tracepoint", PMK_TYPE_TRACEPOINT, 0);
	pmk_target_add_pmu(t, "breakpoint", PMK_TYPE_BREAKPOINT, 0);
	return t;
}

void pmk_target_free(pmk_target *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->npmu; i++)
		free(t->pmu[i].alias);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

const struct pmk__pmu *pmk__target_pmu(const pmk_target *t, const char *name)
{
	for (int i = 0; t && i < t->npmu; i++)
		if (strcmp(t->pmu[i].name, name) == 0)
			return &t->pmu[i];
	return NULL;
}

int pmk_target_add_pmu(pmk_target *t, const char *pmu, uint32_t type,
		       int is_core)
{
	struct pmk__pmu *p = (struct pmk__pmu *)pmk__target_pmu(t, pmu);
	if (!t || !pmu || !*pmu || strlen(pmu) >= PMK_PMU_NAME_MAX)
		return PMK_EINVAL;
	if (!p) {
		if (t->npmu == PMK__PMU_MAX)
			return PMK_ETOOMANY;
		p = &t->pmu[t->npmu++];
		memset(p, 0, sizeof *p);
		strcpy(p->name, pmu);
	}
	p->type = type;
	p->is_core = is_core;
	return 0;
}

/* Parse "config:0-7,32-35" / "config1:0" / "config2:3-4". */
static int parse_format_spec(const char *spec, struct pmk__format *f)
{
	const char *s = spec;
	if (strncmp(s, "config", 6) != 0)
		return -1;
	s += 6;
	f->word = 0;
	if (*s == '1' || *s == '2')
		f->word = *s++ - '0';
	if (*s++ != ':')
		return -1;
	f->nrange = 0;
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s || lo < 0 || lo > 63)
			return -1;
		s = end;
		if (*s == '-') {
			hi = strtol(s + 1, &end, 10);
			if (end == s + 1 || hi < lo || hi > 63)
				return -1;
			s = end;
		}
		if (f->nrange == 4)
			return -1;
		f->r[f->nrange].lo = (unsigned char)lo;
		f->r[f->nrange].hi = (unsigned char)hi;
		f->nrange++;
		while (*s == ' ' || *s == '\n')
			s++;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return f->nrange ? 0 : -1;
}

int pmk_target_add_format(pmk_target *t, const char *pmu, const char *term,
			  const char *spec, pmk_diag *d)
{
	struct pmk__pmu *p = (struct pmk__pmu *)pmk__target_pmu(t, pmu);
	struct pmk__format f;
	memset(&f, 0, sizeof f);
	if (!p)
		return PMK_ENOPMU;
	if (!term || strlen(term) >= sizeof f.term ||
	    parse_format_spec(spec, &f) != 0) {
		if (d) {
			pmk_diag_clear(d);
			d->code = PMK_EFORMAT;
			snprintf(d->message, sizeof d->message,
				 "bad format '%s' for term '%s' of PMU '%s'",
				 spec ? spec : "", term ? term : "", pmu);
		}
		return PMK_EFORMAT;
	}
	strcpy(f.term, term);
	for (int i = 0; i < p->nfmt; i++)
		if (!strcmp(p->fmt[i].term, term)) {
			p->fmt[i] = f;
			return 0;
		}
	if (p->nfmt == PMK__FMT_MAX)
		return PMK_ETOOMANY;
	p->fmt[p->nfmt++] = f;
	return 0;
}

int pmk_target_add_alias(pmk_target *t, const char *pmu, const char *event,
			 const char *terms)
{
	struct pmk__pmu *p = (struct pmk__pmu *)pmk__target_pmu(t, pmu);
	struct pmk__alias *a;
	if (!p)
		return PMK_ENOPMU;
	if (!event || !terms || strlen(event) >= sizeof a->name ||
	    strlen(terms) >= sizeof a->terms)
		return PMK_EINVAL;
	if (p->nalias == p->calias) {
		int nc = p->calias ? p->calias * 2 : 16;
		a = realloc(p->alias, sizeof *a * (size_t)nc);
		if (!a)
			return PMK_ENOMEM;
		p->alias = a;
		p->calias = nc;
	}
	a = &p->alias[p->nalias++];
	memset(a, 0, sizeof *a);
	strcpy(a->name, event);
	strcpy(a->terms, terms);
	/* sysfs values end with a newline */
	for (size_t n = strlen(a->terms);
	     n && isspace((unsigned char)a->terms[n - 1]); n--)
		a->terms[n - 1] = 0;
	return 0;
}

int pmk_target_set_model(pmk_target *t, const char *model)
{
	if (!t || !model || strlen(model) >= sizeof t->model)
		return PMK_EINVAL;
	if (*model && !pmk__model_known(model))
		return PMK_ENOENT;
	strcpy(t->model, model);
	return 0;
}

const char *pmk_target_model(const pmk_target *t)
{
	return t ? t->model : "";
}

int pmk_target_pmu_count(const pmk_target *t)
{
	return t ? t->npmu : 0;
}

const char *pmk_target_pmu_name(const pmk_target *t, int i, uint32_t *type,
				int *is_core)
{
	if (!t || i < 0 || i >= t->npmu)
		return NULL;
	if (type)
		*type = t->pmu[i].type;
	if (is_core)
		*is_core = t->pmu[i].is_core;
	return t->pmu[i].name;
}

const char *pmk_target_pmu_model(const pmk_target *t, int i, int *is_uncore)
{
	if (!t || i < 0 || i >= t->npmu)
		return "";
	if (is_uncore)
		*is_uncore = t->pmu[i].is_uncore;
	if (t->pmu[i].model[0])
		return t->pmu[i].model;
	return t->pmu[i].is_core ? t->model : "";
}

int pmk_target_captured(const pmk_target *t)
{
	return t ? t->captured : 0;
}

const char *pmk_target_cpu(const pmk_target *t)
{
	return t ? t->cpu : "";
}

const char *pmk_model_source(const char *model)
{
	const pmk__source *s = pmk__source_for(model, NULL);
	return s ? s->name : NULL;
}

const char *pmk_target_core_pmu(const pmk_target *t)
{
	/* on hybrids perf's default is the big core: cpu_core before
	 * cpu_atom, whatever order sysfs listed them in */
	const char *first = NULL;
	for (int i = 0; t && i < t->npmu; i++) {
		if (!t->pmu[i].is_core)
			continue;
		if (strcmp(t->pmu[i].name, "cpu_atom") != 0)
			return t->pmu[i].name;
		if (!first)
			first = t->pmu[i].name;
	}
	return first;
}

const struct pmk__format *pmk__pmu_format(const struct pmk__pmu *p,
					  const char *term)
{
	for (int i = 0; p && i < p->nfmt; i++)
		if (strcmp(p->fmt[i].term, term) == 0)
			return &p->fmt[i];
	return NULL;
}

const struct pmk__alias *pmk__pmu_alias(const struct pmk__pmu *p,
					const char *name)
{
	for (int i = 0; p && i < p->nalias; i++)
		if (strcmp(p->alias[i].name, name) == 0)
			return &p->alias[i];
	return NULL;
}

int pmk__target_ncore(const pmk_target *t)
{
	int n = 0;
	for (int i = 0; t && i < t->npmu; i++)
		n += t->pmu[i].is_core;
	return n;
}

int pmk__target_pmu_on_cpu(const pmk_target *t, const char *pmu, int cpu)
{
	const struct pmk__pmu *p = pmk__target_pmu(t, pmu);
	const char *s = p ? p->cpumask : NULL;
	long lo, hi;
	int rc;
	if (!p || !p->cpumask[0] || cpu < 0)
		return 1;
	while ((rc = pmk__cpu_range(&s, &lo, &hi)) > 0)
		if (cpu >= lo && cpu <= hi)
			return 1;
	return rc < 0; /* not a CPU list: do not second-guess it */
}

int pmk__target_alias_meta(pmk_target *t, const char *pmu, const char *event,
			   double scale, const char *unit)
{
	struct pmk__pmu *p = (struct pmk__pmu *)pmk__target_pmu(t, pmu);
	struct pmk__alias *a = (struct pmk__alias *)pmk__pmu_alias(p, event);
	if (!a)
		return PMK_ENOEVENT;
	if (scale > 0 && isfinite(scale))
		a->scale = scale;
	if (unit) {
		size_t n = strlen(unit);
		while (n && isspace((unsigned char)unit[n - 1]))
			n--;
		if (n >= sizeof a->unit)
			return PMK_EINVAL;
		memcpy(a->unit, unit, n);
		a->unit[n] = 0;
	}
	return 0;
}

int pmk__format_bits(const struct pmk__format *f)
{
	int bits = 0;
	for (int i = 0; i < f->nrange; i++)
		bits += f->r[i].hi - f->r[i].lo + 1;
	return bits;
}

int pmk__format_apply(const struct pmk__format *f, uint64_t value,
		      pmk_attr *a)
{
	uint64_t *w = f->word == 0 ? &a->config
		      : f->word == 1 ? &a->config1
				     : &a->config2;
	int bits = pmk__format_bits(f);
	if (bits < 64 && (value >> bits) != 0)
		return PMK_ERANGE;
	for (int i = 0; i < f->nrange; i++) {
		int width = f->r[i].hi - f->r[i].lo + 1;
		uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1);
		*w &= ~(mask << f->r[i].lo);
		*w |= (value & mask) << f->r[i].lo;
		value = width == 64 ? 0 : value >> width;
	}
	return 0;
}

int pmk__target_resolve(const pmk_target *t, const char *model,
			pmk__model_res *r)
{
	/* the cache is the target's own memory (pmk_target_new), so writing
	 * it through a const pointer is sound; the lock orders the writers */
	pmk_target *w = (pmk_target *)t;
	int rc, i;
	if (!t || !model || !*model || strlen(model) >= sizeof t->res[0].model)
		return pmk__source_resolve(model, r);
	pthread_mutex_lock(&w->lock);
	for (i = 0; i < w->nres; i++)
		if (!strcmp(w->res[i].model, model)) {
			*r = w->res[i].r;
			rc = w->res[i].found ? 0 : PMK_ENOENT;
			pthread_mutex_unlock(&w->lock);
			return rc;
		}
	rc = pmk__source_resolve(model, r);
	if (w->nres < PMK__RES_MAX) {
		i = w->nres++;
		strcpy(w->res[i].model, model);
		w->res[i].found = rc == 0;
		w->res[i].r = *r;
		/* a model only perf's tables know is its own canonical name:
		 * the caller's string, which need not outlive the call (a
		 * name cut from an event string); the cache keeps its copy */
		if (r->canon == model)
			w->res[i].r.canon = w->res[i].model;
		if (r->canon2 == model)
			w->res[i].r.canon2 = w->res[i].model;
		if (r->canon3 == model)
			w->res[i].r.canon3 = w->res[i].model;
	}
	pthread_mutex_unlock(&w->lock);
	return rc;
}

const struct pmk__pmu *pmk__target_core(const pmk_target *t)
{
	const char *name = pmk_target_core_pmu(t);
	return name ? pmk__target_pmu(t, name) : NULL;
}

const char *pmk__pmu_model(const pmk_target *t, const struct pmk__pmu *p)
{
	if (p && p->model[0])
		return p->model;
	return t ? t->model : "";
}

/* The x86 core PMU's format terms as the kernel writes them
 * (arch/x86/events/intel/core.c and amd/core.c), for a machine that
 * exports no core PMU: one target per vendor, built once. */
static pmk_target *arch_cpu[2];
static pthread_once_t arch_once = PTHREAD_ONCE_INIT;

static void arch_build(void)
{
	static const char *const common[][2] = {
	    {"umask", "config:8-15"}, {"edge", "config:18"},
	    {"inv", "config:23"},     {"cmask", "config:24-31"},
	};
	static const char *const intel[][2] = {
	    {"event", "config:0-7"},	  {"pc", "config:19"},
	    {"any", "config:21"},	  {"offcore_rsp", "config1:0-63"},
	    {"ldlat", "config1:0-15"}, {"frontend", "config1:0-23"},
	};
	pmk_diag d;
	for (int v = 0; v < 2; v++) {
		pmk_target *t = pmk_target_new();
		if (!t || pmk_target_add_pmu(t, "cpu", PMK_TYPE_RAW, 1) != 0) {
			pmk_target_free(t);
			continue;
		}
		for (size_t k = 0; k < sizeof common / sizeof *common; k++)
			pmk_target_add_format(t, "cpu", common[k][0],
					      common[k][1], &d);
		if (v == 0)
			for (size_t k = 0; k < sizeof intel / sizeof *intel; k++)
				pmk_target_add_format(t, "cpu", intel[k][0],
						      intel[k][1], &d);
		else
			pmk_target_add_format(t, "cpu", "event",
					      "config:0-7,32-35", &d);
		arch_cpu[v] = t;
	}
}

const struct pmk__pmu *pmk__target_arch_cpu(const pmk_target *t)
{
	int v;
	if (!t || pmk__target_core(t) || pmk__target_pmu(t, "cpu"))
		return NULL;
	if (!strncmp(t->cpu, "GenuineIntel", 12))
		v = 0;
	else if (!strncmp(t->cpu, "AuthenticAMD", 12) ||
		 !strncmp(t->cpu, "HygonGenuine", 12))
		v = 1;
	else
		return NULL;
	pthread_once(&arch_once, arch_build);
	return arch_cpu[v] ? pmk__target_pmu(arch_cpu[v], "cpu") : NULL;
}
