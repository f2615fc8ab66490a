/*
 * views.c: perf-style report views over a loaded profile. Rows are keyed by
 * any combination of comm, pid, tid, dso, sym, srcline and address (in the
 * order given: `--sort comm,dso,sym`); with children on, each row also gets
 * the samples whose call stack passes through it (Children) beside those
 * that landed in it (Self), and with a graph, each entry is followed by its
 * call tree: what it calls (caller order) or who calls it (callee order),
 * pruned below a percentage. Everything is computed from the distinct
 * stacks, so the cost grows with distinct stacks, not with samples.
 */
#include <stdlib.h>
#include <string.h>

#include "sample/demangle.h"
#include "sample/hier.h"
#include "sample/perfout.h"
#include "sample/profile.h"

enum key { K_COMM, K_PID, K_TID, K_DSO, K_SYM, K_SRCLINE, K_ADDR, NKEY };
static const char *key_names[NKEY] = {"comm", "pid",	 "tid",	   "dso",
				      "sym",  "srcline", "address"};
static const char *key_heads[NKEY] = {"Command", "Pid",		"Tid",
				      "Shared Object", "Symbol", "Source:Line",
				      "Address"};
#define MAXKEYS 8

static int key_parse(const char *s, size_t n)
{
	static const struct {
		const char *alias;
		int key;
	} alias[] = {{"symbol", K_SYM},	  {"function", K_SYM},
		     {"line", K_SRCLINE}, {"addr", K_ADDR},
		     {"ip", K_ADDR},	  {"shared_object", K_DSO}};
	for (int k = 0; k < NKEY; k++)
		if (strlen(key_names[k]) == n && !strncmp(s, key_names[k], n))
			return k;
	for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
		if (strlen(alias[i].alias) == n && !strncmp(s, alias[i].alias, n))
			return alias[i].key;
	return -1;
}

int pmk_view_keys_parse(const char *sort, int *keys, int max, pmk_diag *d)
{
	int n = 0;
	const char *s = sort && *sort ? sort : "sym";
	while (*s) {
		size_t l = strcspn(s, ",");
		int k = key_parse(s, l);
		if (k < 0 || n >= max) {
			pmk_diag_clear(d);
			if (d) {
				d->code = PMK_EINVAL;
				snprintf(d->message, sizeof d->message,
					 "unknown sort key '%.*s'", (int)l, s);
				snprintf(d->hint, sizeof d->hint,
					 "sort keys: comm, pid, tid, dso, sym, "
					 "srcline, address (any combination, "
					 "comma-separated)%s",
					 k >= 0 ? "; at most 8" : "");
			}
			return PMK_EINVAL;
		}
		keys[n++] = k;
		s += l;
		if (*s == ',')
			s++;
	}
	return n;
}

struct vrow {
	char *key; /* the columns joined by '\x1f' */
	int dso;   /* the DSO of the location that made it (filters) */
	uint64_t self, children, samples;
	int shown; /* a sample perf's --dsos/--symbols name passes it */
	const char *func; /* a frame's function (for the tree's root) */
};

/* The functions inlined at a location (innermost first), as tree frames
 * "name (inlined)", and the line of the outermost call they replaced:
 * looked up once per location, that is per (file, address). */
struct vinl {
	int done, n;
	char **name;
	const char *cfile;
	int cline;
};

struct view {
	pmk_profile *p;
	int keys[MAXKEYS], nkeys, ev, lines, no_inline;
	int perf; /* perf's names: [kernel.kallsyms], "[k] sym", pid:comm */
	const pmk__perf_report_opts *f; /* filters (perf layout), or NULL */
	struct vinl *inl; /* per location, on first use */
	struct vrow *row;
	size_t nrow, caprow;
	struct idx ix;
	uint32_t *rowof;   /* row of each frame (parallel to p->frames) */
	uint32_t *leafrow; /* row of each stack's sampled location */
	uint32_t *stamp;
	int distinct; /* --hierarchy -g count: a chain counts once (perf) */
};

static uint64_t hash_str(const char *s)
{
	return pmk__str_hash(PMK__STR_HASH0, s);
}

struct vrow_ctx {
	struct view *v;
	const char *key;
};
static int vrow_eq(void *c, uint32_t i)
{
	struct vrow_ctx *x = c;
	return !strcmp(x->v->row[i].key, x->key);
}

#define MAXINL 32
static const struct vinl *inl_of(struct view *v, uint32_t li)
{
	static const struct vinl none;
	struct vinl *x;
	struct loc *l = &v->p->loc[li];
	pmk__symtab *st;
	struct pmk__inl in[MAXINL];
	int n;
	if (!v->inl && !(v->inl = calloc(v->p->nloc ? v->p->nloc : 1,
					 sizeof *v->inl)))
		return &none;
	x = &v->inl[li];
	if (x->done)
		return x;
	x->done = 1;
	pmk__loc_resolve(v->p, l, 0);
	if (l->dso < 2 || v->p->dso[l->dso].kind != PDSO_FILE ||
	    l->func[0] == '[' || (st = pmk__dso_symtab(v->p, l->dso)) == NULL)
		return x;
	n = pmk__symtab_inlines(st, l->vaddr, in, MAXINL);
	if (n <= 0 || !(x->name = calloc((size_t)n, sizeof *x->name)))
		return x;
	for (int i = 0; i < n; i++) {
		/* C++: the qualified name from the linkage name, demangled
		 * like the symbols (or kept, with --no-demangle) */
		char *dm = in[i].linkage && !v->p->mangled
			       ? pmk__demangle(in[i].linkage)
			       : NULL;
		const char *nm = dm		  ? dm
				 : in[i].linkage && v->p->mangled ? in[i].linkage
							       : in[i].name;
		size_t sz = strlen(nm) + sizeof " (inlined)";
		x->name[i] = malloc(sz);
		if (x->name[i])
			snprintf(x->name[i], sz, "%s (inlined)", nm);
		free(dm);
		if (!x->name[i])
			break;
		x->n = i + 1;
	}
	x->cfile = in[n - 1].call_file;
	x->cline = in[n - 1].call_line;
	return x;
}

/* The composite key of location `li` as seen from stack `s`. */
static void make_key(struct view *v, const struct stack *s, uint32_t li,
		     char *buf, size_t size)
{
	struct loc *l = &v->p->loc[li];
	size_t n = 0;
	pmk__loc_resolve(v->p, l, v->lines);
	buf[0] = 0;
	for (int i = 0; i < v->nkeys && n < size; i++) {
		char one[600];
		switch (v->keys[i]) {
		case K_COMM:
			snprintf(one, sizeof one, "%s",
				 pmk__comm(v->p, s->pid, s->tid));
			break;
		case K_PID:
			if (v->perf) /* perf's pid column: "PID:COMM" */
				snprintf(one, sizeof one, "%7u:%-7s", s->pid,
					 pmk__comm(v->p, s->pid, s->pid));
			else
				snprintf(one, sizeof one, "%u", s->pid);
			break;
		case K_TID:
			snprintf(one, sizeof one, "%u", s->tid);
			break;
		case K_DSO: {
			char jit[48];
			snprintf(one, sizeof one, "%s",
				 v->perf ? pmk__dso_perf_name_in(v->p, l->dso,
								 s->pid, 0, jit,
								 sizeof jit)
					 : pmk__dso_name(v->p, l->dso));
			break;
		}
		case K_SYM:
			if (v->perf && pmk__loc_nosym(v->p, l))
				/* perf: an object's address without a symbol
				 * is its own entry, by its offset there */
				snprintf(one, sizeof one, "[.] 0x%016llx",
					 (unsigned long long)l->off);
			else if (v->perf)
				snprintf(one, sizeof one, "[%c] %s",
					 pmk__dso_is_kernel(v->p, l->dso) ? 'k'
									  : '.',
					 l->func);
			else
				snprintf(one, sizeof one, "%s", l->func);
			break;
		case K_SRCLINE: {
			const struct vinl *x =
			    v->no_inline && l->file ? inl_of(v, li) : NULL;
			if (x && x->n && x->cfile && x->cline) {
				/* the line of the call in the symbol's own
				 * function, not the inlined code's */
				const char *b = strrchr(x->cfile, '/');
				snprintf(one, sizeof one, "%s:%d",
					 b ? b + 1 : x->cfile, x->cline);
			} else if (l->file) {
				const char *b = strrchr(l->file, '/');
				snprintf(one, sizeof one, "%s:%d",
					 b ? b + 1 : l->file, l->line);
			} else {
				snprintf(one, sizeof one, "%s", l->func);
			}
			break;
		}
		default:
			snprintf(one, sizeof one, "0x%llx",
				 (unsigned long long)l->vaddr);
			break;
		}
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "\x1f" : "",
				      one);
	}
}

static int row_of(struct view *v, const struct stack *s, uint32_t li)
{
	char key[2048];
	struct vrow_ctx c = {v, key};
	int ins, r;
	make_key(v, s, li, key, sizeof key);
	if (v->nrow == v->caprow) {
		size_t nc = v->caprow ? v->caprow * 2 : 256;
		struct vrow *nr = realloc(v->row, nc * sizeof *nr);
		if (!nr)
			return -1;
		v->row = nr;
		v->caprow = nc;
	}
	r = pmk__idx_find(&v->ix, hash_str(key), vrow_eq, &c,
			  (uint32_t)v->nrow, &ins);
	if (r < 0)
		return -1;
	if (ins) {
		struct vrow *w = &v->row[r];
		memset(w, 0, sizeof *w);
		w->key = strdup(key);
		if (!w->key)
			return -1;
		w->func = v->p->loc[li].func;
		w->dso = v->p->loc[li].dso;
		v->nrow++;
	}
	return r;
}

/* perf report's --comms, --pids and --tids: which threads count */
static int stack_kept(struct view *v, const struct stack *s)
{
	if (!v->f)
		return 1;
	return pmk__list_has(v->f->comms, pmk__comm(v->p, s->pid, s->tid)) &&
	       pmk__list_has_u(v->f->pids, s->pid) &&
	       pmk__list_has_u(v->f->tids, s->tid);
}

/* perf report's --dsos and --symbols: whether the place a sample was
 * taken is one named. As in perf, they choose which entries are shown
 * (those of the samples named: where each was taken and the functions on
 * its chain), not what the entries count: an entry shown counts every
 * sample of its thread that passes through it. */
static int leaf_named(struct view *v, const struct stack *s)
{
	struct loc *l;
	char jit[48];
	if (!v->f || (!v->f->dsos && !v->f->symbols))
		return 1;
	l = &v->p->loc[s->leaf];
	pmk__loc_resolve(v->p, l, v->lines);
	return (!v->f->dsos ||
		pmk__list_has(v->f->dsos,
			      pmk__dso_perf_name_in(v->p, l->dso, s->pid, 0,
						    jit, sizeof jit))) &&
	       (!v->f->symbols || pmk__list_has(v->f->symbols, l->func));
}

/* The frames of a stack in use, [lo, hi): all, or perf's --max-stack
 * frames in the order the chains are drawn (callee order: the innermost;
 * caller order: the outermost). */
static void span(const struct view *v, const struct stack *s, uint32_t *lo,
		 uint32_t *hi)
{
	unsigned m = v->f ? v->f->max_stack : 0;
	*lo = 0;
	*hi = s->n;
	if (m && m < s->n) {
		if (v->f->callee)
			*hi = m;
		else
			*lo = s->n - m;
	}
}

static int build(struct view *v)
{
	pmk_profile *p = v->p;
	v->rowof = calloc(p->nframes ? p->nframes : 1, sizeof *v->rowof);
	v->leafrow = calloc(p->nstk ? p->nstk : 1, sizeof *v->leafrow);
	if (!v->rowof || !v->leafrow)
		return -1;
	for (size_t i = 0; i < p->nstk; i++) {
		const struct stack *s = &p->stk[i];
		uint32_t lo, hi;
		int r;
		if (!s->samples[v->ev] || !stack_kept(v, s))
			continue;
		r = row_of(v, s, s->leaf);
		if (r < 0)
			return -1;
		v->leafrow[i] = (uint32_t)r;
		v->row[r].self += s->period[v->ev];
		v->row[r].samples += s->samples[v->ev];
		span(v, s, &lo, &hi);
		for (uint32_t k = lo; k < hi; k++) {
			r = row_of(v, s, p->frames[s->first + k]);
			if (r < 0)
				return -1;
			v->rowof[s->first + k] = (uint32_t)r;
		}
	}
	/* Children: each row on the stack once, the sampled one included */
	v->stamp = calloc(v->nrow ? v->nrow : 1, sizeof *v->stamp);
	if (!v->stamp)
		return -1;
	for (size_t i = 0; i < p->nstk; i++) {
		const struct stack *s = &p->stk[i];
		uint32_t st = (uint32_t)i + 1, lo, hi;
		int named;
		if (!s->samples[v->ev] || !stack_kept(v, s))
			continue;
		named = leaf_named(v, s);
		v->stamp[v->leafrow[i]] = st;
		v->row[v->leafrow[i]].children += s->period[v->ev];
		v->row[v->leafrow[i]].shown |= named;
		span(v, s, &lo, &hi);
		for (uint32_t k = lo; k < hi; k++) {
			uint32_t r = v->rowof[s->first + k];
			if (v->stamp[r] == st)
				continue;
			v->row[r].shown |= named;
			v->stamp[r] = st;
			v->row[r].children += s->period[v->ev];
		}
	}
	return 0;
}

static int by_self;
static const struct vrow *sort_rows;
static int sort_sym = -1; /* perf's layout: the position of the sym key */

/* Rows with the same count in key order, as perf orders them: each key
 * by its name, the symbol without its "[k] " or "[.] " and an address
 * without a symbol ("[.] 0x...") after every named one. */
static int key_cmp(const char *a, const char *b)
{
	for (int i = 0;; i++) {
		size_t na = strcspn(a, "\x1f"), nb = strcspn(b, "\x1f");
		const char *pa = a, *pb = b;
		size_t la = na, lb = nb;
		int c;
		if (i == sort_sym && la >= 4 && lb >= 4) {
			int ua = !strncmp(a + 4, "0x", 2),
			    ub = !strncmp(b + 4, "0x", 2);
			if (ua != ub)
				return ua - ub;
			pa += 4, pb += 4, la -= 4, lb -= 4;
		}
		c = strncmp(pa, pb, la < lb ? la : lb);
		if (c || la != lb)
			return c ? c : la < lb ? -1 : 1;
		if (!a[na] || !b[nb])
			return !a[na] && !b[nb] ? 0 : !a[na] ? -1 : 1;
		a += na + 1, b += nb + 1;
	}
}

static int order_cmp(const void *a, const void *b)
{
	const struct vrow *x = &sort_rows[*(const uint32_t *)a],
			  *y = &sort_rows[*(const uint32_t *)b];
	uint64_t vx = by_self ? x->self : x->children,
		 vy = by_self ? y->self : y->children;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return key_cmp(x->key, y->key);
}

static void sort_order(const struct view *v, uint32_t *order)
{
	sort_rows = v->row;
	sort_sym = -1;
	for (int i = 0; v->perf && i < v->nkeys; i++)
		if (v->keys[i] == K_SYM)
			sort_sym = i;
	if (v->nrow > 1)
		qsort(order, v->nrow, sizeof *order, order_cmp);
}

/* ---- call trees ---- */

struct tnode {
	const char *name;
	uint64_t val;
	int child, next; /* first child, next sibling: indexes, -1 none */
};
struct tree {
	struct tnode *n;
	size_t nn, cap;
};

static int tnode_add(struct tree *t, int parent, const char *name,
		     uint64_t val)
{
	int *link = parent >= 0 ? &t->n[parent].child : NULL, i;
	for (i = parent >= 0 ? t->n[parent].child : 0;
	     i >= 0 && (size_t)i < t->nn; i = t->n[i].next) {
		if (t->n[i].name == name || !strcmp(t->n[i].name, name)) {
			t->n[i].val += val;
			return i;
		}
		if (parent < 0)
			break;
	}
	if (t->nn == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 256;
		struct tnode *nv = realloc(t->n, nc * sizeof *nv);
		if (!nv)
			return -1;
		t->n = nv;
		t->cap = nc;
		if (parent >= 0)
			link = &t->n[parent].child;
	}
	i = (int)t->nn++;
	t->n[i].name = name;
	t->n[i].val = val;
	t->n[i].child = -1;
	t->n[i].next = link ? *link : -1;
	if (link)
		*link = i;
	return i;
}

static int tval_cmp(const void *a, const void *b)
{
	const struct tnode *x = *(struct tnode *const *)a,
			   *y = *(struct tnode *const *)b;
	if (x->val != y->val)
		return x->val > y->val ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void tree_print(struct tree *t, int node, uint64_t total,
		       uint64_t min, char *prefix, size_t plen, FILE *out)
{
	struct tnode *kids[256];
	int nk = 0;
	for (int i = t->n[node].child; i >= 0 && nk < 256; i = t->n[i].next)
		if (t->n[i].val >= min && t->n[i].val)
			kids[nk++] = &t->n[i];
	if (nk > 1)
		qsort(kids, (size_t)nk, sizeof *kids, tval_cmp);
	for (int k = 0; k < nk; k++) {
		int last = k == nk - 1;
		fprintf(out, "%s%s--%.2f%%--%s\n", prefix, last ? "`" : "|",
			total ? 100.0 * (double)kids[k]->val / (double)total
			      : 0.0,
			kids[k]->name);
		if (plen + 12 < 4096 && kids[k]->child >= 0) {
			char *np = prefix + plen;
			memcpy(np, last ? "           " : "|          ", 11);
			np[11] = 0;
			tree_print(t, (int)(kids[k] - t->n), total, min, prefix,
				   plen + 11, out);
			prefix[plen] = 0;
		}
	}
}

/* The call tree of row `r`: from its outermost occurrence in each stack
 * toward the leaf (caller order: what it calls), or from its innermost
 * toward the root (callee order: who calls it). */
static int entry_tree(struct view *v, uint32_t r, int callee, int self_only,
		      uint64_t total, uint64_t min, FILE *out)
{
	pmk_profile *p = v->p;
	struct tree t = {0};
	char prefix[4096];
	if (tnode_add(&t, -1, v->row[r].func, 0) < 0)
		return -1;
	for (size_t i = 0; i < p->nstk; i++) {
		const struct stack *s = &p->stk[i];
		uint64_t val = s->period[v->ev];
		int at = -1, node = 0;
		if (!val || !stack_kept(v, s))
			continue;
		if (self_only && v->leafrow[i] != r)
			continue;
		for (uint32_t k = 0; k < s->n; k++)
			if (v->rowof[s->first + k] == r) {
				at = (int)k;
				if (callee)
					break;
			}
		if (at < 0 && !self_only)
			continue;
		t.n[0].val += val;
		if (callee) {
			/* who calls it: each caller's inlined functions
			 * (innermost first), then the caller */
			for (uint32_t k = (uint32_t)at + 1; k < s->n && node >= 0;
			     k++) {
				uint32_t li = p->frames[s->first + k];
				const struct vinl *x =
				    v->no_inline ? NULL : inl_of(v, li);
				for (int j = 0; x && j < x->n && node >= 0; j++)
					node = tnode_add(&t, node, x->name[j],
							 val);
				if (node >= 0)
					node = tnode_add(&t, node,
							 p->loc[li].func, val);
			}
		} else {
			/* what it calls: each frame's function (the entry's
			 * own is the root), then what is inlined into it,
			 * outermost first */
			for (int k = at; k >= 0 && node >= 0; k--) {
				uint32_t li = p->frames[s->first + k];
				const struct vinl *x =
				    v->no_inline ? NULL : inl_of(v, li);
				if (k != at)
					node = tnode_add(&t, node,
							 p->loc[li].func, val);
				for (int j = x ? x->n - 1 : -1;
				     j >= 0 && node >= 0; j--)
					node = tnode_add(&t, node, x->name[j],
							 val);
			}
		}
		if (node < 0) {
			free(t.n);
			return -1;
		}
	}
	int any = 0;
	for (int i = t.n[0].child; i >= 0; i = t.n[i].next)
		any |= t.n[i].val >= min && t.n[i].val;
	if (any) {
		snprintf(prefix, sizeof prefix, "            ");
		fprintf(out, "%s|\n%s---%s\n", prefix, prefix, t.n[0].name);
		strcat(prefix, "   ");
		tree_print(&t, 0, total, min, prefix, strlen(prefix), out);
		fputc('\n', out);
	}
	free(t.n);
	return 0;
}

/* perf 6.1's count under --hierarchy: its last level's chains are merged
 * from its table's, each distinct chain (by function) counting once.
 * 1 for a chain not met before under this entry (remembered by a hash of
 * its names), else 0. */
struct seen {
	uint64_t *h;
	size_t n, cap;
};
static uint64_t chain_new(struct seen *s, const pmk__cg_frame *f, size_t nf)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < nf; i++)
		h = (hash_str(f[i].name) ^ h) * 1099511628211ull;
	for (size_t i = 0; i < s->n; i++)
		if (s->h[i] == h)
			return 0;
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		uint64_t *nv = realloc(s->h, nc * sizeof *nv);
		if (!nv)
			return 1;
		s->h = nv;
		s->cap = nc;
	}
	s->h[s->n++] = h;
	return 1;
}

/* The chains under row `r` in perf's layout (cgraph.h), as perf puts
 * them under an entry: in caller order, a sample's whole chain from the
 * root where the row is the sampled location, else the chain from the
 * row's outermost frame toward the sampled one; in callee order from the
 * row's innermost frame toward the root. Without children, only the
 * samples taken in the row. */
static int perf_tree(struct view *v, uint32_t r, int callee, int self_only,
		     uint64_t total, uint64_t entry, FILE *out)
{
	pmk_profile *p = v->p;
	pmk__cg *t = pmk__cg_new();
	pmk__cg_frame *nm = NULL;
	size_t cap = 0;
	struct seen seen = {0};
	int rc = 0;
	if (!t)
		return -1;
	for (size_t i = 0; i < p->nstk && !rc; i++) {
		const struct stack *s = &p->stk[i];
		uint64_t val = s->period[v->ev];
		uint32_t lo, hi, nn = 0;
		int at = -1, self = v->leafrow[i] == r;
		span(v, s, &lo, &hi);
		if (!val || !s->samples[v->ev] || lo >= hi ||
		    !stack_kept(v, s) || (self_only && !self))
			continue;
		if (self)
			at = callee ? (int)lo : (int)hi - 1;
		else
			for (uint32_t k = lo; k < hi; k++)
				if (v->rowof[s->first + k] == r) {
					at = (int)k;
					if (callee)
						break;
				}
		if (at < 0)
			continue;
		for (int k = at; k >= (int)lo && (uint32_t)k < hi;
		     k += callee ? 1 : -1) {
			uint32_t li = p->frames[s->first + k];
			const struct vinl *x = v->no_inline ? NULL : inl_of(v, li);
			size_t need = nn + 1 + (x ? (size_t)x->n : 0);
			if (need > cap) {
				pmk__cg_frame *nv;
				cap = need * 2 + 64;
				nv = realloc(nm, cap * sizeof *nv);
				if (!nv) {
					rc = -1;
					break;
				}
				nm = nv;
			}
			/* callee order: what is inlined at a caller's call
			 * site (innermost first), then the caller; caller
			 * order: the function, then what is inlined into it */
			if (callee && k != at)
				for (int j = 0; x && j < x->n; j++)
					nm[nn++] = (pmk__cg_frame){
					    x->name[j], p->loc[li].dso, 0, 1};
			nm[nn++] = (pmk__cg_frame){p->loc[li].func, p->loc[li].dso,
						   p->loc[li].fstart, 0};
			if (!callee)
				for (int j = x ? x->n - 1 : -1; j >= 0; j--)
					nm[nn++] = (pmk__cg_frame){
					    x->name[j], p->loc[li].dso, 0, 1};
		}
		if (!rc && pmk__cg_add(t, nm, nn, val,
				       v->distinct ? chain_new(&seen, nm, nn)
						   : s->samples[v->ev]) < 0)
			rc = -1;
	}
	if (!rc)
		pmk__cg_print(t, &v->f->cg, total, entry, out);
	free(seen.h);
	free(nm);
	pmk__cg_free(t);
	return rc;
}

static void view_free(struct view *v)
{
	for (size_t i = 0; i < v->nrow; i++)
		free(v->row[i].key);
	free(v->row);
	free(v->rowof);
	free(v->leafrow);
	free(v->stamp);
	for (size_t i = 0; v->inl && i < v->p->nloc; i++) {
		for (int j = 0; j < v->inl[i].n; j++)
			free(v->inl[i].name[j]);
		free(v->inl[i].name);
	}
	free(v->inl);
	pmk__idx_free(&v->ix);
}

int pmk_profile_view(pmk_profile *p, const pmk_view_opts *o, FILE *out,
		     pmk_diag *d)
{
	struct view v;
	uint64_t total;
	int w[MAXKEYS], rc = 0;
	uint32_t *order;
	memset(&v, 0, sizeof v);
	v.p = p;
	v.no_inline = o->no_inline;
	v.nkeys = pmk_view_keys_parse(o->sort, v.keys, MAXKEYS, d);
	if (v.nkeys < 0)
		return v.nkeys;
	v.ev = 0;
	if (o->event) {
		v.ev = -1;
		for (int e = 0; e < p->nevents; e++)
			if (!strcmp(pmk_profile_event_name(p, e), o->event))
				v.ev = e;
		if (v.ev < 0)
			return PMK_ENOEVENT;
	}
	for (int i = 0; i < v.nkeys; i++)
		v.lines |= v.keys[i] == K_SRCLINE;
	if (build(&v) < 0) {
		view_free(&v);
		return PMK_ENOMEM;
	}
	total = p->st.period[v.ev];
	by_self = !o->children;
	order = malloc((v.nrow ? v.nrow : 1) * sizeof *order);
	if (!order) {
		view_free(&v);
		return PMK_ENOMEM;
	}
	for (size_t i = 0; i < v.nrow; i++)
		order[i] = (uint32_t)i;
	sort_order(&v, order);
	/* header */
	fprintf(out, "# event: %s, %llu samples\n",
		pmk_profile_event_name(p, v.ev),
		(unsigned long long)p->st.samples[v.ev]);
	if (o->children && !p->has_chains)
		fprintf(out, "# no call stacks recorded (record with -g or "
			     "--call-graph dwarf): Children equals Self\n");
	for (int i = 0; i < v.nkeys; i++)
		w[i] = (int)strlen(key_heads[v.keys[i]]);
	for (size_t r = 0; r < v.nrow && r < 100000; r++) {
		const char *k = v.row[order[r]].key;
		for (int i = 0; i < v.nkeys; i++) {
			int l = (int)strcspn(k, "\x1f");
			if (l > w[i])
				w[i] = l > 60 ? 60 : l;
			k += l + (k[l] ? 1 : 0);
		}
	}
	fprintf(out, "#\n# %s%s", o->children ? "  Children      Self" : "  Overhead",
		"   Samples");
	for (int i = 0; i < v.nkeys; i++)
		fprintf(out, "  %-*s", i == v.nkeys - 1 ? 0 : w[i],
			key_heads[v.keys[i]]);
	fputc('\n', out);
	for (size_t i = 0; i < v.nrow; i++) {
		uint32_t r = order[i];
		const struct vrow *x = &v.row[r];
		double pc = total ? 100.0 * (double)x->children / (double)total
				  : 0,
		       ps = total ? 100.0 * (double)x->self / (double)total : 0;
		const char *k = x->key;
		if ((o->children ? pc : ps) < o->percent_limit)
			continue;
		if (!o->children && !x->self)
			continue;
		if (o->children)
			fprintf(out, "  %9.2f%% %8.2f%%", pc, ps);
		else
			fprintf(out, "  %9.2f%%", ps);
		fprintf(out, " %9llu", (unsigned long long)x->samples);
		for (int c = 0; c < v.nkeys; c++) {
			int l = (int)strcspn(k, "\x1f");
			fprintf(out, "  %-*.*s", c == v.nkeys - 1 ? 0 : w[c], l,
				k);
			k += l + (k[l] ? 1 : 0);
		}
		fputc('\n', out);
		if (o->graph && p->has_chains) {
			uint64_t min = (uint64_t)((double)total *
						  (o->tree_limit > 0
						       ? o->tree_limit
						       : 0.5) /
						  100.0);
			if (entry_tree(&v, r, o->callee, !o->children, total, min,
				       out) < 0) {
				rc = PMK_ENOMEM;
				break;
			}
		}
	}
	free(order);
	view_free(&v);
	if (!rc && ferror(out))
		rc = PMK_EIO;
	return rc;
}

/* ---- perf report --stdio ---- */

static const char *perf_heads[NKEY] = {"Command", "Pid:Command", "Tid",
				       "Shared Object", "Symbol",
				       "Source:Line", "Address"};

/* perf's count with a unit: 1613 is "1K", 549 is "549 " */
static void perf_count(FILE *out, uint64_t n)
{
	char unit = ' ';
	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'G';
	}
	fprintf(out, "%llu%c", (unsigned long long)n, unit);
}

/* The description of the recording (--header-only), from what the file
 * holds. */
static void perf_header(pmk_profile *p, FILE *out)
{
	fprintf(out, "# ========\n");
	if (p->st.command[0])
		fprintf(out, "# cmdline : %s\n", p->st.command);
	for (int e = 0; e < p->nevents; e++)
		fprintf(out, "# event : name = %s, type = %u, config = 0x%llx, "
			     "%s = %llu\n",
			pmk_profile_event_name(p, e), p->ev[e].type,
			(unsigned long long)p->ev[e].config,
			p->ev[e].freq ? "sample_freq" : "sample_period",
			(unsigned long long)p->ev[e].period);
	if (p->t_any) {
		fprintf(out, "# time of first sample : %llu.%06llu\n",
			(unsigned long long)(p->t_first / 1000000000u),
			(unsigned long long)(p->t_first % 1000000000u / 1000u));
		fprintf(out, "# time of last sample : %llu.%06llu\n",
			(unsigned long long)(p->t_last / 1000000000u),
			(unsigned long long)(p->t_last % 1000000000u / 1000u));
		fprintf(out, "# sample duration : %10.3f ms\n",
			(double)(p->t_last - p->t_first) / 1e6);
	}
	if (p->st.has_finish)
		fprintf(out, "# workload exit status : %d\n",
			p->st.finish.status);
	fprintf(out, "# ========\n#\n");
}

/* A filter that names one value drops its column, as perf does */
static const char *single(const char *list)
{
	return list && *list && !strchr(list, ',') ? list : NULL;
}

static int lastshown(const int *show, int n)
{
	int last = -1;
	for (int i = 0; i < n; i++)
		if (show[i])
			last = i;
	return last;
}

/* --hierarchy: the rows as a tree (hier.c), the chains under its last
 * level as under a row without children */
struct hchain {
	struct view *v;
	const pmk__perf_report_opts *o;
	uint64_t total;
};
static int hier_chain(void *ctx, size_t r, uint64_t entry, FILE *out)
{
	struct hchain *c = ctx;
	return perf_tree(c->v, (uint32_t)r, c->o->callee, 1, c->total, entry,
			 out);
}

static int has_key(const struct view *v, int k)
{
	for (int i = 0; i < v->nkeys; i++)
		if (v->keys[i] == k)
			return 1;
	return 0;
}

/* perf 6.1 shows no entry under --hierarchy when --comms, --dsos or
 * --symbols filter on a key that is not one of the levels */
static int hier_blind(const struct view *v, const pmk__perf_report_opts *o)
{
	return (o->comms && !has_key(v, K_COMM) && !has_key(v, K_PID)) ||
	       (o->dsos && !has_key(v, K_DSO)) ||
	       (o->symbols && !has_key(v, K_SYM));
}

static int hier_section(struct view *v, const pmk__perf_report_opts *o,
			uint64_t total, int graph, const char *sep, FILE *out)
{
	pmk__hier h;
	struct hchain c = {v, o, total};
	pmk__hier_row *rows = malloc((v->nrow ? v->nrow : 1) * sizeof *rows);
	int rc;
	if (!rows)
		return PMK_ENOMEM;
	/* a row is shown where --dsos/--symbols name a sample taken in it
	 * (not one whose chain passes through it: no children here) */
	for (size_t i = 0; i < v->nrow; i++)
		rows[i] = (pmk__hier_row){v->row[i].key, v->row[i].self,
					  v->row[i].samples, 0, 0};
	for (size_t i = 0; i < v->p->nstk && !hier_blind(v, o); i++) {
		const struct stack *s = &v->p->stk[i];
		if (!s->samples[v->ev] || !stack_kept(v, s))
			continue;
		rows[v->leafrow[i]].sym_start = v->p->loc[s->leaf].fstart;
		if (leaf_named(v, s))
			rows[v->leafrow[i]].shown = 1;
	}
	memset(&h, 0, sizeof h);
	h.nkeys = v->nkeys;
	for (int i = 0; i < v->nkeys; i++) {
		h.heads[i] = perf_heads[v->keys[i]];
		h.unpadded[i] = v->keys[i] == K_SYM;
	}
	h.row = rows;
	h.nrow = v->nrow;
	h.total = total;
	h.samples = o->samples;
	h.quiet = o->quiet;
	h.sep = sep;
	h.percent_limit = o->percent_limit;
	h.chain = graph ? hier_chain : NULL;
	v->distinct = o->cg.value == PMK_CGV_COUNT;
	h.ctx = &c;
	rc = pmk__hier_print(&h, out);
	free(rows);
	return rc < 0 ? PMK_ENOMEM : 0;
}

/* Whether --dsos or --symbols leaves row `x` out. perf leaves such rows
 * out of the column widths too (rows under --percent-limit still count). */
static int perf_section(pmk_profile *p, const pmk__perf_report_opts *o,
			int ev, FILE *out, pmk_diag *d)
{
	struct view v;
	uint64_t total;
	int w[MAXKEYS], show[MAXKEYS], rc = 0, children, graph;
	uint32_t *order;
	char dots[256];
	const char *sep = o->field_sep && *o->field_sep ? o->field_sep : NULL;
	memset(&v, 0, sizeof v);
	v.p = p;
	v.perf = 1;
	v.f = o;
	v.no_inline = o->no_inline;
	v.nkeys = pmk_view_keys_parse(o->sort ? o->sort : "comm,dso,sym",
				      v.keys, MAXKEYS, d);
	if (v.nkeys < 0)
		return v.nkeys;
	v.ev = ev;
	children = o->children < 0 ? p->has_chains : o->children;
	if (o->hierarchy) /* as perf: Overhead alone */
		children = 0;
	graph = (o->graph < 0 ? 1 : o->graph) && p->has_chains;
	for (int i = 0; i < v.nkeys; i++) {
		v.lines |= v.keys[i] == K_SRCLINE;
		show[i] = !((v.keys[i] == K_COMM && single(o->comms)) ||
			    (v.keys[i] == K_DSO && single(o->dsos)) ||
			    (v.keys[i] == K_SYM && single(o->symbols)));
	}
	if (build(&v) < 0) {
		view_free(&v);
		return PMK_ENOMEM;
	}
	total = p->st.period[ev];
	by_self = !children;
	order = malloc((v.nrow ? v.nrow : 1) * sizeof *order);
	if (!order) {
		view_free(&v);
		return PMK_ENOMEM;
	}
	for (size_t i = 0; i < v.nrow; i++)
		order[i] = (uint32_t)i;
	sort_order(&v, order);
	for (int i = 0; i < v.nkeys; i++)
		w[i] = (int)strlen(perf_heads[v.keys[i]]);
	for (size_t r = 0; r < v.nrow; r++) {
		const struct vrow *x = &v.row[order[r]];
		const char *k = x->key;
		/* the widths of the rows perf has: a row under
		 * --percent-limit counts, one without Self under
		 * --no-children does not exist there */
		if (!x->shown || (!children && !x->self))
			continue;
		for (int i = 0; i < v.nkeys; i++) {
			int l = (int)strcspn(k, "\x1f");
			if (l > w[i])
				w[i] = l > 200 ? 200 : l;
			k += l + (k[l] ? 1 : 0);
		}
	}
	if (!o->quiet) {
		/* the filters that drop a column, then one '#', as perf */
		/* (only where the filter's key is a column: perf 6.1) */
		if (single(o->comms) && has_key(&v, K_COMM))
			fprintf(out, "# comm: %s\n", o->comms);
		if (single(o->dsos) && has_key(&v, K_DSO))
			fprintf(out, "# dso: %s\n", o->dsos);
		if (single(o->symbols) && has_key(&v, K_SYM))
			fprintf(out, "# symbol: %s\n", o->symbols);
		fputs("#\n", out);
		fprintf(out, "# Total Lost Samples: %llu\n#\n",
			(unsigned long long)p->st.lost);
		fprintf(out, "# Samples: ");
		perf_count(out, p->st.samples[ev]);
		fprintf(out, " of event '%s'\n", pmk_profile_event_name(p, ev));
		fprintf(out, "# Event count (approx.): %llu\n#\n",
			(unsigned long long)total);
		memset(dots, '.', sizeof dots - 1);
		dots[sizeof dots - 1] = 0;
		for (int pass = 0; pass < 2 && !sep && !o->hierarchy; pass++) {
			fputs(children ? (pass ? "# ........  ........"
					       : "# Children      Self")
				       : (pass ? "# ........" : "# Overhead"),
			      out);
			if (o->samples)
				fprintf(out, "  %12s", pass ? "............"
							    : "Samples");
			/* perf right-aligns the Pid:Command heading */
			for (int i = 0; i < v.nkeys; i++)
				if (show[i])
					fprintf(out,
						v.keys[i] == K_PID && !pass
						    ? "  %*.*s"
						    : "  %-*.*s",
						w[i], pass ? w[i] : 200,
						pass ? dots
						     : perf_heads[v.keys[i]]);
			fputc('\n', out);
		}
		if (o->hierarchy)
			; /* its own headings (hier.c) */
		else if (sep) { /* -t: one header line, the columns as wide */
			fprintf(out, "# %s", children ? "Children" : "Overhead");
			if (children)
				fprintf(out, "%s%8s", sep, "Self");
			if (o->samples)
				fprintf(out, "%s%12s", sep, "Samples");
			for (int i = 0; i < v.nkeys; i++)
				if (show[i])
					fprintf(out,
						v.keys[i] == K_PID ? "%s%*s"
								   : "%s%-*s",
						sep, w[i],
						perf_heads[v.keys[i]]);
			fputc('\n', out);
		} else
			fputs("#\n", out);
	}
	if (o->hierarchy)
		rc = hier_section(&v, o, total, graph, sep, out);
	for (size_t i = 0; i < v.nrow && !o->hierarchy; i++) {
		uint32_t r = order[i];
		const struct vrow *x = &v.row[r];
		double pc = total ? 100.0 * (double)x->children / (double)total
				  : 0,
		       ps = total ? 100.0 * (double)x->self / (double)total : 0;
		const char *k = x->key;
		if ((children ? pc : ps) < o->percent_limit)
			continue;
		if (!x->shown || (!children && !x->self))
			continue;
		if (sep) {
			/* -t: each number after a space, left-aligned in its
			 * column's width, the columns joined by SEP, SEP in a
			 * value printed as '.', as perf 6.1 prints them */
			char num[32];
			snprintf(num, sizeof num, "%.2f%%", children ? pc : ps);
			fprintf(out, " %-7s", num);
			if (children) {
				snprintf(num, sizeof num, "%.2f%%", ps);
				fprintf(out, "%s %-7s", sep, num);
			}
			if (o->samples)
				fprintf(out, "%s %-11llu", sep,
					(unsigned long long)x->samples);
		} else if (children)
			fprintf(out, "  %7.2f%%  %7.2f%%", pc, ps);
		else
			fprintf(out, "  %7.2f%%", ps);
		if (o->samples && !sep)
			fprintf(out, "  %12llu", (unsigned long long)x->samples);
		for (int c = 0, last = lastshown(show, v.nkeys); c < v.nkeys;
		     c++) {
			int l = (int)strcspn(k, "\x1f");
			/* perf pads every column but a last symbol */
			int wc = c == last && v.keys[c] == K_SYM ? 0 : w[c];
			if (show[c] && sep) {
				fputs(sep, out);
				for (int j = 0; j < l; j++)
					fputc(k[j] == sep[0] ? '.' : k[j], out);
				fprintf(out, "%*s", wc > l ? wc - l : 0, "");
			} else if (show[c])
				fprintf(out, "  %-*.*s", wc, l, k);
			k += l + (k[l] ? 1 : 0);
		}
		fputc('\n', out);
		if (graph) {
			if (perf_tree(&v, r, o->callee, !children, total,
				      children ? x->children : x->self,
				      out) < 0) {
				rc = PMK_ENOMEM;
				break;
			}
		}
	}
	fputs("\n\n", out);
	free(order);
	view_free(&v);
	return rc;
}

int pmk__profile_perf_report(pmk_profile *p, const pmk__perf_report_opts *o,
			     FILE *out, pmk_diag *d)
{
	int ev = pmk__profile_event_index(p, o->event), rc = 0;
	if (ev < 0)
		return PMK_ENOEVENT;
	if (o->header_only) {
		perf_header(p, out);
		return ferror(out) ? PMK_EIO : 0;
	}
	if (!o->quiet)
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n",
		      out);
	for (int e = o->event ? ev : 0; e < (o->event ? ev + 1 : p->nevents) &&
					!rc;
	     e++) {
		if (!p->st.samples[e])
			continue;
		rc = perf_section(p, o, e, out, d);
	}
	if (!rc && ferror(out))
		rc = PMK_EIO;
	return rc;
}
