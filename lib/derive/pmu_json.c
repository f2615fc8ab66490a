/*
 * pmu_json.c: perf's pmu-events JSON as a source of metrics (pmu_json.h):
 * the bounded reader, a model's metrics and events, and the translation
 * of perf's metric expressions into pmkit definitions.
 *
 * What is read is perf's, never re-typed: the directory comes from
 * $PMKIT_PMU_EVENTS or the cache configure extracted from Debian's
 * linux-source package (scripts/deps.d/pmu_events.sh). The only table here
 * maps pmkit's model names to perf's directory names (mapfile.csv's third
 * column), which perf itself finds from the CPUID instead.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/derive/defs.h"
#include "lib/derive/pmu_json.h"
#include "lib/core/json_flat.h"
#include "lib/event/perf_dirs.h"
#include "lib/event/topo.h"

/* ----------------------------------------------------------------- model */

struct pmetric {
	char *name, *expr, *groups, *unit, *desc;
	char *pmu;    /* the object's "Unit" ("" none): cpu_atom on hybrids */
	int no_desc;  /* the object has no BriefDescription at all */
	int in_event; /* defined inside an event's object (an EventName) */
};

/* An event: its name and the encoding terms perf writes for it. */
struct pevent {
	char *name, *unit;
	char *code, *umask, *cmask, *inv, *edge, *any, *msr_index, *msr_value;
	char *arch_std;
};

struct pwhy {
	char *name, *why;
};

struct pmk__pmu_model {
	char path[256];
	struct pmetric *metrics;
	int nmetrics, capm;
	struct pevent *events;
	int nevents, cape;
	struct pwhy *whys;
	int nwhys, capw;
	char file[512]; /* the file being read, for errors */
};

static char *dupn(const char *s)
{
	return strdup(s ? s : "");
}

static const char *get(int n, const char *const *k, const char *const *v,
		       const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(k[i], key))
			return v[i];
	return NULL;
}

static int on_object(void *arg, int n, const char *const *k,
		     const char *const *v, int line)
{
	pmk__pmu_model *m = arg;
	const char *mn = get(n, k, v, "MetricName");
	const char *en = get(n, k, v, "EventName");
	(void)line;
	if (mn && get(n, k, v, "MetricExpr")) {
		struct pmetric *x;
		if (m->nmetrics == m->capm) {
			int nc = m->capm ? m->capm * 2 : 256;
			void *p = realloc(m->metrics,
					  sizeof *m->metrics * (size_t)nc);
			if (!p)
				return PMK_ENOMEM;
			m->metrics = p;
			m->capm = nc;
		}
		x = &m->metrics[m->nmetrics++];
		x->name = dupn(mn);
		x->expr = dupn(get(n, k, v, "MetricExpr"));
		x->groups = dupn(get(n, k, v, "MetricGroup"));
		x->unit = dupn(get(n, k, v, "ScaleUnit"));
		x->desc = dupn(get(n, k, v, "BriefDescription"));
		x->pmu = dupn(get(n, k, v, "Unit"));
		x->in_event = en != NULL;
		x->no_desc = !get(n, k, v, "BriefDescription");
		if (!x->name || !x->expr || !x->groups || !x->unit || !x->desc ||
		    !x->pmu)
			return PMK_ENOMEM;
	}
	if (en || get(n, k, v, "ArchStdEvent")) {
		struct pevent *e;
		if (m->nevents == m->cape) {
			int nc = m->cape ? m->cape * 2 : 1024;
			void *p =
			    realloc(m->events, sizeof *m->events * (size_t)nc);
			if (!p)
				return PMK_ENOMEM;
			m->events = p;
			m->cape = nc;
		}
		e = &m->events[m->nevents++];
		memset(e, 0, sizeof *e);
		e->name = dupn(en ? en : get(n, k, v, "ArchStdEvent"));
		e->arch_std = en ? NULL : dupn(get(n, k, v, "ArchStdEvent"));
		e->unit = dupn(get(n, k, v, "Unit"));
		e->code = dupn(get(n, k, v, "EventCode"));
		e->umask = dupn(get(n, k, v, "UMask"));
		e->cmask = dupn(get(n, k, v, "CounterMask"));
		e->inv = dupn(get(n, k, v, "Invert"));
		e->edge = dupn(get(n, k, v, "EdgeDetect"));
		e->any = dupn(get(n, k, v, "AnyThread"));
		e->msr_index = dupn(get(n, k, v, "MSRIndex"));
		e->msr_value = dupn(get(n, k, v, "MSRValue"));
		if (!e->name || !e->unit || !e->code)
			return PMK_ENOMEM;
	}
	return 0;
}

static int read_bounded(const char *path, char **out, size_t *len, pmk_diag *d)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	*out = NULL;
	if (!f) {
		if (d) {
			pmk_diag_clear(d);
			d->code = PMK_ENOENT;
			d->sys_errno = errno;
			snprintf(d->message, sizeof d->message,
				 "cannot read '%.200s': %s", path,
				 strerror(errno));
		}
		return PMK_ENOENT;
	}
	buf = malloc(PMK__JSON_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		return PMK_ENOMEM;
	}
	n = fread(buf, 1, PMK__JSON_FILE_MAX + 1, f);
	fclose(f);
	if (n > PMK__JSON_FILE_MAX) {
		free(buf);
		if (d) {
			pmk_diag_clear(d);
			d->code = PMK_ERANGE;
			snprintf(d->message, sizeof d->message,
				 "'%.200s' is larger than the reader's bound "
				 "(%zu bytes)",
				 path, PMK__JSON_FILE_MAX);
		}
		return PMK_ERANGE;
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

static int load_file(pmk__pmu_model *m, const char *path, pmk_diag *d)
{
	char *text;
	size_t len;
	int rc = read_bounded(path, &text, &len, d);
	if (rc)
		return rc;
	rc = pmk__json_objects(text, len, path, on_object, m, d);
	free(text);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pmk__pmu_model_load(pmk__pmu_model **out, const char *archdir,
			const char *model, pmk_diag *d)
{
	const char *sub = pmk__pmu_model_dir(model);
	char dir[1024];
	char *names[PMK__JSON_FILES_MAX];
	int nn = 0, rc = 0;
	DIR *dp;
	struct dirent *de;
	pmk__pmu_model *m;
	*out = NULL;
	pmk_diag_clear(d);
	if (!archdir)
		archdir = pmk__pmu_events_dir();
	if (!archdir || !sub) {
		if (d) {
			d->code = PMK_ENOENT;
			if (!archdir)
				snprintf(d->message, sizeof d->message,
					 "no perf pmu-events directory "
					 "(Debian's linux-source-6.1; "
					 "PMKIT_PMU_EVENTS=DIR)");
			else
				snprintf(d->message, sizeof d->message,
					 "perf's pmu-events have no directory "
					 "pmkit maps CPU model '%.60s' to",
					 model ? model : "");
		}
		return PMK_ENOENT;
	}
	snprintf(dir, sizeof dir, "%s/%s", archdir, sub);
	dp = opendir(dir);
	if (!dp) {
		if (d) {
			d->code = PMK_ENOENT;
			snprintf(d->message, sizeof d->message,
				 "perf's pmu-events (%.80s) have no %s for "
				 "CPU model '%.40s' (a newer kernel's may: "
				 "linux-source-6.12)",
				 archdir, sub, model);
		}
		return PMK_ENOENT;
	}
	while ((de = readdir(dp)) != NULL) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		if (nn == PMK__JSON_FILES_MAX)
			break;
		if (!(names[nn] = strdup(de->d_name)))
			break;
		nn++;
	}
	closedir(dp);
	qsort(names, (size_t)nn, sizeof names[0], cmp_str);
	m = calloc(1, sizeof *m);
	if (!m)
		rc = PMK_ENOMEM;
	else
		snprintf(m->path, sizeof m->path, "%s", sub);
	for (int i = 0; i < nn && rc == 0; i++) {
		char path[1400];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		rc = load_file(m, path, d);
	}
	for (int i = 0; i < nn; i++)
		free(names[i]);
	if (rc) {
		pmk__pmu_model_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int pmk__pmu_model_parse(const char *text, size_t len, const char *path,
			 pmk__pmu_model **out, pmk_diag *d)
{
	pmk__pmu_model *m = calloc(1, sizeof *m);
	int rc;
	*out = NULL;
	if (!m)
		return PMK_ENOMEM;
	snprintf(m->path, sizeof m->path, "%s", path ? path : "");
	rc = pmk__json_objects(text, len, path, on_object, m, d);
	if (rc) {
		pmk__pmu_model_free(m);
		return rc < 0 ? rc : PMK_EINVAL;
	}
	*out = m;
	return 0;
}

const char *pmk__pmu_event_name(const pmk__pmu_model *m, int i)
{
	return m->events[i].name;
}

void pmk__pmu_model_free(pmk__pmu_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nmetrics; i++) {
		struct pmetric *x = &m->metrics[i];
		free(x->name), free(x->expr), free(x->groups), free(x->unit),
		    free(x->desc), free(x->pmu);
	}
	for (int i = 0; i < m->nevents; i++) {
		struct pevent *e = &m->events[i];
		free(e->name), free(e->unit), free(e->code), free(e->umask),
		    free(e->cmask), free(e->inv), free(e->edge), free(e->any),
		    free(e->msr_index), free(e->msr_value), free(e->arch_std);
	}
	for (int i = 0; i < m->nwhys; i++)
		free(m->whys[i].name), free(m->whys[i].why);
	free(m->metrics);
	free(m->events);
	free(m->whys);
	free(m);
}

const char *pmk__pmu_model_path(const pmk__pmu_model *m)
{
	return m->path;
}
int pmk__pmu_metric_count(const pmk__pmu_model *m)
{
	return m->nmetrics;
}
int pmk__pmu_event_count(const pmk__pmu_model *m)
{
	return m->nevents;
}
const char *pmk__pmu_metric_name(const pmk__pmu_model *m, int i)
{
	return m->metrics[i].name;
}
const char *pmk__pmu_metric_expr(const pmk__pmu_model *m, int i)
{
	return m->metrics[i].expr;
}
const char *pmk__pmu_metric_groups(const pmk__pmu_model *m, int i)
{
	return m->metrics[i].groups;
}
const char *pmk__pmu_metric_unit(const pmk__pmu_model *m, int i)
{
	return m->metrics[i].unit;
}
const char *pmk__pmu_metric_desc(const pmk__pmu_model *m, int i)
{
	return m->metrics[i].desc;
}
const char *pmk__pmu_metric_pmu(const pmk__pmu_model *m, int i)
{
	return m->metrics[i].pmu;
}
int pmk__pmu_metric_in_event(const pmk__pmu_model *m, int i)
{
	return m->metrics[i].in_event;
}
int pmk__pmu_metric_has_desc(const pmk__pmu_model *m, int i)
{
	return !m->metrics[i].no_desc;
}

int pmk__pmu_metric_find(const pmk__pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nmetrics; i++)
		if (!strcasecmp(m->metrics[i].name, name))
			return i;
	return -1;
}

int pmk__pmu_metric_in_group(const pmk__pmu_model *m, int i, const char *group)
{
	const char *g = m->metrics[i].groups;
	size_t l = strlen(group);
	while (*g) {
		size_t k = strcspn(g, ";");
		if (k == l && !strncasecmp(g, group, l))
			return 1;
		g += k;
		if (*g)
			g++;
	}
	return 0;
}

int pmk__pmu_group_exists(const pmk__pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nmetrics; i++)
		if (pmk__pmu_metric_in_group(m, i, name))
			return 1;
	return 0;
}

static const struct pevent *event_find(const pmk__pmu_model *m,
				       const char *name, size_t len)
{
	for (int i = 0; i < m->nevents; i++)
		if (strlen(m->events[i].name) == len &&
		    !strncasecmp(m->events[i].name, name, len))
			return &m->events[i];
	return NULL;
}

/* A JSON number term is set when it is not empty and not zero. */
static int set(const char *v)
{
	return v && *v && strtoull(v, NULL, 0) != 0;
}

/* The family of PMUs perf's Unit names: the unit in lower case with
 * spaces as '_' ("CHA" -> cha, boxes uncore_cha_N), except where the
 * kernel's PMU is named otherwise (perf's jevents maps the same names):
 * "UPI LL" boxes are uncore_upi_N, "QPI LL" ones uncore_qpi_N, "CBO"
 * uncore_cbox_N, "SBO" uncore_sbox_N, "iMPH-U" uncore_arb, and AMD's
 * "DFPMC" and "L3PMC" are amd_df and amd_l3. */
static void unit_family(const char *unit, char *fam, size_t size)
{
	static const struct {
		const char *unit, *fam;
	} other[] = {
	    {"upi ll", "upi"},
	    {"qpi ll", "qpi"},
	    {"cbo", "cbox"},
	    {"sbo", "sbox"},
	    {"imph-u", "arb"},
	    {"dfpmc", "amd_df"},
	    {"l3pmc", "amd_l3"},
	};
	size_t n = 0;
	for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
		if (!strcasecmp(unit, other[k].unit)) {
			snprintf(fam, size, "%s", other[k].fam);
			return;
		}
	for (; unit[n] && n + 1 < size; n++)
		fam[n] = unit[n] == ' ' ? '_'
					: (char)tolower((unsigned char)unit[n]);
	fam[n] = 0;
}

int pmk__pmu_event_string(const pmk__pmu_model *m, const char *name,
			  const char *core_pmu, char *buf, size_t size)
{
	char pmu[64] = "", body[512], mods[32] = "";
	const char *at = strchr(name, '@'), *ev, *terms;
	const struct pevent *e;
	size_t evlen, used;
	int uncore = 0;
	if (at && at[1] && name[strlen(name) - 1] == '@' && at < name + 63) {
		snprintf(pmu, sizeof pmu, "%.*s", (int)(at - name), name);
		snprintf(body, sizeof body, "%.*s", (int)(strlen(at + 1) - 1),
			 at + 1);
	} else {
		const char *colon = strchr(name, ':');
		snprintf(body, sizeof body, "%s", name);
		if (colon && strlen(colon + 1) < sizeof mods &&
		    strspn(colon + 1, "ukhGHpPSD") == strlen(colon + 1)) {
			body[colon - name] = 0;
			snprintf(mods, sizeof mods, "%s", colon + 1);
		}
	}
	ev = body;
	evlen = strcspn(body, ",");
	terms = body[evlen] ? body + evlen + 1 : "";
	e = memchr(ev, '=', evlen) ? NULL : event_find(m, ev, evlen);
	if (!e) {
		/* not perf's event of this model: pmkit's own syntax */
		if (pmu[0])
			snprintf(buf, size, "%s/%s/", pmu, body);
		else
			snprintf(buf, size, "%s%s%s", body, mods[0] ? ":" : "",
				 mods);
		return 1;
	}
	if (e->unit[0] && strcasecmp(e->unit, "cpu") &&
	    strcasecmp(e->unit, "cpu_core") &&
	    strcasecmp(e->unit, "cpu_atom")) {
		/* an uncore event: the family of PMUs its boxes are */
		unit_family(e->unit, pmu, sizeof pmu);
		uncore = 1;
	}
	if (e->arch_std && !e->code[0]) {
		/* an Arm common event named by the architecture: the core
		 * PMU's own name for it */
		snprintf(buf, size, "%s%s%s", e->arch_std, mods[0] ? ":" : "",
			 mods);
		return 1;
	}
	if (!pmu[0])
		snprintf(pmu, sizeof pmu, "%s",
			 e->unit[0] ? e->unit : (core_pmu ? core_pmu : "cpu"));
	if (uncore && mods[0]) {
		snprintf(buf, size,
			 "uncore event of perf's unit '%s' with modifiers "
			 "':%s': an uncore PMU counts every privilege level",
			 e->unit, mods);
		return -1;
	}
	/* EventCode may list two codes (offcore "0xB7, 0xBB"): perf uses the
	 * first */
	used = (size_t)snprintf(buf, size, "%s/event=0x%llx", pmu,
				strtoull(e->code, NULL, 0));
#define ADD(...)                                                               \
	do {                                                                   \
		if (used < size)                                               \
			used += (size_t)snprintf(buf + used, size - used,      \
						 __VA_ARGS__);                 \
	} while (0)
	if (e->umask[0])
		ADD(",umask=0x%llx", strtoull(e->umask, NULL, 0));
	if (set(e->cmask))
		ADD(",cmask=%llu", strtoull(e->cmask, NULL, 0));
	if (set(e->inv))
		ADD(",inv=1");
	if (set(e->edge))
		ADD(",edge=1");
	if (set(e->any))
		ADD(",any=1");
	if (e->msr_index[0] && e->msr_value[0]) {
		unsigned long long idx = strtoull(e->msr_index, NULL, 0);
		const char *term = idx == 0x3f6	  ? "ldlat"
				   : idx == 0x3f7 ? "frontend"
						  : "offcore_rsp";
		ADD(",%s=0x%llx", term, strtoull(e->msr_value, NULL, 0));
	}
	if (*terms)
		ADD(",%s", terms);
	ADD("/%s", mods);
#undef ADD
	if (used >= size) {
		snprintf(buf, size, "event string too long");
		return -1;
	}
	return uncore ? 2 : 0;
}

/* Whether PMU `name` is one box of the family `fam`: fam itself or fam_N,
 * with or without the kernel's "uncore_" prefix (perf's "imc@...@" and
 * "uncore_imc@...@" both name uncore_imc_0, uncore_imc_1, ...). */
static int box_of(const char *name, const char *fam)
{
	for (int k = 0; k < 2; k++) {
		char f[80];
		size_t l;
		if (k && !strncmp(fam, "uncore_", 7))
			break;
		snprintf(f, sizeof f, "%s%s", k ? "uncore_" : "", fam);
		l = strlen(f);
		if (!strcmp(name, f))
			return 1;
		if (!strncmp(name, f, l) && name[l] == '_' && name[l + 1] &&
		    strspn(name + l + 1, "0123456789") == strlen(name + l + 1))
			return 1;
	}
	return 0;
}

/* The boxes of family `fam` on the target. */
static int count_boxes(const pmk_target *t, const char *fam)
{
	int n = 0;
	for (int i = 0; t && i < pmk_target_pmu_count(t); i++)
		n += box_of(pmk_target_pmu_name(t, i, NULL, NULL), fam);
	return n;
}

/* How many PMUs perf's event `name` is counted on and summed over on the
 * target: 1 for a core event, the boxes for an uncore one, 0 when none. */
static int event_boxes(const pmk__pmu_model *m, const pmk_target *t,
		       const char *name)
{
	char buf[1024], fam[80];
	int rc = pmk__pmu_event_string(
	    m, name, t ? pmk_target_core_pmu(t) : NULL, buf, sizeof buf);
	if (rc < 0)
		return 0;
	if (rc == 0 || !strchr(buf, '/'))
		return 1;
	snprintf(fam, sizeof fam, "%.*s", (int)strcspn(buf, "/"), buf);
	return count_boxes(t, fam);
}

/* ----------------------------------------------------------- translation */

struct sbuf {
	char *s;
	size_t n, cap;
};

static int sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t nc = (b->n + n + 1) * 2;
		char *p = realloc(b->s, nc);
		if (!p)
			return -1;
		b->s = p;
		b->cap = nc;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
	return 0;
}

static int sb_str(struct sbuf *b, const char *s)
{
	return sb_add(b, s, strlen(s));
}

/* perf's lexer: a symbol is a run of [0-9a-zA-Z_.:@?#] and backslash
 * escapes; '\\' escapes the next character. */
static int sym_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' ||
	       c == '@' || c == '?' || c == '#';
}

static int valid_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			return 0;
	return strlen(s) < 128;
}

enum { MARK_NONE, MARK_TODO, MARK_DOING, MARK_DONE, MARK_BAD };

struct tctx {
	const pmk__pmu_model *m;
	const pmk_target *t;
	unsigned char *mark;
	struct sbuf out;
	char *why;
	size_t why_size;
	int topo_rc; /* 1 not read yet, else pmk__target_topo's answer */
	pmk__topo topo;
};

static int translate(struct tctx *c, int i, int top);

/* perf's #-literals: machine properties, from the topology the target
 * declares (lib/event/topo.h). 0 with *v, or -1 with the reason. */
static int literal(struct tctx *c, const char *sym, double *v)
{
	static const struct {
		const char *name;
		size_t off;
	} lit[] = {
	    {"#smt_on", offsetof(pmk__topo, smt_on)},
	    {"#num_cpus", offsetof(pmk__topo, cpus)},
	    {"#num_cpus_online", offsetof(pmk__topo, cpus)},
	    {"#num_cores", offsetof(pmk__topo, cores)},
	    {"#num_dies", offsetof(pmk__topo, dies)},
	    {"#num_packages", offsetof(pmk__topo, packages)},
	};
	if (c->topo_rc == 1)
		c->topo_rc = pmk__target_topo(c->t, &c->topo);
	if (c->topo_rc < 0) {
		snprintf(c->why, c->why_size,
			 "'%s', a machine property: the target declares no "
			 "topology (no sysfs or cpuinfo)",
			 sym);
		return -1;
	}
	if (!strcasecmp(sym, "#core_wide")) {
		/* whether a thread's counts are its core's: perf's answer for
		 * counting a process (not every CPU of the system) */
		*v = !c->topo.smt_on;
		return 0;
	}
	if (!strcasecmp(sym, "#system_tsc_freq")) {
		if (c->topo.tsc_hz > 0) {
			*v = c->topo.tsc_hz;
			return 0;
		}
		snprintf(c->why, c->why_size,
			 "'%s', a machine property: the target does not "
			 "declare its TSC frequency (%s)",
			 sym,
			 pmk_target_captured(c->t)
			     ? "a captured machine's cpuinfo model name has no "
			       "'@ N.NNGHz'; CPUID leaf 0x15 is read only on the "
			       "machine itself"
			     : "no CPUID leaf 0x15 enumerates it, and cpuinfo's "
			       "model name has no '@ N.NNGHz'");
		return -1;
	}
	for (size_t k = 0; k < sizeof lit / sizeof lit[0]; k++)
		if (!strcasecmp(sym, lit[k].name)) {
			*v =
			    *(const int *)((const char *)&c->topo + lit[k].off);
			return 0;
		}
	snprintf(c->why, c->why_size,
		 "'%s', a machine property pmkit does not supply to metrics",
		 sym);
	return -1;
}

/* A symbol of perf's lexer at *s into sym (escapes undone). */
static size_t read_sym(const char **s, char *sym, size_t size)
{
	size_t n = 0;
	while ((sym_char(**s) || **s == '\\') && n + 2 < size) {
		if (**s == '\\' && (*s)[1])
			(*s)++;
		sym[n++] = *(*s)++;
	}
	sym[n] = 0;
	return n;
}

static int event_boxes(const pmk__pmu_model *m, const pmk_target *t,
		       const char *name);

/* One metric's expression into pmkit's infix (docs/derive.md: + - * /,
 * < >, min, max, d_ratio, `a if c else b`), its metrics first. */
static int translate_expr(struct tctx *c, int i, struct sbuf *b)
{
	const char *s = c->m->metrics[i].expr;
	const char *name = c->m->metrics[i].name;
	int fdepth[16], nf = 0, depth = 0;
	while (*s) {
		char sym[1024];
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (isdigit((unsigned char)*s) ||
		    (*s == '.' && isdigit((unsigned char)s[1]))) {
			char *e;
			strtod(s, &e);
			if (sym_char(*e) && *e != '.') {
				/* a symbol starting with a digit */
			} else {
				sb_add(b, s, (size_t)(e - s));
				sb_str(b, " ");
				s = e;
				continue;
			}
		}
		if (strchr("+-*/<>", *s)) {
			sb_add(b, s, 1);
			sb_str(b, " ");
			s++;
			continue;
		}
		if (*s == '(') {
			depth++;
			sb_str(b, "(");
			s++;
			continue;
		}
		if (*s == ')') {
			if (nf && fdepth[nf - 1] == depth)
				nf--;
			depth--;
			sb_str(b, ")");
			s++;
			continue;
		}
		if (*s == ',') {
			if (nf && fdepth[nf - 1] == depth) {
				sb_str(b, ", ");
				s++;
				continue;
			}
			snprintf(c->why, c->why_size,
				 "%s: ',' outside a function's parentheses",
				 name);
			return -1;
		}
		if (!sym_char(*s) && *s != '\\') {
			snprintf(c->why, c->why_size,
				 "%s: operator '%c' (perf's metric language "
				 "as pmkit reads it has + - * / < > min max "
				 "d_ratio if-else source_count)",
				 name, *s);
			return -1;
		}
		read_sym(&s, sym, sizeof sym);
		if (!strcmp(sym, "d_ratio") || !strcmp(sym, "min") ||
		    !strcmp(sym, "max")) {
			while (isspace((unsigned char)*s))
				s++;
			if (*s != '(' || nf == 16) {
				snprintf(c->why, c->why_size,
					 "%s: %s without '('", name, sym);
				return -1;
			}
			s++;
			depth++;
			fdepth[nf++] = depth;
			sb_str(b, sym);
			sb_str(b, "(");
			continue;
		}
		if (!strcmp(sym, "if") || !strcmp(sym, "else")) {
			sb_str(b, sym);
			sb_str(b, " ");
			continue;
		}
		if (!strcmp(sym, "source_count")) {
			/* the number of PMUs (uncore boxes) the event is
			 * counted on and summed over */
			char ev[1024];
			int nb;
			while (isspace((unsigned char)*s))
				s++;
			if (*s == '(')
				s++;
			while (isspace((unsigned char)*s))
				s++;
			read_sym(&s, ev, sizeof ev);
			while (isspace((unsigned char)*s))
				s++;
			if (!ev[0] || *s != ')') {
				snprintf(c->why, c->why_size,
					 "%s: source_count takes one event",
					 name);
				return -1;
			}
			s++;
			nb = event_boxes(c->m, c->t, ev);
			if (nb < 1) {
				snprintf(c->why, c->why_size,
					 "%s: source_count(%s): the target has "
					 "no PMU that counts it",
					 name, ev);
				return -1;
			}
			snprintf(sym, sizeof sym, "%d ", nb);
			sb_str(b, sym);
			continue;
		}
		if (!strcmp(sym, "has_event") ||
		    !strcmp(sym, "strcmp_cpuid_str")) {
			snprintf(c->why, c->why_size,
				 "%s: '%s' (newer than perf 6.1's metric "
				 "language, which pmkit reads)",
				 name, sym);
			return -1;
		}
		if (sym[0] == '#') {
			double v;
			char num[64];
			if (literal(c, sym, &v) < 0) {
				char w[600];
				snprintf(w, sizeof w, "%s: %s", name, c->why);
				snprintf(c->why, c->why_size, "%s", w);
				return -1;
			}
			snprintf(num, sizeof num, "%.17g ", v);
			sb_str(b, num);
			continue;
		}
		{
			int k = pmk__pmu_metric_find(c->m, sym);
			if (k >= 0 && k != i) {
				if (translate(c, k, 0) < 0)
					return -1;
				sb_str(b, c->m->metrics[k].name);
				sb_str(b, " ");
				continue;
			}
		}
		if (strchr(sym, '"')) {
			snprintf(c->why, c->why_size, "%s: bad symbol", name);
			return -1;
		}
		sb_str(b, "\"");
		sb_str(b, sym);
		sb_str(b, "\" ");
	}
	if (nf) {
		snprintf(c->why, c->why_size, "%s: unbalanced parentheses",
			 name);
		return -1;
	}
	return 0;
}

static int translate(struct tctx *c, int i, int top)
{
	struct sbuf b = {0};
	const struct pmetric *x = &c->m->metrics[i];
	if (c->mark[i] == MARK_DONE && !top)
		return 0;
	if (c->mark[i] == MARK_DOING) {
		snprintf(c->why, c->why_size, "%s refers to itself", x->name);
		return -1;
	}
	if (!valid_name(x->name)) {
		snprintf(c->why, c->why_size,
			 "'%s' is not a name pmkit's definitions accept",
			 x->name);
		return -1;
	}
	c->mark[i] = MARK_DOING;
	if (translate_expr(c, i, &b) < 0) {
		free(b.s);
		c->mark[i] = MARK_BAD;
		return -1;
	}
	sb_str(&c->out, x->name);
	sb_str(&c->out, " = ");
	if (top) {
		/* perf shows the metric times its ScaleUnit's number */
		char *e;
		double scale = strtod(x->unit, &e);
		if (e != x->unit && scale != 1) {
			char num[64];
			snprintf(num, sizeof num, "%.17g * (", scale);
			sb_str(&c->out, num);
			sb_str(&c->out, b.s ? b.s : "0");
			sb_str(&c->out, ")");
		} else {
			sb_str(&c->out, b.s ? b.s : "0");
		}
	} else {
		sb_str(&c->out, b.s ? b.s : "0");
	}
	sb_str(&c->out, "\n");
	free(b.s);
	c->mark[i] = MARK_DONE;
	return 0;
}

int pmk__pmu_metric_text(const pmk__pmu_model *m, int i, const pmk_target *t,
			 char **text, char *why, size_t size)
{
	struct tctx c;
	memset(&c, 0, sizeof c);
	c.m = m;
	c.t = t ? t : pmk_target_host();
	c.mark = calloc((size_t)m->nmetrics + 1, 1);
	c.why = why;
	c.why_size = size;
	c.topo_rc = 1;
	*text = NULL;
	why[0] = 0;
	if (!c.mark)
		return -1;
	sb_str(&c.out, "");
	if (translate(&c, i, 1) < 0 || !c.out.s) {
		free(c.out.s);
		free(c.mark);
		if (!why[0])
			snprintf(why, size, "out of memory");
		return -1;
	}
	free(c.mark);
	*text = c.out.s;
	return 0;
}

struct rctx {
	pmk__pmu_model *m;
	const pmk_target *t;
};

static void note_why(pmk__pmu_model *m, const char *name, const char *why)
{
	for (int i = 0; i < m->nwhys; i++)
		if (!strcmp(m->whys[i].name, name))
			return;
	if (m->nwhys == m->capw) {
		int nc = m->capw ? m->capw * 2 : 32;
		void *p = realloc(m->whys, sizeof *m->whys * (size_t)nc);
		if (!p)
			return;
		m->whys = p;
		m->capw = nc;
	}
	m->whys[m->nwhys].name = strdup(name);
	m->whys[m->nwhys].why = strdup(why);
	if (m->whys[m->nwhys].name && m->whys[m->nwhys].why)
		m->nwhys++;
}

const char *pmk__pmu_base_why(const pmk__pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nwhys; i++)
		if (!strcmp(m->whys[i].name, name))
			return m->whys[i].why;
	return "";
}

/* Whether the target has the PMU named before the '/' of `str`. */
static int target_has_pmu(const pmk_target *t, const char *str)
{
	size_t l = strcspn(str, "/");
	for (int i = 0; i < pmk_target_pmu_count(t); i++) {
		const char *n = pmk_target_pmu_name(t, i, NULL, NULL);
		if (strlen(n) == l && !strncmp(n, str, l))
			return 1;
	}
	return 0;
}

/* "FAMILY/terms/mods" encoded on each box of the family the target has,
 * the boxes' counts summed: leaf 0 + leaf 1 + ... 0, or -1 with `why`. */
static int boxes_event(const pmk_target *t, const char *str, pmk_event *ev,
		       char *why, size_t size)
{
	char fam[80];
	const char *rest = str + strcspn(str, "/");
	int n = 0;
	snprintf(fam, sizeof fam, "%.*s", (int)(rest - str), str);
	memset(ev, 0, sizeof *ev);
	for (int i = 0; i < pmk_target_pmu_count(t); i++) {
		const char *pmu = pmk_target_pmu_name(t, i, NULL, NULL);
		char one_str[1200];
		pmk_event one;
		pmk_diag pd;
		if (!box_of(pmu, fam))
			continue;
		if (n == PMK_LEAF_MAX) {
			snprintf(why, size,
				 "%s is counted on %d boxes on the target: "
				 "more than the %d natives one pmkit event "
				 "sums",
				 str, count_boxes(t, fam), PMK_LEAF_MAX);
			return -1;
		}
		snprintf(one_str, sizeof one_str, "%s%s", pmu, rest);
		if (pmk_event_parse(t, one_str, &one, &pd) != 0 ||
		    one.nleaf != 1 || one.nops != 0) {
			snprintf(why, size, "%.1000s does not encode: %.300s",
				 one_str, pd.message);
			return -1;
		}
		if (n == 0) {
			*ev = one;
			ev->nops = 0;
		} else {
			ev->leaf[n] = one.leaf[0];
			ev->nleaf = n + 1;
			if (n == 1) {
				ev->ops[ev->nops].code = PMK_OP_LEAF;
				ev->ops[ev->nops++].arg = 0;
			}
			ev->ops[ev->nops].code = PMK_OP_LEAF;
			ev->ops[ev->nops++].arg = (uint8_t)n;
			ev->ops[ev->nops++].code = PMK_OP_ADD;
		}
		n++;
	}
	if (n == 0) {
		snprintf(
		    why, size, "%s: the target has no PMU '%s'%s", str, fam,
		    strncmp(fam, "uncore_", 7) ? " (nor uncore_ boxes of it)"
					       : "");
		return -1;
	}
	return 0;
}

static int resolve(const char *name, pmk_event *ev, pmk_diag *d, void *arg)
{
	struct rctx *r = arg;
	char buf[1024];
	pmk_diag pd;
	int rc;
	(void)d;
	if (pmk__pmu_metric_find(r->m, name) >= 0)
		return PMK_ENOENT; /* a metric's own name: not an event */
	rc = pmk__pmu_event_string(r->m, name,
				   r->t ? pmk_target_core_pmu(r->t) : NULL, buf,
				   sizeof buf);
	if (rc < 0) {
		note_why(r->m, name, buf);
		return PMK_ENOTSUP;
	}
	if (!r->t) {
		note_why(r->m, name, "no target to encode it on");
		return PMK_ENOTSUP;
	}
	if (rc == 2 ||
	    (rc == 1 && strchr(buf, '/') && !target_has_pmu(r->t, buf))) {
		/* an uncore event (or perf's pmu@...@ naming a family of
		 * boxes): counted on each box, summed */
		char why[1400];
		rc = boxes_event(r->t, buf, ev, why, sizeof why);
		if (rc < 0) {
			note_why(r->m, name, why);
			return PMK_ENOTSUP;
		}
		snprintf(ev->name, sizeof ev->name, "%s", name);
		return 0;
	}
	rc = pmk_event_parse(r->t, buf, ev, &pd);
	if (rc == 0) {
		/* perf's name, and what it encodes as, in messages */
		snprintf(ev->name, sizeof ev->name, "%s", name);
		if (ev->nleaf == 1 && strcmp(buf, name)) {
			char both[400];
			size_t l = (size_t)snprintf(
			    both, sizeof both, "%.150s (%.200s)", name, buf);
			if (l >= sizeof ev->leaf[0].name)
				l = sizeof ev->leaf[0].name - 1;
			memcpy(ev->leaf[0].name, both, l);
			ev->leaf[0].name[l] = 0;
		}
		return 0;
	}
	{
		char why[1400];
		if (!strcmp(buf, name))
			snprintf(
			    why, sizeof why,
			    "not an event of perf's JSON for this model, "
			    "and the target's PMUs do not export it (%.300s)",
			    pd.message);
		else
			snprintf(why, sizeof why,
				 "%.1000s does not encode: %.300s", buf,
				 pd.message);
		note_why(r->m, name, why);
	}
	return PMK_ENOTSUP;
}

int pmk__pmu_metric_defs(const pmk__pmu_model *m, int i, const pmk_target *t,
			 pmk_defs **out, int *index, char *why, size_t size)
{
	char *text;
	struct rctx r = {(pmk__pmu_model *)m, t ? t : pmk_target_host()};
	pmk_defs_opts op = {0};
	pmk_diag d;
	char label[300];
	int rc;
	*out = NULL;
	if (pmk__pmu_metric_text(m, i, t, &text, why, size) < 0)
		return -1;
	op.resolve = resolve;
	op.arg = &r;
	op.no_include = 1;
	if (r.t)
		op.model = pmk_target_model(r.t);
	snprintf(label, sizeof label, "perf:%s", m->path);
	rc = pmk_defs_parse_string(out, label, text, &op, &d);
	free(text);
	if (rc < 0) {
		snprintf(why, size, "%s: %s", m->metrics[i].name, d.message);
		return -1;
	}
	*index = pmk_defs_find(*out, m->metrics[i].name);
	if (*index < 0) {
		pmk_defs_free(*out);
		*out = NULL;
		snprintf(why, size, "%s: not found after translation",
			 m->metrics[i].name);
		return -1;
	}
	return 0;
}
