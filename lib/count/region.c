/*
 * region.c: the region API. Each thread gets its own event set, started
 * once and left running; begin reads it and pushes the reading, end reads
 * again and adds the difference to the region's totals (per region name,
 * per thread). Regions nest: an inner region's counts are also part of the
 * outer one's. Derived events are kept as their natives and evaluated over
 * the sums when results are written, since a ratio of differences is not
 * a difference of ratios.
 *
 * Results go to a JSON file at exit (PMK_REGION_OUTPUT, default
 * pmkit-regions.json) or when pmk_region_write() is called.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/core/outfile.h"
#include "lib/core/textout.h"
#include "lib/count/eventset.h"
#include "lib/event/parse.h"

#define MAX_REGION_EVENTS 16
#define MAX_DEPTH 32
#define NAME_MAX_LEN 64

/* The configured events: each user-visible event and its natives. */
static struct {
	int nev;
	pmk_event ev[MAX_REGION_EVENTS];
	int nleaf;                   /* natives, each counted as an event */
	pmk_event leaf[MAX_REGION_EVENTS * 2];
	int first_leaf[MAX_REGION_EVENTS];
	int configured;
} cfg;

struct total {
	char name[NAME_MAX_LEN];
	pid_t tid;
	uint64_t calls;
	double sum[MAX_REGION_EVENTS * 2]; /* per native */
	int next; /* the next entry of the same name (another thread), or -1 */
	int tail; /* in the first entry of a name: the last one, else -1 */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct total *totals;
static int ntotals, ctotals;
/* names -> the first entry of that name: open addressing, a power of two
 * at least twice the number of names, -1 for a free slot. A name's entries
 * (one per thread) are chained from it in order, so that region_end and
 * the output take constant time per name, not a scan of every name
 * (60,000 names added 77 s to a program before). */
static int *name_slot;
static unsigned name_cap, nnames;
static int atexit_done;

struct frame {
	char name[NAME_MAX_LEN];
	double start[MAX_REGION_EVENTS * 2];
};

struct thread_state {
	pmk_eventset *es;
	int depth;
	int failed;
	struct frame stack[MAX_DEPTH];
};

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void thread_free(void *p)
{
	struct thread_state *ts = p;
	if (ts) {
		pmk_eventset_free(ts->es);
		free(ts);
	}
}

static void key_init(void)
{
	pthread_key_create(&key, thread_free);
}

static int add_config_event(const char *item, int column, void *arg)
{
	pmk_diag *d = arg;
	pmk_event *ev;
	if (!*item)
		return 0;
	if (cfg.nev == MAX_REGION_EVENTS)
		return pmk__diag_set(d, PMK_ETOOMANY, column, 1, NULL,
				     "at most %d region events",
				     MAX_REGION_EVENTS);
	ev = &cfg.ev[cfg.nev];
	if (pmk_event_parse(pmk_target_host(), item, ev, d) != 0) {
		d->column += column - 1;
		return d->code ? d->code : PMK_ESYNTAX;
	}
	if (cfg.nleaf + ev->nleaf > MAX_REGION_EVENTS * 2)
		return pmk__diag_set(d, PMK_ETOOMANY, column, 1, NULL,
				     "too many natives for the region API");
	cfg.first_leaf[cfg.nev] = cfg.nleaf;
	for (int i = 0; i < ev->nleaf; i++) {
		pmk_event *l = &cfg.leaf[cfg.nleaf++];
		memset(l, 0, sizeof *l);
		snprintf(l->name, sizeof l->name, "%s", ev->leaf[i].name);
		l->kind = ev->kind;
		l->nleaf = 1;
		l->leaf[0] = ev->leaf[i];
		memcpy(l->unit, ev->unit, sizeof l->unit);
	}
	cfg.nev++;
	return 0;
}

int pmk_region_set_events(const char *list, pmk_diag *d)
{
	pmk_diag local;
	int rc;
	if (!d)
		d = &local;
	pmk_diag_clear(d);
	snprintf(d->input, sizeof d->input, "%s", list ? list : "");
	pthread_mutex_lock(&lock);
	if (ntotals > 0) {
		pthread_mutex_unlock(&lock);
		return pmk__diag_set(d, PMK_ESTATE, 0, 0,
				     "choose the events before the first region",
				     "regions already counted");
	}
	memset(&cfg, 0, sizeof cfg);
	rc = list ? pmk_event_list_foreach(list, add_config_event, d) : 0;
	if (rc) {
		memset(&cfg, 0, sizeof cfg);
		/* show the whole list; the column is already relative to it */
		snprintf(d->input, sizeof d->input, "%s", list);
	} else
		cfg.configured = 1;
	pthread_mutex_unlock(&lock);
	return rc;
}

/* The default: the software events that count everywhere, and
 * instructions and cycles where the machine counts them. */
static void configure_default(void)
{
	const char *env = getenv("PMK_REGION_EVENTS");
	pmk_diag d;
	if (env && *env) {
		if (pmk_region_set_events(env, &d) == 0)
			return;
		/* a bad variable must not kill the program: it falls back to
		 * the default, and says so (it was silent before) */
		fprintf(stderr,
			"pmkit: warning: PMK_REGION_EVENTS ignored: %.200s; "
			"counting the default events\n",
			d.message[0] ? d.message : "not a list of events");
	}
	pmk_region_set_events("task-clock,page-faults", &d);
	{
		pmk_eventset *es;
		if (pmk_eventset_new(&es, 0) == 0) {
			pmk_diag d2;
			if (pmk_eventset_add(es, "instructions", &d2) >= 0 &&
			    pmk_eventset_add(es, "cycles", &d2) >= 0 &&
			    pmk_eventset_open(es, &d2) == 0 &&
			    !pmk_eventset_event_diag(es, 0) &&
			    !pmk_eventset_event_diag(es, 1))
				pmk_region_set_events(
					"task-clock,page-faults,instructions,cycles",
					&d);
			pmk_eventset_free(es);
		}
	}
}

static int region_write(const char *path, pmk_diag *d);

/* At exit: the results go to PMK_REGION_OUTPUT (read with secure_getenv:
 * a set-user-ID program does not write where its caller says) or
 * pmkit-regions.json. When they cannot be written (a directory, a full
 * disk) the program is told on standard error: they were lost silently
 * before. */
static void write_at_exit(void)
{
	const char *path = secure_getenv("PMK_REGION_OUTPUT");
	pmk_diag d;
	if (!path || !*path)
		path = "pmkit-regions.json";
	memset(&d, 0, sizeof d);
	if (region_write(path, &d) != 0)
		fprintf(stderr,
			"pmkit: warning: the region results were not written: "
			"%.300s\n",
			d.message[0] ? d.message : "cannot write them");
}

static int read_now(struct thread_state *ts, double *out);

static struct thread_state *thread_state(void)
{
	struct thread_state *ts;
	pthread_once(&key_once, key_init);
	ts = pthread_getspecific(key);
	if (ts)
		return ts->failed ? NULL : ts;
	pthread_mutex_lock(&lock);
	if (!cfg.configured) {
		pthread_mutex_unlock(&lock);
		configure_default();
		pthread_mutex_lock(&lock);
	}
	if (!atexit_done) {
		atexit(write_at_exit);
		atexit_done = 1;
	}
	pthread_mutex_unlock(&lock);
	ts = calloc(1, sizeof *ts);
	if (!ts)
		return NULL;
	pthread_setspecific(key, ts);
	if (pmk_eventset_new(&ts->es, PMK_ES_MULTIPLEX) != 0) {
		ts->failed = 1;
		return NULL;
	}
	for (int i = 0; i < cfg.nleaf; i++)
		if (pmk_eventset_add_event(ts->es, &cfg.leaf[i], NULL) < 0)
			ts->failed = 1;
	if (ts->failed || pmk_eventset_start(ts->es) != 0) {
		ts->failed = 1;
		return NULL;
	}
	/* A first read here, outside every region: a set's first read does
	 * one-time work after taking the counts (the first slice of each
	 * native's rate statistics), which fell inside the first region's
	 * counts and made its begin/end cost more instructions than any other
	 * region's. From the second read on, the cost is the same each time. */
	{
		double warm[MAX_REGION_EVENTS * 2];
		(void)read_now(ts, warm); /* a failing read fails in begin */
	}
	return ts;
}

static int read_now(struct thread_state *ts, double *out)
{
	pmk_value v[MAX_REGION_EVENTS * 2];
	int n = pmk_eventset_read(ts->es, v, cfg.nleaf);
	if (n < 0)
		return n;
	for (int i = 0; i < cfg.nleaf; i++)
		out[i] = v[i].status ? NAN : v[i].value;
	return 0;
}

int pmk_region_begin(const char *name)
{
	struct thread_state *ts;
	struct frame *f;
	if (!name || strlen(name) >= NAME_MAX_LEN)
		return PMK_EINVAL;
	ts = thread_state();
	if (!ts)
		return PMK_ENOTSUP;
	if (ts->depth == MAX_DEPTH)
		return PMK_ETOOMANY;
	f = &ts->stack[ts->depth];
	snprintf(f->name, sizeof f->name, "%s", name);
	if (read_now(ts, f->start) != 0)
		return PMK_ESYS;
	ts->depth++;
	return 0;
}

static unsigned name_hash(const char *name)
{
	unsigned h = 2166136261u; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

/* The slot of `name`: where it is, or the free slot where it goes. */
static unsigned name_find(const char *name)
{
	unsigned i = name_hash(name) & (name_cap - 1);
	while (name_slot[i] >= 0 && strcmp(totals[name_slot[i]].name, name))
		i = (i + 1) & (name_cap - 1);
	return i;
}

static int name_grow(void)
{
	unsigned nc = name_cap ? name_cap * 2 : 64, oc = name_cap;
	int *old = name_slot, *ns = malloc(sizeof *ns * nc);
	if (!ns)
		return -1;
	for (unsigned i = 0; i < nc; i++)
		ns[i] = -1;
	name_slot = ns;
	name_cap = nc;
	for (unsigned i = 0; i < oc; i++)
		if (old[i] >= 0)
			name_slot[name_find(totals[old[i]].name)] = old[i];
	free(old);
	return 0;
}

static struct total *find_total(const char *name, pid_t tid)
{
	unsigned slot;
	int head, j;
	if ((nnames + 1) * 2 > name_cap && name_grow() != 0)
		return NULL;
	slot = name_find(name);
	head = name_slot[slot];
	for (j = head; j >= 0; j = totals[j].next)
		if (totals[j].tid == tid)
			return &totals[j];
	if (ntotals == ctotals) {
		int nc = ctotals ? ctotals * 2 : 16;
		struct total *nt = realloc(totals, sizeof *nt * (size_t)nc);
		if (!nt)
			return NULL;
		totals = nt;
		ctotals = nc;
	}
	memset(&totals[ntotals], 0, sizeof totals[0]);
	snprintf(totals[ntotals].name, NAME_MAX_LEN, "%s", name);
	totals[ntotals].tid = tid;
	totals[ntotals].next = -1;
	totals[ntotals].tail = -1;
	if (head < 0) { /* a new name */
		name_slot[slot] = ntotals;
		totals[ntotals].tail = ntotals;
		nnames++;
	} else {
		totals[totals[head].tail].next = ntotals;
		totals[head].tail = ntotals;
	}
	return &totals[ntotals++];
}

int pmk_region_end(const char *name)
{
	struct thread_state *ts;
	struct frame *f;
	struct total *t;
	double now[MAX_REGION_EVENTS * 2];
	if (!name)
		return PMK_EINVAL;
	ts = thread_state();
	if (!ts)
		return PMK_ENOTSUP;
	if (ts->depth == 0 || strcmp(ts->stack[ts->depth - 1].name, name))
		return PMK_ESTATE; /* not the innermost open region */
	if (read_now(ts, now) != 0)
		return PMK_ESYS;
	f = &ts->stack[--ts->depth];
	pthread_mutex_lock(&lock);
	t = find_total(name, (pid_t)syscall(SYS_gettid));
	if (t) {
		t->calls++;
		for (int i = 0; i < cfg.nleaf; i++)
			t->sum[i] += now[i] - f->start[i];
	}
	pthread_mutex_unlock(&lock);
	return t ? 0 : PMK_ENOMEM;
}

/* The value of event e from native sums. */
static double event_value(int e, const double *sum)
{
	return pmk_event_eval(&cfg.ev[e], sum + cfg.first_leaf[e]);
}

/* For the first entry of each region name, sum its natives and calls over
 * the threads; returns 0 for entries whose name came earlier. */
static int sum_region(int i, double *sum, uint64_t *calls)
{
	if (totals[i].tail < 0) /* not the first entry of its name */
		return 0;
	memset(sum, 0, sizeof(double) * (size_t)cfg.nleaf);
	*calls = 0;
	for (int j = i; j >= 0; j = totals[j].next) {
		*calls += totals[j].calls;
		for (int k = 0; k < cfg.nleaf; k++)
			sum[k] += totals[j].sum[k];
	}
	return 1;
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	else
		fputs("null", f);
}

int pmk_region_write(const char *path)
{
	return region_write(path, NULL);
}

static int region_write(const char *path, pmk_diag *d)
{
	FILE *f;
	if (!path)
		return PMK_EINVAL;
	pthread_mutex_lock(&lock);
	if (ntotals == 0) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	f = pmk__out_fopen(path, 0, d); /* new file, renamed into place */
	if (!f) {
		pthread_mutex_unlock(&lock);
		return PMK_EIO;
	}
	fprintf(f, "{\"schema\":\"pmkit-regions/1\",\"events\":[");
	for (int e = 0; e < cfg.nev; e++) {
		fputs(e ? "," : "", f);
		pmk__json_str(f, cfg.ev[e].name);
	}
	fprintf(f, "],\"regions\":[");
	/* one entry per name, summed over threads, with the threads inside */
	for (int i = 0, first = 1; i < ntotals; i++) {
		double sum[MAX_REGION_EVENTS * 2];
		uint64_t calls;
		if (!sum_region(i, sum, &calls))
			continue;
		fprintf(f, "%s\n {\"name\":", first ? "" : ",");
		first = 0;
		pmk__json_str(f, totals[i].name);
		fprintf(f, ",\"calls\":%llu,\"values\":{", (unsigned long long)calls);
		for (int e = 0; e < cfg.nev; e++) {
			fputs(e ? "," : "", f);
			pmk__json_str(f, cfg.ev[e].name);
			fputc(':', f);
			json_num(f, event_value(e, sum));
		}
		fprintf(f, "},\"threads\":[");
		for (int j = i, tfirst = 1; j >= 0; j = totals[j].next) {
			fprintf(f, "%s{\"tid\":%d,\"calls\":%llu,\"values\":{",
				tfirst ? "" : ",", (int)totals[j].tid,
				(unsigned long long)totals[j].calls);
			tfirst = 0;
			for (int e = 0; e < cfg.nev; e++) {
				fputs(e ? "," : "", f);
				pmk__json_str(f, cfg.ev[e].name);
				fputc(':', f);
				json_num(f, event_value(e, totals[j].sum));
			}
			fprintf(f, "}}");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n]}\n");
	pthread_mutex_unlock(&lock);
	return pmk__out_fclose(f, 1, d) == 0 ? 0 : PMK_EIO;
}

int pmk_region_foreach(int (*fn)(const pmk_region_stats *s, void *arg),
		       void *arg)
{
	const char *names[MAX_REGION_EVENTS];
	double values[MAX_REGION_EVENTS];
	int rc = 0;
	pthread_mutex_lock(&lock);
	for (int e = 0; e < cfg.nev; e++)
		names[e] = cfg.ev[e].name;
	for (int i = 0; i < ntotals && rc == 0; i++) {
		double sum[MAX_REGION_EVENTS * 2];
		uint64_t calls;
		pmk_region_stats s;
		if (!sum_region(i, sum, &calls))
			continue;
		for (int e = 0; e < cfg.nev; e++)
			values[e] = event_value(e, sum);
		s.name = totals[i].name;
		s.calls = calls;
		s.nevents = cfg.nev;
		s.event_names = names;
		s.values = values;
		rc = fn(&s, arg);
	}
	pthread_mutex_unlock(&lock);
	return rc;
}
