/*
 * uprobe.c: user-space probes through tracefs (uprobe.h). A probe is a
 * line "p:GROUP/EVENT PATH:0xOFFSET" written to uprobe_events, where
 * OFFSET is the file offset of the probed instruction: a symbol's address
 * translated through the PT_LOAD segment that holds it, as perf probe -x
 * computes it from the ELF symbol table (no debug information needed).
 * Removing one writes "-:GROUP/EVENT". The kernel then lists the event
 * under events/GROUP/EVENT, where the tracepoint source of the event
 * parser (lib/event/src_trace.c) finds it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/core/diag.h"
#include "lib/sample/uprobe.h"

#if PMK_HAVE_DW
#include <gelf.h>
#include <libelf.h>
#endif

static const char *const dirs[] = {"/sys/kernel/tracing",
				   "/sys/kernel/debug/tracing"};

const char *pmk__uprobe_dir(void)
{
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char path[64];
		snprintf(path, sizeof path, "%s/uprobe_events", dirs[i]);
		if (access(path, F_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

static int no_tracefs(pmk_diag *d)
{
	return pmk__diag_file(d, PMK_ENOTSUP, ENOENT, NULL,
			      "mount tracefs (mount -t tracefs nodev "
			      "/sys/kernel/tracing); the kernel needs "
			      "CONFIG_UPROBE_EVENTS",
			      "no uprobe_events in tracefs here");
}

/* "p:GROUP/EVENT PATH:0xOFF" (also "r:", and the kernel's
 * "p:GROUP/EVENT PATH:0x0000000000001139 ARGS"). 0 when it parses. */
static int parse_line(const char *line, pmk__uprobe *u)
{
	const char *g, *slash, *sp, *colon, *end;
	size_t gl, el, pl;
	memset(u, 0, sizeof *u);
	if ((line[0] != 'p' && line[0] != 'r') || line[1] != ':')
		return -1;
	u->kind = line[0];
	g = line + 2;
	slash = strchr(g, '/');
	sp = strchr(g, ' ');
	if (!slash || !sp || slash > sp)
		return -1;
	gl = (size_t)(slash - g);
	el = (size_t)(sp - slash - 1);
	end = sp + 1 + strcspn(sp + 1, " \n");
	colon = end;
	while (colon > sp + 1 && *colon != ':')
		colon--;
	pl = (size_t)(colon - sp - 1);
	if (!gl || !el || gl >= sizeof u->group || el >= sizeof u->event ||
	    *colon != ':' || !pl || pl >= sizeof u->path)
		return -1;
	memcpy(u->group, g, gl);
	memcpy(u->event, slash + 1, el);
	memcpy(u->path, sp + 1, pl);
	u->off = strtoull(colon + 1, NULL, 0);
	return 0;
}

int pmk__uprobe_foreach(int (*fn)(const pmk__uprobe *u, void *arg), void *arg,
			pmk_diag *d)
{
	const char *dir = pmk__uprobe_dir();
	char path[64], line[4352];
	FILE *f;
	int rc = 0;
	if (!dir)
		return no_tracefs(d);
	snprintf(path, sizeof path, "%s/uprobe_events", dir);
	f = fopen(path, "re");
	if (!f)
		return pmk__diag_file(d, errno == EACCES ? PMK_EPERM : PMK_EIO,
				      errno, path,
				      errno == EACCES ? "run as root" : NULL,
				      "cannot read '%s'", path);
	while (!rc && fgets(line, sizeof line, f)) {
		pmk__uprobe u;
		if (parse_line(line, &u) == 0)
			rc = fn(&u, arg);
	}
	fclose(f);
	return rc;
}

/* One command written to uprobe_events. */
static int write_cmd(const char *cmd, const char *what, pmk_diag *d)
{
	const char *dir = pmk__uprobe_dir();
	char path[64];
	size_t n = strlen(cmd);
	ssize_t k;
	int fd, e;
	if (!dir)
		return no_tracefs(d);
	snprintf(path, sizeof path, "%s/uprobe_events", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return pmk__diag_file(
		    d, e == EACCES || e == EPERM ? PMK_EPERM : PMK_ESYS, e,
		    path, e == EACCES || e == EPERM ? "run as root" : NULL,
		    "cannot open '%s' to %s: %s", path, what, strerror(e));
	}
	k = write(fd, cmd, n);
	e = errno;
	close(fd);
	if (k == (ssize_t)n)
		return 0;
	if (k >= 0)
		e = EIO;
	return pmk__diag_file(d,
			      e == EEXIST ? PMK_EEXIST
			      : e == EBUSY ? PMK_EBUSY
			      : e == ENOENT ? PMK_ENOENT
					    : PMK_ESYS,
			      e, path,
			      e == EBUSY ? "stop what records it first" : NULL,
			      "the kernel refused to %s: %s", what,
			      strerror(e));
}

int pmk__uprobe_add(const pmk__uprobe *u, pmk_diag *d)
{
	char cmd[4352];
	int n = snprintf(cmd, sizeof cmd, "%c:%s/%s %s:0x%llx\n",
			 u->kind ? u->kind : 'p', u->group, u->event, u->path,
			 (unsigned long long)u->off);
	if (n < 0 || (size_t)n >= sizeof cmd || strpbrk(u->path, " \n"))
		return pmk__diag_file(d, PMK_EINVAL, 0, u->path, NULL,
				      "cannot probe '%s': a path with spaces "
				      "or too long",
				      u->path);
	return write_cmd(cmd, "add the probe", d);
}

int pmk__uprobe_del(const char *group, const char *event, pmk_diag *d)
{
	char cmd[2 * PMK__UPROBE_NAME_MAX + 8];
	snprintf(cmd, sizeof cmd, "-:%s/%s\n", group, event);
	return write_cmd(cmd, "remove the probe", d);
}

void pmk__uprobe_group(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n = 0;
	base = base ? base + 1 : path;
	while (base[n] && (isalnum((unsigned char)base[n]) || base[n] == '_'))
		n++;
	snprintf(buf, size, "probe_%.*s", (int)n, base);
}

#if PMK_HAVE_DW

/* perf's label: an untyped symbol in a section named like text or data,
 * of default or protected visibility. */
static int is_label(Elf *elf, size_t shstrndx, const GElf_Sym *s)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	const char *n;
	int vis = GELF_ST_VISIBILITY(s->st_other);
	if (GELF_ST_TYPE(s->st_info) != STT_NOTYPE ||
	    s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS ||
	    s->st_shndx >= SHN_LORESERVE || vis == STV_HIDDEN ||
	    vis == STV_INTERNAL)
		return 0;
	scn = elf_getscn(elf, s->st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && (strstr(n, "text") || strstr(n, "data"));
}

/* The file offset of link-time address `va` through the PT_LOAD
 * segments; `va` itself when none holds it (a relocatable object). */
static uint64_t file_offset(Elf *elf, uint64_t va)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) != 0)
		return va;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t sz;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (va >= ph.p_vaddr && va - ph.p_vaddr < sz)
			return va - ph.p_vaddr + ph.p_offset;
	}
	return va;
}

static int walk(Elf *elf, Elf64_Word type,
		int (*fn)(const char *, uint64_t, int, void *), void *arg,
		int *found)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t n;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		*found = 1;
		n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;
			char buf[512];
			int t, func, rc;
			size_t at;
			if (!gelf_getsym(data, (int)i, &s) || !s.st_name ||
			    s.st_shndx == SHN_UNDEF)
				continue;
			t = GELF_ST_TYPE(s.st_info);
			func = t == STT_FUNC || t == STT_GNU_IFUNC;
			if (!func && !(t == STT_OBJECT && s.st_shndx != SHN_ABS) &&
			    !is_label(elf, shstrndx, &s))
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			at = strcspn(name, "@");
			if (name[at] && at > 0 && at < sizeof buf) {
				memcpy(buf, name, at);
				buf[at] = 0;
				name = buf;
			}
			rc = fn(name, file_offset(elf, s.st_value), func, arg);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int pmk__elf_symbols(const char *path,
		     int (*fn)(const char *name, uint64_t off, int func,
			       void *arg),
		     void *arg, pmk_diag *d)
{
	int fd, rc = 0, found = 0;
	Elf *elf;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return pmk__diag_file(d, PMK_EIO, errno, path, NULL,
				      "cannot read '%s': %s", path,
				      strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		rc = pmk__diag_file(d, PMK_EFORMAT, 0, path, NULL,
				    "'%s' is not an ELF file", path);
	} else {
		rc = walk(elf, SHT_SYMTAB, fn, arg, &found);
		if (!rc && !found)
			rc = walk(elf, SHT_DYNSYM, fn, arg, &found);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}

#else

int pmk__elf_symbols(const char *path,
		     int (*fn)(const char *name, uint64_t off, int func,
			       void *arg),
		     void *arg, pmk_diag *d)
{
	(void)fn;
	(void)arg;
	return pmk__diag_file(d, PMK_ENOTSUP, 0, path,
			      "build pmkit with elfutils (libelf-dev, "
			      "libdw-dev)",
			      "this pmkit reads no ELF symbols");
}

#endif
