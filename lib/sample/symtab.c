/*
 * symtab.c: load one ELF file's function symbols (.symtab, else .dynsym)
 * and its data objects into sorted arrays, its PT_LOAD segments for offset
 * translation and for the extent of its image, and its DWARF for source
 * lines. A file stripped of its symbol table or debug information (a
 * distribution's library) takes them from its separate debug file, found
 * by build id under /usr/lib/debug/.build-id (Debian's -dbg and -dbgsym
 * packages), when one is installed. Each file is opened once by the profile
 * layer and every lookup after that is a binary search. The last few files
 * a profile let go of stay loaded (CACHE_N of them, while the file is the
 * same: device, inode, size and time), so that the next profile of the same
 * programs (a second report, each input of a fuzzer: 20 inputs a second
 * when every one loaded libc again) starts from them; a table is never
 * shared by two profiles at once, as its DWARF is read on first use.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample/addrmemo.h"
#include "sample/symtab.h"

#if PMK_HAVE_DW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

struct sym {
	uint64_t addr, size;
	const char *name;
	int rank;	 /* binding class: global 0, local 1, weak 2 */
	uint32_t len;	 /* the name's length as the file has it */
	uint32_t seq;	 /* position in the file's symbol table */
};

struct seg {
	uint64_t off, filesz, vaddr, memsz;
};

struct pmk__symtab {
	int fd, dbg_fd;
	Elf *elf, *dbg;	       /* the file; its separate debug file, or NULL */
	Dwarf *dw;	       /* NULL without debug info */
	struct sym *sym, *obj; /* functions; sized data objects */
	size_t nsym, nobj;
	char **owned; /* names made here (versions stripped) */
	size_t nowned;
	struct seg seg[32];
	int nseg;
	uint8_t build_id[20];
	int build_id_len;
	void *mem; /* a copy of an in-memory image (the vdso), or NULL */
	int has_dwarf, dw_tried;
	pmk__addrmemo *memo; /* lines and inline chains asked before */
};

/* The file's DWARF (or its debug file's), opened on first use. */
static Dwarf *dw_get(pmk__symtab *st)
{
	if (!st->dw_tried) {
		st->dw_tried = 1;
		if (st->has_dwarf)
			st->dw = dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
		if (!st->dw && st->dbg)
			st->dw = dwarf_begin_elf(st->dbg, DWARF_C_READ, NULL);
	}
	return st->dw;
}

/* Aliases at one address (common in a C library's full symbol table and
 * in the vdso) show under the name perf shows, by perf's documented
 * order: a sized symbol before an unsized one; a non-weak one before a
 * weak one and a global before a local; fewer leading underscores; the
 * longer name as the file spells it (a version suffix counts, as perf
 * keeps it); then the earlier in the file. So libc's write is
 * __GI___libc_write (its locals beat the weak write and __write), memmove's
 * and memcpy's shared body is __memmove_avx512_unaligned_erms,
 * clock_gettime is clock_gettime (from clock_gettime@@GLIBC_2.17, not the
 * global __clock_gettime), and the vdso's is __vdso_clock_gettime. */
static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	size_t ux, uy;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	ux = strspn(x->name, "_");
	uy = strspn(y->name, "_");
	if (ux != uy)
		return ux < uy ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int bind_rank(int bind)
{
	return bind == STB_WEAK ? 2 : bind != STB_GLOBAL;
}

/* `name` without its "@VERSION" or "@@VERSION" suffix, owned by `st`;
 * `name` itself when it has none or memory is short. */
static const char *unversioned(pmk__symtab *st, const char *name)
{
	const char *at = strchr(name, '@');
	char **v, *c;
	if (!at || at == name)
		return name;
	v = realloc(st->owned, (st->nowned + 1) * sizeof *v);
	if (!v)
		return name;
	st->owned = v;
	c = strndup(name, (size_t)(at - name));
	if (!c)
		return name;
	st->owned[st->nowned++] = c;
	return c;
}

/* A label in code, as perf counts it a function: an untyped symbol of
 * default visibility in an executable section (ld.so's _dl_start_user,
 * assembly entry points). It has no size: it reaches to the next symbol. */
static int code_label(Elf *elf, const GElf_Sym *s)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	if (GELF_ST_TYPE(s->st_info) != STT_NOTYPE ||
	    GELF_ST_VISIBILITY(s->st_other) != STV_DEFAULT ||
	    s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return 0;
	scn = elf_getscn(elf, s->st_shndx);
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

static void load_syms(pmk__symtab *st, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n;
	struct sym *v, *o;
	if (!data || sh->sh_entsize == 0)
		return;
	n = sh->sh_size / sh->sh_entsize;
	if (n == 0 || n > 50000000)
		return;
	v = realloc(st->sym, (st->nsym + n) * sizeof *v);
	if (!v)
		return;
	st->sym = v;
	o = realloc(st->obj, (st->nobj + n) * sizeof *o);
	if (!o)
		return;
	st->obj = o;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int type, func;
		struct sym *to;
		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		func = type == STT_FUNC || type == STT_GNU_IFUNC ||
		       code_label(elf, &s);
		/* data objects only with a size: an address is in one or
		 * not (thread-local ones have no fixed address) */
		if (!func && (type != STT_OBJECT || s.st_size == 0))
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_value == 0)
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		to = func ? &v[st->nsym++] : &o[st->nobj++];
		to->addr = s.st_value;
		to->size = s.st_size;
		to->rank = bind_rank(GELF_ST_BIND(s.st_info));
		to->len = (uint32_t)strlen(name);
		to->seq = (uint32_t)(func ? st->nsym : st->nobj);
		to->name = unversioned(st, name);
	}
}

/* A name made here, owned by `st`; NULL when memory is short. */
static const char *own(pmk__symtab *st, char *c)
{
	char **v;
	if (!c)
		return NULL;
	v = realloc(st->owned, (st->nowned + 1) * sizeof *v);
	if (!v) {
		free(c);
		return NULL;
	}
	st->owned = v;
	st->owned[st->nowned++] = c;
	return c;
}

static Elf_Scn *section_named(Elf *elf, const char *want, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;
		if (!gelf_getshdr(scn, out))
			continue;
		n = elf_strptr(elf, shstrndx, out->sh_name);
		if (n && !strcmp(n, want))
			return scn;
	}
	return NULL;
}

/* PLT entries as "name@plt" ("@plt" where the relocation names no symbol,
 * as perf shows them): the i-th relocation of .rela.plt names the function
 * whose stub is the i-th entry of .plt.sec (x86-64 with IBT) or
 * the (i+1)-th of .plt (the first is the resolver's), 16 bytes each; on
 * arm64 .plt has a 32-byte header. Other machines get none. */
static void load_plt(pmk__symtab *st, Elf *elf)
{
	GElf_Shdr rsh, psh, dsh;
	GElf_Ehdr eh;
	Elf_Scn *rel, *plt, *dyn;
	Elf_Data *rd, *dd;
	uint64_t first, step = 16;
	size_t n;
	struct sym *v;
	if (!gelf_getehdr(elf, &eh))
		return;
	rel = section_named(elf, ".rela.plt", &rsh);
	if (!rel || rsh.sh_type != SHT_RELA || !rsh.sh_entsize)
		return;
	if (eh.e_machine == EM_X86_64) {
		plt = section_named(elf, ".plt.sec", &psh);
		if (plt)
			first = psh.sh_addr;
		else if ((plt = section_named(elf, ".plt", &psh)))
			first = psh.sh_addr + 16;
		else
			return;
	} else if (eh.e_machine == EM_AARCH64) {
		if (!(plt = section_named(elf, ".plt", &psh)))
			return;
		first = psh.sh_addr + 32;
	} else {
		return;
	}
	dyn = elf_getscn(elf, rsh.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dsh))
		return;
	rd = elf_getdata(rel, NULL);
	dd = elf_getdata(dyn, NULL);
	if (!rd || !dd)
		return;
	n = rsh.sh_size / rsh.sh_entsize;
	if (n == 0 || n > 1000000 || (n * step) > psh.sh_size + step)
		return;
	v = realloc(st->sym, (st->nsym + n) * sizeof *v);
	if (!v)
		return;
	st->sym = v;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym s;
		const char *name;
		char *c;
		if (!gelf_getrela(rd, (int)i, &r) ||
		    !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s))
			continue;
		name = elf_strptr(elf, dsh.sh_link, s.st_name);
		if (!name) /* an IRELATIVE entry names no symbol: "@plt", as
			      perf names it */
			name = "";
		c = malloc(strlen(name) + 5);
		if (!c)
			return;
		sprintf(c, "%s@plt", name);
		if (!(name = own(st, c)))
			return;
		v[st->nsym].addr = first + i * step;
		v[st->nsym].size = step;
		v[st->nsym].rank = 0;
		v[st->nsym].len = (uint32_t)strlen(name);
		v[st->nsym].seq = (uint32_t)st->nsym;
		v[st->nsym].name = name;
		st->nsym++;
	}
}

/* Every section of `type` of `elf` into the tables; how many there were. */
static int load_sections(pmk__symtab *st, Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	int n = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type) {
			load_syms(st, elf, scn, &sh);
			n++;
		}
	}
	return n;
}

/* The separate debug file of `st` by its build id, when installed. */
static void open_debug_file(pmk__symtab *st)
{
	char path[128];
	int n;
	if (st->build_id_len < 2)
		return;
	n = snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/",
		     st->build_id[0]);
	for (int i = 1; i < st->build_id_len; i++)
		n += snprintf(path + n, sizeof path - (size_t)n, "%02x",
			      st->build_id[i]);
	snprintf(path + n, sizeof path - (size_t)n, ".debug");
	st->dbg_fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (st->dbg_fd < 0)
		return;
	st->dbg = elf_begin(st->dbg_fd, ELF_C_READ_MMAP, NULL);
	if (st->dbg && elf_kind(st->dbg) == ELF_K_ELF)
		return;
	if (st->dbg)
		elf_end(st->dbg);
	st->dbg = NULL;
	close(st->dbg_fd);
	st->dbg_fd = -1;
}

static void load_build_id(pmk__symtab *st)
{
	size_t n;
	if (elf_getphdrnum(st->elf, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;
		if (!gelf_getphdr(st->elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(st->elf, (int64_t)ph.p_offset,
					 ph.p_filesz, ELF_T_NHDR);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
				st->build_id_len =
				    nh.n_descsz > 20 ? 20 : (int)nh.n_descsz;
				memcpy(st->build_id, (char *)d->d_buf + doff,
				       (size_t)st->build_id_len);
				return;
			}
		}
	}
}

/* A copy of this process's vdso image (the kernel maps the same one into
 * every process), its extent read from /proc/self/maps. */
static void *vdso_copy(size_t *len)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	void *copy = NULL;
	if (!f)
		return NULL;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo, hi;
		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%llx-%llx", &lo, &hi) != 2 || hi <= lo ||
		    hi - lo > (1u << 24))
			continue;
		copy = malloc(hi - lo);
		if (copy) {
			memcpy(copy, (const void *)(uintptr_t)lo, hi - lo);
			*len = hi - lo;
		}
		break;
	}
	fclose(f);
	return copy;
}

static void symtab_destroy(pmk__symtab *st);

static pmk__symtab *symtab_load(const char *path)
{
	pmk__symtab *st;
	int have_symtab = 0;
	size_t nph;
	struct stat sb;
	int vdso = !strcmp(path, "[vdso]");
	if (path[0] != '/' && !vdso)
		return NULL;
	elf_version(EV_CURRENT);
	st = calloc(1, sizeof *st);
	if (!st)
		return NULL;
	st->fd = st->dbg_fd = -1;
	if (vdso) {
		size_t len = 0;
		st->mem = vdso_copy(&len);
		if (!st->mem)
			goto fail;
		st->elf = elf_memory(st->mem, len);
	} else {
		st->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (st->fd < 0 || fstat(st->fd, &sb) != 0 ||
		    !S_ISREG(sb.st_mode))
			goto fail;
		st->elf = elf_begin(st->fd, ELF_C_READ_MMAP, NULL);
	}
	if (!st->elf || elf_kind(st->elf) != ELF_K_ELF)
		goto fail;
	if (elf_getphdrnum(st->elf, &nph) == 0) {
		for (size_t i = 0; i < nph && st->nseg < 32; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(st->elf, (int)i, &ph) &&
			    ph.p_type == PT_LOAD) {
				st->seg[st->nseg].off = ph.p_offset;
				st->seg[st->nseg].filesz = ph.p_filesz;
				st->seg[st->nseg].vaddr = ph.p_vaddr;
				st->seg[st->nseg].memsz = ph.p_memsz;
				st->nseg++;
			}
		}
	}
	load_build_id(st);
	have_symtab = load_sections(st, st->elf, SHT_SYMTAB) > 0;
	/* DWARF is opened on the first line lookup (reading it can mean
	 * decompressing megabytes): here only whether the file has some */
	{
		GElf_Shdr sh;
		st->has_dwarf = section_named(st->elf, ".debug_info", &sh) &&
				sh.sh_type != SHT_NOBITS;
	}
	if (!have_symtab || !st->has_dwarf)
		open_debug_file(st);
	if (!have_symtab && st->dbg)
		have_symtab = load_sections(st, st->dbg, SHT_SYMTAB) > 0;
	if (!have_symtab)
		load_sections(st, st->elf, SHT_DYNSYM);
	load_plt(st, st->elf);
	if (st->nsym)
		qsort(st->sym, st->nsym, sizeof *st->sym, sym_cmp);
	if (st->nobj)
		qsort(st->obj, st->nobj, sizeof *st->obj, sym_cmp);

	return st;
fail:
	symtab_destroy(st);
	return NULL;
}

static void symtab_destroy(pmk__symtab *st)
{
	pmk__addrmemo_free(st->memo);
	if (st->dw)
		dwarf_end(st->dw);
	if (st->elf)
		elf_end(st->elf);
	if (st->dbg)
		elf_end(st->dbg);
	if (st->fd >= 0)
		close(st->fd);
	if (st->dbg_fd >= 0)
		close(st->dbg_fd);
	free(st->mem);
	free(st->sym);
	free(st->obj);
	for (size_t i = 0; i < st->nowned; i++)
		free(st->owned[i]);
	free(st->owned);
	free(st);
}

/* ---- tables kept for the next profile ---- */

enum { CACHE_N = 8 };
static struct cached {
	char *path;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim;
	pmk__symtab *st;
	int busy;      /* a profile holds it */
	uint64_t used; /* clock of the last open, for eviction */
} cache[CACHE_N];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t cache_clock;

static int same_file(const struct cached *c, const struct stat *sb)
{
	return c->dev == sb->st_dev && c->ino == sb->st_ino &&
	       c->size == sb->st_size && c->mtim.tv_sec == sb->st_mtim.tv_sec &&
	       c->mtim.tv_nsec == sb->st_mtim.tv_nsec;
}

pmk__symtab *pmk__symtab_open(const char *path)
{
	struct stat sb;
	pmk__symtab *st, *old = NULL;
	struct cached *slot = NULL;
	int vdso = !strcmp(path, "[vdso]");
	if (path[0] != '/' && !vdso)
		return NULL;
	memset(&sb, 0, sizeof sb); /* the vdso: this process's, all zero */
	if (!vdso && stat(path, &sb) != 0)
		return NULL;
	pthread_mutex_lock(&cache_lock);
	for (int i = 0; i < CACHE_N; i++) {
		struct cached *c = &cache[i];
		if (c->st && !c->busy && !strcmp(c->path, path) &&
		    same_file(c, &sb)) {
			c->busy = 1;
			c->used = ++cache_clock;
			pthread_mutex_unlock(&cache_lock);
			return c->st;
		}
	}
	pthread_mutex_unlock(&cache_lock);
	st = symtab_load(path);
	if (!st)
		return NULL;
	if (st->fd >= 0 && fstat(st->fd, &sb) != 0)
		return st; /* not kept */
	pthread_mutex_lock(&cache_lock);
	for (int i = 0; i < CACHE_N; i++) { /* a free slot, else the oldest */
		struct cached *c = &cache[i];
		if (c->busy)
			continue;
		if (!slot || !c->st || (slot->st && c->used < slot->used))
			slot = c;
		if (!c->st)
			break;
	}
	if (slot) {
		char *p = strdup(path);
		if (p) {
			old = slot->st;
			free(slot->path);
			slot->path = p;
			slot->dev = sb.st_dev;
			slot->ino = sb.st_ino;
			slot->size = sb.st_size;
			slot->mtim = sb.st_mtim;
			slot->st = st;
			slot->busy = 1;
			slot->used = ++cache_clock;
		}
	}
	pthread_mutex_unlock(&cache_lock);
	if (old)
		symtab_destroy(old);
	return st;
}

void pmk__symtab_free(pmk__symtab *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&cache_lock);
	for (int i = 0; i < CACHE_N; i++)
		if (cache[i].st == st) {
			cache[i].busy = 0; /* kept for the next profile */
			pthread_mutex_unlock(&cache_lock);
			return;
		}
	pthread_mutex_unlock(&cache_lock);
	symtab_destroy(st);
}

/* At exit, the tables nobody holds (so that leak checkers see none). */
__attribute__((destructor)) static void cache_release(void)
{
	pthread_mutex_lock(&cache_lock);
	for (int i = 0; i < CACHE_N; i++)
		if (cache[i].st && !cache[i].busy) {
			symtab_destroy(cache[i].st);
			free(cache[i].path);
			memset(&cache[i], 0, sizeof cache[i]);
		}
	pthread_mutex_unlock(&cache_lock);
}

uint64_t pmk__symtab_vaddr(const pmk__symtab *st, uint64_t off)
{
	for (int i = 0; i < st->nseg; i++)
		if (off >= st->seg[i].off &&
		    off - st->seg[i].off < st->seg[i].filesz)
			return off - st->seg[i].off + st->seg[i].vaddr;
	return off;
}

/* The symbol of `v[0..n)` (sorted by sym_cmp) holding `vaddr`. */
static const char *lookup(const struct sym *v, size_t n, uint64_t vaddr,
			  uint64_t *start, uint64_t *size)
{
	size_t lo = 0, hi = n;
	const struct sym *s;
	/* last symbol with addr <= vaddr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &v[lo - 1];
	/* prefer the sized symbol at the same address */
	while (s > v && s[-1].addr == s->addr)
		s--;
	if (s->size && vaddr - s->addr >= s->size)
		return NULL;
	if (start)
		*start = s->addr;
	if (size)
		*size = s->size;
	return s->name;
}

const char *pmk__symtab_function(const pmk__symtab *st, uint64_t vaddr,
				 uint64_t *start, uint64_t *size)
{
	return lookup(st->sym, st->nsym, vaddr, start, size);
}

const char *pmk__symtab_object(const pmk__symtab *st, uint64_t vaddr,
			       uint64_t *start)
{
	return lookup(st->obj, st->nobj, vaddr, start, NULL);
}

int pmk__symtab_image(const pmk__symtab *st, uint64_t *lo, uint64_t *hi)
{
	if (!st->nseg)
		return -1;
	*lo = UINT64_MAX;
	*hi = 0;
	for (int i = 0; i < st->nseg; i++) {
		const struct seg *s = &st->seg[i];
		if (s->vaddr < *lo)
			*lo = s->vaddr;
		if (s->vaddr + s->memsz > *hi)
			*hi = s->vaddr + s->memsz;
	}
	return 0;
}

/* ---- lines and inline chains, kept by address ----
 * Each lookup walks a compile unit's DWARF (dwarf_getscopes visits its DIEs
 * in order), and every profile, view and report asks again for the same
 * addresses: the answers stay with the table, which itself outlives the
 * profile (the cache above), up to MEMO_MAX addresses. */
enum { MEMO_MAX = 1 << 16, MEMO_INL = 32 };
struct memo {
	unsigned char have_line, have_inl;
	int line_rc, line, ninl;
	const char *file;
	struct pmk__inl *inl; /* ninl of them, or NULL */
};

static void memo_release(void *rec)
{
	free(((struct memo *)rec)->inl);
}

static struct memo *memo_of(pmk__symtab *st, uint64_t vaddr)
{
	int fresh;
	if (!st->memo &&
	    !(st->memo = pmk__addrmemo_new(sizeof(struct memo), MEMO_MAX,
					   memo_release)))
		return NULL;
	return pmk__addrmemo_get(st->memo, vaddr, &fresh);
}

static int line_lookup(pmk__symtab *st, uint64_t vaddr, const char **file,
		       int *line);
static int inlines_lookup(pmk__symtab *st, uint64_t vaddr,
			  struct pmk__inl *out, int max);

int pmk__symtab_line(pmk__symtab *st, uint64_t vaddr, const char **file,
		     int *line)
{
	struct memo *m = memo_of(st, vaddr);
	if (!m)
		return line_lookup(st, vaddr, file, line);
	if (!m->have_line) {
		m->have_line = 1;
		m->line_rc = line_lookup(st, vaddr, &m->file, &m->line);
	}
	if (m->line_rc == 0) {
		*file = m->file;
		*line = m->line;
	}
	return m->line_rc;
}

int pmk__symtab_inlines(pmk__symtab *st, uint64_t vaddr, struct pmk__inl *out,
			int max)
{
	struct pmk__inl in[MEMO_INL];
	struct memo *m;
	int n;
	if (max <= 0)
		return 0;
	if (max > MEMO_INL || !(m = memo_of(st, vaddr)))
		return inlines_lookup(st, vaddr, out, max);
	if (!m->have_inl) {
		n = inlines_lookup(st, vaddr, in, MEMO_INL);
		if (n > 0 && !(m->inl = malloc((size_t)n * sizeof *in)))
			return inlines_lookup(st, vaddr, out, max);
		if (n > 0)
			memcpy(m->inl, in, (size_t)n * sizeof *in);
		m->ninl = n > 0 ? n : 0;
		m->have_inl = 1;
	}
	n = m->ninl < max ? m->ninl : max;
	if (n)
		memcpy(out, m->inl, (size_t)n * sizeof *out);
	return n;
}

static int line_lookup(pmk__symtab *st, uint64_t vaddr, const char **file,
		       int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *f;
	if (!dw_get(st) || !dwarf_addrdie(st->dw, vaddr, &cu))
		return -1;
	l = dwarf_getsrc_die(&cu, vaddr);
	if (!l || dwarf_lineno(l, line) != 0)
		return -1;
	f = dwarf_linesrc(l, NULL, NULL);
	if (!f)
		return -1;
	*file = f;
	return 0;
}

static int inlines_lookup(pmk__symtab *st, uint64_t vaddr,
			  struct pmk__inl *out, int max)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	int ns, n = 0;
	if (max <= 0 || !dw_get(st) || !dwarf_addrdie(st->dw, vaddr, &cu))
		return 0;
	ns = dwarf_getscopes(&cu, vaddr, &scopes);
	if (ns <= 0)
		return 0;
	/* dwarf_getscopes goes from an inlined instance up through its
	 * abstract origin's parents (the CU), so only the innermost inlined
	 * function would be seen; the scopes that contain the innermost one
	 * in the concrete tree hold every level (mid, top, ... inlined into
	 * the function) */
	{
		Dwarf_Die inner = scopes[0], *all = NULL;
		int na = dwarf_getscopes_die(&inner, &all);
		if (na > 0) {
			free(scopes);
			scopes = all;
			ns = na;
		}
	}
	if (dwarf_getsrcfiles(&cu, &files, &nfiles) != 0)
		files = NULL;
	/* innermost first: each inlined subroutine, named through its
	 * abstract origin, and the line of the call it replaced */
	for (int i = 0; i < ns && n < max; i++) {
		Dwarf_Attribute a;
		Dwarf_Word w;
		const char *name;
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_formstring(
		    dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
		out[n].name = name ? name : "[unknown]";
		out[n].linkage = dwarf_formstring(dwarf_attr_integrate(
		    &scopes[i], DW_AT_linkage_name, &a));
		if (!out[n].linkage)
			out[n].linkage = dwarf_formstring(dwarf_attr_integrate(
			    &scopes[i], DW_AT_MIPS_linkage_name, &a));
		out[n].call_file = NULL;
		out[n].call_line = 0;
		if (files && dwarf_formudata(dwarf_attr(&scopes[i],
							DW_AT_call_file, &a),
					     &w) == 0 &&
		    w < nfiles)
			out[n].call_file = dwarf_filesrc(files, w, NULL, NULL);
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a),
				    &w) == 0)
			out[n].call_line = (int)w;
		n++;
	}
	free(scopes);
	return n;
}

int pmk__symtab_line_range(pmk__symtab *st, uint64_t start, uint64_t size,
			   const char *file, int *lo, int *hi)
{
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t n;
	int found = 0;
	if (!dw_get(st) || !dwarf_addrdie(st->dw, start, &cu) ||
	    dwarf_getsrclines(&cu, &lines, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		const char *f;
		if (!l || dwarf_lineaddr(l, &a) || a < start ||
		    a >= start + (size ? size : 1) || dwarf_lineno(l, &ln) ||
		    ln <= 0)
			continue;
		f = dwarf_linesrc(l, NULL, NULL);
		if (!f || strcmp(f, file))
			continue;
		if (!found || ln < *lo)
			*lo = ln;
		if (!found || ln > *hi)
			*hi = ln;
		found = 1;
	}
	return found ? 0 : -1;
}

int pmk__symtab_build_id(const pmk__symtab *st, const uint8_t **id)
{
	*id = st->build_id;
	return st->build_id_len;
}

size_t pmk__symtab_code(const pmk__symtab *st, uint64_t vaddr, uint64_t size,
			const uint8_t **bytes, int *machine)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	if (!gelf_getehdr(st->elf, &eh))
		return 0;
	*machine = eh.e_machine;
	while ((scn = elf_nextscn(st->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		uint64_t off;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || vaddr < sh.sh_addr ||
		    vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		off = vaddr - sh.sh_addr;
		if (!d || !d->d_buf || off >= d->d_size)
			return 0;
		*bytes = (const uint8_t *)d->d_buf + off;
		return (size_t)(size < d->d_size - off ? size : d->d_size - off);
	}
	return 0;
}

#else /* no elfutils: symbolization unavailable */

pmk__symtab *pmk__symtab_open(const char *path)
{
	(void)path;
	return NULL;
}
void pmk__symtab_free(pmk__symtab *st)
{
	(void)st;
}
uint64_t pmk__symtab_vaddr(const pmk__symtab *st, uint64_t off)
{
	(void)st;
	return off;
}
const char *pmk__symtab_function(const pmk__symtab *st, uint64_t vaddr,
				 uint64_t *start, uint64_t *size)
{
	(void)st, (void)vaddr, (void)start, (void)size;
	return NULL;
}
const char *pmk__symtab_object(const pmk__symtab *st, uint64_t vaddr,
			       uint64_t *start)
{
	(void)st, (void)vaddr, (void)start;
	return NULL;
}
int pmk__symtab_image(const pmk__symtab *st, uint64_t *lo, uint64_t *hi)
{
	(void)st, (void)lo, (void)hi;
	return -1;
}
int pmk__symtab_line(pmk__symtab *st, uint64_t vaddr, const char **file,
		     int *line)
{
	(void)st, (void)vaddr, (void)file, (void)line;
	return -1;
}
int pmk__symtab_inlines(pmk__symtab *st, uint64_t vaddr, struct pmk__inl *out,
			int max)
{
	(void)st, (void)vaddr, (void)out, (void)max;
	return 0;
}
int pmk__symtab_line_range(pmk__symtab *st, uint64_t start, uint64_t size,
			   const char *file, int *lo, int *hi)
{
	(void)st, (void)start, (void)size, (void)file, (void)lo, (void)hi;
	return -1;
}
int pmk__symtab_build_id(const pmk__symtab *st, const uint8_t **id)
{
	(void)st;
	*id = NULL;
	return 0;
}
size_t pmk__symtab_code(const pmk__symtab *st, uint64_t vaddr, uint64_t size,
			const uint8_t **bytes, int *machine)
{
	(void)st, (void)vaddr, (void)size, (void)bytes, (void)machine;
	return 0;
}
#endif
