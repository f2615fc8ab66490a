/*
 * papi/hl.c: PAPI's high-level region API. Each thread counts the same
 * events in its own pmk_eventset: those PAPI_EVENTS names (comma list),
 * else the defaults that count here (PAPI_TOT_INS and PAPI_TOT_CYC where
 * a PMU has them, perf::TASK-CLOCK and perf::PAGE-FAULTS everywhere), so
 * that regions work with no configuration on any machine. Regions nest and
 * accumulate by name per thread; at exit (or PAPI_hl_stop) the results go
 * to PAPI_OUTPUT_DIRECTORY/papi_hl_output/rank_NNNNNN.json in PAPI 7.0's
 * layout, which Debian's papi_hl_output_writer reads.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/outfile.h"
#include "papi/papi_int.h"

#define HL_EVENTS 16
#define HL_DEPTH 32

struct region {
	char name[PAPI_MAX_STR_LEN];
	int id, parent;
	long long count, real_ns, cycles;
	double values[HL_EVENTS];
};

struct open_region {
	int region;
	long long real_ns, cycles;
	double values[HL_EVENTS];
};

struct hl_thread {
	unsigned long tid;
	pmk_eventset *es;
	int nregion, cap;
	struct region *regions;
	int depth;
	struct open_region stack[HL_DEPTH];
	struct hl_thread *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int nevent = -1;
static int codes[HL_EVENTS];
static char names[HL_EVENTS][PAPI_MAX_STR_LEN];
static struct hl_thread *all;
static __thread struct hl_thread *self;
static int written;

static void try_event(const char *name)
{
	int code;
	if (nevent >= HL_EVENTS || papi__event_lookup(name, &code) != PAPI_OK ||
	    !papi__event_avail(code))
		return;
	for (int i = 0; i < nevent; i++)
		if (codes[i] == code)
			return;
	codes[nevent] = code;
	snprintf(names[nevent], sizeof names[0], "%s", name);
	nevent++;
}

static void hl_write(void);

/* under lock */
static void events_choose(void)
{
	if (nevent >= 0)
		return;
	nevent = 0;
	const char *env = getenv("PAPI_EVENTS");
	if (env && *env) {
		char buf[1024], *save, *tok;
		snprintf(buf, sizeof buf, "%s", env);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			try_event(tok);
	}
	if (nevent == 0) {
		static const char *const defaults[] = {
		    "PAPI_TOT_INS", "PAPI_TOT_CYC", "perf::TASK-CLOCK",
		    "perf::PAGE-FAULTS"};
		for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
			try_event(defaults[i]);
	}
	atexit(hl_write);
}

static struct hl_thread *thread_get(void)
{
	if (self)
		return self;
	papi__init();
	pthread_mutex_lock(&lock);
	events_choose();
	pthread_mutex_unlock(&lock);
	struct hl_thread *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->tid = papi__thread_id();
	if (nevent > 0 && pmk_eventset_new(&t->es, PMK_ES_MULTIPLEX) == 0) {
		for (int i = 0; i < nevent; i++) {
			pmk_event ev;
			pmk_diag d;
			if (papi__event_encode(codes[i], PAPI_DOM_USER, &ev, &d) != PAPI_OK ||
			    pmk_eventset_add_event(t->es, &ev, &d) < 0)
				break;
		}
		pmk_diag d;
		if (pmk_eventset_open(t->es, &d) < 0 || pmk_eventset_start(t->es) < 0) {
			pmk_eventset_free(t->es);
			t->es = NULL;
		}
	}
	pthread_mutex_lock(&lock);
	t->next = all;
	all = t;
	pthread_mutex_unlock(&lock);
	self = t;
	return t;
}

static void sample(struct hl_thread *t, double *values, long long *ns,
		   long long *cyc)
{
	pmk_value v[HL_EVENTS];
	int n = t->es ? pmk_eventset_read(t->es, v, HL_EVENTS) : 0;
	for (int i = 0; i < nevent; i++)
		values[i] = i < n && isfinite(v[i].value) ? v[i].value : 0;
	*ns = PAPI_get_real_nsec();
	*cyc = PAPI_get_real_cyc();
}

int PAPI_hl_region_begin(const char *region)
{
	if (!region)
		return PAPI_EINVAL;
	struct hl_thread *t = thread_get();
	if (!t)
		return PAPI_ENOMEM;
	if (t->depth >= HL_DEPTH)
		return PAPI_ECOUNT;
	int parent = t->depth ? t->regions[t->stack[t->depth - 1].region].id : -1;
	int r = -1;
	pthread_mutex_lock(&lock); /* the writer may read the list at exit */
	for (int i = 0; i < t->nregion; i++)
		if (!strcmp(t->regions[i].name, region) && t->regions[i].parent == parent)
			r = i;
	if (r < 0) {
		if (t->nregion == t->cap) {
			int cap = t->cap ? 2 * t->cap : 8;
			struct region *g = realloc(t->regions, (size_t)cap * sizeof *g);
			if (!g) {
				pthread_mutex_unlock(&lock);
				return PAPI_ENOMEM;
			}
			t->regions = g;
			t->cap = cap;
		}
		r = t->nregion++;
		memset(&t->regions[r], 0, sizeof t->regions[r]);
		snprintf(t->regions[r].name, sizeof t->regions[r].name, "%s", region);
		t->regions[r].id = r;
		t->regions[r].parent = parent;
	}
	pthread_mutex_unlock(&lock);
	struct open_region *o = &t->stack[t->depth++];
	o->region = r;
	sample(t, o->values, &o->real_ns, &o->cycles);
	return PAPI_OK;
}

static int region_close(const char *region, int pop)
{
	struct hl_thread *t = self;
	if (!region || !t || t->depth == 0)
		return PAPI_EINVAL;
	struct open_region *o = &t->stack[t->depth - 1];
	struct region *g = &t->regions[o->region];
	if (strcmp(g->name, region))
		return PAPI_EINVAL;
	double v[HL_EVENTS];
	long long ns, cyc;
	sample(t, v, &ns, &cyc);
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nevent; i++)
		g->values[i] += v[i] - o->values[i];
	g->real_ns += ns - o->real_ns;
	g->cycles += cyc - o->cycles;
	if (pop)
		g->count++, t->depth--;
	else /* a read: counted from here on */
		memcpy(o->values, v, sizeof v), o->real_ns = ns, o->cycles = cyc;
	pthread_mutex_unlock(&lock);
	return PAPI_OK;
}

int PAPI_hl_region_end(const char *region)
{
	return region_close(region, 1);
}

int PAPI_hl_read(const char *region)
{
	return region_close(region, 0);
}

int PAPI_hl_stop(void)
{
	struct hl_thread *t = self;
	if (!t || !t->es)
		return PAPI_ENOEVNT;
	pmk_eventset_stop(t->es);
	pmk_eventset_free(t->es);
	t->es = NULL;
	return PAPI_OK;
}

static void hl_write(void)
{
	pthread_mutex_lock(&lock);
	if (written || !all) {
		pthread_mutex_unlock(&lock);
		return;
	}
	written = 1;
	const char *dir = getenv("PAPI_OUTPUT_DIRECTORY");
	char path[4096];
	snprintf(path, sizeof path, "%s%spapi_hl_output", dir ? dir : "",
		 dir ? "/" : "");
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		pthread_mutex_unlock(&lock);
		return;
	}
	const char *rank = getenv("OMPI_COMM_WORLD_RANK");
	if (!rank)
		rank = getenv("PMI_RANK");
	size_t len = strlen(path);
	snprintf(path + len, sizeof path - len, "/rank_%06d.json",
		 rank ? atoi(rank) : (int)getpid());
	/* pmkit's output file: a new file renamed into place, never through
	 * a link, the previous one kept as .old */
	FILE *f = pmk__out_fopen(path, 0, NULL);
	if (!f) {
		pthread_mutex_unlock(&lock);
		return;
	}
	fprintf(f, "{\n\"event_definitions\":{");
	for (int i = 0; i < nevent; i++)
		fprintf(f, "%s\"%s\":{\"component\":\"perf_event\",\"type\":\"delta\"}",
			i ? "," : "", names[i]);
	fprintf(f, "},\n\"threads\":{");
	int first = 1;
	for (struct hl_thread *t = all; t; t = t->next) {
		if (!t->nregion)
			continue;
		fprintf(f, "%s\n\"%lu\":{\"regions\":{", first ? "" : ",", t->tid);
		first = 0;
		for (int r = 0; r < t->nregion; r++) {
			struct region *g = &t->regions[r];
			fprintf(f, "%s\n\"%d\":{\"name\":\"", r ? "," : "", g->id);
			for (const char *p = g->name; *p; p++)
				fprintf(f, *p == '"' || *p == '\\' ? "\\%c"
					   : (unsigned char)*p < 32 ? "?%.0d" : "%c",
					*p);
			fprintf(f, "\",\"parent_region_id\":\"%d\",\"cycles\":%lld,"
				   "\"real_time_nsec\":%lld",
				g->parent, g->cycles, g->real_ns);
			for (int i = 0; i < nevent; i++)
				fprintf(f, ",\"%s\":%.0f", names[i], g->values[i]);
			fprintf(f, "}");
		}
		fprintf(f, "}}");
	}
	fprintf(f, "\n}\n}\n");
	pmk__out_fclose(f, !ferror(f), NULL);
	pthread_mutex_unlock(&lock);
}

void papi__hl_release(void)
{
	hl_write();
}
