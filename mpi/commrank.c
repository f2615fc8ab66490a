/*
 * commrank.c: the communication picture as one rank counts it (comm.h,
 * rank.h): the wrappers tell it each measured call (its function, time,
 * bytes and the caller's return address) and each point-to-point send's
 * destination; at MPI_Finalize it becomes the rank's "comm" record, the
 * call sites symbolized then (lib/sample's symbol tables: function and
 * file:line from the DWARF, else DSO+offset).
 *
 * By default (exact timing) the per-call work is inline in the wrappers
 * (rank.h, pmk__mpi_comm_fast): a histogram bucket, min and max, and the
 * wrapper's own one-entry cache of its last call site; only a call from
 * another site than the last comes here (pmk__mpi_site_miss), to the
 * fixed table of call sites (no allocation; a site past its 4,096 entries
 * is counted under "(other sites)"). The collectives' column is made at
 * MPI_Finalize from the per-function counts. In the other timing modes
 * every call comes here (pmk__mpi_comm_call), under a spin lock with
 * MPI_THREAD_MULTIPLE. A record written by a dying rank (lastword.c) has
 * no picture: that path may not allocate.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/sample/symtab.h"
#include "mpi/comm.h"
#include "mpi/rank.h"
#include "pmkit.h"

static const char *const fn_name[] = {
#define PMK__FN_NAME(id, name, local) name,
    PMK__MPI_FUNCS(PMK__FN_NAME)
#undef PMK__FN_NAME
};

/* collectives: their bytes go into their own column */
static const unsigned char is_coll[PMK__MPI_NFUNCS] = {
    [PMK__MPI_BARRIER] = 1,	   [PMK__MPI_BCAST] = 1,
    [PMK__MPI_REDUCE] = 1,	   [PMK__MPI_ALLREDUCE] = 1,
    [PMK__MPI_GATHER] = 1,	   [PMK__MPI_GATHERV] = 1,
    [PMK__MPI_SCATTER] = 1,	   [PMK__MPI_SCATTERV] = 1,
    [PMK__MPI_ALLGATHER] = 1,	   [PMK__MPI_ALLGATHERV] = 1,
    [PMK__MPI_ALLTOALL] = 1,	   [PMK__MPI_ALLTOALLV] = 1,
    [PMK__MPI_REDUCE_SCATTER] = 1, [PMK__MPI_SCAN] = 1,
    [PMK__MPI_EXSCAN] = 1,	   [PMK__MPI_IBARRIER] = 1,
    [PMK__MPI_IBCAST] = 1,	   [PMK__MPI_IREDUCE] = 1,
    [PMK__MPI_IALLREDUCE] = 1,
};

#define SITES 4096 /* a power of 2 */

struct pmk__mpi_cfn pmk__mpi_cfn[PMK__MPI_NFUNCS];

struct pmk__mpi_tocount *pmk__mpi_to;
int pmk__mpi_nto;

static struct {
	struct csite {
		const void *addr; /* NULL: empty */
		int fn;
		uint64_t calls, ticks;
	} site[SITES];
	uint64_t other_calls[PMK__MPI_NFUNCS], other_ticks[PMK__MPI_NFUNCS];
	struct pmk__mpi_site1 *cache[512]; /* the wrappers' caches in use */
	int ncache;
	int lock;
} C;

static inline int lock(void)
{
	int threads = pmk__mpi_mode == PMK__MPI_THREADS;
	if (threads)
		while (__atomic_exchange_n(&C.lock, 1, __ATOMIC_ACQUIRE))
			;
	return threads;
}
static inline void unlock(int threads)
{
	if (threads)
		__atomic_store_n(&C.lock, 0, __ATOMIC_RELEASE);
}

void pmk__mpi_comm_start(int size)
{
	pmk__mpi_to = calloc((size_t)size, sizeof *pmk__mpi_to);
	pmk__mpi_nto = pmk__mpi_to ? size : 0;
	for (int f = 0; f < PMK__MPI_NFUNCS; f++)
		pmk__mpi_cfn[f].min = UINT64_MAX;
}

void pmk__mpi_comm_send(int dest, uint64_t bytes)
{
	int t;
	if (dest < 0 || dest >= pmk__mpi_nto)
		return;
	t = lock();
	pmk__mpi_to[dest].calls++;
	pmk__mpi_to[dest].bytes += bytes;
	unlock(t);
}

/* `calls` calls of `fn` from `addr` taking `ticks` into the table. */
static void site_add(int fn, const void *addr, uint64_t calls, uint64_t ticks)
{
	uint64_t h = ((uint64_t)(uintptr_t)addr >> 2) ^ ((uint64_t)fn << 20);
	unsigned i = (unsigned)((h * 0x9e3779b97f4a7c15u) >> 52) & (SITES - 1);
	for (unsigned n = 0; n < 64; n++, i = (i + 1) & (SITES - 1)) {
		struct csite *s = &C.site[i];
		if (!s->addr) {
			s->addr = addr;
			s->fn = fn;
		}
		if (s->addr == addr && s->fn == fn) {
			s->calls += calls;
			s->ticks += ticks;
			return;
		}
	}
	C.other_calls[fn] += calls;
	C.other_ticks[fn] += ticks;
}

void pmk__mpi_comm_call(int fn, uint64_t ticks, uint64_t sent, uint64_t recv,
			const void *addr)
{
	struct pmk__mpi_cfn *c = &pmk__mpi_cfn[fn];
	int t = lock();
	c->hist[pmk__mpi_bucket(sent ? sent : recv)]++;
	if (ticks != UINT64_MAX) {
		if (ticks < c->min)
			c->min = ticks;
		if (ticks > c->max)
			c->max = ticks;
	} else
		ticks = 0; /* untimed (sampled timing): counted, no time */
	site_add(fn, addr, 1, ticks);
	unlock(t);
}

/* A wrapper's cache held another site: what it counted goes to the table,
 * and it holds this one from now on. */
/* A send's time, when its site's cache holds another site (counted
 * before the call: pmk__mpi_exact_first found no room for it) */
void pmk__mpi_site_ticks(int fn, const void *addr, uint64_t ticks)
{
	site_add(fn, addr, 0, ticks);
}

void pmk__mpi_site_miss(struct pmk__mpi_site1 *s, int fn, const void *addr,
			uint64_t ticks)
{
	if (s->addr)
		site_add(s->fn, s->addr, s->calls, s->ticks);
	else if (C.ncache < (int)(sizeof C.cache / sizeof C.cache[0]))
		C.cache[C.ncache++] = s;
	else {
		/* no room to find it again at MPI_Finalize: no cache */
		site_add(fn, addr, 1, ticks);
		return;
	}
	s->addr = addr;
	s->fn = fn;
	s->calls = 1;
	s->ticks = ticks;
}

/* ---- symbolizing the call sites ------------------------------------------ */

#define MAX_DSOS 16
static struct dso {
	char path[4096];
	pmk__symtab *st;
} dso[MAX_DSOS];
static int ndso;

static pmk__symtab *dso_symtab(const char *path)
{
	for (int i = 0; i < ndso; i++)
		if (!strcmp(dso[i].path, path))
			return dso[i].st;
	if (ndso == MAX_DSOS)
		return NULL;
	snprintf(dso[ndso].path, sizeof dso[ndso].path, "%s", path);
	dso[ndso].st = pmk__symtab_open(path);
	return dso[ndso++].st;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* "function (file.c:42)", else "function+0x12 (dso)", else "dso+0x1234" */
static void symbolize(const void *addr, char *out, size_t n)
{
	Dl_info info;
	struct link_map *lm = NULL;
	char exe[4096];
	const char *path;
	uint64_t vaddr, start = 0, size = 0;
	const char *fname, *file = NULL;
	pmk__symtab *st;
	int line = 0;
	if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) {
		snprintf(out, n, "%p", addr);
		return;
	}
	path = lm->l_name;
	if (!path || !*path) {
		ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
		exe[k > 0 ? k : 0] = 0;
		path = exe;
	}
	/* the call instruction, just before the return address */
	vaddr = (uint64_t)(uintptr_t)addr - 1 - (uint64_t)lm->l_addr;
	st = dso_symtab(path);
	fname = st ? pmk__symtab_function(st, vaddr, &start, &size) : NULL;
	if (!fname && info.dli_sname) {
		fname = info.dli_sname;
		start =
		    (uint64_t)(uintptr_t)info.dli_saddr - (uint64_t)lm->l_addr;
	}
	if (st && pmk__symtab_line(st, vaddr, &file, &line) == 0 && file)
		snprintf(out, n, "%.80s (%.60s:%d)", fname ? fname : "?",
			 base_name(file), line);
	else if (fname)
		snprintf(out, n, "%.80s+0x%llx (%.50s)", fname,
			 (unsigned long long)(vaddr + 1 - start),
			 base_name(path));
	else
		snprintf(out, n, "%.100s+0x%llx", base_name(path),
			 (unsigned long long)(vaddr + 1));
}

int pmk__mpi_comm_record(struct pmk__mpi_rank *r, double k)
{
	struct pmk__mpi_comm *c = pmk__mpi_comm_new();
	if (!c)
		return PMK_ENOMEM;
	r->comm = c;
	for (int d = 0; d < pmk__mpi_nto; d++)
		if (pmk__mpi_to[d].calls) {
			struct pmk__mpi_peer *p = pmk__mpi_comm_peer(c, d);
			if (!p)
				return PMK_ENOMEM;
			p->calls = pmk__mpi_to[d].calls;
			p->bytes = pmk__mpi_to[d].bytes;
		}
	for (int f = 0; f < PMK__MPI_NFUNCS; f++)
		if (is_coll[f]) {
			c->coll_calls += pmk__mpi_fs[f].calls;
			c->coll_bytes += pmk__mpi_fs[f].sent;
		}
	/* the wrappers' caches into the table */
	for (int i = 0; i < C.ncache; i++) {
		struct pmk__mpi_site1 *s = C.cache[i];
		if (s->addr && s->calls)
			site_add(s->fn, s->addr, s->calls, s->ticks);
		s->calls = s->ticks = 0;
	}
	for (int f = 0; f < PMK__MPI_NFUNCS; f++) {
		struct pmk__mpi_fsize *s;
		uint64_t calls = 0;
		for (int b = 0; b < PMK__MPI_HBUCKETS; b++)
			calls += pmk__mpi_cfn[f].hist[b];
		if (!calls)
			continue;
		if (!(s = pmk__mpi_comm_fsize(c, fn_name[f])))
			return PMK_ENOMEM;
		if (pmk__mpi_cfn[f].min != UINT64_MAX) {
			s->min_ns = (uint64_t)(pmk__mpi_cfn[f].min * k + 0.5);
			s->max_ns = (uint64_t)(pmk__mpi_cfn[f].max * k + 0.5);
		}
		memcpy(s->hist, pmk__mpi_cfn[f].hist, sizeof s->hist);
	}
	for (int i = 0; i < SITES; i++) {
		struct pmk__mpi_site *s;
		char at[160];
		if (!C.site[i].addr)
			continue;
		symbolize(C.site[i].addr, at, sizeof at);
		/* two addresses may symbolize alike (one line, two calls) */
		if (!(s = pmk__mpi_comm_site(c, fn_name[C.site[i].fn], at)))
			return PMK_ENOMEM;
		s->calls += C.site[i].calls;
		s->ns += (uint64_t)(C.site[i].ticks * k + 0.5);
	}
	for (int f = 0; f < PMK__MPI_NFUNCS; f++)
		if (C.other_calls[f]) {
			struct pmk__mpi_site *s =
			    pmk__mpi_comm_site(c, fn_name[f], "(other sites)");
			if (!s)
				return PMK_ENOMEM;
			s->calls += C.other_calls[f];
			s->ns += (uint64_t)(C.other_ticks[f] * k + 0.5);
		}
	for (int i = 0; i < ndso; i++)
		pmk__symtab_free(dso[i].st);
	ndso = 0;
	pmk__mpi_nto = 0;
	free(pmk__mpi_to);
	pmk__mpi_to = NULL;
	return 0;
}
