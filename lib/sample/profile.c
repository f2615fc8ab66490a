/*
 * profile.c: load a record file into a profile. Two passes over the file:
 * the first collects events, maps (per process, with fork parents as a
 * fallback, so the order in which per-CPU rings were drained never matters),
 * lost counts and the finish record; the second turns each sample into
 * distinct locations (DSO, offset) and distinct stacks, counted per event.
 * Symbols are looked up once per location, and each DSO is opened and
 * indexed once, on first use.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sample/demangle.h"
#include "sample/perfdata.h"
#include "sample/profile.h"
#include "sample/rec_format.h"
#include "sample/tpfmt.h"

uint64_t pmk__hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static int idx_grow(struct idx *ix)
{
	size_t ncap = ix->cap ? ix->cap * 2 : 1024;
	uint32_t *ns = calloc(ncap, sizeof *ns);
	uint32_t *nh = calloc(ncap, sizeof *nh);
	if (!ns || !nh) {
		free(ns);
		free(nh);
		return -1;
	}
	for (size_t i = 0; i < ix->cap; i++) {
		size_t j;
		if (!ix->slot[i])
			continue;
		j = ix->hv[i] & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = ix->slot[i];
		nh[j] = ix->hv[i];
	}
	free(ix->slot);
	free(ix->hv);
	ix->slot = ns;
	ix->hv = nh;
	ix->cap = ncap;
	return 0;
}

int pmk__idx_find(struct idx *ix, uint64_t h, int (*eq)(void *, uint32_t),
		  void *ctx, uint32_t fresh, int *inserted)
{
	size_t j;
	*inserted = 0;
	/* at most 3/4 full: 8 bytes a slot, 11 to 21 bytes an entry */
	if ((ix->n + 1) * 4 > ix->cap * 3 && idx_grow(ix) != 0)
		return -1;
	j = h & (ix->cap - 1);
	while (ix->slot[j]) {
		if (ix->hv[j] == (uint32_t)h && eq(ctx, ix->slot[j] - 1))
			return (int)(ix->slot[j] - 1);
		j = (j + 1) & (ix->cap - 1);
	}
	ix->slot[j] = fresh + 1;
	ix->hv[j] = (uint32_t)h;
	ix->n++;
	*inserted = 1;
	return (int)fresh;
}

void pmk__idx_free(struct idx *ix)
{
	free(ix->slot);
	free(ix->hv);
	memset(ix, 0, sizeof *ix);
}

uint64_t pmk__zero_counts[2 * PMK_REC_MAX_EVENTS];

/* A zeroed count entry (p->stride samples, then p->stride periods) in the
 * count blocks; NULL when out of memory. Blocks double up to 64 Ki entries
 * and never move. */
static uint64_t *cnt_new(pmk_profile *p)
{
	struct cntblk *b = p->cnt;
	size_t w = 2 * (size_t)p->stride;
	if (!b || b->used == b->cap) {
		size_t cap = b ? (b->cap < 65536 ? b->cap * 2 : b->cap) : 64;
		b = calloc(1, sizeof *b + cap * w * sizeof *b->v);
		if (!b)
			return NULL;
		b->cap = cap;
		b->next = p->cnt;
		p->cnt = b;
	}
	return b->v + w * b->used++;
}

static void cnt_free(struct cntblk *b)
{
	while (b) {
		struct cntblk *n = b->next;
		free(b);
		b = n;
	}
}

/* Widen every count entry to `stride` events (a sample named an event
 * beyond the file's EVENT records: at most PMK_REC_MAX_EVENTS times, each
 * linear in the entries). */
static int restride(pmk_profile *p, int stride)
{
	struct cntblk *old = p->cnt;
	int os = p->stride;
	p->cnt = NULL;
	p->stride = stride;
	for (size_t i = 0; i < p->nloc + p->nstk; i++) {
		uint64_t **sp = i < p->nloc ? &p->loc[i].samples
					    : &p->stk[i - p->nloc].samples;
		uint64_t **pp = i < p->nloc ? &p->loc[i].period
					    : &p->stk[i - p->nloc].period;
		uint64_t *n;
		if (*sp == pmk__zero_counts)
			continue;
		n = cnt_new(p);
		if (!n) { /* both lists are freed with the profile */
			struct cntblk **t = &p->cnt;
			while (*t)
				t = &(*t)->next;
			*t = old;
			return -1;
		}
		memcpy(n, *sp, (size_t)os * sizeof *n);
		memcpy(n + stride, *pp, (size_t)os * sizeof *n);
		*sp = n;
		*pp = n + stride;
	}
	cnt_free(old);
	return 0;
}

static int grow(void **v, size_t *cap, size_t need, size_t elem)
{
	void *nv;
	size_t nc;
	if (need <= *cap)
		return 0;
	nc = *cap ? *cap * 2 : 64;
	while (nc < need)
		nc *= 2;
	nv = realloc(*v, nc * elem);
	if (!nv)
		return -1;
	*v = nv;
	*cap = nc;
	return 0;
}

/* ---- processes ---- */

struct pid_ctx {
	pmk_profile *p;
	uint32_t pid;
};
static int pid_eq(void *c, uint32_t i)
{
	struct pid_ctx *x = c;
	return x->p->proc[i].pid == x->pid;
}

static struct proc *proc_get(pmk_profile *p, uint32_t pid, int create)
{
	struct pid_ctx c = {p, pid};
	int ins, i;
	if (!create) {
		/* lookup only */
		size_t j;
		uint64_t h = pmk__hash64(pid);
		if (!p->proc_idx.cap)
			return NULL;
		j = h & (p->proc_idx.cap - 1);
		while (p->proc_idx.slot[j]) {
			uint32_t k = p->proc_idx.slot[j] - 1;
			if (p->proc[k].pid == pid)
				return &p->proc[k];
			j = (j + 1) & (p->proc_idx.cap - 1);
		}
		return NULL;
	}
	if (grow((void **)&p->proc, &p->capproc, p->nproc + 1, sizeof *p->proc))
		return NULL;
	i = pmk__idx_find(&p->proc_idx, pmk__hash64(pid), pid_eq, &c,
			  (uint32_t)p->nproc, &ins);
	if (i < 0)
		return NULL;
	if (ins) {
		memset(&p->proc[i], 0, sizeof p->proc[i]);
		p->proc[i].pid = pid;
		p->nproc++;
	}
	return &p->proc[i];
}

/* ---- DSOs ---- */

static const char unknown_name[] = "[unknown]";

/* DSOs by path and build id, through p->dso_idx (linear time in the
 * number of MAP records: 100,000 distinct paths took over 15 s when each
 * was compared with every DSO before it). */
struct dso_ctx {
	pmk_profile *p;
	const pmk_rec_map *m;
};
static int dso_eq(void *c, uint32_t i)
{
	struct dso_ctx *x = c;
	const struct pdso *d = &x->p->dso[i];
	return (int)i < x->p->ndso && d->kind == PDSO_FILE &&
	       !strcmp(d->path, x->m->path) &&
	       d->bidlen == x->m->build_id_len &&
	       !memcmp(d->bid, x->m->build_id, x->m->build_id_len);
}

static uint64_t dso_hash(const pmk_rec_map *m)
{
	/* FNV-1a over path, build id */
	uint64_t h = pmk__str_hash(PMK__STR_HASH0, m->path);
	for (uint32_t i = 0; i < m->build_id_len && i < 20; i++)
		h = (h ^ m->build_id[i]) * 1099511628211u;
	return pmk__hash64(h);
}

static int dso_get(pmk_profile *p, const pmk_rec_map *m)
{
	const char *base;
	struct dso_ctx c = {p, m};
	int i, ins;
	{
		size_t cap = (size_t)p->capdso;
		if (grow((void **)&p->dso, &cap, (size_t)p->ndso + 1,
			 sizeof *p->dso))
			return DSO_UNKNOWN;
		p->capdso = (int)cap;
	}
	i = pmk__idx_find(&p->dso_idx, dso_hash(m), dso_eq, &c,
			  (uint32_t)p->ndso, &ins);
	if (i < 0)
		return DSO_UNKNOWN;
	if (!ins)
		return i;
	{
		struct pdso *d = &p->dso[p->ndso];
		memset(d, 0, sizeof *d);
		d->path = strdup(m->path);
		if (!d->path)
			return DSO_UNKNOWN;
		base = strrchr(d->path, '/');
		d->base = base && base[1] ? (char *)base + 1 : d->path;
		d->bidlen = m->build_id_len;
		memcpy(d->bid, m->build_id, m->build_id_len);
		d->size = m->size;
		d->mtime = m->mtime_ns;
		d->unk = malloc(strlen(d->base) + 3);
		if (d->unk)
			sprintf(d->unk, "[%s]", d->base);
		else
			d->unk = (char *)unknown_name;
	}
	return p->ndso++;
}

/* A DSO that is no file: a kernel module ("[name]") or a JIT map. */
static int dso_pseudo(pmk_profile *p, const char *path, const char *base,
		      int kind)
{
	struct pdso *d;
	size_t cap = (size_t)p->capdso;
	for (int i = 2; i < p->ndso; i++)
		if (p->dso[i].kind == kind && !strcmp(p->dso[i].path, path))
			return i;
	if (grow((void **)&p->dso, &cap, (size_t)p->ndso + 1, sizeof *p->dso))
		return DSO_UNKNOWN;
	p->capdso = (int)cap;
	d = &p->dso[p->ndso];
	memset(d, 0, sizeof *d);
	d->kind = kind;
	d->tried = 1; /* no ELF file to open */
	d->path = strdup(path);
	d->unk = malloc(strlen(base) + 3);
	if (!d->path || !d->unk) {
		free(d->path);
		free(d->unk);
		return DSO_UNKNOWN;
	}
	d->base = d->path + (strlen(path) - strlen(base));
	sprintf(d->unk, base[0] == '[' ? "%s" : "[%s]", base);
	return p->ndso++;
}

/* The running kernel's symbols: read once per process (some 120,000
 * lines) and shared by every profile; never freed. */
static pmk__ksyms *kallsyms_shared;
static pthread_once_t kallsyms_once = PTHREAD_ONCE_INIT;
static void kallsyms_load(void)
{
	kallsyms_shared = pmk__ksyms_kallsyms("/proc/kallsyms");
}

static pmk__ksyms *kallsyms(pmk_profile *p)
{
	if (!p->ks_tried) {
		p->ks_tried = 1;
		pthread_once(&kallsyms_once, kallsyms_load);
		p->kallsyms = kallsyms_shared;
	}
	return p->kallsyms;
}

/* The JIT map of process `pid` (/tmp/perf-PID.map), as a DSO; -1 when the
 * process wrote none. */
static int jit_dso(pmk_profile *p, struct proc *pr)
{
	char path[320], base[64];
	pmk__ksyms *k;
	int d;
	if (pr->jit)
		return pr->jit;
	pr->jit = -1;
	snprintf(base, sizeof base, "perf-%u.map", pr->pid);
	snprintf(path, sizeof path, "%s/%s", p->jitdir[0] ? p->jitdir : "/tmp",
		 base);
	k = pmk__ksyms_perfmap(path);
	if (!k)
		return -1;
	d = dso_pseudo(p, path, base, PDSO_JIT);
	if (d < 2) {
		pmk__ksyms_free(k);
		return -1;
	}
	p->dso[d].jit = k;
	pr->jit = d;
	return d;
}

const char *pmk__dso_name(const pmk_profile *p, int dso)
{
	if (dso == DSO_KERNEL)
		return "[kernel]";
	if (dso == DSO_UNKNOWN || dso >= p->ndso)
		return "[unknown]";
	return p->dso[dso].base;
}

pmk__symtab *pmk__dso_symtab(pmk_profile *p, int i)
{
	struct pdso *d = &p->dso[i];
	if (d->tried)
		return d->st;
	d->tried = 1;
	d->st = pmk__symtab_open(d->path);
	if (d->st) {
		const uint8_t *bid;
		int n = pmk__symtab_build_id(d->st, &bid);
		p->st.dsos_opened++;
		if (d->bidlen && n) {
			d->changed = (uint32_t)n != d->bidlen ||
				     memcmp(bid, d->bid, (size_t)n);
		} else if (d->size) {
			struct stat sb;
			d->changed = stat(d->path, &sb) != 0 ||
				     (uint64_t)sb.st_size != d->size ||
				     (uint64_t)sb.st_mtim.tv_sec * 1000000000u +
					     (uint64_t)sb.st_mtim.tv_nsec !=
					 d->mtime;
		}
		if (d->changed)
			p->st.dsos_changed++;
	}
	return d->st;
}

static void add_map(pmk_profile *p, const pmk_rec_map *m)
{
	struct proc *pr = proc_get(p, m->pid, 1);
	size_t cap;
	if (!pr || m->len == 0)
		return;
	cap = (size_t)pr->cap;
	if (grow((void **)&pr->maps, &cap, (size_t)pr->nmap + 1,
		 sizeof *pr->maps))
		return;
	pr->cap = (int)cap;
	pr->maps[pr->nmap].start = m->start;
	pr->maps[pr->nmap].end = m->start + m->len;
	pr->maps[pr->nmap].pgoff = m->pgoff;
	pr->maps[pr->nmap].dso = dso_get(p, m);
	/* files written before --data recorded data maps, and writers that
	 * leave prot 0, have executable maps only */
	pr->maps[pr->nmap].data = m->prot && !(m->prot & 4);
	pr->nmap++;
}

/* The DSO and offset of `ip` in process `pid`: its own maps, newest first,
 * then its fork parents'. */
/* Code in no file: "//anon", "[anon:...]", "[heap]", memfd's... */
static int anon_code(const char *path)
{
	if (!strcmp(path, "[vdso]"))
		return 0;
	return path[0] != '/' || path[1] == '/' ||
	       !strncmp(path, "/memfd:", 7) || strstr(path, " (deleted)");
}

/* `kernel`: 1 when the sample says so, 2 when only the address does (a
 * call-chain entry in the kernel half: with the kernel's symbols readable,
 * one outside every kernel function is garbage, [unknown]). */
static int resolve_ip(pmk_profile *p, uint32_t pid, uint64_t ip, int kernel,
		      uint64_t *off)
{
	struct proc *self = proc_get(p, pid, 0);
	*off = ip;
	if (kernel) {
		pmk__ksyms *k = kallsyms(p);
		const char *mod = NULL;
		if (!k)
			return DSO_KERNEL;
		if (!pmk__ksyms_lookup(k, ip, NULL, &mod))
			return kernel == 2 ? DSO_UNKNOWN : DSO_KERNEL;
		return mod ? dso_pseudo(p, mod, mod + 0, PDSO_KMOD)
			   : DSO_KERNEL;
	}
	for (int depth = 0; depth < 16; depth++) {
		struct proc *pr = proc_get(p, pid, 0);
		if (!pr)
			break;
		for (int i = pr->nmap - 1; i >= 0; i--) {
			const struct pmap *m = &pr->maps[i];
			if (!m->data && ip >= m->start && ip < m->end) {
				const char *path = p->dso[m->dso].path;
				/* anonymous code: a JIT's, when it says so */
				if (m->dso >= 2 && anon_code(path) && self &&
				    jit_dso(p, self) >= 2 &&
				    pmk__ksyms_lookup(
					p->dso[self->jit].jit, ip, NULL, NULL))
					return self->jit;
				*off = ip - m->start + m->pgoff;
				return m->dso;
			}
		}
		if (!pr->has_parent || pr->ppid == pid)
			break;
		pid = pr->ppid;
	}
	if (self && jit_dso(p, self) >= 2 &&
	    pmk__ksyms_lookup(p->dso[self->jit].jit, ip, NULL, NULL))
		return self->jit;
	return DSO_UNKNOWN;
}

/* ---- locations and stacks ---- */

struct loc_ctx {
	pmk_profile *p;
	int dso;
	uint64_t off;
};
static int loc_eq(void *c, uint32_t i)
{
	struct loc_ctx *x = c;
	return x->p->loc[i].dso == x->dso && x->p->loc[i].off == x->off;
}

static int loc_get(pmk_profile *p, int dso, uint64_t off)
{
	struct loc_ctx c = {p, dso, off};
	int ins, i;
	if (grow((void **)&p->loc, &p->caploc, p->nloc + 1, sizeof *p->loc))
		return -1;
	i = pmk__idx_find(
	    &p->loc_idx,
	    pmk__hash64(off ^ ((uint64_t)dso << 52) ^ (uint64_t)dso), loc_eq,
	    &c, (uint32_t)p->nloc, &ins);
	if (i >= 0 && ins) {
		memset(&p->loc[i], 0, sizeof p->loc[i]);
		p->loc[i].dso = dso;
		p->loc[i].off = off;
		p->loc[i].samples = pmk__zero_counts;
		p->loc[i].period = pmk__zero_counts;
		p->nloc++;
	}
	return i;
}

struct stk_ctx {
	pmk_profile *p;
	const uint32_t *f;
	uint32_t n, pid, tid, leaf;
};
static int stk_eq(void *c, uint32_t i)
{
	struct stk_ctx *x = c;
	const struct stack *s = &x->p->stk[i];
	return s->n == x->n && s->pid == x->pid && s->tid == x->tid &&
	       s->leaf == x->leaf &&
	       !memcmp(x->p->frames + s->first, x->f, x->n * sizeof *x->f);
}

/* (pid, address, kernel) -> location, exact since every map is known
 * before the first sample is read. */
static int loc_of(pmk_profile *p, uint32_t pid, uint64_t a, int kern)
{
	uint64_t h = pmk__hash64(a ^ ((uint64_t)pid << 32) ^ (uint64_t)kern);
	struct ipcache *c = &p->ipc[h & (p->ipcap - 1)];
	uint64_t off;
	int dso, l;
	if (c->loc && c->ip == a && c->pid == pid && c->kern == (uint32_t)kern)
		return (int)c->loc - 1;
	dso = resolve_ip(p, pid, a, kern, &off);
	if (dso == DSO_UNKNOWN)
		p->st.unresolved++;
	l = loc_get(p, dso, off);
	if (l >= 0 && p->nloc > p->ipcap && p->ipcap < PMK__IPCACHE) {
		/* a cache twice as large, empty (it is only a cache) */
		struct ipcache *n = calloc(p->ipcap * 2, sizeof *n);
		if (n) {
			free(p->ipc);
			p->ipc = n;
			p->ipcap *= 2;
			c = &p->ipc[h & (p->ipcap - 1)];
		}
	}
	if (l >= 0) {
		c->ip = a;
		c->pid = pid;
		c->kern = (uint32_t)kern;
		c->loc = (uint32_t)l + 1;
	}
	return l;
}

int pmk__loc_at(pmk_profile *p, uint32_t pid, uint64_t a, int kern)
{
	return loc_of(p, pid, a, kern);
}

/* A task's command: its own (a COMM record: exec, prctl, or the maps
 * synthesized at attach), else its process's, else what it inherited at
 * fork (a child that did not exec keeps its parent's name, as perf shows
 * it), else the recorded command's. */
const char *pmk__comm(pmk_profile *p, uint32_t pid, uint32_t tid)
{
	struct proc *pr = proc_get(p, tid, 0);
	if (pr && pr->comm[0])
		return pr->comm;
	for (int depth = 0; depth < 16; depth++) {
		pr = proc_get(p, pid, 0);
		if (!pr)
			break;
		if (pr->comm[0])
			return pr->comm;
		if (!pr->has_parent || pr->ppid == pid)
			break;
		pid = pr->ppid;
	}
	return p->st.command[0] ? p->st.command : "?";
}

struct proc *pmk__proc_find(pmk_profile *p, uint32_t pid)
{
	return proc_get(p, pid, 0);
}

static int is_kernel_addr(uint64_t a)
{
	return (a >> 63) != 0; /* x86-64 and arm64 kernel half */
}

int pmk__dso_is_kernel(const pmk_profile *p, int dso)
{
	return dso == DSO_KERNEL ||
	       (dso >= 2 && dso < p->ndso && p->dso[dso].kind == PDSO_KMOD);
}

const char *pmk__dso_perf_name(const pmk_profile *p, int dso, int path)
{
	if (dso == DSO_KERNEL)
		return "[kernel.kallsyms]";
	if (dso == DSO_UNKNOWN || dso >= p->ndso)
		return "[unknown]";
	if (p->dso[dso].kind == PDSO_KMOD)
		return path ? "[kernel.kallsyms]" : p->dso[dso].unk;
	return path ? p->dso[dso].path : p->dso[dso].base;
}

const char *pmk__dso_perf_name_in(const pmk_profile *p, int dso,
				  uint32_t pid, int path, char *buf,
				  size_t size)
{
	const char *f;
	if (dso < 2 || dso >= p->ndso)
		return pmk__dso_perf_name(p, dso, path);
	f = p->dso[dso].path;
	/* perf's anonymous memory: //anon, /dev/zero, /anon_hugepage */
	if (p->dso[dso].kind != PDSO_JIT && strcmp(f, "//anon") &&
	    strncmp(f, "/dev/zero", 9) && strncmp(f, "/anon_hugepage", 14))
		return pmk__dso_perf_name(p, dso, path);
	snprintf(buf, size, path ? "/tmp/perf-%u.map" : "[JIT] tid %u", pid);
	return buf;
}

int pmk__loc_nosym(const pmk_profile *p, const struct loc *l)
{
	return l->dso >= 2 && !pmk__dso_is_kernel(p, l->dso) && l->func &&
	       l->func == p->dso[l->dso].unk;
}

static int add_sample(pmk_profile *p, const pmk_sample *s)
{
	uint32_t f[PMK_REC_MAX_CHAIN + 1], n = 0, nchain = s->nchain;
	uint64_t both[PMK_REC_MAX_CHAIN];
	const uint64_t *chain = s->chain;
	int leaf;
	int kern = (s->flags & PMK_SAMPLE_KERNEL) != 0;
	if (s->flags & PMK_SAMPLE_HAS_USTACK) {
		/* the kernel's frames, then the user frames unwound from the
		 * stack copy */
		uint32_t k = nchain < PMK_REC_MAX_CHAIN ? nchain : 0;
		memcpy(both, s->chain, k * sizeof *both);
		static const struct pmk__unwind_env env = {pmk__proc_find,
							   pmk__dso_symtab};
		k += (uint32_t)pmk__unwind(p, &env, &p->uw, s, both + k,
					   PMK_REC_MAX_CHAIN - (int)k);
		chain = both;
		nchain = k;
	}
	if (s->event >= PMK_REC_MAX_EVENTS)
		return PMK_EFORMAT;
	if ((int)s->event >= p->nevents) {
		/* its EVENT record was damaged (the reader counted it) or is
		 * missing: keep the samples under a placeholder name */
		snprintf(p->ev[s->event].name, sizeof p->ev[s->event].name,
			 "event%u", s->event);
		p->nevents = (int)s->event + 1;
		p->st.nevents = p->nevents;
	}
	if ((int)s->event >= p->stride && restride(p, (int)s->event + 1))
		return PMK_ENOMEM;
	leaf = loc_of(p, s->pid, s->ip, kern);
	if (leaf < 0)
		return PMK_ENOMEM;
	if (p->loc[leaf].samples == pmk__zero_counts) {
		uint64_t *c = cnt_new(p);
		if (!c)
			return PMK_ENOMEM;
		p->loc[leaf].samples = c;
		p->loc[leaf].period = c + p->stride;
	}
	p->loc[leaf].samples[s->event]++;
	p->loc[leaf].period[s->event] =
	    pmk__sat_add(p->loc[leaf].period[s->event], s->period);
	p->st.samples[s->event]++;
	p->st.period[s->event] =
	    pmk__sat_add(p->st.period[s->event], s->period);
	if (s->flags & PMK_SAMPLE_HAS_ADDR) {
		struct dsample *ds;
		if (grow((void **)&p->dsamp, &p->capdsamp, p->ndsamp + 1,
			 sizeof *p->dsamp))
			return PMK_ENOMEM;
		ds = &p->dsamp[p->ndsamp++];
		ds->addr = s->addr;
		ds->period = s->period;
		ds->pid = s->pid;
		ds->event = s->event;
	}
	if (nchain) {
		p->has_chains = 1;
		for (uint32_t i = 0; i < nchain; i++) {
			uint64_t a = chain[i];
			int k = is_kernel_addr(a) ? 2 : 0;
			/* callers: look up the call, not the return address */
			int l = loc_of(p, s->pid,
				       pmk__chain_ret(chain, i) ? a - 1 : a, k);
			if (l < 0)
				return PMK_ENOMEM;
			f[n++] = (uint32_t)l;
		}
	} else {
		f[n++] = (uint32_t)leaf;
	}
	if (!p->t_any++ || s->time_ns < p->t_first)
		p->t_first = s->time_ns;
	if (s->time_ns > p->t_last)
		p->t_last = s->time_ns;
	if (p->hook)
		p->hook(p, s, nchain ? chain : &s->ip, f, n, nchain > 0,
			p->hook_ctx);
	{
		struct stk_ctx c = {p, f, n, s->pid, s->tid, (uint32_t)leaf};
		uint64_t h = pmk__hash64(((uint64_t)s->pid << 32 | s->tid) ^
					 (uint64_t)leaf << 20);
		int ins, i;
		for (uint32_t k = 0; k < n; k++)
			h = pmk__hash64(h ^ f[k]);
		if (grow((void **)&p->stk, &p->capstk, p->nstk + 1,
			 sizeof *p->stk))
			return PMK_ENOMEM;
		i = pmk__idx_find(&p->stk_idx, h, stk_eq, &c, (uint32_t)p->nstk,
				  &ins);
		if (i < 0)
			return PMK_ENOMEM;
		if (ins) {
			uint64_t *cn = cnt_new(p);
			if (!cn || grow((void **)&p->frames, &p->capframes,
					p->nframes + n, sizeof *p->frames))
				return PMK_ENOMEM; /* the load fails */
			memset(&p->stk[i], 0, sizeof p->stk[i]);
			p->stk[i].samples = cn;
			p->stk[i].period = cn + p->stride;
			p->stk[i].first = (uint32_t)p->nframes;
			p->stk[i].n = n;
			p->stk[i].pid = s->pid;
			p->stk[i].tid = s->tid;
			p->stk[i].leaf = (uint32_t)leaf;
			memcpy(p->frames + p->nframes, f, n * sizeof *f);
			p->nframes += n;
			p->nstk++;
		}
		p->stk[i].samples[s->event]++;
		p->stk[i].period[s->event] += s->period;
	}
	return 0;
}

static int dm_eq(void *c, uint32_t i)
{
	const char **x = c;
	return ((pmk_profile *)x[0])->dm_from[i] == x[1];
}

/* The readable form of `name` (kept for the profile's life), or `name`. */
static const char *demangled(pmk_profile *p, const char *name)
{
	const void *ctx[2] = {p, name};
	uint64_t h = pmk__hash64((uint64_t)(uintptr_t)name);
	int ins, i;
	char *d;
	if (p->mangled || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return name;
	if (grow((void **)&p->dm_from, &p->capdm, p->ndm + 1,
		 sizeof *p->dm_from))
		return name;
	{
		size_t cap = p->capdm;
		void *nt = realloc(p->dm_to, cap * sizeof *p->dm_to);
		if (!nt)
			return name;
		p->dm_to = nt;
	}
	i = pmk__idx_find(&p->dm_idx, h, dm_eq, ctx, (uint32_t)p->ndm, &ins);
	if (i < 0)
		return name;
	if (!ins)
		return p->dm_to[i] ? p->dm_to[i] : name;
	d = pmk__demangle(name);
	p->dm_from[i] = name;
	p->dm_to[i] = d;
	p->ndm++;
	return d ? d : name;
}

void pmk_profile_set_mangled(pmk_profile *p, int keep)
{
	p->mangled = keep != 0;
	for (size_t i = 0; i < p->nloc; i++)
		p->loc[i].resolved = 0;
}

void pmk__loc_resolve(pmk_profile *p, struct loc *l, int lines)
{
	pmk__symtab *st;
	if (!l->resolved) {
		l->resolved = 1;
		l->vaddr = l->off;
		if (l->dso == DSO_KERNEL || (l->dso >= 2 &&
					     p->dso[l->dso].kind == PDSO_KMOD)) {
			pmk__ksyms *k = kallsyms(p);
			l->func = k ? pmk__ksyms_lookup(k, l->off, &l->fstart,
							NULL)
				    : NULL;
			if (!l->func)
				l->func = l->dso == DSO_KERNEL
					      ? "[kernel]"
					      : p->dso[l->dso].unk;
		} else if (l->dso == DSO_UNKNOWN) {
			l->func = "[unknown]";
		} else if (p->dso[l->dso].kind == PDSO_JIT) {
			l->func = pmk__ksyms_lookup(p->dso[l->dso].jit, l->off,
						    &l->fstart, NULL);
			if (!l->func)
				l->func = p->dso[l->dso].unk;
		} else {
			st = pmk__dso_symtab(p, l->dso);
			l->func = NULL;
			if (st) {
				uint64_t fsize = 0;
				l->vaddr = pmk__symtab_vaddr(st, l->off);
				l->func = pmk__symtab_function(
				    st, l->vaddr, &l->fstart, &fsize);
				l->fsize = fsize < UINT32_MAX ? (uint32_t)fsize
							      : UINT32_MAX;
			}
			if (!l->func)
				l->func = p->dso[l->dso].unk;
			else
				l->func = demangled(p, l->func);
		}
	}
	if (lines && !l->line_done) {
		l->line_done = 1;
		if (l->dso >= 2 && p->dso[l->dso].kind == PDSO_FILE &&
		    (st = pmk__dso_symtab(p, l->dso)) != NULL)
			pmk__symtab_line(st, l->vaddr, &l->file, &l->line);
	}
}

/* ---- loading ---- */

static int pass(pmk_profile *p, const void *buf, size_t len, int second,
		pmk_diag *d)
{
	pmk_rec_reader *r;
	pmk_rec_item it;
	int rc;
	rc = pmk_rec_reader_open_mem(&r, buf, len, d);
	if (rc)
		return rc;
	pmk__rec_reader_tolerant(r);
	if (!second) /* samples are decoded (and checked) in the second pass */
		pmk__rec_reader_skip(r, PMK_REC_SAMPLE);
	while ((rc = pmk_rec_next(r, &it, d)) == 1) {
		if (!second) {
			p->st.records++;
			switch (it.kind) {
			case PMK_REC_EVENT:
				p->ev[it.u.event.index] = it.u.event;
				if ((int)it.u.event.index >= p->nevents)
					p->nevents = (int)it.u.event.index + 1;
				break;
			case PMK_REC_FORMAT:
				if (!p->tpfmt[it.u.format.event])
					p->tpfmt[it.u.format.event] =
					    pmk__tpfmt_parse(it.u.format.text);
				break;
			case PMK_REC_MAP:
				add_map(p, &it.u.map);
				break;
			case PMK_REC_FORK:
				if (it.u.task.pid != it.u.task.ppid) {
					struct proc *pr =
					    proc_get(p, it.u.task.pid, 1);
					if (pr) {
						pr->ppid = it.u.task.ppid;
						pr->has_parent = 1;
					}
				}
				break;
			case PMK_REC_COMM: {
				struct proc *pr = proc_get(p, it.u.comm.tid, 1);
				if (!p->st.command[0] && it.u.comm.exec)
					snprintf(p->st.command,
						 sizeof p->st.command, "%s",
						 it.u.comm.comm);
				if (pr)
					snprintf(pr->comm, sizeof pr->comm,
						 "%s", it.u.comm.comm);
				break;
			}
			case PMK_REC_LOST:
				p->st.lost += it.u.lost.count;
				break;
			case PMK_REC_FINISH:
				p->st.has_finish = 1;
				p->st.finish = it.u.finish;
				break;
			default:
				break;
			}
		} else if (it.kind == PMK_REC_SAMPLE) {
			rc = add_sample(p, &it.u.sample);
			if (rc == PMK_EFORMAT) { /* an event not described */
				if (!p->skipped++) {
					p->first_skip = it.offset;
				}
				rc = 1;
				continue;
			}
			if (rc < 0) {
				pmk_diag_clear(d);
				if (d) {
					d->code = rc;
					snprintf(d->message, sizeof d->message,
						 "%s (sample at byte %llu)",
						 rc == PMK_EFORMAT
						     ? "sample of an event "
						       "the file does not "
						       "describe"
						     : "out of memory",
						 (unsigned long long)it.offset);
				}
				break;
			}
		}
	}
	p->st.truncated_bytes = pmk_rec_reader_truncated(r);
	if (second) {
		uint64_t bytes, first;
		const char *why;
		uint64_t n = pmk__rec_reader_damage(r, &bytes, &first, &why);
		p->st.damaged = n + p->skipped;
		p->st.damaged_bytes = bytes;
		if (n) {
			p->st.first_damage = first;
			snprintf(p->st.damage_why, sizeof p->st.damage_why,
				 "%s", why);
		} else if (p->skipped) {
			p->st.first_damage = p->first_skip;
			snprintf(p->st.damage_why, sizeof p->st.damage_why,
				 "sample of an event the file does not "
				 "describe (at byte %llu)",
				 (unsigned long long)p->first_skip);
		}
		if (n && p->skipped && p->first_skip < first)
			p->st.first_damage = p->first_skip;
	}
	pmk_rec_reader_close(r);
	return rc < 0 ? rc : 0;
}

static int load_mem(pmk_profile **pp, const void *buf, size_t len,
		    pmk_diag *d, pmk__sample_hook hook, void *ctx, int mangled);

/* A perf.data file: translated into a record stream in an anonymous
 * in-memory file, then loaded like any record file. */
static int load_perfdata(pmk_profile **pp, const void *buf, size_t len,
			 pmk_diag *d, pmk__sample_hook hook, void *ctx, int mangled)
{
	uint64_t skipped = 0;
	struct stat sb;
	void *m;
	int fd = memfd_create("pmkit-perfdata", MFD_CLOEXEC), rc;
	if (fd < 0)
		return PMK_EIO;
	rc = pmk__perfdata_convert(buf, len, fd, &skipped, d);
	if (!rc && (fstat(fd, &sb) != 0 || sb.st_size <= 0))
		rc = PMK_EIO;
	if (rc) {
		close(fd);
		return rc;
	}
	m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return PMK_EIO;
	rc = load_mem(pp, m, (size_t)sb.st_size, d, hook, ctx, mangled);
	munmap(m, (size_t)sb.st_size);
	if (!rc)
		(*pp)->st.perf_data = 1;
	if (!rc && skipped) {
		(*pp)->st.damaged += skipped;
		if (!(*pp)->st.damage_why[0])
			snprintf((*pp)->st.damage_why,
				 sizeof (*pp)->st.damage_why,
				 "perf.data records that did not parse");
	}
	return rc;
}

static int load_mem(pmk_profile **pp, const void *buf, size_t len,
		    pmk_diag *d, pmk__sample_hook hook, void *ctx, int mangled)
{
	pmk_profile *p;
	int rc;
	*pp = NULL;
	if (pmk__perfdata_is(buf, len))
		return load_perfdata(pp, buf, len, d, hook, ctx, mangled);
	p = calloc(1, sizeof *p);
	if (!p)
		return PMK_ENOMEM;
	p->hook = hook;
	p->hook_ctx = ctx;
	p->mangled = mangled;
	p->ipcap = 256;
	p->ipc = calloc(p->ipcap, sizeof *p->ipc);
	if (!p->ipc) {
		free(p);
		return PMK_ENOMEM;
	}
	p->ndso = 2; /* [kernel], [unknown] */
	p->capdso = 8;
	p->dso = calloc(8, sizeof *p->dso);
	if (!p->dso) {
		free(p->ipc);
		free(p);
		return PMK_ENOMEM;
	}
	rc = pass(p, buf, len, 0, d);
	/* count entries as wide as the events the file describes */
	p->stride = p->nevents > 0 ? p->nevents : 1;
	if (!rc)
		rc = pass(p, buf, len, 1, d);
	if (rc) {
		pmk_profile_free(p);
		return rc;
	}
	p->st.nevents = p->nevents;
	*pp = p;
	return 0;
}

int pmk_profile_load_mem(pmk_profile **pp, const void *buf, size_t len,
			 pmk_diag *d)
{
	return load_mem(pp, buf, len, d, NULL, NULL, 0);
}

static int load_file(pmk_profile **pp, const char *path, pmk_diag *d,
		     pmk__sample_hook hook, void *ctx, int mangled);

int pmk_profile_load(pmk_profile **pp, const char *path, pmk_diag *d)
{
	return load_file(pp, path, d, NULL, NULL, 0);
}

int pmk__profile_load_hook(pmk_profile **pp, const char *path, pmk_diag *d,
			   pmk__sample_hook hook, void *ctx, int mangled)
{
	return load_file(pp, path, d, hook, ctx, mangled);
}

static int load_file(pmk_profile **pp, const char *path, pmk_diag *d,
		     pmk__sample_hook hook, void *ctx, int mangled)
{
	pmk_rec_reader *r;
	const void *buf;
	size_t len;
	int rc;
	*pp = NULL;
	{
		/* a perf.data file? */
		uint8_t magic[8];
		struct stat sb;
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    pread(fd, magic, 8, 0) == 8 &&
		    pmk__perfdata_is(magic, 8)) {
			void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ,
				       MAP_PRIVATE, fd, 0);
			close(fd);
			if (m == MAP_FAILED)
				return PMK_EIO;
			rc = load_mem(pp, m, (size_t)sb.st_size, d, hook, ctx,
				      mangled);
			munmap(m, (size_t)sb.st_size);
			if (rc && d)
				snprintf(d->file, sizeof d->file, "%s", path);
			return rc;
		}
		if (fd >= 0)
			close(fd);
	}
	/* The reader checks the header and maps the file once; the two passes
	 * walk that mapping. */
	rc = pmk_rec_reader_open(&r, path, d);
	if (rc)
		return rc;
	pmk__rec_reader_data(r, &buf, &len);
	rc = load_mem(pp, buf, len, d, hook, ctx, mangled);
	pmk_rec_reader_close(r);
	if (rc && d)
		snprintf(d->file, sizeof d->file, "%s", path);
	return rc;
}

void pmk_profile_stats_get(const pmk_profile *p, pmk_profile_stats *st)
{
	*st = p->st;
	st->data_samples = p->ndsamp;
}

const char *pmk_profile_event_name(const pmk_profile *p, int i)
{
	if (i < 0 || i >= p->nevents)
		return NULL;
	return p->ev[i].name[0] ? p->ev[i].name : "event";
}

int pmk__profile_event_index(const pmk_profile *p, const char *event)
{
	if (!event)
		return 0;
	for (int e = 0; e < p->nevents; e++)
		if (!strcmp(pmk_profile_event_name(p, e), event))
			return e;
	return -1;
}

void pmk_profile_free(pmk_profile *p)
{
	if (!p)
		return;
	for (int i = 2; i < p->ndso; i++) {
		free(p->dso[i].path);
		if (p->dso[i].unk != unknown_name)
			free(p->dso[i].unk);
		pmk__symtab_free(p->dso[i].st);
		pmk__ksyms_free(p->dso[i].jit);
	}
	for (int i = 0; i < PMK_REC_MAX_EVENTS; i++)
		pmk__tpfmt_free(p->tpfmt[i]);
	for (size_t i = 0; i < p->ndm; i++)
		free(p->dm_to[i]);
	free(p->dm_from);
	free(p->dm_to);
	pmk__idx_free(&p->dm_idx);
	free(p->dso);
	for (size_t i = 0; i < p->nproc; i++)
		free(p->proc[i].maps);
	free(p->proc);
	free(p->ipc);
	free(p->loc);
	free(p->stk);
	free(p->frames);
	cnt_free(p->cnt);
	free(p->dsamp);
	pmk__unwinder_free(p->uw);
	pmk__idx_free(&p->proc_idx);
	pmk__idx_free(&p->dso_idx);
	pmk__idx_free(&p->loc_idx);
	pmk__idx_free(&p->stk_idx);
	for (int i = 0; i < p->nrows; i++)
		free(p->keys[i]);
	free(p->keys);
	free(p->rows);
	free(p);
}
