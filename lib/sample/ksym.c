/*
 * ksym.c: symbol tables that are not ELF files: the running kernel's
 * (/proc/kallsyms, with each module's functions tagged by module) and a JIT
 * compiler's perf map (/tmp/perf-PID.map: "START SIZE name" lines in hex).
 * Both are read once, sorted, and searched by address. Neither trusts the
 * file: lines that do not parse are skipped, sizes are bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sample/ksym.h"

struct ksym {
	uint64_t addr, end; /* [addr, end) */
	char *name;
	int mod;      /* index into mods, -1: the kernel itself */
	uint32_t seq; /* line of the file */
};

struct pmk__ksyms {
	struct ksym *v;
	size_t n, cap;
	char **mods;
	int nmod;
	uint64_t text_lo, text_hi; /* the kernel's own text: [_stext, _etext) */
};

/* By address; among aliases the one listed last in the file first. That
 * is the name perf shows: it gives each unsized kallsyms symbol the extent
 * up to the next one before it drops aliases, so of several names at one
 * address only the last gets a non-zero size, and a sized symbol is its
 * first preference (this kernel lists __pi___x86_indirect_thunk_rax,
 * __x86_indirect_thunk_array, __x86_indirect_thunk_rax at one address:
 * perf and pmkit show __x86_indirect_thunk_rax). */
static int ks_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq > y->seq ? -1 : 1;
	return 0;
}

static int add(pmk__ksyms *k, uint64_t addr, uint64_t end, const char *name,
	       int mod)
{
	if (k->n == k->cap) {
		size_t nc = k->cap ? k->cap * 2 : 4096;
		struct ksym *nv = realloc(k->v, nc * sizeof *nv);
		if (!nv)
			return -1;
		k->v = nv;
		k->cap = nc;
	}
	k->v[k->n].name = strdup(name);
	if (!k->v[k->n].name)
		return -1;
	k->v[k->n].addr = addr;
	k->v[k->n].end = end;
	k->v[k->n].mod = mod;
	k->v[k->n].seq = (uint32_t)k->n;
	k->n++;
	return 0;
}

static int mod_index(pmk__ksyms *k, const char *m)
{
	char **nv;
	for (int i = k->nmod - 1; i >= 0; i--)
		if (!strcmp(k->mods[i], m))
			return i;
	nv = realloc(k->mods, (size_t)(k->nmod + 1) * sizeof *nv);
	if (!nv)
		return -1;
	k->mods = nv;
	nv[k->nmod] = malloc(strlen(m) + 3);
	if (!nv[k->nmod])
		return -1;
	sprintf(nv[k->nmod], "[%s]", m);
	return k->nmod++;
}

void pmk__ksyms_free(pmk__ksyms *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	for (int i = 0; i < k->nmod; i++)
		free(k->mods[i]);
	free(k->mods);
	free(k);
}

/* Sort, drop exact duplicates' sizes, and give unsized symbols the extent
 * up to the next symbol (of the same module, else a 4 KiB bound). */
static void finish(pmk__ksyms *k)
{
	if (k->n > 1)
		qsort(k->v, k->n, sizeof *k->v, ks_cmp);
	for (size_t i = 0; i < k->n; i++) {
		struct ksym *s = &k->v[i];
		size_t j = i + 1;
		if (s->end > s->addr)
			continue;
		while (j < k->n && k->v[j].addr == s->addr)
			j++;
		if (j < k->n && k->v[j].mod == s->mod &&
		    k->v[j].addr - s->addr < (1u << 24))
			s->end = k->v[j].addr;
		else
			s->end = s->addr + 4096;
	}
}

static int open_regular(const char *path, FILE **f)
{
	struct stat sb;
	*f = fopen(path, "re");
	if (!*f)
		return -1;
	if (fstat(fileno(*f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		fclose(*f);
		*f = NULL;
		return -1;
	}
	return 0;
}

pmk__ksyms *pmk__ksyms_kallsyms(const char *path)
{
	FILE *f;
	char line[512];
	pmk__ksyms *k;
	int nonzero = 0;
	if (open_regular(path, &f))
		return NULL;
	k = calloc(1, sizeof *k);
	if (!k) {
		fclose(f);
		return NULL;
	}
	while (fgets(line, sizeof line, f)) {
		unsigned long long a;
		char type, name[256], mod[128];
		int n;
		mod[0] = 0;
		n = sscanf(line, "%llx %c %255s [%127[^]]]", &a, &type, name,
			   mod);
		if (n < 3)
			continue;
		if (a)
			nonzero = 1;
		if (!strcmp(name, "_stext") || !strcmp(name, "_text")) {
			if (!k->text_lo || a < k->text_lo)
				k->text_lo = a;
			continue;
		}
		if (!strcmp(name, "_etext")) {
			k->text_hi = a;
			continue;
		}
		/* functions only: text, weak, and (lower case) local ones */
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (add(k, a, 0, name, mod[0] ? mod_index(k, mod) : -1))
			break;
	}
	fclose(f);
	if (!nonzero || !k->n) { /* kptr_restrict: every address is 0 */
		pmk__ksyms_free(k);
		return NULL;
	}
	finish(k);
	return k;
}

pmk__ksyms *pmk__ksyms_perfmap(const char *path)
{
	FILE *f;
	char line[4096];
	pmk__ksyms *k;
	if (open_regular(path, &f))
		return NULL;
	k = calloc(1, sizeof *k);
	if (!k) {
		fclose(f);
		return NULL;
	}
	while (fgets(line, sizeof line, f)) {
		unsigned long long a, sz;
		int off = 0;
		size_t l;
		if (sscanf(line, "%llx %llx %n", &a, &sz, &off) < 2 || !off)
			continue;
		l = strcspn(line + off, "\n");
		line[off + l] = 0;
		if (!l || a + sz < a || sz > (1ull << 32))
			continue;
		if (add(k, a, a + sz, line + off, -1))
			break;
		if (k->n > 10000000)
			break;
	}
	fclose(f);
	if (!k->n) {
		pmk__ksyms_free(k);
		return NULL;
	}
	finish(k);
	return k;
}

const char *pmk__ksyms_lookup(const pmk__ksyms *k, uint64_t addr,
			      uint64_t *start, const char **mod)
{
	size_t lo = 0, hi = k->n;
	const struct ksym *s;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &k->v[lo - 1];
	while (s > k->v && s[-1].addr == s->addr)
		s--;
	/* the kernel's last function ends at _etext */
	if (s->mod < 0 && k->text_hi > s->addr && addr >= k->text_hi)
		return NULL;
	if (addr >= s->end)
		return NULL;
	if (start)
		*start = s->addr;
	if (mod)
		*mod = s->mod >= 0 ? k->mods[s->mod] : NULL;
	return s->name;
}
