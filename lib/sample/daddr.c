/*
 * daddr.c: which data object a sampled data address falls in. A profile
 * records the executable mappings of each process; a mapped file's load
 * bias follows from one of them (its start against the link-time address
 * of its file offset), and an address inside the file's image (its
 * PT_LOAD segments, .data and .bss included) is looked up among the file's
 * sized data symbols. Other addresses are named by the data mapping that
 * holds them, where the recording has data maps (pmkit record --data asks
 * the kernel for them): an anonymous mapping (a large heap allocation) by
 * its size and address, [heap] and [stack] by name. The rest are grouped
 * by 4 KiB page.
 */
#include <stdio.h>
#include <string.h>

#include "sample/profile.h"

/* The file of process `pid` whose image holds `addr`; -1 when none. */
static int image_of(pmk_profile *p, const struct proc *pr, uint64_t addr,
		    uint64_t *vaddr)
{
	for (int i = pr->nmap - 1; i >= 0; i--) {
		const struct pmap *m = &pr->maps[i];
		pmk__symtab *st;
		uint64_t lo, hi, v;
		if (m->dso < 2 || (st = pmk__dso_symtab(p, m->dso)) == NULL ||
		    pmk__symtab_image(st, &lo, &hi) != 0)
			continue;
		/* the map's start is the link-time address of its file
		 * offset, moved by the load bias */
		v = addr - (m->start - pmk__symtab_vaddr(st, m->pgoff));
		if (v >= lo && v < hi) {
			*vaddr = v;
			return m->dso;
		}
	}
	return -1;
}

/* The newest data map of `pr` holding `addr`, or NULL. */
static const struct pmap *data_map(const struct proc *pr, uint64_t addr)
{
	for (int i = pr->nmap - 1; i >= 0; i--)
		if (pr->maps[i].data && addr >= pr->maps[i].start &&
		    addr < pr->maps[i].end)
			return &pr->maps[i];
	return NULL;
}

static void map_key(const pmk_profile *p, const struct pmap *m, char *key,
		    size_t size)
{
	const char *path = p->dso[m->dso].path;
	uint64_t kb = (m->end - m->start) >> 10;
	if (path[0] == '[') /* [heap], [stack], from /proc/PID/maps */
		snprintf(key, size, "%s", path);
	else if (path[0] != '/' || !strcmp(path, "//anon"))
		snprintf(key, size, "[anon %llu %s at 0x%llx]",
			 (unsigned long long)(kb >= 10240 ? kb >> 10 : kb),
			 kb >= 10240 ? "MB" : "KB",
			 (unsigned long long)m->start);
	else
		snprintf(key, size, "%s", p->dso[m->dso].unk);
}

int pmk__data_key(pmk_profile *p, uint32_t pid, uint64_t addr, char *key,
		  size_t size)
{
	if (addr >> 63) { /* x86-64 and arm64 kernel half */
		snprintf(key, size, "[kernel data]");
		return DSO_KERNEL;
	}
	for (int depth = 0; depth < 16; depth++) {
		struct proc *pr = pmk__proc_find(p, pid);
		uint64_t v;
		int dso;
		if (!pr)
			break;
		dso = image_of(p, pr, addr, &v);
		if (dso >= 0) {
			const char *name = pmk__symtab_object(
			    pmk__dso_symtab(p, dso), v, NULL);
			snprintf(key, size, "%s",
				 name ? name : p->dso[dso].unk);
			return dso;
		}
		{
			const struct pmap *m = data_map(pr, addr);
			if (m) {
				map_key(p, m, key, size);
				return m->dso;
			}
		}
		/* a child shares its parent's mappings until it execs */
		if (!pr->has_parent || pr->ppid == pid)
			break;
		pid = pr->ppid;
	}
	snprintf(key, size, "0x%llx", (unsigned long long)(addr & ~0xfffull));
	return DSO_UNKNOWN;
}
