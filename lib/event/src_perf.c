/*
 * src_perf.c: perf's event names, read from perf's pmu-events JSON at run
 * time (the kernel source's tools/perf/pmu-events/arch, lib/event/
 * perf_dirs.h), as a source of native events (source.h). Each core event
 * of a model's files (no Unit, or the core PMU's) becomes an entry of a
 * table built in memory: its EventCode, and its UMask, CounterMask,
 * EdgeDetect, Invert and AnyThread as one default unit mask named after
 * the UMask's value; the table is encoded by native.c like pmkit's own,
 * so modifiers (:u :k :c=N ...) work as for any native. Events whose
 * encoding needs an extra register (MSRIndex: offcore response, load
 * latency, front-end) or whose EventCode lists two codes are left out:
 * their perf encoding is not an event-select value alone.
 *
 * source.c asks this source last, after libpfm4 and the tables have
 * refused a name (pmk__source_encode), so perf's names ("ex_ret_brn",
 * "ls_dc_accesses") are aliases: the first sources keep their own names
 * and encodings. A model's files are read once per process, on the first
 * name no other source knows; reading them is the only system call here.
 */
#include <pthread.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/core/infile.h"
#include "lib/core/json_flat.h"
#include "lib/event/perf_dirs.h"
#include "lib/event/source.h"
#include "lib/event/tbl.h"

#define PERF_MODELS_MAX 64 /* models read per process (every one pmkit maps) */

struct pmodel {
	char model[64];
	int loaded, ok;
	pmk__model m;
	pmk__nevent *ev;
	int nev, cap;
	pmk__umask *um; /* one per event, um[i] for ev[i] */
	char **strs;	/* what ev/um point into */
	int nstr, capstr;
	int vendor;
	const char *unit; /* a hybrid model's core PMU (perf_dirs.h) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct pmodel models[PERF_MODELS_MAX];
static int nmodels;

static const char *keep(struct pmodel *p, const char *s)
{
	char *d;
	if (p->nstr == p->capstr) {
		int nc = p->capstr ? p->capstr * 2 : 256;
		char **n = realloc(p->strs, sizeof *n * (size_t)nc);
		if (!n)
			return NULL;
		p->strs = n;
		p->capstr = nc;
	}
	if (!(d = strdup(s)))
		return NULL;
	p->strs[p->nstr++] = d;
	return d;
}

static const char *get(int n, const char *const *k, const char *const *v,
		       const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(k[i], key))
			return v[i];
	return NULL;
}

static int set(const char *v)
{
	return v && *v && strtoull(v, NULL, 0) != 0;
}

static int on_event(void *arg, int n, const char *const *k,
		    const char *const *v, int line)
{
	struct pmodel *p = arg;
	const char *name = get(n, k, v, "EventName");
	const char *code = get(n, k, v, "EventCode");
	const char *unit = get(n, k, v, "Unit");
	const char *umask = get(n, k, v, "UMask");
	const char *desc = get(n, k, v, "BriefDescription");
	pmk__nevent *e;
	pmk__umask *u;
	unsigned long long c, um = umask ? strtoull(umask, NULL, 0) : 0;
	(void)line;
	if (!name || !code || strchr(code, ',') || get(n, k, v, "MSRIndex"))
		return 0;
	if (unit && *unit && strcasecmp(unit, "cpu") &&
	    strcasecmp(unit, "cpu_core") && strcasecmp(unit, "cpu_atom"))
		return 0; /* uncore: a PMU of its own */
	if (p->unit && (!unit || strcasecmp(unit, p->unit)))
		return 0; /* a hybrid's other core type */
	c = strtoull(code, NULL, 0);
	if (c > (p->vendor == PMK__VENDOR_AMD ? 0xfffull : 0xffull) ||
	    um > 0xff || strlen(name) >= PMK_EVENT_NAME_MAX)
		return 0;
	if (p->nev == p->cap) {
		int nc = p->cap ? p->cap * 2 : 256;
		pmk__nevent *ne = realloc(p->ev, sizeof *ne * (size_t)nc);
		pmk__umask *nu;
		if (!ne)
			return PMK_ENOMEM;
		p->ev = ne;
		nu = realloc(p->um, sizeof *nu * (size_t)nc);
		if (!nu)
			return PMK_ENOMEM;
		p->um = nu;
		p->cap = nc;
	}
	e = &p->ev[p->nev];
	u = &p->um[p->nev];
	memset(e, 0, sizeof *e);
	memset(u, 0, sizeof *u);
	e->name = keep(p, name);
	e->desc = keep(p, desc ? desc : "");
	e->code = (uint16_t)c;
	e->mods =
	    p->vendor == PMK__VENDOR_AMD ? PMK__MODS_AMD : PMK__MODS_INTEL_ICL;
	if (umask) {
		char un[24];
		snprintf(un, sizeof un, "0x%llx", um);
		u->name = keep(p, un);
		u->code = (uint8_t)um;
		u->cmask = (uint8_t)strtoull(get(n, k, v, "CounterMask")
						 ? get(n, k, v, "CounterMask")
						 : "0",
					     NULL, 0);
		u->flags =
		    PMK__UM_DFL |
		    (set(get(n, k, v, "EdgeDetect")) ? PMK__UM_EDGE : 0) |
		    (set(get(n, k, v, "Invert")) ? PMK__UM_INV : 0) |
		    (set(get(n, k, v, "AnyThread")) ? PMK__UM_ANY : 0);
		u->desc = "the unit mask perf's JSON gives";
		e->numask = 1;
	} else if (set(get(n, k, v, "CounterMask")) ||
		   set(get(n, k, v, "EdgeDetect")) ||
		   set(get(n, k, v, "Invert"))) {
		/* terms without a unit mask: carried by an empty one */
		u->name = keep(p, "0x0");
		u->cmask = (uint8_t)strtoull(get(n, k, v, "CounterMask")
						 ? get(n, k, v, "CounterMask")
						 : "0",
					     NULL, 0);
		u->flags =
		    PMK__UM_DFL |
		    (set(get(n, k, v, "EdgeDetect")) ? PMK__UM_EDGE : 0) |
		    (set(get(n, k, v, "Invert")) ? PMK__UM_INV : 0);
		u->desc = "the terms perf's JSON gives";
		e->numask = 1;
	}
	if (!e->name || !e->desc || (e->numask && !u->name))
		return PMK_ENOMEM;
	p->nev++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load(struct pmodel *p)
{
	const char *arch = pmk__pmu_events_dir();
	const char *sub = pmk__pmu_model_dir(p->model);
	char dir[1024], *names[PMK__JSON_FILES_MAX];
	int nn = 0;
	DIR *dp;
	struct dirent *de;
	p->loaded = 1;
	if (!arch || !sub)
		return;
	p->vendor = !strncmp(p->model, "amd64_", 6) ? PMK__VENDOR_AMD
						    : PMK__VENDOR_INTEL;
	p->unit = pmk__pmu_model_unit(p->model);
	if (strncmp(sub, "x86/", 4))
		return; /* the x86 event-select layout only */
	snprintf(dir, sizeof dir, "%s/%s", arch, sub);
	if (!(dp = opendir(dir)))
		return;
	while ((de = readdir(dp)) && nn < PMK__JSON_FILES_MAX) {
		size_t l = strlen(de->d_name);
		if (l > 5 && !strcmp(de->d_name + l - 5, ".json") &&
		    (names[nn] = strdup(de->d_name)))
			nn++;
	}
	closedir(dp);
	qsort(names, (size_t)nn, sizeof names[0], cmp_str);
	for (int i = 0; i < nn; i++) {
		char path[1400], *text = NULL;
		size_t len = 0;
		pmk_diag d;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (pmk__infile_read(path, 0, PMK__JSON_FILE_MAX, &text, &len,
				     &d) == 0)
			(void)pmk__json_objects(text, len, path, on_event, p,
						&d);
		free(text);
		free(names[i]);
	}
	p->m.name = p->model;
	p->m.desc = "perf's pmu-events";
	p->m.vendor = p->vendor;
	p->m.ev = p->ev;
	p->m.nev = p->nev;
	for (int i = 0; i < p->nev; i++)
		p->ev[i].umask = p->ev[i].numask ? &p->um[i] : NULL;
	p->ok = p->nev > 0;
}

/* The table of `model`, read on first use; NULL when perf has none. */
static const pmk__model *table(const char *model)
{
	const pmk__model *m = NULL;
	int i;
	if (!model || strlen(model) >= sizeof models[0].model ||
	    !pmk__pmu_model_dir(model))
		return NULL;
	pthread_mutex_lock(&lock);
	for (i = 0; i < nmodels; i++)
		if (!strcmp(models[i].model, model))
			break;
	if (i == nmodels && nmodels < PERF_MODELS_MAX) {
		snprintf(models[i].model, sizeof models[i].model, "%s", model);
		nmodels++;
	}
	if (i < nmodels) {
		if (!models[i].loaded)
			load(&models[i]);
		m = models[i].ok ? &models[i].m : NULL;
	}
	pthread_mutex_unlock(&lock);
	return m;
}

static const char *perf_model(const char *model)
{
	/* the directory's existence is enough to be asked; the files are
	 * read on the first name (perf_encode). It must exist: a build whose
	 * configured tree is absent where it runs (the arm64 guest) knows no
	 * model through perf's files */
	const char *arch = pmk__pmu_events_dir(), *sub = pmk__pmu_model_dir(model);
	char dir[1024];
	if (!arch || !sub)
		return NULL;
	snprintf(dir, sizeof dir, "%s/%s", arch, sub);
	return access(dir, R_OK) == 0 ? model : NULL;
}

static int perf_encode(const char *model, const char *pmu, uint32_t type,
		       const char *s, int col0, pmk_event *ev, pmk_diag *d)
{
	const pmk__model *m;
	int rc;
	if (strstr(s, "::") || !(m = table(model)))
		return PMK_ENOEVENT;
	rc = pmk__native_parse_model(m, pmu, s, col0, ev, d);
	if (rc == 0 && type != PMK_TYPE_UNRESOLVED)
		ev->leaf[0].type = type;
	return rc;
}

static int perf_has_event(const char *model, const char *name, size_t len)
{
	const pmk__model *m = table(model);
	for (int i = 0; m && i < m->nev; i++)
		if (strlen(m->ev[i].name) == len &&
		    !strncasecmp(m->ev[i].name, name, len))
			return 1;
	return 0;
}

static int perf_describe(const char *model, const char *name, size_t len,
			 char *buf, size_t size)
{
	const pmk__model *m = table(model);
	for (int i = 0; m && i < m->nev; i++)
		if (strlen(m->ev[i].name) == len &&
		    !strncasecmp(m->ev[i].name, name, len)) {
			snprintf(buf, size, "%s (perf's pmu-events): %s",
				 m->ev[i].name, m->ev[i].desc);
			return 0;
		}
	return PMK_ENOEVENT;
}

static int perf_foreach(const char *model, pmk__info_fn fn, void *arg)
{
	const pmk__model *m = table(model);
	for (int i = 0; m && i < m->nev; i++) {
		pmk_event_info info = {m->ev[i].name, PMK_KIND_NATIVE, model,
				       m->ev[i].desc};
		int rc = fn(&info, arg);
		if (rc)
			return rc;
	}
	return 0;
}

static int perf_models(int (*fn)(const char *model, const char *desc,
				 void *arg),
		       void *arg)
{
	/* perf's directories describe models the other sources name */
	(void)fn, (void)arg;
	return 0;
}

const pmk__source pmk__source_perf = {
    "perf's pmu-events", perf_model,   perf_encode, perf_has_event,
    perf_describe,	 perf_foreach, perf_models,
};
