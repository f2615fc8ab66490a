/*
 * lockstat.c: perf lock contention's analysis of a recording of the
 * kernel's lock:contention_begin/end tracepoints (see lockstat.h).
 *
 * The samples of both tracepoints are read, put in time order (the ring
 * buffers of several CPUs are written out one after another) and walked
 * once. Each sample's call chain, cut to max_stack entries, loses its
 * stack_skip innermost entries and every entry in the kernel's lock or
 * scheduler text (__lock_text_start.., __sched_text_start..: the lock
 * functions); what is left, with the lock type, is the entry's key, and its
 * first entry that has a symbol is the caller shown. A begin opens a
 * contention of its task on its lock (the lock_addr field; without fields,
 * on its key): a second begin on an open one, as a mutex that stops
 * spinning and sleeps gives, is not counted again; the task's end on the
 * same lock closes it and adds the time between them to the begin's
 * entry. The type is the `flags` field's, else named from the chain.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/diag.h"
#include "lib/sample/ksym.h"
#include "lib/sample/lockstat.h"
#include "lib/sample/perfdata.h"
#include "pmkit/sample.h"

#define MAX_CHAIN 127 /* the deepest --max-stack accepted */
#define MAX_OPEN  16  /* contentions open at once in one task */

struct tp { /* one tracepoint sample, its chain already keyed */
	uint64_t time_ns;
	uint64_t key;	  /* the lock's address, or (no fields) the entry */
	uint32_t by_addr; /* 1: key is the lock's address */
	uint32_t tid;
	uint32_t end; /* 1: contention_end */
	uint32_t entry; /* a begin's entry */
	uint64_t seq;	/* place in the file, for ties */
};

struct open_c {
	uint64_t key;
	uint32_t by_addr, entry;
	uint64_t since_ns;
};

/* Where a tracepoint's fields lie in its raw record (from its format). */
struct evf {
	int role; /* 1 begin, 2 end */
	uint32_t addr_off, addr_size, flags_off, flags_size; /* size 0: none */
};

struct task {
	uint32_t tid, nopen;
	struct open_c open[MAX_OPEN];
};

struct pmk_lockstat {
	pmk__ksyms *ks;
	uint64_t lock_lo, lock_hi, sched_lo, sched_hi;
	pmk_lock_entry *e;
	size_t n, cap;
	uint32_t *hash; /* entry + 1, open addressing; 0: empty */
	size_t hcap;
	struct tp *tp;
	size_t ntp, tpcap;
	struct task *tasks;
	size_t ntasks, taskcap;
	struct evf ev[PMK_REC_MAX_EVENTS];
	pmk_lockstat_totals tot;
};

static const char *const key_names[] = {"wait_total", "contended",
					"wait_max", "wait_min", "avg_wait"};

int pmk_lockstat_key(const char *name)
{
	for (int i = 0; i < (int)(sizeof key_names / sizeof *key_names); i++)
		if (!strcmp(name, key_names[i]))
			return i;
	return -1;
}

/* The text ranges of the lock and scheduler functions. */
static void text_ranges(pmk_lockstat *ls, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], t;
	unsigned long long a;
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%llx %c %255s", &a, &t, name) == 3) {
			if (!strcmp(name, "__lock_text_start"))
				ls->lock_lo = a;
			else if (!strcmp(name, "__lock_text_end"))
				ls->lock_hi = a;
			else if (!strcmp(name, "__sched_text_start"))
				ls->sched_lo = a;
			else if (!strcmp(name, "__sched_text_end"))
				ls->sched_hi = a;
		}
	fclose(f);
}

static int is_lock_fn(const pmk_lockstat *ls, uint64_t a)
{
	return (a >= ls->lock_lo && a < ls->lock_hi) ||
	       (a >= ls->sched_lo && a < ls->sched_hi);
}

/* The lock type from the kernel function that waits for it. */
static const char *lock_type(const pmk_lockstat *ls, const uint64_t *c,
			     uint32_t n)
{
	static const struct {
		const char *fn;
		const char *type;
	} tab[] = {
	    {"queued_read_lock_slowpath", "rwlock:R"},
	    {"queued_write_lock_slowpath", "rwlock:W"},
	    {"queued_spin_lock_slowpath", "spinlock"},
	    {"rwsem_down_read_slowpath", "rwsem:R"},
	    {"rwsem_down_write_slowpath", "rwsem:W"},
	    {"mutex_lock", "mutex"},
	    {"rtlock_slowlock", "rtmutex"},
	    {"rt_mutex_slowlock", "rtmutex"},
	    {"__down", "semaphore"},
	};
	for (uint32_t i = 0; i < n && i < 4; i++) {
		uint64_t start;
		const char *mod;
		const char *s = pmk__ksyms_lookup(ls->ks, c[i], &start, &mod);
		if (!s)
			continue;
		if (strstr(s, "percpu_rwsem_wait")) {
			const char *up = i + 1 < n ? pmk__ksyms_lookup(
							 ls->ks, c[i + 1],
							 &start, &mod)
						   : NULL;
			return up && strstr(up, "down_write") ? "pcpu-sem:W"
							      : "pcpu-sem:R";
		}
		for (size_t j = 0; j < sizeof tab / sizeof *tab; j++)
			if (!strncmp(tab[j].fn, "__", 2)
				? !strncmp(s, tab[j].fn, strlen(tab[j].fn))
				: strstr(s, tab[j].fn) != NULL)
				return tab[j].type;
	}
	return "unknown";
}

/* The type perf names for the tracepoint's flags (the kernel's LCB_F_*
 * bits: SPIN 1, READ 2, WRITE 4, RT 8, PERCPU 16, MUTEX 32). */
static const char *flags_type(uint32_t fl)
{
	switch (fl) {
	case 0:
		return "semaphore";
	case 1:
		return "spinlock";
	case 1 | 2:
		return "rwlock:R";
	case 1 | 4:
		return "rwlock:W";
	case 2:
		return "rwsem:R";
	case 4:
		return "rwsem:W";
	case 8:
		return "rtmutex";
	case 8 | 2:
		return "rwlock-rt:R";
	case 8 | 4:
		return "rwlock-rt:W";
	case 16 | 2:
		return "pcpu-sem:R";
	case 16 | 4:
		return "pcpu-sem:W";
	case 32:
	case 32 | 1:
		return "mutex";
	default:
		return "unknown";
	}
}

/* The offset and size of field `name` in a tracefs format text
 * ("\tfield:TYPE NAME;\toffset:N;\tsize:N;..."); size 0 when absent. */
static void field_at(const char *text, const char *name, uint32_t *off,
		     uint32_t *size)
{
	size_t nl = strlen(name);
	*off = *size = 0;
	for (const char *p = text; (p = strstr(p, "field:")) != NULL; p++) {
		const char *semi = strchr(p, ';'), *q;
		unsigned a, b;
		if (!semi)
			return;
		q = semi; /* the name is the last word before the ';' */
		while (q > p && (q[-1] == '_' || (q[-1] >= '0' && q[-1] <= '9') ||
				 ((q[-1] | 32) >= 'a' && (q[-1] | 32) <= 'z')))
			q--;
		if ((size_t)(semi - q) != nl || strncmp(q, name, nl))
			continue;
		q = strstr(semi, "offset:");
		if (q && sscanf(q, "offset:%u;%*[ \t]size:%u;", &a, &b) == 2 &&
		    (b == 4 || b == 8)) {
			*off = a;
			*size = b;
		}
		return;
	}
}

static int raw_get(const pmk_sample *s, uint32_t off, uint32_t size,
		   uint64_t *v)
{
	uint32_t v32;
	if (!size || !(s->flags & PMK_SAMPLE_HAS_RAW) || !s->raw ||
	    off > s->raw_len || size > s->raw_len - off)
		return 0;
	if (size == 8) {
		memcpy(v, s->raw + off, 8);
	} else {
		memcpy(&v32, s->raw + off, 4);
		*v = v32;
	}
	return 1;
}

static uint64_t key_hash(const char *type, const uint64_t *c, uint32_t n)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)type;
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int grow_hash(pmk_lockstat *ls)
{
	size_t cap = ls->hcap ? ls->hcap * 2 : 1024;
	uint32_t *h = calloc(cap, sizeof *h);
	if (!h)
		return -1;
	for (size_t i = 0; i < ls->n; i++) {
		const pmk_lock_entry *e = &ls->e[i];
		size_t j = key_hash(e->type, e->chain, e->nchain) & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(ls->hash);
	ls->hash = h;
	ls->hcap = cap;
	return 0;
}

/* The entry of a keyed chain, made on first sight when `make` (a begin;
 * an end finds one or none); -1: no memory, -2: none. */
static long entry_of(pmk_lockstat *ls, const char *type, const uint64_t *c,
		     uint32_t n, int make)
{
	size_t j;
	pmk_lock_entry *e;
	if ((ls->n + 1) * 2 > ls->hcap && grow_hash(ls))
		return -1;
	j = key_hash(type, c, n) & (ls->hcap - 1);
	for (; ls->hash[j]; j = (j + 1) & (ls->hcap - 1)) {
		e = &ls->e[ls->hash[j] - 1];
		if (e->type == type && e->nchain == n &&
		    !memcmp(e->chain, c, n * sizeof *c))
			return (long)ls->hash[j] - 1;
	}
	if (!make)
		return -2;
	if (ls->n == ls->cap) {
		size_t cap = ls->cap ? ls->cap * 2 : 256;
		pmk_lock_entry *v = realloc(ls->e, cap * sizeof *v);
		if (!v)
			return -1;
		ls->e = v;
		ls->cap = cap;
	}
	e = &ls->e[ls->n];
	memset(e, 0, sizeof *e);
	e->type = type;
	e->nchain = n;
	if (n) {
		uint64_t *copy = malloc(n * sizeof *copy);
		if (!copy)
			return -1;
		memcpy(copy, c, n * sizeof *c);
		e->chain = copy;
	}
	snprintf(e->caller, sizeof e->caller, "Unknown");
	for (uint32_t i = 0; i < n; i++) {
		uint64_t start;
		const char *mod;
		if (pmk__ksyms_lookup(ls->ks, c[i], &start, &mod)) {
			pmk_lockstat_sym(ls, c[i], e->caller,
					 sizeof e->caller);
			break;
		}
	}
	ls->hash[j] = (uint32_t)ls->n + 1;
	return (long)ls->n++;
}

static int add_sample(pmk_lockstat *ls, const pmk_sample *s, int end,
		      const pmk_lockstat_opts *o)
{
	uint64_t key[MAX_CHAIN], addr = 0, fl;
	uint32_t n = 0, depth = s->nchain;
	const struct evf *f = &ls->ev[s->event];
	int by_addr = raw_get(s, f->addr_off, f->addr_size, &addr);
	long ei = 0;
	const char *type;
	if (depth > (uint32_t)o->max_stack)
		depth = (uint32_t)o->max_stack;
	/* the flags field where the recording has it, else the chain */
	type = !end && raw_get(s, f->flags_off, f->flags_size, &fl)
		   ? flags_type((uint32_t)fl)
		   : lock_type(ls, s->chain, depth);
	for (uint32_t i = (uint32_t)o->stack_skip; i < depth; i++)
		if (!is_lock_fn(ls, s->chain[i]))
			key[n++] = s->chain[i];
	/* an end with the lock's address closes its task's begin on that
	 * lock, as perf pairs them; without, the one on its call path */
	if ((!end || !by_addr) &&
	    (ei = entry_of(ls, type, key, n, !end)) == -2) {
		ls->tot.unpaired++; /* no begin on that path at all */
		return 0;
	}
	if (ei < 0)
		return PMK_ENOMEM;
	if (ls->ntp == ls->tpcap) {
		size_t cap = ls->tpcap ? ls->tpcap * 2 : 4096;
		struct tp *v = realloc(ls->tp, cap * sizeof *v);
		if (!v)
			return PMK_ENOMEM;
		ls->tp = v;
		ls->tpcap = cap;
	}
	ls->tp[ls->ntp] = (struct tp){s->time_ns,
				      by_addr ? addr : (uint64_t)ei,
				      (uint32_t)by_addr,
				      s->tid,
				      (uint32_t)end,
				      (uint32_t)ei,
				      ls->ntp};
	ls->ntp++;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct tp *x = a, *y = b;
	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : 1; /* qsort is not stable */
}

static struct task *task_of(pmk_lockstat *ls, uint32_t tid)
{
	for (size_t i = ls->ntasks; i-- > 0;)
		if (ls->tasks[i].tid == tid)
			return &ls->tasks[i];
	if (ls->ntasks == ls->taskcap) {
		size_t cap = ls->taskcap ? ls->taskcap * 2 : 64;
		struct task *v = realloc(ls->tasks, cap * sizeof *v);
		if (!v)
			return NULL;
		ls->tasks = v;
		ls->taskcap = cap;
	}
	ls->tasks[ls->ntasks] = (struct task){.tid = tid};
	return &ls->tasks[ls->ntasks++];
}

/* Pair begins and ends, in time order, into the entries' figures. */
static int pair(pmk_lockstat *ls)
{
	/* keep each sample's file position for the sort's ties */
	qsort(ls->tp, ls->ntp, sizeof *ls->tp, by_time);
	for (size_t i = 0; i < ls->ntp; i++) {
		const struct tp *p = &ls->tp[i];
		struct task *t = task_of(ls, p->tid);
		uint32_t k;
		if (!t)
			return PMK_ENOMEM;
		for (k = t->nopen; k-- > 0;)
			if (t->open[k].key == p->key &&
			    t->open[k].by_addr == p->by_addr)
				break;
		if (!p->end) {
			if (k != UINT32_MAX) {
				ls->tot.nested++;
				continue;
			}
			ls->e[p->entry].contended++;
			if (t->nopen == MAX_OPEN) /* the oldest is dropped */
				memmove(t->open, t->open + 1,
					--t->nopen * sizeof *t->open);
			t->open[t->nopen++] =
			    (struct open_c){p->key, p->by_addr, p->entry,
					    p->time_ns};
		} else if (k == UINT32_MAX) {
			ls->tot.unpaired++;
		} else {
			pmk_lock_entry *e = &ls->e[t->open[k].entry];
			uint64_t w = p->time_ns - t->open[k].since_ns;
			e->total_ns += w;
			if (w > e->max_ns)
				e->max_ns = w;
			if (!e->min_ns || w < e->min_ns)
				e->min_ns = w;
			memmove(t->open + k, t->open + k + 1,
				(t->nopen - k - 1) * sizeof *t->open);
			t->nopen--;
		}
	}
	for (size_t i = 0; i < ls->n; i++)
		if (ls->e[i].contended)
			ls->e[i].avg_ns = ls->e[i].total_ns / ls->e[i].contended;
	return 0;
}

static int read_mem(pmk_lockstat *ls, const void *buf, size_t len,
		    const pmk_lockstat_opts *o, const char *path, pmk_diag *d)
{
	pmk_rec_reader *r;
	pmk_rec_item it;
	int rc, have = 0;
	if ((rc = pmk_rec_reader_open_mem(&r, buf, len, d)) != 0)
		return rc;
	while ((rc = pmk_rec_next(r, &it, d)) == 1) {
		if (it.kind == PMK_REC_EVENT &&
		    it.u.event.index < PMK_REC_MAX_EVENTS) {
			const char *nm = it.u.event.name;
			struct evf *f = &ls->ev[it.u.event.index];
			memset(f, 0, sizeof *f);
			f->role = !strcmp(nm, "lock:contention_begin") ? 1
				  : !strcmp(nm, "lock:contention_end") ? 2
									 : 0;
			have |= f->role;
		} else if (it.kind == PMK_REC_FORMAT &&
			   it.u.format.event < PMK_REC_MAX_EVENTS &&
			   it.u.format.text) {
			struct evf *f = &ls->ev[it.u.format.event];
			field_at(it.u.format.text, "lock_addr", &f->addr_off,
				 &f->addr_size);
			if (f->role == 1)
				field_at(it.u.format.text, "flags",
					 &f->flags_off, &f->flags_size);
		} else if (it.kind == PMK_REC_SAMPLE &&
			   it.u.sample.event < PMK_REC_MAX_EVENTS &&
			   ls->ev[it.u.sample.event].role) {
			int end = ls->ev[it.u.sample.event].role == 2;
			if (end)
				ls->tot.ends++;
			else
				ls->tot.begins++;
			if ((rc = add_sample(ls, &it.u.sample, end, o)) != 0)
				break;
		} else if (it.kind == PMK_REC_LOST) {
			ls->tot.lost += it.u.lost.count;
		}
	}
	pmk_rec_reader_close(r);
	if (rc < 0)
		return rc;
	if (have != 3)
		return pmk__diag_file(
		    d, PMK_EFORMAT, 0, path,
		    "record it with 'perf lock record' (pmkit lock record)",
		    "'%s' holds no lock:contention_begin and "
		    "lock:contention_end events",
		    path);
	return pair(ls);
}

/* A perf.data file is translated into a record stream in memory first. */
static int read_file(pmk_lockstat *ls, const char *path,
		     const pmk_lockstat_opts *o, pmk_diag *d)
{
	struct stat st;
	void *m, *m2 = MAP_FAILED;
	size_t len2 = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	if (fd < 0)
		return pmk__diag_file(d, PMK_EIO, errno, path, NULL,
				      "cannot read '%s'", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return pmk__diag_file(d, PMK_EFORMAT, 0, path, NULL,
				      "'%s' is empty or not a file", path);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return pmk__diag_file(d, PMK_EIO, errno, path, NULL,
				      "cannot read '%s'", path);
	if (pmk__perfdata_is(m, (size_t)st.st_size)) {
		uint64_t skipped = 0;
		struct stat sb;
		int mfd = memfd_create("pmkit-lock", MFD_CLOEXEC);
		rc = mfd < 0 ? PMK_EIO
			     : pmk__perfdata_convert(m, (size_t)st.st_size,
						     mfd, &skipped, d);
		if (!rc && (fstat(mfd, &sb) || sb.st_size <= 0))
			rc = PMK_EIO;
		if (!rc) {
			len2 = (size_t)sb.st_size;
			m2 = mmap(NULL, len2, PROT_READ, MAP_PRIVATE, mfd, 0);
			if (m2 == MAP_FAILED)
				rc = PMK_EIO;
		}
		if (mfd >= 0)
			close(mfd);
		if (rc == PMK_EIO)
			pmk__diag_file(d, rc, errno, path, NULL,
				       "cannot translate '%s'", path);
		if (!rc)
			rc = read_mem(ls, m2, len2, o, path, d);
		if (m2 != MAP_FAILED)
			munmap(m2, len2);
	} else {
		rc = read_mem(ls, m, (size_t)st.st_size, o, path, d);
	}
	munmap(m, (size_t)st.st_size);
	if (rc && d && !d->file[0])
		snprintf(d->file, sizeof d->file, "%s", path);
	return rc;
}

int pmk_lockstat_load(pmk_lockstat **out, const char *path,
		      const pmk_lockstat_opts *o, pmk_diag *d)
{
	pmk_lockstat_opts def = {NULL, 8, 3};
	const char *kall;
	pmk_lockstat *ls;
	int rc;
	*out = NULL;
	pmk_diag_clear(d);
	if (!o)
		o = &def;
	if (o->max_stack < 1 || o->max_stack > MAX_CHAIN || o->stack_skip < 0)
		return pmk__diag_file(d, PMK_EINVAL, 0, NULL, NULL,
				      "--max-stack takes 1 to %d, "
				      "--stack-skip 0 or more",
				      MAX_CHAIN);
	kall = o->kallsyms ? o->kallsyms : "/proc/kallsyms";
	if (!(ls = calloc(1, sizeof *ls)))
		return PMK_ENOMEM;
	ls->ks = pmk__ksyms_kallsyms(kall);
	text_ranges(ls, kall);
	rc = read_file(ls, path, o, d);
	if (rc) {
		pmk_lockstat_free(ls);
		return rc;
	}
	free(ls->tp);
	ls->tp = NULL;
	free(ls->tasks);
	ls->tasks = NULL;
	pmk_lockstat_sort(ls, PMK_LOCK_KEY_WAIT_TOTAL);
	*out = ls;
	return 0;
}

static uint64_t key_of(const pmk_lock_entry *e, int key)
{
	switch (key) {
	case PMK_LOCK_KEY_CONTENDED:
		return e->contended;
	case PMK_LOCK_KEY_WAIT_MAX:
		return e->max_ns;
	case PMK_LOCK_KEY_WAIT_MIN:
		return e->min_ns;
	case PMK_LOCK_KEY_AVG_WAIT:
		return e->avg_ns;
	default:
		return e->total_ns;
	}
}

/* Biggest first; ties by contentions, then by caller, so that the order
 * does not depend on the file's. */
static int by_key(const void *a, const void *b, void *arg)
{
	const pmk_lock_entry *x = a, *y = b;
	int key = *(const int *)arg;
	uint64_t kx = key_of(x, key), ky = key_of(y, key);
	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->contended != y->contended)
		return x->contended > y->contended ? -1 : 1;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->caller, y->caller);
}

void pmk_lockstat_sort(pmk_lockstat *ls, int key)
{
	qsort_r(ls->e, ls->n, sizeof *ls->e, by_key, &key);
	/* the hash holds indices: rebuild it for the new order */
	free(ls->hash);
	ls->hash = NULL;
	ls->hcap = 0;
}

size_t pmk_lockstat_count(const pmk_lockstat *ls)
{
	return ls->n;
}

const pmk_lock_entry *pmk_lockstat_entry(const pmk_lockstat *ls, size_t i)
{
	return i < ls->n ? &ls->e[i] : NULL;
}

void pmk_lockstat_totals_get(const pmk_lockstat *ls, pmk_lockstat_totals *t)
{
	*t = ls->tot;
}

const char *pmk_lockstat_sym(const pmk_lockstat *ls, uint64_t addr,
			     char *buf, size_t size)
{
	uint64_t start = 0;
	const char *mod = NULL;
	const char *s = ls->ks ? pmk__ksyms_lookup(ls->ks, addr, &start, &mod)
			       : NULL;
	if (s)
		snprintf(buf, size, "%s+0x%llx", s,
			 (unsigned long long)(addr - start));
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
	return buf;
}

void pmk_lockstat_free(pmk_lockstat *ls)
{
	if (!ls)
		return;
	for (size_t i = 0; i < ls->n; i++)
		free((void *)ls->e[i].chain);
	free(ls->e);
	free(ls->hash);
	free(ls->tp);
	free(ls->tasks);
	pmk__ksyms_free(ls->ks);
	free(ls);
}
